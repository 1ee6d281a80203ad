"""BRAT predictions that repeat one line many times (a reused id: "both are scored"): an identical line is read
once, so that scoring costs what the distinct lines cost, with the same counts and the same warnings as
before (the first few reused ids listed, the rest counted)."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from chemref.brat import reader
from chemref.brat.reader import LINE_WARNINGS, REPEATED_LINES, scan_ann
from chemref.scoring.brat import score_brat
from tests.hostile.cli_runner import CORPORA, chemref

GOLD = CORPORA / "brat" / "gold"
LINE = "R1\tREACTION_ASSOCIATED Arg1:T5 Arg2:T1"


def test_an_identical_relation_line_is_read_once_and_warned_about_each_time() -> None:
    n = REPEATED_LINES + 10
    text = "T1\tA 0 3\tabc\nT5\tB 4 6\tde\n" + f"{LINE}\n" * n + "R1\tOTHER Arg1:T1 Arg2:T5\n" + f"{LINE}\n"
    ments, rels, diags = scan_ann(text, "p.ann")
    assert ments == {"T1": ("A", ((0, 3),)), "T5": ("B", ((4, 6),))}
    assert rels == [("REACTION_ASSOCIATED", "T5", "T1", 3), ("OTHER", "T1", "T5", n + 3)]
    assert diags[:2] == ["p.ann:4: duplicate id R1 (line 3); both relations are scored (ids must be unique)",
                         "p.ann:5: duplicate id R1 (line 4); both relations are scored (ids must be unique)"]
    assert len(diags) == LINE_WARNINGS + 1
    assert diags[-1] == f"p.ann: {n + 1 - LINE_WARNINGS:,} more lines with warnings; only the first 5 are listed"


TEXTS = [
    "T1\tA 0 3\tabc\nT1\tB 0 3\tabc\nT1\tA 0 3\tabc\nT2\tC 4 6\n",
    "T1\tA 0 3;5 7\tabc\n\nR1\tX Arg2:T1 Arg1:T2\nR1\tX Arg2:T1 Arg1:T2\r\nT2\tC 4 6\n#1\tNote T1\tx\nR2\tY Arg1:T1 Arg2:T2\n",
    "T1\tA 0 3\nR1\tX Arg1:T1 Arg2:T1\n" * 30 + "Q junk\n",
    *[path.read_text(encoding="utf-8") * 3 for path in sorted(GOLD.glob("*.ann"))],
]


@pytest.mark.parametrize("text", TEXTS)
def test_reading_each_distinct_line_once_gives_what_reading_every_line_does(text: str, monkeypatch) -> None:
    ments, rels, diags = scan_ann(text, "p.ann")
    monkeypatch.setattr(reader, "REPEATED_LINES", -1)
    once = scan_ann(text, "p.ann")
    assert (once[0], once[2]) == (ments, diags) and list(ments) == list(once[0])
    assert once[1] == list({rel[:3]: rel for rel in reversed(rels)}.values())[::-1]


def test_an_identical_mention_line_still_loses_to_a_later_different_one_and_wins_after_it(monkeypatch) -> None:
    monkeypatch.setattr(reader, "REPEATED_LINES", -1)
    ments, _, diags = scan_ann(TEXTS[0], "p.ann")
    assert ments == {"T1": ("A", ((0, 3),)), "T2": ("C", ((4, 6),))}
    assert diags == ["p.ann:2: duplicate id T1 (line 1); the later line wins",
                     "p.ann:3: duplicate id T1 (line 2); the later line wins"]


def test_repeated_lines_give_the_counts_of_the_distinct_ones(tmp_path: Path) -> None:
    shutil.copytree(GOLD, tmp_path / "gold")
    shutil.copytree(GOLD, tmp_path / "pred")
    once = score_brat(tmp_path / "gold", tmp_path / "pred").to_dict()
    ann = tmp_path / "pred" / "r001.ann"
    ann.write_text(ann.read_text(encoding="utf-8") + f"{LINE}\n" * 50_000
                   + "T1\tentity 11 52\t4-Chloro-2-nitrophenol (1.20 g, 6.9 mmol)\n" * 50_000, encoding="utf-8")
    repeated = score_brat(tmp_path / "gold", tmp_path / "pred").to_dict()
    warnings = repeated.pop("warnings")
    assert once.pop("warnings") == [] and len([w for w in warnings if "duplicate id" in w]) == 2 * LINE_WARNINGS
    assert warnings[LINE_WARNINGS].endswith(": 49,995 more lines with warnings; only the first 5 are listed")
    assert repeated == once


def test_a_zip_of_one_relation_line_repeated_scores_in_bounded_time(tmp_path: Path) -> None:
    shutil.copytree(GOLD, tmp_path / "gold")
    with zipfile.ZipFile(tmp_path / "p.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for ann in sorted(GOLD.glob("*.ann")):
            archive.writestr(ann.name, ann.read_text(encoding="utf-8") + (f"{LINE}\n" * 33 + "#x\n") * 40_000)
    proc = chemref("score", "brat", "gold", "p.zip", "--errors", "--html", "p.html",
                   "--max-zip-ratio", "1000", cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "1,319,995 more lines with warnings" in proc.stderr
    assert proc.seconds < 20  # type: ignore[attr-defined]  # 3 x 1.3 M lines: about 3 s (13 s when each was read)
