"""What both auditors share: the step words, the min-cost assignment, the anytime A* over
full states, the one-body-at-a-time search and its rebuilt solution.

Each auditor brings its own rules (a level type with ``start``, ``goal``, ``successors`` and
an admissible ``h``): ``line`` reads terrain (paths and bridges), ``puzzle`` does not.
"""

from __future__ import annotations

import heapq
import os
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Protocol, TypedDict

DEFAULT_DATA = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "pkg", "gridforge", "snakes", "data"
)
DIRS = ("U", "D", "L", "R")
ENDS = ("head", "tail")
INF = 10**6
LOCK_NEED = {"silver": 1, "gold": 2}

State = tuple[int, ...]
Move = tuple[int, int, int]  # body, end index (0 head, 1 tail), direction index
Step = list[Any]  # a step as the level files write it: [body, "head" | "tail", "U" | ...]


class LevelError(Exception):
    """A level or certificate that breaks the written format (the message names the field)."""


class Rules(Protocol):
    """A level as the searches see it: full states, legal steps and an admissible bound."""

    @property
    def start(self) -> State: ...

    @property
    def goal(self) -> State: ...

    def successors(self, s: State) -> list[tuple[Move, State]]: ...

    def h(self, s: State) -> int: ...


class BodyRules(Rules, Protocol):
    """Rules whose state starts with the layers shed per body, then the holes used."""

    @property
    def k(self) -> int: ...

    @property
    def m(self) -> int: ...

    @property
    def nc(self) -> list[int]: ...


def colour_counts(bcolors: Sequence[Sequence[int]],
                  hcolor: Sequence[int]) -> tuple[dict[int, int], dict[int, int]]:
    """Layers per colour over the bodies (supply) and holes per colour (demand), each in
    the order its colours first appear: a level is solvable only when the two are equal."""
    supply: dict[int, int] = {}
    for cs in bcolors:
        for c in cs:
            supply[c] = supply.get(c, 0) + 1
    demand: dict[int, int] = {}
    for c in hcolor:
        demand[c] = demand.get(c, 0) + 1
    return supply, demand


def step_json(move: Move) -> Step:
    """A move as the level files write it."""
    return [move[0], ENDS[move[1]], DIRS[move[2]]]


# --------------------------------------------------------------------------------------------
# min-cost assignment (rows <= columns)
# --------------------------------------------------------------------------------------------


def assignment(cost: Sequence[Sequence[int]]) -> int:
    """Minimum total cost of giving every row its own column (len(rows) <= len(cols)); INF
    when there are more rows than columns.  Entries of INF add up: a sum at or above INF
    means no assignment avoids one."""
    n = len(cost)
    if n == 0:
        return 0
    m = len(cost[0])
    if n > m:
        return INF
    if n == 1:
        return min(cost[0])
    if n == 2:
        return _pair(cost[0], cost[1])
    return _hungarian(cost, n, m)


def _pair(a: Sequence[int], b: Sequence[int]) -> int:
    best = INF * 2
    for i, ai in enumerate(a):
        for j, bj in enumerate(b):
            if i != j and ai + bj < best:
                best = ai + bj
    return best


def _hungarian(cost: Sequence[Sequence[int]], n: int, m: int) -> int:
    """The Hungarian algorithm with potentials, O(n^2 m)."""
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    p = [0] * (m + 1)
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [float("inf")] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            j1, delta = _hungarian_column(cost[p[j0] - 1], u[p[j0]], v, minv, used, way, j0)
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
    return sum(cost[p[j] - 1][j - 1] for j in range(1, m + 1) if p[j])


def _hungarian_column(row: Sequence[int], ui0: float, v: list[float], minv: list[float],
                      used: list[bool], way: list[int], j0: int) -> tuple[int, float]:
    """One relaxation over the unused columns: the column to add and its slack."""
    delta = float("inf")
    j1 = 0
    for j in range(1, len(v)):
        if not used[j]:
            cur = row[j - 1] - ui0 - v[j]
            if cur < minv[j]:
                minv[j] = cur
                way[j] = j0
            if minv[j] < delta:
                delta = minv[j]
                j1 = j
    return j1, delta


# --------------------------------------------------------------------------------------------
# anytime weighted A* over full states
# --------------------------------------------------------------------------------------------


class SearchResult(TypedDict):
    """What ``astar`` found and what it proved."""

    best: list[Step] | None  # the shortest solution found below the bound
    exhausted: bool  # the open list emptied (with w == 1: nothing shorter than best/bound)
    stored: int
    expanded: int
    h0: int
    bound: int  # w == 1: no solution is shorter (least g + h still open, capped by best)
    lower: int  # w == 1: as bound, counting stale open entries too; at least h0


# the search's table: state -> (g, parent, move, h)
_Info = dict[State, tuple[int, State | None, Move | None, int]]


def astar(rules: Rules, w: float, max_states: int, bound: int,
          first: bool = False) -> SearchResult:
    """Anytime weighted A* for a solution shorter than ``bound`` (pruning g + h >= best
    found); ``first``: stop at the first solution found.  Stores at most ``max_states``
    states (then stops)."""
    start = rules.start
    h0 = rules.h(start)
    res = SearchResult(best=None, exhausted=False, stored=1, expanded=0, h0=h0, bound=bound,
                       lower=h0)
    if h0 >= INF or h0 >= bound:
        res["exhausted"] = True
        return res
    info: _Info = {start: (0, None, None, h0)}
    heap: list[tuple[float, int, int, State]] = [(w * h0, 0, 0, start)]
    best_len, best_state, exhausted = _astar_loop(rules, w, max_states, bound, first, info, heap,
                                                  res)
    res["exhausted"] = exhausted
    res["stored"] = len(info)
    if exhausted:
        res["lower"] = best_len  # the minimum itself when best was found, else >= bound
        res["bound"] = best_len
    else:
        # A node of a shortest path is always open with its true g (h admissible), so the
        # least f still open never exceeds the minimum (stale entries only lower it).
        res["lower"] = max(h0, int(min([best_len, *(e[0] for e in heap)])))
        open_f = (g + hh for _f, ng, _c, s in heap for g, _p, _m, hh in (info[s],) if g == -ng)
        res["bound"] = min(best_len, min(open_f, default=best_len))
    if best_state is not None:
        res["best"] = _path(info, best_state)
    return res


def _astar_loop(rules: Rules, w: float, max_states: int, bound: int, first: bool,
                info: _Info, heap: list[tuple[float, int, int, State]],
                res: SearchResult) -> tuple[int, State | None, bool]:
    """The search proper: (best length, its state, whether the open list emptied); counts
    the states it expands in ``res``."""
    pruned: dict[State, int] = {}  # h of states cut by the bound (not counted as stored)
    cnt = expanded = 0
    best_len = bound
    best_state: State | None = None
    goal = rules.goal
    successors, hfun = rules.successors, rules.h
    while heap:
        _f, ng, _c, s = heapq.heappop(heap)
        g = -ng
        rec = info.get(s)
        if rec is None or rec[0] != g or g + 1 >= best_len:
            continue
        expanded += 1
        g2 = g + 1
        for move, s2 in successors(s):
            old = info.get(s2)
            if old is not None and old[0] <= g2:
                continue
            if s2 == goal:
                best_len = g2
                info[s2] = (g2, s, move, 0)
                best_state = s2
                if first:
                    break
                continue
            h2 = old[3] if old is not None else pruned.get(s2)
            if h2 is None:
                h2 = hfun(s2)
            if h2 >= INF or g2 + h2 >= best_len:
                if old is None:
                    if len(pruned) > max(50000, max_states):
                        pruned.clear()
                    pruned[s2] = h2
                continue
            info[s2] = (g2, s, move, h2)
            cnt += 1
            heapq.heappush(heap, (g2 + w * h2, -g2, cnt, s2))
        if len(info) > max_states or (first and best_state is not None):
            res["expanded"] = expanded
            return best_len, best_state, False
    res["expanded"] = expanded
    return best_len, best_state, True


def _path(info: _Info, end: State) -> list[Step]:
    path: list[Step] = []
    cur = end
    while True:
        _g, par, mv, _h = info[cur]
        if par is None or mv is None:
            break
        path.append(step_json(mv))
        cur = par
    path.reverse()
    return path


# --------------------------------------------------------------------------------------------
# "solved one body at a time" (spec 5b)
# --------------------------------------------------------------------------------------------


class Explorer(Protocol):
    """One body moved alone: ``get(i)`` is its i-th way to have left (the holes-used mask
    after its last layer), None when there is none; it may spend the search's budget."""

    def get(self, i: int) -> int | None: ...


class LazyOutcomes(ABC):
    """An ``Explorer``'s bookkeeping: the outcomes found so far, each once, handed out in
    the order found; ``_advance`` searches on until one more is found or ``done``."""

    def __init__(self) -> None:
        self.outs: list[int] = []
        self.seen_outs: set[int] = set()
        self.done = False

    def get(self, i: int) -> int | None:
        """The i-th outcome (a holes-used mask), None when there is none; may spend budget."""
        while len(self.outs) <= i and not self.done:
            self._advance()
        return self.outs[i] if i < len(self.outs) else None

    def found(self, used: int) -> None:
        """An outcome: the body left with the holes of ``used`` taken."""
        if used not in self.seen_outs:
            self.seen_outs.add(used)
            self.outs.append(used)

    @abstractmethod
    def _advance(self) -> None:
        """Search on (spending the owner's budget) until an outcome is found or none is left."""


class OneAtATime(ABC):
    """Depth-first over (bodies gone, holes used); each body's own search (an ``Explorer``,
    made by the auditor's rules) hands out its outcomes lazily.  ``spent`` counts the body
    configurations the explorers took from ``budget``."""

    def __init__(self, bodies: int, budget: int) -> None:
        self.bodies = bodies
        self.budget = budget
        self.spent = 0
        self.memo: dict[tuple[int, int, int], Explorer] = {}
        self.fail: set[tuple[int, int]] = set()
        self.order: list[int] | None = None
        self.sequence: list[tuple[int, int]] = []  # (body, holes used after it), in order

    @abstractmethod
    def explore(self, b: int, gone: int, used: int) -> Explorer:
        """A new search for body b alone, the bodies in ``gone`` left, holes ``used`` taken."""

    def explorer(self, b: int, gone: int, used: int) -> Explorer:
        key = (b, gone, used)
        ex = self.memo.get(key)
        if ex is None:
            ex = self.explore(b, gone, used)
            self.memo[key] = ex
        return ex

    def run(self) -> str:
        """serial | not serial | undecided (the budget ran out)."""
        if self._dfs(0, 0, []):
            return "serial"
        return "undecided" if self.spent > self.budget else "not serial"

    def _dfs(self, gone: int, used: int, order: list[tuple[int, int]]) -> bool:
        if gone == (1 << self.bodies) - 1:
            self.order = [b for b, _u in order]
            self.sequence = list(order)
            return True
        if (gone, used) in self.fail:
            return False
        # round i tries every body's i-th outcome, so that a body with many possible
        # outcomes is not enumerated to the end before the others have had a turn
        exs = [(b, self.explorer(b, gone, used))
               for b in range(self.bodies) if not gone >> b & 1]
        i = 0
        while exs:
            alive = []
            for b, ex in exs:
                u2 = ex.get(i)
                if self.spent > self.budget:
                    return False
                if u2 is None:
                    continue
                alive.append((b, ex))
                order.append((b, u2))
                if self._dfs(gone | 1 << b, u2, order):
                    return True
                order.pop()
                if self.spent > self.budget:
                    return False
            exs = alive
            i += 1
        self.fail.add((gone, used))
        return False


def serial_solution(rules: BodyRules, sequence: Sequence[tuple[int, int]],
                    budget: int) -> list[Step] | None:
    """A full solution rebuilt from a serial answer: for each (body, holes used) in turn a
    breadth-first search over full states moving only that body; None when a search stores
    more than ``budget`` states or finds nothing (the serial answer was wrong)."""
    s = rules.start
    steps: list[Step] = []
    for b, mask in sequence:
        hit, parent = _one_body_bfs(rules, s, b, mask, budget)
        if hit is None:
            return None
        part: list[Step] = []
        y = hit
        link = parent[y]
        while link is not None:
            x, mv = link
            part.append(step_json(mv))
            y = x
            link = parent[y]
        steps.extend(reversed(part))
        s = hit
    return steps


def _one_body_bfs(rules: BodyRules, s: State, b: int, mask: int, budget: int
                  ) -> tuple[State | None, dict[State, tuple[State, Move] | None]]:
    """Breadth-first from s moving body b only, to its last exit with exactly the holes of
    ``mask`` used: (the state reached or None, the parent table)."""
    k, m = rules.k, rules.m
    want = tuple(mask >> j & 1 for j in range(m))
    parent: dict[State, tuple[State, Move] | None] = {s: None}
    frontier = [s]
    while frontier:
        nxt: list[State] = []
        for x in frontier:
            for mv, y in rules.successors(x):
                if mv[0] != b or y in parent:
                    continue
                parent[y] = (x, mv)
                if y[b] >= rules.nc[b] and y[k : k + m] == want:
                    return (None, parent) if len(parent) > budget else (y, parent)
                nxt.append(y)
            if len(parent) > budget:
                return None, parent
        frontier = nxt
    return None, parent
