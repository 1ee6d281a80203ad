"""What a model recalls, beside the labels: closed-book answers joined to any records
(:mod:`chemref.questions.closed_book.recall`), the selector's ``good-not-recalled`` target
(``train-selector --target good-not-recalled --closed-book``) and ``evaluate --closed-book``'s recalled shares."""

from __future__ import annotations

import json

import pytest

from chemref.cli import main
from chemref.errors import InputError
from chemref.questions.closed_book.answers import Recollection
from chemref.questions.closed_book.recall import recalled_records
from chemref.questions.funnel.selector import load_selector
from chemref.questions.funnel.selector_training import train_selector
from tests.test_questions_selector_evaluate import _label, _noisy, _write

TITLE = "Zeolite membranes for the separation of hydrogen from carbon dioxide"
RECORD = {"id": "A-p0-s0", "excerpt": "E [CITATION].", "target_doi": "10.1000/xyz1", "target_title": TITLE}


def _ok(title=None, doi=None):
    return Recollection("ok", title=title, doi=doi, model="m")


@pytest.mark.parametrize(("answers", "expected"), [
    ([_ok(title=TITLE)], True),
    ([_ok(title="Something else entirely, on enzymes")], False),
    ([_ok(doi="https://doi.org/10.1000/XYZ1")], True),                 # the DOI after normalisation
    ([_ok(title="Zeolite membranes for separating hydrogen from carbon dioxide")], True),  # fuzzy at 0.85
    ([_ok(), Recollection("not_json", detail="x")], None),              # never counted as not recalled
    ([Recollection("refused"), _ok(title=TITLE)], True),                # one sample names it
])
def test_recalled_records(answers, expected):
    got = {f"A-p0-s0#{k}": (k, a) for k, a in enumerate(answers, start=1)}
    assert recalled_records([RECORD], got, title_threshold=0.85) == {"A-p0-s0": expected}


def test_recalled_records_threshold_and_records_without_answers_or_target():
    close = {"A-p0-s0#1": (1, _ok(title="Zeolite membranes for separating hydrogen from carbon dioxide"))}
    assert recalled_records([RECORD], close, title_threshold=0.99) == {"A-p0-s0": False}
    bare = {"id": "B-p0-s0", "excerpt": "E [CITATION]."}
    assert recalled_records([RECORD, bare], {"B-p0-s0#1": (1, _ok(title=TITLE))}, title_threshold=0.85) == {
        "B-p0-s0": False}  # no cited work to name; A has no answer, so no entry


def test_recalled_records_refuses_answers_for_no_record():
    with pytest.raises(InputError, match="unknown custom_id 'Z-p0-s0#1'") as error:
        recalled_records([RECORD], {"Z-p0-s0#1": (7, _ok())}, title_threshold=0.85, responses_path="r.jsonl")
    assert error.value.line == 7


def test_good_not_recalled_target_changes_the_fit_not_the_labels_judged():
    records, labels = _noisy()
    plain, cv_plain = train_selector(records, labels, folds=3)
    nothing = {i: False for i in labels}
    same, cv_same = train_selector(records, labels, folds=3, recalled=nothing)
    assert same.weights == plain.weights and cv_same == cv_plain
    assert same.meta["target"] == "good and not recalled" and same.meta["recalled"] == 0
    # every good one recalled: nothing is left to aim at but the bad ones' complement; the fit turns around
    every_good = {i: bool(good) for i, good in labels.items()}
    with pytest.raises(InputError, match="only one class"):
        train_selector(records, {i: False for i in labels}, folds=3, recalled=nothing)
    turned, cv_turned = train_selector(records, labels, folds=3,
                                       recalled={**every_good, **{i: True for i in list(labels)[::2]}})
    assert turned.weights != plain.weights and set(cv_turned) == set(labels)
    assert "target" not in plain.meta


def test_good_not_recalled_needs_every_record_decided():
    records, labels = _noisy()
    partial = {i: False for i in list(labels)[1:]}
    with pytest.raises(InputError, match="1 of the .* labelled records have no closed-book answer"):
        train_selector(records, labels, folds=3, recalled=partial)
    with pytest.raises(InputError, match="no closed-book answer"):
        train_selector(records, labels, folds=3, recalled={**partial, next(iter(labels)): None})


def _closed_book(path, titles):
    """A closed-book Batch output file answering ``ID#1`` of each id with ``title``."""
    rows = []
    for n, (ident, title) in enumerate(titles.items()):
        content = {"title": title, "first_author": None, "year": None, "doi": None}
        rows.append({"id": f"batch_req_{n}", "custom_id": f"{ident}#1", "error": None, "response": {
            "status_code": 200, "body": {"model": "m", "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
                                                                  "content": json.dumps(content)}}]}}})
    return _write(path, rows)


def _files(tmp_path):
    records, labels = _noisy()
    records = [{**r, "target_title": f"Work number {r['id']} on zeolites"} for r in records]
    path = _write(tmp_path / "labels.jsonl", [_label(i, g) for i, g in labels.items()])
    questions = _write(tmp_path / "q.jsonl", records)
    recalled = [r["id"] for r in records][::3]
    answers = _closed_book(tmp_path / "cb.jsonl", {r["id"]: r["target_title"] if r["id"] in recalled else None
                                                   for r in records})
    return path, questions, answers, labels, recalled


def test_train_selector_and_evaluate_cli_with_closed_book(tmp_path, capsys):
    path, questions, answers, labels, recalled = _files(tmp_path)
    out = str(tmp_path / "s.json")
    assert main(["questions", "train-selector", path, "--questions", questions, "-o", out, "--folds", "3",
                 "--target", "good-not-recalled", "--closed-book", answers, "--title-threshold", "0.85"]) == 0
    assert load_selector(out).meta["recalled"] == len(recalled)
    capsys.readouterr()
    assert main(["questions", "evaluate", path, "--questions", questions, "--closed-book", answers, "--json"]) == 0
    recall = {r["set"]: r for r in json.loads(capsys.readouterr().out)["recall"]}
    good = [i for i, g in labels.items() if g]
    assert recall["candidates"]["recalled"] == len(recalled) and recall["candidates"]["answered"] == len(labels)
    assert recall["good"]["recalled"] == len(set(good) & set(recalled))
    assert recall["kept"]["recalled_share"] == round(len(recalled) / len(labels), 4)  # every record is kept


@pytest.mark.parametrize(("extra", "message"), [
    (["--target", "good-not-recalled"], "--target good-not-recalled needs --closed-book"),
    (["--target", "best"], "use good or good-not-recalled"),
    (["--title-threshold", "0.9"], "--title-threshold needs --closed-book"),
    (["--recalled-target", "0.5"], "--recalled-target needs --target good-not-recalled"),
])
def test_train_selector_closed_book_option_errors_one_line_exit_2(tmp_path, capsys, extra, message):
    path, questions, _, _, _ = _files(tmp_path)
    status = main(["questions", "train-selector", path, "--questions", questions, "-o", str(tmp_path / "s.json"),
                   "--folds", "3", *extra])
    err = capsys.readouterr().err
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "s.json").exists()


def test_evaluate_closed_book_answers_for_no_candidate_one_line_exit_2(tmp_path, capsys):
    path, questions, answers, _, _ = _files(tmp_path)
    lines = (tmp_path / "cb.jsonl").read_text().splitlines()
    stray = json.loads(lines[0])
    stray["custom_id"] = "NOBODY-p0-s0#1"
    (tmp_path / "cb.jsonl").write_text("\n".join([*lines, json.dumps(stray)]) + "\n")
    status = main(["questions", "evaluate", path, "--questions", questions, "--closed-book", answers])
    err = capsys.readouterr().err
    assert status == 2 and "unknown custom_id 'NOBODY-p0-s0#1'" in err and "cb.jsonl" in err
    assert f"cb.jsonl:{len(lines) + 1}:" in err and len(err.strip().splitlines()) == 1


def test_recalled_target_fits_recalled_good_records_partway():
    records, labels = _noisy()
    some = {i: n % 2 == 0 for n, i in enumerate(labels)}
    hard = train_selector(records, labels, folds=3, recalled=some)[0]
    half = train_selector(records, labels, folds=3, recalled=some, recalled_target=0.5)[0]
    plain = train_selector(records, labels, folds=3)[0]
    assert half.meta["recalled_target"] == 0.5 and hard.meta["recalled_target"] == 0.0
    assert half.weights != hard.weights and half.weights != plain.weights
    with pytest.raises(InputError, match="from 0 to below 1"):
        train_selector(records, labels, folds=3, recalled=some, recalled_target=1.0)
