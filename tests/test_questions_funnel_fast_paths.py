"""The funnel's fast paths give the answers of the patterns they stand for, on random text."""

from __future__ import annotations

import random

from chemref.questions.funnel import filters, selector_cues
from chemref.questions.funnel.selector_features import _count, _list_step, _specific_tokens, _Views

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
