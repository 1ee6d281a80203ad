"""Typed exceptions. The library raises these; only the CLI turns them into exit codes."""

from __future__ import annotations

import os

#: The exceptions that mean a chemref bug met on one input (not bad input): a run records them as that input's
#: error and goes on, so one article never takes down a run of millions.
UNEXPECTED: tuple[type[BaseException], ...] = (RecursionError, MemoryError, ValueError, TypeError, KeyError,
                                               IndexError, AttributeError, UnicodeError, AssertionError)


def printable(text: str) -> str:
    """``text`` with every non-printable character escaped as ``repr`` escapes it (``\\n``, ``\\x1b``,
    ``\\udcff``), so a file name holding a newline or a terminal escape cannot forge or recolour lines."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def encodable(text: str) -> str:
    """``text`` with every lone surrogate escaped as ``repr`` escapes it (``\\udcff``), so it can be written as
    UTF-8: a file name that is not UTF-8 reaches Python with its bad bytes as lone surrogates, and a report or
    page naming it must still be written (as ``score brat --json`` prints it), not crash."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


#: The folder name of the reference data's default place (``../shared``), and the variable that names another.
REFERENCE_DATA_DEFAULT_NAME = "shared"
REFERENCE_DATA_ENV = "CHEMREF_REFERENCE_DATA"


def missing_path_hint(path: str, hint: str | None = None) -> str | None:
    """The hint of a "no such file or folder" error: ``hint``, plus where the reference data is looked for
    when ``path`` points into it (a ``shared`` folder, or the folder ``$CHEMREF_REFERENCE_DATA`` names)."""
    parts = path.replace("\\", "/").split("/")
    root = os.environ.get(REFERENCE_DATA_ENV, "").strip()
    inside = REFERENCE_DATA_DEFAULT_NAME in parts[:-1] or bool(root and path.startswith(root.rstrip("/") + "/"))
    if not inside:
        return hint
    where = (f"the reference data is not there: set {REFERENCE_DATA_ENV}=/path/to/folder, or put the folder at "
             "../shared beside the checkout; docs/reference-data.md lists what it holds")
    return f"{where}; {hint}" if hint else where


class ChemrefError(Exception):
    """Base class for every error chemref raises on bad input or bad settings.

    ``str(err)`` is a complete one-line message: which file, which line, what is
    wrong and, where possible, what the user can do about it.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 column: int | None = None, hint: str | None = None) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.hint = hint
        super().__init__(self._render())

    def __reduce__(self) -> tuple:
        # Keyword-only arguments do not survive the default exception pickling: rebuild from the fields,
        # so an error raised in a worker process (a pool, Dask) arrives whole, with its type.
        return (_rebuild, (type(self), self.message, self.path, self.line, self.column, self.hint))

    def _render(self) -> str:
        where = ""
        if self.path is not None:
            where = printable(str(self.path))
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            where += ": "
        text = where + self.message
        if self.hint:
            text += f" ({self.hint})"
        return text


def _rebuild(cls: type, message: str, path: str | None, line: int | None, column: int | None,
             hint: str | None) -> ChemrefError:
    return cls(message, path=path, line=line, column=column, hint=hint)


class InputError(ChemrefError):
    """A file or argument the user gave cannot be used (missing, unreadable, wrong shape)."""


class BratError(InputError):
    """A BRAT standoff file is malformed or inconsistent (bad line, unknown id, bad offsets)."""


class JatsError(InputError):
    """A JATS XML file cannot be parsed at all (recoverable oddities are diagnostics instead)."""


class ScoringError(InputError):
    """Gold and predictions cannot be scored together (missing ids, labels outside the classes...)."""


class TooLargeError(InputError):
    """An input is larger than a size limit (a file, a line of JSON Lines, a zip member or archive)."""


class ArchiveError(InputError):
    """A zip file is damaged, encrypted, holds a member twice or expands beyond its limits."""


class OutOfMemoryError(ChemrefError):
    """The machine ran out of memory on an input (larger, or more complex, than the memory available)."""


class WorkerError(ChemrefError):
    """A worker process stopped abruptly (killed, or out of memory) before sending its result."""

    def __init__(self, message: str = "a worker process stopped abruptly (killed, or out of memory)", *,
                 path: str | None = None, hint: str | None = "run again; if it happens again, use fewer "
                 "workers (an input may need more memory than there is)") -> None:
        super().__init__(message, path=path, hint=hint)


class OutputClosedError(ChemrefError):
    """Standard output was closed (or its reader went away) before the output was written."""

    def __init__(self) -> None:
        super().__init__("standard output was closed before the output was written; the output is lost",
                         hint="write it to a file with -o FILE")


class TextError(InputError, ValueError):
    """A string given to the NLP pipeline is not Unicode text (it holds a lone surrogate)."""
