"""Author-mention detection in citing sentences ("Li et al.", "the group of X", a cited surname left in the text).

Pure functions (no spaCy) for the question builder's fast path; the spaCy component
``chemref_author_mentions`` is :mod:`chemref.nlp.components.author_mentions`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from operator import sub
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from chemref.errors import InputError
from chemref.nlp.wordlists import REPORTING_VERBS, particle_pattern

__all__ = [
    "AuthorMention", "AuthorRules", "DEFAULT_RULES", "PATTERNS", "TABLE_FILES",
    "find_author_mentions", "cited_author_mentions", "named_author_mentions", "mask_author_mentions",
    "load_author_tables",
]

#: Labels of :attr:`AuthorMention.pattern`, most specific first.
PATTERNS = ("et_al", "coworkers", "group_of", "consortium", "ampersand", "and", "possessive", "surname")

#: Rule tables (JSON, under ``chemref/nlp/data/``): key in :class:`AuthorRules` -> (file name, JSON field).
TABLE_FILES: dict[str, tuple[str, str]] = {
    "stopwords": ("authors_stopwords.json", "words"),
    "eponyms": ("authors_eponyms.json", "names"),
    "eponym_heads": ("authors_eponym_heads.json", "heads"),
    "elements": ("authors_elements.json", "symbols"),
    "chem_groups": ("authors_chem_groups.json", "names"),
    "companies": ("authors_companies.json", "names"),
}


@dataclass(frozen=True, slots=True)
class AuthorMention:
    """One author mention: ``text == source[start:end]``; ``name`` is the surname or collaboration matched.

    ``name_spans`` holds the offsets of the name(s) inside the source (two for "X and Y"), used by
    :func:`mask_author_mentions` to replace names only and keep "et al.", "'s", "the group of".
    """

    start: int
    end: int
    text: str
    name: str | None
    pattern: str
    name_spans: tuple[tuple[int, int], ...] = ()


# --------------------------------------------------------------------------------------------------
# Regular expressions (compiled once).
_PARTICLE = particle_pattern()
# A surname: optional particles, a capitalised word (O'Brien, D'Amico), optionally hyphenated (Smith-Jones).
# (The run of letters is possessive: what follows a name in every pattern never starts with a letter or digit,
# so giving letters back could not make a match; it only cost a failed try per letter at each word.)
_WORD = r"[^\W\d_](?:['’](?=[^\W\d_]{2}))?[^\W_]*+"
_NAME = rf"(?:{_PARTICLE}\s+){{0,3}}{_WORD}(?:[-‐]{_WORD})?"
_N1 = rf"(?P<n1>{_NAME})"
_N2 = rf"(?P<n2>{_NAME})"
_VERB = "|".join(REPORTING_VERBS)
_REPORT_VERBS = _VERB + r"|recently|first|also|further|later|have|had|were|was|who|in\s+their|in\s+(?:19|20)\d\d"
_YEAR_CUE = r"\s*(?:\(\s*(?:19|20)\d\d[a-z]?\b|,?\s*(?:19|20)\d\d[a-z]?\b|\[\s*(?:\d|CIT))"
_CUE_AFTER = rf"(?={_YEAR_CUE}|['’]s?\b|\s+et\s*al\b|\s+(?:{_REPORT_VERBS})\b)"

_ET_AL = re.compile(rf"(?<![\w'’]){_N1}\s*,?\s+et\.?\s*al(?:ii|ia)?\b\.?")
_COWORKERS = re.compile(
    rf"(?<![\w'’]){_N1}\s+(?:and|&|with)\s+(?:(?:his|her|their|its)\s+)?"
    r"(?:co-?workers|colleagues|collaborators|associates|co-?authors|team|students|group)\b"
)
_GROUP_OF = re.compile(
    r"\b(?:[Tt]he\s+)?(?:research\s+)?(?:groups?|laborator(?:y|ies)|labs?|teams?)\s+(?:of|led\s+by|headed\s+by)\s+"
    rf"(?:(?:Prof(?:essor)?|Dr)\.?\s+){{0,2}}(?:[A-Z]\.\s*){{0,2}}{_N1}(?:\s+(?!and\b)(?P<last>{_WORD}(?:[-‐]{_WORD})?)(?=\W|$))?"
    rf"(?:\s+(?:and|&)\s+{_N2})?"
)
_THE_X_GROUP = re.compile(rf"\b[Tt]he\s+{_N1}\s+(?P<kind>research\s+group|group|lab|laboratory|team)\b")
_COWORKER_KEYS = ("worker", "colleague", "collaborator", "associate", "author", "team", "student", "group")
_CONSORTIUM_KEYS = ("Consortium", "Collaborat", "Group", "Investigators", "Committee", "Team")
_POSSESSIVE = re.compile(rf"(?<![\w'’]){_N1}(?P<poss>['’]s|(?<=s)['’])(?![\w'’])(?:\s+(?P<head>[\w-]+))?")
_AND = re.compile(rf"(?<![\w'’]){_N1}\s+(?P<conj>and|&)\s+{_N2}(?![\w'’]){_CUE_AFTER}")
_AND_NOCUE = re.compile(rf"(?<![\w'’]){_N1}\s+(?P<conj>and)\s+{_N2}(?![\w'’])")
_AMP = re.compile(rf"(?<![\w'’]){_N1}\s*&\s*{_N2}(?![\w'’])")
_BY_AND = re.compile(rf"\bby\s+{_N1}\s+(?:and|&)\s+{_N2}(?![\w'’])")
_CONSORTIUM = re.compile(
    r"(?:\b[Tt]he\s+)?(?P<n1>(?:(?:[A-Z0-9][\w\-]*|of|for|and|on|in)\s+){0,7}?"
    r"(?:Consortium|Collaboration|Collaborative\s+Group|Study\s+Group|Working\s+Group|Research\s+Group|"
    r"Investigators|Writing\s+Committee|Steering\s+Committee|Project\s+Team|Study\s+Team))\b"
)
_COLLAB_WORDS = frozenset(
    "Consortium Collaboration Collaborative Group Study Working Research Investigators Writing Committee "
    "Steering Project Team Network International Genome Genomes Sequencing Human the The of for and on in".split()
)
_COLLAB_MARKERS = frozenset(
    "Consortium Collaboration Collaborative Group Committee Investigators Network Project Team Panel Initiative "
    "Study Working Society Association Organization Organisation Agency Authority Council".split()
)
_STRONG_CUE = re.compile(rf"{_YEAR_CUE}|\s+et\s*al\b")
# What follows the first name in the patterns that start with one (a name may start at nearly every word, so
# the pattern is tried at each): the same regex as the pattern's rest, which starts with a word re finds at C
# speed. A text without a match of it has no match of the pattern either, and the pattern is not run.
_ET_AL_REST = re.compile(r"et\.?\s*al(?:ii|ia)?\b")
_COWORKERS_REST = re.compile(
    r"(?:and|&|with)\s+(?:(?:his|her|their|its)\s+)?"
    r"(?:co-?workers|colleagues|collaborators|associates|co-?authors|team|students|group)\b"
)
_POSSESSIVE_REST = re.compile(r"(?:['’]s|(?<=s)['’])(?![\w'’])")
_AND_REST = re.compile(rf"(?:and|&)\s+{_NAME}(?![\w'’]){_CUE_AFTER}")


def _data_dir() -> Path:
    return Path(str(resources.files("chemref.nlp") / "data"))


def load_author_tables(directory: str | Path | None = None) -> dict[str, list[str]]:
    """Read the ``authors_*.json`` rule tables (from the package, or from ``directory``)."""
    base = Path(directory) if directory is not None else _data_dir()
    tables: dict[str, list[str]] = {}
    for key, (file_name, field_name) in TABLE_FILES.items():
        path = base / file_name
        with path.open(encoding="utf-8") as handle:
            data = json.load(handle)
        if not isinstance(data, dict) or not isinstance(data.get(field_name), list):
            raise InputError(f"rule table has no list {field_name!r}", path=str(path),
                             hint=f"expected a JSON object with a {field_name!r} list of strings")
        tables[key] = [str(item) for item in data[field_name]]
    return tables


def _fold(text: str) -> str:
    """ASCII-fold diacritics (Müller -> Muller) for surname variants: the NFKD form without its combining marks
    (each distinct character of the text is tested once, not each character)."""
    normal = unicodedata.normalize("NFKD", text)
    if normal.isascii():
        return normal
    marks = {ord(c): None for c in set(normal) if unicodedata.combining(c)}
    return normal.translate(marks) if marks else normal


def _core(name: str) -> str:
    """The surname without leading particles ("van der Waals" -> "Waals")."""
    return name.split()[-1] if name else name


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _whole_word_starts(form: str, text: str) -> list[int]:
    """The starts of the occurrences of ``form`` in ``text`` as a whole word (not inside a longer word, as
    ``(?<!\\w)`` and ``(?!\\w)`` tell: :func:`_is_word_char`), overlapping ones included; found with str.find
    (a regex per surname cost more to compile than to run)."""
    starts: list[int] = []
    size, length = len(form), len(text)
    at = text.find(form)
    while at >= 0:
        end = at + size
        if (at == 0 or not _is_word_char(text[at - 1])) and (end >= length or not _is_word_char(text[end])):
            starts.append(at)
        at = text.find(form, at + 1)
    return starts


@lru_cache(maxsize=4096)
def _surname_variants(surnames: tuple[str, ...]) -> tuple[frozenset[str], tuple[str, ...]]:
    """(all names to compare pattern names against, long names to search as whole words)."""
    compare: set[str] = set()
    search: set[str] = set()
    for raw in surnames:
        name = " ".join(str(raw).split())
        if not name:
            continue
        forms = {name, name[0].upper() + name[1:]}
        if name.isupper() and len(name) > 1:  # "SMITH" in some reference lists
            forms.add(name.title())
        forms |= {_fold(f) for f in forms}
        words = name.split()
        if len(words) > 1 and any(w in _COLLAB_MARKERS for w in words):
            # a collaboration: its acronym-like key tokens count too ("ENCODE", "GTEx", "EFSA")
            for word in words:
                word = word.strip("()[],;:")
                if word not in _COLLAB_WORDS and len(word) >= 3 and sum(c.isupper() for c in word) >= 2:
                    forms.add(word)
        compare |= forms
        search |= {f for f in forms if len(f) >= 3}
    return frozenset(compare), tuple(sorted(search, key=len, reverse=True))


class AuthorRules:
    """The compiled author-mention rules; built once from the JSON tables."""

    def __init__(self, tables: Mapping[str, Iterable[str]]) -> None:
        self.tables = {key: sorted(set(tables.get(key, ()))) for key in TABLE_FILES}
        self.stopwords = frozenset(self.tables["stopwords"])
        self.eponyms = frozenset(self.tables["eponyms"])
        self.eponym_heads = frozenset(h.lower() for h in self.tables["eponym_heads"])
        self.elements = frozenset(self.tables["elements"])
        self.chem_groups = frozenset(self.tables["chem_groups"])
        self.companies = frozenset(self.tables["companies"])

    @classmethod
    def default(cls) -> "AuthorRules":
        """Rules from the packaged tables."""
        return cls(load_author_tables())

    # ---------------------------------------------------------------------------------------------
    def _plausible(self, name: str, cited: frozenset[str]) -> bool:
        """A capitalised surname-like word that is not a function word, acronym or company."""
        if name in cited or _core(name) in cited:
            return True
        core = _core(name)
        if not core or not core[0].isupper() or any(c.isdigit() for c in core):
            return False
        if len(core) < 2 or (core.isupper() and len(core) > 1):  # R&D; DNA, RNA, NMR
            return False
        if sum(c.isupper() for c in core) > 2:  # CamelCase product names (ChemDraw is 2; MeOH-like skip)
            return False
        if len(core) > 2 and core.endswith("s") and core[:-1].isupper():  # plural acronyms: DCs, MOFs
            return False
        if len(core) > 1 and core[-1].isupper():  # gene and protein names: ErbB, LipH
            return False
        return core not in self.stopwords and name not in self.stopwords and name not in self.companies

    def _candidates(self, text: str, cited: frozenset[str]) -> list[_Raw]:
        """The matches of every author-mention pattern in ``text``, pattern by pattern (each only when its cue
        word occurs); ``cited``: the cited names (and their cores)."""
        out: list[_Raw] = []
        add = _adder(text, cited, out.append)
        if "et" in text and _ET_AL_REST.search(text):
            self._et_al(text, cited, out.append)
        lowered = text.lower()
        if any(k in lowered for k in _COWORKER_KEYS) and _COWORKERS_REST.search(text):
            for m in _COWORKERS.finditer(text):
                if self._plausible(m.group("n1"), cited):
                    add(m, "coworkers")
        if any(k in lowered for k in ("group", "lab", "team")):
            self._groups(text, cited, add)
        if ("'" in text or "’" in text) and _POSSESSIVE_REST.search(text):
            self._possessives(text, cited, add)
        if "&" in text:
            self._ampersands(text, cited, add)
        if " and " in text:
            self._ands(text, cited, add)
        if any(k in text for k in _CONSORTIUM_KEYS):
            for m in _CONSORTIUM.finditer(text):
                name = m.group("n1").strip()
                if name.split()[0][:1].isupper() or _numbered_collaboration(name):
                    add(m, "consortium", start=m.start(), end=m.end())
        return out

    def _et_al(self, text: str, cited: frozenset[str], append: Callable[[_Raw], None]) -> None:
        plausible: dict[str, bool] = {}  # (per name: a long text names the same people again and again)
        for m in _ET_AL.finditer(text):
            name = m.group("n1")
            ok = plausible.get(name)
            if ok is None:
                ok = plausible[name] = self._plausible(name, cited)
            if ok or (len(name) <= 2 and name[:1].isupper()):
                append((m.start(), m.end(), name, "et_al", (m.span("n1"),)))  # (add(m, "et_al") inline)

    def _groups(self, text: str, cited: frozenset[str], add: _Add) -> None:
        for m in _GROUP_OF.finditer(text):
            if self._plausible(m.group("n1"), cited):
                ok_n2 = m.group("n2") and self._plausible(m.group("n2"), cited)
                last = m.group("last")
                full = last is not None and last[:1].isupper() and self._plausible(last, cited)
                first = ("n1", "last") if full else ("n1",)  # "led by Jarone Pinhassi": given name and surname
                add(m, "group_of", first + ("n2",) if ok_n2 else first,
                    end=None if ok_n2 else m.end("last" if full else "n1"))
        for m in _THE_X_GROUP.finditer(text):
            name = m.group("n1")
            if name in cited or (m.group("kind") != "group" and self._plausible(name, cited)
                                 and name not in self.chem_groups and name not in self.elements
                                 and name not in self.eponyms and len(name) >= 3):
                add(m, "group_of")

    def _possessives(self, text: str, cited: frozenset[str], add: _Add) -> None:
        for m in _POSSESSIVE.finditer(text):
            name = m.group("n1")
            head = (m.group("head") or "").lower()
            if name in cited or _core(name) in cited:
                add(m, "possessive", end=m.end("poss"))
                continue
            if not self._plausible(name, cited) or name in self.elements:
                continue
            if head in self.eponym_heads or (name in self.eponyms and head not in _WORK_HEADS):
                continue
            add(m, "possessive", end=m.end("poss"))

    def _ampersands(self, text: str, cited: frozenset[str], add: _Add) -> None:
        for m in _AMP.finditer(text):
            n1, n2 = m.group("n1"), m.group("n2")
            pair = f"{n1} & {n2}"
            if pair in self.companies or n1 in self.companies or n2 in self.companies:
                if not (n1 in cited or n2 in cited):
                    continue
            if self._plausible(n1, cited) and self._plausible(n2, cited) and self._pair_ok(m, text, cited):
                add(m, "ampersand", ("n1", "n2"))

    def _ands(self, text: str, cited: frozenset[str], add: _Add) -> None:
        for rx in ((_AND, _BY_AND, _AND_NOCUE) if cited else (_AND, _BY_AND)):
            if rx is _AND and not _AND_REST.search(text):
                continue
            for m in rx.finditer(text):
                if m.groupdict().get("conj") == "&":
                    continue
                n1, n2 = m.group("n1"), m.group("n2")
                if rx is _AND_NOCUE and not (n1 in cited and n2 in cited):
                    continue  # without a cue, "X and Y" counts only when both are cited names
                if self._plausible(n1, cited) and self._plausible(n2, cited) and self._pair_ok(m, text, cited):
                    start = m.start("n1")
                    add(m, "and", ("n1", "n2"), start=start, end=m.end("n2"))

    def _pair_ok(self, m: re.Match[str], text: str, cited: frozenset[str]) -> bool:
        """Element symbols and eponym pairs need a strong cue (a year, "et al.") unless both are cited names."""
        n1, n2 = m.group("n1"), m.group("n2")
        risky = any(n in self.elements or n in self.eponyms or n in self.companies for n in (n1, n2))
        if not risky:
            return True
        if n1 in cited and n2 in cited:
            return True
        return bool(_STRONG_CUE.match(text, m.end("n2")))

    def _surname_hits(self, text: str, search: Sequence[str]) -> list[tuple[str, list[int]]]:
        """(surname, the starts of its whole-word occurrences), overlapping ones included, for each one found."""
        return [(form, _whole_word_starts(form, text)) for form in search if form in text]

    def find(self, text: str, surnames: Iterable[str] = ()) -> list[AuthorMention]:
        """Every author-mention pattern in ``text`` plus whole-word hits of the given (>= 3 char) surnames."""
        cited, search = _surname_variants(_as_names(surnames))
        return _kept_mentions(self._candidates(text, cited), self._surname_hits(text, search), text)

    def cited(self, text: str, surnames: Iterable[str]) -> list[AuthorMention]:
        """Only the mentions that name an author of the cited work (checked against the cited reference's author list)."""
        cited, search = _surname_variants(_as_names(surnames))
        if not cited:
            return []
        probe = text if text.isascii() else text + " " + _fold(text)
        if not any(name in probe for name in cited):  # fast path: no cited name occurs at all
            return []
        found = [m for m in self._candidates(text, cited) if _names_cited(m[4], m[2], text, cited)]
        return _kept_mentions(found, self._surname_hits(text, search), text)

    # ---------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The tables as one JSON object (for spaCy's to_disk / to_bytes)."""
        return {key: list(values) for key, values in self.tables.items()}


#: Words that open a collaboration keyword ("Working Group"), so "the 2019 Working Group" is a date, not a name.
_COLLAB_LEADS = frozenset("Collaborative Study Working Research Writing Steering Project".split())


def _numbered_collaboration(name: str) -> bool:
    """"1000 Genomes Project Consortium": a number, then a capitalised name word, then the keyword."""
    words = name.split()
    return (len(words) >= 3 and words[0][:1].isdigit() and words[1][:1].isupper()
            and words[1] not in _COLLAB_LEADS)


def _as_names(surnames: Iterable[str]) -> tuple[str, ...]:
    """The surnames as a tuple; one bare string is a mistake (it would be read letter by letter)."""
    if isinstance(surnames, str):
        raise TypeError(f"surnames must be an iterable of surnames, not one string: use ({surnames!r},)")
    return tuple(str(name) for name in surnames)


_WORK_HEADS = frozenset(
    "group lab laboratory team work works study studies findings finding results result data paper papers review "
    "experiments experiment observations observation report reports hypothesis proposal analysis".split()
)

_PRIORITY = {p: i for i, p in enumerate(PATTERNS)}


def _names_cited(name_spans: tuple[tuple[int, int], ...], name: str | None, text: str,
                 cited: frozenset[str]) -> bool:
    """Does a mention with these name spans and name (:class:`AuthorMention` fields) name a cited author?"""
    for a, b in name_spans:
        found = text[a:b]
        if found in cited or _core(found) in cited or _fold(found) in cited:
            return True
    return name is not None and name in cited


class _Disjoint:
    """Non-empty, pairwise disjoint ``[start, end)`` intervals kept sorted, with an O(log n) overlap test
    (a scan of every kept interval per mention was quadratic: minutes on a long text full of "X et al.")."""

    __slots__ = ("starts", "ends")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def overlaps(self, start: int, end: int) -> bool:
        # disjoint intervals sorted by start have sorted ends: only the last one starting before ``end`` can
        # reach past ``start``
        k = bisect_left(self.starts, end) - 1
        return k >= 0 and self.ends[k] > start

    def add(self, start: int, end: int) -> None:
        k = bisect_left(self.starts, end)
        self.starts.insert(k, start)
        self.ends.insert(k, end)


def _kept_indices(starts: Sequence[int], ends: Sequence[int], patterns: Sequence[str]) -> list[int]:
    """Which mentions (given as parallel sequences of starts, ends and pattern labels) are kept where mentions
    overlap: the longest, then the most specific, then the first; their indices, sorted by (start, end).

    (Sort keys are single integers that order like the tuples (-length, priority, start) and (start, end): a
    text full of mentions sorts hundreds of thousands of them.)"""
    n = len(starts)
    if n == 0:
        return []
    neg_len = list(map(sub, starts, ends))
    get = _PRIORITY.get
    prio = [get(p, 99) for p in patterns]
    len_min, s_min, e_min = min(neg_len), min(starts), min(ends)
    p_span = max(prio) + 1
    s_span = max(starts) - s_min + 1
    rank = [((nl - len_min) * p_span + pr) * s_span + (s - s_min) for nl, pr, s in zip(neg_len, prio, starts)]
    kept: list[int] = []
    empty: list[int] = []  # (no pattern yields an empty mention; kept out of the interval index anyway)
    # the kept non-empty intervals, sorted and disjoint (so their ends are sorted too: only the last one that
    # starts before an end can reach past a start)
    taken_starts: list[int] = []
    taken_ends: list[int] = []
    keep, take_start, take_end, find = kept.append, taken_starts.insert, taken_ends.insert, bisect_left
    for k in sorted(range(n), key=rank.__getitem__):  # (a stable sort: ties keep the input order)
        s, e = starts[k], ends[k]
        if e <= s:
            if all(e <= starts[q] or s >= ends[q] for q in kept):
                keep(k)
                empty.append(k)
            continue
        p = find(taken_starts, e)
        if (p == 0 or taken_ends[p - 1] <= s) and (not empty or all(e <= starts[q] or s >= ends[q] for q in empty)):
            keep(k)
            take_start(p, s)
            take_end(p, e)
    e_span = max(ends) - e_min + 1
    kept.sort(key=lambda q: (starts[q] - s_min) * e_span + (ends[q] - e_min))
    return kept


def _non_overlapping(mentions: list[AuthorMention]) -> list[AuthorMention]:
    """Keep the longest (then most specific) mention wherever mentions overlap; sorted by offset."""
    keep = _kept_indices([m.start for m in mentions], [m.end for m in mentions], [m.pattern for m in mentions])
    return [mentions[k] for k in keep]


#: A mention before it is kept: (start, end, name, pattern, name_spans); only the kept ones become
#: :class:`AuthorMention` objects (a long text full of "X et al." has two candidates per mention).
_Raw = tuple[int, int, "str | None", str, tuple[tuple[int, int], ...]]
#: ``add(match, pattern, groups=("n1",), start=None, end=None)``: one candidate from a match (see :func:`_adder`)
_Add = Callable[..., None]


def _adder(text: str, cited: frozenset[str], append: Callable[[_Raw], None]) -> _Add:
    """``add(m, pattern, groups, start, end)``: appends the candidate of match ``m``: its span (or ``start``,
    ``end``), its name (the first cited name of ``groups``, else the first name), ``pattern`` and the spans of
    the groups that took part."""

    def add(m: re.Match[str], pattern: str, groups: Sequence[str] = ("n1",), start: int | None = None,
            end: int | None = None) -> None:
        spans = []
        name = None  # the first cited name, else the first name
        found = False
        for g in groups:
            a, b = m.span(g)
            if b > a:  # (a group that took part and is not empty)
                spans.append((a, b))
                if not found:
                    n = text[a:b]
                    found = n in cited or _core(n) in cited
                    if name is None or found:
                        name = n
        append((m.start() if start is None else start, m.end() if end is None else end, name, pattern,
                tuple(spans)))

    return add


def _kept_mentions(found: list[_Raw], hits: list[tuple[str, list[int]]], text: str) -> list[AuthorMention]:
    """:func:`_non_overlapping` of raw pattern mentions and of surname hits (:meth:`AuthorRules._surname_hits`),
    as :class:`AuthorMention` objects. (A hit is held as its start alone until it is kept.)"""
    starts = [f[0] for f in found]
    ends = [f[1] for f in found]
    patterns = [f[3] for f in found]
    hit_names: list[str] = []
    for form, positions in hits:
        size = len(form)
        starts += positions
        ends += [pos + size for pos in positions]
        patterns += ["surname"] * len(positions)
        hit_names += [form] * len(positions)
    out = []
    n_found = len(found)
    for k in _kept_indices(starts, ends, patterns):
        if k < n_found:
            s, e, name, pattern, spans = found[k]
            out.append(AuthorMention(s, e, text[s:e], name, pattern, spans))
        else:
            s, e = starts[k], ends[k]
            out.append(AuthorMention(s, e, text[s:e], hit_names[k - n_found], "surname", ((s, e),)))
    return out


DEFAULT_RULES = AuthorRules.default()


def find_author_mentions(text: str, surnames: Iterable[str] = ()) -> list[AuthorMention]:
    """Every author-mention pattern in ``text`` ("X et al.", "X and Y", "X & Y", "X and co-workers",
    "the group of X", "X's", consortium authors) plus whole-word hits of the given surnames (>= 3 chars)."""
    return DEFAULT_RULES.find(text, surnames)


def cited_author_mentions(text: str, surnames: Iterable[str]) -> list[AuthorMention]:
    """Mentions naming an author of the cited work: a >= 3 char surname anywhere as a whole word
    (case-sensitive); a 1-2 char surname only inside an author-mention pattern ("Li et al.", "Li's")."""
    return DEFAULT_RULES.cited(text, surnames)


#: After "X and Y" / "X & Y": what makes the pair a citation of people (a year, "et al.", "[", a verb of reporting).
_PAIR_CUE = re.compile(
    r"\s*(?:\(\s*(?:19|20)\d\d|,?\s*(?:19|20)\d\d|\[|et\s*al\b)|\s+(?:have\s+|had\s+|also\s+|first\s+|recently\s+)?"
    rf"(?:{_VERB})\b"
)


_HEAD_AFTER = re.compile(r"\s+([\w-]+)")


def _names_people(mention: AuthorMention, text: str) -> bool:
    """A pattern that names researchers whoever they are: "X et al.", "X and co-workers", "the group of X",
    "X's group/work", "X and Y reported" (not an eponym such as "Fick's law" or "Michaelis and Menten kinetics")."""
    if mention.pattern in ("et_al", "coworkers", "group_of"):
        return True
    if mention.pattern == "possessive":
        head = _HEAD_AFTER.match(text, mention.end)  # (never slice the text: that copies the rest of it)
        return head is not None and head.group(1).lower() in _WORK_HEADS
    if mention.pattern in ("and", "ampersand"):
        return _PAIR_CUE.match(text, mention.end) is not None
    return False


def named_author_mentions(text: str, surnames: Iterable[str]) -> list[AuthorMention]:
    """The question builder's drop rule: the mentions of :func:`cited_author_mentions` plus every pattern that
    names researchers even when the name is not in the cited reference's author list ("the Rosenberg team",
    "a group led by Jarone Pinhassi", "X et al." with a truncated, misspelt or missing author list)."""
    names = _as_names(surnames)
    cited = DEFAULT_RULES.cited(text, names) if names else []
    taken = _Disjoint()  # ``cited`` is non-overlapping already
    for c in cited:
        if c.end > c.start:
            taken.add(c.start, c.end)
    extra = [_with_given_name(m, text) for m in DEFAULT_RULES.find(text) if _names_people(m, text)
             and not taken.overlaps(m.start, m.end)]  # a cited mention wins where they overlap
    return sorted(cited + _non_overlapping(extra), key=lambda m: (m.start, m.end))


_NAME_BEFORE = re.compile(r"(?<![\w'’])([A-Z][^\W\d_]+)\s+$")


def _with_given_name(mention: AuthorMention, text: str) -> AuthorMention:
    """"Liang Jiankai's team" names one person: the capitalised word before a possessive joins its name
    (so ``--authors mask`` hides both words), unless it is a function word or a title."""
    if mention.pattern != "possessive" or not mention.name_spans:
        return mention
    start = mention.name_spans[0][0]
    before = _NAME_BEFORE.search(text, max(0, start - 40), start)
    if before is None or not DEFAULT_RULES._plausible(before.group(1), frozenset()):
        return mention
    a = before.start(1)
    return AuthorMention(a, mention.end, text[a:mention.end], mention.name, mention.pattern,
                         ((a, before.end(1)),) + mention.name_spans)


def mask_author_mentions(text: str, mentions: Sequence[AuthorMention], mask: str = "[AUTHOR]") -> str:
    """Replace the names of the given mentions by ``mask`` (CiteME style: "Li et al." -> "[AUTHOR] et al.")."""
    spans = sorted({span for m in mentions for span in (m.name_spans or ((m.start, m.end),))})
    pieces: list[str] = []
    cursor = 0
    for start, end in spans:
        if start < cursor:  # overlaps the previous replaced span
            start = cursor
            if start >= end:
                continue
        pieces.append(text[cursor:start])
        pieces.append(mask)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)
