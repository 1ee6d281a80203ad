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
