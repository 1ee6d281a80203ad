"""Intervals, headline and leaderboards as users meet them: every scorer, every output format, the CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import CORPORA

from chemref.scoring import score_brat, score_pubmedqa, score_ranking
from chemref.scoring.leaderboard import compare_brat, compare_questions, compare_ranking

GOLD = CORPORA / "brat" / "gold"
PRED = CORPORA / "brat" / "pred"
DATA = Path(__file__).parent / "data" / "scoring"


def run(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "chemref", "score", *map(str, args)], capture_output=True,
                          text=True, timeout=120)


def _leaves(report):
    for _, per_type, overall in report.sections():
        yield from per_type.values()
        yield overall


def test_every_chemu_score_gets_an_interval_around_it() -> None:
    report = score_brat(GOLD, PRED, ci=0.9, resamples=200, seed=3)
    assert report["meta"]["ci"] == {"level": 0.9, "method": "percentile bootstrap", "resamples": 200, "seed": 3,
                                    "unit": "document",
                                    "description": "90% percentile bootstrap over 3 documents, 200 resamples, seed 3"}
    leaves = list(_leaves(report))
    assert len(leaves) > 6
    for c in leaves:
        for m in ("precision", "recall", "f1"):
            lo, hi = c["ci"][m]
            assert 0.0 <= lo <= hi <= 1.0


def test_the_same_seed_gives_the_same_intervals_with_any_number_of_workers() -> None:
    one = score_brat(GOLD, PRED, ci=0.95, resamples=300, jobs=1)
    two = score_brat(GOLD, PRED, ci=0.95, resamples=300, jobs=2)
    assert one.to_json() == two.to_json()
    assert score_brat(GOLD, PRED, ci=0.95, resamples=300, seed=1).to_json() != one.to_json()


def test_brateval_mode_keeps_its_output_and_adds_intervals_after_it() -> None:
    plain = score_brat(GOLD, PRED, mode="brateval", level="entities")
    with_ci = score_brat(GOLD, PRED, mode="brateval", level="entities", ci=0.95, resamples=200)
    assert str(with_ci).startswith(str(plain))
    assert "95% CI" in str(with_ci)[len(str(plain)):]
    assert with_ci["meta"]["primary"].startswith("brateval/entities/exact/exact f1")
    assert "f1_low" in with_ci.to_csv().splitlines()[0]


def test_the_text_report_starts_with_the_headline() -> None:
    lines = str(score_brat(GOLD, PRED)).splitlines()
    assert lines[0].startswith("chemref ") and "ChEMU 2021" in lines[0]
    assert lines[1] == "mode: chemu"
    assert lines[2].startswith("primary: relations/exact/coref_expanded f1")
    assert lines[3].startswith("averaging: micro") and lines[4] == "documents: 3"
    assert lines[5].startswith("matching: exact = ")


@pytest.mark.slow
@pytest.mark.parametrize("fmt, marker", [("--json", '"ci"'), ("--csv", "f1_low"), ("--markdown", "| f1_low |"),
                                         (None, "F1 95% CI")])
def test_cli_shows_the_interval_in_every_format(fmt, marker) -> None:
    p = run("brat", GOLD, PRED, "--ci", "0.95", "--resamples", "100", *([fmt] if fmt else []))
    assert p.returncode == 0, p.stderr
    assert marker in p.stdout


@pytest.mark.slow
def test_leaderboard_from_the_cli_with_names_and_a_footnote(tmp_path: Path) -> None:
    p = run("brat", GOLD, PRED, GOLD, "--names", "sys,oracle", "--markdown", "--trials", "999")
    assert p.returncode == 0, p.stderr
    rows = [line for line in p.stdout.splitlines() if line.startswith("| ")]
    assert rows[1].startswith("| 1 | **oracle** |") and rows[2].startswith("| 2 | sys |")
    assert "[^sig]: two-sided paired approximate randomization" in p.stdout and "999 trials" in p.stdout
    out = tmp_path / "board.csv"
    p = run("brat", GOLD, PRED, GOLD, "--csv", "-o", out)
    assert p.returncode == 0 and out.read_text().startswith("rank,system,precision,precision_low")
    assert f"wrote {out}" in p.stderr


@pytest.mark.slow
@pytest.mark.parametrize("args, message", [
    (["--names", "a"], "1 name(s) for 2 prediction(s)"),
    (["--names", "a,a"], "distinct"),
    (["--test", "t"], "unknown test 't'"),
])
def test_leaderboard_settings_are_checked(args, message) -> None:
    p = run("brat", GOLD, PRED, GOLD, *args)
    assert p.returncode == 2 and message in p.stderr and "Traceback" not in p.stderr


@pytest.mark.slow
def test_strict_error_does_not_say_counted_as_empty(tmp_path: Path) -> None:
    pred = tmp_path / "pred"
    shutil.copytree(PRED, pred)
    next(pred.glob("*.ann")).unlink()
    p = run("brat", GOLD, pred, "--strict")
    assert p.returncode == 2 and "counted as empty" not in p.stderr and "no prediction file" in p.stderr


def test_ranking_and_pubmedqa_intervals() -> None:
    r = score_ranking(DATA / "ranking_gold.jsonl", DATA / "ranking_pred.jsonl", ci=0.95, resamples=200)
    assert set(r["ci"]) == set(r["metric"]) and r["resampling"]["unit"] == "query"
    for name in r["metric"]:
        assert r["ci"][name][0] <= r[name] <= r["ci"][name][1]
    gold = {str(i): ("yes", "no", "maybe")[i % 3] for i in range(60)}
    pred = {k: (v if int(k) % 4 else "no") for k, v in gold.items()}
    pq = score_pubmedqa(gold, pred, ci=0.9, resamples=300)
    assert pq["ci"]["accuracy"][0] <= pq["accuracy"] <= pq["ci"]["accuracy"][1]
    assert pq["ci"]["macro_f1"][0] <= pq["macro_f1"] <= pq["ci"]["macro_f1"][1]
    assert "low" in pq.to_csv().splitlines()[0] and "90% CI" in str(pq)


def _questions_and_predictions(tmp_path: Path) -> tuple[Path, Path, Path]:
    gold = tmp_path / "q.jsonl"
    good = tmp_path / "good.jsonl"
    bad = tmp_path / "bad.jsonl"
    with gold.open("w") as g, good.open("w") as a, bad.open("w") as b:
        for i in range(40):
            doi = f"10.1000/paper.{i}"
            g.write(json.dumps({"id": f"q{i}", "target_doi": doi}) + "\n")
            a.write(json.dumps({"id": f"q{i}", "dois": [doi] if i % 5 else ["10.1000/other", doi]}) + "\n")
            b.write(json.dumps({"id": f"q{i}", "dois": ["10.1000/other"] + ([doi] if i % 2 else [])}) + "\n")
    return gold, good, bad


@pytest.mark.slow
def test_questions_leaderboard_and_csv(tmp_path: Path) -> None:
    gold, good, bad = _questions_and_predictions(tmp_path)
    board = compare_questions(gold, [bad, good], trials=999)
    assert [s.name for s in board.systems] == ["good", "bad"]
    assert board.primary == "accuracy@1" and board.systems[1].p_value < 0.01
    p = run("questions", gold, good, "--csv", "--ci", "0.95")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0] == "table,group,metric,value,low,high,n"
    q = json.loads(run("questions", gold, good, "--json", "--ci", "0.95").stdout)
    assert q["ci"]["accuracy@1"][0] <= q["accuracy@1"] <= q["ci"]["accuracy@1"][1]


def test_ranking_leaderboard_orders_by_the_primary_metric(tmp_path: Path) -> None:
    board = compare_ranking(DATA / "ranking_gold.jsonl", [DATA / "ranking_pred.jsonl", DATA / "ranking_pred.jsonl"],
                            names=["a", "b"], primary="mrr@10", trials=99)
    assert board.primary == "mrr@10" and board.systems[1].p_value == 1.0
    assert board.to_dict()["meta"]["test"]["trials"] == 99
