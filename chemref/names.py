"""Surname particles, the one definition shared by the JATS reader and the NLP rules (pure Python)."""

from __future__ import annotations

__all__ = ["NAME_PARTICLES", "particle_pattern"]

#: Lower-case particles that may open a surname ("van der Waals", "de la Cruz", "ibn Sina").
NAME_PARTICLES: tuple[str, ...] = ("van", "von", "der", "den", "de", "del", "della", "da", "das", "di", "dos",
                                   "du", "la", "le", "ten", "ter", "zu", "al", "el", "bin", "ibn")


def particle_pattern(*, capitalised: bool = True) -> str:
    """A regex alternation of :data:`NAME_PARTICLES` (no group, no trailing space); ``capitalised`` also
    accepts a capital first letter ("Van", "De")."""
    if capitalised:
        return "(?:" + "|".join(f"[{p[0].upper()}{p[0]}]{p[1:]}" for p in NAME_PARTICLES) + ")"
    return "(?:" + "|".join(NAME_PARTICLES) + ")"
