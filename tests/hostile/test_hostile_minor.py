"""Smaller hostile cases: outputs that keep what was read, identifiers and names from untrusted files, options
checked against their inputs, state files never overwritten by an output. Each runs the CLI under a 1 GB
address-space limit and a time bound."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes_minor as recipes  # noqa: E402
from tests.hostile.cli_runner import CORPORA, PREVIOUS, assert_refused, chemref  # noqa: E402

SAMPLE = CORPORA / "jats" / "sample_zinc_knuckle.xml"


# -- jats -o FILE writes what -o - prints
def test_jats_output_file_keeps_the_articles_that_were_read(work: Path) -> None:
    (work / "mix").mkdir()
    shutil.copy(SAMPLE, work / "mix" / "a.xml")
    (work / "mix" / "b.xml").write_text(recipes.UNCLOSED_ARTICLE)
    piped = chemref("jats", "mix", "--json", "-o", "-", cwd=work)
    written = chemref("jats", "mix", "--json", "-o", "out.txt", cwd=work)
    assert piped.returncode == written.returncode == 2
    assert (work / "out.txt").read_text() == piped.stdout  # the good article is not dropped
    assert [json.loads(line)["file"] for line in piped.stdout.splitlines()] == ["mix/a.xml"]
    assert "mix/b.xml" in written.stderr and "1 input could not be read" in written.stderr
    assert "Traceback" not in written.stderr


def test_jats_output_file_is_kept_when_nothing_could_be_read(work: Path) -> None:
    (work / "b.xml").write_text(recipes.UNCLOSED_ARTICLE)
    assert_refused(chemref("jats", "b.xml", "--json", "-o", "out.txt", cwd=work), "b.xml")
    assert (work / "out.txt").read_text() == PREVIOUS


# -- ids read from JATS are validated; ids of questions are one token
def test_a_forged_pmcid_is_a_diagnostic_and_never_an_id(tmp_path: Path) -> None:
    source = (CORPORA / "jats" / "sample_laccase_kinetics.xml").read_text(encoding="utf-8")
    (tmp_path / "a.xml").write_text(recipes.forged_id_article(source), encoding="utf-8")
    (tmp_path / "b.xml").write_text(recipes.forged_id_article(source, kind="pmid"), encoding="utf-8")
    proc = chemref("jats", "a.xml", "b.xml", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    first, second = (json.loads(line) for line in proc.stdout.splitlines())
    assert first["pmcid"] is None and second["pmid"] is None
    for row, name in ((first, "PMCID"), (second, "PMID")):
        [diag] = [d for d in row["diagnostics"] if d["code"] == "id-invalid"]
        assert name in diag["message"] and "\\r" in diag["message"] and "\r" not in diag["message"]
    proc = chemref("questions", "build", "a.xml", "-o", "q.jsonl", "--no-progress", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    ids = [json.loads(line)["id"] for line in (tmp_path / "q.jsonl").read_text().splitlines()]
    assert ids and all(i.startswith("a-p") for i in ids)


def test_question_ids_from_file_names_hold_no_white_space(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    shutil.copy(CORPORA / "jats" / "sample_cu_tio2_co2.xml", tmp_path / "in" / "cu\ttio2 \nco2.xml")
    proc = chemref("questions", "build", "in", "-o", "q.jsonl", "--no-progress", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    ids = [json.loads(line)["id"] for line in (tmp_path / "q.jsonl").read_text().splitlines()]
    assert ids and all(i.startswith("cu_tio2_co2-p") for i in ids)
