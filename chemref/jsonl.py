"""JSON Lines, read and written the same way by the builder, the baseline and the scorers.

Reading streams the file line by line (a file larger than memory is fine) and names the file and the
line of any bad row; writing is atomic (:func:`chemref._io.atomic_write`) and keeps non-ASCII as is.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any, Iterable, Iterator

from chemref.errors import InputError

__all__ = ["json_line", "read_jsonl", "write_jsonl", "write_rows"]


def json_line(row: Any) -> str:
    """One JSON Lines row, newline included (UTF-8 text, non-ASCII kept as is)."""
    return json.dumps(row, ensure_ascii=False) + "\n"


def write_rows(handle: IO[str], rows: Iterable[Any]) -> int:
    """Write ``rows`` to an open text file as JSON Lines; returns how many were written."""
    n = 0
    for row in rows:
        handle.write(json_line(row))
        n += 1
    return n


def write_jsonl(path: str | os.PathLike[str], rows: Iterable[Any]) -> int:
    """Write JSON Lines atomically (all of it or nothing); returns how many rows were written."""
    from chemref._io import atomic_write

    with atomic_write(path) as handle:
        return write_rows(handle, rows)


def read_jsonl(path: str | os.PathLike[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line; a line that is not a JSON object is an error."""
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", path=str(p), hint="check the path")
    if p.is_dir():
        raise InputError("is a folder, expected a file", path=str(p))
    try:
        handle = open(p, encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=str(p)) from None
    with handle:
        number = 0
        while True:
            try:
                line = handle.readline()
            except UnicodeDecodeError as exc:
                raise InputError(f"not UTF-8 text (byte {exc.start} of line {number + 1})", path=str(p),
                                 hint="save the file as UTF-8") from None
            if not line:
                return
            number += 1
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"not valid JSON: {exc.msg}", path=str(path), line=number, column=exc.colno,
                                 hint="expected one JSON object per line (JSON Lines)") from None
            if not isinstance(value, dict):
                raise InputError(f"expected a JSON object, found {type(value).__name__}", path=str(path),
                                 line=number, hint="expected one JSON object per line (JSON Lines)")
            yield number, value
