"""Inputs that are neither regular files nor folders (a device, a FIFO), named on the command line or in a
``--files-from`` list: refused before any work by the one input check, with the list's name and line, exit 2,
and nothing left behind (no output, no staging folder in the way of the next run)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.hostile.cli_runner import CORPORA, assert_refused, chemref

ARTICLE = CORPORA / "jats" / "sample_zinc_knuckle.xml"


def _special(work: Path, kind: str) -> str:
    if kind == "device":
        return "/dev/zero"
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    os.mkfifo(work / "pipe.xml")
    return str(work / "pipe.xml")


@pytest.mark.slow
@pytest.mark.parametrize("kind, what", [("device", "a character device"), ("fifo", "a FIFO")])
def test_a_listed_device_or_fifo_is_refused_before_any_work(tmp_path: Path, kind: str, what: str) -> None:
    special = _special(tmp_path, kind)
    (tmp_path / "list.txt").write_text(f"{ARTICLE}\n{special}\n")
    proc = chemref("questions", "build", "--files-from", "list.txt", "-o", "q.jsonl", cwd=tmp_path, timeout=30)
    assert_refused(proc, "list.txt:2:", special, what)
    assert "building" not in proc.stderr  # no article was built first
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "pipe.xml") == ["list.txt"]
    proc = chemref("jats", "--files-from", "list.txt", cwd=tmp_path, timeout=30)
    assert_refused(proc, "list.txt:2:", what)
    (tmp_path / "list.txt").write_text(f"{ARTICLE}\n")
    proc = chemref("questions", "build", "--files-from", "list.txt", "-o", "q.jsonl", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr  # nothing in the way of the next run


@pytest.mark.slow
@pytest.mark.parametrize("kind, what", [("device", "a character device"), ("fifo", "a FIFO")])
def test_a_device_or_fifo_given_as_input_is_named_for_what_it_is(tmp_path: Path, kind: str, what: str) -> None:
    special = _special(tmp_path, kind)
    proc = chemref("questions", "build", ARTICLE, special, "-o", "q.jsonl", cwd=tmp_path, timeout=30)
    assert_refused(proc, special, what)
    assert "no such file" not in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "pipe.xml") == []


@pytest.mark.slow
def test_a_listed_name_holding_a_nul_character_is_named_with_its_line(tmp_path: Path) -> None:
    (tmp_path / "list.txt").write_text(f"{ARTICLE}\na\0b.xml\n")
    proc = chemref("questions", "build", "--files-from", "list.txt", "-o", "q.jsonl", cwd=tmp_path, timeout=30)
    assert_refused(proc, "list.txt:2:", "a\\x00b.xml", "NUL")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["list.txt"]
