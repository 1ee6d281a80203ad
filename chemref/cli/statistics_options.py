"""The options every ``score`` command shares for intervals and leaderboards, and the one way reports are printed."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from chemref.cli.app import emit, fail
from chemref.scoring.stats.resampling import DEFAULT_RESAMPLES, DEFAULT_SEED


def ci_option() -> Any:
    return typer.Option(None, "--ci", metavar="LEVEL", min=0.0, max=1.0,
                        help="Add a percentile bootstrap confidence interval at this level (e.g. 0.95) to every "
                             "score; documents (queries, items) are resampled.")


def resamples_option() -> Any:
    return typer.Option(DEFAULT_RESAMPLES, "--resamples", metavar="N", min=1,
                        help="Bootstrap resamples for --ci and the leaderboard's intervals.")


def seed_option() -> Any:
    return typer.Option(DEFAULT_SEED, "--seed", metavar="N", min=0,
                        help="Seed of the random generator (printed with the results; same seed, same numbers).")


def names_option() -> Any:
    return typer.Option(None, "--names", metavar="A,B,...",
                        help="Leaderboard: comma-separated system names, one per prediction (default: file names).")


def test_option() -> Any:
    return typer.Option("randomization", "--test", metavar="TEST",
                        help="Leaderboard: paired test against the best system, randomization|bootstrap.")


def trials_option() -> Any:
    return typer.Option(None, "--trials", metavar="N", min=1,
                        help="Leaderboard: randomization trials (default 10,000) or bootstrap resamples "
                             "(default --resamples).")


def split_names(names: Optional[str]) -> list[str] | None:
    return None if names is None else names.split(",")


def render(report: Any, as_json: bool, as_csv: bool, as_markdown: bool, output: Optional[Path]) -> None:
    """Print (or write to ``output``, saying so on stderr) a report in the chosen format."""
    emit(formatted(report, as_json, as_csv, as_markdown), output)


def formatted(report: Any, as_json: bool, as_csv: bool, as_markdown: bool) -> str:
    """A report in the chosen format (text by default)."""
    if sum((as_json, as_csv, as_markdown)) > 1:
        fail("choose one of --json, --csv, --markdown")
    if as_json:
        return report.to_json()
    if as_csv:
        return report.to_csv()
    if as_markdown:
        return report.to_markdown()
    return report.to_text()
