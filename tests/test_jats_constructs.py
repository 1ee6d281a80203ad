"""One minimal fixture of our own per construct that real JATS from many publishers uses (tests/data/jats/
constructs/), each with the citations, references and DOIs it must give."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import chemref.jats as jats
from chemref import read_jats
from chemref.jats.report import run

HERE = Path(__file__).parent / "data" / "jats" / "constructs"
W = {i: f"10.9999/w{i}" for i in range(1, 27)}


def citations(article: jats.Article) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(p.context, a.text, a.ref_ids) for _, p in article.paragraphs(include_back=True) for a in p.citations]


def cited_dois(article: jats.Article) -> list[str | None]:
    refs = article.references_by_id
    return [refs[r].doi for _, p in article.paragraphs(include_back=True) for a in p.citations for r in a.ref_ids]


# (fixture, expected citations, expected {ref id: (doi, authors, ambiguous)} of the cited references,
#  expected diagnostic codes)
GOLDEN = [
    ("scielo_paired_citations.xml", [("p", "1", ("B1",)), ("p", "2", ("B2",))],
     {"B1": ("10.1590/s0100-40422010000200001", ("Silva", "Souza"), False), "B2": (None, ("Lee", "Kim"), True)},
     ["ref-ambiguous"]),
    ("taxpub_treatment.xml", [("p", "1", ("B1",)), ("other", "1", ("B1",)), ("p", "2", ("B2",))],
     {"B1": (W[1], ("Smith",), False), "B2": (W[2], ("Smith",), False)}, []),
    ("attrib_citations.xml", [("attrib", "1", ("B1",)), ("attrib", "2", ("B2",))],
     {"B1": (W[1], ("Smith",), False), "B2": (W[2], ("Smith",), False)}, []),
    ("title_citations.xml", [("title", "1", ("B1",)), ("title", "2", ("B2",))],
     {"B1": (W[1], ("Smith",), False), "B2": (W[2], ("Smith",), False)}, []),
    ("range_between_xrefs.xml", [("p", "5)- (7", ("B5", "B6", "B7"))],
     {f"B{i}": (W[i], ("Smith",), False) for i in (5, 6, 7)}, []),
    ("multi_rid_range_text.xml", [("p", "[45-47]", ("B13", "B16", "B25")), ("p", "[3-5]", ("B3", "B4", "B5")),
                                  ("p", "[9-7]", ("B7", "B8", "B9"))],
     {f"B{i}": (W[i], ("Smith",), False) for i in (3, 4, 5, 7, 8, 9, 13, 16, 25)}, []),
    ("doi_without_prefix.xml", [("p", "1", ("B1",))],
     {"B1": ("10.1590/s0100-40422011000100002", ("Costa",), False)}, []),
    ("doi_in_publisher_url.xml", [("p", "1", ("B1",))], {"B1": ("10.1002/anie.201100001", ("Wong",), False)}, []),
    ("doi_beside_citation.xml", [("p", "1", ("B1",))], {"B1": ("10.9999/beside.7", ("Ono",), False)}, []),
    ("doi_glued_text.xml", [("p", "1", ("B1",))], {"B1": ("10.9999/iron.2012", ("Park",), False)}, []),
    ("doi_percent_escape.xml", [("p", "1", ("B1",))], {"B1": ("10.9999/a%41b", ("Ito",), False)}, []),
    ("line_separators.xml", [("p", "1", ("B1",))], {"B1": (W[1], ("Smith",), False)}, []),
]


@pytest.mark.parametrize("name, expected, refs, codes", GOLDEN, ids=[g[0] for g in GOLDEN])
def test_construct(name: str, expected: list, refs: dict, codes: list) -> None:
    article = read_jats(HERE / name)
    assert citations(article) == expected
    by_id = article.references_by_id
    assert {r: (by_id[r].doi, by_id[r].authors, by_id[r].ambiguous) for r in refs} == refs
    assert [d.code for d in article.diagnostics] == codes
    assert jats.Article.from_dict(json.loads(json.dumps(article.to_dict()))) == article


def test_paired_descriptions_keep_the_richer_fields() -> None:
    ref = read_jats(HERE / "scielo_paired_citations.xml").references_by_id["B1"]
    assert (ref.title, ref.year, ref.container_title, ref.publication_type, ref.dois) == (
        "Copper sites in zeolite catalysts", 2010, "Quim Nova", "journal", ("10.1590/s0100-40422010000200001",))


def test_taxpub_paragraph_paths() -> None:
    article = read_jats(HERE / "taxpub_treatment.xml")
    assert [(s.title, p.path) for s, p in article.paragraphs()] == [
        ("Taxonomy", "/article/body/sec/tp:taxon-treatment/tp:nomenclature/p"),
        ("Taxonomy", "/article/body/sec/tp:taxon-treatment/tp:nomenclature/tp:nomenclature-citation-list/"
                     "tp:nomenclature-citation"),
        ("Diagnosis", "/article/body/sec/tp:taxon-treatment/tp:treatment-sec/p")]


def test_every_article_of_an_articles_file() -> None:
    path = HERE / "articles_wrapper.xml"
    articles = jats.read_articles(path)
    assert [(a.pmcid, a.title, a.part, citations(a), cited_dois(a)) for a in articles] == [
        ("PMC9000011", "First", "/articles/article[1]", [("p", "1", ("B1",))], [W[1]]),
        ("PMC9000012", "Second", "/articles/article[2]", [("p", "2", ("B2",))], [W[2]])]
    first = read_jats(path)
    assert first.pmcid == "PMC9000011" and [d.code for d in first.diagnostics] == ["articles-more"]
    assert [a.pmcid for a in jats.read_many([path])] == ["PMC9000011", "PMC9000012"]
    out = io.StringIO()
    assert run([path], stream=out) == []
    assert "articles_wrapper.xml/articles/article[2]" in out.getvalue()


def test_every_article_of_an_articles_file_gets_questions_of_its_own() -> None:
    from chemref.questions import build

    result = build([HERE / "articles_wrapper.xml"], min_score=0, min_chars=0)
    ids = [r.id for r in result.questions + result.rejected]
    assert {i.split("-")[0] for i in ids} == {"PMC9000011", "PMC9000012"}
    assert [a.key for a in result.articles] == ["PMC9000011 PMC9000012"]


def test_sub_articles_are_read_on_request() -> None:
    path = HERE / "sub_article.xml"
    (main,) = jats.read_articles(path)
    assert citations(main) == [("p", "1", ("B1",))]
    assert [d.code for d in main.diagnostics] == ["sub-article-ignored"]
    main, reply = jats.read_articles(path, sub_articles=True)
    assert main.diagnostics == ()
    assert (reply.part, reply.doi, reply.title, reply.pmcid, citations(reply), cited_dois(reply)) == (
        "/article/sub-article", "10.9999/fixture.reply", "Author response", "PMC9000001", [("p", "2", ("B2",))],
        [W[2]])
    from chemref.questions.funnel.candidates import article_info

    assert (article_info(main).key, article_info(reply).key) == ("PMC9000001", "PMC9000001-s1")
    out = io.StringIO()
    assert run([path], as_json=True, stream=out, sub_articles=True) == []
    assert [json.loads(line)["part"] for line in out.getvalue().splitlines()] == [None, "/article/sub-article"]


def test_line_separators_are_escaped_in_json_lines() -> None:
    out = io.StringIO()
    assert run([HERE / "line_separators.xml"], as_json=True, stream=out) == []
    text = out.getvalue()
    assert "\u2028" not in text and "\u2029" not in text and "\\u2028" in text
    assert len(text.splitlines()) == 1
    row = json.loads(text)
    assert "One line\u2028and a paragraph\u2029end" in row["sections"][0]["paragraphs"][0]["text"]


def test_title_and_attrib_citations_are_counted_apart_and_not_questions() -> None:
    from chemref.questions import build

    result = build([HERE / "title_citations.xml", HERE / "attrib_citations.xml"], min_score=0, min_chars=0)
    got = sorted((r.id, r.reason) for r in result.rejected)
    # both fixtures carry PMCID PMC9000001: the second article built gets ids of its own (PMC9000001-2)
    assert got == [("PMC9000001-2-a0-s0", "section"), ("PMC9000001-2-a1-s0", "no_caption_fragment"),
                   ("PMC9000001-t0-s0", "section")]


def test_cli_reads_a_package(tmp_path: Path) -> None:
    import tarfile

    from chemref.cli import main

    package = tmp_path / "pkg.tar.gz"
    with tarfile.open(package, "w:gz") as archive:
        archive.add(HERE / "articles_wrapper.xml", arcname="a/articles_wrapper.xml")
        archive.add(HERE / "sub_article.xml", arcname="a/sub_article.xml")
    target = tmp_path / "out.jsonl"
    assert main(["jats", "--json", "--sub-articles", "-o", str(target), str(package)]) == 0
    rows = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert [(r["file"], r["part"]) for r in rows] == [
        ("pkg.tar.gz:a/articles_wrapper.xml", "/articles/article[1]"),
        ("pkg.tar.gz:a/articles_wrapper.xml", "/articles/article[2]"),
        ("pkg.tar.gz:a/sub_article.xml", None), ("pkg.tar.gz:a/sub_article.xml", "/article/sub-article")]


def test_taxpub_paragraphs_are_counted_apart_in_question_ids() -> None:
    from chemref.questions import build

    result = build([HERE / "taxpub_treatment.xml"], min_score=0, min_chars=0)
    assert sorted(r.id for r in result.questions + result.rejected) == [
        "PMC9000001-x0-s0", "PMC9000001-x1-s0", "PMC9000001-x2-s0"]
