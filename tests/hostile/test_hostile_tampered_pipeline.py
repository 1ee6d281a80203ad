"""A tampered saved pipeline is refused with an InputError when it is loaded: a ``no_split`` pattern that could
backtrack exponentially (a repeated group holding a quantifier or an alternation) or longer than 1,000
characters, a claim model whose bias or a weight is not finite, and component JSON nested past the project's
depth bound; the ordinary patterns and the shipped model still load."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

import chemref
from chemref._io.limits import MAX_JSON_DEPTH
from chemref.errors import InputError
from chemref.nlp.claims_model import ClaimModel
from chemref.nlp.rules import SentenceRules

spacy = pytest.importorskip("spacy")


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pipeline") / "nlp"
    chemref.load().to_disk(folder)
    return folder


def _edited(saved: Path, tmp_path: Path, name: str, edit) -> Path:
    folder = tmp_path / "nlp"
    shutil.copytree(saved, folder)
    path = folder / name
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    return folder


@pytest.mark.parametrize("pattern", [r"(a+)+$", r"(x|x)*y", r"(?:a?a?)+$", r"(?=(a+)+)", "a" * 1001])
def test_a_catastrophic_no_split_pattern_is_refused(saved: Path, tmp_path: Path, pattern: str) -> None:
    def edit(text: str) -> str:
        rules = json.loads(text)
        rules["no_split"] = [pattern]
        return json.dumps(rules)

    folder = _edited(saved, tmp_path, "chemref_sentencizer/rules.json", edit)
    with pytest.raises(InputError, match="no-split pattern"):
        spacy.load(folder)
    with pytest.raises(InputError, match="no-split pattern"):  # a component config takes the same check
        SentenceRules.default().with_no_split([pattern])


@pytest.mark.parametrize("pattern", [r"Ex\. \d+", r"(?:Fig|Tab)s?\. \d+", r"[A-Z]\w*", r"(?:ab)+"])
def test_ordinary_no_split_patterns_are_kept(pattern: str) -> None:
    assert SentenceRules.default().with_no_split([pattern]).no_split[-1] == pattern


@pytest.mark.parametrize("edit", [
    lambda text: text.replace('"bias": ', '"bias": NaN, "was": ', 1),
    lambda text: text[:-1] + ', "x": ' + "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1) + "}",
])
def test_a_tampered_claim_model_file_is_refused(saved: Path, tmp_path: Path, edit) -> None:
    folder = _edited(saved, tmp_path, "chemref_claim_classifier/claims_model.json", edit)
    with pytest.raises(InputError):
        spacy.load(folder)


@pytest.mark.parametrize("where", ["bias", "weight"])
def test_a_claim_model_with_a_non_finite_number_is_refused(where: str) -> None:
    data = ClaimModel.default().to_json()
    if where == "bias":
        data["bias"] = math.nan
    else:
        data["weights"] = dict(data["weights"], **{next(iter(data["weights"])): math.inf})
    with pytest.raises(InputError, match="not a finite number"):
        ClaimModel(data)


@pytest.mark.parametrize("where", ["bias", "weight"])
def test_a_claim_model_with_a_number_too_large_for_a_float_is_refused(where: str) -> None:
    data = ClaimModel.default().to_json()
    huge = 10 ** 400  # an integer JSON reads exactly, which no float can hold
    if where == "bias":
        data["bias"] = huge
    else:
        data["weights"] = dict(data["weights"], **{next(iter(data["weights"])): huge})
    with pytest.raises(InputError, match="invalid claim model"):
        ClaimModel(data)


def test_deep_json_in_a_components_bytes_is_an_input_error() -> None:
    nlp = chemref.load()
    deep = ("[" * 100_000 + "]" * 100_000).encode()
    for name in ("chemref_claim_classifier", "chemref_sentencizer", "chemref_author_mentions"):
        with pytest.raises(InputError):
            nlp.get_pipe(name).from_bytes(deep)


@pytest.mark.parametrize("pattern", [r"\w*\w*\w*\w*\w*\w*c", r"a*a*a*a*a*a*!?b", r"\w{0,1000}\w{0,1000}\w{0,1000}c"])
def test_a_no_split_pattern_with_many_long_repeats_is_refused(pattern: str) -> None:
    with pytest.raises(InputError, match="long repeats"):
        SentenceRules.default().with_no_split([pattern])


@pytest.mark.parametrize("pattern", [r"Ex\. \d+", r"[A-Z]\w*", r"\w+\.\w+", r"Fig\. \d+[a-z]*"])
def test_ordinary_no_split_patterns_are_accepted(pattern: str) -> None:
    assert pattern in SentenceRules.default().with_no_split([pattern]).no_split
