"""The options of ``chemref questions build``, one function each (``workers: int = workers()``): the build's
settings, its outputs, and the model stages it can run after the selector (the judge, the closed-book test)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import typer

from chemref.questions.funnel.settings import ANSWER_KEYS, AUTHOR_MODES, build_default

__all__ = ["inputs", "output", "files_from", "resume", "fmt", "shard_articles", "dask", "report", "rejected",
           "workers", "per_article", "min_chars", "max_chars", "seed", "authors", "min_findability", "min_score",
           "per_target", "answer_key", "selector", "progress", "judge_endpoint", "judge_model", "judge_concurrency",
           "judge_min_score", "closed_book_samples", "closed_book_model"]


def _choice(choices: tuple[str, ...]) -> Callable[[str], str]:
    """A typer callback accepting only ``choices`` (the settings' own tuple)."""

    def check(value: str) -> str:
        if value not in choices:
            raise typer.BadParameter(f"use {' or '.join(choices)}")
        return value

    return check


def _shipped_threshold() -> str:
    """The shipped selector's threshold, for the help text (read from its file: importing the selector would
    slow every command down)."""
    try:
        path = Path(__file__).resolve().parents[1] / "questions" / "data" / "selector.json"
        return str(json.loads(path.read_text(encoding="utf-8"))["threshold"])
    except (OSError, ValueError, KeyError):
        return "the shipped selector's threshold"


def inputs() -> Any:
    return typer.Argument(
        None, metavar="INPUT",
        help="JATS files or folders of them (*.xml, *.nxml). None: the sample articles in corpora/jats/.")


def output() -> Any:
    return typer.Option(..., "-o", "--output", help="Questions: a .jsonl file (the dataset card README.md "
                        "beside it), or a folder (out/) of shards, report, card and manifest.json.")


def files_from() -> Any:
    return typer.Option(None, "--files-from", help="Also build the inputs listed in this "
                        "file, one per line.")


def resume() -> Any:
    return typer.Option(False, "--resume", help="Finish an interrupted build of the same command "
                        "(skips the shards already written).")


def fmt() -> Any:
    return typer.Option("jsonl", "--format", metavar="jsonl|parquet", help="Shard format (parquet: "
                        "folder output, needs pyarrow).")


def shard_articles() -> Any:
    return typer.Option(1000, "--shard-articles", min=1, help="Articles per shard.")


def dask() -> Any:
    return typer.Option(None, "--dask", metavar="ADDRESS", help="Build on this Dask scheduler "
                        "(workers write the shards; the output must be on a shared file system).")


def report() -> Any:
    return typer.Option(None, "--report", help="Funnel report (JSON); the bar chart "
                        "is written beside it with the .png suffix.")


def rejected() -> Any:
    return typer.Option(None, "--rejected", help="Every rejected candidate with its "
                        "reason (JSON Lines).")


def workers() -> Any:
    return typer.Option(1, "-w", "--workers", min=1, help="Processes (one article per task).")


def per_article() -> Any:
    return typer.Option(build_default("per_article"), "--per-article", min=1, help="At most this "
                        "many questions per article (the highest selector scores).")


def min_chars() -> Any:
    return typer.Option(build_default("min_chars"), "--min-chars", min=0, help="Shortest excerpt kept "
                        "(characters).")


def max_chars() -> Any:
    return typer.Option(build_default("max_chars"), "--max-chars", min=1, help="Longest excerpt kept "
                        "(characters).")


def seed() -> Any:
    return typer.Option(build_default("seed"), "--seed", help="Tie-break seed of the per-article cap.")


def authors() -> Any:
    return typer.Option(build_default("authors"), "--authors", callback=_choice(AUTHOR_MODES),
                        metavar="|".join(AUTHOR_MODES),
                        help="drop sentences naming a cited author, or mask the names.")


def min_findability() -> Any:
    return typer.Option(None, "--min-findability", min=0.0, max=1.0,
                        help="Reject excerpts scoring below this findability.")


def min_score() -> Any:
    return typer.Option(
           None, "--min-score", min=0.0, max=1.0,
           help=f"Reject excerpts whose selector score is below this (default: {_shipped_threshold()}, the "
           "threshold recommended with the selector's weights; 0 keeps all).")


def per_target() -> Any:
    return typer.Option(build_default("per_target"), "--per-target", min=1, help="At most this many "
                        "questions per cited work in one article (the highest selector scores).")


def answer_key() -> Any:
    return typer.Option(build_default("answer_key"), "--answer-key", callback=_choice(ANSWER_KEYS),
                        metavar="|".join(ANSWER_KEYS),
                        help="What identifies the answer: a DOI (BioChemCite rule), or a DOI else a PMID.")


def selector() -> Any:
    return typer.Option(None, "--selector", help="Selector weights from `chemref questions "
                        "train-selector` (default: the ones shipped with chemref).")


def progress() -> Any:
    return typer.Option(True, "--progress/--no-progress", help="Progress bar on stderr.")


def judge_endpoint() -> Any:
    return typer.Option(None, "--judge-endpoint", metavar="URL", help="Then judge the "
                        "candidates with a language model on this OpenAI-compatible "
                        "server (prepare, run and apply in one run; see 'questions judge'; "
                        "the API key, if any, from OPENAI_API_KEY).")


def judge_model() -> Any:
    return typer.Option(None, "--judge-model", metavar="NAME", help="The judge's model name.")


def judge_concurrency() -> Any:
    return typer.Option(8, "--judge-concurrency", min=1, max=1024, help="Judge requests in "
                        "flight at once.")


def judge_min_score() -> Any:
    return typer.Option(None, "--judge-min-score", min=0.0, max=1.0, help="Candidates "
                        "from this selector score go to the judge (default: the "
                        "selector's cascade start, its judge_threshold; 0: all).")


def closed_book_samples() -> Any:
    return typer.Option(None, "--closed-book-samples", min=1, max=100, metavar="K",
                        help="Then ask the judge's server K times per question the "
                        "judge kept to name the cited work from the excerpt alone, "
                        "and drop what it recalls (see 'questions closed-book'; "
                        "needs --judge-endpoint).")


def closed_book_model() -> Any:
    return typer.Option(None, "--closed-book-model", metavar="NAME", help="The "
                        "closed-book test's model (default: --judge-model).")
