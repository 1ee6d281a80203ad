"""BRAT standoff model and reader/writer (no spaCy).

Names are re-exported lazily, so importing one submodule (e.g. for decoding) stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    **dict.fromkeys(("Span", "Entity", "Relation", "Event", "Attribute", "Normalization", "Note", "Equiv",
                     "Document", "MentionKey"), "chemref.brat.model"),
    **dict.fromkeys(("parse_ann", "read_ann", "decode_ann", "ALL_KINDS", "SCORING_KINDS"), "chemref.brat.reader"),
    **dict.fromkeys(("format_ann", "write_ann"), "chemref.brat.writer"),
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'chemref.brat' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
