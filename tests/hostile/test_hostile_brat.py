"""Hostile BRAT inputs to ``score brat``: links out of a scored folder, COREFERENCE chains counted before they
are expanded, dense relaxed matching, zip member names, predictions that are not text, and the smaller cases
(resamples, system names, offsets, reused ids). Each runs the CLI under a 1 GB address-space limit and a
time bound; inputs come from benchmarks/golden/hostile_recipes_brat.py at run time."""

from __future__ import annotations

import gzip
import json
import os
import random
import shutil
import stat
import sys
import zipfile
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes as recipes
from benchmarks.golden import hostile_recipes_brat as recipes_brat
from tests.hostile.cli_runner import PREVIOUS, assert_refused, chemref

SECRET = "SECRET-0f1e2d-NOT-FOR-OUTPUT"
# a loaded machine (two cores shared by several jobs) runs these several times slower than the benchmark's
# targets (benchmarks/bench_hostile.py holds them to 5 s); the bounds here catch quadratic behaviour, which
# took minutes or ran out of memory
SLOW = 120.0


# -- 3. symbolic links never lead out of a scored folder
def _secret_files(root: Path) -> tuple[Path, Path]:
    outside = root / "outside"
    outside.mkdir()
    text = outside / "secret.txt"
    text.write_text((SECRET + " ") * 200)
    ann = outside / "secret.ann"
    ann.write_text(f"T1\tReaction_product 0 {len(SECRET)}\t{SECRET}\n")
    return text, ann


@pytest.mark.parametrize("side", ["gold", "pred"])
@pytest.mark.slow
def test_links_out_of_a_scored_folder_are_not_followed(work: Path, side: str) -> None:
    text, ann = _secret_files(work)
    folder = work / side
    (folder / "r001.txt").unlink()
    os.symlink(text, folder / "r001.txt")
    (folder / "r002.ann").unlink()
    os.symlink(ann, folder / "r002.ann")
    os.symlink("../outside/secret.txt", folder / "r003.txt.tmp")
    (folder / "r003.txt").unlink()
    os.rename(folder / "r003.txt.tmp", folder / "r003.txt")  # a relative link, also out of the folder
    proc = chemref("score", "brat", "gold", "pred", "--errors", "--json", "--html", "page.html", cwd=work)
    assert proc.returncode == 0, proc.stderr
    page = (work / "page.html").read_text()
    for shown in (proc.stdout, proc.stderr, page):
        assert SECRET not in shown
        assert "outside/secret" not in shown  # not even where a link points
    assert proc.stderr.count("not followed") >= 3


def test_links_inside_the_folder_are_still_read(work: Path) -> None:
    (work / "pred" / "r001.txt").unlink()
    os.symlink("r002.txt", work / "pred" / "r001.txt")  # same folder: allowed
    proc = chemref("score", "brat", "gold", "pred", cwd=work)
    assert proc.returncode == 0 and "not followed" not in proc.stderr, proc.stderr


def test_symbolic_links_stored_in_a_zip_are_not_read(work: Path) -> None:
    path = work / "links.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for name in ("r001", "r003"):
            zf.writestr(f"{name}.ann", (work / "pred" / f"{name}.ann").read_text())
        for name in ("r001.txt", "r002.ann"):
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, f"/etc/{SECRET}")
    proc = chemref("score", "brat", "gold", path, "--errors", "--json", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert SECRET not in proc.stdout + proc.stderr
    assert "symbolic link" in proc.stderr


# -- 4. COREFERENCE chains are counted before they are expanded
@pytest.mark.slow
def test_a_150k_link_chain_is_refused_quickly_in_bounded_memory(tmp_path: Path) -> None:
    gold, pred = recipes.coref_folders(tmp_path, 150_000)  # 11 billion links once expanded
    (tmp_path / "out.txt").write_text(PREVIOUS)
    proc = chemref("score", "brat", gold, pred, "-o", tmp_path / "out.txt", cwd=tmp_path, timeout=SLOW)
    assert_refused(proc, "doc.ann", "COREFERENCE", "11,250,075,000", "--max-coref-links")
    assert (tmp_path / "out.txt").read_text() == PREVIOUS


@pytest.mark.slow
def test_ten_thousand_short_chains_within_the_limit_are_scored(tmp_path: Path) -> None:
    gold, pred = recipes_brat.folders(tmp_path, recipes_brat.coref_chains(10_000, 10),
                                      recipes_brat.coref_chains(10_000, 10, shift=1))
    proc = chemref("score", "brat", gold, pred, "--json", cwd=tmp_path, timeout=2 * SLOW)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    expanded = report["relations"]["relaxed_bipartite"]["coref_expanded"]["overall"]
    assert (expanded["tp"], expanded["fp"], expanded["fn"]) == (550_000, 0, 0)
    assert report["relations"]["exact"]["coref_expanded"]["overall"]["tp"] == 0


# -- 5. relaxed matching stays exact and near-linear on overlapping spans
def test_ten_thousand_nested_mentions_match_in_seconds(tmp_path: Path) -> None:
    gold, pred = recipes_brat.folders(tmp_path, recipes_brat.nested_mentions(10_000),
                                      recipes_brat.nested_mentions(10_000, shift=1))
    proc = chemref("score", "brat", gold, pred, "--json", cwd=tmp_path, timeout=SLOW)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["entities"]["relaxed_bipartite"]["overall"]["tp"] == 10_000
    assert report["entities"]["exact"]["overall"]["tp"] == 0


@pytest.mark.slow
def test_a_chain_of_mutually_overlapping_spans_matches_in_seconds(tmp_path: Path) -> None:
    gold, pred = recipes_brat.folders(tmp_path, recipes_brat.overlapping_chain(300),
                                      recipes_brat.overlapping_chain(300, shift=1))
    proc = chemref("score", "brat", gold, pred, "--json", cwd=tmp_path, timeout=SLOW)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    relaxed = report["relations"]["relaxed_bipartite"]
    assert relaxed["coref_expanded"]["overall"]["tp"] == 300 * 301 // 2
    assert relaxed["coref_not_expanded"]["overall"]["tp"] == 300


@pytest.mark.slow
def test_the_error_page_of_nested_mentions_is_linear(tmp_path: Path) -> None:
    n = 3_000
    gold, pred = recipes_brat.folders(tmp_path, recipes_brat.nested_mentions(n),
                                      recipes_brat.nested_mentions(n, shift=1), text_chars=2 * n + 10)
    proc = chemref("score", "brat", gold, pred, "--html", tmp_path / "page.html", "-o", tmp_path / "r.txt",
                   cwd=tmp_path, timeout=SLOW)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "page.html").stat().st_size < 2_000_000  # was 43 MB: every segment listed its mentions


# -- 7. zip members with absolute names, and subfolders
def _members(names: dict[str, str], work: Path) -> dict[str, str]:
    return {member: (work / "gold" / f"{doc}.ann").read_text() for member, doc in names.items()}


@pytest.mark.parametrize("layout", ["mixed", "absolute", "dot"])
def test_zip_members_with_absolute_names_pair_with_gold(work: Path, layout: str) -> None:
    prefix = {"mixed": ["", "/", ""], "absolute": ["/", "/", "/"], "dot": ["./", "/", "./"]}[layout]
    members = _members({f"{p}r00{i + 1}.ann": f"r00{i + 1}" for i, p in enumerate(prefix)}, work)
    recipes.small_zip(work / "sub.zip", members)
    proc = chemref("score", "brat", "gold", "sub.zip", "--json", cwd=work)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert json.loads(proc.stdout)["relations"]["exact"]["coref_expanded"]["overall"]["f1"] == 1.0


def test_gold_subfolders_pair_with_the_same_subfolders_in_a_zip(work: Path) -> None:
    nested = work / "nested"
    (nested / "batch").mkdir(parents=True)
    for f in (work / "gold").iterdir():
        shutil.copy(f, nested / "batch" / f.name)
    recipes.small_zip(work / "sub.zip", _members({f"batch/{d}.ann": d for d in ("r001", "r002", "r003")}, work))
    proc = chemref("score", "brat", "nested", "sub.zip", "--json", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["relations"]["exact"]["coref_expanded"]["overall"]["f1"] == 1.0
    assert "no prediction file" not in proc.stderr


# -- 14. predictions that are not UTF-8 text
@pytest.mark.parametrize("kind", ["utf-16", "gzip", "random", "utf-16-be"])
@pytest.mark.slow
def test_a_prediction_that_is_not_text_is_an_error_naming_it(work: Path, kind: str) -> None:
    ann = work / "pred" / "r002.ann"
    text = ann.read_text()
    if kind == "utf-16":
        data = text.encode("utf-16")
    elif kind == "utf-16-be":
        data = text.encode("utf-16-be")  # no byte order mark
    elif kind == "gzip":
        data = gzip.compress(text.encode())
    else:
        data = bytes(random.Random(7).randrange(128, 256) for _ in range(4000))
    ann.write_bytes(data)
    proc = chemref("score", "brat", "gold", "pred", "-o", "out.txt", cwd=work)
    assert_refused(proc, "r002.ann", "--unreadable-as-empty")
    assert (work / "out.txt").read_text() == PREVIOUS
    proc = chemref("score", "brat", "gold", "pred", "--unreadable-as-empty", "--json", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert "r002.ann" in proc.stderr and "scored as an empty prediction" in proc.stderr


# -- 15. smaller ones
def test_a_huge_number_of_resamples_is_refused(work: Path) -> None:
    proc = chemref("score", "brat", "gold", "pred", "--ci", "0.95", "--resamples", "100000000", cwd=work)
    assert_refused(proc, "resamples", "100,000")


def test_a_newline_in_system_names_cannot_break_the_leaderboard(work: Path) -> None:
    proc = chemref("score", "brat", "gold", "pred", "pred", "--names", "a\n| forged | row |,b", "--markdown",
                   cwd=work)
    assert_refused(proc, "name")


@pytest.mark.parametrize("digits", ["\u0660 \u0664", "\uff10 \uff14", "0 \u0664"])
def test_offsets_are_ascii_digits_only(work: Path, digits: str) -> None:
    ann = work / "pred" / "r001.ann"
    ann.write_text(ann.read_text() + f"T99\tReaction_product {digits}\tabcd\n", encoding="utf-8")
    proc = chemref("score", "brat", "gold", "pred", "-o", "out.txt", cwd=work)
    assert_refused(proc, "r001.ann", "digits 0-9")


def test_a_reused_relation_id_is_warned_about(work: Path) -> None:
    ann = work / "pred" / "r001.ann"
    lines = ann.read_text().splitlines()
    rel = next(line for line in lines if line.startswith("R"))
    first_t = [line.split("\t")[0] for line in lines if line.startswith("T")][:2]
    ann.write_text(ann.read_text() + f"{rel.split(chr(9))[0]}\tCOREFERENCE Arg1:{first_t[0]} Arg2:{first_t[1]}\n")
    proc = chemref("score", "brat", "gold", "pred", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert f"duplicate id {rel.split(chr(9))[0]}" in proc.stderr


def test_a_gold_document_past_the_coref_limit_is_refused_before_its_prediction_is_read(tmp_path: Path) -> None:
    from chemref.errors import ScoringError
    from chemref.scoring.brat.score import score_brat

    gold, pred = recipes.coref_folders(tmp_path, 2_000)  # 2,001,000 links once expanded
    (pred / "doc.ann").write_bytes(b"\xff\xfe" + "T1\tX 0 1\tx\n".encode("utf-16-le"))  # unreadable if it were read
    with pytest.raises(ScoringError, match="COREFERENCE chains expand to 2,001,000 links") as refused:
        score_brat(gold, pred)
    assert "gold" in str(refused.value) and "not UTF-8" not in str(refused.value)
