#!/usr/bin/env python3
"""Independent audit of the snakes main line against issue 41's must-holds.

    .venv/bin/python -m bench.audit.line                       # every check, the whole line
    .venv/bin/python -m bench.audit.line --levels 1-200 --checks replay,shape,joint
    .venv/bin/python -m bench.audit.line --data output/line --sample 40 --seed 3

Written from the written rules only (spec ``snakes.md`` sections 1-5c, 3b terrain included:
coloured paths and bridges); it imports nothing from ``gridforge`` (standard library only)
and reads only the level and certificate JSON of the blocks that ``progress.json`` lists
(``gridforge.snakes.batch/1``: ``levels`` and ``certificates`` side by side; a folder
without ``progress.json`` is read block by block, ``main-*.json``).  The rules engine, the
bounds are this module's own; the assignment, the anytime A* and the one-body-at-a-time
search are ``bench.audit.shared``'s, which ``bench.audit.puzzle`` (same approach, no terrain)
uses too.

Terrain, as read here (spec 3b): a state holds *places*, not cells: a plain cell is one
place, a bridge two (its horizontal lane is the cell's index, its vertical lane the cell's
index plus cols*rows).  A step into a bridge takes the lane of its axis; from a lane the
only ways out are along its axis (so an end on a bridge goes straight on: backwards is its
own body); occupancy is per place.  A step whose moving end enters a cell painted colour c
is legal only when the body's outer colour is c (holes are never painted: an exit is never
refused by paint).  Bounds use the place graph; paint of other colours is closed to the
distances of outer colour c only when no body can lie on such paint while it wears c (no
body has c as a coat, and the bodies whose outer colour is c start on no foreign paint):
otherwise a pulled end may cross foreign paint and closing it would not be admissible.

Checks (``--checks``, default all; numbers are issue 41's must-holds):

1 ``replay``   the certificate's solution replays to completion; steps == len(solution).
2 ``shape``    from level 11: body length <= 8, occupancy <= 0.55, <= 6 outer colours;
               per band median length <= 5, folded share <= 10%, median steps <= 60;
               no certificate above 100 steps.
3 ``joint``    solo cost of every body (exact A*, the body alone, spec 5c), body bound,
               travel bound, joint = (minimum | lower_bound) - body bound, steering = body
               bound - travel bound; band medians never fall by more than one band to
               band, >= 12 in 1901-2000; every non-breather from 11 has joint >= 1; median
               steering/steps <= 15%.
4 ``greedy``   weighted A* (w = 2, 5, 10; ``--greedy-budget`` stored states each) on up to
               ``--greedy-sample`` unproven levels (proven ones fill the sample when the
               line has fewer): no solution shorter than the certificate.
5 ``proven``   levels 1-300 all optimal; >= 60% of the line, >= 40% of every band; exact
               A* (``--exact-budget``) on ``--exact-sample`` optimality claims: confirmed /
               refuted / out of budget.  A level of several floor regions (no body can
               leave its region) is first taken region by region, every freeze and lock
               lifted: the regions' exact minima summing to the claim confirm it "by
               regions", summing above it refute it; otherwise the whole level's A*.
6 ``serial``   from 11, on ``--serial-sample`` non-breathers: is there some order of bodies
               each of which, moved alone (others standing, mechanics as the rules say),
               takes all its layers out?  serial / not serial / undecided
               (``--serial-budget`` body configurations per level).
7 ``witness``  every witness replays on the level with its one mechanic removed, in at most
               the certificate's steps, and the full rules refuse it; frozen bodies and
               holes, locks and painted cells without a witness are listed; every bridge is
               crossed by the certificate's solution (both lanes held at some state).
8 ``mech``     per band the shares of levels with coats / frozen bodies / frozen holes /
               locks / gold locks / paths / bridges; >= 10% of every band free of all.

Every check prints a table; then a band table and one PASS/FAIL line per must-hold (a
check not run, or a must-hold it cannot judge on the levels selected, says SKIP).
Deterministic: samples come from ``--seed``, budgets count stored states, never seconds.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any

from bench.audit.shared import (
    DEFAULT_DATA,
    DIRS,
    ENDS,
    INF,
    LOCK_NEED,
    LazyOutcomes,
    LevelError,
    Move,
    OneAtATime,
    State,
    assignment,
    astar,
    colour_counts,
    serial_solution,
)

ALL_CHECKS = ("replay", "shape", "joint", "greedy", "proven", "serial", "witness", "mech")
DXY = ((0, -1), (0, 1), (-1, 0), (1, 0))
BAND = 100

def _int(v: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise LevelError(f"{path}: expected an integer, got {v!r}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise LevelError(f"{path}: {v} outside {lo}..{hi}")
    return int(v)


# --------------------------------------------------------------------------------------------
# the level and the rules (sections 1-4 and 3b)
# --------------------------------------------------------------------------------------------


class Relax:
    """Mechanics removed for a witness: body freezes, hole freezes, locks (with their keys)
    and painted cells (by index into ``paths``)."""

    def __init__(self, bodies: Iterable[int] = (), holes: Iterable[int] = (),
                 locks: Iterable[str] = (), paths: Iterable[int] = ()) -> None:
        self.bodies = frozenset(bodies)
        self.holes = frozenset(holes)
        self.locks = frozenset(locks)
        self.paths = frozenset(paths)


class Level:
    """A parsed level.  State = flat tuple: [layers shed per body] + [hole used flags] +
    [places of every body, head first] (a body that has left holds -1 in all its places)."""

    def __init__(self, raw: Any, relax: Relax | None = None) -> None:
        if not isinstance(raw, dict):
            raise LevelError("level: not an object")
        rx = relax or Relax()
        self.raw: dict[str, Any] = raw
        self.cols = _int(raw.get("cols"), "cols", 2, 18)
        self.rows = _int(raw.get("rows"), "rows", 2, 24)
        self.n = self.cols * self.rows
        self._read_terrain(raw, rx)
        bodies = raw.get("bodies")
        if not isinstance(bodies, list) or not 1 <= len(bodies) <= 16:
            raise LevelError("bodies: expected a list of 1..16 bodies")
        holes = _list(raw.get("holes"), "holes")
        taken: dict[int, str] = {}
        self.bplaces: list[tuple[int, ...]] = []
        self.bcolors: list[tuple[int, ...]] = []
        self.bfrozen: list[int] = []
        self.block: list[tuple[str, str] | None] = []
        self.bkey: list[str | None] = []
        for bi, b in enumerate(bodies):
            self._read_body(bi, b, rx, taken)
        self.k = len(bodies)
        self.hcell: list[int] = []
        self.hcolor: list[int] = []
        self.hfrozen: list[int] = []
        self.hole_at = [-1] * (2 * self.n)
        for hi, h in enumerate(holes):
            self._read_hole(hi, h, rx, taken)
        self.m = len(self.hcell)
        self._check_supply()
        self._read_locks()
        self._lay_out()

    def _read_terrain(self, raw: dict[str, Any], rx: Relax) -> None:
        """Stones, bridges and paint; ``tgt[place][d]``: the place a step in direction d
        enters, -1 when none (wall, stone, or a direction across a bridge lane's axis)."""
        n = self.n
        floor = [True] * n
        for i, c in enumerate(_list(raw.get("stones", []), "stones")):
            floor[self._cell(c, f"stones[{i}]")] = False
        self.floor = floor
        self.nfloor = sum(floor)
        self.bridge = [False] * n
        for i, c in enumerate(_list(raw.get("bridges", []), "bridges")):
            x = self._cell(c, f"bridges[{i}]")
            if not floor[x]:
                raise LevelError(f"bridges[{i}]: on a stone")
            self.bridge[x] = True
        self.paint = [-1] * (2 * n)
        self.paths: list[tuple[int, int]] = []
        for i, p in enumerate(_list(raw.get("paths", []), "paths")):
            if not isinstance(p, dict):
                raise LevelError(f"paths[{i}]: not an object")
            x = self._cell(p.get("cell"), f"paths[{i}].cell")
            col = _int(p.get("color"), f"paths[{i}].color", 0, 14)
            if not floor[x] or self.bridge[x]:
                raise LevelError(f"paths[{i}]: on a stone or a bridge")
            self.paths.append((x, col))
            if i not in rx.paths:
                self.paint[x] = col
        self.paint_colors = {c for i, (_x, c) in enumerate(self.paths) if i not in rx.paths}
        self.tgt = [self._targets(p) for p in range(2 * n)]

    def _targets(self, p: int) -> tuple[int, ...]:
        n, cols, floor = self.n, self.cols, self.floor
        c = p % n
        row = [-1, -1, -1, -1]
        if floor[c] and (p < n or self.bridge[c]):
            x, y = c % cols, c // cols
            for d, (dx, dy) in enumerate(DXY):
                if self.bridge[c] and (d < 2) != (p >= n):
                    continue
                xx, yy = x + dx, y + dy
                if 0 <= xx < cols and 0 <= yy < self.rows and floor[yy * cols + xx]:
                    t = yy * cols + xx
                    row[d] = t + n if self.bridge[t] and d < 2 else t
        return tuple(row)

    def _read_body(self, bi: int, b: Any, rx: Relax, taken: dict[int, str]) -> None:
        pth = f"bodies[{bi}]"
        if not isinstance(b, dict):
            raise LevelError(f"{pth}: not an object")
        cells = b.get("cells")
        if not isinstance(cells, list) or not 2 <= len(cells) <= 40:
            raise LevelError(f"{pth}.cells: expected 2..40 cells")
        cl = [self._cell(c, f"{pth}.cells[{ci}]") for ci, c in enumerate(cells)]
        places = []
        for ci in range(len(cl)):
            pl = self._body_place(cl, ci, pth)
            if pl in taken:
                raise LevelError(f"{pth}.cells[{ci}]: overlaps {taken[pl]}")
            taken[pl] = pth
            places.append(pl)
        colors = b.get("colors")
        if not isinstance(colors, list) or not 1 <= len(colors) <= 4:
            raise LevelError(f"{pth}.colors: expected 1..4 colours")
        for ci, c in enumerate(colors):
            _int(c, f"{pth}.colors[{ci}]", 0, 14)
        fr = _int(b.get("frozen", 0) or 0, f"{pth}.frozen", 0)
        lk = _lock(b.get("lock"), pth)
        key = b.get("key")
        if key is not None and not isinstance(key, str):
            raise LevelError(f"{pth}.key: expected a lock id")
        self.bplaces.append(tuple(places))
        self.bcolors.append(tuple(colors))
        self.bfrozen.append(0 if bi in rx.bodies else fr)
        self.block.append(None if lk is not None and lk[0] in rx.locks else lk)
        self.bkey.append(None if key in rx.locks else key)

    def _body_place(self, cl: list[int], ci: int, pth: str) -> int:
        """The place of the body's cell ci (a bridge's lane by the body's axis there)."""
        x, cols = cl[ci], self.cols
        if not self.floor[x]:
            raise LevelError(f"{pth}.cells[{ci}]: on a stone")
        prev = cl[ci - 1]
        if ci and abs(x % cols - prev % cols) + abs(x // cols - prev // cols) != 1:
            raise LevelError(f"{pth}.cells[{ci}]: not adjacent to the previous cell")
        if not self.bridge[x]:
            return x
        other = cl[ci + 1] if ci + 1 < len(cl) else cl[ci - 1]
        if 0 < ci < len(cl) - 1 and cl[ci + 1] - x != x - cl[ci - 1]:
            raise LevelError(f"{pth}.cells[{ci}]: turns on a bridge")
        return x + self.n if abs(other - x) == cols else x

    def _read_hole(self, hi: int, h: Any, rx: Relax, taken: dict[int, str]) -> None:
        pth = f"holes[{hi}]"
        if not isinstance(h, dict):
            raise LevelError(f"{pth}: not an object")
        x = self._cell(h.get("cell"), f"{pth}.cell")
        if not self.floor[x] or self.bridge[x] or self.paint[x] >= 0 or x in taken:
            raise LevelError(f"{pth}.cell: on a stone, bridge, paint or body")
        taken[x] = pth
        self.hcell.append(x)
        self.hcolor.append(_int(h.get("color"), f"{pth}.color", 0, 14))
        fr = _int(h.get("frozen", 0) or 0, f"{pth}.frozen", 0)
        self.hfrozen.append(0 if hi in rx.holes else fr)
        self.hole_at[x] = hi

    def _check_supply(self) -> None:
        supply, demand = colour_counts(self.bcolors, self.hcolor)
        if supply != demand:
            raise LevelError(f"holes: supply {supply} != demand {demand}")

    def _read_locks(self) -> None:
        carriers: dict[str, list[int]] = {}
        for bi, key in enumerate(self.bkey):
            if key is not None:
                carriers.setdefault(key, []).append(bi)
        self.lock_need = [0] * self.k
        self.lock_keys: list[tuple[int, ...]] = [()] * self.k
        for bi, lk in enumerate(self.block):
            if lk is None:
                continue
            got = tuple(carriers.get(lk[0], ()))
            if bi in got or len(got) != LOCK_NEED[lk[1]]:
                raise LevelError(f"bodies[{bi}].lock: {lk[1]} lock {lk[0]} keys {got}")
            self.lock_need[bi] = LOCK_NEED[lk[1]]
            self.lock_keys[bi] = got

    def _lay_out(self) -> None:
        """The state's layout, the start and goal, and the holes' distance tables."""
        k, m = self.k, self.m
        self.blen = [len(p) for p in self.bplaces]
        self.nc = [len(c) for c in self.bcolors]
        self.off = []
        o = k + m
        for ln in self.blen:
            self.off.append(o)
            o += ln
        start: list[int] = [0] * (k + m)
        for places_b in self.bplaces:
            start.extend(places_b)
        self.start: State = tuple(start)
        self.goal: State = tuple(self.nc + [1] * m + [-1] * sum(self.blen))
        self.holes_by_color: dict[int, list[int]] = {}
        for hi, c in enumerate(self.hcolor):
            self.holes_by_color.setdefault(c, []).append(hi)
        self.closes = {c: self._paint_closes(c) for c in self.holes_by_color}
        self.dist = [
            self.distances(self.hcell[j], self.hcolor[j] if self.closes[self.hcolor[j]] else -1)
            for j in range(m)
        ]
        self.hcache: dict[tuple[Any, ...], int] = {}

    def _cell(self, c: Any, path: str) -> int:
        if (not isinstance(c, (list, tuple)) or len(c) != 2
                or any(isinstance(v, bool) or not isinstance(v, int) for v in c)):
            raise LevelError(f"{path}: expected [x, y]")
        x, y = c
        if not (0 <= x < self.cols and 0 <= y < self.rows):
            raise LevelError(f"{path}: [{x}, {y}] outside the board")
        return int(y * self.cols + x)

    def _paint_closes(self, c: int) -> bool:
        """May paint of other colours be closed to outer colour c (module docstring)?"""
        if not any(pc != c for pc in self.paint_colors):
            return True
        for bi, cs in enumerate(self.bcolors):
            if c in cs[1:]:
                return False
            if cs[0] == c and any(self.paint[p % self.n] not in (-1, c) for p in self.bplaces[bi]):
                return False
        return True

    def distances(self, hole_cell: int, color: int) -> list[int]:
        """Steps from every place to exit into ``hole_cell`` (the exit step included), on the
        place graph, walls and stones blocking, cells painted other than ``color`` closed
        (``color`` -1: paint ignored)."""
        n2 = 2 * self.n
        rev: list[list[int]] = [[] for _ in range(n2)]
        for p in range(n2):
            for t in self.tgt[p]:
                if t >= 0:
                    rev[t].append(p)
        d = [INF] * n2
        d[hole_cell] = 0
        q = [hole_cell]
        paint = self.paint
        for x in q:
            if x != hole_cell and color >= 0 and paint[x] not in (-1, color):
                continue  # a closed place is never entered, so nothing reaches past it
            dx = d[x] + 1
            for p in rev[x]:
                if d[p] > dx:
                    d[p] = dx
                    q.append(p)
        return d

    def cell_xy(self, place: int) -> list[int]:
        c = place % self.n
        return [c % self.cols, c // self.cols]

    # ---- rules ------------------------------------------------------------------------------

    def movable(self, s: State, b: int, exited: int) -> bool:
        if s[b] >= self.nc[b] or self.bfrozen[b] > exited:
            return False
        if self.block[b] is not None:
            got = sum(1 for c in self.lock_keys[b] if s[c] >= self.nc[c])
            if got < self.lock_need[b]:
                return False
        return True

    def successors(self, s: State) -> list[tuple[Move, State]]:
        """Every legal step from s with the state it leads to."""
        k, nc, off, blen, tgt = self.k, self.nc, self.off, self.blen, self.tgt
        hole_at, hcolor, hfrozen, paint = self.hole_at, self.hcolor, self.hfrozen, self.paint
        exited = sum(s[:k])
        occ = [0] * (2 * self.n)
        for b in range(k):
            if s[b] < nc[b]:
                o = off[b]
                for c in s[o : o + blen[b]]:
                    occ[c] = b + 1
        out: list[tuple[Move, State]] = []
        for b in range(k):
            if not self.movable(s, b, exited):
                continue
            o, ln = off[b], blen[b]
            cells = s[o : o + ln]
            outer = self.bcolors[b][s[b]]
            for e in (0, 1):
                src, far = (cells[0], cells[-1]) if e == 0 else (cells[-1], cells[0])
                for di, t in enumerate(tgt[src]):
                    if t < 0:
                        continue
                    oc = occ[t]
                    if oc and (oc != b + 1 or t != far or ln < 3):
                        continue
                    hj = hole_at[t]
                    if hj >= 0 and not s[k + hj]:
                        if hcolor[hj] == outer and hfrozen[hj] <= exited:
                            ns = list(s)
                            ns[b] += 1
                            ns[k + hj] = 1
                            if ns[b] >= nc[b]:
                                ns[o : o + ln] = [-1] * ln
                            out.append(((b, e, di), tuple(ns)))
                        continue
                    if paint[t] >= 0 and paint[t] != outer:
                        continue
                    if e == 0:
                        ns2 = (*s[:o], t, *cells[:-1], *s[o + ln :])
                    else:
                        ns2 = (*s[:o], *cells[1:], t, *s[o + ln :])
                    out.append(((b, e, di), ns2))
        return out

    def h(self, s: State) -> int:
        """Admissible bound: per outer colour, min-cost matching of the nearer end's place
        distance to distinct unused holes of that colour (exit included), plus one step per
        remaining inner layer (the travel bound of spec 5b at the start)."""
        k, nc, off, blen = self.k, self.nc, self.off, self.blen
        total = 0
        groups: dict[int, list[tuple[int, int]]] = {}
        for b in range(k):
            lb = s[b]
            if lb < nc[b]:
                total += nc[b] - lb - 1
                hd, tl = s[off[b]], s[off[b] + blen[b] - 1]
                groups.setdefault(self.bcolors[b][lb], []).append((min(hd, tl), max(hd, tl)))
        for col, ends in groups.items():
            free = tuple(j for j in self.holes_by_color[col] if not s[k + j])
            ends.sort()
            key = (col, tuple(ends), free)
            v = self.hcache.get(key)
            if v is None:
                if len(free) < len(ends):
                    v = INF
                else:
                    v = assignment([[min(self.dist[j][a], self.dist[j][c]) for j in free]
                                    for a, c in ends])
                if len(self.hcache) > 300000:
                    self.hcache.clear()
                self.hcache[key] = v
            if v >= INF:
                return INF
            total += v
        return total


def _lock(lock: Any, pth: str) -> tuple[str, str] | None:
    if lock is None:
        return None
    if (not isinstance(lock, dict) or lock.get("kind") not in LOCK_NEED
            or not isinstance(lock.get("id"), str)):
        raise LevelError(f"{pth}.lock: expected {{id, kind: silver|gold}}")
    return (str(lock["id"]), str(lock["kind"]))


def _list(v: Any, path: str) -> list[Any]:
    if not isinstance(v, list):
        raise LevelError(f"{path}: not a list")
    return v


def parse_step(st: Any) -> Move | None:
    if (not isinstance(st, (list, tuple)) or len(st) != 3 or isinstance(st[0], bool)
            or not isinstance(st[0], int) or st[1] not in ENDS or st[2] not in DIRS):
        return None
    return (st[0], ENDS.index(st[1]), DIRS.index(st[2]))


def replay(lv: Level, solution: Any) -> tuple[bool, str, list[State]]:
    """(complete, why not, states from the start)."""
    s = lv.start
    states = [s]
    if not isinstance(solution, list):
        return False, "solution: not a list", states
    for i, st in enumerate(solution):
        mv = parse_step(st)
        nxt = dict(lv.successors(s)).get(mv) if mv is not None else None
        if nxt is None:
            return False, f"step {i + 1} {st!r} refused", states
        s = nxt
        states.append(s)
    if s != lv.goal:
        return False, "ends incomplete", states
    return True, "", states


# --------------------------------------------------------------------------------------------
# optimality claims, region by region
# --------------------------------------------------------------------------------------------


def floor_regions(lv: Level) -> list[list[int]]:
    """The connected floor regions (4-adjacency over non-stone cells; a bridge cell touches
    its four neighbours like any cell), each as sorted cell indices, by least cell."""
    seen = [False] * lv.n
    out = []
    for c0 in range(lv.n):
        if not lv.floor[c0] or seen[c0]:
            continue
        seen[c0] = True
        comp = [c0]
        for c in comp:
            x, y = c % lv.cols, c // lv.cols
            for dx, dy in DXY:
                xx, yy = x + dx, y + dy
                t = yy * lv.cols + xx
                if 0 <= xx < lv.cols and 0 <= yy < lv.rows and lv.floor[t] and not seen[t]:
                    seen[t] = True
                    comp.append(t)
        out.append(sorted(comp))
    return out


def region_raws(lv: Level) -> list[dict[str, Any]]:
    """One level per floor region holding a body or a hole: every other cell a stone, the
    region's bodies (all their layers), holes, paint and bridges kept, every freeze and lock
    lifted and keys dropped (a lifted rule only allows more, so the region's minimum here
    is a floor on the steps the whole level spends in it)."""
    raw = lv.raw
    out = []
    for comp in floor_regions(lv):
        inside = set(comp)

        def here(c: Any, inside: set[int] = inside) -> bool:
            return int(c[1]) * lv.cols + int(c[0]) in inside

        bodies = [{"cells": b["cells"], "colors": b["colors"]} for b in raw["bodies"]
                  if here(b["cells"][0])]
        holes = [{"cell": h["cell"], "color": h["color"]} for h in raw["holes"]
                 if here(h["cell"])]
        if not bodies and not holes:
            continue
        out.append({
            "cols": lv.cols, "rows": lv.rows,
            "stones": [[c % lv.cols, c // lv.cols] for c in range(lv.n) if c not in inside],
            "bridges": [c for c in raw.get("bridges", []) if here(c)],
            "paths": [p for p in raw.get("paths", []) if here(p["cell"])],
            "bodies": bodies, "holes": holes,
        })
    return out


def confirm_claim(lv: Level, steps: int, budget: int) -> dict[str, Any]:
    """Is ``steps`` (the length of a solution that replays) the minimum of ``lv``?

    A level of several floor regions is first taken region by region (no body crosses
    stone, so a solution is an interleaving of one solution per region, each legal with
    the mechanics lifted): exact A* (``budget`` stored states each) on every region's
    lifted level gives a floor per region (its minimum when exhausted, else the least f
    left open).  The floors summing to ``steps`` confirm the claim; summing above it, or a
    region that cannot be solved at all, refute it (a solution of ``steps`` replays, so
    that cannot happen with correct rules).  Otherwise, and for a single region, exact A*
    on the whole level as before.  Returns verdict (confirmed | refuted | out of budget),
    way (by regions | whole level | ''), regions (floors as text, '' for one region),
    stored (states over all searches), best (a shorter solution when one was found)."""
    res: dict[str, Any] = {"verdict": "out of budget", "way": "", "regions": "",
                           "stored": 0, "best": None}
    raws = region_raws(lv)
    if len(raws) > 1:
        floors: list[str] = []
        total = 0
        for i, sub_raw in enumerate(raws):
            try:
                sub = Level(sub_raw)
            except LevelError as err:
                res.update(verdict="refuted", way="by regions",
                           regions=f"region {i} unsolvable: {err}")
                return res
            r = astar(sub, 1, budget, steps + 1)
            res["stored"] += r["stored"]
            if r["exhausted"] and r["best"] is None and r["lower"] > steps:
                # nothing within steps: the region alone needs more than the whole claim
                floors.append(f">{steps}")
                total += steps + 1
                continue
            total += r["lower"]
            floors.append(str(r["lower"]) if r["exhausted"] else f">={r['lower']}")
        res["regions"] = "+".join(floors)
        if total > steps:
            res.update(verdict="refuted", way="by regions")
            return res
        if total == steps:
            res.update(verdict="confirmed", way="by regions")
            return res
    r = astar(lv, 1, budget, steps)
    res["stored"] += r["stored"]
    if r["best"] is not None and replay(lv, r["best"])[0]:
        res.update(verdict="refuted", way="whole level", best=r["best"])
    elif r["exhausted"]:
        res.update(verdict="confirmed", way="whole level")
    return res


# --------------------------------------------------------------------------------------------
# solo cost (spec 5c)
# --------------------------------------------------------------------------------------------


def solo_cost(lv: Level, b: int, budget: int) -> tuple[int | None, int]:
    """(fewest steps for body b alone to take all its layers out | None when it cannot |
    -1 when more than ``budget`` states were needed, states stored).  The body alone,
    freeze and lock lifted, holes floor (a step into an unused hole of the outer colour may
    be an exit, one layer per hole), stones, paint and bridges kept.  Exact A*; h: over the
    layers left, the largest distance of the nearer end to the nearest unused hole of the
    layer's colour (paint closed for the current layer only when the body can lie on no
    foreign paint), at least 1, plus one step per other layer left."""
    return _Solo(lv, b).search(budget)


_SoloState = tuple[tuple[int, ...], int, int]  # places, layers shed, holes used (a mask)


class _Solo:
    """The search of ``solo_cost`` for one body."""

    def __init__(self, lv: Level, b: int) -> None:
        self.lv = lv
        self.b = b
        self.colors = lv.bcolors[b]
        self.start_paint = {lv.paint[p % lv.n] for p in lv.bplaces[b]}
        self.near_cache: dict[tuple[int, int], list[int]] = {}

    def near(self, layer: int, used: int) -> list[int]:
        lv, colors = self.lv, self.colors
        key = (layer, used)
        tab = self.near_cache.get(key)
        if tab is None:
            c = colors[layer]
            # paint closed while the body can lie only on cells colour c may enter: it
            # starts on such cells and no earlier layer could enter foreign paint
            closed = self.start_paint <= {-1, c} and all(
                e == c or e not in lv.paint_colors for e in colors[:layer])
            tab = self._nearest(c, used, c if closed else -1)
            self.near_cache[key] = tab
        return tab

    def near_open(self, layer: int, used: int) -> list[int]:
        key = (-1 - layer, used)
        tab = self.near_cache.get(key)
        if tab is None:
            tab = self._nearest(self.colors[layer], used, -1)
            self.near_cache[key] = tab
        return tab

    def _nearest(self, c: int, used: int, closed_to: int) -> list[int]:
        lv = self.lv
        tab = [INF] * (2 * lv.n)
        for j in lv.holes_by_color[c]:
            if not used >> j & 1:
                dj = lv.distances(lv.hcell[j], closed_to)
                tab = [a if a < x else x for a, x in zip(tab, dj, strict=True)]
        return tab

    def hval(self, cells: tuple[int, ...], layer: int, used: int) -> int:
        # every layer left needs some end to reach a hole of its colour: the largest of
        # those distances, plus one exit step for every other layer left
        most = 1
        for j in range(layer, len(self.colors)):
            tab = self.near(j, used) if j == layer else self.near_open(j, used)
            d = min(tab[cells[0]], tab[cells[-1]])
            if d >= INF:
                return INF
            most = max(most, d)
        return most + len(self.colors) - layer - 1

    def steps(self, st: _SoloState) -> list[_SoloState]:
        """The states one step from st (an exit and a plain step may share a target)."""
        lv = self.lv
        cells, layer, used = st
        ln = len(cells)
        outer = self.colors[layer]
        out: list[_SoloState] = []
        for e in (0, 1):
            src, far = (cells[0], cells[-1]) if e == 0 else (cells[-1], cells[0])
            for t in lv.tgt[src]:
                if t < 0:
                    continue
                if t in cells and not (t == far and ln >= 3):
                    continue
                hj = lv.hole_at[t]
                if hj >= 0 and not used >> hj & 1 and lv.hcolor[hj] == outer:
                    out.append((cells, layer + 1, used | 1 << hj))
                if lv.paint[t] < 0 or lv.paint[t] == outer:
                    moved = (t, *cells[:-1]) if e == 0 else (*cells[1:], t)
                    out.append((moved, layer, used))
        return out

    def search(self, budget: int) -> tuple[int | None, int]:
        start: _SoloState = (self.lv.bplaces[self.b], 0, 0)
        h0 = self.hval(*start)
        if h0 >= INF:
            return None, 1
        layers = len(self.colors)
        gbest: dict[_SoloState, int] = {start: 0}
        heap: list[tuple[int, int, int, _SoloState]] = [(h0, 0, 0, start)]
        cnt = 0
        while heap:
            _f, g, _c, st = heapq.heappop(heap)
            if gbest.get(st, INF) < g:
                continue
            if st[1] == layers:
                return g, len(gbest)
            for st2 in self.steps(st):
                if gbest.get(st2, INF) <= g + 1:
                    continue
                hv = 0 if st2[1] == layers else self.hval(*st2)
                if hv >= INF:
                    continue
                gbest[st2] = g + 1
                cnt += 1
                heapq.heappush(heap, (g + 1 + hv, g + 1, cnt, st2))
            if len(gbest) > budget:
                return -1, len(gbest)
        return None, len(gbest)


# --------------------------------------------------------------------------------------------
# serial (spec 5b "solved one body at a time")
# --------------------------------------------------------------------------------------------


class Serial(OneAtATime):
    """Depth-first over (bodies gone, holes used); each body, moved alone from its start
    (the remaining bodies standing at theirs, freezes, locks and frozen holes as the rules
    say), is searched best-first and hands out lazily the hole sets it can leave with."""

    def __init__(self, lv: Level, budget: int) -> None:
        super().__init__(lv.k, budget)
        self.lv = lv

    def explore(self, b: int, gone: int, used: int) -> _Alone:
        return _Alone(self, b, gone, used)


class _Alone(LazyOutcomes):
    """Body b moved alone: outcomes (holes-used masks after its last layer) found so far."""

    def __init__(self, owner: Serial, b: int, gone: int, used: int) -> None:
        super().__init__()
        lv = owner.lv
        self.owner = owner
        self.b = b
        self.heap: list[tuple[int, int, tuple[int, ...], int, int]] = []
        self.seen: set[tuple[tuple[int, ...], int, int]] = set()
        self.cnt = 0
        self.exited0 = sum(lv.nc[c] for c in range(lv.k) if gone >> c & 1)
        self.blocked = [False] * (2 * lv.n)
        for c in range(lv.k):
            if c != b and not gone >> c & 1:
                for p in lv.bplaces[c]:
                    self.blocked[p] = True
        keys = sum(1 for c in lv.lock_keys[b] if gone >> c & 1)
        self.done = lv.bfrozen[b] > self.exited0 or (
            lv.block[b] is not None and keys < lv.lock_need[b])
        if not self.done:
            self._push(lv.bplaces[b], 0, used)

    def _push(self, cells: tuple[int, ...], layer: int, used: int) -> None:
        key = (cells, layer, used)
        if key in self.seen:
            return
        self.seen.add(key)
        lv = self.owner.lv
        col = self.lv_colors()[layer]
        best = INF
        for j in lv.holes_by_color[col]:
            if not used >> j & 1:
                best = min(best, lv.dist[j][cells[0]], lv.dist[j][cells[-1]])
        self.cnt += 1
        heapq.heappush(self.heap, (best - 4 * layer, self.cnt, cells, layer, used))

    def lv_colors(self) -> tuple[int, ...]:
        return self.owner.lv.bcolors[self.b]

    def _advance(self) -> None:
        owner = self.owner
        lv = owner.lv
        colors = self.lv_colors()
        ln = lv.blen[self.b]
        found = len(self.outs)
        while self.heap and len(self.outs) == found:
            _p, _c, cells, layer, used = heapq.heappop(self.heap)
            owner.spent += 1
            if owner.spent > owner.budget:
                self.done = True
                return
            exited = self.exited0 + layer
            outer = colors[layer]
            for e in (0, 1):
                src, far = (cells[0], cells[-1]) if e == 0 else (cells[-1], cells[0])
                for t in lv.tgt[src]:
                    if t < 0 or self.blocked[t]:
                        continue
                    if t in cells and not (t == far and ln >= 3):
                        continue
                    hj = lv.hole_at[t]
                    if hj >= 0 and not used >> hj & 1:
                        if lv.hcolor[hj] == outer and lv.hfrozen[hj] <= exited:
                            u2 = used | 1 << hj
                            if layer + 1 == len(colors):
                                self.found(u2)
                            else:
                                self._push(cells, layer + 1, u2)
                        continue
                    if lv.paint[t] >= 0 and lv.paint[t] != outer:
                        continue
                    self._push((t, *cells[:-1]) if e == 0 else (*cells[1:], t), layer, used)
        if not self.heap:
            self.done = True


# --------------------------------------------------------------------------------------------
# the line
# --------------------------------------------------------------------------------------------


class Item:
    """One level of the line with its certificate and every figure measured on it."""

    def __init__(self, number: int, raw: Any, cert: Any) -> None:
        self.number = number
        self.raw = raw if isinstance(raw, dict) else {}
        self.cert: dict[str, Any] = cert if isinstance(cert, dict) else {}
        meta = self.raw.get("meta")
        self.meta: dict[str, Any] = meta if isinstance(meta, dict) else {}
        self.level: Level | None = None
        self.error: str | None = None
        self.fig: dict[str, Any] = {}
        try:
            self.level = Level(raw)
        except LevelError as err:
            self.error = str(err)
        if self.error is None and not isinstance(self.cert.get("solution"), list):
            self.error = "certificate: no solution list"

    @property
    def band(self) -> int:
        return (self.number - 1) // BAND

    @property
    def breather(self) -> bool:
        return self.meta.get("breather") is True

    @property
    def optimal(self) -> bool:
        return self.cert.get("optimal") is True

    @property
    def steps(self) -> int:
        return len(self.cert.get("solution") or [])


def load(data: str) -> tuple[list[Item], list[str]]:
    """The levels of the blocks progress.json lists (every main-*.json without it)."""
    problems: list[str] = []
    prog = os.path.join(data, "progress.json")
    names: list[str]
    if os.path.exists(prog):
        with open(prog, encoding="utf-8") as fh:
            names = [str(f["name"]) for f in json.load(fh)["files"]]
    else:
        names = sorted(f for f in os.listdir(data) if re.fullmatch(r"main-\d+-\d+\.json", f))
    items: list[Item] = []
    for name in names:
        try:
            with open(os.path.join(data, name), encoding="utf-8") as fh:
                d = json.load(fh)
        except (OSError, ValueError) as err:
            problems.append(f"{name}: {err}")
            continue
        m = re.fullmatch(r"main-(\d+)-(\d+)\.json", name)
        first = int(m.group(1)) if m else len(items) + 1
        levels, certs = d.get("levels") or [], d.get("certificates") or []
        if len(levels) != len(certs):
            problems.append(f"{name}: {len(levels)} levels, {len(certs)} certificates")
        for i, raw in enumerate(levels):
            meta = raw.get("meta") if isinstance(raw, dict) else None
            num = meta.get("level") if isinstance(meta, dict) else None
            if not isinstance(num, int) or isinstance(num, bool):
                num = first + i
            items.append(Item(num, raw, certs[i] if i < len(certs) else None))
    items.sort(key=lambda it: it.number)
    return items, problems


# --------------------------------------------------------------------------------------------
# figures
# --------------------------------------------------------------------------------------------


def folded(cells: Sequence[Sequence[int]]) -> bool:
    """Four of the body's cells form a 2x2 square (spec 5c)."""
    s = {(int(c[0]), int(c[1])) for c in cells}
    return any((x + 1, y) in s and (x, y + 1) in s and (x + 1, y + 1) in s for x, y in s)


def drags(solution: Sequence[Sequence[Any]]) -> int:
    count = 0
    last: tuple[Any, Any] | None = None
    for st in solution:
        if (st[0], st[1]) != last:
            count += 1
        last = (st[0], st[1])
    return count


def mechanics(raw: dict[str, Any]) -> dict[str, bool]:
    bodies = raw.get("bodies") or []
    return {
        "coats": any(len(b.get("colors") or []) > 1 for b in bodies),
        "frozen": any(b.get("frozen") for b in bodies),
        "frozen holes": any(h.get("frozen") for h in raw.get("holes") or []),
        "locks": any(b.get("lock") for b in bodies),
        "gold": any((b.get("lock") or {}).get("kind") == "gold" for b in bodies),
        "paths": bool(raw.get("paths")),
        "bridges": bool(raw.get("bridges")),
    }


def median(xs: Sequence[float]) -> float | None:
    return statistics.median(xs) if xs else None


def fmt(v: Any, nd: int = 1) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{nd}f}"
    return str(v)


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.0f}%" if b else "-"


def table(title: str, head: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    rows = [[fmt(c) for c in r] for r in rows]
    width = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(head)]
    print(f"\n## {title}")
    print("  ".join(h.rjust(w) for h, w in zip(head, width, strict=True)))
    for r in rows:
        print("  ".join(c.rjust(w) for c, w in zip(r, width, strict=True)))


def band_name(b: int) -> str:
    return f"{b * BAND + 1}-{(b + 1) * BAND}"


# --------------------------------------------------------------------------------------------
# the audit
# --------------------------------------------------------------------------------------------

Verdict = tuple[str, str]  # (PASS | FAIL | SKIP, figures)


class Audit:
    def __init__(self, items: list[Item], args: argparse.Namespace) -> None:
        self.items = items
        self.ok = [it for it in items if it.level is not None and it.error is None]
        self.args = args
        self.rng = random.Random(args.seed)
        self.verdicts: dict[int, list[tuple[str, Verdict]]] = {i: [] for i in range(1, 9)}
        self.bands = sorted({it.band for it in items})

    def verdict(self, item: int, what: str, ok: bool | None, figures: str) -> None:
        word = "SKIP" if ok is None else ("PASS" if ok else "FAIL")
        self.verdicts[item].append((what, (word, figures)))

    def sample(self, pool: list[Item], k: int) -> list[Item]:
        if len(pool) <= k:
            return list(pool)
        return sorted(random.Random(self.args.seed).sample(pool, k), key=lambda it: it.number)

    # ---- 1 replay ----------------------------------------------------------------------------

    def replay(self) -> None:
        bad: list[tuple[Any, ...]] = []
        for it in self.items:
            if it.level is None or it.error:
                bad.append((it.number, it.error))
                continue
            ok, why, states = replay(it.level, it.cert["solution"])
            it.fig["states"] = states if ok else None
            if not ok:
                bad.append((it.number, why))
            elif it.cert.get("steps") != it.steps:
                bad.append((it.number, f"steps {it.cert.get('steps')} != {it.steps}"))
        table("1 replay: failures", ["level", "why"], bad[:40])
        print(f"{len(self.items) - len(bad)}/{len(self.items)} certificates replay"
              + (f" ({len(bad) - 40} more failures)" if len(bad) > 40 else ""))
        self.verdict(1, "every certificate replays, steps == len(solution)", not bad,
                     f"{len(bad)} failures of {len(self.items)}")

    # ---- 2 shape -----------------------------------------------------------------------------

    def shape(self) -> None:
        for it in self.ok:
            raw = it.raw
            lv = it.level
            assert lv is not None
            bodies = raw["bodies"]
            lens = [len(b["cells"]) for b in bodies]
            cells = sum(lens) + lv.m
            it.fig.update(
                lens=lens, folded=[folded(b["cells"]) for b in bodies],
                occ=cells / lv.nfloor, outer=len({b["colors"][0] for b in bodies}),
                floor=lv.nfloor, drags=drags(it.cert["solution"]), mech=mechanics(raw))
        late = [it for it in self.ok if it.number >= 11]
        long_ = [it.number for it in late if max(it.fig["lens"]) > 8]
        dense = [it.number for it in late if it.fig["occ"] > 0.55]
        colourful = [it.number for it in late if it.fig["outer"] > 6]
        over = [it.number for it in self.ok if it.steps > 100]
        rows = []
        band_fail: list[str] = []
        for b in self.bands:
            its = [it for it in late if it.band == b]
            if not its:
                continue
            lens = [x for it in its for x in it.fig["lens"]]
            fold = [x for it in its for x in it.fig["folded"]]
            ml = median(lens)
            fs = sum(fold) / len(fold)
            ms = median([it.steps for it in its])
            rows.append((band_name(b), len(its), max(lens), ml, pct(sum(fold), len(fold)),
                         sum(1 for it in its if max(it.fig["lens"]) > 8),
                         sum(1 for it in its if it.fig["occ"] > 0.55),
                         sum(1 for it in its if it.fig["outer"] > 6), ms,
                         sum(1 for it in its if it.steps > 100)))
            if ml is not None and ml > 5:
                band_fail.append(f"{band_name(b)} median length {ml}")
            if fs > 0.10:
                band_fail.append(f"{band_name(b)} folded {fs:.0%}")
            if ms is not None and ms > 60:
                band_fail.append(f"{band_name(b)} median steps {ms}")
        table("2 shape (from level 11)",
              ["band", "levels", "max len", "med len", "folded", ">8 cells", "occ>.55",
               ">6 colours", "med steps", ">100 steps"], rows)
        for what, lst in (("bodies over 8 cells", long_), ("occupancy over 0.55", dense),
                          ("more than 6 outer colours", colourful),
                          ("certificates over 100 steps", over)):
            print(f"{what}: {len(lst)} levels {_few(lst)}")
        self.verdict(2, "each body <= 8 cells (from 11)", not long_ if late else None,
                     f"{len(long_)} levels")
        self.verdict(2, "occupancy <= 0.55 (from 11)", not dense if late else None,
                     f"{len(dense)} levels")
        self.verdict(2, "<= 6 outer colours (from 11)", not colourful if late else None,
                     f"{len(colourful)} levels")
        self.verdict(2, "band medians: length <= 5, folded <= 10%, steps <= 60",
                     not band_fail if late else None, "; ".join(band_fail[:6])
                     + (f" (+{len(band_fail) - 6})" if len(band_fail) > 6 else ""))
        self.verdict(2, "no certificate above 100 steps", not over, f"{len(over)} levels")

    # ---- 3 joint -----------------------------------------------------------------------------

    def joint(self) -> None:
        budget = self.args.solo_budget
        pool = self.ok
        if self.args.joint_sample:
            pool = self.sample(self.ok, self.args.joint_sample)
        undecided = 0
        for it in pool:
            lv = it.level
            assert lv is not None
            travel = lv.h(lv.start)
            solos = []
            for b in range(lv.k):
                c, _st = solo_cost(lv, b, budget)
                solos.append(c)
            it.fig["travel"] = travel
            it.fig["solos"] = solos
            claim = self._claim(it)
            if any(c is None or c < 0 for c in solos) or claim is None or travel >= INF:
                undecided += 1
                continue
            body = max(travel, sum(c for c in solos if c is not None))
            it.fig["body_bound"] = body
            it.fig["joint"] = claim - body
            it.fig["steering"] = body - travel
        done = [it for it in pool if "joint" in it.fig]
        rows = []
        meds: list[tuple[int, float]] = []
        for b in self.bands:
            its = [it for it in done if it.band == b]
            if not its:
                continue
            mj = median([it.fig["joint"] for it in its])
            assert mj is not None
            meds.append((b, mj))
            rows.append((band_name(b), len(its), mj, min(it.fig["joint"] for it in its),
                         median([it.fig["steering"] for it in its]),
                         median([it.fig["travel"] for it in its]),
                         median([it.fig["body_bound"] for it in its]),
                         sum(1 for it in its if it.fig["joint"] < 1 and not it.breather
                             and it.number >= 11),
                         sum(1 for it in its if it.fig["joint"] < 0)))
        # joint < 0: an unproven level whose certified lower bound is below the body bound
        table("3 joint steps", ["band", "levels", "med joint", "min joint", "med steering",
                                "med travel", "med body bnd", "non-breather joint<1",
                                "joint<0"], rows)
        print(f"solo searches out of budget ({budget} states) or no answer: {undecided} levels")
        falls = [f"{band_name(a)}->{band_name(b)} {x}->{y}"
                 for (a, x), (b, y) in itertools.pairwise(meds) if y < x - 1]
        last = [m for b, m in meds if b == 19]
        zero = [it.number for it in done
                if it.number >= 11 and not it.breather and it.fig["joint"] < 1]
        ratio = [it.fig["steering"] / it.steps for it in done if it.steps]
        mr = median(ratio)
        print(f"non-breather levels from 11 with joint < 1: {len(zero)} {_few(zero)}")
        print(f"median steering/steps: {fmt(mr, 3)}")
        self.verdict(3, "band medians never fall by more than one step",
                     not falls if len(meds) > 1 else None, "; ".join(falls[:5]))
        self.verdict(3, "band 1901-2000 median joint >= 12",
                     last[0] >= 12 if last else None, f"{last[0] if last else '-'}")
        self.verdict(3, "every non-breather from 11 has joint >= 1",
                     not zero if done else None,
                     f"{len(zero)} levels of {sum(1 for it in done if it.number >= 11)}"
                     + (f"; {undecided} undecided" if undecided else ""))
        self.verdict(3, "median steering/steps <= 15%", mr <= 0.15 if mr is not None else None,
                     f"{fmt(mr, 3)}")

    def _claim(self, it: Item) -> int | None:
        v = it.cert.get("minimum" if it.optimal else "lower_bound")
        return v if isinstance(v, int) and not isinstance(v, bool) else None

    # ---- 4 greedy ----------------------------------------------------------------------------

    def greedy(self) -> None:
        unproven = [it for it in self.ok if not it.optimal]
        pool = self.sample(unproven, self.args.greedy_sample)
        if len(pool) < self.args.greedy_sample:
            # Fewer unproven levels than asked (a fully proven line): proven ones fill the
            # sample, since no search may beat a proven minimum either.
            proven = [it for it in self.ok if it.optimal]
            pool += self.sample(proven, self.args.greedy_sample - len(pool))
        rows = []
        shorter = []
        for it in pool:
            lv = it.level
            assert lv is not None
            row: list[Any] = [it.number, it.steps, it.cert.get("lower_bound")]
            best = it.steps
            for w in (2, 5, 10):
                r = astar(lv, w, self.args.greedy_budget, it.steps)
                got = r["best"]
                if got is not None and replay(lv, got)[0]:
                    best = min(best, len(got))
                    row.append(len(got))
                else:
                    row.append("-")
            row.append(best)
            rows.append(row)
            if best < it.steps:
                shorter.append((it.number, it.steps, best))
        table("4 greedy search on unproven levels, proven ones filling the sample (found "
              "lengths; - none shorter)",
              ["level", "steps", "lower bnd", "w=2", "w=5", "w=10", "best"],
              [r for r in rows if r[-1] < r[1]][:40])
        print(f"{len(pool)} levels searched, {len(unproven)} of the line unproven "
              f"({self.args.greedy_budget} states per weight): {len(shorter)} with a shorter "
              "solution "
              f"{_few([f'{a}:{b}->{c}' for a, b, c in shorter])}")
        self.verdict(4, "greedy search finds nothing shorter", not shorter if pool else None,
                     f"{len(shorter)} of {len(pool)} sampled levels "
                     f"({min(len(pool), len(unproven))} unproven)")

    # ---- 5 proven ----------------------------------------------------------------------------

    def proven(self) -> None:
        weak = [name for name, _share in proven_bands("5 proven share", self.items,
                                                      self.bands, 0.4)]
        early = [it for it in self.items if it.number <= 300]
        early_bad = [it.number for it in early if not it.optimal]
        allp = sum(1 for it in self.items if it.optimal)
        print(f"levels 1-300 not optimal: {len(early_bad)} {_few(early_bad)}")
        self.verdict(5, "levels 1-300 all optimal", not early_bad if early else None,
                     f"{len(early_bad)} of {len(early)} unproven")
        self.verdict(5, ">= 60% of the line optimal",
                     allp >= 0.6 * len(self.items) if self.items else None,
                     pct(allp, len(self.items)))
        self.verdict(5, ">= 40% of every band optimal", not weak, ", ".join(weak))
        pool = self.sample([it for it in self.ok if it.optimal], self.args.exact_sample)
        tally = {"confirmed": 0, "refuted": 0, "out of budget": 0}
        out = []
        ways = []
        for it in pool:
            lv = it.level
            assert lv is not None
            r = confirm_claim(lv, it.steps, self.args.exact_budget)
            res = r["verdict"]
            tally[res] += 1
            out.append((it.number, it.steps, res, r["stored"]))
            ways.append((it.number, it.steps, res, r["way"] or "-", r["regions"] or "-",
                         r["stored"]))
        table("5 optimality claims, exact A*", ["level", "steps", "verdict", "states"],
              [r for r in out if r[2] != "confirmed"][:40])
        table("5 each claim: how it was judged (by regions: per-region floors with "
              "mechanics lifted; whole level: exact A*)",
              ["level", "steps", "verdict", "way", "regions", "states"], ways)
        by_regions = sum(1 for w in ways if w[2] == "confirmed" and w[3] == "by regions")
        print(f"confirmed by regions {by_regions}, on the whole level "
              f"{tally['confirmed'] - by_regions}")
        print(f"{len(pool)} claims checked ({self.args.exact_budget} states): " +
              ", ".join(f"{k} {v}" for k, v in tally.items()))
        self.verdict(5, "sampled optimality claims hold (none refuted)",
                     tally["refuted"] == 0 if pool else None,
                     ", ".join(f"{k} {v}" for k, v in tally.items()))

    # ---- 6 serial ----------------------------------------------------------------------------

    def serial(self) -> None:
        pool = [it for it in self.ok if it.number >= 11 and not it.breather]
        pool = self.sample(pool, self.args.serial_sample)
        tally = {"serial": 0, "not serial": 0, "undecided": 0}
        rows = []
        for it in pool:
            lv = it.level
            assert lv is not None
            s = Serial(lv, self.args.serial_budget)
            res = s.run()
            check = ""
            if res == "serial":
                # the answer, rebuilt into a full solution, must replay under the full rules
                sol = serial_solution(lv, s.sequence, self.args.serial_budget)
                check = "?" if sol is None else ("replays" if replay(lv, sol)[0] else "BAD")
                if check == "BAD":
                    res = "undecided"
            tally[res] += 1
            it.fig["serial"] = res
            if res != "not serial":
                rows.append((it.number, res, s.spent, " ".join(map(str, s.order or [])),
                             check))
        table("6 serial (one body at a time), non-breathers from 11",
              ["level", "verdict", "configs", "order", "rebuilt"], rows[:40])
        print(f"{len(pool)} levels: " + ", ".join(f"{k} {v}" for k, v in tally.items()))
        self.verdict(6, "no non-breather from 11 is serial", tally["serial"] == 0 if pool else None,
                     ", ".join(f"{k} {v}" for k, v in tally.items()) + f" of {len(pool)} sampled")

    # ---- 7 witness ---------------------------------------------------------------------------

    def witness(self) -> None:
        bad = []
        missing_rows = []
        missing_total = 0
        checked = 0
        uncrossed: list[tuple[int, list[int]]] = []
        for it in self.ok:
            lv = it.level
            assert lv is not None
            wit = it.cert.get("witnesses") or []
            have = set()
            for w in wit if isinstance(wit, list) else []:
                mech = w.get("mechanic") if isinstance(w, dict) else None
                checked += 1
                sol = w.get("solution") if isinstance(w, dict) else None
                why = witness_problem(it, mech, sol)
                if why:
                    bad.append((it.number, mech, why))
                else:
                    have.add(mech)
            need = mechanic_names(it.raw)
            missing = [x for x in need if x not in have]
            if missing:
                missing_total += len(missing)
                missing_rows.append((it.number, " ".join(missing)))
            if any(lv.bridge):
                states = it.fig.get("states") or replay(lv, it.cert["solution"])[2]
                uncrossed.extend((it.number, xy) for xy in bridges_uncrossed(lv, states))
        table("7 witnesses that fail", ["level", "mechanic", "why"], bad[:40])
        table("7 mechanics without a witness", ["level", "mechanics"], missing_rows[:40])
        print(f"{checked} witnesses checked, {len(bad)} fail; {missing_total} mechanics in "
              f"{len(missing_rows)} levels have none; bridges never crossed: {len(uncrossed)} "
              f"{_few([f'{a}@{b}' for a, b in uncrossed])}")
        self.verdict(7, "every witness holds", not bad, f"{len(bad)} of {checked} fail")
        self.verdict(7, "every mechanic and painted cell has a witness", not missing_rows,
                     f"{missing_total} without, in {len(missing_rows)} levels")
        self.verdict(7, "every bridge is crossed by the certificate", not uncrossed,
                     f"{len(uncrossed)} bridges not crossed")

    # ---- 8 mechanics -------------------------------------------------------------------------

    def mech(self) -> None:
        keys = list(mechanics({}).keys())
        rows = []
        thin = []
        for b in self.bands:
            its = [it for it in self.ok if it.band == b]
            if not its:
                continue
            flags = [mechanics(it.raw) for it in its]
            free = sum(1 for f in flags if not any(f.values()))
            rows.append([band_name(b), len(its)] +
                        [pct(sum(1 for f in flags if f[k]), len(its)) for k in keys] +
                        [pct(free, len(its))])
            if free < 0.1 * len(its):
                thin.append(f"{band_name(b)} {free}/{len(its)}")
        table("8 mechanics and terrain shares", ["band", "levels", *keys, "none"], rows)
        self.verdict(8, ">= 1 level in 10 of every band free of all", not thin, "; ".join(thin))

    # ---- the band table ------------------------------------------------------------------------

    def band_table(self) -> None:
        rows = []
        for b in self.bands:
            its = [it for it in self.ok if it.band == b and "lens" in it.fig]
            if not its:
                continue
            lens = [x for it in its for x in it.fig["lens"]]
            fold = [x for it in its for x in it.fig["folded"]]
            js = [it for it in its if "joint" in it.fig]
            flags = [it.fig["mech"] for it in its]
            rows.append((
                band_name(b), median([it.fig["floor"] for it in its]),
                median([len(it.fig["lens"]) for it in its]), median(lens),
                pct(sum(fold), len(fold)), median([round(it.fig["occ"], 3) for it in its]),
                median([it.steps for it in its]), median([it.fig["drags"] for it in its]),
                median([it.fig["joint"] for it in js]) if js else None,
                median([it.fig["steering"] for it in js]) if js else None,
                pct(sum(1 for it in its if it.optimal), len(its)),
                *[pct(sum(1 for f in flags if f[k]), len(its))
                  for k in ("coats", "frozen", "frozen holes", "locks", "gold", "paths",
                            "bridges")]))
        table("bands", ["band", "floor", "bodies", "len", "folded", "occ", "steps", "drags",
                        "joint", "steer", "proven", "coat", "frz", "frzH", "lock", "gold",
                        "path", "brdg"], rows)

    def summary(self) -> None:
        say_verdicts("must-holds", [str(i) for i in range(1, 9)], self.verdicts)


def mechanic_names(raw: dict[str, Any]) -> list[str]:
    """Every mechanic a witness may be asked for: frozen bodies and holes, locks, paint."""
    out = []
    for i, b in enumerate(raw.get("bodies") or []):
        if b.get("frozen"):
            out.append(f"bodies[{i}].frozen")
        if b.get("lock"):
            out.append(f"bodies[{i}].lock")
    for j, h in enumerate(raw.get("holes") or []):
        if h.get("frozen"):
            out.append(f"holes[{j}].frozen")
    out.extend(f"paths[{k}]" for k in range(len(raw.get("paths") or [])))
    return out

def witness_problem(it: Item, mech: Any, sol: Any) -> str:
    """Why the witness fails ('' when it holds): it must replay to completion with its one
    mechanic removed, in at most the certificate's steps, and the full rules must refuse it."""
    m = re.fullmatch(r"(bodies|holes)\[(\d+)\]\.(frozen|lock)|paths\[(\d+)\]", str(mech))
    if not m:
        return "unknown mechanic"
    raw = it.raw
    try:
        if m.group(4) is not None:
            k = int(m.group(4))
            if k >= len(raw.get("paths") or []):
                return "no such painted cell"
            rx = Relax(paths=[k])
        else:
            i = int(m.group(2))
            group = raw.get(m.group(1)) or []
            if i >= len(group) or not group[i].get(m.group(3)):
                return "no such mechanic"
            if m.group(1) == "holes":
                if m.group(3) != "frozen":
                    return "no such mechanic"
                rx = Relax(holes=[i])
            elif m.group(3) == "frozen":
                rx = Relax(bodies=[i])
            else:
                rx = Relax(locks=[str(group[i]["lock"]["id"])])
        relaxed = Level(raw, rx)
    except (LevelError, KeyError, TypeError) as err:
        return f"relaxed level: {err}"
    ok, why, _st = replay(relaxed, sol)
    if not ok:
        return f"relaxed replay: {why}"
    assert isinstance(sol, list)
    if len(sol) > it.steps:
        return f"{len(sol)} steps > certificate {it.steps}"
    assert it.level is not None
    if replay(it.level, sol)[0]:
        return "the full rules accept it"
    return ""


def bridges_uncrossed(lv: Level, states: Sequence[State]) -> list[list[int]]:
    """Bridges ([x, y]) whose two lanes never both hold a body cell in ``states``."""
    out = []
    for c in range(lv.n):
        if lv.bridge[c] and not any(c in st[lv.k + lv.m :] and c + lv.n in st[lv.k + lv.m :]
                                    for st in states):
            out.append(lv.cell_xy(c))
    return out


def _few(xs: Sequence[Any], k: int = 12) -> str:
    if not xs:
        return ""
    return "[" + ", ".join(map(str, xs[:k])) + (", ..." if len(xs) > k else "") + "]"


def proven_bands(title: str, items: Sequence[Item], bands: Iterable[int], least: float
                 ) -> list[tuple[str, str]]:
    """The table of each band's optimal certificates; the bands (name, share) where fewer
    than ``least`` of the levels are optimal."""
    rows = []
    weak = []
    for b in bands:
        its = [it for it in items if it.band == b]
        n = sum(1 for it in its if it.optimal)
        rows.append((band_name(b), len(its), n, pct(n, len(its))))
        if n < least * len(its):
            weak.append((band_name(b), pct(n, len(its))))
    table(title, ["band", "levels", "optimal", "share"], rows)
    return weak


def say_verdicts(heading: str, labels: Sequence[str],
                 verdicts: dict[int, list[tuple[str, Verdict]]]) -> None:
    """One line a must-hold (numbered from 1, ``labels[i - 1]``): FAIL when any of its
    verdicts fails, PASS when all pass, else SKIP; then each verdict with its figures."""
    print(f"\n## {heading}")
    for i, label in enumerate(labels, 1):
        vs = verdicts[i]
        if not vs:
            print(f"{label}: SKIP (not run)")
            continue
        words = {v[0] for _w, v in vs}
        word = "FAIL" if "FAIL" in words else ("PASS" if words == {"PASS"} else "SKIP")
        print(f"{label}: {word}")
        for what, (w, figs) in vs:
            print(f"   {w:4}  {what}: {figs}")


def common_arguments(ap: argparse.ArgumentParser, checks: Sequence[str], seed: int,
                     levels_help: str) -> None:
    """The arguments every auditor of the line takes: --data, --levels, --seed, --checks."""
    ap.add_argument("--data", default=DEFAULT_DATA, help="folder of main-NNNN-NNNN.json blocks")
    ap.add_argument("--levels", help=levels_help)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--checks", default=",".join(checks), help=",".join(checks))


def read_line(ap: argparse.ArgumentParser, args: argparse.Namespace, checks: Sequence[str]
              ) -> tuple[list[str], list[Item], list[Item], list[str]]:
    """The checks asked for, every level of ``--data`` (its history), the levels ``--levels``
    selects and the block problems; a bad argument or an unreadable folder ends the run
    with a message naming it (argparse's exit 2), never a traceback."""
    asked = [c.strip() for c in args.checks.split(",") if c.strip()]
    unknown = [c for c in asked if c not in checks]
    if unknown:
        ap.error(f"unknown checks {unknown}")
    if not os.path.isdir(args.data):
        ap.error(f"--data: {args.data} is not a folder")
    try:
        history, problems = load(args.data)
    except (OSError, ValueError, KeyError, TypeError) as err:
        ap.error(f"--data: {os.path.join(args.data, 'progress.json')} unreadable: {err!r}")
    items = history
    if args.levels:
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", args.levels.strip())
        if not m:
            ap.error("--levels: expected A-B")
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        items = [it for it in history if a <= it.number <= b]
    return asked, history, items, problems


def run_checks(audit: Any, order: Sequence[str]) -> None:
    """Every check of ``order`` (a method of ``audit`` each), then the band table, the
    summary and the CPU seconds each check took (reported only, never a budget)."""
    clock = time.process_time
    spent: list[tuple[str, float]] = []
    for c in order:
        t0 = clock()
        getattr(audit, c)()
        spent.append((c, clock() - t0))
    audit.band_table()
    audit.summary()
    print("\nCPU seconds: " + ", ".join(f"{c} {t:.0f}" for c, t in spent))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    common_arguments(ap, ALL_CHECKS, 41, "A-B: only these levels")
    ap.add_argument("--sample", type=int, default=0, help="only K levels drawn with --seed")
    ap.add_argument("--solo-budget", type=int, default=400_000,
                    help="states per body's solo search")
    ap.add_argument("--joint-sample", type=int, default=0, help="levels for joint (0: all)")
    ap.add_argument("--greedy-sample", type=int, default=100)
    ap.add_argument("--greedy-budget", type=int, default=40_000, help="states per weight")
    ap.add_argument("--exact-sample", type=int, default=100)
    ap.add_argument("--exact-budget", type=int, default=150_000)
    ap.add_argument("--serial-sample", type=int, default=100)
    ap.add_argument("--serial-budget", type=int, default=1_000_000,
                    help="body configurations per level")
    args = ap.parse_args(argv)
    checks, _, items, problems = read_line(ap, args, ALL_CHECKS)
    if args.sample and args.sample < len(items):
        items = sorted(random.Random(args.seed).sample(items, args.sample),
                       key=lambda it: it.number)
    for p in problems:
        print(f"problem: {p}")
    print(f"{len(items)} levels from {os.path.normpath(args.data)}; checks {','.join(checks)}")
    # replay and shape always run (cheap): the other checks and the band table use them
    order0 = ("replay", "shape")
    run_checks(Audit(items, args),
               [*order0, *(c for c in ALL_CHECKS if c in checks and c not in order0)])
    return 0

if __name__ == "__main__":
    sys.exit(main())
