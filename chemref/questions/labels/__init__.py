"""Labels in the format of the labelling guide, and how good a build is measured against them.

The top of ``questions``: may import :mod:`chemref.questions.funnel`, :mod:`chemref.questions.output` and
:mod:`chemref.questions.judge` (to read a judged build).
"""

from __future__ import annotations

from chemref._lazy import lazy_exports

_EXPORTS = {
    "read_scores": "chemref.questions.labels.evaluate",
    "Evaluation": "chemref.questions.labels.evaluation",
    "Label": "chemref.questions.labels.label",
    "read_labels": "chemref.questions.labels.label",
    "record_selector_evaluation": "chemref.questions.labels.record",
}

__all__ = [*_EXPORTS]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
