"""A file build that writes no rejections does not encode them: the shards count them, hold none, and a
resume that would need them is refused by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.golden.hostile_recipes import sample_corpus
from chemref.errors import InputError
from chemref.questions.funnel.builder import build_article
from chemref.questions.output import finish, writer
from chemref.questions.output.shards import encode
from tests.helpers import CORPORA


def test_encoding_without_rejections_counts_them_and_writes_none() -> None:
    article = build_article(CORPORA / "jats" / "sample_cu_tio2_co2.xml")
    assert article.rejected
    kept, dropped = encode(article), encode(article, rejected=False)
    assert dropped.rejected == kept.rejected == len(article.rejected)
    assert dropped.counts == (kept.counts[0], 0, 1) and kept.counts[1] == len(article.rejected)
    assert dropped.text[1] == b"" and kept.text[1].count(b"\n") == len(article.rejected)
    assert (dropped.text[0], dropped.text[2]) == (kept.text[0], kept.text[2])
    assert dropped.result == kept.result


def test_the_report_counts_the_rejections_whether_or_not_they_are_written(tmp_path: Path) -> None:
    corpus = sample_corpus(tmp_path / "in", 1)
    writer.build_to_files([str(corpus)], str(tmp_path / "a" / "q.jsonl"), report=str(tmp_path / "a" / "r.json"))
    writer.build_to_files([str(corpus)], str(tmp_path / "b" / "q.jsonl"), report=str(tmp_path / "b" / "r.json"),
                          rejected=str(tmp_path / "b" / "rejected.jsonl"))
    reports = [json.loads((tmp_path / side / "r.json").read_text(encoding="utf-8")) for side in "ab"]
    for report in reports:
        report.pop("timings", None)
    assert reports[0] == reports[1]
    rows = (tmp_path / "b" / "rejected.jsonl").read_text(encoding="utf-8").splitlines()
    assert reports[0]["candidates"] - reports[0]["questions"] == len(rows) > 0
    assert (tmp_path / "a" / "q.jsonl").read_bytes() == (tmp_path / "b" / "q.jsonl").read_bytes()


@pytest.mark.parametrize("first, then", [(False, True), (True, False)])
def test_a_resume_that_changes_whether_rejections_are_written_is_refused(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch,
                                                                        first: bool, then: bool) -> None:
    corpus = sample_corpus(tmp_path / "in", 1)
    target = tmp_path / "q.jsonl"

    def rejected(keep: bool) -> str | None:
        return str(tmp_path / "rejected.jsonl") if keep else None

    def killed(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(finish, "_join", killed)
    with pytest.raises(KeyboardInterrupt):
        writer.build_to_files([str(corpus)], str(target), rejected=rejected(first), shard_articles=2)
    monkeypatch.undo()
    with pytest.raises(InputError, match=r"other settings or inputs \(layout .*\"rejected\": "
                                         f"{str(first).lower()}.* then, .*\"rejected\": {str(then).lower()}"):
        writer.build_to_files([str(corpus)], str(target), rejected=rejected(then), shard_articles=2, resume=True)
    writer.build_to_files([str(corpus)], str(target), rejected=rejected(first), shard_articles=2, resume=True)
    assert target.is_file()


def test_a_build_recorded_before_the_choice_was_kept_resumes_as_one_that_writes_rejections(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = sample_corpus(tmp_path / "in", 1)
    target, rejected = tmp_path / "q.jsonl", str(tmp_path / "rejected.jsonl")

    def killed(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(finish, "_join", killed)
    with pytest.raises(KeyboardInterrupt):
        writer.build_to_files([str(corpus)], str(target), rejected=rejected, shard_articles=2)
    monkeypatch.undo()
    journal = tmp_path / ".q.jsonl.chemref-build" / "progress.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    del header["identity"]["layout"]["rejected"]  # as a journal written before the key was
    journal.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), encoding="utf-8")
    with pytest.raises(InputError, match=r"\"rejected\": true\} then, .*\"rejected\": false\} now"):
        writer.build_to_files([str(corpus)], str(target), shard_articles=2, resume=True)
    writer.build_to_files([str(corpus)], str(target), rejected=rejected, shard_articles=2, resume=True)
    assert target.is_file() and Path(rejected).read_text(encoding="utf-8").count("\n") > 0
