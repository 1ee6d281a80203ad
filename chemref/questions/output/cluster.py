"""Run the question build on Dask: the workers build whole shards and write them; the client gets back
only each shard's summary (file checksums and funnel counts).

``pip install 'chemref[dask]'``. Dask is imported only when these functions are called. The output
must be on a file system every worker sees (a LocalCluster always does).

>>> from distributed import Client, LocalCluster                     # doctest: +SKIP
>>> if __name__ == "__main__":                                        # doctest: +SKIP
...     with Client(LocalCluster(n_workers=2)) as client:
...         outputs = build_dask(["corpora/jats"], "out/", client=client)
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Sequence

from chemref.errors import InputError
from chemref.inputs import Source, expand_inputs
from chemref.questions.funnel.settings import BuildSettings

__all__ = ["build_bag", "build_shards_on"]


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:  # the optional extra is missing
        raise InputError("Dask is not installed", hint="pip install 'chemref[dask]'") from exc
    return distributed


def build_bag(inputs: Sequence[str | os.PathLike[str] | bytes | Source], *, npartitions: int | None = None,
              **settings: Any) -> Any:
    """A ``dask.bag.Bag`` of :class:`~chemref.questions.funnel.records.ArticleResult`, one per input article, in
    input order, for your own Dask pipelines (computing it gathers every result: for big corpora use
    :func:`build_dask`, which writes shards from the workers)."""
    try:
        import dask.bag as db
    except ImportError as exc:
        raise InputError("Dask is not installed", hint="pip install 'chemref[dask]'") from exc
    from chemref.questions.funnel.builder import build_article

    options = BuildSettings(**settings)
    sources = for_workers(expand_inputs(inputs))
    if not sources:
        raise InputError("no input articles")
    parts = npartitions or min(len(sources), 64)
    return db.from_sequence(sources, npartitions=parts).map(build_article, settings=options)


def _write_shard_task(staging: str, index: int, sources: list[Source], settings: BuildSettings,
                      fmt: str) -> dict[str, Any]:
    """On a worker: build the shard's articles (each failure an error row) and write its files."""
    from chemref.questions.funnel.builder import build_article
    from chemref.questions.output.shards import write_shard

    return write_shard(staging, index, (build_article(s, settings) for s in sources), fmt)


def for_workers(sources: list[Source]) -> list[Source]:
    """``sources`` with each relative path made absolute (the label, hence ``source_file``, unchanged): a
    worker of a cluster does not run in this process's folder."""
    return [replace(s, path=os.path.abspath(s.path)) if s.path is not None and not os.path.isabs(s.path) else s
            for s in sources]


def build_shards_on(dask: Any, plan: Any, checkpoint: Any, staging: Path, settings: BuildSettings, fmt: str,
                    progress: Any, on_error: Callable[[str, str], None] | None) -> None:
    """Submit every shard not done yet to ``dask`` (a ``distributed.Client`` or a scheduler address), a few
    per worker at a time, and record each summary in the checkpoint as it arrives."""
    distributed = _import_distributed()
    own = not hasattr(dask, "submit")
    client = distributed.Client(dask) if own else dask
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        window = 2 * workers
        folder = str(Path(staging).resolve())
        pending = distributed.as_completed()
        in_flight = 0

        def collect(future: Any) -> None:
            summary = future.result()
            checkpoint.add(summary)
            if on_error is not None:
                for source, message in summary["totals"]["errors"]:
                    on_error(source, message)
            progress.update(summary["articles"], summary["totals"]["questions"])

        for index, sources in plan.shards():
            pending.add(client.submit(_write_shard_task, folder, index, for_workers(sources), settings, fmt,
                                      pure=False))
            in_flight += 1
            if in_flight >= window:
                collect(next(pending))
                in_flight -= 1
        for future in pending:
            collect(future)
    finally:
        if own:
            client.close()
