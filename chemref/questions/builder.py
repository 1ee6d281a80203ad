"""Build citation-prediction questions: one article is one task, run in order, in processes or on Dask.

:func:`article_questions` applies the funnel to an :class:`~chemref.jats.model.Article`;
:func:`build_article` reads one file (or bytes) first and turns a :class:`~chemref.errors.JatsError`
into a per-file error; :func:`iter_build` / :func:`build` run it over many inputs, in input order,
in this process or a process pool. Same inputs and settings give the same output, whatever the workers.
"""

from __future__ import annotations

import os
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from chemref.errors import ChemrefError, InputError
from chemref.jats.files import JATS_SUFFIXES, jats_files
from chemref.jats.model import Article
from chemref.questions.candidates import Candidate, article_info, iter_candidates, replace_citation
from chemref.questions.components import Components, default_components
from chemref.questions.filters import (FILTERS, REASONS, FilterContext, min_findability, min_score,
                                       per_article_cap, per_target_cap)
from chemref.questions.findability import findability
from chemref.questions.selector import Selector, default_selector
from chemref.questions.records import ArticleResult, BuildResult, Record
from chemref.questions.settings import BuildSettings

__all__ = ["Source", "expand_inputs", "article_questions", "build_article", "iter_build", "build",
           "JATS_SUFFIXES"]

#: File name endings taken from a folder given as input.


@dataclass(frozen=True, slots=True)
class Source:
    """One input article: a path (or the bytes of one) and the label written as ``source_file``."""

    path: str | None
    label: str
    data: bytes | None = None


def expand_inputs(inputs: Iterable[str | os.PathLike[str] | bytes | Source]) -> list[Source]:
    """Files stay as given; a folder becomes its ``*.xml``/``*.nxml`` files (recursively, sorted), each
    labelled with the folder as given joined with its name ("../corpus/PMC1.nxml"; absolute when the folder
    was given absolute), so ``source_file`` opens from the same working folder; bytes become ``<bytes N>``.
    A missing path raises InputError."""
    sources: list[Source] = []
    for n, item in enumerate(inputs):
        if isinstance(item, Source):
            sources.append(item)
        elif isinstance(item, (bytes, bytearray)):
            sources.append(Source(None, f"<bytes {n}>", bytes(item)))
        else:
            path = Path(item)
            if path.is_dir():
                files = jats_files(path)
                if not files:
                    raise InputError("no JATS files (*.xml, *.nxml) in this folder", path=str(path))
                sources.extend(Source(str(p), (path / p.relative_to(path)).as_posix()) for p in files)
            elif path.is_file():
                sources.append(Source(str(path), str(item)))
            else:
                raise InputError("no such file or folder", path=str(path),
                                 hint="give JATS files or folders that hold them")
    return sources


def _record(cand: Candidate, excerpt: str, reason: str | None) -> Record:
    anchor = cand.anchor
    ref = cand.reference if len(cand.anchors) == 1 else None
    if ref is not None:
        ref_id = ref.id
    else:
        ref_id = " ".join(rid for a in cand.anchors for rid in a.ref_ids) or None
    info = cand.article
    return Record(
        id=cand.id, excerpt=excerpt, sentence=cand.sentence,
        citation_start=anchor.start, citation_end=anchor.end, citation_text=anchor.text,
        target_doi=ref.doi if ref is not None else None,
        target_pmid=ref.pmid if ref is not None else None,
        target_title=ref.title if ref is not None else None,
        target_authors=tuple(ref.authors) if ref is not None else None,
        target_year=ref.year if ref is not None else None,
        target_container=ref.container_title if ref is not None else None,
        target_type=ref.publication_type if ref is not None else None,
        source_file=info.source_file, source_pmcid=info.source_pmcid, source_doi=info.source_doi,
        source_license=info.source_license, ref_id=ref_id, section=cand.section,
        findability=None, score=None, reason=reason,
    )


def _first_failure(cand: Candidate, ctx: FilterContext) -> tuple[str | None, str]:
    """Run the per-sentence filters in funnel order; return (first reason or None, final excerpt)."""
    anchor = cand.anchor
    excerpt = replace_citation(cand.sentence, anchor.start, anchor.end)
    for name, check in FILTERS:
        reason = check(cand, excerpt, ctx)
        if reason is not None:
            return reason, excerpt
        if name == "no_author_named" and ctx.settings.authors == "mask":
            ref = cand.reference
            mentions = ctx.components.mentions(excerpt, ref.authors) if ref is not None else ()
            if mentions:
                excerpt = ctx.components.mask(excerpt, mentions)
    return None, excerpt


def article_questions(article: Article, settings: BuildSettings | None = None, *,
                      components: Components | None = None, label: str | None = None,
                      selector: Selector | None = None) -> ArticleResult:
    """Apply the whole funnel to one article: questions and rejections in document order."""
    settings = settings or BuildSettings()
    ctx = FilterContext(settings, components or default_components())
    info = article_info(article)
    if label is not None:
        key = info.key if article.pmcid or label.startswith("<") else (Path(label).stem or info.key)
        info = replace(info, source_file=label, key=key)
    counts = {reason: 0 for reason in REASONS}
    rejected: list[tuple[int, Record]] = []
    survivors: list[tuple[int, Record]] = []
    selector = selector or settings.load_selector()
    n = 0
    for n, cand in enumerate(iter_candidates(article, ctx.components.split, info=info), start=1):
        reason, excerpt = _first_failure(cand, ctx)
        if reason is not None:
            counts[reason] += 1
            rejected.append((n, _record(cand, excerpt, reason)))
            continue
        record = _record(cand, excerpt, None)
        record = replace(record, findability=findability(excerpt))  # the selector reads it from the record
        record = replace(record, score=selector.score_record(record.to_dict()))
        reason = min_findability(record.findability, settings) or min_score(record.score, settings)
        if reason is not None:
            counts[reason] += 1
            rejected.append((n, replace(record, reason=reason)))
            continue
        survivors.append((n, record))

    def rank(item: tuple[int, Record]) -> float:
        return item[1].score or 0.0

    def record_id(item: tuple[int, Record]) -> str:
        return item[1].id

    kept, capped_target = per_target_cap(survivors, settings, target=lambda s: s[1].target_doi or s[1].ref_id or s[1].id,
                                         score=rank, record_id=record_id)
    kept, capped = per_article_cap(kept, settings, score=rank, record_id=record_id)
    for reason, items in (("per_target_cap", capped_target), ("per_article_cap", capped)):
        for order, record in items:
            counts[reason] += 1
            rejected.append((order, replace(record, reason=reason)))
    rejected.sort(key=lambda item: item[0])
    return ArticleResult(
        source=info.source_file or info.key, key=info.key, cc_by=info.cc_by,
        questions=tuple(record for _, record in kept),
        rejected=tuple(r for _, r in rejected),
        candidates=n, counts=tuple(counts.items()), diagnostics=len(article.diagnostics),
    )


def build_article(source: Source | str | os.PathLike[str] | bytes, settings: BuildSettings | None = None,
                  *, components: Components | None = None) -> ArticleResult:
    """Read one article and build its questions; an unreadable file becomes ``ArticleResult.error``.

    A pure function of the file's bytes and the settings (picklable), so processes and Dask run it as is.
    """
    from chemref.jats import read

    if not isinstance(source, Source):
        source = expand_inputs([source])[0]
    try:
        article = read(source.data if source.data is not None else source.path)
    except ChemrefError as exc:
        return ArticleResult(source=source.label, key=None, cc_by=None, error=str(exc))
    return article_questions(article, settings, components=components, label=source.label)


def _warm_up() -> None:
    """Import the reader and the NLP components once, before a pool forks or in a fresh worker."""
    import chemref.jats

    getattr(chemref.jats, "read")
    default_components()
    default_selector()


def iter_build(inputs: Iterable[str | os.PathLike[str] | bytes | Source], settings: BuildSettings | None = None,
               *, workers: int = 1, components: Components | None = None) -> Iterator[ArticleResult]:
    """Yield one :class:`ArticleResult` per input article, in input order (``workers`` processes)."""
    settings = settings or BuildSettings()
    sources = expand_inputs(inputs)
    if workers < 1:
        raise InputError(f"workers must be at least 1, got {workers}")
    if workers == 1 or len(sources) <= 1:
        for source in sources:
            yield build_article(source, settings, components=components)
        return
    if components is not None:
        raise InputError("custom components run with workers=1 only")
    _warm_up()
    with ProcessPoolExecutor(max_workers=workers, initializer=_warm_up) as pool:
        # Largest files first so one long review does not finish last on a single worker; results
        # are still yielded in input order.
        futures: dict[int, Future[ArticleResult]] = {}
        for index in sorted(range(len(sources)), key=lambda i: -_size(sources[i])):
            futures[index] = pool.submit(build_article, sources[index], settings)
        for index in range(len(sources)):
            yield futures.pop(index).result()


def _size(source: Source) -> int:
    if source.data is not None:
        return len(source.data)
    try:
        return os.path.getsize(source.path) if source.path else 0
    except OSError:
        return 0


def build(inputs: Sequence[str | os.PathLike[str] | bytes | Source] | str | os.PathLike[str], *,
          per_article: int = 4, min_chars: int = 120, max_chars: int = 600, seed: int = 0,
          authors: str = "drop", min_findability: float | None = None, min_score: float | None = None,
          per_target: int = 1, answer_key: str = "doi", selector: str | None = None, workers: int = 1,
          components: Components | None = None) -> BuildResult:
    """Build questions from JATS files or folders; see :class:`BuildResult` for questions, rejections
    and the funnel. Same inputs and settings give the same result for any ``workers``."""
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    settings = BuildSettings(per_article=per_article, min_chars=min_chars, max_chars=max_chars, seed=seed,
                             authors=authors, min_findability=min_findability, min_score=min_score,
                             per_target=per_target, answer_key=answer_key, selector=selector)
    return BuildResult(settings, tuple(iter_build(inputs, settings, workers=workers, components=components)))
