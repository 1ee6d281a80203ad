"""Golden rules for chemref's chemistry-aware tokenizer (chemref.nlp.tokenizer_rules, chemref.nlp.components.tokenizer)."""

from __future__ import annotations

import json

import pytest

spacy = pytest.importorskip("spacy")

from hypothesis import given, strategies as st  # noqa: E402


XFAIL = pytest.mark.xfail


def hard(text: str, tokens: list[str], reason: str):
    return pytest.param(text, tokens, marks=XFAIL(reason=reason, strict=True))


CASES = [
    # IUPAC names and formulas stay whole
    ("2,4-dichloro-6-(6-trifluoromethylpyridin-2-yl)-1,3,5-triazine",
     ["2,4-dichloro-6-(6-trifluoromethylpyridin-2-yl)-1,3,5-triazine"]),
    ("Pd(PPh3)4", ["Pd(PPh3)4"]),
    ("[Ru(bpy)3]2+", ["[Ru(bpy)3]2+"]),
    ("Cu2+", ["Cu2+"]),
    ("H2O", ["H2O"]),
    ("(S)-BINAP", ["(S)-BINAP"]),
    ("(±)-ibuprofen", ["(±)-ibuprofen"]),
    ("(2R,3S)-2,3-dibromobutane", ["(2R,3S)-2,3-dibromobutane"]),
    ("N,N-dimethylformamide (DMF)", ["N,N-dimethylformamide", "(", "DMF", ")"]),
    ("benzo[d][1,3]dioxole", ["benzo[d][1,3]dioxole"]),
    ("bicyclo[2.2.1]heptane", ["bicyclo[2.2.1]heptane"]),
    ("[Cu(NH3)4]SO4", ["[Cu(NH3)4]SO4"]),
    ("[18F]FDG", ["[18F]FDG"]),
    ("Fe(III)", ["Fe(III)"]),
    ("using Pd(OAc)2, then", ["using", "Pd(OAc)2", ",", "then"]),
    ("Et3N and H2S", ["Et3N", "and", "H2S"]),
    ("Ca2+-dependent", ["Ca2+-dependent"]),
    ("Na+/K+-ATPase", ["Na+/K+-ATPase"]),
    ("β-D-glucose", ["β-D-glucose"]),
    ("t-BuOK and n-BuLi", ["t-BuOK", "and", "n-BuLi"]),
    ("C=O stretch", ["C=O", "stretch"]),
    ("CH2Cl2/MeOH (9:1)", ["CH2Cl2", "/", "MeOH", "(", "9:1", ")"]),
    ("3'-OH", ["3'-OH"]),
    # trailing punctuation and brackets around chemical words
    ("(Pd(PPh3)4).", ["(", "Pd(PPh3)4", ")", "."]),
    ("((S)-BINAP)", ["(", "(S)-BINAP", ")"]),
    ("Cu2+.", ["Cu2+", "."]),
    ("(Fe(III))", ["(", "Fe(III)", ")"]),
    ("H2O2.", ["H2O2", "."]),
    # units split from numbers
    ("50 °C", ["50", "°C"]),
    ("50°C", ["50", "°C"]),
    ("5 mol%", ["5", "mol%"]),
    ("5mol%", ["5", "mol%"]),
    ("0.5 mM", ["0.5", "mM"]),
    ("0.5mM", ["0.5", "mM"]),
    ("10 mg/mL", ["10", "mg/mL"]),
    ("10mg/mL", ["10", "mg/mL"]),
    ("−78 °C", ["−78", "°C"]),
    ("yield: 85%.", ["yield", ":", "85", "%", "."]),
    ("(85%)", ["(", "85", "%", ")"]),
    ("10.5 Hz,", ["10.5", "Hz", ","]),
    ("300K", ["300", "K"]),
    ("≥95%", ["≥", "95", "%"]),
    ("~5 nm", ["~", "5", "nm"]),
    # compound labels and figure panels are not units
    ("compound 2h", ["compound", "2h"]),
    ("Fig. 2A", ["Fig.", "2A"]),
    ("3aa", ["3aa"]),
    # citations split off
    ("[12]", ["[", "12", "]"]),
    ("[3–5]", ["[", "3–5", "]"]),
    ("as reported[3,4].", ["as", "reported", "[", "3,4", "]", "."]),
    ("diffusion.7 Studies", ["diffusion", ".", "7", "Studies"]),
    ("diffusion.[12] The", ["diffusion", ".", "[", "12", "]", "The"]),
    ("(Smith et al., 2019)", ["(", "Smith", "et", "al.", ",", "2019", ")"]),
    ("Smith (2019)", ["Smith", "(", "2019", ")"]),
    # abbreviations keep their period; sentence-like periods split
    ("at r.t. for 2 h.", ["at", "r.t.", "for", "2", "h", "."]),
    ("(ca. 5 equiv.)", ["(", "ca.", "5", "equiv.", ")"]),
    ("(e.g., THF)", ["(", "e.g.", ",", "THF", ")"]),
    ("E. coli", ["E.", "coli"]),
    ("J. Am. Chem. Soc.", ["J.", "Am.", "Chem.", "Soc."]),
    ("was used.The", ["was", "used", ".", "The"]),
    ("doped with Co.", ["doped", "with", "Co", "."]),
    ("pH 7.4.", ["pH", "7.4", "."]),
    ("n=3, p<0.05", ["n", "=", "3", ",", "p", "<", "0.05"]),
    ("J = 7.2 Hz", ["J", "=", "7.2", "Hz"]),
    ("(Scheme 2).", ["(", "Scheme", "2", ")", "."]),
    ("https://doi.org/10.1021/ja00001.", ["https://doi.org/10.1021/ja00001", "."]),
    ("don't", ["do", "n't"]),
    ("(compound 8)", ["(", "compound", "8", ")"]),
    # hard cases kept
    hard("diffusion,7 and", ["diffusion", ",", "7", "and"],
         "a superscript citation after a comma is indistinguishable from a locant in plain text"),
    hard("[12]Next", ["[", "12", "]", "Next"], "a citation glued to the next word looks like a fused-ring locant"),
    hard("12h at rt", ["12", "h", "at", "rt"], "'2h' is a compound label in chemistry, so 'h' is not a unit glued"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_tokens(nlp, text: str, expected: list[str]) -> None:
    assert [t.text for t in nlp.make_doc(text)] == expected


@pytest.mark.slow
@given(st.lists(st.sampled_from(list("aZ09 .,;:()[]{}-–+%°/=<>'\"\n") + ["et al.", "Pd(PPh3)4", "°C"]),
                max_size=60).map("".join))
def test_tokens_cover_text(nlp, text: str) -> None:
    doc = nlp.make_doc(text)
    assert doc.text == text
    assert all(t.text for t in doc)


@pytest.mark.slow
def test_sentence_starts_are_token_starts_on_craft(nlp) -> None:
    """The tokenizer splits wherever split_sentences puts a boundary in real text (no in-token starts)."""
    from tests.helpers import shared_path

    from chemref.nlp.sentences import split_sentences

    path = shared_path("corpora", "sentences", "craft_v5_ccby_sentences.jsonl")
    inside = []
    with path.open(encoding="utf-8") as lines:
        for line in list(lines)[:12]:
            text = json.loads(line)["text"]
            doc = nlp.make_doc(text)
            starts = {t.idx for t in doc}
            inside.extend(text[max(s - 20, 0):s + 20] for s, _ in split_sentences(text) if s not in starts)
    assert inside == []
