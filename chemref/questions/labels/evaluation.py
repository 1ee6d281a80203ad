"""What :func:`~chemref.questions.labels.evaluate.evaluate` returns: frozen value types for each figure (the kept
questions' quality, each filter's removals, the selector's precision-yield curve, the judge's agreement, the
difficulty signals, the recalled shares), and :class:`Evaluation`, which holds them and gives them as one
:class:`~chemref.scoring.report.model.ScoreReport`."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Mapping

from chemref._version import __version__
from chemref.scoring.report.model import ScoreReport, Table

__all__ = ["Evaluation", "KeptQuality", "SignalQuality", "SignalBucket", "SIGNALS", "Agreement", "JudgeQuality",
           "FilterRow", "CurvePoint", "GOOD_KEPT_TARGETS", "RecallShare", "RECALL_SETS"]

#: The difficulty signals reported against the labels, in order (their buckets: :func:`_signal_bucket`).
SIGNALS = ("bm25_rank_bibliography", "bm25_rank_corpus", "judge_confidence", "closed_book_hits")
#: Shares of the good candidates to keep at which the curve's good share is reported (precision at a yield).
GOOD_KEPT_TARGETS = (0.6, 0.4, 0.25)
#: The sets whose recalled share :func:`evaluate` reports: every labelled candidate, the good ones, the kept ones.
RECALL_SETS = ("candidates", "good", "kept")


@dataclass(frozen=True, slots=True)
class RecallShare:
    """How many of a set of labelled candidates a model names from memory (closed-book answers): ``answered``
    have a known recall (every sample usable, or one naming the cited work), ``recalled`` of them are named."""

    set: str
    candidates: int
    answered: int
    recalled: int
    recalled_share: float | None


@dataclass(frozen=True, slots=True)
class KeptQuality:
    """Labels of the kept questions. Shares are over the labelled questions (``good_share`` over the
    decided ones: good_question not null)."""

    questions: int
    labelled: int
    decided: int
    good: int
    good_share: float | None
    author_named: int
    author_named_share: float | None
    passing: int
    passing_share: float | None
    broken: int
    broken_share: float | None


@dataclass(frozen=True, slots=True)
class FilterRow:
    """One funnel step: the labelled candidates it removed (good, bad, undecided) and the labelled bad
    candidates that passed it (removed later, or kept)."""

    filter: str
    removed: int
    removed_good: int
    removed_bad: int
    removed_undecided: int
    bad_let_through: int


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """Keeping the scored candidates with ``score >= threshold``."""

    threshold: float
    kept: int
    kept_share: float | None
    good: int
    good_share: float | None
    good_kept_share: float | None


@dataclass(frozen=True, slots=True)
class SignalBucket:
    """The labelled candidates whose signal value falls in one bucket, and how many of them are good."""

    bucket: str
    n: int
    good: int
    good_share: float | None


@dataclass(frozen=True, slots=True)
class SignalQuality:
    """One difficulty signal against ``good_question`` over the decided candidates that reached the selector and
    carry a value: ``auc`` is P(a good candidate's value > a bad one's) (ties count half), so above 0.5 the good
    questions have the higher values (for a rank: are harder for BM25)."""

    signal: str
    n: int
    good: int
    auc: float | None
    buckets: tuple[SignalBucket, ...]


@dataclass(frozen=True, slots=True)
class Agreement:
    """The judge's answers against the labels on one field, over the labelled candidates with an ``ok``
    answer (both sides decided): raw agreement and Cohen's kappa (None when chance agreement is 1)."""

    field: str
    n: int
    agree: int
    raw: float | None
    kappa: float | None


@dataclass(frozen=True, slots=True)
class JudgeQuality:
    """A judged build (records with ``judge_status``): the judge's agreement with the labels per field, and
    how many of the labelled good candidates that reached the judge it keeps (after the caps, and before them).
    ``model`` and ``prompt`` are the judge's (the most frequent in the records)."""

    model: str | None
    prompt: str | None
    reached: int
    reached_good: int
    answered_ok: int
    kept: int
    kept_good: int
    good_kept_share: float | None
    kept_by_judge_good: int
    good_kept_by_judge_share: float | None
    agreement: tuple[Agreement, ...]


@dataclass(frozen=True)
class Evaluation:
    """The result of :func:`evaluate`."""

    labels: int
    matched: int
    matched_questions: int
    matched_rejected: int
    stale: int
    kept: KeptQuality
    filters: tuple[FilterRow, ...]
    scored: int
    scored_good: int
    curve: tuple[CurvePoint, ...]
    threshold: float | None
    at_threshold: CurvePoint | None
    #: P(score of a good candidate > score of a bad one) over the scored candidates (ties count half)
    auc: float | None = None
    #: for each of :data:`GOOD_KEPT_TARGETS`: the highest threshold keeping at least that share of the good ones
    at_good_kept: tuple[CurvePoint, ...] = ()
    #: for a judged build (see :class:`JudgeQuality`), else None
    judge: JudgeQuality | None = None
    #: how many of the labels the shipped selector was trained on (its scores of them are in-sample), and then
    #: its recorded cross-validated evaluation (:func:`chemref.questions.funnel.selector_record.selector_evaluation`)
    trained_on: int = 0
    cross_validated: Mapping[str, Any] | None = None
    #: each of :data:`SIGNALS` that some labelled candidate carries, against the labels
    signals: tuple[SignalQuality, ...] = ()
    #: with closed-book answers: the recalled share of every labelled candidate, of the good ones and of the
    #: kept questions (:data:`RECALL_SETS`)
    recall: tuple[RecallShare, ...] = ()

    def to_report(self) -> ScoreReport:
        """This evaluation as a :class:`~chemref.scoring.report.model.ScoreReport` (layout ``evaluation``): the
        headline is the good share of the kept questions; the JSON document is :meth:`to_dict`'s; the table holds
        one row per figure (``table`` names its group: kept, filters, curve, at_good_kept, judge_agreement, difficulty);
        :mod:`chemref.scoring.report.formats` writes its text, Markdown, CSV and JSON."""
        k = self.kept
        headline = {"good_share": k.good_share, "author_named_share": k.author_named_share,
                    "passing_share": k.passing_share, "broken_share": k.broken_share, "auc": self.auc,
                    "recalled_share": next((r.recalled_share for r in self.recall if r.set == "kept"), None)}
        meta: dict[str, Any] = {"chemref_version": __version__, "labels": self.labels, "matched": self.matched,
                                "stale": self.stale, "scored": self.scored, "threshold": self.threshold,
                                "good_kept_targets": list(GOOD_KEPT_TARGETS), "trained_on": self.trained_on}
        if self.judge is not None:
            meta["judge"] = {"model": self.judge.model, "prompt": self.judge.prompt}
        diagnostics = ((f"{self.stale} label(s) stale (excerpt changed since labelling; left out)",)
                       if self.stale else ())
        return ScoreReport(layout="evaluation", title="question build against labels", primary="good_share",
                           headline_value=k.good_share,
                           metrics={name: value for name, value in headline.items() if value is not None},
                           table=self._table(), meta=meta, document=self._document(), diagnostics=diagnostics)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document (what ``questions evaluate --json`` prints)."""
        return self.to_report().to_dict()

    def to_text(self) -> str:
        """The text report (what ``questions evaluate`` prints)."""
        return self.to_report().to_text()

    def _document(self) -> dict[str, Any]:
        row = {
            "labels": self.labels, "matched": self.matched, "matched_questions": self.matched_questions,
            "matched_rejected": self.matched_rejected, "stale": self.stale, "kept": asdict(self.kept),
            "filters": [asdict(row) for row in self.filters],
            "selector": {"scored": self.scored, "scored_good": self.scored_good, "threshold": self.threshold,
                         "at_threshold": asdict(self.at_threshold) if self.at_threshold else None,
                         "auc": self.auc, "at_good_kept": [asdict(point) for point in self.at_good_kept],
                         "curve": [asdict(point) for point in self.curve],
                         "trained_on": self.trained_on,
                         "cross_validated": None if self.cross_validated is None else {
                             k: self.cross_validated[k] for k in ("scored", "auc", "at_threshold", "after_caps")}},
        }
        if self.judge is not None:
            row["judge"] = asdict(self.judge)
        row["difficulty"] = [asdict(signal) for signal in self.signals]
        if self.recall:
            row["recall"] = [asdict(r) for r in self.recall]
        return row

    def _table(self) -> Table:
        k = self.kept
        rows: list[dict[str, Any]] = [
            {"table": "kept", "name": name, "count": count, "of": of, "share": share}
            for name, count, of, share in (("good", k.good, k.decided, k.good_share),
                                           ("author_named", k.author_named, k.labelled, k.author_named_share),
                                           ("passing", k.passing, k.labelled, k.passing_share),
                                           ("broken", k.broken, k.labelled, k.broken_share))]
        rows += [{"table": "filters", "name": row.filter, **{f: getattr(row, f) for f in _FILTER_COLUMNS}}
                 for row in self.filters]
        rows += [{"table": "curve", "name": "threshold" if p.threshold == self.threshold else "", **asdict(p)}
                 for p in self.curve]
        targets = GOOD_KEPT_TARGETS if len(self.at_good_kept) == len(GOOD_KEPT_TARGETS) else ()
        rows += [{"table": "at_good_kept", "name": f"{targets[i]:g}" if targets else "", **asdict(p)}
                 for i, p in enumerate(self.at_good_kept)]
        if self.judge is not None:
            rows += [{"table": "judge_agreement", "name": a.field, "n": a.n, "agree": a.agree, "raw": a.raw,
                      "kappa": a.kappa} for a in self.judge.agreement]
        rows += [{"table": "recalled", "name": r.set, "count": r.recalled, "of": r.answered,
                  "share": r.recalled_share, "n": r.candidates} for r in self.recall]
        for signal in self.signals:
            rows.append({"table": "difficulty", "name": f"{signal.signal} auc", "n": signal.n, "good": signal.good,
                         "auc": signal.auc})
            rows += [{"table": "difficulty", "name": f"{signal.signal} {b.bucket}", "n": b.n, "good": b.good,
                      "good_share": b.good_share} for b in signal.buckets]
        return Table(_TABLE_COLUMNS, tuple(rows), frozenset(_TABLE_COLUMNS[2:]))


#: the columns of a filter row in :meth:`Evaluation.to_report`'s table
_FILTER_COLUMNS = ("removed", "removed_good", "removed_bad", "removed_undecided", "bad_let_through")
_TABLE_COLUMNS = ("table", "name", "count", "of", "share", *_FILTER_COLUMNS, "threshold", "kept", "kept_share",
                  "good", "good_share", "good_kept_share", "n", "agree", "raw", "kappa", "auc")
