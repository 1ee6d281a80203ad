"""Paired comparison of several systems on the same gold: a leaderboard with intervals and p-values.

Every system is scored on the same documents (queries, questions); its per-document rows are kept, so each
headline metric gets a percentile bootstrap interval (the same resampled documents for every system) and
the primary metric of every system is compared with the best system's by a paired test
(:func:`~chemref.scoring.stats.bootstrap.randomization_test` by default, 10,000 trials, or the paired bootstrap).

:func:`compare_brat`, :func:`compare_ranking` and :func:`compare_questions` build one from files;
:func:`build_leaderboard` from per-document rows already in memory.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from chemref._version import __version__
from chemref.errors import InputError, printable
from chemref.scoring.benchmarks.citation_prediction import score_questions
from chemref.scoring.benchmarks.ranking import score_ranking
from chemref.scoring.brat.score import score_brat
from chemref.scoring.report.model import ScoreReport
from chemref.scoring.stats.bootstrap import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    DEFAULT_TRIALS,
    TESTS,
    Resampling,
    Statistic,
    bootstrap_totals,
    f1_of,
    mean_of,
    paired_test,
    percentile_interval,
    precision_of,
    recall_of,
)
from chemref.scoring.stats.resampling import checked_draws, plural

if TYPE_CHECKING:  # numpy is imported by the functions that use it: importing the CLI's scorers stays light
    import numpy as np

__all__ = ["SystemRow", "build_leaderboard", "compare_brat", "compare_ranking",
           "compare_questions", "system_names"]

PathLike = str | os.PathLike[str]

@dataclass(frozen=True, slots=True)
class SystemRow:
    """One system of a leaderboard: its metrics, their intervals and the test against the best system."""

    name: str
    rank: int
    metrics: dict[str, float]
    intervals: dict[str, list[float]]
    difference: float | None = None   # this system - best, on the primary metric (None for the best)
    p_value: float | None = None      # None for the best system

    def to_dict(self) -> dict[str, Any]:
        return {"system": self.name, "rank": self.rank, **self.metrics,
                "ci": {m: list(v) for m, v in self.intervals.items()},
                "difference_to_best": self.difference, "p_value": self.p_value}


def system_names(preds: Sequence[PathLike], names: Sequence[str] | None) -> list[str]:
    """``names`` (checked: one per prediction, distinct) or names made from the prediction paths."""
    if names is not None:
        names = [n.strip() for n in names]
        if len(names) != len(preds):
            raise InputError(f"{len(names)} name(s) for {len(preds)} prediction(s)",
                             hint="give one name per prediction, comma-separated, in the same order")
        bad = next((n for n in names if not n.isprintable()), None)
        if bad is not None:
            raise InputError(f"system name {printable(bad)!r} holds a newline or another control character",
                             hint="give each name as one line of printable text")
        if len(set(names)) != len(names) or not all(names):
            raise InputError(f"system names must be distinct and non-empty, got {','.join(names)}")
        return names
    out = []
    for p in preds:
        base = os.path.basename(os.path.normpath(str(p)))
        out.append(base if os.path.isdir(p) else os.path.splitext(base)[0] or base)
    if len(set(out)) != len(out):  # same folder name in different places: use the whole paths
        out = [str(p) for p in preds]
    return out


def build_leaderboard(names: Sequence[str], rows: Sequence[np.ndarray], statistics: Mapping[str, Statistic],
                      primary: str, *, unit: str, averaging: str, title: str, test: str = "randomization",
                      trials: int | None = None, resampling: Resampling | None = None,
                      meta: Mapping[str, Any] | None = None, diagnostics: Sequence[str] = ()) -> ScoreReport:
    """Rank systems whose per-``unit`` ``rows`` (one array per system, same items in the same order) give the
    metrics ``statistics`` (``{name: function of summed rows}``); test every system against the best on
    ``primary``. ``trials`` defaults to 10,000 for randomization and to the bootstrap resamples otherwise."""
    import numpy as np

    if test not in TESTS:
        raise InputError(f"unknown test {test!r}", hint="use randomization or bootstrap")
    resampling = resampling or Resampling()
    if trials is None:
        trials = DEFAULT_TRIALS if test == "randomization" else resampling.resamples
    checked_draws(trials, "trials")
    if primary not in statistics:
        raise InputError(f"unknown primary metric {primary!r}", hint=f"use one of {', '.join(statistics)}")
    arrays = [np.asarray(r, dtype=np.float64) for r in rows]
    n = arrays[0].shape[0] if arrays else 0
    metrics: list[dict[str, float]] = []
    intervals: list[dict[str, list[float]]] = []
    # one bootstrap for all systems: the same resampled documents, drawn once
    boot_all = bootstrap_totals(np.stack(arrays, axis=1), resampling.resamples, resampling.seed) if arrays else None
    for index, a in enumerate(arrays):
        totals = a.sum(axis=0)[None]
        metrics.append({m: float(f(totals)[0]) for m, f in statistics.items()})
        boot = boot_all[:, index]  # type: ignore[index]
        intervals.append({m: [float(x) for x in percentile_interval(f(boot), resampling.level)]
                          for m, f in statistics.items()})
    order = sorted(range(len(arrays)), key=lambda i: -metrics[i][primary])  # stable: input order on ties
    best = order[0]
    out = []
    for i in order:
        rank = 1 + sum(metrics[j][primary] > metrics[i][primary] for j in order)  # ties share a rank
        if i == best:
            out.append(SystemRow(names[i], rank, metrics[i], intervals[i]))
            continue
        diff, p = paired_test(test, arrays[best], arrays[i], statistics[primary], trials=trials,
                              seed=resampling.seed)
        out.append(SystemRow(names[i], rank, metrics[i], intervals[i], -diff + 0.0, p))
    what = ("paired approximate randomization (each " + unit + "'s results swapped with probability 1/2)"
            if test == "randomization" else "paired bootstrap (same resampled " + plural(unit) + " for both systems, "
            "differences centred on their mean)")
    test_meta = {"name": test, "trials": trials, "seed": resampling.seed, "two_sided": True,
                 "p": "(c + 1) / (trials + 1)", "against": names[best], "metric": primary,
                 "description": f"two-sided {what} on {primary} against the best system, {trials:,} "
                                f"{'trials' if test == 'randomization' else 'resamples'}, seed {resampling.seed}, "
                                f"p = (c+1)/(n+1)"}
    full_meta = {"chemref_version": __version__, **(meta or {}), "primary": primary, "averaging": averaging,
                 "unit": unit, "n": n, "systems": len(arrays),
                 "ci": {**resampling.to_dict(), "unit": unit,
                        "description": resampling.describe(unit, n)},
                 "test": test_meta}
    return ScoreReport.from_leaderboard(title=title, primary=primary, metrics=tuple(statistics), systems=out,
                                        meta=full_meta, diagnostics=diagnostics)


# --------------------------------------------------------------------------------------------- scorers

def compare_brat(gold: PathLike, preds: Sequence[PathLike], *, names: Sequence[str] | None = None,
                 test: str = "randomization", trials: int | None = None, ci: float = DEFAULT_LEVEL,
                 resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, **options: Any) -> ScoreReport:
    """Leaderboard of BRAT predictions against one gold: P, R and F1 of the report's primary figure (ChEMU 2021:
    relations, exact, COREFERENCE expanded), each with its interval, and the paired test on F1.

    ``options`` are :func:`~chemref.scoring.score_brat`'s (``mode``, ``level``, ``span``, ``jobs`` ...).
    """
    import numpy as np

    labels = system_names(preds, names)
    resampling = Resampling(ci, resamples, seed)
    rows = []
    diagnostics: list[str] = []
    primary_label = ""
    meta: dict[str, Any] = {}
    gold_cache: dict = {}  # the gold is parsed once for all systems
    for label, pred in zip(labels, preds):
        report = score_brat(gold, pred, doc_counts=True, gold_cache=gold_cache, **options)
        meta = report["meta"]
        primary_label = meta["primary"].split(" ")[0]
        key = (primary_label, "all")
        rows.append(np.array([r.get(key, (0, 0, 0)) for r in report.doc_counts or []], dtype=np.float64)
                    .reshape(-1, 3))
        diagnostics += [f"{label}: {w}" for w in report.diagnostics]
    title = (f"leaderboard: {len(labels)} systems, {primary_label}, {meta.get('documents', 0)} documents "
             f"(gold {gold})")
    extra = {"mode": meta.get("mode"), "report": primary_label, "matching": meta.get("matching"),
             "documents": meta.get("documents"), "gold": str(gold), "predictions": [str(p) for p in preds]}
    return build_leaderboard(labels, rows, {"precision": precision_of, "recall": recall_of, "f1": f1_of}, "f1",
                             unit="document", averaging="micro (counts summed over documents, then P/R/F1)",
                             title=title, test=test, trials=trials, resampling=resampling, meta=extra,
                             diagnostics=diagnostics)


def _compare_means(gold: PathLike, preds: Sequence[PathLike], score: Callable[[PathLike], Any], *, unit: str,
                   task: str, meta_task: str, averaging: str | None, names: Sequence[str] | None,
                   primary: str | None, test: str, trials: int | None, ci: float, resamples: int,
                   seed: int) -> ScoreReport:
    """Leaderboard of systems whose metrics are means over ``unit`` items (queries, questions): ``score(pred)``
    is a benchmark report with every item's values in ``details["per_<unit>"]``; the items are paired.
    ``averaging`` describes the mean (None: the reports' own description); ``primary`` defaults to the first metric."""
    import numpy as np

    labels = system_names(preds, names)
    per_item: list[dict[str, dict[str, float]]] = []
    diagnostics: list[str] = []
    report = None
    for label, pred in zip(labels, preds):
        report = score(pred)
        per_item.append(report[f"per_{unit}"])
        diagnostics += [f"{label}: {d}" for d in report.diagnostics]
    metric_names = list(report.metrics) if report is not None else []
    items = list(per_item[0]) if per_item else []
    for label, values in zip(labels[1:], per_item[1:]):
        if values.keys() != per_item[0].keys():
            raise InputError(f"{label} is scored on other {unit}s than {labels[0]} "
                             f"({len(values)} against {len(per_item[0])}), so they cannot be compared pairwise",
                             hint=f"score every {unit} of the gold (e.g. --empty-queries count)")
    rows = [np.array([[values[item][m] for m in metric_names] for item in items], dtype=np.float64)
            .reshape(len(items), len(metric_names)) for values in per_item]
    stats = {m: mean_of(j, len(items)) for j, m in enumerate(metric_names)}
    if averaging is None:
        averaging = report["averaging"] if report is not None else f"mean over {plural(unit)}"
    return build_leaderboard(labels, rows, stats, primary or metric_names[0], unit=unit, averaging=averaging,
                             title=f"leaderboard: {len(labels)} systems, {task} (gold {gold})", test=test,
                             trials=trials, resampling=Resampling(ci, resamples, seed),
                             meta={"task": meta_task, "gold": str(gold), "predictions": [str(p) for p in preds]},
                             diagnostics=diagnostics)


def compare_ranking(gold: PathLike, preds: Sequence[PathLike], *, names: Sequence[str] | None = None,
                    primary: str | None = None, test: str = "randomization", trials: int | None = None,
                    ci: float = DEFAULT_LEVEL, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                    **options: Any) -> ScoreReport:
    """Leaderboard of rankings (Recall@K, MRR@K) against one gold; the paired unit is the query.
    ``primary`` defaults to the first metric (``recall@K`` of the first K)."""
    return _compare_means(gold, preds, lambda pred: score_ranking(gold, pred, per_query=True, **options),
                          unit="query", task="citation recommendation", meta_task="citation recommendation (ranking)",
                          averaging=None, names=names, primary=primary, test=test, trials=trials, ci=ci,
                          resamples=resamples, seed=seed)


def compare_questions(questions: PathLike, preds: Sequence[PathLike], *, names: Sequence[str] | None = None,
                      primary: str | None = None, test: str = "randomization", trials: int | None = None,
                      ci: float = DEFAULT_LEVEL, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                      **options: Any) -> ScoreReport:
    """Leaderboard of citation predictions (accuracy@1, Recall@K, MRR@K); the paired unit is the question."""
    return _compare_means(questions, preds, lambda pred: score_questions(questions, pred, per_question=True, **options),
                          unit="question", task="citation prediction", meta_task="citation prediction",
                          averaging="mean over all questions (a question without a prediction counts 0)",
                          names=names, primary=primary, test=test, trials=trials, ci=ci, resamples=resamples,
                          seed=seed)
