"""`score ranking --format trec` against trec_eval itself (through pytrec_eval) on hand-built files:
comment lines, extra run columns, queries missing from the run (--empty-queries), graded qrels (--min-rel)."""

from __future__ import annotations

import json

import pytest

from chemref.cli import main
from chemref.scoring.benchmarks.ranking import score_ranking

pytrec_eval = pytest.importorskip("pytrec_eval")

QRELS = """# hand-built qrels: graded judgements, one query with nothing relevant, one query the run leaves out
q1 0 d1 1
q1 0 d2 0
q1 0 d3 2
q1 0 d7 1
q2 0 d1 0
q2 0 d4 0
q3 0 d2 2
q3 0 d5 1
# a query that is not in the run
q4 0 d9 1
q5 0 d3 1
"""

RUN = """# hand-built run; some lines carry extra trailing columns, which trec_eval ignores
q1 Q0 d2 1 9.5 sysA
q1 Q0 d1 2 9.5 sysA extra column
q1 Q0 d5 3 7.0 sysA
q1 Q0 d3 4 2.25 sysA
q2 Q0 d4 1 3.0 sysA
q2 Q0 d1 2 1.0 sysA
q3 Q0 d8 1 5.0 sysA 0.1 0.2
q3 Q0 d6 2 4.0 sysA
q3 Q0 d5 3 4.0 sysA
q3 Q0 d2 4 -1.0 sysA
q5 Q0 d3 1 0.5 sysA
q9 Q0 d1 1 1.0 sysA
"""

KS = (1, 2, 3, 10)


def _parse(text: str, columns: int):
    rows = [line.split()[:columns] for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return rows


def _trec_eval(min_rel: int) -> dict[str, dict[str, float]]:
    qrel: dict[str, dict[str, int]] = {}
    for q, _, d, r in _parse(QRELS, 4):
        qrel.setdefault(q, {})[d] = int(r)
    run: dict[str, dict[str, float]] = {}
    for q, _, d, _, s, _ in _parse(RUN, 6):
        run.setdefault(q, {})[d] = float(s)
    measures = {f"recall_{k}" for k in KS} | {"recip_rank"}
    return pytrec_eval.RelevanceEvaluator(qrel, measures, relevance_level=min_rel).evaluate(run)


@pytest.fixture()
def files(tmp_path):
    qrels, run = tmp_path / "a.qrels", tmp_path / "a.run"
    qrels.write_text(QRELS, encoding="utf-8")
    run.write_text(RUN, encoding="utf-8")
    return qrels, run


@pytest.mark.parametrize("min_rel", [1, 2])
@pytest.mark.parametrize("empty_queries", ["skip", "count"])
def test_equals_trec_eval(files, min_rel, empty_queries):
    qrels, run = files
    expected = _trec_eval(min_rel)
    report = score_ranking(qrels, run, k=KS + (1000,), format="trec", per_query=True,
                           empty_queries=empty_queries, min_rel=min_rel)
    got = report["per_query"]
    in_qrels = ["q1", "q2", "q3", "q4", "q5"]
    if empty_queries == "skip":  # trec_eval's default: queries in both files
        assert sorted(got) == sorted(expected)
        averaged = sorted(expected)
    else:  # trec_eval -c: every query in the qrels, a missing one scores 0
        assert sorted(got) == in_qrels
        averaged = in_qrels
    for q in averaged:
        for k in KS:
            assert got[q][f"recall@{k}"] == pytest.approx(expected.get(q, {}).get(f"recall_{k}", 0.0)), (q, k)
        # recip_rank has no cut-off: K beyond every list
        assert got[q]["mrr@1000"] == pytest.approx(expected.get(q, {}).get("recip_rank", 0.0)), q
    for k in KS:  # trec_eval's "all" line: the mean over the averaged queries
        mean = sum(expected.get(q, {}).get(f"recall_{k}", 0.0) for q in averaged) / len(averaged)
        assert report[f"recall@{k}"] == pytest.approx(mean)
    mean_rr = sum(expected.get(q, {}).get("recip_rank", 0.0) for q in averaged) / len(averaged)
    assert report["mrr@1000"] == pytest.approx(mean_rr)


def test_cli_options(files, capsys):
    qrels, run = files
    assert main(["score", "ranking", str(qrels), str(run), "--format", "trec", "--k", "3", "--json",
                 "--empty-queries", "skip", "--min-rel", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["counts"]["missing_skipped"] == 1
    expected = _trec_eval(2)
    assert out["recall@3"] == pytest.approx(sum(v["recall_3"] for v in expected.values()) / len(expected))


def test_cli_rejects_an_unknown_empty_queries_mode(files, capsys):
    qrels, run = files
    assert main(["score", "ranking", str(qrels), str(run), "--format", "trec", "--empty-queries", "drop"]) == 2
    assert "--empty-queries" in capsys.readouterr().err


def test_default_counts_missing_queries(files):
    qrels, run = files
    assert score_ranking(qrels, run, format="trec")["n"] == 5
