"""CLI glue of the HTML pages: the ``--html`` option's check and the page writers' calls."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

import typer

from chemref.cli.app import guarded, warn
from chemref.errors import printable


def checked_page(value: Optional[Path]) -> Optional[Path]:
    """Option callback: stop before any work when the page cannot be written (missing or read-only folder)."""
    if value is not None:
        from chemref.pages.render import check_page_path  # noqa: PLC0415 (the command's library, loaded when the command runs)

        guarded(lambda: check_page_path(value))
    return value


def page_written(path: Path, html: str, documents: int) -> None:
    """Say on stderr that the error page ``html`` was written to ``path``."""
    typer.echo(f"wrote {printable(str(path))} ({len(html.encode('utf-8')) / 1e6:.1f} MB, {documents} documents)",
               err=True)


def error_page(gold: str, pred: str, report: Any, **options: Any) -> tuple[str, int]:
    """The BRAT error page of ``report`` as HTML text, and the number of documents it shows (written by the
    caller together with the report)."""
    from chemref.pages.brat_errors import render_brat_error_page  # noqa: PLC0415 (the command's library, loaded when the command runs)
    from chemref.scoring.brat.match_details import match_details  # noqa: PLC0415 (the command's library, loaded when the command runs)

    details = guarded(lambda: match_details(gold, pred, report=report, **options))
    return guarded(lambda: render_brat_error_page(details)), len(details["documents"])


def write_questions_page(path: Path, questions: Path, rejected: Optional[Path], corpora: Sequence[Path] = ()) -> None:
    """Write the question review page to ``path`` (articles read only inside ``corpora``); its notes as warnings."""
    from chemref.pages.question_review import write_review_page  # noqa: PLC0415 (the command's library, loaded when the command runs)

    cards, size, notes = guarded(lambda: write_review_page(path, questions, rejected, corpora))
    for note in notes:
        warn(note)
    typer.echo(f"wrote {printable(str(path))} ({cards} cards, {size / 1e6:.1f} MB)")


def write_baseline_page_cli(path: Path, questions: Path) -> None:
    """Write the human-baseline page to ``path``."""
    from chemref.pages.human_baseline import write_baseline_page  # noqa: PLC0415 (the command's library, loaded when the command runs)

    n, size = guarded(lambda: write_baseline_page(path, questions))
    typer.echo(f"wrote {printable(str(path))} ({n} questions, {size / 1e6:.2f} MB)")
