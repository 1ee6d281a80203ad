"""The typer command groups and the one place where library errors become exit codes.

Command modules (``chemref/cli/*.py``) only parse arguments and call one library function;
heavy imports happen inside the command bodies so ``chemref --help`` stays fast.
"""

from __future__ import annotations

import errno
import functools
import os
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn, TypeVar

import typer

from chemref.errors import ChemrefError, OutOfMemoryError, OutputClosedError, encodable, printable

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


def _shown(message: str) -> str:
    """A message as the terminal gets it: without secrets (:func:`chemref._io.secrets.scrub`), on one line."""
    from chemref._io.secrets import scrub  # noqa: PLC0415 (the command's library, loaded when the command runs)

    return printable(scrub(message))


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


def _out_of_memory(inputs: list[str]) -> OutOfMemoryError:
    hint = ("it is larger, or more complex, than the memory available: split it, or run on a machine "
            "with more memory")
    if len(inputs) == 1:
        return OutOfMemoryError("ran out of memory on this input", path=inputs[0], hint=hint)
    named = ", ".join(repr(name) for name in inputs) if inputs else "the input"
    return OutOfMemoryError(f"ran out of memory on {named}", hint=hint)


def stdout_closed(exc: OSError) -> bool:
    """True for the error of writing to a standard output that is closed, or whose reader has gone."""
    return exc.errno in (errno.EPIPE, errno.EBADF) and exc.filename is None


def typed_command_errors(command: Any) -> Any:
    """Wrap the callback of ``command`` (a click command or group, recursively) so that the failures no
    command handles itself become typed errors, printed by the CLI as one line with exit status 2: a
    ``MemoryError`` anywhere becomes an :class:`OutOfMemoryError` naming the command's inputs (its
    positional arguments); writing to a closed standard output becomes an :class:`OutputClosedError`
    (click would otherwise exit 1 without a word). Returns ``command``."""
    for sub in getattr(command, "commands", {}).values():
        typed_command_errors(sub)
    callback = getattr(command, "callback", None)
    if callback is None or getattr(callback, "_names_inputs", False):
        return command
    arguments = [p.name for p in command.params if p.param_type_name == "argument"]

    @functools.wraps(callback)
    def run(*args: Any, **params: Any) -> Any:
        try:
            return callback(*args, **params)
        except MemoryError:
            pass  # leave the except block first: the failed work's frames (and memory) are released
        except OSError as exc:
            if not stdout_closed(exc):
                raise
            raise OutputClosedError() from None
        inputs: list[str] = []
        for name in arguments:
            value = params.get(name)
            for item in value if isinstance(value, (list, tuple)) else (value,):
                if item is not None:
                    inputs.append(os.fspath(item) if isinstance(item, os.PathLike) else str(item))
        raise _out_of_memory(inputs)

    run._names_inputs = True  # type: ignore[attr-defined]
    command.callback = run
    return command


def emit(text: str, output: Path | None) -> None:
    """Print ``text`` on stdout, or write it whole to ``output`` (atomically: all of it or nothing) and say so
    on stderr."""
    from chemref._io import is_stdout, write_text  # noqa: PLC0415 (the command's library, loaded when the command runs)

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
        from chemref._io import check_output  # noqa: PLC0415 (the command's library, loaded when the command runs)

        guarded(lambda: check_output(value))
    return value


def checked_report_output(value: Path | None) -> Path | None:
    """Option callback of ``-o`` for a report: a file as :func:`checked_output` has it, or ``-`` (stdout)."""
    if value is not None:
        from chemref._io import check_output  # noqa: PLC0415 (the command's library, loaded when the command runs)

        guarded(lambda: check_output(value, stdout=True))
    return value


def refuse_shared_outputs(outputs: dict[str, Path | None]) -> None:
    """Stop (exit 2) before any work when two of a command's outputs (``{option: path}``) are one file."""
    from chemref._io import check_distinct_outputs  # noqa: PLC0415 (the command's library, loaded when the command runs)

    guarded(lambda: check_distinct_outputs(outputs))


def refuse_overwriting_inputs(output: Path | None, *inputs: Any) -> None:
    """Stop (exit 2) before any work when ``output`` would replace one of ``inputs`` (files or folders)."""
    if output is not None:
        from chemref._io import check_not_input  # noqa: PLC0415 (the command's library, loaded when the command runs)

        guarded(lambda: check_not_input(output, [i for i in inputs if i is not None]))


def output_option() -> Any:
    """The ``-o/--output`` option every command that prints a report shares."""
    return typer.Option(None, "-o", "--output", callback=checked_report_output,
                        help="Write the output to this file (atomically: complete or not at all) "
                             "instead of standard output (- is standard output).")

