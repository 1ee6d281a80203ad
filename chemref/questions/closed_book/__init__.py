"""A closed-book test after the judge (or the selector): can a model name the cited work from the excerpt alone?

CiteME's rule: a question whose cited work a model names from memory, with no search, measures recall, not
finding, and is dropped. :mod:`~chemref.questions.closed_book.prepare` writes ``K`` requests per question in the
judge's Batch format (the prompt ``closed-book-v1`` shows only the excerpt); the judge's runner sends them
(:mod:`chemref.questions.judge.client`: one batch client for both stages);
:mod:`~chemref.questions.closed_book.answers` reads the answers strictly and
:mod:`~chemref.questions.closed_book.apply` matches them to the cited work with the scorer's matcher
(:func:`chemref.scoring.benchmarks.citation_prediction.answer_hit`), drops what was recalled and applies the caps again.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports

__all__ = ["CAP_REASONS", "DEFAULT_SAMPLES", "DEFAULT_TEMPERATURE", "closed_book_candidates", "prepare_requests",
           "reaches_closed_book", "sample_id", "split_sample_id", "write_requests", "Recollection",
           "read_recollections", "apply_closed_book", "apply_to_files", "ClosedBookSummary"]

__getattr__, __dir__ = lazy_exports(__name__, {
    **{name: "chemref.questions.closed_book.prepare" for name in (
        "CAP_REASONS", "closed_book_candidates", "prepare_requests", "reaches_closed_book", "sample_id",
        "split_sample_id", "write_requests")},
    **{name: "chemref.questions.closed_book.defaults" for name in ("DEFAULT_SAMPLES", "DEFAULT_TEMPERATURE")},
    "Recollection": "chemref.questions.closed_book.answers",
    "read_recollections": "chemref.questions.closed_book.answers",
    "apply_closed_book": "chemref.questions.closed_book.apply",
    "apply_to_files": "chemref.questions.closed_book.apply",
    "ClosedBookSummary": "chemref.questions.closed_book.apply",
})
