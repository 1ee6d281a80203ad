"""The records the HTML pages are written from (``questions review``, ``questions baseline-page``) are read
strictly, like every other JSON Lines input: a key given twice in one object, an id given twice, citation
offsets outside the sentence or reversed are each one error line naming the file and the line, exit 2, and no
page is written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.hostile.cli_runner import assert_refused, chemref

SENTENCE = "Zinc knuckles bind DNA [1]."


def _record(ident: str, **fields: object) -> str:
    row = {"id": ident, "excerpt": "Zinc knuckles bind DNA [CITATION].", "sentence": SENTENCE,
           "citation_start": 23, "citation_end": 26, "citation_text": "[1]", **fields}
    return json.dumps(row)


BAD = {
    "duplicate-key": ('{"id": "q2", "excerpt": "An excerpt [CITATION].", "excerpt": "Another [CITATION]."}',
                      "given twice"),
    "duplicate-id": (_record("q1"), "'q1' is given twice"),
    "past-the-end": (_record("q2", citation_end=len(SENTENCE) + 1), "not within the sentence"),
    "reversed": (_record("q2", citation_start=20, citation_end=10), "start <= end"),
    "negative": (_record("q2", citation_start=-1), "not within the sentence"),
    "not-a-number": (_record("q2", citation_start=True), "whole numbers"),
    "no-sentence": (_record("q2", sentence=None), "without a sentence"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(BAD))
@pytest.mark.parametrize("command", ["review", "baseline-page"])
def test_a_bad_record_is_refused_naming_the_file_and_line(tmp_path: Path, command: str, case: str) -> None:
    line, needle = BAD[case]
    (tmp_path / "q.jsonl").write_text(_record("q1") + "\n" + line + "\n", encoding="utf-8")
    proc = chemref("questions", command, "q.jsonl", "-o", "page.html", cwd=tmp_path)
    assert_refused(proc, "q.jsonl:2:", needle)
    assert not (tmp_path / "page.html").exists()


@pytest.mark.slow
def test_a_rejected_candidate_with_the_id_of_a_question_is_refused(tmp_path: Path) -> None:
    (tmp_path / "q.jsonl").write_text(_record("q1") + "\n", encoding="utf-8")
    (tmp_path / "rejected.jsonl").write_text(_record("q2", reason="no_doi") + "\n"
                                             + _record("q1", reason="no_doi") + "\n", encoding="utf-8")
    proc = chemref("questions", "review", "q.jsonl", "--rejected", "rejected.jsonl", "-o", "page.html",
                   cwd=tmp_path)
    assert_refused(proc, "rejected.jsonl:2:", "'q1' is given twice", "q.jsonl:1")
    assert not (tmp_path / "page.html").exists()


@pytest.mark.slow
def test_good_records_still_make_both_pages(tmp_path: Path) -> None:
    (tmp_path / "q.jsonl").write_text(_record("q1") + "\n" + _record("q2", citation_start=None,
                                                                      citation_end=None) + "\n", encoding="utf-8")
    for command in ("review", "baseline-page"):
        proc = chemref("questions", command, "q.jsonl", "-o", f"{command}.html", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert (tmp_path / f"{command}.html").stat().st_size > 0


# -- no page holds a control character raw (a terminal escape in a name): each is a numeric character reference
CONTROLS = "\x1b[2J\x07\x7f\x9b31m"  # ESC, BEL, DEL, and the C1 CSI
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _assert_no_raw_controls(page: Path) -> None:
    html = page.read_text(encoding="utf-8")
    assert not RAW.search(html), repr(RAW.search(html))
    assert "&#27;[2J&#7;&#127;&#155;31m" in html


@pytest.mark.slow
def test_the_brat_error_page_writes_no_control_character_raw(tmp_path: Path) -> None:
    for side, kind in (("gold", "Reaction_product"), ("pred", f"Evil{CONTROLS}")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "doc.txt").write_text(f"Sodium chloride{CONTROLS} was added.", encoding="utf-8")
        (tmp_path / side / "doc.ann").write_text(f"T1\t{kind} 0 15\tSodium chloride\nT2\tReaction_product 16 24\t"
                                                 f"{CONTROLS}\nR1\tR{CONTROLS} Arg1:T1 Arg2:T2\n", encoding="utf-8")
    proc = chemref("score", "brat", "gold", "pred", "--html", "page.html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    _assert_no_raw_controls(tmp_path / "page.html")


@pytest.mark.slow
def test_the_question_pages_write_no_control_character_raw(tmp_path: Path) -> None:
    name = f"q{CONTROLS}.jsonl"
    (tmp_path / name).write_text(_record("q1", section=f"Intro{CONTROLS}", target_title=f"T{CONTROLS}") + "\n",
                                 encoding="utf-8")
    (tmp_path / "rejected.jsonl").write_text(_record("q2", reason=f"no{CONTROLS}") + "\n", encoding="utf-8")
    proc = chemref("questions", "review", name, "--rejected", "rejected.jsonl", "-o", "review.html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    _assert_no_raw_controls(tmp_path / "review.html")
    proc = chemref("questions", "baseline-page", name, "-o", "baseline.html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    _assert_no_raw_controls(tmp_path / "baseline.html")
