"""Section kind normalisation: a title (and ``sec-type``) -> one of :data:`SECTION_KINDS`.

Top-level sections match loosely ("Statistical methods" is methods); nested sections match only
titles that are specific on their own and otherwise inherit their parent's kind.
"""

from __future__ import annotations

import re

__all__ = ["section_kind"]

# A leading number or letter: "1.", "2.3", "II.", "A)", "S1 ".
_NUMBERING = re.compile(r"^\s*(?:(?:\d+|[ivxlc]+|[a-h])(?:\.\d+)*[.):]?\s+|(?:\d+\.)+\d*\s*)", re.I)
_PUNCT = re.compile(r"[\s:.;,*]+$")

# Whole-title rules (after numbering is removed, lower case), first match wins.
_SPECIFIC: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(?:introduction|background|intro|introduction and background|background and introduction)$"),
     "introduction"),
    (re.compile(r"^(?:materials?|patients|subjects|participants|samples|study population|animals)"
                r"(?:\s*(?:and|&)\s*|\s*,\s*)(?:experimental\s+)?(?:methods?|methodology|procedures)$"), "methods"),
    (re.compile(r"^(?:methods?|methodology)(?:\s*(?:and|&)\s*|\s*,\s*)materials?$"), "methods"),
    (re.compile(r"^(?:experimental(?:\s+(?:section|procedures?|details|methods?|part|setup|design|"
                r"approach|protocols?))?|methods?|methodology|online methods|star\s*(?:\u2605|\*)?\s*methods|"
                r"computational (?:methods?|details|procedures?)|methods? (?:and|&) (?:procedures|analysis)|"
                r"experimental and computational (?:methods?|details)|general (?:methods|procedures?))$"),
     "methods"),
    (re.compile(r"^(?:materials?|reagents?|chemicals?|materials? and (?:reagents?|chemicals?|equipment|"
                r"instruments?|instrumentation)|reagents? and (?:materials?|chemicals?)|chemicals? and "
                r"(?:reagents?|materials?)|key resources table)$"), "materials"),
    (re.compile(r"^(?:protocols?|experimental protocols?|detailed protocols?)$"), "protocol"),
    (re.compile(r"^(?:results?|results? (?:and|&) discussions?|findings|experimental results|results? and "
                r"analysis)$"), "results"),
    (re.compile(r"^(?:discussions?|general discussion|discussion and conclusions?|discussions? (?:and|&) "
                r"outlook)$"), "discussion"),
    (re.compile(r"^(?:conclusions?|concluding remarks|summary|summary and conclusions?|conclusions? (?:and|&) "
                r"(?:outlook|perspectives?|future (?:work|directions|perspectives?))|outlook|perspectives?|"
                r"summary and outlook|final remarks|closing remarks)$"), "conclusions"),
]
# Looser rules for top-level sections only.
_LOOSE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^introduction\b"), "introduction"),
    (re.compile(r"\bmethod|\bmethodolog|^experimental\b"), "methods"),
    (re.compile(r"^(?:materials?|reagents?|chemicals?)\b"), "materials"),
    (re.compile(r"^protocols?\b"), "protocol"),
    (re.compile(r"^results?\b"), "results"),
    (re.compile(r"^discussion\b"), "discussion"),
    (re.compile(r"^conclu|^concluding\b|^summary\b"), "conclusions"),
]
# ``sec-type`` values (JATS suggested values and what PMC uses).
_SEC_TYPES = {
    "intro": "introduction", "introduction": "introduction", "background": "introduction",
    "results": "results", "results|discussion": "results", "discussion": "discussion",
    "conclusions": "conclusions", "conclusion": "conclusions", "methods": "methods",
    "materials|methods": "methods", "materials and methods": "methods", "methods|materials": "methods",
    "materials": "materials", "subjects": "methods", "cases": "other", "protocol": "protocol",
}


def _normalise(title: str) -> str:
    title = _NUMBERING.sub("", title.strip(), count=1)
    return _PUNCT.sub("", title).strip().lower()


def section_kind(title: str | None, sec_type: str | None = None, parent: str | None = None) -> str:
    """The normalised kind of a section; ``parent`` is the enclosing section's kind (None at top level)."""
    text = _normalise(title or "")
    if text:
        for pattern, kind in _SPECIFIC:
            if pattern.match(text):
                return kind
    if sec_type:
        typed = _SEC_TYPES.get(sec_type.strip().lower())
        if typed and typed != "other":
            return typed
    if parent is not None and parent != "other":
        return parent
    if text:
        for pattern, kind in _LOOSE:
            if pattern.search(text):
                return kind
    return "other"
