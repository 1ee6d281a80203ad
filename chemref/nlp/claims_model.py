"""The trained claim-vs-passing model: a logistic regression over the words of a citing sentence and the rules'
verdict (pure Python at use; no spaCy, no numpy).

Every input is first put in one form, whatever the citation style: the citation that is classified becomes the
token ``tcit``, any other citation marker the sentence holds (``[12]``, ``(20,31,34)``, ``(Smith et al., 2010)``)
``ocit``; words are lower-cased and numbers become ``0``. The features are the word n-grams of that form, the words
next to ``tcit``, and, when the model was trained with them, the decision of :class:`chemref.nlp.claims.ClaimRules`
(its logit, the name of the rule that decided, every rule that fired). The weights are trained by ``training/claims/train.py`` (its
settings in ``training/claims/config.cfg``) and ship as ``data/claims_model.json``.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from chemref._io.limits import json_depth_problem
from chemref.errors import InputError
from chemref.jsonl import lone_surrogate, parse_json, unique_keys

__all__ = ["ClaimModel", "MODEL_FILE", "OTHER", "Settings", "TARGET", "features", "find_citation", "model_tokens"]

MODEL_FILE = "claims_model.json"
TARGET = "tcit"  # the citation that is classified
OTHER = "ocit"  # any other citation marker of the sentence
_LOGIT_CLIP = 8.0

#: Citation markers as the model reads them: the placeholders of chemref's questions and of public sets, numbered
#: brackets and parenthesised number lists, and any parenthesis holding a capital letter and a year. Looser than
#: :mod:`chemref.nlp.citation_markers` (which finds markers to link them to references) on purpose: here a false
#: marker costs one word, and the weights were trained on exactly this form.
_MARKER = re.compile(
    r"\[CITATION\]|\[CIT\]|#AUTHOR_TAG|<\|cit\|>"
    r"|\[\s*\d{1,4}[a-z]?(?:\s*[-–—,;]\s*\d{1,4}[a-z]?)*\s*\]"
    r"|\(\s*\d{1,4}(?:\s*[-–—,;]\s*\d{1,4})*\s*\)"
    r"|\((?=[^()]{0,200}?\b(?:1[89]|20)\d\d[a-z]?\b)(?=[^()]{0,200}?[A-Z])[^()]{1,200}\)")
_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?|\d+(?:[.,]\d+)*")


def find_citation(sentence: str) -> tuple[int, int] | None:
    """The span of the first citation marker of ``sentence`` (None when it has none)."""
    match = _MARKER.search(sentence)
    return (match.start(), match.end()) if match else None


def _words(text: str) -> list[str]:
    """Lower-cased words of ``text``, numbers as ``0``, citation markers as ``ocit``."""
    return ["0" if word[0].isdigit() else word.lower()
            for word in _TOKEN.findall(_MARKER.sub(" " + OTHER + " ", text))]


def model_tokens(sentence: str, citation: tuple[int, int] | None) -> tuple[list[str], int]:
    """The sentence in the model's form (see the module doc) and the index of ``tcit`` in it (-1 without one)."""
    if citation is None:
        return _words(sentence), -1
    start, end = citation
    before = _words(sentence[:start])
    return [*before, TARGET, *_words(sentence[end:])], len(before)


RULES_OFF, RULES_DECISION, RULES_EVIDENCE = "none", "decision", "evidence"


@dataclass(frozen=True, slots=True)
class Settings:
    """What the featuriser computes: n-grams up to ``ngrams``, ``window`` words each side of the citation, the
    n-grams of the citation's clause apart when ``clause``, and from the rules: nothing (``"none"``), their
    decision (``"decision"``: its logit and the deciding rule) or that and every rule that fired (``"evidence"``)."""

    ngrams: int = 2
    window: int = 3
    rules: str = RULES_EVIDENCE
    clause: bool = False

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Settings":
        rules = data.get("rules", RULES_EVIDENCE)
        if rules not in (RULES_OFF, RULES_DECISION, RULES_EVIDENCE):
            raise ValueError(f"rules setting {rules!r} is not one of none, decision, evidence")
        return cls(int(data.get("ngrams", 2)), int(data.get("window", 3)), rules, bool(data.get("clause", False)))

    def to_json(self) -> dict[str, Any]:
        return {"ngrams": self.ngrams, "window": self.window, "rules": self.rules, "clause": self.clause}


def _grams(tokens: list[str], n_max: int, prefix: str, feats: dict[str, float]) -> None:
    """The 1- to ``n_max``-grams of ``tokens`` (with sentence-boundary marks from bigrams on) into ``feats``, in
    the order of n, then of position (the order the weights are summed in)."""
    for word in tokens:  # a token is letters or digits, never a boundary mark
        feats[prefix + word] = 1.0
    if n_max < 2:
        return
    padded = ["<s>", *tokens, "</s>"]
    for first, second in zip(padded, padded[1:]):
        feats[f"{prefix}{first} {second}"] = 1.0
    for n in range(3, n_max + 1):
        for i in range(len(padded) - n + 1):
            feats[prefix + " ".join(padded[i:i + n])] = 1.0


def features(sentence: str, citation: tuple[int, int] | None, settings: Settings, rule_decision: Any = None,
             rule_names: tuple[str, ...] = (), clause: tuple[int, int] | None = None) -> dict[str, float]:
    """The model's features of one citing sentence (name -> value; binary ones are 1.0). ``rule_decision`` and
    ``rule_names`` are what :meth:`chemref.nlp.claims.ClaimRules.evidence` gives on the same input, ``clause``
    the span of the citation's clause (:func:`chemref.nlp.claims.citation_clause`)."""
    tokens, at = model_tokens(sentence, citation)
    feats: dict[str, float] = {}
    _grams(tokens, settings.ngrams, "g:", feats)
    if at >= 0 and settings.window:
        for word in tokens[max(0, at - settings.window):at]:
            feats["l:" + word] = 1.0
        for word in tokens[at + 1:at + 1 + settings.window]:
            feats["r:" + word] = 1.0
    inner = _clause_tokens(sentence, citation, settings, clause, tokens)
    if inner is not None:
        _grams(inner, settings.ngrams, "c:", feats)
    feats.update(_rule_features(settings, rule_decision, rule_names))
    return feats


def _clause_tokens(sentence: str, citation: tuple[int, int] | None, settings: Settings,
                   clause: tuple[int, int] | None, tokens: list[str]) -> list[str] | None:
    """The words of the citation's clause in the model's form (``tokens``, the sentence's, when the clause is
    the whole sentence); None when the clause's n-grams are not features."""
    if not settings.clause or citation is None or clause is None:
        return None
    c0, c1 = clause
    if c0 == 0 and c1 >= len(sentence):  # the clause is the sentence: the same words
        return tokens
    return model_tokens(sentence[c0:c1], (citation[0] - c0, citation[1] - c0))[0]


def _rule_features(settings: Settings, rule_decision: Any, rule_names: tuple[str, ...]) -> dict[str, float]:
    """The features from the rules' decision (``rules:logit``, ``rules:<rule>``, ``fired:<name>``), in order."""
    feats: dict[str, float] = {}
    if settings.rules != RULES_OFF and rule_decision is not None:
        p = min(max(rule_decision.score, 1e-6), 1 - 1e-6)
        feats["rules:logit"] = max(-_LOGIT_CLIP, min(_LOGIT_CLIP, math.log(p / (1 - p)))) / 4.0
        feats["rules:" + str(rule_decision.rule)] = 1.0
        if settings.rules == RULES_EVIDENCE:
            for name in rule_names:
                feats["fired:" + name] = 1.0
    return feats


class _GramWeights:
    """A model's weights of the sentence's and the clause's n-grams (up to 2) found with one look-up per n-gram:
    ``pairs[gram]`` is ``(weight of "g:" + gram, weight of "c:" + gram)``, None for a feature without one, for
    each word and word pair (``"first second"``) with a weight (the same word's two features are read
    together: fewer places of memory to visit)."""

    __slots__ = ("weights", "pairs")

    def __init__(self, weights: dict[str, float]) -> None:
        self.weights = weights  # (the dict the table was made from: a model given another one makes a new one)
        sentence = {name[2:]: weight for name, weight in weights.items() if name[:2] == "g:"}
        clause = {name[2:]: weight for name, weight in weights.items() if name[:2] == "c:"}
        grams = {**sentence, **clause}
        self.pairs = dict(zip(grams, zip(map(sentence.get, grams), map(clause.get, grams))))

    def _found(self, tokens: list[str], n_max: int) -> tuple[list[Any], list[Any]]:
        """The ``pairs`` entries (None without one) of the distinct words of ``tokens`` and, when ``n_max`` >= 2,
        of their distinct word pairs (with the sentence-boundary marks), each in the order first seen."""
        get = self.pairs.get
        unigrams = list(map(get, dict.fromkeys(tokens)))
        if n_max < 2:
            return unigrams, []
        padded = ["<s>", *tokens, "</s>"]
        return unigrams, list(map(get, dict.fromkeys(map(" ".join, zip(padded, padded[1:])))))

    def terms(self, tokens: list[str], at: int, inner: list[str] | None, settings: Settings) -> list[float]:
        """weight * value of the n-gram and window features of :func:`features` that have a weight, in its order
        (those without one would add zeros): the sentence's n-grams, the window, the clause's n-grams."""
        unigrams, bigrams = self._found(tokens, settings.ngrams)
        terms = [found[0] for found in unigrams if found is not None and found[0] is not None]
        terms += [found[0] for found in bigrams if found is not None and found[0] is not None]
        if at >= 0 and settings.window:
            get = self.weights.get
            for prefix, words in (("l:", tokens[max(0, at - settings.window):at]),
                                  ("r:", tokens[at + 1:at + 1 + settings.window])):
                terms += [weight for weight in map(get, [prefix + word for word in dict.fromkeys(words)])
                          if weight is not None]
        if inner is not None:
            if inner is not tokens:
                unigrams, bigrams = self._found(inner, settings.ngrams)
            terms += [found[1] for found in unigrams if found is not None and found[1] is not None]
            terms += [found[1] for found in bigrams if found is not None and found[1] is not None]
        return terms


def _float_weights(weights: Any) -> dict[str, float]:
    """``weights`` (a mapping) as a new dict of str -> float (TypeError, ValueError or AttributeError when it
    cannot be one). A dict read from JSON already is one, with float values: then it is copied whole."""
    weights = dict(weights)
    if set(map(type, weights)) <= {str} and set(map(type, weights.values())) <= {float}:
        return weights
    return {str(k): float(v) for k, v in weights.items()}


def _strict_json(raw: bytes, path: str | Path) -> Any:
    """The JSON document ``raw`` as :func:`chemref.jsonl.parse_json` reads it, with its checks (UTF-8, nesting,
    no key twice, finite numbers, no lone surrogate), but the numbers read by json's own reader and checked
    finite afterwards in one pass (:func:`_finite`), not by a call per number: a model holds thousands.
    Anything in doubt goes to ``parse_json`` itself, which raises the same InputError as always."""
    try:
        if b"\0" not in raw[:4] and json_depth_problem(raw) is None:
            text = raw.decode("utf-8")  # (a BOM, which parse_json drops, is refused by json: parse_json then)
            value = json.loads(text, parse_constant=_constant, object_pairs_hook=unique_keys)
            if _finite(value) and lone_surrogate(text, value) is None:
                return value
    except (ValueError, RecursionError):  # bad UTF-8 or JSON, a key twice, NaN or Infinity, a huge integer
        pass
    return parse_json(raw, path=path)


def _constant(text: str) -> float:
    raise ValueError(text)  # NaN, Infinity, -Infinity: not JSON


def _finite(value: Any) -> bool:
    """No float in ``value`` (lists and dicts nested at most MAX_JSON_DEPTH deep) is infinite or NaN."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        value = list(value.values())
    elif not isinstance(value, list):
        return True
    try:
        return all(map(math.isfinite, value))  # numbers only (the weights): one pass at C speed
    except (TypeError, OverflowError):  # strings, lists, objects, None; an integer too large for a float
        return all(map(_finite, value))


class ClaimModel:
    """Weights of the logistic regression (log-odds of CLAIM), its bias, threshold and featuriser settings."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        try:
            self.settings = Settings.from_json(data["settings"])
            self.bias = float(data["bias"])
            self.threshold = float(data.get("threshold", 0.5))
            self.weights = _float_weights(data["weights"])
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:  # (a 400-digit weight)
            raise InputError(f"invalid claim model ({type(exc).__name__}: {exc})",
                             hint="expected {'settings': {...}, 'bias': ..., 'weights': {...}}") from None
        if not 0.0 < self.threshold < 1.0:
            raise InputError(f"invalid claim model: threshold {self.threshold} is not between 0 and 1")
        odd = None if math.isfinite(self.bias) and all(map(math.isfinite, self.weights.values())) else next(
            (name for name, value in (("bias", self.bias), *self.weights.items()) if not math.isfinite(value)), None)
        if odd is not None:
            raise InputError(f"invalid claim model: the {'bias' if odd == 'bias' else 'weight of ' + repr(odd[:80])} "
                             "is not a finite number", hint="retrain with training/claims/train.py")
        self.meta = dict(data.get("meta", {}))
        self._grams: _GramWeights | None = None  # made from ``weights`` at the first logit

    @classmethod
    def default(cls) -> "ClaimModel":
        """The shipped model (``chemref/nlp/data/claims_model.json``)."""
        return cls.from_file(Path(str(resources.files("chemref.nlp") / "data" / MODEL_FILE)))

    @classmethod
    def from_file(cls, path: str | Path) -> "ClaimModel":
        """A model written by :meth:`to_json` (InputError naming the file when it is not one)."""
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read the claim model ({type(exc).__name__}: {exc})", path=str(path),
                             hint="reinstall chemref, or retrain with training/claims/train.py") from None
        data = _strict_json(raw, path)  # finite numbers, no key twice, bounded nesting
        if not isinstance(data, dict):
            raise InputError("the claim model is not a JSON object", path=str(path))
        return cls(data)

    def to_json(self) -> dict[str, Any]:
        return {"settings": self.settings.to_json(), "bias": self.bias, "threshold": self.threshold,
                "weights": self.weights, "meta": self.meta}

    def logit(self, sentence: str, citation: tuple[int, int] | None, rule_decision: Any = None,
              rule_names: tuple[str, ...] = (), clause: tuple[int, int] | None = None) -> float:
        """Log-odds of CLAIM (the arguments are those of :func:`features`): the bias plus weight * value of each
        feature, in the order :func:`features` gives them (the n-grams' weights read through a
        :class:`_GramWeights` of ``weights``, made at the first call: new weights go in as a new dict)."""
        settings = self.settings
        get = self.weights.get
        if settings.ngrams > 2:
            feats = features(sentence, citation, settings, rule_decision, rule_names, clause)
            return self.bias + sum([get(name, 0.0) * value for name, value in feats.items()])
        table = self._grams
        if table is None or table.weights is not self.weights:
            table = self._grams = _GramWeights(self.weights)
        tokens, at = model_tokens(sentence, citation)
        terms = table.terms(tokens, at, _clause_tokens(sentence, citation, settings, clause, tokens), settings)
        terms += [get(name, 0.0) * value
                  for name, value in _rule_features(settings, rule_decision, rule_names).items()]
        return self.bias + sum(terms)

    def probability(self, sentence: str, citation: tuple[int, int] | None, rule_decision: Any = None,
                    rule_names: tuple[str, ...] = (), clause: tuple[int, int] | None = None) -> float:
        """P(CLAIM)."""
        z = self.logit(sentence, citation, rule_decision, rule_names, clause)
        return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
