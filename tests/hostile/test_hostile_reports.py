"""Hostile inputs to what chemref writes: FP/FN lists and error pages bounded like the score, a COREFERENCE
budget per submission, names that would run as spreadsheet formulas or terminal escapes, dataset cards that a
name could forge, and a review page that reads articles only from the corpus folders it is given. Each CLI case
runs under a 1 GB address-space limit and a time bound (tests/hostile/cli_runner.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes_brat as recipes_brat
from tests.hostile.cli_runner import assert_refused, chemref

# bounds that catch what was quadratic (minutes, gigabytes) on a loaded two-core machine
SLOW = 60.0
CHAIN = 1_399  # 1,400 mentions in one COREFERENCE chain: 979,300 links once expanded, under the default limit


def _chain_case(root: Path) -> None:
    recipes_brat.folders(root, recipes_brat.coref_chains(1, 20), recipes_brat.coref_chains(1, CHAIN),
                         text_chars=4 * (CHAIN + 2))


# -- --errors and --html are bounded like the score
def test_the_fp_list_of_a_long_chain_is_capped_with_a_count_of_what_was_left_out(tmp_path: Path) -> None:
    _chain_case(tmp_path)
    proc = chemref("score", "brat", "gold", "pred", "--errors", "--json", cwd=tmp_path, timeout=SLOW)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    expanded = report["relations"]["exact"]["coref_expanded"]["overall"]
    assert expanded["fp"] + expanded["tp"] == CHAIN * (CHAIN + 1) // 2  # the counts stay complete
    listed = [e for e in report["errors"] if e["report"] == "relations/exact/coref_expanded"]
    assert len(listed) == 1_000
    left = report["errors_left_out"]["doc"]["relations/exact/coref_expanded"]
    assert left + len(listed) == expanded["fp"] + expanded["fn"]
    assert "left out of the error list" in proc.stderr and "--max-error-records" in proc.stderr


def test_the_listed_records_are_the_first_ones_in_the_records_order(tmp_path: Path) -> None:
    from chemref.scoring import score_brat

    gold, pred = recipes_brat.folders(tmp_path, recipes_brat.coref_chains(1, 5),
                                      recipes_brat.coref_chains(3, 30), text_chars=600)
    whole = score_brat(gold, pred, errors=True, max_error_records=None)
    capped = score_brat(gold, pred, errors=True, max_error_records=7)
    for label in {e["report"] for e in whole["errors"]}:
        first = [e for e in whole["errors"] if e["report"] == label][:7]
        assert [e for e in capped["errors"] if e["report"] == label] == first
    assert whole["relations"] == capped["relations"] and "errors_left_out" not in whole


def test_the_error_page_of_a_long_chain_is_written_in_seconds(tmp_path: Path) -> None:
    _chain_case(tmp_path)
    proc = chemref("score", "brat", "gold", "pred", "--html", "page.html", cwd=tmp_path, timeout=SLOW)
    assert proc.returncode == 0, proc.stderr[-2000:]
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert len(page) < 5_000_000
    assert "the error page lists the first 1,000" in page or "does not list" in page


# -- a COREFERENCE budget over the whole submission
def test_a_submission_past_the_coreference_budget_is_refused_naming_the_option(tmp_path: Path) -> None:
    for side, shift in (("gold", 0), ("pred", 1)):
        folder = tmp_path / side
        folder.mkdir()
        for n in range(4):  # four documents of one 300-link chain: 45,150 links each once expanded
            (folder / f"d{n}.ann").write_text(recipes_brat.coref_chains(1, 300, shift) if side == "pred"
                                              else "T1\tReaction_product 0 3\tabc\n", encoding="utf-8")
    proc = chemref("score", "brat", "gold", "pred", "--max-coref-total", "100000", cwd=tmp_path, timeout=SLOW)
    assert_refused(proc, "d2.ann", "per submission", "--max-coref-total")
    proc = chemref("score", "brat", "gold", "pred", "--max-coref-total", "200000", cwd=tmp_path, timeout=SLOW)
    assert proc.returncode == 0, proc.stderr


def test_forty_long_chains_are_refused_by_the_default_budget_in_seconds(tmp_path: Path) -> None:
    for side in ("gold", "pred"):
        (tmp_path / side).mkdir()
    chain = recipes_brat.coref_chains(1, CHAIN, 1)  # 979,300 links each once expanded: 40 of them hold 39 million
    for n in range(40):
        (tmp_path / "gold" / f"d{n:02}.ann").write_text("T1\tReaction_product 0 3\tabc\n", encoding="utf-8")
        (tmp_path / "pred" / f"d{n:02}.ann").write_text(chain, encoding="utf-8")
    proc = chemref("score", "brat", "gold", "pred", cwd=tmp_path, timeout=SLOW)
    assert_refused(proc, "pred/d05.ann", "5,000,000 links per submission", "--max-coref-total")


def test_the_budget_holds_with_two_workers(tmp_path: Path) -> None:
    from chemref.errors import ScoringError
    from chemref.scoring import score_brat

    for side in ("gold", "pred"):
        (tmp_path / side).mkdir()
        for n in range(4):
            text = recipes_brat.coref_chains(1, 100) if side == "pred" else "T1\tReaction_product 0 3\tabc\n"
            (tmp_path / side / f"d{n}.ann").write_text(text, encoding="utf-8")
    with pytest.raises(ScoringError, match="per submission"):
        score_brat(tmp_path / "gold", tmp_path / "pred", jobs=2, max_coref_total=15_000)
    assert score_brat(tmp_path / "gold", tmp_path / "pred", jobs=2, max_coref_total=25_000)["documents"] == 4


# -- CSV cells that a spreadsheet would run, and control characters for the terminal
FORMULAS = ("=HYPERLINK(\"http://x\",\"y\")", "@SUM(A1)", "+1+1", "-2+3")
ESCAPES = "\x1b]0;owned\x07\x1b[2J\r"


def _hostile_names(root: Path) -> None:
    """A prediction whose types and relation type are formulas and terminal escapes, and whose document (a
    file name) starts with ``=``."""
    name = "=1+1"
    for side in ("gold", "pred"):
        (root / side).mkdir()
        (root / side / f"{name}.txt").write_text("Sodium chloride was added to the flask.", encoding="utf-8")
    (root / "gold" / f"{name}.ann").write_text("T1\tReaction_product 0 15\tSodium chloride\n", encoding="utf-8")
    lines = [f"T{i + 1}\t{kind} 0 6\tSodium" for i, kind in enumerate(FORMULAS)]
    lines += [f"T9\tx{ESCAPES.replace(chr(13), '')}y 16 24\tchloride", "R1\t=cmd|'/C%20calc'!A0 Arg1:T1 Arg2:T9"]
    (root / "pred" / f"{name}.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _csv_rows(text: str) -> list[list[str]]:
    import csv
    import io

    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("extra", [[], ["--errors", "--per-doc"]])
def test_no_csv_cell_starts_a_formula(tmp_path: Path, extra: list[str]) -> None:
    _hostile_names(tmp_path)
    proc = chemref("score", "brat", "gold", "pred", "--csv", *extra, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = _csv_rows(proc.stdout)
    cells = [c for row in rows[1:] for c in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")], cells
    types = {row[2] for row in rows[1:]}
    assert {"'" + f for f in FORMULAS} <= types and "'=cmd|'/C%20calc'!A0" in types
    assert all(not c or c.replace(".", "").isdigit() for row in rows[1:] for c in row[3:9])  # numbers as numbers
    if extra:
        assert "'=1+1" in {row[0] for row in rows[1:]}


def test_leaderboard_csv_neutralises_names_from_folders_and_keeps_negative_numbers(work: Path) -> None:
    import shutil

    shutil.copytree(work / "pred", work / "=2+3")
    (work / "=2+3" / "r001.ann").write_text("", encoding="utf-8")
    proc = chemref("score", "brat", "gold", "pred", "=2+3", "--csv", "--resamples", "200", "--trials", "200",
                   cwd=work, timeout=SLOW)
    assert proc.returncode == 0, proc.stderr
    rows = _csv_rows(proc.stdout)
    header = rows[0]
    systems = [row[header.index("system")] for row in rows[1:]]
    assert "'=2+3" in systems and "pred" in systems
    differences = [row[header.index("difference_to_best")] for row in rows[1:]]
    assert any(d.startswith("-0.") for d in differences), differences  # a number, not a text: no quote


def test_csv_cell_is_the_one_rule() -> None:
    from chemref.scoring.report.formats import csv_cell

    assert [csv_cell(x) for x in ("=1", "+1", "-1", "@A", "\tx", "\rx", "a=b", "")] == \
        ["'=1", "'+1", "'-1", "'@A", "'\\tx", "'\\rx", "a=b", ""]
    assert (csv_cell(-0.5), csv_cell(-3), csv_cell(None)) == ("-0.5000", "-3", "")


@pytest.mark.parametrize("form", [[], ["--markdown"], ["--errors"], ["--brateval", "--level", "entities"],
                                  ["--brateval", "--level", "relations", "--errors", "--per-doc"]])
def test_no_terminal_escape_reaches_a_report(tmp_path: Path, form: list[str]) -> None:
    _hostile_names(tmp_path)
    proc = chemref("score", "brat", "gold", "pred", *form, "-o", "report.txt", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "report.txt").read_text(encoding="utf-8")
    assert "\x1b" not in text and "\x07" not in text and "\r" not in text
    # shown escaped, as the warnings show it (a Markdown cell also escapes the bracket)
    assert "\\x1b]0;owned\\x07" in text or "\\x1b\\]0;owned\\x07" in text
    proc = chemref("score", "brat", "gold", "pred", *form, cwd=tmp_path)  # printed on stdout (a pipe here)
    assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout


def test_a_leaderboard_in_markdown_escapes_html_and_links_in_run_names(tmp_path: Path) -> None:
    names = ["<img src=x onerror=alert(1)>", "**bold**[l](javascript:alert(1))"]
    for name in names:
        (tmp_path / f"{name}.run").write_text("q1 Q0 d1 1 9 x\n", encoding="utf-8")
    (tmp_path / "qrels.txt").write_text("q1 0 d1 1\n", encoding="utf-8")
    proc = chemref("score", "ranking", "--format", "trec", "qrels.txt", *[f"{name}.run" for name in names],
                   "--markdown", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "<img" not in proc.stdout and "&lt;img src=x onerror=alert(1)&gt;" in proc.stdout
    assert "[l](javascript" not in proc.stdout and "\\[l\\](javascript" in proc.stdout  # no link: brackets escaped


# -- the review page reads articles only inside the corpus folders it is given
PLANTED = "PLANTED-TITLE-FROM-OUTSIDE"


def _review_case(root: Path, source_file: str) -> None:
    from benchmarks.golden import hostile_recipes as recipes

    article = recipes.jats_article("Yields rose [CIT].").replace("A cited work on yields", PLANTED)
    (root / "outside").mkdir(exist_ok=True)
    (root / "outside" / "secret.xml").write_text(article, encoding="utf-8")
    (root / "corpus").mkdir(exist_ok=True)
    (root / "corpus" / "inside.xml").write_text(article.replace(PLANTED, "A title inside the corpus"),
                                                encoding="utf-8")
    (root / "corpus" / "link.xml").symlink_to(root / "outside" / "secret.xml")
    record = {"id": "a-p1-s1", "excerpt": "Yields rose [CITATION].", "reason": "one_citation",
              "ref_id": "R1 R2", "source_file": source_file}
    (root / "q.jsonl").write_text("", encoding="utf-8")
    (root / "rejected.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")


@pytest.mark.parametrize("source", ["ABSOLUTE", "../outside/secret.xml", "corpus/../outside/secret.xml",
                                    "corpus/link.xml", "outside/secret.xml"])
def test_the_review_page_reads_no_article_outside_its_corpus_folders(tmp_path: Path, source: str) -> None:
    work = tmp_path / "work"
    work.mkdir()
    source = str(work / "outside" / "secret.xml") if source == "ABSOLUTE" else source
    _review_case(work, source)
    proc = chemref("questions", "review", "q.jsonl", "--rejected", "rejected.jsonl", "--corpus", "corpus",
                   "-o", "review.html", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert PLANTED not in (work / "review.html").read_text(encoding="utf-8")
    assert "not read" in proc.stderr and "references are named by id only" in proc.stderr


def test_the_review_page_reads_an_article_inside_its_corpus_folder(tmp_path: Path) -> None:
    _review_case(tmp_path, "corpus/inside.xml")
    proc = chemref("questions", "review", "q.jsonl", "--rejected", "rejected.jsonl", "--corpus", "corpus",
                   "-o", "review.html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "A title inside the corpus" in (tmp_path / "review.html").read_text(encoding="utf-8")
    proc = chemref("questions", "review", "q.jsonl", "--rejected", "rejected.jsonl", "-o", "review.html",
                   cwd=tmp_path)  # no --corpus: no article is read, and a warning says how to show the titles
    assert proc.returncode == 0 and "--corpus" in proc.stderr
    assert "A title inside the corpus" not in (tmp_path / "review.html").read_text(encoding="utf-8")


# -- the dataset card: a name cannot forge its YAML header, a DOI or file name cannot add rows or HTML
def _card_header(card: str) -> dict:
    import yaml

    parts = card.split("---\n")
    return yaml.safe_load(parts[1])


def test_an_output_name_cannot_forge_the_cards_yaml_header(tmp_path: Path) -> None:
    from benchmarks.golden import hostile_recipes as recipes

    (tmp_path / "a.xml").write_text(recipes.jats_article("Yields of the reaction were reported before [CIT]."),
                                    encoding="utf-8")
    name = "q #x: y\n  - split: train\n    path: forged.jsonl\n---\n# forged.jsonl"
    proc = chemref("questions", "build", "a.xml", "-o", name, "--no-progress", cwd=tmp_path, timeout=SLOW)
    assert proc.returncode == 0, proc.stderr
    card = (tmp_path / "README.md").read_text(encoding="utf-8")
    header = _card_header(card)
    assert header["configs"] == [{"config_name": "default", "data_files": [{"split": "test", "path": name}]}]
    lines = card.splitlines()
    assert lines.count("---") == 2 and "# forged.jsonl" not in lines
    assert not [line for line in lines if line.lstrip().startswith(("- split: train", "path: forged"))]
    proc = chemref("questions", "build", "a.xml", "-o", name, "--no-progress", cwd=tmp_path, timeout=SLOW)
    assert proc.returncode == 0 and not (tmp_path / "q #x: y").exists()  # the same card is its own, rewritten


def test_a_doi_or_file_name_cannot_add_rows_or_html_to_the_sources_table() -> None:
    from chemref.questions.funnel.settings import BuildSettings
    from chemref.questions.output.card import render_card
    from chemref.questions.output.totals import BuildTotals

    licence = "https://creativecommons.org/licenses/by/4.0/"
    totals = BuildTotals(articles=2, read=2, with_questions=2, questions=2, licences=[licence],
                         sources=[["a\n| forged | row | x | 9 |\n.xml", None, licence, 1],
                                  ["PMC1", "10.1/x|y<img src=x onerror=alert(1)>&", licence, 1]])
    card = render_card(totals, "q.jsonl", settings=BuildSettings())
    table = card.split("## Sources", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in table.splitlines() if line.startswith("|")]
    assert len(rows) == 4  # header, rule, two sources
    assert "<img" not in card and "&lt;img src=x onerror=alert(1)&gt;&amp;" in card
    assert "10.1/x\\|y" in card and "| forged |" not in card.replace("\\|", "")
