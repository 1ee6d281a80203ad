"""Where outputs go: only to regular files (or ``-``, standard output), never over a device, FIFO or socket,
never into an input folder; a killed run's temporary file is removed by the next write. Through the CLI
under a 1 GB address-space limit."""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import stat
import sys
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes as recipes
from tests.hostile.cli_runner import CORPORA, PREVIOUS, assert_refused, chemref

SAMPLE = CORPORA / "jats" / "sample_zinc_knuckle.xml"


@pytest.fixture
def work(tmp_path: Path) -> Path:
    shutil.copytree(CORPORA / "brat" / "gold", tmp_path / "gold")
    shutil.copytree(CORPORA / "brat" / "pred", tmp_path / "pred")
    recipes.sample_corpus(tmp_path / "corpus")
    (tmp_path / "G.jsonl").write_text('{"id": "q1", "relevant": ["d1"]}\n')
    (tmp_path / "P.jsonl").write_text('{"id": "q1", "ranking": ["d1"]}\n')
    (tmp_path / "g.json").write_text('{"1": "yes"}')
    (tmp_path / "p.json").write_text('{"1": "yes"}')
    return tmp_path


def _node(path: Path, kind: str) -> Path:
    """A character device (null or full, made here: never the machine's own), a FIFO or a bound socket."""
    if kind in ("null", "full"):
        if not hasattr(os, "geteuid") or os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3 if kind == "null" else 7))
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        _SOCKETS.append(server)
    return path


_SOCKETS: list[socket.socket] = []
_CHECK = {"null": stat.S_ISCHR, "full": stat.S_ISCHR, "fifo": stat.S_ISFIFO, "socket": stat.S_ISSOCK}

#: every output option of every command, with the other arguments it needs (OUT is the output)
_OUTPUTS = [
    ("score", "brat", "gold", "pred", "-o", "OUT"),
    ("score", "brat", "gold", "pred", "--html", "OUT"),
    ("score", "ranking", "G.jsonl", "P.jsonl", "-o", "OUT"),
    ("score", "pubmedqa", "g.json", "p.json", "-o", "OUT"),
    ("jats", "corpus", "--json", "-o", "OUT"),
    ("questions", "build", "corpus", "-o", "OUT", "--no-progress"),
    ("questions", "build", "corpus", "-o", "q.jsonl", "--report", "OUT", "--no-progress"),
    ("questions", "build", "corpus", "-o", "q.jsonl", "--rejected", "OUT", "--no-progress"),
    ("questions", "train-selector", "labels.jsonl", "--questions", "q.jsonl", "-o", "OUT"),
    ("questions", "train-selector", "labels.jsonl", "--questions", "q.jsonl", "-o", "s.json", "--cv-scores", "OUT"),
    ("questions", "evaluate", "labels.jsonl", "--questions", "q.jsonl", "-o", "OUT"),
    ("questions", "review", "q.jsonl", "-o", "OUT"),
    ("baseline", "bm25", "G.jsonl", "-o", "OUT"),
]


# -- 2. only regular files are written
@pytest.mark.parametrize("kind", ["null", "full", "fifo", "socket"])
@pytest.mark.parametrize("args", _OUTPUTS, ids=lambda a: " ".join(a[:2]) + " " + a[a.index("OUT") - 1])
def test_an_output_is_never_a_device_fifo_or_socket(work: Path, args: tuple, kind: str) -> None:
    node = _node(work / "node", kind)
    try:
        proc = chemref(*[str(node) if a == "OUT" else a for a in args], cwd=work, timeout=60)
    finally:
        for server in _SOCKETS:
            server.close()
        _SOCKETS.clear()
    assert _CHECK[kind](os.lstat(node).st_mode), "the node was replaced"
    assert_refused(proc, "node", "regular files")
    assert not any(p.name.endswith(".tmp") for p in work.iterdir())


@pytest.mark.slow
def test_dash_is_standard_output(work: Path) -> None:
    proc = chemref("score", "brat", "gold", "pred", "-o", "-", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert "ChEMU 2021" in proc.stdout and not (work / "-").exists()
    proc = chemref("jats", SAMPLE, "--json", "-o", "-", cwd=work)
    assert proc.returncode == 0 and proc.stdout.startswith("{") and not (work / "-").exists()
    assert_refused(chemref("questions", "build", "corpus", "-o", "-", "--no-progress", cwd=work),
                   "standard output")


# -- issue 22: an output inside an input folder is refused, as the README says
@pytest.mark.parametrize("args, inside", [
    (("questions", "build", "corpus", "-o", "corpus/q.jsonl", "--no-progress"), "corpus/q.jsonl"),
    (("questions", "build", "corpus", "-o", "corpus/out/", "--no-progress"), "corpus/out"),
    (("questions", "build", "corpus", "-o", "q.jsonl", "--report", "corpus/sub/r.json", "--no-progress"),
     "corpus/sub"),
    (("jats", "corpus", "--json", "-o", "corpus/articles.jsonl"), "corpus/articles.jsonl"),
    (("score", "brat", "gold", "pred", "-o", "gold/scores.txt"), "gold/scores.txt"),
    (("score", "brat", "gold", "pred", "--html", "pred/errors.html"), "pred/errors.html"),
])
def test_an_output_inside_an_input_folder_is_refused(work: Path, args: tuple, inside: str) -> None:
    before = sorted(p.relative_to(work) for p in work.rglob("*"))
    proc = chemref(*args, cwd=work, timeout=60)
    assert_refused(proc, "inside the input folder")
    assert sorted(p.relative_to(work) for p in work.rglob("*")) == before


# -- 15. a run killed with kill -9 leaves a temporary file; the next write of that output removes it
def test_a_killed_runs_temporary_file_is_removed_by_the_next_write(tmp_path: Path) -> None:
    (tmp_path / "out.jsonl").write_text(PREVIOUS)
    stale = tmp_path / ".out.jsonl.k9x_ab12.tmp"  # as atomic_write names it; its writer is gone
    stale.write_text('{"half": ')
    live = tmp_path / ".out.jsonl.live_123.tmp"  # another run's, still being written (it holds the lock)
    live.write_text("")
    other = tmp_path / ".out.jsonl.x.README.md.abcd1234.tmp"  # not a temporary file of this output
    other.write_text("")
    with open(live, "rb") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        proc = chemref("jats", SAMPLE, "--json", "-o", "out.jsonl", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert not stale.exists() and live.exists() and other.exists()
    assert (tmp_path / "out.jsonl").read_text().startswith("{")
