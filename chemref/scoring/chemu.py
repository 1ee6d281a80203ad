"""ChEMU 2021 scoring (SCORING.md section 1): exact and relaxed (maximum bipartite) matching of
mentions and relations, with and without COREFERENCE expansion, micro-summed over documents.

A mention is ``(label, sorted distinct fragments)``; a relation is ``(type, Arg1 mention, Arg2 mention)``.
Gold and prediction of one document are sets of those, so duplicates collapse.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter
from operator import itemgetter
from typing import Generic, Hashable, Iterable, Sequence, TypeVar

from chemref.brat.model import MentionKey
from chemref.brat.reader import scan_ann
from chemref.errors import BratError, ScoringError
from chemref.scoring.closure import ClosureTooLarge, closure_pairs
from chemref.scoring.counts import Counts, add_counts
from chemref.scoring.matching import max_matching

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
        raise ScoringError(f"the COREFERENCE chains expand to {exc.size:,} links, more than the limit of "
                           f"{exc.limit:,} per document", path=path,
                           hint="raise it with --max-coref-links (max_coref_links=) if the file is genuine"
                           ) from None
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
        self._keys = [r[2] for r in rows]
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
        tree, size, keys = self._tree, self._size, self._keys
        for s1, e1 in frags:
            hi = bisect_left(self._starts, e1)  # rows [0, hi) start before e1
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


def _rel_adjacency(gl: list[RelItem], pl: list[RelItem]) -> list[list[int]]:
    """``adj[i]``: the indices of the predicted relations whose arguments have gold relation ``i``'s labels
    and overlap its arguments, ascending. Mentions are matched once through an index, then relations
    are found from the matching argument pairs, so the cost follows the edges, not ``len(gl) * len(pl)``."""
    by_label: dict[str, set[Mention]] = {}
    for _, a, b in pl:
        by_label.setdefault(a[0], set()).add(a)
        by_label.setdefault(b[0], set()).add(b)
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

    adj: list[list[int]] = []
    empty: list[int] = []
    for _, a, b in gl:
        ca = matches.get(a)
        if ca is None:
            ca = partners(a)
        cb = matches.get(b)
        if cb is None:
            cb = partners(b)
        via_pairs = len(ca) * len(cb)
        if via_pairs == 0:
            adj.append(empty)
            continue
        if via_pairs == 1:
            j = position.get((rel_type, next(iter(ca)), next(iter(cb))))
            adj.append(empty if j is None else [j])
            continue
        via_arg1 = via_arg2 = via_pairs
        if via_pairs > 16:  # many overlapping mentions: walk the relations of the rarer side instead
            via_arg1 = sum(len(relations_of(1).get(m, ())) for m in ca)
            via_arg2 = sum(len(relations_of(2).get(m, ())) for m in cb)
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
        adj.append(row)
    return adj


def _score_pair(gold: set, pred: set, exact: TypeCounts, relaxed: TypeCounts | None, adjacency,
                unmatched_exact: list | None, unmatched_relaxed: list | None) -> None:
    """Exact counts (set intersection) and, when ``relaxed`` is given, maximum-matching counts per type."""
    if gold == pred:  # identical sets: everything matches exactly, hence also relaxed
        for t, n in Counter(map(_first, gold)).items():
            exact[t] = Counts(n, 0, 0)
            if relaxed is not None:
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
    if relaxed is None:
        return
    groups: dict[str, tuple[list, list]] = {}
    for x in gold:
        groups.setdefault(x[0], ([], []))[0].append(x)
    for x in pred:
        groups.setdefault(x[0], ([], []))[1].append(x)
    for t, (gl, pl) in groups.items():
        if gl and pl and (len(gl) != len(pl) or bc[t] != len(gl)):
            adj = adjacency(gl, pl)
            tp, match = max_matching(adj, len(pl))
            if unmatched_relaxed is not None:
                used = set(match)
                unmatched_relaxed.extend(("FN", g) for g, m in zip(gl, match) if m < 0)
                unmatched_relaxed.extend(("FP", p) for j, p in enumerate(pl) if j not in used)
        else:
            tp = len(gl) if gl and pl else 0
            if unmatched_relaxed is not None and not tp:
                unmatched_relaxed.extend(("FN", g) for g in gl)
                unmatched_relaxed.extend(("FP", p) for p in pl)
        relaxed[t] = Counts(tp, len(pl) - tp, len(gl) - tp)


def score_document(gold: tuple[set, set], pred: tuple[set, set], totals: dict[tuple, TypeCounts],
                   errors: list | None = None, *, max_coref_links: int | None = MAX_COREF_LINKS,
                   paths: tuple[str | None, str | None] = (None, None)) -> dict[tuple, TypeCounts]:
    """Add one document's counts to ``totals`` (block -> type -> :class:`Counts`); returns this document's counts.

    ``errors`` (when a list) receives ``(block, "FP"|"FN", item)`` for every unmatched item.
    ``max_coref_links`` bounds each side's COREFERENCE expansion (see :func:`expand_coref`); ``paths``
    (gold, prediction) name the files in its error.
    """
    g_ent, g_rel = gold
    p_ent, p_rel = pred
    doc: dict[tuple, TypeCounts] = {b: {} for b in BLOCKS}
    um: dict[tuple, list] | None = {b: [] for b in BLOCKS} if errors is not None else None
    b_rel_ex, b_rel_ex_x, b_rel_rx, b_rel_rx_x, b_ent_ex, b_ent_rx = BLOCKS

    def u(b):
        return um[b] if um is not None else None

    _score_pair(g_rel, p_rel, doc[b_rel_ex], doc[b_rel_rx], _rel_adjacency, u(b_rel_ex), u(b_rel_rx))
    gx = expand_coref(g_rel, max_coref_links, paths[0])
    px = expand_coref(p_rel, max_coref_links, paths[1])
    if gx is g_rel and px is p_rel:
        for src, dst in ((b_rel_ex, b_rel_ex_x), (b_rel_rx, b_rel_rx_x)):
            doc[dst] = {t: v.copy() for t, v in doc[src].items()}
            if um is not None:
                um[dst] = list(um[src])
    else:
        _score_pair(gx, px, doc[b_rel_ex_x], doc[b_rel_rx_x], _rel_adjacency, u(b_rel_ex_x), u(b_rel_rx_x))
    _score_pair(g_ent, p_ent, doc[b_ent_ex], doc[b_ent_rx], _ent_adjacency, u(b_ent_ex), u(b_ent_rx))
    for block, counts in doc.items():
        add_counts(totals.setdefault(block, {}), counts)
    if errors is not None and um is not None:
        for block, items in um.items():
            errors.extend((block, kind, item) for kind, item in items)
    return doc
