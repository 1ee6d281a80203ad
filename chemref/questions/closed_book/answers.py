"""The closed-book answers, read strictly from a Batch output file (``judge run`` writes it, or a hosted batch).

A line is one of the judge's answer kinds (:data:`chemref.questions.judge.answers.ANSWER_KINDS`: ``http_error``,
``refused``, ``truncated``, ``not_json``, ``schema`` are read the same way, by the same code); an ``ok`` answer
is one JSON object with exactly the keys :data:`RECALL_KEYS`: ``title``, ``first_author`` and ``doi`` a string
or null (an empty string is read as null: nothing remembered), ``year`` an integer or null. Anything else is
``schema``. ``missing`` and ``stale`` are decided by :mod:`chemref.questions.closed_book.apply`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Mapping

from chemref._io.secrets import scrub
from chemref.questions.judge.answers import completion, json_object, read_responses

__all__ = ["RECALL_KEYS", "MAX_FIELD_CHARS", "Recollection", "parse_recollection", "classify_recollection",
           "read_recollections"]

#: The keys of a closed-book answer, exactly.
RECALL_KEYS = ("title", "first_author", "year", "doi")
#: The longest string accepted in an answer field (a title is a few hundred characters at most).
MAX_FIELD_CHARS = 2000
#: The years accepted (an integer outside is no publication year).
_YEARS = range(1500, 2200)


@dataclass(frozen=True, slots=True)
class Recollection:
    """One sample's answer: ``kind`` (the judge's answer kinds), the four fields when ``ok`` (None: not
    remembered), the model that answered and, when not ``ok``, what was wrong (``detail``)."""

    kind: str
    title: str | None = None
    first_author: str | None = None
    year: int | None = None
    doi: str | None = None
    model: str | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.kind == "ok"

    @property
    def names_a_work(self) -> bool:
        """An ``ok`` answer that gives a title or a DOI (the fields the match reads)."""
        return self.ok and (self.title is not None or self.doi is not None)


def _failed(kind: str, detail: str, model: str | None) -> Recollection:
    return Recollection(kind, model=model, detail=scrub(detail))  # it is written (rejected-out), so without secrets


def _string(value: Any, name: str) -> str | None | tuple[str, str]:
    if value is None:
        return None
    if not isinstance(value, str):
        return "schema", f"{name} must be a string or null, got {type(value).__name__}"
    if len(value) > MAX_FIELD_CHARS:
        return "schema", f"{name} is longer than {MAX_FIELD_CHARS} characters"
    return value.strip() or None


def parse_recollection(content: Any, model: str | None = None) -> Recollection:
    """The answer in an assistant message's ``content``: ``ok``, ``not_json`` or ``schema``."""
    value = json_object(content, RECALL_KEYS)
    if isinstance(value, tuple):
        return _failed(value[0], value[1], model)
    fields: dict[str, Any] = {}
    for name in ("title", "first_author", "doi"):
        text = _string(value[name], name)
        if isinstance(text, tuple):
            return _failed(text[0], text[1], model)
        fields[name] = text
    year = value["year"]
    if year is not None and (isinstance(year, bool) or not isinstance(year, int) or year not in _YEARS):
        return _failed("schema", f"year must be an integer from {_YEARS.start} to {_YEARS.stop - 1} or null, got "
                                 f"{str(year)[:40]!r}", model)
    return Recollection("ok", fields["title"], fields["first_author"], year, fields["doi"], model)


def classify_recollection(row: Mapping[str, Any]) -> Recollection:
    """The answer of one Batch output line (already known to have a ``custom_id``)."""
    content, model, bad = completion(row)
    if bad is not None:
        return _failed(bad[0], bad[1], model)
    return parse_recollection(content, model)


def read_recollections(path: str | os.PathLike[str]) -> dict[str, tuple[int, Recollection]]:
    """``custom_id -> (line, answer)`` for every line of a Batch output file, read as the judge's are
    (:func:`chemref.questions.judge.answers.read_responses`: a bad line or an id answered twice is an
    :class:`~chemref.errors.InputError` naming the file and the line)."""
    return read_responses(path, classify=classify_recollection)
