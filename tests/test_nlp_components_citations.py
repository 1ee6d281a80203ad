"""The chemref_citations component and the make_doc bridge: citation spans, reference ids, references."""

from __future__ import annotations

import pytest
from tests.nlp_helpers import stripped_sentence_spans

spacy = pytest.importorskip("spacy")

import chemref  # noqa: E402
from chemref.errors import InputError  # noqa: E402
from chemref.jats.model import CitationAnchor, Paragraph, Reference  # noqa: E402
from chemref.nlp import make_doc  # noqa: E402
from chemref.nlp.citation_markers import find_citation_markers  # noqa: E402

KEY = "chemref_citations"

#: plain text -> the citation markers recognised in it
CASES = [
    ("as shown [12].", ["[12]"]),
    ("as shown [3–5].", ["[3–5]"]),
    ("as shown [1, 4-6].", ["[1, 4-6]"]),
    ("as shown [2;7] and [9].", ["[2;7]", "[9]"]),
    ("as reported[3,4].", ["[3,4]"]),
    ("as shown (Smith et al., 2019).", ["(Smith et al., 2019)"]),
    ("as shown (Smith et al. 2019).", ["(Smith et al. 2019)"]),
    ("as shown (Smith and Jones 2019; Lee 2020).", ["(Smith and Jones 2019; Lee 2020)"]),
    ("as shown (Smith & Jones, 2019a, 2020).", ["(Smith & Jones, 2019a, 2020)"]),
    ("as shown (see Lee, 2020).", ["(see Lee, 2020)"]),
    ("as shown (e.g., Lee 2020; van der Berg et al. 2018).", ["(e.g., Lee 2020; van der Berg et al. 2018)"]),
    ("as shown (Müller-Plathe, 2002).", ["(Müller-Plathe, 2002)"]),
    # not citations
    ("benzo[d][1,3]dioxole and [2]catenane", []),
    ("[Ru(bpy)3]2+ in water", []),
    ("(Table 1) and (n = 3) and (2019)", []),
    ("a [4+2] cycloaddition", []),
    ("bicyclo[2.2.1]heptane", []),
    pytest.param("as shown (Smith, unpublished data).", ["(Smith, unpublished data)"],
                 marks=pytest.mark.xfail(reason="only author-year markers with a year are recognised", strict=True)),
    pytest.param("as shown by Smith et al. (2019).", ["Smith et al. (2019)"],
                 marks=pytest.mark.xfail(reason="narrative citations are the author-mention component's job",
                                         strict=True)),
]




@pytest.mark.parametrize(("text", "expected"), CASES)
def test_plain_text_markers(nlp, text: str, expected: list[str]) -> None:
    assert [text[s:e] for s, e, _ in find_citation_markers(text)] == expected
    doc = nlp(text)
    assert [span.text for span in doc.spans[KEY]] == expected
    assert all(span._.chemref_ref_ids == () for span in doc.spans[KEY])


def test_labels(nlp) -> None:
    doc = nlp("One [1]. Two (Lee, 2020).")
    assert [span.label_ for span in doc.spans[KEY]] == ["numeric", "author_year"]


def test_author_year_can_be_switched_off() -> None:
    nlp = spacy.blank("en")
    nlp.add_pipe("chemref_citations", config={"author_year": False})
    doc = nlp("One [1]. Two (Lee, 2020).")
    assert [span.text for span in doc.spans[KEY]] == ["[1]"]


def _anchor(text: str, marker: str, ids: tuple[str, ...], nth: int = 0) -> CitationAnchor:
    start = -1
    for _ in range(nth + 1):
        start = text.index(marker, start + 1)
    return CitationAnchor(start, start + len(marker), marker, ids)


def test_make_doc_anchors_carry_ref_ids(nlp) -> None:
    text = "Water enters by diffusion.7 Studies show this.8,9 Another one (see also ref.10–12)."
    para = Paragraph(text, citations=(_anchor(text, "7", ("r7",)), _anchor(text, "8,9", ("r8", "r9")),
                                      _anchor(text, "10–12", ("r10", "r11", "r12"))))
    refs = [Reference("r7", doi="10.1000/seven", authors=("Smith J",), year=2001), Reference("r8"),
            Reference("r9"), Reference("r10"), Reference("r11"), Reference("r12")]
    doc = make_doc(nlp, para, refs)
    spans = doc.spans[KEY]
    assert [(s.text, s._.chemref_ref_ids) for s in spans] == [
        ("7", ("r7",)), ("8,9", ("r8", "r9")), ("10–12", ("r10", "r11", "r12"))]
    assert [s.label_ for s in spans] == ["citation"] * 3
    assert doc._.chemref_references["r7"] == refs[0]
    assert set(doc._.chemref_references) == {r.id for r in refs}
    assert [s.text for s in doc.sents] == [
        "Water enters by diffusion.7", "Studies show this.8,9", "Another one (see also ref.10–12)."]


def test_make_doc_accepts_a_mapping_and_keeps_anchors_only(nlp) -> None:
    text = "Known [5] and also [6]."
    para = Paragraph(text, citations=(_anchor(text, "[5]", ("b5",)),))
    ref = Reference("b5", doi="10.1/x")
    doc = make_doc(nlp, para, {"b5": ref})
    # the JATS anchors win: "[6]" was not an anchor, so the plain-text recogniser does not run
    assert [(s.text, s._.chemref_ref_ids) for s in doc.spans[KEY]] == [("[5]", ("b5",))]
    assert doc._.chemref_references == {"b5": ref}


def test_make_doc_splits_tokens_at_anchor_edges(nlp) -> None:
    text = "found by Smithers2019 in water."
    para = Paragraph(text, citations=(_anchor(text, "2019", ("s1",)),))
    doc = make_doc(nlp, para, [])
    assert [s.text for s in doc.spans[KEY]] == ["2019"]
    assert "Smithers" in [t.text for t in doc]
    assert doc.text == text


def test_make_doc_trims_whitespace_and_keeps_empty_anchors(nlp) -> None:
    text = "A claim [1] here."
    start = text.index(" [1]")
    para = Paragraph(text, citations=(CitationAnchor(start, start + 4, " [1]", ("x",)),
                                      CitationAnchor(2, 2, "", ("y",))))
    doc = make_doc(nlp, para)
    spans = doc.spans[KEY]
    assert [(s.text, s._.chemref_ref_ids) for s in spans] == [("[1]", ("x",)), ("", ("y",))]
    assert doc._.chemref_references == {}


def test_make_doc_rejects_offsets_outside_the_text(nlp) -> None:
    para = Paragraph("short", citations=(CitationAnchor(3, 40, "x", ("r",)),), line=17)
    with pytest.raises(InputError, match="outside the paragraph"):
        make_doc(nlp, para)


def test_make_doc_output_survives_doc_bytes(nlp) -> None:
    from spacy.tokens import Doc, DocBin

    text = "It diffuses.7 Next."
    ref = Reference("r7", doi="10.1/y", authors=("A", "B"))
    doc = make_doc(nlp, Paragraph(text, citations=(_anchor(text, "7", ("r7",)),)), [ref])
    again = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert [(s.text, s._.chemref_ref_ids) for s in again.spans[KEY]] == [("7", ("r7",))]
    assert again._.chemref_references == {"r7": ref}
    bin_ = DocBin(store_user_data=True, docs=[doc])
    (loaded,) = DocBin().from_bytes(bin_.to_bytes()).get_docs(nlp.vocab)
    assert [s.text for s in loaded.sents] == [s.text for s in doc.sents]


def test_make_doc_paragraph_without_anchors_gets_no_guessed_markers(nlp) -> None:
    doc = make_doc(nlp, Paragraph("A sentence [1]. Another one."))
    assert list(doc.spans[KEY]) == []


def test_make_doc_from_plain_string(nlp) -> None:
    doc = make_doc(nlp, "A sentence [1]. Another one.")
    assert [s.text for s in doc.spans[KEY]] == ["[1]"]  # a str has no anchors: markers are recognised
    assert len(list(doc.sents)) == 2


from hypothesis import given, strategies as st  # noqa: E402

_PIECES = ["a", "Z", "7", "12", ".", ",", " ", "\n", "(", ")", "[", "]", "–", "Pd(PPh3)4", "et al.", "°C",
           "diffusion"]


@pytest.mark.slow
@given(data=st.data())
def test_make_doc_property_any_anchors(nlp, data) -> None:
    """Any anchors inside the text: the text is unchanged, every anchor is a span with its ids, sentences
    are split_sentences' spans with the anchors protected."""
    from chemref.nlp.sentences import split_sentences

    text = "".join(data.draw(st.lists(st.sampled_from(_PIECES), max_size=25)))
    bounds = st.integers(min_value=0, max_value=len(text))
    anchors = []
    for k in range(data.draw(st.integers(min_value=0, max_value=3))):
        a, b = sorted((data.draw(bounds), data.draw(bounds)))
        anchors.append(CitationAnchor(a, b, text[a:b], (f"r{k}",)))
    doc = make_doc(nlp, Paragraph(text, citations=tuple(anchors)), [])
    assert doc.text == text
    spans = doc.spans[KEY]
    assert len(spans) == len(anchors)
    for span, anchor in zip(spans, anchors):
        assert span.text == anchor.text.strip() or not anchor.text.strip()
        assert span._.chemref_ref_ids == anchor.ref_ids
    prot = [(s.start_char, s.end_char) for s in spans if s.end_char > s.start_char]
    got = stripped_sentence_spans(doc)
    assert got == split_sentences(text, protected=prot)


@pytest.mark.shared
@pytest.mark.slow
def test_make_doc_on_every_dev_jats_paragraph(nlp) -> None:
    """Every paragraph of the dev JATS articles: text unchanged, each anchor a span with its ids and text,
    sentences equal to split_sentences with the anchors protected."""
    from tests.helpers import shared_path

    from chemref.nlp.sentences import split_sentences

    read = pytest.importorskip("chemref.jats.reader").read
    files = sorted(p for p in shared_path("corpora", "jats", "dev").iterdir() if p.suffix in {".xml", ".nxml"})
    assert files
    wrong = []
    for path in files:
        article = read(path)
        for _section, para in article.paragraphs(include_abstracts=True):
            doc = make_doc(nlp, para, article.references_by_id)
            assert doc.text == para.text
            spans = doc.spans[KEY]
            assert len(spans) == len(para.citations)
            for span, anchor in zip(spans, para.citations):
                if span._.chemref_ref_ids != anchor.ref_ids or span.text != anchor.text.strip():
                    wrong.append((path.name, anchor, span.text))
            prot = [(s.start_char, s.end_char) for s in spans if s.end_char > s.start_char]
            got = stripped_sentence_spans(doc)
            if got != split_sentences(para.text, protected=prot):
                wrong.append((path.name, para.text[:80], "sentences differ"))
    assert wrong == []
