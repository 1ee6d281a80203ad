"""ChEMU 2021 scoring: exact and relaxed (maximum bipartite) matching of mentions and relations, with and without
COREFERENCE expansion, micro-summed over documents (the semantics are the ChEMU-Ref scoring notes in the reference
data).

A mention is ``(label, sorted distinct fragments)``; a relation is ``(type, Arg1 mention, Arg2 mention)``.
Gold and prediction of one document are sets of those, so duplicates collapse.

Each side is read into a :class:`Side` (:mod:`.sides`): mentions numbered (a prediction after its gold, so equal
mentions share a number), relations coded by their argument numbers, the COREFERENCE closure made once. Relaxed
matching first clusters the overlapping mentions (:mod:`.clusters`, one sweep over the sorted spans): no match
crosses a cluster, and a cluster (or, for relations, a pair of clusters) whose gold items all meet all its
predicted ones matches as many as its smaller side holds; only the items of the other clusters go to a maximum
matching (:mod:`.relaxed`). :mod:`.document` scores one document into the six reports.
"""

from __future__ import annotations

from chemref.scoring.brat.chemu.document import (
    BLOCKS,
    MAX_ERROR_RECORDS,
    TypeCounts,
    Unmatched,
    collector_paused,
    score_document,
)
from chemref.scoring.brat.chemu.relaxed import MAX_MATCH_EDGES, MatchTooLarge, OverlapIndex, overlap
from chemref.scoring.brat.chemu.sides import (
    COREF,
    MAX_COREF_LINKS,
    MAX_COREF_TOTAL,
    CorefBudget,
    Frag,
    Mention,
    RelItem,
    Side,
    document_items,
    expand_coref,
    prepare_gold,
    prepare_side,
    read_side,
)

__all__ = [
    "BLOCKS", "COREF", "MAX_COREF_LINKS", "MAX_COREF_TOTAL", "MAX_ERROR_RECORDS", "MAX_MATCH_EDGES", "CorefBudget",
    "Frag", "MatchTooLarge", "Mention", "OverlapIndex", "RelItem", "Side", "TypeCounts", "Unmatched",
    "collector_paused", "document_items", "expand_coref", "overlap", "prepare_gold", "prepare_side", "read_side",
    "score_document",
]
