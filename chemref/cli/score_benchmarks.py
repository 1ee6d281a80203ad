"""``chemref score questions|ranking|pubmedqa GOLD PRED [PRED...]``: the neighbouring benchmarks' scorers;
with several predictions (questions, ranking), a leaderboard with intervals and paired p-values."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Optional

import typer

from chemref.cli.app import fail, guarded, output_option, refuse_overwriting_inputs, warn
from chemref.cli.statistics_options import (
    ci_option,
    names_option,
    render,
    resamples_option,
    seed_option,
    split_names,
    test_option,
    trials_option,
)
from chemref.scoring.benchmarks.citation_prediction import score_questions
from chemref.scoring.benchmarks.pubmedqa import score_pubmedqa
from chemref.scoring.benchmarks.ranking import score_ranking
from chemref.scoring.leaderboard import compare_questions, compare_ranking

_PRIMARY = typer.Option(None, "--primary", metavar="METRIC",
                        help="Leaderboard: the metric systems are ranked and tested on (default: the first one "
                             "reported).")
_JSON = typer.Option(False, "--json", help="Print the report as JSON.")
_CSV = typer.Option(False, "--csv", help="Print the report as CSV rows.")
_MARKDOWN = typer.Option(False, "--markdown", help="Print the report as a Markdown table.")


def _emit(report, as_json: bool, as_csv: bool, as_markdown: bool, output: Optional[Path]) -> None:
    """Warnings on stderr, then the report in the chosen format on stdout or into ``output``."""
    for message in report.diagnostics:
        warn(message)
    render(report, as_json, as_csv, as_markdown, output)


def _leaderboard_only(preds: list[Path], names: Optional[str], trials: Optional[int],
                      primary: Optional[str]) -> None:
    if len(preds) == 1 and (names is not None or trials is not None or primary is not None):
        fail("--names, --trials and --primary need two or more predictions (a leaderboard)")


def score_questions_command(
    questions: Path = typer.Argument(..., metavar="GOLD",
                                     help="Gold: chemref question JSONL, or the CiteME TSV with --format citeme."),
    predictions: List[Path] = typer.Argument(..., metavar="PRED...",
                                             help='Predictions JSONL: {"id", "dois": [...]}, {"id", "pmids": [...]} or {"id", "titles": '
                                                  '[...]}; two or more print a leaderboard.'),
    format: str = typer.Option("chemref", "--input-format", "--format", metavar="FORMAT",
                               help="Gold format: chemref (question JSONL) or citeme (CiteME TSV). --format is an "
                                    "older name."),
    k: Optional[List[int]] = typer.Option(None, "--k", min=1, metavar="K",
                                          help="Cut-off(s) for Recall@K / MRR@K; repeat for several "
                                               "(default 1, 5, 10)."),
    threshold: float = typer.Option(0.95, "--threshold", metavar="FLOAT",
                                    help="Fuzzy title similarity needed for a title match."),
    strict: bool = typer.Option(False, "--strict", help="Predictions for unknown question ids are an error."),
    ci: Optional[float] = ci_option(),
    resamples: int = resamples_option(),
    seed: int = seed_option(),
    names: Optional[str] = names_option(),
    primary: Optional[str] = _PRIMARY,
    test: str = test_option(),
    trials: Optional[int] = trials_option(),
    as_json: bool = _JSON,
    as_csv: bool = _CSV,
    as_markdown: bool = _MARKDOWN,
    output: Optional[Path] = output_option(),
) -> None:
    """Citation prediction: accuracy@1, Recall@K, MRR@K, per section and per source."""
    if format not in ("chemref", "citeme"):
        fail(f"--format must be chemref or citeme, not {format!r}")
    refuse_overwriting_inputs(output, questions, *predictions)
    _leaderboard_only(predictions, names, trials, primary)
    ks = tuple(k) if k else (1, 5, 10)
    options: dict[str, Any] = dict(format=format, k=ks, threshold=threshold, strict=strict)
    if len(predictions) > 1:
        board = guarded(lambda: compare_questions(questions, predictions, names=split_names(names), primary=primary,
                                                  test=test,
                                                  trials=trials, ci=0.95 if ci is None else ci,
                                                  resamples=resamples, seed=seed, **options))
        _emit(board, as_json, as_csv, as_markdown, output)
        return
    report = guarded(lambda: score_questions(questions, predictions[0], ci=ci, resamples=resamples, seed=seed,
                                             **options))
    _emit(report, as_json, as_csv, as_markdown, output)


def score_ranking_command(
    gold: Path = typer.Argument(..., metavar="GOLD",
                                help='Gold JSONL {"id", "relevant": [...]} (or TREC qrels with --format trec).'),
    preds: List[Path] = typer.Argument(..., metavar="PRED...",
                                       help='Predictions JSONL {"id", "ranking": [...]} (or a TREC run); two or '
                                            'more print a leaderboard.'),
    k: Optional[List[int]] = typer.Option(None, "--k", min=1, metavar="K",
                                          help="Cut-off K; repeat for several (default 10)."),
    format: str = typer.Option("jsonl", "--input-format", "--format", metavar="FORMAT",
                               help="Input format: jsonl or trec (qrels + run). --format is an older name."),
    per_query: bool = typer.Option(False, "--per-query", help="Add every query's values to the JSON report."),
    empty_queries: str = typer.Option(
        "count", "--empty-queries", metavar="MODE",
        help="Gold queries without a prediction: 'count' scores them 0 and averages over every gold query "
             "(the default; trec_eval -c); 'skip' averages over queries in both files (trec_eval's default)."),
    min_rel: int = typer.Option(1, "--min-rel", metavar="N",
                                help="Minimum qrels relevance value that counts as relevant (trec_eval -l; "
                                     "default 1)."),
    ci: Optional[float] = ci_option(),
    resamples: int = resamples_option(),
    seed: int = seed_option(),
    names: Optional[str] = names_option(),
    primary: Optional[str] = _PRIMARY,
    test: str = test_option(),
    trials: Optional[int] = trials_option(),
    as_json: bool = _JSON,
    as_csv: bool = _CSV,
    as_markdown: bool = _MARKDOWN,
    output: Optional[Path] = output_option(),
) -> None:
    """Citation recommendation: Recall@K and MRR@K (ties as trec_eval), with breakdowns."""
    if format not in ("jsonl", "trec"):
        fail(f"--format must be jsonl or trec, not {format!r}")
    refuse_overwriting_inputs(output, gold, *preds)
    if empty_queries not in ("count", "skip"):
        fail(f"--empty-queries must be count or skip, not {empty_queries!r}")
    _leaderboard_only(preds, names, trials, primary)
    ks = tuple(k) if k else (10,)
    if len(preds) > 1:
        board = guarded(lambda: compare_ranking(gold, preds, names=split_names(names), primary=primary, test=test,
                                                trials=trials,
                                                ci=0.95 if ci is None else ci, resamples=resamples, seed=seed,
                                                k=ks, format=format, empty_queries=empty_queries,
                                                min_rel=min_rel))
        _emit(board, as_json, as_csv, as_markdown, output)
        return
    report = guarded(lambda: score_ranking(gold, preds[0], k=ks, format=format, per_query=per_query,
                                           empty_queries=empty_queries, min_rel=min_rel, ci=ci,
                                           resamples=resamples, seed=seed))
    _emit(report, as_json, as_csv, as_markdown, output)


def score_pubmedqa_command(
    gold: Path = typer.Argument(..., metavar="GOLD",
                                help="Gold answers JSON {pmid: yes|no|maybe} (e.g. test_ground_truth.json)."),
    pred: Path = typer.Argument(..., metavar="PRED",
                                help="Predicted answers JSON {pmid: yes|no|maybe}, exactly the gold ids."),
    ci: Optional[float] = ci_option(),
    resamples: int = resamples_option(),
    seed: int = seed_option(),
    as_json: bool = _JSON,
    as_csv: bool = _CSV,
    as_markdown: bool = _MARKDOWN,
    output: Optional[Path] = output_option(),
) -> None:
    """PubMedQA (reasoning-required): accuracy and macro-F1 over yes / no / maybe."""
    refuse_overwriting_inputs(output, gold, pred)
    report = guarded(lambda: score_pubmedqa(gold, pred, ci=ci, resamples=resamples, seed=seed))
    _emit(report, as_json, as_csv, as_markdown, output)
