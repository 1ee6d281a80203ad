"""``chemref baseline bm25 QUESTIONS -o PREDICTIONS``: a first number for any question set."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from chemref.baseline.bm25 import bm25_predictions
from chemref.cli.app import checked_output, guarded, refuse_overwriting_inputs, warn
from chemref.cli.defaults import SAMPLE_CORPUS
from chemref.errors import printable
from chemref.jsonl import write_jsonl


def bm25_command(
    questions: Path = typer.Argument(..., help="chemref question JSONL (from chemref questions build)."),
    output: Path = typer.Option(..., "-o", "--output", callback=checked_output,
                                help="Predictions JSONL to write (for chemref score questions)."),
    pool: str = typer.Option("references", "--pool", help='"references" (every reference with a DOI and a title '
                                                          'in the source articles) or a JSONL of {"doi", "title"}.'),
    k: int = typer.Option(100, "--k", min=1, help="How many DOIs to rank per question."),
    corpus: Optional[List[Path]] = typer.Option(None, "--corpus", help="Folder the questions were built from "
                                                "(source_file names are relative to it, or to its parent when the "
                                                "build was given it by an absolute path); repeat for several."),
) -> None:
    """Rank candidate papers by BM25 between the excerpt and their titles."""
    refuse_overwriting_inputs(output, questions, None if pool == "references" else pool, *(corpus or ()))

    diagnostics: list[str] = []
    predictions = guarded(lambda: bm25_predictions(questions, pool=pool, k=k, corpus=corpus or None,
                                                   diagnostics=diagnostics, fallback=(SAMPLE_CORPUS,)))
    for message in diagnostics:
        warn(message)
    guarded(lambda: write_jsonl(output, predictions))
    typer.echo(f"wrote {len(predictions)} predictions to {printable(str(output))}", err=True)
