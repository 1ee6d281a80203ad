"""The output formats every score report has: text, JSON, CSV and Markdown, from one table of flat rows.

A report class provides :meth:`TabularReport.columns` and :meth:`TabularReport.rows` (flat dicts) plus its
own ``to_text`` and ``to_json``; CSV and Markdown come from here, numbers with four decimals.
"""

from __future__ import annotations

import io
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

_Q = Decimal("0.0001")


def format4(x: float) -> str:
    """Four decimals rounded HALF_UP on the shortest repr of ``x`` (what Java's ``%1.4f`` prints)."""
    return str(Decimal(repr(x)).quantize(_Q, rounding=ROUND_HALF_UP))


def format_interval(bounds: Any) -> str:
    """``[0.1234, 0.5678]``: an interval with four decimals."""
    return f"[{format4(float(bounds[0]))}, {format4(float(bounds[1]))}]"


def md_cell(text: str) -> str:
    """A Markdown table cell: ``|`` escaped and line breaks flattened, so free text cannot break the row."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return format4(value)
    return "" if value is None else str(value)


class TabularReport:
    """Mixin: CSV and Markdown from ``columns()`` / ``rows()``; ``str()`` is ``to_text()``."""

    def columns(self) -> list[str]:  # pragma: no cover - every report overrides it
        raise NotImplementedError

    def rows(self) -> list[dict[str, Any]]:  # pragma: no cover - every report overrides it
        raise NotImplementedError

    def to_text(self) -> str:  # pragma: no cover - every report overrides it
        raise NotImplementedError

    def numeric_columns(self) -> set[str]:
        """Columns right-aligned in Markdown: those holding a number in some row."""
        return {k for row in self.rows() for k, v in row.items() if isinstance(v, (int, float))
                and not isinstance(v, bool)}

    def to_csv(self) -> str:
        """One CSV row per table row, numbers with four decimals."""
        import csv

        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=self.columns(), extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in self.rows():
            writer.writerow({k: _cell(v) for k, v in row.items()})
        return buf.getvalue()

    def to_markdown(self) -> str:
        """The CSV rows as a Markdown table."""
        cols = self.columns()
        numeric = self.numeric_columns()
        lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---:" if c in numeric else "---" for c in cols) + "|"]
        for row in self.rows():
            lines.append("| " + " | ".join(md_cell(_cell(row.get(c))) for c in cols) + " |")
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.to_text()
