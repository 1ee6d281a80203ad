"""``chemref questions review | baseline-page``: the HTML pages of a question build (the review page, to browse
and label questions, and the human-baseline page)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import List, Optional

import typer

from chemref.cli.app import fail, guarded, refuse_overwriting_inputs, warn
from chemref.errors import printable
from chemref.pages.human_baseline import write_baseline_page
from chemref.pages.question_review import write_review_page


def review_command(
    questions: Path = typer.Argument(..., metavar="QUESTIONS", help="questions.jsonl from 'questions build'."),
    rejected: Optional[Path] = typer.Option(None, "--rejected", help="rejected.jsonl from 'questions build "
                                            "--rejected': its candidates get a card too, with their reason."),
    output: Path = typer.Option(..., "-o", "--output", help="The review page (one self-contained HTML file)."),
    corpus: Optional[List[Path]] = typer.Option(None, "--corpus", metavar="DIR",
                                                help="A folder of the JATS articles the records come from "
                                                     "(repeatable): the titles of references cited together "
                                                     "are read from articles inside these folders only."),
) -> None:
    """Write an HTML page to browse, filter and label questions and rejected candidates (labels export as JSONL)."""
    refuse_overwriting_inputs(output, questions, rejected)
    for folder in corpus or ():
        if not folder.is_dir():
            fail(f"--corpus {printable(str(folder))} is not a folder")
    write_questions_page(output, questions, rejected, corpus or ())


def baseline_page_command(
    questions: Path = typer.Argument(..., metavar="QUESTIONS", help="questions.jsonl from 'questions build'."),
    output: Path = typer.Option(..., "-o", "--output", help="The page (one self-contained, offline HTML file)."),
) -> None:
    """Write an offline page where a person answers the questions one excerpt at a time (a title or DOI, or gives
    up, timed) and exports predictions for 'chemref score questions'. The page never holds the answers."""
    refuse_overwriting_inputs(output, questions)
    write_baseline_page_cli(output, questions)


def write_questions_page(path: Path, questions: Path, rejected: Optional[Path], corpora: Sequence[Path] = ()) -> None:
    """Write the question review page to ``path`` (articles read only inside ``corpora``); its notes as warnings."""

    cards, size, notes = guarded(lambda: write_review_page(path, questions, rejected, corpora))
    for note in notes:
        warn(note)
    typer.echo(f"wrote {printable(str(path))} ({cards} cards, {size / 1e6:.1f} MB)")


def write_baseline_page_cli(path: Path, questions: Path) -> None:
    """Write the human-baseline page to ``path``."""

    n, size = guarded(lambda: write_baseline_page(path, questions))
    typer.echo(f"wrote {printable(str(path))} ({n} questions, {size / 1e6:.2f} MB)")
