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
