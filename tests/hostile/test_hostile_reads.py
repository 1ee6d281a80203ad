"""What chemref reads besides articles and annotations: selector weights, file lists, PMC file lists, scores,
limits and seeds given as options, links in packages. Each is a regular file, checked first, and checked
against what it may hold before it is used. Also: forked workers never outlive a failed parent. Through the
CLI under a 1 GB address-space limit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes as recipes
from tests.hostile.cli_runner import CORPORA, ROOT, _limit_memory, assert_refused, chemref

SAMPLE = CORPORA / "jats" / "sample_zinc_knuckle.xml"
SHIPPED = ROOT / "chemref" / "questions" / "data" / "selector.json"


# -- 6. selector weight files
def _selector(edit) -> str:  # type: ignore[no-untyped-def]
    value = json.loads(SHIPPED.read_text(encoding="utf-8"))
    edit(value)
    return json.dumps(value)


_BAD_SELECTORS = {
    "NaN weight": lambda s: s["weights"].update(findability=float("nan")),
    "Infinity bias": lambda s: s.update(bias=float("inf")),
    "-Infinity mean": lambda s: s["means"].update(method=float("-inf")),
    "huge exponent": None,
    "threshold 7.5": lambda s: s.update(threshold=7.5),
    "threshold -3": lambda s: s.update(threshold=-3),
    "string weight": lambda s: s["weights"].update(method="0.5"),
    "boolean scale": lambda s: s["scales"].update(method=True),
    "zero scale": lambda s: s["scales"].update(method=0),
    "extra feature in means": lambda s: s["means"].update(no_such_feature=1.0),
    "features disagree": lambda s: s.update(features=s["features"][:-1]),
    "number as version": lambda s: s.update(version=2),
    "larger than 1 MB": lambda s: s["meta"].update(padding="x" * (1 << 20)),
}


@pytest.mark.parametrize("case", list(_BAD_SELECTORS))
def test_bad_selector_weights_are_refused(tmp_path: Path, case: str) -> None:
    edit = _BAD_SELECTORS[case]
    if edit is None:  # a number Python's JSON reader takes as infinity
        value = json.loads(SHIPPED.read_text(encoding="utf-8"))
        text = json.dumps(value).replace(f'"bias": {json.dumps(value["bias"])}', '"bias": 1e999')
        assert "1e999" in text
    else:
        text = _selector(edit)
    (tmp_path / "s.json").write_text(text, encoding="utf-8")
    proc = chemref("questions", "build", SAMPLE, "-o", "q.jsonl", "--selector", "s.json", "--no-progress",
                   cwd=tmp_path, timeout=60)
    assert_refused(proc, "s.json")
    assert not (tmp_path / "q.jsonl").exists()


def test_the_shipped_selector_passes_its_own_schema() -> None:
    from chemref.questions.funnel.selector import load_selector

    assert load_selector(SHIPPED).threshold == pytest.approx(0.6055)


# -- 9. every path read is a regular file, checked first: a FIFO never blocks
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("option", ["--files-from", "--selector"])
def test_a_fifo_given_as_a_list_or_weights_never_blocks(tmp_path: Path, option: str) -> None:
    recipes.fifo(tmp_path / "pipe")
    proc = chemref("questions", "build", SAMPLE, option, "pipe", "-o", "q.jsonl", "--no-progress", cwd=tmp_path,
                   timeout=30)
    assert_refused(proc, "pipe", "regular file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_where_the_dataset_card_goes_never_blocks(tmp_path: Path) -> None:
    recipes.fifo(tmp_path / "README.md")
    proc = chemref("questions", "build", SAMPLE, "-o", "q.jsonl", "--no-progress", cwd=tmp_path, timeout=30)
    assert_refused(proc, "README.md", "regular files")


# -- 11. a PMC package's file list that cannot be read
@pytest.mark.parametrize("case", ["latin-1", "long field", "fifo"])
def test_a_damaged_package_file_list_is_one_error_line(tmp_path: Path, case: str) -> None:
    recipes.package(tmp_path / "oa.tar.gz", {"PMC1/a.nxml": SAMPLE.read_bytes()})
    listing = tmp_path / "oa.filelist.csv"
    if case == "latin-1":
        listing.write_bytes("Article File,License\nPMC1/a.nxml,CC BY \xe9t\xe9\n".encode("latin-1"))
    elif case == "long field":
        listing.write_text("Article File,License\nPMC1/a.nxml,CC BY\n\"" + "x" * 200_000 + "\",CC BY\n")
    else:
        recipes.fifo(listing)
    proc = chemref("questions", "build", "oa.tar.gz", "-o", "q.jsonl", "--no-progress", cwd=tmp_path, timeout=60)
    assert_refused(proc, "oa.filelist.csv")


# -- 15. limits, seeds and scores given by the user
@pytest.mark.parametrize("value", ["inf", "Infinity", "-inf", "nan"])
def test_an_infinite_file_size_limit_is_one_error_line(tmp_path: Path, value: str) -> None:
    (tmp_path / "g.json").write_text('{"1": "yes"}')
    proc = chemref("score", "pubmedqa", "g.json", "g.json", cwd=tmp_path, env={"CHEMREF_MAX_FILE_MB": value})
    assert_refused(proc, "CHEMREF_MAX_FILE_MB", "finite")


@pytest.mark.parametrize("option", ["--max-member-mb", "--max-archive-mb", "--max-zip-ratio"])
def test_an_infinite_limit_option_is_one_error_line(tmp_path: Path, option: str) -> None:
    gold = CORPORA / "brat" / "gold"
    assert_refused(chemref("score", "brat", gold, CORPORA / "brat" / "pred", option, "inf", cwd=tmp_path),
                   option, "finite")


@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    return recipes.labelled_build(tmp_path_factory.mktemp("labelled"))


def test_a_negative_seed_is_one_error_line(labelled: tuple[Path, Path, Path], tmp_path: Path) -> None:
    labels, questions, rejected = labelled
    proc = chemref("questions", "train-selector", labels, "--questions", questions, "--rejected", rejected,
                   "-o", "s.json", "--seed", "-1", cwd=tmp_path, timeout=120)
    assert_refused(proc, "--seed")


@pytest.mark.parametrize("rows, needle", [
    ([{"id": "ID", "score": "Infinity"}], "Infinity is not a finite number"),  # not JSON: refused when read
    ([{"id": "ID", "score": 5}], "finite number from 0 to 1"),
    ([{"id": "ID", "score": -0.5}], "finite number from 0 to 1"),
    ([{"id": "ID", "score": 0.5}, {"id": "ID", "score": 0.25}], "given twice"),
])
def test_bad_scores_are_refused(labelled: tuple[Path, Path, Path], tmp_path: Path, rows: list, needle: str) -> None:
    labels, questions, rejected = labelled
    first = json.loads(labels.read_text().splitlines()[0])["id"]
    text = "".join(json.dumps({**row, "id": first}) + "\n" for row in rows).replace('"Infinity"', "Infinity")
    (tmp_path / "scores.jsonl").write_text(text)
    proc = chemref("questions", "evaluate", labels, "--questions", questions, "--rejected", rejected,
                   "--scores", "scores.jsonl", cwd=tmp_path, timeout=120)
    assert_refused(proc, "scores.jsonl", needle)


@pytest.mark.slow
def test_tar_links_are_reported_not_dropped_quietly(tmp_path: Path) -> None:
    recipes.package(tmp_path / "oa.tar.gz", {"PMC1/a.nxml": SAMPLE.read_bytes()}, links={"PMC2/b.nxml": "PMC1/a.nxml"})
    proc = chemref("questions", "build", "oa.tar.gz", "-o", "q.jsonl", "--no-progress", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    warnings = [line for line in proc.stderr.splitlines() if "PMC2/b.nxml" in line]
    assert warnings and all(line.startswith("chemref: warning: ") for line in warnings)
    assert "hard link" in warnings[0] and "2 given" in proc.stdout


# -- the process pool: a parent failing with any error kills and reaps its forked children
_POOL_SCRIPT = """
import os, sys, time
from chemref.pool import map_chunks
parent = os.getpid()
def work(chunk):
    if os.getpid() == parent:
        time.sleep(0.5)
        raise ValueError("not a chemref error")
    return [b"x" * (1 << 20)]  # more than a pipe holds: the child waits for a parent that never reads
try:
    map_chunks(work, list(range(4)), 2)
except Exception as exc:
    print(f"caught {type(exc).__name__} in {'parent' if os.getpid() == parent else 'child'}", flush=True)
try:
    left = os.waitpid(-1, os.WNOHANG)
    print("children left" if left[0] == 0 else "a child was not reaped", flush=True)
except ChildProcessError:
    print("no children", flush=True)
"""


@pytest.mark.slow
def test_a_failing_parent_kills_and_reaps_its_forked_children(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", _POOL_SCRIPT], cwd=tmp_path, env=env, text=True,
                          capture_output=True, timeout=30, preexec_fn=_limit_memory)
    assert proc.stdout.splitlines() == ["caught ValueError in parent", "no children"], proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
