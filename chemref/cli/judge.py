"""``chemref questions judge prepare | run | apply``: a language model judges the candidate questions, through
files in the OpenAI Batch format (a hosted batch, a local server, or any other way of answering them)."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Optional

import typer

from chemref._io.secrets import api_key_from_env, register_secret, safe_url
from chemref.cli.app import checked_output, fail, guarded, refuse_overwriting_inputs, shown
from chemref.cli.model_stages import (
    EXIT_FAILED_REQUESTS,
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
from chemref.questions.funnel.selector import default_selector, load_selector
from chemref.questions.judge.answers import check_model_name
from chemref.questions.judge.apply import apply_to_files
from chemref.questions.judge.client import run_requests
from chemref.questions.judge.prepare import judge_candidates, reaches_judge, write_requests


def cascade_start(selector: Optional[Path]) -> Optional[float]:
    """The selector score from which candidates go to the judge by default: the selector file's
    ``judge_threshold`` (None, every candidate, when the file records none)."""

    chosen = default_selector() if selector is None else load_selector(selector)
    value = chosen.meta.get("judge_threshold")
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def prepare_command(
    questions: Path = typer.Argument(..., metavar="QUESTIONS", help="questions.jsonl of a build."),
    rejected: Optional[Path] = typer.Option(None, "--rejected", help="rejected.jsonl of the same build: its "
                                            "candidates rejected by the selector threshold or the caps go to the "
                                            "judge too (build with a low --min-score for a cascade)."),
    min_score: Optional[float] = typer.Option(None, "--min-score", min=0.0, max=1.0, help="Only candidates whose "
                                              "selector score is at least this (a record without a score is "
                                              "left out, and counted). Default: where the selector's cascade "
                                              "starts (its judge_threshold, which keeps 90% of the good "
                                              "candidates, cross-validated); 0 sends every candidate."),
    selector: Optional[Path] = typer.Option(None, "--selector", help="The selector weights the build used "
                                            "(questions build --selector), for the default --min-score."),
    model: str = typer.Option(..., "--model", metavar="NAME", help="The model name the server knows."),
    output: Path = typer.Option(..., "-o", "--output", callback=checked_output, help="requests.jsonl (OpenAI "
                                "Batch input format)."),
) -> None:
    """Write one chat-completions request per candidate (OpenAI Batch input format); nothing is sent."""

    refuse_overwriting_inputs(output, questions, rejected)
    if not model.strip():
        fail("--model must name a model")
    guarded(lambda: check_model_name(model, what="--model"))
    if min_score is None:
        min_score = guarded(lambda: cascade_start(selector))
    counts = {"read": 0, "no_score": 0, "below": 0}

    def records():
        for row in stage_records(questions, rejected, counts):
            if min_score is not None and reaches_judge(row):
                score = row.get("score")
                if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
                    counts["no_score"] += 1
                elif score < min_score:
                    counts["below"] += 1
            yield row

    written = guarded(lambda: write_requests(output, judge_candidates(records(), min_score=min_score),
                                             model=model))
    left = []
    if min_score is not None:
        left.append(f"{counts['below']} below --min-score {min_score:g}")
        if counts["no_score"]:
            left.append(f"{counts['no_score']} without a score")
    typer.echo(f"wrote {shown(output)} ({written} requests from {counts['read']} records"
               + (f"; left out: {', '.join(left)}" if left else "") + ")")


def run_command(
    requests: Path = typer.Argument(..., metavar="REQUESTS", help="requests.jsonl from 'judge prepare' or "
                                    "'closed-book prepare' (OpenAI Batch input format)."),
    endpoint: str = typer.Option(..., "--endpoint", metavar="URL", help="The OpenAI-compatible server, with or "
                                 "without /v1 (e.g. http://127.0.0.1:8000/v1). Nothing is sent anywhere else."),
    output: Path = typer.Option(..., "-o", "--output", callback=checked_output, help="responses.jsonl (Batch "
                                "output format), appended as answers arrive; an existing one is resumed."),
    api_key_env: str = typer.Option("OPENAI_API_KEY", "--api-key-env", metavar="VAR", help="Environment "
                                    "variable holding the API key (unset or empty: no key, as local servers "
                                    "need). The key is never written anywhere."),
    concurrency: int = typer.Option(8, "--concurrency", min=1, max=1024, help="Requests in flight at once."),
    timeout: float = typer.Option(120.0, "--timeout", min=0.001, help="Seconds one request may take "
                                  "(the whole exchange) before it is tried again."),
    max_retries: int = typer.Option(5, "--max-retries", min=0, help="Tries after the first, for a 429, a 5xx, "
                                    "a connection error, a timeout or a body that is not JSON."),
    retry_wait: float = typer.Option(1.0, "--retry-wait", min=0.0, help="Seconds before the first retry, "
                                     "doubled for each next one, with jitter (at least the server's Retry-After)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar on stderr."),
) -> None:
    """Send the requests to a server, N at a time, with retries; write the answers (resumable)."""

    key = guarded(lambda: api_key_from_env(api_key_env))  # checked, and kept out of every message, first
    guarded(lambda: safe_url(endpoint, what="--endpoint"))
    refuse_overwriting_inputs(output, requests)
    summary = guarded(lambda: run_requests(requests, output, endpoint=endpoint, api_key=key,
                                           concurrency=concurrency, timeout=timeout, max_retries=max_retries,
                                           first_wait=retry_wait, progress=progress))
    typer.echo(summary.to_text())
    typer.echo(f"wrote {shown(output)} ({summary.already + summary.answered} of {summary.requests} answered)")
    if summary.failures:
        fail(f"{summary.failures} request(s) failed after {max_retries} retries; their error lines are in "
             f"{shown(output)}: run the same command again to retry them", EXIT_FAILED_REQUESTS)


def apply_command(
    questions: Path = typer.Argument(..., metavar="QUESTIONS", help="questions.jsonl of the build."),
    responses: Path = typer.Argument(..., metavar="RESPONSES", help="responses.jsonl (OpenAI Batch output "
                                     "format) from 'judge run', a hosted batch, or any other answerer."),
    output: Path = typer.Option(..., "-o", "--output", callback=checked_output, help="The judged questions "
                                "(JSON Lines; a dataset card beside it when the build's report.json is beside "
                                "QUESTIONS)."),
    rejected: Optional[Path] = typer.Option(None, "--rejected", help="rejected.jsonl of the same build (needed "
                                            "when its candidates were sent to the judge)."),
    requests: Optional[Path] = requests_option(),
    min_confidence: float = typer.Option(0.5, "--min-confidence", min=0.0, max=1.0, help="Keep only answers "
                                         "with at least this confidence."),
    rejected_out: Optional[Path] = rejected_out_option("judge, judge_unanswered, a cap, or the build's"),
    report: Optional[Path] = report_option("judge's", "the build's report.json"),
    per_target: Optional[int] = per_target_option(),
    per_article: Optional[int] = per_article_option(),
    seed: Optional[int] = seed_option(),
) -> None:
    """Parse every answer strictly, keep what the judge calls good, apply the caps again, write the questions."""

    register_secret(os.environ.get("OPENAI_API_KEY"))  # a responses file from elsewhere may echo it
    for out in (output, rejected_out, report):
        refuse_overwriting_inputs(out, questions, responses, rejected, requests)
    outputs = guarded(lambda: apply_to_files(
        str(questions), str(responses), str(output), rejected=None if rejected is None else str(rejected),
        requests=None if requests is None else str(requests), min_confidence=min_confidence,
        rejected_out=None if rejected_out is None else str(rejected_out),
        report=None if report is None else str(report), per_target=per_target, per_article=per_article,
        seed=seed))
    _print_judged(outputs)


def _print_judged(outputs, funnel: bool = False) -> None:
    typer.echo(outputs.judged.summary.to_text())
    if funnel and outputs.funnel:
        typer.echo(judged_funnel_text(outputs.funnel, len(outputs.judged.questions)))
    typer.echo("wrote " + "; ".join(written_list(outputs, len(outputs.judged.questions),
                                                 len(outputs.judged.rejected))))
    if outputs.card and Path(outputs.card).name != "README.md":
        typer.echo(f"note: Hugging Face reads a dataset's card from README.md; {shown(Path(outputs.card).name)} is "
                   "beside another output's card: give -o a folder of its own for the judged set")


def judged_funnel_text(rows: list[dict], questions: int) -> str:
    """The funnel after the judge as the plain-text table ``questions build`` prints."""
    lines = [f"{'filter':<20}{'rejected':>10}{'remaining':>11}  description"]
    lines += [f"{row['filter']:<20}{row['rejected']:>10}{row['remaining']:>11}  {row.get('description', '')}"
              for row in rows]
    lines.append(f"{'questions':<20}{'':>10}{questions:>11}  after the judge")
    return "\n".join(lines)


def judge_paths(output: Path, fmt: str, report: Optional[Path], rejected: Optional[Path]) -> dict[str, Path]:
    """Where ``questions build --judge-endpoint`` puts the selector's files and the judge's requests and
    responses: beside ``output``, named after it."""
    if fmt != "jsonl" or output.suffix != ".jsonl":
        fail("--judge-endpoint needs a .jsonl output file (for a folder build, run 'questions judge prepare', "
             "'run' and 'apply' on its files)")
    stem = output.with_suffix("")
    return {"questions": Path(f"{stem}.selector.jsonl"), "rejected": Path(f"{stem}.selector.rejected.jsonl"),
            "report": Path(f"{stem}.selector.report.json"), "requests": Path(f"{stem}.judge-requests.jsonl"),
            "responses": Path(f"{stem}.judge-responses.jsonl")}


def judge_build(paths: dict[str, Path], output: Path, report: Optional[Path], rejected: Optional[Path], *,
                endpoint: str, model: str, concurrency: int, progress: bool,
                selector: Optional[Path] = None, min_score: Optional[float] = None) -> None:
    """The judge after a build (prepare, run, apply): the candidates from the selector's cascade start (its
    ``judge_threshold``) go to the judge, and the judged questions to ``output``."""

    start = min_score if min_score is not None else guarded(lambda: cascade_start(selector))
    records = stage_records(paths["questions"], paths["rejected"])
    sent = guarded(lambda: write_requests(paths["requests"], judge_candidates(records, min_score=start),
                                          model=model))
    typer.echo(f"wrote {shown(paths['requests'])} ({sent} requests)")
    send_requests(paths["requests"], paths["responses"], endpoint=endpoint, concurrency=concurrency,
                  progress=progress, what="judge")
    outputs = guarded(lambda: apply_to_files(
        str(paths["questions"]), str(paths["responses"]), str(output), rejected=str(paths["rejected"]),
        requests=str(paths["requests"]), rejected_out=None if rejected is None else str(rejected),
        report=str(report) if report is not None else None, build_report=str(paths["report"]), supersedes=True))
    _print_judged(outputs, funnel=True)
