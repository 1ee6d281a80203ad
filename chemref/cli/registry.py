"""Where every ``chemref`` command lives: its path, the ``module:function`` that runs it, and the one line its group's
``--help`` lists.

The groups (:mod:`chemref.cli.app`) list commands from this table without importing them; a command's module is
imported only when that command runs or its own ``--help`` is asked for, so each module imports its library at
the top and ``chemref --help`` stays fast. A command's ``summary`` is the first paragraph of its help (the
function's docstring unless ``help`` gives another): ``tests/test_cli_registry.py`` checks they agree.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Entry", "COMMANDS", "GROUPS", "children", "modules"]


class Entry(NamedTuple):
    """One command: ``target`` is ``"module:function"``, ``summary`` the line its group lists, ``help`` the
    command's help when it is not the function's docstring."""

    target: str
    summary: str
    help: str | None = None


_CLOSED_BOOK_RUN = ("The judge's runner ('questions judge run', the same command): send the requests, write the "
                    "answers.")

#: Every command by its path under ``chemref``, in the order ``--help`` lists them within each group (a group's
#: commands come before its sub-groups, as typer lists them).
COMMANDS: dict[tuple[str, ...], Entry] = {
    ("jats",): Entry(
        "chemref.cli.jats:jats_command",
        "Read JATS articles: citations resolved to references and DOIs, sections, licence, diagnostics."),
    ("score", "brat"): Entry(
        "chemref.cli.score_brat:score_brat_command",
        "Score BRAT standoff predictions against gold (ChEMU 2021 definition by default)."),
    ("score", "questions"): Entry(
        "chemref.cli.score_benchmarks:score_questions_command",
        "Citation prediction: accuracy@1, Recall@K, MRR@K, per section and per source."),
    ("score", "ranking"): Entry(
        "chemref.cli.score_benchmarks:score_ranking_command",
        "Citation recommendation: Recall@K and MRR@K (ties as trec_eval), with breakdowns."),
    ("score", "pubmedqa"): Entry(
        "chemref.cli.score_benchmarks:score_pubmedqa_command",
        "PubMedQA (reasoning-required): accuracy and macro-F1 over yes / no / maybe."),
    ("questions", "build"): Entry(
        "chemref.cli.questions:build_command",
        "Build citation-prediction questions (CiteME / BioChemCite style) and print the funnel."),
    ("questions", "evaluate"): Entry(
        "chemref.cli.labels:evaluate_command",
        "Measure a question build against labels: kept-set quality, per-filter losses, the score curve."),
    ("questions", "train-selector"): Entry(
        "chemref.cli.labels:train_selector_command",
        "Fit the question selector on labelled records; write its weights and report cross-validated quality."),
    ("questions", "review"): Entry(
        "chemref.cli.question_pages:review_command",
        "Write an HTML page to browse, filter and label questions and rejected candidates (labels export as "
        "JSONL)."),
    ("questions", "record-selector"): Entry(
        "chemref.cli.labels:record_selector_command",
        "Record the shipped selector's cross-validated evaluation, which the card, the README and evaluate quote."),
    ("questions", "difficulty"): Entry(
        "chemref.cli.difficulty:difficulty_command",
        "Rank each question's cited work among every cited work of the build (BM25 over their titles): "
        "bm25_rank_corpus."),
    ("questions", "baseline-page"): Entry(
        "chemref.cli.question_pages:baseline_page_command",
        "Write an offline page where a person answers the questions one excerpt at a time (a title or DOI, or "
        "gives\nup, timed) and exports predictions for 'chemref score questions'. The page never holds the "
        "answers."),
    ("questions", "judge", "prepare"): Entry(
        "chemref.cli.judge:prepare_command",
        "Write one chat-completions request per candidate (OpenAI Batch input format); nothing is sent."),
    ("questions", "judge", "run"): Entry(
        "chemref.cli.judge:run_command",
        "Send the requests to a server, N at a time, with retries; write the answers (resumable)."),
    ("questions", "judge", "apply"): Entry(
        "chemref.cli.judge:apply_command",
        "Parse every answer strictly, keep what the judge calls good, apply the caps again, write the questions."),
    ("questions", "closed-book", "prepare"): Entry(
        "chemref.cli.closed_book:prepare_command",
        "Write K chat-completions requests per question that show only its excerpt; nothing is sent."),
    ("questions", "closed-book", "run"): Entry("chemref.cli.judge:run_command", _CLOSED_BOOK_RUN, _CLOSED_BOOK_RUN),
    ("questions", "closed-book", "apply"): Entry(
        "chemref.cli.closed_book:apply_command",
        "Parse every answer strictly, drop the questions a sample recalls, apply the caps again."),
    ("baseline", "bm25"): Entry(
        "chemref.cli.baseline:bm25_command",
        "Rank candidate papers by BM25 between the excerpt and their titles."),
}

#: The groups' help, by path (the commands they hold are in :data:`COMMANDS`).
GROUPS: dict[tuple[str, ...], str] = {
    (): "Chemistry-aware NLP for literature benchmarks.",
    ("score",): "Score predictions against gold (gold first, then predictions).",
    ("questions",): "Build citation-prediction questions from JATS articles.",
    ("questions", "judge"): "Judge candidate questions with a language model (OpenAI Batch format files).",
    ("questions", "closed-book"): ("Closed-book test: drop questions a model answers from memory (OpenAI Batch "
                                   "format files, the judge's runner)."),
    ("baseline",): "Baseline systems for chemref question sets.",
}


def children(group: tuple[str, ...]) -> dict[str, Entry]:
    """The commands directly in ``group`` (by name, in listing order)."""
    return {path[-1]: entry for path, entry in COMMANDS.items() if path[:-1] == group}


def modules() -> list[str]:
    """Every command module, once each, in table order."""
    return list(dict.fromkeys(entry.target.partition(":")[0] for entry in COMMANDS.values()))
