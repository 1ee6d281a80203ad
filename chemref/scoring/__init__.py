"""Scorers: ChEMU 2021 / BRATEval-compatible BRAT scoring and the neighbouring benchmarks.

Nothing here imports spaCy. Names are re-exported lazily so ``import chemref.scoring`` is cheap.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports
from chemref.doi import normalize_doi

# public name -> "module[:attribute]"
_EXPORTS: dict[str, str] = {
    # BRAT / ChEMU 2021 / BRATEval
    "score_brat": "chemref.scoring.brat.score",
    # neighbouring benchmarks
    "score_questions": "chemref.scoring.benchmarks.citation_prediction",
    "score_ranking": "chemref.scoring.benchmarks.ranking",
    "score_pubmedqa": "chemref.scoring.benchmarks.pubmedqa",
    # leaderboards with intervals and paired tests
    "compare_brat": "chemref.scoring.leaderboard",
    "compare_ranking": "chemref.scoring.leaderboard",
    "compare_questions": "chemref.scoring.leaderboard",
    # the one report type they all return
    "ScoreReport": "chemref.scoring.report.model",
}

__all__ = ["normalize_doi", *_EXPORTS]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
