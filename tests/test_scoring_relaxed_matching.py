"""Relaxed matching on large or dense graphs (a sweep over spans, merged neighbourhoods and a flow) gives the
size of a plain maximum bipartite matching: property tests (hypothesis) on random small span sets, with the
structured paths forced, against scipy's maximum bipartite matching."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chemref.scoring.brat.chemu import relaxed
from chemref.scoring.brat.matching import capacity_matching, interval_matching

scipy_sparse = pytest.importorskip("scipy.sparse")
csgraph = pytest.importorskip("scipy.sparse.csgraph")


def overlap(a, b) -> bool:
    return any(s2 < e1 and s1 < e2 for s1, e1 in a for s2, e2 in b)


def reference(adj: list[list[int]], n_right: int) -> int:
    """Maximum bipartite matching by scipy (Hopcroft–Karp in C), an implementation independent of chemref's."""
    if not adj or not n_right:
        return 0
    rows = [i for i, row in enumerate(adj) for _ in row]
    cols = [j for row in adj for j in row]
    graph = scipy_sparse.csr_matrix(([1] * len(rows), (rows, cols)), shape=(len(adj), n_right))
    return int((csgraph.maximum_bipartite_matching(graph, perm_type="column") >= 0).sum())


spans = st.lists(st.tuples(st.integers(0, 30), st.integers(0, 8)).map(lambda t: (t[0], t[0] + t[1])),
                 max_size=12)
frag_lists = st.lists(st.tuples(st.integers(0, 30), st.integers(0, 8)).map(lambda t: (t[0], t[0] + t[1])),
                      min_size=1, max_size=2).map(lambda fs: tuple(sorted(set(fs))))


def _check_match(size, match, gold, pred) -> None:
    partners = [j for j in match if j >= 0]
    assert len(partners) == size and len(set(partners)) == size
    assert all(overlap(gold[i], pred[j]) for i, j in enumerate(match) if j >= 0)


@settings(max_examples=400, deadline=None)
@given(spans, spans)
@pytest.mark.slow
def test_interval_sweep_is_a_maximum_matching(gold, pred):
    adj = [[j for j, q in enumerate(pred) if overlap([g], [q])] for g in gold]
    size, match = interval_matching(gold, pred)
    assert size == reference(adj, len(pred))
    _check_match(size, match, [[g] for g in gold], [[q] for q in pred])


@pytest.fixture
def structured(monkeypatch):
    """Every graph, however small, goes through the sweep or the merged flow."""
    monkeypatch.setattr(relaxed, "DIRECT_EDGES", -1)
    monkeypatch.setattr(relaxed, "DIRECT_PER_ITEM", 0)


@settings(max_examples=300, deadline=None)
@given(st.lists(frag_lists, max_size=10, unique=True), st.lists(frag_lists, max_size=10, unique=True))
@pytest.mark.slow
def test_entity_matching_structured_equals_plain(gold, pred):
    gl = [("Chem", f) for f in gold]
    pl = [("Chem", f) for f in pred]
    adj = [[j for j, q in enumerate(pl) if overlap(g[1], q[1])] for g in gl]
    expected = reference(adj, len(pl))
    if not gl or not pl:
        return
    assert relaxed._ent_match(gl, pl, None)[0] == expected  # the direct path
    saved = relaxed.DIRECT_EDGES, relaxed.DIRECT_PER_ITEM
    relaxed.DIRECT_EDGES, relaxed.DIRECT_PER_ITEM = -1, 0
    try:
        size, match = relaxed._ent_match(gl, pl, None)
    finally:
        relaxed.DIRECT_EDGES, relaxed.DIRECT_PER_ITEM = saved
    assert size == expected
    _check_match(size, match, [g[1] for g in gl], [p[1] for p in pl])


mentions = st.tuples(st.sampled_from(["Chem", "Other"]), frag_lists)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(mentions, mentions), max_size=10, unique=True),
       st.lists(st.tuples(mentions, mentions), max_size=10, unique=True))
@pytest.mark.slow
def test_relation_matching_structured_equals_plain(gold, pred):
    gl = [("COREFERENCE", a, b) for a, b in gold]
    pl = [("COREFERENCE", a, b) for a, b in pred]
    if not gl or not pl:
        return

    def joined(r, q) -> bool:
        return (r[1][0] == q[1][0] and r[2][0] == q[2][0] and overlap(r[1][1], q[1][1])
                and overlap(r[2][1], q[2][1]))

    adj = [[j for j, q in enumerate(pl) if joined(r, q)] for r in gl]
    expected = reference(adj, len(pl))
    assert relaxed._rel_match(gl, pl, None)[0] == expected
    saved = relaxed.DIRECT_EDGES, relaxed.DIRECT_PER_ITEM
    relaxed.DIRECT_EDGES, relaxed.DIRECT_PER_ITEM = -1, 0
    try:
        size, match = relaxed._rel_match(gl, pl, None)
    finally:
        relaxed.DIRECT_EDGES, relaxed.DIRECT_PER_ITEM = saved
    assert size == expected
    assert all(joined(gl[i], pl[j]) for i, j in enumerate(match) if j >= 0)
    assert len({j for j in match if j >= 0}) == size


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=5), st.lists(st.integers(1, 3), min_size=1, max_size=5),
       st.data())
@pytest.mark.slow
def test_capacity_matching_equals_the_matching_of_the_copies(left, right, data):
    edges = data.draw(st.lists(st.tuples(st.integers(0, len(left) - 1), st.integers(0, len(right) - 1)),
                               unique=True, max_size=12))
    flow = capacity_matching(left, right, edges)
    copies_l = [a for a, k in enumerate(left) for _ in range(k)]
    copies_r = [c for c, k in enumerate(right) for _ in range(k)]
    adj = [[y for y, c in enumerate(copies_r) if (a, c) in edges] for a in copies_l]
    assert sum(flow) == reference(adj, len(copies_r))
    for a in range(len(left)):
        assert sum(f for (x, _), f in zip(edges, flow) if x == a) <= left[a]
    for c in range(len(right)):
        assert sum(f for (_, y), f in zip(edges, flow) if y == c) <= right[c]


def test_a_merged_graph_past_the_limit_is_refused(structured):
    gl = [("Chem", ((i, i + 3),)) for i in range(0, 40, 2)]
    pl = [("Chem", ((i + 1, i + 4),)) for i in range(0, 40, 2)]
    rels_g = [("COREFERENCE", a, b) for a, b in zip(gl, gl[1:])]
    rels_p = [("COREFERENCE", a, b) for a, b in zip(pl, pl[1:])]
    with pytest.raises(relaxed.MatchTooLarge):
        relaxed._rel_match(rels_g, rels_p, 5)


links = st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=14, unique=True)


def _reachable(pairs) -> set:
    succ: dict = {}
    for a, b in pairs:
        succ.setdefault(a, set()).add(b)
    out = set()
    for v in {x for p in pairs for x in p}:
        seen, stack = set(), list(succ.get(v, ()))
        while stack:
            w = stack.pop()
            if w not in seen:
                seen.add(w)
                stack.extend(succ.get(w, ()))
        out |= {(v, w) for w in seen if w != v}
    return out


@settings(max_examples=400, deadline=None)
@given(links, st.integers(0, 40))
@pytest.mark.slow
def test_the_closure_is_counted_before_it_is_built(pairs, limit):
    from chemref.scoring.brat.closure import ClosureTooLarge, closure_size, transitive_closure

    expected = _reachable(pairs)
    assert closure_size(pairs) == len(expected)
    try:
        got = transitive_closure(pairs, limit)
    except ClosureTooLarge as exc:
        assert len(expected) > limit
        assert exc.size == len(expected) if exc.exact else exc.size > limit
    else:
        assert got == expected and len(expected) <= limit
