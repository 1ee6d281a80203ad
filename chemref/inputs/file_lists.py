"""``--files-from`` lists: a text file naming one input per line (blank lines and ``#`` comments ignored)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

from chemref._io import not_utf8, regular_file
from chemref.errors import InputError

__all__ = ["read_file_list"]


def read_file_list(path: str | os.PathLike[str]) -> Iterator[str]:
    """The inputs named in a ``--files-from`` list, one per line; relative names are taken from the list's
    folder when they do not exist from the working folder. Every missing file is named in one error,
    before any work. The list is read twice (checked, then streamed), never held in memory."""
    missing: list[str] = []
    count = 0
    for number, name in _listed(path):
        if not os.path.exists(name):
            count += 1
            if len(missing) < 5:
                missing.append(f"line {number}: {name}")
    if count:
        shown = "; ".join(missing) + (f"; and {count - 5} more" if count > 5 else "")
        raise InputError(f"{count} listed file(s) do not exist: {shown}", path=str(path),
                         hint="fix the list or remove those lines")
    return (name for _, name in _listed(path))


def _listed(path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    """``(line number, input)`` of each entry of a file list (see :func:`read_file_list`)."""
    base = Path(path).parent
    regular_file(path)  # a FIFO or a device would block the run
    try:
        handle = open(path, encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(f"cannot read the file list: {exc.strerror or exc}", path=str(path)) from None
    number = 0
    with handle:
        try:
            for number, raw in enumerate(handle, start=1):
                name = raw.strip()
                if not name or name.startswith("#"):
                    continue
                if not os.path.exists(name) and not os.path.isabs(name) and (base / name).exists():
                    name = (base / name).as_posix()
                yield number, name
        except UnicodeDecodeError:
            raise not_utf8(path, "the file list is not UTF-8 text", "save it as UTF-8") from None
