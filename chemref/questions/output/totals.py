"""The running totals of a build: what the funnel table, report, chart and dataset card are made from.

Added to one article at a time (:meth:`BuildTotals.add`) and merged shard by shard
(:meth:`BuildTotals.merge`), they hold counts plus bounded samples (the first sources and errors), so a
build of millions of articles keeps them in a few kilobytes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from chemref.questions.funnel.difficulty import RANK_BUCKETS, rank_bucket
from chemref.questions.funnel.filters import REASONS
from chemref.questions.funnel.records import ArticleResult

__all__ = ["BuildTotals", "MAX_SOURCES", "MAX_ERRORS", "MAX_LICENCES"]

#: rows kept for the card's table of sources (the data files hold every source)
MAX_SOURCES = 200
#: unreadable files kept by name (the per-article rows hold every one)
MAX_ERRORS = 100
#: distinct licence texts kept (more than this makes the card say "per source article")
MAX_LICENCES = 50


def _ranks() -> dict[str, int]:
    return {**{name: 0 for name, _, _ in RANK_BUCKETS}, "none": 0}


def _funnel() -> dict[str, int]:
    return {reason: 0 for reason in REASONS}


@dataclass
class BuildTotals:
    """Counts over the articles added so far (JSON round trip: :meth:`to_dict` / :meth:`from_dict`)."""

    articles: int = 0
    read: int = 0
    unreadable: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    with_questions: int = 0
    candidates: int = 0
    questions: int = 0
    rejected: int = 0
    funnel: dict[str, int] = field(default_factory=_funnel)
    #: distinct ``source_license`` values of the questions (at most MAX_LICENCES; ``licences_over`` if more)
    licences: list[str] = field(default_factory=list)
    licences_over: bool = False
    #: ``[source (PMCID or file), source DOI, licence, questions]`` of the first articles with questions
    sources: list[list[Any]] = field(default_factory=list)
    #: ``[source, message]`` of the first unreadable inputs
    errors: list[list[str]] = field(default_factory=list)
    #: messages of inputs that stopped part-way (a damaged package): the build is complete but not whole
    stopped: list[str] = field(default_factory=list)
    #: questions per bucket of ``bm25_rank_bibliography`` (:data:`~chemref.questions.funnel.difficulty.RANK_BUCKETS`)
    bibliography_ranks: dict[str, int] = field(default_factory=_ranks)

    def add(self, article: ArticleResult, *, rejected: int | None = None) -> None:
        """Count one article's result (``rejected``: its count of rejected records, when they were dropped
        from ``article`` after being written)."""
        self.articles += 1
        if article.skipped is not None:
            self.skipped[article.skipped] = self.skipped.get(article.skipped, 0) + 1
        elif article.error is not None:
            self.unreadable += 1
            if article.stopped:
                self.stopped.append(article.error)
            if len(self.errors) < MAX_ERRORS:
                self.errors.append([article.source, article.error])
        else:
            self.read += 1
        self.candidates += article.candidates
        self.questions += len(article.questions)
        self.rejected += len(article.rejected) if rejected is None else rejected
        for reason, n in article.counts:
            self.funnel[reason] = self.funnel.get(reason, 0) + n
        if article.questions:
            self.with_questions += 1
            q = article.questions[0]
            if len(self.sources) < MAX_SOURCES:
                self.sources.append([q.source_pmcid or q.source_file, q.source_doi, q.source_license,
                                     len(article.questions)])
            for record in article.questions:
                self._licence(record.source_license or "")
                bucket = rank_bucket(record.bm25_rank_bibliography)
                self.bibliography_ranks[bucket] = self.bibliography_ranks.get(bucket, 0) + 1

    def _licence(self, text: str) -> None:
        if text not in self.licences:
            if len(self.licences) < MAX_LICENCES:
                self.licences.append(text)
            else:
                self.licences_over = True

    def merge(self, other: "BuildTotals") -> None:
        """Add the totals of the articles that come after these (samples stay in input order)."""
        self.articles += other.articles
        self.read += other.read
        self.unreadable += other.unreadable
        for reason, n in other.skipped.items():
            self.skipped[reason] = self.skipped.get(reason, 0) + n
        self.with_questions += other.with_questions
        self.candidates += other.candidates
        self.questions += other.questions
        self.rejected += other.rejected
        for reason, n in other.funnel.items():
            self.funnel[reason] = self.funnel.get(reason, 0) + n
        for text in other.licences:
            self._licence(text)
        self.licences_over = self.licences_over or other.licences_over
        self.sources.extend(other.sources[: MAX_SOURCES - len(self.sources)])
        self.errors.extend(other.errors[: MAX_ERRORS - len(self.errors)])
        self.stopped.extend(other.stopped)
        for bucket, n in other.bibliography_ranks.items():
            self.bibliography_ranks[bucket] = self.bibliography_ranks.get(bucket, 0) + n

    @classmethod
    def of(cls, articles: Iterable[ArticleResult]) -> "BuildTotals":
        """The totals of ``articles`` (``BuildResult.articles``: what the report, chart and card of an
        in-memory build are made from)."""
        totals = cls()
        for article in articles:
            totals.add(article)
        return totals

    @property
    def survival_rate(self) -> float:
        """Questions per candidate sentence (0 when there are no candidates)."""
        return self.questions / self.candidates if self.candidates else 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "BuildTotals":
        return cls(**data)
