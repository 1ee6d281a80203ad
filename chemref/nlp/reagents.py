"""Reagents, catalysts, ligands, solvents, protecting groups and assay reagents of synthesis text, by class.

Pure Python (no spaCy). The words are those of :data:`chemref.nlp.wordlists.REAGENT_ABBREVIATIONS` and the
shapes those of :data:`chemref.nlp.wordlists.REAGENT_NAME_PATTERNS` (both in ``data/chemicals_rules.json``,
with their source and licence): :func:`reagent_class` names the class of one token ("SPhos" ->
"catalysts_and_ligands", "(R)-BINAP" too, "TBSCl" -> "protecting_groups"); :func:`is_reagent_mention` decides
whether the token at ``i`` of a tokenised sentence is a mention: an ambiguous abbreviation ("DCM", "LDA",
"Boc") only in a synthesis context (a quantity, a mixture slash, another reagent or chemical beside it, or a
bench verb nearby), and no abbreviation that is glued by a hyphen into a longer name ("N - Boc - piperidine",
as BC5CDR's guidelines tag the whole name, not its protecting group).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Collection, Sequence

from chemref.nlp.wordlists import (AMBIGUOUS_REAGENT_ABBREVIATIONS, REAGENT_ABBREVIATIONS,
                                   REAGENT_NAME_PATTERNS)

__all__ = ["reagent_class", "is_reagent_mention", "SYNTHESIS_UNITS", "BENCH_VERBS"]

_CLASS_OF: dict[str, str] = {word: cls for cls, words in REAGENT_ABBREVIATIONS.items() for word in words}
_SHAPES = [(re.compile(rf"(?:{pattern})\Z"),
            "catalysts_and_ligands" if name == "biaryl_phosphines" else "protecting_groups")
           for name, pattern in REAGENT_NAME_PATTERNS.items()]
# a stereo or configuration prefix ("(R)-BINAP", "(S,S)-DIOP", "rac-BINAP") or a salt suffix ("EDC·HCl")
_STEREO = re.compile(r"(?:\((?:[RSrs]|[RS],[RS]|±|\+|-|−)\)-|rac-|ent-)")
_SALT = re.compile(r"(?:·|\.|-)(?:HCl|HBr|H2O|CH2Cl2|DCM)\Z")

#: Units of amounts and conditions that show a bench context around an ambiguous abbreviation.
SYNTHESIS_UNITS = frozenset("mL ml µL μL uL L mmol µmol μmol mol equiv equiv. eq eq. mol% M mM N g mg kg °C h min "
                            "hr hrs wt% vol%".split())
#: Bench verbs and nouns that show a synthesis context.
BENCH_VERBS = frozenset("""stirred dissolved quenched extracted refluxed evaporated concentrated diluted filtered
eluted eluting eluent washed dried added adding heated cooled deprotected deprotection protected protection
protecting coupled coupling recrystallized recrystallised purified chromatography reflux solvent solvents
reagent reagents catalyst catalysts ligand ligands group groups anhydrous yield afforded afford gave
dropwise solution suspension mixture""".split())
_JOINERS = frozenset({"/", ",", "and", "or", "in", "with", "+"})
_HYPHENS = frozenset({"-", "‐", "‑", "–"})
_WINDOW = 6


@lru_cache(maxsize=50_000)
def reagent_class(text: str) -> str | None:
    """The class of a reagent word ("MeOH" -> "solvents", "SPhos" -> "catalysts_and_ligands", "(R)-BINAP" too,
    "TBSCl" -> "protecting_groups", "EDC·HCl" -> "coupling_reagents"), or None."""
    cls = _CLASS_OF.get(text)
    if cls is None and len(text) > 2:
        bare = _SALT.sub("", _STEREO.sub("", text, count=1)) if ("(" in text or "-" in text or "·" in text
                                                                  or "." in text) else text
        cls = _CLASS_OF.get(bare)
        if cls is None:
            cls = next((c for shape, c in _SHAPES if shape.match(bare)), None)
    return cls


def _ambiguous(text: str) -> bool:
    return text in AMBIGUOUS_REAGENT_ABBREVIATIONS or _STEREO.sub("", text, count=1) in AMBIGUOUS_REAGENT_ABBREVIATIONS


def is_reagent_mention(tokens: Sequence[str], i: int, chemicals: Collection[int] = ()) -> bool:
    """Whether ``tokens[i]`` is a reagent mention: a word of :func:`reagent_class`, not glued by a hyphen into a
    longer name, and, when it is an ambiguous abbreviation, in a synthesis context (``chemicals``: the indices
    of tokens already tagged as chemicals)."""
    text = tokens[i]
    if reagent_class(text) is None:
        return False
    n = len(tokens)
    if (i > 0 and tokens[i - 1] in _HYPHENS) or (i + 1 < n and tokens[i + 1] in _HYPHENS):
        return False
    if not _ambiguous(text):
        return True
    return synthesis_context(tokens, i, chemicals)


def synthesis_context(tokens: Sequence[str], i: int, chemicals: Collection[int] = ()) -> bool:
    """A quantity, a mixture slash, another reagent or a chemical joined to ``tokens[i]``, or a bench word, near it."""
    n = len(tokens)
    for j in range(max(0, i - _WINDOW), min(n, i + _WINDOW + 1)):
        if j == i:
            continue
        word = tokens[j]
        if word in SYNTHESIS_UNITS or word.lower() in BENCH_VERBS:
            return True
        if abs(j - i) <= 2 and (j in chemicals or (reagent_class(word) and not _ambiguous(word))):
            between = tokens[min(i, j) + 1:max(i, j)]
            if all(w in _JOINERS for w in between):
                return True
    return (i > 0 and tokens[i - 1] == "/") or (i + 1 < n and tokens[i + 1] == "/")
