"""Training options of the question selector: the feature list (``train-selector --features``) and soft
targets (``--soft-labels`` responses of a judge, ``--label-weight``), in the API and the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

from chemref.cli import main
from chemref.errors import InputError
from chemref.questions.funnel.selector import load_selector
from chemref.questions.funnel.selector_features import DEFAULT_FEATURES, feature_list
from chemref.questions.funnel.selector_training import _blended_targets, train_selector
from tests.test_questions_selector_evaluate import _label, _noisy, _write

FEATURE_LISTS = [
    ("default", DEFAULT_FEATURES),
    ("default,title_overlap", DEFAULT_FEATURES + ("title_overlap",)),
    (" attribution , background ", ("attribution", "background")),
    ("attribution,default", ("attribution",) + tuple(n for n in DEFAULT_FEATURES if n != "attribution")),
    ("title_overlap,title_overlap", ("title_overlap",)),
]


@pytest.mark.parametrize(("text", "expected"), FEATURE_LISTS)
def test_feature_list(text, expected):
    assert feature_list(text) == expected


@pytest.mark.parametrize(("text", "message"), [("default,no_such", "unknown selector feature 'no_such'"),
                                               ("attribution,,background", "an empty feature name")])
def test_feature_list_errors(text, message):
    with pytest.raises(InputError, match=message):
        feature_list(text)


def test_blended_targets_by_hand():
    y = np.array([1.0, 0.0, 1.0])
    targets, softened = _blended_targets(["a", "b", "c"], y, {"a": 0.2, "b": 0.8, "z": 0.5}, 0.25)
    assert targets.tolist() == pytest.approx([0.25 + 0.75 * 0.2, 0.75 * 0.8, 1.0]) and softened == 2
    same, none = _blended_targets(["a", "b", "c"], y, {"a": 0.2}, 1.0)
    assert same is y and none == 0


def _soft(labels, flip=False):
    """A judge's confidence per id: 0.9 for the good ones and 0.1 for the others (reversed with ``flip``)."""
    return {i: (0.1 if good else 0.9) if flip else (0.9 if good else 0.1) for i, good in labels.items()}


def test_soft_targets_change_the_fit_but_not_what_it_is_judged_against():
    records, labels = _noisy()
    plain, cv_plain = train_selector(records, labels, folds=3)
    same, cv_same = train_selector(records, labels, folds=3, soft_targets=_soft(labels), label_weight=1.0)
    assert same == plain and cv_same == cv_plain  # weight 1: the labels alone
    soft, cv_soft = train_selector(records, labels, folds=3, soft_targets=_soft(labels, flip=True), label_weight=0.25)
    assert soft.weights != plain.weights and set(cv_soft) == set(labels)
    assert soft.weights["attribution"] < 0 < plain.weights["attribution"]  # the reversed judge dominates the blend
    assert soft.meta["soft_targets"] == {"label_weight": 0.25, "records": len(labels)}
    assert "soft_targets" not in plain.meta


@pytest.mark.parametrize(("soft", "weight", "message"), [
    (None, 0.5, "below 1 only with soft targets"),
    ({"x": 0.5}, 1.5, "from 0 to 1"),
    ({"nobody": 0.5}, 0.5, "no labelled record has a soft target"),
    ({"ART0-p0-s0": 1.5}, 0.5, "must be a probability from 0 to 1"),
])
def test_soft_target_errors(soft, weight, message):
    records, labels = _noisy()
    with pytest.raises(InputError, match=message):
        train_selector(records, labels, folds=3, soft_targets=soft, label_weight=weight)


def _responses(path, confidences):
    """A Batch output file answering each id with the guide's fields and ``confidence``."""
    rows = []
    for n, (ident, confidence) in enumerate(confidences.items()):
        content = {"good_question": confidence >= 0.5, "author_named": False, "function": "CLAIM",
                   "sentence_ok": True, "note": "", "confidence": confidence}
        rows.append({"id": f"batch_req_{n}", "custom_id": ident, "error": None, "response": {
            "status_code": 200, "request_id": f"req_{n}", "body": {"model": "m", "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
                                                                  "content": json.dumps(content)}}]}}})
    return _write(path, rows)


def test_train_selector_cli_features_and_soft_labels(tmp_path, capsys):
    records, labels = _noisy()
    path = _write(tmp_path / "labels.jsonl", [_label(i, g) for i, g in labels.items()])
    questions = _write(tmp_path / "q.jsonl", records)
    responses = _responses(tmp_path / "responses.jsonl", _soft(labels))
    out = str(tmp_path / "s.json")
    assert main(["questions", "train-selector", path, "--questions", questions, "-o", out, "--folds", "3",
                 "--features", "default,title_overlap", "--soft-labels", responses, "--label-weight", "0.5"]) == 0
    selector = load_selector(out)
    assert list(selector.weights) == [*DEFAULT_FEATURES, "title_overlap"]
    assert selector.meta["soft_targets"] == {"label_weight": 0.5, "records": len(labels)}
    assert f"soft targets for {len(labels)} records" in capsys.readouterr().out


def test_train_selector_cli_says_which_answers_it_could_not_use(tmp_path, capsys):
    records, labels = _noisy()
    path = _write(tmp_path / "labels.jsonl", [_label(i, g) for i, g in labels.items()])
    questions = _write(tmp_path / "q.jsonl", records)
    responses = tmp_path / "responses.jsonl"
    _responses(responses, _soft(labels))
    lines = responses.read_text().splitlines()
    broken = json.loads(lines[0])
    broken["response"]["body"]["choices"][0]["message"]["content"] = "not json"
    responses.write_text("\n".join([json.dumps(broken), *lines[1:]]) + "\n")
    assert main(["questions", "train-selector", path, "--questions", questions, "-o", str(tmp_path / "s.json"),
                 "--folds", "3", "--soft-labels", str(responses), "--label-weight", "0.5"]) == 0
    captured = capsys.readouterr()
    assert f"note: 1 of the {len(labels)} answers" in captured.err
    assert load_selector(tmp_path / "s.json").meta["soft_targets"]["records"] == len(labels) - 1


@pytest.mark.parametrize(("extra", "message"), [
    (["--features", "default,nope"], "unknown selector feature 'nope'"),
    (["--label-weight", "0.5"], "below 1 only with soft targets"),
    (["--soft-labels", "RESPONSES"], "--soft-labels has no effect with --label-weight 1"),
])
def test_train_selector_cli_option_errors_one_line_exit_2(tmp_path, capsys, extra, message):
    records, labels = _noisy()
    path = _write(tmp_path / "labels.jsonl", [_label(i, g) for i, g in labels.items()])
    questions = _write(tmp_path / "q.jsonl", records)
    responses = _responses(tmp_path / "responses.jsonl", _soft(labels))
    extra = [responses if arg == "RESPONSES" else arg for arg in extra]
    status = main(["questions", "train-selector", path, "--questions", questions, "-o", str(tmp_path / "s.json"),
                   "--folds", "3", *extra])
    err = capsys.readouterr().err
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "s.json").exists()
