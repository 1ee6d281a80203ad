"""The options of ``chemref questions train-selector``, one function each (``folds: int = folds()``): the labelled
records, the fit, the threshold rule, and the targets (soft labels, closed-book recall)."""

from __future__ import annotations

from typing import Any

import typer

from chemref.cli.app import checked_output

__all__ = ["labels", "questions", "rejected", "output", "cv_scores", "folds", "seed", "l2", "min_precision",
           "min_good_kept", "fallback_good_kept", "version", "features", "soft_labels", "label_weight", "target",
           "closed_book", "recalled_target", "title_threshold"]


def _target(value: str) -> str:
    if value not in ("good", "good-not-recalled"):
        raise typer.BadParameter("use good or good-not-recalled")
    return value


def labels() -> Any:
    return typer.Argument(..., metavar="LABELS", help="Labels in the format of corpora/labels/QUESTION_GUIDE.md.")


def questions() -> Any:
    return typer.Option(..., "--questions", help="questions.jsonl holding labelled records.")


def rejected() -> Any:
    return typer.Option(None, "--rejected", help="rejected.jsonl holding labelled records.")


def output() -> Any:
    return typer.Option(..., "-o", "--output", callback=checked_output, help="Selector weights (JSON).")


def cv_scores() -> Any:
    return typer.Option(None, "--cv-scores", callback=checked_output, help="Write the "
                        "cross-validated score of every labelled record (JSON Lines {id, score}).")


def folds() -> Any:
    return typer.Option(5, "--folds", min=2, help="Cross-validation folds (grouped by article).")


def seed() -> Any:
    return typer.Option(0, "--seed", min=0, help="Seed of the fold assignment.")


def l2() -> Any:
    return typer.Option(30.0, "--l2", min=0.0, help="L2 penalty on the standardised weights.")


def min_precision() -> Any:
    return typer.Option(0.85, "--min-precision", min=0.0, max=1.0, help="The threshold is the "
                        "lowest with at least this cross-validated good share...")


def min_good_kept() -> Any:
    return typer.Option(0.6, "--min-good-kept", min=0.0, max=1.0, help="... that keeps at least "
                        "this share of the good ones (else see --fallback-good-kept).")


def fallback_good_kept() -> Any:
    return typer.Option(None, "--fallback-good-kept", min=0.0, max=1.0,
                        help="When no threshold reaches both: the highest that "
                        "keeps this share of the good ones (precision first; "
                        "default 0.33); 0: the maximum of F0.5 (precision "
                        "weighted twice as much as the good ones kept).")


def version() -> Any:
    return typer.Option("custom", "--version", help="Version string stored with the weights.")


def features() -> Any:
    return typer.Option(None, "--features", help="The features to fit, comma-separated; "
                        "'default' stands for the shipped set (e.g. default,title_overlap). "
                        "Default: the shipped set.")


def soft_labels() -> Any:
    return typer.Option(None, "--soft-labels", help="A judge's answers to the same "
                        "candidates (Batch output of 'questions judge run'): fit to the "
                        "labels blended with its confidence (see --label-weight).")


def label_weight() -> Any:
    return typer.Option(1.0, "--label-weight", min=0.0, max=1.0, help="With --soft-labels: the "
                        "weight of the label in the blend (the judge's confidence has the rest).")


def target() -> Any:
    return typer.Option("good", "--target", callback=_target, metavar="good|good-not-recalled",
                        help="What the selector learns: the labels' good questions, or those that a "
                        "model also fails to name from memory (needs --closed-book); the threshold is "
                        "chosen against the labels either way.")


def closed_book() -> Any:
    return typer.Option(None, "--closed-book", help="Closed-book answers to the same "
                        "candidates (Batch output, custom_id ID#k: 'questions "
                        "closed-book run'), which say which records are recalled.")


def recalled_target() -> Any:
    return typer.Option(0.0, "--recalled-target", min=0.0, max=1.0, help="With --target "
                        "good-not-recalled: what a recalled good record is fitted to (0: not "
                        "good; 0.5: halfway).")


def title_threshold() -> Any:
    return typer.Option(None, "--title-threshold", min=0.0, max=1.0, help="With "
                        "--closed-book: the title similarity from which an answer "
                        "recalls the cited work (default: closed-book apply's).")
