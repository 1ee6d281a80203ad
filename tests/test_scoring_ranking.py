"""Recall@K / MRR@K: hand-worked edge cases, TREC files with trec_eval tie breaking, and agreement with
established IR evaluators (pytrec_eval = trec_eval itself, and ranx) on random rankings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chemref.cli import main
from chemref.errors import InputError, ScoringError
from chemref.scoring import score_ranking
from chemref.scoring.benchmarks.ranking import trec_order

DATA = Path(__file__).parent / "data" / "scoring"

# relevant ids, ranking, K, expected Recall@K, expected RR@K
CASES = [
    (["a"], ["a", "x", "y"], 10, 1.0, 1.0),
    (["a"], ["x", "y", "a"], 10, 1.0, 1 / 3),
    (["a"], [f"x{i}" for i in range(10)] + ["a"], 10, 0.0, 0.0),  # rank 11 is outside the top 10
    (["a"], [f"x{i}" for i in range(10)] + ["a"], 11, 1.0, 1 / 11),
    (["a", "b", "c"], ["x", "b", "y", "a"], 10, 2 / 3, 1 / 2),  # MRR uses the first hit only
    (["a", "b"], ["x", "a"], 100, 1 / 2, 1 / 2),  # K larger than the list
    (["a"], [], 10, 0.0, 0.0),  # empty ranking
    (["a"], ["x", "x", "a"], 2, 0.0, 0.0),  # a repeat keeps its slot
    (["a"], ["x", "x", "a"], 3, 1.0, 1 / 3),
    (["a", "b"], ["a", "a", "b"], 2, 1 / 2, 1.0),  # a relevant repeat counts once
    (["a", "b"], ["a", "a", "a", "b"], 10, 1.0, 1.0),
    (["a", "b"], ["x", "a", "a"], 1, 0.0, 0.0),
]


@pytest.mark.parametrize(("relevant", "ranking", "k", "recall", "rr"), CASES)
def test_hand_worked(relevant: list[str], ranking: list[str], k: int, recall: float, rr: float) -> None:
    report = score_ranking({"q": relevant}, {"q": ranking}, k=k)
    assert report[f"recall@{k}"] == pytest.approx(recall)
    assert report[f"mrr@{k}"] == pytest.approx(rr)
    assert report["n"] == 1


def test_queries_without_relevant_items_are_reported_and_skipped() -> None:
    report = score_ranking({"q1": ["a"], "q2": []}, {"q1": ["a"], "q2": ["a"]}, k=10)
    assert report["n"] == 1 and report["recall@10"] == 1.0 and report["mrr@10"] == 1.0
    assert report["counts"]["no_relevant_skipped"] == 1
    assert any("no relevant item" in d and "'q2'" in d for d in report["diagnostics"])


def test_missing_prediction_scores_zero_and_is_reported() -> None:
    report = score_ranking({"q1": ["a"], "q2": ["b"]}, {"q1": ["a"]}, k=10)
    assert report["n"] == 2 and report["recall@10"] == 0.5 and report["mrr@10"] == 0.5
    assert report["counts"]["missing_predictions"] == 1


def test_unknown_prediction_ids_are_ignored_and_reported() -> None:
    report = score_ranking({"q1": ["a"]}, {"q1": ["a"], "zz": ["a"]}, k=10)
    assert report["recall@10"] == 1.0 and report["counts"]["unknown_prediction_ids"] == 1
    with pytest.raises(ScoringError, match="none of the 1 predicted query ids"):
        score_ranking({"q1": ["a"]}, {"zz": ["a"]}, k=10)


def test_all_gold_without_relevant_items() -> None:
    report = score_ranking({"q1": []}, {"q1": ["a"]}, k=5)
    assert report["n"] == 0 and report["recall@5"] == 0.0
    assert any("nothing to average" in d for d in report["diagnostics"])


def test_several_k_and_report_fields() -> None:
    report = score_ranking({"q": ["b"]}, {"q": ["a", "b"]}, k=(1, 2))
    assert report["metric"] == ["recall@1", "mrr@1", "recall@2", "mrr@2"]
    assert report["k"] == [1, 2] and report["chemref_version"] and "macro" in report["averaging"]
    assert (report["recall@1"], report["recall@2"], report["mrr@2"]) == (0.0, 1.0, 0.5)
    text = str(report)
    assert "recall@2" in text and "chemref" in text and "averaging" in text


@pytest.mark.parametrize("k", [0, -1, (), (3, 0)])
def test_bad_k(k) -> None:
    with pytest.raises(ScoringError):
        score_ranking({"q": ["a"]}, {"q": ["a"]}, k=k)


# trec_eval: score descending, then docno descending (strcmp), the rank column ignored
TIE_CASES = [
    ([("a", 1.0), ("b", 1.0), ("c", 1.0), ("d", 0.5)], ["c", "b", "a", "d"]),
    ([("b", 1.0), ("d", 1.0), ("c", 0.9), ("a", 0.5)], ["d", "b", "c", "a"]),
    ([("doc10", 2.0), ("doc9", 2.0), ("doc1", 3.0)], ["doc1", "doc9", "doc10"]),
    ([("x", -1.0), ("y", 0.0)], ["y", "x"]),
]


@pytest.mark.parametrize(("scored", "expected"), TIE_CASES)
def test_trec_order(scored: list[tuple[str, float]], expected: list[str]) -> None:
    assert trec_order(scored) == expected


def test_trec_files_with_ties() -> None:
    report = score_ranking(DATA / "ties.qrels", DATA / "ties.run", k=(1, 2, 10), format="trec", per_query=True)
    per_query = report["per_query"]
    # q1: a=b=c=1.0 -> c, b, a (docno descending): c relevant at rank 1 (values confirmed with trec_eval)
    assert per_query["q1"] == {"recall@1": 0.5, "mrr@1": 1.0, "recall@2": 0.5, "mrr@2": 1.0,
                               "recall@10": 1.0, "mrr@10": 1.0}
    # q2: b=d=1.0 -> d, b, then c (0.9): first relevant (c) at rank 3
    assert per_query["q2"]["mrr@10"] == pytest.approx(1 / 3) and per_query["q2"]["recall@2"] == 0.0
    # q3: only non-relevant judgements -> scored 0 and averaged, as trec_eval does (reported)
    assert per_query["q3"]["recall@10"] == 0.0 and report["counts"]["no_relevant_scored_zero"] == 1


def test_jsonl_files_with_breakdowns(capsys: pytest.CaptureFixture) -> None:
    report = score_ranking(DATA / "ranking_gold.jsonl", DATA / "ranking_pred.jsonl", k=10)
    assert report["n"] == 4 and report["counts"]["no_relevant_skipped"] == 1
    assert report["recall@10"] == pytest.approx((1 + 0.5 + 0 + 1) / 4)
    assert report["mrr@10"] == pytest.approx((1 + 1 / 2 + 0 + 1 / 3) / 4)
    assert set(report["breakdowns"]) == {"field", "year", "context_length"}
    assert report["breakdowns"]["field"]["chemistry"]["n"] == 2
    assert report["breakdowns"]["year"]["(none)"]["n"] == 1
    assert list(report["breakdowns"]["context_length"]) == ["1", "3", "10"]  # numeric order
    # scores beside the ranking: trec_eval order applies (q4 lists 'c' first but scores it lowest)
    assert main(["score", "ranking", str(DATA / "ranking_gold.jsonl"), str(DATA / "ranking_pred.jsonl"),
                 "--json", "--k", "10", "--per-query"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["per_query"]["q4"]["mrr@10"] == pytest.approx(1 / 3)


BAD_FILES = [
    ('{"id": "q", "relevant": "a"}\n', '{"id": "q", "ranking": ["a"]}\n', "'relevant' must be a list"),
    ('{"id": "q"}\n', '{"id": "q", "ranking": ["a"]}\n', "no 'relevant' list"),
    ('{"id": "q", "relevant": ["a"]}\n', '{"id": "q", "ranked": ["a"]}\n', "no 'ranking' list"),
    ('{"id": "q", "relevant": ["a"]}\n', '{"id": "q", "ranking": ["a"]}\n{"id": "q", "ranking": []}\n',
     "given twice"),
    ('{"id": "q", "relevant": ["a"]}\n{"id": "q", "relevant": ["b"]}\n', '{"id": "q", "ranking": ["a"]}\n',
     "repeated"),
    ('{"id": "q", "relevant": ["a"]}\nnot json\n', '{"id": "q", "ranking": ["a"]}\n', "gold.jsonl:2"),
    ('{"id": "q", "relevant": ["a"]}\n', '{"id": "q", "ranking": ["a", "b"], "scores": [1]}\n', "as long as"),
]


@pytest.mark.parametrize(("gold", "pred", "message"), BAD_FILES)
def test_bad_files(tmp_path: Path, gold: str, pred: str, message: str) -> None:
    (tmp_path / "gold.jsonl").write_text(gold, encoding="utf-8")
    (tmp_path / "pred.jsonl").write_text(pred, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        score_ranking(tmp_path / "gold.jsonl", tmp_path / "pred.jsonl")


def test_trec_files_given_in_the_wrong_order(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["score", "ranking", str(DATA / "ties.run"), str(DATA / "ties.qrels"), "--format", "trec"]) == 2
    err = capsys.readouterr().err
    assert "ties.run:1: expected 4 columns" in err and err.count("\n") == 1


# ----------------------------------------------------------------------- agreement with IR libraries

DOCS = [f"d{i}" for i in range(12)]


@st.composite
def _collections(draw, *, distinct_scores: bool):
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(draw(st.integers(1, 6))):
        qid = f"q{q}"
        relevant = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=5, unique=True))
        judged = draw(st.lists(st.sampled_from(DOCS), max_size=3, unique=True))
        qrels[qid] = {d: 0 for d in judged} | {d: draw(st.integers(1, 2)) for d in relevant}
        ranked = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=12, unique=True))
        if distinct_scores:
            run[qid] = {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
        else:  # few score levels: plenty of ties for trec_eval's docno tie breaking
            run[qid] = {d: float(draw(st.integers(0, 3))) for d in ranked}
    return qrels, run


def _ours(qrels, run, ks):
    gold = {q: [d for d, rel in docs.items() if rel > 0] for q, docs in qrels.items()}
    pred = [{"id": q, "ranking": list(docs), "scores": list(docs.values())} for q, docs in run.items()]
    return score_ranking(gold, pred, k=ks, per_query=True)["per_query"]


@pytest.mark.slow
@given(data=_collections(distinct_scores=False), k=st.integers(1, 13))
def test_agrees_with_trec_eval(data, k: int) -> None:
    pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec_eval (pytrec-eval-terrier) not installed")
    qrels, run = data
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {f"recall.{k}", "recip_rank"}).evaluate(run)
    ours = _ours(qrels, run, (k,))
    assert set(ours) == set(theirs)
    for qid, values in theirs.items():
        assert ours[qid][f"recall@{k}"] == pytest.approx(values[f"recall_{k}"])
        rr = values["recip_rank"]
        rr_at_k = rr if rr > 0 and round(1 / rr) <= k else 0.0  # trec_eval has no cut-off for recip_rank
        assert ours[qid][f"mrr@{k}"] == pytest.approx(rr_at_k)


@given(data=_collections(distinct_scores=True), k=st.integers(1, 13))
def test_agrees_with_ranx(data, k: int) -> None:
    ranx = pytest.importorskip("ranx", reason="ranx not installed")
    qrels, run = data
    theirs = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), [f"recall@{k}", f"mrr@{k}"], return_mean=False)
    ours = _ours(qrels, run, (k,))
    order = sorted(qrels)  # ranx returns per-query arrays in sorted query order
    assert [ours[q][f"recall@{k}"] for q in order] == pytest.approx(list(theirs[f"recall@{k}"]))
    assert [ours[q][f"mrr@{k}"] for q in order] == pytest.approx(list(theirs[f"mrr@{k}"]))
