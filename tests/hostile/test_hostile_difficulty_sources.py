"""``questions difficulty`` reads only the articles inside the ``--corpus`` folders (without it, the working
folder): a record whose ``source_file`` is absolute, climbs out with ``..`` or leads outside is an error that
names only the folders given, and nothing is written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from chemref.errors import InputError
from chemref.cli.defaults import SAMPLE_CORPUS
from chemref.questions.output.difficulty import corpus_difficulty
from tests.helpers import ROOT

ARTICLE = sorted((ROOT / "corpora" / "jats").glob("*.xml"))[0]


def _questions(path: Path, source: str) -> Path:
    record = {"id": "q1", "excerpt": "a claim [CITATION].", "source_file": source, "score": 1.0,
              "target_title": "A title", "target_doi": "10.1/x"}
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("how", ["absolute", "dotdot", "outside-link"])
def test_a_source_outside_the_corpus_is_not_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  how: str) -> None:
    corpus, work, outside = tmp_path / "corpus", tmp_path / "work", tmp_path / "outside"
    for folder in (corpus, work, outside):
        folder.mkdir()
    shutil.copy(ARTICLE, outside / "a.xml")
    shutil.copy(ARTICLE, work / "a.xml")  # in the working folder, but not in the corpus given
    if how == "outside-link":
        (corpus / "a.xml").symlink_to(outside / "a.xml")
    source = {"absolute": str(outside / "a.xml"), "dotdot": "../outside/a.xml", "outside-link": "a.xml"}[how]
    monkeypatch.chdir(work)
    questions = _questions(work / "q.jsonl", source)
    with pytest.raises(InputError) as caught:
        corpus_difficulty([([questions], work / "out.jsonl")], corpus=corpus)
    message = str(caught.value)
    assert "is not read" in message and str(corpus) in message
    assert str(work) + "," not in message and str(SAMPLE_CORPUS) not in message
    assert not (work / "out.jsonl").exists()


def test_without_corpus_only_the_working_folder_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work, outside = tmp_path / "work", tmp_path / "outside"
    work.mkdir()
    outside.mkdir()
    shutil.copy(ARTICLE, outside / "a.xml")
    shutil.copy(ARTICLE, work / "a.xml")
    monkeypatch.chdir(work)
    for source in (str(outside / "a.xml"), "../outside/a.xml"):
        with pytest.raises(InputError, match="is not read"):
            corpus_difficulty([([_questions(work / "q.jsonl", source)], work / "out.jsonl")])
    summary = corpus_difficulty([([_questions(work / "q.jsonl", "a.xml")], work / "out.jsonl")])
    assert summary.articles == 1 and (work / "out.jsonl").exists()
