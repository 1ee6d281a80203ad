"""The one report type every scorer returns (``ScoreReport``) and its one formatter: frozen values, the
headline, rows with column headers, and the four formats drawn from them."""

from __future__ import annotations

import copy
import csv
import dataclasses
import io
import json
import pickle

import pytest

from chemref.scoring import compare_ranking, score_brat, score_pubmedqa, score_ranking
from chemref.scoring.report.model import LAYOUTS, ScoreReport
from chemref.scoring.report.formats import format4, to_csv, to_json, to_markdown, to_text
from tests.helpers import CORPORA

GOLD = CORPORA / "brat" / "gold"
PRED = CORPORA / "brat" / "pred"
RANKING = CORPORA / "ranking"
PUBMEDQA = CORPORA / "pubmedqa"


def _reports() -> list[tuple[str, ScoreReport]]:
    return [
        ("chemu", score_brat(GOLD, PRED)),
        ("chemu ci", score_brat(GOLD, PRED, ci=0.9, resamples=50, per_doc=True, errors=True)),
        ("brateval", score_brat(GOLD, PRED, mode="brateval", level="relations", span="overlap", per_doc=True)),
        ("ranking", score_ranking(RANKING / "gold.jsonl", RANKING / "pred.jsonl", k=(1, 10), ci=0.9,
                                  resamples=50)),
        ("pubmedqa", score_pubmedqa(PUBMEDQA / "sample_ground_truth.json", PUBMEDQA / "sample_pred.json")),
        ("leaderboard", compare_ranking(RANKING / "qrels.txt", [RANKING / "run_a.run", RANKING / "run_b.run"],
                                        format="trec", resamples=50, trials=50)),
    ]


REPORTS = _reports()
IDS = [name for name, _ in REPORTS]


@pytest.mark.parametrize(("name", "report"), REPORTS, ids=IDS)
def test_every_scorer_returns_the_one_report_type(name: str, report: ScoreReport) -> None:
    assert type(report) is ScoreReport and report.layout in LAYOUTS
    assert isinstance(report, dict)  # the JSON document: json.dump and dict(report) work as before


@pytest.mark.parametrize(("name", "report"), REPORTS, ids=IDS)
def test_a_report_is_frozen(name: str, report: ScoreReport) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.title = "other"  # type: ignore[misc]
    for change in (lambda: report.__setitem__("x", 1), lambda: report.update(x=1), lambda: report.pop("meta"),
                   lambda: report.clear(), lambda: report.setdefault("x", 1), lambda: report.__delitem__("meta")):
        with pytest.raises(TypeError, match="read-only"):
            change()
    copied = report.to_dict()
    copied["x"] = 1  # a plain copy can change
    assert "x" not in report


@pytest.mark.parametrize(("name", "report"), REPORTS, ids=IDS)
def test_a_report_survives_pickle_and_copy(name: str, report: ScoreReport) -> None:
    for again in (pickle.loads(pickle.dumps(report)), copy.deepcopy(report), copy.copy(report)):
        assert type(again) is ScoreReport
        assert again.to_json() == report.to_json() and again.to_text() == report.to_text()
        assert again.table == report.table and again.headline_value == report.headline_value


@pytest.mark.parametrize(("name", "report"), REPORTS, ids=IDS)
def test_the_formats_come_from_the_one_formatter(name: str, report: ScoreReport) -> None:
    assert report.to_text() == to_text(report) == str(report)
    assert report.to_markdown() == to_markdown(report)
    assert report.to_csv() == to_csv(report)
    assert report.to_json() == to_json(report) == json.dumps(report, indent=2, ensure_ascii=False)
    assert json.loads(report.to_json()) == json.loads(json.dumps(report.to_dict()))


@pytest.mark.parametrize(("name", "report"), REPORTS, ids=IDS)
def test_csv_is_the_table_rows_under_their_column_headers(name: str, report: ScoreReport) -> None:
    rows = list(csv.reader(io.StringIO(report.to_csv())))
    assert tuple(rows[0]) == report.table.columns == tuple(report.columns())
    assert len(rows) - 1 == len(report.table.rows) == len(report.rows())
    for line, row in zip(rows[1:], report.table.rows):
        for column, text in zip(report.table.columns, line):
            value = row.get(column)
            assert text == (format4(value) if isinstance(value, float) else "" if value is None else str(value))


# the headline: what each shape ranks by, and where its value comes from
def test_brat_headline_is_the_primary_sections_f1() -> None:
    report = score_brat(GOLD, PRED)
    overall = report["relations"]["exact"]["coref_expanded"]["overall"]
    assert report.primary == "relations/exact/coref_expanded f1" == report["meta"]["primary"]
    assert report.headline_value == report.primary_value() == overall["f1"] == report["meta"]["primary_value"]
    assert report.metrics == {m: overall[m] for m in ("precision", "recall", "f1")}
    assert report.diagnostics == tuple(report["warnings"])


def test_brateval_headline_is_the_all_row() -> None:
    report = score_brat(GOLD, PRED, mode="brateval", level="entities")
    assert report.headline_value == report["overall"]["f1"] and report.layout == "brateval"
    assert [label for label, _, _ in report.sections()] == [report["label"]]


def test_benchmark_headline_is_the_first_metric() -> None:
    report = score_ranking({"q1": ["a"], "q2": ["b"]}, {"q1": ["b", "a"], "q2": ["b"]}, k=(1, 10))
    assert report.primary == "recall@1" and report.headline_value == 0.5
    assert list(report.metrics) == report["metric"] == ["recall@1", "mrr@1", "recall@10", "mrr@10"]
    assert report.layout == "metrics" and list(report.sections()) == []
    assert report.ci_level is None
    assert score_ranking({"q1": ["a"]}, {"q1": ["a"]}, ci=0.9, resamples=20).ci_level == 0.9


def test_leaderboard_headline_is_the_best_systems_primary_metric() -> None:
    board = compare_ranking(RANKING / "qrels.txt", [RANKING / "run_b.run", RANKING / "run_a.run"], format="trec",
                            names=["b", "a"], primary="mrr@10", resamples=50, trials=50)
    assert board.best.name == "a" and board.systems[0] is board.best
    assert board.primary == "mrr@10" and board.headline_value == board.best.metrics["mrr@10"]
    assert [s["system"] for s in board["systems"]] == ["a", "b"]
    assert board.table.columns[:5] == ("rank", "system", "recall@10", "recall@10_low", "recall@10_high")


def test_an_unknown_layout_is_refused() -> None:
    from chemref.scoring.report.model import Table

    with pytest.raises(ValueError, match="unknown report layout"):
        ScoreReport(layout="html", title="", primary="", headline_value=None, metrics={}, table=Table((), ()),
                    meta={}, document={})
