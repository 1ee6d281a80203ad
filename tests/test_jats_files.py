"""Which files a folder of JATS articles stands for: subfolders included, case-insensitive suffixes, sorted,
and the same rule for ``chemref jats`` as for the question builder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import CORPORA

from chemref.errors import InputError
from chemref.jats.files import jats_files
from chemref.jats.report import expand_paths

SAMPLE = CORPORA / "jats" / "sample_zinc_knuckle.xml"


def test_folders_are_walked_recursively_and_sorted(tmp_path: Path) -> None:
    (tmp_path / "b" / "deep").mkdir(parents=True)
    for name in ("b/deep/z.nxml", "a.XML", "b/c.xml", "notes.txt", "b/deep/readme.md"):
        (tmp_path / name).write_text("<article/>", encoding="utf-8")
    (tmp_path / "folder.xml").mkdir()           # a folder named like a file is not a file
    found = [p.relative_to(tmp_path).as_posix() for p in jats_files(tmp_path)]
    assert found == ["a.XML", "b/c.xml", "b/deep/z.nxml"]
    assert expand_paths([tmp_path, SAMPLE]) == [str(tmp_path / f) for f in found] + [str(SAMPLE)]


def test_a_folder_without_articles_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="holds no .nxml or .xml files"):
        expand_paths([tmp_path])


def test_same_files_as_the_question_builder() -> None:
    from chemref.questions.builder import expand_inputs

    built = [s.path for s in expand_inputs([CORPORA])]
    assert expand_paths([CORPORA]) == built
