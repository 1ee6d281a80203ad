"""The ``chemref_citations`` component: citation markers as the span group ``doc.spans["chemref_citations"]``.

A Doc built by :func:`chemref.nlp.make_doc` already carries the JATS anchors (with reference ids) and is
left as it is. Plain text is scanned for numeric markers ("[12]", "[3–5]", "[1, 4-6]") and author-year
ones ("(Smith et al., 2019)", "(Smith and Jones 2019; Lee 2020a)"); their spans have label ``numeric``
or ``author_year`` and no reference ids (a plain text names no reference list).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterator

from spacy.language import Language

from chemref.nlp.extensions import SPANS_KEY, doc_text, register_extensions
from chemref.nlp.wordlists import particle_pattern

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc

__all__ = ["SPANS_KEY", "NUMERIC_RE", "AUTHOR_YEAR_RE", "find_citation_markers", "CitationMarkers",
           "make_citations"]

_DASH = r"[-–—−‐]"
_NUM_ITEM = rf"\d{{1,4}}(?:\s*{_DASH}\s*\d{{1,4}})?"
#: "[12]", "[3–5]", "[1, 4-6]", "[2;7]"
NUMERIC_RE = re.compile(rf"\[{_NUM_ITEM}(?:\s*[,;]\s*{_NUM_ITEM})*\](?![^\W\d_])")  # not "[1,3]dioxole"

_UPPER = "A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ"
_PARTICLE = particle_pattern()
_NAME = rf"(?:{_PARTICLE}\s+){{0,2}}[{_UPPER}][^\W\d_]*(?:['’][^\W\d_]+)?(?:[-‐][{_UPPER}][^\W\d_]*)?"
_AUTHORS = rf"{_NAME}(?:\s+et\s+al\.?|(?:\s*,\s*{_NAME})*\s+(?:and|&)\s+{_NAME})?"
_YEAR = r"(?:1[5-9]\d\d|20\d\d)[a-z]?"
_ITEM = rf"{_AUTHORS},?\s+{_YEAR}(?:\s*,\s*{_YEAR})*"
_LEAD = r"(?:(?:see(?:\s+also)?|e\.g\.|cf\.|reviewed\s+in|for\s+a\s+review,?\s+see)\s*,?\s+)?"
#: "(Smith et al., 2019)", "(Smith and Jones 2019; Lee 2020a, 2021)", "(see Lee, 2020)"
AUTHOR_YEAR_RE = re.compile(rf"\({_LEAD}{_ITEM}(?:\s*;\s*{_ITEM})*\)")


def find_citation_markers(text: str, *, author_year: bool = True) -> Iterator[tuple[int, int, str]]:
    """Yield ``(start, end, label)`` for each plain-text citation marker in ``text``, in text order."""
    found: list[tuple[int, int, str]] = []
    if "[" in text:
        found.extend((m.start(), m.end(), "numeric") for m in NUMERIC_RE.finditer(text))
    if author_year and "(" in text:
        found.extend((m.start(), m.end(), "author_year") for m in AUTHOR_YEAR_RE.finditer(text))
    found.sort()
    return iter(found)


class CitationMarkers:
    """Keeps anchors a Doc already has; otherwise finds plain-text markers (see the module docstring)."""

    def __init__(self, name: str = "chemref_citations", *, author_year: bool = True) -> None:
        self.name = name
        self.author_year = author_year

    def __call__(self, doc: "Doc") -> "Doc":
        if SPANS_KEY in doc.spans:  # anchors from make_doc (or an earlier run): keep them
            return doc
        spans = []
        for start, end, label in find_citation_markers(doc_text(doc), author_year=self.author_year):
            span = doc.char_span(start, end, label=label, alignment_mode="expand")
            if span is not None:
                spans.append(span)
        doc.spans[SPANS_KEY] = spans
        return doc


@Language.factory(
    "chemref_citations",
    assigns=["doc.spans"],
    default_config={"author_year": True},
)
def make_citations(nlp: Language, name: str, author_year: bool) -> CitationMarkers:
    """spaCy factory: ``nlp.add_pipe("chemref_citations", config={"author_year": True})``."""
    register_extensions()
    return CitationMarkers(name, author_year=author_year)
