"""Front-matter metadata: authors (names, ORCID, affiliations, equal contribution, corresponding), keywords,
subjects, article type, dates, funding, the flat abstract and reference authors' given names, on fixtures of
our own (tests/data/jats/metadata/), one per family of constructs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chemref import read_jats
from chemref.cli import main
from chemref.jats import Article, ArticleDate, Author, Award, Funding
from chemref.jats.authors import affiliation_text, normalize_orcid, split_string_name

HERE = Path(__file__).parent / "data" / "jats" / "metadata"
CHEM = "Department of Chemistry, Example University, Springfield, USA"
CATALYSIS = "Institute of Catalysis, Lyon, France"
SHARED = ("Shared Institute, Oslo, Norway",)


def test_affiliations_through_xref_orcid_corresp_and_equal_notes() -> None:
    article = read_jats(HERE / "authors_xref_affs.xml")
    assert article.authors == (
        Author("Carberry", "Josiah", "0000-0002-1825-0097", (CHEM, CATALYSIS), equal_contribution=True),
        Author("Okafor", "Ada N.", None, (CATALYSIS,), equal_contribution=True, corresponding=True),
        # an xref of ref-type "fn" whose rid names a <corresp>
        Author("Lindqvist", "Per", None, (CHEM,), corresponding=True),
    )  # the editor is not an author
    assert article.article_type == "research-article"
    assert article.dates == (ArticleDate("publication", "2021-03-05", "epub"),)


def test_affiliation_inside_contrib_with_institution_wrap_and_orcid_links() -> None:
    article = read_jats(HERE / "authors_aff_inside_contrib.xml")
    assert article.authors == (
        Author("Moreau", "Claire", "0000-0002-1825-0097", ("Laboratory of Surfaces, University of Fixtures, "
                                                           "Grenoble, France",),
               equal_contribution=True, corresponding=True),
        Author("Tanaka", "Yuki", "0000-0001-5109-3700", ("Graduate School of Science, Example University, "
                                                         "Kyoto, Japan",), equal_contribution=True),
    )
    assert article.article_type == "review-article" and article.diagnostics == ()


def test_name_forms_collab_and_unlinked_affiliations() -> None:
    article = read_jats(HERE / "authors_names.xml")
    got = [(a.surname, a.given_names, a.collab, a.eastern, a.name) for a in article.authors]
    assert got == [
        ("Wang", "Xiaoming", None, True, "Wang Xiaoming"),
        ("Rossi", "Giulia M.", None, False, "Giulia M. Rossi"),
        ("Haddad", "JK", None, False, "JK Haddad"),
        ("Pereira", "Ana Lucia", None, False, "Ana Lucia Pereira"),
        ("Novak", "Tomas", None, False, "Tomas Novak"),
        ("Li", "Na", None, True, "Li Na"),                      # the first of <name-alternatives>
        (None, None, "The Fixture Consortium", False, "The Fixture Consortium"),  # its members are not authors
        ("Badcheck", "Orla", None, False, "Orla Badcheck"),
    ]
    # no aff xref anywhere: the contrib-group's <aff> applies to every author of the group
    assert all(a.affiliations == SHARED for a in article.authors)
    # a wrong check digit: left out, and said
    assert article.authors[-1].orcid is None
    assert [d.code for d in article.diagnostics] == ["orcid-invalid"]


def test_dates_keywords_subjects_funding_and_abstract_text() -> None:
    article = read_jats(HERE / "dates_keywords_funding.xml")
    assert article.dates == (
        ArticleDate("publication", "2022-11-30", "pub", "electronic"),
        ArticleDate("publication", "2023-02", "ppub"),
        ArticleDate("publication", "2023", "collection"),
        ArticleDate("publication", "2022", "nihms-submitted"),
        ArticleDate("publication", "2024", "pmc-release"),
        ArticleDate("history", "2022-07-12", "received"),
        ArticleDate("history", "2022-10-03", "accepted"),
    )
    codes = [d.code for d in article.diagnostics]
    assert codes[:2] == ["date-part-unparseable", "date-unparseable"]
    assert article.keywords == ("copper", "CO2 reduction", "cuivre", "C01 Catalysis")
    assert article.subjects == ("Research Article", "Chemistry", "Catalysis")
    assert article.funding == Funding(
        ("This work was supported by the NSF and the ERC.", "The funders had no role in study design."),
        (Award(("National Science Foundation",), ("CHE-1234567", "CHE-7654321")),
         Award(("European Research Council",), ("ERC-StG 101",))))
    # the untyped abstract, not the graphical one before it nor the translation; paragraphs joined by spaces
    assert article.abstract_text == "Copper is active. It works."
    assert len(article.abstracts) == 3


def test_funding_inside_a_support_group() -> None:
    assert read_jats(HERE / "funding_support_group.xml").funding == Funding(
        ("Funded by the Fixture Research Agency (FRA-42).",), (Award(("Fixture Research Agency",), ("FRA-42",)),))


def test_reference_given_names_follow_the_authors() -> None:
    refs = read_jats(HERE / "dates_keywords_funding.xml").references_by_id
    assert (refs["R1"].authors, refs["R1"].given_names) == (("Curie", "The Radium Group", "Joliot"),
                                                            ("M", None, None))
    assert (refs["R2"].authors, refs["R2"].given_names) == (("Smith", "Lee"), (None, None))


@pytest.mark.parametrize("name", sorted(p.name for p in HERE.glob("*.xml")))
def test_metadata_round_trips_and_is_in_the_json_output(name: str, capsys) -> None:
    article = read_jats(HERE / name)
    assert Article.from_dict(json.loads(json.dumps(article.to_dict()))) == article
    assert main(["jats", "--json", str(HERE / name)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert set(line) >= {"authors", "keywords", "subjects", "article_type", "dates", "funding", "abstract_text"}
    assert all(set(a) >= {"given_names", "surname", "orcid", "affiliations"} for a in line["authors"])
    assert all(len(r["given_names"]) == len(r["authors"]) for r in line["references"])


@pytest.mark.parametrize("value, expected", [
    ("https://orcid.org/0000-0002-1825-0097", "0000-0002-1825-0097"),
    ("0000000218250097", "0000-0002-1825-0097"),
    ("http://orcid.org/0000-0002-1694-233x", "0000-0002-1694-233X"),   # check digit X, lower case
    ("0000-0002-1825-0098", None),                                       # wrong check digit
    ("orcid.org/1234", None),
])
def test_normalize_orcid(value: str, expected: str | None) -> None:
    assert normalize_orcid(value) == expected


@pytest.mark.parametrize("text, expected", [
    ("Rossi, Giulia M.", ("Rossi", "Giulia M.")),
    ("Haddad JK", ("Haddad", "JK")),
    ("Haddad J-P", ("Haddad", "J-P")),
    ("Ana Lucia Pereira", ("Pereira", "Ana Lucia")),
    ("Plato", ("Plato", None)),
    ("  ", (None, None)),
])
def test_split_string_name(text: str, expected: tuple) -> None:
    assert split_string_name(text) == expected


@pytest.mark.parametrize("xml, expected", [
    ("<aff><label>1</label>Dept of X, Univ Y</aff>", "Dept of X, Univ Y"),
    ("<aff><sup>a</sup>Dept of X</aff>", "Dept of X"),                                  # a leading sup is a label
    ("<aff><bold>12</bold><institution>Dept of X</institution></aff>", "Dept of X"),   # so is a short bold
    ("<aff><bold>Dept of X</bold>, Lima</aff>", "Dept of X, Lima"),
    ("<aff><institution>Univ</institution><country>Peru</country></aff>", "Univ, Peru"),  # no separator given
    ("<aff>University of <italic>Fixtures</italic>, Lima</aff>", "University of Fixtures, Lima"),
    ("<aff><institution>Univ</institution> , <country>Peru</country>.</aff>", "Univ, Peru"),
])
def test_affiliation_text(xml: str, expected: str) -> None:
    from lxml import etree

    assert affiliation_text(etree.fromstring(xml)) == expected
