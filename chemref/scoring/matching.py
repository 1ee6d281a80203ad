"""Bipartite matching between gold and predicted items: Hopcroft–Karp (maximum).

Graphs are adjacency lists ``adj[i] = [j, ...]`` from left item ``i`` to right items ``j`` in
``range(n_right)``. Pure Python: the graphs of one document and one type are small.
"""

from __future__ import annotations

from collections import deque
from typing import Sequence

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
        queue = deque()
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
