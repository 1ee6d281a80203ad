"""Span predicates shared by the scorers: exact / overlap on fragment tuples, BRATEval's variants,
and BRATEval's approximate string similarity (computed on UTF-16 code units, as Java does)."""

from __future__ import annotations

import math
from bisect import bisect_left
from typing import Generic, Hashable, Iterable, Sequence, TypeVar

K = TypeVar("K", bound=Hashable)

Frag = tuple[int, int]


def overlap(a: Sequence[Frag], b: Sequence[Frag]) -> bool:
    """ChEMU relaxed test: some fragment pair shares a character (``s2 < e1 and s1 < e2``)."""
    for s1, e1 in a:
        for s2, e2 in b:
            if s2 < e1 and s1 < e2:
                return True
    return False


def _start(row: tuple) -> int:
    return row[0]


class OverlapIndex(Generic[K]):
    """The items whose fragments :func:`overlap` a query's, found in O((hits + 1) log n) per fragment.

    Built once from ``(key, fragments)`` pairs: fragments sorted by start, with a max-end tree over them,
    so a query never looks at items that end before it starts or start after it ends.
    """

    def __init__(self, items: Iterable[tuple[K, Sequence[Frag]]]) -> None:
        rows = sorted(((s, e, k) for k, frags in items for s, e in frags), key=_start)
        self._starts = [r[0] for r in rows]
        self._keys = [r[2] for r in rows]
        size = 1
        while size < len(rows):
            size *= 2
        self._size = size
        tree = [-math.inf] * (2 * size)
        for i, r in enumerate(rows):
            tree[size + i] = r[1]
        for i in range(size - 1, 0, -1):
            tree[i] = max(tree[2 * i], tree[2 * i + 1])
        self._tree = tree

    def query(self, frags: Sequence[Frag]) -> set[K]:
        """Keys of the items with a fragment sharing a character with one of ``frags`` (``s2 < e1 and s1 < e2``)."""
        out: set[K] = set()
        tree, size, keys = self._tree, self._size, self._keys
        for s1, e1 in frags:
            hi = bisect_left(self._starts, e1)  # rows [0, hi) start before e1
            stack = [(1, 0, size)]
            while stack:
                node, lo, top = stack.pop()
                if lo >= hi or tree[node] <= s1:
                    continue
                if node >= size:
                    out.add(keys[lo])
                    continue
                mid = (lo + top) // 2
                stack.append((2 * node + 1, mid, top))
                stack.append((2 * node, lo, mid))
        return out


def brateval_exact(e1: Sequence[Frag], e2: Sequence[Frag]) -> bool:
    """BRATEval's exact span test: every fragment of ``e1`` occurs in ``e2`` (a subset test, asymmetric)."""
    return all(f in e2 for f in e1)


def _one_way(a: Sequence[Frag], b: Sequence[Frag]) -> bool:
    for s1, t1 in a:
        for s2, t2 in b:
            if (s2 <= s1 < t2) or (s2 < t1 <= t2):
                return True
    return False


def brateval_overlap(e1: Sequence[Frag], e2: Sequence[Frag]) -> bool:
    """BRATEval's overlap test, tried in both directions (differs from :func:`overlap` on empty fragments)."""
    return _one_way(e1, e2) or _one_way(e2, e1)


def _is_bmp(text: str) -> bool:
    return text.isascii() or all(ord(c) < 0x10000 for c in text)


def utf16_units(text: str) -> list[int]:
    """``text`` as a list of UTF-16 code units (a character outside the BMP gives two)."""
    data = text.encode("utf-16-le", "surrogatepass")
    return [data[i] | (data[i + 1] << 8) for i in range(0, len(data), 2)]


def banded_edit_distance(x: Sequence, y: Sequence, allowed: int) -> int:
    """BRATEval's banded Levenshtein distance, reproduced as is (stale cells outside the band included)."""
    lx, ly = len(x), len(y)
    lb = min(ly - lx, 0)
    ub = max(ly - lx, 0)
    margin = allowed - (ub - lb)
    if margin < 0:
        return allowed + 1
    d = list(range(ly + 1))
    for i in range(1, lx + 1):
        lo = max(1, lb + i - margin)
        hi = min(ly, ub + i + margin)
        j = lo
        subst = d[j - 1]
        d[j - 1] += 1
        xi = x[i - 1]
        while j <= hi:
            new = min(subst + (xi != y[j - 1]), d[j] + 1, d[j - 1] + 1)
            subst = d[j]
            d[j] = new
            j += 1
    return d[ly]


def brateval_similarity(a: str, b: str, threshold: float) -> float:
    """BRATEval's string similarity of two T text fields: ``1 - d/L`` when ``d`` is within the band, else 0."""
    if _is_bmp(a) and _is_bmp(b):
        x: Sequence = a
        y: Sequence = b
    else:  # compare UTF-16 code units on both sides, as Java's charAt does
        x, y = utf16_units(a), utf16_units(b)
    length = max(len(x), len(y))
    allowed = math.floor((1.0 - threshold) * float(length))
    dist = banded_edit_distance(x, y, allowed)
    if dist <= allowed:
        return 1.0 - dist / length if length else math.nan
    return 0.0
