"""Citation-prediction question building from JATS articles.

``build(inputs, ...) -> BuildResult`` is the entry point; ``build_dask`` / ``build_bag`` run the same
per-article function on Dask; ``build_to_files`` is what ``chemref questions build`` calls;
``chemref.questions.funnel.findability.findability(text)`` is the documented findability score.
"""

from __future__ import annotations

from typing import Any

from chemref.inputs import Source, expand_inputs
from chemref.questions.funnel.builder import article_questions, build, build_article, iter_build
from chemref.questions.funnel.candidates import CITATION_MARK, Candidate
from chemref.questions.funnel.filters import FILTERS, REASONS
from chemref.questions.funnel.records import QUESTION_FIELDS, ArticleResult, BuildResult, Record
from chemref.questions.funnel.settings import BuildSettings

__all__ = [
    "build", "build_article", "article_questions", "iter_build", "expand_inputs", "Source", "BuildSettings",
    "BuildResult", "ArticleResult", "Record", "Candidate", "QUESTION_FIELDS", "FILTERS", "REASONS",
    "CITATION_MARK", "build_bag", "build_dask", "build_to_files",
]


def __getattr__(name: str) -> Any:
    # Dask and the writers are imported only when used.
    if name == "build_bag":
        from chemref.questions.output.cluster import build_bag
        return build_bag
    if name in ("build_to_files", "build_dask"):
        from chemref.questions.output import writer
        return getattr(writer, name)
    raise AttributeError(f"module 'chemref.questions' has no attribute {name!r}")
