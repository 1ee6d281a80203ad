"""Atomic writes: an output appears whole or not at all."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import IO, Iterator

from chemref._io.outputs import _FULL, _cannot_write, check_output
from chemref._io.temporary import _file_mode, _release, _temporary_beside, remove_stale_temporaries

__all__ = ["atomic_write", "write_text"]


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "w", *, encoding: str | None = "utf-8",
                 newline: str | None = None) -> Iterator[IO]:
    """Open a temporary file next to ``path``; rename it over ``path`` only if the block succeeds.

    A crash, Ctrl-C or an exception inside the block leaves any earlier ``path`` untouched and no
    half-written file behind (the temporary files of runs killed with ``kill -9`` are removed by the next
    write of ``path``). A missing parent folder is created (like ``mkdir -p``). An output that cannot be
    created (a folder in the way, a device, no permission, disk full) raises :class:`InputError`.
    """
    target = Path(path)
    check_output(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(target)
        fd, tmp = _temporary_beside(target)
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    try:
        binary = "b" in mode
        handle = os.fdopen(fd, mode, encoding=None if binary else encoding, newline=None if binary else newline)
        try:
            try:
                yield handle
            except OSError as exc:
                if exc.errno in _FULL and exc.filename is None:  # a write of the block hit a full disk
                    raise _cannot_write(target, exc) from None
                raise
            try:
                handle.flush()
                if hasattr(os, "fchmod"):  # POSIX
                    os.fchmod(handle.fileno(), _file_mode(target))
                os.fsync(handle.fileno())
            except OSError as exc:
                raise _cannot_write(target, exc) from None
        finally:
            # flushed above when all went well; after a failure, whatever it still buffers goes with the file
            with contextlib.suppress(OSError):
                handle.close()
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise _cannot_write(target, exc) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    finally:
        _release(tmp)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    with atomic_write(path) as handle:
        handle.write(text)
