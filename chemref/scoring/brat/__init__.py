"""BRAT scoring: ChEMU 2021 (``chemu``) and the BRATEval v0.3.2 emulation (``brateval``), with what they share:
the ``.ann`` collections to score (``sources``), COREFERENCE closure (``closure``), bipartite matching
(``matching``), match counts (``counts``), the report's ``meta`` and intervals (``report``), and the per-document
match details of the HTML error page (``match_details``). ``score.score_brat`` is the entry point."""

from __future__ import annotations

from chemref._lazy import lazy_exports

_EXPORTS = {
    "score_brat": "chemref.scoring.brat.score",
    "AnnSource": "chemref.scoring.brat.sources",
    "ZipLimits": "chemref.scoring.brat.sources",
}

__all__ = [*_EXPORTS]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
