"""Checks on output paths before any work (a regular file that can be written, not an input, not another
output; ``-`` for standard output) and the one-line error for an output that cannot be written."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Iterable, Mapping

from chemref._io.limits import file_kind as _kind
from chemref.errors import InputError

__all__ = ["STDOUT", "is_stdout", "check_output", "check_distinct_outputs", "check_not_input"]

#: errors that only writing raises: the disk or the quota is full, or the file too large for it
_FULL = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG") if hasattr(errno, name))


def _cannot_write(target: Path, exc: OSError) -> InputError:
    """An OSError met while creating or finishing ``target``, as a one-line error naming the output."""
    reason = exc.strerror or str(exc)
    hint = "choose another output path"
    if isinstance(exc, PermissionError):
        hint = "choose a folder you can write to"
    elif exc.errno in _FULL:
        hint = "free some space there or write the output elsewhere; the previous output is unchanged"
    return InputError(f"cannot write the output: {reason}", path=str(target), hint=hint)


#: the output path that stands for standard output (where a command allows it)
STDOUT = "-"


def is_stdout(path: str | os.PathLike[str] | None) -> bool:
    """True for ``-``, the output path that stands for standard output."""
    return path is not None and os.fspath(path) == STDOUT


def check_output(path: str | os.PathLike[str], *, stdout: bool = False) -> None:
    """Raise :class:`InputError` now unless ``path`` can be written as an output: a regular file (new, or
    one to replace) in a folder that can be written, or ``-`` for standard output where ``stdout`` allows it.

    A character or block device, a FIFO or a socket is refused (an output is written beside it and renamed
    over it, which would replace the device), and so is a symbolic link, wherever it points (the rename would
    replace the link, and writing through it would change a file that was not named). Every writer calls it (:func:`atomic_write`,
    :func:`staged_file`), and commands call it before any work, so a long run does not end with an
    unwritable output.
    """
    where = os.fspath(path)
    if where == STDOUT:
        if not stdout:
            raise InputError("this output cannot be standard output ('-')", path=where, hint="give a file name")
        return
    target = Path(where)
    _check_name_length(target)
    try:
        info = os.stat(target)
    except OSError:
        info = None  # nothing there yet (or under a file: reported below)
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise InputError("the output path is a folder", path=where, hint="give a file name")
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"the output path is {_kind(info.st_mode)}; chemref writes only regular files "
                             "(or - for standard output)", path=where, hint="give the name of a file")
    if os.path.islink(target):  # after the kinds above: /dev/stdout is named as the device it points to
        raise InputError("the output path is a symbolic link; chemref writes outputs only to the path given, "
                         "never through a link", path=where, hint="give the path of the file itself, or remove "
                         "the link")
    for parent in target.parents:
        if parent.exists():
            if not parent.is_dir():
                raise InputError(f"cannot write the output: {parent} is a file, not a folder", path=where,
                                 hint="choose another output path")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise InputError(f"cannot write the output: no permission to write in {parent}", path=where,
                                 hint="choose a folder you can write to")
            return


#: what the temporary file of an output adds to its name (``.NAME.XXXXXXXX.tmp``)
_TEMPORARY_EXTRA = len("..XXXXXXXX.tmp")


def _check_name_length(target: Path) -> None:
    """Refuse now an output whose name, or its temporary file's, is longer than its folder allows: the write
    would otherwise fail only at the end of the run."""
    folder = target.parent
    while not folder.is_dir() and folder != folder.parent:
        folder = folder.parent
    try:
        limit = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        limit = 255
    if limit > 0 and len(os.fsencode(target.name)) + _TEMPORARY_EXTRA > limit:
        raise InputError(f"cannot write the output: the file name is too long ({len(os.fsencode(target.name))} "
                         f"bytes; this folder allows {limit - _TEMPORARY_EXTRA} for an output)",
                         path=os.fspath(target), hint="choose a shorter name")


def check_distinct_outputs(outputs: Mapping[str, str | os.PathLike[str] | None]) -> None:
    """Raise :class:`InputError` if two of a command's ``outputs`` (``{label: path}``, None for an output not
    asked for) are one file: the same path, links to one file, or ``-`` twice. Commands call it before any
    work: one output would otherwise overwrite the other."""
    seen: dict[object, str] = {}
    for label, path in outputs.items():
        if path is None:
            continue
        key = _identity(path)
        if key in seen:
            raise InputError(f"the {label} and the {seen[key]} would be the same file (one would overwrite "
                             "the other)", path=os.fspath(path), hint="give each output its own path")
        seen[key] = label


def _identity(path: str | os.PathLike[str]) -> object:
    """What makes two output paths one file: ``-``, the inode of an existing file, else the resolved path."""
    if is_stdout(path):
        return STDOUT
    try:
        info = os.stat(path)
        return (info.st_dev, info.st_ino)
    except (OSError, ValueError):
        return Path(path).resolve()


def check_not_input(output: str | os.PathLike[str] | None, inputs: Iterable[str | os.PathLike[str]], *,
                    label: str = "output") -> None:
    """Raise :class:`InputError` if writing ``output`` would replace one of ``inputs`` or add to them.

    An input file is matched as the same file (``os.stat`` identity: the same path, a symlink or a hard
    link to it); an input folder is matched when ``output`` is anywhere inside it, whether it exists yet or
    not (a new file in an input folder would be read as an input next time). Commands call it before any work.
    """
    if output is None or is_stdout(output):
        return
    target = Path(output)
    try:
        out_stat: os.stat_result | None = os.stat(target)
    except (OSError, ValueError):
        out_stat = None  # nothing there yet (or not even a valid path: check_output reports that)
    resolved: Path | None = None
    for item in inputs:
        try:
            in_stat = os.stat(item)
        except (OSError, ValueError):
            continue  # a missing input is reported by the reader, with its own message
        if out_stat is not None and os.path.samestat(in_stat, out_stat):
            raise InputError(f"the {label} would overwrite the input {os.fspath(item)!r} (the same file)",
                             path=str(target), hint="write the output to another file")
        if stat.S_ISDIR(in_stat.st_mode):
            if resolved is None:
                resolved = target.resolve()
            if resolved.is_relative_to(Path(item).resolve()):
                raise InputError(f"the {label} is inside the input folder {os.fspath(item)!r}: it would "
                                 "overwrite or add to the inputs", path=str(target),
                                 hint="write the output outside the input folders")
