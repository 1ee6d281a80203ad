"""The claim vs passing-mention classifier (chemref.nlp.claims) on its golden table (benchmarks/golden/claims.py:
each case a citing sentence with its one citation written as ``[CIT]`` and the expected label), and its component."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.golden.claims import CASES
from chemref.nlp.claims import ClaimDecision, classify_citation
from tests.helpers import golden_params
from tests.nlp_helpers import blank_with, doc_with_citations


def _offsets(sentence: str) -> tuple[int, int] | None:
    pos = sentence.find("[CIT]")
    return (pos, pos + len("[CIT]")) if pos >= 0 else None


@pytest.mark.parametrize(("sentence", "expected"), golden_params({"claims": CASES}))
def test_golden(sentence: str, expected: str) -> None:
    decision = classify_citation(sentence, _offsets(sentence))
    assert decision.label == expected, decision


RULE_CASES = [
    ("Chemicals were purchased from Acros Organics [CIT].", "supplier"),
    ("Protein was measured with a BCA kit [CIT].", "kit"),
    ("Cells were lysed as described previously [CIT].", "as_described"),
    ("Statistics were computed with SPSS software [CIT].", "software"),
    ("Spectra were recorded on a JEOL 500 MHz spectrometer [CIT].", "instrument"),
    ("For a review see [CIT].", "pointer"),
    ("Silica is amorphous [CIT].", "default_claim"),
]


@pytest.mark.parametrize(("sentence", "rule"), RULE_CASES)
def test_rule_names(sentence: str, rule: str) -> None:
    assert classify_citation(sentence, _offsets(sentence)).rule == rule


def test_decision_shape() -> None:
    decision = classify_citation("Aspirin irreversibly inhibits COX-1 [1].", (35, 38))
    assert isinstance(decision, ClaimDecision)
    assert decision.label == "CLAIM" and 0.5 <= decision.score <= 1.0
    passing = classify_citation("Solvents were purchased from Merck [1].")
    assert passing.label == "PASSING" and 0.0 <= passing.score < 0.5


def test_bad_offsets_raise() -> None:
    with pytest.raises(ValueError):
        classify_citation("Short [1].", (5, 50))


def test_table_size() -> None:
    assert len(CASES) >= 100


@pytest.mark.slow
def test_pure_module_does_not_import_spacy() -> None:
    code = "import sys, chemref.nlp.claims, chemref.nlp.authors; assert 'spacy' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


# --- the spaCy component ------------------------------------------------------------------------------
@pytest.mark.slow
def test_component_cats() -> None:
    nlp = blank_with("chemref_claim_classifier")
    doc = nlp(doc_with_citations(nlp, "Solvents were purchased from Merck [4].", ["[4]"]))
    assert doc.cats["PASSING"] > 0.5 and abs(doc.cats["CLAIM"] + doc.cats["PASSING"] - 1.0) < 1e-9
    doc = nlp(doc_with_citations(nlp, "Aspirin irreversibly inhibits COX-1 [4].", ["[4]"]))
    assert doc.cats["CLAIM"] > 0.5
    doc = nlp("A sentence without any citation spans at all.")
    assert set(doc.cats) == {"CLAIM", "PASSING"}


def test_component_per_sentence() -> None:
    nlp = blank_with("chemref_claim_classifier", with_sentences=True)
    text = "Aspirin irreversibly inhibits COX-1 [4]. RNA was isolated with TRIzol [5]. No citation here."
    doc = nlp(doc_with_citations(nlp, text, ["[4]", "[5]"]))
    sents = list(doc.sents)
    assert sents[0]._.chemref_claim.label == "CLAIM"
    assert sents[1]._.chemref_claim.label == "PASSING"
    assert sents[2]._.chemref_claim is None


@pytest.mark.slow
def test_component_serialisation_roundtrip(tmp_path) -> None:
    spacy = pytest.importorskip("spacy")
    nlp = blank_with("chemref_claim_classifier")
    nlp.to_disk(tmp_path / "model")
    assert (tmp_path / "model" / "chemref_claim_classifier" / "claims_rules.json").exists()
    loaded = spacy.load(tmp_path / "model")
    doc = loaded("For a review, see [3].")
    assert doc.cats["PASSING"] > 0.5
    assert loaded.get_pipe("chemref_claim_classifier").rules.tables == nlp.get_pipe("chemref_claim_classifier").rules.tables


# --- the fast engine decides exactly as a plain search of every rule ------------------------------------------
def _reference_decision(sentence: str, citation: tuple[int, int] | None) -> tuple[str, float, str | None]:
    """Every rule searched case-insensitively in its window, as the rule table's _doc says (no shortcuts)."""
    import math
    import re

    from chemref.nlp.claims import citation_clause, load_claim_tables

    tables = load_claim_tables()
    rules, lexicon = tables["rules"], tables["lexicon"]
    if citation is not None:
        start, end = citation
        c0, c1 = citation_clause(sentence, start, end)
        windows = {"before": sentence[max(0, start - 100):start], "after": sentence[end:end + 40],
                   "near": sentence[max(0, start - 45):start] + " " + sentence[end:end + 25],
                   "clause": sentence[c0:c1]}
    else:
        windows = {"before": sentence, "after": "", "near": sentence, "clause": sentence}
    stop = {w.lower() for w in lexicon.get("_not_followed_by", ())}

    def lexicon_hit(names: list[str], text: str) -> bool:
        tokens = [t.rstrip(".'’") or t for t in re.findall(r"[^\s()\[\]{},;:\"“”]+", text)]
        grams = {" ".join(n.split()) for n in names}
        for i in range(len(tokens)):
            for n in range(1, len(tokens) - i + 1):
                if " ".join(tokens[i:i + n]) in grams and (i + n == len(tokens) or tokens[i + n].lower() not in stop):
                    return True
        return False

    def fires(item: dict, passing: bool = False) -> bool:
        if item.get("gate") and not any(g in sentence.lower() for g in item["gate"]):
            return False
        scope = item.get("scope", "sentence")
        text = windows["clause"] if passing and scope == "sentence" else windows.get(scope, sentence)
        if "lexicon" in item:
            return lexicon_hit(lexicon[item["lexicon"]], text)
        return re.search(item["pattern"], text, re.IGNORECASE) is not None

    fired: dict[str, float] = {}
    local: dict[str, float] = {}
    for item in rules["passing"]:
        if fires(item, passing=True):
            fired[item["name"]] = max(fired.get(item["name"], 0.0), item["weight"])
            if item.get("scope", "sentence") != "sentence":
                local[item["name"]] = max(local.get(item["name"], 0.0), item["weight"])
    claim_total, best, cancel_all, cancel_away = 0.0, None, set(), set()
    for item in rules["claim"]:
        if fires(item):
            claim_total += item["weight"]
            if best is None or item["weight"] > best[0]:
                best = (item["weight"], item["name"])
            (cancel_all if item.get("cancels_near_citation", True) else cancel_away).update(item.get("cancels", ()))
    for name in cancel_all | (cancel_away if not local else set()):
        fired.pop(name, None)
    logit = rules["bias"] + min(claim_total, rules["claim_cap"]) - sum(fired.values())
    score = 1.0 / (1.0 + math.exp(-logit))
    if score >= rules["threshold"]:
        return "CLAIM", score, best[1] if best else "default_claim"
    return "PASSING", score, max(((w, n) for n, w in fired.items()), default=(0, None))[1]


def _case_sentences():
    for case in CASES:
        sentence = case.values[0] if hasattr(case, "values") else case[0]
        yield sentence, _offsets(sentence)


@pytest.mark.slow
def test_fast_engine_matches_plain_search_on_the_golden_table() -> None:
    for sentence, citation in _case_sentences():
        got = classify_citation(sentence, citation)
        label, score, rule = _reference_decision(sentence, citation)
        assert (got.label, got.rule) == (label, rule) and abs(got.score - score) < 1e-12, sentence


_WORDS = st.sampled_from(
    "we were was used using previously described reported as the a of in on with by for from to and "
    "Sigma-Aldrich Merck kit assay method software R package version 2.1 database dataset GSE12345 "
    "https://x.org broth medium Walne's plasmid pGL3 source mice antibodies observed microscopy spectra "
    "recorded Bruker spectrometer higher than those close recently For example, previous study showed "
    "according literature İstanbul ſ K Ω Straße".split())


@pytest.mark.slow
@given(words=st.lists(_WORDS, min_size=1, max_size=30), at=st.integers(min_value=0, max_value=30),
       cited=st.booleans())
def test_fast_engine_matches_plain_search_on_random_text(words: list[str], at: int, cited: bool) -> None:
    pos = min(at, len(words))
    sentence = " ".join(words[:pos] + ["[12]"] + words[pos:]) + "."
    start = sentence.index("[12]")
    citation = (start, start + 4) if cited else None
    got = classify_citation(sentence, citation)
    label, score, rule = _reference_decision(sentence, citation)
    assert (got.label, got.rule) == (label, rule) and abs(got.score - score) < 1e-12
