#!/usr/bin/env python3
"""Independent audit of the snakes levels and their certificates.

    .venv/bin/python bench/puzzle_audit.py --levels 1-25
    .venv/bin/python bench/puzzle_audit.py --sample 20 --seed 7 --checks replay,score,bands
    .venv/bin/python bench/puzzle_audit.py --batch output/batch.json --checks replay,serial
    .venv/bin/python bench/puzzle_audit.py --levels 1-36 --checks lessons

Written from the written rules only (docs: shared spec ``snakes.md`` sections 1-6 and the
seed's section 3 score formula); it imports nothing from ``gridforge`` and reads only the
level/certificate JSON.  Standard library only.

Checks (``--checks``, default all):

- ``replay``   the certificate's solution replays legally to completion under this file's
               own rules; ``steps`` equals its length.
- ``shorter``  weighted A* (f = g + w*h; w=1.5 with 40,000 stored states, then w=3 with
               60,000) looking for a solution shorter than the certificate.  h is this file's
               own admissible and consistent bound: per current outer colour, a min-cost
               assignment of bodies to distinct unused holes of that colour, cost = wall-aware
               BFS distance from the nearer end to the hole, plus all remaining inner layers.
               States with g + h >= best known length are pruned, so an emptied open list
               proves that no shorter solution exists.
- ``serial``   "solved one body at a time", decided exactly: a depth-first search over
               (bodies gone, holes used); each body, moved alone from where it stands (the
               others untouched, freezes/locks as the rules say), is searched best-first
               over its own configurations and hands out the hole sets it can end with.
               serial / not serial / undecided (``--serial-budget``, default 1,000,000 body
               configurations).  A serial answer is rebuilt into a full solution and
               replayed under the full rules.  From level 11 on, a serial level whose meta
               does not say ``breather: true`` is listed as a failure.
- ``optimal``  certificates claiming ``optimal: true``: exact A* (w=1, default 300,000
               states) for a shorter solution: confirmed / refuted / out of budget.
- ``effort``   an independent difficulty signal: the states this file's A* stores (its own
               bound, no certificate), weighted w = 3 to the first solution (cap 100,000)
               and exact w = 1 to a proven minimum (cap 50,000); medians per band of
               ``--effort-band`` levels, with the share that hit the cap; and what the
               capped exact search leaves unproven ("left": the shortest replaying solution
               known, less the bound it reached), which does not saturate at the cap.
- ``witness``  mechanic witnesses (``certificate["witnesses"]``, ``["mechanics"]``, ... also
               one level down; a list of {"mechanic": "bodies[2].frozen" | "holes[1].frozen"
               | "bodies[0].lock", "solution": [...]} or a dict keyed by mechanic): with that
               one mechanic removed (freeze count, or the lock and its keys) the witness
               replays to completion in at most the certificate's steps, and the full rules
               refuse it.  Lists frozen bodies/holes and locks that have no witness.
- ``lessons``  issue 18's "lessons that force their idea", on levels 1-12, 18, 24, 30 and 36
               (the lesson of a level is fixed by its number, see LESSONS; a level's meta text
               is not read).  One line per lesson level: verdict holds / fails / undecided and
               the figures behind it.  "min" is the level's minimum by exact A* (w = 1, this
               file's bound, the certificate as upper bound when it replays); every search
               below is exact A* through a move filter (``View``) with ``--lesson-budget``
               stored states (default 200,000), so "none" means the filtered state space was
               exhausted without a solution, and a budget that runs out makes the verdict
               undecided, never holds or fails.  "X-only" restricts every step of every body
               unless a body is named.  Predicates (the strongest plain reading of the issue):
                1 grab the head: the heads-only minimum exists and equals min.
                2 grab the tail: no solution at all moves heads only (heads-only space
                  exhausted).
                3 turn a corner: no solution with horizontal steps only (L, R, the exit step
                  included) and none with vertical steps only (U, D).
                4 two colours: the bodies show at least two outer colours.  Figure only: the
                  colour-blind minimum (every colour set to one), i.e. whether colour costs.
                5 the nearer end: heads-only and tails-only each either have no solution or a
                  proven minimum >= min + 2 (min itself proven).  Figures also give, per body,
                  the minimum with only that body held to one end.
                6 back out, 7 make way, 11 make way twice: not solved one body at a time, as
                  decided by ``serial`` (its result is reused when that check ran).
                8 order matters: some order of the bodies' departures cannot be completed:
                  an order p such that no solution (any interleaving of steps, every body
                  free to move at any time) has the bodies take their last layers out in the
                  order p.  Every order is searched (at most 5 bodies: 120 orders); the
                  figures say which bodies can never leave first.
                9 long bodies that bend: some body has 5+ cells, and every such body must
                  turn: with that body held to horizontal steps (others free) there is no
                  solution, nor with it held to vertical steps.
               10 a breather: no mechanic (no coat, frozen body or hole, lock or key) and
                  solved one body at a time.  Figures: interaction (min - travel bound).
               12 coats: some body has a coat whose colour differs from the layer under it.
               18 frozen bodies, 24 frozen holes, 30 silver lock and key, 36 gold lock: the
                  level has the mechanic, and the level with every instance of it removed
                  (all body freezes / all hole freezes / every silver (gold) lock with its
                  keys) has a proven minimum strictly below the level's proven minimum.  The
                  relaxed rules accept every solution of the level, so the relaxed search
                  only looks below min; "<= X < min" (a shorter relaxed solution without
                  a proof of its minimum) is undecided.
               12-36 also: the lesson teaches: no loaded level before it uses the mechanic
                  (coats: a body with 2+ layers; gold: a gold lock); undecided when levels
                  before it are not all loaded, not checked by ``LessonJudge`` without the
                  loaded line.
- ``score``    the seven-term design score recomputed from the seed formula on the
               certificate's solution, term by term, against ``score.contributions`` and
               ``score.total`` (mismatch: total off by more than 0.05).  Readings where the
               written formula leaves room (``--score-opt`` switches the alternative on):
               the freeze-threshold sum counts bodies and holes; a shuffle run ends at an
               exit (``shuffle=maximal``: one run through a coated body's exits); two-cell
               slices are row/column cross-sections of exactly two floor cells between walls
               (``slices=pairs``: any adjacent pair that cuts); a body straddling a cut counts
               in the straddling term and not in the cross demand (``side=cells|head``); D's
               bounds include the inner layers; F = 0 when there is no free cell.
- ``bands``    per 100 levels: proven share, mean gap (steps - lower_bound), interaction
               steps (steps - own travel bound h at the start), mechanic shares (coats,
               frozen bodies, frozen holes, locks, gold locks, all four, none), serial share
               (when ``serial`` ran), share of levels where each contribution is at its full
               weight.

Every figure is this script's own; a level that does not load is reported, not raised.
``--budget-scale F`` multiplies every state budget.  ``--selftest`` cross-checks the fast
move generator against the plain rule function, the assignment against brute force and
A* against BFS on the selected levels, and on lesson levels with at most
100,000 states every restricted search of ``lessons`` (heads-, tails-, axis-only, each order,
each mechanic removed) against breadth-first search through the plain rule function, and
``serial`` against a brute-force one-body-at-a-time search.  Costs: A* stores ~2 KB per state
(300,000 states ~0.6 GB); ``shorter`` takes a few seconds per large level; ``lessons`` about a
second on the shipped lesson levels.  Exit code 0.
"""

from __future__ import annotations

import argparse
import glob
import heapq
import itertools
import json
import math
import os
import random
import re
import statistics
import sys
import time
from collections import deque

DEFAULT_DATA = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "pkg", "gridforge", "snakes", "data"
)
ALL_CHECKS = [
    "replay", "shorter", "serial", "optimal", "witness", "lessons", "score", "effort", "bands"
]
DIRS = ("U", "D", "L", "R")
DXY = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
ENDS = ("head", "tail")
INF = 10**6
WEIGHTS = {
    "occupancy": 18,
    "body_scale": 12,
    "steps": 18,
    "blocking": 14,
    "mechanics": 12,
    "shuffling": 8,
    "space": 18,
}
TERMS = list(WEIGHTS)
LOCK_NEED = {"silver": 1, "gold": 2}


class LevelError(Exception):
    """A level or certificate that breaks the written format (message names the field)."""


def clip(x: float) -> float:
    return min(1.0, max(0.0, x))


def _int(v, path, lo=None, hi=None):
    if isinstance(v, bool) or not isinstance(v, int):
        raise LevelError(f"{path}: expected an integer, got {v!r}")
    if lo is not None and v < lo:
        raise LevelError(f"{path}: {v} below {lo}")
    if hi is not None and v > hi:
        raise LevelError(f"{path}: {v} above {hi}")
    return v


# --------------------------------------------------------------------------------------------
# min-cost assignment (rows <= columns)
# --------------------------------------------------------------------------------------------


def assignment(cost):
    """Minimum total cost of giving every row its own column (len(rows) <= len(cols))."""
    n = len(cost)
    if n == 0:
        return 0
    m = len(cost[0])
    if n > m:
        return INF
    if n == 1:
        return min(cost[0])
    if n == 2:
        a, b = cost
        best = INF * 2
        for i in range(m):
            ai = a[i]
            for j in range(m):
                if i != j:
                    v = ai + b[j]
                    if v < best:
                        best = v
        return best
    # Hungarian algorithm (potentials), O(n^2 m)
    big = float("inf")
    u = [0] * (n + 1)
    v = [0] * (m + 1)
    p = [0] * (m + 1)
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [big] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = big
            j1 = 0
            row = cost[i0 - 1]
            ui0 = u[i0]
            for j in range(1, m + 1):
                if not used[j]:
                    cur = row[j - 1] - ui0 - v[j]
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
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    return sum(cost[p[j] - 1][j - 1] for j in range(1, m + 1) if p[j])


# --------------------------------------------------------------------------------------------
# the level and the rules
# --------------------------------------------------------------------------------------------


class Level:
    """A parsed level.  State = flat tuple:
    [layers consumed per body] + [hole used flags] + [cells of every body, head first]
    (a body that has left holds -1 in all its cells)."""

    def __init__(self, raw, relax=None):
        if not isinstance(raw, dict):
            raise LevelError("level: not an object")
        relax = relax or {}
        self.raw = raw
        cols = _int(raw.get("cols"), "cols", 2, 18)
        rows = _int(raw.get("rows"), "rows", 2, 24)
        self.cols, self.rows = cols, rows
        n = cols * rows
        self.n = n
        floor = [True] * n
        stones = raw.get("stones", [])
        if not isinstance(stones, list):
            raise LevelError("stones: not a list")
        for i, c in enumerate(stones):
            floor[self._cell(c, f"stones[{i}]")] = False
        self.floor = floor
        nb = []
        for idx in range(n):
            x, y = idx % cols, idx // cols
            row = []
            for d in DIRS:
                dx, dy = DXY[d]
                xx, yy = x + dx, y + dy
                if 0 <= xx < cols and 0 <= yy < rows and floor[yy * cols + xx]:
                    row.append(yy * cols + xx)
                else:
                    row.append(-1)
            nb.append(tuple(row))
        self.nb = nb
        self.nfloor = sum(floor)
        if not 4 <= self.nfloor <= 400:
            raise LevelError(f"stones: {self.nfloor} floor cells, outside 4..400")
        bodies = raw.get("bodies")
        if not isinstance(bodies, list) or not 1 <= len(bodies) <= 16:
            raise LevelError("bodies: expected a list of 1..16 bodies")
        holes = raw.get("holes")
        if not isinstance(holes, list):
            raise LevelError("holes: expected a list")
        occupied = {}
        self.bcells, self.bcolors, self.bfrozen, self.block, self.bkey = [], [], [], [], []
        for bi, b in enumerate(bodies):
            p = f"bodies[{bi}]"
            if not isinstance(b, dict):
                raise LevelError(f"{p}: not an object")
            cells = b.get("cells")
            if not isinstance(cells, list) or not 2 <= len(cells) <= 40:
                raise LevelError(f"{p}.cells: expected 2..40 cells")
            cl = []
            for ci, c in enumerate(cells):
                idx = self._cell(c, f"{p}.cells[{ci}]")
                if not floor[idx]:
                    raise LevelError(f"{p}.cells[{ci}]: on a stone")
                if idx in occupied:
                    raise LevelError(f"{p}.cells[{ci}]: overlaps {occupied[idx]}")
                if cl and idx not in nb[cl[-1]]:
                    raise LevelError(f"{p}.cells[{ci}]: not adjacent to the previous cell")
                occupied[idx] = p
                cl.append(idx)
            colors = b.get("colors")
            if not isinstance(colors, list) or not 1 <= len(colors) <= 4:
                raise LevelError(f"{p}.colors: expected 1..4 colours")
            for ci, c in enumerate(colors):
                _int(c, f"{p}.colors[{ci}]", 0, 14)
            fr = b.get("frozen", 0) or 0
            fr = _int(fr, f"{p}.frozen", 0)
            if relax.get(("body_frozen", bi)):
                fr = 0
            lock = b.get("lock")
            lk = None
            if lock is not None:
                if (
                    not isinstance(lock, dict)
                    or lock.get("kind") not in LOCK_NEED
                    or not isinstance(lock.get("id"), str)
                ):
                    raise LevelError(f"{p}.lock: expected {{id, kind: silver|gold}}")
                lk = (lock["id"], lock["kind"])
            key = b.get("key")
            if key is not None and not isinstance(key, str):
                raise LevelError(f"{p}.key: expected a lock id string")
            self.bcells.append(tuple(cl))
            self.bcolors.append(tuple(colors))
            self.bfrozen.append(fr)
            self.block.append(lk)
            self.bkey.append(key)
        # remove a lock (and its keys) when relaxed
        for lid in relax.get("locks", ()):
            for bi in range(len(bodies)):
                if self.block[bi] and self.block[bi][0] == lid:
                    self.block[bi] = None
                if self.bkey[bi] == lid:
                    self.bkey[bi] = None
        self.k = len(bodies)
        self.hcell, self.hcolor, self.hfrozen = [], [], []
        self.hole_at = [-1] * n
        for hi, h in enumerate(holes):
            p = f"holes[{hi}]"
            if not isinstance(h, dict):
                raise LevelError(f"{p}: not an object")
            idx = self._cell(h.get("cell"), f"{p}.cell")
            if not floor[idx]:
                raise LevelError(f"{p}.cell: on a stone")
            if idx in occupied:
                raise LevelError(f"{p}.cell: overlaps {occupied[idx]}")
            occupied[idx] = p
            col = _int(h.get("color"), f"{p}.color", 0, 14)
            fr = _int(h.get("frozen", 0) or 0, f"{p}.frozen", 0)
            if relax.get(("hole_frozen", hi)):
                fr = 0
            self.hcell.append(idx)
            self.hcolor.append(col)
            self.hfrozen.append(fr)
            self.hole_at[idx] = hi
        self.m = len(holes)
        # supply / demand per colour
        supply = {}
        for cs in self.bcolors:
            for c in cs:
                supply[c] = supply.get(c, 0) + 1
        demand = {}
        for c in self.hcolor:
            demand[c] = demand.get(c, 0) + 1
        if supply != demand:
            raise LevelError(
                f"holes: supply {dict(sorted(supply.items()))} != demand "
                f"{dict(sorted(demand.items()))} (unsolvable)"
            )
        # locks and keys
        self.lock_carriers = {}
        for bi, key in enumerate(self.bkey):
            if key is not None:
                self.lock_carriers.setdefault(key, []).append(bi)
        self.lock_need = []
        self.lock_keys = []
        for bi, lk in enumerate(self.block):
            if lk is None:
                self.lock_need.append(0)
                self.lock_keys.append(())
                continue
            carriers = tuple(self.lock_carriers.get(lk[0], ()))
            if bi in carriers:
                raise LevelError(f"bodies[{bi}].lock: the body carries its own key")
            if len(carriers) != LOCK_NEED[lk[1]]:
                raise LevelError(
                    f"bodies[{bi}].lock: {lk[1]} lock {lk[0]} has "
                    f"{len(carriers)} keys, needs {LOCK_NEED[lk[1]]}"
                )
            self.lock_need.append(LOCK_NEED[lk[1]])
            self.lock_keys.append(carriers)
        # layout
        self.blen = [len(c) for c in self.bcells]
        self.nc = [len(c) for c in self.bcolors]
        self.base = self.k + self.m
        self.off = []
        o = self.base
        for L in self.blen:
            self.off.append(o)
            o += L
        self.size = o
        self.total_layers = sum(self.nc)
        start = [0] * self.k + [0] * self.m
        for c in self.bcells:
            start.extend(c)
        self.start = tuple(start)
        self.holes_by_color = {}
        for hi, c in enumerate(self.hcolor):
            self.holes_by_color.setdefault(c, []).append(hi)
        self.dist = [self._bfs_from(c) for c in self.hcell]
        self.hcache = {}
        # the goal: every layer out, every hole used, no cells
        goal = [self.nc[b] for b in range(self.k)] + [1] * self.m + [-1] * sum(self.blen)
        self.goal = tuple(goal)

    def _cell(self, c, path):
        if (
            not isinstance(c, (list, tuple))
            or len(c) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in c)
        ):
            raise LevelError(f"{path}: expected [x, y]")
        x, y = c
        if not (0 <= x < self.cols and 0 <= y < self.rows):
            raise LevelError(f"{path}: [{x}, {y}] outside the {self.cols}x{self.rows} board")
        return y * self.cols + x

    def xy(self, idx):
        return [idx % self.cols, idx // self.cols]

    def _bfs_from(self, src):
        """Wall-aware distances over floor cells (stones and the wall block, nothing else)."""
        d = [INF] * self.n
        d[src] = 0
        q = deque([src])
        nb = self.nb
        while q:
            c = q.popleft()
            dc = d[c] + 1
            for t in nb[c]:
                if t >= 0 and d[t] > dc:
                    d[t] = dc
                    q.append(t)
        return d

    # ---- rules ------------------------------------------------------------------------------

    def can_move(self, s, b, exited=None):
        """None when body b may move in state s, else the reason."""
        k = self.k
        if s[b] >= self.nc[b]:
            return "has left the board"
        if exited is None:
            exited = sum(s[:k])
        if self.bfrozen[b] > exited:
            return f"frozen ({exited}/{self.bfrozen[b]} layers out)"
        if self.block[b] is not None:
            got = sum(1 for c in self.lock_keys[b] if s[c] >= self.nc[c])
            if got < self.lock_need[b]:
                return f"locked ({got}/{self.lock_need[b]} keys)"
        return None

    def apply(self, s, b, end, d):
        """Apply one step; returns (new_state, exited_flag) or raises ValueError(reason)."""
        k, _m = self.k, self.m
        if not (isinstance(b, int) and not isinstance(b, bool) and 0 <= b < k):
            raise ValueError(f"no body {b!r}")
        if end not in ENDS or d not in DXY:
            raise ValueError(f"bad step {end!r} {d!r}")
        why = self.can_move(s, b)
        if why:
            raise ValueError(f"body {b} {why}")
        o, L = self.off[b], self.blen[b]
        cells = s[o : o + L]
        src, far = (cells[0], cells[-1]) if end == "head" else (cells[-1], cells[0])
        x, y = src % self.cols, src // self.cols
        dx, dy = DXY[d]
        xx, yy = x + dx, y + dy
        if not (0 <= xx < self.cols and 0 <= yy < self.rows):
            raise ValueError("target outside the board")
        t = yy * self.cols + xx
        if not self.floor[t]:
            raise ValueError(f"target {self.xy(t)} is a stone")
        for c in range(k):
            if c != b and s[c] < self.nc[c]:
                oc = self.off[c]
                if t in s[oc : oc + self.blen[c]]:
                    raise ValueError(f"target {self.xy(t)} occupied by body {c}")
        if t in cells and not (t == far and L >= 3):
            raise ValueError(f"target {self.xy(t)} is the body's own cell")
        hj = self.hole_at[t]
        if hj >= 0 and not s[k + hj]:
            exited = sum(s[:k])
            outer = self.bcolors[b][s[b]]
            if self.hcolor[hj] != outer:
                raise ValueError(
                    f"target {self.xy(t)} is an unused hole of colour "
                    f"{self.hcolor[hj]}, body's outer colour is {outer}"
                )
            if self.hfrozen[hj] > exited:
                raise ValueError(f"hole {hj} frozen ({exited}/{self.hfrozen[hj]} layers out)")
            ns = list(s)
            ns[b] += 1
            ns[k + hj] = 1
            if ns[b] >= self.nc[b]:
                ns[o : o + L] = [-1] * L
            return tuple(ns), True
        newcells = (t, *cells[:-1]) if end == "head" else (*cells[1:], t)
        return s[:o] + newcells + s[o + L :], False

    def successors(self, s):
        """All legal steps from s: list of (move, state) with move = (b, end_index, dir_index)."""
        k, _m, _base = self.k, self.m, self.base
        nc, off, blen, nb = self.nc, self.off, self.blen, self.nb
        hole_at, hcolor, hfrozen = self.hole_at, self.hcolor, self.hfrozen
        exited = 0
        for b in range(k):
            exited += s[b]
        occ = [0] * self.n
        live = []
        for b in range(k):
            if s[b] < nc[b]:
                o = off[b]
                tag = b + 1
                for c in s[o : o + blen[b]]:
                    occ[c] = tag
                live.append(b)
        out = []
        for b in live:
            if self.bfrozen[b] > exited:
                continue
            if self.block[b] is not None:
                got = 0
                for c in self.lock_keys[b]:
                    if s[c] >= nc[c]:
                        got += 1
                if got < self.lock_need[b]:
                    continue
            o, L = off[b], blen[b]
            cells = s[o : o + L]
            head, tail = cells[0], cells[-1]
            outer = self.bcolors[b][s[b]]
            tag = b + 1
            for e in (0, 1):
                if e == 0:
                    src, far = head, tail
                else:
                    src, far = tail, head
                row = nb[src]
                for di in range(4):
                    t = row[di]
                    if t < 0:
                        continue
                    oc = occ[t]
                    if oc and (oc != tag or t != far or L < 3):
                        continue
                    hj = hole_at[t]
                    if hj >= 0 and not s[k + hj]:
                        if hcolor[hj] == outer and hfrozen[hj] <= exited:
                            ns = list(s)
                            ns[b] += 1
                            ns[k + hj] = 1
                            if ns[b] >= nc[b]:
                                ns[o : o + L] = [-1] * L
                            out.append(((b, e, di), tuple(ns)))
                        continue
                    if e == 0:
                        ns = (*s[:o], t, *cells[:-1], *s[o + L :])
                    else:
                        ns = s[:o] + cells[1:] + (t,) + s[o + L :]
                    out.append(((b, e, di), ns))
        return out

    def is_goal(self, s):
        return s == self.goal

    # ---- bounds -------------------------------------------------------------------------------

    def h(self, s):
        """Admissible, consistent bound: per colour min-cost matching of the nearer end's
        wall-aware distance to distinct unused holes of the body's outer colour (the exit step
        included), plus every remaining inner layer (one exit step each)."""
        k = self.k
        nc, off, blen = self.nc, self.off, self.blen
        inner = 0
        groups = {}
        for b in range(k):
            lb = s[b]
            if lb < nc[b]:
                inner += nc[b] - lb - 1
                hd = s[off[b]]
                tl = s[off[b] + blen[b] - 1]
                groups.setdefault(self.bcolors[b][lb], []).append((hd, tl) if hd < tl else (tl, hd))
        total = inner
        cache = self.hcache
        for col, ends in groups.items():
            free = tuple(j for j in self.holes_by_color[col] if not s[k + j])
            if len(ends) > 1:
                ends.sort()
            key = (col, tuple(ends), free)
            v = cache.get(key)
            if v is None:
                if len(free) < len(ends):
                    v = INF
                else:
                    dist = self.dist
                    cost = []
                    for hd, tl in ends:
                        r = []
                        for j in free:
                            dj = dist[j]
                            a, c = dj[hd], dj[tl]
                            r.append(a if a < c else c)
                        cost.append(r)
                    v = assignment(cost)
                    if v >= INF:
                        v = INF
                if len(cache) > 400000:
                    cache.clear()
                cache[key] = v
            if v >= INF:
                return INF
            total += v
        return total


def step_json(move):
    b, e, di = move
    return [b, ENDS[e], DIRS[di]]


def replay(level, solution):
    """(ok, message, states, exit_flags).  ok when every step is legal and the end is complete."""
    s = level.start
    states = [s]
    exits = []
    if not isinstance(solution, list):
        return False, "solution: not a list", states, exits
    for i, st in enumerate(solution):
        if not isinstance(st, (list, tuple)) or len(st) != 3:
            return False, f"step {i + 1}: malformed {st!r}", states, exits
        try:
            s, ex = level.apply(s, st[0], st[1], st[2])
        except ValueError as err:
            return False, f"step {i + 1} {list(st)}: {err}", states, exits
        states.append(s)
        exits.append(ex)
    if not level.is_goal(s):
        left = [b for b in range(level.k) if s[b] < level.nc[b]]
        unused = [j for j in range(level.m) if not s[level.k + j]]
        return (
            False,
            f"ends incomplete: bodies {left} on the board, holes {unused} unused",
            states,
            exits,
        )
    return True, "", states, exits


# --------------------------------------------------------------------------------------------
# A*
# --------------------------------------------------------------------------------------------


def astar(level, w, max_states, bound, first=False):
    """Anytime weighted A* for a solution shorter than ``bound`` (pruning g + h >= best);
    ``first``: stop at the first solution found.
    Returns dict(best=list of moves or None, exhausted=bool, stored, expanded, bound): with
    ``w == 1`` ``bound`` is what the search proved of the minimum where it stopped (the least
    g + h still open, at most the best length found; the minimum itself once exhausted)."""
    start = level.start
    h0 = level.h(start)
    res = {"best": None, "exhausted": False, "stored": 1, "expanded": 0, "h0": h0}
    if h0 >= INF or h0 >= bound:
        res["exhausted"] = True
        res["bound"] = bound
        return res
    info = {start: (0, None, None, h0)}  # state -> (g, parent, move, h)
    pruned = {}  # state -> h (not counted as stored)
    cnt = 0
    heap = [(w * h0, 0, 0, start)]
    best_len = bound
    best_state = None
    expanded = 0
    hfun = level.h
    goal = level.goal
    while heap:
        _f, ng, _, s = heapq.heappop(heap)
        g = -ng
        rec = info.get(s)
        if rec is None or rec[0] != g:
            continue
        if g + 1 >= best_len:
            continue
        expanded += 1
        g2 = g + 1
        for move, s2 in level.successors(s):
            old = info.get(s2)
            if old is not None and old[0] <= g2:
                continue
            if s2 == goal:
                if g2 < best_len:
                    best_len = g2
                    info[s2] = (g2, s, move, 0)
                    best_state = s2
                if first:
                    break
                continue
            if old is not None:
                h2 = old[3]
            else:
                h2 = pruned.get(s2)
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
            break
    else:
        res["exhausted"] = True
    res["stored"] = len(info)
    res["expanded"] = expanded
    # A node of an optimal path is always open with its true g (h admissible), so the least
    # f still open never exceeds the minimum.
    open_f = (g + hh for _f, ng, _, s in heap
              for g, _p, _m, hh in (info[s],) if g == -ng)
    res["bound"] = best_len if res["exhausted"] else min(best_len, min(open_f, default=best_len))
    if best_state is not None:
        path = []
        s = best_state
        while True:
            g, p, mv, _ = info[s]
            if p is None:
                break
            path.append(step_json(mv))
            s = p
        path.reverse()
        res["best"] = path
    return res


# --------------------------------------------------------------------------------------------
# serial ("solved one body at a time")
# --------------------------------------------------------------------------------------------


class BodyExplorer:
    """One body moved alone (the others standing still): a best-first search over its own
    configurations that hands out, one at a time, the hole-used masks with which it can have
    taken all its layers out.  Configurations are stored as compact ints (head cell + two bits
    per link + layer + holes used), so that large budgets stay small in memory."""

    def __init__(self, owner, b, gone, used):
        lv = owner.lv
        self.owner = owner
        self.outs = []
        self.done = False
        self.seen_outs = set()
        self.b = b
        self.exited0 = sum(lv.nc[c] for c in range(lv.k) if gone >> c & 1)
        self.colors = lv.bcolors[b]
        self.L = lv.blen[b]
        blocked = [False] * lv.n
        for c in range(lv.k):
            if c != b and not (gone >> c & 1):
                for x in lv.bcells[c]:
                    blocked[x] = True
        self.blocked = blocked
        # mechanics at the start of its turn (the others stand still, nothing changes later)
        if lv.bfrozen[b] > self.exited0 or (
            lv.block[b] is not None
            and sum(1 for c in lv.lock_keys[b] if gone >> c & 1) < lv.lock_need[b]
        ):
            self.done = True
            return
        need = {}
        for c in self.colors:
            need[c] = need.get(c, 0) + 1
        self.maxout = 1
        for c, q in need.items():
            avail = sum(1 for j in lv.holes_by_color[c] if not (used >> j & 1))
            if avail < q:
                self.done = True
                return
            self.maxout *= math.comb(avail, q)
        # cheap necessary condition: some end reaches (own cells passable) a usable hole
        cells = lv.bcells[b]
        outer = self.colors[0]
        reach = {cells[0], cells[-1]}
        stack = list(reach)
        ok = False
        while stack and not ok:
            x = stack.pop()
            for t in lv.nb[x]:
                if t < 0 or blocked[t] or t in reach:
                    continue
                hj = lv.hole_at[t]
                if hj >= 0 and not (used >> hj & 1):
                    if lv.hcolor[hj] == outer and lv.hfrozen[hj] <= self.exited0:
                        ok = True
                        break
                    continue
                reach.add(t)
                stack.append(t)
        if not ok:
            self.done = True
            return
        cols = lv.cols
        self.code = {-cols: 0, cols: 1, -1: 2, 1: 3}
        dirs = 0
        for i in range(self.L - 1):
            dirs |= self.code[cells[i + 1] - cells[i]] << (2 * i)
        self.lowmask = (1 << (2 * (self.L - 2))) - 1 if self.L >= 2 else 0
        self.cellbits = 9
        self.dirbits = 2 * (self.L - 1)
        self.seen = set()
        self.heap = []
        self.cnt = 0
        self._push(cells, dirs, 0, used)

    def _key(self, head, dirs, layer, u):
        return head | (dirs << 9) | (layer << (9 + self.dirbits)) | (u << (11 + self.dirbits))

    def _prio(self, cells, layer, u):
        lv = self.owner.lv
        col = self.colors[layer]
        hd, tl = cells[0], cells[-1]
        best = INF
        for j in lv.holes_by_color[col]:
            if not (u >> j & 1):
                dj = lv.dist[j]
                d = min(dj[hd], dj[tl])
                if d < best:
                    best = d
        return best - 4 * layer

    def _push(self, cells, dirs, layer, u):
        key = self._key(cells[0], dirs, layer, u)
        if key in self.seen:
            return
        self.seen.add(key)
        self.cnt += 1
        heapq.heappush(self.heap, (self._prio(cells, layer, u), self.cnt, cells, dirs, layer, u))

    def get(self, i):
        """The i-th outcome (a holes-used mask), None when there is none; may spend budget."""
        while len(self.outs) <= i and not self.done:
            self._advance()
        return self.outs[i] if i < len(self.outs) else None

    def _advance(self):
        owner = self.owner
        lv = owner.lv
        nb, hole_at, hcolor, hfrozen = lv.nb, lv.hole_at, lv.hcolor, lv.hfrozen
        blocked, code, L = self.blocked, self.code, self.L
        ncol = len(self.colors)
        heap = self.heap
        found = len(self.outs)
        while heap and len(self.outs) == found:
            _, _, cells, dirs, layer, u = heapq.heappop(heap)
            owner.spent += 1
            if owner.spent > owner.budget:
                owner.undecided = True
                self.done = True
                return
            exited = self.exited0 + layer
            outer = self.colors[layer]
            for e in (0, 1):
                if e == 0:
                    src, far = cells[0], cells[-1]
                else:
                    src, far = cells[-1], cells[0]
                for t in nb[src]:
                    if t < 0 or blocked[t]:
                        continue
                    if t in cells and not (t == far and L >= 3):
                        continue
                    hj = hole_at[t]
                    if hj >= 0 and not (u >> hj & 1):
                        if hcolor[hj] == outer and hfrozen[hj] <= exited:
                            u2 = u | (1 << hj)
                            if layer + 1 >= ncol:
                                if u2 not in self.seen_outs:
                                    self.seen_outs.add(u2)
                                    self.outs.append(u2)
                            else:
                                self._push(cells, dirs, layer + 1, u2)
                        continue
                    if e == 0:
                        moved = (t, *cells[:-1])
                        d2 = code[src - t] | ((dirs & self.lowmask) << 2)
                    else:
                        moved = (*cells[1:], t)
                        d2 = (dirs >> 2) | (code[t - src] << (2 * (L - 2)))
                    self._push(moved, d2, layer, u)
        if len(self.outs) >= self.maxout or not heap:
            self.done = True
            self.heap = []
            self.seen = set()


def serial_solution(lv, sequence, budget):
    """Rebuild a full solution from a serial order: for each (body, holes-used mask) in turn a
    BFS over full states that moves only that body.  None when a body's search ran out."""
    s = lv.start
    moves = []
    k, m = lv.k, lv.m
    for b, mask in sequence:
        want = tuple((mask >> j) & 1 for j in range(m))
        parent = {s: None}
        q = deque([s])
        hit = None
        while q and hit is None:
            x = q.popleft()
            for mv, y in lv.successors(x):
                if mv[0] != b or y in parent:
                    continue
                parent[y] = (x, mv)
                if y[b] >= lv.nc[b] and y[k : k + m] == want:
                    hit = y
                    break
                q.append(y)
            if len(parent) > budget:
                return None
        if hit is None:
            return None
        part = []
        y = hit
        while parent[y] is not None:
            x, mv = parent[y]
            part.append(step_json(mv))
            y = x
        moves.extend(reversed(part))
        s = hit
    return moves


class SerialSearch:
    """Is the level "solved one body at a time"?  Depth-first over (bodies gone, holes used);
    each body's own search (BodyExplorer) hands out outcomes lazily."""

    def __init__(self, level, budget):
        self.lv = level
        self.budget = budget
        self.spent = 0
        self.undecided = False
        self.memo = {}
        self.fail = set()
        self.order = None
        self.sequence = None

    def explorer(self, b, gone, used):
        key = (b, gone, used)
        ex = self.memo.get(key)
        if ex is None:
            ex = BodyExplorer(self, b, gone, used)
            self.memo[key] = ex
        return ex

    def dfs(self, gone, used, order):
        lv = self.lv
        if gone == (1 << lv.k) - 1:
            self.order = [b for b, _ in order]
            self.sequence = list(order)
            return True
        if (gone, used) in self.fail:
            return False
        # round i tries every body's i-th outcome, so that a body with many possible
        # outcomes is not enumerated to the end before the others have had a turn
        bodies = [b for b in range(lv.k) if not (gone >> b & 1)]
        exs = [(b, self.explorer(b, gone, used)) for b in bodies]
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
                if self.dfs(gone | (1 << b), u2, order):
                    return True
                order.pop()
                if self.spent > self.budget:
                    return False
            exs = alive
            i += 1
        self.fail.add((gone, used))
        return False

    def run(self):
        if self.dfs(0, 0, []):
            return "serial"
        if self.undecided:
            return "undecided"
        return "not serial"


# --------------------------------------------------------------------------------------------
# lessons (issue 18: "lessons that force their idea")
# --------------------------------------------------------------------------------------------

# level: (lesson, kind).  Kinds are defined in the module docstring ("lessons").
LESSONS = {
    1: ("grab the head", "head"),
    2: ("grab the tail", "tail"),
    3: ("turn a corner", "corner"),
    4: ("two colours", "colours"),
    5: ("the nearer end", "nearer"),
    6: ("back out", "make_way"),
    7: ("make way", "make_way"),
    8: ("order matters", "order"),
    9: ("long bodies that bend", "long"),
    10: ("a breather", "breather"),
    11: ("make way twice", "make_way"),
    12: ("coats", "coats"),
    18: ("frozen bodies", "body_frozen"),
    24: ("frozen holes", "hole_frozen"),
    30: ("silver lock and key", "silver"),
    36: ("gold lock (two keys)", "gold"),
}
LONG_BODY = 5  # "long" in lesson 9: at least this many cells (lessons 3-6 use 2-4)
HORIZONTAL = frozenset((2, 3))  # indices of L, R in DIRS
VERTICAL = frozenset((0, 1))  # U, D
MAX_ORDER_BODIES = 5  # lesson 8 tries every order of the bodies: 5! = 120 searches at most


class View:
    """A level seen through a move filter: ``allow(move)`` keeps a step (b, end, dir) by its
    kind; ``order`` (a sequence of body indices) lets a body take its last layer out only when
    every body before it in the order has left.  Same start, goal and bound as the level (the
    bound ignores the filter, so it stays admissible and consistent)."""

    def __init__(self, lv, allow=None, order=None):
        self.lv = lv
        self.start, self.goal, self.h = lv.start, lv.goal, lv.h
        self.allow = allow
        self.before = None
        if order is not None:
            self.before = {b: tuple(order[:i]) for i, b in enumerate(order)}

    def successors(self, s):
        lv = self.lv
        out = []
        for mv, s2 in lv.successors(s):
            if self.allow is not None and not self.allow(mv):
                continue
            b = mv[0]
            if (
                self.before is not None
                and s2[b] >= lv.nc[b] > s[b]
                and any(s[c] < lv.nc[c] for c in self.before[b])
            ):
                continue
            out.append((mv, s2))
        return out

    def obeys(self, solution):
        """Does a replayed solution respect the filter (checked step by step, plainly)?"""
        lv = self.lv
        s = lv.start
        gone = []
        for st in solution:
            b, e, d = st[0], ENDS.index(st[1]), DIRS.index(st[2])
            if self.allow is not None and not self.allow((b, e, d)):
                return False
            s2, _ = lv.apply(s, st[0], st[1], st[2])
            if s2[b] >= lv.nc[b] > s[b]:
                gone.append(b)
            s = s2
        return self.before is None or gone == [
            b for b in sorted(self.before, key=lambda x: len(self.before[x]))
        ]


def only_end(e, bodies=None):
    """Steps by end ``e`` (0 head, 1 tail) only; ``bodies``: restrict those bodies only."""
    if bodies is None:
        return lambda mv: mv[1] == e
    return lambda mv: mv[0] not in bodies or mv[1] == e


def only_axis(axis, bodies=None):
    if bodies is None:
        return lambda mv: mv[2] in axis
    return lambda mv: mv[0] not in bodies or mv[2] in axis


def exact_min(view, budget, bound=INF):
    """Exact A* (w=1) on a level or View.  Returns dict(kind, value, states, solution):
    kind "min" (proven minimum = value), "none" (no solution: the reachable space with a
    finite bound is exhausted; with a finite ``bound``: no solution shorter than it,
    value = bound), "le" (a solution of value steps, minimum unproven), "undecided"."""
    r = astar(view, 1.0, budget, bound)
    best = r["best"]
    rec = {"states": r["stored"], "solution": best, "value": None}
    if best is not None:
        rec["value"] = len(best)
        rec["kind"] = "min" if r["exhausted"] else "le"
        lv = view.lv if isinstance(view, View) else view
        ok, msg, _, _ = replay(lv, best)
        if not ok or (isinstance(view, View) and not view.obeys(best)):
            raise RuntimeError(f"own restricted solution is not legal: {msg or 'filter broken'}")
    elif r["exhausted"]:
        rec["kind"] = "none"
        rec["value"] = None if bound >= INF else bound
    else:
        rec["kind"] = "undecided"
    return rec


def fmt_min(rec):
    k = rec["kind"]
    if k == "min":
        return str(rec["value"])
    if k == "le":
        return f"<={rec['value']}?"
    if k == "none":
        return "none" if rec["value"] is None else f">={rec['value']}"
    return f"?({rec['states']}st)"


def tri(flags):
    """Combine holds/fails/undecided parts: all must hold."""
    if "fails" in flags:
        return "fails"
    if "undecided" in flags:
        return "undecided"
    return "holds"


def mechanic_uses(raw):
    """The mechanic kinds a raw level uses (coats, body_frozen, hole_frozen, silver, gold)."""
    used = set()
    if not isinstance(raw, dict):
        return used
    for b in raw.get("bodies") or []:
        if not isinstance(b, dict):
            continue
        if isinstance(b.get("colors"), list) and len(b["colors"]) > 1:
            used.add("coats")
        if b.get("frozen"):
            used.add("body_frozen")
        lk = b.get("lock")
        if isinstance(lk, dict) and lk.get("kind") in LOCK_NEED:
            used.add(lk["kind"])
    for h in raw.get("holes") or []:
        if isinstance(h, dict) and h.get("frozen"):
            used.add("hole_frozen")
    return used


def relaxed_level(raw, kind):
    """The level with every instance of one mechanic kind removed (None: none to remove)."""
    bodies = raw.get("bodies") or []
    if kind == "body_frozen":
        ids = [b for b, x in enumerate(bodies) if x.get("frozen")]
        return (
            (Level(raw, relax={("body_frozen", b): True for b in ids}), len(ids))
            if ids
            else (None, 0)
        )
    if kind == "hole_frozen":
        ids = [j for j, h in enumerate(raw.get("holes") or []) if h.get("frozen")]
        return (
            (Level(raw, relax={("hole_frozen", j): True for j in ids}), len(ids))
            if ids
            else (None, 0)
        )
    locks = sorted(
        {
            x["lock"]["id"]
            for x in bodies
            if isinstance(x.get("lock"), dict) and x["lock"].get("kind") == kind
        }
    )
    return (Level(raw, relax={"locks": locks}), len(locks)) if locks else (None, 0)


def colour_blind(raw):
    """The level with every colour set to 0 (any body may take any hole)."""
    r = json.loads(json.dumps(raw))
    for b in r["bodies"]:
        b["colors"] = [0] * len(b["colors"])
    for h in r["holes"]:
        h["color"] = 0
    return Level(r)


class LessonJudge:
    """Decides one lesson level's predicate; every search has ``budget`` stored states."""

    def __init__(self, it, budget, serial_budget, serial_known=None, first_use=None):
        self.it = it
        self.lv = it.level
        self.budget = budget
        self.serial_budget = serial_budget
        self.serial_known = serial_known
        self.first_use = first_use  # None: the first-use part is not checked
        self._opt = None

    # the level's own minimum, with the certificate (when it replays) as the upper bound
    def opt(self):
        if self._opt is None:
            lv = self.lv
            sol = self.it.cert.get("solution") if isinstance(self.it.cert, dict) else None
            ok = isinstance(sol, list) and replay(lv, sol)[0]
            rec = exact_min(lv, self.budget, len(sol) if ok else INF)
            if ok and rec["kind"] == "none":  # nothing shorter than the certificate
                rec = {"kind": "min", "value": len(sol), "states": rec["states"], "solution": sol}
            elif ok and rec["kind"] == "undecided":
                rec = {"kind": "le", "value": len(sol), "states": rec["states"], "solution": sol}
            self._opt = rec
        return self._opt

    def opt_text(self):
        return fmt_min(self.opt())

    def judge(self, kind):
        return getattr(self, "j_" + kind)()

    # 1 -------------------------------------------------------------------------------------
    def j_head(self):
        o = self.opt()
        hd = exact_min(View(self.lv, only_end(0)), self.budget)
        if o["kind"] != "min":
            v = "undecided"
        elif hd["kind"] == "min":
            v = "holds" if hd["value"] == o["value"] else "fails"
        elif hd["kind"] == "none":
            v = "fails"
        elif hd["kind"] == "le" and hd["value"] == o["value"]:
            v = "holds"
        else:
            v = "undecided"
        return v, f"heads-only min {fmt_min(hd)} vs min {fmt_min(o)}"

    # 2 -------------------------------------------------------------------------------------
    def j_tail(self):
        o = self.opt()
        hd = exact_min(View(self.lv, only_end(0)), self.budget)
        v = {"none": "holds", "min": "fails", "le": "fails"}.get(hd["kind"], "undecided")
        return v, f"heads-only {fmt_min(hd)} ({hd['states']} states) vs min {fmt_min(o)}"

    # 3 -------------------------------------------------------------------------------------
    def _axes(self, bodies=None):
        h = exact_min(View(self.lv, only_axis(HORIZONTAL, bodies)), self.budget)
        w = exact_min(View(self.lv, only_axis(VERTICAL, bodies)), self.budget)
        parts = [
            {"none": "holds", "min": "fails", "le": "fails"}.get(r["kind"], "undecided")
            for r in (h, w)
        ]
        return tri(parts), h, w

    def j_corner(self):
        v, h, w = self._axes()
        return v, (
            f"horizontal-only {fmt_min(h)} ({h['states']} st), vertical-only {fmt_min(w)} "
            f"({w['states']} st), min {self.opt_text()}"
        )

    # 4 -------------------------------------------------------------------------------------
    def j_colours(self):
        lv = self.lv
        outer = sorted({c[0] for c in lv.bcolors})
        v = "holds" if len(outer) >= 2 else "fails"
        o = self.opt()
        extra = ""
        try:
            cb = exact_min(
                colour_blind(self.it.raw),
                self.budget,
                (o["value"] or INF) if o["kind"] == "min" else INF,
            )
            if o["kind"] == "min":
                if cb["kind"] in ("min", "le"):
                    extra = f"; colour-blind min {fmt_min(cb)} < {o['value']}: colour costs steps"
                elif cb["kind"] == "none":
                    extra = f"; colour-blind min = {o['value']}: colour costs no step"
                else:
                    extra = "; colour-blind min undecided"
        except LevelError as err:
            extra = f"; colour-blind level: {err}"
        return v, f"outer colours {outer} on {lv.k} bodies; min {fmt_min(o)}{extra}"

    # 5 -------------------------------------------------------------------------------------
    def j_nearer(self):
        o = self.opt()
        recs = [exact_min(View(self.lv, only_end(e)), self.budget) for e in (0, 1)]
        parts = []
        for r in recs:
            if o["kind"] != "min":
                parts.append("undecided")
            elif r["kind"] == "none":
                parts.append("holds")
            elif r["kind"] == "min":
                parts.append("holds" if r["value"] >= o["value"] + 2 else "fails")
            elif r["kind"] == "le" and r["value"] <= o["value"] + 1:
                parts.append("fails")
            else:
                parts.append("undecided")
        per = []
        for b in range(self.lv.k):
            pb = [exact_min(View(self.lv, only_end(e, {b})), self.budget) for e in (0, 1)]
            per.append(f"b{b} head-only {fmt_min(pb[0])}/tail-only {fmt_min(pb[1])}")
        return tri(parts), (
            f"heads-only {fmt_min(recs[0])}, tails-only {fmt_min(recs[1])} vs min {fmt_min(o)} "
            f"(need >= min+2 or none); per body (others free): " + ", ".join(per)
        )

    # 6, 7, 11 ------------------------------------------------------------------------------
    def serial(self):
        if self.serial_known in ("serial", "not serial"):
            return self.serial_known, None
        ss = SerialSearch(self.lv, self.serial_budget)
        return ss.run(), ss

    def j_make_way(self):
        ans, ss = self.serial()
        v = {"not serial": "holds", "serial": "fails"}.get(ans, "undecided")
        txt = ans
        if ss is not None:
            txt += f" ({ss.spent} body configurations)"
            if ans == "serial":
                txt += f", order {ss.order}"
                sol = serial_solution(self.lv, ss.sequence, self.budget)
                if sol is not None and replay(self.lv, sol)[0]:
                    txt += f", one-at-a-time solution {len(sol)} steps"
        else:
            txt += " (from the serial check)"
        lv = self.lv
        return v, f"{txt}; min {self.opt_text()}, travel bound {lv.h(lv.start)}"

    # 8 -------------------------------------------------------------------------------------
    def j_order(self):
        lv = self.lv
        k = lv.k
        if k < 2:
            return "fails", "one body: no order"
        if k > MAX_ORDER_BODIES:
            return "undecided", f"{k} bodies: more than {MAX_ORDER_BODIES}, orders not tried"
        failing, open_, mins = [], [], {}
        for perm in itertools.permutations(range(k)):
            r = exact_min(View(lv, order=perm), self.budget)
            if r["kind"] == "none":
                failing.append(list(perm))
            elif r["kind"] == "undecided":
                open_.append(list(perm))
            else:
                mins[perm] = fmt_min(r)
        total = math.factorial(k)
        v = "holds" if failing else ("undecided" if open_ else "fails")
        firsts = sorted(
            b
            for b in range(k)
            if all(p[0] != b or list(p) in failing for p in itertools.permutations(range(k)))
        )
        txt = f"orders that cannot be completed {len(failing)}/{total}"
        if failing:
            txt += f" {failing[:6]}" + (" ..." if len(failing) > 6 else "")
        if open_:
            txt += f"; undecided {len(open_)}"
        txt += f"; bodies that can never leave first: {firsts or 'none'}"
        txt += "; completable orders (min): " + ", ".join(
            f"{list(p)}:{m}" for p, m in sorted(mins.items())
        )
        return v, txt + f"; min {self.opt_text()}"

    # 9 -------------------------------------------------------------------------------------
    def j_long(self):
        lv = self.lv
        longs = [b for b in range(lv.k) if lv.blen[b] >= LONG_BODY]
        if not longs:
            return "fails", f"no body of {LONG_BODY}+ cells (lengths {lv.blen})"
        parts, txt = [], []
        for b in longs:
            v, h, w = self._axes({b})
            parts.append(v)
            bent = any(
                lv.bcells[b][i + 1] - lv.bcells[b][i] != lv.bcells[b][i + 2] - lv.bcells[b][i + 1]
                for i in range(lv.blen[b] - 2)
            )
            txt.append(
                f"b{b} ({lv.blen[b]} cells, {'bent' if bent else 'straight'} at the start): "
                f"horizontal-only {fmt_min(h)}, vertical-only {fmt_min(w)}"
            )
        return tri(parts), "; ".join(txt) + f"; min {self.opt_text()}"

    # 10 ------------------------------------------------------------------------------------
    def j_breather(self):
        lv = self.lv
        mech = sorted(mechanic_uses(self.it.raw))
        ans, _ss = self.serial()
        parts = [
            "fails" if mech else "holds",
            {"serial": "holds", "not serial": "fails"}.get(ans, "undecided"),
        ]
        o = self.opt()
        h0 = lv.h(lv.start)
        inter = f", interaction {o['value'] - h0}" if o["kind"] == "min" else ""
        flag = " [meta breather: true]" if self.it.meta.get("breather") else ""
        return tri(parts), (
            f"mechanics {mech or 'none'}; {ans}; min {fmt_min(o)}, travel bound {h0}{inter}{flag}"
        )

    # first use of a mechanic (12, 18, 24, 30, 36) -------------------------------------------
    def _first(self, kind):
        n = self.it.number
        if self.first_use is None:
            return "holds", "first use not checked"
        first, covered = self.first_use.get(kind), self.first_use.get("_covered", set())
        where = f"first use at level {first}" if first is not None else "never used"
        if first is not None and first < n:
            return "fails", where + " (before the lesson)"
        if all(x in covered for x in range(1, n)):
            return "holds", "first use here" if first == n else where
        return "undecided", where + " (levels before it not all loaded)"

    # 12 ------------------------------------------------------------------------------------
    def j_coats(self):
        lv = self.lv
        shown = [
            b
            for b in range(lv.k)
            if any(lv.bcolors[b][i] != lv.bcolors[b][i + 1] for i in range(lv.nc[b] - 1))
        ]
        coated = {b: list(lv.bcolors[b]) for b in range(lv.k) if lv.nc[b] > 1}
        fv, ftxt = self._first("coats")
        v = "holds" if shown else "fails"
        return tri([v, fv]), (
            f"coat shown: {v} (coated bodies {coated or 'none'}; coat differs from the layer "
            f"under it on {[f'b{b}' for b in shown] or 'no body'}); "
            f"taught first: {fv} ({ftxt}); min {self.opt_text()}"
        )

    # 18, 24, 30, 36 ------------------------------------------------------------------------
    def _cost(self, kind):
        rl, count = relaxed_level(self.it.raw, kind)
        fv, ftxt = self._first(kind)
        first = f"taught first: {fv} ({ftxt})"
        if rl is None:
            return (
                "fails",
                f"costs steps: fails (no {kind.replace('_', ' ')} in the level); {first}",
            )
        o = self.opt()
        if o["kind"] != "min":
            v = "undecided" if fv != "fails" else "fails"
            return v, (
                f"costs steps: undecided (min {fmt_min(o)} not proven, {o['states']} states); "
                + first
            )
        # the relaxed rules accept every full-rules solution: relaxed min <= min
        r = exact_min(rl, self.budget, o["value"])
        if r["kind"] == "min":
            v = "holds"
            txt = f"min without it {r['value']} < {o['value']} with it (both proven)"
        elif r["kind"] == "none":
            v = "fails"
            txt = f"min without it {o['value']} = {o['value']} with it (proven: costs no step)"
        elif r["kind"] == "le":
            v = "undecided"
            txt = (
                f"min without it <= {r['value']} < {o['value']} with it (relaxed minimum unproven)"
            )
        else:
            v = "undecided"
            txt = f"min without it: budget spent ({r['states']} states); with it {o['value']}"
        what = {"body_frozen": "frozen bodies", "hole_frozen": "frozen holes"}.get(
            kind, f"{kind} locks"
        )
        return tri([v, fv]), f"costs steps: {v} ({what} removed: {count}; {txt}); {first}"

    def j_body_frozen(self):
        return self._cost("body_frozen")

    def j_hole_frozen(self):
        return self._cost("hole_frozen")

    def j_silver(self):
        return self._cost("silver")

    def j_gold(self):
        return self._cost("gold")


# --------------------------------------------------------------------------------------------
# score (seed section 3, spec section 6)
# --------------------------------------------------------------------------------------------


def components(cells, nb, allowed):
    """Connected components of the cells in ``allowed`` (a set), as lists."""
    seen = set()
    comps = []
    for c in cells:
        if c in seen or c not in allowed:
            continue
        comp = [c]
        seen.add(c)
        q = [c]
        while q:
            x = q.pop()
            for t in nb[x]:
                if t >= 0 and t in allowed and t not in seen:
                    seen.add(t)
                    comp.append(t)
                    q.append(t)
        comps.append(comp)
    return comps


def articulation_points(region, nb):
    """Tarjan's articulation points of the floor subgraph ``region`` (iterative)."""
    region_set = set(region)
    disc, low = {}, {}
    aps = set()
    timer = 0
    for root in region:
        if root in disc:
            continue
        disc[root] = low[root] = timer
        timer += 1
        children = 0
        stack = [(root, -1, iter([t for t in nb[root] if t >= 0 and t in region_set]))]
        while stack:
            v, parent, it = stack[-1]
            advanced = False
            for t in it:
                if t == parent:
                    continue
                if t in disc:
                    low[v] = min(low[v], disc[t])
                else:
                    disc[t] = low[t] = timer
                    timer += 1
                    if v == root:
                        children += 1
                    stack.append((t, v, iter([u for u in nb[t] if u >= 0 and u in region_set])))
                    advanced = True
                    break
            if not advanced:
                stack.pop()
                if stack:
                    p = stack[-1][0]
                    low[p] = min(low[p], low[v])
                    if p != root and low[v] >= disc[p]:
                        aps.add(p)
        if children > 1:
            aps.add(root)
    return aps


def score_level(lv, solution, exits, opts=None):
    """Seven contributions + diagnostics computed from the written formula."""
    opts = opts or {}
    nb = lv.nb
    floor_cells = [i for i in range(lv.n) if lv.floor[i]]
    F = len(floor_cells)
    k = lv.k
    body_cells = sum(lv.blen)
    holes = lv.m
    occ_ratio = (body_cells + holes) / F
    diag = {
        "floor_cells": F,
        "occupancy_ratio": occ_ratio,
        "body_count": k,
        "body_cells": body_cells,
        "hole_count": holes,
        "longest_body": max(lv.blen),
    }
    occupancy = clip((occ_ratio - 0.25) / 0.60)
    body_scale = clip(body_cells / 70)
    steps = len(solution)
    diag["solution_steps"] = steps
    steps_n = clip(steps / 100)
    # potential exits: freezes/locks lifted, own cells passable, others/stones/holes block
    owner = {}
    for b in range(k):
        for c in lv.bcells[b]:
            owner[c] = b
    hole_at = lv.hole_at
    pe_bodies = []
    for b in range(k):
        outer = lv.bcolors[b][0]
        ok = False
        seen = set()
        q = [lv.bcells[b][0], lv.bcells[b][-1]]
        seen.update(q)
        while q and not ok:
            x = q.pop()
            for t in nb[x]:
                if t < 0:
                    continue
                hj = hole_at[t]
                if hj >= 0:
                    if lv.hcolor[hj] == outer:
                        ok = True
                        break
                    continue
                if t in seen:
                    continue
                if t in owner and owner[t] != b:
                    continue
                seen.add(t)
                q.append(t)
        if ok:
            pe_bodies.append(b)
    pe = len(pe_bodies)
    diag["potential_exits"] = pe
    blocking = 1 - pe / k
    # mechanics
    extra = sum(n - 1 for n in lv.nc)
    fsum_b = sum(lv.bfrozen)
    fsum_h = sum(lv.hfrozen)
    fsum = fsum_b + (fsum_h if opts.get("hole_freeze_in_sum", True) else 0)
    keyb = sum(1 for x in lv.bkey if x is not None)
    lockb = sum(1 for x in lv.block if x is not None)
    diag.update(
        extra_layers=extra,
        frozen_threshold_sum=fsum,
        frozen_body_sum=fsum_b,
        frozen_hole_sum=fsum_h,
        key_bodies=keyb,
        lock_bodies=lockb,
    )
    mech = clip(extra / (k * 0.7) + fsum / (k * 5) + (keyb + lockb) / (k * 1.1))
    # shuffling: steps of maximal one-body runs that do not end in an exit
    # (default reading: an exit closes its run, since an exit step is never a shuffle step;
    # ``shuffle=maximal`` keeps one run through exits of a coated body)
    split = opts.get("shuffle", "split") != "maximal"
    shuffle = 0
    i = 0
    while i < len(solution):
        j = i
        while (
            j + 1 < len(solution)
            and solution[j + 1][0] == solution[i][0]
            and not (split and exits[j])
        ):
            j += 1
        if not exits[j]:
            shuffle += j - i + 1
        i = j + 1
    diag["shuffle_steps"] = shuffle
    shuf = 0.55 * (1 if pe == 0 else 0) + 0.45 * clip(shuffle / max(4, body_cells * 0.2))
    # space
    sp = space_terms(lv, floor_cells, owner, opts)
    diag["space"] = sp
    space = sp["value"]
    norm = {
        "occupancy": occupancy,
        "body_scale": body_scale,
        "steps": steps_n,
        "blocking": blocking,
        "mechanics": mech,
        "shuffling": shuf,
        "space": space,
    }
    contrib = {t: WEIGHTS[t] * norm[t] for t in TERMS}
    total = round(sum(contrib.values()) + 1e-9, 1)
    return {"total": total, "contributions": contrib, "normalised": norm, "diagnostics": diag}


def space_terms(lv, floor_cells, owner, opts):
    nb = lv.nb
    floor_set = set(floor_cells)
    regions = components(floor_cells, nb, floor_set)
    region_of = {}
    for ri, r in enumerate(regions):
        for c in r:
            region_of[c] = ri
    hole_cells = {lv.hcell[j]: j for j in range(lv.m)}
    cuts = []
    for ri, region in enumerate(regions):
        rsize = len(region)
        rset = set(region)
        aps = articulation_points(region, nb)
        cand = [(a,) for a in sorted(aps)]
        # axis-aligned two-cell slices: adjacent pairs (neither an articulation point) that cut
        slice_mode = opts.get("slices", "walls")
        for a in sorted(region):
            if a in aps:
                continue
            for di in (1, 3):  # D and R neighbours: each pair once
                b = nb[a][di]
                if b < 0 or b not in rset or b in aps:
                    continue
                if slice_mode == "walls":
                    # the whole cross-section: both cells' outer sides must be walls
                    if di == 3:  # horizontal pair -> row slice, sides are L of a and R of b
                        if nb[a][2] >= 0 or nb[b][3] >= 0:
                            continue
                    else:
                        if nb[a][0] >= 0 or nb[b][1] >= 0:
                            continue
                cand.append((a, b))
        for cut in cand:
            rest = rset.difference(cut)
            parts = components(sorted(rest), nb, rest)
            if len(parts) < 2:
                continue
            parts.sort(key=len, reverse=True)
            second = len(parts[1])
            share = second / rsize
            if not (share >= 0.08 and second >= 3):
                continue
            cuts.append((ri, cut, parts, rsize, share))
    max_load = 0.0
    narrow = []
    side_rule = opts.get("side", "whole")
    for ri, cut, parts, _rsize, share in cuts:
        part_of = {}
        for pi, p in enumerate(parts):
            for c in p:
                part_of[c] = pi
        layers = [dict() for _ in parts]
        hol = [dict() for _ in parts]
        straddle = 0
        cutset = set(cut)
        for b in range(lv.k):
            cells = lv.bcells[b]
            if region_of[cells[0]] != ri:
                continue
            ps = {part_of[c] for c in cells if c in part_of}
            crossing = len(ps) > 1 or any(c in cutset for c in cells)
            if crossing:
                straddle += 1
            if side_rule == "whole":
                # a straddling body counts in the straddling term only; the others count
                # their layers on their own side (the reading the shipped data agrees with)
                if crossing or not ps:
                    continue
                side = next(iter(ps))
            elif side_rule == "cells":
                # a body's layers count on the side holding most of its cells (head breaks ties)
                cnt = {}
                for c in cells:
                    if c in part_of:
                        cnt[part_of[c]] = cnt.get(part_of[c], 0) + 1
                if not cnt:
                    continue
                side = max(cnt, key=lambda p: (cnt[p], p == part_of.get(cells[0])))
            else:
                end = cells[0]
                side = part_of.get(end, part_of.get(cells[-1]))
                if side is None:
                    continue
            for col in lv.bcolors[b]:
                layers[side][col] = layers[side].get(col, 0) + 1
        for j in range(lv.m):
            c = lv.hcell[j]
            if c in part_of:
                d = hol[part_of[c]]
                d[lv.hcolor[j]] = d.get(lv.hcolor[j], 0) + 1
        cross = 0
        for pi in range(len(parts)):
            for col, n in layers[pi].items():
                cross += max(0, n - hol[pi].get(col, 0))
        width = len(cut)
        load = (cross + straddle) / width * min(1.0, share / 0.25)
        narrow.append(
            {
                "kind": "articulation" if width == 1 else "slice",
                "cells": [lv.xy(c) for c in cut],
                "parts": [len(p) for p in parts],
                "second_share": round(share, 4),
                "cross_demand": cross,
                "straddling": straddle,
                "load": round(load, 4),
            }
        )
        max_load = max(max_load, load)
    B = clip(max_load / 2)
    # D: seed cost max(1, min(d_head, d_tail) - 1), wall-aware vs Manhattan
    wall = man = 0
    unreachable = False
    inner = sum(n - 1 for n in lv.nc)
    groups = {}
    for b in range(lv.k):
        groups.setdefault(lv.bcolors[b][0], []).append(b)
    for col, bl in groups.items():
        hs = lv.holes_by_color.get(col, [])
        cw, cm = [], []
        for b in bl:
            hd, tl = lv.bcells[b][0], lv.bcells[b][-1]
            rw, rm = [], []
            for j in hs:
                d = min(lv.dist[j][hd], lv.dist[j][tl])
                if d >= INF:
                    rw.append(INF)
                else:
                    rw.append(max(1, d - 1))
                hx, hy = lv.xy(lv.hcell[j])
                md = min(abs(hx - x) + abs(hy - y) for x, y in (lv.xy(hd), lv.xy(tl)))
                rm.append(max(1, md - 1))
            cw.append(rw)
            cm.append(rm)
        aw = assignment(cw)
        if aw >= INF:  # no matching avoids a hole in another region
            unreachable = True
        wall += aw
        man += assignment(cm)
    if opts.get("bound_inner", True):
        wall += inner
        man += inner
    D = clip((wall - man) / max(2, man)) if not unreachable else 0.0
    # N: body cells outside every all-floor 2x2 square
    cover = set()
    cols, rows = lv.cols, lv.rows
    for y in range(rows - 1):
        for x in range(cols - 1):
            sq = (y * cols + x, y * cols + x + 1, (y + 1) * cols + x, (y + 1) * cols + x + 1)
            if all(lv.floor[c] for c in sq):
                cover.update(sq)
    body_cells = sum(lv.blen)
    narrow_cells = sum(1 for b in range(lv.k) for c in lv.bcells[b] if c not in cover)
    N = clip(2 * narrow_cells / body_cells)
    # F: largest free area
    free = set(c for c in floor_cells if c not in owner and c not in hole_cells)
    comps = components(sorted(free), nb, free)
    largest = max((len(c) for c in comps), default=0)
    longest = max(lv.blen)
    Fv = clip((1 - largest / len(free)) * min(1.0, longest / max(1, largest))) if free else 0.0
    value = math.sqrt(0.45 * B * B + 0.25 * D * D + 0.20 * N * N + 0.10 * Fv * Fv)
    return {
        "value": value,
        "B": B,
        "D": D,
        "N": N,
        "F": Fv,
        "max_narrow_load": max_load,
        "narrow_points": narrow,
        "wall_bound": wall,
        "manhattan_bound": man,
        "unreachable_hole": unreachable,
        "coverage_2x2": len(cover & floor_set) / len(floor_set),
        "narrow_body_share": narrow_cells / body_cells,
        "free_cells": len(free),
        "free_components": len(comps),
        "largest_free_area": largest,
        "component_count": len(regions),
    }


# --------------------------------------------------------------------------------------------
# loading
# --------------------------------------------------------------------------------------------


class Item:
    def __init__(self, number, source, raw, cert):
        self.number = number
        self.source = source
        self.raw = raw
        self.cert = cert
        self.level = None
        self.error = None
        self.meta = raw.get("meta", {}) if isinstance(raw, dict) else {}
        if not isinstance(self.meta, dict):
            self.meta = {}
        try:
            self.level = Level(raw)
        except LevelError as err:
            self.error = str(err)
        except Exception as err:
            self.error = f"{type(err).__name__}: {err}"
        if self.error is None and not isinstance(cert, dict):
            self.error = "certificate: missing"
        if self.error is None:
            sol = cert.get("solution")
            if not isinstance(sol, list):
                self.error = "certificate.solution: not a list"

    @property
    def name(self):
        return f"L{self.number:04d}"


def load_items(args):
    files = []
    files = [args.batch] if args.batch else sorted(glob.glob(os.path.join(args.data, "*.json")))
    items = []
    problems = []
    for f in files:
        try:
            with open(f, encoding="utf-8") as fh:
                d = json.load(fh)
        except Exception as err:
            problems.append(f"{f}: {err}")
            continue
        if (
            not isinstance(d, dict)
            or not isinstance(d.get("levels"), list)
            or (not args.batch and not isinstance(d.get("certificates"), list))
        ):
            if args.batch:
                problems.append(f"{f}: not a batch (no levels list)")
            continue
        levels = d["levels"]
        certs = d.get("certificates") or []
        if not isinstance(certs, list):
            certs = []
        if len(certs) != len(levels):
            problems.append(
                f"{os.path.basename(f)}: {len(levels)} levels, {len(certs)} certificates"
            )
        for i, raw in enumerate(levels):
            meta = raw.get("meta", {}) if isinstance(raw, dict) else {}
            num = meta.get("level") if isinstance(meta, dict) else None
            if not isinstance(num, int) or isinstance(num, bool):
                num = len(items) + 1
            cert = certs[i] if i < len(certs) else None
            items.append(Item(num, os.path.basename(f), raw, cert))
    if len({it.number for it in items}) != len(items):
        problems.append("level numbers (meta.level) repeat: levels numbered by position instead")
        for i, it in enumerate(items):
            it.number = i + 1
    items.sort(key=lambda it: it.number)
    return items, problems


def select(items, args):
    if args.levels:
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*", args.levels)
        if not m:
            print(f"--levels: expected A-B, got {args.levels!r}")
            return []
        a = int(m.group(1))
        b = int(m.group(2) or a)
        items = [it for it in items if a <= it.number <= b]
    if args.sample:
        rng = random.Random(args.seed)
        k = min(args.sample, len(items))
        items = sorted(rng.sample(items, k), key=lambda it: it.number)
    return items


# --------------------------------------------------------------------------------------------
# checks
# --------------------------------------------------------------------------------------------


WITNESS_KEYS = ("witnesses", "mechanic_witnesses", "witness", "mechanics")


def find_witnesses(cert, depth=0, where=""):
    """The first list/dict under a witness-like key (the score section is skipped: its
    'mechanics' is a number)."""
    if not isinstance(cert, dict) or depth > 3:
        return None, ""
    for key in WITNESS_KEYS:
        v = cert.get(key)
        if isinstance(v, (list, dict)):
            return v, f"{where}[{key!r}]"
    for key, v in cert.items():
        if key in ("score", "solution", "request", "budgets") or not isinstance(v, dict):
            continue
        got, w = find_witnesses(v, depth + 1, f"{where}[{key!r}]")
        if got is not None:
            return got, w
    return None, ""


def _dict(x):
    return x if isinstance(x, dict) else {}


def pct(a, b):
    return f"{a}/{b} ({100.0 * a / b:.1f}%)" if b else f"{a}/0"


class Audit:
    def __init__(self, args, items, all_items=None):
        self.args = args
        self.items = items
        self.all_items = items if all_items is None else all_items
        self.checks = args.checks
        self.scale = args.budget_scale
        self.res = {c: {} for c in ALL_CHECKS}
        self.extra = {}
        self.malformed = []

    def out(self, check, it, text):
        print(f"{it.name} {check:8s} {text}", flush=True)

    def run(self):
        t0 = time.time()
        for it in self.items:
            if it.error:
                self.malformed.append(it.number)
                print(f"{it.name} MALFORMED {it.error}", flush=True)
                continue
            for c in self.checks:
                if c == "bands":
                    continue
                t = time.time()
                try:
                    getattr(self, "check_" + c)(it)
                except Exception as err:
                    self.res[c][it.number] = {"status": "error"}
                    self.out(c, it, f"ERROR {type(err).__name__}: {err}")
                self.extra.setdefault("time", {}).setdefault(c, 0.0)
                self.extra["time"][c] += time.time() - t
        print()
        print(f"== summary ({len(self.items)} levels, {time.time() - t0:.1f} s) ==")
        if self.malformed:
            print(
                f"malformed: {len(self.malformed)} levels {self.malformed[:40]} "
                "(left out of every check)"
            )
        print(
            "time per check: "
            + ", ".join(f"{c} {v:.1f} s" for c, v in self.extra.get("time", {}).items())
        )
        for c in self.checks:
            try:
                getattr(self, "summary_" + c)()
            except Exception as err:  # a summary over odd data is reported, not raised
                print(f"{c:9s}: summary failed: {type(err).__name__}: {err}")

    # ---- replay ------------------------------------------------------------------------------
    def check_replay(self, it):
        sol = it.cert["solution"]
        ok, msg, _states, _exits = replay(it.level, sol)
        steps = it.cert.get("steps")
        problems = []
        if not ok:
            problems.append(msg)
        if steps != len(sol):
            problems.append(f"steps field {steps} != solution length {len(sol)}")
        st = "ok" if not problems else "FAIL"
        self.res["replay"][it.number] = {"status": st}
        self.out(
            "replay",
            it,
            f"{st} {len(sol)} steps" + ("" if not problems else ": " + "; ".join(problems)),
        )

    def summary_replay(self):
        r = self.res["replay"]
        bad = sorted(n for n, v in r.items() if v["status"] != "ok")
        print(
            f"replay   : ok {pct(len(r) - len(bad), len(r))}; "
            f"failing: {bad[:40] if bad else 'none'}"
        )

    # ---- shorter -----------------------------------------------------------------------------
    def check_shorter(self, it):
        lv = it.level
        steps = len(it.cert["solution"])
        ok, _, _, _ = replay(lv, it.cert["solution"])
        if not ok:
            self.res["shorter"][it.number] = {"status": "skip"}
            self.out("shorter", it, "skip: the certificate's solution does not replay")
            return
        bound = steps
        best = None
        notes = []
        exhausted = False
        for w, budget in ((1.5, 40000), (3.0, 60000)):
            r = astar(lv, w, int(budget * self.scale), bound if best is None else len(best))
            notes.append(f"w={w:g}:{r['stored']}st{'/exh' if r['exhausted'] else ''}")
            if r["best"] is not None:
                best = r["best"]
            if r["exhausted"]:
                exhausted = True
                break
            if best is not None:
                break
        rec = {"status": "none", "steps": steps}
        if best is not None:
            ok2, msg, _, _ = replay(lv, best)
            if not ok2:
                rec = {"status": "error"}
                self.out("shorter", it, f"ERROR own solution does not replay: {msg}")
                self.res["shorter"][it.number] = rec
                return
            d = steps - len(best)
            rec = {
                "status": "shorter",
                "steps": steps,
                "found": len(best),
                "by": d,
                "pct": 100.0 * d / steps,
                "proven_min": exhausted,
            }
            txt = (
                f"SHORTER {len(best)} < {steps} (-{d}, {rec['pct']:.1f}%)"
                + (" [proven minimum]" if exhausted else "")
                + " "
                + " ".join(notes)
            )
            if self.args.show_solutions:
                txt += " " + json.dumps(best)
        else:
            rec["proven_min"] = exhausted
            txt = (
                ("none (certificate minimal: search exhausted)" if exhausted else "none found")
                + " "
                + " ".join(notes)
            )
        self.res["shorter"][it.number] = rec
        self.out("shorter", it, txt)

    def summary_shorter(self):
        r = self.res["shorter"]
        sh = [(n, v) for n, v in r.items() if v["status"] == "shorter"]
        judged = [v for v in r.values() if v["status"] in ("shorter", "none")]
        proven = sum(1 for v in judged if v.get("proven_min") and v["status"] == "none")
        line = f"shorter  : shorter solution found {pct(len(sh), len(judged))}"
        if sh:
            n, v = max(sh, key=lambda x: x[1]["pct"])
            line += (
                f"; largest -{v['by']} steps ({v['pct']:.1f}%) on L{n:04d}; "
                f"mean {sum(x[1]['pct'] for x in sh) / len(sh):.1f}%"
            )
            line += f"; levels: {sorted(n for n, _ in sh)[:40]}"
        line += f"; certificate proven minimal by exhaustion {pct(proven, len(judged))}"
        print(line)

    # ---- serial ------------------------------------------------------------------------------
    def check_serial(self, it):
        ss = SerialSearch(it.level, int(self.args.serial_budget * self.scale))
        ans = ss.run()
        breather = bool(it.meta.get("breather"))
        rec = {"status": ans, "breather": breather}
        self.res["serial"][it.number] = rec
        txt = ans
        if ans == "serial":
            txt += f" order {ss.order}"
            sol = serial_solution(it.level, ss.sequence, int(200000 * self.scale))
            if sol is None:
                txt += " (one-at-a-time solution not rebuilt: budget)"
            else:
                ok, msg, _, _ = replay(it.level, sol)
                rec["serial_steps"] = len(sol)
                cert_steps = len(it.cert["solution"])
                if not ok:
                    txt += f" (ERROR: rebuilt one-at-a-time solution fails: {msg})"
                else:
                    txt += f" (one-at-a-time solution replays: {len(sol)} steps"
                    if len(sol) < cert_steps:
                        rec["beats_cert"] = cert_steps - len(sol)
                        txt += f", {cert_steps - len(sol)} fewer than the certificate"
                    txt += ")"
        txt += f" ({ss.spent} states)"
        if breather:
            txt += " [breather]"
        if ans == "serial" and it.number >= 11 and not breather:
            txt += "  <-- FAIL: serial, not a breather"
        self.out("serial", it, txt)

    def summary_serial(self):
        r = self.res["serial"]
        n = len(r)
        cnt = {}
        for v in r.values():
            cnt[v["status"]] = cnt.get(v["status"], 0) + 1
        parts = ", ".join(f"{k} {pct(c, n)}" for k, c in sorted(cnt.items()))
        fails = sorted(
            k for k, v in r.items() if k >= 11 and v["status"] == "serial" and not v["breather"]
        )
        from11 = sum(1 for k in r if k >= 11)
        br = sum(1 for k, v in r.items() if k >= 11 and v["breather"])
        print(f"serial   : {parts}")
        beat = sorted(k for k, v in r.items() if v.get("beats_cert"))
        if beat:
            print(
                f"           one-at-a-time solution shorter than the certificate on {len(beat)} "
                f"levels: {beat[:40]}"
            )
        print(
            f"           from level 11: serial and not a breather (failures) "
            f"{pct(len(fails), from11)}; "
            f"breathers {br}; list: {fails if fails else 'none'}"
        )

    # ---- optimal -----------------------------------------------------------------------------
    def check_optimal(self, it):
        c = it.cert
        if c.get("optimal") is not True:
            self.res["optimal"][it.number] = {"status": "not claimed"}
            self.out("optimal", it, "not claimed (optimal: {!r})".format(c.get("optimal")))
            return
        lv = it.level
        steps = len(c["solution"])
        ok, _, _, _ = replay(lv, c["solution"])
        if not ok:
            self.res["optimal"][it.number] = {"status": "refuted"}
            self.out("optimal", it, "REFUTED: the claimed solution does not replay")
            return
        sh = self.res["shorter"].get(it.number)
        if sh and sh.get("status") == "shorter":
            self.res["optimal"][it.number] = {"status": "refuted"}
            self.out("optimal", it, f"REFUTED: {sh['found']} < {steps} (found by 'shorter')")
            return
        if sh and sh.get("status") == "none" and sh.get("proven_min"):
            self.res["optimal"][it.number] = {"status": "confirmed"}
            self.out("optimal", it, "confirmed (exhausted in 'shorter')")
            return
        r = astar(lv, 1.0, int(self.args.optimal_budget * self.scale), steps)
        if r["best"] is not None:
            ok2, msg, _, _ = replay(lv, r["best"])
            st = "refuted" if ok2 else "error"
            txt = f"REFUTED: {len(r['best'])} < {steps}" if ok2 else f"ERROR own solution: {msg}"
        elif r["exhausted"]:
            st, txt = "confirmed", f"confirmed ({r['stored']} states, h0={r['h0']})"
        else:
            st, txt = "out of budget", f"out of budget ({r['stored']} states, h0={r['h0']})"
        self.res["optimal"][it.number] = {"status": st}
        self.out("optimal", it, txt)

    def summary_optimal(self):
        r = self.res["optimal"]
        claimed = {k: v for k, v in r.items() if v["status"] not in ("not claimed", "malformed")}
        cnt = {}
        for v in claimed.values():
            cnt[v["status"]] = cnt.get(v["status"], 0) + 1
        parts = ", ".join(f"{k} {pct(c, len(claimed))}" for k, c in sorted(cnt.items()))
        ref = sorted(k for k, v in claimed.items() if v["status"] == "refuted")
        print(
            f"optimal  : claimed {pct(len(claimed), len(r))}; {parts or '-'}; "
            f"refuted: {ref or 'none'}"
        )

    # ---- witness -----------------------------------------------------------------------------
    def check_witness(self, it):
        c = it.cert
        raw, where = find_witnesses(c)
        lv = it.level
        mechs = []
        for b in range(lv.k):
            if lv.bfrozen[b]:
                mechs.append(f"bodies[{b}].frozen")
            if lv.block[b] is not None:
                mechs.append(f"bodies[{b}].lock")
        for j in range(lv.m):
            if lv.hfrozen[j]:
                mechs.append(f"holes[{j}].frozen")
        ws = []
        if isinstance(raw, dict):
            for k_, v in raw.items():
                if isinstance(v, dict):
                    v = dict(v)
                    v.setdefault("mechanic", k_)
                    ws.append(v)
                elif isinstance(v, list):
                    ws.append({"mechanic": k_, "solution": v})
        elif isinstance(raw, list):
            ws = [w for w in raw if isinstance(w, dict)]
        rec = {
            "mechanics": len(mechs),
            "witnessed": 0,
            "bad": 0,
            "missing": [],
            "has_field": raw is not None,
        }
        lines = []
        steps = len(c["solution"])
        covered = set()
        for w in ws:
            name = w.get("mechanic") or w.get("name") or w.get("relaxed")
            sol = w.get("solution", w.get("moves"))
            mm = re.fullmatch(r"(bodies|holes)\[(\d+)\]\.(frozen|lock|key)", str(name))
            if not mm or not isinstance(sol, list):
                lines.append(f"unreadable witness {json.dumps(w)[:80]}")
                rec["bad"] += 1
                continue
            kind, idx, what = mm.group(1), int(mm.group(2)), mm.group(3)
            relax = {}
            try:
                if kind == "holes" and what == "frozen":
                    relax[("hole_frozen", idx)] = True
                    covered.add(f"holes[{idx}].frozen")
                elif kind == "bodies" and what == "frozen":
                    relax[("body_frozen", idx)] = True
                    covered.add(f"bodies[{idx}].frozen")
                else:
                    b = it.raw["bodies"][idx]
                    lid = (b.get("lock") or {}).get("id") if what == "lock" else b.get("key")
                    if lid is None:
                        raise LevelError(f"{name}: no such lock")
                    relax["locks"] = [lid]
                    for bb in range(lv.k):
                        if lv.block[bb] is not None and lv.block[bb][0] == lid:
                            covered.add(f"bodies[{bb}].lock")
                rl = Level(it.raw, relax=relax)
            except (LevelError, IndexError, AttributeError, TypeError) as err:
                lines.append(f"{name}: cannot relax ({err})")
                rec["bad"] += 1
                continue
            ok_rel, msg_rel, _, _ = replay(rl, sol)
            ok_full, msg_full, _, _ = replay(lv, sol)
            fine = ok_rel and len(sol) <= steps and not ok_full
            why = []
            if not ok_rel:
                why.append(f"relaxed replay fails: {msg_rel}")
            if len(sol) > steps:
                why.append(f"{len(sol)} steps > certificate {steps}")
            if ok_full:
                why.append("the full rules accept it (mechanic does not bind)")
            if fine:
                rec["witnessed"] += 1
                lines.append(f"{name} ok ({len(sol)} steps; full rules: {msg_full})")
            else:
                rec["bad"] += 1
                lines.append(f"{name} BAD: " + "; ".join(why))
        rec["missing"] = [m_ for m_ in mechs if m_ not in covered]
        self.res["witness"][it.number] = rec
        head = f"mechanics {len(mechs)}, witnesses {len(ws)}"
        if raw is None:
            head += " (no witness field; certificate keys: " + ",".join(sorted(c)) + ")"
        else:
            head += f" (from certificate{where})"
        if rec["missing"]:
            head += f"; without witness: {rec['missing']}"
        self.out("witness", it, head + ("" if not lines else " | " + " | ".join(lines)))

    def summary_witness(self):
        r = self.res["witness"]
        vals = [v for v in r.values() if "mechanics" in v]
        with_m = [v for v in vals if v["mechanics"]]
        miss = sorted(k for k, v in r.items() if v.get("missing"))
        bad = sorted(k for k, v in r.items() if v.get("bad"))
        good = sum(v["witnessed"] for v in vals)
        field = sum(1 for v in vals if v["has_field"])
        print(
            f"witness  : certificates with a witness field {pct(field, len(vals))}; "
            f"levels with mechanics {pct(len(with_m), len(vals))}; witnesses ok {good}; "
            f"bad witnesses on {len(bad)} levels {bad[:30]}"
        )
        print(
            f"           levels with a frozen body/hole or lock lacking a witness "
            f"{pct(len(miss), len(with_m))}: "
            f"{miss[:40]}"
        )

    # ---- lessons -----------------------------------------------------------------------------
    def first_use(self):
        """Per mechanic kind, the first loaded level that uses it; "_covered": numbers loaded."""
        fu = self.extra.get("first_use")
        if fu is None:
            fu = {"_covered": set()}
            for x in self.all_items:
                fu["_covered"].add(x.number)
                for kind in mechanic_uses(x.raw):
                    if kind not in fu or x.number < fu[kind]:
                        fu[kind] = x.number
            self.extra["first_use"] = fu
        return fu

    def check_lessons(self, it):
        if it.number not in LESSONS:
            return
        lesson, kind = LESSONS[it.number]
        known = self.res["serial"].get(it.number, {}).get("status")
        judge = LessonJudge(
            it,
            int(self.args.lesson_budget * self.scale),
            int(self.args.serial_budget * self.scale),
            serial_known=known,
            first_use=self.first_use(),
        )
        verdict, figures = judge.judge(kind)
        self.res["lessons"][it.number] = {"status": verdict, "lesson": lesson, "figures": figures}
        note = "" if it.meta.get("lesson") else " [meta: no lesson]"
        self.out("lessons", it, f"{it.number:>2d} {lesson!r}: {verdict.upper()} | {figures}{note}")

    def summary_lessons(self):
        r = self.res["lessons"]
        cnt = {}
        for v in r.values():
            cnt[v["status"]] = cnt.get(v["status"], 0) + 1
        parts = ", ".join(f"{k} {c}" for k, c in sorted(cnt.items()))
        print(f"lessons  : {len(r)} lesson levels judged: {parts or '-'}")
        for n in sorted(r):
            print(f"           {n:>3d} {r[n]['lesson']:22s} {r[n]['status']}")
        sel = {it.number for it in self.items}
        absent = [n for n in LESSONS if n not in sel]
        if absent and len(absent) < len(LESSONS):
            print(f"           lesson levels not selected: {absent}")
        fu = self.first_use()
        print(
            "           first use in the loaded levels: "
            + ", ".join(
                f"{k} {fu.get(k, '-')}"
                for k in ("coats", "body_frozen", "hole_frozen", "silver", "gold")
            )
        )

    # ---- score -------------------------------------------------------------------------------
    def check_score(self, it):
        lv = it.level
        sol = it.cert["solution"]
        ok, msg, _states, exits = replay(lv, sol)
        if not ok:
            self.res["score"][it.number] = {"status": "skip"}
            self.out("score", it, f"skip: solution does not replay ({msg})")
            return
        mine = score_level(lv, sol, exits, self.score_opts())
        cs = _dict(it.cert.get("score"))
        if "score_keys" not in self.extra:
            self.extra["score_keys"] = sorted(cs)
            contrib = _dict(cs.get("contributions"))
            print(
                f"         (certificate score keys: {sorted(cs)}; "
                f"contributions: {sorted(contrib)}; "
                f"diagnostics: {sorted(cs.get('diagnostics') or {})})"
            )
        theirs = _dict(cs.get("contributions"))
        total = cs.get("total")
        diffs = []
        for t in TERMS:
            if (
                t in theirs
                and isinstance(theirs[t], (int, float))
                and abs(theirs[t] - mine["contributions"][t]) > 0.01
            ):
                diffs.append(f"{t} {theirs[t]:.3f}/{mine['contributions'][t]:.3f}")
        dcert = _dict(cs.get("diagnostics"))
        ddiff = []
        for key in (
            "potential_exits",
            "shuffle_steps",
            "frozen_threshold_sum",
            "extra_layers",
            "key_bodies",
            "lock_bodies",
        ):
            if key in dcert and dcert[key] != mine["diagnostics"][key]:
                ddiff.append(f"{key} {dcert[key]}/{mine['diagnostics'][key]}")
        spc = _dict(dcert.get("space"))
        for key in ("B", "D", "N", "F", "wall_bound", "manhattan_bound", "max_narrow_load"):
            if (
                key in spc
                and isinstance(spc[key], (int, float))
                and abs(spc[key] - mine["diagnostics"]["space"][key]) > 0.002
            ):
                ddiff.append(f"{key} {spc[key]:.4g}/{mine['diagnostics']['space'][key]:.4g}")
        if not isinstance(total, (int, float)):
            self.res["score"][it.number] = {
                "status": "no score",
                "mine_contrib": mine["contributions"],
            }
            self.out(
                "score",
                it,
                f"certificate has no score total; own {mine['total']} ("
                + ", ".join(f"{t}={mine['contributions'][t]:.2f}" for t in TERMS)
                + ")",
            )
            return
        mism = abs(total - mine["total"]) > 0.05
        rec = {
            "status": "mismatch" if mism else "ok",
            "mine": mine["total"],
            "theirs": total,
            "term_diffs": [d.split()[0] for d in diffs],
            "mine_contrib": mine["contributions"],
        }
        self.res["score"][it.number] = rec
        txt = f"{'MISMATCH' if mism else 'ok'} certificate {total} / own {mine['total']}"
        if diffs:
            txt += " | terms cert/own: " + ", ".join(diffs)
        if ddiff:
            txt += " | diag cert/own: " + ", ".join(ddiff)
        if self.args.verbose:
            txt += " | " + ", ".join(f"{t}={mine['contributions'][t]:.2f}" for t in TERMS)
        self.out("score", it, txt)

    def score_opts(self):
        o = {}
        for kv in self.args.score_opt or []:
            k_, _, v = kv.partition("=")
            o[k_] = {"true": True, "false": False}.get(v, v)
        return o

    def summary_score(self):
        r = self.res["score"]
        judged = [v for v in r.values() if v["status"] in ("ok", "mismatch")]
        mism = sorted(k for k, v in r.items() if v["status"] == "mismatch")
        other = {}
        for v in r.values():
            if v["status"] not in ("ok", "mismatch"):
                other[v["status"]] = other.get(v["status"], 0) + 1
        print(
            f"score    : total matches (|diff| <= 0.05) "
            f"{pct(len(judged) - len(mism), len(judged))}; "
            f"mismatches: {mism[:40] if mism else 'none'}"
            + "".join(f"; {k}: {c}" for k, c in sorted(other.items()))
        )
        print(
            "           (readings: frozen sum = bodies + holes; shuffle runs end at an exit; "
            "slices = two-cell row/column cross-sections between walls; straddling bodies "
            "left out of cross demand; override with --score-opt)"
        )
        if judged:
            worst = max(
                ((k, v) for k, v in r.items() if v["status"] in ("ok", "mismatch")),
                key=lambda kv: abs((kv[1]["theirs"] or 0) - kv[1]["mine"]),
            )
            print(
                f"           largest total difference L{worst[0]:04d}: "
                f"certificate {worst[1]['theirs']} "
                f"own {worst[1]['mine']}"
            )
        for t in TERMS:
            n = sum(1 for v in judged if t in v["term_diffs"])
            print(f"           term {t:10s}: differs (>0.01) on {pct(n, len(judged))}")

    # ---- bands -------------------------------------------------------------------------------
    def summary_bands(self):
        rows = {}
        for it in self.items:
            if it.error:
                continue
            band = (it.number - 1) // 100
            rows.setdefault(band, []).append(it)
        hdr = (
            "band",
            "lv",
            "prov%",
            "gap",
            "inter",
            "coat%",
            "frzB%",
            "frzH%",
            "lock%",
            "gold%",
            "all4%",
            "free%",
            "ser%",
            *("max" + t[:4] + "%" for t in TERMS),
        )
        print("bands    :")
        print("  " + " ".join(f"{h:>9s}" for h in hdr))
        for band in sorted(rows):
            its = rows[band]
            n = len(its)
            prov = gap = inter = 0
            gapn = 0
            mech = {"coat": 0, "frzB": 0, "frzH": 0, "lock": 0, "gold": 0, "all4": 0, "free": 0}
            ser_n = ser_y = 0
            at_max = {t: 0 for t in TERMS}
            at_max_n = 0
            for it in its:
                lv, c = it.level, it.cert
                if c.get("optimal") is True:
                    prov += 1
                steps = len(c["solution"])
                lb = c.get("lower_bound")
                if isinstance(lb, (int, float)):
                    gap += steps - lb
                    gapn += 1
                inter += steps - lv.h(lv.start)
                coat = any(x > 1 for x in lv.nc)
                fb = any(lv.bfrozen)
                fh = any(lv.hfrozen)
                lk = any(x is not None for x in lv.block)
                gd = any(x is not None and x[1] == "gold" for x in lv.block)
                mech["coat"] += coat
                mech["frzB"] += fb
                mech["frzH"] += fh
                mech["lock"] += lk
                mech["gold"] += gd
                mech["all4"] += coat and fb and fh and lk
                mech["free"] += not (coat or fb or fh or lk)
                sr = self.res["serial"].get(it.number)
                if sr and sr["status"] in ("serial", "not serial"):
                    ser_n += 1
                    ser_y += sr["status"] == "serial"
                contrib = _dict(_dict(c.get("score")).get("contributions"))
                if not contrib and it.number in self.res["score"]:
                    contrib = self.res["score"][it.number].get("mine_contrib") or {}
                if contrib:
                    at_max_n += 1
                    for t in TERMS:
                        v = contrib.get(t)
                        if isinstance(v, (int, float)) and v >= WEIGHTS[t] - 1e-6:
                            at_max[t] += 1
            lo, hi = band * 100 + 1, band * 100 + 100
            p = lambda a, b=n: f"{100.0 * a / b:.0f}" if b else "-"  # noqa: E731
            vals = (
                f"{lo}-{hi}",
                str(n),
                p(prov),
                f"{gap / gapn:.1f}" if gapn else "-",
                f"{inter / n:.1f}",
                *(p(mech[x]) for x in ("coat", "frzB", "frzH", "lock", "gold", "all4", "free")),
                p(ser_y, ser_n) if ser_n else "-",
                *(p(at_max[t], at_max_n) if at_max_n else "-" for t in TERMS),
            )
            print("  " + " ".join(f"{v:>9s}" for v in vals))
        print(
            "  (gap = steps - lower_bound; inter = steps - own travel bound; "
            "ser% of decided levels; "
            "max<term>% = share of levels at the term's full weight)"
        )

    # ---- effort ------------------------------------------------------------------------------
    EFFORT = ((3.0, 100000, True), (1.0, 50000, False))

    def check_effort(self, it):
        """A difficulty signal that owes nothing to the designer or its certificate: the
        states this file's A* stores with its own fixed bound h, (a) weighted (w = 3) until
        its first solution, (b) exact (w = 1) until the minimum is proven, each capped."""
        rec = {}
        parts = []
        for w, budget, first in self.EFFORT:
            r = astar(it.level, w, int(budget * self.scale), INF, first=first)
            key = "greedy" if first else "exact"
            done = r["best"] is not None if first else r["exhausted"]
            rec[key] = r["stored"]
            rec[key + "_capped"] = not done
            parts.append(f"{key} (w={w:g}) {r['stored']} states"
                         + ("" if done else f" (cap {int(budget * self.scale)} stored)"))
            if not first:
                rec["bound"] = r["bound"]
        # What a fixed amount of exact work leaves unproven: the steps of a solution that
        # replays (the certificate's, or the search's own if shorter) above the bound the
        # capped exact search reached. Unlike a capped count it keeps growing with difficulty.
        ok, _, _, _ = replay(it.level, it.cert["solution"])
        known = [len(it.cert["solution"])] if ok else []
        known += [len(r["best"])] if r["best"] is not None else []
        if known and rec["bound"] < INF:
            rec["left"] = max(0, min(known) - rec["bound"])
            parts.append(f"bound reached {rec['bound']}, {rec['left']} steps left unproven")
        rec["status"] = "ok"
        self.res["effort"][it.number] = rec
        self.out("effort", it, "; ".join(parts))

    def summary_effort(self):
        r = self.res["effort"]
        rows = {}
        for n, v in r.items():
            if v.get("status") == "ok":
                rows.setdefault((n - 1) // self.args.effort_band, []).append(v)

        print(f"effort   : per band of {self.args.effort_band} (A* of this file, own bound; "
              "states stored: greedy w=3 to the first solution, exact w=1 to a proof; a capped "
              "search counts its cap)")
        print(f"  {'band':>11s} {'lv':>4s} {'greedy med':>11s} {'capped':>7s} "
              f"{'exact med':>10s} {'capped':>7s} {'left med':>9s} {'left mean':>10s}")
        for b in sorted(rows):
            vs = rows[b]
            a, z = b * self.args.effort_band + 1, (b + 1) * self.args.effort_band
            greedy = statistics.median([v["greedy"] for v in vs])
            left = [v["left"] for v in vs if "left" in v]
            print(f"  {a:>5d}-{z:<5d} {len(vs):>4d} {greedy:>11g} "
                  f"{pct(sum(v['greedy_capped'] for v in vs), len(vs)):>7s} "
                  f"{statistics.median([v['exact'] for v in vs]):>10g} "
                  f"{pct(sum(v['exact_capped'] for v in vs), len(vs)):>7s} "
                  + (f"{statistics.median(left):>9g} {statistics.mean(left):>10.1f}"
                     if left else f"{'-':>9s} {'-':>10s}"))
        print("  (left = steps of the shortest solution known that replays, less the bound "
              "the capped exact search proved: 0 once proven)")

    def check_bands(self, it):  # pragma: no cover - bands is a summary only
        pass


def plain_min(lv, allow=None, order=None, cap=200000):
    """Breadth-first minimum through the plain rule function ``Level.apply`` only (no fast move
    generator, no bound): the number of steps, None when the space is exhausted without a
    solution, "cap" past ``cap`` states.  ``allow`` and ``order`` as in View."""
    pos = None if order is None else {b: i for i, b in enumerate(order)}
    dist = {lv.start: 0}
    q = deque([lv.start])
    while q:
        s = q.popleft()
        if lv.is_goal(s):
            return dist[s]
        for b in range(lv.k):
            for e in (0, 1):
                for di in range(4):
                    if allow is not None and not allow((b, e, di)):
                        continue
                    try:
                        s2, _ = lv.apply(s, b, ENDS[e], DIRS[di])
                    except ValueError:
                        continue
                    if (
                        pos is not None
                        and s2[b] >= lv.nc[b] > s[b]
                        and any(s[c] < lv.nc[c] for c in order[: pos[b]])
                    ):
                        continue
                    if s2 not in dist:
                        dist[s2] = dist[s] + 1
                        q.append(s2)
        if len(dist) > cap:
            return "cap"
    return None


def plain_serial(lv, cap=200000):
    """ "Solved one body at a time" by brute force through ``Level.apply``: from each
    (bodies gone, holes used) position, every body in turn is moved alone (breadth-first over
    its own moves) to every way it can have left; True / False / "cap"."""
    seen = {}
    budget = [cap]

    def ends_of(s, b):
        out = set()
        q = deque([s])
        mark = {s}
        while q:
            x = q.popleft()
            for e in (0, 1):
                for di in range(4):
                    try:
                        y, _ = lv.apply(x, b, ENDS[e], DIRS[di])
                    except ValueError:
                        continue
                    if y in mark:
                        continue
                    mark.add(y)
                    budget[0] -= 1
                    if y[b] >= lv.nc[b]:
                        out.add(y)
                    else:
                        q.append(y)
            if budget[0] < 0:
                raise OverflowError
        return out

    def go(s):
        if lv.is_goal(s):
            return True
        if s in seen:
            return seen[s]
        seen[s] = False
        for b in range(lv.k):
            if s[b] < lv.nc[b]:
                for y in ends_of(s, b):
                    if go(y):
                        seen[s] = True
                        return True
        return False

    try:
        return go(lv.start)
    except OverflowError:
        return "cap"


def lesson_selftest(it, cap=100000):
    """The lessons' searches (A* through View, SerialSearch) against plain_min / plain_serial
    on one level; returns the number of disagreements (small levels only)."""
    lv = it.level
    bad = 0
    if plain_min(lv, cap=cap) == "cap":
        print(f"selftest {it.name} lessons: state space over {cap}, not compared")
        return 0
    cases = [
        ("all", None, None),
        ("heads-only", only_end(0), None),
        ("tails-only", only_end(1), None),
    ]
    cases += [
        ("horizontal-only", only_axis(HORIZONTAL), None),
        ("vertical-only", only_axis(VERTICAL), None),
    ]
    for b in range(lv.k):
        cases.append((f"b{b} head-only", only_end(0, {b}), None))
        cases.append((f"b{b} horizontal-only", only_axis(HORIZONTAL, {b}), None))
    if 2 <= lv.k <= 4:
        cases += [(f"order {list(p)}", None, p) for p in itertools.permutations(range(lv.k))]
    agree = 0
    for name, allow, order in cases:
        want = plain_min(lv, allow, order, cap)
        got = exact_min(View(lv, allow, order), cap * 4)
        mine = got["value"] if got["kind"] == "min" else (None if got["kind"] == "none" else "?")
        if want == "cap" or mine == "?":
            continue
        if want != mine:
            bad += 1
            print(f"selftest {it.name} lessons: {name}: BFS {want}, A* {mine}")
        else:
            agree += 1
    for kind in ("body_frozen", "hole_frozen", "silver", "gold"):
        rl, _ = relaxed_level(it.raw, kind)
        if rl is not None:
            want, got = plain_min(rl, cap=cap), exact_min(rl, cap * 4)
            if want != "cap" and got["kind"] == "min":
                if want != got["value"]:
                    bad += 1
                    print(
                        f"selftest {it.name} lessons: without {kind}: BFS {want}, A* {got['value']}"
                    )
                else:
                    agree += 1
    want = plain_serial(lv, cap)
    got = SerialSearch(lv, cap * 4).run()
    if want != "cap" and got != "undecided":
        if want != (got == "serial"):
            bad += 1
            print(f"selftest {it.name} lessons: serial brute force {want}, SerialSearch {got}")
        else:
            agree += 1
    print(f"selftest {it.name} lessons: {agree} searches agree with plain BFS, {bad} differ")
    return bad


def selftest(items, seed=0):
    """Cross-checks of this file's own pieces: the fast move generator against the plain rule
    function on random walks, the assignment against brute force, A* (w=1) against BFS."""
    rng = random.Random(seed)
    bad = 0
    for _ in range(300):
        n = rng.randint(1, 4)
        m = rng.randint(n, 6)
        cost = [[rng.choice([rng.randint(0, 9), INF]) for _ in range(m)] for _ in range(n)]
        brute = min(
            sum(cost[i][p[i]] for i in range(n)) for p in itertools.permutations(range(m), n)
        )
        if min(assignment(cost), INF) != min(brute, INF) and not (
            assignment(cost) >= INF and brute >= INF
        ):
            bad += 1
            print(f"selftest assignment: {cost} -> {assignment(cost)} brute {brute}")
    moves_checked = 0
    for it in items:
        if it.error:
            continue
        lv = it.level
        s = lv.start
        for _ in range(60):
            fast = {mv: s2 for mv, s2 in lv.successors(s)}
            for b in range(lv.k):
                for e in (0, 1):
                    for di in range(4):
                        try:
                            s2, _ = lv.apply(s, b, ENDS[e], DIRS[di])
                        except ValueError:
                            s2 = None
                        moves_checked += 1
                        if fast.get((b, e, di)) != s2:
                            bad += 1
                            print(
                                f"selftest {it.name}: move {step_json((b, e, di))} "
                                "fast/plain differ"
                            )
            if not fast or lv.is_goal(s):
                break
            s = rng.choice(list(fast.values()))
        # BFS vs A* on levels with a small certificate
        if len(it.cert["solution"]) <= 14 and lv.k <= 3:
            dist = {lv.start: 0}
            q = deque([lv.start])
            best = None
            while q and len(dist) < 200000:
                x = q.popleft()
                if lv.is_goal(x):
                    best = dist[x]
                    break
                for _, y in lv.successors(x):
                    if y not in dist:
                        dist[y] = dist[x] + 1
                        q.append(y)
            if best is not None:
                r = astar(lv, 1.0, 200000, best + 1)
                got = len(r["best"]) if r["best"] else None
                h0 = lv.h(lv.start)
                if got != best or h0 > best:
                    bad += 1
                    print(f"selftest {it.name}: BFS minimum {best}, A* {got}, h0 {h0}")
                else:
                    print(
                        f"selftest {it.name}: BFS minimum {best} = A* {got}; h0 {h0} <= {best}; "
                        f"certificate {len(it.cert['solution'])}"
                    )
        if it.number in LESSONS:
            bad += lesson_selftest(it)
    print(f"selftest: {moves_checked} moves compared, {bad} problems")


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", default=os.path.normpath(DEFAULT_DATA), help="folder of batch files")
    ap.add_argument("--batch", help="one batch file instead of --data")
    ap.add_argument("--levels", help="level numbers A-B")
    ap.add_argument("--sample", type=int, help="a deterministic random sample of K levels")
    ap.add_argument("--seed", type=int, default=0, help="seed of --sample")
    ap.add_argument("--checks", default=",".join(ALL_CHECKS))
    ap.add_argument("--budget-scale", type=float, default=1.0)
    ap.add_argument("--optimal-budget", type=int, default=300000)
    ap.add_argument(
        "--serial-budget",
        type=int,
        default=1000000,
        help="body configurations searched per level by 'serial'",
    )
    ap.add_argument(
        "--lesson-budget",
        type=int,
        default=200000,
        help="stored states per exact search of the 'lessons' check",
    )
    ap.add_argument("--effort-band", type=int, default=200, help="band width of 'effort'")
    ap.add_argument("--show-solutions", action="store_true", help="print shorter solutions found")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument(
        "--selftest",
        action="store_true",
        help="cross-check this file's move generator, matching and A* on the selection",
    )
    ap.add_argument(
        "--score-opt",
        action="append",
        help="score reading switches, e.g. slices=pairs, side=cells|head, shuffle=maximal, "
        "hole_freeze_in_sum=false, bound_inner=false",
    )
    args = ap.parse_args(argv)
    checks = [c.strip() for c in args.checks.split(",") if c.strip()]
    bad = [c for c in checks if c not in ALL_CHECKS]
    if bad:
        print(f"unknown checks {bad}; choose from {ALL_CHECKS}")
        return 0
    args.checks = [c for c in ALL_CHECKS if c in checks]  # fixed order (optimal reuses shorter)
    items, problems = load_items(args)
    for p in problems:
        print(f"LOAD {p}")
    all_items = items
    items = select(items, args)
    if not items:
        print("no levels selected")
        return 0
    if args.selftest:
        selftest(items, args.seed)
        return 0
    print(
        f"# puzzle_audit: {len(items)} levels from {args.batch or args.data}; "
        f"checks {args.checks}; "
        f"budget scale {args.budget_scale:g}"
    )
    Audit(args, items, all_items).run()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted")
        sys.exit(0)
