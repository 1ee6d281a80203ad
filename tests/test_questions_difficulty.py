"""The difficulty profile: the BM25 rank of the cited work among the article's references (in the build) and among
every cited work of the build (``chemref questions difficulty``), in the card, the report and ``evaluate``."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from chemref.baseline.bm25 import TitleIndex
from chemref.cli import main
from chemref.jsonl import read_jsonl
from chemref.questions.funnel.difficulty import bibliography_ranks, rank_bucket, work_key
from tests.helpers import ROOT

SAMPLES = ROOT / "corpora" / "jats"
LABELS = ROOT / "corpora" / "labels" / "sample_labels.jsonl"


def _ref(rid: str, title: str | None, doi: str | None = None) -> SimpleNamespace:
    return SimpleNamespace(id=rid, title=title, doi=doi, pmid=None)


REFS = [_ref("r1", "Copper single atoms on anatase photoreduce carbon dioxide", "10.1/a"),
        _ref("r2", "Laccase kinetics at low oxygen", "10.1/b"),
        _ref("r3", None, "10.1/c"),  # no title: not in the pool
        _ref("r4", "Copper single atoms on anatase photoreduce carbon dioxide", "10.1/a"),  # the same work again
        _ref("r5", "Zinc knuckles bind RNA", "10.1/d")]


def test_the_rank_among_the_article_s_titled_references() -> None:
    ranks = bibliography_ranks(REFS, [("r1", "Single copper atoms on anatase [CITATION] reduce carbon dioxide."),
                                      ("r4", "Single copper atoms on anatase [CITATION] reduce carbon dioxide."),
                                      ("r2", "Single copper atoms on anatase [CITATION] reduce carbon dioxide."),
                                      ("r3", "Anything [CITATION]."), (None, "Two citations [CITATION]."),
                                      ("r5", "Nothing shared with any title [CITATION].")])
    # r1 and r4 are one work (listed twice, counted once); r2 shares no word; an excerpt sharing no word with
    # any title ranks its target last among the 3 titled works (ties count against it); untitled: null
    assert ranks == [1, 1, 3, None, None, 3]


def test_ties_count_against_the_target() -> None:
    index = TitleIndex(["alpha beta", "alpha beta", "gamma"])
    assert index.rank("alpha beta [CITATION]", 0) == 2 and index.rank("alpha beta [CITATION]", 1) == 2
    assert index.rank("gamma [CITATION]", 2) == 1 and index.rank("delta [CITATION]", 2) == 3


def test_buckets_and_work_keys() -> None:
    assert [rank_bucket(r) for r in (1, 2, 5, 6, 20, 21, 100, 101, None, True, 0)] == \
        ["1", "2-5", "2-5", "6-20", "6-20", "21-100", "21-100", ">100", "none", "none", "none"]
    assert work_key("10.1/A", "5", "T") == "doi:10.1/a" and work_key(None, "5", "T") == "pmid:5"
    assert work_key(None, None, "  A  Title ") == work_key(None, None, "a title") and work_key(None, None, " ") is None


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("difficulty")
    assert main(["questions", "build", str(SAMPLES), "-o", str(out / "q.jsonl"), "--rejected", str(out / "r.jsonl"),
                 "--report", str(out / "report.json"), "--min-score", "0"]) == 0
    return out


def test_the_build_ranks_every_scored_record(build: Path) -> None:
    questions = [row for _, row in read_jsonl(build / "q.jsonl")]
    rejected = [row for _, row in read_jsonl(build / "r.jsonl")]
    assert questions and all(isinstance(q["bm25_rank_bibliography"], int) and q["bm25_rank_bibliography"] >= 1
                             for q in questions)
    assert all((r["bm25_rank_bibliography"] is not None) == (r["score"] is not None) for r in rejected)
    assert all(r["bm25_rank_corpus"] is None for r in [*questions, *rejected])
    report = json.loads((build / "report.json").read_text(encoding="utf-8"))
    assert sum(report["bm25_rank_bibliography"].values()) == len(questions)
    card = (build / "README.md").read_text(encoding="utf-8")
    assert "## Difficulty" in card and "| `bm25_rank_corpus` |" in card


def test_the_corpus_rank_post_pass(build: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # the build named its sources from the corpora/ folder on: --corpus finds them
    args = ["questions", "difficulty", str(build / "q.jsonl"), "--rejected", str(build / "r.jsonl"),
            "-o", "q2.jsonl", "--rejected-out", "r2.jsonl"]
    assert main(args) == 2
    assert "not found" in capsys.readouterr().err and not Path("q2.jsonl").exists()
    assert main([*args, "--corpus", str(SAMPLES.parent)]) == 0
    assert "cited works with a title in 5 articles" in capsys.readouterr().out
    before = [row for _, row in read_jsonl(build / "q.jsonl")]
    after = [row for _, row in read_jsonl("q2.jsonl")]
    assert [dict(row, bm25_rank_corpus=None) for row in after] == before
    assert all(isinstance(row["bm25_rank_corpus"], int) for row in after)
    # the corpus holds the article's own references and more: a work is never easier to find in it
    assert all(row["bm25_rank_corpus"] >= row["bm25_rank_bibliography"] for row in after)
    rejected = [row for _, row in read_jsonl("r2.jsonl")]
    assert all((row["bm25_rank_corpus"] is not None) == (row["score"] is not None) for row in rejected)


def test_post_pass_mistakes_are_one_line_errors(build: Path, tmp_path: Path, capsys) -> None:
    q = str(build / "q.jsonl")
    assert main(["questions", "difficulty", q, "-o", q]) == 2
    assert main(["questions", "difficulty", q, "-o", str(tmp_path / "a.jsonl"), "--rejected-out",
                 str(tmp_path / "b.jsonl")]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n', encoding="utf-8")
    assert main(["questions", "difficulty", str(bad), "-o", str(tmp_path / "c.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "needs --rejected" in err and "bad.jsonl:1: not a question record" in err
    assert not any(tmp_path.glob("[abc].jsonl"))


def test_evaluate_reports_each_signal_against_the_labels(build: Path, tmp_path: Path) -> None:
    from chemref.questions.labels.evaluate import evaluate
    from chemref.questions.labels.label import read_labels

    labels = read_labels(LABELS)
    questions = [row for _, row in read_jsonl(build / "q.jsonl")]
    rejected = [row for _, row in read_jsonl(build / "r.jsonl")]
    for n, row in enumerate([*questions, *rejected]):  # the judge's and the closed-book stage's fields, when there
        if row["score"] is not None:
            row["judge_confidence"] = round((n % 10) / 10, 1)
            row["closed_book_hits"] = n % 3
    result = evaluate(labels, questions, rejected)
    signals = {s.signal: s for s in result.signals}
    assert list(signals) == ["bm25_rank_bibliography", "judge_confidence", "closed_book_hits"]
    for signal in signals.values():
        assert signal.n == result.scored and signal.good == result.scored_good
        assert sum(b.n for b in signal.buckets) == signal.n and signal.auc is not None
    assert [b.bucket for b in signals["closed_book_hits"].buckets] == ["0", "1", "2"]
    text = result.to_text()
    assert "difficulty signals against good_question" in text and "closed_book_hits" in text
    rows = [row for row in result.to_report().table.rows if row["table"] == "difficulty"]
    assert {row["name"] for row in rows} >= {"bm25_rank_bibliography auc", "judge_confidence >=0.8"}


def test_a_folder_build_is_ranked_from_its_shards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    out = tmp_path / "out"
    assert main(["questions", "build", "corpora/jats", "-o", f"{out}/", "--shard-articles", "2", "--min-score", "0"]) == 0
    assert len(list(out.glob("questions-*.jsonl"))) == 3
    assert main(["questions", "difficulty", str(out), "-o", str(tmp_path / "ranked.jsonl"),
                 "--rejected-out", str(tmp_path / "ranked_rejected.jsonl")]) == 0
    ranked = [row for _, row in read_jsonl(tmp_path / "ranked.jsonl")]
    shards = [row for shard in sorted(out.glob("questions-*.jsonl")) for _, row in read_jsonl(shard)]
    assert [row["id"] for row in ranked] == [row["id"] for row in shards]
    assert all(isinstance(row["bm25_rank_corpus"], int) for row in ranked)
    rejected = sum(1 for shard in out.glob("rejected-*.jsonl") for _ in read_jsonl(shard))
    assert sum(1 for _ in read_jsonl(tmp_path / "ranked_rejected.jsonl")) == rejected
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["questions", "difficulty", str(empty), "-o", str(tmp_path / "x.jsonl")]) == 2
