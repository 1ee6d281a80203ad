"""Helpers shared by the spaCy component tests."""

from __future__ import annotations


def stripped_sentence_spans(doc) -> list[tuple[int, int]]:
    """The Doc's sentences as ``(start, end)`` offsets without surrounding whitespace, in the shape that
    :func:`chemref.nlp.sentences.split_sentences` returns (blank sentences left out)."""
    spans = []
    for sent in doc.sents:
        piece = sent.text
        if piece.strip():
            start = sent.start_char + len(piece) - len(piece.lstrip())
            spans.append((start, start + len(piece.strip())))
    return spans


def blank_with(component: str, *, with_sentences: bool = False):
    """``spacy.blank("en")`` (skips when spaCy is absent) with spaCy's rule sentencizer if asked, then ``component``."""
    import pytest

    spacy = pytest.importorskip("spacy")
    nlp = spacy.blank("en")
    if with_sentences:
        nlp.add_pipe("sentencizer")
    nlp.add_pipe(component)
    return nlp


def doc_with_citations(nlp, text: str, citations, refs: dict | None = None):
    """A Doc with hand-made ``chemref_citations`` spans: ``citations`` holds marker texts, or
    ``(marker text, ref ids)`` pairs whose ids go on ``span._.chemref_ref_ids``; ``refs`` becomes
    ``doc._.chemref_references`` when given."""
    from spacy.tokens import SpanGroup

    doc = nlp.make_doc(text)
    if refs is not None:
        doc._.chemref_references = refs
    spans = []
    for citation in citations:
        marker, ref_ids = (citation, None) if isinstance(citation, str) else citation
        start = text.index(marker)
        span = doc.char_span(start, start + len(marker), alignment_mode="expand")
        if ref_ids is not None:
            span._.chemref_ref_ids = ref_ids
        spans.append(span)
    doc.spans["chemref_citations"] = SpanGroup(doc, name="chemref_citations", spans=spans)
    return doc
