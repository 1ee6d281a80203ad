"""A build's own state read back as untrusted input: a tampered or damaged ``manifest.json`` or journal
never makes a rebuild or ``--resume`` touch a path outside the output, nor end in a traceback; a resumed
build notices a changed shard, a changed input and inflated counts; question ids are unique in a build.
Through the CLI under a 1 GB address-space limit (the interrupted builds are made in this process)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes as recipes
from tests.hostile.cli_runner import assert_refused, chemref


def _build(tmp: Path, *extra: str) -> Path:
    corpus = recipes.sample_corpus(tmp / "corpus")
    proc = chemref("questions", "build", corpus, "-o", f"{tmp / 'out'}/", "--shard-articles", "1", "--no-progress",
                   *extra, cwd=tmp, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return tmp / "out"


def _rebuild(tmp: Path, *extra: str):  # type: ignore[no-untyped-def]
    return chemref("questions", "build", tmp / "corpus", "-o", f"{tmp / 'out'}/", "--shard-articles", "1",
                   "--no-progress", *extra, cwd=tmp, timeout=120)


def _edit(path: Path, edit) -> None:  # type: ignore[no-untyped-def]
    value = json.loads(path.read_text(encoding="utf-8"))
    edit(value)
    path.write_text(json.dumps(value), encoding="utf-8")


def _victims(tmp: Path) -> list[Path]:
    victims = [tmp / "victim.txt", tmp / "out" / "notes.txt"]
    for path in victims:
        path.write_text("keep me\n")
    return victims


# -- 1. a tampered manifest or journal never removes a path the build does not write
@pytest.mark.parametrize("how", ["parent", "absolute", "input", "unlisted"])
@pytest.mark.slow
def test_a_tampered_manifest_never_removes_other_files(tmp_path: Path, how: str) -> None:
    out = _build(tmp_path)
    victims = _victims(tmp_path)
    article = next((tmp_path / "corpus").glob("*.xml"))
    name = {"parent": "../victim.txt", "absolute": str(tmp_path / "victim.txt"),
            "input": f"../corpus/{article.name}", "unlisted": "notes.txt"}[how]

    def tamper(manifest: dict) -> None:
        manifest["shards"][0]["files"][name] = {"sha256": "0" * 64, "bytes": 8, "rows": 1}

    _edit(out / "manifest.json", tamper)
    proc = _rebuild(tmp_path, "--per-article", "2")  # other settings: the old build is replaced
    assert "Traceback" not in proc.stderr
    assert all(path.read_text() == "keep me\n" for path in victims) and article.is_file()
    assert_refused(proc, "manifest.json", "invalid manifest")


@pytest.mark.slow
def test_a_tampered_journal_never_leads_to_removing_other_files(tmp_path: Path) -> None:
    corpus = recipes.sample_corpus(tmp_path / "corpus")
    staging = recipes.interrupted_build(corpus, tmp_path / "out")
    victims = _victims(tmp_path)
    recipes.edit_json_lines(staging / "progress.jsonl", 2, lambda shard: shard["files"].update(
        {str(tmp_path / "victim.txt"): {"sha256": "0" * 64, "bytes": 8, "rows": 1}}))
    resumed = _rebuild(tmp_path, "--resume")
    _rebuild(tmp_path, "--per-article", "2")  # a later rebuild reads the manifest the resumed run wrote
    assert all(path.read_text() == "keep me\n" for path in victims)
    assert_refused(resumed, "progress.jsonl:2", "invalid checkpoint")


# -- 10. damaged build state: one line each, never a traceback
@pytest.mark.parametrize("case", ["shards numbers", "shards string", "settings missing", "settings extra",
                                  "totals extra", "deep"])
@pytest.mark.slow
def test_a_damaged_manifest_is_one_error_line(tmp_path: Path, case: str) -> None:
    out = _build(tmp_path)
    manifest = out / "manifest.json"
    if case == "deep":
        manifest.write_text('{"format": "chemref-questions-build", "x": ' + recipes.deep_json() + "}")
    else:
        def tamper(value: dict) -> None:
            if case.startswith("shards"):
                value["shards"] = [1, 2] if case == "shards numbers" else "abc"
            elif case == "settings missing":
                del value["settings"]
            else:
                value["settings" if case == "settings extra" else "totals"]["extra"] = 1

        _edit(manifest, tamper)
    resume = case in ("settings missing", "settings extra", "totals extra")
    proc = _rebuild(tmp_path, "--resume") if resume else _rebuild(tmp_path, "--per-article", "2")
    assert_refused(proc, "manifest")


def test_a_journal_with_a_list_for_its_skipped_counts_is_one_error_line(tmp_path: Path) -> None:
    staging = recipes.interrupted_build(recipes.sample_corpus(tmp_path / "corpus"), tmp_path / "out")
    recipes.edit_json_lines(staging / "progress.jsonl", 2, lambda shard: shard["totals"].update(skipped=["cc_by"]))
    assert_refused(_rebuild(tmp_path, "--resume"), "progress.jsonl:2", "skipped")


# -- 8. --resume checks what it reuses: the shards, the inputs, the counts
def test_resume_refuses_an_edited_shard(tmp_path: Path) -> None:
    staging = recipes.interrupted_build(recipes.sample_corpus(tmp_path / "corpus"), tmp_path / "out")
    shard = next(p for p in sorted(staging.glob("rejected-0000[01].jsonl")) if p.stat().st_size)
    shard.write_bytes(shard.read_bytes().replace(b'"excerpt": "', b'"excerpt": "EDITED ', 1))
    assert_refused(_rebuild(tmp_path, "--resume"), shard.name, "changed")


def test_resume_refuses_an_input_changed_after_it_was_built(tmp_path: Path) -> None:
    corpus = recipes.sample_corpus(tmp_path / "corpus")
    recipes.interrupted_build(corpus, tmp_path / "out")
    first = sorted(corpus.glob("*.xml"))[0]  # in shard 0, done before the interruption
    first.write_text(first.read_text(encoding="utf-8").replace("</article>", "<!-- revised --></article>"),
                     encoding="utf-8")
    assert_refused(_rebuild(tmp_path, "--resume"), "changed since they were built")


@pytest.mark.parametrize("field", ["questions", "read", "funnel"])
def test_resume_refuses_inflated_journal_counts(tmp_path: Path, field: str) -> None:
    staging = recipes.interrupted_build(recipes.sample_corpus(tmp_path / "corpus"), tmp_path / "out")

    def inflate(shard: dict) -> None:
        if field == "funnel":
            shard["totals"]["funnel"]["section"] += 10**9
        else:
            shard["totals"][field] += 10**9

    recipes.edit_json_lines(staging / "progress.jsonl", 2, inflate)
    proc = _rebuild(tmp_path, "--resume")
    assert_refused(proc, "progress.jsonl:2", "invalid checkpoint")
    assert not (tmp_path / "out" / "report.json").exists()


# -- 12. two outputs of one command on one path, refused before anything is written
@pytest.mark.parametrize("args", [
    ("score", "brat", "gold", "pred", "-o", "x.html", "--html", "x.html"),
    ("score", "brat", "gold", "pred", "-o", "x.html", "--html", "link.html"),
    ("questions", "train-selector", "labels.jsonl", "--questions", "q.jsonl", "-o", "s.json",
     "--cv-scores", "s.json"),
])
def test_two_outputs_on_one_path_are_refused_before_any_work(tmp_path: Path, args: tuple) -> None:
    import os
    import shutil

    from tests.hostile.cli_runner import CORPORA

    shutil.copytree(CORPORA / "brat" / "gold", tmp_path / "gold")
    shutil.copytree(CORPORA / "brat" / "pred", tmp_path / "pred")
    recipes.sample_corpus(tmp_path / "corpus")
    (tmp_path / "x.html").write_text("previous\n")
    os.symlink("x.html", tmp_path / "link.html")
    (tmp_path / "s.json").write_text("previous\n")
    proc = chemref(*args, cwd=tmp_path, timeout=60)
    assert_refused(proc, "symbolic link" if "link.html" in args else "would be the same file")
    assert (tmp_path / "x.html").read_text() == "previous\n" and (tmp_path / "s.json").read_text() == "previous\n"


# -- 13. duplicate question ids
def _ids(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.slow
def test_question_ids_are_unique_in_a_build(tmp_path: Path, workers: str) -> None:
    corpus = recipes.sample_corpus(tmp_path / "corpus")
    first = sorted(corpus.glob("*zinc*.xml"))[0]
    text = first.read_text(encoding="utf-8")
    body = text.index("<p>", text.index("<body"))
    other = tmp_path / "other" / first.name  # another article with the same PMCID
    other.parent.mkdir()
    other.write_text(text[:body] + "<p>A different first paragraph.</p>" + text[body:], encoding="utf-8")
    args = ("questions", "build", corpus, first, other, "-o", "q.jsonl", "--rejected", "r.jsonl", "--min-score",
            "0", "-w", workers, "--no-progress")
    proc = chemref(*args, cwd=tmp_path, timeout=180)
    assert proc.returncode == 0, proc.stderr
    ids = _ids(tmp_path / "q.jsonl") + _ids(tmp_path / "r.jsonl")
    assert len(ids) == len(set(ids))
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("chemref: warning: ")]
    assert any(first.name in w and "given twice" in w for w in warnings), proc.stderr
    assert any("shares its id" in w and "-2-" in w for w in warnings), proc.stderr
    assert "1 skipped: the same article given twice" in proc.stdout
    again = chemref(*args, cwd=tmp_path, timeout=180)
    assert again.returncode == 0 and _ids(tmp_path / "q.jsonl") + _ids(tmp_path / "r.jsonl") == ids
