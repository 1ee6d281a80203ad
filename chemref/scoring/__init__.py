"""Scorers: ChEMU 2021 / BRATEval-compatible BRAT scoring and the neighbouring benchmarks.

Nothing here imports spaCy. Names are re-exported lazily so ``import chemref.scoring`` is cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from chemref.doi import normalize_doi

# public name -> "module[:attribute]". Shared file: add lines, do not reorder or rewrite.
_EXPORTS: dict[str, str] = {
    # BRAT / ChEMU 2021 / BRATEval (issue 2)
    "score_brat": "chemref.scoring.brat_api",
    # neighbouring benchmarks (issue 6)
    "score_questions": "chemref.scoring.citation_prediction",
    "score_ranking": "chemref.scoring.ranking",
    "score_pubmedqa": "chemref.scoring.pubmedqa",
}

__all__ = ["normalize_doi", *_EXPORTS]


def __getattr__(name: str) -> Any:
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'chemref.scoring' has no attribute {name!r}")
    module_name, _, attr = target.partition(":")
    value = getattr(import_module(module_name), attr or name)
    globals()[name] = value
    return value
