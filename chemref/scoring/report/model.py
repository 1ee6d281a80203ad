"""The one value every scorer returns: a frozen :class:`ScoreReport`.

A report holds what was computed and nothing about how it looks: its headline figure (``primary``, the
``headline_value``), the headline ``metrics``, one :class:`Table` of rows with column headers (what CSV writes
and Markdown draws), its metadata (``meta``) and the JSON document it prints as, which is also what
``report["..."]`` reads. :mod:`chemref.scoring.report.formats` turns any report into text, Markdown,
CSV or JSON (as seqeval's ``classification_report`` formats the values its scorer returns).

The constructors name the scorers' shapes: :meth:`ScoreReport.from_brat` (``score brat``, ChEMU 2021 and
BRATEval modes), :meth:`ScoreReport.from_metrics` (citation prediction, citation recommendation, PubMedQA)
and :meth:`ScoreReport.from_leaderboard` (several systems on one gold); ``questions evaluate`` builds its report
(layout ``evaluation``) in ``chemref.questions.labels.evaluate``, since this package knows nothing of questions.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import InitVar, dataclass, field
from typing import Any

from chemref._version import __version__
from chemref.scoring.report.formats import error_body, to_csv, to_json, to_markdown, to_text

__all__ = ["ScoreReport", "Table", "LAYOUTS", "brat_sections"]

#: how a report is laid out as text and Markdown (``ScoreReport.layout``)
LAYOUTS = ("chemu", "brateval", "metrics", "leaderboard", "evaluation")

#: the count and P/R/F1 columns of a BRAT report's rows
NUMBER_KEYS = ("tp", "fp", "fn", "precision", "recall", "f1")
#: the interval columns of a BRAT report's rows (present when the report has intervals)
CI_KEYS = ("precision_low", "precision_high", "recall_low", "recall_high", "f1_low", "f1_high")
_METRICS = ("precision", "recall", "f1")


@dataclass(frozen=True)
class Table:
    """Rows with column headers: ``rows`` are flat dicts keyed by ``columns`` (a missing key is an empty cell);
    ``numeric`` names the columns that hold numbers (right-aligned in Markdown)."""

    columns: tuple[str, ...]
    rows: tuple[Mapping[str, Any], ...]
    numeric: frozenset[str] = frozenset()


class _ReadOnlyDict(dict):
    """A ``dict`` whose content cannot change after construction (``json.dump`` and ``isinstance(x, dict)``
    still work)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"a {type(self).__name__} is read-only (use .to_dict() for a copy to change)")

    __setitem__ = __delitem__ = __ior__ = _refuse  # type: ignore[assignment]
    update = pop = popitem = clear = setdefault = _refuse  # type: ignore[assignment]


@dataclass(frozen=True, eq=False, repr=False)
class ScoreReport(_ReadOnlyDict):
    """A score report: a read-only mapping over its JSON document, with the headline, the rows and the
    metadata as attributes.

    ``layout``: which of :data:`LAYOUTS` the text and Markdown use; ``primary``: the headline figure's name
    (``headline_value`` its value, also ``primary_value()``); ``metrics``: the headline metrics (for a
    leaderboard, the best system's); ``table``: the rows with column headers; ``meta``: the metadata (version,
    averaging, intervals ...); ``diagnostics``: every oddity met (a BRAT report's ``warnings``).
    ``systems`` (leaderboards) are the ranked :class:`~chemref.scoring.leaderboard.SystemRow` values;
    ``doc_counts`` and ``details`` (``score_brat(..., doc_counts=True)`` / ``details=True``) are kept for the
    leaderboard and the error page and are not part of the JSON.
    """

    layout: str
    title: str
    primary: str
    headline_value: float | None
    metrics: Mapping[str, float]
    table: Table
    meta: Mapping[str, Any]
    document: InitVar[Mapping[str, Any]]
    diagnostics: tuple[str, ...] = ()
    systems: tuple[Any, ...] = ()
    doc_counts: tuple[dict[tuple[str, str], tuple[int, int, int]], ...] | None = None
    details: Mapping[str, Any] | None = field(default=None)

    def __post_init__(self, document: Mapping[str, Any]) -> None:
        if self.layout not in LAYOUTS:
            raise ValueError(f"unknown report layout {self.layout!r} (one of {', '.join(LAYOUTS)})")
        dict.update(self, document)

    def __reduce__(self) -> Any:
        fields = {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "document"}
        return (_rebuild, (fields, dict(self)))

    def __repr__(self) -> str:
        return f"ScoreReport(layout={self.layout!r}, title={self.title!r}, primary={self.primary!r})"

    def __str__(self) -> str:
        return self.to_text()

    # -- the JSON document and the formats
    def to_dict(self) -> dict[str, Any]:
        """The JSON document as a plain (shallow-copied) dict."""
        return dict(self)

    def to_json(self, indent: int | None = 2) -> str:
        return to_json(self, indent=indent)

    def to_text(self) -> str:
        return to_text(self)

    def to_markdown(self) -> str:
        return to_markdown(self)

    def to_csv(self) -> str:
        return to_csv(self)

    # -- the older spellings of the rows, the headline and the BRAT tables
    def columns(self) -> list[str]:
        """The table's column headers (``report.table.columns``)."""
        return list(self.table.columns)

    def rows(self) -> list[dict[str, Any]]:
        """The table's rows (``report.table.rows``)."""
        return [dict(row) for row in self.table.rows]

    def primary_value(self) -> float | None:
        """The value of the headline figure (``report.headline_value``)."""
        return self.headline_value

    def sections(self) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
        """BRAT reports: ``(label, per_type, overall)`` for every table, in print order (none for the others)."""
        return brat_sections(self) if self.layout in ("chemu", "brateval") else iter(())

    @property
    def ci_level(self) -> float | None:
        """The confidence level of the report's intervals, or None without intervals."""
        ci = self.meta.get("ci")
        return None if not ci else ci["level"]

    @property
    def best(self) -> Any:
        """Leaderboards: the best system's row."""
        return self.systems[0]

    # -- constructors: one per scorer shape
    @classmethod
    def from_brat(cls, data: dict[str, Any], *, doc_counts: Sequence[dict] | None = None,
                  details: Mapping[str, Any] | None = None) -> "ScoreReport":
        """A ``score brat`` report from its JSON document (``meta``, ``mode``, the tables, ``warnings`` ...):
        ``meta["primary_value"]`` is put right after ``meta["primary"]``."""
        meta = data.get("meta")
        primary = str((meta or {}).get("primary", ""))
        overall = _primary_overall(data, primary)
        value = None if overall is None else overall.get("f1")
        if isinstance(meta, dict) and "primary" in meta and "primary_value" not in meta:
            items = list(meta.items())  # the value goes right after the primary figure's name
            at = [k for k, _ in items].index("primary") + 1
            meta = dict(items[:at] + [("primary_value", value)] + items[at:])
            data = {**data, "meta": meta}
        metrics = {} if overall is None else {m: overall[m] for m in _METRICS if m in overall}
        return cls(layout=data.get("mode", "chemu"), title=data.get("title", "scores"), primary=primary,
                   headline_value=value, metrics=metrics, table=_brat_table(data), meta=meta or {},
                   document=data, diagnostics=tuple(data.get("warnings", ())),
                   doc_counts=None if doc_counts is None else tuple(doc_counts), details=details)

    @classmethod
    def from_metrics(cls, *, task: str, metrics: dict[str, float], n: int, definition: str, averaging: str,
                     k: Sequence[int] = (), counts: Mapping[str, int] | None = None,
                     breakdowns: Mapping[str, dict[Any, dict[str, Any]]] | None = None,
                     details: Mapping[str, Any] | None = None, diagnostics: Sequence[str] = (),
                     intervals: Mapping[str, list[float]] | None = None, resampling: Any = None,
                     unit: str = "item") -> "ScoreReport":
        """A benchmark scorer's report: headline ``metrics`` (fractions in [0, 1]) over ``n`` items, what they
        mean (``definition``) and how they were averaged; ``counts`` of items scored, missing or skipped;
        ``breakdowns`` ``{field: {value: {"n", metric: mean}}}``; ``details`` (more JSON keys: per-item values,
        per-class scores); with ``intervals`` (metric -> ``[low, high]``), the ``resampling`` settings and the
        ``unit`` resampled."""
        document: dict[str, Any] = dict(metrics)
        document.update({"n": n, "task": task, "metric": list(metrics), "definition": definition, "k": list(k),
                         "averaging": averaging, "chemref_version": __version__, "counts": dict(counts or {})})
        document.update(details or {})
        meta: dict[str, Any] = {"chemref_version": __version__, "task": task, "definition": definition,
                                "averaging": averaging, "k": list(k), "n": n}
        if intervals:
            document["ci"] = {name: list(bounds) for name, bounds in intervals.items()}
            document["resampling"] = {**resampling.to_dict(), "unit": unit,
                                      "description": resampling.describe(unit, n)}
            meta["ci"] = document["resampling"]
        document["breakdowns"] = dict(breakdowns or {})
        document["diagnostics"] = list(diagnostics)
        first = next(iter(metrics), "")
        return cls(layout="metrics", title=task, primary=first, headline_value=metrics.get(first),
                   metrics=dict(metrics), table=_metrics_table(document), meta=meta, document=document,
                   diagnostics=tuple(diagnostics))

    @classmethod
    def from_leaderboard(cls, *, title: str, primary: str, metrics: Sequence[str], systems: Sequence[Any],
                         meta: Mapping[str, Any], diagnostics: Sequence[str] = ()) -> "ScoreReport":
        """Systems ranked by ``primary``, best first (:class:`~chemref.scoring.leaderboard.SystemRow` values)."""
        document = {"meta": dict(meta), "title": title, "primary": primary, "metrics": list(metrics),
                    "systems": [s.to_dict() for s in systems], "diagnostics": list(diagnostics)}
        best = systems[0].metrics if systems else {}
        return cls(layout="leaderboard", title=title, primary=primary, headline_value=best.get(primary),
                   metrics=dict(best), table=_leaderboard_table(metrics, systems), meta=dict(meta),
                   document=document, diagnostics=tuple(diagnostics), systems=tuple(systems))


def _rebuild(fields: dict[str, Any], document: dict[str, Any]) -> ScoreReport:
    return ScoreReport(document=document, **fields)


# --------------------------------------------------------------------------------------------- BRAT

def brat_sections(data: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """``(label, per_type, overall)`` for every table of a ``score brat`` document, in print order."""
    if data.get("mode") == "brateval":
        yield (data.get("label", "brateval"), data["per_type"], data["overall"])
        return
    for level in ("relations", "entities"):
        for match, sub in data.get(level, {}).items():
            if "per_type" in sub:
                yield (f"{level}/{match}", sub["per_type"], sub["overall"])
            else:
                for coref, leaf in sub.items():
                    yield (f"{level}/{match}/{coref}", leaf["per_type"], leaf["overall"])


def _primary_overall(data: Mapping[str, Any], primary: str) -> dict[str, Any] | None:
    """The overall row of the section the primary figure names (``"relations/exact/coref_expanded f1"``)."""
    name = primary.split(" ")[0]
    for label, _, overall in brat_sections(data):
        if label == name:
            return overall
    return None


def _brat_table(data: Mapping[str, Any]) -> Table:
    """One flat row per (section, type) plus an ``all`` row per section; per-document rows follow, then one row
    per FP/FN whose ``error`` column holds the mention text."""
    rows: list[dict[str, Any]] = []
    for label, per_type, overall in brat_sections(data):
        for t, c in list(per_type.items()) + [("all", overall)]:
            rows.append({"document": "", "report": label, "type": t, **_flat(c)})
    for doc, blocks in data.get("per_doc", {}).items():
        for label, c in blocks.items():
            rows.append({"document": doc, "report": label, "type": "all", **c})
    for e in data.get("errors") or ():
        rows.append({"document": e["document"], "report": e["report"], "type": e["type"],
                     "error": f"{e['kind']}: {error_body(e)}"})
    columns = ["document", "report", "type", *NUMBER_KEYS]
    if data.get("mode") == "brateval" and data.get("level") == "relations":
        columns += ["fpm", "fnm"]
    if (data.get("meta") or {}).get("ci") is not None:
        columns += CI_KEYS
    if data.get("errors"):
        columns.append("error")
    return Table(tuple(columns), tuple(rows), frozenset({*NUMBER_KEYS, *CI_KEYS, "fpm", "fnm"}))


def _flat(c: dict[str, Any]) -> dict[str, Any]:
    """A P/R/F1 dict with its interval (if any) as ``precision_low`` ... ``f1_high`` columns."""
    ci = c.get("ci")
    if ci is None:
        return c
    out = {k: v for k, v in c.items() if k != "ci"}
    for m in _METRICS:
        out[f"{m}_low"], out[f"{m}_high"] = ci[m]
    return out


# --------------------------------------------------------------------------------------------- benchmarks

def _metrics_table(document: Mapping[str, Any]) -> Table:
    """The headline metrics (with their interval), then every breakdown group: one row per (group, metric)."""
    names = document["metric"]
    intervals = document.get("ci", {})
    columns = ["table", "group", "metric", "value"] + (["low", "high"] if intervals else []) + ["n"]
    rows: list[dict[str, Any]] = []
    for name in names:
        row: dict[str, Any] = {"table": "overall", "group": "", "metric": name, "value": document[name],
                               "n": document["n"]}
        if name in intervals:
            row["low"], row["high"] = intervals[name]
        rows.append(row)
    for field_name, groups in document["breakdowns"].items():
        for value, stats in groups.items():
            for name in names:
                if name in stats:
                    rows.append({"table": field_name, "group": str(value), "metric": name, "value": stats[name],
                                 "n": stats.get("n")})
    numeric = frozenset(k for row in rows for k, v in row.items()
                        if isinstance(v, (int, float)) and not isinstance(v, bool))
    return Table(tuple(columns), tuple(rows), numeric)


# --------------------------------------------------------------------------------------------- leaderboards

def _leaderboard_table(metrics: Sequence[str], systems: Sequence[Any]) -> Table:
    """One row per system: rank, name, each metric with its interval, the difference to the best and p."""
    columns = ["rank", "system"]
    for name in metrics:
        columns += [name, f"{name}_low", f"{name}_high"]
    columns += ["difference_to_best", "p_value"]
    rows = []
    for s in systems:
        row: dict[str, Any] = {"rank": s.rank, "system": s.name}
        for name in metrics:
            row[name] = s.metrics[name]
            row[f"{name}_low"], row[f"{name}_high"] = s.intervals[name]
        row["difference_to_best"] = s.difference
        row["p_value"] = s.p_value
        rows.append(row)
    return Table(tuple(columns), tuple(rows), frozenset(columns) - {"system"})
