"""``baseline bm25`` reads a record's ``source_file`` as ``questions difficulty`` does: only inside the
``--corpus`` folders (without them, beside the question file, in the working folder and in the sample
corpus); an absolute path, ``..`` or a link leading out is an error naming only those folders, whether or not
the file exists, and its references never reach the predictions."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from chemref.baseline.bm25 import bm25_predictions
from chemref.errors import InputError
from chemref.inputs.contained import MAX_NAME_CHARS, corpus_article
from tests.helpers import ROOT

ARTICLE = sorted((ROOT / "corpora" / "jats").glob("*.xml"))[0]


def _questions(path: Path, source: str) -> Path:
    path.write_text(json.dumps({"id": "q1", "excerpt": "a claim [CITATION].", "source_file": source}) + "\n",
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("corpus", [True, False])
@pytest.mark.parametrize("how", ["absolute", "absolute-missing", "dotdot", "outside-link", "corpus-dotdot"])
def test_a_source_outside_the_folders_is_not_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str,
                                                   corpus: bool) -> None:
    folder, work, outside = tmp_path / "corp", tmp_path / "work", tmp_path / "outside"
    for one in (folder, work, outside):
        one.mkdir()
    shutil.copy(ARTICLE, outside / "a.xml")
    (folder / "out.xml").symlink_to(outside / "a.xml")
    (work / "out.xml").symlink_to(outside / "a.xml")
    source = {"absolute": str(outside / "a.xml"), "absolute-missing": str(outside / "gone.xml"),
              "dotdot": "../outside/a.xml", "outside-link": "out.xml", "corpus-dotdot": "corp/../outside/a.xml"}[how]
    monkeypatch.chdir(work)
    questions = _questions(work / "q.jsonl", source)
    with pytest.raises(InputError) as caught:
        bm25_predictions(questions, corpus=folder if corpus else None)
    message = str(caught.value)
    assert "is not read" in message and ("refused" in message or "outside" in message), message
    assert str(outside) not in message.split("is not read", 1)[1], message  # names only the folders given


def test_a_source_inside_the_corpus_is_still_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, work = tmp_path / "corp", tmp_path / "work"
    folder.mkdir(), work.mkdir()
    shutil.copy(ARTICLE, folder / "a.xml")
    monkeypatch.chdir(work)
    predictions = bm25_predictions(_questions(work / "q.jsonl", "corp/a.xml"), corpus=folder, k=3)
    assert predictions[0]["id"] == "q1" and len(predictions[0]["dois"]) == 3
    beside = _questions(folder / "q.jsonl", "a.xml")  # without --corpus: beside the question file
    assert bm25_predictions(beside, k=3) == predictions


def test_a_source_file_name_longer_than_any_file_name_is_refused_in_words(tmp_path) -> None:
    path, why = corpus_article("a" * (MAX_NAME_CHARS + 1), [tmp_path.resolve()])
    assert path is None and "longer than 4,096 characters" in why
    path, why = corpus_article("d/" * 2000 + "x.xml", [tmp_path.resolve()])  # each part short, the whole too long
    assert path is None and why == "not found in the corpus folders"
