"""Which files a folder of JATS articles stands for: one rule for every command that takes folders
(the walk itself is :func:`chemref.inputs.walk_jats`)."""

from __future__ import annotations

import os
import stat
import warnings
from pathlib import Path

from chemref.inputs import JATS_SUFFIXES

__all__ = ["JATS_SUFFIXES", "jats_files"]


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def jats_files(folder: str | os.PathLike[str], notes: list[str] | None = None) -> list[Path]:
    """Every ``*.nxml`` / ``*.xml`` regular file under ``folder`` (subfolders included), sorted by path.

    Symbolic links are never followed out of ``folder``: a linked file whose target lies outside it, a
    link to a folder, a broken or looping link and a FIFO, socket or device named like an article are
    left out and described in ``notes`` (one line each; a :class:`UserWarning` each when ``notes`` is None).
    """
    root = os.path.realpath(folder)
    found: list[Path] = []
    left_out: list[str] = []
    stack = [os.fspath(folder)]
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as entries:
                items = list(entries)
        except OSError as exc:
            left_out.append(f"{current!r}: cannot list the folder ({exc.strerror or exc}); skipped")
            continue
        for entry in items:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                    continue
                link = entry.is_symlink()
                if not link and not entry.name.lower().endswith(JATS_SUFFIXES):
                    continue
                try:
                    info = os.stat(entry.path)
                except OSError:
                    if entry.name.lower().endswith(JATS_SUFFIXES):
                        left_out.append(f"{entry.path!r}: a broken or looping symbolic link; skipped")
                    continue
                if stat.S_ISDIR(info.st_mode):
                    if link:
                        left_out.append(f"{entry.path!r}: a symbolic link to a folder; not followed")
                    continue
                if not entry.name.lower().endswith(JATS_SUFFIXES):
                    continue
                if link and not _inside(os.path.realpath(entry.path), root):
                    left_out.append(f"{entry.path!r}: a symbolic link to a file outside {os.fspath(folder)!r}; "
                                    "not followed")
                elif not stat.S_ISREG(info.st_mode):
                    left_out.append(f"{entry.path!r}: not a regular file (a FIFO, socket or device); skipped")
                else:
                    found.append(Path(entry.path))
            except OSError as exc:
                left_out.append(f"{entry.path!r}: cannot be read ({exc.strerror or exc}); skipped")
    if notes is not None:
        notes.extend(left_out)
    else:
        for note in left_out:
            warnings.warn(note, UserWarning, stacklevel=2)
    return sorted(found)
