"""PubMedQA scorer: the reference values of ../shared/corpora/pubmedqa/README.md and the input checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.helpers import shared_path

from chemref.cli import main
from chemref.errors import ScoringError
from chemref.scoring import score_pubmedqa


@pytest.fixture(scope="module")
def gold_path() -> Path:
    return shared_path("corpora", "pubmedqa", "test_ground_truth.json")


@pytest.fixture(scope="module")
def pqal() -> dict:
    return json.loads(shared_path("corpora", "pubmedqa", "ori_pqal.json").read_text(encoding="utf-8"))


# README table: predictions -> accuracy, macro-F1, per-class F1 (yes / no / maybe)
REFERENCE = [
    ("always_yes", 0.552, 0.23711, (0.71134, 0.0, 0.0)),
    ("reasoning_required_pred", 0.780, 0.72192, (0.83305, 0.74448, 0.58824)),
    ("reasoning_free_pred", 0.904, 0.84182, (0.92998, 0.93529, 0.66019)),
]


@pytest.mark.shared
@pytest.mark.parametrize(("source", "accuracy", "macro_f1", "per_class"), REFERENCE)
def test_reference_values(gold_path: Path, pqal: dict, source: str, accuracy: float, macro_f1: float,
                          per_class: tuple[float, float, float]) -> None:
    gold = json.loads(gold_path.read_text(encoding="utf-8"))
    pred = {pmid: "yes" if source == "always_yes" else pqal[pmid][source] for pmid in gold}
    report = score_pubmedqa(gold_path, pred)
    assert report["n"] == 500
    assert report["accuracy"] == pytest.approx(accuracy, abs=5e-4)
    assert report["macro_f1"] == pytest.approx(macro_f1, abs=5e-5)
    assert tuple(report["per_class"][c]["f1"] for c in ("yes", "no", "maybe")) == pytest.approx(per_class, abs=5e-5)


@pytest.mark.shared
def test_cli_json_reference(gold_path: Path, pqal: dict, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    gold = json.loads(gold_path.read_text(encoding="utf-8"))
    pred = tmp_path / "pred.json"
    pred.write_text(json.dumps({pmid: pqal[pmid]["reasoning_required_pred"] for pmid in gold}), encoding="utf-8")
    assert main(["score", "pubmedqa", str(gold_path), str(pred), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["accuracy"] == pytest.approx(0.780)
    assert out["macro_f1"] == pytest.approx(0.72192, abs=5e-5)
    assert out["n"] == 500
    assert out["chemref_version"] and out["averaging"] and out["metric"] == ["accuracy", "macro_f1"]


HAND = [
    # gold, pred, accuracy, macro-F1
    ({"1": "yes", "2": "no", "3": "maybe"}, {"1": "yes", "2": "no", "3": "maybe"}, 1.0, 1.0),
    ({"1": "yes", "2": "no", "3": "maybe"}, {"1": "no", "2": "maybe", "3": "yes"}, 0.0, 0.0),
    # yes: P 1/2 R 1 F 2/3; no: P 1 R 1/2 F 2/3; maybe: never predicted, absent -> F 0
    ({"1": "yes", "2": "no", "3": "no"}, {"1": "yes", "2": "no", "3": "yes"}, 2 / 3, (2 / 3 + 2 / 3 + 0) / 3),
]


@pytest.mark.parametrize(("gold", "pred", "accuracy", "macro_f1"), HAND)
def test_hand_worked(gold: dict, pred: dict, accuracy: float, macro_f1: float) -> None:
    report = score_pubmedqa(gold, pred)
    assert report["accuracy"] == pytest.approx(accuracy)
    assert report["macro_f1"] == pytest.approx(macro_f1)


BAD = [
    ({"1": "yes", "2": "no"}, {"1": "yes"}, "1 gold id(s) without a prediction"),
    ({"1": "yes"}, {"1": "yes", "9": "no"}, "1 predicted id(s) not in the gold"),
    ({"1": "yes"}, {"1": "Yes"}, "labels are lower case"),
    ({"1": "yes"}, {"1": "unknown"}, "is not yes, no or maybe"),
    ({"1": "yes"}, {"1": None}, "is not yes, no or maybe"),
    ({"1": "perhaps"}, {"1": "yes"}, "gold label 'perhaps'"),
    ({"1": "yes"}, ["yes"], "must be a JSON object"),
]


@pytest.mark.parametrize(("gold", "pred", "message"), BAD)
def test_bad_input_is_a_clear_error(gold, pred, message: str) -> None:
    with pytest.raises(ScoringError, match=message.replace("(", r"\(").replace(")", r"\)")):
        score_pubmedqa(gold, pred)


def test_cli_error_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    gold = tmp_path / "gold.json"
    pred = tmp_path / "pred.json"
    gold.write_text('{"1": "yes", "2": "no"}', encoding="utf-8")
    pred.write_text('{"1": "yes"}', encoding="utf-8")
    assert main(["score", "pubmedqa", str(gold), str(pred)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("chemref: error: ") and err.count("\n") == 1 and "pred.json" in err


def test_printed_report_names_metric_k_averaging_and_version() -> None:
    """Every printed report names the metric, K (none here: one label per item), the averaging and the version."""
    import chemref

    text = str(score_pubmedqa({"1": "yes", "2": "no"}, {"1": "yes", "2": "yes"}))
    head = text.splitlines()[:4]
    assert head[0] == f"chemref {chemref.__version__} · PubMedQA (PQA-L, reasoning-required)"
    assert head[1].startswith("metric: accuracy") and head[2].startswith("averaging: ")
    assert head[3].startswith("K: none")
