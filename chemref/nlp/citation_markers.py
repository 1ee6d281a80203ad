"""Plain-text citation markers: numeric ("[12]", "[3–5]", "[1, 4-6]") and author-year ("(Smith et al., 2019)",
"(Smith and Jones 2019; Lee 2020a)"). Pure Python and ``re`` (no spaCy); the ``chemref_citations`` component
(:mod:`chemref.nlp.components.citations`) puts them on a Doc.
"""

from __future__ import annotations

import re
from typing import Iterator

from chemref.nlp.wordlists import particle_pattern

__all__ = ["NUMERIC_RE", "AUTHOR_YEAR_RE", "find_citation_markers"]

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
    """Yield ``(start, end, label)`` for each plain-text citation marker in ``text``, in text order; ``label``
    is ``numeric`` or ``author_year``."""
    found: list[tuple[int, int, str]] = []
    if "[" in text:
        found.extend((m.start(), m.end(), "numeric") for m in NUMERIC_RE.finditer(text))
    if author_year and "(" in text:
        found.extend((m.start(), m.end(), "author_year") for m in AUTHOR_YEAR_RE.finditer(text))
    found.sort()
    return iter(found)
