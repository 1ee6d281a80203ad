"""Input size bounds: what one input may make chemref do is linear in its size. Citation ranges expand a bounded
number of references; files of many articles, packages and file lists are read in linear time; formulas and
long texts through the chemicals component run in linear time and bounded memory; a saved chemicals
component's settings are checked before spaCy sees them."""

from __future__ import annotations

import json
import time
from pathlib import Path

from benchmarks.golden import hostile_recipes as recipes
from chemref.jats import read, read_articles
from chemref.jats.citations import MAX_EXPANDED, MAX_RANGE
from tests.hostile.cli_runner import chemref


def _anchors(article):  # type: ignore[no-untyped-def]
    def walk(sections):  # type: ignore[no-untyped-def]
        for section in sections:
            for paragraph in section.paragraphs:
                yield from paragraph.citations
            yield from walk(section.sections)
    yield from walk(article.abstracts + article.sections + article.back)


# -- citation ranges
def test_a_range_longer_than_the_cap_cites_only_its_ends() -> None:
    article = read(recipes.range_article(MAX_RANGE + 10, 3, "text").encode(), name="r.xml")
    anchors = list(_anchors(article))
    assert len(anchors) == 3
    assert all(a.ref_ids == ("R1", f"R{MAX_RANGE + 10}") for a in anchors)  # its end is read from its text
    codes = [d.code for d in article.diagnostics]
    assert codes.count("range-too-long") == 3


def test_a_range_under_the_cap_is_still_expanded() -> None:
    article = read(recipes.range_article(MAX_RANGE, 2, "text").encode(), name="r.xml")
    assert all(len(a.ref_ids) == MAX_RANGE for a in _anchors(article))
    assert not [d for d in article.diagnostics if d.code.startswith("range-")]


def test_the_ranges_of_one_article_expand_a_bounded_number_of_references() -> None:
    sentences = 3 * MAX_EXPANDED // (MAX_RANGE - 2)
    article = read(recipes.range_article(MAX_RANGE, sentences, "pair").encode(), name="r.xml")
    expanded = sum(len(a.expanded) for a in _anchors(article))
    assert MAX_EXPANDED - MAX_RANGE < expanded <= MAX_EXPANDED
    assert [d.code for d in article.diagnostics].count("range-budget-spent") == 1


def test_references_all_labelled_alike_do_not_amplify() -> None:
    article = read(recipes.range_article(3000, 200, "labels").encode(), name="r.xml")
    assert sum(len(a.ref_ids) for a in _anchors(article)) <= 2 * 200 + MAX_EXPANDED


def test_too_many_range_diagnostics_are_not_named_one_by_one() -> None:
    article = read(recipes.range_article(MAX_RANGE + 10, 500, "text").encode(), name="r.xml")
    too_long = [d for d in article.diagnostics if d.code == "range-too-long"]
    assert len(too_long) < 50 and "not named one by one" in too_long[-1].message


def test_a_range_of_huge_printed_numbers_is_not_an_error() -> None:
    article = recipes.range_article(3, 1, "text").replace("1\u20133</xref>", "1\u2013" + "9" * 5000 + "</xref>")
    assert "9" * 5000 in article
    assert read(article.encode(), name="r.xml").sections


def test_an_article_of_5000_references_cited_as_one_range_30000_times_reads_quickly(tmp_path: Path) -> None:
    (tmp_path / "r.xml").write_text(recipes.range_article(5000, 30_000, "text"), encoding="utf-8")
    proc = chemref("jats", "--json", "r.xml", "-o", "r.jsonl", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "r.jsonl").stat().st_size < 4 * (tmp_path / "r.xml").stat().st_size
    row = json.loads((tmp_path / "r.jsonl").read_text(encoding="utf-8"))
    assert any(d["code"] == "range-too-long" for d in row["diagnostics"])


# -- files of many articles
def test_a_file_of_many_articles_is_read_in_linear_time() -> None:
    small, large = recipes.articles_file(500).encode(), recipes.articles_file(4000).encode()

    def seconds(data: bytes) -> float:
        best = float("inf")
        for _ in range(2):
            started = time.perf_counter()
            read_articles(data, name="a.xml")
            best = min(best, time.perf_counter() - started)
        return best

    assert seconds(large) < 20 * seconds(small)  # 8 times the articles: about 8 times the time, not 64


def test_the_articles_of_a_file_keep_their_paths() -> None:
    articles = read_articles(recipes.articles_file(3).encode(), name="a.xml")
    assert [a.part for a in articles] == [f"/articles/article[{i}]" for i in (1, 2, 3)]
    assert articles[2].sections[0].paragraphs[0].path == "/articles/article[3]/body/sec/p"
