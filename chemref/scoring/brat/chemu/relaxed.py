"""Relaxed (maximum bipartite) matching of one document's mentions or relations of one label: an overlap index,
the adjacency of overlapping items, and the structured paths for dense graphs (a sweep over spans, or items with
identical neighbourhoods merged into a flow)."""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import Counter
from typing import Generic, Hashable, Iterable, Iterator, Sequence, TypeVar

from chemref.scoring.brat.chemu.sides import Frag, Mention, RelItem
from chemref.scoring.brat.matching import capacity_matching, interval_matching, max_matching

K = TypeVar("K", bound=Hashable)


def overlap(a: Sequence[tuple[int, int]], b: Sequence[tuple[int, int]]) -> bool:
    """ChEMU relaxed test: some fragment pair shares a character (``s2 < e1 and s1 < e2``)."""
    for s1, e1 in a:
        for s2, e2 in b:
            if s2 < e1 and s1 < e2:
                return True
    return False


def _start(row: tuple) -> int:
    return row[0]


class OverlapIndex(Generic[K]):
    """The items whose fragments :func:`overlap` a query's, found in O((hits + 1) log n) per fragment.

    Built once from ``(key, fragments)`` pairs: fragments sorted by start, with a max-end tree over them,
    so a query never looks at items that end before it starts or start after it ends.
    """

    def __init__(self, items: Iterable[tuple[K, Sequence[Frag]]]) -> None:
        rows = sorted(((s, e, k) for k, frags in items for s, e in frags), key=_start)
        self._starts = [r[0] for r in rows]
        self._ends = [r[1] for r in rows]
        self._keys = [r[2] for r in rows]
        self._longest = max((r[1] - r[0] for r in rows), default=0)
        size = 1
        while size < len(rows):
            size *= 2
        self._size = size
        tree = [-math.inf] * (2 * size)
        for i, r in enumerate(rows):
            tree[size + i] = r[1]
        for i in range(size - 1, 0, -1):
            tree[i] = max(tree[2 * i], tree[2 * i + 1])
        self._tree = tree

    def query(self, frags: Sequence[Frag]) -> set[K]:
        """Keys of the items with a fragment sharing a character with one of ``frags`` (``s2 < e1 and s1 < e2``)."""
        out: set[K] = set()
        tree, size, keys, ends = self._tree, self._size, self._keys, self._ends
        for s1, e1 in frags:
            hi = bisect_left(self._starts, e1)  # rows [0, hi) start before e1
            lo = bisect_right(self._starts, s1 - self._longest)  # rows before lo end by s1
            if hi - lo <= 32:  # short fragments: look at the few rows that can reach s1
                for i in range(lo, hi):
                    if ends[i] > s1:
                        out.add(keys[i])
                continue
            stack = [(1, 0, size)]
            while stack:
                node, lo, top = stack.pop()
                if lo >= hi or tree[node] <= s1:
                    continue
                if node >= size:
                    out.add(keys[lo])
                    continue
                mid = (lo + top) // 2
                stack.append((2 * node + 1, mid, top))
                stack.append((2 * node, lo, mid))
        return out


def _ent_adjacency(gl: list[Mention], pl: list[Mention]) -> list[list[int]]:
    """``adj[i]``: the indices of the predicted mentions (same label) overlapping gold mention ``i``, ascending."""
    index = OverlapIndex((j, p[1]) for j, p in enumerate(pl))
    return [sorted(index.query(g[1])) for g in gl]


class _RelationFinder:
    """The predicted relations ``pl`` (one type) found from gold arguments: each gold mention's overlapping
    predicted mentions of its label (through one :class:`OverlapIndex` per label, each looked up once), and the
    relations holding a predicted mention as Arg1 or Arg2."""

    def __init__(self, pl: list[RelItem]) -> None:
        self.pl = pl
        by_label: dict[str, set[Mention]] = {}
        for m in {r[1] for r in pl} | {r[2] for r in pl}:
            by_label.setdefault(m[0], set()).add(m)
        self.indexes = {label: OverlapIndex((m, m[1]) for m in ms) for label, ms in by_label.items()}
        self.matches: dict[Mention, set[Mention]] = {}
        self.rel_type = pl[0][0]
        # one type per group, so (arg1, arg2) names one relation; a key with None (no partner) finds none
        self.position: dict[tuple[str, Mention | None, Mention | None], int] = {p: j for j, p in enumerate(pl)}
        self.by_arg: dict[int, dict[Mention, list[int]]] = {}

    def partners(self, m: Mention) -> set[Mention]:
        found = self.matches.get(m)
        if found is None:
            index = self.indexes.get(m[0])
            found = self.matches[m] = index.query(m[1]) if index is not None else set()
        return found

    def single_partners(self, gl: list[RelItem]) -> dict[Mention, Mention] | None:
        """Each gold argument's one overlapping predicted mention (those with none left out), or None when
        one overlaps several."""
        single: dict[Mention, Mention] = {}
        for m in {r[1] for r in gl} | {r[2] for r in gl}:
            found = self.partners(m)
            if len(found) > 1:
                return None
            if found:
                single[m] = next(iter(found))
        return single

    def relations_of(self, side: int) -> dict[Mention, list[int]]:
        found = self.by_arg.get(side)
        if found is None:
            found = self.by_arg[side] = {}
            for j, m in enumerate([p[1] for p in self.pl] if side == 1 else [p[2] for p in self.pl]):
                found.setdefault(m, []).append(j)
        return found

    def costs(self, ca: set[Mention], cb: set[Mention]) -> tuple[int, int, int]:
        """The steps of the three ways to find the relations from Arg1 partners ``ca`` to Arg2 partners ``cb``:
        every pair, the relations of each ``ca``, the relations of each ``cb``."""
        via_pairs = len(ca) * len(cb)
        if via_pairs <= 16:
            return via_pairs, via_pairs, via_pairs
        # many overlapping mentions: walking the relations of the rarer side may be cheaper
        return (via_pairs, sum(len(self.relations_of(1).get(m, ())) for m in ca),
                sum(len(self.relations_of(2).get(m, ())) for m in cb))

    def row(self, ca: set[Mention], cb: set[Mention], via_pairs: int, via_arg1: int, via_arg2: int) -> list[int]:
        """The indices of the relations from ``ca`` to ``cb``, ascending, found the cheapest way."""
        row: list[int] = []
        pl = self.pl
        if via_pairs <= via_arg1 and via_pairs <= via_arg2:
            position, rel_type = self.position, self.rel_type
            for x in ca:
                for y in cb:
                    j = position.get((rel_type, x, y))
                    if j is not None:
                        row.append(j)
        elif via_arg1 <= via_arg2:
            for x in ca:
                row.extend(j for j in self.relations_of(1).get(x, ()) if pl[j][2] in cb)
        else:
            for y in cb:
                row.extend(j for j in self.relations_of(2).get(y, ()) if pl[j][1] in ca)
        row.sort()
        return row


def _rel_adjacency(gl: list[RelItem], pl: list[RelItem], work_limit: int | None = None) -> Iterator[list[int] | None]:
    """Row ``i``: the indices of the predicted relations whose arguments have gold relation ``i``'s labels
    and overlap its arguments, ascending. Mentions are matched once through an index, then relations
    are found from the matching argument pairs, so the cost follows the edges, not ``len(gl) * len(pl)``.
    Past ``work_limit`` steps, a None row ends the rows."""
    finder = _RelationFinder(pl)
    empty: list[int] = []
    single = finder.single_partners(gl)
    if single is not None:  # every argument overlaps at most one predicted mention: one lookup per relation
        get, pos, rel_type = single.get, finder.position.get, finder.rel_type
        for _, a, b in gl:
            j = pos((rel_type, get(a), get(b)))
            yield empty if j is None else [j]
        return
    partners, position, rel_type = finder.partners, finder.position, finder.rel_type
    for _, a, b in gl:
        ca, cb = partners(a), partners(b)
        if not ca or not cb:
            yield empty
            continue
        if len(ca) == 1 and len(cb) == 1:
            j = position.get((rel_type, next(iter(ca)), next(iter(cb))))
            yield empty if j is None else [j]
            continue
        via_pairs, via_arg1, via_arg2 = finder.costs(ca, cb)
        if work_limit is not None:
            work_limit -= min(via_pairs, via_arg1, via_arg2)
            if work_limit < 0:
                yield None  # more work than the caller allows
                return
        yield finder.row(ca, cb, via_pairs, via_arg1, via_arg2)


#: graphs of one document and type up to this many edges, or 8 per item, are matched as they are
#: (Hopcroft–Karp); denser ones through their structure (a sweep over spans, or items with identical
#: neighbourhoods merged)
DIRECT_EDGES = 50_000
DIRECT_PER_ITEM = 8


def _direct(gl: list, pl: list) -> int:
    """The most edges a graph between ``gl`` and ``pl`` may have to be matched as it is."""
    return max(DIRECT_EDGES, DIRECT_PER_ITEM * (len(gl) + len(pl)))
#: default largest merged graph (edges between classes of items) one relaxed matching may need
MAX_MATCH_EDGES = 1_000_000


class MatchTooLarge(Exception):
    """A relaxed matching would need a merged graph of more than ``limit`` edges."""

    def __init__(self, label: str, limit: int) -> None:
        super().__init__(label, limit)
        self.label, self.limit = label, limit


def _single(items: list) -> bool:
    return all(len(m[1]) == 1 for m in items)


def _overlapping_pairs(gold: list[Frag], pred: list[Frag]) -> int:
    """How many (gold, pred) span pairs overlap, counted in ``O(n log n)`` without listing them."""
    starts = sorted(s for s, _ in pred)
    ends = sorted(e for _, e in pred)
    apart = 0
    for s, e in gold:  # pred starting at or after e, or ending at or before s (both: empty spans at one point)
        apart += len(starts) - bisect_left(starts, e) + bisect_right(ends, s)
    empty_gold = Counter(s for s, e in gold if s == e)
    if empty_gold:
        empty_pred = Counter(s for s, e in pred if s == e)
        apart -= sum(n * empty_pred[x] for x, n in empty_gold.items())
    return len(gold) * len(pred) - apart


def _argument_overlaps(gl: list[RelItem], pl: list[RelItem]) -> int:
    """How many (gold, predicted) pairs of relation arguments of one label overlap, fragment by fragment (at
    least the mention pairs), counted without listing them."""
    frags: dict[str, tuple[list[Frag], list[Frag]]] = {}
    for side, rels in ((0, gl), (1, pl)):
        for m in {r[1] for r in rels} | {r[2] for r in rels}:
            frags.setdefault(m[0], ([], []))[side].extend(m[1])
    return sum(_overlapping_pairs(g, p) for g, p in frags.values())


def _bounded_adjacency(rows, limit: int) -> list[list[int]] | None:
    """The rows of an adjacency list, or None once they hold more than ``limit`` edges (or a row is None:
    its producer gave up)."""
    adj = []
    edges = 0
    for row in rows:
        if row is None:
            return None
        edges += len(row)
        if edges > limit:
            return None
        adj.append(row)
    return adj


def _ent_match(gl: list[Mention], pl: list[Mention], max_edges: int | None) -> tuple[int, list[int]]:
    """Maximum matching of gold and predicted mentions of one label that overlap."""
    if _overlapping_pairs([f for g in gl for f in g[1]], [f for p in pl for f in p[1]]) <= _direct(gl, pl):
        return max_matching(_ent_adjacency(gl, pl), len(pl))
    if _single(gl) and _single(pl):
        return interval_matching([g[1][0] for g in gl], [p[1][0] for p in pl])
    gkey, pkey = _neighbourhood_keys(gl, pl)
    over = _class_overlaps(gkey, pkey, max_edges, gl[0][0])
    return _merged_matching([gkey[g] for g in gl], [pkey[p] for p in pl], lambda kc: over.get(kc, ()),
                            max_edges, gl[0][0])


def _frag_keys(frags: Sequence[Frag], starts: list[int], ends: list[int]) -> tuple:
    """Which of the other side's fragments overlap each of ``frags``, as ``(starts before e, ends by s)``
    ranks: mentions with equal keys overlap the same mentions."""
    return tuple(sorted({(bisect_left(starts, e), bisect_right(ends, s)) for s, e in frags}))


def _neighbourhood_keys(gold: Iterable[Mention], pred: Iterable[Mention]) -> tuple[dict, dict]:
    """For every gold mention, a key shared only by gold mentions of its label overlapping the same predicted
    mentions; the same for predicted mentions."""
    gold, pred = set(gold), set(pred)
    out: list[dict] = []
    for mine, other in ((gold, pred), (pred, gold)):
        by_label: dict[str, tuple[list[int], list[int]]] = {}
        for label, frags in other:
            st, en = by_label.setdefault(label, ([], []))
            for s, e in frags:
                st.append(s)
                en.append(e)
        for st, en in by_label.values():
            st.sort()
            en.sort()
        keys = {}
        for m in mine:
            st, en = by_label.get(m[0], ([], []))
            keys[m] = (m[0], _frag_keys(m[1], st, en))
        out.append(keys)
    return out[0], out[1]


def _class_overlaps(gkey: dict, pkey: dict, max_edges: int | None, label: str) -> dict:
    """``{pred key: {gold keys overlapping it}}``, from one mention per key (same label only)."""
    grep: dict = {}
    for m, k in gkey.items():
        grep.setdefault(k, m)
    prep: dict = {}
    for m, k in pkey.items():
        prep.setdefault(k, m)
    index = OverlapIndex((k, m[1]) for k, m in grep.items())
    out: dict = {}
    edges = 0
    for k, m in prep.items():
        found = {g for g in index.query(m[1]) if g[0] == k[0]}
        edges += len(found)
        if max_edges is not None and edges > max_edges:
            raise MatchTooLarge(label, max_edges)
        out[k] = found
    return out


def _merged_matching(gkeys: list, pkeys: list, neighbours, max_edges: int | None,
                     label: str) -> tuple[int, list[int]]:
    """Maximum matching when items with equal keys have identical neighbourhoods: one node per key, its
    capacity the number of items, and a maximum flow; ``neighbours(pred key)`` gives the gold keys joined to
    it. ``match`` then spreads each edge's flow over the items of its two keys."""
    gclass: dict = {}
    for i, k in enumerate(gkeys):
        gclass.setdefault(k, []).append(i)
    pclass: dict = {}
    for j, k in enumerate(pkeys):
        pclass.setdefault(k, []).append(j)
    gk = list(gclass)
    gpos = {k: a for a, k in enumerate(gk)}
    pk = list(pclass)
    edges = []
    for c, kc in enumerate(pk):
        for ka in neighbours(kc):
            a = gpos.get(ka)
            if a is not None:
                edges.append((a, c))
                if max_edges is not None and len(edges) > max_edges:
                    raise MatchTooLarge(label, max_edges)
    flow = capacity_matching([len(gclass[k]) for k in gk], [len(pclass[k]) for k in pk], edges)
    match = [-1] * len(gkeys)
    gnext = [0] * len(gk)
    pnext = [0] * len(pk)
    size = 0
    for (a, c), f in zip(edges, flow):
        for _ in range(f):
            match[gclass[gk[a]][gnext[a]]] = pclass[pk[c]][pnext[c]]
            gnext[a] += 1
            pnext[c] += 1
            size += 1
    return size, match


def _rel_match(gl: list[RelItem], pl: list[RelItem], max_edges: int | None) -> tuple[int, list[int]]:
    """Maximum matching of gold and predicted relations of one type whose arguments overlap pairwise."""
    if _argument_overlaps(gl, pl) <= _direct(gl, pl):
        adj = _bounded_adjacency(_rel_adjacency(gl, pl, 20 * DIRECT_EDGES + 2 * (len(gl) + len(pl))),
                                 _direct(gl, pl))
        if adj is not None:
            return max_matching(adj, len(pl))
    label = gl[0][0]
    gkey, pkey = _neighbourhood_keys({r[1] for r in gl} | {r[2] for r in gl}, {r[1] for r in pl} | {r[2] for r in pl})
    over = _class_overlaps(gkey, pkey, max_edges, label)
    gold_keys = [(gkey[r[1]], gkey[r[2]]) for r in gl]
    by_arg1: dict = {}
    for k in set(gold_keys):
        by_arg1.setdefault(k[0], []).append(k)

    work = 0
    most = None if max_edges is None else 20 * max_edges

    def neighbours(kc: tuple) -> Iterator[tuple]:
        nonlocal work
        second = over.get(kc[1], ())
        for a in over.get(kc[0], ()):
            keys = by_arg1.get(a, ())
            work += len(keys)
            if most is not None and work > most:
                raise MatchTooLarge(label, max_edges)  # type: ignore[arg-type]
            for ka in keys:
                if ka[1] in second:
                    yield ka

    return _merged_matching(gold_keys, [(pkey[r[1]], pkey[r[2]]) for r in pl], neighbours, max_edges, label)
