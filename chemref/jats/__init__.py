"""JATS XML reading (PubMed Central / Europe PMC): no spaCy, no network, no DTD loading."""

from __future__ import annotations

from chemref.jats.model import (
    SECTION_KINDS, Article, CitationAnchor, Diagnostic, FormatRange, License, Paragraph, Reference, Section,
)
from chemref.errors import JatsError

__all__ = [
    "read", "read_articles", "read_many", "JatsError", "SECTION_KINDS", "Article", "CitationAnchor", "Diagnostic",
    "FormatRange", "License", "Paragraph", "Reference", "Section",
]


def __getattr__(name: str):
    # the readers live in chemref.jats.reader (which imports lxml): imported on first use.
    if name in ("read", "read_articles", "read_many"):
        from chemref.jats import reader
        return getattr(reader, name)
    raise AttributeError(name)
