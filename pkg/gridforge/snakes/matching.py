"""Minimum-cost assignment (seed 004 section 1, "最小费用匹配"; section 5, the A* bound).

Bodies of one colour are assigned to distinct holes of that colour at the least total cost.
:func:`min_cost_assignment` is the Hungarian algorithm with potentials (O(n^2 m), iterative,
rows <= columns); :func:`brute_force_assignment` tries every injection and exists to check it.
Small cases (one or two rows) take a direct path because the A* bound calls this per state.

Costs are non-negative ints; :data:`INF` (or anything at least as large) marks a pair that
can never be matched. A result at or above ``INF`` means no finite assignment exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

INF = 1 << 40


def min_cost_assignment(cost: Sequence[Sequence[int]]) -> tuple[int, list[int]]:
    """Least total cost of assigning each row to a distinct column, and the columns chosen.

    ``cost`` is n rows by m columns with n <= m; raises ValueError when n > m.
    """
    total, assign, _, _ = hungarian(cost)
    return total, assign


def hungarian(cost: Sequence[Sequence[int]]) -> tuple[int, list[int], list[int], list[int]]:
    """Optimal assignment with its dual: ``(total, assign, u, v)``.

    The duals are feasible (``u[i] + v[j] <= cost[i][j]``, every ``v[j] <= 0``) and tight
    (``sum(u) + sum(v) == total`` when the total is finite), so for any other cost matrix
    that differs in one row i, ``total - u[i] + min_j(cost'[i][j] - v[j])`` is a lower
    bound of the new optimum (weak duality): the A* bound uses that to update a colour
    group's matching when one body moves, without solving it again.
    """
    n = len(cost)
    if n == 0:
        return 0, [], [], []
    m = len(cost[0])
    if n > m:
        raise ValueError(f"cannot assign {n} rows to {m} columns")
    if n == 1:
        row = cost[0]
        best = min(range(m), key=row.__getitem__)
        return min(row[best], INF), [best], [row[best]], [0] * m
    # Hungarian algorithm (e-maxx formulation), 1-based with a virtual column 0.
    u = [0] * (n + 1)
    v = [0] * (m + 1)
    p = [0] * (m + 1)  # p[j]: row matched to column j
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [INF * 4] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = INF * 4
            j1 = 0
            row = cost[i0 - 1]
            ui0 = u[i0]
            for j in range(1, m + 1):
                if not used[j]:
                    cur = min(row[j - 1], INF) - ui0 - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    assign = [0] * n
    for j in range(1, m + 1):
        if p[j]:
            assign[p[j] - 1] = j - 1
    total = sum(min(cost[i][assign[i]], INF) for i in range(n))
    return min(total, INF), assign, u[1:], v[1:]


def min_cost(cost: Sequence[Sequence[int]]) -> int:
    """Only the least total cost (fast paths for one and two rows)."""
    n = len(cost)
    if n == 0:
        return 0
    if n == 1:
        return min(min(cost[0]), INF)
    if n == 2:
        a, b = cost
        best = INF
        for i, ai in enumerate(a):
            for j, bj in enumerate(b):
                if i != j and ai + bj < best:
                    best = ai + bj
        return min(best, INF)
    return min_cost_assignment(cost)[0]


def brute_force_assignment(cost: Sequence[Sequence[int]]) -> int:
    """Least total cost by trying every injection of rows into columns (checks only)."""
    n = len(cost)
    if n == 0:
        return 0
    m = len(cost[0])
    best = INF
    for cols in permutations(range(m), n):
        total = sum(min(cost[i][c], INF) for i, c in enumerate(cols))
        best = min(best, total)
    return min(best, INF)


__all__ = ["INF", "brute_force_assignment", "hungarian", "min_cost", "min_cost_assignment"]
