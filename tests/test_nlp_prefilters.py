"""The pre-filters read off regular expressions never rule out a match: on random texts built from the
patterns' own strings, the first match never starts before where the pre-filter says the first can start,
and a pattern the pre-filter rules out has no match. Every pattern of the selector, findability and the
claim rules is checked, in each form it is searched in."""

from __future__ import annotations

import random
import re

import pytest

import chemref.questions.findability as findability_module
import chemref.questions.selector as selector_module
from chemref.nlp.claims import DEFAULT_RULES
from chemref.nlp.prefilters import Words, literal_leads, needed_strings, prefilter


def _searched() -> list[tuple[str, "re.Pattern[str]", bool]]:
    """(name, pattern, searched in lower-cased text) for every pattern a pre-filter is built for."""
    out = []
    for module in (selector_module, findability_module):
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern):
                out.append((f"{module.__name__}.{name}", value, False))
                free = selector_module._case_free(value) if value.flags & re.IGNORECASE else None
                if free is not None:
                    out.append((f"{module.__name__}.{name} (case-free)", free, True))
    for rule in DEFAULT_RULES.passing + DEFAULT_RULES.claim:
        if rule.regex is not None:
            out.append((f"claims.{rule.name}", rule.regex, rule.lowered))
    return out


SEARCHED = _searched()


def _pieces(pattern: "re.Pattern[str]") -> list[str]:
    """Strings a text built to hit ``pattern`` is made of: its literal words, and some noise."""
    words = re.findall(r"[A-Za-z]{2,}|\d+", re.sub(r"\\.", " ", pattern.pattern))
    return words + [" ", " ", "-", ".", ",", "(", ")", "[CITATION]", "1", "e.g.", "A", "al", "ſ", "θ", "ϑ", "İ"]


@pytest.mark.parametrize("name,pattern,lowered", SEARCHED, ids=[s[0] for s in SEARCHED])
def test_a_prefilter_never_rules_out_a_match(name: str, pattern: "re.Pattern[str]", lowered: bool) -> None:
    plan = prefilter(pattern, lowered)
    if plan is None:
        return
    rng = random.Random(name)
    pieces = _pieces(pattern)
    for _ in range(300):
        text = "".join(rng.choice(pieces) + rng.choice(("", " ", " ")) for _ in range(rng.randint(1, 40)))
        if lowered:
            text = text.lower()
        first = pattern.search(text)
        start = plan.start(text, Words(text))
        if first is None:
            continue
        assert 0 <= start <= first.start(), (text, start, first)


def test_leads_and_needed_strings() -> None:
    assert literal_leads(r"\b(?:show(?:s|ed)|found)\s+that") == {"shows", "showed", "found"}
    assert literal_leads(r"\d+ mM") is None
    assert needed_strings(r"\d+\s*ppm|cm[-−]1") == {"ppm", "cm-", "cm−"}
    assert needed_strings(r"[a-z]+") is None


_LONG_TEXTS = [
    ("Smith and colleagues first described the copper(II)-catalysed coupling of 4-bromoanisole at 80 °C; "
     "NMR and DFT showed that NiCl2 plays an important role, as the aminotransferase did in recent years. ") * 30,
    "e.g. " * 600, "Smith et al. " * 300, "(" * 3000, "1" * 3000, "C" * 3000,
    "was shown to bind the ſtrange İstanbul samples at 2ϑ = 25° [1]. " * 40,
]


@pytest.mark.parametrize("text", _LONG_TEXTS, ids=[t[:12] for t in _LONG_TEXTS])
def test_findability_and_claims_are_the_same_without_prefilters(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import chemref.nlp.claims as claims_module

    sentence = text + " [1]."
    citation = (len(text) + 1, len(text) + 4)
    findability_module._features.cache_clear()
    features = findability_module.findability_features(text)
    decision = claims_module.classify_citation(sentence, citation)
    monkeypatch.setattr(findability_module, "prefilter", lambda *args: None)
    monkeypatch.setattr(claims_module, "prefilter", lambda *args: None)
    monkeypatch.setattr(claims_module, "_LONG_SENTENCE", 10 ** 9)
    findability_module._features.cache_clear()
    assert findability_module.findability_features(text) == features
    assert claims_module.classify_citation(sentence, citation) == decision
