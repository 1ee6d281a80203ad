"""The golden tables of synthesis-text chemical mentions (benchmarks/golden/reagents.py), one case per test,
and the reagent word classes of chemref.nlp.reagents."""

from __future__ import annotations

import pytest

pytest.importorskip("spacy")

from benchmarks.golden.reagents import ALL_TABLES  # noqa: E402
from chemref.nlp.reagents import is_reagent_mention, reagent_class  # noqa: E402
from tests.helpers import golden_params  # noqa: E402

pytestmark = pytest.mark.chemicals


@pytest.mark.parametrize("text,expected", golden_params(ALL_TABLES))
def test_golden(nlp, text: str, expected: list[str]) -> None:
    assert [e.text for e in nlp(text).ents if e.label_ == "CHEMICAL"] == expected


@pytest.mark.parametrize(("word", "cls"), [
    ("MeOH", "solvents"), ("SPhos", "catalysts_and_ligands"), ("AdBrettPhos", "catalysts_and_ligands"),
    ("XPhos-Pd-G3", "catalysts_and_ligands"), ("(S)-BINAP", "catalysts_and_ligands"),
    ("TBDPSCl", "protecting_groups"), ("EDC·HCl", "coupling_reagents"), ("ABTS", "assay_reagents"),
    ("phosphate", None), ("Phos", None), ("Smith", None), ("MS", None),
])
def test_reagent_class(word: str, cls: str | None) -> None:
    assert reagent_class(word) == cls


def test_a_protecting_group_inside_a_spaced_name_is_not_a_mention() -> None:
    """BC5CDR's tokens split hyphens: "N - Boc - piperidine" is one name, not a mention of Boc."""
    tokens = "treated with N - Boc - piperidine in THF".split()
    assert not is_reagent_mention(tokens, tokens.index("Boc"))
    assert is_reagent_mention(tokens, tokens.index("THF"))


def test_the_lists_carry_source_and_licence() -> None:
    import json

    from chemref.nlp.components.chemicals import RULES_FILE

    data = json.loads(RULES_FILE.read_text(encoding="utf-8"))
    assert "IUPAC" in data["reagent_abbreviations_source"] and data["reagent_abbreviations_license"]
    words = [w for ws in data["reagent_abbreviations"].values() for w in ws]
    assert set(data["reagent_abbreviations_ambiguous"]) <= set(words)
