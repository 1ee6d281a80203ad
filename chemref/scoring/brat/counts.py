"""Match counts: true positives, false positives and false negatives of one type (or a whole report).

:class:`Counts` replaces positional ``[tp, fp, fn]`` lists. It is mutable on purpose: scorers add one
document's counts into running totals (``totals.add(doc)``) thousands of times. ``tp, fp, fn = counts``
unpacks it; :meth:`Counts.prf` gives the report dict with precision, recall and F1.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from typing import Any, TypeVar

K = TypeVar("K")

__all__ = ["Counts", "BratevalCounts", "prf", "prf_block", "total", "add_counts"]


def prf(tp: int, fp: int, fn: int) -> dict[str, Any]:
    """Counts with precision, recall and F1 (0 where undefined)."""
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"tp": tp, "fp": fp, "fn": fn, "precision": p, "recall": r, "f1": f}


class Counts:
    """``tp``, ``fp`` and ``fn`` of one type, one document or one report."""

    __slots__ = ("tp", "fp", "fn")

    def __init__(self, tp: int = 0, fp: int = 0, fn: int = 0) -> None:
        self.tp, self.fp, self.fn = tp, fp, fn

    def add(self, other: "Counts") -> None:
        """Add ``other`` into these counts (in place)."""
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    def copy(self) -> "Counts":
        return Counts(self.tp, self.fp, self.fn)

    def __add__(self, other: "Counts") -> "Counts":
        out = self.copy()
        out.add(other)
        return out

    def __iter__(self) -> Iterator[int]:
        return iter((self.tp, self.fp, self.fn))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counts) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"{type(self).__name__}(tp={self.tp}, fp={self.fp}, fn={self.fn})"

    def prf(self) -> dict[str, Any]:
        """The report dict: counts, precision, recall and F1."""
        return prf(self.tp, self.fp, self.fn)


class BratevalCounts(Counts):
    """BRATEval's relation counts: also ``fpm`` / ``fnm``, false positives (negatives) with an argument that
    has no matching mention on the other side."""

    __slots__ = ("fpm", "fnm")

    def __init__(self, tp: int = 0, fp: int = 0, fn: int = 0, fpm: int = 0, fnm: int = 0) -> None:
        super().__init__(tp, fp, fn)
        self.fpm, self.fnm = fpm, fnm

    def add(self, other: Counts) -> None:
        super().add(other)
        if isinstance(other, BratevalCounts):
            self.fpm += other.fpm
            self.fnm += other.fnm

    def copy(self) -> "BratevalCounts":
        return BratevalCounts(self.tp, self.fp, self.fn, self.fpm, self.fnm)


def total(counts: Iterable[Counts]) -> Counts:
    """The sum of ``counts`` (a micro total)."""
    out = Counts()
    for c in counts:
        out.add(c)
    return out


def add_counts(totals: MutableMapping[K, Counts], rows: Mapping[K, Counts]) -> None:
    """Add each row of ``rows`` into ``totals`` under the same key (in place; a new key gets a copy)."""
    for key, row in rows.items():
        old = totals.get(key)
        if old is None:
            totals[key] = row.copy()
        else:
            old.add(row)


def prf_block(counts: Mapping[str, Counts]) -> dict[str, Any]:
    """``{"per_type": {type: prf}, "overall": prf}`` from ``type -> Counts`` (micro sum): one table of a report."""
    per_type = {t: counts[t].prf() for t in sorted(counts)}
    return {"per_type": per_type, "overall": total(counts.values()).prf()}
