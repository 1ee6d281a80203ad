"""chemref's spaCy tokenizer (``chemref.Tokenizer.v1``): spaCy's own :class:`spacy.tokenizer.Tokenizer` with the
rules of :mod:`chemref.nlp.tokenizer_rules`, so ``nlp.to_disk()`` stores every rule and ``spacy.load()`` restores
it without chemref. Formulas and IUPAC names stay whole; units and citations split off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from chemref.nlp.tokenizer_rules import (
    ELEMENT_ABBREVIATIONS,
    INFIX_RE,
    PREFIX_RE,
    SCIENTIFIC_ABBREVIATIONS,
    SUFFIX_RE,
    TOKEN_MATCH_RE,
    UNIT_LETTERS,
)

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language
    from spacy.tokenizer import Tokenizer
    from spacy.vocab import Vocab
from spacy.lang.en import English
from spacy.symbols import ORTH
from spacy.tokenizer import Tokenizer

__all__ = ["special_cases", "chemical_tokenizer", "create_tokenizer"]


def special_cases(base: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """spaCy's English special cases minus emoticons, "°C." and element clashes, plus scientific ones."""
    rules = {
        key: value for key, value in base.items()
        if (any(c.isalpha() for c in key) or key.isspace() or key in {"'", "''", "—", "’", "’’"})
        and not key.startswith("°") and key not in ELEMENT_ABBREVIATIONS
        and not any(c in key for c in "()[]{}<>=:;_^")
    }
    for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        rules[letter + "."] = [{ORTH: letter + "."}]
    for unit in UNIT_LETTERS:
        rules.pop(unit, None)
    for abbrev in SCIENTIFIC_ABBREVIATIONS:
        rules[abbrev] = [{ORTH: abbrev}]
    return rules


def chemical_tokenizer(vocab: "Vocab", *, base_rules: dict[str, list[dict[str, Any]]] | None = None,
                       url_match: Callable[[str], Any] | None = None) -> "Tokenizer":
    """A spaCy ``Tokenizer`` over ``vocab`` with chemref's rules (English special cases as the base)."""
    if base_rules is None:
        base_rules = dict(English.Defaults.tokenizer_exceptions)
    if url_match is None:
        url_match = English.Defaults.url_match
    return Tokenizer(
        vocab,
        rules=special_cases(base_rules),
        prefix_search=PREFIX_RE.search,
        suffix_search=SUFFIX_RE.search,
        infix_finditer=INFIX_RE.finditer,
        token_match=TOKEN_MATCH_RE.match,
        url_match=url_match,
    )


def create_tokenizer() -> Callable[["Language"], "Tokenizer"]:
    """The tokenizer factory registered as ``chemref.Tokenizer.v1`` (in :mod:`chemref.nlp.components.factories`):
    ``[nlp.tokenizer] @tokenizers = "chemref.Tokenizer.v1"``."""

    def make(nlp: "Language") -> "Tokenizer":
        return chemical_tokenizer(nlp.vocab, base_rules=dict(nlp.Defaults.tokenizer_exceptions),
                                  url_match=nlp.Defaults.url_match)

    return make
