"""Training a selector from labels: an L2-regularised logistic regression fitted by Newton's method, scored by
article-grouped cross-validation with a fixed seed, and the threshold read off the cross-validated
precision-yield curve (:func:`choose_threshold`). ``chemref questions train-selector`` calls
:func:`train_selector`."""

from __future__ import annotations

import math
import re
import warnings
from typing import Any, Callable, Iterable, Mapping, Sequence

from chemref.errors import InputError, printable
from chemref.questions.funnel.selector import VERSION_PATTERN, Selector
from chemref.questions.funnel.selector_features import DEFAULT_FEATURES, FEATURES, selector_features

__all__ = ["train_selector", "choose_threshold", "cascade_threshold", "article_of", "FALLBACK_GOOD_KEPT",
           "JUDGE_GOOD_KEPT", "TRAINED_ON"]


def article_of(record_id: str) -> str:
    """The article part of a record id (``<key>-p3-s1`` -> ``<key>``): folds never split an article."""
    match = re.match(r"(.+)-[pc]\d+-s\d+$", record_id)
    return match.group(1) if match else record_id


def _fit(x: Any, y: Any, l2: float, iterations: int = 50) -> tuple[Any, float]:
    """L2-regularised logistic regression by Newton's method (the bias is not penalised)."""
    import numpy as np

    n, d = x.shape
    design = np.hstack([np.ones((n, 1)), x])
    beta = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -35, 35)))
        gradient = design.T @ (p - y) + penalty * beta
        hessian = (design * (p * (1 - p))[:, None]).T @ design + np.diag(penalty) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return beta[1:], float(beta[0])


def _standardise(x: Any) -> tuple[Any, Any]:

    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales == 0] = 1.0
    return means, scales


#: The share of the good candidates the default threshold keeps when the precision target is out of reach.
FALLBACK_GOOD_KEPT = 0.33


def choose_threshold(scores: Sequence[float], good: Sequence[bool], *, min_precision: float = 0.85,
                     min_good_kept: float = 0.6, min_kept: int = 20,
                     fallback_good_kept: float | None = FALLBACK_GOOD_KEPT) -> float:
    """The threshold for ``--min-score``, read off the (cross-validated) precision-yield curve: the lowest
    threshold whose kept set (at least ``min_kept`` items) reaches ``min_precision`` while keeping at least
    ``min_good_kept`` of the good items. When no threshold does (precision first): the highest threshold that
    still keeps ``fallback_good_kept`` of the good items (and at least ``min_kept`` items); with
    ``fallback_good_kept`` None or 0 (``train-selector --fallback-good-kept 0``): the maximum of F0.5
    instead (precision weighted twice as much as the share of good items kept).

    Precision comes first because the figure that counts is the good share of the kept questions on
    articles the selector never saw, and a benchmark builder over PMC has millions of candidates, to whom
    yield is cheap. On a flat curve the F0.5 maximum sits wherever the noise puts it, while the threshold
    that keeps a given share of the good items is pinned down by many items. The measurements behind the
    default are in ``corpora/labels/README.md``."""
    if fallback_good_kept is not None and not 0.0 <= fallback_good_kept <= 1.0:
        raise ValueError(f"fallback_good_kept must be a share from 0 to 1 (or None), got {fallback_good_kept!r}")
    pairs = sorted(zip(scores, good), key=lambda p: -p[0])
    total_good = sum(1 for _, g in pairs if g)
    need = max(1, math.ceil((fallback_good_kept or 0.0) * total_good - 1e-9))
    reached: float | None = None
    best: tuple[float, float] | None = None
    fallback: float | None = None
    kept_good = 0
    for i, (score, is_good) in enumerate(pairs, start=1):
        kept_good += is_good
        if i < len(pairs) and pairs[i][0] == score:
            continue  # a threshold keeps every item with an equal score
        if i < min_kept:
            continue
        precision = kept_good / i
        recall = kept_good / total_good if total_good else 0.0
        if precision >= min_precision and recall >= min_good_kept:
            reached = score
        if fallback is None and kept_good >= need:
            fallback = score
        if precision + recall > 0:
            f_half = 1.25 * precision * recall / (0.25 * precision + recall)
            if best is None or f_half > best[0]:
                best = (f_half, score)
    if reached is not None:
        return round(reached, 4)
    if fallback_good_kept and fallback is not None:
        return round(fallback, 4)
    return round(best[1], 4) if best else 0.0


#: The share of the good candidates the judge's cascade lets through (``judge prepare``'s default --min-score).
JUDGE_GOOD_KEPT = 0.9


def cascade_threshold(scores: Sequence[float], good: Sequence[bool], share: float = JUDGE_GOOD_KEPT) -> float:
    """The highest threshold whose kept set holds at least ``share`` of the good items (read off the
    cross-validated scores): where the judge's cascade starts, so that the selector passes on nearly every good
    candidate and the judge decides precision."""
    ranked = sorted((score for score, is_good in zip(scores, good) if is_good), reverse=True)
    if not ranked:
        return 0.0
    need = max(1, math.ceil(share * len(ranked) - 1e-9))
    return round(ranked[need - 1], 4)


def _blended_targets(ids: Sequence[str], y: Any, soft: Mapping[str, float], label_weight: float) -> tuple[Any, int]:
    """What :func:`train_selector` fits: the labels, blended with the soft targets where a record has one;
    and how many records have one."""
    import numpy as np

    if label_weight >= 1.0:
        return y, 0
    bad = next((k for k, v in soft.items() if not (isinstance(v, (int, float)) and 0.0 <= v <= 1.0)), None)
    if bad is not None:
        raise InputError(f"the soft target of {bad!r} must be a probability from 0 to 1, got {soft[bad]!r}")
    has = np.array([i in soft for i in ids])
    if not has.any():
        raise InputError("no labelled record has a soft target: the soft targets name other ids",
                         hint="give the judge's responses to the same candidates (custom_id = record id)")
    other = np.array([float(soft.get(i, 0.0)) for i in ids])
    return np.where(has, label_weight * y + (1.0 - label_weight) * other, y), int(has.sum())


#: The records a selector learns from: those it scores in a build (kept, or rejected at a score stage)
#: and those lost only for want of a DOI (a question with ``--answer-key doi-or-pmid``).
TRAINED_ON = (None, "min_findability", "min_score", "per_target_cap", "per_article_cap", "has_doi")


def train_selector(records: Iterable[Mapping[str, Any]], labels: Mapping[str, bool], *, folds: int = 5,
                   seed: int = 0, l2: float = 30.0, version: str = "custom",
                   features: Sequence[str] = DEFAULT_FEATURES,
                   min_precision: float = 0.85, min_good_kept: float = 0.6,
                   fallback_good_kept: float | None = FALLBACK_GOOD_KEPT,
                   soft_targets: Mapping[str, float] | None = None, label_weight: float = 1.0,
                   recalled: Mapping[str, bool | None] | None = None, recalled_target: float = 0.0,
                   progress: Callable[[str], None] | None = None) -> tuple[Selector, dict[str, float]]:
    """Fit a selector on the records that have a ``good_question`` label (true/false; nulls are left
    out) and whose ``reason`` is one of :data:`TRAINED_ON`, on ``features`` (by default
    :data:`DEFAULT_FEATURES`). Returns the selector fitted on all of them and the cross-validated score of every labelled
    record (each scored by a model fitted on the other folds; folds group records by article, assigned
    with ``seed``). The threshold is chosen on the cross-validated scores (:func:`choose_threshold`): the
    lowest reaching ``min_precision`` with ``min_good_kept`` of the good ones kept, else the highest keeping
    ``fallback_good_kept`` of them (None or 0: the F0.5 maximum).

    ``soft_targets`` (id -> a probability that the record is a good question, such as a judge model's
    confidence) with ``label_weight`` below 1: the model is fitted to ``label_weight * label + (1 - label_weight)
    * soft target`` where a record has one (its label alone where not); the cross-validated scores and the
    threshold are still judged against the labels alone.

    ``recalled`` (id -> whether a model names the record's cited work from the excerpt alone:
    :func:`~chemref.questions.closed_book.recall.recalled_records`; ``train-selector --target good-not-recalled``):
    the model is fitted to "good and not recalled" (a recalled record's target is multiplied by
    ``recalled_target``: 0 by default, so a recalled good record counts as not good; 0.5 fits it halfway); every
    record fitted must
    have a known recall (an :class:`InputError` otherwise: an unanswered record is never counted as not
    recalled). The threshold is still chosen against the labels alone, by the same rule, so that the kept set
    keeps the same share of the good candidates."""
    _check_options(version, label_weight, soft_targets, fallback_good_kept, seed)
    import numpy as np

    rows = [r for r in records if labels.get(str(r.get("id"))) is not None and r.get("reason") in TRAINED_ON]
    if len(rows) < 20:
        raise InputError(f"need at least 20 labelled records to train a selector, got {len(rows)}")
    ids = [str(r["id"]) for r in rows]
    features = _checked_features(features)
    x = np.array([[values[name] for name in features] for values in
                  (selector_features(r, features) for r in rows)], dtype=float)
    y = np.array([1.0 if labels[i] else 0.0 for i in ids])
    if y.min() == y.max():
        raise InputError("the labels hold only one class: a selector needs good and bad examples")
    targets, softened = _blended_targets(ids, y, soft_targets or {}, label_weight)
    if recalled is not None:
        targets = targets * _recall_factors(ids, recalled, recalled_target)
    articles = sorted({article_of(i) for i in ids})
    folds = _fold_count(folds, len(articles))
    fold = _fold_of(ids, articles, folds, seed)
    cv = _cross_validated(x, targets, fold, folds, l2, progress)
    means, scales = _standardise(x)
    w, b = _fit((x - means) / scales, targets, l2)
    cv_scores = {i: round(float(s), 4) for i, s in zip(ids, cv)}
    good = [bool(v) for v in y]
    threshold, rule = _threshold_and_rule(list(cv_scores.values()), good, min_precision, min_good_kept,
                                          fallback_good_kept)
    meta = {"trained_on": len(rows), "good": int(y.sum()), "articles": len(articles), "folds": folds,
            "seed": seed, "l2": l2, "model": "logistic regression (Newton, L2 on standardised features)",
            "features": len(features),
            **({"soft_targets": {"label_weight": label_weight, "records": softened}} if softened else {}),
            **({"target": "good and not recalled", "recalled": int(sum(bool(recalled[i]) for i in ids)),
                "recalled_target": recalled_target} if recalled is not None else {}),
            "threshold_rule": rule,
            "judge_threshold": cascade_threshold(list(cv_scores.values()), good),
            "judge_threshold_rule": f"highest threshold keeping {JUDGE_GOOD_KEPT:g} of the good ones "
                                    "(cross-validated): where the judge's cascade starts"}
    selector = Selector(
        weights={name: round(float(v), 6) for name, v in zip(features, w)},
        means={name: round(float(v), 6) for name, v in zip(features, means)},
        scales={name: round(float(v), 6) for name, v in zip(features, scales)},
        bias=round(b, 6), threshold=threshold, version=version, meta=meta)
    return selector, cv_scores


def _check_options(version: str, label_weight: float, soft_targets: Mapping[str, float] | None,
                   fallback_good_kept: float | None, seed: int) -> None:
    """:func:`train_selector`'s options that are checked before anything is read."""
    if not re.fullmatch(VERSION_PATTERN, version):
        raise InputError(f"the selector version must be a short token of letters, digits and . _ + - (at most "
                         f"64), got '{printable(version[:80])}'", hint="give --version such as 3 or 2026-12-local")
    if not 0.0 <= label_weight <= 1.0 or (label_weight < 1.0 and not soft_targets):
        raise InputError(f"the label weight must be from 0 to 1, and below 1 only with soft targets, got "
                         f"{label_weight!r}", hint="--label-weight 0.25 --soft-labels responses.jsonl, or neither")
    if fallback_good_kept is not None and not 0.0 <= fallback_good_kept <= 1.0:
        raise InputError(f"the share of good ones the fallback threshold keeps must be from 0 to 1, got "
                         f"{fallback_good_kept!r}", hint="--fallback-good-kept 0.33 (the default), or 0 for the F0.5 "
                                                         "maximum")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"the seed must be a whole number from 0, got {seed!r}", hint="--seed 0 (the default)")


def _checked_features(features: Sequence[str]) -> tuple[str, ...]:
    unknown = sorted(set(features) - set(FEATURES))
    if unknown or not features:
        raise InputError(f"unknown selector features: {', '.join(unknown) or '(none given)'}",
                         hint=f"choose from {', '.join(FEATURES)}")
    return tuple(features)


def _recall_factors(ids: Sequence[str], recalled: Mapping[str, bool | None], recalled_target: float) -> Any:
    """What each record's target is multiplied by when fitting "good and not recalled": ``recalled_target`` for a
    recalled record, 1 for another; every record must have a known recall."""
    import numpy as np

    unknown_recall = [i for i in ids if recalled.get(i) is None]
    if unknown_recall:
        raise InputError(f"{len(unknown_recall)} of the {len(ids)} labelled records have no closed-book answer "
                         f"that decides whether they are recalled (first: {unknown_recall[0]!r})",
                         hint="give closed-book answers (every sample usable) for every labelled candidate")
    if not 0.0 <= recalled_target < 1.0:
        raise InputError(f"the target of a recalled record must be from 0 to below 1, got {recalled_target!r}",
                         hint="--recalled-target 0 (the default: recalled counts as not good) or 0.5")
    return np.array([recalled_target if recalled[i] else 1.0 for i in ids])


def _fold_count(folds: int, articles: int) -> int:
    """The number of folds made: ``folds``, or one per article when the labels cover fewer articles (said)."""
    if isinstance(folds, bool) or not isinstance(folds, int) or folds < 2 or articles < 2:
        raise InputError(f"cannot make {folds!r} cross-validation folds grouped by article from "
                         f"{articles} labelled article(s)", hint="--folds 2 or more, over labels of 2 articles or more")
    if folds > articles:  # folds never split an article: one article per fold, said and recorded
        warnings.warn(f"{folds} cross-validation folds asked for, but the labels cover {articles} articles "
                      f"and folds never split one: {articles} folds made (one article each)", UserWarning,
                      stacklevel=3)
        return articles
    return folds


def _fold_of(ids: Sequence[str], articles: Sequence[str], folds: int, seed: int) -> Any:
    """Each record's fold: the articles shuffled with ``seed`` and dealt round the folds."""
    import numpy as np

    rng = np.random.default_rng(seed)
    order = rng.permutation(len(articles))
    fold_of = {articles[j]: k % folds for k, j in enumerate(order)}
    return np.array([fold_of[article_of(i)] for i in ids])


def _cross_validated(x: Any, targets: Any, fold: Any, folds: int, l2: float,
                     progress: Callable[[str], None] | None) -> Any:
    """Each record's score by the model fitted on the other folds."""
    import numpy as np

    cv = np.zeros(len(x))
    for k in range(folds):
        test = fold == k
        if not test.any() or test.all():
            continue
        means, scales = _standardise(x[~test])
        w, b = _fit((x[~test] - means) / scales, targets[~test], l2)
        cv[test] = 1.0 / (1.0 + np.exp(-(b + ((x[test] - means) / scales) @ w)))
        if progress:
            progress(f"fold {k + 1}/{folds}: {int(test.sum())} records")
    return cv


def _threshold_and_rule(scores: Sequence[float], good: Sequence[bool], min_precision: float, min_good_kept: float,
                        fallback_good_kept: float | None) -> tuple[float, str]:
    """The threshold :func:`choose_threshold` reads off the cross-validated ``scores``, and the rule that chose it
    (for the weights' ``meta``)."""
    threshold = choose_threshold(scores, good, min_precision=min_precision, min_good_kept=min_good_kept,
                                 fallback_good_kept=fallback_good_kept)
    kept = [is_good for score, is_good in zip(scores, good) if score >= threshold]
    target = f"cross-validated precision >= {min_precision} keeping >= {min_good_kept} of the good ones"
    if len(kept) >= 20 and sum(kept) / len(kept) >= min_precision and sum(kept) >= min_good_kept * sum(good):
        return threshold, f"lowest threshold with {target}"
    fallback_rule = ("maximum of F0.5 on the cross-validated curve" if not fallback_good_kept else
                     f"highest threshold keeping {fallback_good_kept:.3g} of the good ones")
    return threshold, f"{fallback_rule} (no threshold reaches {target})"
