"""The whole job of ``chemref questions build``: a streaming, resumable build written as one set of outputs.

Articles are built in input order and written as they arrive, shard by shard
(:mod:`chemref.questions.output.shards`) into a staging folder beside the outputs; the funnel totals are added up
as the run goes. After each shard a line appended to a journal (``progress.jsonl``) records it, with its
checksums and totals, so ``resume=True`` after a crash or ``kill -9`` skips the shards done and finishes with
byte-identical outputs; the journal costs the same per shard however long the run. At the end the report,
chart and dataset card are made from the totals and every output is put in place together:

- ``output`` a folder (``out/``): the shards themselves, ``report.json``, ``report.png``, ``README.md`` and
  ``manifest.json`` (inputs done, shard files with their SHA-256, settings, chemref version), the manifest
  written last: a folder whose manifest lists its files is a complete build;
- ``output`` a file (``questions.jsonl``): the shards joined into it, and the ``rejected`` and ``report``
  files when asked for, renamed into place together with signals held back.

A run-level lock refuses a second writer of the same outputs. The CLI parses arguments and calls
:func:`build_to_files`.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from chemref._io import (
    RunLock,
    atomic_write,
    check_distinct_outputs,
    check_not_input,
    check_output,
    commit_renames,
    discard_staged,
    is_stdout,
    read_limited,
    remove_stale_temporaries,
    staged_file,
)
from chemref._io.outputs import _cannot_write
from chemref._version import __version__
from chemref.errors import InputError, WorkerError
from chemref.inputs import (
    SAMPLE_CORPUS,
    Source,
    check_inputs,
    count_sources,
    iter_sources,
    path_text,
    read_file_list,
    sample_corpus,
    sample_sources,
)
from chemref.jsonl import json_line, write_json_streaming
from chemref.pool import ordered_map
from chemref.progress import Progress
from chemref.questions.funnel.builder import ARTICLES_PER_TASK, UniqueIds, build_article, duplicate_message, warm_up
from chemref.questions.funnel.selector import shipped_selector_path
from chemref.questions.funnel.settings import BuildSettings
from chemref.questions.output.card import card_path, write_card
from chemref.questions.output.cluster import _import_distributed, build_shards_on
from chemref.questions.output.manifest import (
    FOLDER_FILES,
    MANIFEST_FORMAT,
    MAX_JOURNAL_LINE,
    check_build_state,
    check_shard,
    is_build_name,
    is_chemref_manifest,
    journal_header,
    journal_shard,
    read_manifest,
)
from chemref.questions.output.report import write_chart, write_report
from chemref.questions.output.shards import (
    FORMATS,
    KINDS,
    EncodedArticle,
    ShardWriter,
    add_label,
    encode,
    sha256,
    shard_name,
)
from chemref.questions.output.totals import MAX_ERRORS, MAX_SOURCES, BuildTotals

__all__ = ["SAMPLE_CORPUS", "BuildOutputs", "build_to_files", "build_dask", "sample_corpus", "MANIFEST", "SHARD_ARTICLES"]

#: the name of a complete build's manifest in an output folder
MANIFEST = "manifest.json"
#: articles per shard by default (a resumed run redoes at most one shard per worker)
SHARD_ARTICLES = 1000
_STAGING = ".chemref-build"
_LOCK = ".chemref.lock"
_CHECKPOINT = "progress.jsonl"
#: the manifest of the build being replaced, kept in the staging folder while the new one is put in place
_PREVIOUS_MANIFEST = "previous-manifest.json"
_FOLDER_FILES = FOLDER_FILES


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


def _is_folder_output(output: Path, given: str) -> bool:
    return given.endswith(("/", os.sep)) or output.is_dir() or (not output.exists() and output.suffix == "")


class _Layout:
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


def _selector_sha256(options: BuildSettings) -> str:
    """The SHA-256 of the selector weights the build scores with (a file changed in place between a crash and
    ``--resume`` is a difference, like a changed setting)."""
    return hashlib.sha256(read_limited(options.selector or shipped_selector_path())).hexdigest()


def _differences(saved: dict[str, Any], current: dict[str, Any]) -> list[str]:
    out = []
    for key in sorted(set(saved) | set(current)):
        if saved.get(key) != current.get(key):
            out.append(f"{key} {json.dumps(saved.get(key))} then, {json.dumps(current.get(key))} now")
    return out


class _Checkpoint:
    """``progress.jsonl`` in the staging folder, an append-only journal: a header line (the identity of the
    run), then one line per finished shard (its summary), each flushed and fsync'ed, so adding a shard
    costs the same at the first shard and the millionth.

    In memory: the totals of the contiguous done shards ``0..prefix_end-1`` folded into ``prefix``, and the
    summaries of shards done out of order (none for the local pool, at most the window on Dask). On resume
    :attr:`done` holds the article count, first and last article and the digest of the articles' names of
    each shard done before, which the input check needs."""

    def __init__(self, path: Path, identity: dict[str, Any]) -> None:
        self.path = path
        self.identity = identity
        self.started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        self.prefix = BuildTotals()  # totals of the shards 0..prefix_end-1 (their samples merged here)
        self.prefix_end = 0
        self.pending: dict[int, dict[str, Any]] = {}  # shards done after a gap, by index
        self.done: dict[int, dict[str, Any]] = {}  # shards done before a resume: articles, first, last
        self.articles = 0
        self.questions = 0
        #: the digest of each shard's inputs (names, sizes, modification times), by index, until recorded
        self.stamps: dict[int, str] = {}
        self._handle: Any = None

    def _header(self) -> dict[str, Any]:
        return {"format": MANIFEST_FORMAT, "identity": self.identity, "started": self.started}

    def start(self) -> None:
        """Open a new journal and write its header."""
        try:
            self._handle = open(self.path, "x", encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write the checkpoint: {exc.strerror or exc}", path=str(self.path)) from None
        self._append(self._header())

    def load(self, what: str) -> None:
        """Read the journal of an interrupted build, checking every line against its schema, and open it for
        appending. A torn last line (a kill part-way through writing it) is cut off: the shard it describes
        is simply redone."""
        good = 0  # the byte offset after the last whole line
        ended = True  # whether that line has its newline
        header: dict[str, Any] | None = None
        layout = self.identity["layout"]
        with open(self.path, "rb") as handle:
            for number, raw in enumerate(iter(lambda: handle.readline(MAX_JOURNAL_LINE + 1), b""), 1):
                if len(raw) > MAX_JOURNAL_LINE:
                    raise self._damaged(f"line {number} of the checkpoint is longer than any shard summary")
                if _journal_entry(raw) is None:
                    if handle.read(1):  # not the last line: the journal was damaged, not torn
                        raise self._damaged(f"line {number} of the checkpoint is damaged")
                    break
                if header is None:
                    first = _journal_entry(raw) or {}
                    if first.get("format") != MANIFEST_FORMAT:
                        raise InputError(f"{what} is not a chemref build", path=str(self.path))
                    saved = first.get("identity")
                    diffs = _differences(saved, self.identity) if isinstance(saved, dict) else []
                    if not diffs:
                        header = journal_header(raw, path=self.path, line=number)
                    else:
                        raise InputError(f"cannot resume {what}: it was started with other settings or inputs ("
                                         + "; ".join(diffs) + ")", path=str(self.path.parent),
                                         hint="resume with the same command, or start again without --resume "
                                         "elsewhere")
                    self.started = header.get("started", self.started)
                else:
                    entry = journal_shard(raw, path=self.path, line=number, fmt=layout["format"],
                                          shard_articles=layout["shard_articles"])
                    index = entry["index"]
                    if index in self.done:
                        raise self._damaged(f"line {number} of the checkpoint records shard {index} again")
                    self.done[index] = {"articles": entry["articles"], "first": entry["first"],
                                        "last": entry["last"], "labels": entry.get("labels"),
                                        "inputs": entry.get("inputs")}
                    self._record(entry)
                good += len(raw)
                ended = raw.endswith(b"\n")
        with open(self.path, "r+b") as handle:
            handle.truncate(good)
            if not ended:  # whole, only its newline not written yet
                handle.seek(good)
                handle.write(b"\n")
            handle.flush()
            os.fsync(handle.fileno())
        self._handle = open(self.path, "a", encoding="utf-8")
        if header is None:  # killed while writing the header: nothing was done
            self._append(self._header())

    def verify(self, folders: tuple[Path, ...]) -> None:
        """Every shard file the journal lists must be on disk as the journal has it (size, SHA-256, rows),
        in the staging folder or (an interrupted finish) the output folder: checked before any is used."""
        for shard in self.shards():
            check_shard(shard, folders)

    def _damaged(self, message: str) -> InputError:
        return InputError(message, path=str(self.path), hint="remove the staging folder to start the build again")

    def add(self, summary: dict[str, Any]) -> None:
        """Record a finished shard: one line appended to the journal (with the digest of its inputs' names,
        sizes and modification times, from :attr:`stamps`)."""
        summary = self._trimmed({**summary, "inputs": self.stamps.pop(int(summary["index"]), None)})
        self._append(summary)
        self._record(summary)

    def _trimmed(self, summary: dict[str, Any]) -> dict[str, Any]:
        if len(self.prefix.sources) >= MAX_SOURCES and summary["totals"]["sources"]:
            summary = {**summary, "totals": {**summary["totals"], "sources": []}}  # past the sample: unused
        if len(self.prefix.errors) >= MAX_ERRORS and summary["totals"]["errors"]:
            summary = {**summary, "totals": {**summary["totals"], "errors": []}}
        return summary

    def replace(self, summaries: dict[int, dict[str, Any]]) -> None:
        """Replace the journal lines of the shards in ``summaries`` (shards built again, every shard done) with
        their new summaries (the journal rewritten whole, then renamed over itself), and count again."""
        self.close()
        entries = []
        with open(self.path, "rb") as handle:
            header = next(handle)
            for line in handle:
                entry = json.loads(line)
                fresh = summaries.get(int(entry["index"]))
                entries.append(entry if fresh is None else {**fresh, "inputs": entry.get("inputs")})
        self.prefix, self.prefix_end, self.pending, self.articles, self.questions = BuildTotals(), 0, {}, 0, 0
        with atomic_write(self.path, "wb") as out:
            out.write(header)
            for entry in entries:
                entry = self._trimmed(entry)
                out.write(json_line(entry).encode("utf-8"))
                self._record(entry)
        self._handle = open(self.path, "a", encoding="utf-8")

    def close(self) -> None:
        if self._handle is not None:
            try:
                self._handle.close()
            except OSError:  # a line that could not be written (reported by _append) is torn, redone on resume
                pass
            self._handle = None

    def _append(self, entry: dict[str, Any]) -> None:
        try:
            self._handle.write(json_line(entry))
            self._handle.flush()
            os.fsync(self._handle.fileno())
        except OSError as exc:  # a disk full mid-line leaves a torn line, redone on --resume
            raise InputError(f"cannot write the checkpoint: {exc.strerror or exc}", path=str(self.path),
                             hint="free some space there, then finish with --resume") from None

    def _record(self, summary: dict[str, Any]) -> None:
        """Count the shard, and fold the contiguous done shards into ``prefix`` in index order."""
        index = int(summary["index"])
        if index < self.prefix_end or index in self.pending:
            return
        self.articles += summary["articles"]
        self.questions += summary["totals"]["questions"]
        self.pending[index] = summary
        while self.prefix_end in self.pending:
            self.prefix.merge(BuildTotals.from_dict(self.pending.pop(self.prefix_end)["totals"]))
            self.prefix_end += 1

    def totals(self) -> BuildTotals:
        total = BuildTotals()
        total.merge(self.prefix)
        for k in sorted(self.pending):
            total.merge(BuildTotals.from_dict(self.pending[k]["totals"]))
        return total

    def shards(self) -> Iterator[dict[str, Any]]:
        """The summaries of the shards done, in index order, read back from the journal (a window of
        out-of-order ones held at a time)."""
        waiting: dict[int, dict[str, Any]] = {}
        following = 0
        layout = self.identity["layout"]
        with open(self.path, "rb") as handle:
            next(handle, None)  # the header
            for number, line in enumerate(handle, 2):
                entry = journal_shard(line, path=self.path, line=number, fmt=layout["format"],
                                      shard_articles=layout["shard_articles"])
                index = entry["index"]
                if index < following:
                    continue
                waiting[index] = entry
                while following in waiting:
                    yield waiting.pop(following)
                    following += 1
        for k in sorted(waiting):
            yield waiting[k]


def _journal_entry(raw: bytes) -> dict[str, Any] | None:
    """One journal line's entry, or None for a torn line (its JSON cut off part-way); checked by the caller."""
    try:
        entry = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return entry if isinstance(entry, dict) else None


def _inputs_differ(detail: str) -> InputError:
    return InputError(f"the inputs differ from those of the interrupted build: {detail}",
                      hint="resume with the same inputs, or start again without --resume")


def _stamp(digest: Any, source: Source) -> None:
    """Add what says whether an input article changed to ``digest``: its name and, for a file, its size and
    modification time; for a package member, a digest of its bytes."""
    add_label(digest, source.label)
    if source.data is not None:
        digest.update(hashlib.sha1(source.data).digest())
    elif source.path is not None:
        try:
            info = os.stat(source.path)
            digest.update(f"{info.st_size}:{info.st_mtime_ns}\n".encode())
        except OSError:
            digest.update(b"-\n")
    else:
        digest.update(f"{source.skip}:{source.error}\n".encode("utf-8", "surrogatepass"))


class _Inputs:
    """The articles of the run, grouped by shard, checking on resume that the shards already done still
    hold the same articles (by name, size and modification time); ``stamps`` receives the digest of the
    inputs of each shard to build."""

    def __init__(self, sources: Callable[[], Iterator[Source]], shard_articles: int,
                 done: dict[int, dict[str, Any]], stamps: dict[int, str] | None = None) -> None:
        self.sources, self.size, self.done = sources, shard_articles, done
        self.stamps = {} if stamps is None else stamps

    def _stamped(self, k: int, digest: Any, first: int, last: int) -> None:
        """Shard ``k`` (articles ``first`` to ``last``, 1-based) has been read whole: record or check its digest."""
        shard = self.done.get(k)
        if shard is None:
            self.stamps[k] = digest.hexdigest()
        elif shard.get("inputs") not in (None, digest.hexdigest()):
            raise _inputs_differ(f"articles {first} to {last} ({shard['first']!r} to {shard['last']!r}) have "
                                 "changed since they were built (size or modification time)")

    def todo(self) -> Iterator[tuple[int, Source]]:
        """``(position, source)`` of every article whose shard is not done yet, in input order."""
        count = 0
        labels: Any = None  # the digest of the labels of the done shard being read
        stamp: Any = None  # the digest of the inputs of the shard being read
        for i, source in enumerate(self.sources()):
            count = i + 1
            k = i // self.size
            offset = i - k * self.size
            if offset == 0:
                stamp = hashlib.sha256()
            _stamp(stamp, source)
            shard = self.done.get(k)
            if shard is None:
                if offset == self.size - 1:
                    self._stamped(k, stamp, i + 1 - offset, i + 1)
                yield i, source
                continue
            expected = shard["first"] if offset == 0 else shard["last"] if offset == shard["articles"] - 1 else None
            if offset >= shard["articles"] or (expected is not None and expected != source.label):
                raise _inputs_differ(f"article {i + 1} is {source.label!r}, was {expected!r}" if expected else
                                     f"article {i + 1} ({source.label!r}) is new")
            if offset == 0:
                labels = hashlib.sha256()
            add_label(labels, source.label)
            if offset == shard["articles"] - 1:
                if shard.get("labels") not in (None, labels.hexdigest()):
                    raise _inputs_differ(f"articles {i + 1 - offset} to {i + 1} ({shard['first']!r} to "
                                         f"{source.label!r}) are not the same articles")
                self._stamped(k, stamp, i + 1 - offset, i + 1)
        if count and (count - 1) % self.size != self.size - 1:  # the last shard, not full
            last = (count - 1) // self.size
            self._stamped(last, stamp, last * self.size + 1, count)
        for k, shard in self.done.items():
            if k * self.size + shard["articles"] > count:
                raise _inputs_differ(f"{count} article(s) now, at least {k * self.size + shard['articles']} then")

    def shards(self) -> Iterator[tuple[int, list[Source]]]:
        """``(shard index, sources)`` of each shard not done yet (for workers that write whole shards)."""
        group: list[Source] = []
        current = None
        for i, source in self.todo():
            k = i // self.size
            if current is not None and k != current:
                yield current, group
                group = []
            current = k
            group.append(source)
        if current is not None:
            yield current, group


class _IndexedTask:
    """Build one article and encode its shard rows (in a pool worker, so the parent only writes them)."""

    def __init__(self, settings: BuildSettings, fmt: str) -> None:
        self.settings, self.fmt = settings, fmt

    def __call__(self, item: tuple[int, Source]) -> tuple[int, EncodedArticle]:
        return item[0], encode(build_article(item[1], self.settings), self.fmt)


def _build_local(inputs: _Inputs, checkpoint: _Checkpoint, staging: Path, settings: BuildSettings, fmt: str,
                 workers: int, progress: Any, on_error: Callable[[str, str], None] | None,
                 total: int | None = None) -> None:
    try:
        _build_shards(inputs, checkpoint, staging, settings, fmt, workers, progress, on_error, total)
    except WorkerError as exc:
        raise WorkerError(f"{exc.message}; the shards finished before it are kept", path=str(staging),
                          hint="finish with --resume (with fewer --workers if it happens again: an article may "
                          "need more memory than there is)") from None


def _build_shards(inputs: _Inputs, checkpoint: _Checkpoint, staging: Path, settings: BuildSettings, fmt: str,
                  workers: int, progress: Any, on_error: Callable[[str, str], None] | None,
                  total: int | None = None) -> None:
    if workers > 1:
        warm_up()
    ids = _unique_ids(staging, checkpoint, fmt)
    held: dict[int, Source] = {}

    def todo() -> Iterator[tuple[int, Source]]:
        for i, source in inputs.todo():
            held[i] = source
            yield i, source

    writer: ShardWriter | None = None
    try:
        for i, encoded in ordered_map(_IndexedTask(settings, fmt), todo(), workers=workers,
                                      initializer=warm_up, chunk=ARTICLES_PER_TASK, total=total):
            source = held.pop(i)
            resolved = ids.resolve(encoded.result, source, settings)
            if resolved is not encoded.result:
                encoded = encode(resolved, fmt)
            k = i // inputs.size
            if writer is None or writer.index != k:
                if writer is not None:
                    checkpoint.add(writer.close())
                writer = ShardWriter(staging, k, fmt)
            writer.add(encoded)
            article = encoded.result
            if article.error is not None and on_error is not None:
                on_error(article.source, article.error)
            note = duplicate_message(article)
            if note is not None:
                warnings.warn(note, UserWarning, stacklevel=1)
            progress.update(1, len(article.questions))
        if writer is not None:
            checkpoint.add(writer.close())
            writer = None
    finally:
        if writer is not None:
            writer.abort()


def _unique_ids(staging: Path, checkpoint: _Checkpoint, fmt: str) -> Any:
    """The :class:`~chemref.questions.funnel.builder.UniqueIds` of a run, holding the articles of the shards done
    before a resume (their verified ``articles-*.jsonl`` rows)."""
    ids = UniqueIds()
    for row in _per_article_rows(staging, sorted(checkpoint.done), fmt, placed=staging.parent):
        ids.add_row(row)
    return ids


def _resolve_ids_after_workers(plan: _Inputs, staging: Path, checkpoint: _Checkpoint, settings: BuildSettings,
                               fmt: str) -> None:
    """On Dask, where workers write whole shards without seeing each other's ids: give the build the ids a local
    build gives. The shards are read in order with one :class:`~chemref.questions.funnel.builder.UniqueIds`;
    a shard holding an article whose id prefix is already taken (a PMCID given twice, forged or not) is built
    again here, each article as :meth:`UniqueIds.resolve` decides (a new prefix, or skipped as a duplicate,
    with the same warning), and its journal line replaced."""
    ids = UniqueIds()
    redo: dict[int, dict[str, Any]] = {}
    for index in range(checkpoint.prefix_end):
        rows = list(_per_article_rows(staging, (index,), fmt, placed=staging.parent))
        keys = [row.get("id_prefix") for row in rows if row.get("skipped") is None]
        keys = [key for key in keys if isinstance(key, str)]
        if len(set(keys)) == len(keys) and not any(key in ids.taken for key in keys):  # no id met twice
            for row in rows:
                ids.add_row(row)
            continue
        sources = [source for i, source in enumerate(plan.sources()) if i // plan.size == index]
        writer = ShardWriter(staging, index, fmt)
        try:
            for source in sources:
                result = ids.resolve(build_article(source, settings), source, settings)
                note = duplicate_message(result)
                if note is not None:
                    warnings.warn(note, UserWarning, stacklevel=1)
                writer.add(encode(result, fmt))
        except BaseException:
            writer.abort()
            raise
        redo[index] = writer.close()
    if redo:
        checkpoint.replace(redo)


def _clear_temporaries(staging: Path) -> None:
    for path in staging.glob(".*.tmp"):
        path.unlink(missing_ok=True)


def _per_article_rows(staging: Path, shards: Sequence[int], fmt: str,
                      placed: Path | None = None) -> Iterator[dict[str, Any]]:
    """Every shard's per-article rows; ``placed``: where an interrupted finish already moved shards."""
    for index in shards:
        path = staging / shard_name("articles", index, fmt)
        if placed is not None and not path.exists():
            path = placed / path.name
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                yield json.loads(line)


def build_to_files(inputs: Sequence[str | os.PathLike[str]], output: str | os.PathLike[str], *,
                   report: str | os.PathLike[str] | None = None,
                   rejected: str | os.PathLike[str] | None = None,
                   workers: int = 1, progress: bool = False,
                   on_error: Callable[[str, str], None] | None = None,
                   files_from: str | os.PathLike[str] | None = None, resume: bool = False,
                   format: str = "jsonl", shard_articles: int = SHARD_ARTICLES,
                   dask: Any = None, progress_every: float = 30.0,
                   **settings: object) -> BuildOutputs:
    """Build questions from ``inputs`` (the sample corpus when empty) and write every output (see the module).

    ``on_error(source, message)`` is called for each unreadable input as it is met (the run goes on; the file
    is counted in the report). ``dask`` is a ``distributed.Client`` or a scheduler address: shards are then
    built and written by the workers (the output folder must be on a file system they share). ``settings``
    are :class:`BuildSettings` fields. A damaged package is an :class:`InputError` raised after the outputs
    of the articles read before the damage are written.
    """
    options = BuildSettings(**settings)  # type: ignore[arg-type]
    if format not in FORMATS:
        raise InputError(f"format must be one of {', '.join(FORMATS)}, got {format!r}")
    if shard_articles < 1:
        raise InputError(f"shard_articles must be at least 1, got {shard_articles}")
    if workers < 1:
        raise InputError(f"workers must be at least 1, got {workers}")
    layout = _Layout(output, report=report, rejected=rejected)
    if format == "parquet" and not layout.folder:
        raise InputError("Parquet output is a folder of shards", path=str(output), hint="give -o a folder (out/)")
    if format == "parquet":
        _require_pyarrow()  # before any shard is written
    given = [os.fspath(p) for p in inputs]
    check_inputs(given)
    if files_from is not None:
        read_file_list(files_from)  # every missing file named now, before any work
    if given or files_from is not None:
        def sources() -> Iterator[Source]:
            return iter_sources(given, files_from=files_from)
    else:
        sample_corpus()
        sources = sample_sources
    _check_targets(layout, given, files_from)
    _check_file_format(layout)
    identity = {"chemref_version": __version__, "settings": options.to_dict(),
                "selector_sha256": _selector_sha256(options),
                "layout": {"format": format, "shard_articles": shard_articles},
                "inputs": [path_text(g) for g in given],
                "files_from": None if files_from is None else path_text(os.fspath(files_from))}
    layout.check_folder()
    own_client = None
    if isinstance(dask, str):  # connected before anything is written: an address that fails leaves nothing
        from chemref.questions.output.cluster import connect  # noqa: PLC0415 (Dask's side of the build, loaded only with --dask)

        dask = own_client = connect(dask)
    try:
        with RunLock(layout.lock, f"to {layout.output}"):
            return _run(layout, identity, sources, options, format, shard_articles, workers, progress, on_error,
                        resume, dask, progress_every, given, files_from)
    finally:
        if own_client is not None:
            own_client.close()


def _require_pyarrow() -> None:
    """Raise :class:`InputError` when pyarrow (the optional extra ``chemref[parquet]``) cannot be imported."""
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise InputError("--format parquet needs pyarrow, which is not installed; nothing was written",
                         hint="pip install 'chemref[parquet]', or build JSON Lines shards (--format jsonl)") from None


#: The names a single-file output may have: it is JSON Lines whatever its name.
_QUESTION_SUFFIXES = (".jsonl", ".ndjson")


def _check_file_format(layout: _Layout) -> None:
    """A single-file output is JSON Lines: a name that says otherwise (``q.csv``, ``q.json``) is an error."""
    if layout.folder or layout.output.suffix.lower() in _QUESTION_SUFFIXES:
        return
    raise InputError(f"the questions are written as JSON Lines, which the name {layout.output.name!r} does not say",
                     path=str(layout.output),
                     hint="name the output .jsonl, or give -o a folder (out/) for shards, with --format parquet "
                          "for Parquet")


def _check_targets(layout: _Layout, given: list[str], files_from: Any) -> None:
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


def _run(layout: _Layout, identity: dict[str, Any], sources: Callable[[], Iterator[Source]],
         options: BuildSettings, fmt: str, shard_articles: int, workers: int, show: bool,
         on_error: Callable[[str, str], None] | None, resume: bool, dask: Any, every: float,
         given: list[str], files_from: Any) -> BuildOutputs:
    staging = layout.staging
    checkpoint = _Checkpoint(staging / _CHECKPOINT, identity)
    if resume:
        check_build_state(staging, staging / _CHECKPOINT)
        if (staging / _CHECKPOINT).is_file():
            checkpoint.load(f"the interrupted build in {staging}")
            checkpoint.verify((staging, layout.output) if layout.folder else (staging,))
            _clear_temporaries(staging)
        elif layout.folder and (layout.output / MANIFEST).is_file():
            manifest = read_manifest(layout.output / MANIFEST)
            diffs = _differences(manifest["identity"], identity)
            if diffs:
                raise InputError("cannot resume: the build in this folder was made with other settings or inputs ("
                                 + "; ".join(diffs) + ")", path=str(layout.output),
                                 hint="run without --resume to replace it, or write elsewhere")
            return _outputs_of_complete(layout, manifest)
        else:
            raise InputError("nothing to resume: no interrupted build here", path=str(staging),
                             hint="run without --resume to start the build")
    else:
        if (staging / _CHECKPOINT).exists():
            raise InputError("an interrupted build is in the way", path=str(staging),
                             hint="add --resume to finish it, or remove that folder to start again")
        if staging.exists():  # no journal: a build stopped before its first line, or one finished but not cleared
            shutil.rmtree(staging)
        try:
            staging.mkdir(parents=True)
        except OSError as exc:
            raise InputError(f"cannot create the staging folder: {exc.strerror or exc}", path=str(staging)) from None
        checkpoint.start()
    plan = _Inputs(sources, shard_articles, checkpoint.done, checkpoint.stamps)
    listed = (show or workers > 1) and (given or files_from)
    total = count_sources(given, files_from=files_from) if listed else None
    if show and not (given or files_from):
        total = sum(1 for _ in sources())
    bar = Progress(total, done=checkpoint.articles, every=every, enabled=show)
    bar.questions = checkpoint.questions
    try:
        if dask is not None:
            build_shards_on(dask, plan, checkpoint, staging, options, fmt, bar, on_error)
            _resolve_ids_after_workers(plan, staging, checkpoint, options, fmt)
        else:
            todo = None if total is None else max(0, total - checkpoint.articles)  # the pool's processes: no more
            _build_local(plan, checkpoint, staging, options, fmt, workers, bar, on_error, todo)
    finally:
        bar.close()
        checkpoint.close()
    return _finish(layout, checkpoint, identity, options, fmt)


def _finish(layout: _Layout, checkpoint: _Checkpoint, identity: dict[str, Any], options: BuildSettings,
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
                             per_article=_per_article_rows(staging, shards, fmt))
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


def _clear_staged(layout: _Layout) -> None:
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


def _finish_folder(layout: _Layout, checkpoint: _Checkpoint, totals: BuildTotals,
                   identity: dict[str, Any], options: BuildSettings, fmt: str) -> BuildOutputs:
    staging, out = layout.staging, layout.output
    count = checkpoint.prefix_end
    write_report(staging / "report.json", totals, options,
                 per_article=_per_article_rows(staging, range(count), fmt, placed=out))
    write_chart(staging / "report.png", totals, options)
    pattern = f"questions-*.{fmt}"
    write_card(totals, out / pattern, settings=options, data_files=pattern, path=staging / "README.md")

    def names() -> Iterator[str]:
        for index in range(count):
            for kind in KINDS:
                yield shard_name(kind, index, fmt)
        yield from _FOLDER_FILES

    extra = {name: {"sha256": sha256(staging / name), "bytes": (staging / name).stat().st_size}
             for name in _FOLDER_FILES}
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
        previous = [n for s in saved["shards"] for n in s["files"]] + list(_FOLDER_FILES)
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


def _check_placed(checkpoint: _Checkpoint, staging: Path, out: Path) -> None:
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
    (staging / _CHECKPOINT).unlink(missing_ok=True)
    shutil.rmtree(staging, ignore_errors=True)


def _in_build(name: str, count: int, fmt: str) -> bool:
    """Whether ``name`` is a file of a folder build of ``count`` shards in ``fmt``."""
    if name in _FOLDER_FILES:
        return True
    kind, _, rest = name.partition("-")
    index = rest.split(".", 1)[0]
    return kind in KINDS and index.isdigit() and int(index) < count and name == shard_name(kind, int(index), fmt)


def _outputs_of_complete(layout: _Layout, manifest: dict[str, Any]) -> BuildOutputs:
    out = layout.output
    totals = BuildTotals.from_dict(manifest["totals"])
    return BuildOutputs(totals, BuildSettings(**manifest["settings"]), out, out / "README.md",
                        out / "report.json", out / "report.png", None, out / MANIFEST)


def build_dask(inputs: Sequence[str | os.PathLike[str]], output: str | os.PathLike[str], *, client: Any = None,
               **options: Any) -> Any:
    """:func:`build_to_files` with the shards built and written by Dask workers
    (``client``: a ``distributed.Client`` or a scheduler address; None starts a LocalCluster). Returns the
    :class:`~chemref.questions.output.writer.BuildOutputs`; the files are identical to a local build's."""
    if client is None:
        distributed = _import_distributed()
        with distributed.LocalCluster(processes=True, dashboard_address=None) as cluster, \
                distributed.Client(cluster) as local:
            return build_to_files(inputs, output, dask=local, **options)
    return build_to_files(inputs, output, dask=client, **options)
