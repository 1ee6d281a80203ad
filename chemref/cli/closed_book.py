"""``chemref questions closed-book prepare | run | apply``: can a model name the cited work from the excerpt
alone? The judge's Batch files and runner, another prompt; a question recalled from memory is dropped."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Optional

import typer

from chemref.cli.app import checked_output, fail, guarded, refuse_overwriting_inputs, shown
from chemref.cli.model_stages import (
    per_article_option,
    per_target_option,
    rejected_out_option,
    report_option,
    requests_option,
    seed_option,
    send_requests,
    stage_records,
    written_list,
)
from chemref.questions.closed_book.apply import UNANSWERED_POLICIES, apply_to_files
from chemref.questions.closed_book.defaults import AUTHOR_YEAR, TITLE_THRESHOLD
from chemref.questions.closed_book.prepare import (
    DEFAULT_SAMPLES,
    DEFAULT_TEMPERATURE,
    closed_book_candidates,
    write_requests,
)
from chemref.questions.judge.answers import check_model_name


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

    refuse_overwriting_inputs(output, questions, rejected)
    if not model.strip():
        fail("--model must name a model")
    guarded(lambda: check_model_name(model, what="--model"))
    samples = DEFAULT_SAMPLES if samples is None else samples
    temperature = DEFAULT_TEMPERATURE if temperature is None else temperature
    if not (math.isfinite(temperature) and 0 < temperature <= 2):
        fail(f"--temperature must be above 0 and at most 2 (a closed-book test samples), got {temperature:g}")
    counts = {"read": 0, "asked": 0}

    def asked():
        for row in closed_book_candidates(stage_records(questions, rejected, counts)):
            counts["asked"] += 1
            yield row

    written = guarded(lambda: write_requests(output, asked(), model=model, samples=samples,
                                             temperature=temperature))
    typer.echo(f"wrote {shown(output)} ({written} requests: {counts['asked']} questions x {samples} samples, "
               f"from {counts['read']} records)")


def _unanswered(value: str) -> str:

    if value not in UNANSWERED_POLICIES:
        raise typer.BadParameter(f"use {' or '.join(UNANSWERED_POLICIES)}")
    return value


def apply_command(
    questions: Path = typer.Argument(..., metavar="QUESTIONS", help="questions.jsonl the requests were prepared "
                                     "from."),
    responses: Path = typer.Argument(..., metavar="RESPONSES", help="responses.jsonl (OpenAI Batch output "
                                     "format) from 'closed-book run', a hosted batch, or any other answerer."),
    output: Path = typer.Option(..., "-o", "--output", callback=checked_output, help="The questions kept "
                                "(JSON Lines; a dataset card beside it when the build's or the judge's report is "
                                "beside QUESTIONS)."),
    rejected: Optional[Path] = typer.Option(None, "--rejected", help="The rejected file given to 'prepare' (its "
                                            "candidates rejected only by a cap take the slots recalled questions "
                                            "free)."),
    requests: Optional[Path] = requests_option(" (without it, a sample never answered goes unseen)"),
    keep_recalled: bool = typer.Option(False, "--keep-recalled", help="Keep recalled questions, flagged by "
                                       "closed_book_hits > 0, instead of dropping them."),
    unanswered: str = typer.Option("hold", "--unanswered", callback=_unanswered, metavar="hold|keep",
                                   help="A question some sample of which has no usable answer (and none "
                                   "recalls it): hold it back (closed_book_unanswered), or keep it, flagged by "
                                   "closed_book_status."),
    title_threshold: float = typer.Option(TITLE_THRESHOLD, "--title-threshold", min=0.0, max=1.0, help="Title "
                                          "similarity from which an answer recalls the cited work (chosen on "
                                          "hand-checked answers; 'score questions' uses 0.95)."),
    author_year: bool = typer.Option(AUTHOR_YEAR, "--author-year/--title-only", help="An answer that gives the "
                                     "first author's surname and the year recalls the cited work too "
                                     "(--title-only: the DOI, PMID or title only, as CiteME counted)."),
    rejected_out: Optional[Path] = rejected_out_option("closed_book, closed_book_unanswered, a cap, or an earlier "
                                                       "one"),
    report: Optional[Path] = report_option("test's", "a report"),
    per_target: Optional[int] = per_target_option(),
    per_article: Optional[int] = per_article_option(),
    seed: Optional[int] = seed_option(),
) -> None:
    """Parse every answer strictly, drop the questions a sample recalls, apply the caps again."""

    for out in (output, rejected_out, report):
        refuse_overwriting_inputs(out, questions, responses, rejected, requests)
    if title_threshold is not None and title_threshold <= 0:
        fail("--title-threshold must be above 0")
    outputs = guarded(lambda: apply_to_files(
        str(questions), str(responses), str(output), rejected=None if rejected is None else str(rejected),
        requests=None if requests is None else str(requests), keep_recalled=keep_recalled,
        unanswered=unanswered, title_threshold=title_threshold, author_year=author_year,
        rejected_out=None if rejected_out is None else str(rejected_out),
        report=None if report is None else str(report), per_target=per_target, per_article=per_article,
        seed=seed))
    print_closed_book(outputs)


def print_closed_book(outputs) -> None:
    typer.echo(outputs.result.summary.to_text())
    typer.echo("wrote " + "; ".join(written_list(outputs, len(outputs.result.questions),
                                                 len(outputs.result.rejected))))


def closed_book_paths(output: Path) -> dict[str, Path]:
    """Where ``questions build --closed-book-samples`` puts the judge's files and the closed-book requests and
    responses: beside ``output``, named after it (``output`` is a .jsonl file: ``judge_paths`` checked it)."""
    stem = output.with_suffix("")
    return {"judged": Path(f"{stem}.judged.jsonl"), "judged_rejected": Path(f"{stem}.judged.rejected.jsonl"),
            "judged_report": Path(f"{stem}.judged.report.json"),
            "requests": Path(f"{stem}.closed-book-requests.jsonl"),
            "responses": Path(f"{stem}.closed-book-responses.jsonl")}


def closed_book_build(paths: dict[str, Path], output: Path, report: Optional[Path], rejected: Optional[Path], *,
                      endpoint: str, model: str, samples: int, concurrency: int, progress: bool) -> None:
    """The closed-book test after the judge in one build (prepare, run, apply): the questions the judge kept,
    and the candidates it kept that a cap then rejected, are asked about; the kept questions go to ``output``."""

    records = stage_records(paths["judged"], paths["judged_rejected"])
    sent = guarded(lambda: write_requests(paths["requests"], closed_book_candidates(records), model=model,
                                          samples=samples))
    typer.echo(f"wrote {shown(paths['requests'])} ({sent} closed-book requests)")
    send_requests(paths["requests"], paths["responses"], endpoint=endpoint, concurrency=concurrency,
                  progress=progress, what="closed-book")
    outputs = guarded(lambda: apply_to_files(
        str(paths["judged"]), str(paths["responses"]), str(output), rejected=str(paths["judged_rejected"]),
        requests=str(paths["requests"]), rejected_out=None if rejected is None else str(rejected),
        report=str(report) if report is not None else None, build_report=str(paths["judged_report"]),
        supersedes=True))
    print_closed_book(outputs)
