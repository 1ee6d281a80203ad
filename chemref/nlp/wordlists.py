"""Word lists shared by chemref's readers and rules: one list per word class, defined here only.

Pure Python (no spaCy). Element symbols are read from ``data/authors_elements.json`` (the author rules'
table of the same symbols) so that a change there reaches every user of the list; the reagent and solvent
words from ``data/chemicals_rules.json`` (its ``reagent_abbreviations``, ``common_names`` and their ``_doc``,
source and licence), which the tokenizer's mixture rule and the chemicals component both read.
"""

from __future__ import annotations

import json
from pathlib import Path

from chemref.names import NAME_PARTICLES, particle_pattern

__all__ = ["ELEMENT_SYMBOLS", "NAME_PARTICLES", "REPORTING_VERBS", "particle_pattern", "REAGENT_ABBREVIATIONS",
           "AMBIGUOUS_REAGENT_ABBREVIATIONS", "REAGENT_NAME_PATTERNS", "COMMON_CHEMICAL_NAMES"]

_DATA = Path(__file__).resolve().parent / "data"

#: The chemical element symbols, H to Og.
ELEMENT_SYMBOLS: tuple[str, ...] = tuple(json.loads(
    (_DATA / "authors_elements.json").read_text(encoding="utf-8"))["symbols"])

_CHEMICAL_RULES = json.loads((_DATA / "chemicals_rules.json").read_text(encoding="utf-8"))

#: Abbreviations of synthesis text by class ("solvents", "reagents", "catalysts_and_ligands",
#: "protecting_groups", "coupling_reagents", "assay_reagents"), case-sensitive: "MeOH", "SPhos", "Boc", "HATU".
REAGENT_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    cls: tuple(words) for cls, words in _CHEMICAL_RULES["reagent_abbreviations"].items()}

#: The reagent abbreviations that also name something else ("DCM", dilated cardiomyopathy; "LDA", linear
#: discriminant analysis): chemicals only in a synthesis context.
AMBIGUOUS_REAGENT_ABBREVIATIONS: frozenset[str] = frozenset(_CHEMICAL_RULES["reagent_abbreviations_ambiguous"])

#: Word shapes of the same classes, as regular expressions matched on a whole token ("SPhos", "TBSCl").
REAGENT_NAME_PATTERNS: dict[str, str] = dict(_CHEMICAL_RULES["reagent_name_patterns"])

#: Common chemical names of solvents and reagents (lower case, one or several words): "methanol", "ethyl acetate".
COMMON_CHEMICAL_NAMES: tuple[str, ...] = tuple(_CHEMICAL_RULES["common_names"])

#: Past-tense verbs of reporting that follow a cited author ("Smith et al. showed ...", "Li and Wu reported").
REPORTING_VERBS: tuple[str, ...] = (
    "showed", "shown", "reported", "found", "demonstrated", "proposed", "described", "observed", "suggested",
    "developed", "introduced", "identified", "noted", "argued", "investigated", "studied", "concluded",
    "established", "discovered", "synthesised", "synthesized", "presented", "determined", "examined", "applied",
    "used", "employed", "prepared", "hypothesised", "hypothesized", "postulated", "predicted", "calculated",
    "revealed", "confirmed", "indicated", "claimed", "pointed", "designed", "fabricated", "tried", "followed",
)
