"""The typer command groups and the one place where library errors become exit codes.

Command modules (``chemref/cli/*.py``) only parse arguments and call one library function;
heavy imports happen inside the command bodies so ``chemref --help`` stays fast.
"""

from __future__ import annotations

import sys
from typing import Callable, NoReturn, TypeVar

import typer

from chemref.errors import ChemrefError

T = TypeVar("T")

app = typer.Typer(
    name="chemref",
    help="Chemistry-aware NLP for literature benchmarks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
score_app = typer.Typer(help="Score predictions against gold (gold first, then predictions).",
                        no_args_is_help=True, pretty_exceptions_enable=False)
questions_app = typer.Typer(help="Build citation-prediction questions from JATS articles.",
                            no_args_is_help=True, pretty_exceptions_enable=False)
baseline_app = typer.Typer(help="Baseline systems for chemref question sets.",
                           no_args_is_help=True, pretty_exceptions_enable=False)
app.add_typer(score_app, name="score")
app.add_typer(questions_app, name="questions")
app.add_typer(baseline_app, name="baseline")

#: Exit status for bad input or settings (BRATEval-compatible mode uses it where BRATEval aborts).
EXIT_INPUT = 2


def error(message: str) -> None:
    """Print one ``chemref: error: ...`` line on stderr."""
    print(f"chemref: error: {message}", file=sys.stderr)


def warn(message: str) -> None:
    """Print one ``chemref: warning: ...`` line on stderr."""
    print(f"chemref: warning: {message}", file=sys.stderr)


def fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    """Print an error line and exit with ``code``."""
    error(message)
    raise typer.Exit(code)


def guarded(call: Callable[[], T]) -> T:
    """Run a library call; turn a :class:`ChemrefError` into one stderr line and exit status 2."""
    try:
        return call()
    except ChemrefError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted", 130)
