"""``chemref questions difficulty``: rank each question's cited work among every cited work of a build (BM25 over
their titles)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from chemref.cli.app import checked_output, fail, guarded, refuse_overwriting_inputs, refuse_shared_outputs
from chemref.errors import printable
from chemref.questions.output.difficulty import corpus_difficulty, folder_shards


def difficulty_command(
    questions: List[Path] = typer.Argument(..., metavar="QUESTIONS...", help="questions.jsonl of a build, its "
                                           "shards (joined in the order given), or a folder build (out/: its "
                                           "questions-*.jsonl, and its rejected-*.jsonl as --rejected)."),
    output: Path = typer.Option(..., "-o", "--output", callback=checked_output, help="The questions with "
                                "bm25_rank_corpus filled in (JSON Lines)."),
    rejected: Optional[List[Path]] = typer.Option(None, "--rejected", help="rejected.jsonl of the same build "
                                                  "(repeatable, for shards): their articles' cited works join the "
                                                  "corpus, and with --rejected-out they are ranked too."),
    rejected_out: Optional[Path] = typer.Option(None, "--rejected-out", callback=checked_output, help="The "
                                                "rejected candidates with bm25_rank_corpus filled in."),
    corpus: Optional[List[Path]] = typer.Option(None, "--corpus", help="Folder the build read (where the "
                                                "source_file names are found); repeatable."),
) -> None:
    """Rank each question's cited work among every cited work of the build (BM25 over their titles): bm25_rank_corpus."""

    if len(questions) == 1 and questions[0].is_dir():
        questions, shards = guarded(lambda: folder_shards(questions[0]))
        rejected = rejected or shards or None
    given = [*questions, *(rejected or [])]
    for out in (output, rejected_out):
        refuse_overwriting_inputs(out, *given)
    refuse_shared_outputs({"--output": output, "--rejected-out": rejected_out})
    if rejected_out is not None and not rejected:
        fail("--rejected-out needs --rejected")
    pairs: list = [(questions, output)] + ([(rejected, rejected_out)] if rejected and rejected_out else [])
    also = rejected if rejected and rejected_out is None else ()
    summary = guarded(lambda: corpus_difficulty(pairs, also=also, corpus=corpus or None))
    typer.echo(summary.to_text())
    typer.echo(f"wrote {printable(str(output))}" + (f"; {printable(str(rejected_out))}" if rejected_out else ""))
