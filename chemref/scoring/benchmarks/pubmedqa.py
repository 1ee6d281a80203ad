"""PubMedQA (PQA-L, reasoning-required setting) scoring: accuracy and macro-F1 over yes / no / maybe.

As the official evaluator: the predictions must cover exactly the gold ids (missing or extra ids
are a :class:`~chemref.errors.ScoringError`, never silently scored), labels must be one of
``yes``, ``no``, ``maybe`` (lower case, as in the dataset; anything else is an error), and
macro-F1 is the unweighted mean of the three per-class F1 values, a class never predicted having
precision 0 and so F1 0 (scikit-learn's ``zero_division=0``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from chemref.errors import ScoringError
from chemref.jsonl import read_json
from chemref.scoring.report.model import ScoreReport
from chemref.scoring.stats.bootstrap import bootstrap_totals, percentile_interval, prf_arrays
from chemref.scoring.stats.resampling import DEFAULT_RESAMPLES, DEFAULT_SEED, Resampling

__all__ = ["score_pubmedqa", "LABELS", "read_labels"]

LABELS = ("yes", "no", "maybe")

PathLike = str | os.PathLike[str]


def read_labels(source: PathLike | Mapping[str, Any], *, role: str) -> dict[str, str]:
    """``{id: label}`` from a JSON file or a mapping; labels outside yes/no/maybe are an error."""
    path = str(source) if isinstance(source, (str, os.PathLike)) else None
    data = read_json(path, what="PubMedQA labels") if path is not None else source
    if not isinstance(data, Mapping):
        raise ScoringError(f"{role} must be a JSON object {{pmid: label}}, found {type(data).__name__}", path=path,
                           hint="PubMedQA answers are a dict of PMID -> yes|no|maybe")
    labels: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, Mapping) and "final_decision" in value:  # ori_pqal.json-shaped records
            value = value["final_decision"]
        if value not in LABELS:
            hint = "labels are lower case" if isinstance(value, str) and value.strip().lower() in LABELS else \
                "each answer must be one of yes, no, maybe"
            raise ScoringError(f"{role} label {value!r} for id {key!r} is not yes, no or maybe", path=path, hint=hint)
        labels[str(key)] = value
    return labels


def _f1(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def score_pubmedqa(gold: PathLike | Mapping[str, Any], pred: PathLike | Mapping[str, Any], *,
                   ci: float | None = None, resamples: int = DEFAULT_RESAMPLES,
                   seed: int = DEFAULT_SEED) -> ScoreReport:
    """Accuracy and macro-F1 of ``pred`` ({pmid: label}) against ``gold`` (e.g. ``test_ground_truth.json``).

    ``ci`` (e.g. 0.95) adds percentile bootstrap intervals over items (``resamples``, ``seed``)."""
    resampling = Resampling(ci, resamples, seed) if ci is not None else None
    gold_labels = read_labels(gold, role="gold")
    pred_labels = read_labels(pred, role="prediction")
    missing = sorted(set(gold_labels) - set(pred_labels))
    extra = sorted(set(pred_labels) - set(gold_labels))
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"{len(missing)} gold id(s) without a prediction (e.g. {', '.join(missing[:3])})")
        if extra:
            parts.append(f"{len(extra)} predicted id(s) not in the gold (e.g. {', '.join(extra[:3])})")
        raise ScoringError("predictions must cover exactly the gold ids: " + "; ".join(parts),
                           path=str(pred) if isinstance(pred, (str, os.PathLike)) else None,
                           hint="predict every test PMID once, and nothing else")
    if not gold_labels:
        raise ScoringError("the gold has no items", path=str(gold) if isinstance(gold, (str, os.PathLike)) else None)

    confusion = {g: {p: 0 for p in LABELS} for g in LABELS}
    for key, label in gold_labels.items():
        confusion[label][pred_labels[key]] += 1
    n = len(gold_labels)
    correct = sum(confusion[label][label] for label in LABELS)
    per_class: dict[str, dict[str, float | int]] = {}
    for label in LABELS:
        tp = confusion[label][label]
        fp = sum(confusion[g][label] for g in LABELS) - tp
        fn = sum(confusion[label].values()) - tp
        precision, recall, f1 = _f1(tp, fp, fn)
        per_class[label] = {"precision": precision, "recall": recall, "f1": f1, "support": tp + fn}
    never = [label for label in LABELS if not any(confusion[g][label] for g in LABELS)]
    diagnostics = tuple(f"class {label!r} is never predicted: its precision and F1 are 0" for label in never)
    intervals = None if resampling is None else _intervals(gold_labels, pred_labels, resampling)
    return ScoreReport.from_metrics(
        task="PubMedQA (PQA-L, reasoning-required)",
        metrics={"accuracy": correct / n, "macro_f1": sum(c["f1"] for c in per_class.values()) / len(LABELS)},
        n=n,
        definition="accuracy = correct / n; macro-F1 = unweighted mean of the F1 of yes, no and maybe "
                   "(a class never predicted has F1 0)",
        averaging=f"micro for accuracy, macro over the 3 classes for F1; {n} items",
        counts={"correct": correct},
        details={"per_class": per_class, "confusion": confusion},
        diagnostics=diagnostics,
        intervals=intervals, resampling=resampling, unit="item",
    )


def _intervals(gold: dict[str, str], pred: dict[str, str], resampling: Resampling) -> dict[str, list[float]]:
    """Bootstrap intervals of accuracy and macro-F1: items resampled, the confusion matrix recomputed."""
    import numpy as np

    index = {label: i for i, label in enumerate(LABELS)}
    cells = np.zeros((len(gold), 3, 3))
    for row, (key, label) in enumerate(gold.items()):
        cells[row, index[label], index[pred[key]]] = 1.0
    confusion = bootstrap_totals(cells, resampling.resamples, resampling.seed)  # (resamples, gold, pred)
    diagonal = np.diagonal(confusion, axis1=1, axis2=2)
    accuracy = diagonal.sum(axis=1) / len(gold)
    counts = np.stack([diagonal, confusion.sum(axis=1) - diagonal, confusion.sum(axis=2) - diagonal], axis=-1)
    macro_f1 = prf_arrays(counts)[2].mean(axis=1)
    return {name: [float(x) for x in percentile_interval(values, resampling.level)]
            for name, values in (("accuracy", accuracy), ("macro_f1", macro_f1))}
