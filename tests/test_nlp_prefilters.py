"""The pre-filters read off regular expressions never rule out a match: on random texts built from the
patterns' own strings, the first match never starts before where the pre-filter says the first can start,
and a pattern the pre-filter rules out has no match. Every pattern of the selector, findability and the
claim rules is checked, in each form it is searched in."""

from __future__ import annotations

import random
import re

import pytest

import chemref.questions.funnel.findability as findability_module
import chemref.questions.funnel.selector_cues as selector_cues
import chemref.questions.funnel.selector_features as selector_module
from chemref.nlp.claims import DEFAULT_RULES
from chemref.nlp.prefilters import Words, literal_leads, needed_strings, prefilter


def _searched() -> list[tuple[str, "re.Pattern[str]", bool]]:
    """(name, pattern, searched in lower-cased text) for every pattern a pre-filter is built for."""
    out = []
    for module in (selector_cues, findability_module):
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


@pytest.mark.slow
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


# Letters that case folding treats apart from str.lower(): each lowers to two characters ("İ"), lowers by context
# ("Σ"), is a case partner re.IGNORECASE adds ("ſ", "ϑ"), or lowers to an ASCII or Greek letter from another
# block (Kelvin sign, "ϴ"). A text holds at most one of the first kind (``_APART``), so that the lower-cased view
# is tried on texts with every other one.
_APART = ["İ", "ı", "ſ", "ϑ", "ϐ", "ϵ", "ϰ", "ϖ", "ϱ", "ϕ", "\u0345", "µ", "ẛ", "ṡ", "ﬅ", "ﬆ", "ᲀ"]
_ADVERSARIAL = ["ẞ", "ß", "Σ", "ς", "σ", "ﬁ", "\u212a", "\u212b", "\u2126", "Θ", "ϴ", "θ", "μ", "ǅ", "Ⅰ", "Ⓐ",
                "\u0307", "\u00a0", "\n", "’", "–", "−", "‒", "Ꭰ", "ꭰ", "в", "[CITATION]", "e.g.", "(", "[1]", "2θ",
                "2Θ", "cm-1", "ΣΑΣ"]


def _case_variant(rng: random.Random, word: str, apart: str) -> str:
    choice = rng.randrange(5)
    if choice == 1:
        return word.upper()
    if choice == 2:
        return word.capitalize()
    if choice == 3:  # letters replaced by other forms re.IGNORECASE matches them with (the text's ``apart``)
        swap = {"k": "\u212a", "S": "Σ", "e": "E", "θ": "Θ"}
        return "".join(apart if apart and re.fullmatch(re.escape(ch), apart, re.IGNORECASE) else swap.get(ch, ch)
                       for ch in word)
    return word


def _adversarial_text(rng: random.Random, words: list[str], length: int) -> str:
    apart = rng.choice(_APART + [""] * 3)
    parts: list[str] = []
    size = 0
    while size < length:
        roll = rng.random()
        if roll < 0.7:
            piece = _case_variant(rng, rng.choice(words), apart)
        elif roll < 0.95 or not apart:
            piece = rng.choice(_ADVERSARIAL)
        else:
            piece = apart
        parts.append(piece + rng.choice((" ", " ", "", ", ", "\n")))
        size += len(parts[-1])
    return "".join(parts)


_SELECTOR_PATTERNS = [(name, value) for name, value in vars(selector_cues).items() if isinstance(value, re.Pattern)]


@pytest.mark.slow
@pytest.mark.parametrize("length", [300, 2100], ids=["short", "long"])
def test_selector_counts_equal_plain_regex_counts_on_the_original_text(length: int) -> None:
    """Every selector pattern counted as the features count it (case-free on the lower-cased view, behind
    the pre-filters and the words of a long text) matches exactly as often as ``finditer`` on the original
    text, and the case-free matches sit at the same offsets."""
    rng = random.Random(length)
    cues = ["such as", "showed that", "this study", "assigned to", "et al", "peaks at 2θ", "key", "in this"]
    words = cues * 30 + sorted({w for _, p in _SELECTOR_PATTERNS
                                for w in re.findall(r"[A-Za-z]{2,}", re.sub(r"\\.", " ", p.pattern))})
    for _ in range(60 if length < 1000 else 12):
        text = _adversarial_text(rng, words, length)
        lower = selector_module._lower_view(text)
        words_of = Words(lower) if lower is not None and len(lower) >= selector_module._LONG_TEXT else None
        for name, pattern in _SELECTOR_PATTERNS:
            plain = [m.span() for m in pattern.finditer(text)]
            assert selector_module._count(pattern, text, 10 ** 9, lower, words_of) == len(plain), (name, text)
            free = selector_module._case_free(pattern) if pattern.flags & re.IGNORECASE else None
            if free is not None and lower is not None:
                assert [m.span() for m in free.finditer(lower)] == plain, (name, text)


def test_findability_and_claims_on_adversarial_long_texts_are_the_same_without_prefilters(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import chemref.nlp.claims as claims_module

    rng = random.Random(7)
    words = sorted({w for _, p, _ in SEARCHED for w in re.findall(r"[A-Za-z]{2,}", re.sub(r"\\.", " ", p.pattern))})
    texts = [_adversarial_text(rng, words, 2100) for _ in range(6)]
    before = []
    for text in texts:
        findability_module._features.cache_clear()
        before.append((findability_module.findability_features(text),
                       claims_module.DEFAULT_RULES.classify(text + " [1].", (len(text) + 1, len(text) + 4))))
    monkeypatch.setattr(findability_module, "prefilter", lambda *args: None)
    monkeypatch.setattr(claims_module, "prefilter", lambda *args: None)
    monkeypatch.setattr(claims_module, "_LONG_SENTENCE", 10 ** 9)
    for text, (features, decision) in zip(texts, before):
        findability_module._features.cache_clear()
        assert findability_module.findability_features(text) == features, text
        assert claims_module.DEFAULT_RULES.classify(text + " [1].", (len(text) + 1, len(text) + 4)) == decision, text


@pytest.mark.parametrize(("pattern", "text"), [
    pytest.param(r"\bcaf\u00C9\b", "Le CAFÉ was shown", id="char-by-code"),
    pytest.param(r"\bcaf\xC9\b", "Le café was shown", id="char-by-hex"),
    pytest.param(r"\b(?s-i:[A-Z])\w+ showed", "the protein showed", id="case-kept-with-other-flags"),
    pytest.param(r"[A-z]_", "__", id="range-across-cases"),
    pytest.param("σ", "ΑΣ", id="final-sigma"),
    pytest.param(r"[α-ω]\b", "ϑ", id="range-holding-a-case-partner"),
    pytest.param(r"[@-[]x", "Ax", id="range-holding-capitals-only"),
    pytest.param(r"[×-÷]", "Ø", id="range-between-uncased-ends"),
    pytest.param(r"\bϑ", "Θ", id="partner-other-letters-lower-to"),
    pytest.param(r"[^ſ]s", "Ss", id="negated-partner"),
    pytest.param(r"\bİstanbul\b", "samples from ISTANBUL", id="dotted-capital-i"),
    pytest.param(r"\bİstanbul\b", "a " * 1100 + "samples from istanbul", id="dotted-capital-i-long"),
])
def test_patterns_lower_casing_cannot_keep_are_searched_case_insensitively(pattern: str, text: str) -> None:
    # (the claim rules of a table of one's own used to search the lower-cased form of such a pattern)
    import copy

    from chemref.nlp.claims import ClaimRules, load_claim_tables
    from chemref.nlp.prefilters import lower_pattern

    assert lower_pattern(pattern) is None
    plan = prefilter(re.compile(pattern, re.IGNORECASE))
    first = re.search(pattern, text, re.IGNORECASE)
    assert first is None or plan is None or 0 <= plan.start(text) <= first.start()
    tables = copy.deepcopy(load_claim_tables())
    tables["rules"]["claim"] = [{"name": "probe", "weight": 5.0, "pattern": pattern}]
    tables["rules"]["passing"] = []
    fired = ClaimRules(tables).classify(text).rule == "probe"
    assert fired == (re.search(pattern, text, re.IGNORECASE) is not None)


def test_every_shipped_case_insensitive_pattern_is_still_searched_lower_cased() -> None:
    from chemref.nlp.claims import load_claim_tables
    from chemref.nlp.prefilters import lower_pattern

    assert lower_pattern(r"\b[A-Z]x\b|[sz]ed") == r"\b[a-z]x\b|[sz]ed" and lower_pattern("ẞ") == "ß"
    for name, pattern in _SELECTOR_PATTERNS:
        if pattern.flags & re.IGNORECASE:
            assert lower_pattern(pattern.pattern) is not None, name
    rules = load_claim_tables()["rules"]
    patterns = [item["pattern"] for kind in ("passing", "claim") for item in rules[kind] if "pattern" in item]
    assert sum(lower_pattern(p) is not None for p in patterns) == sum("(?-i" not in p for p in patterns)


@pytest.mark.parametrize("length", [199, 200, 201, 1000, 5000])
def test_a_pattern_with_a_long_literal_gets_a_prefilter_that_finds_it(length: int) -> None:
    pattern = re.compile("x" + "a" * length)
    plan = prefilter(pattern)
    assert plan is not None
    text = "b" * 50 + "x" + "a" * length + " tail"
    assert plan.start(text) <= pattern.search(text).start() == 50  # type: ignore[union-attr]
    assert plan.start("b" * 300) == -1
