"""The question selector: how likely an excerpt is to identify its one cited work, learned from labels.

A logistic regression over a documented set of interpretable features of the excerpt, its sentence
and the cited reference's title. The weights are a versioned JSON file shipped in the package
(``chemref/questions/data/selector.json``); :func:`train_selector` refits them from any label file in
the format of the labelling guide, with article-grouped cross-validation and a fixed seed
(``chemref questions train-selector``), so a benchmark builder can retrain on labels of their own.

The default threshold (``--min-score``) puts precision first (:func:`choose_threshold`): the lowest
threshold whose cross-validated kept set is 85% good with 60% of the good candidates kept, else the highest that
still keeps a third (:data:`FALLBACK_GOOD_KEPT`) of the good ones. How the shipped weights were trained and
their cross-validated figures at the threshold are the weights file's ``meta``; the kept set after the caps is
recorded beside it (``chemref/questions/data/selector_evaluation.json``); :func:`chemref.questions.output.prose.selector_text`
writes them out for the README and the dataset card. ``--min-score`` sets any other threshold at build time.

The features and what each measures are :data:`FEATURE_TABLE` (each computed on the excerpt unless said
otherwise; counts are capped at 3); the weights use some of them, and the others stay computable for weight files
of one's own. ``python tools/readme_blocks.py`` writes the table, with the features the shipped weights use, into
``corpora/labels/README.md``.

Further candidates (generic-statement cues, specific-result cues, openings, how often and where the article cites
the target, paragraph context, the citing article's vocabulary, the cited title's form, section × cue products)
and shallow tree ensembles did not beat these features beyond the noise of article-grouped cross-validation;
``benchmarks/bench_selector.py`` measures them and ``corpora/labels/README.md`` has the table. Nor did the source
article's type (JATS ``article-type``), its number of candidates, the cited reference's age and citations, a
longer list of review venues, or sentence embeddings of the excerpt (WordLlama, as principal components fitted in
each fold or as a second model); nor chemical mentions (the ``chemref_chemicals`` component), where the marker
sits, two-stage or within-article models (the article's mean score, the rank in the article, article
intercepts). What does lift the kept set reads the cited title: ``title_overlap`` (AUC +0.02,
kept set 0.76 good instead of 0.69 on fold seed 0), at a price: BM25 then answers about 0.59 of the kept
questions at rank 1 instead of 0.40 (0.41 of all the good candidates), so the shipped weights leave it out and
``train-selector --features default,title_overlap`` fits it for those who want it. Soft targets
(``--soft-labels`` a judge's answers with ``--label-weight``) add about +0.004 AUC.
"""

from __future__ import annotations

import json
import math
import re
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from chemref._io import atomic_write
from chemref.errors import InputError, printable
from chemref.jsonl import check_schema, read_json
from chemref.nlp.prefilters import LONG_TEXT as _LONG_TEXT
from chemref.nlp.prefilters import Words, case_partners, distinct_words, lower_pattern, lower_view, prefilter
from chemref.questions.funnel.findability import findability_features, score_features

__all__ = ["FEATURES", "DEFAULT_FEATURES", "Selector", "selector_features", "default_selector", "load_selector", "load_selector_cached", "train_selector",
           "SELECTOR_FILE", "choose_threshold", "FALLBACK_GOOD_KEPT", "FEATURE_TABLE", "feature_list", "claim_input"]

SELECTOR_FILE = "selector.json"
_CAP = 3.0

_I = re.IGNORECASE
_ATTRIBUTION = re.compile(
    r"\b(?:show(?:s|ed|n)|demonstrat(?:es|ed)|report(?:s|ed)|identif(?:ies|ied)|reveal(?:s|ed)|found|"
    r"discover(?:s|ed)|establish(?:es|ed)|observ(?:es|ed)|describ(?:es|ed)|propos(?:es|ed)|suggest(?:s|ed)|"
    r"characteri[sz](?:es|ed)|determin(?:es|ed)|solv(?:es|ed)|isolat(?:es|ed)|synthesi[sz](?:es|ed)|"
    r"develop(?:s|ed)|introduc(?:es|ed))\s+(?:that|by|in|a|an|the|how|its|their)\b|"
    r"\b(?:stud(?:y|ies)|work|group|authors|report|analysis|investigation|experiments?|trial|screen|survey)\s+"
    r"(?:has\s+|have\s+|had\s+)?(?:also\s+|recently\s+|previously\s+)?(?:show|demonstrat|report|identif|reveal|"
    r"found|discover|establish|observ|describ|propos|suggest|confirm|indicat)", _I)
_FIRST = re.compile(r"\b(?:first(?:ly)?\s+(?:described|reported|identified|discovered|isolated|synthesi[sz]ed|"
                    r"proposed|introduced|shown|demonstrated|characteri[sz]ed|observed|cloned|developed)|"
                    r"originally|pioneering|seminal|for\s+the\s+first\s+time)\b", _I)
_BACKGROUND = re.compile(
    r"\b(?:plays?\s+(?:an?\s+)?(?:\w+\s+)?roles?|(?:attracted|received|gained|drawn)\s+(?:\w+\s+)?(?:attention|interest)|"
    r"(?:widely|commonly|extensively|frequently|increasingly|broadly)\s+(?:used|studied|applied|employed|investigated|"
    r"accepted|recognized|recognised|known)|in\s+recent\s+(?:years|decades)|recent\s+(?:years|decades|advances|studies)|"
    r"one\s+of\s+the\s+most|well[- ]known|well[- ]established|it\s+is\s+(?:now\s+)?(?:known|established|accepted|"
    r"believed|thought)|(?:many|numerous|several|various|multiple)\s+(?:studies|reports|groups|researchers|authors)|"
    r"(?:major|leading|common|main)\s+cause|worldwide|great\s+potential|promising|attractive|emerging|important|"
    r"essential|crucial|critical|key\s+(?:role|factor|regulator|step)|is\s+known\s+to|are\s+known\s+to|"
    r"(?:has|have)\s+been\s+(?:widely|extensively|intensively)|a\s+(?:wide|broad)\s+(?:range|variety|spectrum))\b", _I)
_POINTER = re.compile(r"\b(?:for\s+(?:a\s+|an\s+|recent\s+|comprehensive\s+)?(?:reviews?|overview|details)|reviewed\s+"
                      r"(?:in|by|elsewhere)|references\s+therein|e\.g\.|see\s+(?:also\s+)?\[CITATION\]|"
                      r"as\s+(?:reported|described|discussed|shown)\s+(?:previously|elsewhere|before|in\s+the\s+literature)|"
                      r"in\s+the\s+literature|literature)\b", _I)
_ROUTINE = re.compile(
    r"\b(?:assigned\s+to|attributed\s+to|assignable\s+to|characteristic\s+(?:peaks?|bands?|signals?|reflections?)|"
    r"(?:peaks?|bands?|signals?|reflections?|resonances?)\s+(?:at|around|near|centred|centered)|lattice\s+"
    r"(?:parameters?|constants?)|(?:reported|literature|previous|standard)\s+values?|JCPDS|ICDD|PDF\s*(?:card|no)|"
    r"cm[-−‒–]1|2θ|\d\s*ppm|binding\s+energ(?:y|ies)|diffraction\s+peaks?|space\s+group)", _I)
_COMPARISON = re.compile(r"\b(?:consistent\s+with|in\s+(?:good\s+|close\s+|excellent\s+)?(?:line|agreement|accordance)"
                         r"\s+with|agree(?:s|d)?\s+(?:well\s+)?with|similar\s+to|comparable\s+(?:to|with)|in\s+contrast\s+"
                         r"(?:to|with)|contrary\s+to|in\s+keeping\s+with|corroborat\w+|confirm(?:s|ed|ing)?\s+"
                         r"(?:previous|earlier|prior))\b", _I)
_OWN = re.compile(r"\b(?:we|our|us|here(?:in)?|this\s+(?:study|work|paper|report)|the\s+present\s+(?:study|work)|"
                  r"in\s+the\s+current\s+study)\b", _I)
_PASSING = re.compile(r"\b(?:using|used|use|employed|employing|utili[sz]ed|software|package|database|databank|"
                      r"force\s+field|toolbox|toolkit|program|kit|protocols?|algorithm|descriptors?|functional|"
                      r"basis\s+set|implemented|server|pipeline|library|version|code|dataset|data\s+set|"
                      r"tool|method(?:ology)?|procedure|technique|approach|model(?:led|ed)?|parameters?|"
                      r"representation|kernel|following|according\s+to|adapted|modified|performed|calculated|"
                      r"computed|simulated|estimated|measured)\b", _I)
_SEE = re.compile(r"\(\s*see\b[^()]{0,200}\[CITATION\]|\bsee\s+(?:the\s+)?(?:materials|methods|supplementary|"
                  r"section|fig|table|text|below|above)", _I)
_LIST = re.compile(r",|;|\bsuch\s+as\b|\bincluding\b|\band\s+other\b|\betc\b", _I)
_DANGLING = re.compile(r"(?:[a-z0-9]|(?:This|These|Those|That|Such|It|Its|They|Their|Them|He|She|His|Her|However|Thus|"
                       r"Therefore|Hence|Moreover|Furthermore|In\s+addition|Additionally|Similarly|Likewise|"
                       r"Consequently|Nevertheless|Nonetheless|Accordingly|Indeed|Also|Again|Both|Here|In\s+this|"
                       r"In\s+these|In\s+that|As\s+such|Consistent|In\s+contrast|Conversely|Instead|Then|Later|"
                       r"Subsequently|Finally|Interestingly|Notably|Importantly|Surprisingly|Unlike|Yet|But|And|"
                       r"Besides|Otherwise|Alternatively|The\s+latter|The\s+former)\b)")
_LEFTOVER = re.compile(r"\[\s*\d+(?:\s*[,–−-]\s*\d+)*\s*\]|\(\s*\d+(?:\s*[,–−-]\s*\d+)*\s*\)|"
                       r"\b[A-Z][A-Za-z'’-]{1,40}(?:\s+et\s+al\.?)?,?\s+(?:19|20)\d{2}[a-z]?\b|\[\s*\d|\d\]")
_AUTHOR = re.compile(r"\bet\s+al\b|\band\s+(?:colleagues|co-?workers|collaborators)\b|['’]s\s+(?:group|lab|"
                     r"laboratory|team)\b|\bthe\s+group\s+of\b", _I)
_HEDGE = re.compile(r"\b(?:may|might|could|can|potentially|possibly|likely|perhaps|putative(?:ly)?)\b", _I)
_TITLE_REVIEW = re.compile(r"\b(?:review|reviews|overview|perspectives?|advances|progress|update|trends|"
                           r"challenges|opportunities|state\s+of\s+the\s+art|current\s+status|insights|introduction\s+to|"
                           r"primer|tutorial|roadmap|outlook|recent\s+developments|mini-?review)\b", _I)
_TITLE_RESOURCE = re.compile(r"\b(?:database|databank|software|(?:an?|R|software|Python)\s+package|server|"
                             r"toolkit|toolbox|program|pipeline|"
                             r"protocols?|handbook|manual|guidelines?|atlas|resource|library|web\s*server|"
                             r"platform|tool|force\s+field|user\s+guide|statistics|report)\b", _I)
_REFERRING = re.compile(r"(?:This|These|Those|That|Such|It|Its|They|Their|Both|Similar|Analogous|Similarly|Likewise|"
                        r"In\s+(?:this|these|that|those|all|both|such)|The\s+(?:latter|former|same))\b")
#: A token names a specific thing when it mixes letters and digits, or has an inner capital, an acronym or a
#: Greek letter. One scan finds such tokens, each tried once from its start (linear time): a mark, or
#: the first letter-or-digit of the token followed later by one of the other kind.
_SPECIFIC_TOKEN = re.compile(r"(?<!\S)(?:\S*?(?:[a-z][A-Z]|[A-Z]{2}|[α-ωΑ-Ω])|"
                             r"[^\sA-Za-z\d]*(?:\d[^\sA-Za-z]*[A-Za-z]|[A-Za-z][^\s\d]*\d))\S*")
_SPECIFIC_MARK = re.compile(r"[a-z][A-Z]|[A-Z]{2}|[α-ωΑ-Ω]")
_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[A-Za-z]")
_REVIEW_VENUE = re.compile(r"\b(?:Rev|Revs|Review|Reviews|Trends|Curr\.?\s+Opin|Current\s+Opinion|Annu|Annual|"
                           r"Acc\.?\s+Chem|Accounts|Prog|Progress|Crit)\b", _I)
_SECTION_KINDS = ("introduction", "results", "discussion")
_DEMONSTRATIVE = re.compile(
    r"\b(?:this|these|those|such)\s+(?!(?:study|studies|work|paper|report|review|article|manuscript)\b)[a-z]|"
    r"\b(?:the\s+(?:latter|former|same|above|aforementioned)|aforementioned|above[- ]mentioned)\b", _I)
_PASSIVE_ATTRIBUTION = re.compile(
    r"\b(?:was|were|is|are|has\s+been|have\s+been|had\s+been)\s+(?:\w+ly\s+)?(?:shown|found|reported|demonstrated|"
    r"observed|identified|proposed|suggested|described|revealed|confirmed|discovered|established)\s+"
    r"(?:to|that|in|by|as|for|when|after|with)\b", _I)
_STUDY_SUBJECT = re.compile(
    r"\b(?:(?:a|one|another|recent|previous|earlier|later|prior|subsequent)\s+(?:\w+\s+)?(?:study|studies|work|report|"
    r"paper|analysis|investigation|trial)|(?:studies|researchers|investigators|authors)\s+(?:have|has|had)?)\b", _I)
_PAST = re.compile(r"\b(?:was|were|had|did)\b", _I)
_TITLE_FINDING = re.compile(
    r"\b(?:inhibits?|induces?|promotes?|regulates?|reveals?|mediates?|controls?|enhances?|suppresses?|activates?|"
    r"drives?|causes?|requires?|determines?|modulates?|increases?|decreases?|reduces?|prevents?|affects?|confers?|"
    r"is|are|improves?|enables?|leads?|shows?|impairs?|protects?|triggers?|limits?|blocks?|binds?|forms?|acts?|"
    r"contributes?|underlies|governs?|interacts?)\b", _I)
#: A content word of a title (three characters or more) and the function words ``title_overlap`` leaves out.
_CONTENT_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]{2,}")
_TITLE_STOP = frozenset(
    "the and for with from into its are was were has have been not but via that this which their these those they "
    "than then there also such other more most some only both each when where while would could should about after "
    "before between during under over very well however using used based".split())

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
    if not _SPECIFIC_MARK.search(text) and not (_DIGIT.search(text) and _LETTER.search(text)):
        return 0.0  # no token can hold what the text does not
    found = 0
    for _ in _SPECIFIC_TOKEN.finditer(text):
        found += 1
        if found >= cap:
            break
    return float(found)


def _lowered(pattern: "re.Pattern[str]") -> "re.Pattern[str] | None":
    lowered = lower_pattern(pattern.pattern) if pattern.flags & _I else None
    return re.compile(lowered, pattern.flags & ~_I) if lowered is not None else None


@lru_cache(maxsize=None)
def _case_free(pattern: "re.Pattern[str]") -> "re.Pattern[str] | None":
    """``pattern`` without re.IGNORECASE, for the lower-cased text (several times faster; same matches)."""
    return _lowered(pattern)



@lru_cache(maxsize=1)
def _folds_apart() -> "re.Pattern[str]":
    """The characters a letter of the case-insensitive patterns also matches beyond lower-casing
    (``θ`` matches ``ϑ``, ``s`` matches ``ſ``)."""
    letters = {ch for value in globals().values() if isinstance(value, re.Pattern) and value.flags & _I
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
    from chemref.nlp.claims import classify_citation  # noqa: PLC0415 (the rule tables compile on first use)

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

    @property
    def bare(self) -> str:
        """The excerpt without its ``[CITATION]`` marker."""
        return self._once("bare", lambda: self.excerpt.replace("[CITATION]", " "))

    @property
    def lower(self) -> str | None:
        """The lower view of the excerpt (:func:`_lower_view`)."""
        return self._once("lower", lambda: _lower_view(self.excerpt))

    @property
    def bare_lower(self) -> str | None:
        return self._once("bare_lower", lambda: _lower_view(self.bare))

    def words(self, lowered: str | None) -> "Words | None":
        """The distinct words of a long lower view (for the pre-filters); None for a short one."""
        if lowered is None or len(lowered) < _LONG_TEXT:
            return None
        return self._once(("words", lowered), lambda: distinct_words(lowered))

    def entities(self) -> dict[str, set[str]]:
        """Findability's matchers on the excerpt (:func:`chemref.questions.findability.findability_features`)."""
        return self._once("entities", lambda: findability_features(self.excerpt))

    def count(self, pattern: "re.Pattern[str]", cap: float = _CAP) -> float:
        """:func:`_count` of ``pattern`` on the excerpt."""
        return _count(pattern, self.excerpt, cap, self.lower, self.words(self.lower))

    def around(self) -> str:
        """The text near the citation (60 characters before the marker, 70 from it)."""
        return self.excerpt[max(0, self.mark - 60):self.mark + 70] if self.mark >= 0 else self.excerpt


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
    return _count(_LEFTOVER, v.bare, 2.0) if _DIGIT.search(v.bare) else 0.0  # each pattern needs a digit


def _author_phrase_step(v: _Views) -> float:
    return _count(_AUTHOR, v.bare, 1.0, v.bare_lower)


def _title_overlap_step(v: _Views) -> float:
    """The share of the cited title's content words (compared by their first six letters) that the excerpt has."""
    title = _title_stems(v.title)
    if not title:
        return 0.0
    return len(title & _title_stems(v.bare)) / len(title)


def _title_stems(text: str) -> set[str]:
    return {word[:6] for word in (m.lower() for m in _CONTENT_WORD.findall(text)) if word not in _TITLE_STOP}


def _section_step(kind: str) -> Callable[[_Views], float]:
    return lambda v: 1.0 if v.section == kind else 0.0


#: How each feature is computed, in the order of :data:`FEATURES` (built once; each step reads the shared views).
_STEPS: dict[str, Callable[[_Views], float]] = {
    "findability": _findability_step,
    **{name: _entity_step(name) for name in
       ("formula", "chemical_name", "number_unit", "gene_protein", "method", "named_entity")},
    "claim_score": _claim_step,
    "attribution": _cue_step(_ATTRIBUTION),
    "first_described": _cue_step(_FIRST),
    "background": _cue_step(_BACKGROUND),
    "pointer": _cue_step(_POINTER),
    "routine_assignment": _cue_step(_ROUTINE),
    "comparison": _cue_step(_COMPARISON),
    "own_result": _cue_step(_OWN),
    "passing_cue": lambda v: _count(_PASSING, v.around()),
    "see_pointer": _cue_step(_SEE, 1.0),
    "list_items": _cue_step(_LIST, 6.0, scale=2.0),
    "dangling_opening": lambda v: 1.0 if _DANGLING.match(v.excerpt) else 0.0,
    "referring_opening": lambda v: 1.0 if _REFERRING.match(v.excerpt) else 0.0,
    "specific_tokens": lambda v: _specific_tokens(v.bare, 5.0),
    "leftover_marker": _leftover_marker_step,
    "author_phrase": _author_phrase_step,
    "hedge": _cue_step(_HEDGE),
    "citation_final": _citation_final_step,
    "log_chars": lambda v: math.log(max(len(v.excerpt), 1)),
    "title_review": lambda v: 1.0 if _TITLE_REVIEW.search(v.title) else 0.0,
    "title_resource": lambda v: 1.0 if _TITLE_RESOURCE.search(v.title) else 0.0,
    "title_missing": lambda v: 0.0 if v.title.strip() else 1.0,
    "venue_review": lambda v: 1.0 if _REVIEW_VENUE.search(v.record.get("target_container") or "") else 0.0,
    "not_journal": lambda v: 1.0 if (v.record.get("target_type") or "journal") != "journal" else 0.0,
    **{f"section_{kind}": _section_step(kind) for kind in _SECTION_KINDS},
    "section_other": lambda v: 0.0 if v.section in _SECTION_KINDS else 1.0,
    "demonstrative": _cue_step(_DEMONSTRATIVE),
    "passive_attribution": _cue_step(_PASSIVE_ATTRIBUTION, 2.0),
    "study_subject": _cue_step(_STUDY_SUBJECT, 2.0),
    "past_tense": _cue_step(_PAST),
    "target_authors": lambda v: math.log1p(min(len(v.record.get("target_authors") or ()), 6)),
    "title_finding": lambda v: 1.0 if _TITLE_FINDING.search(v.title) else 0.0,
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


@dataclass(frozen=True)
class Selector:
    """A logistic regression over some of :data:`FEATURES` (those in ``weights``):
    ``score = 1 / (1 + exp(-(bias + Σ w·(x − mean)/scale)))``.

    ``threshold`` is the recommended ``--min-score``; ``meta`` says how it was trained.
    """

    weights: Mapping[str, float]
    means: Mapping[str, float]
    scales: Mapping[str, float]
    bias: float
    threshold: float
    version: str
    meta: Mapping[str, Any] = field(default_factory=dict)

    def logit(self, values: Mapping[str, float]) -> float:
        total = self.bias
        for name, weight in self.weights.items():
            total += weight * (values.get(name, 0.0) - self.means.get(name, 0.0)) / (self.scales.get(name) or 1.0)
        return total

    def score(self, values: Mapping[str, float]) -> float:
        """P(good question) for feature ``values``, rounded to 4 decimals (stable in JSON)."""
        z = self.logit(values)
        return round(1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0, 4)

    def score_record(self, record: Mapping[str, Any], *, claim: float | None = None) -> float:
        """The score of one question or candidate record (see :func:`selector_features`); ``claim``: the claim
        classifier's P(CLAIM) of its citation when the caller has it already (the builder's filter did)."""
        if claim is None or "claim_score" not in self.weights:
            return self.score(selector_features(record, self.weights))
        values = selector_features(record, [name for name in self.weights if name != "claim_score"])
        values["claim_score"] = claim_feature(claim)
        return self.score(values)

    def to_dict(self) -> dict[str, Any]:
        return {"format": "chemref-selector", "version": self.version, "features": list(self.weights),
                "weights": dict(self.weights), "means": dict(self.means), "scales": dict(self.scales),
                "bias": self.bias, "threshold": self.threshold, "meta": dict(self.meta)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, path: str | None = None, checked: bool = False) -> "Selector":
        """A selector from :meth:`to_dict`'s form, checked against :func:`selector_schema` (types, finite
        numbers in range, known feature names) and for agreement between its tables (``checked``: the data is
        known to match the schema already)."""
        hint = "write it with `chemref questions train-selector`"
        if not checked:
            check_schema(data, selector_schema(), what="invalid selector weights", path=path, hint=hint)
        numbers = [data["bias"], data["threshold"], *(v for k in ("weights", "means", "scales") for v in data[k].values())]
        if not all(math.isfinite(v) for v in numbers):
            raise InputError("invalid selector weights: every number must be finite", path=path, hint=hint)
        weights = dict(data["weights"])
        if list(data["features"]) != list(weights) or set(data["means"]) != set(weights) \
                or set(data["scales"]) != set(weights):
            raise InputError("invalid selector weights: features, weights, means and scales must name the same "
                             "features", path=path, hint=hint)
        return cls(weights={k: float(v) for k, v in weights.items()},
                   means={k: float(v) for k, v in data["means"].items()},
                   scales={k: float(v) for k, v in data["scales"].items()}, bias=float(data["bias"]),
                   threshold=float(data["threshold"]), version=data["version"], meta=dict(data.get("meta") or {}))

    def save(self, path: str | Path) -> None:
        with atomic_write(path) as handle:
            json.dump(self.to_dict(), handle, indent=1, ensure_ascii=False)
            handle.write("\n")


#: a selector's version: a short printable token (it is written into dataset cards)
VERSION_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$"
#: largest selector weights file read (the shipped one is 3 kB)
MAX_SELECTOR_BYTES = 1 << 20
#: largest magnitude of a weight, a mean or the bias (fitted ones are below 10; the scales are positive)
MAX_WEIGHT = 1e6


@lru_cache(maxsize=1)
def selector_schema() -> dict[str, Any]:
    """The JSON Schema of a selector weights file (:meth:`Selector.save`)."""
    name = {"enum": list(FEATURES)}
    number = {"type": "number", "minimum": -MAX_WEIGHT, "maximum": MAX_WEIGHT}
    table = {"type": "object", "propertyNames": name, "additionalProperties": number, "minProperties": 1}
    properties = {
        "format": {"const": "chemref-selector"}, "version": {"type": "string", "pattern": VERSION_PATTERN},
        "features": {"type": "array", "items": name, "uniqueItems": True, "minItems": 1},
        "weights": table, "means": table,
        "scales": {**table, "additionalProperties": {"type": "number", "exclusiveMinimum": 0,
                                                     "maximum": MAX_WEIGHT}},
        "bias": number, "threshold": {"type": "number", "minimum": 0, "maximum": 1},
        "meta": {"type": "object"},
    }
    return {"type": "object", "additionalProperties": False, "required": [k for k in properties if k != "meta"],
            "properties": properties}


def load_selector(path: str | Path) -> Selector:
    """Read selector weights written by :meth:`Selector.save`: a regular file of at most 1 MB, strict JSON
    (finite numbers), checked by :meth:`Selector.from_dict`."""
    data = read_json(path, what="invalid selector weights", limit=MAX_SELECTOR_BYTES,
                     hint="write it with `chemref questions train-selector`")
    return Selector.from_dict(data, path=str(path))


@lru_cache(maxsize=8)
def load_selector_cached(path: str) -> Selector:
    """:func:`load_selector`, remembered per path (each worker process reads a file once)."""
    return load_selector(path)


def shipped_selector_path() -> Path:
    """Where the selector shipped with chemref lies (package data)."""
    return Path(str(resources.files("chemref.questions") / "data" / SELECTOR_FILE))


@lru_cache(maxsize=1)
def default_selector() -> Selector:
    """The selector shipped with chemref (``chemref/questions/data/selector.json``: package data, checked
    against :func:`selector_schema` by the tests rather than on every run, which would compile the schema)."""
    path = shipped_selector_path()
    return Selector.from_dict(json.loads(path.read_text(encoding="utf-8")), path=str(path), checked=True)


# -------------------------------------------------------------------------------------------------- training
def article_of(record_id: str) -> str:
    """The article part of a record id (``<key>-p3-s1`` -> ``<key>``): folds never split an article."""
    match = re.match(r"(.+)-[pc]\d+-s\d+$", record_id)
    return match.group(1) if match else record_id


def _fit(x: Any, y: Any, l2: float, iterations: int = 50) -> tuple[Any, float]:
    """L2-regularised logistic regression by Newton's method (the bias is not penalised)."""
    import numpy as np  # noqa: PLC0415 (numpy, loaded only when this path runs)

    n, d = x.shape
    design = np.hstack([np.ones((n, 1)), x])
    beta = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -35, 35)))
        gradient = design.T @ (p - y) + penalty * beta
        hessian = (design * (p * (1 - p))[:, None]).T @ design + np.diag(penalty) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return beta[1:], float(beta[0])


def _standardise(x: Any) -> tuple[Any, Any]:

    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales == 0] = 1.0
    return means, scales


#: The share of the good candidates the default threshold keeps when the precision target is out of reach.
FALLBACK_GOOD_KEPT = 0.33


def choose_threshold(scores: Sequence[float], good: Sequence[bool], *, min_precision: float = 0.85,
                     min_good_kept: float = 0.6, min_kept: int = 20,
                     fallback_good_kept: float | None = FALLBACK_GOOD_KEPT) -> float:
    """The threshold for ``--min-score``, read off the (cross-validated) precision-yield curve: the lowest
    threshold whose kept set (at least ``min_kept`` items) reaches ``min_precision`` while keeping at least
    ``min_good_kept`` of the good items. When no threshold does (precision first): the highest threshold that
    still keeps ``fallback_good_kept`` of the good items (and at least ``min_kept`` items); with
    ``fallback_good_kept`` None or 0 (``train-selector --fallback-good-kept 0``): the maximum of F0.5
    instead (precision weighted twice as much as the share of good items kept).

    Precision comes first because the figure that counts is the good share of the kept questions on
    articles the selector never saw, and a benchmark builder over PMC has millions of candidates, to whom
    yield is cheap. On a flat curve the F0.5 maximum also sits wherever the noise puts it (0.42-0.49 over
    five fold assignments of the dev labels, keeping about half of the good ones), while the threshold
    that keeps a given share of them is pinned down by many items (a third: 0.57-0.61). On the dev labels,
    keeping a third (0.33) raises the cross-validated good share of the kept questions, after the per-target
    and per-article caps, from 0.643 to 0.686 with fold seed 0 (0.61 to 0.67 over five fold assignments,
    higher for each), for a third fewer questions; the dev build's survival rate (questions per candidate
    sentence) falls from 2.2% to 1.5% (BioChemCite keeps roughly one in twenty)."""
    if fallback_good_kept is not None and not 0.0 <= fallback_good_kept <= 1.0:
        raise ValueError(f"fallback_good_kept must be a share from 0 to 1 (or None), got {fallback_good_kept!r}")
    pairs = sorted(zip(scores, good), key=lambda p: -p[0])
    total_good = sum(1 for _, g in pairs if g)
    need = max(1, math.ceil((fallback_good_kept or 0.0) * total_good - 1e-9))
    reached: float | None = None
    best: tuple[float, float] | None = None
    fallback: float | None = None
    kept_good = 0
    for i, (score, is_good) in enumerate(pairs, start=1):
        kept_good += is_good
        if i < len(pairs) and pairs[i][0] == score:
            continue  # a threshold keeps every item with an equal score
        if i < min_kept:
            continue
        precision = kept_good / i
        recall = kept_good / total_good if total_good else 0.0
        if precision >= min_precision and recall >= min_good_kept:
            reached = score
        if fallback is None and kept_good >= need:
            fallback = score
        if precision + recall > 0:
            f_half = 1.25 * precision * recall / (0.25 * precision + recall)
            if best is None or f_half > best[0]:
                best = (f_half, score)
    if reached is not None:
        return round(reached, 4)
    if fallback_good_kept and fallback is not None:
        return round(fallback, 4)
    return round(best[1], 4) if best else 0.0


#: The share of the good candidates the judge's cascade lets through (``judge prepare``'s default --min-score).
JUDGE_GOOD_KEPT = 0.9


def cascade_threshold(scores: Sequence[float], good: Sequence[bool], share: float = JUDGE_GOOD_KEPT) -> float:
    """The highest threshold whose kept set holds at least ``share`` of the good items (read off the
    cross-validated scores): where the judge's cascade starts, so that the selector passes on nearly every good
    candidate and the judge decides precision."""
    ranked = sorted((score for score, is_good in zip(scores, good) if is_good), reverse=True)
    if not ranked:
        return 0.0
    need = max(1, math.ceil(share * len(ranked) - 1e-9))
    return round(ranked[need - 1], 4)


def _blended_targets(ids: Sequence[str], y: Any, soft: Mapping[str, float], label_weight: float) -> tuple[Any, int]:
    """What :func:`train_selector` fits: the labels, blended with the soft targets where a record has one;
    and how many records have one."""
    import numpy as np  # noqa: PLC0415 (numpy, loaded only when this path runs)

    if label_weight >= 1.0:
        return y, 0
    bad = next((k for k, v in soft.items() if not (isinstance(v, (int, float)) and 0.0 <= v <= 1.0)), None)
    if bad is not None:
        raise InputError(f"the soft target of {bad!r} must be a probability from 0 to 1, got {soft[bad]!r}")
    has = np.array([i in soft for i in ids])
    if not has.any():
        raise InputError("no labelled record has a soft target: the soft targets name other ids",
                         hint="give the judge's responses to the same candidates (custom_id = record id)")
    other = np.array([float(soft.get(i, 0.0)) for i in ids])
    return np.where(has, label_weight * y + (1.0 - label_weight) * other, y), int(has.sum())


#: The records a selector learns from: those it scores in a build (kept, or rejected at a score stage)
#: and those lost only for want of a DOI (a question with ``--answer-key doi-or-pmid``).
TRAINED_ON = (None, "min_findability", "min_score", "per_target_cap", "per_article_cap", "has_doi")


def train_selector(records: Iterable[Mapping[str, Any]], labels: Mapping[str, bool], *, folds: int = 5,
                   seed: int = 0, l2: float = 30.0, version: str = "custom",
                   features: Sequence[str] = DEFAULT_FEATURES,
                   min_precision: float = 0.85, min_good_kept: float = 0.6,
                   fallback_good_kept: float | None = FALLBACK_GOOD_KEPT,
                   soft_targets: Mapping[str, float] | None = None, label_weight: float = 1.0,
                   recalled: Mapping[str, bool | None] | None = None, recalled_target: float = 0.0,
                   progress: Callable[[str], None] | None = None) -> tuple[Selector, dict[str, float]]:
    """Fit a selector on the records that have a ``good_question`` label (true/false; nulls are left
    out) and whose ``reason`` is one of :data:`TRAINED_ON`, on ``features`` (by default
    :data:`DEFAULT_FEATURES`). Returns the selector fitted on all of them and the cross-validated score of every labelled
    record (each scored by a model fitted on the other folds; folds group records by article, assigned
    with ``seed``). The threshold is chosen on the cross-validated scores (:func:`choose_threshold`): the
    lowest reaching ``min_precision`` with ``min_good_kept`` of the good ones kept, else the highest keeping
    ``fallback_good_kept`` of them (None or 0: the F0.5 maximum).

    ``soft_targets`` (id -> a probability that the record is a good question, such as a judge model's
    confidence) with ``label_weight`` below 1: the model is fitted to ``label_weight * label + (1 - label_weight)
    * soft target`` where a record has one (its label alone where not); the cross-validated scores and the
    threshold are still judged against the labels alone.

    ``recalled`` (id -> whether a model names the record's cited work from the excerpt alone:
    :func:`~chemref.questions.closed_book.recall.recalled_records`; ``train-selector --target good-not-recalled``):
    the model is fitted to "good and not recalled" (a recalled record's target is multiplied by
    ``recalled_target``: 0 by default, so a recalled good record counts as not good; 0.5 fits it halfway); every
    record fitted must
    have a known recall (an :class:`InputError` otherwise: an unanswered record is never counted as not
    recalled). The threshold is still chosen against the labels alone, by the same rule, so that the kept set
    keeps the same share of the good candidates."""
    if not re.fullmatch(VERSION_PATTERN, version):
        raise InputError(f"the selector version must be a short token of letters, digits and . _ + - (at most "
                         f"64), got '{printable(version[:80])}'", hint="give --version such as 3 or 2026-12-local")
    import numpy as np  # noqa: PLC0415 (numpy, loaded only when this path runs)

    if not 0.0 <= label_weight <= 1.0 or (label_weight < 1.0 and not soft_targets):
        raise InputError(f"the label weight must be from 0 to 1, and below 1 only with soft targets, got "
                         f"{label_weight!r}", hint="--label-weight 0.25 --soft-labels responses.jsonl, or neither")

    if fallback_good_kept is not None and not 0.0 <= fallback_good_kept <= 1.0:
        raise InputError(f"the share of good ones the fallback threshold keeps must be from 0 to 1, got "
                         f"{fallback_good_kept!r}", hint="--fallback-good-kept 0.33 (the default), or 0 for the F0.5 "
                                                         "maximum")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"the seed must be a whole number from 0, got {seed!r}", hint="--seed 0 (the default)")
    rows = [r for r in records if labels.get(str(r.get("id"))) is not None and r.get("reason") in TRAINED_ON]
    if len(rows) < 20:
        raise InputError(f"need at least 20 labelled records to train a selector, got {len(rows)}")
    ids = [str(r["id"]) for r in rows]
    unknown = sorted(set(features) - set(FEATURES))
    if unknown or not features:
        raise InputError(f"unknown selector features: {', '.join(unknown) or '(none given)'}",
                         hint=f"choose from {', '.join(FEATURES)}")
    features = tuple(features)
    x = np.array([[values[name] for name in features] for values in
                  (selector_features(r, features) for r in rows)], dtype=float)
    y = np.array([1.0 if labels[i] else 0.0 for i in ids])
    if y.min() == y.max():
        raise InputError("the labels hold only one class: a selector needs good and bad examples")
    targets, softened = _blended_targets(ids, y, soft_targets or {}, label_weight)
    if recalled is not None:
        unknown_recall = [i for i in ids if recalled.get(i) is None]
        if unknown_recall:
            raise InputError(f"{len(unknown_recall)} of the {len(ids)} labelled records have no closed-book answer "
                             f"that decides whether they are recalled (first: {unknown_recall[0]!r})",
                             hint="give closed-book answers (every sample usable) for every labelled candidate")
        if not 0.0 <= recalled_target < 1.0:
            raise InputError(f"the target of a recalled record must be from 0 to below 1, got {recalled_target!r}",
                             hint="--recalled-target 0 (the default: recalled counts as not good) or 0.5")
        targets = targets * np.array([recalled_target if recalled[i] else 1.0 for i in ids])
    articles = sorted({article_of(i) for i in ids})
    if isinstance(folds, bool) or not isinstance(folds, int) or folds < 2 or len(articles) < 2:
        raise InputError(f"cannot make {folds!r} cross-validation folds grouped by article from "
                         f"{len(articles)} labelled article(s)", hint="--folds 2 or more, over labels of 2 articles or more")
    if folds > len(articles):  # folds never split an article: one article per fold, said and recorded
        warnings.warn(f"{folds} cross-validation folds asked for, but the labels cover {len(articles)} articles "
                      f"and folds never split one: {len(articles)} folds made (one article each)", UserWarning,
                      stacklevel=2)
        folds = len(articles)
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(articles))
    fold_of = {articles[j]: k % folds for k, j in enumerate(order)}
    fold = np.array([fold_of[article_of(i)] for i in ids])
    cv = np.zeros(len(rows))
    for k in range(folds):
        test = fold == k
        if not test.any() or test.all():
            continue
        means, scales = _standardise(x[~test])
        w, b = _fit((x[~test] - means) / scales, targets[~test], l2)
        cv[test] = 1.0 / (1.0 + np.exp(-(b + ((x[test] - means) / scales) @ w)))
        if progress:
            progress(f"fold {k + 1}/{folds}: {int(test.sum())} records")
    means, scales = _standardise(x)
    w, b = _fit((x - means) / scales, targets, l2)
    cv_scores = {i: round(float(s), 4) for i, s in zip(ids, cv)}
    threshold = choose_threshold(list(cv_scores.values()), [bool(v) for v in y], min_precision=min_precision,
                                 min_good_kept=min_good_kept, fallback_good_kept=fallback_good_kept)
    kept = np.array(list(cv_scores.values())) >= threshold
    target = f"cross-validated precision >= {min_precision} keeping >= {min_good_kept} of the good ones"
    if kept.sum() >= 20 and y[kept].mean() >= min_precision and y[kept].sum() >= min_good_kept * y.sum():
        rule = f"lowest threshold with {target}"
    else:
        fallback_rule = ("maximum of F0.5 on the cross-validated curve" if not fallback_good_kept else
                         f"highest threshold keeping {fallback_good_kept:.3g} of the good ones")
        rule = f"{fallback_rule} (no threshold reaches {target})"
    selector = Selector(
        weights={name: round(float(v), 6) for name, v in zip(features, w)},
        means={name: round(float(v), 6) for name, v in zip(features, means)},
        scales={name: round(float(v), 6) for name, v in zip(features, scales)},
        bias=round(b, 6), threshold=threshold, version=version,
        meta={"trained_on": len(rows), "good": int(y.sum()), "articles": len(articles), "folds": folds,
              "seed": seed, "l2": l2, "model": "logistic regression (Newton, L2 on standardised features)",
              "features": len(features),
              **({"soft_targets": {"label_weight": label_weight, "records": softened}} if softened else {}),
              **({"target": "good and not recalled", "recalled": int(sum(bool(recalled[i]) for i in ids)),
                  "recalled_target": recalled_target} if recalled is not None else {}),
              "threshold_rule": rule,
              "judge_threshold": cascade_threshold(list(cv_scores.values()), [bool(v) for v in y]),
              "judge_threshold_rule": f"highest threshold keeping {JUDGE_GOOD_KEPT:g} of the good ones "
                                      "(cross-validated): where the judge's cascade starts"},
    )
    return selector, cv_scores
