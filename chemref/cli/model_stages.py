"""What the commands of the model stages (``questions judge`` and ``questions closed-book``) share: the options
of ``apply``, the build's records read for ``prepare``, the requests sent after a build, and the list of what
``apply`` wrote."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, Optional

import typer

from chemref._io.secrets import api_key_from_env
from chemref.cli.app import checked_output, fail, guarded, shown
from chemref.questions.judge.client import run_requests
from chemref.questions.judge.prepare import read_records

__all__ = ["EXIT_FAILED_REQUESTS", "requests_option", "rejected_out_option", "report_option",
           "per_target_option", "per_article_option", "seed_option", "stage_records", "send_requests",
           "written_list"]

#: Exit status of a run that wrote every answer it could but left requests failed (run it again to retry them).
EXIT_FAILED_REQUESTS = 1


def requests_option(more: str = "") -> Any:
    return typer.Option(None, "--requests", help="requests.jsonl the responses answer: counts missing answers "
                        f"and stale requests{more}.")


def rejected_out_option(reasons: str) -> Any:
    return typer.Option(None, "--rejected-out", callback=checked_output, help="Every record not kept, with its "
                        f"reason ({reasons}).")


def report_option(steps: str, beside: str) -> Any:
    return typer.Option(None, "--report", callback=checked_output, help=f"The funnel with the {steps} steps as "
                        f"JSON (default, when {beside} is beside QUESTIONS: <output stem>.report.json).")


def per_target_option() -> Any:
    return typer.Option(None, "--per-target", min=1, help="Caps applied again (default: the build's, from its "
                        "report, else 1).")


def per_article_option() -> Any:
    return typer.Option(None, "--per-article", min=1, help="(default: the build's, else 4).")


def seed_option() -> Any:
    return typer.Option(None, "--seed", help="Tie-break seed of the caps (default: the build's).")


def stage_records(questions: Path, rejected: Optional[Path], counts: Optional[dict[str, int]] = None
                  ) -> Iterator[dict[str, Any]]:
    """The records of a build's questions (their ``reason`` dropped) and rejected file, in file order;
    ``counts["read"]`` counts them."""

    for path, row in read_records((questions, rejected)):
        if counts is not None:
            counts["read"] += 1
        if path == str(questions):
            row.pop("reason", None)
        yield row


def send_requests(requests: Path, responses: Path, *, endpoint: str, concurrency: int, progress: bool,
                  what: str) -> None:
    """Send the requests of a model stage run after a build (the API key from OPENAI_API_KEY) and print the
    summary; failed requests end the command (run it again to retry them)."""

    summary = guarded(lambda: run_requests(requests, responses, endpoint=endpoint,
                                           api_key=guarded(lambda: api_key_from_env("OPENAI_API_KEY")),
                                           concurrency=concurrency, progress=progress))
    typer.echo(summary.to_text())
    if summary.failures:
        fail(f"{summary.failures} {what} request(s) failed after the retries; their error lines are in "
             f"{shown(responses)}: run the same command again to retry them", EXIT_FAILED_REQUESTS)


def written_list(outputs: Any, questions: int, rejected: int) -> list[str]:
    """What ``apply`` wrote (``outputs``: a stage's outputs with ``output``, ``rejected``, ``report``, ``card``),
    one item per file, for the ``wrote`` line."""
    written = [f"{shown(outputs.output)} ({questions} questions)"]
    if outputs.rejected:
        written.append(f"{shown(outputs.rejected)} ({rejected} rejected)")
    if outputs.report:
        written.append(f"{shown(outputs.report)} (report)")
    if outputs.card:
        written.append(f"{shown(outputs.card)} (dataset card)")
    return written
