"""One document scored into the six ChEMU reports (:data:`BLOCKS`): exact and relaxed counts of relations (with
and without COREFERENCE expansion) and entities, and the FP/FN records of each report, bounded."""

from __future__ import annotations

import gc
from collections import Counter
from contextlib import contextmanager
from itertools import islice
from operator import itemgetter
from typing import Iterable, Iterator, Sequence

from chemref.errors import ScoringError
from chemref.scoring.brat.chemu.clusters import _Clusters, _relaxed_groups, _vector_groups, _vector_unmatched
from chemref.scoring.brat.chemu.relaxed import MAX_MATCH_EDGES, MatchTooLarge, _ent_match, _rel_match
from chemref.scoring.brat.chemu.sides import _BOTH, _LOW, _VECTOR, COREF, MAX_COREF_LINKS, Mention, Side, prepare_side
from chemref.scoring.brat.counts import Counts, add_counts

#: (level, match, coref) of the six ChEMU reports; coref is None for entities
BLOCKS: tuple[tuple[str, str, str | None], ...] = (
    ("relations", "exact", "coref_not_expanded"),
    ("relations", "exact", "coref_expanded"),
    ("relations", "relaxed_bipartite", "coref_not_expanded"),
    ("relations", "relaxed_bipartite", "coref_expanded"),
    ("entities", "exact", None),
    ("entities", "relaxed_bipartite", None),
)


#: default largest number of FP/FN records one document lists per report (``--errors``, the error page); the
#: counts are always complete, the records past it are only counted
MAX_ERROR_RECORDS = 1_000


class Unmatched:
    """The FP/FN items of one report of one document, as ``(kind, item)``: at most ``cap`` of them (None: all),
    the first in ``(kind, item)`` order (the order the records are listed in); the others are dropped as they
    come (how many: the report's FP and FN counts less those kept). Time linear in the items (one comparison
    each, in C, once ``cap`` are kept), memory bounded by ``cap``."""

    __slots__ = ("_items", "_top", "cap")

    def __init__(self, cap: int | None) -> None:
        self.cap = cap
        self._items: list = []
        self._top: tuple | None = None  # past a trim: the largest item kept (no larger one can enter)

    def append(self, item: tuple) -> None:
        self.extend((item,))

    def extend(self, items: Iterable[tuple]) -> None:
        kept, cap = self._items, self.cap
        if cap is None:
            kept.extend(items)
            return
        it = iter(items)
        while True:
            room = 2 * cap + 1 - len(kept)
            before = len(kept)
            kept.extend(islice(it if self._top is None else filter(self._top.__gt__, it), room))
            if len(kept) - before < room:
                return
            self._trim()

    def extend_codes(self, kind: str, rel_type: str, codes: Iterable[int], names: Sequence[Mention]) -> None:
        """:meth:`extend` with the relations ``(kind, (rel_type, names[arg1], names[arg2]))`` of the relation
        codes ``codes`` (``arg1 << 32 | arg2``); past ``cap`` of them, the first ``cap`` in that order are chosen
        on the codes (numpy), so the others are never built."""
        cap = self.cap
        if cap is not None and isinstance(codes, (set, frozenset, list)) and len(codes) > cap:
            import numpy as np

            order = sorted(range(len(names)), key=names.__getitem__)
            rank = np.empty(len(names), np.int64)
            rank[order] = np.arange(len(names), dtype=np.int64)
            arr = np.fromiter(codes, np.int64, len(codes))
            keys = rank[arr >> 32] * len(names) + rank[arr & _LOW]
            codes = arr[np.argpartition(keys, cap - 1)[:cap]].tolist() if cap else []
        self.extend((kind, (rel_type, names[c >> 32], names[c & _LOW])) for c in codes)

    def _trim(self) -> None:
        kept = self._items
        kept.sort()
        del kept[self.cap:]
        self._top = kept[-1] if kept else None

    def copy(self) -> Unmatched:
        other = Unmatched(self.cap)
        other._items, other._top = list(self._items), self._top
        return other

    def items(self) -> list:
        """The items kept (in ``(kind, item)`` order once some were dropped)."""
        if self.cap is not None and len(self._items) > self.cap:
            self._trim()
        return self._items


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block (as it was before, after it): reading and matching a
    document allocate hundreds of thousands of tuples and no cycles, and each collection walks all of them."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


TypeCounts = dict[str, Counts]  # type -> counts
_first = itemgetter(0)


def _match_rest(gl: list, pl: list, matcher, max_edges: int | None, unmatched: Unmatched | None) -> int:
    """A maximum matching of the items of the mixed groups (``matcher``: :func:`_rel_match`, :func:`_ent_match`)."""
    tp, match = matcher(gl, pl, max_edges)
    if unmatched is not None:
        used = set(match)
        unmatched.extend(("FN", g) for g, m in zip(gl, match) if m < 0)
        unmatched.extend(("FP", p) for j, p in enumerate(pl) if j not in used)
    return tp


_EMPTY: frozenset = frozenset()


def _score_relations(gcodes: dict[str, set[int]], pcodes: dict[str, set[int]], g: Side, p: Side,
                     exact: TypeCounts, relaxed: TypeCounts, comps: _Clusters, unmatched_exact: Unmatched | None,
                     unmatched_relaxed: Unmatched | None, max_edges: int | None) -> None:
    """Exact counts (equal codes) and maximum-matching counts per relation type: by the pairs of clusters of
    their arguments, a matching only for the pairs whose mentions do not all meet."""
    gnames, pnames = g.names, p.names
    for t in gcodes.keys() | pcodes.keys():
        gold, pred = gcodes.get(t, _EMPTY), pcodes.get(t, _EMPTY)
        both = gold & pred
        tp = len(both)
        exact[t] = Counts(tp, len(pred) - tp, len(gold) - tp)
        if unmatched_exact is not None:
            unmatched_exact.extend_codes("FN", t, gold - both, gnames)
            unmatched_exact.extend_codes("FP", t, pred - both, pnames)
        if gold and pred and (len(gold) != len(pred) or tp != len(gold)):
            rtp = _relaxed_relations(t, gold, pred, gnames, pnames, comps, unmatched_relaxed, max_edges)
        else:
            rtp = len(gold) if gold and pred else 0
            if unmatched_relaxed is not None and not rtp:
                unmatched_relaxed.extend_codes("FN", t, gold, gnames)
                unmatched_relaxed.extend_codes("FP", t, pred, pnames)
        relaxed[t] = Counts(rtp, len(pred) - rtp, len(gold) - rtp)


def _relaxed_relations(t: str, gold: set[int] | frozenset[int], pred: set[int] | frozenset[int],
                       gnames: list[Mention], pnames: list[Mention], comps: _Clusters, unmatched_relaxed: Unmatched | None, max_edges: int | None) -> int:
    """The relaxed matches of the relations of type ``t`` (codes ``gold``, ``pred``) when they are not all
    equal: by the pairs of clusters of their arguments, then a matching for the mixed pairs."""
    gcomp, pcomp, mixed = comps.get()
    if len(gold) + len(pred) >= _VECTOR:
        import numpy as np

        ga, pa = comps.arrays()
        garr = np.fromiter(gold, np.int64, len(gold))
        parr = np.fromiter(pred, np.int64, len(pred))
        gk, pk = (ga[garr >> 32] << 32) | ga[garr & _LOW], (pa[parr >> 32] << 32) | pa[parr & _LOW]
        if unmatched_relaxed is None:
            rtp, rest = _vector_groups(gk, pk, mixed)
        else:
            rtp, rest, fn, fp = _vector_unmatched(gk, pk, mixed)
            unmatched_relaxed.extend_codes("FN", t, garr[fn].tolist(), gnames)
            unmatched_relaxed.extend_codes("FP", t, parr[fp].tolist(), pnames)
        if rest:
            gl, pl, gkeys, pkeys = garr.tolist(), parr.tolist(), gk.tolist(), pk.tolist()
    else:
        gl, pl = list(gold), list(pred)
        gkeys = [gcomp[c >> 32] << 32 | gcomp[c & _LOW] for c in gl]
        pkeys = [pcomp[c >> 32] << 32 | pcomp[c & _LOW] for c in pl]
        left: tuple[list[int], list[int]] | None = ([], []) if unmatched_relaxed is not None else None
        rtp, rest = _relaxed_groups(gkeys, pkeys, mixed, left)
        if unmatched_relaxed is not None and left is not None:
            unmatched_relaxed.extend_codes("FN", t, [gl[i] for i in left[0]], gnames)
            unmatched_relaxed.extend_codes("FP", t, [pl[j] for j in left[1]], pnames)
    if rest:
        rtp += _match_rest([(t, gnames[c >> 32], gnames[c & _LOW]) for c, k in zip(gl, gkeys) if k in rest],
                           [(t, pnames[c >> 32], pnames[c & _LOW]) for c, k in zip(pl, pkeys) if k in rest],
                           _rel_match, max_edges, unmatched_relaxed)
    return rtp


def _score_entities(g: Side, p: Side, exact: TypeCounts, relaxed: TypeCounts, comps: _Clusters,
                    unmatched_exact: Unmatched | None, unmatched_relaxed: Unmatched | None,
                    max_edges: int | None) -> None:
    """Exact counts (set intersection) and maximum-matching counts per label, by clusters."""
    gold, pred = g.ents, p.ents
    if gold == pred:  # identical sets: everything matches exactly, hence also relaxed
        for t, n in Counter(map(_first, gold)).items():
            exact[t] = Counts(n, 0, 0)
            relaxed[t] = Counts(n, 0, 0)
        return
    both = gold & pred
    gc, pc, bc = Counter(map(_first, gold)), Counter(map(_first, pred)), Counter(map(_first, both))
    for t in gc.keys() | pc.keys():
        tp = bc[t]
        exact[t] = Counts(tp, pc[t] - tp, gc[t] - tp)
    if unmatched_exact is not None:
        unmatched_exact.extend(("FN", x) for x in gold - both)
        unmatched_exact.extend(("FP", x) for x in pred - both)
    gnames, pnames = g.names, p.names
    groups: dict[str, tuple[list[int], list[int]]] = {}
    for i in g.ent_numbers:
        groups.setdefault(gnames[i][0], ([], []))[0].append(i)
    for j in p.ent_numbers:
        groups.setdefault(pnames[j][0], ([], []))[1].append(j)
    for t, (gl, pl) in groups.items():
        if gl and pl and (len(gl) != len(pl) or bc[t] != len(gl)):
            tp = _relaxed_entities(gl, pl, gnames, pnames, comps, unmatched_relaxed, max_edges)
        else:
            tp = len(gl) if gl and pl else 0
            if unmatched_relaxed is not None and not tp:
                unmatched_relaxed.extend(("FN", gnames[i]) for i in gl)
                unmatched_relaxed.extend(("FP", pnames[j]) for j in pl)
        relaxed[t] = Counts(tp, len(pl) - tp, len(gl) - tp)


def _relaxed_entities(gl: list[int], pl: list[int], gnames: list[Mention], pnames: list[Mention],
                      comps: _Clusters, unmatched_relaxed: Unmatched | None, max_edges: int | None) -> int:
    """The relaxed matches of the mentions of one label (numbers ``gl``, ``pl``) when they are not all equal:
    by clusters, then a matching for the mixed clusters."""
    gcomp, pcomp, mixed = comps.get()
    if unmatched_relaxed is None and len(gl) + len(pl) >= _VECTOR:
        import numpy as np

        ga, pa = comps.arrays()
        gk, pk = ga[np.array(gl, np.int64)] * _BOTH, pa[np.array(pl, np.int64)] * _BOTH
        tp, rest = _vector_groups(gk, pk, mixed)
        if rest:
            gkeys, pkeys = gk.tolist(), pk.tolist()
    else:
        gkeys = [gcomp[i] * _BOTH for i in gl]  # a cluster k as k << 32 | k: the key of a pair of them
        pkeys = [pcomp[j] * _BOTH for j in pl]
        left_ents: tuple[list[int], list[int]] | None = (([], []) if unmatched_relaxed is not None
                                                         else None)
        tp, rest = _relaxed_groups(gkeys, pkeys, mixed, left_ents)
        if unmatched_relaxed is not None and left_ents is not None:
            unmatched_relaxed.extend(("FN", gnames[gl[i]]) for i in left_ents[0])
            unmatched_relaxed.extend(("FP", pnames[pl[j]]) for j in left_ents[1])
    if rest:
        tp += _match_rest([gnames[i] for i, k in zip(gl, gkeys) if k in rest],
                          [pnames[j] for j, k in zip(pl, pkeys) if k in rest],
                          _ent_match, max_edges, unmatched_relaxed)
    return tp


def score_document(gold: tuple[set, set] | Side, pred: tuple[set, set] | Side, totals: dict[tuple, TypeCounts],
                   errors: list | None = None, *, max_coref_links: int | None = MAX_COREF_LINKS,
                   paths: tuple[str | None, str | None] = (None, None),
                   max_match_edges: int | None = MAX_MATCH_EDGES, max_records: int | None = None,
                   left_out: dict[tuple, int] | None = None) -> dict[tuple, TypeCounts]:
    """Add one document's counts to ``totals``.

    Args:
        gold: ``(entities, relations)``, or a :func:`prepare_gold` side (numbered and expanded once, also for
            several predictions).
        pred: ``(entities, relations)``, or a :func:`read_side` side numbered after that gold.
        totals: Block -> type -> :class:`Counts`, added to.
        errors: When a list, receives ``(block, "FP"|"FN", item)`` for every unmatched item.
        max_coref_links: Bounds each side's COREFERENCE expansion (see :func:`expand_coref`), checked before
            any matching.
        paths: The (gold, prediction) file names, for errors.
        max_match_edges: Bounds the merged graph of one relaxed matching.
        max_records: At most this many items per report go to ``errors`` (the first in ``(kind, item)``
            order; None: all).
        left_out: When a dict, receives how many items each report left out of ``errors`` (block -> count).

    Returns:
        This document's counts (block -> type -> :class:`Counts`).

    Raises:
        ScoringError: An expansion or a relaxed matching passes its limit.
        ValueError: ``pred`` is a Side numbered after another gold.
    """
    try:
        return _score_document(gold, pred, totals, errors, max_coref_links, paths, max_match_edges, max_records,
                               left_out)
    except MatchTooLarge as exc:
        raise ScoringError(f"relaxed matching of the {exc.label} items needs a graph of more than {exc.limit:,} "
                           f"edges between groups of overlapping spans (gold {paths[0]})", path=paths[1],
                           hint="raise it with --max-match-edges (max_match_edges=) if the files are genuine"
                           ) from None


def _score_document(gold: tuple[set, set] | Side, pred: tuple[set, set] | Side, totals: dict[tuple, TypeCounts],
                    errors: list | None, max_coref_links: int | None, paths: tuple[str | None, str | None],
                    max_match_edges: int | None, max_records: int | None = None,
                    left_out: dict[tuple, int] | None = None) -> dict[tuple, TypeCounts]:
    # each side numbered and expanded (the limit first, gold then prediction), before any matching
    g = gold if isinstance(gold, Side) else prepare_side(gold[0], gold[1], max_coref_links, paths[0])
    if isinstance(pred, Side):
        if pred.base is not g:
            raise ValueError("a prediction Side must be numbered after the gold it is scored against")
        p = pred
    else:
        p = prepare_side(pred[0], pred[1], max_coref_links, paths[1], gold=g)
    doc: dict[tuple, TypeCounts] = {b: {} for b in BLOCKS}
    um: dict[tuple, Unmatched] | None = {b: Unmatched(max_records) for b in BLOCKS} if errors is not None else None
    b_rel_ex, b_rel_ex_x, b_rel_rx, b_rel_rx_x, b_ent_ex, b_ent_rx = BLOCKS

    def u(b):
        return um[b] if um is not None else None

    comps = _Clusters(g, p)
    _score_relations(g.codes, p.codes, g, p, doc[b_rel_ex], doc[b_rel_rx], comps, u(b_rel_ex), u(b_rel_rx),
                     max_match_edges)
    if g.expanded is None and p.expanded is None:
        for src, dst in ((b_rel_ex, b_rel_ex_x), (b_rel_rx, b_rel_rx_x)):
            doc[dst] = {t: v.copy() for t, v in doc[src].items()}
            if um is not None:
                um[dst] = um[src].copy()
    else:
        gx = g.codes if g.expanded is None else {**g.codes, COREF: g.expanded}
        px = p.codes if p.expanded is None else {**p.codes, COREF: p.expanded}
        _score_relations(gx, px, g, p, doc[b_rel_ex_x], doc[b_rel_rx_x], comps, u(b_rel_ex_x), u(b_rel_rx_x),
                         max_match_edges)
    _score_entities(g, p, doc[b_ent_ex], doc[b_ent_rx], comps, u(b_ent_ex), u(b_ent_rx), max_match_edges)
    for block, counts in doc.items():
        add_counts(totals.setdefault(block, {}), counts)
    if errors is not None and um is not None:
        for block, items in um.items():
            kept = items.items()
            errors.extend((block, kind, item) for kind, item in kept)
            if left_out is not None and max_records is not None and len(kept) >= max_records:
                missed = sum(c.fp + c.fn for c in doc[block].values()) - len(kept)
                if missed > 0:
                    left_out[block] = missed
    return doc
