"""Smaller hostile cases: outputs that keep what was read, identifiers and names from untrusted files, options
checked against their inputs, state files never overwritten by an output. Each runs the CLI under a 1 GB
address-space limit and a time bound."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes_minor as recipes  # noqa: E402
from tests.hostile.cli_runner import CORPORA, PREVIOUS, assert_refused, chemref  # noqa: E402

SAMPLE = CORPORA / "jats" / "sample_zinc_knuckle.xml"


# -- jats -o FILE writes what -o - prints
def test_jats_output_file_keeps_the_articles_that_were_read(work: Path) -> None:
    (work / "mix").mkdir()
    shutil.copy(SAMPLE, work / "mix" / "a.xml")
    (work / "mix" / "b.xml").write_text(recipes.UNCLOSED_ARTICLE)
    piped = chemref("jats", "mix", "--json", "-o", "-", cwd=work)
    written = chemref("jats", "mix", "--json", "-o", "out.txt", cwd=work)
    assert piped.returncode == written.returncode == 2
    assert (work / "out.txt").read_text() == piped.stdout  # the good article is not dropped
    assert [json.loads(line)["file"] for line in piped.stdout.splitlines()] == ["mix/a.xml"]
    assert "mix/b.xml" in written.stderr and "1 input could not be read" in written.stderr
    assert "Traceback" not in written.stderr


def test_jats_output_file_is_kept_when_nothing_could_be_read(work: Path) -> None:
    (work / "b.xml").write_text(recipes.UNCLOSED_ARTICLE)
    assert_refused(chemref("jats", "b.xml", "--json", "-o", "out.txt", cwd=work), "b.xml")
    assert (work / "out.txt").read_text() == PREVIOUS


# -- ids read from JATS are validated; ids of questions are one token
def test_a_forged_pmcid_is_a_diagnostic_and_never_an_id(tmp_path: Path) -> None:
    source = (CORPORA / "jats" / "sample_laccase_kinetics.xml").read_text(encoding="utf-8")
    (tmp_path / "a.xml").write_text(recipes.forged_id_article(source), encoding="utf-8")
    (tmp_path / "b.xml").write_text(recipes.forged_id_article(source, kind="pmid"), encoding="utf-8")
    proc = chemref("jats", "a.xml", "b.xml", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    first, second = (json.loads(line) for line in proc.stdout.splitlines())
    assert first["pmcid"] is None and second["pmid"] is None
    for row, name in ((first, "PMCID"), (second, "PMID")):
        [diag] = [d for d in row["diagnostics"] if d["code"] == "id-invalid"]
        assert name in diag["message"] and "\\r" in diag["message"] and "\r" not in diag["message"]
    proc = chemref("questions", "build", "a.xml", "-o", "q.jsonl", "--no-progress", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    ids = [json.loads(line)["id"] for line in (tmp_path / "q.jsonl").read_text().splitlines()]
    assert ids and all(i.startswith("a-p") for i in ids)


def test_question_ids_from_file_names_hold_no_white_space(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    shutil.copy(CORPORA / "jats" / "sample_cu_tio2_co2.xml", tmp_path / "in" / "cu\ttio2 \nco2.xml")
    proc = chemref("questions", "build", "in", "-o", "q.jsonl", "--no-progress", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    ids = [json.loads(line)["id"] for line in (tmp_path / "q.jsonl").read_text().splitlines()]
    assert ids and all(i.startswith("cu_tio2") and i.isprintable() and len(i.split()) == 1 for i in ids)


# -- zip member names
def _gold_members(prefix: str) -> dict[str, str]:
    return {f"{prefix}{n}.ann": (CORPORA / "brat" / "gold" / f"{n}.ann").read_text() for n in ("r001", "r002", "r003")}


@pytest.mark.parametrize("mode", [(), ("--brateval",)])
def test_a_zip_member_climbing_out_with_dot_dot_is_refused(work: Path, mode: tuple) -> None:
    from benchmarks.golden.hostile_recipes import small_zip

    small_zip(work / "up.zip", _gold_members("../"))
    proc = chemref("score", "brat", *mode, "gold", "up.zip", "-o", "out.txt", cwd=work)
    assert_refused(proc, "up.zip", "'..'", "../r001.ann")
    assert (work / "out.txt").read_text() == PREVIOUS


def test_backslash_member_names_are_folders_with_one_note(work: Path) -> None:
    from benchmarks.golden.hostile_recipes import small_zip

    small_zip(work / "win.zip", _gold_members("run\\"))
    small_zip(work / "unix.zip", _gold_members("run/"))
    win = chemref("score", "brat", "gold", "win.zip", "--json", cwd=work)
    unix = chemref("score", "brat", "gold", "unix.zip", "--json", cwd=work)
    assert win.returncode == unix.returncode == 0, win.stderr
    assert json.loads(win.stdout)["relations"] == json.loads(unix.stdout)["relations"]
    assert [line for line in win.stderr.splitlines() if "backslash" in line] == win.stderr.splitlines()
    assert len(win.stderr.splitlines()) == 1


def test_a_zip_of_only_links_says_what_it_left_out(work: Path) -> None:
    recipes.link_only_zip(work / "link.zip")
    proc = chemref("score", "brat", "gold", "link.zip", "-o", "out.txt", cwd=work)
    assert_refused(proc, "link.zip", "no .ann files found", "symbolic link")
    assert "root:" not in proc.stderr
    assert (work / "out.txt").read_text() == PREVIOUS


# -- train-selector: folds grouped by article cannot outnumber the articles
@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    from benchmarks.golden.hostile_recipes import labelled_build

    return labelled_build(tmp_path_factory.mktemp("labelled"))


def test_more_folds_than_labelled_articles_are_said_and_recorded(labelled: tuple[Path, Path, Path],
                                                                 tmp_path: Path) -> None:
    labels, questions, rejected = labelled
    proc = chemref("questions", "train-selector", labels, "--questions", questions, "--rejected", rejected,
                   "-o", "s.json", "--folds", "1000", cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    meta = json.loads((tmp_path / "s.json").read_text())["meta"]
    assert meta["folds"] == meta["articles"] < 1000
    assert f"1000 cross-validation folds asked for, but the labels cover {meta['articles']} articles" in proc.stderr


# -- a build's outputs never land on its own state
@pytest.mark.parametrize("option, name", [
    ("--rejected", ".q.jsonl.chemref.lock"),
    ("--report", ".q.jsonl.chemref.lock"),
    ("--rejected", ".q.jsonl.chemref-build"),
    ("--report", ".q.jsonl.chemref-build/report.json"),
])
def test_an_output_on_the_builds_lock_or_staging_folder_is_refused(tmp_path: Path, option: str, name: str) -> None:
    shutil.copy(CORPORA / "jats" / "sample_cu_tio2_co2.xml", tmp_path / "a.xml")
    proc = chemref("questions", "build", "a.xml", "-o", "q.jsonl", option, name, "--no-progress", cwd=tmp_path)
    assert_refused(proc, name.split("/")[0], "build's")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.xml"]


# -- a finished build whose outputs cannot be written says how to finish it
_FAILING_CHART = """
import errno, os, sys
import chemref.questions.output.report as report
def full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "r.png")
report.write_chart = full_disk
from chemref.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_build_whose_report_cannot_be_written_says_how_to_finish(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.hostile.cli_runner import ROOT, _limit_memory

    shutil.copy(CORPORA / "jats" / "sample_cu_tio2_co2.xml", tmp_path / "a.xml")
    build = ("questions", "build", "a.xml", "-o", "q.jsonl", "--report", "r.json", "--no-progress")
    (tmp_path / "q.jsonl").write_text(PREVIOUS)
    proc = subprocess.run([sys.executable, "-c", _FAILING_CHART, *build], cwd=tmp_path, text=True, timeout=60,
                          capture_output=True, env={"PYTHONPATH": str(ROOT), "PATH": ""}, preexec_fn=_limit_memory)
    assert_refused(proc, "r.png", "kept in '.q.jsonl.chemref-build'", "--resume")
    assert (tmp_path / "q.jsonl").read_text() == PREVIOUS
    done = chemref(*build, "--resume", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "r.png").is_file() and (tmp_path / "q.jsonl").read_text() != PREVIOUS
    assert not (tmp_path / ".q.jsonl.chemref-build").exists()


# -- baseline bm25: a corpus folder given must be one
@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("built")
    proc = chemref("questions", "build", CORPORA / "jats", "-o", "q.jsonl", "--no-progress", cwd=folder)
    assert proc.returncode == 0, proc.stderr
    return folder / "q.jsonl"


@pytest.mark.parametrize("pool", [(), ("--pool", "pool.jsonl")])
@pytest.mark.parametrize("corpus, needle", [("missing", "does not exist"), ("q.jsonl", "not a folder")])
def test_a_corpus_that_is_no_folder_is_refused(built: Path, tmp_path: Path, corpus: str, needle: str,
                                               pool: tuple) -> None:
    shutil.copy(built, tmp_path / "q.jsonl")
    (tmp_path / "pool.jsonl").write_text('{"doi": "10.1000/x", "title": "A study of zinc knuckles"}\n')
    proc = chemref("baseline", "bm25", "q.jsonl", "-o", "p.jsonl", *pool, "--corpus", corpus, cwd=tmp_path)
    assert_refused(proc, corpus, needle)
    assert not (tmp_path / "p.jsonl").exists()


# -- score ranking / score questions: ids and titles that name nothing
@pytest.mark.parametrize("side, text, needle", [
    ("G.jsonl", '{"id": "q1", "relevant": ["", "d1"]}\n', "'relevant' item 1 is empty"),
    ("P.jsonl", '{"id": "q1", "ranking": ["d1", "  "]}\n', "'ranking' item 2 is blank"),
])
def test_an_empty_document_id_is_refused(tmp_path: Path, side: str, text: str, needle: str) -> None:
    (tmp_path / "G.jsonl").write_text('{"id": "q1", "relevant": ["d1"]}\n')
    (tmp_path / "P.jsonl").write_text('{"id": "q1", "ranking": ["d1"]}\n')
    (tmp_path / side).write_text(text)
    assert_refused(chemref("score", "ranking", "G.jsonl", "P.jsonl", cwd=tmp_path), f"{side}:1", needle)


@pytest.mark.parametrize("items, needle", [
    ("[null, 5]", "item 1 is null"), ('["10.1000/x", true]', "item 2 is a boolean"), ('[["10.1000/x"]]', "item 1 is a list"),
    ("7", "found a number"), ('[""]', "item 1 is empty"),
])
def test_a_prediction_list_names_its_bad_item(tmp_path: Path, items: str, needle: str) -> None:
    (tmp_path / "q.jsonl").write_text('{"id": "q1", "target_doi": "10.1000/x"}\n')
    (tmp_path / "p.jsonl").write_text(f'{{"id": "q1", "dois": {items}}}\n')
    assert_refused(chemref("score", "questions", "q.jsonl", "p.jsonl", cwd=tmp_path), "p.jsonl:1", needle)


def test_a_gold_title_that_normalises_to_nothing_is_refused(tmp_path: Path) -> None:
    header = "id\texcerpt\ttarget_paper_title\ttarget_paper_url\tsource_paper_title\tsource_paper_url\tyear\tsplit\n"
    (tmp_path / "g.tsv").write_text(header + "1\tAs shown [CITATION].\tA real title\t\t\t\t2020\ttest\n"
                                    + "2\tAs shown [CITATION].\t!!!\t\t\t\t2020\ttest\n")
    (tmp_path / "p.jsonl").write_text('{"id": 1, "titles": ["A real title"]}\n{"id": 2, "titles": ["!!!"]}\n')
    proc = chemref("score", "questions", "g.tsv", "p.jsonl", "--format", "citeme", cwd=tmp_path)
    assert_refused(proc, "g.tsv:3", "'!!!'", "no letter or digit")


def test_a_predicted_title_that_normalises_to_nothing_is_reported(tmp_path: Path) -> None:
    (tmp_path / "q.jsonl").write_text('{"id": "q1", "target_title": "A real title"}\n'
                                      '{"id": "q2", "target_title": "Another real title"}\n')
    (tmp_path / "p.jsonl").write_text('{"id": "q1", "titles": ["A real title"]}\n{"id": "q2", "titles": ["?!"]}\n')
    proc = chemref("score", "questions", "q.jsonl", "p.jsonl", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "no letter or digit" in proc.stderr and "'q2'" in proc.stderr


# -- an entity-expansion bomb is named as one, not as malformed XML at a made-up place
def test_an_entity_bomb_is_named_as_a_safety_limit(tmp_path: Path) -> None:
    (tmp_path / "bomb.xml").write_text(recipes.entity_bomb())
    proc = chemref("jats", "bomb.xml", "--json", cwd=tmp_path)
    assert_refused(proc, "bomb.xml: ", "safety limits", "entity")
    assert "malformed" not in proc.stderr and "not well-formed" not in proc.stderr
    assert "bomb.xml:1:" not in proc.stderr


# -- PMC packages: a member name given twice, a file list that contradicts itself or undercounts
def _article_bytes(name: str) -> bytes:
    return (CORPORA / "jats" / name).read_bytes()


def test_a_second_package_member_of_one_name_is_reported_not_read(tmp_path: Path) -> None:
    recipes.package_with_twins(tmp_path / "p.tar.gz", "x/a.xml", _article_bytes("sample_cu_tio2_co2.xml"),
                               _article_bytes("sample_zinc_knuckle.xml"))
    proc = chemref("jats", "p.tar.gz", "--json", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["file"] for r in rows] == ["p.tar.gz:x/a.xml"]
    assert rows[0]["title"] == json.loads(chemref("jats", CORPORA / "jats" / "sample_cu_tio2_co2.xml", "--json",
                                                  cwd=tmp_path).stdout)["title"]
    assert "p.tar.gz:x/a.xml: a second member of this name" in proc.stderr


def test_a_file_list_giving_one_member_two_licences_is_refused(tmp_path: Path) -> None:
    from benchmarks.golden.hostile_recipes import package

    package(tmp_path / "p.tar.gz", {"x/a.xml": _article_bytes("sample_cu_tio2_co2.xml")})
    (tmp_path / "p.filelist.csv").write_text("Article File,License\nx/a.xml,CC BY\nx/a.xml,CC BY-NC\n")
    proc = chemref("questions", "build", "p.tar.gz", "-o", "q.jsonl", "--no-progress", cwd=tmp_path)
    assert_refused(proc, "p.filelist.csv:3", "x/a.xml", "'CC BY'", "'CC BY-NC'")
    assert not (tmp_path / "q.jsonl").exists()


def test_progress_past_a_file_lists_count_drops_the_total() -> None:
    import io

    from chemref.progress import Progress

    stream = io.StringIO()
    bar = Progress(2, stream=stream, every=1e9)
    for _ in range(5):
        bar.update()
    bar.close()
    assert "5 articles" in stream.getvalue() and "/2" not in stream.getvalue() and "%" not in stream.getvalue()


# -- score brat: a relation from a mention to itself is scored, with a warning
def test_a_relation_of_a_mention_to_itself_is_reported(tmp_path: Path) -> None:
    for side in ("gold", "pred"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "d.txt").write_text("Aaa bbb ccc.")
    (tmp_path / "gold" / "d.ann").write_text("T1\tX 0 3\tAaa\nT2\tX 4 7\tbbb\nR1\tCOREFERENCE Arg1:T1 Arg2:T2\n")
    (tmp_path / "pred" / "d.ann").write_text("T1\tX 0 3\tAaa\nT5\tX 0 3\tAaa\nR1\tCOREFERENCE Arg1:T1 Arg2:T5\n")
    proc = chemref("score", "brat", "gold", "pred", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "pred/d.ann: 1 relation(s) link a mention to itself" in proc.stderr
    assert "gold/d.ann" not in proc.stderr
