"""The one folder walk of every command that takes folders."""

from __future__ import annotations

import os
import stat
import warnings
from pathlib import Path
from typing import Iterator

from chemref.errors import InputError
from chemref.inputs.kinds import JATS_SUFFIXES

__all__ = ["walk_jats"]


def walk_jats(folder: str | os.PathLike[str], _root: str | None = None) -> Iterator[Path]:
    """Every ``*.nxml`` / ``*.xml`` file under ``folder`` (subfolders included), in sorted path order: the one
    folder walk of every command that takes folders.

    One folder's entries are held at a time (the order equals ``sorted(Path(folder).rglob(...))``).
    Symbolic links never lead out of ``folder``: a link to a folder, a link to a file outside it, a broken or
    looping link, a FIFO, socket or device named like an article and a subfolder that cannot be listed are
    left out with a :class:`UserWarning` each (the CLI prints them as warning lines). ``folder`` itself that
    cannot be listed is an :class:`InputError`.
    """
    root = _root or os.path.realpath(folder)
    try:
        with os.scandir(folder) as it:
            entries = sorted(((e.name, e.is_dir(follow_symlinks=False), e.is_symlink()) for e in it))
    except OSError as exc:
        if _root is None:
            raise InputError(f"cannot list the folder: {exc.strerror or exc}", path=str(folder)) from None
        warnings.warn(f"{os.fspath(folder)!r}: cannot list the folder ({exc.strerror or exc}); skipped", UserWarning)
        return
    base = Path(folder)
    for name, is_dir, is_link in entries:
        path = base / name
        if is_dir:
            yield from walk_jats(path, root)
            continue
        if not is_link and not name.lower().endswith(JATS_SUFFIXES):
            continue
        try:
            info = os.stat(path)
        except OSError:
            if name.lower().endswith(JATS_SUFFIXES):
                warnings.warn(f"{os.fspath(path)!r}: a broken or looping symbolic link; skipped", UserWarning)
            continue
        if stat.S_ISDIR(info.st_mode):
            warnings.warn(f"{os.fspath(path)!r}: a symbolic link to a folder; not followed", UserWarning)
        elif not name.lower().endswith(JATS_SUFFIXES):
            continue
        elif is_link and not os.path.realpath(path).startswith(root.rstrip(os.sep) + os.sep):
            warnings.warn(f"{os.fspath(path)!r}: a symbolic link to a file outside {os.fspath(folder)!r}; "
                          "not followed", UserWarning)
        elif not stat.S_ISREG(info.st_mode):
            warnings.warn(f"{os.fspath(path)!r}: not a regular file (a FIFO, socket or device); skipped", UserWarning)
        else:
            yield path
