"""The temporary files that outputs are written to beside their target and renamed over it: created
locked, removed when a run is stopped (:func:`discard_pending`) or was killed (:func:`remove_stale_temporaries`)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from pathlib import Path

__all__ = ["remove_stale_temporaries", "discard_pending"]

#: temporary files of the atomic writes in progress (see :func:`discard_pending`)
_PENDING: set[str] = set()

#: descriptors holding the lock of each temporary file this process is writing, by path
_TEMP_LOCKS: dict[str, int] = {}


def _temporary_beside(target: Path) -> tuple[int, str]:
    """A new temporary file ``.<name>.<random>.tmp`` beside ``target``: descriptor and path. The file is locked
    (``flock``) until :func:`_release` (after its rename): a lock dies with its process, so a temporary file
    nobody holds was left by a killed run, and :func:`remove_stale_temporaries` removes it."""
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        _TEMP_LOCKS[tmp] = os.dup(fd)  # the lock lasts while this copy is open, whatever becomes of ``fd``
    except OSError:
        pass  # a file system without locks: the file is still written; a killed run's copy is not removed
    _PENDING.add(tmp)
    return fd, tmp


def _release(tmp: str | os.PathLike[str]) -> None:
    """Forget the temporary file ``tmp`` (renamed or removed): drop its lock."""
    key = os.fspath(tmp)
    _PENDING.discard(key)
    fd = _TEMP_LOCKS.pop(key, None)
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def _is_temporary_of(name: str, target: str) -> bool:
    """Whether ``name`` is a temporary file of :func:`_temporary_beside` for the output named ``target``."""
    prefix = f".{target}."
    middle = name[len(prefix):-len(".tmp")]
    return name.startswith(prefix) and name.endswith(".tmp") and len(middle) == 8 and \
        all(ch.isascii() and (ch.isalnum() or ch == "_") for ch in middle)


def remove_stale_temporaries(target: str | os.PathLike[str]) -> None:
    """Remove the temporary files of ``target`` that runs killed before they could (``kill -9``) left beside
    it; those a live writer holds (locked) are left alone. :func:`atomic_write` calls it before each write."""
    target = Path(target)
    try:
        entries = [e.name for e in os.scandir(target.parent or ".")
                   if _is_temporary_of(e.name, target.name) and e.is_file(follow_symlinks=False)]
    except OSError:
        return
    for name in entries:
        path = target.parent / name
        if os.fspath(path) in _PENDING:
            continue
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # a live run is writing it
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass
        finally:
            os.close(fd)


def _file_mode(target: Path) -> int:
    """Permissions for the finished file: those of the file it replaces, else 0o666 minus the umask
    (a temporary file is created 0o600, which would hide the output from the user's group)."""
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def discard_pending() -> None:
    """Remove the temporary files of every atomic write still in progress.

    For a process that must stop at once (the CLI on SIGTERM) and cannot unwind its ``with`` blocks.
    """
    for tmp in list(_PENDING):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _release(tmp)


def _drop_temporary_locks_in_child() -> None:
    """In a forked child (a pool worker): close its copies of the temporary files' lock descriptors (a lock
    lasts while any copy is open)."""
    for fd in _TEMP_LOCKS.values():
        with contextlib.suppress(OSError):
            os.close(fd)
    _TEMP_LOCKS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_drop_temporary_locks_in_child)
