"""The question selector: how likely an excerpt is to identify its one cited work, learned from labels.

A :class:`Selector` is a logistic regression over some of the interpretable features of the excerpt, its
sentence and the cited reference's title (:mod:`chemref.questions.funnel.selector_features`, whose
:data:`~chemref.questions.funnel.selector_features.FEATURE_TABLE` says what each measures). Its weights are a
versioned JSON file, checked against :func:`selector_schema` when read; the one shipped in the package
(``chemref/questions/data/selector.json``) is :func:`default_selector`.
:func:`~chemref.questions.funnel.selector_training.train_selector` refits the weights from any label file in the
format of the labelling guide (``chemref questions train-selector``), so a benchmark builder can retrain on labels
of their own.

The weights carry the recommended threshold (``--min-score``), chosen to put precision first
(:func:`~chemref.questions.funnel.selector_training.choose_threshold`); how the shipped weights were trained and
their cross-validated figures at the threshold are the weights file's ``meta``. ``--min-score`` sets any other
threshold at build time. What was tried beside these features, and what it measured, is in ``docs/selector.md``
and ``corpora/labels/README.md``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from chemref._io import atomic_write
from chemref.errors import InputError
from chemref.jsonl import check_schema, json_text, read_json
from chemref.questions.funnel.selector_features import FEATURES, claim_feature, selector_features

__all__ = ["Selector", "default_selector", "load_selector", "load_selector_cached", "shipped_selector_path",
           "selector_schema", "SELECTOR_FILE", "VERSION_PATTERN", "MAX_SELECTOR_BYTES", "MAX_WEIGHT"]

SELECTOR_FILE = "selector.json"


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
            handle.write(json_text(self.to_dict(), indent=1) + "\n")


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
