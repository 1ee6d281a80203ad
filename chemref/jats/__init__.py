"""JATS XML reading (PubMed Central / Europe PMC): no spaCy, no network, no DTD loading."""

from __future__ import annotations

from chemref.jats.model import (
    SECTION_KINDS, Article, CitationAnchor, Diagnostic, FormatRange, License, Paragraph, Reference, Section,
)
from chemref.errors import JatsError

__all__ = [
    "read", "read_many", "JatsError", "SECTION_KINDS", "Article", "CitationAnchor", "Diagnostic",
    "FormatRange", "License", "Paragraph", "Reference", "Section",
]


def __getattr__(name: str):
    # read/read_many live in chemref.jats.reader (written by the JATS reader issue); imported lazily.
    if name in ("read", "read_many"):
        from chemref.jats import reader
        return getattr(reader, name)
    raise AttributeError(name)
