"""Bipartite matching between gold and predicted items: Hopcroft–Karp (maximum).

Graphs are adjacency lists ``adj[i] = [j, ...]`` from left item ``i`` to right items ``j`` in
``range(n_right)``. Pure Python: the graphs of one document and one type are small.
"""

from __future__ import annotations

import heapq
from collections import deque
from typing import Hashable, Sequence

_INF = float("inf")


def max_matching(adj: Sequence[Sequence[int]], n_right: int) -> tuple[int, list[int]]:
    """Size of a maximum matching and ``match[i]`` = right partner of left ``i`` (or -1). Hopcroft–Karp."""
    n_left = len(adj)
    match_l = [-1] * n_left
    match_r = [-1] * n_right
    size = 0
    # cheap greedy start: most graphs are already perfect after it
    for i, row in enumerate(adj):
        for j in row:
            if match_r[j] < 0:
                match_l[i] = j
                match_r[j] = i
                size += 1
                break
    if size == n_left or size == n_right:
        return size, match_l
    dist = [0.0] * n_left
    while True:
        queue: deque[int] = deque()
        for i in range(n_left):
            if match_l[i] < 0:
                dist[i] = 0
                queue.append(i)
            else:
                dist[i] = _INF
        found = False
        while queue:
            i = queue.popleft()
            for j in adj[i]:
                k = match_r[j]
                if k < 0:
                    found = True
                elif dist[k] == _INF:
                    dist[k] = dist[i] + 1
                    queue.append(k)
        if not found:
            return size, match_l
        for i in range(n_left):
            if match_l[i] < 0 and _augment(i, adj, match_l, match_r, dist):
                size += 1


def _augment(root: int, adj: Sequence[Sequence[int]], match_l: list[int], match_r: list[int],
             dist: list[float]) -> bool:
    """Find one shortest augmenting path from ``root`` along the BFS layers (iterative DFS)."""
    stack = [(root, iter(adj[root]))]
    path: list[tuple[int, int]] = []
    while stack:
        i, it = stack[-1]
        advanced = False
        for j in it:
            k = match_r[j]
            if k < 0:
                path.append((i, j))
                for a, b in path:
                    match_l[a] = b
                    match_r[b] = a
                return True
            if dist[k] == dist[i] + 1:
                path.append((i, j))
                stack.append((k, iter(adj[k])))
                advanced = True
                break
        if not advanced:
            dist[i] = _INF
            stack.pop()
            if path:
                path.pop()
    return False


def closed_span(start: int, end: int, side: int) -> tuple[int, int]:
    """A span ``[start, end)`` as a closed integer interval that meets the other side's exactly where ChEMU's
    relaxed test (``s2 < e1 and s1 < e2``) says the spans overlap: ``[6 start + 2, 6 end - 2]``, and an empty
    span the point ``6 start + side`` (``side`` 0 for gold, 1 for predictions: two empty spans never meet, while
    an empty span meets the spans that hold it strictly inside)."""
    if end > start:
        return 6 * start + 2, 6 * end - 2
    point = 6 * start + side
    return point, point


def overlap_clusters(items: Sequence[tuple[Hashable, Sequence[tuple[int, int]]]], n_gold: int) -> list[int]:
    """Clusters of overlapping mentions: ``items`` are ``(label, fragments)``, the gold ones first (``n_gold`` of
    them); two items of a label share a cluster when fragments of theirs overlap (as :func:`closed_span` maps
    them), directly or through other items of either side. Every relaxed match lies inside one cluster.
    Returns each item's cluster number. One sweep over the sorted fragments: ``O(n log n)``, however many
    pairs overlap."""
    if len(items) >= VECTOR_ITEMS and all(len(m[1]) == 1 for m in items):
        found = _single_span_clusters(items, n_gold)
        if found is not None:
            return found
    events = []
    for x, (label, frags) in enumerate(items):
        side = 0 if x < n_gold else 1
        for s, e in frags:
            lo, hi = closed_span(s, e, side)
            events.append((label, lo, hi, x))
    events.sort()
    cluster = [-1] * len(items)
    parent: list[int] = []  # cluster -> the cluster it joined (items of several fragments join clusters)

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    current: Hashable = None
    reach = 0
    c = -1
    joined = False
    for label, lo, hi, x in events:
        if lo > reach or label != current:
            c += 1
            parent.append(c)
            current, reach = label, hi
        elif hi > reach:
            reach = hi
        k = cluster[x]
        if k < 0:
            cluster[x] = c
        elif k != c:
            a, b = find(k), find(c)
            if a != b:
                parent[b] = a
                joined = True
    for x, k in enumerate(cluster):
        if k < 0:  # no fragment: a cluster of its own
            c += 1
            parent.append(c)
            cluster[x] = c
    return [find(k) for k in cluster] if joined else cluster


#: from this many items, :func:`overlap_clusters` sweeps single spans with numpy arrays
VECTOR_ITEMS = 20_000


def _single_span_clusters(items: Sequence[tuple[Hashable, Sequence[tuple[int, int]]]], n_gold: int) -> list[int] | None:
    """:func:`overlap_clusters` of items of one span each, with numpy: the spans of each label shifted past the
    previous label's, sorted once, and a cluster started wherever a span starts after every earlier one ended.
    None when offsets are too large for 64-bit arrays."""
    import numpy as np

    labels: dict = {}
    lab = np.fromiter((labels.setdefault(m[0], len(labels)) for m in items), np.int64, len(items))
    try:
        spans = np.array([m[1][0] for m in items], np.int64).reshape(-1, 2)
    except OverflowError:
        return None
    s, e = spans[:, 0], spans[:, 1]
    if int(e.max()) >= 1 << 40 or len(labels) >= 1 << 16:
        return None
    point = 6 * s + (np.arange(len(items)) >= n_gold)
    lo = np.where(e > s, 6 * s + 2, point)
    hi = np.where(e > s, 6 * e - 2, point)
    width = int(hi.max()) + 1
    lo += lab * width
    hi += lab * width
    order = np.argsort(lo, kind="stable")
    reach = np.maximum.accumulate(hi[order])
    starts = np.ones(len(items), bool)
    starts[1:] = lo[order][1:] > reach[:-1]
    cluster = np.empty(len(items), np.int64)
    cluster[order] = np.cumsum(starts) - 1
    return cluster.tolist()


def interval_matching(gold: Sequence[tuple[int, int]], pred: Sequence[tuple[int, int]]) -> tuple[int, list[int]]:
    """Maximum matching between two sets of spans ``[start, end)``, an edge where two spans overlap as ChEMU's
    relaxed test says (``s2 < e1 and s1 < e2``): ``(size, match)`` with ``match[i]`` the partner of ``gold[i]``
    (or -1). A sweep in ``O(n log n)``, whatever the number of overlapping pairs.

    The span that ends first takes, of the other side's spans that have started, the one that ends first (an
    exchange argument shows some maximum matching does so). Spans are mapped to closed integer intervals,
    ``[6s+2, 6e-2]``, and an empty span to a point (``6s`` on the gold side, ``6s+1`` on the prediction side,
    so two empty spans never meet, while an empty span meets the spans that hold it strictly inside).
    """
    sides: list[list[tuple[int, int]]] = [[], []]
    for side, spans in ((0, gold), (1, pred)):
        sides[side] = [closed_span(s, e, side) for s, e in spans]
    by_start = [sorted(range(len(sp)), key=lambda i, sp=sp: sp[i][0]) for sp in sides]  # type: ignore[misc]
    next_start = [0, 0]
    heaps: list[list[tuple[int, int]]] = [[], []]
    done = [[False] * len(sides[0]), [False] * len(sides[1])]
    match_l = [-1] * len(gold)
    order = sorted(((r, side, i) for side in (0, 1) for i, (_, r) in enumerate(sides[side])))
    size = 0
    for r, side, i in order:
        if done[side][i]:
            continue
        done[side][i] = True
        for t in (0, 1):  # every span that has started by r waits, by its end, for a partner
            spans, starts, k, heap = sides[t], by_start[t], next_start[t], heaps[t]
            while k < len(starts) and spans[starts[k]][0] <= r:
                j = starts[k]
                heapq.heappush(heap, (spans[j][1], j))
                k += 1
            next_start[t] = k
        other = 1 - side
        heap, finished = heaps[other], done[other]
        while heap and finished[heap[0][1]]:
            heapq.heappop(heap)
        if heap:
            _, j = heapq.heappop(heap)
            finished[j] = True
            size += 1
            if side == 0:
                match_l[i] = j
            else:
                match_l[j] = i
    return size, match_l


def capacity_matching(left: Sequence[int], right: Sequence[int],
                      edges: Sequence[tuple[int, int]]) -> list[int]:
    """Maximum b-matching: left node ``a`` may be used ``left[a]`` times, right node ``c`` ``right[c]`` times,
    along ``edges`` ``(a, c)`` (unbounded). Returns the flow on each edge (Dinic's maximum flow).

    What a maximum matching of items is when items with identical neighbourhoods are merged into one node
    whose capacity is their number.
    """
    n_left = len(left)
    source, sink = n_left + len(right), n_left + len(right) + 1
    head: list[list[int]] = [[] for _ in range(sink + 1)]
    to: list[int] = []
    cap: list[int] = []

    def arc(u: int, v: int, c: int) -> int:
        head[u].append(len(to))
        to.append(v)
        cap.append(c)
        head[v].append(len(to))
        to.append(u)
        cap.append(0)
        return len(to) - 2

    big = sum(left) + 1
    edge_arcs = [arc(a, n_left + c, big) for a, c in edges]
    for a, c in enumerate(left):
        arc(source, a, c)
    for c, k in enumerate(right):
        arc(n_left + c, sink, k)
    while True:
        level = [-1] * (sink + 1)
        level[source] = 0
        queue = deque([source])
        while queue:
            u = queue.popleft()
            for a in head[u]:
                if cap[a] > 0 and level[to[a]] < 0:
                    level[to[a]] = level[u] + 1
                    queue.append(to[a])
        if level[sink] < 0:
            break
        it = [0] * (sink + 1)
        while True:  # blocking flow: iterative depth-first search along the levels
            path: list[int] = []
            u = source
            pushed = 0
            while True:
                if u == sink:
                    pushed = min(cap[a] for a in path)
                    for a in path:
                        cap[a] -= pushed
                        cap[a ^ 1] += pushed
                    break
                arcs = head[u]
                while it[u] < len(arcs):
                    a = arcs[it[u]]
                    if cap[a] > 0 and level[to[a]] == level[u] + 1:
                        break
                    it[u] += 1
                if it[u] == len(arcs):
                    if not path:
                        break
                    level[u] = -1  # dead end: never tried again in this phase
                    a = path.pop()
                    u = to[a ^ 1]
                    it[u] += 1
                    continue
                a = arcs[it[u]]
                path.append(a)
                u = to[a]
            if not pushed:
                break
    return [cap[a ^ 1] for a in edge_arcs]
