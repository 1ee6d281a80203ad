"""COREFERENCE expansion: add every link that follows transitively (T1->T2, T2->T3 give T1->T3).

The closure is computed on the condensation of the link graph (strongly connected components, then one
reachability bit set per component, sinks first), so it costs O(nodes * links / 64) word operations and
its size is known before any pair is built: a caller can refuse a closure that would not fit.
"""

from __future__ import annotations

from typing import Hashable, Iterable, Iterator, TypeVar

N = TypeVar("N", bound=Hashable)

__all__ = ["ClosureTooLarge", "closure_pairs", "transitive_closure"]


class ClosureTooLarge(ValueError):
    """The closure holds more pairs than the limit given; ``size`` is how many it would hold."""

    def __init__(self, size: int, limit: int) -> None:
        self.size = size
        self.limit = limit
        super().__init__(f"the transitive closure holds {size} links, more than the limit of {limit}")


def _components(succ: list[list[int]]) -> list[list[int]]:
    """Strongly connected components (iterative Tarjan), sinks first (reverse topological order)."""
    n = len(succ)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    comps: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack[v] = True
            edges = succ[v]
            recursed = False
            while i < len(edges):
                w = edges[i]
                i += 1
                if index[w] < 0:
                    work.append((v, i))
                    work.append((w, 0))
                    recursed = True
                    break
                if on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
            if recursed:
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp.append(w)
                    if w == v:
                        break
                comps.append(comp)
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
    return comps


def _iter_bits(bits: int) -> Iterable[int]:
    """Positions of the set bits of ``bits``, lowest first (one pass over its binary digits)."""
    digits = bin(bits)[:1:-1]
    pos = digits.find("1")
    while pos >= 0:
        yield pos
        pos = digits.find("1", pos + 1)


def transitive_closure(links: Iterable[tuple[N, N]], limit: int | None = None) -> set[tuple[N, N]]:
    """All ``(a, c)`` with a directed path from ``a`` to ``c``, without self links ``(a, a)``.

    ``limit``: raise :class:`ClosureTooLarge` (before building any pair) when the closure would hold more.
    """
    return set(closure_pairs(links, limit))


def closure_pairs(links: Iterable[tuple[N, N]], limit: int | None = None) -> Iterator[tuple[N, N]]:
    """The pairs of :func:`transitive_closure`, each once, as an iterator.

    The size check (and :class:`ClosureTooLarge`) happens at the call, before the first pair.
    """
    ids: dict[N, int] = {}
    nodes: list[N] = []
    succ: list[list[int]] = []
    for a, b in links:
        for x in (a, b):
            if x not in ids:
                ids[x] = len(nodes)
                nodes.append(x)
                succ.append([])
        succ[ids[a]].append(ids[b])
    comps = _components(succ)
    comp_of = [0] * len(nodes)
    for c, members in enumerate(comps):
        for v in members:
            comp_of[v] = c
    # reach[c]: nodes reachable from component c by at least one link (its own members too when it is a cycle)
    reach: list[int] = [0] * len(comps)
    total = 0
    for c, members in enumerate(comps):  # sinks first: every successor component is done already
        bits = 0
        cyclic = len(members) > 1
        for v in members:
            for w in succ[v]:
                d = comp_of[w]
                if d == c:
                    cyclic = True
                else:
                    bits |= reach[d] | (1 << w)
        if cyclic:
            for v in members:
                bits |= 1 << v
        reach[c] = bits
        count = bits.bit_count()
        total += len(members) * count - (len(members) if cyclic else 0)  # self links are left out
    if limit is not None and total > limit:
        raise ClosureTooLarge(total, limit)
    return _pairs(nodes, reach, comp_of)


def _pairs(nodes: list[N], reach: list[int], comp_of: list[int]) -> Iterator[tuple[N, N]]:
    for v, a in enumerate(nodes):
        for w in _iter_bits(reach[comp_of[v]]):
            if w != v:
                yield a, nodes[w]
