"""Properties of split_sentences: exact coverage, protected anchors, bounded worst case, real corpora."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chemref.nlp.sentences import split_sentences


def assert_covers(text: str, spans: list[tuple[int, int]]) -> None:
    """Spans are in order, non-overlapping, stripped, and cover every non-space character once."""
    prev = 0
    for s, e in spans:
        assert prev <= s < e <= len(text), (s, e)
        assert not text[prev:s].strip(), f"non-space text left out before {s}: {text[prev:s]!r}"
        assert not text[s].isspace() and not text[e - 1].isspace(), f"span {(s, e)} is not stripped"
        prev = e
    assert not text[prev:].strip(), "non-space text left out at the end"


def assert_no_boundary_inside(text, spans, protected) -> None:
    """All non-space characters of each protected span fall in one sentence."""
    for s, e in protected:
        inside = {k for k, (a, b) in enumerate(spans) if a < e and s < b}
        if len(inside) > 1:
            holders = sorted(inside)
            raise AssertionError(f"boundary inside protected span {(s, e)} {text[s:e]!r}: {[spans[k] for k in holders]}")


ALPHABET = st.sampled_from(list("aAbZ.!?…\"')]([ \n\t 1290,;:-–ε•*†") + ["e.g.", "et al.", "Fig.", "[12]", "(3)",
                                                                     "r.t.", " The ", "\n\n", "J. ", "(a) ",
                                                                     "(Smith et al., 2019)", ".7 ", "U.S."])


@pytest.mark.slow
@given(st.lists(ALPHABET, max_size=200).map("".join))
@settings(max_examples=400)
def test_spans_cover_any_text(text):
    assert_covers(text, split_sentences(text))


@pytest.mark.slow
@given(st.text(max_size=300))
@settings(max_examples=300)
def test_spans_cover_arbitrary_unicode(text):
    assert_covers(text, split_sentences(text))


@pytest.mark.slow
@given(st.lists(ALPHABET, min_size=1, max_size=120).map("".join), st.data())
@settings(max_examples=300)
def test_protected_spans_never_hold_a_boundary(text, data):
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(text)), max_size=8))))
    protected = [(a, b) for a, b in zip(cuts[::2], cuts[1::2]) if b > a]
    spans = split_sentences(text, protected=protected)
    assert_covers(text, spans)
    assert_no_boundary_inside(text, spans, protected)


ADVERSARIAL = {
    "digit run": "1" * 1_000_000,
    "spaced digits": "1 " * 500_000,
    "decimal runs": "3.14159" * 140_000,
    "no punctuation": "word " * 200_000,
    "one huge word": "a" * 1_000_000,
    "periods": "." * 1_000_000,
    "spaced periods": ". " * 500_000,
    "initials": "A. " * 333_333,
    "short sentences": "The. " * 200_000,
    "list labels": "1. " * 333_333,
    "glued citations": "a.1 " * 250_000,
    "open brackets": "x. (" * 250_000,
    "newlines": "\n" * 1_000_000,
    "one bracket marker": "x. [" + "1," * 499_990 + "]",
    "author-year run": "x. (" + "Smith, 2019; " * 76_000 + ")",
    "ellipses": "Wait... " * 125_000,
    "lost spaces": "word.Abc " * 111_000,
    "citations after numbers": "Ser1.1 This " * 83_000,
    "spaced citation numbers": "word. 1, 2 The " * 70_000,
    "glued author-year": "shown.(Smith et al., 2019) Next " * 33_000,
    "brackets after abbreviations": "Torr. (California Cedar), x " * 38_000,
    "unclosed brackets": "a (b. C " * 125_000,
    "spaced glued anchors": "cells.5, " * 110_000,
    "dotted lower-case openers": "MeOH. m.p. 2 " * 76_000,
    # one short sentence per line and Greek-letter sentences: the slowest shapes measured (about 1 s per MB)
    "one sentence per line": "α.\n" * 333_333,
    "numbered lines": "1.\n" * 333_333,
    "Greek sentences": "α. β. " * 166_666,
    # a long run of whitespace before many words: the sentence start must be looked up once, not per candidate
    "leading whitespace before labels": " " * 500_000 + "1. " * 166_666,
    "leading newlines before initials": "\n" * 500_000 + "A. " * 166_666,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ADVERSARIAL))
def test_adversarial_megabyte_inputs_are_covered(name):
    """Bounded worst case: every 1 MB input finishes (the timings are in benchmarks/bench_sentences.py)."""
    text = ADVERSARIAL[name]
    assert_covers(text, split_sentences(text))


def test_empty_and_whitespace():
    assert split_sentences("") == []
    assert split_sentences(" \n\t ") == []
    assert split_sentences("x") == [(0, 1)]


def test_rejects_bad_arguments():
    with pytest.raises(TypeError):
        split_sentences(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="outside the text"):
        split_sentences("abc", protected=[(1, 9)])


def test_module_does_not_import_spacy():
    code = "import sys, chemref.nlp.sentences, chemref.nlp.rules; assert 'spacy' not in sys.modules, 'spacy imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.slow
@pytest.mark.shared
def test_craft_spans_cover_text():
    from tests.helpers import shared_path

    path = shared_path("corpora", "sentences", "craft_v5_ccby_sentences.jsonl")
    with open(path, encoding="utf-8") as f:
        for line in f:
            doc = json.loads(line)
            assert_covers(doc["text"], split_sentences(doc["text"]))


@pytest.mark.slow
@pytest.mark.shared
def test_craft_boundary_f1_floor():
    """A regression floor well under the measured figure (see benchmarks/bench_sentences.py)."""
    from tests.helpers import shared_path

    path = shared_path("corpora", "sentences", "craft_v5_ccby_sentences.jsonl")
    tools = shared_path("tools")
    sys.path.insert(0, str(tools))
    try:
        from sentence_f1 import evaluate
    finally:
        sys.path.remove(str(tools))
    result = evaluate(str(path), split_sentences)
    assert result["all"]["f1"] >= 0.99
    assert result["internal"]["f1"] >= 0.985


@pytest.mark.slow
@pytest.mark.shared
def test_jats_dev_paragraphs_are_covered_and_anchors_kept_whole():
    from tests.helpers import shared_path

    reader = pytest.importorskip("chemref.jats.reader", reason="the JATS reader is not available")
    folder = shared_path("corpora", "jats", "dev")
    files = sorted(folder.glob("*.nxml"))
    assert files
    for path in files:
        article = reader.read(path)
        for _, paragraph in article.paragraphs(include_abstracts=True, include_back=True):
            protected = [(c.start, c.end) for c in paragraph.citations]
            spans = split_sentences(paragraph.text, protected=protected)
            assert_covers(paragraph.text, spans)
            assert_no_boundary_inside(paragraph.text, spans, protected)


_LOWER_PIECES = st.sampled_from(list("abcikmpstxz.-\u2010(),: =1A") + ["kcat ", "t1/2 ", "aq. ", "p-", "tert-", "e.g. ",
                                                                  "i.p. ", "cis-", "bis(", "vs. ", "ca. ", "no, "])


@pytest.mark.slow
@given(st.lists(_LOWER_PIECES, min_size=1, max_size=12).map(lambda parts: "abc"[len(parts) % 3] + "".join(parts)))
@settings(max_examples=500)
def test_lower_case_word_kind_read_in_one_match(text):
    """The kind of a lower-case word, read by one regex, is the reading of the opener shapes, prefixes and
    abbreviations one after another."""
    from chemref.nlp.sentences import patterns as s
    from chemref.nlp.sentences.periods import _next_kind

    idx = s.DEFAULT_RULES.index
    p = s._PREFIX.match(text)
    a = s._LOWER_ABBREV.match(text)
    opens = bool(s._LABEL.match(text) or s._CAMEL.match(text) or s._SYMBOL.match(text)
                 or (p and p.group(1) in idx.lowercase_prefixes) or (a and a.group() in idx.lowercase_openers))
    assert _next_kind(text, 0, idx) == (s._LOWERSTART if opens else s._LOWER)


def test_markers_ending_inside_a_second_anchor_do_not_cut_it() -> None:
    """Past one anchor the markers may end inside the next one: the end moves past that one too."""
    text = "..7 aaa(Smith et al., 2019)A"
    spans = split_sentences(text, protected=[(2, 7), (8, 28)])
    assert_covers(text, spans)
    assert_no_boundary_inside(text, spans, [(2, 7), (8, 28)])
