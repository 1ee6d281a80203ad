"""The typer command groups and the one place where library errors become exit codes.

Command modules (``chemref/cli/*.py``) only parse arguments and call one library function, which they import at
the top: the groups import a command's module only when it runs (:mod:`chemref.cli.groups`, the commands'
table in :mod:`chemref.cli.registry`), so ``chemref --help`` stays fast.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, NoReturn, TypeVar

import typer

from chemref._io import check_distinct_outputs, check_not_input, check_output, is_stdout, write_text
from chemref._io.secrets import scrub
from chemref.cli.groups import lazy_group
from chemref.cli.registry import GROUPS
from chemref.errors import ChemrefError, encodable, printable

T = TypeVar("T")


def _group(*path: str, **options: Any) -> typer.Typer:
    """The typer app of the group at ``path``: its help from the registry, its commands listed from it."""
    return typer.Typer(cls=lazy_group(path), help=GROUPS[path], no_args_is_help=True, pretty_exceptions_enable=False,
                       **options)


app = _group(name="chemref", add_completion=False)
score_app = _group("score")
questions_app = _group("questions")
judge_app = _group("questions", "judge")
closed_book_app = _group("questions", "closed-book")
baseline_app = _group("baseline")
app.add_typer(score_app, name="score")
app.add_typer(questions_app, name="questions")
questions_app.add_typer(judge_app, name="judge")
questions_app.add_typer(closed_book_app, name="closed-book")
app.add_typer(baseline_app, name="baseline")

#: Exit status for bad input or settings (BRATEval-compatible mode uses it where BRATEval aborts).
EXIT_INPUT = 2
#: Exit status after Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130
#: Exit status after SIGTERM (128 + 15).
EXIT_TERMINATED = 143


def _shown(message: str) -> str:
    """A message as the terminal gets it: without secrets (:func:`chemref._io.secrets.scrub`), on one line."""
    return printable(scrub(message))


def shown(path: object) -> str:
    """A path as a ``wrote ...`` line names it: control characters escaped, on one line."""
    return printable(str(path))


def error(message: str) -> None:
    """Print one ``chemref: error: ...`` line on stderr (secrets removed, control characters escaped: one line,
    always)."""
    print(f"chemref: error: {_shown(message)}", file=sys.stderr)


def warn(message: str) -> None:
    """Print one ``chemref: warning: ...`` line on stderr (secrets removed, control characters escaped: one line,
    always)."""
    print(f"chemref: warning: {_shown(message)}", file=sys.stderr)


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
    text = encodable(text)  # a document named by a file name that is not UTF-8
    if output is None or is_stdout(output):
        typer.echo(text, nl=not text.endswith("\n"))
        return

    guarded(lambda: write_text(output, text if text.endswith("\n") else text + "\n"))
    typer.echo(f"wrote {printable(str(output))}", err=True)


def checked_output(value: Path | None) -> Path | None:
    """Option callback: stop before any work when the output path can never be written (a regular file only:
    a device, FIFO or socket is refused)."""
    if value is not None:
        guarded(lambda: check_output(value))
    return value


def checked_report_output(value: Path | None) -> Path | None:
    """Option callback of ``-o`` for a report: a file as :func:`checked_output` has it, or ``-`` (stdout)."""
    if value is not None:
        guarded(lambda: check_output(value, stdout=True))
    return value


def refuse_shared_outputs(outputs: dict[str, Path | None]) -> None:
    """Stop (exit 2) before any work when two of a command's outputs (``{option: path}``) are one file."""
    guarded(lambda: check_distinct_outputs(outputs))


def refuse_overwriting_inputs(output: Path | None, *inputs: Any) -> None:
    """Stop (exit 2) before any work when ``output`` would replace one of ``inputs`` (files or folders)."""
    if output is not None:
        guarded(lambda: check_not_input(output, [i for i in inputs if i is not None]))


def output_option() -> Any:
    """The ``-o/--output`` option every command that prints a report shares."""
    return typer.Option(None, "-o", "--output", callback=checked_report_output,
                        help="Write the output to this file (atomically: complete or not at all) "
                             "instead of standard output (- is standard output).")

