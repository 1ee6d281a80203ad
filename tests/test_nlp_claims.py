"""The claim vs passing-mention classifier (chemref.nlp.claims: the rules and the trained model of
chemref.nlp.claims_model) on its golden table (benchmarks/golden/claims.py: each case a citing sentence with its one
citation written as ``[CIT]`` and the expected label), and its component."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.golden.claims import CASES
from chemref.errors import InputError
from chemref.nlp.claims import (
    DEFAULT_RULES,
    ClaimClassifier,
    ClaimDecision,
    citation_clause,
    classify_citation,
    default_classifier,
)
from chemref.nlp.claims_model import ClaimModel, features, find_citation, model_tokens
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


_ROUND_TRIP = ["Solvents were purchased from Merck [4].", "Aspirin irreversibly inhibits COX-1 [4].",
               "For a review, see [3].", "Graphene was first isolated in 2004 [9]."]


@pytest.mark.slow
def test_component_serialisation_roundtrip(tmp_path) -> None:
    spacy = pytest.importorskip("spacy")
    nlp = blank_with("chemref_claim_classifier")
    nlp.to_disk(tmp_path / "model")
    folder = tmp_path / "model" / "chemref_claim_classifier"
    assert (folder / "claims_rules.json").exists() and (folder / "claims_model.json").exists()
    loaded = spacy.load(tmp_path / "model")
    pipe, original = loaded.get_pipe("chemref_claim_classifier"), nlp.get_pipe("chemref_claim_classifier")
    assert pipe.rules.tables == original.rules.tables
    assert pipe.classifier.model.to_json() == original.classifier.model.to_json()
    assert [loaded(t).cats for t in _ROUND_TRIP] == [nlp(t).cats for t in _ROUND_TRIP]
    again = blank_with("chemref_claim_classifier")
    again.get_pipe("chemref_claim_classifier").from_bytes(original.to_bytes())
    assert [again(t).cats for t in _ROUND_TRIP] == [nlp(t).cats for t in _ROUND_TRIP]


def test_component_saved_without_model_keeps_the_rules_alone(tmp_path) -> None:
    """A folder with rule tables only (as saved before the model existed) classifies with the rules, as saved."""
    nlp = blank_with("chemref_claim_classifier")
    pipe = nlp.get_pipe("chemref_claim_classifier")
    pipe.to_disk(tmp_path)
    (tmp_path / "claims_model.json").unlink()
    pipe.from_disk(tmp_path)
    assert pipe.classifier.model is None
    sentence = "Solvents were purchased from Merck [4]."
    assert pipe.classifier.classify(sentence) == DEFAULT_RULES.classify(sentence, find_citation(sentence))


def test_component_rejects_damaged_bytes() -> None:
    pipe = blank_with("chemref_claim_classifier").get_pipe("chemref_claim_classifier")
    with pytest.raises(InputError):
        pipe.from_bytes(b'{"rules": {}}')


# --- the trained model ------------------------------------------------------------------------------------
_ONE_CITATION = ["Graphene was first isolated in 2004 [9].", "Solvents were purchased from Merck (Smith et al., 2010).",
                 "RNA was extracted with TRIzol as described [CITATION].", "Aspirin irreversibly inhibits COX-1 (12).",
                 "This was shown before by #AUTHOR_TAG in mice.", "Protein levels rose threefold [3-5] after treatment."]


@pytest.mark.parametrize("sentence", _ONE_CITATION)
def test_one_answer_with_or_without_the_span(sentence: str) -> None:
    span = find_citation(sentence)
    assert span is not None
    classify_citation.cache_clear()
    assert classify_citation(sentence) == classify_citation(sentence, span)


def test_citation_styles_give_one_model_form() -> None:
    forms = {"[9]", "(9)", "[CITATION]", "(Smith et al., 2010)", "#AUTHOR_TAG", "<|cit|>"}
    seen = set()
    for marker in forms:
        sentence = f"Graphene was first isolated in 2004 {marker} and (Jones, 2011) [4] later."
        seen.add(tuple(model_tokens(sentence, find_citation(sentence))[0]))
    assert seen == {("graphene", "was", "first", "isolated", "in", "0", "tcit", "and", "ocit", "ocit", "later")}


def test_sentence_without_marker_is_classified_whole() -> None:
    assert find_citation("No citation marker here at all.") is None
    assert classify_citation("Solvents were purchased from Merck.").label in ("CLAIM", "PASSING")


def test_model_json_round_trip() -> None:
    model = default_classifier().model
    assert model is not None
    again = ClaimModel(model.to_json())
    for sentence in _ONE_CITATION:
        span = find_citation(sentence)
        rules = DEFAULT_RULES.classify(sentence, span)
        assert again.probability(sentence, span, rules) == model.probability(sentence, span, rules)


@pytest.mark.parametrize("settings", [{"ngrams": 1, "window": 0, "rules": "none", "clause": False},
                                      {"ngrams": 2, "window": 3, "rules": "decision", "clause": True},
                                      {"ngrams": 2, "window": 2, "rules": "evidence", "clause": True},
                                      {"ngrams": 3, "window": 3, "rules": "evidence", "clause": True}])
def test_logit_is_the_sum_of_the_features_weights(settings: dict) -> None:
    shipped = default_classifier().model.to_json()
    weights = {**shipped["weights"], "fired:c:finding": 0.8, "fired:p:kit": -1.1, "l:we": 0.25, "g:we used the": 0.5,
               "rules:logit": 0.7, "c:as described": -0.3, "c:<s> the": 0.2}
    model = ClaimModel({**shipped, "settings": settings, "weights": weights})
    sentences = [*_ONE_CITATION, "We used the kit [12] as described; the yield [13] rose, whereas the kit [12] did not."]
    for sentence in sentences:
        span = find_citation(sentence)
        decision, names = DEFAULT_RULES.evidence(sentence, span)
        clause = citation_clause(sentence, *span) if span is not None else None
        for args in ((span, decision, names, clause), (span, None, (), None), (None, decision, names, None)):
            feats = features(sentence, args[0], model.settings, *args[1:])
            expected = model.bias + sum([weights.get(name, 0.0) * value for name, value in feats.items()])
            assert model.logit(sentence, *args) == expected  # the same terms in the same order: the same float


@pytest.mark.parametrize("data", [{}, {"settings": {}, "bias": "x", "weights": {}},
                                  {"settings": {}, "bias": 0, "weights": {}, "threshold": 2}])
def test_model_rejects_invalid_json(data: dict) -> None:
    with pytest.raises(InputError):
        ClaimModel(data)


def test_model_file_errors_name_the_file(tmp_path) -> None:
    path = tmp_path / "claims_model.json"
    path.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(InputError) as info:
        ClaimModel.from_file(path)
    assert str(path) in str(info.value)


def test_classifier_without_model_is_the_rules() -> None:
    rules_only = ClaimClassifier(DEFAULT_RULES, None)
    sentence = "Cells were lysed as described previously [CIT]."
    assert rules_only.classify(sentence, (41, 46)) == DEFAULT_RULES.classify(sentence, (41, 46))


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
        got = DEFAULT_RULES.classify(sentence, citation)
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
    got = DEFAULT_RULES.classify(sentence, citation)
    label, score, rule = _reference_decision(sentence, citation)
    assert (got.label, got.rule) == (label, rule) and abs(got.score - score) < 1e-12
