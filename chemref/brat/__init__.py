"""BRAT standoff model and reader/writer (no spaCy).

Names are re-exported lazily, so importing one submodule (e.g. for decoding) stays cheap.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(("Span", "Entity", "Relation", "Event", "Attribute", "Normalization", "Note", "Equiv",
                     "Document", "MentionKey"), "chemref.brat.model"),
    **dict.fromkeys(("parse_ann", "read_ann", "scan_ann", "decode_ann", "ALL_KINDS",
                     "SCORING_KINDS"), "chemref.brat.reader"),
    **dict.fromkeys(("format_ann", "write_ann"), "chemref.brat.writer"),
}

__all__ = list(_EXPORTS)

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
