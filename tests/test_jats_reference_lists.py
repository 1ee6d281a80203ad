"""References wherever JATS allows a <ref-list>, unstructured mixed citations, DOIs broken by white space.

The article in tests/data/jats/refs_in_body_mixed.nxml was written for chemref: references in a body
section, a nested list, a back list and a list inside a back section; mixed citations with and without
<string-name>; a DOI with a line break in it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chemref import read_jats
from chemref.jats.unstructured import parse_unstructured_citation

ARTICLE = Path(__file__).parent / "data" / "jats" / "refs_in_body_mixed.nxml"


@pytest.fixture(scope="module")
def art():
    return read_jats(ARTICLE)


def test_every_list_is_found(art):
    assert [r.id for r in art.references] == ["r1", "r2", "r3", "r4", "r5"]


def test_every_citation_resolves(art):
    cited = [rid for _, p in art.paragraphs() for c in p.citations for rid in c.ref_ids]
    assert sorted(set(cited)) == ["r1", "r2", "r3", "r4", "r5"]
    assert not [d for d in art.diagnostics if d.code.startswith(("citation", "xref"))]


def test_mixed_citation_fields(art):
    refs = {r.id: r for r in art.references}
    assert refs["r1"].title == "Dissolution rates of copper sulfate in warm water"
    assert refs["r1"].authors == ("Hartley", "Osei", "Brandt") and refs["r1"].year == 2014
    assert refs["r2"].title == "Anion effects on the colour of copper complexes"
    assert refs["r2"].authors == ("Osei", "Lindqvist") and refs["r2"].year == 2016
    assert refs["r3"].title == "Why blue? A survey of copper colours"
    assert refs["r3"].authors == ("Lindqvist", "Hartley") and refs["r3"].year == 2018
    assert refs["r4"].title == "A treatise on the solubility of salts" and refs["r4"].authors == ("Brandt",)
    assert refs["r5"].title == "Conductivity of dilute copper salt solutions"


def test_doi_broken_by_a_line_break_is_joined_and_reported(art):
    refs = {r.id: r for r in art.references}
    assert refs["r1"].doi == "10.1000/jsc.2014.0043"
    assert any(d.code == "ref-doi-whitespace" and "r1" in d.message for d in art.diagnostics)


def test_doi_broken_in_plain_text_is_reported_not_silently_cut():
    art = read_jats(
        b'<article><body><p>x</p></body><back><ref-list><ref id="a"><mixed-citation>Ng T. A note on rust. '
        b'Corros Lett. doi: 10.1000/corr. 778812</mixed-citation></ref></ref-list></back></article>')
    assert any(d.code == "ref-doi-maybe-truncated" for d in art.diagnostics)


UNSTRUCTURED = [
    ("Moreau C, Tan W (2020) Zinc plating from ionic liquids. Surf Eng 3:1-9.",
     (["Moreau", "Tan"], "Zinc plating from ionic liquids")),
    ("Moreau C, Tan W. Zinc plating from ionic liquids. Surf Eng. 2020;3:1-9.",
     (["Moreau", "Tan"], "Zinc plating from ionic liquids")),
    ("Moreau, C.; Tan, W. Zinc Plating from Ionic Liquids. Surf. Eng. 2020, 3, 1.",
     (["Moreau", "Tan"], "Zinc Plating from Ionic Liquids")),
    ("Moreau, C.; Tan, W. Surf. Eng. 2020, 3, 1.", (["Moreau", "Tan"], None)),
    ("C. Moreau and W. Tan, Zinc plating from ionic liquids, Surf. Eng., 2020, 3, 1.",
     (["Moreau", "Tan"], "Zinc plating from ionic liquids")),
    ("Moreau, C., & Tan, W. (2020). Zinc plating from ionic liquids. Surf Eng, 3, 1.",
     (["Moreau", "Tan"], "Zinc plating from ionic liquids")),
    ("de la Cruz M, Tan W, et al. (2021) Plating baths revisited in detail. Surf Eng 4:2.",
     (["de la Cruz", "Tan"], "Plating baths revisited in detail")),
    ("National Plating Board. Annual report on baths. Leeds; 2019.", ([], None)),
]


@pytest.mark.parametrize("text,expected", UNSTRUCTURED)
def test_unstructured_citation(text, expected):
    assert parse_unstructured_citation(text) == expected
