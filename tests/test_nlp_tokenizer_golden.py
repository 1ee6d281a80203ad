"""The golden tables of chemref's tokenizer (benchmarks/golden/tokens.py), one case per test: mixtures split at
"/", what stays whole, quantities and formulas of procedure text, nested systematic names; offsets exact."""

from __future__ import annotations

import pytest

pytest.importorskip("spacy")

from benchmarks.golden.tokens import ALL_TABLES  # noqa: E402
from tests.helpers import golden_params  # noqa: E402


@pytest.mark.parametrize("text,expected", golden_params(ALL_TABLES))
def test_golden(nlp, text: str, expected: list[str]) -> None:
    doc = nlp.make_doc(text)
    assert [t.text for t in doc] == expected
    assert all(text[t.idx:t.idx + len(t.text)] == t.text for t in doc)  # offsets into the original string


def test_mixture_rule_survives_to_disk(tmp_path, nlp) -> None:
    """The rule lives in the tokenizer's own patterns, so a saved pipeline splits mixtures without chemref."""
    import spacy

    nlp.tokenizer.to_disk(tmp_path / "tokenizer")
    blank = spacy.blank("en")
    blank.tokenizer.from_disk(tmp_path / "tokenizer")
    assert [t.text for t in blank.make_doc("hexane/EtOAc (4:1)")] == ["hexane", "/", "EtOAc", "(", "4:1", ")"]
