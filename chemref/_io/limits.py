"""Size limits of what chemref reads whole: one input file (``$CHEMREF_MAX_FILE_MB``), one line, and the
nesting of a JSON value (read from a file or a server)."""

from __future__ import annotations

import math
import os
import re
import stat
from itertools import accumulate

from chemref.errors import InputError, TooLargeError

__all__ = ["MAX_FILE_ENV", "DEFAULT_MAX_FILE_BYTES", "MAX_LINE_BYTES", "max_file_bytes", "megabytes",
           "regular_file", "read_limited", "read_regular", "input_problem", "file_kind", "NO_SUCH_PATH",
           "MAX_JSON_DEPTH", "json_depth_problem"]

#: environment variable that raises (or lowers) the size limit of one input file, in MB
MAX_FILE_ENV = "CHEMREF_MAX_FILE_MB"
#: default largest input file read whole (JSON, JATS XML, .ann, .txt), in bytes
DEFAULT_MAX_FILE_BYTES = 512 * 2**20
#: largest line of a JSON Lines or column file, in characters
MAX_LINE_BYTES = 64 * 2**20
#: the deepest nesting of JSON arrays and objects read (from a file, a line or a server): a deeper value is
#: refused before it is parsed, so nothing that walks a value read (Python's JSON reader and writer included)
#: runs out of stack
MAX_JSON_DEPTH = 100

# a JSON string (escapes included) and any run of bytes that is no bracket
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(rb"[^\[\]{}]+")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def json_depth_problem(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> str | None:
    """None when the JSON text ``text`` nests arrays and objects at most ``limit`` deep, else what is wrong.
    Linear, and cheap when ``text`` holds at most ``limit`` opening brackets (nearly always)."""
    open_count = text.count("[") + text.count("{") if isinstance(text, str) else text.count(b"[") + text.count(b"{")
    if open_count <= limit:
        return None
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    brackets = _NOT_BRACKET.sub(b"", _JSON_STRING.sub(b"", data))
    if max(accumulate(map(_STEP.__getitem__, brackets)), default=0) <= limit:
        return None
    return f"arrays and objects nested more than {limit} deep"


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


def megabytes(size: float) -> str:
    """A size in bytes as ``1,234.5 MB``, for messages."""
    return f"{size / 2**20:,.1f} MB"


_KINDS = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a file that is neither a regular file nor a folder is (``a FIFO``, ``a character device``...)."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


#: what :func:`input_problem` says of a path that does not exist, where folders are allowed
NO_SUCH_PATH = "no such file or folder"


def input_problem(path: str | os.PathLike[str], *, folders: bool = False) -> tuple[str, str | None] | None:
    """The one check of a path to read, made before opening it (so a FIFO, a device or a socket never blocks a
    run): None for a regular file (or a folder, with ``folders``), else ``(what is wrong, what to do)``."""
    return _inspect(os.fspath(path), folders)[1]


def _inspect(where: str, folders: bool) -> tuple[os.stat_result | None, tuple[str, str | None] | None]:
    try:
        info = os.stat(where)
    except FileNotFoundError:
        return None, (NO_SUCH_PATH if folders else "no such file", "check the path")
    except OSError as exc:
        return None, (f"cannot read: {exc.strerror or exc}", None)
    except ValueError:  # a NUL character, which no file name holds
        return None, ("not a valid path: it holds a NUL character", None)
    if stat.S_ISDIR(info.st_mode):
        return info, None if folders else ("is a folder, expected a file (it is a directory)", None)
    if not stat.S_ISREG(info.st_mode):
        return info, (f"not a regular file ({file_kind(info.st_mode)}); chemref reads only regular files"
                      + (" and folders" if folders else ""), "copy the data into a file first")
    return info, None


def regular_file(path: str | os.PathLike[str], error: type[InputError] = InputError) -> os.stat_result:
    """``os.stat(path)`` of a regular file, else ``error`` saying what is there instead
    (:func:`input_problem`)."""
    where = os.fspath(path)
    info, problem = _inspect(where, False)
    if problem is not None or info is None:
        message, hint = problem or ("no such file", None)
        raise error(message, path=where, hint=hint)
    return info


def _too_large(where: str, size: int | None, limit: int, what: str = "the file", fixed: bool = False) -> TooLargeError:
    found = f" ({megabytes(size)})" if size is not None else ""
    hint = "no file of this kind is that large: is it the right file?" if fixed else \
        f"if it is genuine, raise the limit with {MAX_FILE_ENV}=<megabytes>"
    return TooLargeError(f"{what} is larger than the limit of {megabytes(limit)}{found}", path=where, hint=hint)


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
        fd = os.open(where, os.O_RDONLY)
        try:
            data = _read_up_to(fd, cap)
        finally:
            os.close(fd)
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", path=where) from None
    if data is None:  # the file grew after the stat
        raise _too_large(where, None, cap, fixed=limit is not None)
    return data


def read_regular(path: str, limit: int, *, follow: bool = True, hint: str | None = None) -> bytes:
    """The bytes of the regular file ``path``, checked on the open file (``fstat``) rather than the path:
    :class:`InputError` for anything else, :class:`TooLargeError` past ``limit`` bytes (``hint`` says how to
    raise it). ``follow=False``: a symbolic link is not opened. A file that cannot be opened raises the
    :class:`OSError` (the caller names what is missing)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | (0 if follow else getattr(os, "O_NOFOLLOW", 0))
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError("not a regular file (a FIFO, socket or device); chemref reads only regular files",
                             path=path)
        if info.st_size > limit:
            raise TooLargeError(f"the file ({megabytes(info.st_size)}) is larger than the limit of "
                                f"{megabytes(limit)}", path=path, hint=hint)
        data = _read_up_to(fd, limit)
        if data is None:
            raise TooLargeError(f"the file grew past the limit of {megabytes(limit)} while it was read", path=path)
        return data
    finally:
        os.close(fd)


def _read_up_to(fd: int, cap: int) -> bytes | None:
    """The bytes of the open file ``fd``, or None when there are more than ``cap`` (it grew after its size was
    checked). ``os.read`` in blocks: cheaper than a buffered file object for thousands of small files."""
    data = os.read(fd, 1 << 16)
    if len(data) < 1 << 16:
        return data if len(data) <= cap else None
    parts = [data]
    size = len(data)
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(parts) if size <= cap else None
        size += len(chunk)
        if size > cap:
            return None
        parts.append(chunk)
