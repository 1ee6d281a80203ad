"""Small I/O helpers shared by every writer: outputs appear whole or not at all."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import IO, Iterator

from chemref.errors import InputError

__all__ = ["atomic_write", "check_output", "discard_pending", "write_text"]

#: temporary files of the atomic writes in progress (see :func:`discard_pending`)
_PENDING: set[str] = set()


def _cannot_write(target: Path, exc: OSError) -> InputError:
    """An OSError met while creating or finishing ``target``, as a one-line error naming the output."""
    reason = exc.strerror or str(exc)
    hint = "choose another output path"
    if isinstance(exc, PermissionError):
        hint = "choose a folder you can write to"
    return InputError(f"cannot write the output: {reason}", path=str(target), hint=hint)


def _file_mode(target: Path) -> int:
    """Permissions for the finished file: those of the file it replaces, else 0o666 minus the umask
    (a temporary file is created 0o600, which would hide the output from the user's group)."""
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def check_output(path: str | os.PathLike[str]) -> None:
    """Raise :class:`InputError` now if ``path`` can never be written (a folder, or under a file).

    Commands call it before any work, so a long run does not end with an unwritable output.
    """
    target = Path(path)
    if target.is_dir():
        raise InputError("the output path is a folder", path=str(target), hint="give a file name")
    for parent in target.parents:
        if parent.exists():
            if not parent.is_dir():
                raise InputError(f"cannot write the output: {parent} is a file, not a folder", path=str(target),
                                 hint="choose another output path")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise InputError(f"cannot write the output: no permission to write in {parent}", path=str(target),
                                 hint="choose a folder you can write to")
            return


def check_not_input(output: str | os.PathLike[str] | None, inputs, *, label: str = "output") -> None:
    """Raise :class:`InputError` if writing ``output`` would replace one of ``inputs`` (the same file)."""
    if output is None:
        return
    try:
        out_stat = os.stat(output)
    except (OSError, ValueError):
        return
    for item in inputs:
        try:
            if os.path.samestat(os.stat(item), out_stat):
                raise InputError(f"the {label} would overwrite the input {os.fspath(item)!r} (the same file)",
                                 path=str(output), hint="write the output to another file")
        except (OSError, ValueError):
            continue


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "w", *, encoding: str | None = "utf-8",
                 newline: str | None = None) -> Iterator[IO]:
    """Open a temporary file next to ``path``; rename it over ``path`` only if the block succeeds.

    A crash, Ctrl-C or an exception inside the block leaves any earlier ``path`` untouched and no
    half-written file behind. A missing parent folder is created (like ``mkdir -p``). An output that
    cannot be created (a folder in the way, no permission, disk full) raises :class:`InputError`.
    """
    target = Path(path)
    check_output(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    _PENDING.add(tmp)
    try:
        binary = "b" in mode
        with os.fdopen(fd, mode, encoding=None if binary else encoding,
                       newline=None if binary else newline) as handle:
            yield handle
            try:
                handle.flush()
                if hasattr(os, "fchmod"):  # POSIX
                    os.fchmod(handle.fileno(), _file_mode(target))
                os.fsync(handle.fileno())
            except OSError as exc:
                raise _cannot_write(target, exc) from None
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise _cannot_write(target, exc) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    finally:
        _PENDING.discard(tmp)


def discard_pending() -> None:
    """Remove the temporary files of every atomic write still in progress.

    For a process that must stop at once (the CLI on SIGTERM) and cannot unwind its ``with`` blocks.
    """
    for tmp in list(_PENDING):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _PENDING.discard(tmp)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    with atomic_write(path) as handle:
        handle.write(text)
