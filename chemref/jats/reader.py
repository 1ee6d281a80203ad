"""``read`` one JATS article into an :class:`Article`; ``read_many`` streams many, optionally in processes.

One article is one pure task (bytes in, Article out). Nothing is lost: every body ``<p>``, every
``<ref>`` and every citation ``<xref>`` ends up in the Article or is named in its diagnostics.
"""

from __future__ import annotations

import os
import re
import warnings
from dataclasses import replace
from typing import Callable, Iterable, Iterator, Literal, TypeVar

from chemref._io.limits import read_limited
from chemref.errors import UNEXPECTED, InputError, JatsError
from chemref.inputs.source import Source
from chemref.inputs.sources import iter_sources
from chemref.jats.article import articles_of
from chemref.jats.model import Article, Diagnostic
from chemref.jats.parser import parse_articles
from chemref.jats.paths import article_paths
from chemref.pool import ordered_map

__all__ = ["read", "read_articles", "read_many", "map_articles"]


# an entity reference other than the five XML ones and character references: only then can one be left unexpanded
_ENTITY_REF = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos);|#)")


def _may_hold_entities(data: bytes) -> bool:
    return _ENTITY_REF.search(data) is not None


def _load(source: str | os.PathLike[str] | bytes, name: str | None) -> tuple[bytes, str | None]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), name
    file = name or str(source)
    try:
        return read_limited(source, error=JatsError), file
    except InputError as exc:  # missing, a folder, not a regular file, too large: one JatsError
        raise JatsError(exc.message, path=file, hint=exc.hint) from None


def read_articles(source: str | os.PathLike[str] | bytes, *, name: str | None = None,
                  sub_articles: bool = False) -> tuple[Article, ...]:
    """Every article of one JATS file (or its bytes): the ``<article>`` itself, or each ``<article>`` of a
    PMC ``<articles>`` file, in document order; with ``sub_articles`` each ``<sub-article>`` / ``<response>``
    follows its article as an article of its own. ``Article.part`` tells them apart (see :class:`Article`).

    Raises :class:`~chemref.errors.JatsError` as :func:`read` does.
    """
    data, file = _load(source, name)
    elements = parse_articles(data, file)
    out: list[Article] = []
    entities = _may_hold_entities(data)  # once per file: per article it would read the file once per article
    parts = article_paths(elements) if len(elements) > 1 else [None]
    try:
        for element, part in zip(elements, parts):
            out.extend(articles_of(element, file, part=part, sub_articles=sub_articles, entities=entities))
    except RecursionError:
        raise JatsError("XML nested too deeply to read", path=file) from None
    return tuple(out)


def read(source: str | os.PathLike[str] | bytes, *, name: str | None = None) -> Article:
    """Read one JATS article from a path or from its bytes (``name`` labels bytes in errors and ``Article.file``).

    Raises :class:`~chemref.errors.JatsError` when the file cannot be read or is not well-formed XML;
    everything recoverable is an entry of ``Article.diagnostics``. A file holding several articles (PMC's
    ``<articles>``) gives its first, with an ``articles-more`` diagnostic: :func:`read_articles` gives each.
    """
    data, file = _load(source, name)
    elements = parse_articles(data, file)
    try:
        article = articles_of(elements[0], file, part=elements[0].getroottree().getpath(elements[0])
                             if len(elements) > 1 else None, entities=_may_hold_entities(data))[0]
    except RecursionError:
        raise JatsError("XML nested too deeply to read", path=file) from None
    if len(elements) > 1:
        extra = Diagnostic("articles-more", f"the file holds {len(elements)} <article> elements; this is the "
                           "first (read_articles() gives each)", elements[1].sourceline)
        article = replace(article, diagnostics=article.diagnostics + (extra,))
    return article


T = TypeVar("T")


def _unexpected(label: str, exc: BaseException) -> JatsError:
    return JatsError(f"could not be read ({type(exc).__name__}: {exc}); this is a chemref bug, please report it "
                     "with the file", path=label)


def _portable(exc: JatsError) -> JatsError:
    """``exc`` without the exception it was raised while handling, nor its traceback: it crosses a process
    boundary, and picklers that keep ``__context__`` (tblib's, which Dask installs) would try to pickle lxml's
    error log along with it."""
    exc.__context__ = exc.__cause__ = None
    exc.__traceback__ = None
    return exc


class _Task:
    """A picklable per-input task: ``[(convert(article), None), ...]`` for each article of one input file, or
    ``[(None, JatsError)]`` when it cannot be read (an unexpected exception is that file's error too)."""

    def __init__(self, convert: Callable[[Article], T] | None = None, sub_articles: bool = False) -> None:
        self.convert = convert
        self.sub_articles = sub_articles

    def __call__(self, source: Source) -> list[tuple[object, JatsError | None]]:
        if source.error is not None:
            return [(None, JatsError(source.error))]
        try:
            if source.data is not None:
                articles = read_articles(source.data, name=source.label, sub_articles=self.sub_articles)
            else:
                assert source.path is not None  # a source holds its data, its path or its error
                articles = read_articles(source.path, sub_articles=self.sub_articles)
        except JatsError as exc:
            return [(None, _portable(exc))]
        except MemoryError:
            raise  # the CLI names the input that ran out of memory
        except UNEXPECTED as exc:
            return [(None, _portable(_unexpected(source.label, exc)))]
        if self.convert is None:
            return [(article, None) for article in articles]
        out: list[tuple[object, JatsError | None]] = []
        for article in articles:
            try:
                out.append((self.convert(article), None))
            except MemoryError:
                raise
            except UNEXPECTED as exc:
                out.append((None, _portable(_unexpected(source.label, exc))))
        return out


def _checked(inputs: Iterable) -> Iterator:
    """Inputs, with a path that does not exist, or is neither a folder nor a regular file (a FIFO, a device),
    turned into that input's error (reading goes on)."""
    for item in inputs:
        if isinstance(item, (str, os.PathLike)) and not os.path.isdir(item) and not os.path.isfile(item):
            name = os.fspath(item)
            if not os.path.exists(item):
                yield Source(None, name, error=str(JatsError("no such file or folder", path=name)))
                continue
            try:
                _load(item, None)
            except JatsError as exc:
                yield Source(None, name, error=str(exc))
                continue
        yield item


def map_articles(inputs: Iterable[str | os.PathLike[str] | bytes | Source],
                 convert: Callable[[Article], T] | None = None, *,
                 workers: int = 1, on_error: Literal["raise", "skip"] = "raise",
                 errors: list[JatsError] | None = None, sub_articles: bool = False,
                 files_from: str | os.PathLike[str] | None = None, total: int | None = None) -> Iterator[T]:
    """Yield ``convert(article)`` for each article of ``inputs`` in input order (the Article itself when
    ``convert`` is None). Inputs are read by :func:`chemref.inputs.iter_sources`: files, folders (subfolders
    included), PMC ``.tar.gz`` packages (every member, whatever a file list says) and ``files_from``.
    With ``workers > 1`` both reading and ``convert`` run in worker processes
    (:func:`chemref.pool.ordered_map`), so only the converted value (a JSON line, a summary) crosses the
    process boundary (never more processes than ``total``, the number of input files when known). ``convert``
    must be picklable (a module-level function). Errors are handled as in :func:`read_many`."""
    if on_error not in ("raise", "skip"):
        raise ValueError(f"on_error must be 'raise' or 'skip', not {on_error!r}")
    sources = iter_sources(_checked(inputs), files_from=files_from, licences=False)
    for results in ordered_map(_Task(convert, sub_articles), sources, workers=workers, total=total):
        for value, exc in results:
            if exc is None:
                yield value  # type: ignore[misc]  # convert's value (T), or the Article itself without it
            elif on_error == "raise":
                raise exc
            elif errors is not None:
                errors.append(exc)
            else:
                warnings.warn(f"skipped {exc}", UserWarning, stacklevel=2)


def read_many(inputs: Iterable[str | os.PathLike[str] | bytes | Source], *, workers: int = 1,
              on_error: Literal["raise", "skip"] = "raise", errors: list[JatsError] | None = None,
              sub_articles: bool = False) -> Iterator[Article]:
    """Yield every article of ``inputs`` (files, folders, PMC packages, bytes), in input order; ``workers > 1``
    reads in that many processes. A file of several articles gives each (see :func:`read_articles`).

    ``on_error="raise"`` raises the first file's :class:`JatsError` when its turn comes;
    ``on_error="skip"`` yields nothing for a bad file and appends its error to ``errors``
    (or, with no list given, issues a :class:`UserWarning` naming it), so no file is dropped silently.
    """
    return map_articles(inputs, None, workers=workers, on_error=on_error, errors=errors, sub_articles=sub_articles)
