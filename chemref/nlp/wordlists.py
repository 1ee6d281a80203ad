"""Word lists shared by chemref's readers and rules: one list per word class, defined here only.

Pure Python (no spaCy). Element symbols are read from ``data/authors_elements.json`` (the author rules'
table of the same symbols) so that a change there reaches every user of the list.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["ELEMENT_SYMBOLS", "NAME_PARTICLES", "REPORTING_VERBS", "particle_pattern"]

#: The chemical element symbols, H to Og.
ELEMENT_SYMBOLS: tuple[str, ...] = tuple(json.loads(
    (Path(__file__).resolve().parent / "data" / "authors_elements.json").read_text(encoding="utf-8"))["symbols"])

#: Lower-case particles that may open a surname ("van der Waals", "de la Cruz", "ibn Sina").
NAME_PARTICLES: tuple[str, ...] = ("van", "von", "der", "den", "de", "del", "della", "da", "das", "di", "dos",
                                   "du", "la", "le", "ten", "ter", "zu", "al", "el", "bin", "ibn")

#: Past-tense verbs of reporting that follow a cited author ("Smith et al. showed ...", "Li and Wu reported").
REPORTING_VERBS: tuple[str, ...] = (
    "showed", "shown", "reported", "found", "demonstrated", "proposed", "described", "observed", "suggested",
    "developed", "introduced", "identified", "noted", "argued", "investigated", "studied", "concluded",
    "established", "discovered", "synthesised", "synthesized", "presented", "determined", "examined", "applied",
    "used", "employed", "prepared", "hypothesised", "hypothesized", "postulated", "predicted", "calculated",
    "revealed", "confirmed", "indicated", "claimed", "pointed", "designed", "fabricated", "tried", "followed",
)


def particle_pattern(*, capitalised: bool = True) -> str:
    """A regex alternation of :data:`NAME_PARTICLES` (no group, no trailing space); ``capitalised`` also
    accepts a capital first letter ("Van", "De")."""
    if capitalised:
        return "(?:" + "|".join(f"[{p[0].upper()}{p[0]}]{p[1:]}" for p in NAME_PARTICLES) + ")"
    return "(?:" + "|".join(NAME_PARTICLES) + ")"
