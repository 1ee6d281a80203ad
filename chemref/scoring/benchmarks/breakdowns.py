"""Per-group means of per-item metric values: the breakdown tables of the benchmark scorers (by section,
source, year, context length ...)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

__all__ = ["breakdown", "group_sort_key"]

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
