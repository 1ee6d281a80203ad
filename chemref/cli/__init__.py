"""``chemref`` console script: a thin typer layer over the library (see ``chemref/cli/app.py``)."""

from __future__ import annotations

import copy
import math
import os
import signal
import sys
import threading
import typing
import warnings
from importlib import import_module
from pathlib import Path
from typing import Any, Iterator

import typer

from chemref._version import __version__
from chemref.cli.app import (
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    app,
    error,
    stdout_closed,
    typed_command_errors,
    warn,
)
from chemref.errors import ChemrefError, OutputClosedError

# Each module registers its commands on the groups in chemref.cli.app when imported.
_COMMAND_MODULES = (
    "chemref.cli.score_brat",       # chemref score brat
    "chemref.cli.score_benchmarks", # chemref score questions|ranking|pubmedqa
    "chemref.cli.jats",             # chemref jats
    "chemref.cli.questions",        # chemref questions build
    "chemref.cli.judge",            # chemref questions judge prepare|run|apply
    "chemref.cli.closed_book",      # chemref questions closed-book prepare|run|apply
    "chemref.cli.baseline",         # chemref baseline bm25
)




def _register() -> None:
    """Import every command module so its commands register on the groups of chemref.cli.app."""
    for name in _COMMAND_MODULES:
        import_module(name)


def _show_version(value: bool) -> None:
    if value:
        print(f"chemref {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_show_version,
                                 help="Print chemref's version and exit."),
) -> None:
    """Chemistry-aware NLP for literature benchmarks."""


def _on_sigterm(signum: int, frame: object) -> None:
    """SIGTERM: remove half-written outputs, stop worker processes, exit 143 at once.

    Exiting at once (rather than unwinding) cannot hang on a worker killed in the middle of sending a result.
    """
    if os.getpid() != _MAIN_PID:  # a forked worker: die as by default, silently
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        return
    from chemref._io import discard_pending  # noqa: PLC0415 (the command's library, loaded when the command runs)

    discard_pending()
    if "multiprocessing" in sys.modules:
        for child in sys.modules["multiprocessing"].active_children():
            child.terminate()
    error("terminated")
    sys.stderr.flush()
    os._exit(EXIT_TERMINATED)


_MAIN_PID = os.getpid()


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``chemref`` script; returns the exit status.

    Every failure ends as one ``chemref: error: ...`` line on stderr: usage errors (exit 2), library
    errors that escaped a command's ``guarded`` call (exit 2), OS errors such as an unwritable output
    (exit 2), Ctrl-C (exit 130) and SIGTERM (exit 143). Help and ``--version`` exit 0.
    """
    global _MAIN_PID
    try:
        _register()
    except KeyboardInterrupt:  # Ctrl-C while the command modules are imported

        error("interrupted")
        return EXIT_INTERRUPTED
    installed = threading.current_thread() is threading.main_thread()  # handlers: main thread only
    if installed:
        _MAIN_PID = os.getpid()
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return _run(argv)
    finally:
        if installed:
            signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def _run(argv: list[str] | None) -> int:
    """Run the typer app and map every way it can end to an exit status (see :func:`main`)."""
    _guard_closed_stdout()
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning  # library warnings: one "chemref: warning:" line each
        return _invoke(argv)


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: object = None, line: str | None = None) -> None:
    warn(str(message))


def _invoke(argv: list[str] | None) -> int:
    """The typer app, every failure mapped to one error line and an exit status."""
    try:
        command = typer.main.get_command(app)
        uniform_metavars(command)
        numbers_not_nan(command)
        command = typed_command_errors(command)
        status = command.main(args=argv, prog_name="chemref", standalone_mode=False)
        if sys.stdout is not None:  # a report still buffered must reach its reader now, while errors can be reported
            sys.stdout.flush()
    except typer.TyperException as exc:  # typer's (click's) own errors: usage, a group given no command, ...
        return _typer_error(exc, error)
    except typer.Abort:
        error("interrupted")
        return EXIT_INTERRUPTED
    except OutputClosedError as exc:
        _silence_stdout()
        error(str(exc))
        return EXIT_INPUT
    except ChemrefError as exc:
        error(str(exc))
        return EXIT_INPUT
    except KeyboardInterrupt:
        error("interrupted")
        return EXIT_INTERRUPTED
    except MemoryError:  # outside any command (a command's own becomes an OutOfMemoryError naming its inputs)
        error("ran out of memory")
        return EXIT_INPUT
    except OSError as exc:
        if stdout_closed(exc):  # found by the final flush
            _silence_stdout()
            error(str(OutputClosedError()))
            return EXIT_INPUT
        where = f"{exc.filename}: " if exc.filename else ""
        error(f"{where}{exc.strerror or exc}")
        return EXIT_INPUT
    if status == EXIT_INTERRUPTED:  # typer turns Ctrl-C inside a command into this status, silently
        error("interrupted")
    if isinstance(status, int) and not isinstance(status, bool):
        return status
    return 0


def _typer_error(exc: typer.TyperException, error: Any) -> int:
    """One error line for a usage error (naming the command's ``--help``), the help of a group given no command
    (as click shows it), the message of any other typer error; the exit status."""
    ctx = getattr(exc, "ctx", None)  # usage errors carry the context of the command they concern
    if ctx is None:
        error(exc.format_message())
        return EXIT_INPUT
    if type(exc).__name__ == "NoArgsIsHelpError":  # a group given no command: its help, as click shows it
        exc.show()  # type: ignore[attr-defined]
        return exc.exit_code
    error(f"{exc.format_message()} (see '{ctx.command_path} --help')")
    return EXIT_INPUT


_TYPE_WORDS = {"path": "PATH", "text": "TEXT", "str": "TEXT", "string": "TEXT", "integer": "N", "int": "N",
               "integer range": "N", "float": "FLOAT", "float range": "FLOAT", "file": "FILE"}


def _params(command: Any) -> Iterator[Any]:
    """Every parameter of ``command`` and of its sub-commands, recursively."""
    yield from getattr(command, "params", ())
    for sub in getattr(command, "commands", {}).values():
        yield from _params(sub)


def uniform_metavars(command: Any) -> None:
    """Show every command's placeholders one way in ``--help``: arguments by their upper-case name, option
    values by an upper-case word (the one a command chose, else PATH, TEXT, N or FLOAT), never ``<str>``."""
    for param in _params(command):
        word = _TYPE_WORDS.get(param_type_name(param), param_type_name(param).upper())
        if param.param_type_name == "argument":
            if param.metavar is None:
                param.metavar = (param.name or "").upper() + ("..." if param.nargs != 1 else "")
            _show_type_as(param, word)
        elif not getattr(param, "is_flag", False) and not getattr(param, "count", False) and param.metavar is None:
            param.metavar = word


def _show_type_as(argument: Any, word: str) -> None:
    """Show ``word`` as the type of ``argument`` in ``--help``: through a copy of its click type (typer < 0.29),
    else through the argument's own type display (typer 0.29 on, whose parameters hold no click type)."""
    if getattr(argument, "type", None) is not None:
        named = copy.copy(argument.type)
        named.get_metavar = lambda *a, _w=word, **k: _w  # type: ignore[method-assign]
        argument.type = named
    else:
        argument.display_type_rich = lambda *a, _w=word, **k: _w


#: typer 0.29 on: click's type name of a parameter's annotation (typer's parameters no longer hold click types)
_ANNOTATION_NAMES = {str: "text", int: "integer", float: "float", bool: "boolean", Path: "path"}


def param_type_name(param: Any) -> str:
    """The name of a parameter's value type as click names it: "text", "integer", "integer range", "float",
    "float range", "path", "boolean" (the type of one value of a list)."""
    kind = getattr(param, "type", None)
    if kind is not None:  # typer < 0.29: click's own type
        return kind.name
    descriptor = param.type_descriptor
    annotation = descriptor.annotation
    if typing.get_origin(annotation) in (list, tuple):
        annotation = typing.get_args(annotation)[0]
    name = _ANNOTATION_NAMES.get(annotation, getattr(annotation, "__name__", str(annotation)).lower())
    return f"{name} range" if descriptor.is_ranged else name


def numbers_not_nan(command: Any) -> None:
    """Make "nan" and "inf" usage errors for every number option (click's ranges let NaN through, since no
    comparison with it is true, and infinity through any range without a maximum; no option means either)."""
    for param in _params(command):
        if param_type_name(param) in ("float", "float range"):
            param.process_value = _finite(param.process_value, param)


def _finite(process_value: Any, param: Any) -> Any:
    """``process_value`` (the conversion and range check of one parameter's value) with a usage error, naming
    the value as given, for NaN (before the conversion, which no range stops it at) and for infinity (after the
    conversion, so a range with a limit reports it as out of range)."""
    def checked(ctx: Any, value: Any) -> Any:
        if _is_nan(value):
            raise typer.BadParameter(f"{value!r} is not a number.", ctx=ctx, param=param)
        number = process_value(ctx, value)
        if isinstance(number, float) and math.isinf(number):
            raise typer.BadParameter(f"{value!r} is not a finite number (a limit cannot be infinite: give a large "
                                     "number).", ctx=ctx, param=param)
        return number

    return checked


def _is_nan(value: Any) -> bool:
    try:
        return math.isnan(float(value))
    except (TypeError, ValueError, OverflowError):
        return False


def _guard_closed_stdout() -> None:
    """When the process starts with standard output closed, hold file descriptor 1 open on a read-only
    /dev/null (so no output file can be given descriptor 1 and receive printed text) and point
    ``sys.stdout`` at it: printing then fails with EBADF, which :func:`_run` reports."""
    try:
        os.fstat(1)
        if sys.stdout is not None:
            return
    except OSError:
        try:
            devnull = os.open(os.devnull, os.O_RDONLY)
            if devnull != 1:
                os.dup2(devnull, 1)
                os.close(devnull)
        except OSError:
            return
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's final flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        return  # nothing more can be done; the status is already decided


if __name__ == "__main__":
    sys.exit(main())
