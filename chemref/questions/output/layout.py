"""Where one build's outputs go: the output file or folder, its staging folder and lock, and the checks that
no output overwrites an input, another output or a file of the build's own."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from chemref._io import check_distinct_outputs, check_not_input, check_output, is_stdout
from chemref.errors import InputError
from chemref.questions.output.card import card_path
from chemref.questions.output.manifest import is_chemref_manifest, read_manifest

__all__ = ["MANIFEST", "BuildLayout", "check_targets", "check_file_format"]

#: the name of a complete build's manifest in an output folder
MANIFEST = "manifest.json"
_STAGING = ".chemref-build"
_LOCK = ".chemref.lock"


def _is_folder_output(output: Path, given: str) -> bool:
    return given.endswith(("/", os.sep)) or output.is_dir() or (not output.exists() and output.suffix == "")


class BuildLayout:
    """Where one build's outputs, staging folder and lock go."""

    def __init__(self, output: str | os.PathLike[str], *, report: Any, rejected: Any) -> None:
        given = os.fspath(output)
        if is_stdout(given):
            raise InputError("a build's output cannot be standard output ('-')", path=given,
                             hint="give -o a .jsonl file or a folder (out/)")
        self.report: Path | None
        self.rejected: Path | None
        self.output = Path(output)
        self.folder = _is_folder_output(self.output, given)
        if self.folder:
            if report is not None or rejected is not None:
                raise InputError("with a folder output the report and the rejected shards are written in the "
                                 "folder", path=given, hint="drop --report and --rejected, or give -o a file name")
            self.staging = self.output / _STAGING
            self.lock = self.output / _LOCK
            self.report = self.output / "report.json"
            self.rejected = None
        else:
            check_output(self.output)
            self.staging = self.output.with_name(f".{self.output.name}{_STAGING}")
            self.lock = self.output.with_name(f".{self.output.name}{_LOCK}")
            self.report = None if report is None else Path(report)
            self.rejected = None if rejected is None else Path(rejected)
            for path in (self.report, self.rejected):
                if path is not None:
                    check_output(path)
                    _refuse_inside_staging(path, self.staging)

    @property
    def keeps_rejected(self) -> bool:
        """Whether the build writes its rejected records (a folder always does; a file output with
        ``--rejected``): without it the shards hold none and the records are only counted."""
        return self.folder or self.rejected is not None

    def check_folder(self) -> None:
        """An output folder must be new, empty, or hold a chemref build (never someone else's files)."""
        if not self.folder or not self.output.exists():
            return
        if not self.output.is_dir():
            raise InputError("the output folder is a file", path=str(self.output))
        names = {p.name for p in self.output.iterdir()} - {_LOCK}
        if not names or _STAGING in names:
            return
        manifest = self.output / MANIFEST
        if is_chemref_manifest(manifest):
            read_manifest(manifest)  # a damaged or tampered manifest is refused before anything is touched
            return
        raise InputError("the output folder is not empty and holds no chemref build (no chemref manifest.json)",
                         path=str(self.output), hint="give a new or empty folder")


def _refuse_inside_staging(path: Path, staging: Path) -> None:
    """An output inside the build's staging folder would be removed with it when the build ends."""
    if staging.resolve() in path.resolve().parents:
        raise InputError(f"the output is inside this build's staging folder {str(staging)!r}, which the build "
                         "removes when it ends", path=str(path), hint="give the output another folder")


#: The names a single-file output may have: it is JSON Lines whatever its name.
_QUESTION_SUFFIXES = (".jsonl", ".ndjson")


def check_file_format(layout: BuildLayout) -> None:
    """A single-file output is JSON Lines: a name that says otherwise (``q.csv``, ``q.json``) is an error."""
    if layout.folder or layout.output.suffix.lower() in _QUESTION_SUFFIXES:
        return
    raise InputError(f"the questions are written as JSON Lines, which the name {layout.output.name!r} does not say",
                     path=str(layout.output),
                     hint="name the output .jsonl, or give -o a folder (out/) for shards, with --format parquet "
                          "for Parquet")


def check_targets(layout: BuildLayout, given: list[str], files_from: Any) -> None:
    """No two outputs on one file, every output a regular file (or new), and no output over an input article
    or inside an input folder (nor an input inside the output folder)."""
    if layout.folder:
        targets: dict[str, Path | None] = {"output folder": layout.output}
    else:
        targets = {"output (questions)": layout.output, "dataset card": card_path(layout.output),
                   "rejected": layout.rejected, "report": layout.report,
                   "report chart": None if layout.report is None else layout.report.with_suffix(".png")}
        for path in targets.values():
            if path is not None:
                check_output(path)
    try:
        # nor the build's own working files (its lock, its staging folder), which it removes when it ends
        check_distinct_outputs({**targets, "build's lock file": layout.lock, "build's staging folder": layout.staging})
    except InputError as exc:
        raise InputError(exc.message, path=exc.path, hint="give each output its own file name; the chart is the "
                         "report's name with .png") from None
    listed = [] if files_from is None else [os.fspath(files_from)]
    for label, target in targets.items():
        check_not_input(target, [*given, *listed], label=label)
    if layout.folder:
        folder = layout.output.resolve()
        for item in given:
            path = Path(item).resolve()
            if path == folder or folder in path.parents:
                raise InputError(f"the output folder holds the input {item!r}", path=str(layout.output),
                                 hint="write the outputs outside the input folders")
