"""Run the question builder on Dask: the same per-article function, one task per article.

``pip install 'chemref[dask]'``. Dask is imported only when these functions are called.

>>> from distributed import Client, LocalCluster                     # doctest: +SKIP
>>> with Client(LocalCluster(n_workers=2)) as client:                 # doctest: +SKIP
...     result = build_dask(["corpora/jats"], client=client, seed=0)
"""

from __future__ import annotations

import os
from typing import Any, Sequence

from chemref.errors import InputError
from chemref.questions.builder import Source, build_article, expand_inputs
from chemref.questions.records import BuildResult
from chemref.questions.settings import BuildSettings

__all__ = ["build_bag", "build_dask"]


def _import_bag() -> Any:
    try:
        import dask.bag as db
    except ImportError as exc:  # the optional extra is missing
        raise InputError("Dask is not installed", hint="pip install 'chemref[dask]'") from exc
    return db


def build_bag(inputs: Sequence[str | os.PathLike[str] | bytes | Source], *, npartitions: int | None = None,
              **settings: Any) -> Any:
    """A ``dask.bag.Bag`` of :class:`~chemref.questions.records.ArticleResult`, one per input article,
    in input order; ``settings`` are the keyword options of :func:`chemref.questions.build`
    (``per_article``, ``min_chars``, ``max_chars``, ``seed``, ``authors``, ``min_findability``)."""
    db = _import_bag()
    options = BuildSettings(**settings)
    sources = expand_inputs(inputs)
    if not sources:
        raise InputError("no input articles")
    parts = npartitions or min(len(sources), 64)
    return db.from_sequence(sources, npartitions=parts).map(build_article, settings=options)


def build_dask(inputs: Sequence[str | os.PathLike[str] | bytes | Source], *, client: Any = None,
               npartitions: int | None = None, **settings: Any) -> BuildResult:
    """Compute :func:`build_bag` (on ``client``, a ``distributed.Client``, when given; else with Dask's
    default scheduler) and assemble the same :class:`BuildResult` as :func:`chemref.questions.build`."""
    bag = build_bag(inputs, npartitions=npartitions, **settings)
    articles = client.compute(bag).result() if client is not None else bag.compute()
    return BuildResult(BuildSettings(**settings), tuple(articles))
