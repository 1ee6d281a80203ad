"""Small I/O helpers shared by every writer: outputs appear whole or not at all."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import IO, Iterator

from chemref.errors import InputError

__all__ = ["atomic_write", "check_output", "discard_pending", "write_text", "RunLock", "commit_renames", "staged_file"]

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


class RunLock:
    """An exclusive lock on ``path`` for the length of one run: a second writer gets :class:`InputError`.

    ``flock`` locks die with their process, so a run killed with ``kill -9`` never leaves a stale lock
    (the lock file itself stays; it is empty).
    """

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        self.path = Path(path)
        self.what = what
        self._fd: int | None = None

    def __enter__(self) -> "RunLock":
        import fcntl

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise _cannot_write(self.path, exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            raise InputError(f"another chemref run is writing {self.what}"
                             + (f" (process {holder})" if holder else ""), path=str(self.path),
                             hint="wait for it to finish, or write elsewhere") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)  # releases the lock
            self._fd = None


def commit_renames(pairs: list[tuple[Path, Path]]) -> None:
    """Rename every finished temporary file over its output, with SIGINT/SIGTERM held back until all are in
    place, so a signal cannot leave a new output beside old ones (each file is already complete on disk)."""
    import signal

    blockable = hasattr(signal, "pthread_sigmask")
    if blockable:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        for tmp, target in pairs:
            try:
                os.replace(tmp, target)
            except OSError as exc:
                raise _cannot_write(target, exc) from None
            _PENDING.discard(str(tmp))
    finally:
        if blockable:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


def staged_file(target: str | os.PathLike[str]) -> Path:
    """A new temporary file beside ``target`` (same folder, so :func:`commit_renames` is a rename), removed by
    :func:`discard_pending` on SIGTERM."""
    target = Path(target)
    check_output(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
        os.chmod(tmp, _file_mode(target))
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    _PENDING.add(tmp)
    return Path(tmp)
