"""The ``chemref_citations`` component: citation markers as a span group (``doc.spans[spans_key]``, by default
``doc.spans["chemref_citations"]``).

A Doc built by :func:`chemref.nlp.make_doc` already carries the JATS anchors (with reference ids) and is
left as it is. Plain text is scanned for numeric and author-year markers
(:func:`chemref.nlp.citation_markers.find_citation_markers`); their spans have label ``numeric`` or
``author_year`` and no reference ids (a plain text names no reference list).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from chemref.nlp.citation_markers import find_citation_markers
from chemref.nlp.components.base import ChemrefPipe
from chemref.nlp.components.extensions import CITATIONS_KEY, doc_text, register_extensions

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc

__all__ = ["CitationMarkers"]


class CitationMarkers(ChemrefPipe):
    """Keeps anchors a Doc already has; otherwise finds plain-text markers (see the module docstring)."""

    def __init__(self, name: str = "chemref_citations", *, spans_key: str = CITATIONS_KEY, author_year: bool = True,
                 scorer: Callable[..., dict[str, Any]] | None = None) -> None:
        register_extensions()
        self.name = name
        self.spans_key = spans_key
        self.author_year = author_year
        self.scorer = scorer

    def __call__(self, doc: "Doc") -> "Doc":
        if self.spans_key in doc.spans:  # anchors from make_doc (or an earlier run): keep them
            return doc
        spans = []
        for start, end, label in find_citation_markers(doc_text(doc), author_year=self.author_year):
            span = doc.char_span(start, end, label=label, alignment_mode="expand")
            if span is not None:
                spans.append(span)
        doc.spans[self.spans_key] = spans
        return doc

    def score_kwargs(self) -> dict[str, Any]:
        return {"spans_key": self.spans_key}
