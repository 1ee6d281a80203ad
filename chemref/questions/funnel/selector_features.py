"""The selector's features: what each measures (:data:`FEATURE_TABLE`), and how each is computed from a question
or candidate record, one small step per feature over views of the excerpt shared between them
(:func:`selector_features`). Counts are capped at 3 and linear on any text: a case-insensitive cue runs case-free
on the lower-cased excerpt, behind the pre-filters of :mod:`chemref.nlp.prefilters` on a long one."""

from __future__ import annotations

import math
import re
from functools import cached_property, lru_cache
from typing import Any, Callable, Iterable, Mapping

from chemref.errors import InputError
from chemref.nlp.claims import classify_citation
from chemref.nlp.prefilters import LONG_TEXT as _LONG_TEXT
from chemref.nlp.prefilters import Words, case_partners, distinct_words, lower_pattern, lower_view, prefilter
from chemref.questions.funnel import selector_cues
from chemref.questions.funnel.findability import findability_features, score_features
from chemref.questions.funnel.selector_cues import (
    ATTRIBUTION,
    AUTHOR,
    BACKGROUND,
    COMPARISON,
    CONTENT_WORD,
    DANGLING,
    DEMONSTRATIVE,
    DIGIT,
    FIRST,
    HEDGE,
    LEFTOVER,
    LETTER,
    LIST,
    LIST_WORDS,
    OWN,
    PASSING,
    PASSIVE_ATTRIBUTION,
    PAST,
    POINTER,
    REFERRING,
    REVIEW_VENUE,
    ROUTINE,
    SECTION_KINDS,
    SEE,
    SPECIFIC_MARK,
    SPECIFIC_TOKEN_TEST,
    STUDY_SUBJECT,
    TITLE_FINDING,
    TITLE_RESOURCE,
    TITLE_REVIEW,
    TITLE_STOP,
)

__all__ = ["FEATURES", "FEATURE_TABLE", "DEFAULT_FEATURES", "feature_list", "selector_features", "claim_feature",
           "claim_input"]

_CAP = 3.0


#: The feature names, in the order of the weight vector.
FEATURES: tuple[str, ...] = (
    "findability", "formula", "chemical_name", "number_unit", "gene_protein", "method", "named_entity",
    "claim_score", "attribution", "first_described", "background", "pointer", "routine_assignment",
    "comparison", "own_result", "passing_cue", "see_pointer", "list_items", "dangling_opening",
    "referring_opening", "specific_tokens", "leftover_marker", "author_phrase", "hedge", "citation_final",
    "log_chars", "title_review", "title_resource", "title_missing", "venue_review", "not_journal",
    "section_introduction", "section_results", "section_discussion", "section_other",
    "demonstrative", "passive_attribution", "study_subject", "past_tense", "target_authors", "title_finding",
    "title_colon", "title_words", "title_overlap",
)

#: What each feature measures, one row per group of features: ``(names, what they measure)``, in the order of
#: :data:`FEATURES` (``python tools/readme_blocks.py`` writes it into ``corpora/labels/README.md``).
FEATURE_TABLE: tuple[tuple[tuple[str, ...], str], ...] = (
    (("findability",), "the older hand-weighted score (`chemref.questions.funnel.findability`)"),
    (("formula", "chemical_name", "number_unit", "gene_protein", "method", "named_entity"),
     "specific entities (findability's matchers, counted)"),
    (("claim_score",), "P(CLAIM) of the claim rules on the sentence"),
    (("attribution",),
     'a result attributed to a study: "X showed that", "a previous study reported", "was identified by"'),
    (("first_described",), '"was first described / identified", "originally", "pioneering"'),
    (("background",),
     'textbook phrasing: "plays a key role", "has attracted attention", "is widely used", "in recent '
     'years"'),
    (("pointer",),
     'vague pointers: "for a review", "reviewed in", "see [CITATION]", "and references therein", "e.g."'),
    (("routine_assignment",),
     'routine characterisation: peaks/bands "at", "assigned to", lattice parameters, "reported values"'),
    (("comparison",), 'own results compared in passing: "consistent with", "in agreement with", "similar to"'),
    (("own_result",), "the citing authors' voice: \"we\", \"our\", \"here\", \"this study\""),
    (("passing_cue",), 'tools near the citation: software, package, database, force field, kit, protocol, "using"'),
    (("see_pointer",), '"(see ... [CITATION])", "see Materials and methods"'),
    (("list_items",), 'commas, "such as", "including" (lists of many items)'),
    (("dangling_opening",),
     'opens with a pronoun or connective that needs the sentence before ("This", "However", "Thus")'),
    (("referring_opening",),
     'opens by referring back: "This", "These", "Such", "Similarly", "In these cases", "The latter"'),
    (("specific_tokens",),
     "tokens that name specific things: letters with digits, inner capitals, acronyms, Greek letters"),
    (("leftover_marker",), 'another citation left in the excerpt ("[12]", "(Smith, 2010)")'),
    (("author_phrase",), "\"et al.\", \"and colleagues\", \"'s group\" left in the excerpt"),
    (("hedge",), '"may", "might", "could", "potentially"'),
    (("citation_final",), "the citation ends the sentence"),
    (("log_chars",), "log of the excerpt's length"),
    (("title_review", "title_resource", "title_missing"),
     "the cited title names a review, database/software/protocol/handbook, or is missing"),
    (("venue_review",),
     "the cited work appeared in a review venue (Chem. Rev., Nat. Rev., Annu. Rev., Trends, Curr. Opin., "
     "Acc. Chem. Res.)"),
    (("not_journal",), "the cited work is not a journal article (book, web page, data, software, patent)"),
    (("section_introduction", "section_results", "section_discussion", "section_other"),
     "the section kind (`other` is the baseline of the other three)"),
    (("demonstrative",),
     'a noun phrase that points back to the text before: "this/these/those/such" before a noun anywhere (not '
     '"this study"), "the latter/former/same", "aforementioned"'),
    (("passive_attribution",),
     'a finding attributed in the passive: "was shown to", "has been found that", "were reported in"'),
    (("study_subject",), 'a study as the subject: "a previous study", "recent work", "researchers have"'),
    (("past_tense",), "past auxiliaries (was, were, had, did): reported events rather than timeless background"),
    (("target_authors",),
     "log(1 + number of authors of the cited work, counted up to 6 as reference styles truncate lists): "
     "reviews have few, experimental papers many"),
    (("title_finding",), 'the cited title states a finding with a verb ("X inhibits Y", "... reveals ...")'),
    (("title_colon",), 'the cited title has a colon ("Topic: a review", "X: from A to B")'),
    (("title_words",), "log(1 + words in the cited title)"),
    (("title_overlap",), "the share of the cited title's content words (by their first six letters) that the "
                         "excerpt has: not in the shipped weights, as it selects the questions lexical retrieval "
                         "answers"),
)

#: The features :func:`train_selector` fits by default (those the shipped weights use).
DEFAULT_FEATURES: tuple[str, ...] = tuple(name for name in FEATURES if name not in (
    "formula", "chemical_name", "number_unit", "gene_protein", "named_entity", "routine_assignment",
    "passing_cue", "leftover_marker", "hedge", "not_journal", "section_other", "title_overlap"))


def feature_list(text: str) -> tuple[str, ...]:
    """Feature names from a comma-separated list (``train-selector --features``), ``default`` standing for
    :data:`DEFAULT_FEATURES`: ``"default,title_overlap"``. Repeats are dropped; an unknown name is an
    :class:`~chemref.errors.InputError`."""
    names: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        for name in (DEFAULT_FEATURES if part == "default" else (part,)):
            if name not in FEATURES:
                raise InputError(f"unknown selector feature {name!r}" if name else "an empty feature name",
                                 hint=f"choose from default, {', '.join(FEATURES)}")
            if name not in names:
                names.append(name)
    return tuple(names)


def _specific_tokens(text: str, cap: float) -> float:
    """The matches of :data:`SPECIFIC_TOKEN` in ``text``, at most ``cap``. Each match is one whole token (a run
    of non-space characters, as ``str.split`` cuts them) that holds a mark or both a digit and a letter, so the
    tokens are tested one by one (:data:`SPECIFIC_TOKEN_TEST`), a lower-case ASCII word skipped at once."""
    if not SPECIFIC_MARK.search(text) and not (DIGIT.search(text) and LETTER.search(text)):
        return 0.0  # no token can hold what the text does not
    found = 0
    for token in text.split():
        if token.isascii() and token.isalpha() and token.islower():
            continue  # no capital, Greek letter or digit
        if SPECIFIC_TOKEN_TEST.search(token):
            found += 1
            if found >= cap:
                break
    return float(found)


def _lowered(pattern: "re.Pattern[str]") -> "re.Pattern[str] | None":
    lowered = lower_pattern(pattern.pattern) if pattern.flags & re.IGNORECASE else None
    return re.compile(lowered, pattern.flags & ~re.IGNORECASE) if lowered is not None else None


@lru_cache(maxsize=None)
def _case_free(pattern: "re.Pattern[str]") -> "re.Pattern[str] | None":
    """``pattern`` without re.IGNORECASE, for the lower-cased text (several times faster; same matches)."""
    return _lowered(pattern)



@lru_cache(maxsize=1)
def _folds_apart() -> "re.Pattern[str]":
    """The characters a letter of the case-insensitive patterns also matches beyond lower-casing
    (``θ`` matches ``ϑ``, ``s`` matches ``ſ``)."""
    letters = {ch for value in vars(selector_cues).values()
               if isinstance(value, re.Pattern) and value.flags & re.IGNORECASE
               for ch in value.pattern.lower()}
    return re.compile("[" + re.escape("".join(sorted(case_partners(letters) | {"\u0131", "\u017f"}))) + "]")


def _lower_view(text: str) -> str | None:
    """``text.lower()`` when the case-free patterns match it exactly where the case-insensitive ones match
    ``text`` (same length, and no character that case folding treats apart from lower-casing); else None."""
    return lower_view(text, _folds_apart())


def _count(pattern: "re.Pattern[str]", text: str, cap: float = _CAP, lower: str | None = None,
           words: "Words | None" = None) -> float:
    """Matches of ``pattern`` in ``text``, at most ``cap``; ``lower`` is the lower view of ``text`` when it
    matches lower-case patterns exactly where re.IGNORECASE matches ``text`` (:func:`_lower_view`), ``words``
    the distinct words of ``lower`` when it is long (:data:`_LONG_TEXT`).

    Linear and cheap on any text: the case-free pattern on the lower view; on a long text a pre-filter
    first (:func:`chemref.nlp.prefilters.prefilter`: no match possible, or the scan starts where the first
    can); the count stops at ``cap``."""
    fast = _case_free(pattern) if lower is not None else None
    if fast is not None:
        pattern, text = fast, lower  # type: ignore[assignment]
    start = 0
    if len(text) >= _LONG_TEXT:
        plan = prefilter(pattern, fast is not None)
        start = 0 if plan is None else plan.start(text, words if fast is not None else None)
        if start < 0:
            return 0.0
    found = 0
    for _ in pattern.finditer(text, start):
        found += 1
        if found >= cap:
            break
    return float(min(found, cap))


def claim_feature(score: float) -> float:
    """The ``claim_score`` feature from the claim classifier's P(CLAIM) (rounded: stable in JSON)."""
    return round(score, 4)


def claim_input(decision: Any) -> float:
    """What ``claim_score`` is computed from: the claim rules' P(CLAIM) (``ClaimDecision.rule_score``; the
    shipped weights were fitted on it), or ``score`` for a stand-in decision without one."""
    return float(getattr(decision, "rule_score", decision.score))


@lru_cache(maxsize=256)
def _claim_score(sentence: str, start: int, end: int) -> float:
    try:
        return claim_feature(claim_input(classify_citation(sentence, citation=(start, end))))
    except ValueError:
        return claim_feature(claim_input(classify_citation(sentence)))


class _Views:
    """One record's excerpt and the views of it that several features share, each computed on first use."""

    def __init__(self, record: Mapping[str, Any]) -> None:
        self.record = record
        self.excerpt = str(record.get("excerpt") or "")
        self.title = record.get("target_title") or ""
        self.section = record.get("section") or "other"
        self.mark = self.excerpt.find("[CITATION]")
        self._cache: dict[Any, Any] = {}

    def _once(self, key: Any, make: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    @cached_property
    def bare(self) -> str:
        """The excerpt without its ``[CITATION]`` marker."""
        return self.excerpt.replace("[CITATION]", " ")

    @cached_property
    def lower(self) -> str | None:
        """The lower view of the excerpt (:func:`_lower_view`)."""
        return _lower_view(self.excerpt)

    @cached_property
    def bare_lower(self) -> str | None:
        return _lower_view(self.bare)

    def words(self, lowered: str | None) -> "Words | None":
        """The distinct words of a long lower view (for the pre-filters); None for a short one."""
        if lowered is None or len(lowered) < _LONG_TEXT:
            return None
        return self._once(("words", lowered), lambda: distinct_words(lowered))

    def entities(self) -> dict[str, set[str]]:
        """Findability's matchers on the excerpt (:func:`chemref.questions.findability.findability_features`)."""
        return self._once("entities", lambda: findability_features(self.excerpt))

    def in_title(self, pattern: "re.Pattern[str]") -> float:
        """1.0 when the case-insensitive ``pattern`` matches the cited title (its case-free form on the title's
        lower view when there is one, as :func:`_count` does), else 0.0."""
        fast = _case_free(pattern)
        lower = self._once("title_lower", lambda: _lower_view(self.title)) if fast is not None else None
        found = fast.search(lower) if fast is not None and lower is not None else pattern.search(self.title)
        return 1.0 if found else 0.0

    def count(self, pattern: "re.Pattern[str]", cap: float = _CAP) -> float:
        """:func:`_count` of ``pattern`` on the excerpt."""
        return _count(pattern, self.excerpt, cap, self.lower, self.words(self.lower))

    def around(self) -> str:
        """The text near the citation (60 characters before the marker, 70 from it)."""
        return self.excerpt[max(0, self.mark - 60):self.mark + 70] if self.mark >= 0 else self.excerpt

    def around_lower(self) -> str | None:
        """The lower view of :meth:`around` (:func:`_lower_view`; a view of its own: lower-casing a slice may
        differ from slicing the lower-cased excerpt)."""
        return self._once("around_lower", lambda: _lower_view(self.around()))


# ----------------------------------------------------------------------------- the features, one step each
def _findability_step(v: _Views) -> float:
    """The record's own findability when it has one (the builder computes it first), else the excerpt's."""
    value = v.record.get("findability")
    if isinstance(value, (int, float)):
        return float(value)
    return score_features(v.entities())


def _entity_step(name: str) -> Callable[[_Views], float]:
    def entity_count(v: _Views) -> float:
        return float(min(len(v.entities()[name]), _CAP))

    return entity_count


def _claim_step(v: _Views) -> float:
    sentence = str(v.record.get("sentence") or v.excerpt)
    start = int(v.record.get("citation_start") or 0)
    return _claim_score(sentence, start, int(v.record.get("citation_end") or start))


def _cue_step(pattern: "re.Pattern[str]", cap: float = _CAP, scale: float = 1.0) -> Callable[[_Views], float]:
    """Matches of a cue pattern in the excerpt, at most ``cap``, divided by ``scale``."""
    if scale == 1.0:
        return lambda v: v.count(pattern, cap)
    return lambda v: v.count(pattern, cap) / scale


def _citation_final_step(v: _Views) -> float:
    tail = v.excerpt[v.mark + len("[CITATION]"):] if v.mark >= 0 else ""
    return 1.0 if len(tail.strip(" .;:)]")) == 0 else 0.0


def _leftover_marker_step(v: _Views) -> float:
    return _count(LEFTOVER, v.bare, 2.0) if DIGIT.search(v.bare) else 0.0  # each pattern needs a digit


def _list_step(v: _Views) -> float:
    """Commas, semicolons and list words (:data:`LIST`), at most 6, halved: the punctuation counted with
    ``str.count`` and only the words scanned for (no match of one overlaps a match of another, so the counts
    add up to LIST's)."""
    lower = v.lower
    if lower is None:
        return v.count(LIST, 6.0) / 2.0
    found = lower.count(",") + lower.count(";")
    if found < 6:
        found += int(_count(LIST_WORDS, lower, 6.0 - found, None, v.words(lower)))
    return min(found, 6) / 2.0


def _author_phrase_step(v: _Views) -> float:
    return _count(AUTHOR, v.bare, 1.0, v.bare_lower)


def _title_overlap_step(v: _Views) -> float:
    """The share of the cited title's content words (compared by their first six letters) that the excerpt has."""
    title = _title_stems(v.title)
    if not title:
        return 0.0
    return len(title & _title_stems(v.bare)) / len(title)


def _title_stems(text: str) -> set[str]:
    return {word[:6] for word in (m.lower() for m in CONTENT_WORD.findall(text)) if word not in TITLE_STOP}


def _section_step(kind: str) -> Callable[[_Views], float]:
    return lambda v: 1.0 if v.section == kind else 0.0


#: How each feature is computed, in the order of :data:`FEATURES` (built once; each step reads the shared views).
_STEPS: dict[str, Callable[[_Views], float]] = {
    "findability": _findability_step,
    **{name: _entity_step(name) for name in
       ("formula", "chemical_name", "number_unit", "gene_protein", "method", "named_entity")},
    "claim_score": _claim_step,
    "attribution": _cue_step(ATTRIBUTION),
    "first_described": _cue_step(FIRST),
    "background": _cue_step(BACKGROUND),
    "pointer": _cue_step(POINTER),
    "routine_assignment": _cue_step(ROUTINE),
    "comparison": _cue_step(COMPARISON),
    "own_result": _cue_step(OWN),
    "passing_cue": lambda v: _count(PASSING, v.around(), _CAP, v.around_lower()),
    "see_pointer": _cue_step(SEE, 1.0),
    "list_items": _list_step,
    "dangling_opening": lambda v: 1.0 if DANGLING.match(v.excerpt) else 0.0,
    "referring_opening": lambda v: 1.0 if REFERRING.match(v.excerpt) else 0.0,
    "specific_tokens": lambda v: _specific_tokens(v.bare, 5.0),
    "leftover_marker": _leftover_marker_step,
    "author_phrase": _author_phrase_step,
    "hedge": _cue_step(HEDGE),
    "citation_final": _citation_final_step,
    "log_chars": lambda v: math.log(max(len(v.excerpt), 1)),
    "title_review": lambda v: v.in_title(TITLE_REVIEW),
    "title_resource": lambda v: v.in_title(TITLE_RESOURCE),
    "title_missing": lambda v: 0.0 if v.title.strip() else 1.0,
    "venue_review": lambda v: 1.0 if REVIEW_VENUE.search(v.record.get("target_container") or "") else 0.0,
    "not_journal": lambda v: 1.0 if (v.record.get("target_type") or "journal") != "journal" else 0.0,
    **{f"section_{kind}": _section_step(kind) for kind in SECTION_KINDS},
    "section_other": lambda v: 0.0 if v.section in SECTION_KINDS else 1.0,
    "demonstrative": _cue_step(DEMONSTRATIVE),
    "passive_attribution": _cue_step(PASSIVE_ATTRIBUTION, 2.0),
    "study_subject": _cue_step(STUDY_SUBJECT, 2.0),
    "past_tense": _cue_step(PAST),
    "target_authors": lambda v: math.log1p(min(len(v.record.get("target_authors") or ()), 6)),
    "title_finding": lambda v: v.in_title(TITLE_FINDING),
    "title_colon": lambda v: 1.0 if ":" in v.title else 0.0,
    "title_words": lambda v: math.log1p(len(v.title.split())),
    "title_overlap": _title_overlap_step,
}


def selector_features(record: Mapping[str, Any], names: Iterable[str] | None = None) -> dict[str, float]:
    """The feature values of one question or candidate record (its JSON fields: ``excerpt``, ``sentence``,
    ``citation_start``, ``citation_end``, ``findability``, ``target_title``, ``target_authors``,
    ``target_container``, ``target_type``, ``section``): all of :data:`FEATURES`, or only ``names``.

    A record's own ``findability`` is used when it has one (the builder computes it first)."""
    views = _Views(record)
    return {name: _STEPS[name](views) for name in (FEATURES if names is None else names)}
