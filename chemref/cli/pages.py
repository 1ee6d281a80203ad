"""CLI glue of the BRAT error page (``score brat --html``): the option's check and the page writer's call."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from chemref._lazy import lazy_module
from chemref.cli.app import guarded
from chemref.errors import printable

if TYPE_CHECKING:
    from chemref.pages import brat_errors, render
    from chemref.scoring.brat import match_details
else:  # run only with --html
    brat_errors = lazy_module("chemref.pages.brat_errors")
    render = lazy_module("chemref.pages.render")
    match_details = lazy_module("chemref.scoring.brat.match_details")


def checked_page(value: Optional[Path]) -> Optional[Path]:
    """Option callback: stop before any work when the page cannot be written (missing or read-only folder)."""
    if value is not None:
        guarded(lambda: render.check_page_path(value))
    return value


def page_written(path: Path, html: str, documents: int) -> None:
    """Say on stderr that the error page ``html`` was written to ``path``."""
    typer.echo(f"wrote {printable(str(path))} ({len(html.encode('utf-8')) / 1e6:.1f} MB, {documents} documents)",
               err=True)


def error_page(gold: str, pred: str, report: Any, **options: Any) -> tuple[str, int]:
    """The BRAT error page of ``report`` as HTML text, and the number of documents it shows (written by the
    caller together with the report)."""
    details = guarded(lambda: match_details.match_details(gold, pred, report=report, **options))
    return guarded(lambda: brat_errors.render_brat_error_page(details)), len(details["documents"])
