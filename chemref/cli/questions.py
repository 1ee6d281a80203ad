"""``chemref questions build``: JATS articles -> citation-prediction questions, funnel report, card."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from chemref.cli.app import fail, guarded, questions_app, warn


def _authors_mode(value: str) -> str:
    if value not in ("drop", "mask"):
        raise typer.BadParameter("use drop or mask")
    return value


def _answer_key(value: str) -> str:
    if value not in ("doi", "doi-or-pmid"):
        raise typer.BadParameter("use doi or doi-or-pmid")
    return value


@questions_app.command("build")
def build_command(
    inputs: Optional[List[Path]] = typer.Argument(
        None, metavar="INPUT",
        help="JATS files or folders of them (*.xml, *.nxml). None: the sample articles in corpora/jats/."),
    output: Path = typer.Option(..., "-o", "--output", help="Questions, JSON Lines (written atomically); "
                                "the dataset card README.md is written beside it."),
    report: Optional[Path] = typer.Option(None, "--report", help="Funnel report (JSON); the bar chart "
                                          "is written beside it with the .png suffix."),
    rejected: Optional[Path] = typer.Option(None, "--rejected", help="Every rejected candidate with its "
                                            "reason (JSON Lines)."),
    workers: int = typer.Option(1, "-w", "--workers", min=1, help="Processes (one article per task)."),
    per_article: int = typer.Option(4, "--per-article", min=1, help="At most this many questions per article."),
    min_chars: int = typer.Option(120, "--min-chars", min=0, help="Shortest excerpt kept (characters)."),
    max_chars: int = typer.Option(600, "--max-chars", min=1, help="Longest excerpt kept (characters)."),
    seed: int = typer.Option(0, "--seed", help="Tie-break seed of the per-article cap."),
    authors: str = typer.Option("drop", "--authors", callback=_authors_mode, metavar="drop|mask",
                                help="drop sentences naming a cited author, or mask the names."),
    min_findability: Optional[float] = typer.Option(None, "--min-findability", min=0.0, max=1.0,
                                                    help="Reject excerpts scoring below this findability."),
    min_score: Optional[float] = typer.Option(
        None, "--min-score", min=0.0, max=1.0,
        help="Reject excerpts whose selector score is below this (default: the selector's recommended "
             "threshold; 0 keeps all)."),
    per_target: int = typer.Option(1, "--per-target", min=1, help="At most this many questions per cited "
                                   "work in one article."),
    answer_key: str = typer.Option("doi", "--answer-key", callback=_answer_key, metavar="doi|doi-or-pmid",
                                   help="What identifies the answer: a DOI (BioChemCite rule), or a DOI else a PMID."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar on stderr."),
) -> None:
    """Build citation-prediction questions (CiteME / BioChemCite style) and print the funnel."""
    from chemref.questions.report import funnel_table
    from chemref.questions.run import build_to_files

    if max_chars < min_chars:
        fail(f"--max-chars ({max_chars}) is smaller than --min-chars ({min_chars})")
    outputs = guarded(lambda: build_to_files(
        [str(p) for p in inputs or []], output, report=report, rejected=rejected, workers=workers,
        progress=progress, on_error=lambda source, message: warn(f"skipped unreadable article: {message}"),
        per_article=per_article, min_chars=min_chars, max_chars=max_chars, seed=seed, authors=authors,
        min_findability=min_findability, min_score=min_score, per_target=per_target, answer_key=answer_key))
    result = outputs.result
    typer.echo(funnel_table(result))
    written = [f"{outputs.output} ({len(result.questions)} questions)", f"{outputs.card} (dataset card)"]
    if outputs.rejected:
        written.append(f"{outputs.rejected} ({len(result.rejected)} rejected)")
    if outputs.report:
        written.append(f"{outputs.report} (report), {outputs.chart} (chart)")
    typer.echo("wrote " + "; ".join(written))


@questions_app.command("review")
def review_command(
    questions: Path = typer.Argument(..., metavar="QUESTIONS", help="questions.jsonl from 'questions build'."),
    rejected: Optional[Path] = typer.Option(None, "--rejected", help="rejected.jsonl from 'questions build "
                                            "--rejected': its candidates get a card too, with their reason."),
    output: Path = typer.Option(..., "-o", "--output", help="The review page (one self-contained HTML file)."),
) -> None:
    """Write an HTML page to browse, filter and label questions and rejected candidates (labels export as JSONL)."""
    from chemref.cli.app import refuse_overwriting_inputs
    from chemref.cli.pages import write_questions_page

    refuse_overwriting_inputs(output, questions, rejected)
    write_questions_page(output, questions, rejected)
