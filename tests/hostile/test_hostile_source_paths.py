"""The source articles of a build are found by the BM25 baseline however the build was given its folder: a
relative path names them as given, an absolute one from the folder's name on (no machine path in a record), so
``--corpus`` takes ``source_file`` relative to the folder and to its parent, as the review page and
``questions difficulty`` do (:func:`chemref.inputs.contained.corpus_bases`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.hostile.cli_runner import CORPORA, assert_refused, chemref


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """``data/corpus`` (the sample articles), built from its absolute path into ``out/q.jsonl``, from ``run/``."""
    corpus = tmp_path / "data" / "corpus"
    corpus.mkdir(parents=True)
    for article in sorted((CORPORA / "jats").glob("*.xml")):
        shutil.copy(article, corpus)
    (tmp_path / "run").mkdir()
    proc = chemref("questions", "build", corpus, "-o", tmp_path / "out" / "q.jsonl", cwd=tmp_path / "run",
                   timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert '"source_file": "corpus/' in (tmp_path / "out" / "q.jsonl").read_text()
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("corpus", ["absolute", "relative"])
def test_bm25_finds_the_articles_of_a_build_given_an_absolute_path(built: Path, corpus: str) -> None:
    folder = built / "data" / "corpus" if corpus == "absolute" else Path("..") / "data" / "corpus"
    proc = chemref("baseline", "bm25", built / "out" / "q.jsonl", "--corpus", folder, "-o", built / "p.jsonl",
                   cwd=built / "run", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert '"dois": ["10.' in (built / "p.jsonl").read_text()


@pytest.mark.slow
def test_without_the_corpus_the_error_says_to_give_it(built: Path) -> None:
    proc = chemref("baseline", "bm25", built / "out" / "q.jsonl", "-o", built / "p.jsonl", cwd=built / "run",
                   timeout=60)
    assert_refused(proc, "corpus/sample_", "not found", "--corpus")
    assert not (built / "p.jsonl").exists()
