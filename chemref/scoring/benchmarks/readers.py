"""Line-numbered readers for the benchmark scorers' inputs (JSON Lines, JSON, TSV).

Every error names the file and line and says what to do, so a bad prediction file is fixed
in one go rather than by trial and error.
"""

from __future__ import annotations

import math
import os
from typing import Any, Iterator

from chemref._io import decode_utf8, iter_lines, read_limited
from chemref.errors import InputError, ScoringError

__all__ = ["read_text", "read_columns", "number", "record_id", "string_list"]

PathLike = str | os.PathLike[str]


def read_text(path: PathLike) -> str:
    """The whole file as UTF-8 text, or an InputError saying why it cannot be read (missing, a folder,
    not a regular file, larger than the input size limit, not UTF-8)."""
    return decode_utf8(read_limited(path), path)


def read_columns(path: PathLike, names: str, *, hint: str | None = None,
                 extra: bool = False) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line_number, fields)`` for each line of a white-space separated file (TREC qrels and runs)
    that is neither blank nor a ``#`` comment; ``names`` lists the expected columns, and a line with
    another number of them is an error (``extra=True``: more columns are allowed and dropped, as trec_eval
    does for runs)."""
    expected = len(names.split())
    for number, raw in iter_lines(path):
        parts = raw.split()
        if not parts or parts[0].startswith("#"):
            continue
        if len(parts) != expected and not (extra and len(parts) > expected):
            raise InputError(f"expected {expected} columns ({names}), found {len(parts)}", path=str(path),
                             line=number, hint=hint)
        yield number, parts[:expected]


def number(text: str, what: str, *, path: PathLike, line: int) -> float:
    """``text`` as a finite float, or an InputError naming the column (``what``), file and line."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise InputError(f"{what} {text!r} is not a finite number", path=str(path), line=line)
    return value


def record_id(record: dict[str, Any], *, path: PathLike | None, line: int | None, key: str = "id") -> str:
    """The record's id as a string (ints and strings both accepted: ``10`` and ``"10"`` are the same id)."""
    if key not in record:
        raise ScoringError(f"record has no {key!r} field", path=None if path is None else str(path), line=line)
    value = record[key]
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        raise ScoringError(f"{key!r} must be a non-empty string or an integer, found {value!r}",
                           path=None if path is None else str(path), line=line)
    return str(value)


#: JSON's names of the values Python reads
_JSON_TYPES = {type(None): "null", bool: "a boolean", int: "a number", float: "a number", str: "a string",
               list: "a list", dict: "an object"}


def string_list(record: dict[str, Any], key: str, *, path: PathLike | None, line: int | None) -> list[str]:
    """``record[key]`` as a list of strings (ints accepted and converted); anything else, and an empty or blank
    string (an id or a title that names nothing), is an error naming the item."""
    value = record.get(key)
    where = None if path is None else str(path)
    if not isinstance(value, list):
        raise ScoringError(f"{key!r} must be a list of strings, found {_JSON_TYPES.get(type(value), 'nothing')}",
                           path=where, line=line)
    for number, item in enumerate(value, 1):
        if isinstance(item, bool) or not isinstance(item, (str, int)):
            raise ScoringError(f"{key!r} must be a list of strings: item {number} is {_JSON_TYPES.get(type(item))}",
                               path=where, line=line)
        if isinstance(item, str) and not item.strip():
            raise ScoringError(f"{key!r} item {number} is {'empty' if not item else 'blank'}: it names nothing",
                               path=where, line=line, hint="leave the item out")
    return [str(v) for v in value]
