"""The end of a build: the shards joined (a file output) or put in place with the manifest written last (a
folder output), the report, chart and dataset card written, and the staging folder removed."""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

from chemref._io import atomic_write, commit_renames, discard_staged, remove_stale_temporaries, staged_file
from chemref._io.outputs import _cannot_write
from chemref._version import __version__
from chemref.errors import InputError
from chemref.jsonl import write_json_streaming
from chemref.questions.funnel.settings import BuildSettings
from chemref.questions.output.card import card_path, write_card
from chemref.questions.output.checkpoint import CHECKPOINT, Checkpoint
from chemref.questions.output.layout import MANIFEST, BuildLayout
from chemref.questions.output.manifest import FOLDER_FILES, MANIFEST_FORMAT, is_build_name, read_manifest
from chemref.questions.output.report import write_chart, write_report
from chemref.questions.output.shards import KINDS, per_article_rows, sha256, shard_name
from chemref.questions.output.totals import BuildTotals

__all__ = ["BuildOutputs", "finish_build", "outputs_of_complete"]

#: the manifest of the build being replaced, kept in the staging folder while the new one is put in place
_PREVIOUS_MANIFEST = "previous-manifest.json"


@dataclass(frozen=True)
class BuildOutputs:
    """The totals of the build and the paths written."""

    totals: BuildTotals
    settings: BuildSettings
    output: Path
    card: Path
    report: Path | None = None
    chart: Path | None = None
    rejected: Path | None = None
    manifest: Path | None = None


def finish_build(layout: BuildLayout, checkpoint: Checkpoint, identity: dict[str, Any], options: BuildSettings,
                 fmt: str) -> BuildOutputs:
    staging = layout.staging
    shards = range(checkpoint.prefix_end)  # every shard is done: the indices 0..n-1
    totals = checkpoint.totals()
    if totals.articles == 0:
        shutil.rmtree(staging, ignore_errors=True)
        raise InputError("no input articles", hint="give JATS files, folders or packages that hold some")
    if totals.read == 0 and not totals.skipped:
        shutil.rmtree(staging, ignore_errors=True)
        first = totals.errors[0][1] if totals.errors else ""
        raise InputError(f"no input article could be read ({totals.unreadable} given; first: {first})",
                         hint="nothing was written")
    if layout.folder:
        outputs = _finish_folder(layout, checkpoint, totals, identity, options, fmt)
    else:
        pairs: list[tuple[Path, Path]] = []
        _clear_staged(layout)

        def stage(target: Path) -> Path:
            tmp = staged_file(target)
            pairs.append((tmp, target))
            return tmp

        try:
            _join(stage(layout.output), staging, shards, "questions", fmt, layout.output)
            if layout.rejected is not None:
                _join(stage(layout.rejected), staging, shards, "rejected", fmt, layout.rejected)
            chart = None
            if layout.report is not None:
                chart = layout.report.with_suffix(".png")
                write_report(stage(layout.report), totals, options,
                             per_article=per_article_rows(staging, shards, fmt))
                write_chart(stage(chart), totals, options)
            card = card_path(layout.output)
            write_card(totals, layout.output, settings=options, path=stage(card))
            commit_renames(pairs)
        except BaseException as exc:
            for tmp, _ in pairs:
                discard_staged(tmp)
            if isinstance(exc, OSError):  # the output being written when it failed
                exc = _cannot_write(pairs[-1][1] if pairs else layout.output, exc)
            if isinstance(exc, InputError):  # the build is done, only its outputs failed: say how to finish
                raise _kept_for_resume(exc, staging) from None
            raise
        _remove_staging(staging)
        outputs = BuildOutputs(totals, options, layout.output, card, layout.report, chart, layout.rejected)
    if totals.stopped:
        raise InputError(f"{totals.stopped[0]}; the {totals.read} article(s) read before it were built and "
                         f"written to {layout.output}", hint="re-download the package and build again")
    return outputs


def _kept_for_resume(exc: InputError, staging: Path) -> InputError:
    """``exc`` (an output of a finished single-file build could not be written) saying that the articles built
    are kept in ``staging`` and how to write them out without building them again."""
    return type(exc)(f"{exc.message}; the articles built are kept in {str(staging)!r}", path=exc.path,
                      line=exc.line, column=exc.column,
                      hint=f"{exc.hint + ', then ' if exc.hint else ''}run again with --resume to write them, "
                           "or remove that folder to build from the start")


def _clear_staged(layout: BuildLayout) -> None:
    """Remove the temporary copies of the outputs left beside them by a run killed while writing them (the run
    lock is held: no other build is writing these outputs)."""
    for target in (layout.output, card_path(layout.output), layout.rejected, layout.report,
                   None if layout.report is None else layout.report.with_suffix(".png")):
        if target is not None:
            remove_stale_temporaries(target)


def _join(target: Path, staging: Path, shards: Sequence[int], kind: str, fmt: str, output: Path) -> None:
    try:
        with open(target, "wb") as out:
            for index in shards:
                with open(staging / shard_name(kind, index, fmt), "rb") as part:
                    shutil.copyfileobj(part, out, 1 << 20)
            out.flush()
            os.fsync(out.fileno())
    except OSError as exc:
        if exc.filename is not None:  # a shard that cannot be read: reported as the OS says
            raise
        raise InputError(f"cannot write the output: {exc.strerror or exc}", path=str(output),
                         hint="free some space there, then finish the build with --resume") from None


def _finish_folder(layout: BuildLayout, checkpoint: Checkpoint, totals: BuildTotals,
                   identity: dict[str, Any], options: BuildSettings, fmt: str) -> BuildOutputs:
    staging, out = layout.staging, layout.output
    count = checkpoint.prefix_end
    write_report(staging / "report.json", totals, options,
                 per_article=per_article_rows(staging, range(count), fmt, placed=out))
    write_chart(staging / "report.png", totals, options)
    pattern = f"questions-*.{fmt}"
    write_card(totals, out / pattern, settings=options, data_files=pattern, path=staging / "README.md")

    def names() -> Iterator[str]:
        for index in range(count):
            for kind in KINDS:
                yield shard_name(kind, index, fmt)
        yield from FOLDER_FILES

    extra = {name: {"sha256": sha256(staging / name), "bytes": (staging / name).stat().st_size}
             for name in FOLDER_FILES}
    manifest = {
        "format": MANIFEST_FORMAT, "chemref_version": __version__, "status": "complete",
        "identity": identity, "settings": identity["settings"], "layout": identity["layout"],
        "inputs": identity["inputs"], "files_from": identity["files_from"],
        "articles_done": totals.articles,
        "shards": [],
        "files": extra, "totals": {k: v for k, v in totals.to_dict().items() if k not in ("sources", "errors")},
        "timings": {"started": checkpoint.started, "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z")},
    }
    _check_placed(checkpoint, staging, out)
    old, kept = out / MANIFEST, staging / _PREVIOUS_MANIFEST
    if old.is_file():
        # from here until the new manifest is written, the folder is not a complete build; the old manifest
        # is kept in the staging folder, so a finish interrupted from here on knows the old build's files
        os.replace(old, kept)
    if kept.is_file():
        saved = read_manifest(kept)
        previous = [n for s in saved["shards"] for n in s["files"]] + list(FOLDER_FILES)
        for name in previous:
            if is_build_name(name) and not _in_build(name, count, fmt):  # never a name the build does not write
                (out / name).unlink(missing_ok=True)
    commit_renames((staging / name, out / name) for name in names()  # type: ignore[arg-type]
                   if (staging / name).exists())  # an interrupted finish put the others in place
    remove_stale_temporaries(out / MANIFEST)  # left by a run killed while writing its manifest
    with atomic_write(out / MANIFEST) as handle:
        write_json_streaming(handle, manifest, "shards", (
            {k: shard[k] for k in ("index", "articles", "first", "last", "files")}
            for shard in checkpoint.shards()), indent=1)
        handle.write("\n")
    _remove_staging(staging)
    return BuildOutputs(totals, options, out, out / "README.md", out / "report.json", out / "report.png",
                        None, out / MANIFEST)


def _check_placed(checkpoint: Checkpoint, staging: Path, out: Path) -> None:
    """The shard files no longer in the staging folder must be in the output folder as the journal has them
    (an interrupted finish had moved them there)."""
    for shard in checkpoint.shards():
        for name, info in shard["files"].items():
            if (staging / name).exists():
                continue
            if not (out / name).is_file() or sha256(out / name) != info["sha256"]:
                raise InputError(f"shard file {name} is missing from the interrupted build", path=str(staging),
                                 hint="remove the staging folder and build again without --resume")


def _remove_staging(staging: Path) -> None:
    """Remove the staging folder, its journal first (a removal cut short leaves no build to resume)."""
    (staging / CHECKPOINT).unlink(missing_ok=True)
    shutil.rmtree(staging, ignore_errors=True)


def _in_build(name: str, count: int, fmt: str) -> bool:
    """Whether ``name`` is a file of a folder build of ``count`` shards in ``fmt``."""
    if name in FOLDER_FILES:
        return True
    kind, _, rest = name.partition("-")
    index = rest.split(".", 1)[0]
    return kind in KINDS and index.isdigit() and int(index) < count and name == shard_name(kind, int(index), fmt)


def outputs_of_complete(layout: BuildLayout, manifest: dict[str, Any]) -> BuildOutputs:
    out = layout.output
    totals = BuildTotals.from_dict(manifest["totals"])
    return BuildOutputs(totals, BuildSettings(**manifest["settings"]), out, out / "README.md",
                        out / "report.json", out / "report.png", None, out / MANIFEST)
