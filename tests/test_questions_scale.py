"""The streaming build at small scale: shards and manifest, resume after SIGKILL, PMC packages, file lists,
Dask workers writing shards, Parquet, the run lock, and one-line errors for bad inputs."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.golden.hostile_recipes import sample_corpus
from tests.helpers import CORPORA, tar_package

from chemref.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = CORPORA / "jats"


def _corpus(folder: Path, copies: int) -> Path:
    """``copies`` x the sample articles under new names, each copy with its own PMCID (so its own ids)."""
    return sample_corpus(folder, copies)


def _cli(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", "import sys; from chemref.cli import main; sys.exit(main())",
                             "questions", "build", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if not p.name.startswith(".")}


def _without_timings(manifest: bytes) -> dict:
    data = json.loads(manifest)
    data.pop("timings")
    return data


@pytest.mark.slow
def test_folder_output_has_shards_manifest_and_card(tmp_path):
    corpus = _corpus(tmp_path / "in", 2)
    assert main(["questions", "build", str(corpus), "-o", str(tmp_path / "out"), "--shard-articles", "4",
                 "--no-progress"]) == 0
    out = tmp_path / "out"
    names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert names == ["README.md", "articles-00000.jsonl", "articles-00001.jsonl", "articles-00002.jsonl",
                     "manifest.json", "questions-00000.jsonl", "questions-00001.jsonl", "questions-00002.jsonl",
                     "rejected-00000.jsonl", "rejected-00001.jsonl", "rejected-00002.jsonl", "report.json",
                     "report.png"]
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["status"] == "complete" and manifest["articles_done"] == 10
    assert manifest["chemref_version"] and manifest["settings"]["per_article"] == 4
    from chemref.questions.output.shards import sha256

    for shard in manifest["shards"]:
        for name, info in shard["files"].items():
            assert sha256(out / name) == info["sha256"]
    # the same questions as a single-file build, in the same order; no absolute path anywhere
    assert main(["questions", "build", str(corpus), "-o", str(tmp_path / "q.jsonl"), "--no-progress"]) == 0
    joined = b"".join((out / f"questions-0000{k}.jsonl").read_bytes() for k in range(3))
    assert joined == (tmp_path / "q.jsonl").read_bytes()
    assert str(tmp_path) not in joined.decode() and str(tmp_path) not in (out / "README.md").read_text()
    assert "questions-*.jsonl" in (out / "README.md").read_text()


@pytest.mark.slow
def test_resume_after_sigkill_is_byte_identical(tmp_path):
    corpus = _corpus(tmp_path / "in", 30)  # 150 articles, 15 shards
    args = [str(corpus), "--shard-articles", "10", "--no-progress"]
    whole = _cli(*args, "-o", str(tmp_path / "whole"))
    assert whole.wait(timeout=300) == 0, whole.stderr.read()
    run = _cli(*args, "-o", str(tmp_path / "cut"))
    checkpoint = tmp_path / "cut" / ".chemref-build" / "progress.jsonl"
    deadline = time.monotonic() + 120
    def shards_done() -> int:  # the journal's lines after its header
        return checkpoint.read_bytes().count(b"\n") - 1 if checkpoint.exists() else 0

    while shards_done() < 2 and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.02)
    assert run.poll() is None, "the build finished before it could be killed"
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    assert not (tmp_path / "cut" / "manifest.json").exists()
    again = _cli(*args, "-o", str(tmp_path / "cut"))  # without --resume: refused, nothing lost
    assert again.wait(timeout=60) == 2 and "--resume" in again.stderr.read()
    resumed = _cli(*args, "-o", str(tmp_path / "cut"), "--resume")
    assert resumed.wait(timeout=300) == 0, resumed.stderr.read()
    a, b = _files(tmp_path / "whole"), _files(tmp_path / "cut")
    assert a.keys() == b.keys()
    for name in a:
        if name != "manifest.json":
            assert a[name] == b[name], name
    assert _without_timings(a["manifest.json"]) == _without_timings(b["manifest.json"])
    assert not (tmp_path / "cut" / ".chemref-build").exists()


@pytest.mark.slow
def test_resume_with_other_settings_or_on_another_run_is_an_error(tmp_path, capsys):
    corpus = _corpus(tmp_path / "in", 1)
    out = str(tmp_path / "out")
    assert main(["questions", "build", str(corpus), "-o", out, "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["questions", "build", str(corpus), "-o", out, "--resume", "--per-article", "2",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "per_article" in err and "Traceback" not in err
    (tmp_path / "empty").mkdir()
    assert main(["questions", "build", str(corpus), "-o", str(tmp_path / "empty"), "--resume", "--no-progress"]) == 2
    assert "nothing to resume" in capsys.readouterr().err
    # an interrupted run resumed with other settings names the difference
    staging = tmp_path / "cut" / ".chemref-build"
    staging.mkdir(parents=True)
    (staging / "progress.jsonl").write_text(json.dumps({"format": "chemref-questions-build", "identity": {
        "settings": {"seed": 7}}}) + "\n", encoding="utf-8")
    assert main(["questions", "build", str(corpus), "-o", str(tmp_path / "cut"), "--resume", "--no-progress"]) == 2
    assert "seed" in capsys.readouterr().err


def test_resume_notices_a_selector_file_changed_in_place(tmp_path, capsys):
    corpus = _corpus(tmp_path / "in", 1)
    selector = tmp_path / "selector.json"
    weights = json.loads((Path(__file__).parents[1] / "chemref" / "questions" / "data" / "selector.json").read_text())
    selector.write_text(json.dumps(weights), encoding="utf-8")
    out = str(tmp_path / "out")
    args = ["questions", "build", str(corpus), "-o", out, "--selector", str(selector), "--no-progress"]
    assert main(args) == 0
    capsys.readouterr()
    weights["bias"] += 1.0  # the same path, other weights
    selector.write_text(json.dumps(weights), encoding="utf-8")
    assert main([*args, "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "selector_sha256" in err


def _package(path: Path, members: dict[str, bytes]) -> Path:
    return tar_package(path, members)


@pytest.mark.slow
def test_pmc_package_is_streamed_with_licence_filter(tmp_path):
    files = sorted(SAMPLE.glob("*.xml"))
    package = _package(tmp_path / "oa_comm_xml.PMC000xxxxxx.baseline.tar.gz",
                       {f"PMC000xxxxxx/{f.name}": f.read_bytes() for f in files})
    (tmp_path / "oa_comm_xml.PMC000xxxxxx.baseline.filelist.csv").write_text(
        "Article File,Article Citation,AccessionID,LastUpdated (YYYY-MM-DD HH:MM:SS),PMID,License,Retracted\n"
        + "".join(f"PMC000xxxxxx/{f.name},cite,PMC{n},2023-01-01 00:00:00,0,"
                  f"{'CC BY-NC' if n == 0 else 'CC BY'},no\n" for n, f in enumerate(files)), encoding="utf-8")
    assert main(["questions", "build", str(package), "-o", str(tmp_path / "q.jsonl"), "--report",
                 str(tmp_path / "r.json"), "--no-progress"]) == 0
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["articles"] == len(files) and report["articles_skipped"] == {"cc_by": 1}
    rows = [json.loads(line) for line in (tmp_path / "q.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows and all(r["source_file"].startswith(f"{package.name}:PMC000xxxxxx/") for r in rows)
    assert not any(r["source_file"].endswith(files[0].name) for r in rows)


@pytest.mark.slow
def test_truncated_package_counts_what_was_complete_and_says_where_it_stopped(tmp_path, capsys):
    files = sorted(SAMPLE.glob("*.xml"))
    package = _package(tmp_path / "p.tar.gz", {f"d/{f.name}": f.read_bytes() for f in files})
    data = package.read_bytes()
    package.write_bytes(data[: len(data) * 2 // 3])
    status = main(["questions", "build", str(package), "-o", str(tmp_path / "q.jsonl"), "--report",
                   str(tmp_path / "r.json"), "--no-progress"])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    line = [x for x in err.splitlines() if x.startswith("chemref: error:")]
    assert len(line) == 1 and "truncated" in line[0] and "stopped after" in line[0]
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["articles_read"] >= 1  # the complete members stay counted


@pytest.mark.slow
def test_file_list_naming_missing_files_is_one_error(tmp_path, capsys):
    listing = tmp_path / "list.txt"
    listing.write_text(f"{SAMPLE / 'sample_zinc_knuckle.xml'}\n# a comment\nnot/here.xml\ngone.nxml\n",
                       encoding="utf-8")
    status = main(["questions", "build", "--files-from", str(listing), "-o", str(tmp_path / "q.jsonl"),
                   "--no-progress"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "2 listed file(s) do not exist" in err and "line 3: not/here.xml" in err and "gone.nxml" in err
    assert not (tmp_path / "q.jsonl").exists()
    listing.write_text(f"{SAMPLE / 'sample_zinc_knuckle.xml'}\n", encoding="utf-8")
    assert main(["questions", "build", "--files-from", str(listing), "-o", str(tmp_path / "q.jsonl"),
                 "--no-progress"]) == 0


@pytest.mark.slow
def test_a_second_writer_is_refused(tmp_path):
    from chemref._io.lock import RunLock
    from chemref.errors import InputError
    from chemref.questions.output.writer import build_to_files

    out = tmp_path / "out"
    out.mkdir()
    with RunLock(out / ".chemref.lock", "to out"):
        with pytest.raises(InputError, match="another chemref run is writing"):
            build_to_files([str(SAMPLE)], str(out) + "/")
    build_to_files([str(SAMPLE)], str(out) + "/")
    assert (out / "manifest.json").is_file()


@pytest.mark.slow
def test_parquet_shards_load_with_hugging_face_datasets(tmp_path):
    pytest.importorskip("pyarrow")
    datasets = pytest.importorskip("datasets")
    out = tmp_path / "out"
    assert main(["questions", "build", str(SAMPLE), "-o", str(out), "--format", "parquet", "--shard-articles",
                 "2", "--no-progress"]) == 0
    assert main(["questions", "build", str(SAMPLE), "-o", str(tmp_path / "q.jsonl"), "--no-progress"]) == 0
    ds = datasets.load_dataset("parquet", data_files={"test": str(out / "questions-*.parquet")}, split="test",
                               cache_dir=str(tmp_path / "cache"))
    rows = [json.loads(line) for line in (tmp_path / "q.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in ds] == [r["id"] for r in rows]
    assert ds[0]["target_authors"] == rows[0]["target_authors"]


def test_progress_prints_plain_lines_off_a_terminal():
    from chemref.progress import Progress

    stream = io.StringIO()
    bar = Progress(10, stream=stream, every=0.0)
    bar.update(4, 3)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert lines and "\r" not in stream.getvalue()
    assert "4/10 articles" in lines[0] and "articles/s" in lines[0] and "3 questions" in lines[0]
    assert "ETA" in lines[0]


@pytest.mark.slow
def test_dask_workers_write_the_shards_identical_to_a_local_build(tmp_path):
    distributed = pytest.importorskip("distributed")
    from chemref.questions import build_dask
    from chemref.questions.output.writer import build_to_files

    corpus = _corpus(tmp_path / "in", 2)
    (corpus / "c000_zz_broken.xml").write_text("<article><front><article-meta></front></article>",
                                                encoding="utf-8")
    local = build_to_files([str(corpus)], str(tmp_path / "local") + "/", shard_articles=3)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        outputs = build_dask([str(corpus)], str(tmp_path / "dask") + "/", client=client, shard_articles=3)
        writers = client.run(os.getpid)
    assert outputs.totals.unreadable == 1 and outputs.totals.errors[0][0].endswith("c000_zz_broken.xml")
    assert local.totals.to_dict() == outputs.totals.to_dict()
    a, b = _files(tmp_path / "local"), _files(tmp_path / "dask")
    assert a.keys() == b.keys()
    for name in a:
        if name != "manifest.json":
            assert a[name] == b[name], name
    assert _without_timings(a["manifest.json"]) == _without_timings(b["manifest.json"])
    assert os.getpid() not in writers.values()


def _double(n: int) -> int:
    return 2 * n


def test_ordered_map_in_chunks_keeps_input_order():
    from chemref.pool import ordered_map

    assert list(ordered_map(_double, iter(range(23)), workers=2, chunk=4, window=2)) == [2 * n for n in range(23)]


@pytest.mark.slow
def test_workers_2_write_every_shard_file_identical_to_one_process(tmp_path):
    corpus = _corpus(tmp_path / "in", 2)
    (corpus / "c000_zz_broken.xml").write_text("<article><front><article-meta></front></article>",
                                                encoding="utf-8")
    files = sorted(corpus.iterdir())
    package = _package(tmp_path / "pkg.tar.gz", {f"p/{f.name}": f.read_bytes() for f in files})
    for name, source in (("folder", corpus), ("package", package)):
        outs = {}
        for workers in ("1", "2"):
            out = tmp_path / f"{name}{workers}"
            assert main(["questions", "build", str(source), "-o", str(out), "--shard-articles", "4",
                         "--workers", workers, "--no-progress"]) == 0
            outs[workers] = _files(out)
        assert outs["1"].keys() == outs["2"].keys() and len(outs["1"]) == 13
        for file in outs["1"]:
            if file != "manifest.json":
                assert outs["1"][file] == outs["2"][file], (name, file)
        assert _without_timings(outs["1"]["manifest.json"]) == _without_timings(outs["2"]["manifest.json"])
        rows = [json.loads(line) for k in range(3)
                for line in outs["2"][f"articles-0000{k}.jsonl"].decode("utf-8").splitlines()]
        assert len(rows) == 11 and [r["source_file"].endswith("zz_broken.xml") for r in rows if r["error"]] == [True]


def test_package_read_ahead_stops_with_its_reader(tmp_path):
    import threading

    from chemref.inputs.sources import iter_sources

    files = sorted(SAMPLE.glob("*.xml"))
    package = _package(tmp_path / "pkg.tar.gz", {f"p/{n}_{f.name}": f.read_bytes() for n in range(5) for f in files})
    sources = iter_sources([str(package)])
    first = next(sources)
    assert first.label == f"pkg.tar.gz:p/0_{files[0].name}" and first.data == files[0].read_bytes()
    sources.close()
    assert not [t for t in threading.enumerate() if t.name == "chemref-package-reader"]
    assert [s.label for s in iter_sources([str(package)])] == [f"pkg.tar.gz:p/{n}_{f.name}" for n in range(5)
                                                              for f in files]


@pytest.mark.slow
def test_a_file_name_that_is_not_utf8_is_written_escaped(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    try:
        Path(os.fsdecode(bytes(folder) + b"/caf\xe9.xml")).write_bytes((SAMPLE / "sample_zinc_knuckle.xml").read_bytes())
    except (OSError, UnicodeError):
        pytest.skip("this file system takes only UTF-8 file names")
    package = _package(tmp_path / "pkg.tar", {os.fsdecode(b"p/caf\xe9.xml"): b"<article/>"})
    for n, (source, label) in enumerate(((folder, "in/caf\\xe9.xml"), (package, "pkg.tar:p/caf\\xe9.xml"))):
        out = tmp_path / f"out{n}"
        assert main(["questions", "build", str(source), "-o", str(out), "--no-progress"]) == 0
        rows = [json.loads(line) for line in (out / "articles-00000.jsonl").read_text(encoding="utf-8").splitlines()]
        assert [r["source_file"] for r in rows] == [label]


@pytest.mark.slow
def test_a_file_list_is_streamed_not_held_in_memory(tmp_path, capsys):
    import tracemalloc

    from chemref.inputs.file_lists import read_file_list
    from chemref.inputs.sources import count_sources

    listing = tmp_path / "list.txt"
    listing.write_text(f"{SAMPLE / 'sample_zinc_knuckle.xml'}\n" * 20_000, encoding="utf-8")
    tracemalloc.start()
    try:
        names = read_file_list(listing)
        assert sum(1 for _ in names) == 1 and count_sources([], files_from=listing) == 1  # read once
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 500_000  # the 20,000 names alone take some 2 MB
    listing.write_bytes(b"a.xml\n" * 3000 + b"caf\xe9.xml\n")
    assert main(["questions", "build", "--files-from", str(listing), "-o", str(tmp_path / "q.jsonl"),
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "list.txt:3001:4: the file list is not UTF-8 text" in err


@pytest.mark.slow
def test_an_input_path_that_is_not_utf8_is_recorded_escaped(tmp_path):
    try:
        folder = Path(os.fsdecode(bytes(tmp_path) + b"/in\xe9"))
        folder.mkdir()
    except (OSError, UnicodeError):
        pytest.skip("this file system takes only UTF-8 file names")
    shutil.copy(SAMPLE / "sample_zinc_knuckle.xml", folder / "a.xml")
    out = tmp_path / "out"
    assert main(["questions", "build", str(folder), "-o", str(out), "--no-progress"]) == 0
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert [name.rsplit("/", 1)[-1] for name in manifest["inputs"]] == ["in\\xe9"]
    assert main(["questions", "build", str(folder), "-o", str(out), "--no-progress", "--resume"]) == 0


def test_an_output_name_that_is_not_utf8_is_escaped_in_the_card(tmp_path):
    try:
        out = Path(os.fsdecode(bytes(tmp_path) + b"/q\xe9.jsonl"))
        out.write_bytes(b"")
        out.unlink()
    except (OSError, UnicodeError):
        pytest.skip("this file system takes only UTF-8 file names")
    assert main(["questions", "build", str(SAMPLE), "-o", str(out), "--no-progress"]) == 0
    card = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "path: q\\xe9.jsonl" in card and out.exists()
