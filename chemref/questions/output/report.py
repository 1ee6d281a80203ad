"""The funnel report of a build: totals per filter and per article, as a table, JSON and a PNG chart."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterable

from chemref._io import atomic_write
from chemref.jsonl import write_json_streaming
from chemref.questions.funnel.filters import DESCRIPTIONS
from chemref.questions.funnel.records import BuildResult
from chemref.questions.funnel.settings import BuildSettings
from chemref.questions.output.totals import BuildTotals

__all__ = ["funnel_rows", "funnel_table", "report_dict", "write_report",
           "write_chart"]

def _totals(result: BuildResult | BuildTotals) -> BuildTotals:
    return BuildTotals.of(result.articles) if isinstance(result, BuildResult) else result


def _settings(result: BuildResult | BuildTotals, settings: BuildSettings | None) -> BuildSettings:
    if settings is not None:
        return settings
    if isinstance(result, BuildResult):
        return result.settings
    raise TypeError("settings are needed with BuildTotals")


def funnel_rows(result: BuildResult | BuildTotals) -> list[dict[str, Any]]:
    """``[{"filter", "rejected", "remaining"}]`` in funnel order, starting from the candidate count."""
    totals = _totals(result)
    remaining = totals.candidates
    rows = []
    for reason, n in totals.funnel.items():
        remaining -= n
        rows.append({"filter": reason, "rejected": n, "remaining": remaining,
                     "description": DESCRIPTIONS.get(reason, "")})
    return rows


def _shown(rows: list[dict[str, Any]], settings: BuildSettings) -> list[dict[str, Any]]:
    return [r for r in rows if not (r["filter"] == "min_findability" and settings.min_findability is None)]


def funnel_table(result: BuildResult | BuildTotals, settings: BuildSettings | None = None) -> str:
    """The funnel as a plain-text table (what the CLI prints)."""
    totals = _totals(result)
    options = _settings(result, settings)
    lines = [
        f"articles: {totals.articles} given, {totals.read} read, {totals.unreadable} unreadable; "
        f"{totals.with_questions} with questions",
    ]
    if totals.skipped.get("cc_by"):
        lines.append(f"  {totals.skipped['cc_by']} skipped before reading: not CC BY in the package file list (cc_by)")
    if totals.skipped.get("duplicate"):
        lines.append(f"  {totals.skipped['duplicate']} skipped: the same article given twice (duplicate)")
    lines += [
        f"{'filter':<20}{'rejected':>10}{'remaining':>11}  description",
        f"{'candidates':<20}{'':>10}{totals.candidates:>11}  body sentences with at least one citation",
    ]
    for row in _shown(funnel_rows(totals), options):
        lines.append(f"{row['filter']:<20}{row['rejected']:>10}{row['remaining']:>11}  {row['description']}")
    rate = totals.survival_rate
    lines.append(f"{'questions':<20}{'':>10}{totals.questions:>11}  survival rate {rate:.1%}"
                 + (f" (1 in {1 / rate:.1f})" if rate else ""))
    return "\n".join(lines)


def report_dict(result: BuildResult | BuildTotals, settings: BuildSettings | None = None, *,
                per_article: Iterable[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The JSON report: settings, totals, the funnel, per-article counts and unreadable files
    (the first :data:`~chemref.questions.output.totals.MAX_ERRORS`; the per-article rows hold all of them)."""
    totals = _totals(result)
    if per_article is None:
        per_article = [a.row() for a in result.articles] if isinstance(result, BuildResult) else []
    return {
        "settings": _settings(result, settings).to_dict(),
        "articles": totals.articles,
        "articles_read": totals.read,
        "articles_with_questions": totals.with_questions,
        "articles_skipped": dict(totals.skipped),
        "candidates": totals.candidates,
        "questions": totals.questions,
        "survival_rate": round(totals.survival_rate, 6),
        "funnel": funnel_rows(totals),
        "bm25_rank_bibliography": dict(totals.bibliography_ranks),
        "per_article": list(per_article),
        "errors": [{"source_file": s, "error": e} for s, e in totals.errors],
    }


def write_report(path: str | os.PathLike[str], result: BuildResult | BuildTotals,
                 settings: BuildSettings | None = None, *,
                 per_article: Iterable[dict[str, Any]] | None = None) -> None:
    """Write :func:`report_dict` as JSON, atomically; ``per_article`` rows are streamed (one per line)."""
    if per_article is None and isinstance(result, BuildResult):
        per_article = (a.row() for a in result.articles)
    head = report_dict(result, settings, per_article=())
    with atomic_write(path) as handle:
        write_json_streaming(handle, head, "per_article", per_article or (), indent=2, one_line_items=True)
        handle.write("\n")


def write_chart(path: str | os.PathLike[str], result: BuildResult | BuildTotals,
                settings: BuildSettings | None = None) -> None:
    """A horizontal bar chart of the funnel (rejections per filter, then questions) and, beside it, the questions
    per ``bm25_rank_bibliography`` bucket (their difficulty profile), as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    totals = _totals(result)
    rows = _shown(funnel_rows(totals), _settings(result, settings))
    labels = [r["filter"] for r in rows] + ["questions"]
    values = [r["rejected"] for r in rows] + [totals.questions]
    colors = ["#c0504d"] * len(rows) + ["#4f81bd"]
    ranks = {bucket: n for bucket, n in totals.bibliography_ranks.items() if bucket != "none" or n}
    fig, (ax, rank_ax) = plt.subplots(1, 2, figsize=(11, 0.45 * len(labels) + 1.4), dpi=110,
                                      gridspec_kw={"width_ratios": [3, 1.3]})
    try:
        rank_bars = rank_ax.bar(range(len(ranks)), list(ranks.values()), color="#9bbb59")
        rank_ax.set_xticks(range(len(ranks)), [b if b != "none" else "n/a" for b in ranks])
        rank_ax.set_xlabel("cited work's BM25 rank among the\narticle's references (1 = easiest)")
        rank_ax.set_ylabel("questions")
        rank_ax.set_title("Difficulty (bm25_rank_bibliography)", fontsize=10)
        rank_ax.bar_label(rank_bars, padding=2, fontsize=8)
        rank_ax.margins(y=0.15)
        rank_ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        bars = ax.barh(range(len(labels)), values, color=colors)
        ax.set_yticks(range(len(labels)), labels)
        ax.invert_yaxis()
        ax.set_xlabel("sentences rejected at this step (first failing filter); last bar: questions kept")
        ax.set_title(f"Question funnel: {totals.candidates} candidates → {totals.questions} questions "
                     f"({totals.survival_rate:.1%})", fontsize=10)
        ax.bar_label(bars, padding=3, fontsize=8)
        ax.margins(x=0.12)
        fig.tight_layout()
        target = Path(path)
        with atomic_write(target, "wb") as handle:
            fig.savefig(handle, format="png", metadata={"Software": None})
    finally:
        plt.close(fig)
