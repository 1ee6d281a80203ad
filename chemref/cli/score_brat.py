"""``chemref score brat GOLD PRED [PRED...]``: ChEMU 2021 scoring (default) or BRATEval v0.3.2 output
(``--brateval``); with several predictions, a leaderboard with intervals and paired p-values."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from chemref._io import is_stdout, write_together
from chemref._lazy import lazy_module
from chemref.cli.app import (
    emit,
    fail,
    guarded,
    output_option,
    refuse_overwriting_inputs,
    refuse_shared_outputs,
    warn,
)
from chemref.cli.pages import checked_page, error_page, page_written
from chemref.cli.statistics_options import (
    ci_option,
    formatted,
    names_option,
    render,
    resamples_option,
    seed_option,
    split_names,
    test_option,
    trials_option,
)
from chemref.errors import InputError, encodable, printable
from chemref.scoring.brat.brateval.java import DEFAULT_SIMILARITY

if TYPE_CHECKING:
    from chemref.scoring import leaderboard
    from chemref.scoring.brat import score as brat_score
    from chemref.scoring.brat import sources as brat_sources
else:  # the scorers run when a command scores: `score brat --help` costs its options only
    brat_score = lazy_module("chemref.scoring.brat.score")
    brat_sources = lazy_module("chemref.scoring.brat.sources")
    leaderboard = lazy_module("chemref.scoring.leaderboard")

#: the limits that bound the work on hostile input (ChEMU mode, and the zip reader of both modes)
_MAX_COREF_LINKS = typer.Option(1_000_000, "--max-coref-links", min=0,
                                help="ChEMU mode: refuse a document whose COREFERENCE chains expand "
                                     "to more links than this (gold or prediction).")
_MAX_COREF_TOTAL = typer.Option(5_000_000, "--max-coref-total", min=0,
                                help="ChEMU mode: refuse a prediction whose documents' COREFERENCE "
                                     "chains expand to more links than this together.")
_MAX_ERROR_RECORDS = typer.Option(1_000, "--max-error-records", min=0,
                                  help="ChEMU mode: list at most this many FP/FN records per document "
                                       "and report (--errors, --html); the rest are counted, and the "
                                       "scores are always complete.")
_MAX_MATCH_EDGES = typer.Option(1_000_000, "--max-match-edges", min=0,
                                help="ChEMU mode: refuse a relaxed matching whose graph, with mentions "
                                     "(relations) that overlap the same ones merged, still has more "
                                     "edges than this.")
_MAX_MEMBER_MB = typer.Option(50.0, "--max-member-mb", min=0.001,
                              help="Refuse a .ann/.txt (zip member or file) larger than this "
                                   "(MB, uncompressed).")
_MAX_ARCHIVE_MB = typer.Option(1024.0, "--max-archive-mb", min=0.001,
                               help="Refuse a zip whose .ann/.txt members expand to more than this (MB).")
_MAX_ZIP_RATIO = typer.Option(100.0, "--max-zip-ratio", min=1.0,
                              help="Refuse a zip member (over 1 MB) that expands more than this many "
                                   "times.")


def score_brat_command(
    gold: str = typer.Argument(..., metavar="GOLD", help="Gold folder of .ann files (or a .zip)."),
    preds: List[str] = typer.Argument(..., metavar="PRED...",
                                      help="Prediction folder(s) or Codalab-style .zip(s) of .ann files; "
                                           "two or more print a leaderboard."),
    brateval: bool = typer.Option(False, "--brateval", help="Print exactly what BRATEval v0.3.2 prints."),
    level: str = typer.Option(None, "--level", metavar="LEVEL",
                              help="relations|entities (BRATEval default: relations; ChEMU default: both)."),
    span: str = typer.Option(None, "--span", metavar="SPAN",
                             help="exact|overlap|approx (approx: --brateval only). ChEMU mode: exact or overlap "
                                  "keeps only those reports."),
    similarity: float = typer.Option(None, "--similarity", metavar="FLOAT",
                                     help=f"Approx similarity threshold (default {DEFAULT_SIMILARITY})."),
    type_match: str = typer.Option(None, "--type", metavar="TYPE",
                                   help="exact|inexact|hierarchical (--brateval only)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    as_csv: bool = typer.Option(False, "--csv", help="Print the report as CSV rows."),
    as_markdown: bool = typer.Option(False, "--markdown", help="Print the report as a Markdown table."),
    per_doc: bool = typer.Option(False, "--per-doc", help="Add a per-document breakdown."),
    errors: bool = typer.Option(False, "--errors", help="List the FP/FN with their text from the .txt files (ChEMU mode: at most "
                                                "--max-error-records per document and report, the rest counted)."),
    unreadable_as_empty: bool = typer.Option(False, "--unreadable-as-empty",
                                             help="ChEMU mode: score a prediction file that is not UTF-8 text "
                                                  "(UTF-16, gzip, binary) as empty, with a warning, instead of "
                                                  "stopping with an error naming it."),
    strict: bool = typer.Option(False, "--strict", help="ChEMU mode: a missing or extra prediction file is an "
                                                         "error (exit 2) instead of a warning."),
    ci: Optional[float] = ci_option(),
    resamples: int = resamples_option(),
    seed: int = seed_option(),
    names: Optional[str] = names_option(),
    test: str = test_option(),
    trials: Optional[int] = trials_option(),
    jobs: Optional[int] = typer.Option(None, "-w", "--workers", "--jobs", min=0, metavar="N",
                                       help="Worker processes (default 1; 0 = automatic: 2 on Linux from "
                                            "1,000 documents). --jobs is an older name."),
    max_coref_links: int = _MAX_COREF_LINKS,
    max_coref_total: int = _MAX_COREF_TOTAL,
    max_error_records: int = _MAX_ERROR_RECORDS,
    max_match_edges: int = _MAX_MATCH_EDGES,
    max_member_mb: float = _MAX_MEMBER_MB,
    max_archive_mb: float = _MAX_ARCHIVE_MB,
    max_zip_ratio: float = _MAX_ZIP_RATIO,
    output: Optional[Path] = output_option(),
    html: Optional[Path] = typer.Option(None, "--html", callback=checked_page, metavar="PAGE",
                                        help="Also write a self-contained HTML page of the errors: every "
                                             "document's text with TP/FP/FN mentions and relations, with filters."),
) -> None:
    """Score BRAT standoff predictions against gold (ChEMU 2021 definition by default)."""
    if sum((as_json, as_csv, as_markdown)) > 1:
        fail("choose one of --json, --csv, --markdown")
    refuse_shared_outputs({"-o": output, "--html": html})
    refuse_overwriting_inputs(output, gold, *preds)
    refuse_overwriting_inputs(html, gold, *preds)
    options = _scorer_options(brateval, level=level, span=span, similarity=similarity, type_match=type_match,
                              strict=strict, jobs=jobs, max_coref_links=max_coref_links,
                              max_coref_total=max_coref_total, max_error_records=max_error_records,
                              max_match_edges=max_match_edges, unreadable_as_empty=unreadable_as_empty,
                              zip_mb=(max_member_mb, max_archive_mb, max_zip_ratio))
    formats = (as_json, as_csv, as_markdown)
    statistics = {"ci": ci, "resamples": resamples, "seed": seed}
    if len(preds) > 1:
        if per_doc or errors or html is not None:
            fail("--per-doc, --errors and --html describe one system; give one prediction with them")
        _leaderboard(gold, preds, options, statistics, names=names, test=test, trials=trials, formats=formats,
                     output=output)
        return
    if names is not None or trials is not None:
        fail("--names and --trials need two or more predictions (a leaderboard)")
    _one_system(gold, preds[0], options, statistics, per_doc=per_doc, errors=errors, formats=formats,
                output=output, html=html)


def _bytes(megabytes: float, option: str) -> int:
    """A limit given in MB as bytes; an InputError when it is too large to count in bytes (``1e308``)."""
    size = megabytes * 2**20
    if size == float("inf"):
        raise InputError(f"{option} {megabytes:g} is too large: the limit in bytes is infinite",
                         hint="a limit cannot be infinite: give a large number instead")
    return int(size)


def _scorer_options(brateval: bool, *, level: str | None, span: str | None, similarity: float | None,
                    type_match: str | None, strict: bool, jobs: int | None, max_coref_links: int,
                    max_coref_total: int, max_error_records: int, max_match_edges: int, unreadable_as_empty: bool,
                    zip_mb: tuple[float, float, float]) -> dict[str, Any]:
    """The keyword arguments of :func:`~chemref.scoring.brat.score.score_brat` the options give (the ChEMU-only
    ones in ChEMU mode only; ``zip_mb``: the member and archive limits in MB, and the expansion ratio)."""
    max_member_mb, max_archive_mb, max_zip_ratio = zip_mb
    limits = guarded(lambda: brat_sources.ZipLimits(member=_bytes(max_member_mb, "--max-member-mb"),
                                                    total=_bytes(max_archive_mb, "--max-archive-mb"),
                                                    ratio=max_zip_ratio))
    options: dict[str, Any] = dict(mode="brateval" if brateval else "chemu", level=level, span=span, similarity=similarity,
                   type_match=type_match, strict=strict, jobs=jobs, max_coref_links=max_coref_links,
                   zip_limits=limits)
    if max_match_edges != 1_000_000 and not brateval:
        options["max_match_edges"] = max_match_edges
    if not brateval:
        options.update(max_coref_total=max_coref_total, max_error_records=max_error_records)
    if unreadable_as_empty:
        if brateval:
            fail("--unreadable-as-empty is a ChEMU mode option (BRATEval mode reads files as BRATEval does)")
        options["unreadable_as_empty"] = True
    return options


def _leaderboard(gold: str, preds: list[str], options: dict[str, Any], statistics: dict[str, Any], *,
                 names: str | None, test: str, trials: int | None, formats: tuple[bool, bool, bool],
                 output: Path | None) -> None:
    """Several predictions: the leaderboard, with intervals (95% unless ``--ci``) and paired tests."""
    ci = statistics["ci"]
    board = guarded(lambda: leaderboard.compare_brat(gold, preds, names=split_names(names), test=test, trials=trials,
                                         ci=0.95 if ci is None else ci, resamples=statistics["resamples"],
                                         seed=statistics["seed"], **options))
    for message in board.diagnostics:
        warn(message)
    render(board, *formats, output)


def _one_system(gold: str, pred: str, options: dict[str, Any], statistics: dict[str, Any], *, per_doc: bool,
                errors: bool, formats: tuple[bool, bool, bool], output: Path | None, html: Path | None) -> None:
    """One prediction: its report, and the error page when ``--html`` asks for it."""
    report = guarded(lambda: brat_score.score_brat(gold, pred, per_doc=per_doc, errors=errors, details=html is not None,
                                        **statistics, **options))
    for message in report.get("warnings", ()):
        warn(message)
    if html is None:
        render(report, *formats, output)
        return

    text = formatted(report, *formats)
    page, documents = error_page(gold, pred, report, **options)
    if output is None or is_stdout(output):
        emit(text, output)
        guarded(lambda: write_together([(html, page)]))
    else:  # both replaced together, or neither (a page that cannot be written leaves the report as it was)
        guarded(lambda: write_together([(output, encodable(text if text.endswith("\n") else text + "\n")),
                                        (html, page)]))
        typer.echo(f"wrote {printable(str(output))}", err=True)
    page_written(html, page, documents)
