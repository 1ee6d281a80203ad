"""Word lists shared by chemref's readers and rules: one list per word class, defined here only.

Pure Python (no spaCy). Element symbols are read from ``data/authors_elements.json`` (the author rules'
table of the same symbols) so that a change there reaches every user of the list.
"""

from __future__ import annotations

import json
from pathlib import Path

from chemref.names import NAME_PARTICLES, particle_pattern

__all__ = ["ELEMENT_SYMBOLS", "NAME_PARTICLES", "REPORTING_VERBS", "particle_pattern"]

#: The chemical element symbols, H to Og.
ELEMENT_SYMBOLS: tuple[str, ...] = tuple(json.loads(
    (Path(__file__).resolve().parent / "data" / "authors_elements.json").read_text(encoding="utf-8"))["symbols"])

#: Past-tense verbs of reporting that follow a cited author ("Smith et al. showed ...", "Li and Wu reported").
REPORTING_VERBS: tuple[str, ...] = (
    "showed", "shown", "reported", "found", "demonstrated", "proposed", "described", "observed", "suggested",
    "developed", "introduced", "identified", "noted", "argued", "investigated", "studied", "concluded",
    "established", "discovered", "synthesised", "synthesized", "presented", "determined", "examined", "applied",
    "used", "employed", "prepared", "hypothesised", "hypothesized", "postulated", "predicted", "calculated",
    "revealed", "confirmed", "indicated", "claimed", "pointed", "designed", "fabricated", "tried", "followed",
)
