"""Reagents, catalysts, ligands, solvents, protecting groups and assay reagents of synthesis text, by class.

Pure Python (no spaCy). The words are those of :data:`chemref.nlp.wordlists.REAGENT_ABBREVIATIONS` and the
shapes those of :data:`chemref.nlp.wordlists.REAGENT_NAME_PATTERNS` (both in ``data/chemicals_rules.json``,
with their source and licence): :func:`reagent_class` names the class of one token ("SPhos" ->
"catalysts_and_ligands", "(R)-BINAP" too, "TBSCl" -> "protecting_groups", a formula written with alkyl
abbreviations such as "Et3N" or "Bu3SnH" -> "reagents"); :func:`is_reagent_mention` decides
whether the token at ``i`` of a tokenised sentence is a mention: an ambiguous abbreviation ("DCM", "LDA",
"Boc") only in a synthesis context (a quantity, a mixture slash, another reagent or chemical beside it, or a
bench verb nearby), and no abbreviation that is glued by a hyphen into a longer name ("N - Boc - piperidine",
as BC5CDR's guidelines tag the whole name, not its protecting group).

Source and licence of the lists: written for chemref from general chemical knowledge (public nomenclature):
the abbreviations listed in the IUPAC Recommendations on abbreviations and symbols (Pure Appl. Chem.) and
the ACS Guide to Scholarly Communication, and the protecting-group names of Greene's Protective Groups in
Organic Synthesis (a textbook convention); no list was copied. MIT, like chemref
(``reagent_abbreviations_source`` and ``reagent_abbreviations_license`` in ``data/chemicals_rules.json``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from functools import lru_cache

from chemref.nlp.wordlists import (
    AMBIGUOUS_REAGENT_ABBREVIATIONS,
    ELEMENT_SYMBOLS,
    REAGENT_ABBREVIATIONS,
    REAGENT_NAME_PATTERNS,
)

__all__ = ["reagent_class", "is_reagent_mention", "synthesis_context", "mixture_partner", "SYNTHESIS_UNITS",
           "BENCH_VERBS"]

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
reagent reagents catalyst catalysts ligand ligands group anhydrous yield afforded afford prepared
dropwise solution suspension oxidised oxidized""".split())
_JOINERS = frozenset({"/", ",", "and", "or", "in", "with", "+"})
_HYPHENS = frozenset({"-", "‐", "‑", "–"})
_WINDOW = 6


# formulas written with alkyl and aryl abbreviations: "Et3N", "Bu3SnH", "iPr2NEt", "PhMgBr", "Me3SiCl"
_ALKYL_PARTS = re.compile(r"(?:n-|s-|t-|i-|sec-|tert-|[nsti])?(Me|Et|Pr|Bu|Ph|Bn|Bz|Ac|Cy)|[A-Z][a-z]?|\d+")


def _alkyl_formula(text: str) -> bool:
    """A formula of alkyl or aryl abbreviations and element symbols, at least one of each ("Et3N")."""
    pos = alkyls = elements = 0
    for match in _ALKYL_PARTS.finditer(text):
        if match.start() != pos:
            return False
        part = match.group()
        pos = match.end()
        if part.isdigit():
            continue
        if match.group(1):
            alkyls += 1
        elif part in ELEMENT_SYMBOLS:
            elements += 1
        else:
            return False
    return pos == len(text) and alkyls >= 1 and elements >= 1


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
        if cls is None and len(bare) <= 16 and _alkyl_formula(bare):
            cls = "reagents"
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
    """A quantity, a bench word or an unambiguous reagent near ``tokens[i]``, or a chemical or another reagent
    joined to it ("DMP in DCM", "PE / EA")."""
    n = len(tokens)
    for j in range(max(0, i - _WINDOW), min(n, i + _WINDOW + 1)):
        if j == i:
            continue
        word = tokens[j]
        if word in SYNTHESIS_UNITS or word.lower() in BENCH_VERBS:
            return True
        if reagent_class(word) and not _ambiguous(word):
            return True
        if abs(j - i) <= 2 and (j in chemicals or reagent_class(word)):
            between = tokens[min(i, j) + 1:max(i, j)]
            if all(w in _JOINERS for w in between):
                return True
    return False


def mixture_partner(tokens: Sequence[str], i: int, chemicals: Collection[int] = ()) -> bool:
    """``tokens[i]`` is one side of a mixture whose other side is a chemical or a reagent word ("toluene /
    water", "MeOH / water"): a solvent word that a corpus leaves untagged alone is a mention there."""
    for slash, other in ((i - 1, i - 2), (i + 1, i + 2)):
        if 0 <= other < len(tokens) and tokens[slash] == "/" and (other in chemicals or reagent_class(tokens[other])):
            return True
    return False
