"""Size limits of what chemref reads whole: one input file (``$CHEMREF_MAX_FILE_MB``) and one line."""

from __future__ import annotations

import math
import os
import stat

from chemref.errors import InputError, TooLargeError

__all__ = ["MAX_FILE_ENV", "DEFAULT_MAX_FILE_BYTES", "MAX_LINE_BYTES", "max_file_bytes", "regular_file",
           "read_limited"]

#: environment variable that raises (or lowers) the size limit of one input file, in MB
MAX_FILE_ENV = "CHEMREF_MAX_FILE_MB"
#: default largest input file read whole (JSON, JATS XML, .ann, .txt), in bytes
DEFAULT_MAX_FILE_BYTES = 512 * 2**20
#: largest line of a JSON Lines or column file, in characters
MAX_LINE_BYTES = 64 * 2**20


def max_file_bytes() -> int:
    """The size limit of one input file: ``$CHEMREF_MAX_FILE_MB`` megabytes, else 512 MB."""
    value = os.environ.get(MAX_FILE_ENV)
    if not value:
        return DEFAULT_MAX_FILE_BYTES
    try:
        megabytes = float(value)
    except ValueError:
        megabytes = -1.0
    if not 0 < megabytes < math.inf:
        raise InputError(f"{MAX_FILE_ENV}={value!r} is not a finite positive number of megabytes",
                         hint="a limit cannot be infinite: give a large number instead")
    return int(megabytes * 2**20)


def _mb(size: int) -> str:
    return f"{size / 2**20:,.1f} MB"


def regular_file(path: str | os.PathLike[str], error: type[InputError] = InputError) -> os.stat_result:
    """``os.stat(path)`` of a regular file, else ``error`` saying what is there instead.

    Checked before opening, so a FIFO, a device or a socket never blocks a run.
    """
    where = os.fspath(path)
    try:
        info = os.stat(where)
    except FileNotFoundError:
        raise error("no such file", path=where, hint="check the path") from None
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", path=where) from None
    if stat.S_ISDIR(info.st_mode):
        raise error("is a folder, expected a file (it is a directory)", path=where)
    if not stat.S_ISREG(info.st_mode):
        raise error("not a regular file (a FIFO, socket or device); chemref reads only regular files",
                    path=where, hint="copy the data into a file first")
    return info


def _too_large(where: str, size: int | None, limit: int, what: str = "the file", fixed: bool = False) -> TooLargeError:
    found = f" ({_mb(size)})" if size is not None else ""
    hint = "no file of this kind is that large: is it the right file?" if fixed else \
        f"if it is genuine, raise the limit with {MAX_FILE_ENV}=<megabytes>"
    return TooLargeError(f"{what} is larger than the limit of {_mb(limit)}{found}", path=where, hint=hint)


def read_limited(path: str | os.PathLike[str], limit: int | None = None,
                 error: type[InputError] = InputError) -> bytes:
    """The bytes of the regular file ``path``; :class:`TooLargeError` beyond ``limit`` (default:
    :func:`max_file_bytes`), checked on the size before reading and on the bytes actually read."""
    where = os.fspath(path)
    info = regular_file(where, error)
    cap = max_file_bytes() if limit is None else limit
    if info.st_size > cap:
        raise _too_large(where, info.st_size, cap, fixed=limit is not None)
    try:
        with open(where, "rb") as handle:
            data = handle.read(cap + 1)
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", path=where) from None
    if len(data) > cap:  # the file grew after the stat
        raise _too_large(where, None, cap, fixed=limit is not None)
    return data
