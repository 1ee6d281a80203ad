"""``--files-from`` lists: a text file naming one input per line (blank lines and ``#`` comments ignored).

A comment line that names an existing file or folder exactly (``#x.xml``) is an error, not a comment taken
silently: write ``./#x.xml`` to read it. A list that names no input at all is an error too. An input listed
again (the same path once normalised) while it is among the last :data:`RECENT` distinct inputs of the list is read
once, with a warning that counts the repeats (memory stays bounded; a build also skips an article given twice)."""

from __future__ import annotations

import os
import warnings
from collections import OrderedDict
from pathlib import Path
from typing import Iterator

from chemref._io import not_utf8, regular_file
from chemref._io.limits import NO_SUCH_PATH, input_problem
from chemref.errors import InputError, printable

__all__ = ["read_file_list"]


def read_file_list(path: str | os.PathLike[str]) -> Iterator[str]:
    """The inputs named in a ``--files-from`` list, one per line; relative names are taken from the list's
    folder when they do not exist from the working folder. Every missing file is named in one error, and
    an entry that is neither a regular file nor a folder (a FIFO, a device) is an error naming its line, before
    any work. The list is read twice (checked, then streamed), never held in memory (only its last
    :data:`RECENT` distinct names, to read a repeated input once)."""
    missing: list[str] = []
    count = listed = repeated = 0
    first_repeat = ""
    for number, name in _listed(path, check_comments=True):
        if number < 0:
            repeated += 1
            first_repeat = first_repeat or f"line {-number}: {printable(name)}"
            continue
        listed += 1
        problem = input_problem(name, folders=True)
        if problem is None:
            continue
        if problem[0] != NO_SUCH_PATH:  # a FIFO, a device, a socket, unreadable: said at once, with its line
            raise InputError(f"{printable(name)}: {problem[0]}", path=str(path), line=number,
                             hint="fix or remove that line")
        count += 1
        if len(missing) < 5:
            missing.append(f"line {number}: {printable(name)}")
    if count:
        shown = "; ".join(missing) + (f"; and {count - 5} more" if count > 5 else "")
        raise InputError(f"{count} listed file(s) do not exist: {shown}", path=str(path),
                         hint="fix the list or remove those lines")
    if not listed:
        raise InputError("the file list names no inputs (it is empty, or holds only blank lines and # comments)",
                         path=str(path), hint="list one JATS file, folder or PMC package per line")
    if repeated:
        warnings.warn(f"{printable(str(path))}: {repeated} line(s) name an input listed before (the first: "
                      f"{first_repeat}); each input is read once", UserWarning, stacklevel=1)  # said once
    return (name for number, name in _listed(path) if number > 0)


#: distinct inputs of a file list remembered (the latest ones) to read an input listed again once
RECENT = 1000


def _listed(path: str | os.PathLike[str], *, check_comments: bool = False) -> Iterator[tuple[int, str]]:
    """``(line number, input)`` of each entry of a file list (see :func:`read_file_list`), the line number negated
    for an input listed before (as written, or the same path once normalised); ``check_comments``: a comment
    line naming an existing path is an :class:`InputError`."""
    base = Path(path).parent
    regular_file(path)  # a FIFO or a device would block the run
    try:
        handle = open(path, encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(f"cannot read the file list: {exc.strerror or exc}", path=str(path)) from None
    number = 0
    seen: OrderedDict[str, None] = OrderedDict()  # the latest inputs, as written and normalised
    with handle:
        try:
            for number, raw in enumerate(handle, start=1):
                name = raw.strip()
                if not name:
                    continue
                if name.startswith("#"):
                    if check_comments and (os.path.lexists(name) or os.path.lexists(base / name)):
                        raise InputError(f"the line is a comment, but a file or folder {printable(name)!r} "
                                         "exists: it would not be read", path=str(path), line=number,
                                         hint=f"write ./{printable(name)} to read it, or put a space after the # "
                                         "to keep the comment")
                    continue
                if name in seen:  # before any look-up in the file system: a list may repeat one name a million times
                    seen.move_to_end(name)
                    yield -number, name
                    continue
                written = name
                if not os.path.exists(name) and not os.path.isabs(name) and (base / name).exists():
                    name = (base / name).as_posix()
                key = os.path.normpath(name)
                if key in seen:
                    seen.move_to_end(key)
                    yield -number, name
                    continue
                seen[written] = seen[key] = None
                while len(seen) > 2 * RECENT:
                    seen.popitem(last=False)
                yield number, name
        except UnicodeDecodeError:
            raise not_utf8(path, "the file list is not UTF-8 text", "save it as UTF-8") from None
