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
:func:`build_to_files`, which checks them and hands the run to its parts: where the outputs go
(:mod:`~chemref.questions.output.layout`), the journal (:mod:`~chemref.questions.output.checkpoint`), the
articles by shard (:mod:`~chemref.questions.output.plan`), the shards built (:mod:`~chemref.questions.output.run`)
and the outputs put in place (:mod:`~chemref.questions.output.finish`).
"""

from __future__ import annotations

import hashlib
import os
from typing import Any, Callable, Iterator, Sequence

from chemref._io import RunLock, read_limited
from chemref._version import __version__
from chemref.errors import InputError
from chemref.inputs import Source, check_inputs, folder_sources, iter_sources, path_text, read_file_list
from chemref.questions.funnel.selector import shipped_selector_path
from chemref.questions.funnel.settings import BuildSettings
from chemref.questions.output.cluster import _import_distributed, connect
from chemref.questions.output.finish import BuildOutputs
from chemref.questions.output.layout import MANIFEST, BuildLayout, check_file_format, check_targets
from chemref.questions.output.run import run_build
from chemref.questions.output.shards import FORMATS

__all__ = ["BuildOutputs", "build_to_files", "build_dask", "MANIFEST", "SHARD_ARTICLES"]

#: articles per shard by default (a resumed run redoes at most one shard per worker)
SHARD_ARTICLES = 1000


def _selector_sha256(options: BuildSettings) -> str:
    """The SHA-256 of the selector weights the build scores with (a file changed in place between a crash and
    ``--resume`` is a difference, like a changed setting)."""
    return hashlib.sha256(read_limited(options.selector or shipped_selector_path())).hexdigest()


def build_to_files(inputs: Sequence[str | os.PathLike[str]], output: str | os.PathLike[str], *,
                   report: str | os.PathLike[str] | None = None,
                   rejected: str | os.PathLike[str] | None = None,
                   workers: int = 1, progress: bool = False,
                   on_error: Callable[[str, str], None] | None = None,
                   files_from: str | os.PathLike[str] | None = None, resume: bool = False,
                   format: str = "jsonl", shard_articles: int = SHARD_ARTICLES,
                   dask: Any = None, progress_every: float = 30.0,
                   default_input: str | os.PathLike[str] | None = None,
                   **settings: object) -> BuildOutputs:
    """Build questions from ``inputs`` (the articles of the folder ``default_input`` when empty, named relative
    to it; the command line gives its sample articles) and write every output (see the module).

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
    layout = BuildLayout(output, report=report, rejected=rejected)
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
        sources = _default_sources(default_input)
    check_targets(layout, given, files_from)
    check_file_format(layout)
    identity = {"chemref_version": __version__, "settings": options.to_dict(),
                "selector_sha256": _selector_sha256(options),
                "layout": {"format": format, "shard_articles": shard_articles, "rejected": layout.keeps_rejected},
                "inputs": [path_text(g) for g in given],
                "files_from": None if files_from is None else path_text(os.fspath(files_from))}
    layout.check_folder()
    own_client = None
    if isinstance(dask, str):  # connected before anything is written: an address that fails leaves nothing
        dask = own_client = connect(dask)
    try:
        with RunLock(layout.lock, f"to {layout.output}"):
            return run_build(layout, identity, sources, options, format, shard_articles, workers, progress, on_error,
                        resume, dask, progress_every, given, files_from)
    finally:
        if own_client is not None:
            own_client.close()


def _default_sources(folder: str | os.PathLike[str] | None) -> Callable[[], Iterator[Source]]:
    """The articles of the default input folder, read when no input is given."""
    if folder is None:
        raise InputError("no input given", hint="give JATS files or folders")
    if not os.path.isdir(folder):
        raise InputError("no input given and the default input folder is not there", path=os.fspath(folder),
                         hint="give JATS files or folders")
    return lambda: folder_sources(folder)


def _require_pyarrow() -> None:
    """Raise :class:`InputError` when pyarrow (the optional extra ``chemref[parquet]``) cannot be imported."""
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise InputError("--format parquet needs pyarrow, which is not installed; nothing was written",
                         hint="pip install 'chemref[parquet]', or build JSON Lines shards (--format jsonl)") from None


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
