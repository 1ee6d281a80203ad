"""Build citation-prediction questions: one article is one task, run in order, in processes or on Dask.

:func:`article_questions` applies the funnel to an :class:`~chemref.jats.model.Article`;
:func:`build_article` reads one file (or bytes) first and turns a :class:`~chemref.errors.JatsError`
into a per-file error; :func:`iter_build` / :func:`build` run it over many inputs, in input order,
in this process or a process pool. Same inputs and settings give the same output, whatever the workers.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from chemref._io import read_limited
from chemref.errors import UNEXPECTED, ChemrefError, InputError, JatsError
from chemref.inputs import JATS_SUFFIXES, Source, expand_inputs, iter_sources
from chemref.jats.model import Article
from chemref.jats.reader import read_articles
from chemref.pool import ordered_map
from chemref.questions.funnel.candidates import (
    Candidate,
    article_info,
    id_key,
    iter_candidates,
    replace_citation,
    with_part,
)
from chemref.questions.funnel.difficulty import bibliography_ranks
from chemref.questions.funnel.engines import Components, default_components
from chemref.questions.funnel.filters import (
    FILTERS,
    REASONS,
    FilterContext,
    min_findability,
    min_score,
    per_article_cap,
    per_target_cap,
    target_key,
)
from chemref.questions.funnel.findability import findability
from chemref.questions.funnel.records import ArticleResult, BuildResult, Record
from chemref.questions.funnel.selector import Selector, default_selector
from chemref.questions.funnel.selector_features import claim_input
from chemref.questions.funnel.settings import BuildSettings, build_default

__all__ = ["Source", "expand_inputs", "article_questions", "build_article", "iter_build", "build",
           "warm_up", "JATS_SUFFIXES", "UniqueIds", "duplicate_message"]

#: articles sent to a pool worker at a time (one round trip per article costs the parent's core time)
ARTICLES_PER_TASK = 4


def _ref_id(cand: Candidate) -> str | None:
    """The ``ref_id`` of a candidate's record: its one reference's id, else every cited id (spaces between)."""
    ref = cand.reference if len(cand.anchors) == 1 else None
    if ref is not None:
        return ref.id
    return " ".join(rid for a in cand.anchors for rid in a.ref_ids) or None


def _record(cand: Candidate, excerpt: str, reason: str | None, findability_score: float | None = None,
            score: float | None = None, rank: int | None = None) -> Record:
    anchor = cand.anchor
    ref = cand.reference if len(cand.anchors) == 1 else None
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
        source_license=info.source_license, ref_id=_ref_id(cand), section=cand.section,
        findability=findability_score, score=score, bm25_rank_bibliography=rank, reason=reason,
    )


def _selector_row(cand: Candidate, excerpt: str, findability_score: float) -> dict[str, Any]:
    """The fields of a candidate's record that the selector reads (those :func:`selector_features` names), as
    :meth:`Record.to_dict` has them, made without the record (it is made once, when its rank is known)."""
    anchor = cand.anchor
    ref = cand.reference if len(cand.anchors) == 1 else None
    return {
        "excerpt": excerpt, "sentence": cand.sentence, "citation_start": anchor.start, "citation_end": anchor.end,
        "findability": findability_score, "section": cand.section,
        "target_title": ref.title if ref is not None else None,
        "target_authors": list(ref.authors) if ref is not None else None,
        "target_container": ref.container_title if ref is not None else None,
        "target_type": ref.publication_type if ref is not None else None,
    }


class _Scored:
    """A candidate that passed every per-sentence filter (the ``n``-th of its article): its excerpt, findability,
    selector score and reason (None while it is a question), until its record is made."""

    __slots__ = ("n", "cand", "excerpt", "findability", "score", "reason")

    def __init__(self, n: int, cand: Candidate, excerpt: str, findability_score: float, score: float,
                 reason: str | None) -> None:
        self.n, self.cand, self.excerpt = n, cand, excerpt
        self.findability, self.score, self.reason = findability_score, score, reason

    def target(self) -> str:
        """What :func:`per_target_cap` counts it against (:func:`target_key`)."""
        ref = self.cand.reference if len(self.cand.anchors) == 1 else None
        return target_key(ref.doi if ref is not None else None, _ref_id(self.cand), self.cand.id)

    def rank_score(self) -> float:
        return self.score or 0.0

    def record_id(self) -> str:
        return self.cand.id


def _first_failure(cand: Candidate, ctx: FilterContext) -> tuple[str | None, str]:
    """Run the per-sentence filters in funnel order; return (first reason or None, final excerpt)."""
    anchor = cand.anchor
    excerpt = replace_citation(cand.sentence, anchor.start, anchor.end)
    mask = ctx.settings.authors == "mask"
    for name, check in FILTERS:
        reason = check(cand, excerpt, ctx)
        if reason is not None:
            return reason, excerpt
        if mask and name == "no_author_named":
            ref = cand.reference
            mentions = ctx.components.mentions(excerpt, ref.authors) if ref is not None else ()
            if mentions:
                excerpt = ctx.components.mask(excerpt, mentions)
    return None, excerpt


def _remembering_claims(components: Components) -> Components:
    """``components`` whose ``classify`` remembers its last answer: the selector's ``claim_score`` is the
    decision of the ``is_claim`` filter on the same sentence, not a second classification."""
    return replace(components, classify=lru_cache(maxsize=1)(components.classify))


def article_questions(article: Article, settings: BuildSettings | None = None, *,
                      components: Components | None = None, label: str | None = None,
                      selector: Selector | None = None, key: str | None = None) -> ArticleResult:
    """Apply the whole funnel to one article: questions and rejections in document order (``key``: the
    prefix of the question ids instead of the PMCID or file name, see :class:`UniqueIds`)."""
    settings = settings or BuildSettings()
    ctx = FilterContext(settings, _remembering_claims(components or default_components()))
    info = article_info(article)
    if label is not None:
        info = replace(info, source_file=label, key=_natural_key(article, label, info.key))
    if key is not None:
        info = replace(info, key=key)
    counts = {reason: 0 for reason in REASONS}
    rejected: list[tuple[int, Record]] = []
    scored: list[_Scored] = []
    selector = selector or settings.load_selector()
    n = 0
    for n, cand in enumerate(iter_candidates(article, ctx.components.split, info=info), start=1):
        reason, excerpt = _first_failure(cand, ctx)
        if reason is not None:
            counts[reason] += 1
            rejected.append((n, _record(cand, excerpt, reason)))
            continue
        item = _score(n, cand, excerpt, ctx, selector)
        scored.append(item)
        if item.reason is not None:
            counts[item.reason] += 1
    survivors = [item for item in scored if item.reason is None]
    kept, capped_target = per_target_cap(survivors, settings, target=_Scored.target, score=_Scored.rank_score,
                                         record_id=_Scored.record_id)
    kept, capped = per_article_cap(kept, settings, score=_Scored.rank_score, record_id=_Scored.record_id)
    for reason, items in (("per_target_cap", capped_target), ("per_article_cap", capped)):
        for item in items:
            counts[reason] += 1
            item.reason = reason
    questions = _with_difficulty(article, scored, rejected)
    rejected.sort(key=lambda pair: pair[0])
    return ArticleResult(
        source=info.source_file or info.key, key=info.key, cc_by=info.cc_by,
        questions=tuple(questions),
        rejected=tuple(r for _, r in rejected),
        candidates=n, counts=tuple(counts.items()), diagnostics=len(article.diagnostics),
    )


def _score(n: int, cand: Candidate, excerpt: str, ctx: FilterContext, selector: Selector) -> _Scored:
    """The findability and selector score of a candidate that passed the per-sentence filters, and its reason
    when one of them is below its threshold."""
    settings = ctx.settings
    value = findability(excerpt)  # the selector reads it from the row
    anchor = cand.anchor
    claim = ctx.components.classify(cand.sentence, citation=(anchor.start, anchor.end))  # is_claim's, again
    score = selector.score_record(_selector_row(cand, excerpt, value), claim=claim_input(claim))
    return _Scored(n, cand, excerpt, value, score, min_findability(value, settings) or min_score(score, settings))


def _natural_key(article: Article, label: str, key: str) -> str:
    """The id prefix of ``article`` read from the input named ``label``: its PMCID (``key``, from
    :func:`article_info`), else the input's file name (with the article's part, :func:`with_part`)."""
    if article.pmcid or label.startswith("<") or not Path(label).stem:
        return key
    return with_part(id_key(Path(label).stem), article)


def _bundle_keys(articles: Sequence[Article], label: str, key: str | None) -> list[str | None]:
    """The id prefix of each article of one file. One article: ``key`` (None: its own). Several (an
    ``<articles>`` file): ``key-a<n>`` when a new prefix is given (:class:`UniqueIds`), else each its own,
    except that an article whose prefix an earlier article of the file already has (two articles with the
    same PMCID) adds ``-a<n>``, ``n`` its place in the file (``-a<n>-a<n>``... while that is taken too), so
    the ids of a file are unique whoever builds it."""
    if len(articles) == 1:
        return [key]
    if key is not None:
        return [f"{key}-a{i}" for i in range(1, len(articles) + 1)]
    keys: list[str | None] = []
    taken: set[str] = set()
    for n, article in enumerate(articles, start=1):
        own = _natural_key(article, label, article_info(article).key)
        while own in taken:
            own = f"{own}-a{n}"
        taken.add(own)
        keys.append(own)
    return keys


def bundle_repeats(key: str | None) -> list[str]:
    """The id prefixes of the articles of an ``<articles>`` file (``key``: its row's prefixes, joined by
    spaces) that were renamed by :func:`_bundle_keys` because an earlier article has their PMCID."""
    renamed, seen = [], set()
    for one in (key or "").split(" "):
        if re.sub(r"-a\d+$", "", one) in seen:
            renamed.append(one)
        seen.add(one)
    return renamed


def _with_difficulty(article: Article, scored: list[_Scored], rejected: list[tuple[int, Record]]) -> list[Record]:
    """The records of the ``scored`` candidates, each made once with its ``bm25_rank_bibliography`` (one BM25
    index of the article's reference titles for all of them): the questions, in document order, returned; the
    rejected ones appended to ``rejected`` as ``(n, record)``."""
    if not scored:
        return []
    order = [item for item in scored if item.reason is None] + [item for item in scored if item.reason is not None]
    ranks = bibliography_ranks(article.references, [(_ref_id(item.cand), item.excerpt) for item in order])
    questions: list[Record] = []
    for item, rank in zip(order, ranks):
        record = _record(item.cand, item.excerpt, item.reason, item.findability, item.score, rank)
        if item.reason is None:
            questions.append(record)
        else:
            rejected.append((item.n, record))
    return questions


def build_article(source: Source | str | os.PathLike[str] | bytes, settings: BuildSettings | None = None,
                  *, components: Components | None = None, key: str | None = None) -> ArticleResult:
    """Read one article and build its questions; an unreadable file becomes ``ArticleResult.error``.

    A pure function of the file's bytes and the settings (picklable), so processes and Dask run it as is.
    An unexpected exception inside one article is that article's error row too (the message says it is
    a chemref bug), so one article never takes down a run of millions.
    """
    if not isinstance(source, Source):
        source = expand_inputs([source])[0]
    if source.skip is not None:
        return ArticleResult(source=source.label, key=None, cc_by=False, skipped=source.skip)
    if source.error is not None:
        return ArticleResult(source=source.label, key=None, cc_by=None, error=source.error, stopped=source.stops)
    try:
        if source.data is not None:
            data, name = source.data, source.label
        else:
            data, name = _article_bytes(str(source.path)), str(source.path)
        articles = read_articles(data, name=name)
        keys = _bundle_keys(articles, source.label, key)
        results = [article_questions(article, settings, components=components, label=source.label, key=k)
                   for article, k in zip(articles, keys)]
        result = results[0] if len(results) == 1 else _merge(results)
        if key is None and bundle_repeats(result.key):  # the file's own repeats (see duplicate_message)
            result = replace(result, duplicate_of=source.label)
        return replace(result, digest=hashlib.sha1(data).hexdigest())
    except ChemrefError as exc:
        return ArticleResult(source=source.label, key=None, cc_by=None, error=_labelled(str(exc), source))
    except UNEXPECTED as exc:
        return ArticleResult(source=source.label, key=None, cc_by=None,
                             error=_labelled(f"{source.label}: could not be built ({type(exc).__name__}: {exc}); "
                                             "this is a chemref bug, please report it with the file", source))


def _labelled(message: str, source: Source) -> str:
    """``message`` naming the article by its label (``source_file``), never by the path it was read from (a
    Dask worker reads an absolute path: the machine's folders must not reach the outputs)."""
    if source.path and source.path != source.label:
        message = message.replace(source.path, source.label)
    return message


def _merge(results: list[ArticleResult]) -> ArticleResult:
    """One file's row for the articles of an ``<articles>`` file: each article's records (with its own id
    prefix) in document order, the counts summed, the id prefixes joined by spaces."""
    counts: dict[str, int] = {}
    for result in results:
        for reason, n in result.counts:
            counts[reason] = counts.get(reason, 0) + n
    return ArticleResult(
        source=results[0].source, key=" ".join(r.key for r in results if r.key),
        cc_by=any(r.cc_by for r in results),
        questions=tuple(q for r in results for q in r.questions),
        rejected=tuple(q for r in results for q in r.rejected),
        candidates=sum(r.candidates for r in results), counts=tuple(counts.items()),
        diagnostics=sum(r.diagnostics for r in results))


def _article_bytes(path: str) -> bytes:
    """The bytes of an article file, with the reader's errors (missing, not a regular file, too large)."""
    try:
        return read_limited(path, error=JatsError)
    except InputError as exc:
        raise JatsError(exc.message, path=path, hint=exc.hint) from None


def _name(label: str) -> str:
    """The file name of an input's label (``corpus/PMC1.nxml``, ``pkg.tar.gz:dir/PMC1.nxml`` -> ``PMC1.nxml``)."""
    return label.rsplit(":", 1)[-1].rsplit("/", 1)[-1]


class UniqueIds:
    """Question ids unique in a build, whatever the inputs: articles are admitted in input order, and

    - the same article given twice (the same file name and the same bytes under the same id: a file listed
      twice, or inside a folder also given) is skipped the second time (``skipped="duplicate"``,
      ``duplicate_of`` naming the first), with a diagnostic;
    - a different article whose id prefix (PMCID, else file name) is already taken gets the first free
      ``<prefix>-2``, ``<prefix>-3``, ... (so the same inputs always get the same ids). An ``<articles>``
      file holds one prefix per article (its row's ``id_prefix``: them joined by spaces); when one of them
      is taken, the file's articles get ``<first prefix>-<n>-a1``, ``-a2``, ... (the first ``n`` from 2 that
      leaves them all free).

    Holds one entry per article (its id prefix, file name and SHA-1).
    """

    def __init__(self) -> None:
        self.taken: dict[str, tuple[str | None, str, str]] = {}  # id prefix -> (SHA-1, file name, label)

    def add_row(self, row: dict) -> None:
        """Count an article already built (an ``articles-*.jsonl`` row of a shard done before a resume)."""
        key, label = row.get("id_prefix"), str(row.get("source_file"))
        if isinstance(key, str) and row.get("skipped") is None:
            for one in key.split(" "):
                self.taken.setdefault(one, (row.get("sha1"), _name(label), label))

    def admit(self, result: ArticleResult) -> tuple[str, str, str] | None:
        """None when ``result`` keeps its ids; else ``("duplicate", first label, first label)`` or
        ``("rekey", new prefix, label of the article whose prefix it met)``."""
        key = result.key
        if key is None or result.error is not None or result.skipped is not None:
            return None
        keys = key.split(" ")
        entry = (result.digest, _name(result.source), result.source)
        clash = next((self.taken[one] for one in keys if one in self.taken), None)
        if clash is None:
            for one in keys:
                self.taken[one] = entry
            return None
        if clash[0] is not None and clash[:2] == entry[:2]:
            return "duplicate", clash[2], clash[2]

        def prefixes(fresh: str) -> list[str]:
            return [fresh] if len(keys) == 1 else [f"{fresh}-a{i}" for i in range(1, len(keys) + 1)]

        n = 2
        while any(one in self.taken for one in prefixes(f"{keys[0]}-{n}")):
            n += 1
        for one in prefixes(f"{keys[0]}-{n}"):
            self.taken[one] = entry
        return "rekey", f"{keys[0]}-{n}", clash[2]

    def resolve(self, result: ArticleResult, source: Source, settings: BuildSettings,
                components: Components | None = None) -> ArticleResult:
        """``result`` as :meth:`admit` decides: as it is, skipped as a duplicate, or built again with a new id
        prefix (in this process)."""
        decision = self.admit(result)
        if decision is None:
            return result
        kind, value, first = decision
        if kind == "duplicate":
            return ArticleResult(source=result.source, key=None, cc_by=result.cc_by, skipped="duplicate",
                                 digest=result.digest, duplicate_of=value)
        return replace(build_article(source, settings, components=components, key=value), duplicate_of=first)


def duplicate_message(result: ArticleResult) -> str | None:
    """The diagnostic of an article :class:`UniqueIds` skipped or gave another id, or of an ``<articles>``
    file whose articles repeat a PMCID (:func:`_bundle_keys`), else None."""
    if result.duplicate_of is None:
        return None
    if result.skipped == "duplicate":
        return f"{result.source}: the same article as {result.duplicate_of} (given twice); skipped"
    keys = (result.key or "").split(" ")
    ids = ", ".join(f"{key}-..." for key in keys[:5]) + (", ..." if len(keys) > 5 else "")
    if result.duplicate_of == result.source:
        renamed = bundle_repeats(result.key)
        shown = ", ".join(f"{key}-..." for key in renamed[:5]) + (", ..." if len(renamed) > 5 else "")
        return (f"{result.source}: {len(renamed)} article(s) of this file have the PMCID of an earlier one: each "
                f"is named by its place in the file, their questions have the ids {shown}")
    return f"{result.source}: shares its id with {result.duplicate_of}, a different article; its questions have the ids {ids}"


def warm_up() -> None:
    """Make the NLP components and the selector once, before a pool forks or in a fresh worker."""
    default_components()
    default_selector()


_warm_up = warm_up


class _BuildTask:
    """``build_article(source, settings)`` as a picklable callable for the process pool."""

    def __init__(self, settings: BuildSettings) -> None:
        self.settings = settings

    def __call__(self, source: Source) -> ArticleResult:
        return build_article(source, self.settings)


class _NumberedTask(_BuildTask):
    """``(n, build_article(source, settings))`` for ``(n, source)``."""

    def __call__(self, item: tuple[int, Source]) -> tuple[int, ArticleResult]:  # type: ignore[override]
        return item[0], build_article(item[1], self.settings)


def iter_build(inputs: Iterable[str | os.PathLike[str] | bytes | Source], settings: BuildSettings | None = None,
               *, workers: int = 1, components: Components | None = None,
               files_from: str | os.PathLike[str] | None = None) -> Iterator[ArticleResult]:
    """Yield one :class:`ArticleResult` per input article, in input order (``workers`` processes).

    Inputs are listed lazily (:func:`chemref.inputs.iter_sources`) and at most a few articles per worker
    are in flight, so memory does not grow with the number of articles.
    """
    settings = settings or BuildSettings()
    if workers < 1:
        raise InputError(f"workers must be at least 1, got {workers}")
    sources = iter_sources(inputs, files_from=files_from)
    ids = UniqueIds()
    if workers == 1:
        for source in sources:
            yield ids.resolve(build_article(source, settings, components=components), source, settings, components)
        return
    if components is not None:
        raise InputError("custom components run with workers=1 only")
    warm_up()
    held: dict[int, Source] = {}

    def numbered() -> Iterator[tuple[int, Source]]:
        for n, source in enumerate(sources):
            held[n] = source
            yield n, source

    for n, result in ordered_map(_NumberedTask(settings), numbered(), workers=workers, initializer=warm_up,
                                 chunk=ARTICLES_PER_TASK):
        yield ids.resolve(result, held.pop(n), settings)


def build(inputs: Sequence[str | os.PathLike[str] | bytes | Source] | str | os.PathLike[str], *,
          per_article: int = build_default("per_article"), min_chars: int = build_default("min_chars"),
          max_chars: int = build_default("max_chars"), seed: int = build_default("seed"),
          authors: str = build_default("authors"), min_findability: float | None = None,
          min_score: float | None = None, per_target: int = build_default("per_target"),
          answer_key: str = build_default("answer_key"), selector: str | None = None, workers: int = 1,
          components: Components | None = None) -> BuildResult:
    """Build questions from JATS files or folders; see :class:`BuildResult` for questions, rejections
    and the funnel. Same inputs and settings give the same result for any ``workers``."""
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    settings = BuildSettings(per_article=per_article, min_chars=min_chars, max_chars=max_chars, seed=seed,
                             authors=authors, min_findability=min_findability, min_score=min_score,
                             per_target=per_target, answer_key=answer_key, selector=selector)
    return BuildResult(settings, tuple(iter_build(inputs, settings, workers=workers, components=components)))
