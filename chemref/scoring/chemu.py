"""ChEMU 2021 scoring (SCORING.md section 1): exact and relaxed (maximum bipartite) matching of
mentions and relations, with and without COREFERENCE expansion, micro-summed over documents.

A mention is ``(label, sorted distinct fragments)``; a relation is ``(type, Arg1 mention, Arg2 mention)``.
Gold and prediction of one document are sets of those, so duplicates collapse.
"""

from __future__ import annotations

from collections import Counter
from operator import itemgetter
from typing import Sequence

from chemref.brat.model import MentionKey
from chemref.brat.reader import scan_ann
from chemref.errors import BratError
from chemref.scoring.closure import transitive_closure
from chemref.scoring.counts import Counts
from chemref.scoring.matching import max_matching

Mention = MentionKey
RelItem = tuple[str, Mention, Mention]
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

    Read with :func:`chemref.brat.reader.scan_ann` (the reader's rules, without building objects)."""
    ments, rels, diags = scan_ann(text, path)
    items: set[RelItem] = set()
    for typ, a, b, lineno in rels:
        try:
            items.add((typ, ments[a], ments[b]))
        except KeyError as exc:
            raise BratError(f"relation refers to {exc.args[0]}, which is not a T id of this file",
                            path=path, line=lineno, hint="every Arg1/Arg2 must name a T line") from None
    return set(ments.values()), items, diags


def expand_coref(rels: set[RelItem]) -> set[RelItem]:
    """Add the transitive COREFERENCE links (no inferred self links); other types are untouched.

    Returns ``rels`` itself when nothing follows transitively.
    """
    links = [(a, b) for t, a, b in rels if t == COREF]
    if len(links) < 2:
        return rels
    heads = {a for a, _ in links}
    if not any(b in heads for _, b in links):
        return rels  # no chain a->b->c: the closure adds nothing
    extra = {(COREF, a, b) for a, b in transitive_closure(links)}
    return rels if extra <= rels else rels | extra


TypeCounts = dict[str, Counts]  # type -> counts
_first = itemgetter(0)


def overlap(a: Sequence[tuple[int, int]], b: Sequence[tuple[int, int]]) -> bool:
    """ChEMU relaxed test: some fragment pair shares a character (``s2 < e1 and s1 < e2``)."""
    for s1, e1 in a:
        for s2, e2 in b:
            if s2 < e1 and s1 < e2:
                return True
    return False


def _rel_edge(g: RelItem, p: RelItem) -> bool:
    (_, (l1, f1), (l2, f2)), (_, (m1, h1), (m2, h2)) = g, p
    return l1 == m1 and l2 == m2 and overlap(f1, h1) and overlap(f2, h2)


def _ent_edge(g: Mention, p: Mention) -> bool:
    return overlap(g[1], p[1])


def _score_pair(gold: set, pred: set, exact: TypeCounts, relaxed: TypeCounts | None, edge,
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
            adj = [[j for j, p in enumerate(pl) if edge(g, p)] for g in gl]
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
                   errors: list | None = None) -> dict[tuple, TypeCounts]:
    """Add one document's counts to ``totals`` (block -> type -> :class:`Counts`); returns this document's counts.

    ``errors`` (when a list) receives ``(block, "FP"|"FN", item)`` for every unmatched item.
    """
    g_ent, g_rel = gold
    p_ent, p_rel = pred
    doc: dict[tuple, TypeCounts] = {b: {} for b in BLOCKS}
    um: dict[tuple, list] | None = {b: [] for b in BLOCKS} if errors is not None else None
    b_rel_ex, b_rel_ex_x, b_rel_rx, b_rel_rx_x, b_ent_ex, b_ent_rx = BLOCKS

    def u(b):
        return um[b] if um is not None else None

    _score_pair(g_rel, p_rel, doc[b_rel_ex], doc[b_rel_rx], _rel_edge, u(b_rel_ex), u(b_rel_rx))
    gx, px = expand_coref(g_rel), expand_coref(p_rel)
    if gx is g_rel and px is p_rel:
        for src, dst in ((b_rel_ex, b_rel_ex_x), (b_rel_rx, b_rel_rx_x)):
            doc[dst] = {t: v.copy() for t, v in doc[src].items()}
            if um is not None:
                um[dst] = list(um[src])
    else:
        _score_pair(gx, px, doc[b_rel_ex_x], doc[b_rel_rx_x], _rel_edge, u(b_rel_ex_x), u(b_rel_rx_x))
    _score_pair(g_ent, p_ent, doc[b_ent_ex], doc[b_ent_rx], _ent_edge, u(b_ent_ex), u(b_ent_rx))
    for block, counts in doc.items():
        acc = totals.setdefault(block, {})
        for t, c in counts.items():
            row = acc.get(t)
            if row is None:
                acc[t] = c.copy()
            else:
                row.add(c)
    if errors is not None and um is not None:
        for block, items in um.items():
            errors.extend((block, kind, item) for kind, item in items)
    return doc
