"""BRATEval v0.3.2 compatibility (the README's "Scoring ChEMU / BRAT"): the same numbers and the same printed lines.

* :mod:`.java`: what its Java code computes (``HashMap`` order, string handling, number formatting,
  approximate similarity);
* :mod:`.reader`: ``.ann`` files as BRATEval reads them, including the lines that crash it;
* :mod:`.compare`: its greedy matching, per-type keys and summary.

Wherever BRATEval aborts with a Java exception, a :class:`BratError` / :class:`ScoringError` says which
file, which line and why, and no summary is produced.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports

_EXPORTS = {
    **{name: "chemref.scoring.brat.brateval.compare" for name in (
        "score_brateval", "Matcher", "brateval_exact", "brateval_overlap", "score_entities_doc", "score_relations_doc")},
    **{name: "chemref.scoring.brat.brateval.java" for name in (
        "DEFAULT_SIMILARITY", "banded_edit_distance", "brateval_similarity", "java_double", "java_format4",
        "java_hashmap_layout", "java_hashmap_order", "java_parse_int", "java_read_lines", "java_sort_key",
        "java_split", "java_string_hash", "java_trim", "utf16_units")},
    **{name: "chemref.scoring.brat.brateval.reader" for name in (
        "BDocument", "BEntity", "BRelation", "parse_brateval", "read_document")},
}

__all__ = [*_EXPORTS]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
