"""CLI glue of the HTML pages: the ``--html`` option's check and the page writers' calls."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from chemref.cli.app import guarded
from chemref.errors import printable


def checked_page(value: Optional[Path]) -> Optional[Path]:
    """Option callback: stop before any work when the page cannot be written (missing or read-only folder)."""
    if value is not None:
        from chemref.pages.render import check_page_path

        guarded(lambda: check_page_path(value))
    return value


def write_error_page(path: Path, gold: str, pred: str, report: Any, **options: Any) -> None:
    """Write the BRAT error page of ``report`` (``pred`` scored against ``gold`` with ``details=True`` and
    ``options``) to ``path``."""
    from chemref.pages.brat_errors import write_brat_error_page
    from chemref.scoring.match_details import match_details

    details = guarded(lambda: match_details(gold, pred, report=report, **options))
    size = guarded(lambda: write_brat_error_page(path, details))
    typer.echo(f"wrote {printable(str(path))} ({size / 1e6:.1f} MB, {len(details['documents'])} documents)", err=True)


def write_questions_page(path: Path, questions: Path, rejected: Optional[Path]) -> None:
    """Write the question review page to ``path``."""
    from chemref.pages.question_review import write_review_page

    cards, size = guarded(lambda: write_review_page(path, questions, rejected))
    typer.echo(f"wrote {printable(str(path))} ({cards} cards, {size / 1e6:.1f} MB)")
