"""The funnel's fast paths give the answers of the patterns they stand for, on random text."""

from __future__ import annotations

import random

from chemref.jats.reader import read_articles
from chemref.questions.funnel import filters, selector_cues
from chemref.questions.funnel.builder import _selector_row, build_article
from chemref.questions.funnel.candidates import iter_candidates, replace_citation
from chemref.questions.funnel.engines import default_components
from chemref.questions.funnel.selector_features import (
    FEATURES,
    _count,
    _list_step,
    _specific_tokens,
    _Views,
    selector_features,
)
from tests.helpers import CORPORA

_ALPHABET = ("aZ1 αΩ.-,;(\u00a0\u2003x\u0663\x1c\x85\u200b\u2028ǅ\u0130\u0131\u017f" + "such as including and other etc "
             "http www. doi: PMID 12345 PMC ")


def _texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 60))) for _ in range(n)]


def test_specific_tokens_count_the_pattern_matches() -> None:
    for text in _texts(5000, 1):
        expected = min(sum(1 for _ in selector_cues.SPECIFIC_TOKEN.finditer(text)), 5)
        assert _specific_tokens(text, 5.0) == float(expected), repr(text)


def test_list_step_counts_list_matches() -> None:
    for text in _texts(3000, 2) + ["a, b; c such as d, including e and other f etc.", "SUCH AS x, Etc"]:
        views = _Views({"excerpt": text})
        assert _list_step(views) == _count(selector_cues.LIST, text, 6.0) / 2.0, repr(text)


def test_identifier_prefilter_never_hides_a_match() -> None:
    rng = random.Random(3)
    variants = {"i": "iI\u0130\u0131", "s": "sS\u017f"}
    for _ in range(5000):
        part = rng.choice(["http://", "https://", "www.", "doi:", "PMID: 1", "pmid2", "PMC12345"])
        part = "".join(rng.choice(variants.get(c.lower(), c.lower() + c.upper())) for c in part)
        text = rng.choice(["", "a ", "é ", "α"]) + part + rng.choice(["", " z", "é"])
        if filters._IDENTIFIER.search(text):
            assert filters._may_hold_identifier(text), repr(text)


class _Reads(dict):  # type: ignore[type-arg]
    """A record that remembers which of its fields were read."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.read: set[str] = set()

    def get(self, key, default=None):  # type: ignore[no-untyped-def]
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key):  # type: ignore[no-untyped-def]
        self.read.add(key)
        return super().__getitem__(key)


def test_the_selector_row_holds_every_field_the_features_read() -> None:
    path = CORPORA / "jats" / "sample_cu_tio2_co2.xml"
    record = _Reads(build_article(path).questions[0].to_dict())
    selector_features(record, FEATURES)
    cand = next(iter(iter_candidates(read_articles(str(path))[0], default_components().split)))
    row = _selector_row(cand, replace_citation(cand.sentence, cand.anchor.start, cand.anchor.end), 0.5)
    assert record.read <= set(row), sorted(record.read - set(row))
