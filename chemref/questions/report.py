"""The funnel report of a build: totals per filter and per article, as a table, JSON and a PNG chart."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from chemref._io import atomic_write
from chemref.questions.records import BuildResult

__all__ = ["FILTER_DESCRIPTIONS", "funnel_rows", "funnel_table", "report_dict", "write_report",
           "write_chart", "write_jsonl"]

#: One line per funnel step, for the table, the report and the dataset card.
FILTER_DESCRIPTIONS: dict[str, str] = {
    "cc_by": "source article is CC BY (no NC/ND/SA)",
    "section": "not in Methods/Materials/Protocol/Experimental, not a caption",
    "no_display_formula": "no display formula flattened into the sentence",
    "one_citation": "exactly one citation, resolving to exactly one reference",
    "has_doi": "the cited reference has a DOI (or a PMID with --answer-key doi-or-pmid)",
    "has_title": "the cited reference has a title",
    "no_author_named": "no cited author (nor \"X et al.\", \"the X group\") named in the excerpt",
    "is_claim": "the sentence makes a claim (not a supplier/kit/software/method mention)",
    "length": "excerpt length within the bounds",
    "no_dangling_opening": "the excerpt does not open by pointing back (\"This\", \"These\", \"Such\" ...)",
    "min_findability": "findability at least --min-findability",
    "min_score": "selector score at least --min-score (P(good question), learned from labels)",
    "per_target_cap": "at most --per-target questions per cited work in one article (highest score kept)",
    "per_article_cap": "at most --per-article questions per article (highest score kept)",
}


def funnel_rows(result: BuildResult) -> list[dict[str, Any]]:
    """``[{"filter", "rejected", "remaining"}]`` in funnel order, starting from the candidate count."""
    remaining = result.candidates
    rows = []
    for reason, n in result.funnel.items():
        remaining -= n
        rows.append({"filter": reason, "rejected": n, "remaining": remaining,
                     "description": FILTER_DESCRIPTIONS.get(reason, "")})
    return rows


def funnel_table(result: BuildResult) -> str:
    """The funnel as a plain-text table (what the CLI prints)."""
    read = sum(1 for a in result.articles if a.error is None)
    lines = [
        f"articles: {len(result.articles)} given, {read} read, {len(result.errors)} unreadable; "
        f"{sum(1 for a in result.articles if a.questions)} with questions",
        f"{'filter':<18}{'rejected':>10}{'remaining':>11}  description",
        f"{'candidates':<18}{'':>10}{result.candidates:>11}  body sentences with at least one citation",
    ]
    for row in funnel_rows(result):
        if row["filter"] == "min_findability" and result.settings.min_findability is None:
            continue
        lines.append(f"{row['filter']:<18}{row['rejected']:>10}{row['remaining']:>11}  {row['description']}")
    rate = result.survival_rate
    lines.append(f"{'questions':<18}{'':>10}{len(result.questions):>11}  survival rate {rate:.1%}"
                 + (f" (1 in {1 / rate:.1f})" if rate else ""))
    return "\n".join(lines)


def report_dict(result: BuildResult) -> dict[str, Any]:
    """The JSON report: settings, totals, the funnel, per-article counts and unreadable files."""
    return {
        "settings": result.settings.to_dict(),
        "articles": len(result.articles),
        "articles_read": sum(1 for a in result.articles if a.error is None),
        "articles_with_questions": sum(1 for a in result.articles if a.questions),
        "candidates": result.candidates,
        "questions": len(result.questions),
        "survival_rate": round(result.survival_rate, 6),
        "funnel": funnel_rows(result),
        "per_article": [
            {"source_file": a.source, "id_prefix": a.key, "cc_by": a.cc_by, "candidates": a.candidates,
             "questions": len(a.questions), "rejected": {r: n for r, n in a.counts if n},
             "reader_diagnostics": a.diagnostics, "error": a.error}
            for a in result.articles
        ],
        "errors": [{"source_file": s, "error": e} for s, e in result.errors],
    }


def write_jsonl(path: str | os.PathLike[str], rows: list[dict[str, Any]]) -> None:
    """Write JSON Lines atomically (UTF-8, one object per line, non-ASCII kept as is)."""
    with atomic_write(path) as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def write_report(path: str | os.PathLike[str], result: BuildResult) -> None:
    """Write :func:`report_dict` as indented JSON, atomically."""
    with atomic_write(path) as handle:
        json.dump(report_dict(result), handle, indent=2, ensure_ascii=False)
        handle.write("\n")


def write_chart(path: str | os.PathLike[str], result: BuildResult) -> None:
    """A horizontal bar chart of the funnel (rejections per filter, then questions), as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in funnel_rows(result)
            if not (r["filter"] == "min_findability" and result.settings.min_findability is None)]
    labels = [r["filter"] for r in rows] + ["questions"]
    values = [r["rejected"] for r in rows] + [len(result.questions)]
    colors = ["#c0504d"] * len(rows) + ["#4f81bd"]
    fig, ax = plt.subplots(figsize=(7.5, 0.45 * len(labels) + 1.4), dpi=110)
    try:
        bars = ax.barh(range(len(labels)), values, color=colors)
        ax.set_yticks(range(len(labels)), labels)
        ax.invert_yaxis()
        ax.set_xlabel("sentences rejected at this step (first failing filter); last bar: questions kept")
        ax.set_title(f"Question funnel: {result.candidates} candidates → {len(result.questions)} questions "
                     f"({result.survival_rate:.1%})", fontsize=10)
        ax.bar_label(bars, padding=3, fontsize=8)
        ax.margins(x=0.12)
        fig.tight_layout()
        target = Path(path)
        with atomic_write(target, "wb") as handle:
            fig.savefig(handle, format="png")
    finally:
        plt.close(fig)
