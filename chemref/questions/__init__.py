"""Citation-prediction question building from JATS articles.

``build(inputs, ...) -> BuildResult`` is the entry point; ``build_dask`` / ``build_bag`` run the same
per-article function on Dask; ``build_to_files`` is what ``chemref questions build`` calls;
``chemref.questions.funnel.findability.findability(text)`` is the documented findability score.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports

# every name is imported on first use, so importing one part (the settings, say) stays cheap
_EXPORTS = {
    "build": "chemref.questions.funnel.builder",
    "build_article": "chemref.questions.funnel.builder",
    "article_questions": "chemref.questions.funnel.builder",
    "iter_build": "chemref.questions.funnel.builder",
    "expand_inputs": "chemref.inputs",
    "Source": "chemref.inputs",
    "BuildSettings": "chemref.questions.funnel.settings",
    "BuildResult": "chemref.questions.funnel.records",
    "ArticleResult": "chemref.questions.funnel.records",
    "Record": "chemref.questions.funnel.records",
    "Candidate": "chemref.questions.funnel.candidates",
    "QUESTION_FIELDS": "chemref.questions.funnel.records",
    "FILTERS": "chemref.questions.funnel.filters",
    "REASONS": "chemref.questions.funnel.filters",
    "CITATION_MARK": "chemref.questions.funnel.candidates",
    "build_bag": "chemref.questions.output.cluster",
    "build_dask": "chemref.questions.output.writer",
    "build_to_files": "chemref.questions.output.writer",
}

__all__ = [*_EXPORTS]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
