"""Scorers: ChEMU 2021 / BRATEval-compatible BRAT scoring and the neighbouring benchmarks.

Nothing here imports spaCy. Names are re-exported lazily so ``import chemref.scoring`` is cheap.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports


from chemref.doi import normalize_doi

# public name -> "module[:attribute]"
_EXPORTS: dict[str, str] = {
    # BRAT / ChEMU 2021 / BRATEval
    "score_brat": "chemref.scoring.brat_scoring",
    # neighbouring benchmarks
    "score_questions": "chemref.scoring.citation_prediction",
    "score_ranking": "chemref.scoring.ranking",
    "score_pubmedqa": "chemref.scoring.pubmedqa",
    # leaderboards with intervals and paired tests
    "compare_brat": "chemref.scoring.leaderboard",
    "compare_ranking": "chemref.scoring.leaderboard",
    "compare_questions": "chemref.scoring.leaderboard",
    # the one report type they all return
    "ScoreReport": "chemref.scoring.score_report",
}

__all__ = ["normalize_doi", *_EXPORTS]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
