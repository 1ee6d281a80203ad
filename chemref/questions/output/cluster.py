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

from chemref._io.secrets import scrub, shown_address
from chemref.errors import InputError
from chemref.inputs import Source, expand_inputs
from chemref.questions.funnel.builder import build_article
from chemref.questions.funnel.settings import BuildSettings
from chemref.questions.output.shards import write_shard

__all__ = ["build_bag", "build_shards_on", "check_address", "connect"]


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:  # the optional extra is missing
        raise InputError("Dask is not installed", hint="pip install 'chemref[dask]'") from exc
    return distributed


class _Problem(ValueError):
    """What is wrong with an address, in words that do not quote it."""


def _shown(address: str) -> str:
    return shown_address(address)


def check_address(address: str, *, what: str = "--dask") -> str:
    """``address`` when it is a Dask scheduler address (``tcp://host:port``, ``tls://...``, ``host:port``, any
    scheme Dask has): a host and a port from 1 to 65535 where the scheme takes them, and no credentials (Dask
    takes none in an address; they would be shown in its errors). Else an :class:`InputError` that shows the
    address without credentials."""
    hint = "for example tcp://127.0.0.1:8786"
    if not address.strip():
        raise InputError(f"{what} needs the scheduler's address", hint=hint)
    if "@" in address:
        raise InputError(f"{what}: a Dask address holds no credentials (user:password@), got {_shown(address)}",
                         hint="secure the scheduler with TLS (tls://) and Dask's security settings instead")
    if "?" in address or "#" in address:
        raise InputError(f"{what}: a Dask address has no query or fragment, got {_shown(address)}", hint=hint)
    if not address.isprintable() or any(ch.isspace() for ch in address):
        raise InputError(f"{what}: an address is one word without spaces or control characters, got "
                         f"{_shown(address)}", hint=hint)
    _import_distributed()
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import backends

    try:
        scheme, location = parse_address(address, strict=False)
        if scheme not in backends:
            raise _Problem(f"unknown scheme {scheme!r} (Dask knows {', '.join(sorted(backends))})")
        if scheme in ("tcp", "tls", "ws", "wss"):
            host, port = parse_host_port(location)
            if not host:
                raise _Problem("no host")
            if not isinstance(port, int) or not 0 < port < 65536:
                raise _Problem(f"port {port} is not from 1 to 65535")
        elif not location:
            raise _Problem("nothing after the scheme")
    except _Problem as exc:
        raise InputError(f"{what}: not a Dask scheduler address ({exc}): {_shown(address)}", hint=hint) from None
    except (ValueError, TypeError):  # Dask's own message quotes the address: neither is shown
        raise InputError(f"{what}: not a Dask scheduler address: its host or port cannot be read (the address "
                         "is not shown: it may hold a piece of a password)", hint=hint) from None
    return address


def connect(address: str) -> Any:
    """A ``distributed.Client`` connected to the scheduler at ``address`` (checked by :func:`check_address`);
    a scheduler that cannot be reached is an :class:`InputError` (Dask's connect timeout, 30 s by default)."""
    distributed = _import_distributed()
    check_address(address)
    try:
        return distributed.Client(address)
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError(f"cannot connect to the Dask scheduler at {_shown(address)} "
                         f"({scrub(str(exc))[:300] or type(exc).__name__})",
                         hint="start the scheduler, or check its address") from None


def build_bag(inputs: Sequence[str | os.PathLike[str] | bytes | Source], *, npartitions: int | None = None,
              **settings: Any) -> Any:
    """A ``dask.bag.Bag`` of :class:`~chemref.questions.funnel.records.ArticleResult`, one per input article, in
    input order, for your own Dask pipelines (computing it gathers every result: for big corpora use
    :func:`build_dask`, which writes shards from the workers)."""
    try:
        import dask.bag as db
    except ImportError as exc:
        raise InputError("Dask is not installed", hint="pip install 'chemref[dask]'") from exc

    options = BuildSettings(**settings)
    sources = for_workers(expand_inputs(inputs))
    if not sources:
        raise InputError("no input articles")
    parts = npartitions or min(len(sources), 64)
    return db.from_sequence(sources, npartitions=parts).map(build_article, settings=options)


def _write_shard_task(staging: str, index: int, sources: list[Source], settings: BuildSettings,
                      fmt: str, rejected: bool = True) -> dict[str, Any]:
    """On a worker: build the shard's articles (each failure an error row) and write its files."""
    return write_shard(staging, index, (build_article(s, settings) for s in sources), fmt, rejected)


def for_workers(sources: list[Source]) -> list[Source]:
    """``sources`` with each relative path made absolute (the label, hence ``source_file``, unchanged): a
    worker of a cluster does not run in this process's folder."""
    return [replace(s, path=os.path.abspath(s.path)) if s.path is not None and not os.path.isabs(s.path) else s
            for s in sources]


def build_shards_on(dask: Any, plan: Any, checkpoint: Any, staging: Path, settings: BuildSettings, fmt: str,
                    progress: Any, on_error: Callable[[str, str], None] | None, rejected: bool = True) -> None:
    """Submit every shard not done yet to ``dask`` (a ``distributed.Client`` or a scheduler address), a few
    per worker at a time, and record each summary in the checkpoint as it arrives (``rejected``: whether the
    shards hold the rejected records, :func:`~chemref.questions.output.shards.encode`)."""
    distributed = _import_distributed()
    own = not hasattr(dask, "submit")
    client = connect(dask) if own else dask
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
                                      rejected, pure=False))
            in_flight += 1
            if in_flight >= window:
                collect(next(pending))
                in_flight -= 1
        for future in pending:
            collect(future)
    finally:
        if own:
            client.close()
