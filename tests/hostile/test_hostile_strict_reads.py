"""Inputs read strictly, each refusal one line naming the file (and the line): a label object naming a key twice,
BRAT offsets in digits other than 0-9 and ``.ann`` files that are no BRAT files (BRATEval mode too), and JSON
files that are not UTF-8 (a UTF-16 ``--selector``). Each CLI case runs under a 1 GB address-space limit."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes_brat as recipes
from tests.hostile.cli_runner import assert_refused, chemref

GOLD = "T1\tReaction_product 0 15\tSodium chloride\nT2\tReaction_product 33 38\tflask\n"
BRATEVAL = ["--brateval", "--level", "entities"]


def test_a_label_naming_a_key_twice_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    from chemref.errors import InputError
    from chemref.questions.labels.label import read_labels

    good = {"id": "a-p1-s1", "good_question": True, "author_named": False, "function": "CLAIM",
            "sentence_ok": True, "note": ""}
    line = json.dumps(good)[:-1] + ', "good_question": false}'
    (tmp_path / "labels.jsonl").write_text(json.dumps(good | {"id": "b-p1-s1"}) + "\n" + line + "\n",
                                           encoding="utf-8")
    with pytest.raises(InputError, match="'good_question' is given twice") as refused:
        read_labels(tmp_path / "labels.jsonl")
    assert refused.value.line == 2 and str(refused.value).startswith(str(tmp_path / "labels.jsonl") + ":2:")


@pytest.mark.parametrize("digits", ["\u0660 \u0663", "0 \u0663", "\uff10 \uff13"])
def test_brateval_mode_refuses_offsets_in_other_digits(tmp_path: Path, digits: str) -> None:
    recipes.one_document(tmp_path, GOLD, f"T1\tReaction_product {digits}\tSod\n")
    proc = chemref("score", "brat", "gold", "pred", *BRATEVAL, cwd=tmp_path)
    assert_refused(proc, "pred/doc.ann:1:", "digits 0-9")


@pytest.mark.parametrize("mode", [[], BRATEVAL])
def test_a_prediction_of_random_bytes_is_an_error(tmp_path: Path, mode: list[str]) -> None:
    import random

    _, pred = recipes.one_document(tmp_path, GOLD, "")
    (pred / "doc.ann").write_bytes(random.Random(7).randbytes(3000))
    proc = chemref("score", "brat", "gold", "pred", *mode, cwd=tmp_path)
    assert_refused(proc, "pred/doc.ann")


@pytest.mark.parametrize("mode", [[], BRATEVAL])
def test_a_file_mostly_of_no_brat_kind_is_an_error(tmp_path: Path, mode: list[str]) -> None:
    import random

    rng = random.Random(3)
    text = "".join(chr(rng.randint(33, 126)) if rng.random() > 0.05 else "\n" for _ in range(3000))
    text = "".join(line for line in text.splitlines(keepends=True) if line[:1] not in "TREAMN#*")
    recipes.one_document(tmp_path, GOLD, text)
    proc = chemref("score", "brat", "gold", "pred", *mode, cwd=tmp_path)
    assert_refused(proc, "pred/doc.ann", "no BRAT kind")
    recipes.one_document(tmp_path, GOLD, recipes.unknown_lines(3, annotations=3))  # half: read, with warnings
    proc = chemref("score", "brat", "gold", "pred", *mode, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_a_selector_file_that_is_not_utf8_is_an_error_naming_it(tmp_path: Path, encoding: str) -> None:
    from chemref.questions.funnel.selector import shipped_selector_path

    text = shipped_selector_path().read_text(encoding="utf-8")
    (tmp_path / "selector.json").write_bytes(text.encode(encoding))
    os.mkdir(tmp_path / "corpus")
    proc = chemref("questions", "build", "corpus", "-o", "q.jsonl", "--selector", "selector.json", cwd=tmp_path)
    assert_refused(proc, "selector.json", "not UTF-8")
