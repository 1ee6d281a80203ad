"""The one report type every scorer returns (``model.ScoreReport``) and its formats (``formats``: text,
Markdown, CSV, JSON)."""

from __future__ import annotations

from chemref._lazy import lazy_exports

_EXPORTS = {
    "ScoreReport": "chemref.scoring.report.model",
    "Table": "chemref.scoring.report.model",
    "to_text": "chemref.scoring.report.formats",
    "to_markdown": "chemref.scoring.report.formats",
    "to_csv": "chemref.scoring.report.formats",
    "to_json": "chemref.scoring.report.formats",
}

__all__ = [*_EXPORTS]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
