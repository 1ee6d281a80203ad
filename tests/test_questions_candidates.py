"""Candidate extraction: anchors re-based onto sentences, bracket widening, ids, captions, and the
per-article funnel with stand-in components (cap, seeded tie-break, min_findability, masking)."""

from __future__ import annotations

import re

import pytest

from chemref.jats.model import Article, CitationAnchor, License, Paragraph, Reference, Section
from chemref.questions.funnel.builder import article_questions
from chemref.questions.funnel.candidates import iter_candidates, widen_anchor
from chemref.questions.funnel.engines import Components
from chemref.questions.funnel.settings import BuildSettings

WIDEN_CASES = [
    # (text, (start, end) of the anchor, expected widened span text)
    ("shown [12].", "12", "[12]"),
    ("shown [ 12 ].", "12", "[ 12 ]"),
    ("shown [12].", "[12]", "[12]"),
    ("water (Haldane and Moreau, 2011).", "Haldane and Moreau, 2011", "(Haldane and Moreau, 2011)"),
    ("water (e.g., Haldane, 2011).", "Haldane, 2011", "Haldane, 2011"),
    ("shown [12, 13].", "12", "12"),
    ("shown (12].", "12", "12"),
    ("diffusion.7 Studies", "7", "7"),
    ("[3]", "3", "[3]"),
    ("(Fig. 2) [4]", "4", "[4]"),
]


@pytest.mark.parametrize(("text", "anchor", "expected"), WIDEN_CASES)
def test_widen_anchor(text, anchor, expected):
    start = text.index(anchor)
    s, e = widen_anchor(text, start, start + len(anchor))
    assert text[s:e] == expected


def _split_on_period_space(text, protected=()):
    """Stand-in splitter: a boundary after ". " unless inside a protected span."""
    spans, start = [], 0
    for m in re.finditer(r"\. ", text):
        if any(a <= m.start() < b for a, b in protected):
            continue
        spans.append((start, m.start() + 1))
        start = m.end()
    spans.append((start, len(text)))
    return spans


def _mentions(text, surnames):
    return [m for s in surnames for m in re.finditer(rf"\b{re.escape(s)}\b", text)]


def _mask(text, mentions):
    out, pos = [], 0
    for m in sorted(mentions, key=lambda m: m.start()):
        out += [text[pos:m.start()], "[AUTHOR]"]
        pos = m.end()
    return "".join(out + [text[pos:]])


class _Claim:
    def __init__(self, label):
        self.label, self.score, self.rule = label, 1.0, None


FAKE = Components(split=_split_on_period_space, mentions=_mentions, mask=_mask,
                  classify=lambda s, citation=None: _Claim("PASSING" if "purchased" in s else "CLAIM"))
FILLER = " with a long enough tail of specific words about LiFePO4 cathodes cycled at 25 °C for 500 cycles"


def _para(*sentences: tuple[str, str]) -> Paragraph:
    """Sentences joined by a space; each (text with '[n]', ref id) gets one anchor on its '[n]'."""
    text, anchors = "", []
    for sentence, rid in sentences:
        if text:
            text += " "
        base = len(text)
        text += sentence
        if rid:
            m = re.search(r"\d+(?=\])", sentence)
            anchors.append(CitationAnchor(base + m.start(), base + m.end(), m.group(0), tuple(rid.split())))
    return Paragraph(text, tuple(anchors))


def _article(paragraphs, *, cc_by=True, kind="results", refs=None, pmcid="PMC9") -> Article:
    refs = refs or tuple(Reference(f"R{i}", doi=f"10.5555/r{i}", title=f"T{i}", authors=("Okafor",))
                         for i in range(1, 10))
    return Article(file="x/art.xml", pmcid=pmcid, pmid=None, doi="10.5555/art", title="A", journal="J",
                   year=2024, license=License("https://creativecommons.org/licenses/by/4.0/", None, cc_by),
                   sections=(Section("Results", kind, tuple(paragraphs)),), references=refs)


def test_candidates_rebased_and_ided():
    para = _para(("No citation here.", ""), ("First claim" + FILLER + " [1].", "R1"),
                 ("Second claim with two refs [2] and [3].", "R2"))
    para = Paragraph(para.text, para.citations + (CitationAnchor(para.text.rindex("3"), para.text.rindex("3") + 1,
                                                                 "3", ("R3",)),))
    cands = list(iter_candidates(_article([Paragraph("Plain paragraph. Nothing."), para]), _split_on_period_space))
    assert [c.id for c in cands] == ["PMC9-p1-s1", "PMC9-p1-s2"]
    first = cands[0]
    assert first.sentence.startswith("First claim") and first.sentence.endswith("[1].")
    assert first.sentence[first.anchor.start:first.anchor.end] == "[1]" == first.anchor.text
    assert len(cands[1].anchors) == 2


def test_caption_paragraph_is_a_caption_candidate():
    para = _para(("Caption" + FILLER + " [1].", "R1"))
    cap = Paragraph(para.text, para.citations, is_caption=True)
    (c,) = iter_candidates(_article([cap]), _split_on_period_space)
    assert c.section == "caption"


def test_cap_keeps_highest_score_in_document_order_and_is_seeded():
    generic = "Batteries are one of the most important technologies in the modern world and widely used"
    specific = ("LiFePO4 coated with 3 nm polydopamine carbon at 700 °C gave 118 mAh g−1 at 10 C and 96% retention "
                "after 500 cycles in EC/DMC")
    sentences = [(generic + f" and grow every year number {i} [{i}].", f"R{i}") for i in range(1, 4)]
    sentences.insert(1, (specific + " [4].", "R4"))
    sentences += [(generic + f" and keep growing fast number {i} [{i}].", f"R{i}") for i in range(5, 8)]
    art = _article([_para(*sentences)])
    result = article_questions(art, BuildSettings(per_article=2, min_score=0), components=FAKE)
    assert len(result.questions) == 2
    assert result.questions[0].ref_id == "R4" or result.questions[1].ref_id == "R4"
    ids = [q.id for q in result.questions]
    assert ids == sorted(ids, key=lambda i: int(i.rsplit("s", 1)[1]))  # document order
    assert result.reasons["per_article_cap"] == 5
    picks = {tuple(q.ref_id for q in article_questions(art, BuildSettings(per_article=2, seed=s, min_score=0),
                                                       components=FAKE).questions) for s in range(12)}
    assert len(picks) > 1  # the tie-break among equal scores depends on the seed
    again = article_questions(art, BuildSettings(per_article=2, seed=3, min_score=0), components=FAKE)
    assert again == article_questions(art, BuildSettings(per_article=2, seed=3, min_score=0), components=FAKE)


def test_min_findability_rejects_before_the_cap():
    generic = "Batteries are one of the most important technologies in the modern world and widely used today"
    art = _article([_para((generic + " and in the future as well, as many say [1].", "R1"))])
    result = article_questions(art, BuildSettings(min_findability=0.2), components=FAKE)
    assert not result.questions and result.rejected[0].reason == "min_findability"
    assert result.rejected[0].findability is not None


def test_mask_mode_replaces_the_name_and_keeps_offsets_on_the_sentence():
    sentence = ("Okafor and co-workers showed that a 3 nm carbon shell raised the capacity of LiFePO4 at 10 C from 62 "
                "to 118 mAh g−1 [1].")
    art = _article([_para((sentence, "R1"))])
    dropped = article_questions(art, BuildSettings(), components=FAKE)
    assert dropped.rejected[0].reason == "no_author_named"
    (q,) = article_questions(art, BuildSettings(authors="mask", min_score=0), components=FAKE).questions
    assert q.excerpt.startswith("[AUTHOR] and co-workers") and q.excerpt.endswith("[CITATION].")
    assert q.sentence[q.citation_start:q.citation_end] == q.citation_text == "[1]"


def test_non_cc_by_article_rejects_every_candidate():
    art = _article([_para(("Claim" + FILLER + " [1].", "R1"), ("Other" + FILLER + " [2].", "R2"))], cc_by=False)
    result = article_questions(art, components=FAKE)
    assert not result.questions and {r.reason for r in result.rejected} == {"cc_by"}
    assert result.candidates == 2


def test_rejected_multi_reference_record_lists_every_id():
    art = _article([_para(("A range claim" + FILLER + " [2].", "R2 R3 R4"))])
    (r,) = article_questions(art, components=FAKE).rejected
    assert r.reason == "one_citation" and r.ref_id == "R2 R3 R4" and r.target_doi is None


from hypothesis import given, strategies as st  # noqa: E402

_WORDS = st.sampled_from(["LiFePO4", "carbon", "shell.", "raised", "(see", "Fig.", "2)", "the", "[", "]", "e.g.,",
                          "capacity", "at", "10", "C.", "Okafor", "and", "Kim,", "2010", "cells."])


@pytest.mark.slow
@given(st.lists(st.tuples(st.lists(_WORDS, min_size=1, max_size=8), st.booleans()), min_size=1, max_size=12))
def test_every_anchor_lands_in_one_candidate_and_excerpts_rebuild(chunks):
    text, anchors = "", []
    for n, (words, cite) in enumerate(chunks):
        text += " ".join(words)
        if cite:
            text += " "
            anchors.append(CitationAnchor(len(text), len(text) + len(str(n)) + 2, f"[{n}]", (f"R{n % 9 + 1}",)))
            text += f"[{n}]"
        text += " "
    para = Paragraph(text, tuple(anchors))
    cands = list(iter_candidates(_article([para]), _split_on_period_space))
    assert sum(len(c.anchors) for c in cands) == len(anchors)
    for c in cands:
        assert c.sentence in text
        for a in c.anchors:
            assert c.sentence[a.start:a.end] == a.text
            assert a.text.strip("[] ").isdigit()


def test_bytes_input_gives_the_same_questions():
    from tests.helpers import CORPORA

    from chemref.questions import build

    path = CORPORA / "jats" / "sample_laccase_kinetics.xml"
    by_path = build([path])
    by_bytes = build([path.read_bytes()])
    assert [q.id for q in by_bytes.questions] == [q.id for q in by_path.questions]
    assert {q.source_file for q in by_bytes.questions} == {"<bytes 0>"}


def test_the_claim_classifier_runs_once_per_candidate_and_the_selector_takes_its_answer():
    """The selector's ``claim_score`` is the ``is_claim`` filter's decision, from the bundle it was given."""
    from dataclasses import replace

    from chemref.questions.funnel.selector import default_selector

    calls: list[str] = []

    def bundle(score: float) -> Components:
        def classify(sentence, citation=None):
            calls.append(sentence)
            claim = _Claim("CLAIM")
            claim.score = score
            return claim
        return replace(FAKE, classify=classify)

    art = _article([_para(("The first claim" + FILLER + " [1].", "R1"), ("The second claim" + FILLER + " [2].", "R2"))])
    high = article_questions(art, BuildSettings(min_score=0), components=bundle(1.0))
    assert len(calls) == 2 == len(high.questions)  # one classification per candidate, not one more for the score
    low = article_questions(art, BuildSettings(min_score=0), components=bundle(0.0))
    assert "claim_score" in default_selector().weights
    assert [q.score for q in high.questions] != [q.score for q in low.questions]  # the bundle's answer is used
    for q in high.questions:
        values = {**q.to_dict(), "claim_score": 1.0}
        assert q.score == default_selector().score_record(values, claim=1.0)


def test_target_key_is_the_doi_then_the_reference_then_the_record():
    from chemref.questions.funnel.filters import target_key

    assert target_key("10.1/x", "R1", "a-p1-s1") == "10.1/x"
    assert target_key(None, "R1", "a-p1-s1") == target_key("", "R1", "a-p1-s2") == "R1"
    assert target_key(None, None, "a-p1-s1") == "a-p1-s1"
