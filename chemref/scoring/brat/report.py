"""What every ``score brat`` report holds beside its counts, for both modes (ChEMU 2021 and BRATEval): the
``meta`` object it starts with and the bootstrap intervals put into its P/R/F1 figures."""

from __future__ import annotations

from typing import Any

from chemref._version import __version__
from chemref.scoring.report.model import brat_sections
from chemref.scoring.stats.bootstrap import micro_intervals
from chemref.scoring.stats.resampling import Resampling

__all__ = ["add_intervals", "report_meta"]


def add_intervals(data: dict[str, Any], rows: list[dict[tuple[str, str], tuple[int, int, int]]],
                  resampling: Resampling) -> None:
    """Put a bootstrap interval (``"ci": {"precision": [lo, hi], ...}``) into every P/R/F1 of a report's
    document, from per-document counts ``rows`` (one ``{(report label, type or "all"): (tp, fp, fn)}`` per
    document)."""
    intervals = micro_intervals(rows, resampling)
    zero = {m: [0.0, 0.0] for m in ("precision", "recall", "f1")}
    for label, per_type, overall in brat_sections(data):
        for t, c in list(per_type.items()) + [("all", overall)]:
            c["ci"] = intervals.get((label, t), zero)


def report_meta(mode: str, primary: str, documents: int, matching: str, resampling: Resampling | None,
                why: str) -> dict[str, Any]:
    """The ``meta`` object every ``score brat`` report starts with (and its text headline shows)."""
    meta: dict[str, Any] = {"chemref_version": __version__, "mode": mode, "primary": primary,
                            "primary_why": why, "averaging": "micro (counts summed over documents, then P/R/F1)",
                            "documents": documents, "matching": matching}
    if resampling is not None:
        meta["ci"] = {**resampling.to_dict(), "unit": "document",
                      "description": resampling.describe("document", documents)}
    return meta
