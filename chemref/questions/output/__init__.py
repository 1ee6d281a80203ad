"""What a build writes: the streaming, resumable writer of ``chemref questions build`` (shards, manifest and
journal, running totals), the funnel report and chart, the dataset card, and the Dask runner.

May import :mod:`chemref.questions.funnel`; never :mod:`chemref.questions.judge` nor
:mod:`chemref.questions.labels`, which sit on top of it.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports

_EXPORTS = {
    "build_to_files": "chemref.questions.output.writer",
    "build_dask": "chemref.questions.output.writer",
    "BuildOutputs": "chemref.questions.output.writer",
    "build_bag": "chemref.questions.output.cluster",
    "write_card": "chemref.questions.output.card",
    "caps_text": "chemref.questions.output.prose",
    "selector_text": "chemref.questions.output.prose",
}

__all__ = [*_EXPORTS]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
