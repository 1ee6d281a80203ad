"""Question labels in the format of the labelling guide (``corpora/labels/QUESTION_GUIDE.md``), one JSON line each:

``{"id": ..., "good_question": true|false|null, "author_named": bool, "function": "CLAIM"|"PASSING",
"sentence_ok": bool, "note": "..."}``

``id`` names a record of ``questions.jsonl`` or ``rejected.jsonl``. ``note`` may be left out; other keys
(``excerpt_sha1``, which says which excerpt text the label was given for) are kept but not required.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from chemref.errors import InputError
from chemref.jsonl import read_jsonl

__all__ = ["Label", "FUNCTIONS", "LABEL_FIELDS", "GUIDE", "read_labels", "parse_label", "excerpt_sha1"]

#: The labelling guide: what each field means and how to decide it (a file of the chemref repository).
GUIDE = "corpora/labels/QUESTION_GUIDE.md"

FUNCTIONS = ("CLAIM", "PASSING")
#: The fields of a label line, in the guide's order.
LABEL_FIELDS = ("id", "good_question", "author_named", "function", "sentence_ok", "note")
_HINT = "one JSON object per line with id, good_question (true/false/null), author_named, function " \
        f"(CLAIM/PASSING), sentence_ok and note, as in {GUIDE}"


@dataclass(frozen=True, slots=True)
class Label:
    """One labelled question or candidate."""

    id: str
    good_question: bool | None
    author_named: bool
    function: str
    sentence_ok: bool
    note: str = ""
    excerpt_sha1: str | None = None

    def to_dict(self) -> dict[str, Any]:
        row: dict[str, Any] = {name: getattr(self, name) for name in LABEL_FIELDS}
        if self.excerpt_sha1 is not None:
            row["excerpt_sha1"] = self.excerpt_sha1
        return row


def excerpt_sha1(excerpt: str) -> str:
    """A short fingerprint of an excerpt: a label given for another text of the same id is stale."""
    return hashlib.sha1(excerpt.encode("utf-8")).hexdigest()[:12]


def parse_label(row: Mapping[str, Any], *, path: str | None = None, line: int | None = None) -> Label:
    """Check one label object; an :class:`InputError` names the file, the line and the field."""

    def bad(message: str) -> InputError:
        return InputError(message, path=path, line=line, hint=_HINT)

    if not isinstance(row, Mapping):
        raise bad(f"expected a JSON object, found {type(row).__name__}")
    missing = [name for name in LABEL_FIELDS[:5] if name not in row]
    if missing:
        raise bad(f"missing field{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    ident = row["id"]
    if not isinstance(ident, str) or not ident:
        raise bad(f"id must be a non-empty string, got {ident!r}")
    good = row["good_question"]
    if good is not None and not isinstance(good, bool):
        raise bad(f"good_question must be true, false or null, got {good!r}")
    for name in ("author_named", "sentence_ok"):
        if not isinstance(row[name], bool):
            raise bad(f"{name} must be true or false, got {row[name]!r}")
    if row["function"] not in FUNCTIONS:
        raise bad(f"function must be CLAIM or PASSING, got {row['function']!r}")
    note = row.get("note", "")
    if note is None:
        note = ""
    if not isinstance(note, str):
        raise bad(f"note must be a string, got {note!r}")
    fingerprint = row.get("excerpt_sha1")
    return Label(ident, good, row["author_named"], row["function"], row["sentence_ok"], note,
                 fingerprint if isinstance(fingerprint, str) else None)


def read_labels(path: str | os.PathLike[str]) -> dict[str, Label]:
    """Read a label file; bad JSON, a missing or invalid field, or an id labelled twice is an error."""
    labels: dict[str, Label] = {}
    lines: dict[str, int] = {}
    for number, row in read_jsonl(path, unique=True):
        label = parse_label(row, path=str(path), line=number)
        if label.id in labels:
            raise InputError(f"id {label.id!r} is labelled twice (first on line {lines[label.id]})",
                             path=str(path), line=number, hint="keep one label per id")
        labels[label.id] = label
        lines[label.id] = number
    if not labels:
        raise InputError("no labels in this file", path=str(path), hint=_HINT)
    return labels


def good_labels(labels: Iterable[Label]) -> dict[str, bool]:
    """``id -> good_question`` for the decided labels (nulls left out)."""
    return {label.id: label.good_question for label in labels if label.good_question is not None}
