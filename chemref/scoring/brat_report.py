"""Score reports: a plain ``dict`` (JSON-ready) that also prints as a table and exports CSV / Markdown."""

from __future__ import annotations

import json
from typing import Any, Iterator

from chemref.errors import printable
from chemref.scoring.counts import Counts, total
from chemref.scoring.report_formats import TabularReport, _cell, format4, format_interval, md_cell

NUMBER_KEYS = ("tp", "fp", "fn", "precision", "recall", "f1")
#: the interval columns of CSV / Markdown rows (present when the report has intervals)
CI_KEYS = ("precision_low", "precision_high", "recall_low", "recall_high", "f1_low", "f1_high")
_METRICS = ("precision", "recall", "f1")

def block(counts: dict[str, Counts]) -> dict[str, Any]:
    """``{"per_type": {type: prf}, "overall": prf}`` from ``type -> Counts`` (micro sum)."""
    per_type = {t: counts[t].prf() for t in sorted(counts)}
    return {"per_type": per_type, "overall": total(counts.values()).prf()}


class Report(TabularReport, dict):
    """A score report. It *is* the JSON-ready dict; ``str(report)`` is a readable table.

    ``sections()`` yields ``(label, per_type, overall)`` for every table in the report, which is what
    the CSV and Markdown exports flatten.
    """

    def __init__(self, data: dict[str, Any], *, text: str | None = None) -> None:
        super().__init__(data)
        self._text = text
        meta = self.get("meta")
        if isinstance(meta, dict) and "primary" in meta and "primary_value" not in meta:
            items = list(meta.items())  # the value goes right after the primary figure's name
            at = [k for k, _ in items].index("primary") + 1
            self["meta"] = dict(items[:at] + [("primary_value", self.primary_value())] + items[at:])
        #: per-document counts ``{(report, type): (tp, fp, fn)}`` when the scorer was asked to keep them
        self.doc_counts: list[dict[tuple[str, str], tuple[int, int, int]]] | None = None
        #: per-document counts, FP/FN records and their warnings when the scorer was asked for ``details``
        self.details: dict[str, Any] | None = None

    def add_intervals(self, rows: list[dict[tuple[str, str], tuple[int, int, int]]], resampling: Any) -> None:
        """Put a bootstrap interval (``"ci": {"precision": [lo, hi], ...}``) into every P/R/F1 of the report,
        from per-document counts ``rows`` (one ``{(report label, type or "all"): (tp, fp, fn)}`` per document)."""
        from chemref.scoring.statistics import micro_intervals

        intervals = micro_intervals(rows, resampling)
        zero = {m: [0.0, 0.0] for m in _METRICS}
        for label, per_type, overall in self.sections():
            for t, c in list(per_type.items()) + [("all", overall)]:
                c["ci"] = intervals.get((label, t), zero)

    def primary_value(self) -> float | None:
        """The value of the primary figure (``meta["primary"]``: the F1 of one section's overall row)."""
        name = str((self.get("meta") or {}).get("primary", "")).split(" ")[0]
        for label, _, overall in self.sections():
            if label == name:
                return overall.get("f1")
        return None

    @property
    def ci_level(self) -> float | None:
        """The confidence level of the report's intervals, or None without intervals."""
        ci = self.get("meta", {}).get("ci")
        return None if ci is None else ci["level"]

    # -- structure
    def sections(self) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
        """``(label, per_type, overall)`` for every table of the report, in print order."""
        if self.get("mode") == "brateval":
            yield (self.get("label", "brateval"), self["per_type"], self["overall"])
            return
        for level in ("relations", "entities"):
            for match, sub in self.get(level, {}).items():
                if "per_type" in sub:
                    yield (f"{level}/{match}", sub["per_type"], sub["overall"])
                else:
                    for coref, leaf in sub.items():
                        yield (f"{level}/{match}/{coref}", leaf["per_type"], leaf["overall"])

    def rows(self) -> list[dict[str, Any]]:
        """One flat row per (section, type) plus an ``all`` row per section; per-document rows follow, then
        (with ``errors=True``) one row per FP/FN whose ``error`` column holds the mention text."""
        out: list[dict[str, Any]] = []
        for label, per_type, overall in self.sections():
            for t, c in list(per_type.items()) + [("all", overall)]:
                out.append({"document": "", "report": label, "type": t, **_flat(c)})
        for doc, blocks in self.get("per_doc", {}).items():
            for label, c in blocks.items():
                out.append({"document": doc, "report": label, "type": "all", **c})
        for e in self.get("errors") or ():
            out.append({"document": e["document"], "report": e["report"], "type": e["type"],
                        "error": f"{e['kind']}: {_error_body(e)}"})
        return out

    # -- exports
    def to_json(self, indent: int | None = 2) -> str:
        """The report dict as JSON text."""
        return json.dumps(self, indent=indent, ensure_ascii=False)

    def columns(self) -> list[str]:
        """CSV / Markdown columns: document, report, type, counts and P/R/F1 (then fpm/fnm, intervals, error)."""
        cols = ["document", "report", "type", *NUMBER_KEYS]
        if self.get("mode") == "brateval" and self.get("level") == "relations":
            cols += ["fpm", "fnm"]
        if self.ci_level is not None:
            cols += CI_KEYS
        if self.get("errors"):
            cols.append("error")
        return cols

    def numeric_columns(self) -> set[str]:
        return {*NUMBER_KEYS, *CI_KEYS, "fpm", "fnm"}

    def to_text(self) -> str:
        """The readable table (or, in BRATEval mode, exactly what BRATEval prints)."""
        level = self.ci_level
        if self._text is not None:
            if level is None:
                return self._text
            out = [self._text.rstrip("\n"), "", self["meta"]["ci"]["description"]]
        else:
            out = headline(self.get("meta"), self.get("title", "scores"))
        ci_head = f"{level:.0%} CI" if level is not None else ""
        for label, per_type, overall in self.sections():
            out.append("")
            out.append(label)
            width = max([len(t) for t in per_type] + [7])
            head = f"  {'type':<{width}} {'tp':>7} {'fp':>7} {'fn':>7} {'precision':>9} {'recall':>7} {'f1':>7}"
            if level is not None:
                head += "".join(f"  {m + ' ' + ci_head:<16}" for m in ("P", "R", "F1"))
            out.append(head.rstrip())
            for t, c in list(per_type.items()) + [("overall", overall)]:
                line = (f"  {t:<{width}} {c['tp']:>7} {c['fp']:>7} {c['fn']:>7} {format4(c['precision']):>9}"
                        f" {format4(c['recall']):>7} {format4(c['f1']):>7}")
                if "ci" in c:
                    line += "".join(f"  {format_interval(c['ci'][m]):<16}" for m in _METRICS)
                out.append(line.rstrip())
        per_doc = self.get("per_doc")
        if per_doc:
            out += ["", "per document: tp/fp/fn of each report", *_per_doc_table(per_doc)]
        errors = self.get("errors")
        if errors is not None:
            grouped = group_errors(errors)
            out.append("")
            out.append(f"errors ({len(grouped)} false positives and false negatives; each once, with the reports "
                       "that count it)")
            for e, reports in grouped:
                out.append("  " + format_error(e, reports))
        return "\n".join(out) + "\n"

    def to_markdown(self) -> str:
        """The headline as a paragraph, then the CSV rows as a table; the ``document`` column says ``(all)`` for
        the corpus rows, and is left out when there are no per-document or error rows."""
        cols = self.columns()
        rows = self.rows()
        if all(not row.get("document") for row in rows):
            cols = [c for c in cols if c != "document"]
        numeric = self.numeric_columns()
        lines = []
        meta = self.get("meta")
        if meta:
            lines += [" · ".join(md_cell(line) if i else f"**{md_cell(line)}**"
                                 for i, line in enumerate(headline(meta, self.get("title", "scores")))), ""]
        lines += ["| " + " | ".join(cols) + " |", "|" + "|".join("---:" if c in numeric else "---" for c in cols) + "|"]
        for row in rows:
            cells = {**row, "document": row.get("document") or "(all)"}
            lines.append("| " + " | ".join(md_cell(_cell(cells.get(c))) for c in cols) + " |")
        return "\n".join(lines) + "\n"


def _short(label: str) -> str:
    """A report label as a short column header: ``relations/relaxed_bipartite/coref_expanded`` -> ``rel relaxed +coref``."""
    return (label.replace("relations/", "rel ").replace("entities/", "ent ").replace("relaxed_bipartite", "relaxed")
            .replace("/coref_not_expanded", "").replace("/coref_expanded", " +coref"))


def _per_doc_table(per_doc: dict[str, dict[str, Any]]) -> list[str]:
    """The per-document counts as a table with a header row (``+coref``: COREFERENCE expanded)."""
    labels = list(next(iter(per_doc.values())).keys())
    names = [printable(str(doc)) for doc in per_doc]
    cells = [[f"{c['tp']}/{c['fp']}/{c['fn']}" for c in blocks.values()] for blocks in per_doc.values()]
    first = max([len("document")] + [len(n) for n in names])
    widths = [max([len(_short(label))] + [len(row[i]) for row in cells]) for i, label in enumerate(labels)]
    lines = ["  " + f"{'document':<{first}}" + "".join(f"  {_short(label):>{w}}" for label, w in zip(labels, widths))]
    for name, row in zip(names, cells):
        lines.append("  " + f"{name:<{first}}" + "".join(f"  {cell:>{w}}" for cell, w in zip(row, widths)))
    return lines


def group_errors(errors: list[dict[str, Any]]) -> list[tuple[dict[str, Any], list[str]]]:
    """Each distinct FP/FN (document, kind, type, mention or relation) once, in first-seen order, with the
    labels of the reports that count it."""
    seen: dict[tuple, tuple[dict[str, Any], list[str]]] = {}
    for e in errors:
        key = (e["document"], e["kind"], e["type"], e["report"].split("/")[0], _error_body(e))
        if key not in seen:
            seen[key] = (e, [])
        seen[key][1].append(e["report"])
    return list(seen.values())

def headline(meta: dict[str, Any] | None, title: str) -> list[str]:
    """The first lines of a text report: version, mode, primary figure, averaging, documents, matching, intervals."""
    if not meta:
        return [title]
    lines = [f"chemref {meta['chemref_version']} · {title}",
             f"mode: {meta['mode']}",
             f"primary: {meta['primary']}{_value(meta.get('primary_value'))} ({meta['primary_why']})",
             f"averaging: {meta['averaging']}",
             f"documents: {meta['documents']}",
             f"matching: {meta['matching']}"]
    if "ci" in meta:
        lines.append(f"intervals: {meta['ci']['description']}")
    return lines


def _value(value: Any) -> str:
    return f" = {format4(value)}" if isinstance(value, (int, float)) else ""


def _flat(c: dict[str, Any]) -> dict[str, Any]:
    """A P/R/F1 dict with its interval (if any) as ``precision_low`` ... ``f1_high`` columns."""
    ci = c.get("ci")
    if ci is None:
        return c
    out = {k: v for k, v in c.items() if k != "ci"}
    for m in _METRICS:
        out[f"{m}_low"], out[f"{m}_high"] = ci[m]
    return out


def _mention(m: dict[str, Any]) -> str:
    frags = ";".join(f"{s}-{e}" for s, e in m["fragments"])
    text = m.get("text")
    return f"{m['label']} [{frags}]" + ("" if text is None else f" {text!r}")


def _error_body(e: dict[str, Any]) -> str:
    if "arg1" in e:
        return f"{_mention(e['arg1'])} -> {_mention(e['arg2'])}"
    return _mention(e["mention"])


def format_error(e: dict[str, Any], reports: list[str] | None = None) -> str:
    """One line for an FP/FN record of ``report["errors"]`` (with ``reports``: once for all the reports that
    count it, named after the line)."""
    if reports is None or len(reports) == 1:
        where = e["report"] if reports is None else reports[0]
        return printable(f"{e['kind']} {where} {e['document']} {e['type']}: {_error_body(e)}")  # names, text: escaped
    level = reports[0].split("/")[0]
    views = ", ".join(_short(r).split(" ", 1)[1] for r in reports)
    return printable(f"{e['kind']} {level} {e['document']} {e['type']}: {_error_body(e)}  [in: {views}]")
