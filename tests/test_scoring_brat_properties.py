"""Property tests (hypothesis) for the BRAT scorers: perfect scores, matching, invariances, closure, errors."""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path
from typing import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chemref.errors import ChemrefError
from chemref.scoring import score_brat
from chemref.scoring.brat.chemu import BLOCKS, document_items, expand_coref, score_document
from chemref.scoring.brat.matching import max_matching

LABELS = ["entity", "Chem"]
TYPES = ["COREFERENCE", "WORK_UP", "REACTION_ASSOCIATED"]


@st.composite
def ann_docs(draw, max_mentions: int = 7) -> tuple[list, list]:
    """Mentions ``(label, [(s, e), ...])`` and relations ``(type, i, j)`` over mention indexes."""
    n = draw(st.integers(1, max_mentions))
    ments = []
    for _ in range(n):
        frags = draw(st.lists(st.tuples(st.integers(0, 60), st.integers(1, 12)).map(lambda t: (t[0], t[0] + t[1])),
                              min_size=1, max_size=2))
        ments.append((draw(st.sampled_from(LABELS)), frags))
    rels = draw(st.lists(st.tuples(st.sampled_from(TYPES), st.integers(0, n - 1), st.integers(0, n - 1)),
                         max_size=8))
    return ments, rels


def render(doc: tuple[list, list], *, ids: list[int] | None = None, shuffle: random.Random | None = None) -> str:
    ments, rels = doc
    ids = ids or list(range(1, len(ments) + 1))
    lines = [f"T{ids[i]}\t{label} {';'.join(f'{s} {e}' for s, e in frags)}\tx" for i, (label, frags) in enumerate(ments)]
    lines += [f"R{k + 1}\t{t} Arg1:T{ids[i]} Arg2:T{ids[j]}" for k, (t, i, j) in enumerate(rels)]
    if shuffle is not None:
        shuffle.shuffle(lines)
    return "\n".join(lines) + "\n"


def totals(pairs) -> dict:
    acc: dict = {}
    for g, p in pairs:
        score_document(document_items(g)[:2], document_items(p)[:2], acc)
    return {b: {t: tuple(v) for t, v in c.items()} for b, c in acc.items()}


@pytest.mark.slow
@given(ann_docs())
def test_perfect_prediction_scores_one(doc) -> None:
    text = render(doc)
    for block, counts in totals([(text, text)]).items():
        for tp, fp, fn in counts.values():
            assert fp == 0 and fn == 0 and tp > 0, block


@settings(max_examples=15)
@given(st.lists(ann_docs(), min_size=1, max_size=3))
def test_folder_against_itself_is_one(docs) -> None:
    root = Path(tempfile.mkdtemp())
    try:
        for k, doc in enumerate(docs):
            (root / f"d{k}.ann").write_text(render(doc))
        report = score_brat(root, root)
        assert report["relations"]["exact"]["coref_not_expanded"]["overall"]["fp"] == 0
        for level in ("relations", "entities"):
            for match in report[level].values():
                for leaf in (match.values() if "overall" not in match else [match]):
                    if leaf["overall"]["tp"]:
                        assert leaf["overall"]["f1"] == 1.0
        brateval = score_brat(root, root, mode="brateval", level="entities", span="exact")
        assert brateval["overall"]["f1"] == 1.0
    finally:
        shutil.rmtree(root)


graphs = st.integers(0, 7).flatmap(lambda n_right: st.tuples(
    st.lists(st.lists(st.integers(0, max(n_right - 1, 0)), max_size=n_right, unique=True) if n_right else
             st.just([]), max_size=7), st.just(n_right)))


def brute_force(adj, n_right, i: int = 0, used: frozenset = frozenset()) -> int:
    if i == len(adj):
        return 0
    best = brute_force(adj, n_right, i + 1, used)
    for j in adj[i]:
        if j not in used:
            best = max(best, 1 + brute_force(adj, n_right, i + 1, used | {j}))
    return best


def greedy_matching(adj: Sequence[Sequence[int]], n_right: int) -> tuple[int, list[int]]:
    """Left items in order take their first free right neighbour (what BRATEval does): the comparison."""
    taken = [False] * n_right
    match_l = [-1] * len(adj)
    size = 0
    for i, row in enumerate(adj):
        for j in row:
            if not taken[j]:
                taken[j] = True
                match_l[i] = j
                size += 1
                break
    return size, match_l


@pytest.mark.slow
@given(graphs)
def test_maximum_matching_is_a_matching_and_beats_greedy(graph) -> None:
    adj, n_right = graph
    size, match = max_matching(adj, n_right)
    used = [j for j in match if j >= 0]
    assert len(used) == len(set(used)) == size          # one gold item, at most one prediction (and back)
    assert all(j in adj[i] for i, j in enumerate(match) if j >= 0)
    assert size >= greedy_matching(adj, n_right)[0]
    if len(adj) <= 5 and n_right <= 5:
        assert size == brute_force(adj, n_right)


def test_paper_greedy_example() -> None:
    # first-fit takes the edge another item needed; augmenting paths repair it
    adj = [[0, 1], [0], [2, 3], [2], []]
    assert greedy_matching(adj, 4)[0] == 2
    assert max_matching(adj, 4)[0] == 4


@pytest.mark.slow
@given(ann_docs(), ann_docs(), st.randoms(use_true_random=False))
def test_chemu_invariant_to_ids_and_line_order(gold, pred, rnd) -> None:
    base = totals([(render(gold), render(pred))])
    ids = rnd.sample(range(1, 100), len(pred[0]))
    gids = rnd.sample(range(1, 100), len(gold[0]))
    moved = totals([(render(gold, ids=gids, shuffle=rnd), render(pred, ids=ids, shuffle=rnd))])
    assert moved == base


@pytest.mark.slow
@given(st.lists(st.tuples(ann_docs(), ann_docs()), min_size=1, max_size=4), st.randoms(use_true_random=False))
def test_chemu_invariant_to_document_order(pairs, rnd) -> None:
    texts = [(render(g), render(p)) for g, p in pairs]
    shuffled = list(texts)
    rnd.shuffle(shuffled)
    assert totals(texts) == totals(shuffled)


@pytest.mark.slow
@given(ann_docs(), ann_docs())
def test_counts_are_consistent(gold, pred) -> None:
    g, p = document_items(render(gold))[:2], document_items(render(pred))[:2]
    got = totals([(render(gold), render(pred))])
    for block in BLOCKS:
        level, _, coref = block
        gi, pi = (g[0], p[0]) if level == "entities" else (
            (expand_coref(g[1]), expand_coref(p[1])) if coref == "coref_expanded" else (g[1], p[1]))
        tp = sum(v[0] for v in got[block].values())
        assert sum(v[2] for v in got[block].values()) + tp == len(gi)   # each gold item is TP or FN once
        assert sum(v[1] for v in got[block].values()) + tp == len(pi)
    exact = got[("relations", "exact", "coref_not_expanded")]
    relaxed = got[("relations", "relaxed_bipartite", "coref_not_expanded")]
    assert sum(v[0] for v in relaxed.values()) >= sum(v[0] for v in exact.values())


@pytest.mark.slow
@given(ann_docs())
def test_expansion_never_lowers_the_gold_count(doc) -> None:
    _, rels, _ = document_items(render(doc))
    expanded = expand_coref(rels)
    assert expanded >= rels
    assert all(a != b for t, a, b in expanded - rels)                # no inferred self links
    assert all(t == "COREFERENCE" for t, _, _ in expanded - rels)    # only COREFERENCE is expanded
    assert expand_coref(expanded) == expanded                        # closed


junk_lines = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["T1\tentity 0 5\tx", "T2\tentity 3 9;12 15\ty", "R1\tCOREFERENCE Arg1:T1 Arg2:T2",
                     "R2\tWORK_UP Arg2:T2 Arg1:T1", "T3\tentity 0 5; 7 9\tz", "T4\tentity 0 5\t", "A1\tNeg",
                     "*", "N1\tRef T1", "E1\tStep", "R3\tX  Arg1:T1 Arg2:T2", "T5\tentity x 5\tq",
                     "R4\tCOREFERENCE Arg1:T1 Arg2:T77", "\ufeffT6\tentity 1 2\tw", "T7\tentity 99999999999 1\tw"]))


@pytest.mark.slow
@settings(max_examples=60)
@given(st.lists(junk_lines, max_size=8), st.lists(junk_lines, max_size=8), st.binary(max_size=6))
def test_api_raises_typed_errors_never_exits(gold_lines, pred_lines, raw) -> None:
    root = Path(tempfile.mkdtemp())
    try:
        (root / "g").mkdir()
        (root / "p").mkdir()
        (root / "g" / "d.ann").write_bytes("\n".join(gold_lines).encode("utf-8", "surrogatepass"))
        (root / "p" / "d.ann").write_bytes("\n".join(pred_lines).encode("utf-8", "surrogatepass") + raw)
        for kwargs in ({}, {"mode": "brateval"}, {"mode": "brateval", "level": "entities", "span": "approx"},
                       {"errors": True, "per_doc": True}):
            try:
                report = score_brat(root / "g", root / "p", **kwargs)
            except ChemrefError as exc:
                assert "\n" not in str(exc)
            else:
                str(report), report.to_json(), report.to_csv(), report.to_markdown()
    finally:
        shutil.rmtree(root)
