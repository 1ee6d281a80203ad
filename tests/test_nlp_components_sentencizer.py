"""The chemref_sentencizer component: its sentences are split_sentences' spans, set in bulk on the Doc."""

from __future__ import annotations

import json

import pytest
from tests.nlp_helpers import stripped_sentence_spans

spacy = pytest.importorskip("spacy")

import chemref  # noqa: E402
from chemref.jats.model import CitationAnchor, Paragraph  # noqa: E402
from chemref.nlp import make_doc  # noqa: E402
from chemref.nlp.sentences import split_sentences  # noqa: E402
from chemref.nlp.components.sentencizer import set_sentence_starts  # noqa: E402

KEY = "chemref_citations"




def protected(doc) -> list[tuple[int, int]]:
    return [(s.start_char, s.end_char) for s in doc.spans[KEY] if s.end_char > s.start_char]




#: text -> sentences the pipeline gives
CASES = [
    ("Water enters by diffusion.[7] Studies followed.", ["Water enters by diffusion.[7]", "Studies followed."]),
    ("It was shown (Smith et al., 2019). Next we did more.",
     ["It was shown (Smith et al., 2019).", "Next we did more."]),
    ("It was shown. (Smith et al., 2019) Next we did more.",
     ["It was shown. (Smith et al., 2019)", "Next we did more."]),
    ("Stirred at r.t. for 2 h. The solid was filtered.", ["Stirred at r.t. for 2 h.", "The solid was filtered."]),
    ("Pd(PPh3)4 (5 mol%) was added at 50 °C. Then water.",
     ["Pd(PPh3)4 (5 mol%) was added at 50 °C.", "Then water."]),
    ("  Leading space. Trailing space.  ", ["Leading space.", "Trailing space."]),
    ("One line\n\nAnother paragraph here.", ["One line", "Another paragraph here."]),
    ("", []),
    ("   ", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_sentences(nlp, text: str, expected: list[str]) -> None:
    doc = nlp(text)
    assert [text[s:e] for s, e in stripped_sentence_spans(doc)] == expected
    assert stripped_sentence_spans(doc) == split_sentences(text, protected=protected(doc))


def test_no_boundary_inside_a_citation(nlp) -> None:
    text = "This was reported. (Smith et al. 2019; Lee et al. 2020) and more. End."
    doc = nlp(text)
    for span in doc.spans[KEY]:
        assert span.start == span.end or all(not t.is_sent_start for t in span[1:])


def test_citation_after_the_period_attaches_to_the_sentence_before(nlp) -> None:
    text = "Water enters by diffusion.7 Studies show this.8,9 Another one."
    anchors = []
    for marker, ids in (("7", ("r7",)), ("8,9", ("r8", "r9"))):
        start = text.index(marker)
        anchors.append(CitationAnchor(start, start + len(marker), marker, ids))
    doc = make_doc(nlp, Paragraph(text, citations=tuple(anchors)), [])
    assert [s.text for s in doc.sents] == ["Water enters by diffusion.7", "Studies show this.8,9", "Another one."]
    assert stripped_sentence_spans(doc) == split_sentences(text, protected=protected(doc))


def test_sentence_start_inside_a_token_splits_the_token(nlp) -> None:
    """A boundary the tokenizer did not foresee splits the token and keeps the span groups right."""
    text = "Alpha xxxyyy zzz [1] end."
    doc = nlp(text)
    cut = text.index("yyy")
    assert cut not in {t.idx for t in doc}
    marker = doc.spans[KEY][0]
    marker._.chemref_ref_ids = ("r1",)
    doc = set_sentence_starts(doc, [(0, cut), (cut, len(text))])
    assert [s.text for s in doc.sents] == [text[:cut], text[cut:]]
    assert doc.text == text
    assert [(s.text, s.label_, s._.chemref_ref_ids) for s in doc.spans[KEY]] == [("[1]", "numeric", ("r1",))]


def test_forced_split_inside_glued_token(nlp) -> None:
    text = "xxxyyy zzz"
    doc = nlp.make_doc(text)
    assert len(doc) == 2
    doc = set_sentence_starts(doc, [(0, 3), (3, 10)])
    assert [t.text for t in doc] == ["xxx", "yyy", "zzz"]
    assert [s.text for s in doc.sents] == ["xxx", "yyy zzz"]


def test_many_starts_inside_tokens_rebuild_the_doc(nlp) -> None:
    """Past a few in-token starts the Doc is rebuilt in one pass, keeping spans, ids and user data."""
    text = " ".join(["abcdefgh"] * 30) + " [1] end."
    doc = nlp(text)
    doc.spans[KEY][0]._.chemref_ref_ids = ("r1",)
    doc.user_data["mine"] = 1
    spans = [(0, 4)] + [(i * 9 + 4, i * 9 + 13) for i in range(29)] + [(29 * 9 + 4, len(text))]
    spans = [(a, b - 1 if text[b - 1] == " " else b) for a, b in spans]
    new = set_sentence_starts(doc, spans)
    assert new.text == text
    assert stripped_sentence_spans(new) == spans
    assert [(s.text, s._.chemref_ref_ids) for s in new.spans[KEY]] == [("[1]", ("r1",))]
    assert new.user_data["mine"] == 1


@pytest.mark.slow
def test_equals_split_sentences_on_craft(nlp) -> None:
    from tests.helpers import shared_path

    path = shared_path("corpora", "sentences", "craft_v5_ccby_sentences.jsonl")
    with path.open(encoding="utf-8") as lines:
        texts = [json.loads(line)["text"] for line in list(lines)[:8]]
    for doc, text in zip(nlp.pipe(texts), texts):
        assert doc.text == text
        assert stripped_sentence_spans(doc) == split_sentences(text, protected=protected(doc))


@pytest.mark.slow
def test_user_abbreviations_and_no_split_via_config() -> None:
    text = "Read Note. The end."
    plain = spacy.blank("en")
    plain.add_pipe("chemref_sentencizer")
    assert len(list(plain(text).sents)) == 2
    nlp = spacy.blank("en")
    nlp.add_pipe("chemref_sentencizer", config={"abbreviations": ["Note"], "abbreviation_kind": "never"})
    assert len(list(nlp(text).sents)) == 1
    nlp = spacy.blank("en")
    nlp.add_pipe("chemref_sentencizer", config={"no_split": [r"Note\. [A-Z]"]})
    assert len(list(nlp(text).sents)) == 1


@pytest.mark.slow
def test_bad_abbreviation_kind_is_a_clear_error() -> None:
    from chemref.errors import InputError

    nlp = spacy.blank("en")
    with pytest.raises(InputError, match="abbreviation_kind"):
        nlp.add_pipe("chemref_sentencizer", config={"abbreviation_kind": "sometimes"})


@pytest.mark.slow
def test_rules_serialise_as_json(nlp) -> None:
    pipe = nlp.get_pipe("chemref_sentencizer")
    data = pipe.to_bytes()
    assert json.loads(data)["rules"]["tables"]
    other = spacy.blank("en").add_pipe("chemref_sentencizer")
    other.add_abbreviations(["Note"], kind="never")
    pipe2 = spacy.blank("en").add_pipe("chemref_sentencizer").from_bytes(other.to_bytes())
    assert pipe2.rules == other.rules


def test_works_in_someone_elses_pipeline() -> None:
    nlp = spacy.blank("en")  # spaCy's own tokenizer, no citation component
    nlp.add_pipe("chemref_sentencizer")
    doc = nlp("Stirred at r.t. overnight. The solid (ca. 2 g) was filtered. Yield 85%.")
    assert [s.text for s in doc.sents] == ["Stirred at r.t. overnight.", "The solid (ca. 2 g) was filtered.",
                                           "Yield 85%."]
