"""The one folder walk of every command that takes folders (JATS inputs, and the ``.ann`` folders of the BRAT
scorers)."""

from __future__ import annotations

import os
import stat
import warnings
from pathlib import Path
from typing import Callable, Iterator

from chemref.errors import InputError
from chemref.inputs.kinds import JATS_SUFFIXES

__all__ = ["walk_files", "walk_file_paths", "walk_jats", "SKIP_KINDS", "OnSkip"]

#: What the walk reports (to ``on_skip``) about an entry it does not yield: a symbolic link to a folder; a
#: symbolic link to a file outside the folder given; a broken or looping link; a FIFO, socket or device; a
#: subfolder that cannot be listed; a subfolder not entered (``recursive=False``).
SKIP_KINDS = ("link-to-folder", "link-out", "broken-link", "not-regular", "unlistable", "subfolder")
#: ``on_skip(kind, path, detail)``: ``kind`` one of :data:`SKIP_KINDS`; ``detail`` the system's reason for
#: ``unlistable``, the folder being listed for ``link-out``, else "".
OnSkip = Callable[[str, str, str], None]

_WARNINGS = {
    "link-to-folder": "{path!r}: a symbolic link to a folder; not followed",
    "link-out": "{path!r}: a symbolic link to a file outside {detail!r}; not followed",
    "broken-link": "{path!r}: a broken or looping symbolic link; skipped",
    "not-regular": "{path!r}: not a regular file (a FIFO, socket or device); skipped",
    "unlistable": "{path!r}: cannot list the folder ({detail}); skipped",
}


def walk_files(folder: str | os.PathLike[str], suffixes: tuple[str, ...], *, recursive: bool = True,
               on_skip: OnSkip | None = None) -> Iterator[Path]:
    """Every regular file under ``folder`` whose name ends with one of ``suffixes`` (case-insensitive),
    subfolders included unless ``recursive`` is false, in sorted path order (one folder's entries held at a
    time: the order equals ``sorted(Path(folder).rglob(...))``).

    Symbolic links never lead out of ``folder``. What is left out is reported to ``on_skip`` (see
    :data:`SKIP_KINDS`; default: a :class:`UserWarning` each, which the CLI prints as warning lines): a link
    to a folder (whatever its name), a link to a file outside ``folder``, a broken or looping link, a FIFO,
    socket or device named like a wanted file, a subfolder that cannot be listed, and with
    ``recursive=False`` each subfolder. ``folder`` itself that cannot be listed is an :class:`InputError`.
    """
    return map(Path, walk_file_paths(folder, suffixes, recursive=recursive, on_skip=on_skip))


def walk_file_paths(folder: str | os.PathLike[str], suffixes: tuple[str, ...], *, recursive: bool = True,
                    on_skip: OnSkip | None = None) -> Iterator[str]:
    """:func:`walk_files` as path strings (``folder`` as given, then the names joined with ``os.sep``), for
    callers that index thousands of files by name."""
    root = os.path.realpath(folder)
    report = on_skip or _warn
    try:
        yield from _walk(os.fspath(folder), tuple(s.lower() for s in suffixes), root, recursive, report)
    except _Unlistable as exc:
        raise InputError(f"cannot list the folder: {exc.detail}", path=str(folder)) from None


def walk_jats(folder: str | os.PathLike[str]) -> Iterator[Path]:
    """Every ``*.nxml`` / ``*.xml`` file under ``folder`` (:func:`walk_files`, subfolders included)."""
    return walk_files(folder, JATS_SUFFIXES)


class _Unlistable(Exception):
    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


def _warn(kind: str, path: str, detail: str) -> None:
    if kind in _WARNINGS:
        warnings.warn(_WARNINGS[kind].format(path=path, detail=detail), UserWarning)


def _shown(path: str) -> str:
    """``path`` as the reports name it: as :class:`pathlib.Path` spells it (no ``.`` part, no doubled ``/``)."""
    return os.fspath(Path(path))


def _walk(folder: str, suffixes: tuple[str, ...], root: str, recursive: bool, report: OnSkip,
          top: bool = True) -> Iterator[str]:
    try:
        with os.scandir(folder) as it:
            # the entry's own type (d_type): a regular file that is no link needs no stat() of its own
            entries = sorted(((e.name, e.is_dir(follow_symlinks=False), e.is_symlink(),
                               e.is_file(follow_symlinks=False)) for e in it))
    except OSError as exc:
        if top:
            raise _Unlistable(str(exc.strerror or exc)) from None
        report("unlistable", _shown(folder), str(exc.strerror or exc))
        return
    base = folder if folder.endswith(os.sep) else folder + os.sep
    for name, is_dir, is_link, is_file in entries:
        path = base + name
        if is_dir:
            if recursive:
                yield from _walk(path, suffixes, root, recursive, report, top=False)
            else:
                report("subfolder", _shown(path), "")
            continue
        wanted = name.lower().endswith(suffixes)
        if not is_link and not wanted:
            continue
        if wanted and is_file and not is_link:
            yield path
            continue
        try:
            info = os.stat(path)
        except OSError:
            if wanted:
                report("broken-link", _shown(path), "")
            continue
        if stat.S_ISDIR(info.st_mode):
            report("link-to-folder", _shown(path), "")
        elif not wanted:
            continue
        elif is_link and not os.path.realpath(path).startswith(root.rstrip(os.sep) + os.sep):
            report("link-out", _shown(path), folder if top else _shown(folder))
        elif not stat.S_ISREG(info.st_mode):
            report("not-regular", _shown(path), "")
        else:
            yield path
