"""One run of a build: the journal started or resumed, the shards built (by the local pool, or on Dask with
the ids resolved afterwards), then the outputs finished."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path
from typing import Any, Callable, Iterator

from chemref.errors import InputError, WorkerError
from chemref.inputs import Source, count_sources
from chemref.pool import ordered_map
from chemref.progress import Progress
from chemref.questions.funnel.builder import ARTICLES_PER_TASK, UniqueIds, build_article, duplicate_message, warm_up
from chemref.questions.funnel.records import ArticleResult
from chemref.questions.funnel.settings import BuildSettings
from chemref.questions.output.checkpoint import CHECKPOINT, Checkpoint, differences
from chemref.questions.output.cluster import build_shards_on
from chemref.questions.output.finish import BuildOutputs, finish_build, outputs_of_complete
from chemref.questions.output.layout import MANIFEST, BuildLayout
from chemref.questions.output.manifest import check_build_state, read_manifest
from chemref.questions.output.plan import InputPlan
from chemref.questions.output.shards import EncodedArticle, ShardWriter, encode, per_article_rows

__all__ = ["run_build"]


def run_build(layout: BuildLayout, identity: dict[str, Any], sources: Callable[[], Iterator[Source]],
              options: BuildSettings, fmt: str, shard_articles: int, workers: int, show: bool,
              on_error: Callable[[str, str], None] | None, resume: bool, dask: Any, every: float,
              given: list[str], files_from: Any) -> BuildOutputs:
    staging = layout.staging
    checkpoint = Checkpoint(staging / CHECKPOINT, identity)
    if resume:
        check_build_state(staging, staging / CHECKPOINT)
        if (staging / CHECKPOINT).is_file():
            checkpoint.load(f"the interrupted build in {staging}")
            checkpoint.verify((staging, layout.output) if layout.folder else (staging,))
            _clear_temporaries(staging)
        elif layout.folder and (layout.output / MANIFEST).is_file():
            manifest = read_manifest(layout.output / MANIFEST)
            diffs = differences(manifest["identity"], identity)
            if diffs:
                raise InputError("cannot resume: the build in this folder was made with other settings or inputs ("
                                 + "; ".join(diffs) + ")", path=str(layout.output),
                                 hint="run without --resume to replace it, or write elsewhere")
            return outputs_of_complete(layout, manifest)
        else:
            raise InputError("nothing to resume: no interrupted build here", path=str(staging),
                             hint="run without --resume to start the build")
    else:
        if staging.is_symlink() or (staging.exists() and not staging.is_dir()):
            check_build_state(staging, staging / CHECKPOINT)  # an error naming it: never removed through a link
        if (staging / CHECKPOINT).exists():
            raise InputError("an interrupted build is in the way", path=str(staging),
                             hint="add --resume to finish it, or remove that folder to start again")
        if staging.exists():  # no journal: a build stopped before its first line, or one finished but not cleared
            shutil.rmtree(staging)
        try:
            staging.mkdir(parents=True)
        except OSError as exc:
            raise InputError(f"cannot create the staging folder: {exc.strerror or exc}", path=str(staging)) from None
        checkpoint.start()
    plan = InputPlan(sources, shard_articles, checkpoint.done, checkpoint.stamps)
    listed = (show or workers > 1) and (given or files_from)
    total = count_sources(given, files_from=files_from) if listed else None
    if show and not (given or files_from):
        total = sum(1 for _ in sources())
    bar = Progress(total, done=checkpoint.articles, every=every, enabled=show)
    bar.questions = checkpoint.questions
    try:
        if dask is not None:
            build_shards_on(dask, plan, checkpoint, staging, options, fmt, bar, on_error, layout.keeps_rejected)
            _resolve_ids_after_workers(plan, staging, checkpoint, options, fmt, layout.keeps_rejected)
        else:
            todo = None if total is None else max(0, total - checkpoint.articles)  # the pool's processes: no more
            _build_local(plan, checkpoint, staging, options, fmt, workers, bar, on_error, todo, layout.keeps_rejected)
    finally:
        bar.close()
        checkpoint.close()
    return finish_build(layout, checkpoint, identity, options, fmt)


class _IndexedTask:
    """Build one article and encode its shard rows (in a pool worker, so the parent only writes them)."""

    def __init__(self, settings: BuildSettings, fmt: str, rejected: bool) -> None:
        self.settings, self.fmt, self.rejected = settings, fmt, rejected

    def __call__(self, item: tuple[int, Source]) -> tuple[int, EncodedArticle]:
        return item[0], encode(build_article(item[1], self.settings), self.fmt, self.rejected)


def _build_local(inputs: InputPlan, checkpoint: Checkpoint, staging: Path, settings: BuildSettings, fmt: str,
                 workers: int, progress: Any, on_error: Callable[[str, str], None] | None,
                 total: int | None = None, rejected: bool = True) -> None:
    try:
        _build_shards(inputs, checkpoint, staging, settings, fmt, workers, progress, on_error, total, rejected)
    except WorkerError as exc:
        raise WorkerError(f"{exc.message}; the shards finished before it are kept", path=str(staging),
                          hint="finish with --resume (with fewer --workers if it happens again: an article may "
                          "need more memory than there is)") from None


def _build_shards(inputs: InputPlan, checkpoint: Checkpoint, staging: Path, settings: BuildSettings, fmt: str,
                  workers: int, progress: Any, on_error: Callable[[str, str], None] | None,
                  total: int | None = None, rejected: bool = True) -> None:
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
        for i, encoded in ordered_map(_IndexedTask(settings, fmt, rejected), todo(), workers=workers,
                                      initializer=warm_up, chunk=ARTICLES_PER_TASK, total=total):
            source = held.pop(i)
            resolved = ids.resolve(encoded.result, source, settings)
            if resolved is not encoded.result:
                encoded = encode(resolved, fmt, rejected)
            k = i // inputs.size
            if writer is None or writer.index != k:
                if writer is not None:
                    checkpoint.add(writer.close())
                writer = ShardWriter(staging, k, fmt, rejected)
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


def _unique_ids(staging: Path, checkpoint: Checkpoint, fmt: str) -> Any:
    """The :class:`~chemref.questions.funnel.builder.UniqueIds` of a run, holding the articles of the shards done
    before a resume (their verified ``articles-*.jsonl`` rows)."""
    ids = UniqueIds()
    for row in per_article_rows(staging, sorted(checkpoint.done), fmt, placed=staging.parent):
        ids.add_row(row)
    return ids


def _warn_bundle_repeats(row: dict[str, Any]) -> None:
    """The warning a local build gives for an ``<articles>`` file whose articles repeat a PMCID
    (:func:`~chemref.questions.funnel.builder.duplicate_message`), for its row written by a Dask worker."""
    source = row.get("source_file")
    if source is not None and row.get("duplicate_of") == source and row.get("skipped") is None:
        result = ArticleResult(source=str(source), key=row.get("id_prefix"), cc_by=None, duplicate_of=str(source))
        warnings.warn(str(duplicate_message(result)), UserWarning, stacklevel=1)


def _resolve_ids_after_workers(plan: InputPlan, staging: Path, checkpoint: Checkpoint, settings: BuildSettings,
                               fmt: str, rejected: bool = True) -> None:
    """On Dask, where workers write whole shards without seeing each other's ids: give the build the ids a local
    build gives. The shards are read in order with one :class:`~chemref.questions.funnel.builder.UniqueIds`;
    a shard holding an article whose id prefix is already taken (a PMCID given twice, forged or not) is built
    again here, each article as :meth:`UniqueIds.resolve` decides (a new prefix, or skipped as a duplicate,
    with the same warning), and its journal line replaced."""
    ids = UniqueIds()
    redo: dict[int, dict[str, Any]] = {}
    for index in range(checkpoint.prefix_end):
        rows = list(per_article_rows(staging, (index,), fmt, placed=staging.parent))
        keys = [row.get("id_prefix") for row in rows if row.get("skipped") is None]
        keys = [one for key in keys if isinstance(key, str) for one in key.split(" ")]  # <articles>: several
        if len(set(keys)) == len(keys) and not any(key in ids.taken for key in keys):  # no id met twice
            for row in rows:
                ids.add_row(row)
                _warn_bundle_repeats(row)
            continue
        sources = [source for i, source in enumerate(plan.sources()) if i // plan.size == index]
        writer = ShardWriter(staging, index, fmt, rejected)
        try:
            for source in sources:
                result = ids.resolve(build_article(source, settings), source, settings)
                note = duplicate_message(result)
                if note is not None:
                    warnings.warn(note, UserWarning, stacklevel=1)
                writer.add(result)  # (encoded by the writer, as it keeps or drops the rejected records)
        except BaseException:
            writer.abort()
            raise
        redo[index] = writer.close()
    if redo:
        checkpoint.replace(redo)


def _clear_temporaries(staging: Path) -> None:
    for path in staging.glob(".*.tmp"):
        path.unlink(missing_ok=True)
