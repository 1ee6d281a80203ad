"""The per-article funnel: candidate sentences, the filters in funnel order, the findability and selector
scores, the records they produce and the builder that runs them over articles (in this process or a pool).

Imports nothing of :mod:`chemref.questions.output`, :mod:`chemref.questions.labels` or
:mod:`chemref.questions.judge`: those sit on top of it.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports

_EXPORTS = {
    "build": "chemref.questions.funnel.builder",
    "iter_build": "chemref.questions.funnel.builder",
    "BuildSettings": "chemref.questions.funnel.settings",
    "build_default": "chemref.questions.funnel.settings",
    "Selector": "chemref.questions.funnel.selector",
    "default_selector": "chemref.questions.funnel.selector",
    "load_selector": "chemref.questions.funnel.selector",
    "train_selector": "chemref.questions.funnel.selector_training",
    "selector_evaluation": "chemref.questions.funnel.selector_record",
}

__all__ = [*_EXPORTS]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
