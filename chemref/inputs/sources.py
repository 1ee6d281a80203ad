"""What the inputs of a command stand for: one :class:`~chemref.inputs.source.Source` per article, streamed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Iterator

from chemref._io.limits import NO_SUCH_PATH, input_problem
from chemref.errors import InputError, missing_path_hint
from chemref.inputs.archives import package_sources
from chemref.inputs.file_lists import read_file_list
from chemref.inputs.kinds import JATS_SUFFIXES, is_package
from chemref.inputs.package_lists import package_licences
from chemref.inputs.source import Source, source_label
from chemref.inputs.walk import walk_jats

_GIVE = "give JATS files, folders that hold them, or PMC .tar.gz packages"

__all__ = ["iter_sources", "expand_inputs", "count_sources", "check_inputs", "folder_sources"]


def iter_sources(inputs: Iterable[str | os.PathLike[str] | bytes | Source], *,
                 files_from: str | os.PathLike[str] | None = None, licences: bool = True) -> Iterator[Source]:
    """One :class:`Source` per input file of ``inputs`` (then of ``files_from``), in order; see the module doc.
    ``licences=False`` reads every package member whatever its file list says (``chemref jats``).

    Missing paths and folders without articles raise :class:`InputError` when they are reached; call
    :func:`check_inputs` first to fail before any work.
    """
    items: Iterable = inputs
    if files_from is not None:
        items = _chain(inputs, read_file_list(files_from))
    for n, item in enumerate(items):
        if isinstance(item, Source):
            yield item
        elif isinstance(item, (bytes, bytearray)):
            yield Source(None, f"<bytes {n}>", bytes(item))
        else:
            given = os.fspath(item)
            path = Path(given)
            _check_input(given)
            if path.is_dir():
                found = False
                for file in walk_jats(path):
                    found = True
                    yield Source(str(file), source_label(given, file))
                if not found:
                    raise InputError("folder holds no .nxml or .xml files", path=given,
                                     hint="give JATS files, folders that hold them, or PMC .tar.gz packages")
            elif is_package(path):
                yield from package_sources(path, source_label(given), licences)
            else:
                yield Source(given, source_label(given))


def _chain(first: Iterable, second: Iterable) -> Iterator:
    yield from first
    yield from second


def check_inputs(inputs: Iterable[str | os.PathLike[str] | bytes | Source]) -> None:
    """Raise :class:`InputError` now for an input path that is neither a regular file nor a folder (missing,
    a FIFO, a device...), before any work."""
    for item in inputs:
        if isinstance(item, (str, os.PathLike)):
            _check_input(os.fspath(item))


def _check_input(given: str) -> None:
    """The one check of an input path (:func:`chemref._io.input_problem`): a regular file or a folder."""
    problem = input_problem(given, folders=True)
    if problem is not None:
        message, hint = problem
        if message == NO_SUCH_PATH:
            hint = missing_path_hint(given, _GIVE)
        raise InputError(message, path=given, hint=hint)


def count_sources(inputs: Iterable[str | os.PathLike[str] | bytes | Source], *,
                  files_from: str | os.PathLike[str] | None = None) -> int | None:
    """How many articles :func:`iter_sources` will yield, by listing (not reading); None when a package
    without a file list makes that costly (its members are known only by streaming it)."""
    items = _chain(inputs, read_file_list(files_from) if files_from is not None else ())
    total = 0
    for item in items:
        if isinstance(item, (str, os.PathLike)):
            path = Path(item)
            if path.is_dir():
                total += sum(1 for _ in walk_jats(path))
            elif is_package(path):
                licences = package_licences(path) if path.is_file() else None
                if licences is None:
                    return None
                total += sum(1 for name in licences if name.lower().endswith(JATS_SUFFIXES))
            else:
                total += 1
        else:
            total += 1
    return total


def expand_inputs(inputs: Iterable[str | os.PathLike[str] | bytes | Source]) -> list[Source]:
    """:func:`iter_sources` as a list (for small inputs; a build streams instead)."""
    return list(iter_sources(inputs))


def folder_sources(folder: str | os.PathLike[str]) -> Iterator[Source]:
    """The articles of ``folder``, each named relative to it (a build's default input, given explicitly)."""
    root = Path(folder)
    for path in walk_jats(root):
        yield Source(str(path), path.relative_to(root).as_posix())
