"""``chemref`` console script: a thin typer layer over the library (see ``chemref/cli/app.py``)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import warnings
from typing import Any

import typer

from chemref._io import discard_pending
from chemref._version import __version__
from chemref.cli.app import EXIT_INPUT, EXIT_INTERRUPTED, EXIT_TERMINATED, app, error, warn
from chemref.cli.commands import numbers_not_nan, param_type_name, stdout_closed, uniform_metavars
from chemref.cli.groups import prepare_tree
from chemref.errors import ChemrefError, OutputClosedError

__all__ = ["main", "uniform_metavars", "numbers_not_nan", "param_type_name"]


def _register() -> None:
    """Nothing to do, kept for the callers from before the registry: the groups list every command from
    :mod:`chemref.cli.registry` and import its module when it is used (``commands`` builds it when read)."""


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
        command = prepare_tree(typer.main.get_command(app))  # its commands prepared as they are built
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
