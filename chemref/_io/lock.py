"""The run lock: one writer at a time for a run's outputs."""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
from pathlib import Path

from chemref._io.outputs import _cannot_write, _kind
from chemref.errors import InputError

__all__ = ["RunLock"]


#: file descriptors of the run locks this process holds (see :func:`_drop_locks_in_child`)
_HELD_LOCKS: set[int] = set()


def _drop_locks_in_child() -> None:
    """In a forked child (a pool worker): close its copies of the run locks' descriptors. An ``flock`` lock
    lasts while any copy is open, so a worker outliving its parent (``kill -9``) would otherwise keep the
    lock and refuse the ``--resume`` run."""
    for fd in _HELD_LOCKS:
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD_LOCKS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_drop_locks_in_child)


class RunLock:
    """An exclusive lock on ``path`` for the length of one run: a second writer gets :class:`InputError`.

    ``flock`` locks die with their process, so a run killed with ``kill -9`` never leaves a stale lock
    (its empty file stays, and the next run takes it); forked workers do not hold it. The lock file is opened
    without following a symbolic link (``O_NOFOLLOW``) and used only when it is a regular file with no other
    name (no hard link): a link put in its place is refused, and no other file is ever truncated or written. A run that ends, well
    or not, removes the lock file while it still holds the lock; a run that opened the file just before is
    then holding a removed file, sees it, and takes the lock again on the path.
    """

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        self.path = Path(path)
        self.what = what
        self._fd: int | None = None

    def __enter__(self) -> "RunLock":
        while True:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
                             | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), 0o644)
            except OSError as exc:
                if os.path.islink(self.path):  # O_NOFOLLOW refused it (ELOOP)
                    raise InputError("the run's lock file is a symbolic link; chemref never writes through one",
                                     path=str(self.path), hint="remove the link") from None
                raise _cannot_write(self.path, exc) from None
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_nlink > 1:
                os.close(fd)
                kind = "a hard link to another file" if stat.S_ISREG(info.st_mode) else _kind(info.st_mode)
                raise InputError(f"the run's lock file is {kind}, not a regular file of its own",
                                 path=str(self.path), hint="remove it")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                os.close(fd)
                raise InputError(f"another chemref run is writing {self.what}"
                                 + (f" (process {holder})" if holder else ""), path=str(self.path),
                                 hint="wait for it to finish, or write elsewhere") from None
            if self._is_current(fd):
                break
            os.close(fd)  # the run before removed this file as it ended: lock the one now at the path
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._fd = fd
        _HELD_LOCKS.add(fd)
        return self

    def _is_current(self, fd: int) -> bool:
        """Whether ``fd`` is still the file at ``self.path`` (not one a finished run removed)."""
        try:
            at_path = os.stat(self.path)
        except OSError:
            return False
        held = os.fstat(fd)
        return (held.st_dev, held.st_ino) == (at_path.st_dev, at_path.st_ino)

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                if self._is_current(self._fd):
                    os.unlink(self.path)  # still held: no other run can be using this file
            _HELD_LOCKS.discard(self._fd)
            os.close(self._fd)  # releases the lock
            self._fd = None
