"""The scorers of the benchmarks beside BRAT: citation prediction (``citation_prediction``, with fuzzy title
matching in ``titles``), citation recommendation (``ranking``) and PubMedQA (``pubmedqa``), with their
line-numbered input readers (``readers``) and per-group breakdowns (``breakdowns``)."""

from __future__ import annotations

from chemref._lazy import lazy_exports

_EXPORTS = {
    "score_questions": "chemref.scoring.benchmarks.citation_prediction",
    "score_ranking": "chemref.scoring.benchmarks.ranking",
    "score_pubmedqa": "chemref.scoring.benchmarks.pubmedqa",
    "normalize_title": "chemref.scoring.benchmarks.titles",
    "titles_match": "chemref.scoring.benchmarks.titles",
}

__all__ = [*_EXPORTS]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
