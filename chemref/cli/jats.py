"""``chemref jats FILE... [--json]``: read JATS articles; a summary table or JSON Lines in input order."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from chemref.cli.app import EXIT_INPUT, app, error, guarded


@app.command("jats")
def jats_command(
    files: List[Path] = typer.Argument(..., metavar="FILE", help="JATS .nxml/.xml files, or folders of them."),
    as_json: bool = typer.Option(False, "--json", help="JSON Lines: one object per article, in input order."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write to this file (atomically) "
                                                                        "instead of standard output."),
    workers: int = typer.Option(1, "--workers", "-w", min=1, help="Processes to read with."),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar on stderr."),
) -> None:
    """Read JATS articles: citations resolved to references and DOIs, sections, licence, diagnostics."""
    from chemref.jats.report import run

    errors = guarded(lambda: run(files, as_json=as_json, output=str(output) if output else None,
                                 workers=workers, progress=False if no_progress else None))
    for exc in errors:
        error(str(exc))
    if errors:
        raise typer.Exit(EXIT_INPUT)
