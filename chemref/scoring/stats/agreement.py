"""Agreement figures: how well scores rank good items above bad ones (:func:`ranking_auc`) and how often two
raters agree beyond chance (:func:`cohen_kappa`). Pure Python."""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["ranking_auc", "cohen_kappa"]


def ranking_auc(scored: Sequence[tuple[float, bool]]) -> float | None:
    """The probability that a good item scores above a bad one (ties count half); None without both kinds.
    One sort: O(n log n)."""
    ordered = sorted(scored, key=lambda item: item[0])
    n_good = sum(1 for _, good in ordered if good)
    n_bad = len(ordered) - n_good
    if not n_good or not n_bad:
        return None
    wins = 0.0
    bad_below = 0
    i = 0
    while i < len(ordered):
        j = i + 1  # (a group holds at least its first item: a NaN equals nothing, itself included)
        while j < len(ordered) and ordered[j][0] == ordered[i][0]:
            j += 1
        group_good = sum(1 for _, good in ordered[i:j] if good)
        group_bad = (j - i) - group_good
        wins += group_good * (bad_below + 0.5 * group_bad)
        bad_below += group_bad
        i = j
    return round(wins / (n_good * n_bad), 4)


def cohen_kappa(pairs: Sequence[tuple[Any, Any]]) -> float | None:
    """Cohen's kappa of two raters over ``pairs`` of categories; None when there are no pairs or chance
    agreement is 1 (both raters always gave one and the same category)."""
    n = len(pairs)
    if not n:
        return None
    observed = sum(1 for a, b in pairs if a == b) / n
    first: dict[Any, int] = {}
    second: dict[Any, int] = {}
    for a, b in pairs:
        first[a] = first.get(a, 0) + 1
        second[b] = second.get(b, 0) + 1
    chance = sum(first[c] * second.get(c, 0) for c in first) / (n * n)
    if chance >= 1.0:
        return None
    return round((observed - chance) / (1.0 - chance), 4)
