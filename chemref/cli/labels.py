"""``chemref questions evaluate | train-selector | record-selector``: measure a build against labels, fit the
question selector on them, and record the shipped selector's evaluation."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any, Optional

import typer

from chemref._io import write_text
from chemref.cli import selector_options
from chemref.cli.app import (
    checked_output,
    fail,
    guarded,
    output_option,
    refuse_overwriting_inputs,
    refuse_shared_outputs,
)
from chemref.cli.statistics_options import render
from chemref.errors import InputError, printable
from chemref.jsonl import read_jsonl
from chemref.questions.closed_book.recall import read_recalled
from chemref.questions.funnel.selector import load_selector
from chemref.questions.funnel.selector_features import feature_list
from chemref.questions.funnel.selector_record import EVALUATION_FILE
from chemref.questions.funnel.selector_training import train_selector
from chemref.questions.funnel.settings import build_default
from chemref.questions.judge.answers import read_responses
from chemref.questions.labels.evaluate import evaluate, read_scores
from chemref.questions.labels.label import good_labels, read_labels
from chemref.questions.labels.record import record_selector_evaluation


def _records(path: Optional[Path]) -> list[dict]:
    return [] if path is None else [row for _, row in read_jsonl(path)]


def _recalled(path: Optional[Path], records, title_threshold: Optional[float]) -> Optional[dict]:
    """Which records the closed-book answers in ``path`` recall (None without answers)."""
    if path is None:
        if title_threshold is not None:
            fail("--title-threshold needs --closed-book")
        return None
    if title_threshold is not None and title_threshold <= 0:
        fail("--title-threshold must be above 0")

    return read_recalled(str(path), records, title_threshold=title_threshold)


def _scores(path: Optional[Path]) -> Optional[dict[str, float]]:
    if path is None:
        return None

    return read_scores(path)


def evaluate_command(
    labels: Path = typer.Argument(..., metavar="LABELS", help="Labels, JSON Lines in the format of "
                                  "corpora/labels/QUESTION_GUIDE.md of the chemref repository (id, good_question, "
                                  "author_named, function, sentence_ok, note)."),
    questions: Path = typer.Option(..., "--questions", help="questions.jsonl of the build to evaluate."),
    rejected: Optional[Path] = typer.Option(None, "--rejected", help="rejected.jsonl of the same build (needed "
                                            "for labels of rejected candidates and for the filter rows)."),
    scores: Optional[Path] = typer.Option(None, "--scores", help="JSON Lines {id, score} replacing the records' "
                                          "selector scores (e.g. the cross-validated scores of train-selector)."),
    threshold: Optional[float] = typer.Option(None, "--threshold", min=0.0, max=1.0, help="The curve row to "
                                              "mark (default: the threshold of --selector, else of the shipped "
                                              "selector)."),
    selector: Optional[Path] = typer.Option(None, "--selector", help="Selector weights from `chemref questions "
                                            "train-selector`: its threshold is the default --threshold (give the "
                                            "selector whose --cv-scores are evaluated)."),
    reselect: bool = typer.Option(False, "--reselect", help="Apply --threshold and the caps again with these "
                                  "scores, as a build would (give the files of a build run with --min-score 0)."),
    per_target: int = typer.Option(build_default("per_target"), "--per-target", min=1,
                                   help="With --reselect: the build's --per-target."),
    per_article: int = typer.Option(build_default("per_article"), "--per-article", min=1,
                                    help="With --reselect: the build's --per-article."),
    closed_book: Optional[Path] = typer.Option(None, "--closed-book", help="Closed-book answers to the "
                                               "candidates (Batch output, custom_id ID#k): adds the recalled "
                                               "share of the kept questions, of all and of the good candidates."),
    title_threshold: Optional[float] = typer.Option(None, "--title-threshold", min=0.0, max=1.0, help="With "
                                                    "--closed-book: the title similarity from which an answer "
                                                    "recalls the cited work (default: closed-book apply's)."),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of the text report."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV rows (one per figure) instead of the text report."),
    as_markdown: bool = typer.Option(False, "--markdown", help="A Markdown table instead of the text report."),
    output: Optional[Path] = output_option(),
) -> None:
    """Measure a question build against labels: kept-set quality, per-filter losses, the score curve."""

    refuse_overwriting_inputs(output, labels, questions, rejected, scores, closed_book, selector)

    def run():
        mark = threshold
        if mark is None and selector is not None:

            mark = load_selector(selector).threshold
        kept, refused = _records(questions), _records(rejected)
        return evaluate(read_labels(labels), kept, refused, scores=_scores(scores),
                        scores_path=None if scores is None else str(scores), complete_scores=True,
                        threshold=mark, reselect=reselect, per_target=per_target, per_article=per_article,
                        source=str(labels), recalled=_recalled(closed_book, [*kept, *refused], title_threshold))

    result = guarded(run)
    render(result.to_report(), as_json, as_csv, as_markdown, output)


def train_selector_command(
    labels: Path = selector_options.labels(),
    questions: Path = selector_options.questions(),
    rejected: Optional[Path] = selector_options.rejected(),
    output: Path = selector_options.output(),
    cv_scores: Optional[Path] = selector_options.cv_scores(),
    folds: int = selector_options.folds(),
    seed: int = selector_options.seed(),
    l2: float = selector_options.l2(),
    min_precision: float = selector_options.min_precision(),
    min_good_kept: float = selector_options.min_good_kept(),
    fallback_good_kept: Optional[float] = selector_options.fallback_good_kept(),
    version: str = selector_options.version(),
    features: Optional[str] = selector_options.features(),
    soft_labels: Optional[Path] = selector_options.soft_labels(),
    label_weight: float = selector_options.label_weight(),
    target: str = selector_options.target(),
    closed_book: Optional[Path] = selector_options.closed_book(),
    recalled_target: float = selector_options.recalled_target(),
    title_threshold: Optional[float] = selector_options.title_threshold(),
) -> None:
    """Fit the question selector on labelled records; write its weights and report cross-validated quality."""

    refuse_shared_outputs({"-o": output, "--cv-scores": cv_scores})
    refuse_overwriting_inputs(output, labels, questions, rejected, soft_labels, closed_book)
    refuse_overwriting_inputs(cv_scores, labels, questions, rejected, soft_labels, closed_book)
    if target == "good-not-recalled" and closed_book is None:
        fail("--target good-not-recalled needs --closed-book (the closed-book answers that say what is recalled)")
    if recalled_target and target != "good-not-recalled":
        fail("--recalled-target needs --target good-not-recalled")

    def run():
        label_map = read_labels(labels)
        kept = _records(questions)
        refused = _records(rejected)
        records = {str(r.get("id")): r for r in [*kept, *refused]}
        fallback = {} if fallback_good_kept is None else {"fallback_good_kept": fallback_good_kept or None}
        chosen = {} if features is None else {"features": feature_list(features)}
        soft = None if soft_labels is None else _soft_targets(soft_labels, label_weight)
        recalled = _recalled(closed_book, records.values(), title_threshold)
        selector, cv = train_selector(records.values(), good_labels(label_map.values()), folds=folds, seed=seed,
                                      l2=l2, version=version, min_precision=min_precision,
                                      min_good_kept=min_good_kept, soft_targets=soft, label_weight=label_weight,
                                      recalled=recalled if target == "good-not-recalled" else None,
                                      recalled_target=recalled_target,
                                      **fallback, **chosen)
        curve = evaluate(label_map, kept, refused, scores=cv, threshold=selector.threshold, source=str(labels),
                         recalled=recalled)
        selector = _with_cv_figures(selector, curve)
        selector.save(output)
        if cv_scores is not None:
            write_text(cv_scores, "".join(json.dumps({"id": i, "score": s}) + "\n" for i, s in cv.items()))
        return selector, curve


    selector, curve = guarded(run)
    typer.echo(curve.to_text())
    typer.echo(f"wrote {printable(str(output))} (selector {selector.version}, threshold {selector.threshold}, "
               f"{selector.meta['trained_on']} labelled records)"
               + (f"; {printable(str(cv_scores))} (cross-validated scores)" if cv_scores else "")
               + (f"; soft targets for {selector.meta['soft_targets']['records']} records"
                  if "soft_targets" in selector.meta else ""))


def _soft_targets(path: Path, label_weight: float) -> dict[str, float]:
    """The judge's confidence per record id from its answers in ``path`` (those usable), for ``--soft-labels``."""

    if label_weight >= 1.0:
        raise InputError("--soft-labels has no effect with --label-weight 1 (the labels alone)",
                         hint="add --label-weight 0.25, for example")
    answers = read_responses(path)
    soft = {i: a.confidence for i, (_, a) in answers.items() if a.ok and a.confidence is not None}
    if len(soft) < len(answers):
        typer.echo(f"note: {len(answers) - len(soft)} of the {len(answers)} answers in "
                   f"{printable(str(path))} are not usable (malformed, refused or without a "
                   "confidence): their records are fitted to their labels alone", err=True)
    return soft


def _with_cv_figures(selector: Any, curve: Any) -> Any:
    """``selector`` with the cross-validated figures at its threshold in its ``meta`` (``cv``)."""
    at = curve.at_threshold
    if at is None:
        return selector
    return replace(selector, meta={**selector.meta, "cv": {
        "threshold": at.threshold, "good_share": at.good_share, "good_kept_share": at.good_kept_share,
        "kept_share": at.kept_share, "auc": curve.auc}})


def record_selector_command(
    labels: Path = typer.Argument(..., metavar="LABELS", help="The labels the shipped selector was trained on."),
    questions: Path = typer.Option(..., "--questions", help="questions.jsonl of a --min-score 0 build of the "
                                   "labels' corpus."),
    rejected: Path = typer.Option(..., "--rejected", help="rejected.jsonl of the same build."),
    scores: Path = typer.Option(..., "--scores", help="The cross-validated scores of train-selector --cv-scores."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", callback=checked_output, help="Where to write "
                                          "the record (default: the one shipped beside the selector)."),
) -> None:
    """Record the shipped selector's cross-validated evaluation, which the card, the README and evaluate quote."""

    target = output if output is not None else EVALUATION_FILE
    refuse_overwriting_inputs(target, labels, questions, rejected, scores)
    data = guarded(lambda: record_selector_evaluation(str(labels), str(questions), str(rejected), str(scores),
                                                      output=target))
    typer.echo(f"wrote {printable(str(target))} ({data['scored']} candidates scored, {len(data['trained_ids'])} "
               "trained on)")
