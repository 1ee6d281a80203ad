"""Layered, named rule tables for the sentence splitter (abbreviations, sentence openers, prefixes).

Pure Python (no spaCy): the tables ship as JSON in ``chemref/nlp/data`` and a :class:`SentenceRules`
round-trips through ``to_dict``/``from_dict`` so the spaCy component can save it with the pipeline.
Tables are applied in order (general -> scientific -> chemistry -> taxonomy -> journals -> user); a
later table overrides an earlier one for the same word.
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from chemref.errors import InputError

__all__ = ["NEVER", "NAME", "EITHER", "KINDS", "RuleTable", "RuleIndex", "SentenceRules", "DEFAULT_TABLES"]

#: Never a boundary after the word ("Fig.", "ca.", "e.g.", "Anal.").
NEVER = "never"
#: A boundary only when a common sentence opener follows ("et al. The", "J. Am. Chem. Soc. 2019").
NAME = "name"
#: A boundary whenever an ordinary sentence start follows, as after a plain word ("r.t.", "etc.", "equiv.").
EITHER = "either"
KINDS = (NEVER, NAME, EITHER)

#: The shipped tables, in the order they are applied.
DEFAULT_TABLES = ("general", "scientific", "chemistry", "taxonomy", "journals")
_DATA = Path(__file__).resolve().parent / "data"
_FORMAT = 1


@dataclass(frozen=True, slots=True)
class RuleTable:
    """One named table: abbreviations by kind, sentence openers, lower-case prefixes ("n-" in "n-Butyl..."),
    lower-case abbreviations that may open a sentence ("aq. HCl was added"), abbreviated units of measure
    ("lb." in "2 lb. 4 oz."), journals."""

    name: str
    never: frozenset[str] = frozenset()
    name_like: frozenset[str] = frozenset()
    either: frozenset[str] = frozenset()
    sentence_starters: frozenset[str] = frozenset()
    lowercase_prefixes: frozenset[str] = frozenset()
    lowercase_openers: frozenset[str] = frozenset()
    measure_abbreviations: frozenset[str] = frozenset()
    journals: frozenset[str] = frozenset()
    description: str = field(default="", compare=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict in the format of the shipped ``data/*.json`` files (lists sorted)."""
        return {
            "name": self.name,
            "description": self.description,
            "abbreviations": {NEVER: sorted(self.never), NAME: sorted(self.name_like),
                              EITHER: sorted(self.either)},
            "sentence_starters": sorted(self.sentence_starters),
            "lowercase_prefixes": sorted(self.lowercase_prefixes),
            "lowercase_openers": sorted(self.lowercase_openers),
            "measure_abbreviations": sorted(self.measure_abbreviations),
            "journals": sorted(self.journals),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "<dict>") -> "RuleTable":
        """Build a table from :meth:`to_dict` output; raises :class:`InputError` on a bad shape."""
        if not isinstance(data, Mapping) or not isinstance(data.get("name"), str) or not data["name"]:
            raise InputError("a sentence rule table needs a non-empty string 'name'", path=source,
                             hint="see chemref/nlp/data/general.json for the format")
        name = data["name"]
        abbr = data.get("abbreviations", {})
        if not isinstance(abbr, Mapping) or set(abbr) - set(KINDS):
            raise InputError(f"rule table {name!r}: 'abbreviations' must map {KINDS} to lists of words",
                             path=source, hint=f"unknown keys: {sorted(set(abbr) - set(KINDS))}"
                             if isinstance(abbr, Mapping) else "got " + type(abbr).__name__)

        def words(value: Any, what: str) -> frozenset[str]:
            if value is None:
                return frozenset()
            if isinstance(value, str) or not all(isinstance(v, str) and v.strip() for v in value):
                raise InputError(f"rule table {name!r}: {what} must be a list of non-empty strings", path=source)
            return frozenset(v.strip() for v in value)

        return cls(
            name=name,
            never=words(abbr.get(NEVER), "abbreviations.never"),
            name_like=words(abbr.get(NAME), "abbreviations.name"),
            either=words(abbr.get(EITHER), "abbreviations.either"),
            sentence_starters=words(data.get("sentence_starters"), "sentence_starters"),
            lowercase_prefixes=words(data.get("lowercase_prefixes"), "lowercase_prefixes"),
            lowercase_openers=words(data.get("lowercase_openers"), "lowercase_openers"),
            measure_abbreviations=words(data.get("measure_abbreviations"), "measure_abbreviations"),
            journals=words(data.get("journals"), "journals"),
            description=str(data.get("description", "")),
        )

    @classmethod
    def load(cls, name: str) -> "RuleTable":
        """One of the shipped tables (:data:`DEFAULT_TABLES`) by name."""
        path = _DATA / f"{name}.json"
        if not path.is_file():
            raise InputError(f"no shipped sentence rule table {name!r}", path=str(path),
                             hint=f"choose one of {', '.join(DEFAULT_TABLES)}")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg}", path=str(path), line=exc.lineno, column=exc.colno) from exc
        return cls.from_dict(data, source=str(path))


@dataclass(frozen=True, slots=True)
class RuleIndex:
    """The compiled lookups the splitter reads, merged over a :class:`SentenceRules`' tables in order (built
    once per SentenceRules; read it through :attr:`SentenceRules.index`)."""

    kinds: Mapping[str, str]                       # "Fig." -> "never"
    multiword: Mapping[str, tuple[tuple[str, str], ...]]  # "al." -> (("et al.", "name"),)
    starters: frozenset[str]
    lowercase_prefixes: frozenset[str]
    lowercase_openers: frozenset[str]
    measure_abbreviations: frozenset[str]          # "lb." in "2 lb. 4 oz."
    no_split: re.Pattern[str] | None


def _build_index(tables: tuple[RuleTable, ...], no_split: tuple[str, ...]) -> RuleIndex:
    kinds: dict[str, str] = {}
    multi: dict[str, dict[str, str]] = {}
    starters: set[str] = set()
    prefixes: set[str] = set()
    openers: set[str] = set()
    measures: set[str] = set()

    def put(word: str, kind: str) -> None:
        if " " in word:
            multi.setdefault(word.rsplit(" ", 1)[1], {})[word] = kind
        else:
            kinds[word] = kind

    for table in tables:
        # journal words first, so that the table's own explicit entries win over them
        for journal in sorted(table.journals):
            for word in journal.split():
                if word.endswith(".") and len(word) > 2:
                    put(word, NAME)
        for kind, group in ((NEVER, table.never), (NAME, table.name_like), (EITHER, table.either)):
            for word in sorted(group):
                put(word if word.endswith(".") else word + ".", kind)
        starters |= table.sentence_starters
        prefixes |= table.lowercase_prefixes
        openers |= table.lowercase_openers
        measures |= {w if w.endswith(".") else w + "." for w in table.measure_abbreviations}
    pattern = re.compile("|".join(f"(?:{p})" for p in no_split)) if no_split else None
    return RuleIndex(
        kinds=kinds,
        multiword={k: tuple(sorted(v.items(), key=lambda kv: -len(kv[0]))) for k, v in multi.items()},
        starters=frozenset(starters),
        lowercase_prefixes=frozenset(prefixes),
        lowercase_openers=frozenset(openers),
        measure_abbreviations=frozenset(measures),
        no_split=pattern,
    )


#: the longest no-split pattern accepted (characters)
MAX_NO_SPLIT_CHARS = 1000
#: the most long repeats (``*``, ``+``, or more than LONG_REPEAT times) one no-split pattern may hold: with k of
#: them in a row, a word of n letters can take n**k steps to refuse ('\w*\w*\w*\w*c' on a 60-letter word: seconds)
MAX_UNBOUNDED_REPEATS = 2
LONG_REPEAT = 50
_REPEATS = frozenset({"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"})
_parser: Any = importlib.import_module("re._parser")  # Python's own parse of a pattern (as re.compile reads it)


def _check_no_split(pattern: str) -> None:
    """Refuse a no-split pattern that is not a regular expression, is longer than :data:`MAX_NO_SPLIT_CHARS`,
    or can backtrack exponentially: a repeat (``*``, ``+``, ``{m,n}`` with n > 1) holding another quantifier
    (``?`` too) or an alternation (``(a+)+``, ``(?:a?a?)+``, ``(x|xy)*``). A pattern comes from a saved pipeline too, which may be tampered."""
    shown = repr(pattern[:80]) + ("..." if len(pattern) > 80 else "")
    if len(pattern) > MAX_NO_SPLIT_CHARS:
        raise InputError(f"no-split pattern {shown} is longer than {MAX_NO_SPLIT_CHARS} characters")
    try:
        re.compile(pattern)
        nested = _nested_repeat(_parser.parse(pattern))
    except (re.error, RecursionError) as exc:
        raise InputError(f"no-split pattern {shown} is not a valid regular expression: {exc}",
                         hint="patterns use Python's re syntax") from None
    if nested:
        raise InputError(f"no-split pattern {shown} repeats a group that holds a quantifier or an alternation "
                         "(it could take exponential time on some texts)",
                         hint="repeat single characters or classes only, e.g. 'Ex\\. \\d+' or '[A-Z]\\w*'")
    if _unbounded_repeats(_parser.parse(pattern)) > MAX_UNBOUNDED_REPEATS:
        raise InputError(f"no-split pattern {shown} has more than {MAX_UNBOUNDED_REPEATS} long repeats ('*', '+', "
                         f"or more than {LONG_REPEAT} times): each one more multiplies the time a long word can take",
                         hint="bound the repeats ('\\w{1,40}') or use fewer of them")


def _nodes(parsed: Any) -> Iterator[tuple[str, Any, bool]]:
    """Every node of a parsed pattern (``re._parser.parse``) as ``(op name, value, inside)``, ``inside`` telling
    whether it sits in a repeat of more than once (without recursion)."""
    stack: list[tuple[Any, bool]] = [(parsed, False)]
    while stack:
        items, inside = stack.pop()
        for op, value in items:
            name = str(op)
            yield name, value, inside
            if name in _REPEATS:
                stack.append((value[2], inside or value[1] > 1))
            elif name == "BRANCH":
                stack.extend((branch, inside) for branch in value[1])
            elif name == "SUBPATTERN":
                stack.append((value[3], inside))
            elif name in ("ASSERT", "ASSERT_NOT"):
                stack.append((value[1], inside))
            elif name == "ATOMIC_GROUP":
                stack.append((value, inside))
            elif name == "GROUPREF_EXISTS":
                stack.extend((part, inside) for part in value[1:] if part is not None)


def _unbounded_repeats(parsed: Any) -> int:
    """How many long repeats (``*``, ``+``, ``{m,}``, or up to more than :data:`LONG_REPEAT` times) the parsed
    pattern ``parsed`` holds."""
    return sum(name in _REPEATS and value[1] > LONG_REPEAT for name, value, _ in _nodes(parsed))


def _nested_repeat(parsed: Any) -> bool:
    """Whether the parsed pattern ``parsed`` has a repeat of more than once that holds a quantifier (even an
    optional part: "(?:a?a?)+" backtracks exponentially) or an alternation of several branches."""
    return any(inside and (name in _REPEATS or (name == "BRANCH" and len(value[1]) > 1))
               for name, value, inside in _nodes(parsed))


@dataclass(frozen=True, slots=True)
class SentenceRules:
    """The rule tables and user no-split patterns of one splitter configuration (immutable, comparable)."""

    tables: tuple[RuleTable, ...]
    no_split: tuple[str, ...] = ()
    _index: RuleIndex = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        for pattern in self.no_split:
            _check_no_split(pattern)
        names = [t.name for t in self.tables]
        if len(set(names)) != len(names):
            raise InputError(f"rule table names must be unique, got {names}")
        object.__setattr__(self, "_index", _build_index(self.tables, self.no_split))

    @property
    def index(self) -> RuleIndex:
        """The merged look-ups of all tables (what the splitter and the tokenizer read)."""
        return self._index

    @classmethod
    def default(cls) -> "SentenceRules":
        """The shipped tables: general -> scientific -> chemistry -> taxonomy -> journals."""
        return cls(tuple(RuleTable.load(name) for name in DEFAULT_TABLES))

    @property
    def table_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.tables)

    def table(self, name: str) -> RuleTable:
        for t in self.tables:
            if t.name == name:
                return t
        raise KeyError(name)

    def with_abbreviations(self, words: Iterable[str], *, kind: str = NAME) -> "SentenceRules":
        """A copy with user abbreviations added to the last table, "user" ("Cmpd." or "Cmpd").

        ``kind`` is "never" (no boundary after it, ever), "name" (the default: a boundary only before a
        common sentence opener such as "The") or "either" (a boundary as after a plain word).
        """
        if kind not in KINDS:
            raise InputError(f"unknown abbreviation kind {kind!r}", hint=f"use one of {', '.join(KINDS)}")
        if isinstance(words, str):
            words = [words]
        added = []
        for w in words:
            if not isinstance(w, str) or not w.strip():
                raise InputError(f"an abbreviation must be a non-empty string, got {w!r}")
            w = w.strip()
            added.append(w if w.endswith(".") else w + ".")
        user = next((t for t in self.tables if t.name == "user"), RuleTable("user", description="user additions"))
        groups = {NEVER: set(user.never), NAME: set(user.name_like), EITHER: set(user.either)}
        for w in added:
            for g in groups.values():
                g.discard(w)
            groups[kind].add(w)
        new_user = RuleTable("user", never=frozenset(groups[NEVER]), name_like=frozenset(groups[NAME]),
                             either=frozenset(groups[EITHER]), sentence_starters=user.sentence_starters,
                             lowercase_prefixes=user.lowercase_prefixes,
                             lowercase_openers=user.lowercase_openers,
                             measure_abbreviations=user.measure_abbreviations,
                             journals=user.journals, description=user.description)
        tables = tuple(t for t in self.tables if t.name != "user") + (new_user,)
        return SentenceRules(tables, self.no_split)

    def with_no_split(self, patterns: Iterable[str]) -> "SentenceRules":
        """A copy with regular expressions whose matches never contain a boundary ("Ex\\. \\d+")."""
        if isinstance(patterns, str):
            patterns = [patterns]
        new = tuple(p for p in patterns if p not in self.no_split)
        return SentenceRules(self.tables, self.no_split + new)

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (saved with a spaCy pipeline; never pickled)."""
        return {"format": _FORMAT, "tables": [t.to_dict() for t in self.tables], "no_split": list(self.no_split)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "<dict>") -> "SentenceRules":
        """Inverse of :meth:`to_dict`; raises :class:`InputError` naming what is wrong."""
        if not isinstance(data, Mapping) or not isinstance(data.get("tables"), list):
            raise InputError("sentence rules need a 'tables' list", path=source,
                             hint="write them with SentenceRules.to_dict()")
        if data.get("format", _FORMAT) != _FORMAT:
            raise InputError(f"unsupported sentence rules format {data.get('format')!r}", path=source,
                             hint=f"this chemref reads format {_FORMAT}")
        no_split = data.get("no_split", [])
        if not isinstance(no_split, list) or not all(isinstance(p, str) for p in no_split):
            raise InputError("'no_split' must be a list of regular expressions", path=source)
        return cls(tuple(RuleTable.from_dict(t, source=source) for t in data["tables"]), tuple(no_split))
