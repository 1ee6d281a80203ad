"""``chemref score questions|ranking|pubmedqa GOLD PRED``: the neighbouring benchmarks' scorers."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from chemref.cli.app import emit, fail, guarded, output_option, refuse_overwriting_inputs, score_app, warn


def _emit(report, as_json: bool, output: Optional[Path]) -> None:
    """Warnings on stderr, then the report (table or JSON) on stdout or into ``output``."""
    for message in report.diagnostics:
        warn(message)
    emit(report.to_json() if as_json else report.to_table(), output)


@score_app.command("questions")
def score_questions_command(
    questions: Path = typer.Argument(..., help="Gold: chemref question JSONL, or the CiteME TSV with --format citeme."),
    predictions: Path = typer.Argument(...,
                                       help='Predictions JSONL: {"id", "dois": [...]} or {"id", "titles": [...]}.'),
    format: str = typer.Option("chemref", "--format", help="chemref (question JSONL) or citeme (CiteME TSV)."),
    k: Optional[List[int]] = typer.Option(None, "--k", min=1, help="Cut-off(s) for Recall@K / MRR@K; repeat "
                                                                   "for several (default 1, 5, 10)."),
    threshold: float = typer.Option(0.95, "--threshold", help="Fuzzy title similarity needed for a title match."),
    strict: bool = typer.Option(False, "--strict", help="Predictions for unknown question ids are an error."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    output: Optional[Path] = output_option(),
) -> None:
    """Citation prediction: accuracy@1, Recall@K, MRR@K, per section and per source."""
    if format not in ("chemref", "citeme"):
        fail(f"--format must be chemref or citeme, not {format!r}")
    refuse_overwriting_inputs(output, questions, predictions)
    from chemref.scoring.citation_prediction import score_questions

    ks = tuple(k) if k else (1, 5, 10)
    report = guarded(lambda: score_questions(questions, predictions, format=format, k=ks, threshold=threshold,
                                             strict=strict))
    _emit(report, as_json, output)


@score_app.command("ranking")
def score_ranking_command(
    gold: Path = typer.Argument(..., help='Gold JSONL {"id", "relevant": [...]} (or TREC qrels with --format trec).'),
    pred: Path = typer.Argument(..., help='Predictions JSONL {"id", "ranking": [...]} (or a TREC run).'),
    k: Optional[List[int]] = typer.Option(None, "--k", min=1, help="Cut-off K; repeat for several (default 10)."),
    format: str = typer.Option("jsonl", "--format", help="jsonl or trec (qrels + run)."),
    per_query: bool = typer.Option(False, "--per-query", help="Add every query's values to the JSON report."),
    empty_queries: str = typer.Option(
        "count", "--empty-queries", help="Gold queries without a prediction: 'count' scores them 0 and averages "
        "over every gold query (the default; trec_eval -c); 'skip' averages over queries in both files "
        "(trec_eval's default)."),
    min_rel: int = typer.Option(1, "--min-rel", help="Minimum qrels relevance value that counts as relevant "
                                "(trec_eval -l; default 1)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    output: Optional[Path] = output_option(),
) -> None:
    """Citation recommendation: Recall@K and MRR@K (ties as trec_eval), with breakdowns."""
    if format not in ("jsonl", "trec"):
        fail(f"--format must be jsonl or trec, not {format!r}")
    refuse_overwriting_inputs(output, gold, pred)
    if empty_queries not in ("count", "skip"):
        fail(f"--empty-queries must be count or skip, not {empty_queries!r}")
    from chemref.scoring.ranking import score_ranking

    ks = tuple(k) if k else (10,)
    report = guarded(lambda: score_ranking(gold, pred, k=ks, format=format, per_query=per_query,
                                           empty_queries=empty_queries, min_rel=min_rel))
    _emit(report, as_json, output)


@score_app.command("pubmedqa")
def score_pubmedqa_command(
    gold: Path = typer.Argument(..., help="Gold answers JSON {pmid: yes|no|maybe} (e.g. test_ground_truth.json)."),
    pred: Path = typer.Argument(..., help="Predicted answers JSON {pmid: yes|no|maybe}, exactly the gold ids."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    output: Optional[Path] = output_option(),
) -> None:
    """PubMedQA (reasoning-required): accuracy and macro-F1 over yes / no / maybe."""
    refuse_overwriting_inputs(output, gold, pred)
    from chemref.scoring.pubmedqa import score_pubmedqa

    report = guarded(lambda: score_pubmedqa(gold, pred))
    _emit(report, as_json, output)
