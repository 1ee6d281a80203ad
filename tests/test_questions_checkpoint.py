"""The build's checkpoint journal: one appended line per shard, a torn last line redone on resume, flat
cost per shard, shards done out of order, and a manifest streamed from the journal."""

from __future__ import annotations

import json
import os
import shutil
import tracemalloc
from pathlib import Path

import pytest

from benchmarks.golden.hostile_recipes import sample_corpus
from tests.helpers import CORPORA

from chemref.errors import InputError
from chemref.jsonl import write_json_streaming
from chemref.questions.output import checkpoint as checkpoint_module
from chemref.questions.output import finish, run, writer
from chemref.questions.output.totals import BuildTotals

SAMPLE = CORPORA / "jats"


def _corpus(folder: Path, copies: int) -> Path:
    """``copies`` x the sample articles under new names, each copy with its own PMCID (so its own ids)."""
    return sample_corpus(folder, copies)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if not p.name.startswith(".")}


def _identity() -> dict:
    """The identity of a build of 10 articles per shard (what a journal's header holds)."""
    from chemref.questions.funnel.settings import BuildSettings

    return {"chemref_version": "0", "settings": BuildSettings().to_dict(),
            "layout": {"format": "jsonl", "shard_articles": 10}, "inputs": [], "files_from": None}


def _summary(index: int) -> dict:
    """A small made-up shard summary of fixed width (its index aside)."""
    totals = BuildTotals(articles=10, read=9, unreadable=1, candidates=3, questions=3,
                         sources=[[f"art{index:06d}.xml", None, None, 3]], errors=[[f"art{index:06d}.xml", "unreadable"]])
    rows = {"questions": 3, "rejected": 0, "articles": 10}
    files = {f"{kind}-{index:05d}.jsonl": {"sha256": "0" * 64, "bytes": 1000, "rows": rows[kind]}
             for kind in ("questions", "rejected", "articles")}
    return {"index": index, "articles": 10, "first": f"art{index:06d}.xml", "last": f"art{index:06d}.xml",
            "files": files, "totals": totals.to_dict()}


@pytest.mark.slow
def test_a_torn_last_journal_line_is_redone_and_the_outputs_are_identical(tmp_path, monkeypatch):
    corpus = _corpus(tmp_path / "in", 6)  # 30 articles, 6 shards
    options = {"shard_articles": 5}
    writer.build_to_files([str(corpus)], str(tmp_path / "whole"), **options)
    original = checkpoint_module.Checkpoint.add
    calls = []

    def killed_while_writing_the_third(self, summary):
        calls.append(summary["index"])
        if len(calls) == 3:  # the shard's files are in place; its journal line is cut half-way
            line = json.dumps(summary, ensure_ascii=False)
            self._handle.write(line[: len(line) // 2])
            self._handle.flush()
            raise KeyboardInterrupt
        original(self, summary)

    monkeypatch.setattr(checkpoint_module.Checkpoint, "add", killed_while_writing_the_third)
    with pytest.raises(KeyboardInterrupt):
        writer.build_to_files([str(corpus)], str(tmp_path / "cut"), **options)
    monkeypatch.setattr(checkpoint_module.Checkpoint, "add", original)
    journal = tmp_path / "cut" / ".chemref-build" / "progress.jsonl"
    assert not journal.read_bytes().endswith(b"\n")  # header + 2 shards + a torn line
    assert (tmp_path / "cut" / ".chemref-build" / "questions-00002.jsonl").exists()
    done = writer.build_to_files([str(corpus)], str(tmp_path / "cut"), resume=True, **options)
    assert done.totals.articles == 30
    _assert_same_build(tmp_path / "whole", tmp_path / "cut")


def test_a_damaged_line_before_the_last_is_an_error(tmp_path):
    path = tmp_path / "progress.jsonl"
    checkpoint = checkpoint_module.Checkpoint(path, _identity())
    checkpoint.start()
    checkpoint.add(_summary(0))
    checkpoint.add(_summary(1))
    checkpoint.close()
    lines = path.read_bytes().split(b"\n")
    lines[1] = lines[1][:20]
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(InputError, match="line 2 of the checkpoint is damaged"):
        checkpoint_module.Checkpoint(path, _identity()).load("the build")


@pytest.mark.slow
def test_checkpoint_memory_and_bytes_per_shard_stay_flat(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # the cost measured here is bytes, not the disk
    summaries = [_summary(k) for k in range(2000)]
    path = tmp_path / "bytes.jsonl"
    checkpoint = checkpoint_module.Checkpoint(path, _identity())
    checkpoint.start()
    sizes = [path.stat().st_size]
    for summary in summaries:
        checkpoint.add(summary)
        sizes.append(path.stat().st_size)
    checkpoint.close()
    written = [b - a for a, b in zip(sizes, sizes[1:])]
    # once the samples are full (200 sources), each line is the same size but for the index's digits
    assert max(written[-100:]) - min(written[250:350]) <= 4
    assert max(written) < 2000
    assert checkpoint.prefix_end == 2000 and not checkpoint.pending
    assert checkpoint.totals().articles == 20_000 and len(checkpoint.totals().sources) == 200

    checkpoint = checkpoint_module.Checkpoint(tmp_path / "memory.jsonl", _identity())
    checkpoint.start()
    memory = {}
    tracemalloc.start()
    try:
        for k, summary in enumerate(summaries, 1):
            checkpoint.add(summary)
            if k in (300, 2000):
                memory[k] = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
        checkpoint.close()
    assert memory[2000] - memory[300] < 8_000  # 1,700 more shards: no more memory held


def test_shards_done_out_of_order_fold_in_index_order_and_reload_the_same(tmp_path):
    path = tmp_path / "progress.jsonl"
    order = [1, 0, 3, 4, 2, 6, 5]
    checkpoint = checkpoint_module.Checkpoint(path, _identity())
    checkpoint.start()
    for k in order:
        checkpoint.add(_summary(k))
        assert len(checkpoint.pending) <= 2
    checkpoint.close()
    assert checkpoint.prefix_end == 7 and not checkpoint.pending
    assert [s["index"] for s in checkpoint.shards()] == list(range(7))
    expected = BuildTotals()
    for k in range(7):
        expected.merge(BuildTotals.from_dict(_summary(k)["totals"]))
    assert checkpoint.totals().to_dict() == expected.to_dict()
    again = checkpoint_module.Checkpoint(path, _identity())
    again.load("the build")
    again.close()
    assert again.totals().to_dict() == expected.to_dict() and sorted(again.done) == list(range(7))
    assert again.articles == 70 and again.questions == 21


@pytest.mark.parametrize("count", [0, 1, 3])
def test_the_streamed_manifest_is_json_dump_byte_for_byte(tmp_path, count):
    items = [{"index": k, "first": "é\n\"x\"", "files": {"a": {"sha256": "f" * 4, "rows": k}}, "e": []}
             for k in range(count)]
    value = {"format": "x", "shards": items, "files": {"b": 1}, "timings": {"t": "ü"}}
    with open(tmp_path / "m.json", "w", encoding="utf-8") as handle:
        write_json_streaming(handle, value, "shards", iter(items), indent=1)
    assert (tmp_path / "m.json").read_text(encoding="utf-8") == json.dumps(value, indent=1, ensure_ascii=False)


@pytest.mark.slow
def test_a_finish_stopped_before_the_manifest_is_written_resumes_to_the_same_folder(tmp_path, monkeypatch):
    corpus = _corpus(tmp_path / "in", 2)  # 10 articles, 4 shards
    options = {"shard_articles": 3}
    writer.build_to_files([str(corpus)], str(tmp_path / "whole"), **options)
    for target in ("whole", "cut"):  # a fresh folder, and one holding a complete build being replaced
        if target == "cut":
            writer.build_to_files([str(corpus)], str(tmp_path / "cut"), shard_articles=2)

        def stopped(*args, **kwargs):  # the shard files are in place, the manifest not yet written
            (tmp_path / target / ".manifest.json.k1ll3d00.tmp").write_text("{", encoding="utf-8")  # as kill -9 leaves
            raise KeyboardInterrupt

        monkeypatch.setattr(finish, "write_json_streaming", stopped)
        with pytest.raises(KeyboardInterrupt):
            writer.build_to_files([str(corpus)], str(tmp_path / target), **options)
        monkeypatch.undo()
        assert not (tmp_path / target / "manifest.json").exists()
        writer.build_to_files([str(corpus)], str(tmp_path / target), resume=True, **options)
    _assert_same_build(tmp_path / "whole", tmp_path / "cut")
    assert sorted(p.name for p in (tmp_path / "cut").iterdir() if p.name.startswith(".")) == []  # no lock left


@pytest.mark.slow
def test_a_staging_folder_removal_cut_short_leaves_nothing_to_resume(tmp_path, monkeypatch):
    corpus = _corpus(tmp_path / "in", 2)
    target = tmp_path / "q.jsonl"
    real = shutil.rmtree

    def cut_short(path, ignore_errors=False):  # a kill part-way through removing the staging folder
        for item in sorted(Path(path).iterdir())[:2]:
            item.unlink()
        raise KeyboardInterrupt

    monkeypatch.setattr(finish.shutil, "rmtree", cut_short)
    with pytest.raises(KeyboardInterrupt):
        writer.build_to_files([str(corpus)], str(target), shard_articles=3)
    monkeypatch.setattr(finish.shutil, "rmtree", real)
    first = target.read_bytes()
    with pytest.raises(InputError, match="nothing to resume"):
        writer.build_to_files([str(corpus)], str(target), shard_articles=3, resume=True)
    writer.build_to_files([str(corpus)], str(target), shard_articles=3)  # the leftovers are cleared
    assert target.read_bytes() == first and not (tmp_path / ".q.jsonl.chemref-build").exists()


def _dies_on_the_sixth(self, item):
    if item[0] == 5:
        os._exit(1)  # as a worker killed by the kernel for want of memory
    return _DIES_ORIGINAL(self, item)


_DIES_ORIGINAL = run._IndexedTask.__call__


@pytest.mark.slow
def test_a_worker_killed_is_one_error_line_and_the_build_resumes(tmp_path, monkeypatch, capsys):
    from chemref.cli import main

    corpus = _corpus(tmp_path / "in", 3)
    args = ["questions", "build", str(corpus), "--shard-articles", "2", "--no-progress"]
    assert main([*args, "-o", str(tmp_path / "whole")]) == 0
    monkeypatch.setattr(run._IndexedTask, "__call__", _dies_on_the_sixth)  # the workers fork with it
    assert main([*args, "-o", str(tmp_path / "cut"), "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "worker process stopped abruptly" in err and "--resume" in err, err
    monkeypatch.undo()
    assert main([*args, "-o", str(tmp_path / "cut"), "--resume"]) == 0
    a, b = _files(tmp_path / "whole"), _files(tmp_path / "cut")
    assert a.keys() == b.keys() and all(a[n] == b[n] for n in a if n != "manifest.json")


def test_an_article_renamed_inside_a_shard_already_done_is_refused_on_resume(tmp_path, monkeypatch):
    corpus = _corpus(tmp_path / "in", 2)  # 10 articles, shards of 5
    original = checkpoint_module.Checkpoint.add

    def stopped_after_the_first_shard(self, summary):
        original(self, summary)
        raise KeyboardInterrupt

    monkeypatch.setattr(checkpoint_module.Checkpoint, "add", stopped_after_the_first_shard)
    with pytest.raises(KeyboardInterrupt):
        writer.build_to_files([str(corpus)], str(tmp_path / "cut"), shard_articles=5)
    monkeypatch.undo()
    third = sorted(corpus.iterdir())[2]  # neither the first nor the last of shard 0
    third.rename(third.with_name(third.stem + "_renamed.xml"))
    with pytest.raises(InputError, match=r"articles 1 to 5 .* are not the same"):
        writer.build_to_files([str(corpus)], str(tmp_path / "cut"), shard_articles=5, resume=True)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a device that is always full)")
def test_a_full_disk_while_writing_a_shard_or_the_journal_is_one_error_naming_the_file(tmp_path):
    from chemref.questions.funnel.records import ArticleResult
    from chemref.questions.output.shards import ShardWriter

    shard = ShardWriter(tmp_path, 3)
    shard._handles["questions"].close()
    shard._handles["questions"] = open("/dev/full", "wb")
    shard.add(ArticleResult(source="a.xml", key="a", cc_by=True))
    shard._handles["questions"].write(b"{}\n")  # a row still buffered, written out on closing
    with pytest.raises(InputError, match=r"questions-00003.jsonl: cannot write the shard: No space left.*--resume"):
        shard.close()
    shard.abort()  # the handle that could not be flushed does not stop the clean-up
    assert not list(tmp_path.iterdir())

    checkpoint = checkpoint_module.Checkpoint(tmp_path / "progress.jsonl", _identity())
    checkpoint.start()
    checkpoint._handle.close()
    checkpoint._handle = open("/dev/full", "a", encoding="utf-8")
    with pytest.raises(InputError, match="cannot write the checkpoint: No space left"):
        checkpoint.add(_summary(0))
    checkpoint.close()  # what it still buffers is a torn line, redone on resume: no second error


@pytest.mark.slow
def test_copies_of_the_outputs_left_by_a_kill_while_joining_are_removed_on_resume(tmp_path, monkeypatch):
    corpus = _corpus(tmp_path / "in", 2)
    target = tmp_path / "q.jsonl"

    def killed(*args, **kwargs):  # kill -9 part-way through joining: the staged copy stays, nothing cleans it
        (tmp_path / ".q.jsonl.k1ll3d00.tmp").write_text("{}\n", encoding="utf-8")
        raise KeyboardInterrupt

    monkeypatch.setattr(finish, "_join", killed)
    with pytest.raises(KeyboardInterrupt):
        writer.build_to_files([str(corpus)], str(target), shard_articles=3)
    monkeypatch.undo()
    writer.build_to_files([str(corpus)], str(target), shard_articles=3, resume=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md", "in", "q.jsonl"]


def test_a_whole_journal_line_that_is_not_a_shard_summary_is_an_error(tmp_path):
    path = tmp_path / "progress.jsonl"
    path.write_text(json.dumps({"format": "chemref-questions-build", "identity": _identity()}) + "\n"
                    + json.dumps({"index": 0, "articles": 1, "first": "a.xml", "last": "a.xml"}) + "\n",
                    encoding="utf-8")
    with pytest.raises(InputError, match=r"progress.jsonl:2: invalid checkpoint: \$ must contain \['files', 'totals'\] properties"):
        checkpoint_module.Checkpoint(path, _identity()).load("the build")


def _assert_same_build(whole, cut):
    """``cut`` (interrupted, then resumed) holds the same files as ``whole``, byte for byte; the manifests
    differ only in their timings; no staging folder is left."""
    a, b = _files(whole), _files(cut)
    assert a.keys() == b.keys()
    for name in a:
        if name != "manifest.json":
            assert a[name] == b[name], name
    strip = [json.loads(x) for x in (a["manifest.json"], b["manifest.json"])]
    for m in strip:
        m.pop("timings")
    assert strip[0] == strip[1]
    assert not (cut / ".chemref-build").exists()
