"""The question filters, one small named function each, in the order of the funnel.

Each filter takes the candidate, its current excerpt and the build context and returns the reason
(its own name) when the candidate fails, else None. A candidate's reason is its first failing filter.
The two steps that follow them, :func:`min_findability` (on the findability score) and
:func:`per_article_cap` (over all survivors of one article), are named functions here too.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

from chemref.questions.candidates import Candidate
from chemref.questions.components import Components
from chemref.questions.settings import BuildSettings

__all__ = [
    "FilterContext", "Filter", "FILTERS", "REASONS", "EXCLUDED_SECTIONS",
    "cc_by", "section", "one_citation", "has_doi", "no_author_named", "is_claim", "length",
    "min_findability", "per_article_cap", "tiebreak",
]

#: Section kinds whose sentences never become questions (protocol text, not claims); captions too.
EXCLUDED_SECTIONS = frozenset({"methods", "materials", "protocol", "caption"})


@dataclass(frozen=True, slots=True)
class FilterContext:
    """What a filter may consult besides the candidate: the settings and the NLP components."""

    settings: BuildSettings
    components: Components


Filter = Callable[[Candidate, str, FilterContext], "str | None"]


def cc_by(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """(1) The source article is licensed CC BY (no NC/ND/SA), as the JATS reader decided."""
    return None if cand.article.cc_by else "cc_by"


def section(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """(2) Not in a Methods / Materials / Protocol / Experimental section, nor a figure/table caption."""
    return "section" if cand.section in EXCLUDED_SECTIONS else None


def one_citation(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """(3) Exactly one anchor, resolving to exactly one known, unambiguous reference.

    A range or multi-rid anchor ("[3–7]", ``rid="B2 B3"``) counts as several citations.
    """
    if len(cand.anchors) != 1 or len(cand.references) != 1:
        return "one_citation"
    ref = cand.references[0]
    if ref is None or ref.ambiguous:
        return "one_citation"
    return None


def has_doi(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """(4) The cited reference has a DOI (the answer of the question)."""
    ref = cand.reference
    return None if ref is not None and ref.doi else "has_doi"


def no_author_named(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """(5) No author of the cited work is named in the excerpt (issue 5's surname matching rule), and no
    researcher is named by a pattern such as "X et al.", "the X group", "X's team", "X and co-workers"
    (reference author lists are often truncated, misspelt or missing).

    With ``authors="mask"`` this never fails: the builder masks the names instead.
    """
    ref = cand.reference
    if ref is None or ctx.settings.authors == "mask":
        return None
    return "no_author_named" if ctx.components.mentions(excerpt, ref.authors) else None


def is_claim(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """(6) The sentence makes a claim the cited work supports, not a passing mention
    (supplier, reagent, kit, instrument, software, "as described previously")."""
    anchor = cand.anchor
    decision = ctx.components.classify(cand.sentence, citation=(anchor.start, anchor.end))
    return None if decision.label == "CLAIM" else "is_claim"


def length(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """(7) The excerpt (after the replacement) is ``min_chars``–``max_chars`` characters long."""
    return None if ctx.settings.min_chars <= len(excerpt) <= ctx.settings.max_chars else "length"


#: The per-sentence filters in funnel order.
FILTERS: tuple[tuple[str, Filter], ...] = (
    ("cc_by", cc_by),
    ("section", section),
    ("one_citation", one_citation),
    ("has_doi", has_doi),
    ("no_author_named", no_author_named),
    ("is_claim", is_claim),
    ("length", length),
)

#: Every rejection reason, in funnel order (the last two are decided per article by the builder).
REASONS: tuple[str, ...] = tuple(name for name, _ in FILTERS) + ("min_findability", "per_article_cap")


def min_findability(score: float, settings: BuildSettings) -> str | None:
    """(optional, ``--min-findability``) The excerpt's findability is at least ``settings.min_findability``."""
    if settings.min_findability is not None and score < settings.min_findability:
        return "min_findability"
    return None


def tiebreak(seed: int, record_id: str) -> int:
    """A seeded, platform-independent order for candidates of equal findability."""
    digest = hashlib.blake2b(f"{seed}\x00{record_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


_S = TypeVar("_S")


def per_article_cap(survivors: Sequence[_S], settings: BuildSettings, *,
                    score: Callable[[_S], float], record_id: Callable[[_S], str]) -> tuple[list[_S], list[_S]]:
    """(8) At most ``settings.per_article`` questions per article: the highest ``score`` (findability) win,
    ties broken by :func:`tiebreak` of the seed and the id. Returns ``(kept, capped)``: kept in the input
    (document) order, capped from best to worst."""
    ranked = sorted(survivors, key=lambda s: (-score(s), tiebreak(settings.seed, record_id(s))))
    cut = settings.per_article
    kept_ids = {id(s) for s in ranked[:cut]}
    return [s for s in survivors if id(s) in kept_ids], ranked[cut:]
