"""``chemref questions build``: the README's main command on the sample, outputs, and bad input."""

from __future__ import annotations

import json

import pytest

from tests.helpers import CORPORA

from chemref.cli import main
from chemref.questions.output.card import CARD_MARKER
from chemref.questions.funnel.records import QUESTION_FIELDS


@pytest.mark.slow
def test_no_input_builds_the_sample(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    status = main(["questions", "build", "-o", "questions.jsonl", "--report", "report.json",
                   "--rejected", "rejected.jsonl", "--no-progress"])
    out = capsys.readouterr().out
    assert status == 0
    assert "candidates" in out and "per_article_cap" in out and "survival rate" in out
    rows = [json.loads(line) for line in (tmp_path / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows and all(list(row) == list(QUESTION_FIELDS) for row in rows)
    rejected = [json.loads(line) for line in (tmp_path / "rejected.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rejected and all(list(row) == [*QUESTION_FIELDS, "reason"] for row in rejected)
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["questions"] == len(rows) and report["candidates"] == len(rows) + len(rejected)
    assert [r["filter"] for r in report["funnel"]][:7] == ["cc_by", "no_table_row", "no_caption_fragment",
                                                           "no_glued_sentences", "section", "no_display_formula",
                                                           "one_citation"]
    assert (tmp_path / "report.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    card = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\n") and CARD_MARKER in card and "path: questions.jsonl" in card
    assert not list(tmp_path.glob(".*.tmp"))  # atomic writes leave nothing behind


@pytest.mark.slow
def test_existing_readme_is_never_overwritten(tmp_path, capsys):
    (tmp_path / "README.md").write_text("# my project\n", encoding="utf-8")
    status = main(["questions", "build", str(CORPORA / "jats" / "sample_laccase_kinetics.xml"),
                   "-o", str(tmp_path / "questions.jsonl"), "--no-progress"])
    assert status == 0
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == "# my project\n"
    assert CARD_MARKER in (tmp_path / "questions.README.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_malformed_file_is_a_warning_and_the_run_goes_on(tmp_path, capsys):
    bad = tmp_path / "bad.nxml"
    bad.write_text("<article><body><p>unclosed</body></article>", encoding="utf-8")
    status = main(["questions", "build", str(bad), str(CORPORA / "jats"), "-o", str(tmp_path / "q.jsonl"),
                   "--report", str(tmp_path / "r.json")])
    captured = capsys.readouterr()
    assert status == 0
    assert "chemref: warning: skipped unreadable article" in captured.err and "bad.nxml" in captured.err
    assert "Traceback" not in captured.err
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["errors"] and report["errors"][0]["source_file"].endswith("bad.nxml")
    assert "1 unreadable" in captured.out


@pytest.mark.parametrize("args", [
    ["questions", "build", "does/not/exist.xml", "-o", "{tmp}/q.jsonl"],
    ["questions", "build", "-o", "{tmp}/q.jsonl", "--authors", "hide"],
    ["questions", "build", "-o", "{tmp}/q.jsonl", "--min-chars", "500", "--max-chars", "100"],
    ["questions", "build", "-o", "{tmp}/q.jsonl", "--workers", "0"],
])
def test_bad_arguments_exit_2_without_traceback(tmp_path, capsys, args):
    status = main([a.replace("{tmp}", str(tmp_path)) for a in args] + ["--no-progress"])
    err = capsys.readouterr().err
    assert status == 2
    assert "Traceback" not in err
    assert not (tmp_path / "q.jsonl").exists()


def test_only_unreadable_input_fails(tmp_path, capsys):
    bad = tmp_path / "bad.xml"
    bad.write_text("not xml at all", encoding="utf-8")
    status = main(["questions", "build", str(bad), "-o", str(tmp_path / "q.jsonl"), "--no-progress"])
    assert status == 2
    assert "no input article could be read" in capsys.readouterr().err
    assert not (tmp_path / "q.jsonl").exists()


@pytest.mark.slow
def test_output_loads_with_hugging_face_datasets(tmp_path):
    datasets = pytest.importorskip("datasets", reason="datasets is optional (not a chemref dependency)")
    status = main(["questions", "build", "-o", str(tmp_path / "questions.jsonl"), "--no-progress"])
    assert status == 0
    ds = datasets.load_dataset("json", data_files=str(tmp_path / "questions.jsonl"), split="train",
                               cache_dir=str(tmp_path / "cache"))
    assert ds.num_rows > 0 and ds.column_names == list(QUESTION_FIELDS)
    card = datasets.load_dataset(str(tmp_path), cache_dir=str(tmp_path / "cache2"))
    assert card["test"].num_rows == ds.num_rows


@pytest.mark.slow
def test_workers_2_writes_the_same_file(tmp_path):
    one, two = tmp_path / "one" / "q.jsonl", tmp_path / "two" / "q.jsonl"
    assert main(["questions", "build", "-o", str(one), "--no-progress"]) == 0
    assert main(["questions", "build", "-o", str(two), "--workers", "2"]) == 0
    assert one.read_bytes() == two.read_bytes()


def test_output_folder_holding_other_files_is_an_error(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    status = main(["questions", "build", "-o", str(tmp_path), "--no-progress"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "not empty and holds no chemref build" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("args", [
    ["-o", "{tmp}/q.jsonl", "--report", "{tmp}/q.jsonl"],
    ["-o", "{tmp}/q.jsonl", "--rejected", "{tmp}/q.jsonl"],
    ["-o", "{tmp}/q.jsonl", "--rejected", "{tmp}/r.json", "--report", "{tmp}/r.json"],
    ["-o", "{tmp}/q.png", "--report", "{tmp}/q.json"],
    ["-o", "{tmp}/README.md"],
    ["-o", "{tmp}/q.jsonl", "--rejected", "{tmp}/README.md"],
])
def test_outputs_on_the_same_file_are_an_error(tmp_path, capsys, args):
    """Two outputs on one path used to overwrite each other silently (the report replaced the questions)."""
    status = main(["questions", "build", *[a.replace("{tmp}", str(tmp_path)) for a in args], "--no-progress"])
    err = capsys.readouterr().err
    assert status == 2
    assert "would be the same file" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_output_over_an_input_article_is_an_error(tmp_path, capsys):
    import shutil

    article = tmp_path / "a.xml"
    shutil.copy(CORPORA / "jats" / "sample_lfp_carbon_coating.xml", article)
    before = article.read_bytes()
    status = main(["questions", "build", str(article), "-o", str(tmp_path / "q.jsonl"), "--report", str(article),
                   "--no-progress"])
    assert status == 2
    assert "would overwrite the input" in capsys.readouterr().err
    assert article.read_bytes() == before
