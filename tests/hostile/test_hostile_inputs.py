"""Hostile inputs through the CLI: one ``chemref: error:`` line, exit 2, no traceback, earlier outputs
untouched, within seconds and under a 1 GB address-space limit. Inputs come from benchmarks/golden/hostile_recipes.py at run time."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes as recipes  # noqa: E402
from tests.hostile.cli_runner import CORPORA, PREVIOUS, assert_refused, chemref  # noqa: E402


def _brat_members() -> dict[str, str]:
    return {f"{n}.ann": (CORPORA / "brat" / "pred" / f"{n}.ann").read_text() for n in ("r001", "r002", "r003")}


# -- 1. COREFERENCE chains
@pytest.mark.slow
def test_long_coref_chain_is_refused_naming_the_document(tmp_path: Path) -> None:
    gold, pred = recipes.coref_folders(tmp_path, 3000)  # 4.5 million links once expanded
    (tmp_path / "out.txt").write_text(PREVIOUS)
    proc = chemref("score", "brat", gold, pred, "-o", tmp_path / "out.txt", cwd=tmp_path)
    assert_refused(proc, "doc.ann", "COREFERENCE", "--max-coref-links")
    assert (tmp_path / "out.txt").read_text() == PREVIOUS


@pytest.mark.slow
def test_coref_chain_within_the_limit_is_scored_quickly(tmp_path: Path) -> None:
    gold, pred = recipes.coref_folders(tmp_path, 300)  # 45,150 links per side
    proc = chemref("score", "brat", gold, pred, "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert '"f1": 1.0' in proc.stdout


# -- 2 and 4. zips
@pytest.mark.slow
@pytest.mark.parametrize("kind, needle", [
    ("bomb", "limit"), ("flipped", "damaged"), ("encrypted", "encrypted"), ("duplicate", "more than once"),
])
def test_hostile_zips_are_refused(work: Path, kind: str, needle: str) -> None:
    path = work / f"{kind}.zip"
    if kind == "bomb":
        recipes.zip_bomb(path, megabytes=200, name="r001.ann")
    elif kind == "flipped":
        recipes.flipped_zip(path, _brat_members())
    elif kind == "encrypted":
        recipes.encrypted_zip(path, _brat_members())
    else:
        recipes.duplicate_member_zip(path, "r001.ann", ("T1\tX 0 1\ta\n", "T1\tY 0 1\ta\n"))
    for extra in ((), ("--brateval",)):
        proc = chemref("score", "brat", *extra, "gold", path, "-o", "out.txt", cwd=work)
        assert_refused(proc, f"{kind}.zip", needle)
        assert (work / "out.txt").read_text() == PREVIOUS


@pytest.mark.slow
def test_zip_limits_can_be_raised(work: Path) -> None:
    recipes.zip_bomb(work / "big.zip", megabytes=60, name="r001.ann")
    proc = chemref("score", "brat", "gold", "big.zip", "--max-member-mb", "100", "--max-zip-ratio", "2000",
                   cwd=work)
    assert "limit" not in proc.stderr  # past the limits: read (and found to hold no annotations)


# -- 3. outputs over inputs
@pytest.mark.slow
@pytest.mark.parametrize("args, victim", [
    (("score", "brat", "gold", "pred", "-o", "gold/r001.ann"), "gold/r001.ann"),
    (("score", "brat", "gold", "pred", "-o", "pred/r002.txt"), "pred/r002.txt"),
    (("jats", "a.xml", "--json", "-o", "a.xml"), "a.xml"),
    (("jats", "a.xml", "--json", "-o", "link.xml"), "a.xml"),
    (("score", "ranking", "G.jsonl", "P.jsonl", "-o", "G.jsonl"), "G.jsonl"),
    (("score", "pubmedqa", "g.json", "p.json", "-o", "p.json"), "p.json"),
    (("baseline", "bm25", "G.jsonl", "-o", "G.jsonl"), "G.jsonl"),
])
def test_an_output_never_replaces_an_input(work: Path, args: tuple, victim: str) -> None:
    shutil.copy(CORPORA / "jats" / "sample_zinc_knuckle.xml", work / "a.xml")
    os.symlink("a.xml", work / "link.xml")
    (work / "G.jsonl").write_text('{"id": "q1", "relevant": ["d1"]}\n')
    (work / "P.jsonl").write_text('{"id": "q1", "ranking": ["d1"]}\n')
    (work / "g.json").write_text('{"1": "yes"}')
    (work / "p.json").write_text('{"1": "yes"}')
    before = (work / victim).read_bytes()
    proc = chemref(*args, cwd=work)
    # an output through a link is refused as a link, before the overwrite check would name the input
    assert_refused(proc, "symbolic link" if "link.xml" in args else "would overwrite")
    assert (work / victim).read_bytes() == before


# -- 5. super-linear rules
@pytest.mark.slow  # asserts a timing
def test_a_sentence_of_50k_digits_builds_in_seconds(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_text(recipes.jats_article(recipes.digits_sentence(50_000)))
    proc = chemref("questions", "build", "a.xml", "-o", "q.jsonl", "--no-progress", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.seconds < 20  # type: ignore[attr-defined]  # was a minute; ~1 s plus start-up


# -- 6. a failed run keeps the previous output
@pytest.mark.slow
def test_failed_jats_run_keeps_the_previous_output(work: Path) -> None:
    whole = (CORPORA / "jats" / "sample_zinc_knuckle.xml").read_bytes()
    (work / "cut.xml").write_bytes(whole[: len(whole) // 2])
    proc = chemref("jats", "cut.xml", "--json", "-o", "out.txt", cwd=work)
    assert_refused(proc, "cut.xml")
    assert (work / "out.txt").read_text() == PREVIOUS


# -- 8. deep JSON, files larger than memory, long lines
@pytest.mark.slow
def test_deeply_nested_json_is_one_error(work: Path) -> None:
    (work / "g.json").write_text(recipes.deep_json())
    (work / "p.json").write_text("{}")
    assert_refused(chemref("score", "pubmedqa", "g.json", "p.json", "-o", "out.txt", cwd=work), "g.json", "nested")
    (work / "G.jsonl").write_text(recipes.deep_json() + "\n")
    (work / "P.jsonl").write_text('{"id": "q1", "ranking": []}\n')
    assert_refused(chemref("score", "ranking", "G.jsonl", "P.jsonl", cwd=work), "G.jsonl", "nested")
    assert (work / "out.txt").read_text() == PREVIOUS


@pytest.mark.slow
@pytest.mark.parametrize("args, big", [
    (("score", "pubmedqa", "big", "p.json", "-o", "out.txt"), "big"),
    (("score", "ranking", "big", "P.jsonl", "-o", "out.txt"), "big"),
    (("jats", "big", "--json", "-o", "out.txt"), "big"),
    (("score", "brat", "gold", "pred", "-o", "out.txt"), "pred/r001.ann"),
])
def test_a_file_larger_than_memory_is_named(work: Path, args: tuple, big: str) -> None:
    (work / "p.json").write_text("{}")
    (work / "P.jsonl").write_text('{"id": "q1", "ranking": []}\n')
    if big.endswith(".ann"):
        (work / big).unlink()
    recipes.sparse_file(work / big, 4 << 30)  # 4 GiB, a hole on disk
    proc = chemref(*args, cwd=work)
    assert_refused(proc, big, "limit")
    assert (work / "out.txt").read_text() == PREVIOUS


# -- 9 and 10. FIFOs, symbolic links
@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_fifos_never_hang(work: Path) -> None:
    recipes.fifo(work / "pipe.xml")
    assert_refused(chemref("jats", "pipe.xml", "-o", "out.txt", cwd=work, timeout=20), "pipe.xml", "regular file")
    recipes.fifo(work / "g.json")
    (work / "p.json").write_text("{}")
    assert_refused(chemref("score", "pubmedqa", "g.json", "p.json", cwd=work, timeout=20), "regular file")
    recipes.fifo(work / "pred" / "r009.ann")
    proc = chemref("score", "brat", "gold", "pred", cwd=work, timeout=20)
    assert proc.returncode == 0 and "r009.ann" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_symbolic_links_do_not_leave_the_input_folder(work: Path) -> None:
    os.symlink("/", work / "pred" / "root")
    os.symlink("loop.ann", work / "pred" / "loop.ann")
    proc = chemref("score", "brat", "gold", "pred", cwd=work, timeout=20)
    assert proc.returncode == 0, proc.stderr
    assert "not followed" in proc.stderr and "loop.ann" in proc.stderr
