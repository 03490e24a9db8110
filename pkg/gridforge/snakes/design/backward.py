"""Levels built backwards from the solved state (seed 004, section 4, for the highest targets).

The seed's pipeline places bodies and holes and then asks the fast search for a solution. At
the top of the score range (a crowded board where no body can reach a hole of its colour at
the start) the fast search rarely finds one within budget. This module turns the problem
round: it *plays the level backwards* from the empty, solved board, so that every level it
makes is solvable by construction and carries its certificate with it.

Backward play has three operations, each the exact reverse of one legal forward step:

- **spawn** (reverse of a body's last exit): a body appears on free cells with its head next
  to a free cell, which becomes an unused hole of the body's innermost colour;
- **coat** (reverse of a coat exit): a free cell next to one end of a body becomes an unused
  hole, and the body gains an outer layer of that hole's colour;
- **slide** (reverse of an ordinary step): one end moves into a free cell (or onto the far
  end's cell of a body of 3 or more cells); the far end's old cell is vacated. The forward
  step is the far end moving back into that vacated cell, which is free and never a hole.

Unused holes block slides exactly as they block forward steps, so the recorded operations,
reversed, are a legal forward solution from the position backward play ends in, which is the
level's start. The designer replays it with the real rules
(:class:`~gridforge.snakes.game.rules.Game`) before it trusts it, shortens it, and only then scores
it.

Backward play is steered, not random: a body walks away from the hole it will next use in
forward play (so forward it walks *toward* it, never padding), other bodies move only to make
room for it, and a final sealing phase moves bodies so that no body can reach a hole of its
outer colour at the start (the blocking term). Every choice is drawn from the caller's seeded
``random.Random``; iteration orders are fixed.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gridforge.grid import Cell
from gridforge.snakes.game.levelfile import LevelJson

DELTAS: tuple[Cell, ...] = ((0, -1), (0, 1), (-1, 0), (1, 0))  # rules.DIRS: U, D, L, R


def _direction(a: Cell, b: Cell) -> int:
    return DELTAS.index((b[0] - a[0], b[1] - a[1]))


@dataclass
class Plan:
    """What backward play builds: bodies (longest first is the spawn order), the innermost
    colour of each, and the coat colours each body gains (innermost coat first)."""

    lengths: list[int]
    base: list[int]
    coats: list[list[int]]
    walk: int  # steps each body walks away from a hole it has just used (backward)
    seal: int  # positions the sealing search may visit after each body
    tries: int = 4  # backward phases tried per body (the best is kept)


class Unsolver:
    """A board played backwards: bodies, unused holes and the forward moves recorded so far
    (newest forward move last in :attr:`ops`, which is the *first* move of forward play)."""

    def __init__(self, floor: Sequence[Cell], rng: random.Random) -> None:
        self.rng = rng
        self.floor = set(floor)
        self.order = list(floor)  # row-major, for deterministic scans
        self.nb: dict[Cell, tuple[Cell, ...]] = {
            c: tuple(t for t in ((c[0] + dx, c[1] + dy) for dx, dy in DELTAS) if t in self.floor)
            for c in floor
        }
        self.owner: dict[Cell, int] = {}
        self.unused: dict[Cell, int] = {}  # unused hole cell -> colour
        self.holes: list[tuple[Cell, int]] = []
        self.bodies: list[list[Cell]] = []
        self.layers: list[list[int]] = []
        self.ops: list[int] = []  # forward moves, backward order
        self.goal: list[Cell] = []  # per body: the hole it uses next in forward play
        self._dist: dict[Cell, dict[Cell, int]] = {}
        self.seen: set[tuple[tuple[Cell, ...], ...]] = set()
        self._adj: dict[int, int] = {}
        self._adj_key = -1
        self._hole_bits = 0
        # Bit sets over the board padded with a wall ring (no wrap-around between rows).
        cols = 1 + max(c[0] for c in floor)
        self.width = cols + 2
        self.bit = {c: 1 << ((c[1] + 1) * self.width + c[0] + 1) for c in floor}
        self.floor_bits = sum(self.bit.values())

    def snapshot(self) -> tuple[Any, ...]:
        return ([list(c) for c in self.bodies], [list(x) for x in self.layers],
                dict(self.owner), dict(self.unused), list(self.holes), list(self.ops),
                list(self.goal), set(self.seen))

    def restore(self, snap: tuple[Any, ...]) -> None:
        bodies, layers, owner, unused, holes, ops, goal, seen = snap
        self.bodies = [list(c) for c in bodies]
        self.layers = [list(x) for x in layers]
        self.owner, self.unused = dict(owner), dict(unused)
        self._adj_key = -1
        self.holes, self.ops, self.goal, self.seen = list(holes), list(ops), list(goal), set(seen)

    # ------------------------------------------------------------------ queries

    def free(self, c: Cell) -> bool:
        return c in self.floor and c not in self.owner and c not in self.unused

    def distances(self, source: Cell) -> dict[Cell, int]:
        """Wall-aware BFS distances from ``source`` over the static floor (cached)."""
        dist = self._dist.get(source)
        if dist is None:
            dist = {source: 0}
            queue = [source]
            i = 0
            while i < len(queue):
                c = queue[i]
                i += 1
                for t in self.nb[c]:
                    if t not in dist:
                        dist[t] = dist[c] + 1
                        queue.append(t)
            self._dist[source] = dist
        return dist

    def key(self) -> tuple[tuple[Cell, ...], ...]:
        return tuple(tuple(cells) for cells in self.bodies)

    def slides(self, b: int) -> list[tuple[int, Cell]]:
        """Backward slides of body ``b`` as ``(end, target)``, in a fixed order."""
        cells = self.bodies[b]
        out: list[tuple[int, Cell]] = []
        long = len(cells) >= 3
        for end, here, far in ((0, cells[0], cells[-1]), (1, cells[-1], cells[0])):
            for t in self.nb[here]:
                if t in self.unused:
                    continue
                owner = self.owner.get(t)
                if owner is None or (long and t == far):
                    out.append((end, t))
        return out

    def _hole_masks(self) -> dict[int, int]:
        """Per colour: the bit set of cells next to an unused hole of that colour (cached
        until the holes change)."""
        if self._adj_key != len(self.holes):
            bit = self.bit
            masks: dict[int, int] = {}
            for h, color in self.unused.items():
                near = 0
                for t in self.nb[h]:
                    near |= bit[t]
                masks[color] = masks.get(color, 0) | near
            self._adj = masks
            self._hole_bits = sum(bit[h] for h in self.unused)
            self._adj_key = len(self.holes)
        return self._adj

    def exits(self) -> list[bool]:
        """Per body: a potential exit at this position, read as the score reads it (either end,
        through free cells, own cells passable, a hole of the body's outer colour next to the
        reached cells). Bit-set flood fills over the board padded with its wall ring."""
        return self._exits_of([self._mask(cells) for cells in self.bodies])

    def _mask(self, cells: Sequence[Cell]) -> int:
        bit = self.bit
        m = 0
        for c in cells:
            m |= bit[c]
        return m

    def _exits_of(self, masks: Sequence[int]) -> list[bool]:
        """:meth:`exits` for the bodies' bit sets ``masks`` (one per body, in order)."""
        near = self._hole_masks()
        w = self.width
        occ = 0
        for m in masks:
            occ |= m
        free = self.floor_bits & ~occ & ~self._hole_bits
        out: list[bool] = []
        for b, m in enumerate(masks):
            target = near.get(self.layers[b][0], 0)
            if m & target:
                out.append(True)
                continue
            x = (m << 1 | m >> 1 | m << w | m >> w) & free
            while True:
                y = (x | x << 1 | x >> 1 | x << w | x >> w) & free
                if y == x:
                    break
                x = y
            out.append(bool(x & target))
        return out

    # ------------------------------------------------------------------ operations

    def spawn(self, cells: list[Cell], hole: Cell, color: int) -> int:
        b = len(self.bodies)
        self.bodies.append(list(cells))
        self.layers.append([color])
        for c in cells:
            self.owner[c] = b
        self.unused[hole] = color
        self.holes.append((hole, color))
        self.goal.append(hole)
        self.ops.append(b << 3 | _direction(cells[0], hole))
        return b

    def coat(self, b: int, end: int, cell: Cell, color: int) -> None:
        here = self.bodies[b][0 if end == 0 else -1]
        self.unused[cell] = color
        self.holes.append((cell, color))
        self.layers[b].insert(0, color)
        self.goal[b] = cell
        self.ops.append(b << 3 | end << 2 | _direction(here, cell))

    def slide(self, b: int, end: int, t: Cell, record: bool = True) -> None:
        cells = self.bodies[b]
        if end == 0:
            vacated = cells[-1]
            new = [t, *cells[:-1]]
            far_end, mover = 1, new[-1]
        else:
            vacated = cells[0]
            new = [*cells[1:], t]
            far_end, mover = 0, new[0]
        if vacated != t:
            del self.owner[vacated]
            self.owner[t] = b
        self.bodies[b] = new
        self.ops.append(b << 3 | far_end << 2 | _direction(mover, vacated))
        if record:
            self.seen.add(self.key())

    def _undo_slide(self, b: int, before: list[Cell]) -> None:
        self._place(b, before)
        self.ops.pop()

    def trial(self, b: int, end: int, t: Cell) -> tuple[list[Cell], bool]:
        """Slide and report whether the position is new (undo with :meth:`_undo_slide`)."""
        before = list(self.bodies[b])
        self.slide(b, end, t, record=False)
        return before, self.key() not in self.seen

    # ------------------------------------------------------------------ steering

    def spread(self, b: int, cell: Cell) -> int:
        """How far (around walls) body ``b`` lies from ``cell``: the sum over its cells, so
        that a coiled body can back out of a corner tail first (forward, every slide of a
        walk brings the body as a whole nearer its hole)."""
        dist = self.distances(cell)
        return sum(dist.get(c, 0) for c in self.bodies[b])

    def walk_away(self, b: int, goal: Cell, steps: int) -> int:
        """Walk body ``b`` away from ``goal`` (the hole it will use next, forward) for up to
        ``steps`` backward slides; when it is stuck, let one other body make room. Returns
        the steps made."""
        rng = self.rng
        made = 0
        stall = 0
        while made < steps and stall < 3:
            now = self.spread(b, goal)
            best: list[tuple[int, Cell]] = []
            best_gain = 0
            for end, t in self.slides(b):
                before, new = self.trial(b, end, t)
                gain = self.spread(b, goal) - now if new else -99
                self._undo_slide(b, before)
                if gain > best_gain:
                    best, best_gain = [(end, t)], gain
                elif gain == best_gain and gain > 0:
                    best.append((end, t))
            if best:
                end, t = rng.choice(best)
                self.slide(b, end, t)
                made += 1
                stall = 0
                continue
            if not self._make_room(b, goal, now):
                stall += 1
                # A sideways step keeps the walk going in tight spots.
                side = self.slides(b)
                rng.shuffle(side)
                for end, t in side:
                    before, new = self.trial(b, end, t)
                    if new and self.spread(b, goal) >= now:
                        self.seen.add(self.key())
                        made += 1
                        break
                    self._undo_slide(b, before)
                else:
                    break
            else:
                made += 1
        return made

    def _make_room(self, b: int, goal: Cell, now: int) -> bool:
        """One slide of another body after which ``b`` can walk farther from ``goal``."""
        rng = self.rng
        options: list[tuple[int, int, Cell]] = []
        near = {t for c in (self.bodies[b][0], self.bodies[b][-1]) for t in self.nb[c]}
        for o in range(len(self.bodies)):
            if o == b or not any(c in near for c in self.bodies[o]):
                continue
            for end, t in self.slides(o):
                before, new = self.trial(o, end, t)
                if new:
                    for e2, t2 in self.slides(b):
                        before_b = list(self.bodies[b])
                        self.slide(b, e2, t2, record=False)
                        gain = self.spread(b, goal) - now
                        self._undo_slide(b, before_b)
                        if gain > 0:
                            options.append((o, end, t))
                            break
                self._undo_slide(o, before)
        if not options:
            return False
        o, end, t = rng.choice(options)
        self.slide(o, end, t)
        return True

    def free_parts(self) -> list[int]:
        """Sizes of the free-space components, largest first."""
        seen: set[Cell] = set()
        sizes: list[int] = []
        for c in self.order:
            if c in seen or not self.free(c):
                continue
            seen.add(c)
            queue = [c]
            i = 0
            while i < len(queue):
                for t in self.nb[queue[i]]:
                    if t not in seen and self.free(t):
                        seen.add(t)
                        queue.append(t)
                i += 1
            sizes.append(len(queue))
        sizes.sort(reverse=True)
        return sizes

    def compact(self) -> bool:
        """One slide that joins free space (the largest free area grows most), preferring a
        body that thereby walks farther from the hole it uses next: forward, that is a body
        spreading toward its hole into room another has just left."""
        best: list[tuple[int, int, Cell]] = []
        best_key: tuple[int, int] | None = None
        for o in range(len(self.bodies)):
            now = self.spread(o, self.goal[o])
            for end, t in self.slides(o):
                before, new = self.trial(o, end, t)
                if new:
                    key = (self.free_parts()[0], self.spread(o, self.goal[o]) - now)
                    if best_key is None or key > best_key:
                        best, best_key = [(o, end, t)], key
                    elif key == best_key:
                        best.append((o, end, t))
                self._undo_slide(o, before)
        if not best:
            return False
        o, end, t = self.rng.choice(best)
        self.slide(o, end, t)
        return True

    def seal(self, budget: int) -> int:
        """Slides after which no body can reach a hole of its outer colour (the blocking
        term): a best-first search over positions (holes stay put, at most ``budget``
        positions), fewest potential exits first, then bodies farthest from their next
        holes, then fewest slides. Returns the potential exits left."""
        n = len(self.bodies)
        bit, nb, unused, seen = self.bit, self.nb, self.unused, self.seen
        # The goals stay put while sealing: one distance map per body. A position is searched
        # as tuples (its bodies' cells, bit sets and spreads), without touching the board:
        # :meth:`slides` and :meth:`slide` read as bit-set tests and tuple edits.
        dists = [self.distances(self.goal[o]) for o in range(n)]
        root = self.key()
        masks0 = tuple(self._mask(cells) for cells in root)
        spreads0 = tuple(sum(dists[o].get(c, 0) for c in root[o]) for o in range(n))
        parents: dict[tuple[tuple[Cell, ...], ...], Any] = {root: None}
        known = {root: (masks0, spreads0)}
        first = (sum(self._exits_of(masks0)), -sum(spreads0))
        heap: list[tuple[int, int, int, int, tuple[tuple[Cell, ...], ...]]] = [
            (*first, 0, 0, root)]
        best = (*first, root)
        counter = 0
        while heap and len(parents) < budget and best[0] > 0:
            _e, _f, depth, _c, pos = heapq.heappop(heap)
            masks, spreads = known[pos]
            occ = 0
            for m in masks:
                occ |= m
            spread_sum = sum(spreads)
            for b in range(n):
                cells = pos[b]
                long = len(cells) >= 3
                dist = dists[b]
                for end, here, far in ((0, cells[0], cells[-1]), (1, cells[-1], cells[0])):
                    for t in nb[here]:
                        if t in unused or (occ & bit[t] and not (long and t == far)):
                            continue
                        if end == 0:
                            vacated, new = cells[-1], (t, *cells[:-1])
                        else:
                            vacated, new = cells[0], (*cells[1:], t)
                        nxt = (*pos[:b], new, *pos[b + 1:])
                        if nxt in parents or nxt in seen:
                            continue
                        parents[nxt] = (pos, b, end, t)
                        mask = masks[b] & ~bit[vacated] | bit[t]
                        spread = spreads[b] - dist.get(vacated, 0) + dist.get(t, 0)
                        child_masks = (*masks[:b], mask, *masks[b + 1:])
                        known[nxt] = (child_masks, (*spreads[:b], spread, *spreads[b + 1:]))
                        exits = sum(self._exits_of(child_masks))
                        far_rank = -(spread_sum - spreads[b] + spread)
                        counter += 1
                        heapq.heappush(heap, (exits, far_rank, depth + 1, counter, nxt))
                        if (exits, far_rank) < best[:2]:
                            best = (exits, far_rank, nxt)
        path: list[tuple[int, int, Cell]] = []
        pos = best[2]
        while parents[pos] is not None:
            prev, b, end, t = parents[pos]
            path.append((b, end, t))
            pos = prev
        for b, end, t in reversed(path):
            self.slide(b, end, t)
        return best[0]

    def try_spawn(self, length: int, colors: Sequence[int], tries: int = 24) -> int | None:
        """Spawn a body of ``length`` cells next to a new hole of ``colors[-1]`` (its innermost
        colour), with a first coat of ``colors[0]`` when ``colors`` has two: the hole on a free
        cell, the body a self-avoiding path of free cells from a neighbour of it (a bounded
        depth-first search that prefers hugging walls and bodies), the coat's hole on one more
        free cell past the tail."""
        rng = self.rng
        coat = len(colors) > 1
        frees = [c for c in self.order if self.free(c)]
        if len(frees) < length + 1 + coat:
            return None
        rng.shuffle(frees)
        for hole in frees[:tries]:
            starts = [t for t in self.nb[hole] if self.free(t)]
            rng.shuffle(starts)
            for start in starts:
                path = self._grow(start, length + coat, hole)
                if path is not None:
                    b = self.spawn(path[:length], hole, colors[-1])
                    if coat:
                        self.coat(b, 1, path[length], colors[0])
                    return b
        return None

    def _grow(self, start: Cell, length: int, hole: Cell, budget: int = 400) -> list[Cell] | None:
        """A self-avoiding path of ``length`` free cells from ``start`` (not through
        ``hole``), by depth-first search over at most ``budget`` extensions."""
        path = [start]
        taken = {start, hole}
        stack: list[list[Cell]] = [self._options(start, taken)]
        spent = 0
        while stack and spent < budget:
            if len(path) == length:
                return path
            options = stack[-1]
            if not options:
                stack.pop()
                taken.discard(path.pop())
                continue
            nxt = options.pop()
            spent += 1
            path.append(nxt)
            taken.add(nxt)
            stack.append(self._options(nxt, taken))
        return path if len(path) == length else None

    def _options(self, cell: Cell, taken: set[Cell]) -> list[Cell]:
        """Free onward cells, the one with the least free room around it last (tried first):
        a compact body leaves the free space in one piece."""
        nb, owner, unused = self.nb, self.owner, self.unused  # neighbours are floor cells

        def room(c: Cell) -> int:
            return -sum(1 for t in nb[c] if t not in taken and t not in owner and t not in unused)

        options = [t for t in nb[cell] if t not in taken and t not in owner and t not in unused]
        if len(options) > 1:  # (shuffling one option draws nothing from the generator)
            self.rng.shuffle(options)
            options.sort(key=room)
        return options

    def try_coat(self, b: int, color: int, budget: int = 300) -> Cell | None:
        """Put a coat of ``color`` on body ``b`` at a free cell next to one of its ends. When
        both ends are shut in, ``b`` first slides (breadth-first over its own slides, at most
        ``budget`` positions) to the nearest position where one end has room."""
        rng = self.rng
        start = list(self.bodies[b])
        parents: dict[tuple[Cell, ...], tuple[tuple[Cell, ...], int, Cell] | None] = {
            tuple(start): None}
        queue = [tuple(start)]
        i = 0
        found: tuple[Cell, ...] | None = None
        while i < len(queue) and len(parents) < budget:
            pos = queue[i]
            i += 1
            self._place(b, list(pos))
            if any(self.free(t) for c in (pos[0], pos[-1]) for t in self.nb[c]):
                found = pos
                break
            for end, t in self.slides(b):
                before, new = self.trial(b, end, t)
                nxt = tuple(self.bodies[b])
                self._undo_slide(b, before)
                if new and nxt not in parents:
                    parents[nxt] = (pos, end, t)
                    queue.append(nxt)
        self._place(b, start)
        if found is None:
            return None
        path: list[tuple[int, Cell]] = []
        pos = found
        while (link := parents[pos]) is not None:
            prev, end, t = link
            path.append((end, t))
            pos = prev
        for end, t in reversed(path):
            self.slide(b, end, t)
        cells = self.bodies[b]
        options = [(end, t) for end, here in ((0, cells[0]), (1, cells[-1]))
                   for t in self.nb[here] if self.free(t)]
        end, cell = rng.choice(options)
        self.coat(b, end, cell, color)
        return cell

    def _place(self, b: int, cells: list[Cell]) -> None:
        for c in self.bodies[b]:
            del self.owner[c]
        for c in cells:
            self.owner[c] = b
        self.bodies[b] = cells

    # ------------------------------------------------------------------ output

    def level(self, cols: int, rows: int, stones: Sequence[Cell]) -> LevelJson:
        holes = sorted(((c, color) for c, color in self.holes), key=lambda h: (h[0][1], h[0][0]))
        return {
            "format": "gridforge.snakes.level/1",
            "cols": cols,
            "rows": rows,
            "stones": [list(c) for c in stones],
            "bodies": [{"cells": [list(c) for c in cells], "colors": list(layers)}
                       for cells, layers in zip(self.bodies, self.layers, strict=True)],
            "holes": [{"cell": list(c), "color": color} for c, color in holes],
        }

    def forward(self) -> list[int]:
        """The recorded operations as forward moves, first move first."""
        return self.ops[::-1]


def _body_phase(board: Unsolver, plan: Plan, length: int, base: int, coats: list[int],
                seal: int) -> bool:
    first = [coats[0], base] if coats else [base]
    b = board.try_spawn(length, first)
    for _ in range(plan.walk):
        if b is not None or not board.compact():
            break
        b = board.try_spawn(length, first)
    if b is None:
        return False
    board.walk_away(b, board.goal[b], plan.walk)
    for color in coats[1:]:
        cell = board.try_coat(b, color)
        if cell is None:
            return False
        board.walk_away(b, cell, plan.walk)
    board.seal(seal)
    return True


def unsolve(floor: Sequence[Cell], plan: Plan, rng: random.Random
            ) -> tuple[Unsolver, int] | str:
    """Play ``plan`` backwards on ``floor``: spawn each body (longest first) next to its base
    hole with its first coat, walk it as far from the coat's hole as it goes (other bodies
    making room), add further coats, and seal potential exits; of ``plan.tries`` such
    phases per body the one leaving the fewest potential exits is kept. Returns the board
    and the potential exits left, or ``"spawn"`` when a body found no room."""
    board = Unsolver(floor, rng)
    n = len(plan.lengths)
    for k, (length, base, coats) in enumerate(
            zip(plan.lengths, plan.base, plan.coats, strict=True)):
        before = board.snapshot()
        best: tuple[tuple[int, int], tuple[Any, ...]] | None = None
        # The last bodies come into the most crowded board: they get more tries.
        late = k >= n - 2
        for _ in range(plan.tries * (4 if late else 1)):
            board.restore(before)
            if not _body_phase(board, plan, length, base, coats,
                               plan.seal * (4 if late else 1)):
                continue
            exits = sum(board.exits())
            rank = (exits, -sum(board.spread(o, board.goal[o]) for o in range(len(board.bodies))))
            if best is None or rank < best[0]:
                best = (rank, board.snapshot())
            if exits == 0:
                break
        if best is None:
            return "spawn"
        board.restore(best[1])
    return board, best[0][0] if best else 0
