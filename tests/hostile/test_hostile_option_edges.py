"""Option values and files at the edge that gave a traceback instead of one ``chemref: error:`` line: a size
limit whose bytes overflow, a retry count whose backoff overflows, a ``source_file`` holding a NUL character,
a staging folder that is a symbolic link (or a file) on a first run."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes as recipes
from chemref.inputs.contained import corpus_article
from chemref.questions.judge.client import MAX_WAIT, backoff
from tests.hostile.cli_runner import CORPORA, assert_refused, chemref


@pytest.mark.parametrize("option", ["--max-member-mb", "--max-archive-mb"])
def test_a_size_limit_too_large_to_count_in_bytes_is_one_error_line(work: Path, option: str) -> None:
    proc = chemref("score", "brat", "gold", "pred", option, "1e308", cwd=work, timeout=60)
    assert_refused(proc, option, "too large")


def test_the_backoff_of_a_late_try_is_the_longest_wait_not_an_overflow() -> None:
    assert backoff(1100, 0.0) == 0.0
    assert backoff(1100, 1.0) == MAX_WAIT
    assert backoff(3, 1.0, rand=lambda a, b: 1.0) == 8.0


def test_a_judge_run_with_many_retries_writes_its_error_lines(tmp_path: Path) -> None:
    pytest.importorskip("httpx")
    requests = recipes.judge_files(tmp_path / "build")["requests"]
    (tmp_path / "one.jsonl").write_text(requests.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    proc = chemref("questions", "judge", "run", "one.jsonl", "--endpoint", "http://127.0.0.1:1/v1", "-o", "a.jsonl",
                   "--max-retries", "1100", "--retry-wait", "0", "--timeout", "1", "--no-progress", cwd=tmp_path,
                   timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    (row,) = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text(encoding="utf-8").splitlines()]
    assert row["error"]["code"] == "connection" and "1101 tries" in row["error"]["message"]


def test_a_source_file_holding_a_nul_is_refused_as_no_file_name() -> None:
    assert corpus_article("corp/a0.xml\x00x", [Path.cwd()]) == (
        None, "it holds a NUL character, which no file name holds")


def test_difficulty_with_a_nul_in_a_source_file_is_one_error_line(tmp_path: Path) -> None:
    (tmp_path / "corp").mkdir()
    shutil.copy(sorted((CORPORA / "jats").glob("*.xml"))[0], tmp_path / "corp" / "a0.xml")
    record = {"id": "q1", "excerpt": "a claim [CITATION].", "source_file": "corp/a0.xml\x00x", "score": 1.0,
              "target_title": "A title", "target_doi": "10.1/x"}
    (tmp_path / "q.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    proc = chemref("questions", "difficulty", "q.jsonl", "-o", "d.jsonl", "--corpus", "corp", cwd=tmp_path,
                   timeout=60)
    assert_refused(proc, "NUL character")
    assert not (tmp_path / "d.jsonl").exists()


@pytest.mark.parametrize("kind", ["link", "file"])
def test_a_staging_folder_that_is_a_link_or_a_file_is_one_error_line_on_a_first_run(tmp_path: Path,
                                                                                      kind: str) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(sorted((CORPORA / "jats").glob("*.xml"))[0], corpus / "a.xml")
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep").write_text("kept\n")
    (tmp_path / "out").mkdir()
    staging = tmp_path / "out" / ".q.jsonl.chemref-build"
    if kind == "link":
        os.symlink("../victim", staging)
    else:
        staging.write_text("not a folder\n")
    proc = chemref("questions", "build", "corpus", "-o", "out/q.jsonl", "--no-progress", cwd=tmp_path, timeout=60)
    assert_refused(proc, ".q.jsonl.chemref-build", "symbolic link" if kind == "link" else "not a folder")
    assert (victim / "keep").read_text() == "kept\n" and not (tmp_path / "out" / "q.jsonl").exists()
