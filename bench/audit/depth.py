"""Spec 5d's depth terms, measured with the line auditor's own rules (``bench.audit.line``):
floor regions and the main region, a region taken as a level of its own, part costs, the
pair split bound, beyond-pairs steps, the blocks relation and the longest must-move chain.

Readings fixed here (spec 5d read in its strongest plain sense):

- The **main region** is the floor region holding the most bodies; a tie goes to the region
  with more floor cells, then to the one whose first cell comes first in reading order.
- A **region's level** keeps every other cell as stone and the region's bodies, holes, paint
  and bridges.  ``mechanics=False`` lifts every freeze and lock (spec 5d's "mechanics
  lifted").  ``mechanics=True`` keeps them, reading what the rest of the board can give for
  free: a freeze threshold k becomes k minus the layers of the bodies outside the region
  (those can all leave first), and a lock whose keys are not all carried inside the region is
  lifted (its key can come from outside).  That restriction is exact for a one-region level,
  and a lower bound of the steps the whole level spends in the region otherwise.
- A **part** (a set P of bodies of a region's level): every other body removed, freezes and
  locks lifted, stones, paint and bridges kept, every hole passable as floor, and a step into
  an unused hole of the body's current outer colour allowed to be an exit (one layer per
  hole); as ``line.solo_cost`` for one body (the same step, onto the body's own vacated far
  end included), so that a part of one body costs its solo cost.
- X **blocks** Y only when Y alone can take its layers out (a finite solo cost) and cannot
  once X's cells are stone (the whole cell: a bridge's two lanes); a search out of budget
  leaves the pair undecided, never blocking.

Standard library only; budgets count stored states.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.audit.line import Level, floor_regions, replay, solo_cost
from bench.audit.shared import INF, LevelError, Move, State, assignment, astar

GOAL: State = (-2,)  # every body of a part has left (which holes they took does not matter)


# --------------------------------------------------------------------------------------------
# regions
# --------------------------------------------------------------------------------------------


def bodies_in(lv: Level, comp: Iterable[int]) -> list[int]:
    """The bodies (indices) lying in the floor region ``comp`` (cell indices)."""
    inside = set(comp)
    return [b for b in range(lv.k) if lv.bplaces[b][0] % lv.n in inside]


def regions_with_bodies(lv: Level) -> list[tuple[list[int], list[int]]]:
    """(cells, bodies) of every floor region."""
    return [(comp, bodies_in(lv, comp)) for comp in floor_regions(lv)]


def main_region(lv: Level) -> tuple[list[int], list[int]]:
    """(cells, bodies) of the main region: the most bodies, then the most floor, then the
    first in reading order."""
    regions = regions_with_bodies(lv)
    return max(regions, key=lambda r: (len(r[1]), len(r[0]), -r[0][0]))


def region_raw(lv: Level, comp: Iterable[int], mechanics: bool) -> dict[str, Any]:
    """The region as a level of its own (module docstring): every other cell stone, its
    bodies in their order in the level, its holes, paint and bridges."""
    raw = lv.raw
    inside = set(comp)
    cols = lv.cols

    def here(c: Any) -> bool:
        return int(c[1]) * cols + int(c[0]) in inside

    members = [b for b in range(lv.k) if lv.bplaces[b][0] % lv.n in inside]
    outside = sum(lv.nc[b] for b in range(lv.k) if b not in members)
    src = raw["bodies"]
    kept_locks = _kept_locks(src, members) if mechanics else set()
    bodies = []
    for b in members:
        body: dict[str, Any] = {"cells": src[b]["cells"], "colors": src[b]["colors"]}
        if mechanics:
            thaw = int(src[b].get("frozen") or 0) - outside
            if thaw > 0:
                body["frozen"] = thaw
            lock = src[b].get("lock")
            if lock and lock.get("id") in kept_locks:
                body["lock"] = lock
            if src[b].get("key") in kept_locks:
                body["key"] = src[b]["key"]
        bodies.append(body)
    holes = []
    for h in raw["holes"]:
        if here(h["cell"]):
            hole: dict[str, Any] = {"cell": h["cell"], "color": h["color"]}
            thaw = int(h.get("frozen") or 0) - outside if mechanics else 0
            if thaw > 0:
                hole["frozen"] = thaw
            holes.append(hole)
    return {
        "format": "gridforge.snakes.level/1", "cols": cols, "rows": lv.rows,
        "stones": [[c % cols, c // cols] for c in range(lv.n) if c not in inside],
        "bridges": [c for c in raw.get("bridges") or [] if here(c)],
        "paths": [p for p in raw.get("paths") or [] if here(p["cell"])],
        "bodies": bodies, "holes": holes,
    }


def _kept_locks(src: Sequence[Any], members: Sequence[int]) -> set[str]:
    """The lock ids on bodies of ``members`` whose keys are all carried by ``members``."""
    inside = set(members)
    carriers: dict[str, set[int]] = {}
    for b, body in enumerate(src):
        key = body.get("key")
        if isinstance(key, str):
            carriers.setdefault(key, set()).add(b)
    kept = set()
    for b in members:
        lock = src[b].get("lock")
        if isinstance(lock, dict) and carriers.get(str(lock.get("id")), {-1}) <= inside:
            kept.add(str(lock["id"]))
    return kept


def project(lv: Level, members: Sequence[int], solution: Any) -> list[list[Any]]:
    """The steps of ``solution`` (a level's) made by bodies of ``members``, renumbered for
    the region's level (whose bodies are ``members`` in order)."""
    index = {b: i for i, b in enumerate(members)}
    out = []
    for st in solution if isinstance(solution, list) else []:
        if isinstance(st, list) and len(st) == 3 and st[0] in index:
            out.append([index[st[0]], st[1], st[2]])
    return out


@dataclass
class Minimum:
    """A level's minimum as far as a search settled it: ``low`` <= minimum <= ``high``
    (``high`` None: no solution known); exact when they meet."""

    low: int
    high: int | None
    stored: int = 0
    solution: list[list[Any]] | None = None  # one of ``high`` steps, when known

    @property
    def exact(self) -> bool:
        return self.high is not None and self.low == self.high


def minimum(lv: Level, budget: int, known: Any = None) -> Minimum:
    """The level's minimum by exact A* (``budget`` stored states); ``known``: a solution
    that, when it replays, is the upper bound the search must beat."""
    high: int | None = None
    best: list[list[Any]] | None = None
    if known is not None and replay(lv, known)[0]:
        high, best = len(known), list(known)
    r = astar(lv, 1, budget, INF if high is None else high)
    if r["best"] is not None:
        high, best = len(r["best"]), r["best"]
    if r["exhausted"]:
        if high is None:
            return Minimum(INF, None, r["stored"])  # no solution at all
        return Minimum(high, high, r["stored"], best)
    return Minimum(min(r["lower"], high if high is not None else INF), high, r["stored"],
                   best)


def splice(lv: Level, solution: Sequence[Any],
           parts: Sequence[tuple[Sequence[int], Sequence[Any]]]) -> list[list[Any]] | None:
    """The shortest solution of ``lv`` found by putting each part's own steps (``members``,
    steps numbered as the region's level numbers them) in place of its members' steps in
    ``solution``: into the same slots in order (the rest after the last one), or, for a
    single part, as one block at every position among the other steps.  None when no such
    try replays (the mechanics want another order)."""
    def mapped(members: Sequence[int], steps: Sequence[Any]) -> list[list[Any]]:
        return [[members[st[0]], st[1], st[2]] for st in steps]

    tries: list[list[list[Any]]] = []
    current = [list(st) for st in solution]
    for members, steps in parts:
        current = _slotted(current, set(members), mapped(members, steps))
    tries.append(current)
    if len(parts) == 1:
        members, steps = parts[0]
        others = [list(st) for st in solution if st[0] not in set(members)]
        block = mapped(members, steps)
        tries += [others[:p] + block + others[p:] for p in range(len(others) + 1)]
    good = [t for t in tries if replay(lv, t)[0]]
    return min(good, key=len) if good else None


def _slotted(steps: list[list[Any]], members: set[int],
             new: list[list[Any]]) -> list[list[Any]]:
    slots = [i for i, st in enumerate(steps) if st[0] in members]
    if not slots:
        return steps + new
    out: list[list[Any]] = []
    queue = list(reversed(new))
    for i, st in enumerate(steps):
        if st[0] not in members:
            out.append(st)
            continue
        if queue:
            out.append(queue.pop())
        if i == slots[-1]:
            out.extend(reversed(queue))
    return out


# --------------------------------------------------------------------------------------------
# parts (spec 5d)
# --------------------------------------------------------------------------------------------


class Part:
    """The rules of a part (module docstring) as ``shared.astar`` wants them.  State: layers
    shed per member, holes used (by the part), the places of every member head first (-1
    once it has left); every state where all members have left is ``GOAL``."""

    def __init__(self, lv: Level, members: Sequence[int], stone: Iterable[int] = ()) -> None:
        self.lv = lv
        self.members = tuple(members)
        self.p = len(self.members)
        self.wall = [False] * lv.n
        for c in stone:
            self.wall[c % lv.n] = True
        self.colors = [lv.bcolors[b] for b in self.members]
        self.nc = [len(c) for c in self.colors]
        self.blen = [lv.blen[b] for b in self.members]
        self.off: list[int] = []
        o = self.p + lv.m
        for ln in self.blen:
            self.off.append(o)
            o += ln
        start = [0] * (self.p + lv.m)
        for b in self.members:
            start.extend(lv.bplaces[b])
        self.start: State = tuple(start)
        self.goal: State = GOAL
        self.cache: dict[tuple[Any, ...], int] = {}

    def _settle(self, ns: list[int]) -> State:
        return GOAL if all(ns[i] >= self.nc[i] for i in range(self.p)) else tuple(ns)

    def successors(self, s: State) -> list[tuple[Move, State]]:
        """Every step of a member from s (module docstring: holes are floor, and a step into
        an unused hole of the outer colour may also be an exit)."""
        lv, p = self.lv, self.p
        occ = [0] * (2 * lv.n)
        for i in range(p):
            if s[i] < self.nc[i]:
                for c in s[self.off[i] : self.off[i] + self.blen[i]]:
                    occ[c] = i + 1
        out: list[tuple[Move, State]] = []
        for i in range(p):
            if s[i] < self.nc[i]:
                self._steps(s, i, occ, out)
        return out

    def _steps(self, s: State, i: int, occ: list[int], out: list[tuple[Move, State]]) -> None:
        lv, p = self.lv, self.p
        o, ln = self.off[i], self.blen[i]
        cells = s[o : o + ln]
        outer = self.colors[i][s[i]]
        b = self.members[i]
        for e in (0, 1):
            src, far = (cells[0], cells[-1]) if e == 0 else (cells[-1], cells[0])
            for di, t in enumerate(lv.tgt[src]):
                if t < 0 or self.wall[t % lv.n]:
                    continue
                oc = occ[t]
                if oc and (oc != i + 1 or t != far or ln < 3):
                    continue
                hj = lv.hole_at[t]
                if hj >= 0 and not s[p + hj] and lv.hcolor[hj] == outer:
                    ns = list(s)
                    ns[i] += 1
                    ns[p + hj] = 1
                    if ns[i] >= self.nc[i]:
                        ns[o : o + ln] = [-1] * ln
                    out.append(((b, e, di), self._settle(ns)))
                if lv.paint[t] >= 0 and lv.paint[t] != outer:
                    continue
                moved = (t, *cells[:-1]) if e == 0 else (*cells[1:], t)
                out.append(((b, e, di), (*s[:o], *moved, *s[o + ln :])))

    def h(self, s: State) -> int:
        """Admissible: per outer colour, the members matched to distinct unused holes of it
        by the nearer end's distance (``Level.dist``: stones and walls only, so the part's
        extra stones and the holes it may cross only lengthen real routes), plus one step per
        inner layer left."""
        if s == GOAL:
            return 0
        lv, p = self.lv, self.p
        total = 0
        groups: dict[int, list[tuple[int, int]]] = {}
        for i in range(p):
            if s[i] < self.nc[i]:
                total += self.nc[i] - s[i] - 1
                hd, tl = s[self.off[i]], s[self.off[i] + self.blen[i] - 1]
                groups.setdefault(self.colors[i][s[i]], []).append((min(hd, tl), max(hd, tl)))
        for col, ends in groups.items():
            free = tuple(j for j in lv.holes_by_color.get(col, []) if not s[p + j])
            ends.sort()
            key = (col, tuple(ends), free)
            v = self.cache.get(key)
            if v is None:
                v = INF if len(free) < len(ends) else assignment(
                    [[min(lv.dist[j][a], lv.dist[j][c]) for j in free] for a, c in ends])
                self.cache[key] = v
            if v >= INF:
                return INF
            total += v
        return total


@dataclass
class PartCost:
    """A part's cost: ``cost`` (None: the part can never leave), exact unless the search ran
    out (then ``low`` is a lower bound), and the states it stored."""

    cost: int | None
    exact: bool
    low: int
    stored: int


def part_cost(lv: Level, members: Sequence[int], budget: int,
              stone: Iterable[int] = ()) -> PartCost:
    """The part cost of ``members`` (spec 5d) by exact A* within ``budget`` stored states."""
    r = astar(Part(lv, members, stone), 1, budget, INF)
    if r["exhausted"]:
        cost = len(r["best"]) if r["best"] is not None else None
        return PartCost(cost, True, INF if cost is None else cost, r["stored"])
    return PartCost(None, False, r["lower"], r["stored"])


def blocks(lv: Level, x: int, y: int, budget: int) -> bool | None:
    """Does x block y (y alone, x's cells stone, cannot leave at all)?  None: out of budget.
    The caller has made sure that y alone can leave."""
    r = astar(Part(lv, [y], lv.bplaces[x]), 2, budget, INF, first=True)
    if r["best"] is not None:
        return False
    return True if r["exhausted"] else None


def pair_split(singles: Sequence[int], pairs: dict[tuple[int, int], int]) -> int:
    """The largest sum of part costs over the partitions of the bodies 0..n-1 into pairs
    (``pairs[(i, j)]``, i < j) and singles: a DP over the set placed so far, always placing
    the lowest body not yet placed."""
    n = len(singles)
    memo: dict[int, int] = {(1 << n) - 1: 0}

    def best(mask: int) -> int:
        got = memo.get(mask)
        if got is not None:
            return got
        i = next(j for j in range(n) if not mask >> j & 1)
        here = mask | 1 << i
        top = singles[i] + best(here)
        for j in range(i + 1, n):
            if not here >> j & 1 and (i, j) in pairs:
                top = max(top, pairs[(i, j)] + best(here | 1 << j))
        memo[mask] = top
        return top

    return best(0)


def longest_chain(edges: dict[int, list[int]]) -> int:
    """The longest path X1 -> X2 -> ... with no body twice, in edges (0: no edge)."""
    most = 0

    def walk(x: int, seen: int, length: int) -> None:
        nonlocal most
        most = max(most, length)
        for y in edges.get(x, []):
            if not seen >> y & 1:
                walk(y, seen | 1 << y, length + 1)

    for x in edges:
        walk(x, 1 << x, 0)
    return most


@dataclass
class Depth:
    """Spec 5d's figures of one region's level (mechanics lifted).  Any figure None when a
    search ran out of budget (``why`` says which)."""

    bodies: int
    minimum: Minimum
    singles: list[int | None] = field(default_factory=list)
    pairs: dict[tuple[int, int], int] = field(default_factory=dict)
    split: int | None = None
    beyond: int | None = None
    edges: dict[int, list[int]] = field(default_factory=dict)
    chain: int | None = None
    undecided_blocks: int = 0
    stored: int = 0
    why: list[str] = field(default_factory=list)


def measure_depth(lv: Level, budget: int, known: Any = None) -> Depth:
    """Minimum, part costs of every single and pair, pair split bound, beyond-pairs steps,
    the blocks relation and the longest must-move chain of ``lv`` (a region's level with
    mechanics lifted); ``known``: a solution of it (the certificate's, projected)."""
    mini = minimum(lv, budget, known)
    d = Depth(lv.k, mini, stored=mini.stored)
    if not mini.exact:
        d.why.append("minimum out of budget")
    for b in range(lv.k):
        c, stored = solo_cost(lv, b, budget)
        d.stored += stored
        d.singles.append(c if c is not None and c >= 0 else None)
        if c is None or c < 0:
            d.why.append(f"solo {b} {'out of budget' if c == -1 else 'cannot leave'}")
    _pairs(lv, budget, d)
    if d.split is not None and mini.exact:
        d.beyond = mini.low - d.split
    _blocking(lv, budget, d)
    return d


def _pairs(lv: Level, budget: int, d: Depth) -> None:
    if any(s is None for s in d.singles):
        return
    singles = [int(s) for s in d.singles if s is not None]
    ok = True
    for i in range(lv.k):
        for j in range(i + 1, lv.k):
            pc = part_cost(lv, (i, j), budget)
            d.stored += pc.stored
            if pc.cost is None:
                ok = False
                d.why.append(f"pair {i},{j} {'cannot leave' if pc.exact else 'out of budget'}")
                continue
            d.pairs[(i, j)] = pc.cost
    if ok:
        d.split = pair_split(singles, d.pairs)


def _blocking(lv: Level, budget: int, d: Depth) -> None:
    for x in range(lv.k):
        d.edges[x] = []
        for y in range(lv.k):
            if x == y or d.singles[y] is None:
                continue
            got = blocks(lv, x, y, budget)
            if got is None:
                d.undecided_blocks += 1
            elif got:
                d.edges[x].append(y)
    if d.undecided_blocks:
        d.why.append(f"{d.undecided_blocks} blocks out of budget")
    d.chain = longest_chain(d.edges)


def region_level(lv: Level, comp: Iterable[int], mechanics: bool) -> Level:
    """``Level(region_raw(...))``; LevelError names what breaks (a region whose supply and
    demand differ, say)."""
    try:
        return Level(region_raw(lv, comp, mechanics))
    except LevelError as err:
        raise LevelError(f"main region: {err}") from err
