"""chemref.load(): component order, saving and loading in a fresh process, multiprocessing, user rules."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from tests.nlp_helpers import stripped_sentence_spans
from hypothesis import given, settings
from hypothesis import strategies as st

spacy = pytest.importorskip("spacy")

import chemref  # noqa: E402
from chemref.nlp.components.factories import CHEMICALS, COMPONENTS, DEFAULT_PIPELINE  # noqa: E402

KEY = "chemref_citations"
OPTIONAL = ["chemref_author_mentions", "chemref_claim_classifier"]

TEXTS = [
    "Pd(PPh3)4 (5 mol%) and [Ru(bpy)3]2+ were stirred at 50°C in H2O. The yield was 85% [12].",
    "Cu2+ binds (Smith et al., 2019). Read Note. The end.",
    "Water enters by diffusion.[7] Studies of 2,4-dichloro-6-(6-trifluoromethylpyridin-2-yl)-1,3,5-triazine "
    "followed (Smith and Jones 2019; Lee 2020). 10 mg/mL of (S)-BINAP was used at r.t. for 2 h.",
    "",
]


def summary(docs) -> list[dict]:
    return [{"tokens": [t.text for t in doc], "sents": [s.text for s in doc.sents],
             "cites": [s.text for s in doc.spans[KEY]]} for doc in docs]


def test_component_order(nlp) -> None:
    assert nlp.pipe_names == list(DEFAULT_PIPELINE) == [name for name in COMPONENTS if name != CHEMICALS]
    assert nlp.config["nlp"]["tokenizer"]["@tokenizers"] == "chemref.Tokenizer.v1"
    assert chemref.load(chemicals=True).pipe_names == [*DEFAULT_PIPELINE, CHEMICALS]


def test_public_api() -> None:
    from chemref.nlp import split_sentences

    assert chemref.split_sentences is split_sentences
    assert chemref.split_sentences("One. Two.") == [(0, 4), (5, 9)]
    code = "import sys, chemref.nlp, chemref.nlp.rules; assert 'spacy' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.slow
@pytest.mark.parametrize("exclude", [OPTIONAL, []], ids=["sentences-only", "full"])
def test_round_trip_in_a_fresh_process(tmp_path, exclude) -> None:
    """nlp.to_disk, then spacy.load in a new interpreter that never imports chemref itself."""
    nlp = chemref.load(exclude=exclude)
    nlp.get_pipe("chemref_sentencizer").add_abbreviations(["Note"], kind="never")
    expected = summary(nlp.pipe(TEXTS))
    nlp.to_disk(tmp_path / "model")
    assert expected[1]["sents"][-1] == "Read Note. The end."
    (tmp_path / "texts.json").write_text(json.dumps(TEXTS), encoding="utf-8")
    script = textwrap.dedent(f"""
        import json, sys
        import spacy
        assert "chemref" not in sys.modules
        nlp = spacy.load({str(tmp_path / "model")!r})
        texts = json.load(open({str(tmp_path / "texts.json")!r}, encoding="utf-8"))
        out = [{{"tokens": [t.text for t in d], "sents": [s.text for s in d.sents],
                 "cites": [s.text for s in d.spans["{KEY}"]]}} for d in nlp.pipe(texts)]
        print(json.dumps({{"pipe_names": nlp.pipe_names, "docs": out}}))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["pipe_names"] == nlp.pipe_names
    assert loaded["docs"] == expected
    saved = json.loads((tmp_path / "model" / "chemref_sentencizer" / "rules.json").read_text(encoding="utf-8"))
    assert "Note." in next(t for t in saved["tables"] if t["name"] == "user")["abbreviations"]["never"]


@pytest.mark.slow
def test_config_abbreviations_saved_and_reloaded(tmp_path) -> None:
    nlp = spacy.blank("en")
    nlp.add_pipe("chemref_sentencizer", config={"abbreviations": ["Note"], "abbreviation_kind": "never",
                                                "no_split": [r"Ex\\. \\d+"]})
    nlp.to_disk(tmp_path)
    again = spacy.load(tmp_path)
    assert again.get_pipe("chemref_sentencizer").rules == nlp.get_pipe("chemref_sentencizer").rules
    assert again.config["components"]["chemref_sentencizer"]["abbreviations"] == ["Note"]
    assert [s.text for s in again("Read Note. The end.").sents] == ["Read Note. The end."]


@pytest.mark.slow
def test_to_bytes_round_trip(nlp) -> None:
    again = chemref.load().from_bytes(nlp.to_bytes())
    assert summary(again.pipe(TEXTS)) == summary(nlp.pipe(TEXTS))


def test_pipe_with_two_processes(nlp) -> None:
    texts = TEXTS * 3
    assert summary(nlp.pipe(texts, n_process=2, batch_size=2)) == summary(nlp.pipe(texts))


@pytest.mark.slow
def test_full_pipeline_with_two_processes() -> None:
    """Every component keeps doc.user_data msgpack-safe, so the whole pipeline runs in worker processes."""
    full = chemref.load()
    texts = TEXTS * 2
    one = list(full.pipe(texts))
    two = list(full.pipe(texts, n_process=2, batch_size=2))
    assert summary(two) == summary(one)
    assert [d.cats for d in two] == [d.cats for d in one]
    assert [[s._.chemref_claim for s in d.sents] for d in two] == [[s._.chemref_claim for s in d.sents] for d in one]


ADVERSARIAL = {
    "digit run": "1" * 100_000,
    "closing brackets": ")" * 100_000,
    "nested brackets": "(" * 50_000 + ")" * 50_000,
    "glued sentences": "ab.Cd" * 20_000,
    "many periods": ". " * 50_000,
    "random punctuation": "".join("a.)( [1]Z,"[(i * 7919) % 10] for i in range(100_000)),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ADVERSARIAL))
def test_adversarial_input_is_handled_in_linear_time(nlp, name: str) -> None:
    """Runs of affix characters used to make spaCy's tokenizer quadratic (a 20 k ")" chunk took 80 s with
    spaCy's default rules); chemref keeps such a chunk whole and rebuilds a Doc with many in-token starts
    in one pass. No timing assert: a quadratic regression shows up as a hung test."""
    from chemref.nlp.sentences import split_sentences

    text = ADVERSARIAL[name]
    doc = nlp(text)
    assert doc.text == text
    got = stripped_sentence_spans(doc)
    prot = [(s.start_char, s.end_char) for s in doc.spans[KEY]]
    assert got == split_sentences(text, protected=prot)


@pytest.mark.slow
def test_components_on_many_cited_sentences_are_linear() -> None:
    """The author-mention and claim components group citations by sentence with a bisect, not a scan of every
    citation per sentence (that was O(sentences x citations): 27 s for 16 000 cited sentences). No timing
    assert: a quadratic regression shows up as a hung test."""
    full = chemref.load()
    text = "Smith et al. showed it [1]. " * 20_000
    doc = full(text)
    assert doc.text == text
    assert len(doc.spans[KEY]) == 20_000
    assert len(doc.spans["chemref_author_mentions"]) == 20_000
    claims = [s._.chemref_claim for s in doc.sents]
    assert len(claims) == 20_000 and all(c is not None for c in claims)


def _spans_within_brute(windows, spans):
    return [[s for s in spans if s.start_char >= a and s.end_char <= b] for a, b in windows]


@pytest.mark.slow
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 6)), max_size=12),
       st.lists(st.tuples(st.integers(0, 40), st.integers(0, 12)), max_size=8))
@settings(max_examples=200)
def test_spans_within_equals_the_plain_scan(spans, windows) -> None:
    from types import SimpleNamespace

    from chemref.nlp.components.extensions import spans_within

    items = [SimpleNamespace(start_char=s, end_char=s + n) for s, n in spans]
    wins = [(a, a + n) for a, n in windows]
    got = spans_within(wins, items)
    want = _spans_within_brute(wins, items)
    assert [sorted(map(id, g)) for g in got] == [sorted(map(id, w)) for w in want]
