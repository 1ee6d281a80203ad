"""JATS XML reading (PubMed Central / Europe PMC): no spaCy, no network, no DTD loading.

Read one article with :func:`chemref.read_jats`; :func:`read_articles` gives each article of a file and
:func:`read_many` streams many files.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports
from chemref.errors import JatsError
from chemref.jats.model import (
    SECTION_KINDS,
    Article,
    ArticleDate,
    Author,
    Award,
    CitationAnchor,
    Diagnostic,
    FormatRange,
    Funding,
    License,
    Paragraph,
    Reference,
    Section,
)

__all__ = [
    "read_articles", "read_many", "JatsError", "SECTION_KINDS", "Article", "ArticleDate", "Author", "Award",
    "CitationAnchor", "Diagnostic", "FormatRange", "Funding", "License", "Paragraph", "Reference", "Section",
]


# the readers live in chemref.jats.reader (which imports lxml): imported on first use.
__getattr__, __dir__ = lazy_exports(__name__, {name: "chemref.jats.reader" for name in ("read_articles", "read_many")})
