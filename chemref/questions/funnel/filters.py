"""The question filters, one small named function each, in the order of the funnel.

Each filter takes the candidate, its current excerpt and the build context and returns the reason
(its own name) when the candidate fails, else None. A candidate's reason is its first failing filter.
The per-sentence filters run cheapest first: the reference checks and the excerpt's length and opening
before the author-mention and claim classifiers, which are the costly ones; a candidate's question is the same
in any order, only the reason of one failing several filters depends on it.
The steps that follow them are named functions here too: :func:`min_findability` (the older score,
optional), :func:`min_score` (the question selector's score), :func:`per_target_cap` (one question per
cited work and article) and :func:`per_article_cap` (over all survivors of one article).

:data:`STEPS` is the funnel as data: each step's name, stage, function and the one-line description that
the funnel table, the report, the README and the dataset card show.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

from chemref.doi import DOI_PATTERN
from chemref.nlp.prefilters import case_partners, lower_view
from chemref.questions.funnel.candidates import Candidate
from chemref.questions.funnel.engines import Components
from chemref.questions.funnel.settings import BuildSettings

__all__ = [
    "FilterContext", "Filter", "FILTERS", "REASONS", "SCORE_STAGES", "SELECTOR_STAGES", "EXCLUDED_SECTIONS",
    "cc_by", "no_table_row", "no_caption_fragment", "no_glued_sentences", "section", "no_display_formula",
    "one_citation", "has_doi", "has_title", "no_author_named", "no_identifier",
    "is_claim", "length", "no_dangling_opening", "min_findability", "min_score", "per_target_cap", "per_article_cap",
    "tiebreak", "target_key", "description", "Step", "STEPS", "STAGES", "DESCRIPTIONS",
]

#: Section kinds whose sentences never become questions (protocol text, not claims); captions too.
EXCLUDED_SECTIONS = frozenset({"methods", "materials", "protocol", "caption", "title", "attrib"})


@dataclass(frozen=True, slots=True)
class FilterContext:
    """What a filter may consult besides the candidate: the settings and the NLP components."""

    settings: BuildSettings
    components: Components


Filter = Callable[[Candidate, str, FilterContext], "str | None"]


def cc_by(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """The licence is the one the JATS reader decided."""
    return None if cand.article.cc_by else "cc_by"


def section(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """Sentences of the sections in :data:`EXCLUDED_SECTIONS` (Methods, Materials, Protocol, Experimental,
    captions) are protocol text."""
    return "section" if cand.section in EXCLUDED_SECTIONS else None


#: Cells of a table row flattened into one line: two cell separators ("A | B | [4]"), or a list bullet
#: ("2005 •Retinal biosynthesis ..."). Each check starts with a plain substring test (linear and cheap on
#: any text; the patterns run only where they can match).
_BULLETS = "•▪●◦■▸►"
_TABLE_CELLS = re.compile(r"\S\s*\|\s*\S[^|]*\|")


def no_table_row(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """A "sentence" whose cells are joined by " | " (two separators or more), or that holds a list bullet
    ("•", "▪", "●"), is a table row or a list entry read as running text: it states no claim a reader can
    follow.
    """
    text = cand.sentence
    if any(bullet in text for bullet in _BULLETS):
        return "no_table_row"
    return "no_table_row" if text.count("|") >= 2 and _TABLE_CELLS.search(text) else None


#: What figure legends say and body text does not, each with the word that must be in the lower-cased
#: sentence before its pattern runs: a picture credit ("Adapted with permission from", "Reproduced from" at
#: the start, "Copyright 2014", "©"), "This figure is adapted", scale and error bars, or a colour key given
#: twice ("Wt1 (red) and Cited1 (green)").
_COLOURS = tuple(f"({colour})" for colour in ("red", "green", "blue", "magenta", "cyan", "yellow", "white", "grey",
                                              "gray", "black", "orange", "purple", "pink", "brown"))
_COLOUR = "(?:" + "|".join(re.escape(colour) for colour in _COLOURS) + ")"
_CAPTION_CUES: tuple[tuple[str, "re.Pattern[str]"], ...] = (
    ("", re.compile(r"(?:adapted|reprinted|reproduced|modified|redrawn)\b")),  # at the start (match)
    ("permission", re.compile(r"(?:adapted|reprinted|reproduced)\s+with\s+permission\b")),
    ("copyright", re.compile(r"copyright\s+(?:©\s*)?(?:\d{4}|\(c\))")),
    ("©", re.compile(r"©\s*\d{4}")),
    ("th", re.compile(r"th(?:is|e)\s+(?:figure|table|image|panel|scheme)\s+(?:is|was|has\s+been)\s+"
                      r"(?:adapted|reprinted|reproduced|modified|redrawn)\b")),
    (" bar", re.compile(r"(?:scale|error)\s+bars?\b")),
)
_ONE_COLOUR = re.compile(r"\((?:" + "|".join(re.escape(colour[1:-1]) for colour in _COLOURS) + r")\)")
_COLOUR_KEY = re.compile(_COLOUR + r"[^.;]{0,80}?" + _COLOUR)


def no_caption_fragment(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """Legend text (a picture credit, "This figure is adapted from", scale or error bars, a colour key such as
    "Wt1 (red) and Cited1 (red)") describes a picture the question does not show.
    """
    text = cand.sentence.lower()
    if _CAPTION_CUES[0][1].match(text):
        return "no_caption_fragment"
    for word, pattern in _CAPTION_CUES[1:]:
        if word in text and pattern.search(text):
            return "no_caption_fragment"
    first = _ONE_COLOUR.search(text)
    if first and _COLOUR_KEY.search(text, first.start()):
        return "no_caption_fragment"
    return None


#: Two sentences run together: a sentence adverb with a capital after a comma ("... GTPase, However, ..."),
#: or a full stop with no space before the next sentence ("... was measured.The ...").
_GLUED_ADVERBS = ("However", "Therefore", "Moreover", "Furthermore", "Thus", "Hence", "In addition", "Additionally",
                  "Nevertheless", "Nonetheless", "Consequently", "Finally", "Interestingly", "Notably", "Importantly",
                  "In contrast", "Meanwhile", "Similarly", "Indeed", "Overall", "Taken together")
_GLUED_ADVERB = re.compile(r"[,;]\s+(?:" + "|".join(_GLUED_ADVERBS).replace(" ", r"\s+") + r")\s*,")
_STOP_NO_SPACE = re.compile(r"[.!?](?=[A-Z][a-z]{2})")
_WORD_AFTER_STOP = re.compile(r"[A-Z][a-z]{2,}\b")


def no_glued_sentences(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """A capitalised sentence adverb after a comma (", However, ...") or a full stop followed by the next
    sentence with no space ("measured.The") marks two sentences read as one (a typo of the source or a
    missing break): the excerpt mixes two claims.
    """
    text = cand.sentence
    # (the pattern starts with [,;]: the regex engine skips to those characters, cheaper than substring tests first)
    if _GLUED_ADVERB.search(text):
        return "no_glued_sentences"
    for stop in _STOP_NO_SPACE.finditer(text):  # a lower-case word of three letters or more, then the next sentence
        at = start = stop.start()
        while start > 0 and at - start < 40 and "a" <= text[start - 1] <= "z":
            start -= 1
        if (at - start >= 3 and (start == 0 or not text[start - 1].isalpha())
                and _WORD_AFTER_STOP.match(text, at + 1)):
            return "no_glued_sentences"
    return None


def no_display_formula(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """A ``<disp-formula>`` inside the sentence would be flattened into its text."""
    return "no_display_formula" if cand.display_formula else None


def one_citation(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """The sentence has one anchor, resolving to one known, unambiguous reference. A range or multi-rid anchor
    ("[3–7]", ``rid="B2 B3"``) counts as several citations.
    """
    if len(cand.anchors) != 1 or len(cand.references) != 1:
        return "one_citation"
    ref = cand.references[0]
    if ref is None or ref.ambiguous:
        return "one_citation"
    return None


def has_doi(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """The DOI is the answer of the question; with ``answer_key="doi-or-pmid"`` a PMID will do."""
    ref = cand.reference
    if ref is None:
        return "has_doi"
    if ref.doi or (ctx.settings.answer_key == "doi-or-pmid" and ref.pmid):
        return None
    return "has_doi"


def has_title(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """A question's target is shown and checked by its title."""
    ref = cand.reference
    return None if ref is not None and ref.title and ref.title.strip() else "has_title"


def no_author_named(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """No author of the cited work is named in the excerpt, and no researcher is named by a pattern such as
    "X et al.", "the X group", "X's team", "X and co-workers" (reference author lists are often truncated,
    misspelt or missing).

    With ``authors="mask"`` this never fails: the builder masks the names instead.
    """
    ref = cand.reference
    if ref is None or ctx.settings.authors == "mask":
        return None
    return "no_author_named" if ctx.components.mentions(excerpt, ref.authors) else None


# a web address, a "doi:" prefix or a PubMed id written out (a bare DOI: chemref.doi.DOI_PATTERN)
_IDENTIFIER = re.compile(r"https?://|\bwww\.|\bdoi:|\bPMID:?\s*\d|\bPMC\d{5,}", re.IGNORECASE)
#: what every match of _IDENTIFIER holds, lower-cased (in an ASCII text, lower-casing matches as re.IGNORECASE does)
_IDENTIFIER_PARTS = ("http", "www.", "doi:", "pmid", "pmc")
#: the characters re.IGNORECASE matches to a letter of _IDENTIFIER beyond lower-casing (dotless i, long s)
_IDENTIFIER_APART = re.compile("[" + "".join(sorted(case_partners(set("httpswdoimc")) | {"\u0131", "\u017f"})) + "]")


def no_identifier(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """The excerpt shows no DOI, web address or PubMed id: one there names or links to the answer (a data
    availability line such as "Dataset for ... https://doi.org/10.x/y [CITATION]" gives it away whole)."""
    found = _may_hold_identifier(excerpt) and _IDENTIFIER.search(excerpt) or (
        "10." in excerpt and DOI_PATTERN.search(excerpt))
    return "no_identifier" if found else None


def _may_hold_identifier(excerpt: str) -> bool:
    """False when the lower view of ``excerpt`` holds none of :data:`_IDENTIFIER_PARTS` (then _IDENTIFIER cannot
    match it); True otherwise, and for a text without a lower view (one holding a letter that re.IGNORECASE
    matches beyond lower-casing: :func:`chemref.nlp.prefilters.lower_view`)."""
    lower = excerpt.lower() if excerpt.isascii() else lower_view(excerpt, _IDENTIFIER_APART)
    return lower is None or any(part in lower for part in _IDENTIFIER_PARTS)


def is_claim(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """A claim the cited work supports, not a passing mention (supplier, reagent, kit, instrument, software,
    "as described previously").
    """
    anchor = cand.anchor
    decision = ctx.components.classify(cand.sentence, citation=(anchor.start, anchor.end))
    return None if decision.label == "CLAIM" else "is_claim"


def length(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """The excerpt (after the replacement) is ``min_chars``–``max_chars`` characters long."""
    return None if ctx.settings.min_chars <= len(excerpt) <= ctx.settings.max_chars else "length"


#: A demonstrative at the start of the excerpt, after at most one short connective phrase and its comma
#: ("These mice ...", "This decrease ...", "Together, these innovations ...", "Such effects ...").
_DANGLING_OPENING = re.compile(r"(?:[A-Z][a-z]+(?: [a-z]+)?, )?(?:This|These|Those|Such|this|these|those|such)\b"
                               r"|(?:However|In contrast|By contrast|Nevertheless|Nonetheless|Conversely|Thus|Therefore|"
                               r"Hence|Consequently|Accordingly)\b")


def no_dangling_opening(cand: Candidate, excerpt: str, ctx: FilterContext) -> str | None:
    """An opening "This", "These", "Those" or "Such" (also after a connective such as "Moreover, these ...")
    points back at the sentence before it: what it refers to is not in the question. So does an opening
    connective of contrast or consequence ("However,", "In contrast,", "Thus,", "Therefore," ...): the sentence
    it answers is not in the question. (On the dev labels 7% of demonstrative openings and 15% of these
    connectives were good questions, against 26% overall; additive connectives such as "Moreover," stay.)
    """
    return "no_dangling_opening" if _DANGLING_OPENING.match(excerpt) else None


def min_findability(score: float, settings: BuildSettings) -> str | None:
    """Optional: the excerpt's findability is at least ``settings.min_findability`` when that is set."""
    if settings.min_findability is not None and score < settings.min_findability:
        return "min_findability"
    return None


def min_score(score: float, settings: BuildSettings) -> str | None:
    """The selector's score of the excerpt is at least ``settings.min_score``."""
    if settings.min_score is not None and score < settings.min_score:
        return "min_score"
    return None


def tiebreak(seed: int, record_id: str) -> int:
    """A seeded, platform-independent order for candidates of equal findability."""
    digest = hashlib.blake2b(f"{seed}\x00{record_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


_S = TypeVar("_S")


def _ranked(survivors: Sequence[_S], settings: BuildSettings, score: Callable[[_S], float],
            record_id: Callable[[_S], str]) -> list[_S]:
    return sorted(survivors, key=lambda s: (-score(s), tiebreak(settings.seed, record_id(s))))


def target_key(doi: str | None, ref_id: str | None, record_id: str) -> str:
    """The cited work a question counts against in :func:`per_target_cap`: its DOI, else its reference id
    in the article, else (nothing to tell works apart) the record itself."""
    return str(doi or ref_id or record_id)


def per_target_cap(survivors: Sequence[_S], settings: BuildSettings, *, target: Callable[[_S], str],
                   score: Callable[[_S], float], record_id: Callable[[_S], str]) -> tuple[list[_S], list[_S]]:
    """At most ``settings.per_target`` questions of one article cite the same work: the highest ``score``
    win (ties by :func:`tiebreak`). Returns ``(kept, capped)``: kept in input order, capped best first."""
    seen: dict[str, int] = {}
    capped_ids: set[int] = set()
    capped: list[_S] = []
    for item in _ranked(survivors, settings, score, record_id):
        key = target(item)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > settings.per_target:
            capped.append(item)
            capped_ids.add(id(item))
    return [s for s in survivors if id(s) not in capped_ids], capped


def per_article_cap(survivors: Sequence[_S], settings: BuildSettings, *,
                    score: Callable[[_S], float], record_id: Callable[[_S], str]) -> tuple[list[_S], list[_S]]:
    """At most ``settings.per_article`` questions per article: the highest ``score`` (the selector's) win,
    ties broken by :func:`tiebreak` of the seed and the id. Returns ``(kept, capped)``: kept in the input
    (document) order, capped from best to worst."""
    ranked = _ranked(survivors, settings, score, record_id)
    cut = settings.per_article
    kept_ids = {id(s) for s in ranked[:cut]}
    return [s for s in survivors if id(s) in kept_ids], ranked[cut:]


# ------------------------------------------------------------------------------------------------ the funnel

#: Where a step is decided: on one sentence (a :data:`Filter`), on the findability or the selector score of a
#: candidate that passed every filter, or over the survivors of one article (a cap).
STAGES = ("sentence", "findability", "selector", "cap")


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the funnel: ``name`` (the reason its rejects get), its stage (one of :data:`STAGES`), the
    function that decides it, and ``description``: what a kept candidate is, as the funnel table, the report,
    the README and the dataset card show it (a table cell: lower-case start, no full stop)."""

    name: str
    stage: str
    check: Callable[..., object]
    description: str


#: The funnel, in order: a candidate's reason is its first failing step.
STEPS: tuple[Step, ...] = (
    Step("cc_by", "sentence", cc_by, "source article is CC BY (no NC/ND/SA)"),
    Step("no_table_row", "sentence", no_table_row, "not a table row or list item flattened into text"),
    Step("no_caption_fragment", "sentence", no_caption_fragment, "not a figure or table legend read as body text"),
    Step("no_glued_sentences", "sentence", no_glued_sentences, "not two sentences glued together"),
    Step("section", "sentence", section, "not in Methods/Materials/Protocol/Experimental, not a caption"),
    Step("no_display_formula", "sentence", no_display_formula, "no display formula flattened into the sentence"),
    Step("one_citation", "sentence", one_citation, "exactly one citation, resolving to exactly one reference"),
    Step("has_doi", "sentence", has_doi, "the cited reference has a DOI (or a PMID with --answer-key doi-or-pmid)"),
    Step("has_title", "sentence", has_title, "the cited reference has a title"),
    Step("length", "sentence", length, "excerpt length within the bounds"),
    Step("no_dangling_opening", "sentence", no_dangling_opening,
         'the excerpt does not open by pointing back ("This", "These", "Such" ...)'),
    Step("no_identifier", "sentence", no_identifier, "the excerpt shows no DOI, web address or PubMed id"),
    Step("no_author_named", "sentence", no_author_named,
         'no cited author (nor "X et al.", "the X group") named in the excerpt'),
    Step("is_claim", "sentence", is_claim, "the sentence makes a claim (not a supplier/kit/software/method mention)"),
    Step("min_findability", "findability", min_findability,
         "findability at least --min-findability"),
    Step("min_score", "selector", min_score,
         "selector score at least --min-score (P(good question), learned from labels)"),
    Step("per_target_cap", "cap", per_target_cap,
         "at most --per-target questions per cited work in one article (highest score kept)"),
    Step("per_article_cap", "cap", per_article_cap,
         "at most --per-article questions per article (highest score kept)"),
)

#: The per-sentence filters in funnel order, ``(name, filter)``.
FILTERS: tuple[tuple[str, Filter], ...] = tuple((s.name, s.check) for s in STEPS if s.stage == "sentence")  # type: ignore[misc]
#: Every rejection reason, in funnel order.
REASONS: tuple[str, ...] = tuple(s.name for s in STEPS)
#: The reasons decided on (or after) the scores: such a candidate passed every per-sentence filter.
SCORE_STAGES: tuple[str, ...] = tuple(s.name for s in STEPS if s.stage != "sentence")
#: The steps decided by the selector score and the caps, which ``evaluate --reselect`` and the judge decide
#: again (``min_findability`` is a filter of the user's own and stays decided).
SELECTOR_STAGES: tuple[str, ...] = tuple(s.name for s in STEPS if s.stage in ("selector", "cap"))
#: The one-line description of each step, by name (see :class:`Step`).
DESCRIPTIONS: dict[str, str] = {s.name: s.description for s in STEPS}


def description(reason: str) -> str:
    """The one-line description of the funnel step ``reason`` (a KeyError for a name that is no step)."""
    if reason not in DESCRIPTIONS:
        raise KeyError(f"unknown funnel step {reason!r}")
    return DESCRIPTIONS[reason]
