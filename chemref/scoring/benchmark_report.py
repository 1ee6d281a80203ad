"""The report the benchmark scorers return: a read-only mapping that prints as a table.

Every report names its metrics, K, the averaging and chemref's version, so a number copied
out of a terminal or a JSON file can always be traced back to what was computed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from chemref._version import __version__
from chemref.scoring.report_formats import TabularReport, format_interval

__all__ = ["MetricsReport", "breakdown", "group_sort_key"]

T = TypeVar("T")


def group_sort_key(value: Any) -> tuple[int, float, str]:
    """Order of breakdown groups: numeric values (years, lengths) by number first, then the rest by name."""
    try:
        return (0, float(value), str(value))
    except (TypeError, ValueError):
        return (1, 0.0, str(value))


def breakdown(rows: Iterable[tuple[T, Mapping[str, float]]], key: Callable[[T], Any],
              names: Sequence[str]) -> dict[Any, dict[str, Any]]:
    """Per-group means: rows ``(item, {metric: value})`` grouped by ``key(item)`` (None -> ``"(none)"``),
    each group ``{"n": size, metric: mean, ...}``, groups in :func:`group_sort_key` order."""
    groups: dict[Any, list[Mapping[str, float]]] = {}
    for item, values in rows:
        value = key(item)
        groups.setdefault("(none)" if value is None else value, []).append(values)
    return {
        value: {"n": len(group), **{name: sum(g[name] for g in group) / len(group) for name in names}}
        for value, group in sorted(groups.items(), key=lambda entry: group_sort_key(entry[0]))
    }


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def _clip(text: str, width: int = 60) -> str:
    """Shorten a long group name (a paper title) for the terminal table; JSON keeps it whole."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    cells = [header] + [[_fmt(v) for v in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = []
    for index, row in enumerate(cells):
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


@dataclass(frozen=True)
class MetricsReport(TabularReport, Mapping[str, Any]):
    """Result of one benchmark scorer.

    ``metrics`` holds the headline numbers (fractions in [0, 1]), which also appear as top-level
    keys of the mapping / JSON; ``counts`` says how many items were scored, missing or skipped;
    ``breakdowns`` maps a field name to ``{value: {"n": ..., metric: ...}}``; ``diagnostics``
    lists every oddity met (unknown ids, unparseable DOIs, skipped queries). ``intervals`` maps a metric
    to its bootstrap ``[low, high]`` and ``resampling`` says how they were computed (level, resamples, seed).
    """

    task: str
    metrics: dict[str, float]
    n: int
    definition: str
    averaging: str
    k: tuple[int, ...] = ()
    counts: dict[str, int] = field(default_factory=dict)
    breakdowns: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
    diagnostics: tuple[str, ...] = ()
    version: str = __version__
    intervals: dict[str, list[float]] = field(default_factory=dict)
    resampling: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: the metrics at top level, then what they mean and how they were averaged."""
        out: dict[str, Any] = dict(self.metrics)
        out.update({
            "n": self.n,
            "task": self.task,
            "metric": list(self.metrics),
            "definition": self.definition,
            "k": list(self.k),
            "averaging": self.averaging,
            "chemref_version": self.version,
            "counts": dict(self.counts),
        })
        out.update(self.details)
        if self.intervals:
            out["ci"] = {name: list(bounds) for name, bounds in self.intervals.items()}
            out["resampling"] = dict(self.resampling)
        out["breakdowns"] = self.breakdowns
        out["diagnostics"] = list(self.diagnostics)
        return out

    def with_intervals(self, intervals: dict[str, list[float]], resampling: Any, unit: str) -> "MetricsReport":
        """A copy with bootstrap ``intervals`` per metric (``resampling``: the settings, ``unit``: what was resampled)."""
        from dataclasses import replace

        return replace(self, intervals=dict(intervals),
                       resampling={**resampling.to_dict(), "unit": unit,
                                   "description": resampling.describe(unit, self.n)})

    # -- flat rows for CSV / Markdown: the headline metrics, then every breakdown group
    def columns(self) -> list[str]:
        cols = ["table", "group", "metric", "value"]
        if self.intervals:
            cols += ["low", "high"]
        return cols + ["n"]

    def rows(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for name, value in self.metrics.items():
            row: dict[str, Any] = {"table": "overall", "group": "", "metric": name, "value": value, "n": self.n}
            if name in self.intervals:
                row["low"], row["high"] = self.intervals[name]
            out.append(row)
        for field_name, groups in self.breakdowns.items():
            for value, stats in groups.items():
                for name in self.metrics:
                    if name in stats:
                        out.append({"table": field_name, "group": str(value), "metric": name, "value": stats[name],
                                    "n": stats.get("n")})
        return out

    def to_text(self) -> str:
        return self.to_table()

    def to_json(self, *, indent: int | None = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    # Mapping protocol over the JSON shape, so ``report["accuracy"]`` and ``dict(report)`` work.
    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())

    def to_table(self) -> str:
        """Human-readable table: header line, headline metrics, counts, breakdowns, diagnostics."""
        lines = [f"chemref {self.version} · {self.task}",
                 f"metric: {self.definition}",
                 f"averaging: {self.averaging}"]
        # every report names K, also where there is no cut-off (PubMedQA scores one label per item)
        cut_offs = ", ".join(str(k) for k in self.k) if self.k else "none (no cut-off: one answer per item)"
        lines.append("K: " + cut_offs)
        if self.intervals:
            lines.append(f"intervals: {self.resampling['description']}")
        lines.append("")
        if self.intervals:
            head = f"{self.resampling['level']:.0%} CI"
            lines += _table(["metric", "value", head], [[name, value, format_interval(self.intervals[name])
                                                         if name in self.intervals else ""]
                                                        for name, value in self.metrics.items()])
        else:
            lines += _table(["metric", "value"], [[name, value] for name, value in self.metrics.items()])
        lines += ["", *_table(["count", "n"], [["scored", self.n], *[[k, v] for k, v in self.counts.items()]])]
        per_class = self.details.get("per_class")
        if per_class:
            names = list(next(iter(per_class.values())))
            lines += ["", *_table(["class", *names], [[c, *vals.values()] for c, vals in per_class.items()])]
        for name, groups in self.breakdowns.items():
            if not groups:
                continue
            columns = ["n", *[m for m in self.metrics if m in next(iter(groups.values()))]]
            rows = [[_clip(value), *[stats.get(c, "") for c in columns]] for value, stats in groups.items()]
            lines += ["", f"by {name}", *_table([name, *columns], rows)]
        if self.diagnostics:
            lines += ["", "diagnostics:", *[f"  - {d}" for d in self.diagnostics]]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_table()
