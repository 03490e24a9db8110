"""The puzzle auditor's own rules (spec ``snakes.md`` sections 1-4, no terrain): the level
reader with its plain rule function (``Level.apply``, every refusal with its reason) and fast
move generator, the replay, one body moved alone for the serial search, and the loaded item.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from typing import Any

from bench.audit.shared import (
    DIRS,
    ENDS,
    INF,
    LOCK_NEED,
    LazyOutcomes,
    LevelError,
    Move,
    OneAtATime,
    State,
    Step,
    assignment,
    colour_counts,
)

DXY = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}


def _int(v: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise LevelError(f"{path}: expected an integer, got {v!r}")
    if lo is not None and v < lo:
        raise LevelError(f"{path}: {v} below {lo}")
    if hi is not None and v > hi:
        raise LevelError(f"{path}: {v} above {hi}")
    return int(v)


# --------------------------------------------------------------------------------------------
# the level and the rules
# --------------------------------------------------------------------------------------------


# a level's mechanics removed: {("body_frozen", b): True, ("hole_frozen", j): True,
# "locks": [lock ids]} (a lock removed takes its keys with it)
Relax = dict[Any, Any]


class Level:
    """A parsed level.  State = flat tuple:
    [layers consumed per body] + [hole used flags] + [cells of every body, head first]
    (a body that has left holds -1 in all its cells)."""

    def __init__(self, raw: Any, relax: Relax | None = None) -> None:
        if not isinstance(raw, dict):
            raise LevelError("level: not an object")
        relax = relax or {}
        self.raw: dict[str, Any] = raw
        cols = _int(raw.get("cols"), "cols", 2, 18)
        rows = _int(raw.get("rows"), "rows", 2, 24)
        self.cols, self.rows = cols, rows
        self.n = cols * rows
        self._read_floor(raw)
        bodies = raw.get("bodies")
        if not isinstance(bodies, list) or not 1 <= len(bodies) <= 16:
            raise LevelError("bodies: expected a list of 1..16 bodies")
        holes = raw.get("holes")
        if not isinstance(holes, list):
            raise LevelError("holes: expected a list")
        occupied: dict[int, str] = {}
        self.bcells: list[tuple[int, ...]] = []
        self.bcolors: list[tuple[int, ...]] = []
        self.bfrozen: list[int] = []
        self.block: list[tuple[str, str] | None] = []
        self.bkey: list[str | None] = []
        for bi, b in enumerate(bodies):
            self._read_body(bi, b, relax, occupied)
        # remove a lock (and its keys) when relaxed
        for lid in relax.get("locks", ()):
            for bi in range(len(bodies)):
                lk = self.block[bi]
                if lk and lk[0] == lid:
                    self.block[bi] = None
                if self.bkey[bi] == lid:
                    self.bkey[bi] = None
        self.k = len(bodies)
        self.hcell: list[int] = []
        self.hcolor: list[int] = []
        self.hfrozen: list[int] = []
        self.hole_at = [-1] * self.n
        for hi, h in enumerate(holes):
            self._read_hole(hi, h, relax, occupied)
        self.m = len(holes)
        self._check_supply()
        self._read_locks()
        self._lay_out()

    def _read_floor(self, raw: dict[str, Any]) -> None:
        cols, rows, n = self.cols, self.rows, self.n
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

    def _read_body(self, bi: int, b: Any, relax: Relax, occupied: dict[int, str]) -> None:
        p = f"bodies[{bi}]"
        if not isinstance(b, dict):
            raise LevelError(f"{p}: not an object")
        cells = b.get("cells")
        if not isinstance(cells, list) or not 2 <= len(cells) <= 40:
            raise LevelError(f"{p}.cells: expected 2..40 cells")
        cl: list[int] = []
        for ci, c in enumerate(cells):
            idx = self._cell(c, f"{p}.cells[{ci}]")
            if not self.floor[idx]:
                raise LevelError(f"{p}.cells[{ci}]: on a stone")
            if idx in occupied:
                raise LevelError(f"{p}.cells[{ci}]: overlaps {occupied[idx]}")
            if cl and idx not in self.nb[cl[-1]]:
                raise LevelError(f"{p}.cells[{ci}]: not adjacent to the previous cell")
            occupied[idx] = p
            cl.append(idx)
        colors = b.get("colors")
        if not isinstance(colors, list) or not 1 <= len(colors) <= 4:
            raise LevelError(f"{p}.colors: expected 1..4 colours")
        for ci, c in enumerate(colors):
            _int(c, f"{p}.colors[{ci}]", 0, 14)
        fr = _int(b.get("frozen", 0) or 0, f"{p}.frozen", 0)
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

    def _read_hole(self, hi: int, h: Any, relax: Relax, occupied: dict[int, str]) -> None:
        p = f"holes[{hi}]"
        if not isinstance(h, dict):
            raise LevelError(f"{p}: not an object")
        idx = self._cell(h.get("cell"), f"{p}.cell")
        if not self.floor[idx]:
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

    def _check_supply(self) -> None:
        supply, demand = colour_counts(self.bcolors, self.hcolor)
        if supply != demand:
            raise LevelError(
                f"holes: supply {dict(sorted(supply.items()))} != demand "
                f"{dict(sorted(demand.items()))} (unsolvable)"
            )

    def _read_locks(self) -> None:
        self.lock_carriers: dict[str, list[int]] = {}
        for bi, key in enumerate(self.bkey):
            if key is not None:
                self.lock_carriers.setdefault(key, []).append(bi)
        self.lock_need: list[int] = []
        self.lock_keys: list[tuple[int, ...]] = []
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

    def _lay_out(self) -> None:
        """The state's layout, the start and goal, and the holes' distance tables."""
        self.blen = [len(c) for c in self.bcells]
        self.nc = [len(c) for c in self.bcolors]
        self.base = self.k + self.m
        self.off: list[int] = []
        o = self.base
        for ln in self.blen:
            self.off.append(o)
            o += ln
        self.size = o
        self.total_layers = sum(self.nc)
        start = [0] * self.k + [0] * self.m
        for cells in self.bcells:
            start.extend(cells)
        self.start: State = tuple(start)
        self.holes_by_color: dict[int, list[int]] = {}
        for hi, col in enumerate(self.hcolor):
            self.holes_by_color.setdefault(col, []).append(hi)
        self.dist = [self._bfs_from(x) for x in self.hcell]
        self.hcache: dict[tuple[Any, ...], int] = {}
        # the goal: every layer out, every hole used, no cells
        goal = [self.nc[b] for b in range(self.k)] + [1] * self.m + [-1] * sum(self.blen)
        self.goal: State = tuple(goal)

    def _cell(self, c: Any, path: str) -> int:
        if (
            not isinstance(c, (list, tuple))
            or len(c) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in c)
        ):
            raise LevelError(f"{path}: expected [x, y]")
        x, y = c
        if not (0 <= x < self.cols and 0 <= y < self.rows):
            raise LevelError(f"{path}: [{x}, {y}] outside the {self.cols}x{self.rows} board")
        return int(y * self.cols + x)

    def xy(self, idx: int) -> list[int]:
        return [idx % self.cols, idx // self.cols]

    def _bfs_from(self, src: int) -> list[int]:
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

    def can_move(self, s: State, b: int, exited: int | None = None) -> str | None:
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

    def apply(self, s: State, b: Any, end: Any, d: Any) -> tuple[State, bool]:
        """Apply one step; returns (new_state, exited_flag) or raises ValueError(reason)."""
        k = self.k
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
        t = self._target(s, b, src, d)
        if t in cells and not (t == far and L >= 3):
            raise ValueError(f"target {self.xy(t)} is the body's own cell")
        hj = self.hole_at[t]
        if hj >= 0 and not s[k + hj]:
            return self._exit(s, b, hj), True
        newcells = (t, *cells[:-1]) if end == "head" else (*cells[1:], t)
        return s[:o] + newcells + s[o + L :], False

    def _target(self, s: State, b: int, src: int, d: str) -> int:
        """The cell a step from src in direction d enters (ValueError: off the board, a
        stone, or another body)."""
        x, y = src % self.cols, src // self.cols
        dx, dy = DXY[d]
        xx, yy = x + dx, y + dy
        if not (0 <= xx < self.cols and 0 <= yy < self.rows):
            raise ValueError("target outside the board")
        t = yy * self.cols + xx
        if not self.floor[t]:
            raise ValueError(f"target {self.xy(t)} is a stone")
        for c in range(self.k):
            if c != b and s[c] < self.nc[c]:
                oc = self.off[c]
                if t in s[oc : oc + self.blen[c]]:
                    raise ValueError(f"target {self.xy(t)} occupied by body {c}")
        return t

    def _exit(self, s: State, b: int, hj: int) -> State:
        """Body b's outer layer into unused hole hj (ValueError: wrong colour, frozen)."""
        k = self.k
        exited = sum(s[:k])
        outer = self.bcolors[b][s[b]]
        if self.hcolor[hj] != outer:
            raise ValueError(
                f"target {self.xy(self.hcell[hj])} is an unused hole of colour "
                f"{self.hcolor[hj]}, body's outer colour is {outer}"
            )
        if self.hfrozen[hj] > exited:
            raise ValueError(f"hole {hj} frozen ({exited}/{self.hfrozen[hj]} layers out)")
        ns = list(s)
        ns[b] += 1
        ns[k + hj] = 1
        if ns[b] >= self.nc[b]:
            o, L = self.off[b], self.blen[b]
            ns[o : o + L] = [-1] * L
        return tuple(ns)

    def successors(self, s: State) -> list[tuple[Move, State]]:
        """All legal steps from s: list of (move, state) with move = (b, end_index, dir_index)."""
        k, nc, off, blen = self.k, self.nc, self.off, self.blen
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
        out: list[tuple[Move, State]] = []
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
            self._body_steps(s, b, exited, occ, out)
        return out

    def _body_steps(self, s: State, b: int, exited: int, occ: list[int],
                    out: list[tuple[Move, State]]) -> None:
        """Append body b's legal steps from s (b free to move) to ``out``."""
        k, nc, nb = self.k, self.nc, self.nb
        hole_at, hcolor, hfrozen = self.hole_at, self.hcolor, self.hfrozen
        o, L = self.off[b], self.blen[b]
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
                    ns2 = (*s[:o], t, *cells[:-1], *s[o + L :])
                else:
                    ns2 = s[:o] + cells[1:] + (t,) + s[o + L :]
                out.append(((b, e, di), ns2))

    def is_goal(self, s: State) -> bool:
        return s == self.goal

    # ---- bounds -------------------------------------------------------------------------------

    def h(self, s: State) -> int:
        """Admissible, consistent bound: per colour min-cost matching of the nearer end's
        wall-aware distance to distinct unused holes of the body's outer colour (the exit step
        included), plus every remaining inner layer (one exit step each)."""
        k = self.k
        nc, off, blen = self.nc, self.off, self.blen
        inner = 0
        groups: dict[int, list[tuple[int, int]]] = {}
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
                v = self._matched(ends, free)
                if len(cache) > 400000:
                    cache.clear()
                cache[key] = v
            if v >= INF:
                return INF
            total += v
        return total

    def _matched(self, ends: list[tuple[int, int]], free: tuple[int, ...]) -> int:
        """The least total distance of bodies (their ends) to distinct holes of ``free``."""
        if len(free) < len(ends):
            return INF
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
        return INF if v >= INF else v


def replay(level: Level, solution: Any) -> tuple[bool, str, list[State], list[bool]]:
    """(ok, message, states, exit_flags).  ok when every step is legal and the end is complete."""
    s = level.start
    states = [s]
    exits: list[bool] = []
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
# serial ("solved one body at a time")
# --------------------------------------------------------------------------------------------


class BodyExplorer(LazyOutcomes):
    """One body moved alone (the others standing still): a best-first search over its own
    configurations that hands out, one at a time, the hole-used masks with which it can have
    taken all its layers out.  Configurations are stored as compact ints (head cell + two bits
    per link + layer + holes used), so that large budgets stay small in memory."""

    def __init__(self, owner: SerialSearch, b: int, gone: int, used: int) -> None:
        super().__init__()
        lv = owner.lv
        self.owner = owner
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
        self.maxout = 1
        self.seen: set[int] = set()
        self.heap: list[tuple[int, int, tuple[int, ...], int, int, int]] = []
        self.cnt = 0
        cells = lv.bcells[b]
        cols = lv.cols
        self.code = {-cols: 0, cols: 1, -1: 2, 1: 3}
        self.lowmask = (1 << (2 * (self.L - 2))) - 1 if self.L >= 2 else 0
        self.dirbits = 2 * (self.L - 1)
        if not self._may_leave(gone, used):
            self.done = True
            return
        dirs = 0
        for i in range(self.L - 1):
            dirs |= self.code[cells[i + 1] - cells[i]] << (2 * i)
        self._push(cells, dirs, 0, used)

    def _may_leave(self, gone: int, used: int) -> bool:
        """Whether the body may start at all: free to move at the start of its turn (the
        others stand still, nothing changes later), holes enough for its layers (``maxout``:
        how many outcomes there can be), and (a cheap necessary condition) some end reaches,
        own cells passable, a usable hole."""
        lv = self.owner.lv
        b = self.b
        if lv.bfrozen[b] > self.exited0 or (
            lv.block[b] is not None
            and sum(1 for c in lv.lock_keys[b] if gone >> c & 1) < lv.lock_need[b]
        ):
            return False
        need: dict[int, int] = {}
        for c in self.colors:
            need[c] = need.get(c, 0) + 1
        for c, q in need.items():
            avail = sum(1 for j in lv.holes_by_color[c] if not (used >> j & 1))
            if avail < q:
                return False
            self.maxout *= math.comb(avail, q)
        return self._reaches_a_hole(used)

    def _reaches_a_hole(self, used: int) -> bool:
        lv = self.owner.lv
        cells = lv.bcells[self.b]
        outer = self.colors[0]
        reach = {cells[0], cells[-1]}
        stack = list(reach)
        while stack:
            x = stack.pop()
            for t in lv.nb[x]:
                if t < 0 or self.blocked[t] or t in reach:
                    continue
                hj = lv.hole_at[t]
                if hj >= 0 and not (used >> hj & 1):
                    if lv.hcolor[hj] == outer and lv.hfrozen[hj] <= self.exited0:
                        return True
                    continue
                reach.add(t)
                stack.append(t)
        return False

    def _key(self, head: int, dirs: int, layer: int, u: int) -> int:
        return head | (dirs << 9) | (layer << (9 + self.dirbits)) | (u << (11 + self.dirbits))

    def _prio(self, cells: tuple[int, ...], layer: int, u: int) -> int:
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

    def _push(self, cells: tuple[int, ...], dirs: int, layer: int, u: int) -> None:
        key = self._key(cells[0], dirs, layer, u)
        if key in self.seen:
            return
        self.seen.add(key)
        self.cnt += 1
        heapq.heappush(self.heap, (self._prio(cells, layer, u), self.cnt, cells, dirs, layer, u))

    def _advance(self) -> None:
        owner = self.owner
        heap = self.heap
        found = len(self.outs)
        while heap and len(self.outs) == found:
            _p, _c, cells, dirs, layer, u = heapq.heappop(heap)
            owner.spent += 1
            if owner.spent > owner.budget:
                self.done = True
                return
            for e in (0, 1):
                self._expand(cells, dirs, layer, u, e)
        if len(self.outs) >= self.maxout or not heap:
            self.done = True
            self.heap = []
            self.seen = set()

    def _expand(self, cells: tuple[int, ...], dirs: int, layer: int, u: int, e: int) -> None:
        """The steps of end e (0 head, 1 tail) from one configuration: outcomes found are
        appended to ``outs``, other configurations pushed."""
        lv = self.owner.lv
        code, L = self.code, self.L
        exited = self.exited0 + layer
        outer = self.colors[layer]
        src, far = (cells[0], cells[-1]) if e == 0 else (cells[-1], cells[0])
        for t in lv.nb[src]:
            if t < 0 or self.blocked[t]:
                continue
            if t in cells and not (t == far and L >= 3):
                continue
            hj = lv.hole_at[t]
            if hj >= 0 and not (u >> hj & 1):
                if lv.hcolor[hj] == outer and lv.hfrozen[hj] <= exited:
                    self._exit(cells, dirs, layer, u | (1 << hj))
                continue
            if e == 0:
                moved = (t, *cells[:-1])
                d2 = code[src - t] | ((dirs & self.lowmask) << 2)
            else:
                moved = (*cells[1:], t)
                d2 = (dirs >> 2) | (code[t - src] << (2 * (L - 2)))
            self._push(moved, d2, layer, u)

    def _exit(self, cells: tuple[int, ...], dirs: int, layer: int, u2: int) -> None:
        if layer + 1 >= len(self.colors):
            self.found(u2)
        else:
            self._push(cells, dirs, layer + 1, u2)


class SerialSearch(OneAtATime):
    """Is the level "solved one body at a time"?  Depth-first over (bodies gone, holes used);
    each body's own search (BodyExplorer) hands out outcomes lazily."""

    def __init__(self, level: Level, budget: int) -> None:
        super().__init__(level.k, budget)
        self.lv = level

    def explore(self, b: int, gone: int, used: int) -> BodyExplorer:
        return BodyExplorer(self, b, gone, used)


# --------------------------------------------------------------------------------------------
# loading
# --------------------------------------------------------------------------------------------


class Item:
    """One loaded level with its certificate; ``error`` says why it is left out of every
    check (a level that does not load, a certificate without a solution list)."""

    def __init__(self, number: int, source: str, raw: Any, cert: Any) -> None:
        self.number = number
        self.source = source
        self.raw: Any = raw
        self.cert: Any = cert
        self.level: Level | None = None
        self.error: str | None = None
        meta = raw.get("meta", {}) if isinstance(raw, dict) else {}
        self.meta: dict[str, Any] = meta if isinstance(meta, dict) else {}
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
    def lv(self) -> Level:
        """The level (for an item that loaded: the checks skip the others)."""
        if self.level is None:
            raise LevelError(f"{self.name}: {self.error}")
        return self.level

    @property
    def solution(self) -> list[Step]:
        """The certificate's solution (for an item without ``error``)."""
        sol: list[Step] = self.cert["solution"]
        return sol

    @property
    def name(self) -> str:
        return f"L{self.number:04d}"
