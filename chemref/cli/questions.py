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
    output: Path = typer.Option(..., "-o", "--output", help="Questions: a .jsonl file (the dataset card README.md "
                                "beside it), or a folder (out/) of shards, report, card and manifest.json."),
    files_from: Optional[Path] = typer.Option(None, "--files-from", help="Also build the inputs listed in this "
                                              "file, one per line."),
    resume: bool = typer.Option(False, "--resume", help="Finish an interrupted build of the same command "
                                "(skips the shards already written)."),
    fmt: str = typer.Option("jsonl", "--format", metavar="jsonl|parquet", help="Shard format (parquet: "
                            "folder output, needs pyarrow)."),
    shard_articles: int = typer.Option(1000, "--shard-articles", min=1, help="Articles per shard."),
    dask: Optional[str] = typer.Option(None, "--dask", metavar="ADDRESS", help="Build on this Dask scheduler "
                                       "(workers write the shards; the output must be on a shared file system)."),
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

    if fmt not in ("jsonl", "parquet"):
        fail(f"--format must be jsonl or parquet, got {fmt!r}")
    if max_chars < min_chars:
        fail(f"--max-chars ({max_chars}) is smaller than --min-chars ({min_chars})")
    outputs = guarded(lambda: build_to_files(
        [str(p) for p in inputs or []], output, report=report, rejected=rejected, workers=workers,
        progress=progress, on_error=lambda source, message: warn(f"skipped unreadable article: {message}"),
        files_from=files_from, resume=resume, format=fmt, shard_articles=shard_articles, dask=dask,
        per_article=per_article, min_chars=min_chars, max_chars=max_chars, seed=seed, authors=authors,
        min_findability=min_findability, min_score=min_score, per_target=per_target, answer_key=answer_key))
    totals = outputs.totals
    typer.echo(funnel_table(totals, outputs.settings))
    written = [f"{outputs.output} ({totals.questions} questions)", f"{outputs.card} (dataset card)"]
    if outputs.rejected:
        written.append(f"{outputs.rejected} ({totals.rejected} rejected)")
    if outputs.report:
        written.append(f"{outputs.report} (report), {outputs.chart} (chart)")
    if outputs.manifest:
        written.append(f"{outputs.manifest} (manifest)")
    typer.echo("wrote " + "; ".join(written))
