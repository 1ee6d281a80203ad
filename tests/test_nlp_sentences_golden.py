"""The golden tables of chemref.nlp.sentences.split_sentences (benchmarks/golden/sentences.py), one case per test."""

from __future__ import annotations

import pytest

from benchmarks.golden.sentences import ALL_TABLES, PROTECTED_TABLES
from chemref.nlp.sentences import split_sentences
from tests.helpers import golden_params


def _protected(text: str, anchors: list[str]) -> list[tuple[int, int]]:
    spans, pos = [], 0
    for a in anchors:
        ctx, _, a = a.rpartition("|")
        s = text.index(ctx + a, pos) + len(ctx)
        spans.append((s, s + len(a)))
        pos = s + len(a)
    return spans


CASES = (golden_params(ALL_TABLES, shape=lambda case: (case[0], None, case[1]))
         + golden_params(PROTECTED_TABLES))


@pytest.mark.slow
@pytest.mark.parametrize("text,anchors,expected", CASES)
def test_golden(text, anchors, expected):
    """The sentences of ``text``; with ``anchors``, no boundary inside a protected citation either."""
    protected = _protected(text, anchors) if anchors is not None else ()
    spans = split_sentences(text, protected=protected)
    assert [text[s:e] for s, e in spans] == expected
    for s, e in protected:
        assert not any(s < b < e for _, b in spans), "a boundary fell inside a protected span"


def test_case_count():
    """At least 150 hand-written golden cases."""
    assert sum(len(t) for t in ALL_TABLES.values()) + len(PROTECTED_TABLES["protected"]) >= 150
