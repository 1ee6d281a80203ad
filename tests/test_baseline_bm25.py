"""BM25 baseline: predictions from a candidate pool (file or the source articles' references), end to end
through ``chemref baseline bm25`` and ``chemref score questions``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from chemref.baseline import titles_bm25
from chemref.baseline.bm25 import STOP_WORDS, TitleIndex, bm25_predictions, query_text
from chemref.cli import main
from chemref.errors import ChemrefError, InputError
from chemref.scoring import score_questions

DATA = Path(__file__).parent / "data" / "scoring"
QUESTIONS = DATA / "questions.jsonl"
POOL = DATA / "pool.jsonl"


def _jats_reader_available() -> bool:
    try:
        from chemref.jats.reader import read  # noqa: F401
    except ImportError:
        return False
    return True


needs_reader = pytest.mark.skipif(not _jats_reader_available(), reason="chemref.read_jats is not available yet")


def test_query_text_drops_the_marker() -> None:
    assert query_text("A [CITATION] and B [CITATIONS].").split() == ["A", "and", "B", "."]


def test_pool_file_ranks_the_target_first() -> None:
    predictions = bm25_predictions(QUESTIONS, pool=POOL, k=5)
    assert [p["id"] for p in predictions] == ["q1", "q2", "q3", "q4", "q5", "q6"]
    assert all(len(p["dois"]) == 5 and p["scores"] == sorted(p["scores"], reverse=True) for p in predictions)
    report = score_questions(QUESTIONS, predictions)
    assert report["accuracy@1"] == 1.0


def test_k_larger_than_the_pool_and_ties_in_pool_order(tmp_path: Path) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"id": 1, "excerpt": "Nothing in common here [CITATION].",
                                     "target_doi": "10.9999/none"}) + "\n", encoding="utf-8")
    diagnostics: list[str] = []
    (prediction,) = bm25_predictions(questions, pool=POOL, k=1000, diagnostics=diagnostics)
    pool_order = [json.loads(line)["doi"].lower().removeprefix("https://doi.org/")
                  for line in POOL.read_text().splitlines()]
    assert prediction["id"] == "1" and prediction["dois"] == pool_order and set(prediction["scores"]) == {0.0}
    assert any("not in the pool" in d for d in diagnostics)


def test_cli_pipeline_with_a_pool_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "preds.jsonl"
    assert main(["baseline", "bm25", str(QUESTIONS), "-o", str(out), "--pool", str(POOL)]) == 0
    capsys.readouterr()
    assert main(["score", "questions", str(QUESTIONS), str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["accuracy@1"] == 1.0 and report["recall@10"] == 1.0 and report["n"] == 6


@needs_reader
def test_cli_pipeline_with_the_reference_pool(tmp_path: Path, capsys: pytest.CaptureFixture,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # source_file names are found beside the question file, not in the cwd
    out = tmp_path / "preds.jsonl"
    assert main(["baseline", "bm25", str(QUESTIONS), "-o", str(out)]) == 0
    predictions = [json.loads(line) for line in out.read_text().splitlines()]
    # the pool: references with a DOI and a title in both articles, the shared one counted once
    assert {len(p["dois"]) for p in predictions} == {6}
    capsys.readouterr()
    assert main(["score", "questions", str(QUESTIONS), str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["accuracy@1"] == 1.0


@needs_reader
def test_corpus_folder_resolves_bare_source_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``chemref questions build FOLDER`` writes source_file relative to FOLDER: --corpus FOLDER finds them."""
    monkeypatch.chdir(tmp_path)
    records = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines()]
    for record in records:
        record["source_file"] = Path(record["source_file"]).name
    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    with pytest.raises(InputError, match="not found"):
        bm25_predictions(questions)
    predictions = bm25_predictions(questions, corpus=DATA / "articles")
    assert score_questions(questions, predictions)["accuracy@1"] == 1.0


@needs_reader
def test_questions_built_from_a_package_find_their_articles_inside_it(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A question built from a PMC package has ``source_file`` ``package.tar.gz:member.xml``."""
    import tarfile

    monkeypatch.chdir(tmp_path)
    with tarfile.open(tmp_path / "pkg.tar.gz", "w:gz") as archive:
        for article in sorted((DATA / "articles").iterdir()):
            archive.add(article, arcname=f"batch/{article.name}")
    records = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines()]
    for record in records:
        record["source_file"] = f"pkg.tar.gz:batch/{Path(record['source_file']).name}"
    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    predictions = bm25_predictions(questions)
    assert score_questions(questions, predictions)["accuracy@1"] == 1.0
    records[0]["source_file"] = "pkg.tar.gz:batch/absent.nxml"
    questions.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    with pytest.raises(InputError, match="'pkg.tar.gz:batch/absent.nxml' not found"):
        bm25_predictions(questions)


def test_missing_source_article_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"id": "x", "excerpt": "Text [CITATION].", "source_file": "gone.nxml"}) + "\n",
                         encoding="utf-8")
    out = tmp_path / "preds.jsonl"
    out.write_text("earlier output\n", encoding="utf-8")
    with pytest.raises(ChemrefError, match="--pool FILE"):
        bm25_predictions(questions)
    assert main(["baseline", "bm25", str(questions), "-o", str(out)]) == 2
    assert capsys.readouterr().err.startswith("chemref: error: ")
    assert out.read_text() == "earlier output\n"  # nothing half-written, nothing lost
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


BAD = [
    ("q.jsonl", '{"id": "x"}\n', "has no 'excerpt'"),
    ("q.jsonl", '{"id": "x", "excerpt": "A [CITATION]."}\n', "no source_file"),
    ("pool", '{"doi": "nonsense", "title": "T"}\n', "no valid 'doi'"),
    ("pool", '{"doi": "10.1000/a"}\n', "has no 'title'"),
    ("pool", "", "pool is empty"),
]


@pytest.mark.parametrize(("which", "text", "message"), BAD)
def test_bad_input(tmp_path: Path, which: str, text: str, message: str) -> None:
    path = tmp_path / ("pool.jsonl" if which == "pool" else "q.jsonl")
    path.write_text(text, encoding="utf-8")
    if which == "pool":
        with pytest.raises(InputError, match=message):
            bm25_predictions(QUESTIONS, pool=path)
    else:
        with pytest.raises(InputError, match=message):
            bm25_predictions(path)


def test_imports_stay_light() -> None:
    code = ("import sys, chemref.scoring.benchmarks.ranking, chemref.scoring.benchmarks.pubmedqa, chemref.scoring.benchmarks.citation_prediction, "
            "chemref.baseline.bm25, chemref.cli.score_benchmarks, chemref.cli.baseline; "
            "heavy = [m for m in ('spacy', 'bm25s', 'numpy', 'ranx') if m in sys.modules]; "
            "assert not heavy, heavy")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_title_index_imports_no_other_chemref_module() -> None:
    code = ("import sys, chemref.baseline.titles_bm25; "
            "loaded = sorted(m for m in sys.modules if m.startswith('chemref') and m not in "
            "('chemref', 'chemref.baseline', 'chemref.baseline.titles_bm25', 'chemref._version', 'chemref._lazy', 'chemref.errors')); "
            "heavy = [m for m in ('numpy', 'bm25s', 'lxml') if m in sys.modules]; "
            "assert not loaded and not heavy, (loaded, heavy)")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_rank_counts_the_titles_scoring_at_least_as_high() -> None:
    index = TitleIndex(["copper atoms", "copper", "zinc oxide", "copper atoms"], ["copper atoms [CITATION]", "tin"])
    assert [index.query_rank(0, t) for t in range(4)] == [2, 3, 4, 2]  # a tie counts against the target
    assert [index.query_rank(1, t) for t in range(4)] == [4, 4, 4, 4]  # no word in common: every title last
    assert index.query_rank(0, 7) == 4 and index.query_rank(0, -1) == 4  # no such title: last


def test_the_streamed_index_scores_as_the_listed_one() -> None:
    titles = ["Copper single atoms on anatase", "The", "Laccase kinetics at low oxygen", "Copper–zinc alloys: a review",
              "NMR of 13C-labelled laccase"]
    listed, streamed = TitleIndex(titles), TitleIndex.streamed(iter(titles))
    assert streamed.size == listed.size == 5
    for excerpt in ("Copper atoms [CITATION] on anatase.", "the [CITATION] of", "Laccase NMR [CITATION].", ""):
        assert list(streamed.scores(excerpt)) == pytest.approx(list(listed.scores(excerpt)))
    assert TitleIndex.streamed(iter(["The", "of a"])).rank("the [CITATION]", 0) == 2


def _bm25s_scores(titles: list[str], query: str) -> list[float]:
    """What ``bm25s`` gives for ``query`` over ``titles`` (its defaults, English stop words), as float64."""
    import bm25s
    import numpy as np

    tokens = bm25s.tokenize([*titles, query_text(query)], return_ids=False, show_progress=False, stopwords="en")
    if not any(tokens[:-1]) or not tokens[-1]:
        return [0.0] * len(titles)
    retriever = bm25s.BM25()
    retriever.index(tokens[:-1], show_progress=False)
    if not retriever.get_tokens_ids(tokens[-1]):
        return [0.0] * len(titles)
    return list(np.asarray(retriever.get_scores(tokens[-1]), dtype=float))


def test_the_numbers_are_bm25s_to_the_last_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("bm25s")
    from bm25s.stopwords import STOPWORDS_EN

    assert STOP_WORDS == frozenset(STOPWORDS_EN)
    rng = random.Random(7)
    words = ["the", "of", "a", "Copper", "copper", "ZINC", "nmr", "x", "13C", "laccase", "é", "αβ", "İstanbul", "with",
             "anatase", "—", "1,2-diol", "ab", "DNA", "rna", *(f"w{i}" for i in range(40))]
    for _ in range(150):
        titles = [" ".join(rng.choices(words, k=rng.randint(0, 14))) for _ in range(rng.randint(1, 30))]
        queries = [" ".join(rng.choices(words, k=rng.randint(0, 20))) + " [CITATION]" for _ in range(3)]
        index, streamed = TitleIndex(titles, queries), TitleIndex.streamed(iter(titles))
        for n, query in enumerate(queries):
            expected = _bm25s_scores(titles, query)
            assert list(index.query_scores(n)) == expected == list(streamed.scores(query))
            ranks = [1 + sum(other >= value for j, other in enumerate(expected) if j != t)
                     for t, value in enumerate(expected)]
            assert [index.query_rank(n, t) for t in range(len(titles))] == ranks
            monkeypatch.setattr(titles_bm25, "_SPARSE_MAX", -1)  # every query through numpy: the same ranks
            assert [streamed.rank(query, t) for t in range(len(titles))] == ranks
            monkeypatch.undo()
