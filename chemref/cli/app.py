"""The typer command groups and the one place where library errors become exit codes.

Command modules (``chemref/cli/*.py``) only parse arguments and call one library function;
heavy imports happen inside the command bodies so ``chemref --help`` stays fast.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, NoReturn, TypeVar

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
#: Exit status after Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130
#: Exit status after SIGTERM (128 + 15).
EXIT_TERMINATED = 143


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
    """Run a library call; turn a :class:`ChemrefError` into one stderr line and exit status 2.

    Ctrl-C passes through: :func:`chemref.cli.main` reports it once and exits with status 130.
    """
    try:
        return call()
    except ChemrefError as exc:
        fail(str(exc))


def emit(text: str, output: Path | None) -> None:
    """Print ``text`` on stdout, or write it whole to ``output`` (atomically: all of it or nothing) and say so
    on stderr."""
    if output is None:
        typer.echo(text, nl=not text.endswith("\n"))
        return
    from chemref._io import write_text

    guarded(lambda: write_text(output, text if text.endswith("\n") else text + "\n"))
    typer.echo(f"wrote {output}", err=True)


def checked_output(value: Path | None) -> Path | None:
    """Option callback: stop before any work when the output path can never be written."""
    if value is not None:
        from chemref._io import check_output

        guarded(lambda: check_output(value))
    return value


def refuse_overwriting_inputs(output: Path | None, *inputs: Any) -> None:
    """Stop (exit 2) before any work when ``output`` would replace one of ``inputs`` (files or folders)."""
    if output is not None:
        from chemref._io import check_not_input

        guarded(lambda: check_not_input(output, [i for i in inputs if i is not None]))


def output_option() -> Any:
    """The ``-o/--output`` option every command that prints a report shares."""
    return typer.Option(None, "-o", "--output", callback=checked_output,
                        help="Write the output to this file (atomically: complete or not at all) "
                             "instead of standard output.")

