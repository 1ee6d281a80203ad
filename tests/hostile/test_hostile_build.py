"""The build and the JATS reader on hostile inputs: package members named like articles that hold no file,
file lists that name nothing or hide a file behind a comment, links in a resumed build's staging folder,
worker counts far above the work, scores made for other files, file names that are not UTF-8. Through the CLI
under a 1 GB address-space limit, each within a time bound."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes as recipes
from tests.hostile.cli_runner import CORPORA, assert_refused, chemref

SAMPLE = CORPORA / "jats" / "sample_zinc_knuckle.xml"


# -- a package member named like an article but holding no file is said, never dropped quietly
def test_package_members_that_hold_no_file_are_reported(tmp_path: Path) -> None:
    recipes.odd_package(tmp_path / "odd.tar.gz", SAMPLE.read_bytes())
    jats = chemref("jats", "odd.tar.gz", cwd=tmp_path, timeout=60)
    assert jats.returncode == 0 and "Traceback" not in jats.stderr, jats.stderr
    warnings = [line for line in jats.stderr.splitlines() if line.startswith("chemref: warning: ")]
    assert len(warnings) == 2 and "ok/device.xml" in warnings[0] and "character device" in warnings[0]
    assert "ok/pipe.nxml" in warnings[1] and "FIFO" in warnings[1]
    assert "folder.xml" not in jats.stderr  # a folder is no article: its members come on their own
    assert "article.xml" in jats.stdout
    build = chemref("questions", "build", "odd.tar.gz", "-o", "q.jsonl", "--min-score", "0", "--no-progress",
                    cwd=tmp_path, timeout=120)
    assert build.returncode == 0, build.stderr
    assert "articles: 1 given, 1 read, 0 unreadable" in build.stdout  # said, but no article given
    assert sum("not a file; not read" in line for line in build.stderr.splitlines()) == 2


# -- --files-from: a comment never hides a file; a list naming nothing is an error
@pytest.mark.parametrize("command", ["jats", "questions build"])
def test_a_comment_line_naming_an_existing_file_is_refused(tmp_path: Path, command: str) -> None:
    shutil.copyfile(SAMPLE, tmp_path / "#uploaded.xml")
    (tmp_path / "list.txt").write_text("# the uploads\n#uploaded.xml\n", encoding="utf-8")
    proc = chemref(*command.split(), "--files-from", "list.txt", *(("-o", "q.jsonl") if "build" in command else ()),
                   "--no-progress", cwd=tmp_path, timeout=60)
    assert_refused(proc, "list.txt:2", "#uploaded.xml", "./#uploaded.xml")
    (tmp_path / "list.txt").write_text("# the uploads\n./#uploaded.xml\n", encoding="utf-8")
    proc = chemref("jats", "--files-from", "list.txt", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0 and "#uploaded.xml" in proc.stdout, proc.stderr


@pytest.mark.parametrize("command", ["jats", "questions build"])
@pytest.mark.parametrize("text", ["", "\n\n", "# nothing listed yet\n"])
def test_a_file_list_naming_no_input_is_refused(tmp_path: Path, command: str, text: str) -> None:
    (tmp_path / "list.txt").write_text(text, encoding="utf-8")
    proc = chemref(*command.split(), "--files-from", "list.txt", *(("-o", "q.jsonl") if "build" in command else ()),
                   "--no-progress", cwd=tmp_path, timeout=60)
    assert_refused(proc, "list.txt", "names no inputs")


# -- --resume uses only the regular files the build wrote, never a link out of its folders
@pytest.mark.parametrize("what", ["shard", "journal", "staging folder"])
def test_resume_refuses_links_in_the_build_state(tmp_path: Path, what: str) -> None:
    corpus = recipes.sample_corpus(tmp_path / "corpus")
    staging = recipes.interrupted_build(corpus, tmp_path / "out")
    if what == "staging folder":
        moved = staging.rename(tmp_path / "elsewhere")
        os.symlink(moved, staging)
        victim = moved / "questions-00000.jsonl"
    else:
        link = staging / ("questions-00000.jsonl" if what == "shard" else "progress.jsonl")
        victim = link.rename(tmp_path / "outside.jsonl")
        os.symlink(os.path.relpath(victim, link.parent), link)
    before = victim.read_bytes()
    proc = chemref("questions", "build", corpus, "-o", f"{tmp_path / 'out'}/", "--shard-articles", "1",
                   "--no-progress", "--resume", cwd=tmp_path, timeout=120)
    assert_refused(proc, "symbolic link")
    assert victim.read_bytes() == before and not (tmp_path / "out" / "manifest.json").exists()
    assert not any(path.is_symlink() for path in (tmp_path / "out").glob("*.jsonl"))


# -- a worker count far above the work, or the machine, starts no more processes than can help
@pytest.mark.parametrize("command", ["jats", "questions build"])
def test_a_huge_worker_count_on_one_article_finishes(tmp_path: Path, command: str) -> None:
    out = ("-o", "q.jsonl", "--no-progress") if "build" in command else ()
    proc = chemref(*command.split(), SAMPLE, "--workers", "100000", *out, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.seconds < 45  # type: ignore[attr-defined]
    assert not any(p.name.endswith((".lock", "chemref-build")) for p in tmp_path.iterdir())


def test_the_pool_caps_its_processes_at_the_tasks_and_the_cpus() -> None:
    from chemref.pool import MAX_WORKERS_PER_CPU, cap_workers, resolve_jobs, usable_cpus

    assert cap_workers(100_000, 1) == 1 and cap_workers(100_000, 0) == 1 and cap_workers(3, 10) <= 3
    assert cap_workers(100_000) == MAX_WORKERS_PER_CPU * usable_cpus()
    assert resolve_jobs(100_000, 2) == 2


# -- evaluate --scores: scores made for other files are refused, not silently mixed with the build's
@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    return recipes.labelled_build(tmp_path_factory.mktemp("labelled"))


@pytest.mark.parametrize("case", ["unknown id", "labelled candidates without a score"])
def test_scores_that_do_not_cover_the_labels_are_refused(labelled: tuple[Path, Path, Path], tmp_path: Path,
                                                         case: str) -> None:
    labels, questions, rejected = labelled
    first = json.loads(labels.read_text(encoding="utf-8").splitlines()[0])["id"]
    rows = [{"id": json.loads(line)["id"], "score": 0.5} for line in labels.read_text(encoding="utf-8").splitlines()]
    if case == "unknown id":
        rows.append({"id": "no-such-candidate", "score": 0.9})
    else:
        rows = [row for row in rows if row["id"] == first]
    (tmp_path / "scores.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    proc = chemref("questions", "evaluate", labels, "--questions", questions, "--rejected", rejected, "--scores",
                   "scores.jsonl", "--reselect", cwd=tmp_path, timeout=60)
    assert_refused(proc, "scores.jsonl", "no-such-candidate" if case == "unknown id" else "have no score")


def test_scores_of_every_labelled_candidate_are_accepted(labelled: tuple[Path, Path, Path], tmp_path: Path) -> None:
    labels, questions, rejected = labelled
    rows = [{"id": json.loads(line)["id"], "score": 0.5} for line in labels.read_text(encoding="utf-8").splitlines()]
    (tmp_path / "scores.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    proc = chemref("questions", "evaluate", labels, "--questions", questions, "--rejected", rejected, "--scores",
                   "scores.jsonl", "--reselect", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr


# -- a file name that is not UTF-8 is written as the text \xNN, never as a character UTF-8 cannot hold
@pytest.mark.skipif(os.name != "posix", reason="file names of bytes that are not UTF-8 need a POSIX file system")
def test_jats_json_output_of_a_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    try:
        shutil.copyfile(SAMPLE, os.path.join(os.fsencode(tmp_path / "in"), b"caf\xe9.xml"))
    except OSError:
        pytest.skip("this file system refuses file names that are not UTF-8")
    proc = chemref("jats", "in", "--json", "-o", "out.jsonl", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    row = json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))
    assert row["file"] == "in/caf\\xe9.xml"


# -- a build writes only its own card: another build's card in the same folder is left as it is
def test_a_second_build_in_one_folder_keeps_the_first_builds_card(tmp_path: Path) -> None:
    for name, article in (("a.jsonl", SAMPLE), ("b.jsonl", CORPORA / "jats" / "sample_cu_tio2_co2.xml")):
        proc = chemref("questions", "build", article, "-o", name, "--min-score", "0", "--no-progress", cwd=tmp_path,
                       timeout=120)
        assert proc.returncode == 0, proc.stderr
    assert "path: a.jsonl" in (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "path: b.jsonl" in (tmp_path / "b.README.md").read_text(encoding="utf-8")
    again = chemref("questions", "build", SAMPLE, "-o", "a.jsonl", "--min-score", "0", "--no-progress", cwd=tmp_path,
                    timeout=120)
    assert again.returncode == 0 and "README.md (dataset card)" in again.stdout  # its own card is replaced
    assert not (tmp_path / "a.README.md").exists()


# -- baseline bm25: a --corpus that is not there is an error, not a silent fall-back to other folders
@pytest.mark.parametrize("corpus", ["no-such-folder", "a-file"])
def test_a_missing_bm25_corpus_is_refused(tmp_path: Path, corpus: str) -> None:
    (tmp_path / "a-file").write_text("x\n")
    proc = chemref("questions", "build", SAMPLE, "-o", "q.jsonl", "--min-score", "0", "--no-progress", cwd=tmp_path,
                   timeout=120)
    assert proc.returncode == 0, proc.stderr
    proc = chemref("baseline", "bm25", "q.jsonl", "-o", "p.jsonl", "--corpus", corpus, cwd=tmp_path, timeout=60)
    assert_refused(proc, corpus, "corpus")
    assert not (tmp_path / "p.jsonl").exists()


# -- a question id is one token of one line, whatever the PMCID or the file name it is made from
def test_question_ids_hold_no_whitespace_or_control_characters(tmp_path: Path) -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    start = text.index('<article-id pub-id-type="pmcid">') + len('<article-id pub-id-type="pmcid">')
    end = text.index("</article-id>", start)
    (tmp_path / "forged.xml").write_text(text[:start] + "PMC7&#13;chemref: error: forged&#10;x" + text[end:],
                                         encoding="utf-8")
    (tmp_path / "two words.xml").write_text(text[:start - len('<article-id pub-id-type="pmcid">')]
                                            + text[end + len("</article-id>"):], encoding="utf-8")
    proc = chemref("questions", "build", "forged.xml", "two words.xml", "-o", "q.jsonl", "--rejected", "r.jsonl",
                   "--min-score", "0", "--no-progress", cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for name in ("q.jsonl", "r.jsonl")
            for line in (tmp_path / name).read_text(encoding="utf-8").splitlines()]
    ids = {row["id"].rsplit("-p", 1)[0].rsplit("-c", 1)[0] for row in rows}
    assert ids == {"forged", "two_words"}  # a PMCID that is not PMC and digits is left out (id-invalid): the file names it


# -- an output on the build's own lock file or staging folder (which the build removes) is refused
@pytest.mark.parametrize("name", [".q.jsonl.chemref.lock", ".q.jsonl.chemref-build"])
def test_an_output_on_the_builds_own_working_files_is_refused(tmp_path: Path, name: str) -> None:
    proc = chemref("questions", "build", SAMPLE, "-o", "q.jsonl", "--rejected", name, "--no-progress", cwd=tmp_path,
                   timeout=60)
    assert_refused(proc, name, "would be the same file")
    assert sorted(p.name for p in tmp_path.iterdir()) == []
