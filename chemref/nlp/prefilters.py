"""Cheap pre-filters read off regular expressions: what every match of a pattern starts with, and how to
search a case-insensitive pattern as a faster case-sensitive one in the lower-cased text.

A search for the literal strings every match starts with (no leading ``\\b``, so re scans for their first
characters at C speed) finds the leftmost place a match can start, or tells that there is none; the
pattern itself then runs from there. :func:`prefilter` builds such a search once per pattern.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = ["Prefilter", "case_partners", "distinct_words", "literal_leads", "lower_pattern", "parsed_leads", "prefilter",
           "starts_at_word_boundary"]

#: More lead strings than this make the search slower than the scan it saves.
_MAX_LEADS = 400
_WORD = re.compile(r"\w+")


def lower_pattern(pattern: str) -> str | None:
    """``pattern`` with its literal letters lower-cased, for a case-sensitive search of the lower-cased text
    that matches exactly where the case-insensitive pattern matches the text; None when that cannot be
    done (a ``(?-i:...)`` group keeps case on purpose; ``\\N{...}`` names are case-sensitive)."""
    if "(?-i" in pattern or "\\N{" in pattern:
        return None
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):  # an escape keeps its letter (\\W is not \\w)
            out.append(pattern[i:i + 2])
            i += 2
            continue
        out.append(ch.lower())
        i += 1
    return "".join(out)


def literal_leads(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """Lower-case literal strings of which every match of ``pattern`` starts with one (a literal run or an
    alternation of them, after any zero-width assertions); None when that cannot be told. The leftmost
    place where one of them occurs (compiled case-insensitively when ``pattern`` is) is a lower bound
    for the first match: a search for them is a cheap pre-filter before the pattern itself."""
    return parsed_leads(pattern, flags)[1]


def parsed_leads(pattern: str, flags: int) -> tuple[Any, frozenset[str] | None]:
    """The parsed ``pattern`` and its :func:`literal_leads`."""
    try:
        from re import _parser as parser  # type: ignore[attr-defined]  # Python >= 3.11
    except ImportError:  # pragma: no cover - older Pythons
        import sre_parse as parser  # type: ignore[no-redef]
    from re import _constants as c  # type: ignore[attr-defined]

    def lead(items: Any) -> frozenset[str] | None:
        """Literal strings one of which every match of ``items`` starts with (None: cannot tell)."""
        items = list(items)
        i = 0
        while i < len(items) and items[i][0] in (c.AT, c.ASSERT, c.ASSERT_NOT):
            i += 1
        run: list[str] = []
        while i < len(items) and items[i][0] is c.LITERAL:
            run.append(chr(items[i][1]).lower())
            i += 1
        head = "".join(run)
        if i == len(items):
            return frozenset([head]) if head else None
        op, value = items[i]
        rest: frozenset[str] | None = None
        if op is c.SUBPATTERN:
            rest = lead(value[-1])
        elif op is c.BRANCH:
            parts = [lead(branch) for branch in value[1]]
            rest = None if any(not part for part in parts) else frozenset().union(*parts)  # type: ignore[arg-type]
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT) and value[0] >= 1:
            rest = lead(value[2])
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT) and i + 1 < len(items):  # optional: through it or past it
            through, past = lead(value[2]), lead(items[i + 1:])
            rest = through | past if through and past else None
        elif op is c.IN and len(value) <= 4 and all(kind is c.LITERAL for kind, _ in value):
            rest = frozenset(chr(code).lower() for _, code in value)  # a small class: [sz]
        if rest is None:
            return frozenset([head]) if head else None
        return frozenset(head + tail for tail in rest)

    parsed = parser.parse(pattern, flags)
    return parsed, lead(parsed)


def starts_at_word_boundary(items: Any) -> bool:
    """The parsed pattern ``items`` starts with ``\\b`` (before any character is consumed)."""
    from re import _constants as c  # type: ignore[attr-defined]

    for op, value in items:
        if op is c.AT and value is c.AT_BOUNDARY:
            return True
        if op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            continue
        if op is c.SUBPATTERN:
            return starts_at_word_boundary(value[-1])
        return False
    return False


def case_partners(chars: set[str]) -> set[str]:
    """Characters a case-insensitive pattern letter also matches beyond plain lower-casing (``s`` matches
    ``ſ``, ``i`` matches ``ı``): a text holding one is searched with the case-insensitive patterns instead."""
    try:
        from re._compiler import _EXTRA_CASES as extra  # type: ignore[import-not-found]  # Python >= 3.11
    except ImportError:  # pragma: no cover - older Pythons
        try:
            from sre_compile import _ignorecase_fixes as extra  # type: ignore[no-redef]
        except ImportError:
            extra = {ord("i"): (0x131,), ord("s"): (0x17F,)}
    return {chr(code) for ch in chars for code in extra.get(ord(ch), ())}


@dataclass(frozen=True)
class Prefilter:
    """The literal strings every match of a pattern starts with, as a search (``leads``), and, when every
    match starts a word (a leading ``\\b``) and the pattern is case-sensitive, the word characters each
    string starts with (``prefixes``)."""

    leads: "re.Pattern[str]"
    prefixes: tuple[str, ...] | None

    def start(self, text: str, words: "frozenset[str] | None" = None) -> int:
        """Where in ``text`` the first match can start at the earliest, or -1 when there can be none.
        ``words`` (the distinct ``\\w+`` words of ``text``, when known) rule a word-start pattern out
        without a scan when no word starts with one of its prefixes."""
        if words is not None and self.prefixes is not None and not any(w.startswith(self.prefixes) for w in words):
            return -1
        first = self.leads.search(text)
        return -1 if first is None else first.start()


def distinct_words(text: str) -> frozenset[str]:
    """The distinct ``\\w+`` words of ``text`` (for :meth:`Prefilter.start`)."""
    return frozenset(_WORD.findall(text))


@lru_cache(maxsize=None)
def prefilter(pattern: "re.Pattern[str]", lower_text: bool = False) -> Prefilter | None:
    """The :class:`Prefilter` of ``pattern``; None when its first strings cannot be told. The strings are
    read lower-cased: this needs a case-insensitive ``pattern``, or one searched in lower-cased text
    (``lower_text``), or one without capitals in its source."""
    if not (lower_text or pattern.flags & re.IGNORECASE or pattern.pattern == pattern.pattern.lower()):
        return None
    parsed, leads = parsed_leads(pattern.pattern, pattern.flags)
    if not leads or len(leads) > _MAX_LEADS:
        return None
    search = re.compile("|".join(map(re.escape, sorted(leads, key=len, reverse=True))),
                        pattern.flags & re.IGNORECASE)
    heads = [_WORD.match(lead) for lead in leads]
    by_words = starts_at_word_boundary(parsed) and all(heads) and not pattern.flags & re.IGNORECASE
    return Prefilter(search, tuple(sorted({h.group(0) for h in heads if h})) if by_words else None)
