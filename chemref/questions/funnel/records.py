"""Question and rejection records (the JSONL rows) and the per-article / whole-build results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chemref.questions.funnel.difficulty import DIFFICULTY_FIELDS
from chemref.questions.funnel.filters import REASONS
from chemref.questions.funnel.settings import BuildSettings

__all__ = ["QUESTION_FIELDS", "Record", "ArticleResult", "BuildResult"]

#: The fields of a question, in output order; a rejected record adds ``reason``.
QUESTION_FIELDS = (
    "id", "excerpt", "sentence", "citation_start", "citation_end", "citation_text", "target_doi",
    "target_pmid", "target_title", "target_authors", "target_year", "target_container", "target_type", "source_file", "source_pmcid",
    "source_doi", "source_license", "ref_id", "section", "findability", "score", *DIFFICULTY_FIELDS,
)


@dataclass(frozen=True, slots=True)
class Record:
    """One candidate sentence as written out: a question (``reason`` None) or a rejection.

    ``excerpt == sentence[:citation_start] + "[CITATION]" + sentence[citation_end:]`` unless
    ``--authors mask`` replaced author names in the excerpt (the offsets always refer to ``sentence``).
    For a rejected sentence with several citations the citation fields describe the first one and
    ``ref_id`` lists every cited id separated by spaces. ``score`` is the question selector's estimate
    that the excerpt identifies its cited work (see :mod:`chemref.questions.funnel.selector`), ``findability``
    the older hand-weighted score; both are None for sentences rejected before they are computed, and so is
    the difficulty profile (``bm25_rank_bibliography``, ``bm25_rank_corpus``: see
    :mod:`chemref.questions.funnel.difficulty`).
    """

    id: str
    excerpt: str
    sentence: str
    citation_start: int
    citation_end: int
    citation_text: str
    target_doi: str | None
    target_pmid: str | None
    target_title: str | None
    target_authors: tuple[str, ...] | None
    target_year: int | None
    target_container: str | None
    target_type: str | None
    source_file: str | None
    source_pmcid: str | None
    source_doi: str | None
    source_license: str | None
    ref_id: str | None
    section: str
    findability: float | None
    score: float | None = None
    bm25_rank_bibliography: int | None = None
    bm25_rank_corpus: int | None = None
    reason: str | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # A plain constructor call pickles faster than the dataclass slots state (results cross processes).
        return (Record, tuple(getattr(self, name) for name in _RECORD_FIELDS))

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the record (``reason`` only on rejections)."""
        row = {name: getattr(self, name) for name in QUESTION_FIELDS}
        if row["target_authors"] is not None:
            row["target_authors"] = list(row["target_authors"])
        if self.reason is not None:
            row["reason"] = self.reason
        return row


_RECORD_FIELDS = (*QUESTION_FIELDS, "reason")


@dataclass(frozen=True, slots=True)
class ArticleResult:
    """What one article task returns: its questions and rejections in document order, the count of
    candidates per first failing filter, and the read error when the file could not be used."""

    source: str
    key: str | None
    cc_by: bool | None
    questions: tuple[Record, ...] = ()
    rejected: tuple[Record, ...] = ()
    candidates: int = 0
    counts: tuple[tuple[str, int], ...] = ()  # (reason, n) in funnel order, zeros included
    diagnostics: int = 0  # the reader's recoverable diagnostics for this file
    error: str | None = None
    #: the funnel step that rejected the whole article before it was read ("cc_by" from a package file list)
    skipped: str | None = None
    #: the input stopped at this point (a damaged or truncated package): ``error`` says where
    stopped: bool = False
    #: SHA-1 of the article's bytes (what tells the same article given twice from two sharing an id)
    digest: str | None = None
    #: the label of the article this one repeats (``skipped == "duplicate"``), or whose id it shared
    #: (given another id)
    duplicate_of: str | None = None

    def row(self) -> dict[str, Any]:
        """The article's funnel row (the report's ``per_article`` entry, one ``articles-*.jsonl`` line)."""
        row = {"source_file": self.source, "id_prefix": self.key, "cc_by": self.cc_by,
               "candidates": self.candidates, "questions": len(self.questions),
               "rejected": {r: n for r, n in self.counts if n}, "reader_diagnostics": self.diagnostics,
               "error": self.error}
        if self.skipped is not None:
            row["skipped"] = self.skipped
        if self.digest is not None:
            row["sha1"] = self.digest
        if self.duplicate_of is not None:
            row["duplicate_of"] = self.duplicate_of
        return row

    @property
    def reasons(self) -> dict[str, int]:
        """Rejections per reason for this article."""
        return dict(self.counts)


@dataclass(frozen=True)
class BuildResult:
    """The result of a whole build: one :class:`ArticleResult` per input, in input order."""

    settings: BuildSettings
    articles: tuple[ArticleResult, ...] = field(default=())

    @property
    def questions(self) -> list[Record]:
        """Every question, in input order then document order."""
        return [q for a in self.articles for q in a.questions]

    @property
    def rejected(self) -> list[Record]:
        """Every rejected candidate with its ``reason``, in input order then document order."""
        return [r for a in self.articles for r in a.rejected]

    @property
    def errors(self) -> list[tuple[str, str]]:
        """``(source, message)`` for each input that could not be read."""
        return [(a.source, a.error) for a in self.articles if a.error is not None]

    @property
    def candidates(self) -> int:
        """Candidate sentences (body sentences with at least one citation anchor) over all articles."""
        return sum(a.candidates for a in self.articles)

    @property
    def funnel(self) -> dict[str, int]:
        """Rejections per first failing filter over all articles, in funnel order."""
        totals = {reason: 0 for reason in REASONS}
        for article in self.articles:
            for reason, n in article.counts:
                totals[reason] = totals.get(reason, 0) + n
        return totals

    @property
    def survival_rate(self) -> float:
        """Questions per candidate sentence (0 when there are no candidates)."""
        return len(self.questions) / self.candidates if self.candidates else 0.0
