"""Claim vs passing-mention classifier for citing sentences (rules and a trained model; no spaCy at import).

A citation is PASSING when it points at a supplier, reagent, kit, instrument, software, data source
or protocol ("as described previously [12]"); otherwise the sentence makes a CLAIM the cited work
supports. :class:`ClaimRules` are hand-written rules; :class:`ClaimClassifier` (what :func:`classify_citation`
uses) feeds their decision, with the sentence's words, to the trained model of :mod:`chemref.nlp.claims_model`.
The spaCy component ``chemref_claim_classifier`` is :mod:`chemref.nlp.components.claim_classifier`.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Mapping

from chemref.errors import InputError
from chemref.nlp.claims_model import ClaimModel, find_citation
from chemref.nlp.prefilters import case_partners as _case_partners
from chemref.nlp.prefilters import lower_pattern as _lower_pattern
from chemref.nlp.prefilters import parsed_leads as _parsed_leads
from chemref.nlp.prefilters import prefilter
from chemref.nlp.prefilters import starts_at_word_boundary as _bounded

__all__ = [
    "ClaimClassifier", "ClaimDecision", "ClaimRules", "DEFAULT_RULES", "LABELS", "citation_clause",
    "classify_citation", "default_classifier", "load_claim_tables",
]

LABELS = ("CLAIM", "PASSING")
RULES_FILE = "claims_rules.json"
LEXICON_FILE = "claims_lexicon.json"
_BEFORE = 100  # characters before the citation that "before"/"near" rules look at
_AFTER = 40
_NEAR_BEFORE = 45  # "near" rules (lexicon names) look only this close to the citation
_NEAR_AFTER = 25
_MIN_START = 2  # shorter start strings would leave too many places to try
_MAX_STARTS = 400
_WORD_CACHE = 200_000  # words remembered by ClaimRules._rules_for
_LONG_SENTENCE = 2000  # from this length on, ClaimRules._places looks each distinct word up first
_CLAUSE = 4  # the scope slot of the citation's clause
#: What ends a clause: a semicolon, or a comma before a contrasting conjunction ("..., whereas", "..., but")
#: or before a new subject of the citing authors ("..., we used", "..., and we"; the subject stays in the clause).
_CLAUSE_BREAK = re.compile(r";|,\s+(?:(?:whereas|while|but|although|though|yet)\b|(?=(?:and\s+)?(?:we|our)\b))|"
                           r"\s(?:whereas|while)\s", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ClaimDecision:
    """The label for one citation, P(CLAIM) and the name of the rule that decided (``"model"`` when the trained
    model overrode the rules' label); ``rules_score`` is the rules' own P(CLAIM) when the model decided (the
    question selector's ``claim_score`` feature reads it: its weights were fitted on the rules' score)."""

    label: str
    score: float
    rule: str | None
    rules_score: float | None = None

    @property
    def rule_score(self) -> float:
        """The rules' P(CLAIM): ``rules_score`` when the model decided, else ``score``."""
        return self.score if self.rules_score is None else self.rules_score


@dataclass(frozen=True, slots=True)
class _Rule:
    name: str
    weight: float
    scope: str
    regex: "re.Pattern[str] | None"  # None for a lexicon rule
    gate: tuple[str, ...] = ()  # lower-case substrings; one must occur in the sentence (cheap prefilter)
    lowered: bool = False  # the regex is case-sensitive and runs on the lower-cased text (same matches, faster)
    plain: str | None = None  # a lowered rule's own pattern, run case-insensitively on rare texts (see _ci)
    lexicon: str | None = None  # the lexicon key of a lexicon rule
    starts: tuple[str, ...] = ()  # lower-case strings every match starts with (read off the pattern)
    cancels: tuple[str, ...] = ()  # a claim rule: names of passing rules whose evidence it overrides
    cancels_near: bool = True  # ... also where they fired next to the citation (else only elsewhere, if nothing did)


def _data_dir() -> Path:
    return Path(str(resources.files("chemref.nlp") / "data"))


def load_claim_tables(directory: str | Path | None = None) -> dict[str, Any]:
    """Read ``claims_rules.json`` and ``claims_lexicon.json`` (from the package, or from ``directory``)."""
    base = Path(directory) if directory is not None else _data_dir()
    with (base / RULES_FILE).open(encoding="utf-8") as handle:
        rules = json.load(handle)
    with (base / LEXICON_FILE).open(encoding="utf-8") as handle:
        lexicon = json.load(handle)
    for key in ("passing", "claim"):
        if not isinstance(rules, dict) or not isinstance(rules.get(key), list):
            raise InputError(f"rule table has no list {key!r}", path=str(base / RULES_FILE),
                             hint="expected {'bias': ..., 'passing': [...], 'claim': [...]}")
    return {"rules": rules, "lexicon": lexicon}


_TOKEN = re.compile(r"[^\s()\[\]{},;:\"“”]+")


def _starts(pattern: str, flags: int = 0) -> tuple[str, ...]:
    """Lower-case literal strings of which every match of ``pattern`` starts with one, at the start of a
    word: read off the parsed pattern (``\\b``, then a literal run or an alternation of them, zero-width
    assertions skipped); () when that cannot be told. Such a rule is tried only where a word starts with
    one of them (the same hits as a search, at a fraction of the cost)."""
    parsed, found = _parsed_leads(pattern, flags)
    if not found or not _bounded(parsed) or min(len(x) for x in found) < _MIN_START:
        return ()
    if not all(_WORD_START.match(x) for x in found) or len(found) > _MAX_STARTS:  # word characters only
        return ()
    return tuple(sorted(found))


_WORD_START = re.compile(r"\w+\Z")
_WORDS = re.compile(r"\w+")


@lru_cache(maxsize=None)
def _ci(pattern: str) -> "re.Pattern[str]":
    """``pattern`` compiled case-insensitively, on first use (only texts lower-casing would change need it)."""
    return re.compile(pattern, re.IGNORECASE)


def citation_clause(sentence: str, start: int, end: int) -> tuple[int, int]:
    """The span of the clause of ``sentence`` that holds the citation at ``start:end``: from the last clause
    break before it to the first after it (the whole sentence when there is none). A break inside the same
    bracket as the citation does not count ("(see Methods; [12])" stays one clause)."""
    depth_open = sentence.rfind("(", 0, start)
    inside = depth_open >= 0 and sentence.find(")", depth_open, start) < 0
    c0 = 0
    for match in _CLAUSE_BREAK.finditer(sentence, 0, start):
        if not (inside and match.start() > depth_open):
            c0 = match.end()
    c1 = len(sentence)
    for match in _CLAUSE_BREAK.finditer(sentence, end):
        close = sentence.find(")", end) if inside else -1
        if close >= 0 and match.start() < close:
            continue
        c1 = match.start()
        break
    return c0, c1


class _Lexicons:
    """Case-sensitive whole-token lookup of (multi-word) names from several lists in one pass."""

    def __init__(self, lists: Mapping[str, list[str]], not_followed_by: Iterable[str] = ()) -> None:
        self.not_followed_by = frozenset(w.lower() for w in not_followed_by)  # "HOMER proteins" is no software
        index: dict[str, set[str]] = {}
        for key, names in lists.items():
            for name in names:
                if name.strip():
                    index.setdefault(" ".join(name.split()), set()).add(key)
        self.index = {gram: frozenset(keys) for gram, keys in index.items()}
        self.longest = max((len(n.split()) for n in self.index), default=1)
        self.first = frozenset(gram.split()[0] for gram in self.index)  # a name can only start at one of these

    def hits(self, text: str) -> set[str]:
        """The keys of the lists with at least one name in ``text``."""
        tokens = [t.rstrip(".'’") or t for t in _TOKEN.findall(text)]
        index = self.index
        found: set[str] = set()
        first = self.first
        for i in range(len(tokens)):
            if tokens[i] not in first:
                continue
            for n in range(1, min(self.longest, len(tokens) - i) + 1):
                keys = index.get(" ".join(tokens[i:i + n]))
                if keys and (i + n == len(tokens) or tokens[i + n].lower() not in self.not_followed_by):
                    found |= keys
        return found


class ClaimRules:
    """The compiled claim / passing rules, built once from the JSON tables."""

    def __init__(self, tables: Mapping[str, Any]) -> None:
        self.tables = {"rules": dict(tables["rules"]), "lexicon": dict(tables["lexicon"])}
        spec = self.tables["rules"]
        lexicon = self.tables["lexicon"]
        self.bias = float(spec.get("bias", 1.0))
        self.claim_cap = float(spec.get("claim_cap", 2.5))
        self.threshold = float(spec.get("threshold", 0.5))
        used: dict[str, list[str]] = {}

        def compile_rule(item: Mapping[str, Any]) -> _Rule:
            scope = item.get("scope", "sentence")
            gate = tuple(item.get("gate", ()))
            cancels = tuple(item.get("cancels", ()))
            extra: dict[str, Any] = {"cancels": cancels, "cancels_near": bool(item.get("cancels_near_citation", True))}
            if "lexicon" in item:
                key = item["lexicon"]
                used[key] = list(lexicon[key])
                return _Rule(item["name"], float(item["weight"]), scope, None, gate, lexicon=key, **extra)
            pattern = item["pattern"]
            lowered = _lower_pattern(pattern)
            if lowered is not None:
                return _Rule(item["name"], float(item["weight"]), scope, re.compile(lowered), gate, lowered=True,
                             plain=pattern, starts=_starts(lowered), **extra)
            return _Rule(item["name"], float(item["weight"]), scope, re.compile(pattern, re.IGNORECASE), gate,
                         starts=_starts(pattern, re.IGNORECASE), **extra)

        self.passing = tuple(compile_rule(item) for item in spec["passing"])
        self.claim = tuple(compile_rule(item) for item in spec["claim"])
        self._lexicons = _Lexicons(used, lexicon.get("_not_followed_by", ()))
        # A rule with start strings is tried (``match``) only where a word of the lower-cased sentence
        # starts with one of them, instead of a ``search`` through its whole window.
        rules = self.passing + self.claim
        by_start: dict[str, set[int]] = {}
        for i, rule in enumerate(rules):
            for start in rule.starts:
                by_start.setdefault(start, set()).add(i)
        self._by_start = {start: tuple(sorted(ids)) for start, ids in by_start.items()}
        self._longest_start = max(map(len, by_start), default=0)
        self._word_rules: dict[str, tuple[int, ...]] = {}  # word -> rules it may start (a cache)
        letters = {ch for rule in rules if rule.lowered and rule.regex is not None for ch in rule.regex.pattern}
        self._unsafe = frozenset(ch for ch in _case_partners(letters) if ch.lower() not in letters)
        slots = {"sentence": 0, "before": 1, "after": 2, "near": 3}
        # A passing rule of scope "sentence" looks only at the citation's own clause (slot 4): usage or protocol
        # words in another clause of the sentence describe something else than the cited work.
        # Per rule: its window's slot, whether it is a passing rule, whether that window is next to the citation,
        # whether it is tried only at the places where a word starts like it, and whether its gate is tested
        # first when it is not (see _fires).
        plan = []
        for i, rule in enumerate(rules):
            passing = i < len(self.passing)
            slot = _CLAUSE if passing and rule.scope == "sentence" else slots.get(rule.scope, 0)
            plan.append((rule, slot, passing, slot in (1, 2, 3), bool(rule.starts) and slot != 3,
                         bool(rule.gate) and slot != 3))
        self._plan = tuple(plan)
        self._unplaced = frozenset(i for i, step in enumerate(self._plan) if not step[4])  # (not tried by place)

    @classmethod
    def default(cls) -> "ClaimRules":
        """Rules from the packaged tables."""
        return cls(load_claim_tables())

    def to_json(self) -> dict[str, Any]:
        """Both tables as one JSON object (for spaCy's to_disk / to_bytes)."""
        return self.tables

    # ---------------------------------------------------------------------------------------------
    def classify(self, sentence: str, citation: tuple[int, int] | None = None) -> ClaimDecision:
        """CLAIM or PASSING for the citation at ``sentence[citation[0]:citation[1]]`` (whole sentence if None)."""
        return self.evidence(sentence, citation)[0]

    def evidence(self, sentence: str, citation: tuple[int, int] | None = None
                 ) -> tuple[ClaimDecision, tuple[str, ...]]:
        """The decision of :meth:`classify` and the rules behind it: ``p:<name>`` for each passing rule that
        counts (``n:<name>`` too when it fired next to the citation), ``c:<name>`` for each claim rule that fired."""
        decision, names, _ = self._evidence(sentence, citation)
        return decision, names

    def _evidence(self, sentence: str, citation: tuple[int, int] | None
                  ) -> tuple[ClaimDecision, tuple[str, ...], tuple[int, int] | None]:
        """:meth:`evidence` and the span of the citation's clause (:func:`citation_clause`; None without a
        citation)."""
        view = _Windows(sentence, citation)
        # Lower-casing keeps matches the same unless it changes the length ("İ") or the text holds a letter a
        # case-insensitive pattern letter matches beyond lower-casing ("ſ"): then every rule runs case-insensitively.
        fast = len(view.lowered) == len(sentence) and self._unsafe.isdisjoint(sentence)
        places = self._places(view.lowered) if fast else None
        lexicon_hits: dict[int, set[str]] = {}
        tally = _Tally()
        lowered = view.lowered
        plan = self._plan
        # (with places known, only the rules tried by place that have one, and the others, in the plan's order)
        for index in range(len(plan)) if places is None else sorted(self._unplaced.union(places)):
            rule, slot, passing, near_citation, by_place, gated = plan[index]
            if passing and rule.weight <= (tally.local if near_citation else tally.fired).get(rule.name, 0.0):
                continue
            # A rule with start strings is tried only at the places where a word starts like it (none: it
            # cannot match). Else the gate is a cheap prefilter before a search of the sentence, its clause or
            # the window before or after the citation (a pattern anchored at the window's end is tried from each
            # of its places); a rule tried at a few places, or on the few words next to the citation, is
            # cheaper to match first (its gate is tested after a hit).
            at = None
            if by_place and places is not None:
                at = places.get(index)
                if at is None:
                    continue
            elif gated and not any(map(lowered.__contains__, rule.gate)):
                continue
            if self._fires(rule, slot, view, fast, at, lexicon_hits) and (
                    gated and at is None or not rule.gate or any(map(lowered.__contains__, rule.gate))):
                tally.add(rule, passing, near_citation)
        tally.settle()
        return tally.decision(self), tally.names(), view.clause

    def _fires(self, rule: _Rule, slot: int, view: "_Windows", fast: bool, at: list[int] | None,
               lexicon_hits: dict[int, set[str]]) -> bool:
        """Whether the pattern of ``rule`` matches its window (``slot``) of the sentence: only at the offsets
        ``at`` when given (the places where a word starts like it), else anywhere (the gate not tested)."""
        texts = view.texts
        if rule.regex is None:
            hits = lexicon_hits.get(slot)
            if hits is None:
                hits = lexicon_hits[slot] = self._lexicons.hits(texts[2 * slot])
            return rule.lexicon in hits
        if not fast and rule.plain is not None:
            return _ci(rule.plain).search(texts[2 * slot]) is not None
        text = texts[2 * slot + rule.lowered]
        if at is not None:
            return _matches_at(rule.regex, text, view.bases[slot], at)
        return _search(rule.regex, text, rule.lowered)

    def _places(self, lowered: str) -> dict[int, list[int]]:
        """Rule index -> the offsets in ``lowered`` where a word starts with one of that rule's start strings."""
        places: dict[int, list[int]] = {}
        cache = self._word_rules
        words = _WORDS
        if len(lowered) >= _LONG_SENTENCE:
            # A long text: look each distinct word up once, then walk only the words that start a rule.
            starting = [word for word in set(_WORDS.findall(lowered))
                        if (cache[word] if word in cache else self._rules_for(word))]
            if not starting:
                return places
            words = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(starting, key=len, reverse=True)))
                               + r")(?!\w)")
        for m in words.finditer(lowered):
            word = m.group()
            ids = cache.get(word)
            if ids is None:
                ids = self._rules_for(word)
            if ids:
                pos = m.start()
                for i in ids:
                    places.setdefault(i, []).append(pos)
        return places

    def _rules_for(self, word: str) -> tuple[int, ...]:
        """The rules with a start string that ``word`` starts with (remembered: vocabularies repeat)."""
        by_start = self._by_start
        ids: set[int] = set()
        for k in range(_MIN_START, min(len(word), self._longest_start) + 1):
            found = by_start.get(word[:k])
            if found is not None:
                ids.update(found)
        result = tuple(sorted(ids))
        if len(self._word_rules) >= _WORD_CACHE:
            self._word_rules.clear()
        self._word_rules[word] = result
        return result


class _Windows:
    """The texts the rules look at: the sentence, the window before and after the citation, the words next to it
    and its clause, each as given and lower-cased (indexed by 2 * scope slot + lowered, see _lower_pattern),
    ``bases``, their offsets in the sentence (the "near" window is not one slice: never tried by place), and
    ``clause``, the span of the citation's clause (None without a citation)."""

    __slots__ = ("lowered", "texts", "bases", "clause")

    def __init__(self, sentence: str, citation: tuple[int, int] | None) -> None:
        if citation is not None:
            start, end = citation
            if not (0 <= start <= end <= len(sentence)):
                raise ValueError(f"citation offsets {citation} outside the sentence (length {len(sentence)})")
            b0 = max(0, start - _BEFORE)
            before = sentence[b0:start]
            after = sentence[end:end + _AFTER]
            near = sentence[max(0, start - _NEAR_BEFORE):start] + " " + sentence[end:end + _NEAR_AFTER]
            c0, c1 = citation_clause(sentence, start, end)
        else:
            b0, end = 0, len(sentence)
            before, after, near = sentence, "", sentence
            c0, c1 = 0, len(sentence)
        self.lowered = lowered = sentence.lower()
        clause = sentence[c0:c1]
        self.texts = (sentence, lowered, before, before.lower(), after, after.lower(), near, near.lower(), clause,
                      lowered[c0:c1])
        self.bases = (0, b0, end, 0, c0)
        self.clause = (c0, c1) if citation is not None else None


class _Tally:
    """What the rules that fired add up to: the passing rules (each name once, at its strongest pattern; those
    next to the citation never cancelled), the claim rules and what they cancel."""

    __slots__ = ("fired", "local", "cancelled", "cancelled_away", "claim_total", "claims_fired", "best_claim")

    def __init__(self) -> None:
        self.fired: dict[str, float] = {}  # rule name -> its strongest firing pattern (names count once)
        self.local: dict[str, float] = {}  # the same, for patterns next to the citation (never cancelled)
        self.cancelled: set[str] = set()  # by rules that override evidence next to the citation too
        self.cancelled_away: set[str] = set()  # by rules that override only evidence away from it
        self.claim_total = 0.0
        self.claims_fired: set[str] = set()
        self.best_claim: tuple[float, str] | None = None

    def add(self, rule: _Rule, passing: bool, near_citation: bool) -> None:
        if passing:
            self.fired[rule.name] = max(rule.weight, self.fired.get(rule.name, 0.0))
            if near_citation:
                self.local[rule.name] = max(rule.weight, self.local.get(rule.name, 0.0))
            return
        self.claim_total += rule.weight
        self.claims_fired.add(rule.name)
        if self.best_claim is None or rule.weight > self.best_claim[0]:
            self.best_claim = (rule.weight, rule.name)
        (self.cancelled if rule.cancels_near else self.cancelled_away).update(rule.cancels)

    def settle(self) -> None:
        """Drop the passing evidence the claim rules that fired cancel ("A previous study showed ... was used":
        the usage words describe the cited work, not ours); before :meth:`decision` and :meth:`names`."""
        for name in self.cancelled:
            self.fired.pop(name, None)
        if not self.local:
            for name in self.cancelled_away:
                self.fired.pop(name, None)

    def decision(self, rules: "ClaimRules") -> ClaimDecision:
        logit = rules.bias + min(self.claim_total, rules.claim_cap) - sum(self.fired.values())
        score = 1.0 / (1.0 + math.exp(-logit))
        if score >= rules.threshold:
            return ClaimDecision("CLAIM", score, self.best_claim[1] if self.best_claim else "default_claim")
        best_passing = max(((w, n) for n, w in self.fired.items()), default=None)
        return ClaimDecision("PASSING", score, best_passing[1] if best_passing else None)

    def names(self) -> tuple[str, ...]:
        return tuple(sorted([f"p:{n}" for n in self.fired] + [f"n:{n}" for n in self.local if n in self.fired]
                            + [f"c:{n}" for n in self.claims_fired]))


def _matches_at(regex: "re.Pattern[str]", text: str, base: int, places: list[int]) -> bool:
    """``regex`` matches ``text`` (a window of the sentence that starts at ``base``) at one of ``places``
    (offsets in the sentence)."""
    match = regex.match
    size = len(text)
    for place in places:
        at = place - base
        if 0 <= at < size and match(text, at) is not None:
            return True
    return False


def _search(regex: "re.Pattern[str]", text: str, lowered: bool) -> bool:
    """``regex`` matches somewhere in ``text`` (a long text behind its pre-filter: prefilters.prefilter)."""
    if len(text) >= _LONG_SENTENCE:
        plan = prefilter(regex, lowered)
        start = 0 if plan is None else plan.start(text)
        return start >= 0 and regex.search(text, start) is not None
    return regex.search(text) is not None


DEFAULT_RULES = ClaimRules.default()


class ClaimClassifier:
    """The rules and the trained model together: the model reads the sentence and the rules' decision.

    Without a citation span, the citation is the sentence's first citation marker
    (:func:`chemref.nlp.claims_model.find_citation`: ``[12]``, ``(Smith et al., 2010)``, ``[CITATION]`` ...), so a
    sentence gets one answer whether or not its span is given; a sentence without a marker is classified whole.
    """

    def __init__(self, rules: ClaimRules, model: ClaimModel | None) -> None:
        self.rules = rules
        self.model = model

    @classmethod
    def default(cls) -> "ClaimClassifier":
        """The packaged rule tables and model."""
        return cls(ClaimRules.default(), ClaimModel.default())

    def classify(self, sentence: str, citation: tuple[int, int] | None = None) -> ClaimDecision:
        """CLAIM or PASSING for the citation at ``sentence[citation[0]:citation[1]]`` (ValueError when the offsets
        are outside the sentence)."""
        if citation is None:
            citation = find_citation(sentence)
        decision, names, clause = self.rules._evidence(sentence, citation)
        if self.model is None:
            return decision
        p = self.model.probability(sentence, citation, decision, names, clause)
        label = "CLAIM" if p >= self.model.threshold else "PASSING"
        return ClaimDecision(label, p, decision.rule if label == decision.label else "model", decision.score)


@lru_cache(maxsize=1)
def default_classifier() -> ClaimClassifier:
    """The packaged rules and model (the model's weights are read on first use, once)."""
    return ClaimClassifier(DEFAULT_RULES, ClaimModel.default())


@lru_cache(maxsize=8)  # the question builder asks twice per candidate (its filter, then its selector)
def classify_citation(sentence: str, citation: tuple[int, int] | None = None) -> ClaimDecision:
    """CLAIM when the sentence makes a claim the cited work supports; PASSING for supplier / reagent /
    kit / instrument / software / data-source / protocol / "as described previously" citations
    (:class:`ClaimClassifier` with the packaged rules and model)."""
    return default_classifier().classify(sentence, citation)
