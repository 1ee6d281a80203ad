"""ChEMU scoring by clusters of overlapping mentions (numbered mentions, coded relations, complete clusters
counted, the rest matched) gives the counts of a brute-force scorer: property tests (hypothesis) on small random
documents with chains and cycles of COREFERENCE links, nested, overlapping, empty and discontinuous spans and
two relation types, along every path (as it is, the structured matchers forced, the numpy arrays forced),
against an independent expansion and scipy's maximum bipartite matching."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chemref.scoring.brat import chemu, matching
from chemref.scoring.brat.chemu import document, relaxed, sides
from chemref.scoring.brat.chemu import BLOCKS, COREF, score_document

scipy_sparse = pytest.importorskip("scipy.sparse")
csgraph = pytest.importorskip("scipy.sparse.csgraph")


def overlap(a, b) -> bool:
    return any(s2 < e1 and s1 < e2 for s1, e1 in a for s2, e2 in b)


def max_matching(gold: list, pred: list, joined) -> int:
    """Maximum bipartite matching by scipy, on the graph listed pair by pair."""
    rows = [i for i, g in enumerate(gold) for p in pred if joined(g, p)]
    cols = [j for g in gold for j, p in enumerate(pred) if joined(g, p)]
    if not rows:
        return 0
    graph = scipy_sparse.csr_matrix(([1] * len(rows), (rows, cols)), shape=(len(gold), len(pred)))
    return int((csgraph.maximum_bipartite_matching(graph, perm_type="column") >= 0).sum())


def expanded(rels: set) -> set:
    """Every COREFERENCE link that follows transitively, self links only where given."""
    succ: dict = {}
    for t, a, b in rels:
        if t == COREF:
            succ.setdefault(a, set()).add(b)
    out = set(rels)
    for v in succ:
        seen, stack = set(), list(succ[v])
        while stack:
            w = stack.pop()
            if w not in seen:
                seen.add(w)
                stack.extend(succ.get(w, ()))
        out |= {(COREF, v, w) for w in seen if w != v}
    return out


def mention_joined(g, p) -> bool:
    return g[0] == p[0] and overlap(g[1], p[1])


def relation_joined(g, p) -> bool:
    return mention_joined(g[1], p[1]) and mention_joined(g[2], p[2])


def brute_counts(gold: set, pred: set, joined) -> dict:
    """Per type ``(tp, fp, fn)``, exact and relaxed; a type whose items are equal on both sides counts as fully
    matched in relaxed mode too (the scorer's rule, also for empty spans that overlap nothing)."""
    exact, relaxed = {}, {}
    for t in {x[0] for x in gold} | {x[0] for x in pred}:
        gl = sorted(x for x in gold if x[0] == t)
        pl = sorted(x for x in pred if x[0] == t)
        tp = len(set(gl) & set(pl))
        exact[t] = (tp, len(pl) - tp, len(gl) - tp)
        rtp = len(gl) if set(gl) == set(pl) else max_matching(gl, pl, joined)
        relaxed[t] = (rtp, len(pl) - rtp, len(gl) - rtp)
    return {"exact": exact, "relaxed": relaxed}


spans = st.tuples(st.integers(0, 14), st.integers(0, 4)).map(lambda t: (t[0], t[0] + t[1]))
mentions = st.tuples(st.sampled_from(["Chem", "Other"]),
                     st.lists(spans, min_size=1, max_size=2).map(lambda fs: tuple(sorted(set(fs)))))


@st.composite
def document_pairs(draw) -> tuple[tuple[set, set], tuple[set, set]]:
    gold_m = draw(st.lists(mentions, min_size=1, max_size=8, unique=True))
    own = draw(st.lists(mentions, max_size=5, unique=True))
    kept = draw(st.lists(st.sampled_from(gold_m), max_size=len(gold_m), unique=True))
    pred_m = list(dict.fromkeys(kept + own)) or [gold_m[0]]
    types = st.sampled_from([COREF, COREF, "WORKUP"])

    def relations(ms: list) -> set:
        pairs = draw(st.lists(st.tuples(types, st.sampled_from(ms), st.sampled_from(ms)), max_size=12))
        return set(pairs)

    return (set(gold_m), relations(gold_m)), (set(pred_m), relations(pred_m))


@pytest.fixture(params=["direct", "structured", "arrays"])
def path(request, monkeypatch):
    """Which matchers run: as they are, the sweep and merged flow forced, or the numpy arrays forced."""
    if request.param == "structured":
        monkeypatch.setattr(relaxed, "DIRECT_EDGES", -1)
        monkeypatch.setattr(relaxed, "DIRECT_PER_ITEM", 0)
    elif request.param == "arrays":
        monkeypatch.setattr(sides, "_VECTOR", 0)  # the closure's chains
        monkeypatch.setattr(document, "_VECTOR", 0)  # the relaxed groups
        monkeypatch.setattr(matching, "VECTOR_ITEMS", 0)
    return request.param


@pytest.mark.slow
@settings(max_examples=250, deadline=None)
@given(pair=document_pairs())
def test_cluster_scoring_equals_brute_force(path, pair) -> None:
    (g_ent, g_rel), (p_ent, p_rel) = pair
    errors: list = []
    doc = score_document((g_ent, g_rel), (p_ent, p_rel), {}, errors, max_match_edges=None)
    got = {b: {t: tuple(c) for t, c in counts.items()} for b, counts in doc.items()}
    rel = brute_counts(g_rel, p_rel, relation_joined)
    rel_x = brute_counts(expanded(g_rel), expanded(p_rel), relation_joined)
    ent = brute_counts(g_ent, p_ent, mention_joined)
    expected = dict(zip(BLOCKS, (rel["exact"], rel_x["exact"], rel["relaxed"], rel_x["relaxed"],
                                 ent["exact"], ent["relaxed"])))
    assert got == expected
    for b, counts in doc.items():  # every unmatched item listed once, as FP or FN of its side
        listed = [(kind, item) for block, kind, item in errors if block == b]
        assert len(listed) == len(set(listed))
        assert sum(kind == "FN" for kind, _ in listed) == sum(c.fn for c in counts.values())
        assert sum(kind == "FP" for kind, _ in listed) == sum(c.fp for c in counts.values())
        gold_items, pred_items = ((g_ent, p_ent) if b[0] == "entities" else
                                  (expanded(g_rel), expanded(p_rel)) if b[2] == "coref_expanded" else (g_rel, p_rel))
        assert all(item in (gold_items if kind == "FN" else pred_items) for kind, item in listed)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(pair=document_pairs())
def test_a_prepared_gold_scores_as_the_sets(pair) -> None:
    """The gold read once (:func:`chemu.prepare_gold`) and a prediction numbered after it count as the sets."""
    gold, pred = pair
    by_sets = score_document(gold, pred, {})
    g = chemu.prepare_gold(*gold)
    p = chemu.prepare_side(*pred, gold=g)
    assert {b: {t: tuple(c) for t, c in v.items()} for b, v in score_document(g, p, {}).items()} == \
        {b: {t: tuple(c) for t, c in v.items()} for b, v in by_sets.items()}


def test_a_prediction_numbered_after_another_gold_is_refused() -> None:
    gold = ({("Chem", ((0, 3),))}, set())
    other = chemu.prepare_gold(*gold)
    pred = chemu.prepare_side(*gold, gold=other)
    with pytest.raises(ValueError):
        score_document(chemu.prepare_gold(*gold), pred, {})


def test_ten_thousand_chains_expand_and_match_by_clusters() -> None:
    """The benchmark's shape, smaller: separate chains shifted by one character match one to one when relaxed,
    and not at all when exact."""
    def doc(shift: int) -> tuple[set, set]:
        ms = [("Reaction_product", ((4 * t + shift, 4 * t + 3 + shift),)) for t in range(60)]
        rels = {(COREF, ms[c * 6 + j], ms[c * 6 + j + 1]) for c in range(10) for j in range(5)}
        return set(ms), rels

    doc_counts = score_document(doc(0), doc(1), {})
    assert tuple(doc_counts[BLOCKS[1]][COREF]) == (0, 150, 150)  # 10 chains of 6 mentions: 15 links each
    assert tuple(doc_counts[BLOCKS[3]][COREF]) == (150, 0, 0)
    assert tuple(doc_counts[BLOCKS[5]]["Reaction_product"]) == (60, 0, 0)
