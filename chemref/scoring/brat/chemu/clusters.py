"""Clusters of overlapping mentions: no relaxed match crosses one, and a cluster whose gold items all meet its
predicted ones matches as many as its smaller side holds, counted without a matching (lists, or numpy arrays
for large documents)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from chemref.scoring.brat.chemu.relaxed import _overlapping_pairs
from chemref.scoring.brat.chemu.sides import _LOW, Side
from chemref.scoring.brat.matching import overlap_clusters


def _vector_unmatched(gkeys, pkeys, mixed: set[int]) -> tuple[int, set[int], Any, Any]:
    """:func:`_relaxed_groups` with ``unmatched``, on numpy arrays of keys: ``(matches, the keys of the other
    groups, positions of the gold items left, positions of the predicted items left)``; in a group the first
    items (by position) are the matched ones, as there."""
    import numpy as np

    def left(keys, other_keys):
        uniq, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
        ou, oc = np.unique(other_keys, return_counts=True)
        at = np.minimum(np.searchsorted(ou, uniq), max(len(ou) - 1, 0))
        shared = (ou[at] == uniq) if len(ou) else np.zeros(len(uniq), bool)
        matched = np.where(shared, np.minimum(counts, oc[at] if len(ou) else 0), 0)
        if mixed:
            mx = np.fromiter(mixed, np.int64, len(mixed))
            other = shared & (np.isin(uniq >> 32, mx) | np.isin(uniq & _LOW, mx))
        else:
            other = np.zeros(len(uniq), bool)
        order = np.argsort(inverse, kind="stable")
        rank = np.empty(len(keys), np.int64)
        rank[order] = np.arange(len(keys), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
        unmatched = (rank >= matched[inverse]) & ~other[inverse]
        return int(matched[~other].sum()), set(uniq[other].tolist()), np.flatnonzero(unmatched)

    tp, rest, fn = left(gkeys, pkeys)
    _, _, fp = left(pkeys, gkeys)
    return tp, rest, fn, fp


def _vector_groups(gkeys, pkeys, mixed: set[int]) -> tuple[int, set[int]]:
    """:func:`_relaxed_groups` without ``unmatched``, on numpy arrays of keys."""
    import numpy as np

    gu, gn = np.unique(gkeys, return_counts=True)
    pu, pn = np.unique(pkeys, return_counts=True)
    common, gi, pi = np.intersect1d(gu, pu, assume_unique=True, return_indices=True)
    matched = np.minimum(gn[gi], pn[pi])
    if not mixed:
        return int(matched.sum()), set()
    mx = np.fromiter(mixed, np.int64, len(mixed))
    other = np.isin(common >> 32, mx) | np.isin(common & _LOW, mx)
    return int(matched[~other].sum()), set(common[other].tolist())


class _Clusters:
    """One document's clusters of overlapping mentions (:func:`~chemref.scoring.brat.matching.overlap_clusters`),
    made when first needed. No relaxed match crosses a cluster, nor a relation match a pair of them; and in a
    cluster where every gold mention overlaps every predicted one (always so when it holds one of each) any
    gold mention matches any predicted one, so it matches as many as its smaller side holds. Only the other
    ("mixed") clusters need a matching."""

    def __init__(self, gold: Side, pred: Side) -> None:
        self._sides = gold, pred
        self._made: tuple[list[int], list[int], set[int]] | None = None
        self._arrays: tuple | None = None

    def get(self) -> tuple[list[int], list[int], set[int]]:
        """``(gold, pred, mixed)``: the cluster of each gold and each predicted mention number (-1 for a
        number the prediction does not hold), and the mixed clusters."""
        if self._made is None:
            self._made = self._make()
        return self._made

    def arrays(self) -> tuple:
        """:meth:`get`'s two lists as numpy arrays."""
        if self._arrays is None:
            import numpy as np

            gcomp, pcomp, _ = self.get()
            self._arrays = np.array(gcomp, np.int64), np.array(pcomp, np.int64)
        return self._arrays

    def _make(self) -> tuple[list[int], list[int], set[int]]:
        g, p = self._sides
        n = len(g.names)
        pnums = list(p.ids.values())
        pnames = [p.names[j] for j in pnums]
        comp = overlap_clusters(g.names + pnames, n)
        gcomp, pown = comp[:n], comp[n:]
        pcomp = [-1] * len(p.names)
        for j, k in zip(pnums, pown):
            pcomp[j] = k
        ng, np_ = Counter(gcomp), Counter(pown)
        big = {k for k, c in np_.items() if c > 1 and k in ng} | {k for k, c in ng.items() if c > 1 and k in np_}
        mixed: set[int] = set()
        if big:  # complete when single spans overlap pairwise as often as there are pairs
            frags: dict[int, tuple[list, list]] = {k: ([], []) for k in big}
            for side, ks, ms in ((0, gcomp, g.names), (1, pown, pnames)):
                for k, m in zip(ks, ms):
                    if k in big:
                        if len(m[1]) != 1:
                            mixed.add(k)
                        else:
                            frags[k][side].append(m[1][0])
            for k in big - mixed:
                gold_spans, pred_spans = frags[k]
                if _overlapping_pairs(gold_spans, pred_spans) != len(gold_spans) * len(pred_spans):
                    mixed.add(k)
        return gcomp, pcomp, mixed


def _relaxed_groups(gkeys: list[int], pkeys: list[int], mixed: set[int],
                    unmatched: tuple[list[int], list[int]] | None) -> tuple[int, set[int]]:
    """Matches within the groups (a cluster, or a pair of clusters for relations) whose gold and predicted items
    all meet: ``(how many, the keys of the other groups)``. ``gkeys``/``pkeys``: each item's group key;
    ``unmatched`` (when a pair of lists) receives the positions of the gold and predicted items left (FN, FP)."""
    rest: set[int] = set()
    tp = 0
    if unmatched is None:
        gset, pset = set(gkeys), set(pkeys)
        common = gset & pset
        if mixed:
            rest = {key for key in common if key >> 32 in mixed or key & _LOW in mixed}
            common -= rest
        if len(gset) == len(gkeys) or len(pset) == len(pkeys):  # one item a group on one side
            return len(common), rest
        gc, pc = Counter(gkeys), Counter(pkeys)
        for key in common:
            n, m = gc[key], pc[key]
            tp += n if n < m else m
        return tp, rest
    fn, fp = unmatched
    gg: dict[int, list[int]] = {}
    for i, key in enumerate(gkeys):
        gg.setdefault(key, []).append(i)
    pg: dict[int, list[int]] = {}
    for j, key in enumerate(pkeys):
        pg.setdefault(key, []).append(j)
    for key, gi in gg.items():
        pj = pg.get(key)
        if pj is None:
            fn.extend(gi)
        elif mixed and (key >> 32 in mixed or key & _LOW in mixed):
            rest.add(key)
        else:
            n = min(len(gi), len(pj))
            tp += n
            fn.extend(gi[n:])
            fp.extend(pj[n:])
    for key, pj in pg.items():
        if key not in gg:
            fp.extend(pj)
    return tp, rest
