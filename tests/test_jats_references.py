"""Golden table: where a reference's DOI sits -> (doi, doi_source); plus PMID, authors, year, ambiguity."""

from __future__ import annotations

import pytest
from tests.jats_helpers import article

import chemref.jats as jats
from chemref import read_jats


def one_ref(content: str, ref_id: str = "R1") -> jats.Reference:
    art = read_jats(article("<p>x</p>", f'<ref id="{ref_id}"><label>1</label>{content}</ref>'))
    (ref,) = art.references
    return ref


# (ref content, expected (doi, doi_source))
DOI_CASES = [
    pytest.param('<element-citation><pub-id pub-id-type="doi">10.1021/JA123</pub-id></element-citation>',
                 ("10.1021/ja123", "pub-id"), id="pub-id"),
    pytest.param('<mixed-citation>A. <pub-id pub-id-type="pmid">123</pub-id> '
                 '<pub-id pub-id-type="doi">10.1/x</pub-id></mixed-citation>', (None, None),
                 id="pub-id-not-a-doi"),
    pytest.param('<mixed-citation>A. <pub-id pub-id-type="doi">10.1000/abc</pub-id> '
                 '<pub-id pub-id-type="pmid">123</pub-id></mixed-citation>', ("10.1000/abc", "pub-id"),
                 id="doi-then-pmid"),
    pytest.param('<element-citation><ext-link ext-link-type="uri" xlink:href="https://doi.org/10.1101/2020.01.01.1">'
                 'link</ext-link></element-citation>', ("10.1101/2020.01.01.1", "ext-link"), id="ext-link-href"),
    pytest.param('<element-citation><ext-link ext-link-type="doi" xlink:href="10.7554/eLife.1">10.7554/eLife.1'
                 '</ext-link></element-citation>', ("10.7554/elife.1", "ext-link"), id="ext-link-text"),
    pytest.param('<mixed-citation>A. <comment>doi: <ext-link ext-link-type="uri" '
                 'xlink:href="http://dx.doi.org/10.1371/journal.pone.1">10.1371/journal.pone.1</ext-link>'
                 '</comment></mixed-citation>', ("10.1371/journal.pone.1", "comment"), id="plos-comment"),
    pytest.param('<mixed-citation>A. <comment>DOI: 10.1039/C9SC01234A</comment></mixed-citation>',
                 ("10.1039/c9sc01234a", "comment"), id="comment-plain-text"),
    pytest.param('<mixed-citation>Smith, J. Chem. <bold>12</bold>, 3 (2019). doi:10.1002/cphc.2019.</mixed-citation>',
                 ("10.1002/cphc.2019", "text"), id="trailing-text"),
    pytest.param('<mixed-citation>J. Phys. Chem. B <year>2014</year>, <volume>118</volume>, DOI '
                 '<fpage>10</fpage>.1021/jp5005693.</mixed-citation>', ("10.1021/jp5005693", "text"),
                 id="text-split-by-markup"),
    pytest.param('<mixed-citation>Dev <bold>145</bold>10.1242/dev.160333 (2018).</mixed-citation>',
                 ("10.1242/dev.160333", "text"), id="text-glued-to-volume"),
    pytest.param('<element-citation><pub-id pub-id-type="doi">10.1002/(SICI)1097-0010(20000101)80:1'
                 '&amp;lt;152::AID-JSFA503&amp;gt;3.0.CO;2-P</pub-id></element-citation>',
                 ("10.1002/(sici)1097-0010(20000101)80:1<152::aid-jsfa503>3.0.co;2-p", "pub-id"),
                 id="sici-html-escaped"),
    pytest.param('<element-citation><ext-link xlink:href="http://dx.doi.org/10.1126/science.1">'
                 '10.1111/j.1365-3040.2010.x</ext-link></element-citation>',
                 ("10.1111/j.1365-3040.2010.x", "ext-link"), id="href-text-conflict-text-wins"),
    pytest.param('<citation-alternatives><element-citation><source>X</source></element-citation>'
                 '<mixed-citation>X <pub-id pub-id-type="doi">10.5555/alt</pub-id></mixed-citation>'
                 '</citation-alternatives>', ("10.5555/alt", "pub-id"), id="citation-alternatives"),
    pytest.param('<citation citation-type="journal"><person-group><name><surname>Old</surname></name>'
                 '</person-group> <year>2004</year> <pub-id pub-id-type="pmid">15</pub-id></citation>',
                 (None, None), id="nlm2-citation-pmid-only"),
    pytest.param('<mixed-citation>(a) Suite 2013.</mixed-citation><mixed-citation>(b) '
                 '<person-group><name><surname>Sastry</surname></name></person-group>. '
                 '<article-title>Prep</article-title> <pub-id pub-id-type="doi">10.9999/b</pub-id></mixed-citation>',
                 (None, None), id="bundle-is-ambiguous"),
]


@pytest.mark.parametrize("content, expected", DOI_CASES)
def test_reference_doi(content: str, expected: tuple[str | None, str | None]) -> None:
    ref = one_ref(content)
    assert (ref.doi, ref.doi_source) == expected


def test_ambiguous_bundle_keeps_every_doi_but_resolves_none() -> None:
    ref = one_ref('<mixed-citation><person-group><name><surname>A</surname></name></person-group> '
                  '<pub-id pub-id-type="doi">10.9999/a</pub-id></mixed-citation><mixed-citation>'
                  '<person-group><name><surname>B</surname></name></person-group> '
                  '<pub-id pub-id-type="doi">10.9999/b</pub-id></mixed-citation>')
    assert ref.ambiguous and ref.doi is None and ref.dois == ("10.9999/a", "10.9999/b")
    assert ref.authors == ("A", "B")


def test_second_edition_without_authors_is_not_a_new_work() -> None:
    # Angewandte: "Angew. Chem. Int. Ed. 2016, 55, 5090; Angew. Chem. 2016, 128, 5174" is one work
    ref = one_ref('<mixed-citation><string-name><given-names>M.</given-names><surname>Sougrati</surname>'
                  '</string-name>, <source>Angew. Chem. Int. Ed.</source> <year>2016</year>, '
                  '<pub-id pub-id-type="doi">10.1002/anie.1</pub-id>;</mixed-citation>'
                  '<mixed-citation><source>Angew. Chem.</source> <year>2016</year>.</mixed-citation>')
    assert not ref.ambiguous and ref.doi == "10.1002/anie.1"


def test_fields() -> None:
    ref = one_ref('<element-citation publication-type="journal"><person-group person-group-type="author">'
                  '<name><surname>Goodenough</surname><given-names>JB</given-names></name>'
                  '<name><surname>Kim</surname></name><collab>The ACME Consortium</collab></person-group>'
                  '<person-group person-group-type="editor"><name><surname>Editor</surname></name></person-group>'
                  '<article-title>Challenges for <italic>rechargeable</italic> Li batteries</article-title>'
                  '<source>Chem Mater</source><year>2010a</year><pub-id pub-id-type="pmid">998</pub-id>'
                  '</element-citation>')
    assert ref.authors == ("Goodenough", "Kim", "The ACME Consortium")
    assert ref.title == "Challenges for rechargeable Li batteries"
    assert (ref.year, ref.pmid, ref.label) == (2010, "998", "1")


def test_book_title_falls_back_to_source() -> None:
    ref = one_ref('<element-citation publication-type="book"><source>Molecular Cloning</source>'
                  '<year>1989</year></element-citation>')
    assert ref.title == "Molecular Cloning"


def test_unparseable_year_missing_and_duplicate_ids_are_diagnosed() -> None:
    refs = ('<ref id="R1"><element-citation><year>n.d.</year></element-citation></ref>'
            '<ref><mixed-citation>No id at all</mixed-citation></ref>'
            '<ref id="R1"><mixed-citation>Duplicate</mixed-citation></ref>')
    art = read_jats(article("<p>x</p>", refs))
    assert [r.id for r in art.references] == ["R1"]
    assert art.references[0].year is None
    codes = sorted(d.code for d in art.diagnostics)
    assert codes == ["no-citation-markup", "ref-duplicate-id", "ref-missing-id", "ref-year-unparseable"]


def test_doi_conflict_is_diagnosed() -> None:
    art = read_jats(article("<p>x</p>", '<ref id="R1"><element-citation><ext-link '
                            'xlink:href="http://dx.doi.org/10.1111/a">10.1111/b</ext-link></element-citation></ref>'))
    assert [d.code for d in art.diagnostics] == ["ref-doi-conflict", "no-citation-markup"]
