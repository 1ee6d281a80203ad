"""``chemref score brat GOLD PRED``: ChEMU 2021 scoring (default) or BRATEval v0.3.2 output (``--brateval``)."""

from __future__ import annotations

import typer

from pathlib import Path
from typing import Optional

from chemref.cli.app import emit, fail, guarded, output_option, refuse_overwriting_inputs, score_app, warn
from chemref.cli.pages import checked_page, write_error_page


@score_app.command("brat")
def score_brat_command(
    gold: str = typer.Argument(..., metavar="GOLD", help="Gold folder of .ann files (or a .zip)."),
    pred: str = typer.Argument(..., metavar="PRED", help="Prediction folder or Codalab-style .zip of .ann files."),
    brateval: bool = typer.Option(False, "--brateval", help="Print exactly what BRATEval v0.3.2 prints."),
    level: str = typer.Option(None, "--level", help="relations|entities (BRATEval default: relations; "
                                                      "ChEMU default: both)."),
    span: str = typer.Option(None, "--span", help="exact|overlap|approx (approx: --brateval only). "
                                                    "ChEMU mode: exact or overlap keeps only those reports."),
    similarity: float = typer.Option(None, "--similarity", help="Approx similarity threshold (default 0.8)."),
    type_match: str = typer.Option(None, "--type", help="exact|inexact|hierarchical (--brateval only)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    as_csv: bool = typer.Option(False, "--csv", help="Print the report as CSV rows."),
    as_markdown: bool = typer.Option(False, "--markdown", help="Print the report as a Markdown table."),
    per_doc: bool = typer.Option(False, "--per-doc", help="Add a per-document breakdown."),
    errors: bool = typer.Option(False, "--errors", help="List every FP/FN with its text from the .txt files."),
    strict: bool = typer.Option(False, "--strict", help="ChEMU mode: a missing or extra prediction file is an "
                                                         "error (exit 2) instead of a warning."),
    jobs: Optional[int] = typer.Option(None, "-w", "--workers", "--jobs", min=0,
                                       help="Worker processes (default 1; 0 = automatic: 2 on Linux from "
                                            "1,000 documents). --jobs is an older name."),
    max_coref_links: int = typer.Option(1_000_000, "--max-coref-links", min=0,
                                        help="ChEMU mode: refuse a document whose COREFERENCE chains expand "
                                             "to more links than this (gold or prediction)."),
    max_member_mb: float = typer.Option(50.0, "--max-member-mb", min=0.001,
                                        help="Refuse a .ann/.txt (zip member or file) larger than this "
                                             "(MB, uncompressed)."),
    max_archive_mb: float = typer.Option(1024.0, "--max-archive-mb", min=0.001,
                                         help="Refuse a zip whose .ann/.txt members expand to more than this (MB)."),
    max_zip_ratio: float = typer.Option(100.0, "--max-zip-ratio", min=1.0,
                                        help="Refuse a zip member (over 1 MB) that expands more than this many "
                                             "times."),
    output: Optional[Path] = output_option(),
    html: Optional[Path] = typer.Option(None, "--html", callback=checked_page, metavar="PAGE",
                                        help="Also write a self-contained HTML page of the errors: every "
                                             "document's text with TP/FP/FN mentions and relations, with filters."),
) -> None:
    """Score BRAT standoff predictions against gold (ChEMU 2021 definition by default)."""
    if sum((as_json, as_csv, as_markdown)) > 1:
        fail("choose one of --json, --csv, --markdown")
    refuse_overwriting_inputs(output, gold, pred)
    refuse_overwriting_inputs(html, gold, pred)
    from chemref.scoring.brat_api import score_brat
    from chemref.scoring.sources import ZipLimits

    limits = guarded(lambda: ZipLimits(member=int(max_member_mb * 2**20), total=int(max_archive_mb * 2**20),
                                       ratio=max_zip_ratio))

    report = guarded(lambda: score_brat(gold, pred, mode="brateval" if brateval else "chemu", level=level,
                                        span=span, similarity=similarity, type_match=type_match,
                                        strict=strict, per_doc=per_doc, errors=errors, jobs=jobs,
                                        max_coref_links=max_coref_links, zip_limits=limits))
    for message in report.get("warnings", ()):
        warn(message)
    if as_json:
        out = report.to_json()
    elif as_csv:
        out = report.to_csv()
    elif as_markdown:
        out = report.to_markdown()
    else:
        out = report.to_text()
    emit(out, output)
    if html is not None:
        write_error_page(html, gold, pred, mode="brateval" if brateval else "chemu", level=level, span=span,
                         similarity=similarity, type_match=type_match, strict=strict, jobs=jobs,
                         max_coref_links=max_coref_links, zip_limits=limits)
