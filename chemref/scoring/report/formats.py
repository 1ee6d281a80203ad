"""The one formatter of score reports: text, Markdown, CSV and JSON of a
:class:`~chemref.scoring.report.model.ScoreReport`, numbers with four decimals.

CSV and JSON are the same for every report (the table's rows with its column headers; the JSON document).
Text and Markdown follow the report's ``layout``: ``chemu`` and ``brateval`` (``score brat``: a headline, then
one table per report; BRATEval mode prints what BRATEval prints), ``metrics`` (the benchmark scorers: headline
metrics, counts, breakdowns, diagnostics), ``leaderboard`` (one row per system, ready for a paper) and
``evaluation`` (``questions evaluate``: a question build against labels, with the kept questions' quality, the
filters in funnel order, the selector's curve and a judge's agreement).
"""

from __future__ import annotations

import csv
import io
import json
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from chemref.errors import printable
from chemref.scoring.stats.resampling import plural

__all__ = ["to_text", "to_markdown", "to_csv", "to_json", "format4", "format_interval", "md_cell", "csv_cell",
           "format_error", "group_errors", "error_body", "headline"]

_Q = Decimal("0.0001")
_METRICS = ("precision", "recall", "f1")
#: significance markers of a leaderboard's Markdown table, strictest first
MARKERS = ((0.01, "**"), (0.05, "*"))


# --------------------------------------------------------------------------------------------- numbers and cells

def format4(x: float) -> str:
    """Four decimals rounded HALF_UP on the shortest repr of ``x`` (what Java's ``%1.4f`` prints)."""
    return str(Decimal(repr(x)).quantize(_Q, rounding=ROUND_HALF_UP))


def format_interval(bounds: Any) -> str:
    """``[0.1234, 0.5678]``: an interval with four decimals."""
    return f"[{format4(float(bounds[0]))}, {format4(float(bounds[1]))}]"


def md_cell(text: str) -> str:
    """A Markdown table cell: ``|``, ``[``, ``]`` and backticks escaped, line breaks flattened, other control
    characters written as ``repr`` writes them (``\\x1b``) and ``&``, ``<``, ``>`` as HTML entities, so free text
    can neither break the row nor become HTML (``<img ...>``), a link or a code span (which renderers that find
    code spans before cells let run over the cells after it); it reads the same."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")
    text = text.replace("[", "\\[").replace("]", "\\]")  # no link ([a](javascript:...)) nor image
    text = text.replace("`", "\\`")  # no code span: the escapes above would show as written inside one
    if not text.isprintable():  # a control character (ESC, BEL, ...) made visible, as repr writes it
        text = "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)
    return text


def cell(value: Any) -> str:
    """A CSV / Markdown cell: floats with four decimals, None empty."""
    if isinstance(value, float):
        return format4(value)
    return "" if value is None else str(value)


#: the first characters that make a spreadsheet read a cell as a formula (OWASP, "CSV injection")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> str:
    """A CSV cell: :func:`cell`, and a text that a spreadsheet would run as a formula (it begins with ``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return) prefixed with a single quote, as OWASP recommends, so a
    type, document or system name from the input is shown, never run; its control characters are escaped as
    in the text report (:func:`~chemref.errors.printable`: a CSV printed on a terminal cannot send it escapes).
    Numbers are written as numbers (``-0.5`` stays a number)."""
    if isinstance(value, str):
        return ("'" if value.startswith(_FORMULA_STARTS) else "") + printable(value)
    return cell(value)


# --------------------------------------------------------------------------------------------- every report

#: layouts whose JSON escapes every non-ASCII character (as \uXXXX), as ``questions evaluate --json`` always has
_ASCII_JSON = frozenset({"evaluation"})


def to_json(report: Any, indent: int | None = 2) -> str:
    """The report's JSON document as JSON text."""
    return json.dumps(report, indent=indent, ensure_ascii=getattr(report, "layout", None) in _ASCII_JSON)


def to_csv(report: Any) -> str:
    """One CSV row per table row, numbers with four decimals, text cells neutralised (:func:`csv_cell`)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(report.table.columns), extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in report.table.rows:
        writer.writerow({k: csv_cell(v) for k, v in row.items()})
    return buf.getvalue()


def to_text(report: Any) -> str:
    """The readable text of ``report`` (in BRATEval mode, what BRATEval prints first); every control character
    a name from the input may hold (a terminal escape, a carriage return) is escaped (:func:`escaped_lines`)."""
    return escaped_lines(_TEXT[report.layout](report))


def to_markdown(report: Any) -> str:
    """The Markdown of ``report``: its table (with the headline first for ``score brat``; a leaderboard as a
    table for a paper); control characters escaped as in :func:`to_text`."""
    return escaped_lines(_MARKDOWN[report.layout](report))


def escaped_lines(text: str) -> str:
    """``text`` with the control characters of each line escaped by :func:`~chemref.errors.printable` (what the
    warnings use): a type, document or system name holding ``ESC[2J`` or an OSC title cannot reach the terminal
    raw, nor a carriage return overwrite a line; the line breaks stay."""
    lines = text.split("\n")
    if all(map(str.isprintable, lines)):
        return text
    return "\n".join(map(printable, lines))


def _markdown_table(columns: list[str], rows: Any, numeric: Any) -> list[str]:
    lines = ["| " + " | ".join(columns) + " |",
             "|" + "|".join("---:" if c in numeric else "---" for c in columns) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(md_cell(cell(row.get(c))) for c in columns) + " |")
    return lines


def _plain_markdown(report: Any) -> str:
    """The table's rows as a Markdown table."""
    table = report.table
    return "\n".join(_markdown_table(list(table.columns), table.rows, table.numeric)) + "\n"


# --------------------------------------------------------------------------------------------- score brat

def headline(meta: dict[str, Any] | None, title: str) -> list[str]:
    """The first lines of a ``score brat`` report: version, mode, primary figure, averaging, documents,
    matching, intervals."""
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


def _brat_tables(report: Any, out: list[str]) -> None:
    """One table per report section (type, counts, P/R/F1 and, with intervals, their intervals)."""
    level = report.ci_level
    ci_head = f"{level:.0%} CI" if level is not None else ""
    for label, per_type, overall in report.sections():
        out.append("")
        out.append(label)
        names = {t: printable(str(t)) for t in per_type}
        width = max([len(t) for t in names.values()] + [7])
        head = f"  {'type':<{width}} {'tp':>7} {'fp':>7} {'fn':>7} {'precision':>9} {'recall':>7} {'f1':>7}"
        if level is not None:
            head += "".join(f"  {m + ' ' + ci_head:<16}" for m in ("P", "R", "F1"))
        out.append(head.rstrip())
        for t, c in list(per_type.items()) + [("overall", overall)]:
            line = (f"  {names.get(t, t):<{width}} {c['tp']:>7} {c['fp']:>7} {c['fn']:>7} {format4(c['precision']):>9}"
                    f" {format4(c['recall']):>7} {format4(c['f1']):>7}")
            if "ci" in c:
                line += "".join(f"  {format_interval(c['ci'][m]):<16}" for m in _METRICS)
            out.append(line.rstrip())


def _chemu_text(report: Any) -> str:
    out = headline(report.get("meta"), report.get("title", "scores"))
    _brat_tables(report, out)
    per_doc = report.get("per_doc")
    if per_doc:
        out += ["", "per document: tp/fp/fn of each report", *_per_doc_table(per_doc)]
    errors = report.get("errors")
    if errors is not None:
        grouped = group_errors(errors)
        out.append("")
        out.append(f"errors ({len(grouped)} false positives and false negatives; each once, with the reports "
                   "that count it)")
        for e, reports in grouped:
            out.append("  " + format_error(e, reports))
    return "\n".join(out) + "\n"


def _brateval_text(report: Any) -> str:
    """BRATEval's own lines (from ``Summary:`` on, as it prints them), then chemref's per-document counts, FP/FN
    records and, with intervals, the tables with their intervals."""
    text = "\n".join(report["lines"]) + "\n"
    if "per_doc" in report:
        text += "\nper document (tp/fp/fn)\n" + "".join(
            f"  {printable(str(d))}  {c['all']['tp']}/{c['all']['fp']}/{c['all']['fn']}\n"
            for d, c in report["per_doc"].items())
    if "errors" in report:
        text += f"\nerrors ({len(report['errors'])} false positives and false negatives)\n" + "".join(
            "  " + format_error(e) + "\n" for e in report["errors"])
    if report.ci_level is None:
        return text
    out = [text.rstrip("\n"), "", report.meta["ci"]["description"]]
    _brat_tables(report, out)
    return "\n".join(out) + "\n"


def _brat_markdown(report: Any) -> str:
    """The headline as a paragraph, then the rows as a table; the ``document`` column says ``(all)`` for the
    corpus rows, and is left out when there are no per-document or error rows."""
    table = report.table
    columns = list(table.columns)
    if all(not row.get("document") for row in table.rows):
        columns = [c for c in columns if c != "document"]
    lines = []
    meta = report.get("meta")
    if meta:
        lines += [" · ".join(md_cell(line) if i else f"**{md_cell(line)}**"
                             for i, line in enumerate(headline(meta, report.get("title", "scores")))), ""]
    rows = ({**row, "document": row.get("document") or "(all)"} for row in table.rows)
    lines += _markdown_table(columns, rows, table.numeric)
    return "\n".join(lines) + "\n"


def short_label(label: str) -> str:
    """A report label as a short column header: ``relations/relaxed_bipartite/coref_expanded`` -> ``rel relaxed +coref``."""
    return (label.replace("relations/", "rel ").replace("entities/", "ent ").replace("relaxed_bipartite", "relaxed")
            .replace("/coref_not_expanded", "").replace("/coref_expanded", " +coref"))


def _per_doc_table(per_doc: dict[str, dict[str, Any]]) -> list[str]:
    """The per-document counts as a table with a header row (``+coref``: COREFERENCE expanded)."""
    labels = list(next(iter(per_doc.values())).keys())
    names = [printable(str(doc)) for doc in per_doc]
    cells = [[f"{c['tp']}/{c['fp']}/{c['fn']}" for c in blocks.values()] for blocks in per_doc.values()]
    first = max([len("document")] + [len(n) for n in names])
    widths = [max([len(short_label(label))] + [len(row[i]) for row in cells]) for i, label in enumerate(labels)]
    lines = ["  " + f"{'document':<{first}}" + "".join(f"  {short_label(label):>{w}}"
                                                      for label, w in zip(labels, widths))]
    for name, row in zip(names, cells):
        lines.append("  " + f"{name:<{first}}" + "".join(f"  {c:>{w}}" for c, w in zip(row, widths)))
    return lines


def group_errors(errors: list[dict[str, Any]]) -> list[tuple[dict[str, Any], list[str]]]:
    """Each distinct FP/FN (document, kind, type, mention or relation) once, in first-seen order, with the
    labels of the reports that count it."""
    seen: dict[tuple, tuple[dict[str, Any], list[str]]] = {}
    for e in errors:
        key = (e["document"], e["kind"], e["type"], e["report"].split("/")[0], error_body(e))
        if key not in seen:
            seen[key] = (e, [])
        seen[key][1].append(e["report"])
    return list(seen.values())


def _mention(m: dict[str, Any]) -> str:
    frags = ";".join(f"{s}-{e}" for s, e in m["fragments"])
    text = m.get("text")
    return f"{m['label']} [{frags}]" + ("" if text is None else f" {text!r}")


def error_body(e: dict[str, Any]) -> str:
    """An FP/FN record's mention (or relation: both ends) with its label, fragments and text."""
    if "arg1" in e:
        return f"{_mention(e['arg1'])} -> {_mention(e['arg2'])}"
    return _mention(e["mention"])


def format_error(e: dict[str, Any], reports: list[str] | None = None) -> str:
    """One line for an FP/FN record of ``report["errors"]`` (with ``reports``: once for all the reports that
    count it, named after the line)."""
    if reports is None or len(reports) == 1:
        where = e["report"] if reports is None else reports[0]
        return printable(f"{e['kind']} {where} {e['document']} {e['type']}: {error_body(e)}")  # names, text: escaped
    level = reports[0].split("/")[0]
    views = ", ".join(short_label(r).split(" ", 1)[1] for r in reports)
    return printable(f"{e['kind']} {level} {e['document']} {e['type']}: {error_body(e)}  [in: {views}]")


# --------------------------------------------------------------------------------------------- benchmark scorers

def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def _clip(text: str, width: int = 60) -> str:
    """Shorten a long group name (a paper title) for the terminal table; JSON keeps it whole."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _columns_text(header: list[str], rows: list[list[Any]]) -> list[str]:
    cells = [header] + [[printable(_fmt(v)) for v in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = []
    for index, row in enumerate(cells):
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def _metrics_text(report: Any) -> str:
    """Header lines, headline metrics, counts, per-class scores, breakdowns, diagnostics."""
    doc = report
    names = doc["metric"]
    lines = [f"chemref {doc['chemref_version']} · {doc['task']}",
             f"metric: {doc['definition']}",
             f"averaging: {doc['averaging']}"]
    # every report names K, also where there is no cut-off (PubMedQA scores one label per item)
    cut_offs = ", ".join(str(k) for k in doc["k"]) if doc["k"] else "none (no cut-off: one answer per item)"
    lines.append("K: " + cut_offs)
    intervals = doc.get("ci")
    if intervals:
        lines.append(f"intervals: {doc['resampling']['description']}")
    lines.append("")
    if intervals:
        head = f"{doc['resampling']['level']:.0%} CI"
        lines += _columns_text(["metric", "value", head],
                               [[name, doc[name], format_interval(intervals[name]) if name in intervals else ""]
                                for name in names])
    else:
        lines += _columns_text(["metric", "value"], [[name, doc[name]] for name in names])
    lines += ["", *_columns_text(["count", "n"], [["scored", doc["n"]], *[[k, v] for k, v in doc["counts"].items()]])]
    per_class = doc.get("per_class")
    if per_class:
        class_names = list(next(iter(per_class.values())))
        lines += ["", *_columns_text(["class", *class_names], [[c, *vals.values()] for c, vals in per_class.items()])]
    for name, groups in doc["breakdowns"].items():
        if not groups:
            continue
        columns = ["n", *[m for m in names if m in next(iter(groups.values()))]]
        rows = [[_clip(value), *[stats.get(c, "") for c in columns]] for value, stats in groups.items()]
        lines += ["", f"by {name}", *_columns_text([name, *columns], rows)]
    if report.diagnostics:
        lines += ["", "diagnostics:", *[f"  - {d}" for d in report.diagnostics]]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------- leaderboards

def _plural(unit: str) -> str:
    return plural(unit)


def _leaderboard_text(report: Any) -> str:
    meta = report.meta
    level = f"{meta['ci']['level']:.0%} CI"
    metrics = list(report["metrics"])
    header = ["rank", "system"]
    for name in metrics:
        header += [name, level]
    header += [f"Δ{report.primary}", "p"]
    rows = []
    for s in report.systems:
        row = [str(s.rank), printable(s.name)]
        for name in metrics:
            row += [format4(s.metrics[name]), format_interval(s.intervals[name])]
        row += ["" if s.difference is None else format4(s.difference),
                "best" if s.p_value is None else format4(s.p_value)]
        rows.append(row)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    of = f" of {meta['report']}" if meta.get("report") else ""
    notes = [f"primary: {report.primary}{of}", f"averaging: {meta['averaging']}", f"{_plural(meta['unit'])}: {meta['n']}",
             f"intervals: {meta['ci']['description']}", f"test: {meta['test']['description']}"]
    lines = [f"chemref {meta['chemref_version']} · {report.title}", *notes, ""]
    for index, row in enumerate([header, *rows]):
        lines.append("  ".join(c.ljust(w) if i in (1,) or (i > 1 and header[i] == level) else c.rjust(w)
                               for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    if report.diagnostics:
        lines += ["  diagnostics:", *[f"  - {d}" for d in report.diagnostics]]
    return "\n".join(lines) + "\n"


def _marker(p: float) -> str:
    for threshold, mark in MARKERS:
        if p < threshold:
            return mark
    return ""


def _md_name(text: str) -> str:
    """A system name as a table cell (:func:`md_cell`: no row break, HTML, link or code span)."""
    return md_cell(text)


def _leaderboard_markdown(report: Any) -> str:
    """A table for a paper: best system in bold, significance markers on the primary metric, a footnote."""
    meta = report.meta
    metrics = list(report["metrics"])
    level = f"{meta['ci']['level']:.0%}"
    cols = ["#", "System", *[f"{m} ({level} CI)" for m in metrics], "p[^sig]"]
    lines = ["| " + " | ".join(cols) + " |", "|---:|---|" + "---:|" * (len(metrics) + 1)]
    for s in report.systems:
        cells = [str(s.rank), _md_name(s.name) if s.p_value is not None else f"**{_md_name(s.name)}**"]
        for name in metrics:
            lo, hi = s.intervals[name]
            value = format4(s.metrics[name])
            if name == report.primary:
                value = f"**{value}**" if s.p_value is None else value + _marker(s.p_value)
            cells.append(f"{value} ({format4(lo)}–{format4(hi)})")
        cells.append("–" if s.p_value is None else format4(s.p_value))
        lines.append("| " + " | ".join(cells) + " |")
    marks = ", ".join(f"{m} p < {t}" for t, m in MARKERS)
    lines += ["", f"[^sig]: {meta['test']['description']}; marked on {report.primary}: {marks}; unmarked: not "
                  f"significantly different from the best system (bold) at 0.05. Parentheses: "
                  f"{meta['ci']['description']}; averaging: {meta['averaging']}. chemref {meta['chemref_version']}."]
    return "\n".join(lines) + "\n"




# --------------------------------------------------------------------------------------------- question evaluations

def _share3(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _recall_lines(recall: Any) -> list[str]:
    """The recalled shares of ``evaluate --closed-book``: a model names the cited work from the excerpt alone."""
    if not recall:
        return []
    names = {"candidates": "labelled candidates", "good": "good candidates", "kept": "kept questions"}
    return ["", "recalled from memory (closed-book answers)"] + [
        f"  {names.get(r['set'], r['set']):<20}{_share3(r['recalled_share'])}  ({r['recalled']} of {r['answered']} "
        f"answered; {r['candidates']} in the set)" for r in recall]


def _evaluation_text(report: Any) -> str:
    """A question build against labels: the labels matched, the kept questions' quality, one row per filter in
    funnel order, the selector's precision-yield curve, its AUC and, for a judged build, the judge's figures."""
    pct = _share3
    k = report["kept"]
    sel = report["selector"]
    lines = [
        f"labels: {report['labels']} read, {report['matched']} matched ({report['matched_questions']} questions, "
        f"{report['matched_rejected']} rejected candidates), {report['stale']} stale (excerpt changed since "
        "labelling; left out)",
        *_in_sample_note(sel),
        "",
        f"kept questions: {k['questions']}, labelled {k['labelled']} ({k['decided']} decided)",
        f"  good            {pct(k['good_share'])}  ({k['good']} of {k['decided']})",
        f"  author named    {pct(k['author_named_share'])}  ({k['author_named']} of {k['labelled']})",
        f"  PASSING         {pct(k['passing_share'])}  ({k['passing']} of {k['labelled']})",
        f"  broken          {pct(k['broken_share'])}  ({k['broken']} of {k['labelled']})",
        *_recall_lines(report.get("recall")),
        "",
        "filters, in funnel order (labelled candidates only)",
        f"{'filter':<20}{'removed':>9}{'good':>7}{'bad':>7}{'undecided':>11}{'bad let through':>17}",
    ]
    for row in report["filters"]:
        lines.append(f"{row['filter']:<20}{row['removed']:>9}{row['removed_good']:>7}{row['removed_bad']:>7}"
                     f"{row['removed_undecided']:>11}{row['bad_let_through']:>17}")
    threshold = sel["threshold"]
    lines += ["", f"selector score: precision-yield curve over {sel['scored']} labelled candidates that pass "
                  f"the other filters ({sel['scored_good']} good)",
              f"{'threshold':>9}{'kept':>7}{'kept share':>12}{'good share':>12}{'good kept':>11}"]
    for p in sel["curve"]:
        mark = "  <- threshold" if threshold is not None and p["threshold"] == threshold else ""
        lines.append(f"{p['threshold']:>9.4g}{p['kept']:>7}{pct(p['kept_share']):>12}{pct(p['good_share']):>12}"
                     f"{pct(p['good_kept_share']):>11}{mark}")
    cv = sel["cross_validated"]
    at = sel["at_threshold"]
    if cv is not None and cv.get("at_threshold") and at is not None:
        cv_at = cv["at_threshold"]
        lines.append(f"  at the threshold: good share {pct(at['good_share'])} in-sample, "
                     f"{pct(cv_at['good_share'])} cross-validated (good kept {pct(at['good_kept_share'])}"
                     f" in-sample, {pct(cv_at['good_kept_share'])} cross-validated)")
    if sel["auc"] is not None:
        in_sample = f" in-sample, {cv['auc']:.3f} cross-validated" if cv is not None and cv.get("auc") else ""
        lines += ["", f"ranking AUC {sel['auc']:.3f}{in_sample}; the highest thresholds keeping "
                      + ", ".join(f"{share:.0%}" for share in report.meta["good_kept_targets"])
                      + " of the good ones:"]
        for p in sel["at_good_kept"]:
            lines.append(f"  threshold {p['threshold']:<7.4g} keeps {pct(p['good_kept_share'])} of the good ones: "
                         f"{p['kept']} kept, good share {pct(p['good_share'])}")
    if report.get("judge") is not None:
        lines += ["", *_judge_lines(report["judge"], k, at)]
    if report.get("difficulty"):
        lines += ["", *_difficulty_lines(report["difficulty"])]
    return "\n".join(lines) + "\n"


def _difficulty_lines(signals: list[dict[str, Any]]) -> list[str]:
    """Each difficulty signal against good_question: its AUC and the good share per bucket."""
    lines = ["difficulty signals against good_question (labelled candidates that reached the selector; AUC: "
             "P(a good one's value > a bad one's))"]
    for s in signals:
        auc = "-" if s["auc"] is None else f"{s['auc']:.3f}"
        lines.append(f"  {s['signal']}: {s['n']} candidates, {s['good']} good, AUC {auc}")
        lines += [f"    {b['bucket']:<9}{b['n']:>6} candidates, good share {_share3(b['good_share'])}"
                  for b in s["buckets"]]
    return lines


def _in_sample_note(sel: dict[str, Any]) -> list[str]:
    """Labels the shipped selector was trained on: say its figures are in-sample, with the recorded
    cross-validated ones."""
    if not sel["trained_on"]:
        return []
    lines = [f"note: {sel['trained_on']} of these labels are ones the shipped selector was trained on, so its "
             "scores of them, and the selector figures below, are in-sample (optimistic)."]
    cv = sel["cross_validated"]
    if cv is not None:
        caps = cv.get("after_caps") or {}
        lines.append(f"  cross-validated on those labels (recorded with the selector): {cv['scored']} candidates, "
                     f"AUC {cv['auc']:.3f}; at its threshold good share {cv['at_threshold']['good_share']:.3f}; "
                     f"after the caps {caps.get('questions')} questions, good share {caps.get('good_share'):.3f}")
    lines.append("  for cross-validated figures of your own: train-selector --cv-scores cv.jsonl, then "
                 "evaluate --scores cv.jsonl --reselect")
    return lines


def _judge_lines(j: dict[str, Any], kept: dict[str, Any], at: dict[str, Any] | None) -> list[str]:
    """A judged build: what reached the judge, the good candidates it keeps, its agreement per field."""
    pct = _share3
    lines = [f"judge {j['model'] or '?'} (prompt {j['prompt'] or '?'}): {j['reached']} labelled candidates reached "
             f"it ({j['reached_good']} good), {j['answered_ok']} answered ok",
             f"  good candidates kept   {pct(j['good_kept_share'])}  ({j['kept_good']} of {j['reached_good']}; "
             f"{pct(j['good_kept_by_judge_share'])} before the caps)",
             f"  kept questions good    {pct(kept['good_share'])}  (the kept questions above)"]
    if at is not None:
        lines.append(f"  selector alone         good share {pct(at['good_share'])}, keeps "
                     f"{pct(at['good_kept_share'])} of the good ones (threshold {at['threshold']:g}, before the caps)")
    lines += [f"  {'field':<15}{'n':>6}{'agree':>8}{'raw':>8}{'kappa':>8}"]
    for a in j["agreement"]:
        lines.append(f"  {a['field']:<15}{a['n']:>6}{a['agree']:>8}{pct(a['raw']):>8}{pct(a['kappa']):>8}")
    return lines


def _evaluation_markdown(report: Any) -> str:
    """The headline as a paragraph, then the table's rows (one per figure, ``table`` naming its group)."""
    meta = report.meta
    value = "-" if report.headline_value is None else format4(report.headline_value)
    head = (f"**chemref {meta['chemref_version']} · {md_cell(report.title)}** · good share of the kept questions "
            f"= {value} · labels: {meta['labels']} read, {meta['matched']} matched, {meta['stale']} stale · "
            f"threshold {meta['threshold']}")
    return head + "\n\n" + _plain_markdown(report)


_TEXT = {"chemu": _chemu_text, "brateval": _brateval_text, "metrics": _metrics_text,
         "leaderboard": _leaderboard_text, "evaluation": _evaluation_text}
_MARKDOWN = {"chemu": _brat_markdown, "brateval": _brat_markdown, "metrics": _plain_markdown,
             "leaderboard": _leaderboard_markdown, "evaluation": _evaluation_markdown}
