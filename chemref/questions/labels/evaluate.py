"""How good a question build is, measured against labels in the guide's format.

:func:`evaluate` joins labels to the records of ``questions.jsonl`` (and ``rejected.jsonl``) by id and
reports what a benchmark builder needs to improve the filters:

- the quality of the kept questions: the share that are good, name a cited author, cite in passing,
  or are broken sentences (each over the labelled questions);
- per filter, in funnel order: the good candidates it removed and the bad ones it let through;
- the precision–yield curve of the selector ``score`` over the labelled candidates that reached it
  (kept, or rejected at a score stage): at each threshold, the share kept and the share of them that
  is good, and the share of the good ones kept; the ranking AUC of the score over the same candidates,
  and the good share reachable when keeping 60%, 40% and 25% of the good ones (:data:`GOOD_KEPT_TARGETS`);
- each signal of the difficulty profile present in the records (:data:`SIGNALS`: the BM25 ranks, the judge's
  confidence, the closed-book hits) against ``good_question`` over the same candidates: its AUC (the
  probability that a good candidate's value is higher than a bad one's) and the good share per bucket.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Mapping, Sequence

from chemref.errors import InputError
from chemref.jsonl import read_jsonl
from chemref.questions.funnel.difficulty import rank_bucket
from chemref.questions.funnel.filters import (
    REASONS,
    SCORE_STAGES,
    SELECTOR_STAGES,
    per_article_cap,
    per_target_cap,
    target_key,
)
from chemref.questions.funnel.selector import default_selector
from chemref.questions.funnel.selector_record import selector_evaluation, training_overlap
from chemref.questions.funnel.selector_training import article_of
from chemref.questions.funnel.settings import BuildSettings, build_default
from chemref.questions.judge.apply import JUDGE_REASONS as JUDGE_STEPS
from chemref.questions.labels.evaluation import (
    GOOD_KEPT_TARGETS,
    RECALL_SETS,
    SIGNALS,
    Agreement,
    CurvePoint,
    Evaluation,
    FilterRow,
    JudgeQuality,
    KeptQuality,
    RecallShare,
    SignalBucket,
    SignalQuality,
)
from chemref.questions.labels.label import Label, excerpt_sha1
from chemref.scoring.stats.agreement import cohen_kappa, ranking_auc

__all__ = ["evaluate", "read_scores"]

_GRID = tuple(round(0.05 * i, 2) for i in range(20))


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _score(value: Any, ident: str) -> float:
    """A record's selector score as a float; a value that is no number (or NaN, which orders with nothing) is
    an :class:`InputError` naming the record."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if math.isnan(number):
        raise InputError(f"record {ident!r} has score {value!r}, expected a number",
                         hint="give the questions.jsonl and rejected.jsonl of a build (or --scores of "
                              "train-selector), whose scores are numbers from 0 to 1")
    return number


def read_scores(path: Any) -> dict[str, float]:
    """``{id: score}`` from a JSON Lines file of ``{"id": ..., "score": number}`` (train-selector's
    ``--cv-scores``): a regular file, each score a finite number from 0 to 1, each id once."""
    hint = "one JSON object per line, {\"id\": \"...\", \"score\": a number from 0 to 1}, each id once"
    scores: dict[str, float] = {}
    lines: dict[str, int] = {}
    for number, row in read_jsonl(path, unique=True):
        ident, value = row.get("id"), row.get("score")
        if not isinstance(ident, str) or not ident:
            raise InputError(f"id must be a non-empty string, got {ident!r}", path=str(path), line=number, hint=hint)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            raise InputError(f"score of {ident!r} must be a finite number from 0 to 1, got {value!r}",
                             path=str(path), line=number, hint=hint)
        if ident in scores:
            raise InputError(f"id {ident!r} is given twice (first on line {lines[ident]})", path=str(path),
                             line=number, hint=hint)
        scores[ident] = float(value)
        lines[ident] = number
    return scores


def _check_scores_cover(scores: Mapping[str, float], labels: Mapping[str, Label],
                        records: Mapping[str, tuple[Mapping[str, Any], str | None]], path: str | None,
                        complete: bool) -> None:
    """Scores given for another set of records are an :class:`InputError`: an id that is in neither the
    questions nor the rejected file, or (``complete``) a decided label whose candidate the selector decides
    (kept, or rejected by the score or a cap) without a score (it would silently keep its build score,
    in-sample)."""
    unknown = [ident for ident in scores if ident not in records]
    if unknown:
        raise InputError(f"{len(unknown)} scored id(s) are in neither the questions nor the rejected file "
                         f"(first: {unknown[0]!r})", path=path,
                         hint="give the scores made for these files, as train-selector --cv-scores writes them")
    missing = [ident for ident, label in labels.items() if complete and label.good_question is not None
               and ident not in scores and ident in records
               and (records[ident][1] is None or records[ident][1] in SELECTOR_STAGES)]
    if missing:
        raise InputError(f"{len(missing)} labelled candidate(s) that the selector decides have no score "
                         f"(first: {missing[0]!r}); they would keep their build scores (in-sample)", path=path,
                         hint="give the cross-validated scores of every labelled candidate: train-selector "
                              "--cv-scores on these labels and files")


def _funnel_order(reasons: Iterable[str]) -> list[str]:
    order = list(REASONS)
    reasons = list(reasons)
    if any(reason in JUDGE_STEPS for reason in reasons):  # a judged build: the caps come after the judge again
        at = order.index("per_target_cap")
        order[at:at] = list(JUDGE_STEPS)
    for reason in reasons:
        if reason not in order:
            order.append(reason)
    return order


def _curve_point(threshold: float, scored: Sequence[tuple[float, bool]], total_good: int) -> CurvePoint:
    kept = [good for score, good in scored if score >= threshold]
    good = sum(kept)
    return CurvePoint(round(threshold, 4), len(kept), _share(len(kept), len(scored)), good,
                      _share(good, len(kept)), _share(good, total_good))


def _at_good_kept(share: float, scored: Sequence[tuple[float, bool]], total_good: int) -> CurvePoint | None:
    """The curve point of the highest threshold that keeps at least ``share`` of the good items."""
    need = max(1, math.ceil(share * total_good - 1e-9))
    found = 0
    for score, good in sorted(scored, key=lambda item: -item[0]):
        found += good
        if found >= need:
            return _curve_point(score, scored, total_good)
    return None


def _reselect(records: dict[str, tuple[Mapping[str, Any], str | None]], scores: Mapping[str, float],
              threshold: float, per_target: int, per_article: int, seed: int) -> int:
    """Apply the score stages again with ``scores`` (``--min-score``, the per-target and per-article caps)
    to the candidates that passed the other filters; rewrite their reasons in ``records`` and return the
    number of questions that would be kept."""
    settings = BuildSettings(per_article=per_article, per_target=per_target, seed=seed, min_score=threshold)
    by_article: dict[str, list[tuple[str, float, str]]] = {}
    for ident, (record, reason) in records.items():
        if reason is None or reason in SELECTOR_STAGES:
            value = scores.get(ident, record.get("score"))
            if value is None:
                continue
            target = target_key(record.get("target_doi"), record.get("ref_id"), ident)
            by_article.setdefault(article_of(ident), []).append((ident, _score(value, ident), target))
    kept_total = 0
    for items in by_article.values():
        passing = []
        for item in items:
            if item[1] < threshold:
                records[item[0]] = (records[item[0]][0], "min_score")
            else:
                passing.append(item)
        kept, capped_target = per_target_cap(passing, settings, target=lambda i: i[2], score=lambda i: i[1],
                                             record_id=lambda i: i[0])
        kept, capped = per_article_cap(kept, settings, score=lambda i: i[1], record_id=lambda i: i[0])
        for reason, group in (("per_target_cap", capped_target), ("per_article_cap", capped)):
            for item in group:
                records[item[0]] = (records[item[0]][0], reason)
        for item in kept:
            records[item[0]] = (records[item[0]][0], None)
        kept_total += len(kept)
    return kept_total


#: One labelled record: its label, the record and its reason (None: a kept question).
_Joined = tuple[Label, Mapping[str, Any], "str | None"]


def evaluate(labels: Mapping[str, Label], questions: Iterable[Mapping[str, Any]],
             rejected: Iterable[Mapping[str, Any]] = (), *, scores: Mapping[str, float] | None = None,
             threshold: float | None = None, thresholds: Sequence[float] | None = None,
             reselect: bool = False, per_target: int = build_default("per_target"),
             per_article: int = build_default("per_article"), seed: int = build_default("seed"),
             source: str | None = None, scores_path: str | None = None,
             complete_scores: bool = False, recalled: Mapping[str, bool | None] | None = None) -> Evaluation:
    """Evaluate ``questions`` (and ``rejected`` candidates, with their ``reason``) against ``labels``.

    ``scores`` (id -> score) replace the records' ``score`` (cross-validated scores, another selector);
    ``threshold`` marks one row of the curve (default: the shipped selector's threshold). With
    ``reselect``, the score stages are applied again with these scores and ``threshold`` (and the caps
    ``per_target``, ``per_article``, ``seed``), so the kept questions are those the build would keep
    (this needs the rejected file of a build run with ``--min-score 0``). A label whose id is in neither
    file is an error; a label whose ``excerpt_sha1`` does not match the record is stale and left out.
    A scored id in neither file is an error (``scores_path`` names the scores' file); with
    ``complete_scores`` (``evaluate --scores``), so is a decided label of a candidate the selector decides
    without a score (else such a candidate keeps its own score). ``recalled`` (id -> True, False or None:
    :func:`~chemref.questions.closed_book.recall.recalled_records`) adds the recalled shares (:class:`RecallShare`)
    of the labelled candidates (not stale), of the good ones and of the kept questions.
    """
    records = _read_records(labels, questions, rejected, source)
    if scores is not None:
        _check_scores_cover(scores, labels, records, scores_path, complete_scores)
    if threshold is None:
        threshold = default_selector().threshold
    if reselect:
        n_questions = _reselect(records, scores or {}, threshold, per_target, per_article, seed)
    else:
        n_questions = sum(1 for _, reason in records.values() if reason is None)
    joined, stale = _join(labels, records)
    scored = _scored(joined, scores)
    total_good = sum(1 for _, good in scored if good)
    curve = _curve(scored, total_good, threshold, thresholds)
    at = next((p for p in curve if p.threshold == round(threshold, 4)), None)
    reachable = (_at_good_kept(share, scored, total_good) for share in GOOD_KEPT_TARGETS) if total_good else ()
    trained_on, cross_validated = _in_sample(joined) if scores is None else (0, None)
    return Evaluation(
        labels=len(labels), matched=len(joined) + stale,
        matched_questions=sum(1 for i in labels if records[i][1] is None),
        matched_rejected=sum(1 for i in labels if records[i][1] is not None), stale=stale,
        kept=_kept_quality(joined, n_questions), filters=_filter_rows(joined), scored=len(scored),
        scored_good=total_good, curve=curve, threshold=round(threshold, 4), at_threshold=at, auc=ranking_auc(scored),
        at_good_kept=tuple(p for p in reachable if p is not None),
        judge=_judge_quality(joined),
        trained_on=trained_on, cross_validated=cross_validated, signals=_signals(joined),
        recall=_recall(joined, recalled) if recalled is not None else (),
    )



def _recall(joined: Sequence[_Joined], recalled: Mapping[str, bool | None]) -> tuple[RecallShare, ...]:
    sets = {"candidates": [r for _, r, _ in joined],
            "good": [r for label, r, _ in joined if label.good_question],
            "kept": [r for _, r, reason in joined if reason is None]}
    out = []
    for name in RECALL_SETS:
        known = [recalled.get(str(r.get("id"))) for r in sets[name]]
        known = [v for v in known if v is not None]
        hits = sum(1 for v in known if v)
        out.append(RecallShare(name, len(sets[name]), len(known), hits, _share(hits, len(known))))
    return tuple(out)


def _read_records(labels: Mapping[str, Label], questions: Iterable[Mapping[str, Any]],
                  rejected: Iterable[Mapping[str, Any]],
                  source: str | None) -> dict[str, tuple[Mapping[str, Any], str | None]]:
    """``{id: (record, reason)}`` of the questions (reason None) and the rejected candidates; every labelled
    id must be one of them (an :class:`InputError` otherwise)."""
    records: dict[str, tuple[Mapping[str, Any], str | None]] = {}
    for record in questions:
        records[str(record.get("id"))] = (record, None)
    for record in rejected:
        records[str(record.get("id"))] = (record, str(record.get("reason") or "unknown"))
    unknown = [i for i in labels if i not in records]
    if unknown:
        raise InputError(f"{len(unknown)} labelled id(s) are in neither the questions nor the rejected file "
                         f"(first: {unknown[0]!r})", path=source,
                         hint="give the questions.jsonl and rejected.jsonl the labels were made from "
                              "(--rejected for rejected candidates)")
    return records


def _join(labels: Mapping[str, Label],
          records: Mapping[str, tuple[Mapping[str, Any], str | None]]) -> tuple[list[_Joined], int]:
    """Each label with its record and reason, in label order, and the number of stale labels left out (whose
    ``excerpt_sha1`` is not that of the record's excerpt)."""
    stale = 0
    joined: list[_Joined] = []
    for ident, label in labels.items():
        record, reason = records[ident]
        if label.excerpt_sha1 is not None and label.excerpt_sha1 != excerpt_sha1(str(record.get("excerpt", ""))):
            stale += 1
            continue
        joined.append((label, record, reason))
    return joined, stale


def _kept_quality(joined: Sequence[_Joined], n_questions: int) -> KeptQuality:
    """The labels of the kept questions, counted and as shares."""
    kept_labels = [label for label, _, reason in joined if reason is None]
    decided = [label for label in kept_labels if label.good_question is not None]
    good = sum(1 for label in decided if label.good_question)
    author_named = sum(1 for label in kept_labels if label.author_named)
    passing = sum(1 for label in kept_labels if label.function == "PASSING")
    broken = sum(1 for label in kept_labels if not label.sentence_ok)
    return KeptQuality(
        questions=n_questions, labelled=len(kept_labels), decided=len(decided),
        good=good, good_share=_share(good, len(decided)),
        author_named=author_named, author_named_share=_share(author_named, len(kept_labels)),
        passing=passing, passing_share=_share(passing, len(kept_labels)),
        broken=broken, broken_share=_share(broken, len(kept_labels)),
    )


def _filter_rows(joined: Sequence[_Joined]) -> tuple[FilterRow, ...]:
    """One :class:`FilterRow` per funnel step in order (the judge's steps too, for a judged build)."""
    order = _funnel_order(reason for _, _, reason in joined if reason is not None)
    position = {reason: i for i, reason in enumerate(order)}
    stage = [(label, len(order) if reason is None else position[reason]) for label, _, reason in joined]
    rows = []
    for i, name in enumerate(order):
        removed = [label for label, at in stage if at == i]
        rows.append(FilterRow(
            filter=name, removed=len(removed),
            removed_good=sum(1 for label in removed if label.good_question is True),
            removed_bad=sum(1 for label in removed if label.good_question is False),
            removed_undecided=sum(1 for label in removed if label.good_question is None),
            bad_let_through=sum(1 for label, at in stage if at > i and label.good_question is False),
        ))
    return tuple(rows)


def _scored(joined: Sequence[_Joined], scores: Mapping[str, float] | None) -> list[tuple[float, bool]]:
    """``(score, good)`` of each decided label whose candidate reached the selector (kept, or rejected at a
    score stage or by the judge), the score from ``scores`` when given, else the record's."""
    scored: list[tuple[float, bool]] = []
    for label, record, reason in joined:
        if label.good_question is None or not (reason is None or reason in SCORE_STAGES or reason in JUDGE_STEPS):
            continue
        value = scores.get(label.id) if scores is not None else None
        if value is None:
            value = record.get("score")
        if value is None:
            continue
        scored.append((_score(value, label.id), bool(label.good_question)))
    return scored


def _curve(scored: Sequence[tuple[float, bool]], total_good: int, threshold: float,
           thresholds: Sequence[float] | None) -> tuple[CurvePoint, ...]:
    """The precision-yield curve at ``thresholds`` (default: every 0.05) and at ``threshold``."""
    grid = sorted(set(thresholds if thresholds is not None else _GRID) | {round(threshold, 4)})
    return tuple(_curve_point(t, scored, total_good) for t in grid)


def _in_sample(joined: Sequence[_Joined]) -> tuple[int, Mapping[str, Any] | None]:
    """How many of the labels the shipped selector was trained on, and then its recorded cross-validated
    evaluation (the records' own scores of them are in-sample)."""
    trained_on = training_overlap(label.id for label, _, _ in joined)
    return trained_on, selector_evaluation() if trained_on else None


#: The label fields the judge answers too, with the record field holding its answer.
_JUDGED_LABELS = tuple((name, f"judge_{name}") for name in ("good_question", "author_named", "function",
                                                             "sentence_ok"))


def _judge_quality(joined: Sequence[_Joined]) -> JudgeQuality | None:
    """:class:`JudgeQuality` over the labelled records that reached the judge (None when none did)."""
    reached = [(label, record, reason) for label, record, reason in joined if record.get("judge_status")]
    if not reached:
        return None
    ok = [(label, record) for label, record, _ in reached if record.get("judge_status") == "ok"]
    agreement = []
    for name, answer in _JUDGED_LABELS:
        pairs = [(getattr(label, name), record.get(answer)) for label, record in ok
                 if getattr(label, name) is not None and record.get(answer) is not None]
        agree = sum(1 for a, b in pairs if a == b)
        agreement.append(Agreement(name, len(pairs), agree, _share(agree, len(pairs)), cohen_kappa(pairs)))
    good = [(record, reason) for label, record, reason in reached if label.good_question is True]
    kept_good = sum(1 for _, reason in good if reason is None)
    by_judge = sum(1 for _, reason in good if reason not in JUDGE_STEPS)

    def most(field: str) -> str | None:
        counts: dict[str, int] = {}
        for _, record, _ in reached:
            value = record.get(field)
            if isinstance(value, str):
                counts[value] = counts.get(value, 0) + 1
        return max(counts, key=lambda value: counts[value]) if counts else None

    return JudgeQuality(
        model=most("judge_model"), prompt=most("judge_prompt"), reached=len(reached), reached_good=len(good),
        answered_ok=len(ok), kept=sum(1 for _, _, reason in reached if reason is None), kept_good=kept_good,
        good_kept_share=_share(kept_good, len(good)), kept_by_judge_good=by_judge,
        good_kept_by_judge_share=_share(by_judge, len(good)), agreement=tuple(agreement))


def _signal_bucket(signal: str, value: float) -> str:
    """The bucket of a signal's value: rank buckets for the BM25 ranks, the hit count for the closed-book hits,
    and below 0.5 / 0.5–0.8 / 0.8 and above for the judge's confidence."""
    if signal.startswith("bm25_rank"):
        return rank_bucket(int(value))
    if signal == "closed_book_hits":
        return str(int(value))
    return "<0.5" if value < 0.5 else "0.5-0.8" if value < 0.8 else ">=0.8"


def _signals(joined: Sequence[_Joined]) -> tuple[SignalQuality, ...]:
    """Each of :data:`SIGNALS` carried by a decided labelled candidate that reached the selector, against its label
    (values that are not numbers are left out)."""
    out = []
    for signal in SIGNALS:
        values: list[tuple[float, bool]] = []
        for label, record, reason in joined:
            value = record.get(signal)
            if label.good_question is None or isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value):
                continue
            if reason is None or reason in SCORE_STAGES or reason in JUDGE_STEPS:
                values.append((float(value), bool(label.good_question)))
        if not values:
            continue
        buckets: dict[str, list[int]] = {}
        for value, good in sorted(values):
            counts = buckets.setdefault(_signal_bucket(signal, value), [0, 0])
            counts[0] += 1
            counts[1] += good
        out.append(SignalQuality(signal, len(values), sum(1 for _, good in values if good), ranking_auc(values),
                                 tuple(SignalBucket(name, n, good, _share(good, n))
                                       for name, (n, good) in buckets.items())))
    return tuple(out)
