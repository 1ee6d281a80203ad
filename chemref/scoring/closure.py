"""COREFERENCE expansion: add every link that follows transitively (T1->T2, T2->T3 give T1->T3)."""

from __future__ import annotations

from typing import Hashable, Iterable, TypeVar

N = TypeVar("N", bound=Hashable)


def transitive_closure(links: Iterable[tuple[N, N]]) -> set[tuple[N, N]]:
    """All ``(a, c)`` with a directed path from ``a`` to ``c``, without self links ``(a, a)``."""
    succ: dict[N, list[N]] = {}
    for a, b in links:
        succ.setdefault(a, []).append(b)
    out: set[tuple[N, N]] = set()
    for start in succ:
        seen = {start}
        stack = list(succ[start])
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            out.add((start, node))
            stack.extend(succ.get(node, ()))
    return out
