"""``chemref jats INPUT... [--json]``: read JATS articles; a summary table or JSON Lines in input order."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

from chemref._lazy import lazy_module
from chemref.cli.app import EXIT_INPUT, error, guarded, output_option
from chemref.errors import printable

if TYPE_CHECKING:
    from chemref.jats import report
else:  # the JATS reader (lxml) runs when articles are read: `jats --help` costs its options only
    report = lazy_module("chemref.jats.report")


def jats_command(
    files: Optional[List[Path]] = typer.Argument(
        None, metavar="INPUT",
        help="JATS .nxml/.xml files, folders of them (subfolders included) or PMC .tar.gz packages."),
    files_from: Optional[Path] = typer.Option(None, "--files-from", help="A text file naming one input per line."),
    as_json: bool = typer.Option(False, "--json", help="JSON Lines: one object per article, in input order."),
    output: Optional[Path] = output_option(),
    workers: int = typer.Option(1, "-w", "--workers", min=1, help="Worker processes that read the articles."),
    sub_articles: bool = typer.Option(False, "--sub-articles",
                                      help="Read each <sub-article> (translations, replies) as an article of its own."),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress",
                                            help="Progress bar on stderr (default: from 10 files on)."),
) -> None:
    """Read JATS articles: citations resolved to references and DOIs, sections, licence, diagnostics."""
    if not files and files_from is None:
        error("no input given: name JATS files, folders or PMC packages, or --files-from LIST")
        raise typer.Exit(EXIT_INPUT)
    errors = guarded(lambda: report.run(files or [], as_json=as_json, output=str(output) if output else None,
                                        workers=workers, progress=progress, files_from=files_from,
                                        sub_articles=sub_articles))
    for exc in errors:
        error(str(exc))
    if output is not None and str(output) != "-" and errors.written:  # none read: the previous output stays
        unread = f"; {len(errors)} input{'s' if len(errors) > 1 else ''} could not be read, named above" if errors else ""
        typer.echo(f"wrote {printable(str(output))} ({errors.articles:,} "
                   f"article{'' if errors.articles == 1 else 's'}{unread})", err=True)
    if errors:
        raise typer.Exit(EXIT_INPUT)
