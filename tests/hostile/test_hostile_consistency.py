"""Commands agree with each other: the page writers (``questions review``, ``questions baseline-page``)
create a missing output folder as every other writer does; a PMC package holding no article is an error (exit
2, one line) as an empty folder is; ``--trials`` is capped at the bound of ``--resamples``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chemref.errors import InputError
from chemref.scoring.stats.resampling import MAX_RESAMPLES, checked_draws
from tests.helpers import tar_package
from tests.hostile.cli_runner import CORPORA, assert_refused, chemref


def _questions(folder: Path) -> Path:
    path = folder / "q.jsonl"
    path.write_text(json.dumps({"id": "q1", "excerpt": "Yields rose [CITATION].", "source_file": "a.xml",
                                "target_doi": "10.1/x", "target_title": "A work"}) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["review", "baseline-page"])
def test_a_page_writer_creates_a_missing_folder(tmp_path: Path, command: str) -> None:
    _questions(tmp_path)
    proc = chemref("questions", command, "q.jsonl", "-o", "new/deeper/page.html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "new" / "deeper" / "page.html").is_file()


def test_a_page_under_a_file_is_still_refused(tmp_path: Path) -> None:
    _questions(tmp_path)
    (tmp_path / "file").write_text("x")
    assert_refused(chemref("questions", "review", "q.jsonl", "-o", "file/sub/page.html", cwd=tmp_path),
                   "not a folder")


@pytest.mark.parametrize("json_out", [(), ("--json",), ("-o", "out.txt")])
def test_a_package_without_an_article_is_an_error_as_an_empty_folder_is(tmp_path: Path, json_out: tuple) -> None:
    tar_package(tmp_path / "p.tar.gz", {"a/readme.txt": b"no article", "a/x.xml.gz": b"not read"})
    (tmp_path / "out.txt").write_text("previous\n")
    (tmp_path / "empty").mkdir()
    for given in ("p.tar.gz", "empty"):
        proc = chemref("jats", given, *json_out, cwd=tmp_path)
        assert_refused(proc, given)
        assert proc.stdout == ""
    assert (tmp_path / "out.txt").read_text() == "previous\n"


def test_a_package_with_an_article_still_reads(tmp_path: Path) -> None:
    article = sorted((CORPORA / "jats").glob("*.xml"))[0].read_bytes()
    tar_package(tmp_path / "p.tar.gz", {"a/readme.txt": b"x", "a/one.xml": article})
    proc = chemref("jats", "p.tar.gz", "--json", cwd=tmp_path)
    assert proc.returncode == 0 and len(proc.stdout.splitlines()) == 1, proc.stderr


def test_trials_are_bounded_as_resamples_are(tmp_path: Path) -> None:
    assert checked_draws(MAX_RESAMPLES, "trials") == MAX_RESAMPLES
    with pytest.raises(InputError, match="at most 100,000 trials"):
        checked_draws(MAX_RESAMPLES + 1, "trials")
    gold, pred = CORPORA / "brat" / "gold", CORPORA / "brat" / "pred"
    proc = chemref("score", "brat", gold, pred, pred, "--trials", "9999999999", cwd=tmp_path, timeout=60)
    assert_refused(proc, "at most 100,000 trials")
