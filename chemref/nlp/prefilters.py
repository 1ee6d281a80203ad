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

try:
    from re import _constants as _c  # type: ignore[attr-defined]  # Python >= 3.11
    from re import _parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - older Pythons
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _parser  # type: ignore[no-redef]
# the characters re.IGNORECASE matches beyond lower-casing, by the code of the letter in the pattern
try:
    from re._compiler import _EXTRA_CASES  # type: ignore[import-not-found]  # Python >= 3.11
except ImportError:  # pragma: no cover - older Pythons
    try:
        from sre_compile import _ignorecase_fixes as _EXTRA_CASES  # type: ignore[attr-defined, no-redef]
    except ImportError:
        _EXTRA_CASES = {ord("i"): (0x131,), ord("s"): (0x17F,)}

__all__ = ["LONG_TEXT", "Prefilter", "Words", "case_partners", "lower_view", "distinct_words", "literal_leads", "lower_pattern",
           "needed_strings", "parsed_leads", "prefilter", "starts_at_word_boundary"]

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
    lowered = "".join(out)
    if _NEEDS_CHECK.search(pattern) is None and not any(map(_may_hold_capitals, _DASHED.findall(pattern))) and (
            pattern.isascii() or not any(ch.lower() != ch or ch.upper() != ch for ch in pattern if ch > "\x7f")):
        return lowered  # no character by code, no flags taken away, no range that may hold a capital, no cased non-ASCII
    try:
        same = _lowers_to(_parser.parse(pattern, re.IGNORECASE), _parser.parse(lowered))
    except (re.error, RecursionError):
        return None
    return lowered if same else None


#: What may make the lower-cased text of a pattern mean something else (then the parsed patterns are compared):
#: a character given by code, flags taken away (and a class range that may hold a capital, a cased non-ASCII letter).
_NEEDS_CHECK = re.compile(r"\\[xuUN0-7]|\(\?[a-zA-Z]*-")
_DASHED = re.compile(r"(?s)(?=(.)-([^\]]))")  # (the characters on either side of every dash but a class's last)


def _may_hold_capitals(ends: tuple[str, str]) -> bool:
    """A class range with these ends (if the dash makes one) may hold a capital or a letter beyond ASCII."""
    first, last = ends
    return "\\" in ends or not (first + last).isascii() or (first <= "Z" and last >= "A")


def _lowers_to(original: Any, lowered: Any) -> bool:
    """The parsed ``lowered`` is the parsed case-insensitive ``original`` with each character lower-cased: the same
    tree, each literal its one-character lower case, each class range the lower case of its characters (a
    character given by code, ``\\xC9``, is not lowered in the text of a pattern; ``(?s-i:...)`` keeps case; a
    range such as ``[A-z]`` holds other characters once lowered; σ and ς are told apart by str.lower() alone)."""
    if isinstance(original, _parser.SubPattern) or isinstance(lowered, _parser.SubPattern):
        return (isinstance(original, _parser.SubPattern) and isinstance(lowered, _parser.SubPattern)
                and _lowers_to(original.data, lowered.data))
    if isinstance(original, (list, tuple)):
        if not isinstance(lowered, (list, tuple)) or len(original) != len(lowered):
            return False
        if len(original) == 2 and original[0] is lowered[0]:
            op = original[0]
            if op is _c.LITERAL or op is _c.NOT_LITERAL:
                return _lower_char(original[1]) == lowered[1]
            if op is _c.RANGE:
                return _lower_range(original[1], lowered[1])
            if op is _c.SUBPATTERN and original[1][2] & re.IGNORECASE:
                return False  # (?-i:...) in any spelling: case kept on purpose
        return all(_lowers_to(a, b) for a, b in zip(original, lowered))
    return bool(original == lowered)


def _lower_char(code: int) -> int | None:
    """The lower case of a pattern's character, if the case-free pattern keeps its matches: not σ or ς, nor a
    letter whose case partner other letters lower-case to (``ϑ`` matches ``Θ``, which lowers to ``θ``)."""
    low = chr(code).lower()
    if len(low) != 1 or low in "\u03c2\u03c3":
        return None
    for partner in case_partners({low}):
        if any(len(u) == 1 and u != partner and u.lower() == partner for u in {partner.upper(), partner.title()}):
            return None
    return ord(low)


#: Case partners beyond lower-casing that every caller tests texts for (``ı``, ``ſ``): a class range may hold
#: their letters; any other partner (``θ``: ``ϑ``) inside a range is not tested for.
_TESTED_PARTNERS = frozenset("is")


def _lower_range(original: tuple[int, int], lowered: tuple[int, int]) -> bool:
    """The characters of the range ``lowered`` that are their own lower case are exactly the lower cases of the
    characters of ``original``, none of which has an untested case partner."""
    if original[1] - original[0] > 5000 or lowered[1] - lowered[0] > 5000 or max(original[1], lowered[1]) > 0xFFFF:
        return False
    low = {chr(code).lower() for code in range(original[0], original[1] + 1)}
    if any(len(ch) != 1 for ch in low) or low & {"\u03c2", "\u03c3"} or case_partners(low - _TESTED_PARTNERS):
        return False
    return {ch for ch in map(chr, range(lowered[0], lowered[1] + 1)) if ch.lower() == ch} == low


def literal_leads(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """Lower-case literal strings of which every match of ``pattern`` starts with one (a literal run or an
    alternation of them, after any zero-width assertions); None when that cannot be told. The leftmost
    place where one of them occurs (compiled case-insensitively when ``pattern`` is) is a lower bound
    for the first match: a search for them is a cheap pre-filter before the pattern itself."""
    return parsed_leads(pattern, flags)[1]


def parsed_leads(pattern: str, flags: int, fold: bool = True) -> tuple[Any, frozenset[str] | None]:
    """The parsed ``pattern`` and its :func:`literal_leads` (as written when not ``fold``)."""
    parsed = _parser.parse(pattern, flags)
    return parsed, _lead(parsed, fold)


def needed_strings(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """Lower-case literal strings of which every match of ``pattern`` holds one somewhere (the longest that
    can be told: in ``\\d\\s*ppm|cm-1`` "ppm" or "cm"); None when that cannot be told. A text holding none
    of them has no match (compiled case-insensitively when ``pattern`` is)."""
    return _needed(_parser.parse(pattern, flags))


def _lead(items: Any, fold: bool = True) -> frozenset[str] | None:
    """Literal strings one of which every match of ``items`` starts with (None: cannot tell); lower-cased
    when ``fold``: the run of literals after any zero-width assertions, then the leads of what follows it."""
    items = _items(items)
    i = 0
    while i < len(items) and items[i][0] in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
        i += 1
    run: list[str] = []
    while i < len(items) and items[i][0] is _c.LITERAL:
        run.append(_fold(items[i][1]) if fold else chr(items[i][1]))
        i += 1
    head = "".join(run)
    rest = _lead_after(items, i, fold) if i < len(items) else None
    if rest is None:
        return frozenset([head]) if head else None
    return frozenset(head + tail for tail in rest)


def _lead_after(items: list, i: int, fold: bool) -> frozenset[str] | None:
    """The leads of ``items[i:]``, whose first item is no literal: a group, a branch, a repeat or a small
    class ("[sz]"); None for anything else."""
    op, value = items[i]
    if op is _c.SUBPATTERN:
        return _lead(value[-1], fold)
    if op is _c.BRANCH:
        parts = [_lead(branch, fold) for branch in value[1]]
        return None if any(not part for part in parts) else frozenset().union(*parts)  # type: ignore[arg-type]
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
        if value[0] >= 1:
            return _lead(value[2], fold)
        if i + 1 < len(items):  # optional: through it or past it
            through, past = _lead(value[2], fold), _lead(items[i + 1:], fold)
            return through | past if through and past else None
        return None
    if op is _c.IN and len(value) <= 4 and all(kind is _c.LITERAL for kind, _ in value):
        return frozenset(_fold(code) if fold else chr(code) for _, code in value)
    return None


def _fold(code: int) -> str:
    """The one character re.IGNORECASE compares a pattern's character by: its lower case ("İ", whose lower case
    is two characters, by its first, "i")."""
    return chr(code).lower()[0]


def _needed(items: Any, fold: bool = True) -> frozenset[str] | None:
    """Literal strings one of which every match of ``items`` holds: the leads of a suffix of the sequence,
    or what every branch of a group it must pass through holds; the set whose shortest string is longest
    (then the smallest set)."""
    items = _items(items)
    best: frozenset[str] | None = None
    for j, (op, value) in enumerate(items):
        if op is _c.LITERAL and j and items[j - 1][0] is _c.LITERAL:
            continue  # inside a run of literals: the leads from its start are the same strings, each longer
        found = [_lead(items[j:], fold)]
        if op is _c.SUBPATTERN:
            found.append(_needed(value[-1], fold))
        elif op is _c.BRANCH:
            parts = [_needed(branch, fold) for branch in value[1]]
            found.append(None if any(not part for part in parts)
                         else frozenset().union(*parts))  # type: ignore[arg-type]
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT) and value[0] >= 1:
            found.append(_needed(value[2], fold))
        for strings in found:
            if strings and (best is None or _rank(strings) > _rank(best)):
                best = strings
    return best


def _items(items: Any) -> list[Any]:
    """The items of a parsed (sub)pattern as a list (a SubPattern's own list, not copied item by item)."""
    return items.data if isinstance(items, _parser.SubPattern) else list(items)


def _rank(strings: frozenset[str]) -> tuple[int, int]:
    """The better pre-filter: the longer shortest string, then fewer strings."""
    return min(map(len, strings)), -len(strings)


def starts_at_word_boundary(items: Any) -> bool:
    """The parsed pattern ``items`` starts with ``\\b`` (before any character is consumed)."""
    for op, value in items:
        if op is _c.AT and value is _c.AT_BOUNDARY:
            return True
        if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
            continue
        if op is _c.SUBPATTERN:
            return starts_at_word_boundary(value[-1])
        return False
    return False


#: From this length on, a text is searched behind the pre-filters, with its distinct words collected (on a
#: shorter one they cost more than the scan they save).
LONG_TEXT = 2000


def lower_view(text: str, apart: "re.Pattern[str]") -> str | None:
    """``text.lower()`` when lower-case patterns match it exactly where the case-insensitive ones match
    ``text``: the same length, and none of the characters ``apart`` (those the patterns' letters match beyond
    lower-casing, :func:`case_partners`); else None."""
    lower = text.lower()
    if len(lower) != len(text) or apart.search(text):
        return None
    return lower


def case_partners(chars: set[str]) -> set[str]:
    """Characters a case-insensitive pattern letter also matches beyond plain lower-casing (``s`` matches
    ``ſ``, ``i`` matches ``ı``): a text holding one is searched with the case-insensitive patterns instead."""
    return {chr(code) for ch in chars for code in _EXTRA_CASES.get(ord(ch), ())}


class Words:
    """The distinct ``\\w+`` words of a text, as a set and joined into one string (for :meth:`Prefilter.start`)."""

    __slots__ = ("set", "joined")

    def __init__(self, text: str) -> None:
        self.set = frozenset(_WORD.findall(text))
        self.joined = " ".join(self.set)


def distinct_words(text: str) -> Words:
    """The :class:`Words` of ``text``."""
    return Words(text)


@dataclass(frozen=True)
class Prefilter:
    """A search for literal strings of which every match of a pattern holds one (``search``): the strings
    every match starts with when they can be told (``bounds``: the first found is where the first match can
    start at the earliest), else strings it holds somewhere. For a case-sensitive pattern (or the case-free
    form of one, on lower-cased text), the tests on the words of the text: ``prefixes`` when every match
    starts a word (a leading ``\\b``), the word characters each of the strings starts with; ``held``,
    the word characters each of the strings every match holds starts with (each lies inside a word)."""

    search: "re.Pattern[str]"
    bounds: bool
    prefixes: tuple[str, ...] | None = None
    #: longer strings every match holds somewhere, tried first when the ``search`` strings are shorter
    needs: "re.Pattern[str] | None" = None
    held: tuple[str, ...] | None = None

    def start(self, text: str, words: Words | None = None) -> int:
        """Where in ``text`` the first match can start at the earliest, or -1 when there can be none.
        ``words`` (the :class:`Words` of ``text``, when known) rule the pattern out without a scan of
        ``text`` when no word starts with one of its ``prefixes`` or holds one of the ``held`` strings."""
        if words is not None:
            if self.prefixes is not None and not any(w.startswith(self.prefixes) for w in words.set):
                return -1
            if self.held is not None and not any(s in words.joined for s in self.held):
                return -1
        if self.needs is not None and self.needs.search(text) is None:
            return -1
        first = self.search.search(text)
        if first is None:
            return -1
        return first.start() if self.bounds else 0


@lru_cache(maxsize=None)
def prefilter(pattern: "re.Pattern[str]", lower_text: bool = False) -> Prefilter | None:
    """The :class:`Prefilter` of ``pattern``; None when no string can be told. The strings are lower-cased
    for a case-insensitive ``pattern`` or one searched in lower-cased text (``lower_text``), else as written."""
    fold = lower_text or bool(pattern.flags & re.IGNORECASE)
    parsed, leads = parsed_leads(pattern.pattern, pattern.flags, fold)
    bounds = bool(leads) and len(leads) <= _MAX_LEADS  # type: ignore[arg-type]
    strings = leads if bounds else _needed(parsed, fold)
    if not strings or len(strings) > _MAX_LEADS:
        return None
    cased = not pattern.flags & re.IGNORECASE
    needs = _longer_needs(parsed, fold, strings) if bounds else None
    inside = needs if needs is not None else None if bounds else strings
    prefixes = _word_runs(strings) if bounds and cased and starts_at_word_boundary(parsed) else None
    held = _word_runs(inside) if inside and cased else None
    return Prefilter(_search(strings, pattern.flags), bounds, prefixes,
                     _search(needs, pattern.flags) if needs else None, held)


def _longer_needs(parsed: Any, fold: bool, strings: frozenset[str]) -> frozenset[str] | None:
    """The strings every match holds (:func:`_needed`) when they are few and longer than the ``strings``
    every match starts with, else None."""
    needs = _needed(parsed, fold)
    if needs is not None and (len(needs) > _MAX_LEADS or min(map(len, needs)) <= min(map(len, strings))):
        return None
    return needs


def _word_runs(strings: frozenset[str]) -> tuple[str, ...] | None:
    """The word characters each of ``strings`` starts with, sorted; None when one starts with another
    character."""
    runs = [_WORD.match(x) for x in strings]
    if not all(runs):
        return None
    return tuple(sorted({run.group(0) for run in runs}))  # type: ignore[union-attr]


def _search(strings: frozenset[str], flags: int) -> "re.Pattern[str]":
    """A search for any of the lower-case ``strings`` (case-insensitive when ``flags`` say so), written as a
    trie ("d(?:emonstrate|iscover)" rather than "demonstrate|discover": re tries far fewer branches at each
    place of the text; it matches the same strings, so the first match starts at the same place)."""
    trie = _trie(strings)
    if trie is None:  # nested too deeply for re's parser: the plain alternation
        trie = "|".join(map(re.escape, sorted(strings, key=len, reverse=True)))
    return re.compile(trie, flags & re.IGNORECASE)


#: A trie regex nests a group at each place where strings part: past this many, the plain alternation.
_MAX_TRIE_DEPTH = 40
#: The trie is built one call per character: a string longer than this gets the plain alternation (Python's
#: stack would not hold the calls of a string of a thousand characters).
_MAX_TRIE_STRING = 200


def _trie(strings: frozenset[str]) -> str | None:
    """The alternation of ``strings`` as a regex trie (None when it would nest groups past _MAX_TRIE_DEPTH or a
    string is longer than _MAX_TRIE_STRING)."""
    if any(len(string) > _MAX_TRIE_STRING for string in strings):
        return None
    root: dict[str, Any] = {}
    for string in strings:
        node = root
        for ch in string:
            node = node.setdefault(ch, {})
        node[""] = {}  # a string ends here
    return _trie_node(root, 0)


def _trie_node(node: dict[str, Any], depth: int) -> str | None:
    """The regex of the strings below ``node`` of a trie (children in sorted order)."""
    alternatives = []
    for ch in sorted(node):
        if ch:
            rest = _trie_node(node[ch], depth + (len(node) > 1))
            if rest is None:
                return None
            alternatives.append(re.escape(ch) + rest)
    if not alternatives:
        return ""
    if len(alternatives) == 1 and "" not in node:
        return alternatives[0]
    if depth >= _MAX_TRIE_DEPTH:
        return None
    return "(?:" + "|".join(alternatives) + (")?" if "" in node else ")")
