"""A JSON line never carries a character that controls a terminal: C1 controls (U+009B reads as CSI on a terminal
that honours 8-bit controls) and bidirectional overrides from an article are written as ``\\u`` escapes, as the
line separators are; the value read back is the same."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.golden import hostile_recipes as recipes
from chemref.jsonl import json_line
from tests.hostile.cli_runner import chemref

HOSTILE = "Yields rose\u009b31m by 5 %\u202e [CIT] \u2066x\u2069 \u0085 \u2028 é"
RAW = ("\u009b", "\u202e", "\u2066", "\u0085", "\u2028")


def test_a_json_line_escapes_terminal_controls_and_reads_back_the_same() -> None:
    line = json_line({"text": HOSTILE, HOSTILE: 1})
    assert not any(ch in line for ch in RAW) and "é" in line
    assert json.loads(line) == {"text": HOSTILE, HOSTILE: 1}


def test_jats_json_prints_no_terminal_control_from_an_article(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_text(recipes.jats_article(HOSTILE), encoding="utf-8")
    proc = chemref("jats", "a.xml", "--json", "--no-progress", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "\\u009b31m" in proc.stdout and not any(ch in proc.stdout for ch in RAW)
