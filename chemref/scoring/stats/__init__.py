"""How sure a score is: the resampling settings (``resampling``, without numpy), bootstrap intervals and paired
significance tests (``bootstrap``), and agreement figures (``agreement``: Cohen's kappa, ranking AUC)."""

from __future__ import annotations

from chemref._lazy import lazy_exports

_EXPORTS = {
    "Resampling": "chemref.scoring.stats.resampling",
    "ranking_auc": "chemref.scoring.stats.agreement",
    "cohen_kappa": "chemref.scoring.stats.agreement",
    "micro_intervals": "chemref.scoring.stats.bootstrap",
    "mean_intervals": "chemref.scoring.stats.bootstrap",
    "paired_test": "chemref.scoring.stats.bootstrap",
}

__all__ = [*_EXPORTS]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
