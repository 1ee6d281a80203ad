"""The recorded evaluation of the shipped question selector (``chemref/questions/data/selector_evaluation.json``,
written by ``chemref questions record-selector``): which weights it belongs to (:func:`selector_fingerprint`),
its cross-validated figures (:func:`selector_evaluation`) and the hashed ids of the labelled records the
weights were fitted on (:func:`training_overlap`)."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from chemref.questions.funnel.selector import default_selector

__all__ = ["EVALUATION_FILE", "selector_fingerprint", "id_hash", "selector_evaluation", "training_overlap"]

#: The recorded evaluation of the shipped selector (written by ``chemref questions record-selector``, read by
#: the card, the README and ``questions evaluate``).
EVALUATION_FILE = Path(__file__).resolve().parents[1] / "data" / "selector_evaluation.json"


def selector_fingerprint(selector: Any) -> str:
    """A short hash of what a selector computes (weights, standardisation, bias, threshold, version)."""
    body = json.dumps({"weights": dict(selector.weights), "means": dict(selector.means),
                       "scales": dict(selector.scales), "bias": selector.bias, "threshold": selector.threshold,
                       "version": selector.version}, sort_keys=True)
    return hashlib.sha1(body.encode("utf-8")).hexdigest()[:16]


def id_hash(ident: str) -> str:
    """A short hash of a record id (the recorded ``trained_ids`` hold these, not the ids)."""
    return hashlib.sha1(ident.encode("utf-8")).hexdigest()[:10]


@lru_cache(maxsize=1)
def _evaluation_file() -> dict[str, Any] | None:
    try:
        return json.loads(EVALUATION_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def selector_evaluation(selector: Any = None) -> dict[str, Any] | None:
    """The recorded evaluation of ``selector`` (default: the shipped one), or None when none was recorded
    for exactly these weights."""
    sel = selector if selector is not None else default_selector()
    data = _evaluation_file()
    if data is None or data.get("selector") != selector_fingerprint(sel):
        return None
    return data


def training_overlap(ids: Iterable[str], selector: Any = None) -> int:
    """How many of ``ids`` are labelled records the selector was trained on (0 when unknown)."""
    data = selector_evaluation(selector)
    if data is None:
        return 0
    trained = set(data.get("trained_ids", ()))
    return sum(1 for ident in ids if id_hash(str(ident)) in trained)
