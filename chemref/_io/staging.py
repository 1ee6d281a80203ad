"""Staged outputs: several temporary files written first, then renamed over their outputs together."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

from chemref._io.outputs import _cannot_write, check_output
from chemref._io.temporary import _file_mode, _release, _temporary_beside

__all__ = ["staged_file", "commit_renames", "discard_staged", "write_together"]


def commit_renames(pairs: list[tuple[Path, Path]]) -> None:
    """Rename every finished temporary file over its output, with SIGINT/SIGTERM held back until all are in
    place, so a signal cannot leave a new output beside old ones (each file is already complete on disk)."""
    blockable = hasattr(signal, "pthread_sigmask")
    if blockable:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        for tmp, target in pairs:
            try:
                os.replace(tmp, target)
            except OSError as exc:
                raise _cannot_write(target, exc) from None
            _release(tmp)
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
        fd, tmp = _temporary_beside(target)
        os.close(fd)
        os.chmod(tmp, _file_mode(target))
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    return Path(tmp)


def discard_staged(tmp: str | os.PathLike[str]) -> None:
    """Remove a file of :func:`staged_file` that will not be renamed (the run failed)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    _release(tmp)


def write_together(outputs: list[tuple[str | os.PathLike[str], str]]) -> None:
    """Write each ``(path, text)`` (UTF-8) to a temporary file beside its path, then rename them all into place
    (:func:`commit_renames`): one that cannot be written (a name too long, a full disk) leaves every output as
    it was, so a run's outputs never disagree."""
    pairs: list[tuple[Path, Path]] = []
    try:
        for path, text in outputs:
            target = Path(path)
            tmp = staged_file(target)
            pairs.append((tmp, target))
            try:
                with open(tmp, "w", encoding="utf-8") as handle:
                    handle.write(text)
                    handle.flush()
                    os.fsync(handle.fileno())
            except OSError as exc:
                raise _cannot_write(target, exc) from None
        commit_renames(pairs)
    except BaseException:
        for tmp, _ in pairs:
            discard_staged(tmp)
        raise
