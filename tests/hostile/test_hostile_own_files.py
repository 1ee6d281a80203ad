"""chemref writes only its own files: a lock file that is a link (symbolic or hard) is refused and its target
left as it was; an output that is a symbolic link is refused, for every kind of output; ``judge run -o`` onto a
file that is not a Batch output file (or holds lines of another shape with requested ids) is refused rather
than trimmed; ``judge apply --report`` onto the build report it reads is refused; ``--format parquet`` without
pyarrow is one line before any shard is written."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes as recipes
from tests.hostile.cli_runner import CORPORA, ROOT, assert_refused, chemref

SAMPLE = CORPORA / "jats" / "sample_zinc_knuckle.xml"
VICTIM = "someone else's file\n"
sys.path.insert(0, str(ROOT / "tests"))
from judge_server import write_requests


def _link(kind: str, victim: Path, link: Path) -> None:
    if kind == "symbolic":
        os.symlink(victim, link)
    else:
        os.link(victim, link)


# -- lock files
@pytest.mark.parametrize("kind", ["symbolic", "hard"])
@pytest.mark.parametrize("command", ["build", "judge run"])
def test_a_lock_file_that_is_a_link_is_refused_and_its_target_kept(tmp_path: Path, kind: str,
                                                                   command: str) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text(VICTIM)
    if command == "build":
        _link(kind, victim, tmp_path / ".q.jsonl.chemref.lock")
        args = ("questions", "build", SAMPLE, "-o", "q.jsonl", "--no-progress")
    else:
        write_requests(tmp_path / "req.jsonl", ["a"])
        _link(kind, victim, tmp_path / ".o.jsonl.lock")
        args = ("questions", "judge", "run", "req.jsonl", "--endpoint", "http://127.0.0.1:9/v1", "-o", "o.jsonl",
                "--max-retries", "0", "--no-progress")
    proc = chemref(*args, cwd=tmp_path, timeout=60)
    assert_refused(proc, "lock file", "link")
    assert victim.read_text() == VICTIM
    assert not (tmp_path / "q.jsonl").exists() and not (tmp_path / "o.jsonl").exists()


# -- outputs through a symbolic link: refused, for every output
@pytest.mark.parametrize("option", ["-o", "--rejected", "--report"])
def test_a_build_output_that_is_a_symbolic_link_is_refused(tmp_path: Path, option: str) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text(VICTIM)
    names = {"-o": "q.jsonl", "--rejected": "r.jsonl", "--report": "report.json"}
    os.symlink(victim, tmp_path / names[option])
    args = ["-o", "q.jsonl"] + ([option, names[option]] if option != "-o" else [])
    proc = chemref("questions", "build", SAMPLE, *args, "--no-progress", cwd=tmp_path, timeout=60)
    assert_refused(proc, "symbolic link")
    assert victim.read_text() == VICTIM and (tmp_path / names[option]).is_symlink()


@pytest.mark.parametrize("command", ["jats", "score brat", "judge prepare", "judge run"])
def test_a_report_or_file_output_that_is_a_symbolic_link_is_refused(tmp_path: Path, command: str) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text(VICTIM)
    os.symlink(victim, tmp_path / "out.jsonl")
    write_requests(tmp_path / "req.jsonl", ["a"])
    shutil.copytree(CORPORA / "brat" / "gold", tmp_path / "gold")
    args = {"jats": ("jats", SAMPLE, "--json", "-o", "out.jsonl"),
            "score brat": ("score", "brat", "gold", "gold", "-o", "out.jsonl"),
            "judge prepare": ("questions", "judge", "prepare", "req.jsonl", "--model", "m", "-o", "out.jsonl"),
            "judge run": ("questions", "judge", "run", "req.jsonl", "--endpoint", "http://127.0.0.1:9/v1", "-o",
                          "out.jsonl", "--no-progress")}[command]
    proc = chemref(*args, cwd=tmp_path, timeout=60)
    assert_refused(proc, "symbolic link")
    assert victim.read_text() == VICTIM and (tmp_path / "out.jsonl").is_symlink()


# -- judge run -o onto a file that is not its output
@pytest.mark.parametrize("content", [
    '{"custom_id": "a", "note": "my own notes"}\n',
    '{"id": "x", "custom_id": "a", "response": null, "error": null}\n',
    '{"id": "x", "custom_id": "a", "response": {"status_code": "200"}, "error": null}\n',
    '{"id": "x", "custom_id": "a", "response": null, "error": {"code": "c"}, "extra": 1}\n'])
def test_judge_run_onto_a_file_that_is_not_its_output_is_refused(tmp_path: Path, content: str) -> None:
    write_requests(tmp_path / "req.jsonl", ["a", "b"])
    (tmp_path / "o.jsonl").write_text(content)
    proc = chemref("questions", "judge", "run", "req.jsonl", "--endpoint", "http://127.0.0.1:9/v1", "-o",
                   "o.jsonl", "--max-retries", "0", "--no-progress", cwd=tmp_path, timeout=60)
    assert_refused(proc, "o.jsonl:1", "Batch output")
    assert (tmp_path / "o.jsonl").read_text() == content


def test_judge_apply_report_onto_the_build_report_it_reads_is_refused(tmp_path: Path) -> None:
    built = recipes.judge_files(tmp_path / "b")
    for path in built.values():
        shutil.copyfile(path, tmp_path / ("report.json" if path.name == "report.json" else path.name))
    before = (tmp_path / "report.json").read_bytes()
    recipes.judge_responses(tmp_path / "responses.jsonl", lambda rows: None)
    proc = chemref("questions", "judge", "apply", "questions.jsonl", "responses.jsonl", "--rejected",
                   "rejected.jsonl", "-o", "j.jsonl", "--report", "report.json", cwd=tmp_path, timeout=60)
    assert_refused(proc, "report.json", "overwrite the input")
    assert (tmp_path / "report.json").read_bytes() == before and not (tmp_path / "j.jsonl").exists()


# -- Parquet without pyarrow
def test_parquet_without_pyarrow_is_one_line_before_any_shard(tmp_path: Path) -> None:
    missing = ("import sys\nsys.modules['pyarrow'] = None\nsys.modules['pyarrow.parquet'] = None\n"
               "from chemref.cli import main\nsys.exit(main(sys.argv[1:]))\n")
    proc = subprocess.run([sys.executable, "-c", missing, "questions", "build", CORPORA / "jats", "-o", "out/",
                           "--format", "parquet", "--shard-articles", "1", "--no-progress"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert_refused(proc, "pyarrow")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_judge_run_keeps_its_own_error_lines_format(tmp_path: Path) -> None:
    """Its own output (answers and error lines) is still resumed: the check refuses only other shapes."""
    write_requests(tmp_path / "req.jsonl", ["a", "b"])
    line = {"id": "batch_req_1", "custom_id": "a", "response": None, "error": {"code": "timeout", "message": "m"}}
    (tmp_path / "o.jsonl").write_text(json.dumps(line) + "\n")
    proc = chemref("questions", "judge", "run", "req.jsonl", "--endpoint", "http://127.0.0.1:9/v1", "-o",
                   "o.jsonl", "--max-retries", "0", "--no-progress", cwd=tmp_path, timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    rows = [json.loads(x) for x in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert sorted(r["custom_id"] for r in rows) == ["a", "b"] and all(r["error"]["code"] == "connection" for r in rows)
