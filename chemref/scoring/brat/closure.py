"""COREFERENCE expansion: add every link that follows transitively (T1->T2, T2->T3 give T1->T3).

Links where every node has at most one successor and no cycle (chains, and trees of anaphors each pointing to
one antecedent: what ChEMU files hold) are counted and walked from a successor map alone, with no graph built.
Otherwise the link graph is condensed (strongly connected components) and split into its weakly connected parts,
each handled on its own. The closure's size is counted before any pair is built, in memory linear in the
links: a part whose condensation is a forest (each component has at most one successor, or at most one
predecessor: chains, and trees of anaphors) is counted exactly from path lengths, the sum of n(n-1)/2 over
its chains; any other part is bounded the same way, and counted with reachability bit sets numbered
within the part only when that bound exceeds the limit (stopping as soon as the count does). Pairs are then
built part by part: by walking the forests, with bit sets over the part's own nodes otherwise.
"""

from __future__ import annotations

from typing import Hashable, Iterable, Iterator, TypeVar

N = TypeVar("N", bound=Hashable)

__all__ = ["ClosureTooLarge", "chain_successors", "closure_pairs", "closure_size", "closure_targets",
           "transitive_closure"]


class ClosureTooLarge(ValueError):
    """The closure holds more pairs than the limit given; ``size`` is how many it would hold (``exact``), or
    how many were counted before the count stopped (not ``exact``: it holds more)."""

    def __init__(self, size: int, limit: int, exact: bool = True) -> None:
        self.size = size
        self.limit = limit
        self.exact = exact
        more = "" if exact else "more than "
        super().__init__(f"the transitive closure holds {more}{size} links, more than the limit of {limit}")


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


class _Graph:
    """The link graph condensed: components (sinks first), their successor components, and weak parts."""

    def __init__(self, links: Iterable[tuple[N, N]]) -> None:
        ids: dict = {}
        nodes: list = []
        succ: list[list[int]] = []
        for a, b in links:
            for x in (a, b):
                if x not in ids:
                    ids[x] = len(nodes)
                    nodes.append(x)
                    succ.append([])
            succ[ids[a]].append(ids[b])
        self.nodes = nodes
        comps = _components(succ)
        comp_of = [0] * len(nodes)
        for c, members in enumerate(comps):
            for v in members:
                comp_of[v] = c
        csucc: list[list[int]] = []
        cyclic: list[bool] = []
        n_pred = [0] * len(comps)
        for c, members in enumerate(comps):
            out: set[int] = set()
            loop = len(members) > 1
            for v in members:
                for w in succ[v]:
                    d = comp_of[w]
                    if d == c:
                        loop = True
                    else:
                        out.add(d)
            for d in out:
                n_pred[d] += 1
            csucc.append(sorted(out))
            cyclic.append(loop)
        self.comps, self.comp_of, self.csucc, self.cyclic, self.n_pred = comps, comp_of, csucc, cyclic, n_pred
        # weak parts of the condensation (union-find), each a list of components in sinks-first order
        parent = list(range(len(comps)))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for c, out_c in enumerate(csucc):
            for d in out_c:
                ra, rb = find(c), find(d)
                if ra != rb:
                    parent[ra] = rb
        parts: dict[int, list[int]] = {}
        for c in range(len(comps)):
            parts.setdefault(find(c), []).append(c)
        self.parts = list(parts.values())

    def is_forest(self, part: list[int]) -> bool:
        """Every component of ``part`` has at most one successor, or every one at most one predecessor."""
        return (all(len(self.csucc[c]) <= 1 for c in part) or all(self.n_pred[c] <= 1 for c in part))

    def bound(self, part: list[int], cap: int | None) -> int:
        """Pairs of ``part``'s closure when reach sets of different successors never share a node (exact for
        a forest, an upper bound otherwise); counting stops past ``cap``."""
        reach: dict[int, int] = {}
        total = 0
        for c in part:  # sinks first
            r = 0
            for d in self.csucc[c]:
                r += len(self.comps[d]) + reach[d]
            if cap is not None and r > cap:
                r = cap + 1
            reach[c] = r
            size = len(self.comps[c])
            total += size * r + (size * size - size if self.cyclic[c] else 0)
            if cap is not None and total > cap:
                return cap + 1
        return total

    def bits(self, part: list[int], cap: int | None) -> tuple[dict[int, int], list[int], int]:
        """Reachability bit sets of ``part``'s components over its own nodes (``local`` numbering), and the
        exact pair count; stops (the count then exceeds ``cap``) as soon as it passes ``cap``."""
        local: list[int] = [v for c in part for v in self.comps[c]]
        pos = {v: i for i, v in enumerate(local)}
        reach: dict[int, int] = {}
        total = 0
        for c in part:
            bits = 0
            for d in self.csucc[c]:
                b = reach[d]
                for w in self.comps[d]:
                    b |= 1 << pos[w]
                bits |= b
            members = self.comps[c]
            if self.cyclic[c]:
                for v in members:
                    bits |= 1 << pos[v]
            reach[c] = bits
            total += len(members) * bits.bit_count() - (len(members) if self.cyclic[c] else 0)
            if cap is not None and total > cap:
                break
        return reach, local, total

    def walk(self, c: int) -> Iterator[int]:
        """The nodes reachable from component ``c`` (its own members first when it is a cycle), each once."""
        if self.cyclic[c]:
            yield from self.comps[c]
        seen = {c}
        stack = list(self.csucc[c])
        while stack:
            d = stack.pop()
            if d in seen:
                continue
            seen.add(d)
            yield from self.comps[d]
            stack.extend(self.csucc[d])


def closure_size(links: Iterable[tuple[N, N]], limit: int | None = None) -> int:
    """How many pairs :func:`transitive_closure` would hold, counted without building them.

    With ``limit``, raises :class:`ClosureTooLarge` as soon as the count passes it (in memory linear in the
    links for chains and trees).
    """
    links = list(links)
    chains = _chains(links)
    if chains is not None:
        if limit is not None:
            _check_chains(chains, limit)
        return sum(chains[1].values())
    return _check(_Graph(links), limit, exact=True)


def _check(graph: _Graph, limit: int | None, exact: bool = False) -> int:
    """The closure's size (with ``exact=False``, an upper bound within ``limit`` may stand for it);
    ClosureTooLarge past ``limit``.

    First the bounds of every part (exact for forests); only when they pass the limit are the other parts
    counted exactly, each stopping as soon as the running count passes the limit.
    """
    bound = 0
    for part in graph.parts:
        bound += graph.bound(part, None if limit is None else limit - bound)
        if limit is not None and bound > limit:
            break
    else:
        if all(graph.is_forest(part) for part in graph.parts):
            return bound
        if limit is not None and not exact:
            return bound  # an upper bound within the limit: nothing to refuse
    total = 0
    for part in graph.parts:
        room = None if limit is None else limit - total
        if graph.is_forest(part):
            size = graph.bound(part, room)
        else:
            size = graph.bits(part, room)[2]
        if room is not None and limit is not None and size > room:
            whole = _exact_total(graph)
            if whole >= 0:
                raise ClosureTooLarge(whole, limit)
            raise ClosureTooLarge(total + size, limit, exact=False)
        total += size
    return total


def _exact_total(graph: _Graph) -> int:
    """The size of the whole closure when every part is a forest (linear), else -1."""
    total = 0
    for part in graph.parts:
        if not graph.is_forest(part):
            return -1
        total += graph.bound(part, None)
    return total


def transitive_closure(links: Iterable[tuple[N, N]], limit: int | None = None) -> set[tuple[N, N]]:
    """All ``(a, c)`` with a directed path from ``a`` to ``c``, without self links ``(a, a)``.

    ``limit``: raise :class:`ClosureTooLarge` (before building any pair) when the closure would hold more.
    """
    return set(closure_pairs(links, limit))


def check_closure_size(links: Iterable[tuple[N, N]], limit: int) -> None:
    """Raise :class:`ClosureTooLarge` when the closure of ``links`` would hold more than ``limit`` pairs
    (counted, never built)."""
    links = list(links)
    chains = _chains(links)
    if chains is not None:
        _check_chains(chains, limit)
        return
    _check(_Graph(links), limit)


def closure_pairs(links: Iterable[tuple[N, N]], limit: int | None = None) -> Iterator[tuple[N, N]]:
    """The pairs of :func:`transitive_closure`, each once, as an iterator.

    The size check (and :class:`ClosureTooLarge`) happens at the call, before the first pair.
    """
    targets = closure_targets(links, limit)
    return ((a, b) for a, reached in targets for b in reached)


def closure_targets(links: Iterable[tuple[N, N]], limit: int | None = None) -> Iterator[tuple[N, list[N]]]:
    """The closure as ``(node, [the nodes it reaches, other than itself])``, each node that reaches any once:
    :func:`closure_pairs` grouped by their first node. The size check happens at the call."""
    links = list(links)
    chains = _chains(links)
    if chains is not None:
        if limit is not None:
            _check_chains(chains, limit)
        return _chain_targets(chains[0])
    graph = _Graph(links)
    if limit is not None:
        _check(graph, limit)
    return _targets(graph)


def chain_successors(links: Iterable[tuple[N, N]], limit: int | None = None) -> dict | None:
    """``{node: its successor}`` when every node of ``links`` has at most one successor and no path comes back
    to where it started (the closure is then each node's path to its sink), else None; with ``limit``,
    ClosureTooLarge first when that closure would hold more pairs."""
    chains = _chains(list(links))
    if chains is None:
        return None
    if limit is not None:
        _check_chains(chains, limit)
    return chains[0]


def _chains(links: list[tuple[N, N]]) -> tuple[dict, dict] | None:
    """``({node: its successor}, {node: how many nodes it reaches})`` when every node has at most one
    successor and no path comes back to where it started (chains, and trees of anaphors each pointing to one
    antecedent); None otherwise. Linear in the links, no graph built."""
    succ = dict(links)
    if len(succ) != len(links):
        return None  # a node with two successors (or a link given twice)
    reach: dict = {}
    get = reach.get
    for v in succ:
        if v in reach:
            continue
        path = []
        w = v
        while True:
            d = get(w)
            if d is not None:
                if d < 0:
                    return None  # back on this path: a cycle
                break
            if w not in succ:
                d = 0  # a sink reaches nothing
                break
            reach[w] = -1
            path.append(w)
            w = succ[w]
        for u in reversed(path):
            d += 1
            reach[u] = d
    return succ, reach


def _check_chains(chains: tuple[dict, dict], limit: int) -> None:
    total = sum(chains[1].values())
    if total > limit:
        raise ClosureTooLarge(total, limit)


def _chain_targets(succ: dict) -> Iterator[tuple]:
    """Each node's path to its sink, built from its successor's (as many entries as the closure has pairs)."""
    reached: dict = {}
    for v in succ:
        if v in reached:
            continue
        path = []
        w = v
        while w in succ and w not in reached:
            path.append(w)
            w = succ[w]
        tail = reached.get(w, [])
        for u in reversed(path):
            tail = [succ[u], *tail]
            reached[u] = tail
            yield u, tail


def _targets(graph: _Graph) -> Iterator[tuple]:
    nodes = graph.nodes
    for part in graph.parts:
        if all(len(graph.csucc[c]) <= 1 for c in part):  # chains into a sink: each reach extends the next one's
            beyond: dict[int, list] = {}  # component -> the nodes it reaches outside itself
            for c in part:  # sinks first
                out = graph.csucc[c]
                far = [nodes[w] for w in graph.comps[out[0]]] + beyond[out[0]] if out else []
                beyond[c] = far
                own = [nodes[v] for v in graph.comps[c]]
                for a in own:
                    reached = [b for b in own if b is not a] + far if graph.cyclic[c] else far
                    if reached:
                        yield a, reached
            continue
        if graph.is_forest(part):
            for c in part:
                members = graph.comps[c]
                reach = list(graph.walk(c))
                for v in members:
                    reached = [nodes[w] for w in reach if w != v]
                    if reached:
                        yield nodes[v], reached
            continue
        reach_bits, local, _ = graph.bits(part, None)
        for c in part:
            targets = [local[i] for i in _iter_bits(reach_bits[c])]
            for v in graph.comps[c]:
                reached = [nodes[w] for w in targets if w != v]
                if reached:
                    yield nodes[v], reached
