"""JSON Lines, read and written the same way by the builder, the baseline and the scorers (and one JSON
document with a long list written item by item, :func:`write_json_streaming`).

Reading streams the file line by line (a file larger than memory is fine) and names the file and the
line of any bad row; writing is atomic (:func:`chemref._io.atomic_write`) and keeps non-ASCII as is.

Every string read and written is Unicode text: a ``\\ud800`` escape that is half of no pair (a lone
surrogate, which Python's reader accepts but no UTF-8 file can hold) is an error naming the file and the line,
and the writer never writes one (a byte of a file name that is not UTF-8, which Python holds as a lone
surrogate, is written as the text ``\\xNN``, as :func:`chemref.inputs.source.path_text` writes it).
"""

from __future__ import annotations

import json
import math
import os
import re
from typing import IO, Any, Iterable, Iterator

import fastjsonschema

from chemref._io.atomic import atomic_write
from chemref._io.limits import json_depth_problem, read_limited
from chemref._io.text import decode_utf8, iter_lines
from chemref.errors import InputError

__all__ = ["json_line", "json_text", "escape_controls", "read_jsonl", "write_jsonl", "write_rows", "write_json_streaming",
           "parse_json", "read_json", "check_schema", "unique_keys", "DuplicateKey", "lone_surrogate"]

_SURROGATE = re.compile("[\ud800-\udfff]")
#: a JSON escape of a surrogate code point (a cheap first test: most such escapes are halves of a pair)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _surrogate_text(match: re.Match[str]) -> str:
    code = ord(match.group())
    # JSON text: the backslash escaped, so the string holds the characters "\xff" (or "\ud800")
    return f"\\\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\\\u{code:04x}"


#: characters a terminal or a text viewer acts on rather than shows, which JSON leaves as they are with
#: ``ensure_ascii=False``: the C1 controls (U+009B is CSI, the start of a terminal escape), the bidirectional
#: embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069: they reorder the line shown), and the line
#: and paragraph separators (U+2028, U+2029: ``str.splitlines()`` ends a line at them)
_CONTROLS = re.compile("[\x80-\x9f\u2028-\u202e\u2066-\u2069]")
#: the same characters in UTF-8 (a cheap first test: a pattern that starts with a literal byte is searched about
#: ten times faster than the character class over the text)
_CONTROLS_UTF8 = (re.compile(b"\xc2[\x80-\x9f]"), re.compile(b"\xe2(?:\x80[\xa8-\xae]|\x81[\xa6-\xa9])"))


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def json_text(value: Any, *, indent: int | None = None) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=indent)`` as text that UTF-8 can hold and a terminal only
    shows: a lone surrogate (a byte of a file name that is not UTF-8, ``\\udcff``) is written as the text
    ``\\xff`` (``\\ud800`` for another), never as a character no UTF-8 file can hold; a C1 control, a
    bidirectional control or a line or paragraph separator is written as its escape (``\\u009b``,
    ``\\u202e``), so the JSON read back holds the same strings but printing it sends no terminal escape and
    reorders or splits no line. Other non-ASCII characters are kept as they are."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    if text.isascii():
        return text
    try:
        data = text.encode("utf-8")  # fails on a lone surrogate (rare): faster than searching for one
    except UnicodeEncodeError:
        text = _SURROGATE.sub(_surrogate_text, text)
        data = text.encode("utf-8")
    return escape_controls(text, data)


def escape_controls(text: str, data: bytes | None = None) -> str:
    """JSON ``text`` with each C1 control, bidirectional control and line or paragraph separator written as its
    ``\\u`` escape (:func:`json_text`'s rule, for JSON text dumped otherwise); ``data``: ``text`` in UTF-8,
    when already at hand."""
    if data is None:
        if text.isascii():
            return text
        data = text.encode("utf-8", "surrogatepass")
    if any(pattern.search(data) for pattern in _CONTROLS_UTF8):
        text = _CONTROLS.sub(_escape, text)
    return text


def json_line(row: Any) -> str:
    """One JSON Lines row, newline included (:func:`json_text`: UTF-8 text, non-ASCII kept as is but for the
    characters a terminal acts on and the line and paragraph separators U+2028 and U+2029, escaped, so that
    ``str.splitlines()`` keeps one row per line)."""
    return json_text(row) + "\n"


def lone_surrogate(line: str, value: Any) -> str | None:
    """The first lone surrogate in the strings (keys included) of ``value``, read from the JSON text ``line``,
    as its escape (``"\\ud800"``), or None. Cheap when ``line`` holds no surrogate escape (nearly always)."""
    if "\\u" not in line or not _SURROGATE_ESCAPE.search(line):
        return None
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"\\u{ord(exc.object[exc.start]):04x}"
    return None


def _refuse_surrogate(line: str, value: Any, path: str | None, number: int | None) -> None:
    found = lone_surrogate(line, value)
    if found is not None:
        raise InputError(f"a JSON string holds the escape {found}, half of a surrogate pair without its other "
                         "half (not a character)", path=path, line=number,
                         hint="JSON text must be Unicode: escape characters outside the BMP as a whole pair")


class DuplicateKey(ValueError):
    """A key given twice in one JSON object (raised by :func:`unique_keys`; ``args[0]`` is the key)."""


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for :func:`json.loads`: a JSON object as a dict, a key given twice a
    :class:`ValueError` (which value was meant cannot be told: readers differ on first or last)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return out


def write_rows(handle: IO[str], rows: Iterable[Any]) -> int:
    """Write ``rows`` to an open text file as JSON Lines; returns how many were written."""
    n = 0
    for row in rows:
        handle.write(json_line(row))
        n += 1
    return n


def write_jsonl(path: str | os.PathLike[str], rows: Iterable[Any]) -> int:
    """Write JSON Lines atomically (all of it or nothing); returns how many rows were written."""
    with atomic_write(path) as handle:
        return write_rows(handle, rows)


def read_jsonl(path: str | os.PathLike[str], *,
               unique: bool = False) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line; a line that is not a JSON object, holds a
    lone surrogate or nests deeper than :data:`~chemref._io.limits.MAX_JSON_DEPTH` is an error, and so, with
    ``unique``, is an object that names a key twice (what the scorers
    and the judge's files are read with: a prediction or an answer must say one thing).

    The file is read one line at a time (each at most :data:`chemref._io.MAX_LINE_BYTES` characters; only
    regular files), so a file larger than memory is fine."""
    where = os.fspath(path)
    hook = unique_keys if unique else None
    for number, line in iter_lines(path):
        if not line.strip():
            continue
        problem = json_depth_problem(line)
        if problem is not None:
            raise InputError(f"JSON nested too deeply to read: {problem}", path=where, line=number,
                             hint="expected one flat JSON object per line (JSON Lines)")
        try:
            value = json.loads(line, object_pairs_hook=hook, parse_float=_finite, parse_constant=_no_constant)
        except DuplicateKey as exc:
            raise InputError(f"the key {exc.args[0]!r} is given twice in one object", path=where, line=number,
                             hint="give each key once") from None
        except _NotFinite as exc:
            raise InputError(f"{exc.args[0][:40]} is not a finite number", path=where, line=number,
                             hint="numbers must be finite: JSON has no NaN or Infinity") from None
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON: {exc.msg}", path=str(path), line=number, column=exc.colno,
                             hint="expected one JSON object per line (JSON Lines)") from None
        except ValueError as exc:  # an integer of thousands of digits
            raise InputError(f"a number cannot be read: {exc}", path=where, line=number) from None
        except RecursionError:
            raise InputError("JSON nested too deeply to read", path=str(path), line=number,
                             hint="expected one flat JSON object per line (JSON Lines)") from None
        if not isinstance(value, dict):
            raise InputError(f"expected a JSON object, found {type(value).__name__}", path=str(path), line=number,
                             hint="expected one JSON object per line (JSON Lines)")
        _refuse_surrogate(line, value, where, number)
        yield number, value


#: stands for the streamed list inside the JSON text of :func:`write_json_streaming`
_STREAMED = "\x00streamed\x00"


def write_json_streaming(handle: IO[str], value: dict[str, Any], key: str, items: Iterable[Any], *,
                         indent: int, one_line_items: bool = False) -> None:
    """``json.dump({**value, key: list(items)}, handle, indent=indent, ensure_ascii=False)`` with the list
    taken from ``items`` one at a time (the same bytes, without the list in memory); ``one_line_items``
    writes each item compactly on its own line instead. ``key`` is a top-level key; no newline at the end."""
    text = json_text({**value, key: _STREAMED}, indent=indent)
    head, tail = text.split(f"{json.dumps(key)}: {json.dumps(_STREAMED)}")
    pad = "\n" + " " * (2 * indent)
    handle.write(f"{head}{json.dumps(key)}: [")
    first = True
    for item in items:
        handle.write(pad if first else "," + pad)
        if one_line_items:
            handle.write(json_text(item))
        else:
            handle.write(json_text(item, indent=indent).replace("\n", pad))
        first = False
    handle.write("]" if first else "\n" + " " * indent + "]")
    handle.write(tail)


# ------------------------------------------------------------------------------ structures read back, checked
def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999
        raise _NotFinite(text)
    return value


def _no_constant(text: str) -> float:
    raise _NotFinite(text)  # NaN, Infinity, -Infinity: not JSON, though Python's reader takes them


class _NotFinite(ValueError):
    pass


def parse_json(text: str | bytes, *, path: str | os.PathLike[str] | None = None, line: int | None = None) -> Any:
    """One JSON document read strictly: a number that is not finite (``NaN``, ``Infinity``, ``1e999``), a key
    given twice in one object, a lone surrogate, nesting deeper than
    :data:`~chemref._io.limits.MAX_JSON_DEPTH` and bytes that are not UTF-8 (UTF-16
    too, which Python's reader would take) are :class:`InputError`\\ s naming ``path`` and ``line``, like bad
    JSON."""
    where = None if path is None else os.fspath(path)
    if isinstance(text, (bytes, bytearray)):  # UTF-8 only (a BOM dropped): json.loads would also take UTF-16/32
        if b"\0" in text[:4] or text[:2] in (b"\xff\xfe", b"\xfe\xff"):
            raise InputError("not UTF-8 text (UTF-16 or UTF-32, judging by its first bytes)", path=where,
                             line=line, hint="save the file as UTF-8")
        text = decode_utf8(bytes(text), where or "<json>")
    problem = json_depth_problem(text)
    if problem is not None:
        raise InputError(f"JSON nested too deeply to read: {problem}", path=where, line=line)
    try:
        value = json.loads(text, parse_float=_finite, parse_constant=_no_constant, object_pairs_hook=unique_keys)
    except DuplicateKey as exc:
        raise InputError(f"the key {exc.args[0]!r} is given twice in one object", path=where, line=line,
                         hint="give each key once") from None
    except _NotFinite as exc:
        raise InputError(f"{exc.args[0][:40]} is not a finite number", path=where, line=line,
                         hint="numbers must be finite: JSON has no NaN or Infinity") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", path=where, line=exc.lineno if line is None else line,
                         column=exc.colno) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", path=where, line=line, hint="save the file as UTF-8") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise InputError(f"a number cannot be read: {exc}", path=where, line=line) from None
    except RecursionError:
        raise InputError("JSON nested too deeply to read", path=where, line=line) from None
    _refuse_surrogate(text, value, where, line)
    return value


_VALIDATORS: dict[int, Any] = {}


def check_schema(value: Any, schema: dict[str, Any], *, what: str, path: str | os.PathLike[str] | None = None,
                 line: int | None = None, hint: str | None = None) -> Any:
    """``value`` when it matches the JSON Schema ``schema`` (draft 7, compiled once by fastjsonschema), else an
    :class:`InputError` ``"<what>: <where and what is wrong>"`` (``what``: "invalid manifest"; the place as
    ``$.shards[0].files``)."""

    validator = _VALIDATORS.get(id(schema))
    if validator is None:
        validator = _VALIDATORS[id(schema)] = fastjsonschema.compile(schema)
    where = None if path is None else os.fspath(path)
    try:
        return validator(value)
    except fastjsonschema.JsonSchemaValueException as exc:
        message = exc.message
        if message.startswith("data"):
            message = "$" + message[len("data"):]
        if len(message) > 200:
            message = message[:197] + "..."
        raise InputError(f"{what}: {message}", path=where, line=line, hint=hint) from None
    except RecursionError:
        raise InputError(f"{what}: nested too deeply", path=where, line=line, hint=hint) from None


def read_json(path: str | os.PathLike[str], *, what: str, schema: dict[str, Any] | None = None,
              limit: int | None = None, hint: str | None = None) -> Any:
    """The JSON document in the regular file ``path`` (at most ``limit`` bytes, default the input size limit),
    read strictly (:func:`parse_json`) and checked against ``schema`` (:func:`check_schema`)."""
    value = parse_json(read_limited(path, limit), path=path)
    return value if schema is None else check_schema(value, schema, what=what, path=path, hint=hint)
