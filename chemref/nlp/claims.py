"""Claim vs passing-mention classifier for citing sentences (rules; no spaCy at import).

A citation is PASSING when it points at a supplier, reagent, kit, instrument, software, data source
or protocol ("as described previously [12]"); otherwise the sentence makes a CLAIM the cited work
supports. The spaCy factory ``chemref_claim_classifier`` lives in :mod:`chemref.nlp.claim_component`
and is re-exported lazily here as :data:`make_claim_classifier`.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from chemref.errors import InputError

__all__ = [
    "ClaimDecision", "ClaimRules", "DEFAULT_RULES", "LABELS", "classify_citation", "load_claim_tables",
]

LABELS = ("CLAIM", "PASSING")
RULES_FILE = "claims_rules.json"
LEXICON_FILE = "claims_lexicon.json"
_BEFORE = 100  # characters before the citation that "before"/"near" rules look at
_AFTER = 40
_NEAR_BEFORE = 45  # "near" rules (lexicon names) look only this close to the citation
_NEAR_AFTER = 25


@dataclass(frozen=True, slots=True)
class ClaimDecision:
    """The label for one citation, P(CLAIM) and the name of the rule that decided."""

    label: str
    score: float
    rule: str | None


@dataclass(frozen=True, slots=True)
class _Rule:
    name: str
    weight: float
    scope: str
    regex: "re.Pattern[str] | _Lexicon"
    gate: tuple[str, ...] = ()  # lower-case substrings; one must occur in the sentence (cheap prefilter)


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


class _Lexicon:
    """Case-sensitive whole-token lookup of (multi-word) names: n-grams of the window against a set."""

    def __init__(self, names: list[str]) -> None:
        self.names = frozenset(" ".join(n.split()) for n in names if n.strip())
        self.longest = max((len(n.split()) for n in self.names), default=1)

    def search(self, text: str) -> "str | None":
        """The first name found in ``text`` (None when none), like ``re.Pattern.search`` for ``_fires``."""
        tokens = [t.rstrip(".'’") or t for t in _TOKEN.findall(text)]
        names = self.names
        for i in range(len(tokens)):
            for n in range(1, min(self.longest, len(tokens) - i) + 1):
                gram = " ".join(tokens[i:i + n])
                if gram in names:
                    return gram
        return None


class ClaimRules:
    """The compiled claim / passing rules, built once from the JSON tables."""

    def __init__(self, tables: Mapping[str, Any]) -> None:
        self.tables = {"rules": dict(tables["rules"]), "lexicon": dict(tables["lexicon"])}
        spec = self.tables["rules"]
        lexicon = self.tables["lexicon"]
        self.bias = float(spec.get("bias", 1.0))
        self.claim_cap = float(spec.get("claim_cap", 2.5))
        self.threshold = float(spec.get("threshold", 0.5))

        def compile_rule(item: Mapping[str, Any]) -> _Rule:
            if "lexicon" in item:
                regex: re.Pattern[str] | _Lexicon = _Lexicon(list(lexicon[item["lexicon"]]))
            else:
                regex = re.compile(item["pattern"], re.IGNORECASE)
            return _Rule(item["name"], float(item["weight"]), item.get("scope", "sentence"), regex,
                         tuple(item.get("gate", ())))

        self.passing = tuple(compile_rule(item) for item in spec["passing"])
        self.claim = tuple(compile_rule(item) for item in spec["claim"])

    @classmethod
    def default(cls) -> "ClaimRules":
        """Rules from the packaged tables."""
        return cls(load_claim_tables())

    def to_json(self) -> dict[str, Any]:
        """Both tables as one JSON object (for spaCy's to_disk / to_bytes)."""
        return self.tables

    # ---------------------------------------------------------------------------------------------
    @staticmethod
    def _fires(rule: _Rule, sentence: str, before: str, after: str, near: str, lowered: str = "") -> bool:
        if rule.gate and lowered and not any(g in lowered for g in rule.gate):
            return False
        if rule.scope == "before":
            return rule.regex.search(before) is not None
        if rule.scope == "after":
            return rule.regex.search(after) is not None
        if rule.scope == "near":
            return rule.regex.search(near) is not None
        return rule.regex.search(sentence) is not None

    def classify(self, sentence: str, citation: tuple[int, int] | None = None) -> ClaimDecision:
        """CLAIM or PASSING for the citation at ``sentence[citation[0]:citation[1]]`` (whole sentence if None)."""
        if citation is not None:
            start, end = citation
            if not (0 <= start <= end <= len(sentence)):
                raise ValueError(f"citation offsets {citation} outside the sentence (length {len(sentence)})")
            before = sentence[max(0, start - _BEFORE):start]
            after = sentence[end:end + _AFTER]
            near = sentence[max(0, start - _NEAR_BEFORE):start] + " " + sentence[end:end + _NEAR_AFTER]
        else:
            before, after, near = sentence, "", sentence
        lowered = sentence.lower()
        fired: dict[str, float] = {}  # rule name -> its strongest firing pattern (names count once)
        for rule in self.passing:
            if rule.weight > fired.get(rule.name, 0.0) and self._fires(rule, sentence, before, after, near, lowered):
                fired[rule.name] = rule.weight
        passing_total = sum(fired.values())
        best_passing = max(((w, n) for n, w in fired.items()), default=None)
        claim_total = 0.0
        best_claim: tuple[float, str] | None = None
        for rule in self.claim:
            if self._fires(rule, sentence, before, after, near, lowered):
                claim_total += rule.weight
                if best_claim is None or rule.weight > best_claim[0]:
                    best_claim = (rule.weight, rule.name)
        logit = self.bias + min(claim_total, self.claim_cap) - passing_total
        score = 1.0 / (1.0 + math.exp(-logit))
        if score >= self.threshold:
            return ClaimDecision("CLAIM", score, best_claim[1] if best_claim else "default_claim")
        return ClaimDecision("PASSING", score, best_passing[1] if best_passing else None)


DEFAULT_RULES = ClaimRules.default()


def classify_citation(sentence: str, citation: tuple[int, int] | None = None) -> ClaimDecision:
    """CLAIM when the sentence makes a claim the cited work supports; PASSING for supplier / reagent /
    kit / instrument / software / data-source / protocol / "as described previously" citations."""
    return DEFAULT_RULES.classify(sentence, citation)


def __getattr__(name: str) -> Any:
    """Lazy access to the spaCy factory, so importing this module never imports spaCy."""
    if name in ("make_claim_classifier", "ClaimClassifierComponent"):
        from chemref.nlp import claim_component

        return getattr(claim_component, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
