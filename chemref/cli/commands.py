"""What every command gets when it is built: its placeholders shown one way in ``--help``, "nan" and infinity
refused by its number options, and the failures it does not handle itself turned into typed errors.

:func:`prepare` does all three for one command (or group: its own parameters and callback), once, when a group
builds it; :func:`uniform_metavars`, :func:`numbers_not_nan` and :func:`typed_command_errors` do each for a
whole tree.
"""

from __future__ import annotations

import copy
import errno
import functools
import math
import os
import typing
from pathlib import Path
from typing import Any, Iterable, Iterator

import typer

from chemref.errors import OutOfMemoryError, OutputClosedError

__all__ = ["prepare", "uniform_metavars", "numbers_not_nan", "typed_command_errors", "param_type_name",
           "stdout_closed"]


def prepare(command: Any) -> Any:
    """Make ``command`` (a command, or a group without its sub-commands) show and check its parameters as every
    command does and fail with typed errors; returns it."""
    _uniform(command.params)
    _not_nan(command.params)
    _typed_errors(command)
    return command


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
    _uniform(_params(command))


def _uniform(params: Iterable[Any]) -> None:
    """:func:`uniform_metavars` for ``params``."""
    for param in params:
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
    _not_nan(_params(command))


def _not_nan(params: Iterable[Any]) -> None:
    """:func:`numbers_not_nan` for ``params``."""
    for param in params:
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
    return _typed_errors(command)


def _typed_errors(command: Any) -> Any:
    """:func:`typed_command_errors` for ``command`` alone (not its sub-commands)."""
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
