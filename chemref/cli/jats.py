"""``chemref jats FILE... [--json]``: read JATS articles; a summary table or JSON Lines in input order."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from chemref.cli.app import EXIT_INPUT, app, error, guarded, output_option, warn
from chemref.errors import printable


@app.command("jats")
def jats_command(
    files: List[Path] = typer.Argument(..., metavar="FILE",
                                       help="JATS .nxml/.xml files, or folders of them (subfolders included)."),
    as_json: bool = typer.Option(False, "--json", help="JSON Lines: one object per article, in input order."),
    output: Optional[Path] = output_option(),
    workers: int = typer.Option(1, "-w", "--workers", min=1, help="Worker processes that read the articles."),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress",
                                            help="Progress bar on stderr (default: from 10 files on)."),
) -> None:
    """Read JATS articles: citations resolved to references and DOIs, sections, licence, diagnostics."""
    from chemref.jats.report import run

    notes: list[str] = []
    errors = guarded(lambda: run(files, as_json=as_json, output=str(output) if output else None,
                                 workers=workers, progress=progress, notes=notes))
    for note in notes:
        warn(note)
    for exc in errors:
        error(str(exc))
    if output is not None and str(output) != "-" and not errors:  # a failed run leaves the previous output as it was
        typer.echo(f"wrote {printable(str(output))}", err=True)
    if errors:
        raise typer.Exit(EXIT_INPUT)
