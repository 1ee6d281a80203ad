"""Garbage BRAT input to ``score brat`` refused as garbage, on either side: empty fragments, gold files that are
not text, a folder read as part of the other side's folder; outputs of one run replaced together or not at all;
document names that are not UTF-8 written into every output. Each case runs the CLI under a 1 GB address-space
limit and a time bound (tests/hostile/cli_runner.py)."""

from __future__ import annotations

import gzip
import json
import os
import resource
import shutil
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes_brat as recipes
from tests.hostile.cli_runner import PREVIOUS, assert_refused, chemref

GOLD = "T1\tReaction_product 0 15\tSodium chloride\nT2\tReaction_product 33 38\tflask\n"


# -- an empty fragment holds no character: no overlap test can say what it matches
@pytest.mark.parametrize("where", sorted(recipes.EMPTY_FRAGMENTS))
def test_an_empty_predicted_fragment_is_an_error_naming_its_line(tmp_path: Path, where: str) -> None:
    offsets = recipes.EMPTY_FRAGMENTS[where]
    gold, pred = recipes.one_document(tmp_path, GOLD, GOLD.splitlines()[1] + f"\nT9\tReaction_product {offsets}\tx\n")
    (tmp_path / "out.txt").write_text(PREVIOUS)
    proc = chemref("score", "brat", "gold", "pred", "-o", "out.txt", cwd=tmp_path)
    assert_refused(proc, "doc.ann:2:", "is empty")
    assert (tmp_path / "out.txt").read_text() == PREVIOUS


def test_a_relation_cannot_gain_credit_through_empty_arguments(tmp_path: Path) -> None:
    gold_ann = GOLD + "R1\tCOREFERENCE Arg1:T2 Arg2:T1\n"
    pred_ann = "T1\tReaction_product 4 4\tx\nT2\tReaction_product 35 35\tx\nR1\tCOREFERENCE Arg1:T2 Arg2:T1\n"
    recipes.one_document(tmp_path, gold_ann, pred_ann)
    proc = chemref("score", "brat", "gold", "pred", "--json", cwd=tmp_path)
    assert_refused(proc, "pred/doc.ann:1:", "is empty")


def test_an_empty_gold_fragment_is_an_error_too(tmp_path: Path) -> None:
    recipes.one_document(tmp_path, GOLD + "T3\tReaction_product 20 20\t\n", GOLD)
    proc = chemref("score", "brat", "gold", "pred", "pred", cwd=tmp_path)  # the leaderboard reads it the same way
    assert_refused(proc, "gold/doc.ann:3:", "is empty")


def test_brateval_mode_keeps_brateval_counts_and_warns(tmp_path: Path) -> None:
    recipes.one_document(tmp_path, GOLD, "T1\tReaction_product 3 3\tx\n")
    proc = chemref("score", "brat", "gold", "pred", "--brateval", "--level", "entities", "--span", "overlap",
                   "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "pred/doc.ann:1: an empty fragment (3 3)" in proc.stderr
    assert json.loads(proc.stdout)["overall"]["tp"] == 1  # what BRATEval v0.3.2 counts: its overlap test says so


# -- a gold file that is not text is an error, as a prediction is; no option scores the gold as empty
def _not_text(kind: str, text: str) -> bytes:
    return {"utf-16": text.encode("utf-16"), "gzip": gzip.compress(text.encode()),
            "nul": text.replace("chloride", "chlo\0ride").encode()}[kind]


@pytest.mark.parametrize("kind", ["utf-16", "gzip", "nul"])
@pytest.mark.parametrize("extra", [[], ["--unreadable-as-empty"], ["pred"]])
def test_a_gold_file_that_is_not_text_is_an_error_naming_it(tmp_path: Path, kind: str, extra: list[str]) -> None:
    gold, _ = recipes.one_document(tmp_path, GOLD, GOLD)
    (gold / "doc.ann").write_bytes(_not_text(kind, GOLD))
    (tmp_path / "out.txt").write_text(PREVIOUS)
    proc = chemref("score", "brat", "gold", "pred", *extra, "-o", "out.txt", cwd=tmp_path)
    assert_refused(proc, "gold/doc.ann", "not UTF-8", "gold file")
    assert (tmp_path / "out.txt").read_text() == PREVIOUS


# -- a byte that is not UTF-8 anywhere in a gold file, a mention's text field included, is an error naming its line
# and byte; a prediction's text field stays lenient (replaced, with a warning)
@pytest.mark.parametrize("mode", [[], ["--brateval", "--level", "entities"]])
def test_a_gold_text_field_that_is_not_utf8_is_an_error_naming_line_and_byte(tmp_path: Path, mode: list[str]) -> None:
    gold, pred = recipes.one_document(tmp_path, GOLD, GOLD)
    latin1 = GOLD.replace("flask", "fl\u00e2sk").encode("latin-1")  # one byte, 0xE2, where UTF-8 wants two more
    (gold / "doc.ann").write_bytes(latin1)
    (tmp_path / "out.txt").write_text(PREVIOUS)
    proc = chemref("score", "brat", "gold", "pred", *mode, "-o", "out.txt", cwd=tmp_path)
    assert_refused(proc, "gold/doc.ann:2:", f"byte {latin1.index(0xE2)}", "not UTF-8", "gold file")
    assert (tmp_path / "out.txt").read_text() == PREVIOUS
    (gold / "doc.ann").write_bytes(GOLD.encode("utf-8"))
    (pred / "doc.ann").write_bytes(latin1)
    proc = chemref("score", "brat", "gold", "pred", *mode, "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "pred/doc.ann:2:" in proc.stderr and "U+FFFD" in proc.stderr


# -- one input folder inside the other: its files would be read by both sides
@pytest.mark.parametrize("mode", [[], ["--brateval", "--level", "entities"]])
@pytest.mark.parametrize("inner", ["pred", "gold"])
def test_a_folder_inside_the_other_sides_folder_is_refused(work: Path, mode: list[str], inner: str) -> None:
    outer = "pred" if inner == "gold" else "gold"
    shutil.copytree(work / inner, work / outer / "sub")
    args = ("gold", "gold/sub") if inner == "pred" else ("pred/sub", "pred")
    proc = chemref("score", "brat", *args, *mode, "-o", "out.txt", cwd=work)
    side = "prediction" if inner == "pred" else "gold"
    assert_refused(proc, f"the {side} folder is inside", "move it out")
    assert (work / "out.txt").read_text() == PREVIOUS


def test_a_folder_scored_against_itself_is_still_allowed(work: Path) -> None:
    proc = chemref("score", "brat", "gold", "gold/", "--json", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["relations"]["exact"]["coref_expanded"]["overall"]["f1"] == 1.0


# -- the outputs of one run are replaced together, or none is
def _no_temporaries(folder: Path) -> bool:
    return not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_a_page_name_too_long_is_refused_before_any_work(work: Path) -> None:
    proc = chemref("score", "brat", "gold", "pred", "-o", "out.txt", "--html", "p" * 250 + ".html", cwd=work)
    assert_refused(proc, "too long")
    assert (work / "out.txt").read_text() == PREVIOUS


def _file_size_limit(limit: int):  # type: ignore[no-untyped-def]
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_page_that_fails_late_leaves_the_report_as_it_was(work: Path) -> None:
    # files may grow to 20 kB: the report (about 7 kB) fits, the page (about 35 kB) does not
    proc = chemref("score", "brat", "gold", "pred", "--json", "-o", "out.txt", "--html", "page.html", cwd=work,
                   limits=_file_size_limit(20_000))
    assert_refused(proc, "page.html", "cannot write")
    assert (work / "out.txt").read_text() == PREVIOUS
    assert not (work / "page.html").exists() and _no_temporaries(work)
    assert "wrote" not in proc.stdout + proc.stderr


# -- a document name that is not UTF-8 is escaped in every output, never a traceback
@pytest.mark.parametrize("outputs", [["--html", "page.html"], ["--per-doc", "--markdown", "-o", "out.md"],
                                     ["--per-doc", "--json", "-o", "out.json"], ["--errors", "--csv", "-o", "out.csv"]])
def test_a_document_name_that_is_not_utf8_is_escaped_in_the_outputs(tmp_path: Path, outputs: list[str]) -> None:
    recipes.one_document(tmp_path, GOLD, GOLD.splitlines()[0] + "\n", name=recipes.NOT_UTF8_NAME)
    proc = chemref("score", "brat", "gold", "pred", *outputs, cwd=tmp_path)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    written = (tmp_path / outputs[-1]).read_bytes().decode("utf-8")  # UTF-8 throughout
    assert "r\\udce9action" in written
    if outputs[-1].endswith(".json"):
        assert recipes.NOT_UTF8_NAME in json.loads(written)["per_doc"]


def test_a_document_name_that_is_not_utf8_prints_on_a_strict_utf8_stdout(tmp_path: Path) -> None:
    recipes.one_document(tmp_path, GOLD, GOLD, name=recipes.NOT_UTF8_NAME)
    proc = chemref("score", "brat", "gold", "pred", "--per-doc", "--markdown", cwd=tmp_path,
                   env={"PYTHONIOENCODING": "utf-8:strict"})
    assert proc.returncode == 0, proc.stderr
    assert "| r\\udce9action |" in proc.stdout


# -- offsets longer than any text, and files whose every line earns a warning
@pytest.mark.parametrize("mode", [[], ["--brateval", "--level", "entities"]])
def test_an_offset_of_thousands_of_digits_is_an_error_naming_its_line(tmp_path: Path, mode: list[str]) -> None:
    recipes.one_document(tmp_path, GOLD, recipes.offset_digits(5_000))
    proc = chemref("score", "brat", "gold", "pred", *mode, cwd=tmp_path)
    assert_refused(proc, "pred/doc.ann:1:")
    assert len(proc.stderr) < 500  # the offset is not copied into the message


@pytest.mark.parametrize("kind, mode", [("unknown", []), ("reused", []), ("no text", ["--brateval", "--level",
                                                                                     "entities"])])
def test_a_million_lines_with_warnings_give_a_few_lines_of_warnings(tmp_path: Path, kind: str,
                                                                    mode: list[str]) -> None:
    recipes.one_document(tmp_path, GOLD, recipes.many_bad_lines(1_000_000, kind))
    proc = chemref("score", "brat", "gold", "pred", *mode, "--json", cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert len(proc.stderr.splitlines()) < 20
    assert "more lines with warnings; only the first 5 are listed" in proc.stderr
    assert len(json.loads(proc.stdout)["warnings"]) < 20


def test_a_zip_of_links_only_says_why_it_holds_no_ann_file(work: Path) -> None:
    import stat
    import zipfile

    with zipfile.ZipFile(work / "links.zip", "w") as zf:
        info = zipfile.ZipInfo("r001.ann")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, "/etc/hostname")
    proc = chemref("score", "brat", "gold", "links.zip", cwd=work)
    assert_refused(proc, "no .ann files found", "a symbolic link stored in the zip")
