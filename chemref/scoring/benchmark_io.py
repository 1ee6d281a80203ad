"""Line-numbered readers for the benchmark scorers' inputs (JSON Lines, JSON, TSV).

Every error names the file and line and says what to do, so a bad prediction file is fixed
in one go rather than by trial and error.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, Iterator

from chemref._io import decode_utf8, iter_lines, read_limited
from chemref.errors import InputError, ScoringError
from chemref.jsonl import DuplicateKey, unique_keys

__all__ = ["read_text", "read_json", "read_columns", "number", "record_id", "string_list"]

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


def read_json(path: PathLike) -> Any:
    """One JSON document."""
    text = read_text(path)
    try:
        return json.loads(text, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", path=str(path), line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise InputError("JSON nested too deeply to read", path=str(path)) from None
    except DuplicateKey as exc:
        raise InputError(f"the key {exc.args[0]!r} is given twice in one object", path=str(path),
                         hint="give each id once") from None


def record_id(record: dict[str, Any], *, path: PathLike | None, line: int | None, key: str = "id") -> str:
    """The record's id as a string (ints and strings both accepted: ``10`` and ``"10"`` are the same id)."""
    if key not in record:
        raise ScoringError(f"record has no {key!r} field", path=None if path is None else str(path), line=line)
    value = record[key]
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        raise ScoringError(f"{key!r} must be a non-empty string or an integer, found {value!r}",
                           path=None if path is None else str(path), line=line)
    return str(value)


def json_type(value: Any) -> str:
    """The JSON name of ``value``'s type (``null``, ``boolean``, ``number``, ``string``, ``array``, ``object``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, (list, tuple)) else "object" if isinstance(value, dict) else type(value).__name__


def _shown(value: Any) -> str:
    """``value`` as JSON writes it (``null``, ``true``, ``[1, 2]``), cut to 40 characters; else its type."""
    try:
        text = json.dumps(value, ensure_ascii=True, allow_nan=True)
    except (TypeError, ValueError):
        return json_type(value)
    return text if len(text) <= 40 else text[:37] + "..."


def string_list(record: dict[str, Any], key: str, *, path: PathLike | None, line: int | None) -> list[str]:
    """``record[key]`` as a list of strings (ints accepted and converted); anything else is an error naming
    the first item that is not one, and so is an item that is empty or only white space (it names nothing)."""
    value = record.get(key)
    where = {"path": None if path is None else str(path), "line": line}
    if not isinstance(value, list):
        raise ScoringError(f"{key!r} must be a list of strings, found {json_type(value)}", **where)
    for index, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, (str, int)):
            raise ScoringError(f"{key!r} must be a list of strings: item {index} is {_shown(item)}", **where)
        if isinstance(item, str) and not item.strip():
            raise ScoringError(f"{key!r} item {index} is {'empty' if not item else 'only white space'}: it names "
                               "nothing", **where, hint="leave it out; an empty list is allowed")
    return [str(v) for v in value]
