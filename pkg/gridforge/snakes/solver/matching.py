"""Minimum-cost assignment (seed 004 section 1, "最小费用匹配"; section 5, the A* bound).

Bodies of one colour are assigned to distinct holes of that colour at the least total cost.
:func:`min_cost_assignment` is the Hungarian algorithm with potentials (O(n^2 m), iterative,
rows <= columns); :func:`brute_force_assignment` tries every injection and exists to check it.
Small cases (one or two rows) take a direct path because the A* bound calls this per state.

:class:`SquareMatch` is the form the A* search keeps per node: the same problem made square
with zero-cost dummy rows, so that its duals carry no sign constraint and a child state that
changes one row (a body slid) or loses a row and a column (a body exited) is re-solved by at
most one augmenting phase (O(m^2)) from its parent's optimum instead of from scratch.

Costs are non-negative ints; :data:`INF` (or anything at least as large) marks a pair that
can never be matched. A result at or above ``INF`` means no finite assignment exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from operator import sub

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
    assign = _assignment(p, n)
    total = sum(min(cost[i][assign[i]], INF) for i in range(n))
    return min(total, INF), assign, u[1:], v[1:]


def _assignment(p: list[int], n: int) -> list[int]:
    """Each of n rows' column, from the 1-based ``p[j]`` (the row matched to column j, 0
    for none) of :func:`hungarian`."""
    assign = [0] * n
    for j in range(1, len(p)):
        if p[j]:
            assign[p[j] - 1] = j - 1
    return assign


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


_HUGE = 1 << 62  # above every reduced cost, INF entries included
BLOCKED = 1 << 50  # minus the dual of an inactive column: row[j] - v[j] stays above INF


def augment(
    rows: Sequence[Sequence[int]],
    cols: Sequence[int],
    row_of: list[int],
    u: list[int],
    v: list[int],
    i: int,
) -> None:
    """One Hungarian phase: insert the unassigned row ``i`` by a shortest augmenting path.

    Columns are named by index; ``cols`` are the active ones, ``rows[r][j]`` the costs,
    ``row_of[j]`` the row on column j (-1: free), ``u``/``v`` the duals; ``row_of`` and ``v``
    have one extra slot at the end (the virtual start column). On entry the duals must be
    feasible (``u[r] + v[j] <= rows[r][j]`` on active columns) and tight on assigned pairs,
    and a free active column must exist; on exit the assignment has one more row and is
    optimal for the rows it holds (iterative, O(len(cols)^2)).

    This is e-maxx's phase with its dual updates deferred: ``dist[j]`` is the absolute
    shortest distance to column j (e-maxx's ``minv[j]`` plus the deltas applied so far),
    the next column is the first of ``cols`` with the smallest distance (e-maxx's choice,
    ties included), and each scanned column's dual moves once at the end by the distance
    still to go, so the result is e-maxx's to the last dual.
    """
    virtual = len(v) - 1
    row_of[virtual] = i
    dist = [_HUGE] * virtual
    way = [virtual] * virtual
    todo = list(cols)
    scanned = []  # (column, its distance when scanned)
    d0 = 0
    i0 = i
    j0 = virtual
    while True:
        row = rows[i0]
        base = d0 - u[i0]
        best = _HUGE
        j1 = -1
        for j in todo:
            cur = row[j] - v[j] + base
            if cur < dist[j]:
                dist[j] = cur
                way[j] = j0
            else:
                cur = dist[j]
            if cur < best:
                best = cur
                j1 = j
        d0 = best
        if row_of[j1] < 0:
            break
        todo.remove(j1)
        scanned.append((j1, best))
        j0 = j1
        i0 = row_of[j1]
    u[i] += d0
    for j, d in scanned:
        u[row_of[j]] += d0 - d
        v[j] -= d0 - d
    j0 = j1
    while j0 != virtual:
        j1 = way[j0]
        row_of[j0] = row_of[j1]
        j0 = j1
    row_of[virtual] = -1


class SquareMatch:
    """An optimal assignment of k real rows to distinct active columns, with its duals.

    Rows ``0..k-1`` are real, rows ``k..m-1`` (m = number of active columns) are dummies of
    cost 0, so the problem is square and every column is assigned. Columns are indices
    ``0..width-1``; inactive ones (used holes) have ``row_of == -1`` and ``v == -BLOCKED``,
    so ``row[j] - v[j]`` over all columns is huge there: ``min(map(sub, row, v))`` is the
    best reduced cost of a new row over the active columns. Duals are feasible and tight on
    assigned pairs, so for any matrix differing in row i, ``cost - u[i] + min_j(row'[j] -
    v[j])`` is a lower bound of its optimum (weak duality). Instances are never mutated,
    except ``memo``: a dict the caller may fill with values that depend on ``v`` alone (the
    A* search keeps ``min(map(sub, row, v))`` per row there); an edit that keeps ``v``
    passes the same dict on.
    """

    __slots__ = ("col_of", "cols", "cost", "dmin", "k", "memo", "row_of", "rows", "u", "v")

    def __init__(
        self,
        rows: tuple[Sequence[int], ...],
        k: int,
        cols: tuple[int, ...],
        col_of: tuple[int, ...],
        row_of: tuple[int, ...],
        u: tuple[int, ...],
        v: tuple[int, ...],
        cost: int,
        dmin: int,
        memo: dict[int, int] | None = None,
    ) -> None:
        self.memo = {} if memo is None else memo
        self.rows = rows
        self.k = k
        self.cols = cols
        self.col_of = col_of
        self.row_of = row_of
        self.u = u
        self.v = v
        self.cost = cost  # of the real rows, capped at INF
        self.dmin = dmin  # the smallest dual of a dummy row (0 without dummies)

    @classmethod
    def solve(
        cls, real: Sequence[Sequence[int]], cols: Sequence[int], width: int
    ) -> SquareMatch | None:
        """Solve from scratch (None when there are more rows than active columns)."""
        k = len(real)
        m = len(cols)
        if k > m:
            return None
        zero = (0,) * width
        rows = (*(tuple(r) for r in real), *([zero] * (m - k)))
        row_of = [-1] * (width + 1)
        u = [0] * m
        v = [-BLOCKED] * (width + 1)
        for j in cols:
            v[j] = 0
        for i in range(k):
            augment(rows, cols, row_of, u, v, i)
        # Dummies take the free columns, whose v is still 0: feasible and tight with u = 0.
        d = k
        for j in cols:
            if row_of[j] < 0:
                row_of[j] = d
                d += 1
        return cls._build(rows, k, tuple(cols), row_of, u, v)

    @classmethod
    def _build(
        cls,
        rows: tuple[Sequence[int], ...],
        k: int,
        cols: tuple[int, ...],
        row_of: list[int],
        u: list[int],
        v: list[int],
    ) -> SquareMatch:
        col_of = [0] * len(rows)
        cost = 0
        for j in cols:
            r = row_of[j]
            col_of[r] = j
            if r < k:
                cost += rows[r][j]
        cost = min(INF, cost)
        dmin = min(u[k:]) if len(u) > k else 0
        return cls(
            rows, k, cols, tuple(col_of), tuple(row_of[:-1]), tuple(u), tuple(v[:-1]), cost, dmin
        )

    def replace_row(
        self, i: int, row: Sequence[int], k: int = -1, best: int | None = None
    ) -> SquareMatch:
        """The optimum after real row ``i`` takes new costs ``row`` (at most one phase);
        with ``k == self.k + 1`` the dummy row ``i == self.k`` becomes real instead.
        ``best``, when the caller knows it, is ``min(map(sub, row, self.v))``."""
        if k < 0:
            k = self.k
        v = self.v
        if best is None:
            best = min(map(sub, row, v))
        ci = self.col_of[i]
        x = list(self.rows)  # (list, set, tuple: faster than splicing two slices)
        x[i] = row
        rows = tuple(x)
        uu = list(self.u)
        uu[i] = best
        u = tuple(uu)
        if row[ci] - v[ci] == best:
            # Still tight on its column: complementary slackness holds, nothing moves.
            if k == self.k:
                cost = self.cost - self.rows[i][ci] + row[ci]
                dmin = self.dmin
            else:  # a dummy became real
                cost = self.cost + row[ci]
                dmin = min(u[k:]) if len(u) > k else 0
            return SquareMatch(
                rows, k, self.cols, self.col_of, self.row_of, u, v, min(cost, INF), dmin,
                self.memo,
            )
        arg = ci
        for j in self.cols:
            if row[j] - v[j] == best:
                arg = j
                break
        d = self.row_of[arg]
        if d >= k and u[d] + v[ci] == 0:
            # The best column holds a dummy that is tight on ci as well: swap them.
            col_of = list(self.col_of)
            row_of = list(self.row_of)
            col_of[i], col_of[d] = arg, ci
            row_of[arg], row_of[ci] = i, d
            cost = self.cost - (self.rows[i][ci] if k == self.k else 0) + row[arg]
            dmin = min(u[k:]) if len(u) > k else 0
            return SquareMatch(
                rows, k, self.cols, tuple(col_of), tuple(row_of), u, v, min(cost, INF), dmin,
                self.memo,
            )
        row_of = [*self.row_of, -1]
        row_of[ci] = -1
        vv = [*v, 0]
        augment(rows, self.cols, row_of, uu, vv, i)
        return SquareMatch._build(rows, k, self.cols, row_of, uu, vv)

    def add_row(self, row: Sequence[int]) -> SquareMatch:
        """The optimum with one more real row (a dummy takes its costs; it becomes row k).

        Needs a dummy (k < number of active columns)."""
        return self.replace_row(self.k, row, self.k + 1)

    def drop_column(self, col: int) -> SquareMatch:
        """The optimum after active column ``col`` leaves with one dummy row (one phase at
        most). Needs a dummy (k < number of active columns)."""
        d = self.row_of[col]
        if d < self.k:
            d = len(self.rows) - 1  # the last dummy goes; the real row on col re-enters
        return self._drop(d, col, self.k)

    def remove(self, i: int, col: int) -> SquareMatch:
        """The optimum after real row ``i`` and active column ``col`` leave (one phase at most).

        Rows after ``i`` move up by one; ``col`` becomes inactive.
        """
        return self._drop(i, col, self.k - 1)

    def _drop(self, i: int, col: int, k: int) -> SquareMatch:
        ci = self.col_of[i]
        rows = (*self.rows[:i], *self.rows[i + 1 :])
        u = [*self.u[:i], *self.u[i + 1 :]]
        row_of = [r - (r > i) for r in self.row_of]
        row_of.append(-1)
        cols = tuple(j for j in self.cols if j != col)
        v = [*self.v, 0]
        v[col] = -BLOCKED
        if ci == col:
            row_of[col] = -1
            return SquareMatch._build(rows, k, cols, row_of, u, v)
        r = row_of[col]  # the row that held col, now without a column; ci is free
        row_of[col] = -1
        row_of[ci] = -1
        augment(rows, cols, row_of, u, v, r)
        return SquareMatch._build(rows, k, cols, row_of, u, v)


__all__ = [
    "BLOCKED",
    "INF",
    "SquareMatch",
    "augment",
    "brute_force_assignment",
    "hungarian",
    "min_cost",
    "min_cost_assignment",
]
