"""Which files an input stands for: one walker (``chemref.inputs.walk_jats``) and one input layer for
``chemref jats`` and the question builder (folders, files, ``--files-from``, PMC ``.tar.gz`` packages)."""

from __future__ import annotations

import io
import json
import os
import warnings
from pathlib import Path

import pytest

from tests.helpers import CORPORA, tar_package

from chemref.errors import InputError
from chemref.inputs.sources import iter_sources
from chemref.inputs.walk import walk_jats
from chemref.jats.report import run

SAMPLE = CORPORA / "jats" / "sample_zinc_knuckle.xml"


def test_folders_are_walked_recursively_and_sorted(tmp_path: Path) -> None:
    (tmp_path / "b" / "deep").mkdir(parents=True)
    for name in ("b/deep/z.nxml", "a.XML", "b/c.xml", "notes.txt", "b/deep/readme.md"):
        (tmp_path / name).write_text("<article/>", encoding="utf-8")
    (tmp_path / "folder.xml").mkdir()           # a folder named like a file is not a file
    found = [p.relative_to(tmp_path).as_posix() for p in walk_jats(tmp_path)]
    assert found == ["a.XML", "b/c.xml", "b/deep/z.nxml"]
    assert [s.path for s in iter_sources([tmp_path, SAMPLE])] == [str(tmp_path / f) for f in found] + [str(SAMPLE)]


def test_a_folder_without_articles_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="holds no .nxml or .xml files"):
        run([tmp_path], stream=io.StringIO())


@pytest.mark.skipif(os.geteuid() == 0, reason="root lists every folder")
def test_a_subfolder_that_cannot_be_listed_is_a_warning(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_text("<article/>", encoding="utf-8")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        with pytest.warns(UserWarning, match="cannot list the folder"):
            assert [p.name for p in walk_jats(tmp_path)] == ["a.xml"]
    finally:
        locked.chmod(0o755)


def test_a_symbolic_link_out_of_the_folder_is_a_warning(tmp_path: Path) -> None:
    inside = tmp_path / "in"
    inside.mkdir()
    (inside / "a.xml").write_text("<article/>", encoding="utf-8")
    os.symlink(SAMPLE, inside / "out.xml")
    with pytest.warns(UserWarning, match="outside"):
        assert [p.name for p in walk_jats(inside)] == ["a.xml"]


def test_jats_reads_the_same_files_as_the_question_builder() -> None:
    from chemref.inputs.sources import expand_inputs

    out = io.StringIO()
    assert run([CORPORA / "jats"], as_json=True, stream=out) == []
    files = [json.loads(line)["file"] for line in out.getvalue().splitlines()]
    assert files == [s.path for s in expand_inputs([CORPORA / "jats"])]


def _package(path: Path, members: dict[str, bytes]) -> Path:
    return tar_package(path, members)


def test_jats_reads_packages_and_file_lists(tmp_path: Path) -> None:
    data = SAMPLE.read_bytes()
    package = _package(tmp_path / "pkg.tar.gz", {"x/PMC1.nxml": data, "x/readme.txt": b"", "x/PMC2.xml": data})
    # a file list beside the package names a non-CC BY licence: chemref jats reads the member all the same
    (tmp_path / "pkg.filelist.csv").write_text("Article File,License\nx/PMC1.nxml,CC BY-NC\nx/PMC2.xml,CC BY\n")
    listing = tmp_path / "list.txt"
    listing.write_text(f"# inputs\n{package}\n\n{SAMPLE}\n", encoding="utf-8")
    out = io.StringIO()
    assert run([], as_json=True, stream=out, files_from=listing) == []
    files = [json.loads(line)["file"] for line in out.getvalue().splitlines()]
    assert files == ["pkg.tar.gz:x/PMC1.nxml", "pkg.tar.gz:x/PMC2.xml", str(SAMPLE)]


def test_jats_records_an_unexpected_exception_per_article(tmp_path: Path, monkeypatch) -> None:
    import chemref.jats.reader as reader

    good = tmp_path / "good.xml"
    bad = tmp_path / "bad.xml"
    good.write_bytes(SAMPLE.read_bytes())
    bad.write_bytes(SAMPLE.read_bytes().replace(b"<article ", b"<article data-boom='1' ", 1))
    real = reader.articles_of

    def boom(article, file, **kwargs):
        if article.get("data-boom"):
            raise KeyError("boom")
        return real(article, file, **kwargs)

    monkeypatch.setattr(reader, "articles_of", boom)
    out = io.StringIO()
    errors = run([bad, good], as_json=True, stream=out)
    assert [json.loads(line)["file"] for line in out.getvalue().splitlines()] == [str(good)]
    assert len(errors) == 1 and "KeyError" in str(errors[0]) and "bad.xml" in str(errors[0])
    assert "chemref bug" in str(errors[0])


def test_read_many_names_a_missing_file_and_goes_on(tmp_path: Path) -> None:
    from chemref.jats import read_many

    errors: list = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = list(read_many([tmp_path / "missing.xml", SAMPLE], on_error="skip", errors=errors))
    assert [a.file for a in got] == [str(SAMPLE)]
    assert "missing.xml" in str(errors[0]) and "no such file" in str(errors[0])
