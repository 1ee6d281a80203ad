"""ChEMU 2021 scoring (SCORING.md section 1): exact and relaxed (maximum bipartite) matching of
mentions and relations, with and without COREFERENCE expansion, micro-summed over documents.

A mention is ``(label, sorted distinct fragments)``; a relation is ``(type, Arg1 mention, Arg2 mention)``.
Gold and prediction of one document are sets of those, so duplicates collapse.

Each side is read into a :class:`Side`: mentions numbered (a prediction after its gold, so equal mentions share
a number), relations coded by their argument numbers, the COREFERENCE closure made once. Relaxed matching
first clusters the overlapping mentions (one sweep over the sorted spans): no match crosses a cluster, and a
cluster (or, for relations, a pair of clusters) whose gold items all meet all its predicted ones matches as many
as its smaller side holds; only the items of the other clusters go to a maximum matching.
"""

from __future__ import annotations

import gc
import math
from bisect import bisect_left, bisect_right
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from operator import itemgetter
from typing import Any, Generic, Hashable, Iterable, Iterator, Sequence, TypeVar

from chemref.brat.model import MentionKey
from chemref.brat.reader import scan_ann
from chemref.errors import BratError, ScoringError
from chemref.scoring.brat.closure import ClosureTooLarge, chain_successors, closure_pairs, closure_targets
from chemref.scoring.brat.counts import Counts, add_counts
from chemref.scoring.brat.matching import capacity_matching, interval_matching, max_matching, overlap_clusters

Mention = MentionKey
RelItem = tuple[str, Mention, Mention]
Frag = tuple[int, int]
K = TypeVar("K", bound=Hashable)
COREF = "COREFERENCE"

#: (level, match, coref) of the six ChEMU reports; coref is None for entities
BLOCKS: tuple[tuple[str, str, str | None], ...] = (
    ("relations", "exact", "coref_not_expanded"),
    ("relations", "exact", "coref_expanded"),
    ("relations", "relaxed_bipartite", "coref_not_expanded"),
    ("relations", "relaxed_bipartite", "coref_expanded"),
    ("entities", "exact", None),
    ("entities", "relaxed_bipartite", None),
)


def document_items(text: str, path: str | None = None) -> tuple[set[Mention], set[RelItem], list[str]]:
    """Entities (every T line) and relations of one ``.ann`` text as sets, plus diagnostics.

    Read with :func:`chemref.brat.reader.scan_ann` (the reader's rules, without building objects; CR, LF
    and CRLF end a line)."""
    ments, rels, diags = scan_ann(text, path)
    items: set[RelItem] = set()
    for typ, a, b, lineno in rels:
        try:
            items.add((typ, ments[a], ments[b]))
        except KeyError as exc:
            raise BratError(f"relation refers to {exc.args[0]}, which is not a T id of this file",
                            path=path, line=lineno, hint="every Arg1/Arg2 must name a T line") from None
    return set(ments.values()), items, diags


#: default largest number of COREFERENCE links one document's expansion may hold (gold or prediction)
MAX_COREF_LINKS = 1_000_000
#: default largest number of COREFERENCE links the expansions of all of one prediction's documents may hold
MAX_COREF_TOTAL = 5_000_000
#: default largest number of FP/FN records one document lists per report (``--errors``, the error page); the
#: counts are always complete, the records past it are only counted
MAX_ERROR_RECORDS = 1_000


def _too_many_links(exc: ClosureTooLarge, path: str | None) -> ScoringError:
    return ScoringError(f"the COREFERENCE chains expand to {'' if exc.exact else 'more than '}{exc.size:,} "
                        f"links, more than the limit of {exc.limit:,} per document", path=path,
                        hint="raise it with --max-coref-links (max_coref_links=) if the file is genuine")


class CorefBudget:
    """The COREFERENCE links one prediction's expansions may hold over all its documents (``limit``; None: no
    limit), and how many they hold so far (``used``): one document past what is left is refused before its
    closure is built."""

    __slots__ = ("documents", "limit", "used")

    def __init__(self, limit: int | None) -> None:
        self.limit, self.used, self.documents = limit, 0, 0

    def left(self) -> int | None:
        return None if self.limit is None else max(self.limit - self.used, 0)

    def spend(self, links: int) -> None:
        self.used += links
        self.documents += 1

    def error(self, exc: ClosureTooLarge, path: str | None) -> ScoringError:
        more = "" if exc.exact else "more than "
        return ScoringError(f"the COREFERENCE chains of this document expand to {more}{exc.size:,} links; with "
                            f"the {self.used:,} of the {self.documents:,} documents before it, the prediction "
                            f"holds more than the limit of {self.limit:,} links per submission", path=path,
                            hint="raise it with --max-coref-total (max_coref_total=) if the files are genuine")


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
            import numpy as np  # noqa: PLC0415 (numpy, loaded only when this path runs)

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


#: a relation's arguments as one number, ``arg1 << 32 | arg2`` (mention numbers, see :class:`Side`)
_LOW = (1 << 32) - 1
_BOTH = (1 << 32) + 1


@dataclass(frozen=True, eq=False)
class Side:
    """One side of a document (gold or prediction) as the scorer uses it: its entities, every mention
    numbered, each relation type's relations as the numbers of their two arguments, and the COREFERENCE links
    with the closure's added (made once, the limit checked first).

    A prediction is numbered after its gold (``base``): an equal mention has an equal number, so equal
    relations have equal codes; the prediction's own mentions come after the gold's.
    """

    ents: set[Mention]
    names: list[Mention]  # number -> mention (a prediction: the gold's list, then its own mentions)
    ids: dict[Mention, int]  # this side's mentions -> number
    ent_numbers: Sequence[int]  # the numbers of ``ents``
    codes: dict[str, set[int]]  # relation type -> {arg1 << 32 | arg2}
    expanded: set[int] | None  # the COREFERENCE codes with the closure's links, None when it adds none
    base: "Side | None" = None  # the gold a prediction is numbered after


def read_side(text: str, path: str | None = None, max_links: int | None = MAX_COREF_LINKS,
              gold: Side | None = None, whole_limit: bool = False,
              budget: CorefBudget | None = None) -> tuple[Side, list[str]]:
    """One ``.ann`` text as a :class:`Side` (a prediction after its ``gold``), plus the reader's diagnostics:
    :func:`document_items`'s reading and errors, :func:`prepare_side`'s numbering and expansion; ``budget``
    (a :class:`CorefBudget`) bounds the expansions of all the documents it is given for."""
    ments, rels, diags = scan_ann(text, path)
    return _side(ments, rels, max_links, path, gold, whole_limit, lenient=False, budget=budget), diags


def prepare_side(ents: set[Mention], rels: set[RelItem], max_links: int | None = MAX_COREF_LINKS,
                 path: str | None = None, gold: Side | None = None, whole_limit: bool = False) -> Side:
    """Number one side's mentions (a prediction after its ``gold``), code its relations and expand its
    COREFERENCE links (:func:`expand_coref`'s rules, its limit and error).

    ``whole_limit`` (a gold document, checked as soon as it is read, before its prediction): the limit holds
    for the closure however its links are laid out, not only when they chain."""
    return _side({m: m for m in ents}, [(t, a, b, None) for t, a, b in rels], max_links, path, gold,
                 whole_limit, lenient=True)


def _side(ments: dict, rels: Iterable[tuple[str, Hashable, Hashable, int | None]], max_links: int | None,
          path: str | None, gold: Side | None, whole_limit: bool, lenient: bool,
          budget: CorefBudget | None = None) -> Side:
    """``ments``: key (a T id) -> mention; ``rels``: ``(type, arg1 key, arg2 key, line)``. An argument that is
    no key is a BratError, or (``lenient``: the key is the mention itself) a mention numbered but not an
    entity."""
    ids: dict[Mention, int] = {}
    number: dict = {}  # key -> number
    extra: list[Mention] = []  # a prediction's own mentions
    if gold is None:
        for key, m in ments.items():
            number[key] = ids.setdefault(m, len(ids))
        names = list(ids)
        ent_numbers: Sequence[int] = range(len(names))
    else:
        known, base = gold.ids.get, len(gold.names)
        for key, m in ments.items():
            i = ids.get(m)
            if i is None:
                i = known(m)
                if i is None:
                    i = base + len(extra)
                    extra.append(m)
                ids[m] = i
            number[key] = i
        ent_numbers = list(ids.values())
        names = gold.names + extra if extra else gold.names
    ents = set(ids)
    codes: dict[str, set[int]] = {}
    get = number.get
    for t, a, b, lineno in rels:
        i, j = get(a), get(b)
        if i is None or j is None:
            if not lenient:
                raise BratError(f"relation refers to {a if i is None else b}, which is not a T id of this file",
                                path=path, line=lineno, hint="every Arg1/Arg2 must name a T line")
            if names is (gold.names if gold is not None else None):
                names = list(names)
            i, j = _number(a, ids, number, names, gold), _number(b, ids, number, names, gold)
        found = codes.get(t)
        if found is None:
            found = codes[t] = set()
        found.add(i << 32 | j)
    expanded = _expanded_codes(codes.get(COREF), max_links, path, whole_limit, budget)
    return Side(ents, names, ids, ent_numbers, codes, expanded, gold)


def _number(m: Mention, ids: dict[Mention, int], number: dict, names: list[Mention], gold: Side | None) -> int:
    """The number of a relation argument given as a mention that is not one of the side's entities."""
    i = ids.get(m)
    if i is None:
        i = gold.ids.get(m) if gold is not None else None
        if i is None:
            i = len(names)
            names.append(m)
        ids[m] = i
        number[m] = i
    return i


def prepare_gold(ents: set[Mention], rels: set[RelItem], max_links: int | None = MAX_COREF_LINKS,
                 path: str | None = None) -> Side:
    """A gold document ready to score against any prediction (:func:`score_document` takes it as ``gold``):
    refused as soon as it is read when its COREFERENCE closure would hold more than ``max_links`` links
    (counted before any is made; ScoringError naming ``path``)."""
    return prepare_side(ents, rels, max_links, path, whole_limit=True)


def _expanded_codes(links: set[int] | None, max_links: int | None, path: str | None,
                    whole_limit: bool, budget: CorefBudget | None = None) -> set[int] | None:
    """The COREFERENCE codes ``links`` with their closure's added, or None when it adds none; past
    ``max_links`` (or what is left of ``budget``), a ScoringError naming ``path`` before any link is made."""
    tighter = False
    if budget is not None and budget.limit is not None:
        left = budget.left()
        tighter = max_links is None or left < max_links  # type: ignore[operator]
        if tighter:
            max_links = left
    try:
        out = _closure_codes(links, max_links, whole_limit)
    except ClosureTooLarge as exc:
        raise (budget.error(exc, path) if tighter and budget is not None else _too_many_links(exc, path)) from None
    if budget is not None and out is not None:
        budget.spend(len(out))
    return out


def _closure_codes(links: set[int] | None, max_links: int | None, whole_limit: bool) -> set[int] | None:
    """:func:`_expanded_codes` raising :class:`ClosureTooLarge`."""
    if not links:
        return None
    pairs = [(c >> 32, c & _LOW) for c in links]
    heads = {a for a, _ in pairs}
    if (len(pairs) < 2 and not whole_limit) or not any(b in heads for _, b in pairs):
        # nothing follows transitively; with no chain, the closure is the links themselves
        if whole_limit and max_links is not None and len(pairs) > max_links:
            raise ClosureTooLarge(len(pairs), max_links)
        return None
    succ = chain_successors(pairs, max_links) if len(pairs) >= _VECTOR else None
    if succ is not None:
        out = set(links)
        out.update(_chain_codes(succ).tolist())
        return out if len(out) > len(links) else None
    closure = closure_targets(pairs, max_links)
    out = set(links)
    for a, reached in closure:
        high = a << 32
        out.update([high | b for b in reached])
    return out if len(out) > len(links) else None


def expand_coref(rels: set[RelItem], max_links: int | None = MAX_COREF_LINKS,
                 path: str | None = None) -> set[RelItem]:
    """Add the transitive COREFERENCE links (no inferred self links); other types are untouched.

    Returns ``rels`` itself when nothing follows transitively. A closure holding more than ``max_links``
    links (None: no limit) raises :class:`ScoringError` naming ``path`` before it is built.
    """
    links = [(a, b) for t, a, b in rels if t == COREF]
    if len(links) < 2:
        return rels
    heads = {a for a, _ in links}
    if not any(b in heads for _, b in links):
        return rels  # no chain a->b->c: the closure adds nothing
    try:
        closure = closure_pairs(links, max_links)
    except ClosureTooLarge as exc:
        raise _too_many_links(exc, path) from None
    expanded = set(rels)
    before = len(expanded)
    expanded.update((COREF, a, b) for a, b in closure)
    return rels if len(expanded) == before else expanded


TypeCounts = dict[str, Counts]  # type -> counts
_first = itemgetter(0)


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


def _rel_adjacency(gl: list[RelItem], pl: list[RelItem], work_limit: int | None = None) -> Iterator[list[int] | None]:
    """Row ``i``: the indices of the predicted relations whose arguments have gold relation ``i``'s labels
    and overlap its arguments, ascending. Mentions are matched once through an index, then relations
    are found from the matching argument pairs, so the cost follows the edges, not ``len(gl) * len(pl)``.
    Past ``work_limit`` steps, a None row ends the rows."""
    by_label: dict[str, set[Mention]] = {}
    for m in {r[1] for r in pl} | {r[2] for r in pl}:
        by_label.setdefault(m[0], set()).add(m)
    indexes = {label: OverlapIndex((m, m[1]) for m in ms) for label, ms in by_label.items()}
    matches: dict[Mention, set[Mention]] = {}

    def partners(m: Mention) -> set[Mention]:
        found = matches.get(m)
        if found is None:
            index = indexes.get(m[0])
            found = matches[m] = index.query(m[1]) if index is not None else set()
        return found

    rel_type = pl[0][0]
    position = {p: j for j, p in enumerate(pl)}  # one type per group, so (arg1, arg2) names one relation
    by_arg: dict[int, dict[Mention, list[int]]] = {}

    def relations_of(side: int) -> dict[Mention, list[int]]:
        found = by_arg.get(side)
        if found is None:
            found = by_arg[side] = {}
            for j, p in enumerate(pl):
                found.setdefault(p[side], []).append(j)
        return found

    empty: list[int] = []
    single: dict[Mention, Mention] = {}
    for m in {r[1] for r in gl} | {r[2] for r in gl}:
        found = partners(m)
        if len(found) > 1:
            break
        if found:
            single[m] = next(iter(found))
    else:  # every argument overlaps at most one predicted mention: one lookup per relation
        get, pos = single.get, position.get
        for _, a, b in gl:
            j = pos((rel_type, get(a), get(b)))
            yield empty if j is None else [j]
        return
    for _, a, b in gl:
        ca = matches.get(a)
        if ca is None:
            ca = partners(a)
        cb = matches.get(b)
        if cb is None:
            cb = partners(b)
        via_pairs = len(ca) * len(cb)
        if via_pairs == 0:
            yield empty
            continue
        if via_pairs == 1:
            j = position.get((rel_type, next(iter(ca)), next(iter(cb))))
            yield empty if j is None else [j]
            continue
        via_arg1 = via_arg2 = via_pairs
        if via_pairs > 16:  # many overlapping mentions: walk the relations of the rarer side instead
            via_arg1 = sum(len(relations_of(1).get(m, ())) for m in ca)
            via_arg2 = sum(len(relations_of(2).get(m, ())) for m in cb)
        if work_limit is not None:
            work_limit -= min(via_pairs, via_arg1, via_arg2)
            if work_limit < 0:
                yield None  # more work than the caller allows
                return
        row: list[int] = []
        if via_pairs <= via_arg1 and via_pairs <= via_arg2:
            for x in ca:
                for y in cb:
                    j = position.get((rel_type, x, y))
                    if j is not None:
                        row.append(j)
        elif via_arg1 <= via_arg2:
            for x in ca:
                row.extend(j for j in relations_of(1).get(x, ()) if pl[j][2] in cb)
        else:
            for y in cb:
                row.extend(j for j in relations_of(2).get(y, ()) if pl[j][1] in ca)
        row.sort()
        yield row


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


#: from this many items, chains are walked and relations grouped with numpy arrays
_VECTOR = 20_000


def _chain_codes(succ: dict[int, int]):
    """The codes of the closure of links where each node has one successor and no cycle: every node paired
    with each node along its path, one step further for all nodes at once (numpy)."""
    import numpy as np  # noqa: PLC0415 (numpy, loaded only when this path runs)

    a = np.fromiter(succ.keys(), np.int64, len(succ))
    b = np.fromiter(succ.values(), np.int64, len(succ))
    step = np.full(int(max(a.max(), b.max())) + 1, -1, np.int64)
    step[a] = b
    parts = []
    while a.size:
        parts.append((a << 32) | b)
        b = step[b]
        keep = b >= 0
        a, b = a[keep], b[keep]
    return np.concatenate(parts)


def _vector_unmatched(gkeys, pkeys, mixed: set[int]) -> tuple[int, set[int], Any, Any]:
    """:func:`_relaxed_groups` with ``unmatched``, on numpy arrays of keys: ``(matches, the keys of the other
    groups, positions of the gold items left, positions of the predicted items left)``; in a group the first
    items (by position) are the matched ones, as there."""
    import numpy as np  # noqa: PLC0415 (numpy, loaded only when this path runs)

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
    import numpy as np  # noqa: PLC0415 (numpy, loaded only when this path runs)

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
            import numpy as np  # noqa: PLC0415 (numpy, loaded only when this path runs)

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
            gcomp, pcomp, mixed = comps.get()
            if len(gold) + len(pred) >= _VECTOR:
                import numpy as np  # noqa: PLC0415 (numpy, loaded only when this path runs)

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
        else:
            rtp = len(gold) if gold and pred else 0
            if unmatched_relaxed is not None and not rtp:
                unmatched_relaxed.extend_codes("FN", t, gold, gnames)
                unmatched_relaxed.extend_codes("FP", t, pred, pnames)
        relaxed[t] = Counts(rtp, len(pred) - rtp, len(gold) - rtp)


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
            gcomp, pcomp, mixed = comps.get()
            if unmatched_relaxed is None and len(gl) + len(pl) >= _VECTOR:
                import numpy as np  # noqa: PLC0415 (numpy, loaded only when this path runs)

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
        else:
            tp = len(gl) if gl and pl else 0
            if unmatched_relaxed is not None and not tp:
                unmatched_relaxed.extend(("FN", gnames[i]) for i in gl)
                unmatched_relaxed.extend(("FP", pnames[j]) for j in pl)
        relaxed[t] = Counts(tp, len(pl) - tp, len(gl) - tp)


def score_document(gold: tuple[set, set] | Side, pred: tuple[set, set] | Side, totals: dict[tuple, TypeCounts],
                   errors: list | None = None, *, max_coref_links: int | None = MAX_COREF_LINKS,
                   paths: tuple[str | None, str | None] = (None, None),
                   max_match_edges: int | None = MAX_MATCH_EDGES, max_records: int | None = None,
                   left_out: dict[tuple, int] | None = None) -> dict[tuple, TypeCounts]:
    """Add one document's counts to ``totals`` (block -> type -> :class:`Counts`); returns this document's counts.

    ``gold`` is ``(entities, relations)`` or a :func:`prepare_gold` side (numbered and expanded once, also
    for several predictions); ``pred`` is ``(entities, relations)`` or a :func:`read_side` side numbered
    after that gold. ``errors`` (when a list) receives ``(block, "FP"|"FN", item)`` for every
    unmatched item.
    ``max_coref_links`` bounds each side's COREFERENCE expansion (see :func:`expand_coref`), checked before
    any matching; ``max_match_edges`` bounds the merged graph of one relaxed matching (ScoringError past it);
    ``paths`` (gold, prediction) name the files in their errors.
    ``max_records``: at most this many items per report go to ``errors`` (the first in ``(kind, item)`` order;
    None: all); how many were left out of each report goes to ``left_out`` (when a dict, block -> count).
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
