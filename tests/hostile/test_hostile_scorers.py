"""Garbage given to the benchmark scorers (``score ranking``, ``score questions``) and to ``score brat`` as a
whole: objects that say two things, prediction files that hold nothing, predictions that pair with no gold
document. Each is an error naming the file, never a report of zeros. The CLI runs under a 1 GB address-space
limit and a time bound (tests/hostile/cli_runner.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.cli_runner import CORPORA, PREVIOUS, assert_refused, chemref

RANKING = CORPORA / "ranking"
CITEME = CORPORA / "citeme" / "sample.tsv"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "out.txt").write_text(PREVIOUS)
    return tmp_path


# -- an object naming one key twice: Python keeps the last value, other readers the first
@pytest.mark.parametrize("side", ["gold", "pred"])
def test_a_ranking_record_naming_a_key_twice_is_an_error(folder: Path, side: str) -> None:
    twice = {"gold": '{"id": "q1", "relevant": ["d1"], "relevant": []}\n',
             "pred": '{"id": "q1", "ranking": ["d9"], "ranking": ["d1", "d4"]}\n'}[side]
    (folder / "twice.jsonl").write_text(twice)
    files = ["twice.jsonl", RANKING / "pred.jsonl"] if side == "gold" else [RANKING / "gold.jsonl", "twice.jsonl"]
    proc = chemref("score", "ranking", *files, "-o", "out.txt", cwd=folder)
    assert_refused(proc, "twice.jsonl:1:", "'relevant'" if side == "gold" else "'ranking'", "twice")
    assert (folder / "out.txt").read_text() == PREVIOUS


def test_a_question_prediction_naming_a_key_twice_is_an_error(folder: Path) -> None:
    (folder / "twice.jsonl").write_text('{"id": "1", "titles": ["a"]}\n{"id": "2", "titles": ["b"], "titles": []}\n')
    proc = chemref("score", "questions", CITEME, "twice.jsonl", "--format", "citeme", cwd=folder)
    assert_refused(proc, "twice.jsonl:2:", "'titles'", "twice")


# -- a prediction file that holds nothing is a failed run, not a system that scored zero
@pytest.mark.parametrize("command", [["ranking", RANKING / "gold.jsonl"],
                                     ["ranking", RANKING / "qrels.txt", "--format", "trec"],
                                     ["questions", CITEME, "--format", "citeme"]])
@pytest.mark.parametrize("content", ["", "\n\n"])
def test_an_empty_prediction_file_is_an_error(folder: Path, command: list, content: str) -> None:
    (folder / "empty.run").write_text(content)
    gold, options = command[1], command[2:]
    proc = chemref("score", command[0], gold, "empty.run", *options, "-o", "out.txt", cwd=folder)
    assert_refused(proc, "empty.run", "hold no")
    assert (folder / "out.txt").read_text() == PREVIOUS


def test_an_empty_run_in_a_leaderboard_is_an_error(folder: Path) -> None:
    (folder / "empty.jsonl").write_text("")
    proc = chemref("score", "ranking", RANKING / "gold.jsonl", RANKING / "pred.jsonl", "empty.jsonl", cwd=folder)
    assert_refused(proc, "empty.jsonl", "hold no")


# -- predictions that pair with no gold document (renamed files, another set) score nothing
def test_brat_predictions_naming_no_gold_document_are_an_error(work: Path) -> None:
    for ann in (work / "pred").glob("*.ann"):
        ann.rename(ann.with_name("sub_" + ann.name))
    proc = chemref("score", "brat", "gold", "pred", "-o", "out.txt", cwd=work)
    assert_refused(proc, "pred", "none of the 3 prediction files names a gold document", "sub_r001")
    assert (work / "out.txt").read_text() == PREVIOUS


def test_brat_predictions_for_some_gold_documents_are_still_scored(work: Path) -> None:
    (work / "pred" / "r002.ann").rename(work / "pred" / "other.ann")
    proc = chemref("score", "brat", "gold", "pred", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert "counted as empty" in proc.stderr and "other.ann: prediction file has no gold file" in proc.stderr


# -- an empty id or title names nothing; a wrong item is named by its position and JSON type
@pytest.mark.parametrize("command, row, needles", [
    (["ranking", RANKING / "gold.jsonl"], '{"id": "q1", "ranking": ["d1", ""]}', ("'ranking' item 2 is empty",)),
    (["questions", CITEME, "--format", "citeme"], '{"id": "1", "titles": ["   "]}', ("'titles' item 1 is blank",)),
    (["questions", CITEME, "--format", "citeme"], '{"id": "1", "dois": ["10.1/x", null]}',
     ("'dois' must be a list of strings: item 2 is null",)),
])
def test_an_item_that_names_nothing_is_an_error_naming_it(folder: Path, command: list, row: str,
                                                         needles: tuple[str, ...]) -> None:
    (folder / "pred.jsonl").write_text(row + "\n")
    proc = chemref("score", command[0], command[1], "pred.jsonl", *command[2:], cwd=folder)
    assert_refused(proc, "pred.jsonl:1:", *needles)


def test_an_empty_relevant_id_in_the_gold_is_an_error(folder: Path) -> None:
    (folder / "gold.jsonl").write_text('{"id": "q1", "relevant": [""]}\n')
    proc = chemref("score", "ranking", "gold.jsonl", RANKING / "pred.jsonl", cwd=folder)
    assert_refused(proc, "gold.jsonl:1:", "'relevant' item 1 is empty")
