"""``chemref questions closed-book prepare | run | apply``: can a model name the cited work from the excerpt
alone? The judge's Batch files and runner, another prompt; a question recalled from memory is dropped."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from chemref.cli.app import checked_output, fail, guarded, questions_app, refuse_overwriting_inputs
from chemref.errors import printable

closed_book_app = typer.Typer(help="Closed-book test: drop questions a model answers from memory (OpenAI Batch "
                              "format files, the judge's runner).", no_args_is_help=True,
                              pretty_exceptions_enable=False)
questions_app.add_typer(closed_book_app, name="closed-book")


def _shown(path: object) -> str:
    return printable(str(path))


def _samples_help() -> str:
    from chemref.questions.closed_book.prepare import DEFAULT_SAMPLES

    return f"Requests per question, ids ID#1 ... ID#K (default {DEFAULT_SAMPLES}, as CiteME)."


@closed_book_app.command("prepare")
def prepare_command(
    questions: Path = typer.Argument(..., metavar="QUESTIONS", help="questions.jsonl of a build (or of 'judge "
                                     "apply')."),
    model: str = typer.Option(..., "--model", metavar="NAME", help="The model name the server knows."),
    samples: Optional[int] = typer.Option(None, "--samples", min=1, max=100, metavar="K", help="Requests per "
                                          "question, ids ID#1 ... ID#K (default 5, as CiteME)."),
    rejected: Optional[Path] = typer.Option(None, "--rejected", help="The rejected file of the same build (or "
                                            "'judge apply --rejected-out'): its candidates rejected only by a "
                                            "cap are asked about too, so that a recalled question's slot can go "
                                            "to one of them."),
    temperature: Optional[float] = typer.Option(None, "--temperature", help="Sampling temperature, above 0 "
                                                "(default 1.0)."),
    output: Path = typer.Option(..., "-o", "--output", callback=checked_output, help="requests.jsonl (OpenAI "
                                "Batch input format)."),
) -> None:
    """Write K chat-completions requests per question that show only its excerpt; nothing is sent."""
    from chemref.questions.closed_book.prepare import (DEFAULT_SAMPLES, DEFAULT_TEMPERATURE,
                                                       closed_book_candidates, write_requests)
    from chemref.questions.judge.answers import check_model_name
    from chemref.questions.judge.prepare import read_records

    refuse_overwriting_inputs(output, questions, rejected)
    if not model.strip():
        fail("--model must name a model")
    guarded(lambda: check_model_name(model, what="--model"))
    samples = DEFAULT_SAMPLES if samples is None else samples
    temperature = DEFAULT_TEMPERATURE if temperature is None else temperature
    import math

    if not (math.isfinite(temperature) and 0 < temperature <= 2):
        fail(f"--temperature must be above 0 and at most 2 (a closed-book test samples), got {temperature:g}")
    counts = {"read": 0, "asked": 0}

    def records():
        for path, row in read_records((questions, rejected)):
            counts["read"] += 1
            if path == str(questions):
                row.pop("reason", None)
            yield row

    def asked():
        for row in closed_book_candidates(records()):
            counts["asked"] += 1
            yield row

    written = guarded(lambda: write_requests(output, asked(), model=model, samples=samples,
                                             temperature=temperature))
    typer.echo(f"wrote {_shown(output)} ({written} requests: {counts['asked']} questions x {samples} samples, "
               f"from {counts['read']} records)")
