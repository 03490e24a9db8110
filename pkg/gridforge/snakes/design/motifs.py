"""Levels built from motifs: small gadgets whose joint steps (spec 5c) are known, side by side.

A prototype for issue 41 ("difficulty as joint steps", legible boards). A *motif* is a small
chamber (a rectangle of floor and stones) holding two short straight bodies and their
holes, drawn from one of a few families of conflict:

- ``back_out``: a dead-end corridor off a small room; the body at the corridor's mouth must back
  out into the room and step aside so that the one behind it can leave; then it goes back in to
  its hole at the dead end.
- ``pass``: two bodies in a one-wide corridor, each hole behind the other; one must wait in a
  side bay while the other passes.
- ``park``: a body parked across a junction that another needs; its own hole lies beyond the
  other, so it must make way before either can finish.
- ``swap``: two rows, both bodies in the first with each hole behind the other, the second
  row open in a few places: one steps down to let the other by.
- ``room``: a small room with a few stones, two bodies and holes on its walls; kept
  only when its bodies stand in each other's way (joint steps >= 1). Fills small remainders.

Every motif instance is solved alone, exactly, by the game's own A*
(:class:`~gridforge.snakes.solver.search.Solver`) under a counted state budget, and read with
:func:`~gridforge.snakes.solver.legibility.reading`: its joint steps are measured, not assumed.
A level is a set of chambers packed on one board, separated by stone, so that no body reaches
another chamber: the level's minimum is then the sum of the chambers' minima (steps in one
floor region never change what another can do), and its joint steps are the sum of theirs
(solo costs and the travel bound split the same way). :func:`build_level` draws chambers until
their joint steps sum to the target exactly, with the certificate steps (the sum of minima)
within ``max_steps``.

Everything is a function of an explicit seed (``random.Random(seed)``); every search is bounded
by counted states, never seconds (the solver's clock is given a bound it never reaches).

Public names: :func:`build_level` (``seed, target -> Built | None``), :func:`prove` (the
level's certificate from the built solution), :class:`Built`,
:class:`Chamber`, :func:`draw_chamber`, :func:`measure`, :data:`FAMILIES`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gridforge.grid import Cell
from gridforge.snakes.design.certify import certify
from gridforge.snakes.design.terrain import add_paths
from gridforge.snakes.game.certfile import Certificate
from gridforge.snakes.game.level import Level, level_from_json
from gridforge.snakes.game.levelfile import BodyJson, HoleJson, LevelJson, PathJson
from gridforge.snakes.game.rules import Game, step_to_move
from gridforge.snakes.solver.legibility import is_folded, reading
from gridforge.snakes.solver.pairs import pairwise_bound
from gridforge.snakes.solver.puzzle import bridge_needed, serial
from gridforge.snakes.solver.search import Solver

NO_CLOCK = 1e9  # seconds handed to the solver: never reached, the state budgets decide
CHAMBER_STATES = 20_000  # states the exact search of one chamber may store
PROOF_STATES = 50_000  # states the level's certificate search may store
# Within the board's limits (spec section 1): at most 12 columns and 20 rows, so that every
# level fits a phone held upright, without scrolling, with cells of 30 px at least (the
# page's layout: 24 rows overflowed by 70 px, about two rows).
MAX_COLS, MAX_ROWS = 12, 20
MAX_PADDED = 600  # (cols + 2) * (rows + 2)
PALETTE = 6  # outer colours a level may use
MAX_BODY = 5  # cells of the longest body a motif draws


@dataclass(frozen=True)
class Chamber:
    """A motif instance on its own ``cols`` x ``rows`` rectangle.

    ``bodies`` are (cells head first, local colours outermost first); ``holes`` and
    ``paths`` (cell, local colour); local colours are 0..k-1, mapped to the level's palette
    when placed; ``bridges`` are cells (spec section 3b).
    ``minimum`` is its proven minimum and ``joint`` its joint steps (both None until
    :func:`measure`); ``solution`` a minimal solution (JSON steps, local body indices).
    """

    family: str
    cols: int
    rows: int
    stones: frozenset[Cell]
    bodies: tuple[tuple[tuple[Cell, ...], tuple[int, ...]], ...]
    holes: tuple[tuple[Cell, int], ...]
    minimum: int | None = None
    joint: int | None = None
    solution: tuple[tuple[int, str, str], ...] = ()
    states: int = 0
    paths: tuple[tuple[Cell, int], ...] = ()
    bridges: tuple[Cell, ...] = ()
    serial: bool | None = None  # solved one body at a time (spec 5b), once measured
    # a painted chamber's minimal solution before the paint, which the paint refuses
    witness: tuple[tuple[int, str, str], ...] = ()

    def level_json(self) -> LevelJson:
        """The chamber alone as a level (local colours)."""
        data: LevelJson = {
            "format": "gridforge.snakes.level/1",
            "cols": self.cols,
            "rows": self.rows,
            "stones": [list(c) for c in sorted(self.stones)],
            "bodies": [{"cells": [list(c) for c in cells], "colors": list(cols)}
                       for cells, cols in self.bodies],
            "holes": [{"cell": list(c), "color": col} for c, col in self.holes],
        }
        if self.paths:
            data["paths"] = [{"cell": list(c), "color": col} for c, col in self.paths]
        if self.bridges:
            data["bridges"] = [list(c) for c in self.bridges]
        return data

    def with_(self, **changes: Any) -> Chamber:
        """The chamber with ``changes`` (its measurements dropped unless given)."""
        fields: dict[str, Any] = {"minimum": None, "joint": None, "solution": (),
                                  "states": 0, "serial": None, **changes}
        return replace(self, **fields)


# ---------------------------------------------------------------- symmetry


def _transform(ch: Chamber, flip_x: bool, flip_y: bool, swap: bool) -> Chamber:
    """The chamber mirrored and/or transposed (a player reads the same idea)."""

    def cell(c: Cell) -> Cell:
        x, y = c
        if flip_x:
            x = ch.cols - 1 - x
        if flip_y:
            y = ch.rows - 1 - y
        return (y, x) if swap else (x, y)

    cols, rows = (ch.rows, ch.cols) if swap else (ch.cols, ch.rows)
    return Chamber(ch.family, cols, rows, frozenset(cell(c) for c in ch.stones),
                   tuple((tuple(cell(c) for c in cells), col) for cells, col in ch.bodies),
                   tuple((cell(c), col) for c, col in ch.holes),
                   paths=tuple((cell(c), col) for c, col in ch.paths),
                   bridges=tuple(cell(c) for c in ch.bridges))


def _oriented(rng: random.Random, ch: Chamber) -> Chamber:
    """A random one of the chamber's eight symmetries."""
    return _transform(ch, rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5)


def _straight(start: Cell, step: Cell, length: int, rng: random.Random) -> tuple[Cell, ...]:
    """A straight body from ``start`` along ``step``, head at a random end."""
    cells = tuple((start[0] + k * step[0], start[1] + k * step[1]) for k in range(length))
    return cells if rng.random() < 0.5 else cells[::-1]


def _rect(cols: int, rows: int) -> set[Cell]:
    return {(x, y) for x in range(cols) for y in range(rows)}


def _room_wall_cells(rw: int, rh: int, avoid: set[Cell]) -> list[Cell]:
    """Cells of an rw x rh room on its outer border (against a wall), minus ``avoid``."""
    return [(x, y) for y in range(rh) for x in range(rw)
            if (x in (0, rw - 1) or y in (0, rh - 1)) and (x, y) not in avoid]


# ---------------------------------------------------------------- the families


def _back_out(rng: random.Random) -> Chamber:
    """A room with a dead-end corridor: mouth body B, deeper body A, B's hole at the end."""
    rw, rh = rng.randint(3, 4), rng.randint(3, 4)
    a, b = rng.randint(2, 3), rng.randint(2, 3)
    gap_mouth, gap_mid, gap_end = rng.randint(0, 1), rng.randint(0, 1), rng.randint(0, 1)
    k = gap_mouth + b + gap_mid + a + gap_end + 1
    py = rng.randrange(rh)
    corridor = [(rw + i, py) for i in range(k)]
    floor = _rect(rw, rh) | set(corridor)
    stones = frozenset(_rect(rw + k, rh) - floor)
    body_b = _straight(corridor[gap_mouth], (1, 0), b, rng)
    body_a = _straight(corridor[gap_mouth + b + gap_mid], (1, 0), a, rng)
    hole_a = rng.choice(_room_wall_cells(rw, rh, {(rw - 1, py)}))
    return Chamber("back_out", rw + k, rh, stones, ((body_a, (0,)), (body_b, (1,))),
                   ((hole_a, 0), (corridor[-1], 1)))


def _pass(rng: random.Random) -> Chamber:
    """A one-wide corridor with a side bay; each body's hole lies behind the other."""
    a, b = rng.randint(2, 3), rng.randint(2, 3)
    depth = rng.randint(max(a, b) - 1, max(a, b))
    gap = rng.randint(1, 2)
    length = 1 + a + gap + b + 1 + rng.randint(0, 1)
    bay_x = rng.randint(1 + a, length - 2 - b) if length - 2 - b >= 1 + a else 1 + a
    y = depth
    corridor = [(x, y) for x in range(length)]
    bay = [(bay_x, y - d) for d in range(1, depth + 1)]
    floor = set(corridor) | set(bay)
    stones = frozenset(_rect(length, depth + 1) - floor)
    body_a = _straight((1, y), (1, 0), a, rng)
    body_b = _straight((length - 1 - b, y), (1, 0), b, rng)
    return Chamber("pass", length, depth + 1, stones, ((body_a, (0,)), (body_b, (1,))),
                   (((length - 1, y), 0), ((0, y), 1)))


def _park(rng: random.Random) -> Chamber:
    """A room whose exit corridor holds a parked body B; body A stands across the corridor's
    mouth inside the room. A's hole is at the corridor's dead end, B's on the room's far wall:
    each is in the other's way, so one must step aside first."""
    rw, rh = rng.randint(3, 4), rng.randint(3, 4)
    k = rng.randint(3, 5)
    py = rng.randrange(rh)
    corridor = [(rw + i, py) for i in range(k)]
    floor = _rect(rw, rh) | set(corridor)
    stones = frozenset(_rect(rw + k, rh) - floor)
    b = rng.randint(2, min(3, k - 1))
    body_b = _straight(corridor[0], (1, 0), b, rng)
    a = rng.randint(2, min(3, rh))
    top = max(0, min(py - rng.randrange(a), rh - a))
    body_a = _straight((rw - 1, top), (0, 1), a, rng)
    walls = [c for c in _room_wall_cells(rw, rh, set(body_a)) if c[0] == 0]
    return Chamber("park", rw + k, rh, stones, ((body_a, (0,)), (body_b, (1,))),
                   ((corridor[-1], 0), (rng.choice(walls), 1)))


def _swap(rng: random.Random) -> Chamber:
    """Two rows: both bodies in the first, each hole behind the other; the second row is
    open only in a few places, so one body steps down to let the other by."""
    a, b = rng.randint(2, 3), rng.randint(2, 3)
    length = a + b + rng.randint(3, 5)
    corridor = [(x, 0) for x in range(length)]
    inner = list(range(1, length - 1))
    opened = set(rng.sample(inner, rng.randint(2, min(4, len(inner)))))
    floor = set(corridor) | {(x, 1) for x in opened}
    stones = frozenset(_rect(length, 2) - floor)
    body_a = _straight((1, 0), (1, 0), a, rng)
    body_b = _straight((length - 1 - b, 0), (1, 0), b, rng)
    return Chamber("swap", length, 2, stones, ((body_a, (0,)), (body_b, (1,))),
                   (((length - 1, 0), 0), ((0, 0), 1)))


def _room(rng: random.Random) -> Chamber:
    """A small room with a few stones, two short straight bodies, holes on walls."""
    cols, rows = rng.randint(4, 5), rng.randint(3, 4)
    cells = _rect(cols, rows)
    stones = set(rng.sample(sorted(cells), rng.randint(1, 3)))
    free = cells - stones
    bodies: list[tuple[tuple[Cell, ...], tuple[int, ...]]] = []
    for col in range(2):  # two bodies: the pairwise bound then proves the room alone
        body = _free_straight(rng, free, rng.randint(2, 3))
        if body is None:
            break
        free -= set(body)
        bodies.append((body, (col,)))
    walls = sorted(c for c in free if c[0] in (0, cols - 1) or c[1] in (0, rows - 1))
    if len(bodies) < 2 or len(walls) < len(bodies):
        return Chamber("room", cols, rows, frozenset(), (), ())
    holes = tuple((c, cols[0]) for c, (_, cols) in zip(rng.sample(walls, len(bodies)), bodies,
                                                       strict=True))
    return Chamber("room", cols, rows, frozenset(stones), tuple(bodies), holes)


def _free_straight(rng: random.Random, free: set[Cell], length: int) -> tuple[Cell, ...] | None:
    """A straight body of ``length`` on free cells, or None after a few tries."""
    ordered = sorted(free)
    for _ in range(12):
        start = rng.choice(ordered)
        step = rng.choice(((1, 0), (0, 1)))
        body = _straight(start, step, length, rng)
        if all(c in free for c in body):
            return body
    return None


def _solo(rng: random.Random) -> Chamber:
    """One short straight body in a corridor with its hole at the far end: no conflict at
    all (a breather's part, a key carrier, the layers a freeze waits for)."""
    length = 2
    k = length + rng.randint(4, 5)  # occupancy 3/6 or 3/7: within the line's 0.55
    body = _straight((0, 0), (1, 0), length, rng)
    stones = frozenset((x, 1) for x in range(k))  # the board's least height is two rows
    return Chamber("solo", k, 2, stones, ((body, (0,)),), (((k - 1, 0), 0),))


def _crossing(rng: random.Random) -> Chamber:
    """A small room with a bridge (spec section 3b) that one body lies across, straight, and
    another must pass over; kept by :func:`bridge_binds` only when every minimal solution
    needs the bridge."""
    cols, rows = rng.randint(4, 5), rng.randint(4, 5)
    bridge = (rng.randint(1, cols - 2), rng.randint(1, rows - 2))
    cells = _rect(cols, rows)
    vertical = rng.random() < 0.5
    step = (0, 1) if vertical else (1, 0)
    length = rng.randint(2, 3)
    back = rng.randint(1, length - 1) if length > 2 else rng.randint(0, 1)
    start = (bridge[0] - back * step[0], bridge[1] - back * step[1])
    across = _straight(start, step, length, rng)
    if not all(c in cells for c in across) or bridge not in across:
        return Chamber("crossing", cols, rows, frozenset(), (), ())
    stones = set(rng.sample(sorted(cells - set(across) - {bridge}), rng.randint(2, 5)))
    free = cells - stones - set(across)
    other = _free_straight(rng, free - {bridge}, rng.randint(2, 3))
    if other is None:
        return Chamber("crossing", cols, rows, frozenset(), (), ())
    free -= set(other)
    walls = sorted(c for c in free - {bridge} if c[0] in (0, cols - 1) or c[1] in (0, rows - 1))
    if len(walls) < 2:
        return Chamber("crossing", cols, rows, frozenset(), (), ())
    first, second = rng.sample(walls, 2)
    return Chamber("crossing", cols, rows, frozenset(stones), ((across, (0,)), (other, (1,))),
                   ((first, 0), (second, 1)), bridges=(bridge,))


def bridge_binds(ch: Chamber, states: int = CHAMBER_STATES) -> bool:
    """Whether the measured chamber's minimal solution crosses its bridge and the chamber
    without the bridge (plain floor there) needs more steps or is no level at all
    (:func:`~gridforge.snakes.solver.puzzle.bridge_needed`)."""
    if ch.minimum is None or not ch.bridges:
        return False
    level = level_from_json(ch.level_json())
    moves = [step_to_move(list(s)) for s in ch.solution]
    return bridge_needed(level, 0, moves, max_states=states)


FAMILIES: dict[str, Callable[[random.Random], Chamber]] = {
    "back_out": _back_out,
    "pass": _pass,
    "park": _park,
    "swap": _swap,
    "room": _room,
    "solo": _solo,
    "crossing": _crossing,
}


def draw_chamber(rng: random.Random, family: str) -> Chamber:
    """A random, randomly oriented instance of ``family`` (not yet measured)."""
    return _oriented(rng, FAMILIES[family](rng))


# ---------------------------------------------------------------- measuring one chamber


def measure(ch: Chamber, states: int = CHAMBER_STATES) -> Chamber | None:
    """The chamber with its proven minimum, joint steps, a minimal solution and whether it
    is solved one body at a time; None when it is not a valid level, not solvable, not
    proven within ``states`` stored states, or when the pairwise bound
    (:func:`~gridforge.snakes.solver.pairs.pairwise_bound`) falls short of its minimum. A chamber
    whose pairwise bound is tight keeps the level's proof cheap: on the whole board the best
    partition pairs each chamber's bodies, so the bound equals the sum of the chambers'
    minima, which the built solution reaches."""
    if not ch.bodies or len(ch.bodies) > 2:
        return None
    try:
        level = level_from_json(ch.level_json())
    except ValueError:
        return None
    game = Game(level)
    result = Solver(game).solve(max_states=states, max_seconds=NO_CLOCK)
    if result.status != "solved" or not result.optimal or result.steps is None:
        return None
    minimum = len(result.steps)
    if pairwise_bound(game, pair_states=states).bound < minimum:
        return None  # its joint steps lean on holes as obstacles: no cheap proof on a board
    joint = reading(level, minimum).joint_steps
    solution = tuple((int(s[0]), str(s[1]), str(s[2])) for s in result.steps)
    alone = serial(game, max_states=states)
    if alone.status == "budget":
        return None
    return replace(ch, minimum=minimum, joint=joint, solution=solution, states=result.stored,
                   serial=alone.status == "serial")


# ---------------------------------------------------------------- decorations


def coated(rng: random.Random, ch: Chamber) -> Chamber | None:
    """The chamber with a coat on one body (a new local colour, outermost) and a hole of
    that colour on a free cell against the chamber's outer border; not yet measured."""
    taken = {c for cells, _ in ch.bodies for c in cells} | {c for c, _ in ch.holes}
    free = [c for c in _room_wall_cells(ch.cols, ch.rows, taken) if c not in ch.stones]
    if not free:
        return None
    colour = 1 + max(col for _, cols in ch.bodies for col in cols)
    b = rng.randrange(len(ch.bodies))
    bodies = tuple((cells, (colour, *cols)) if i == b else (cells, cols)
                   for i, (cells, cols) in enumerate(ch.bodies))
    return ch.with_(family=f"{ch.family}+coat", bodies=bodies,
                    holes=(*ch.holes, (rng.choice(sorted(free)), colour)))


def painted(rng: random.Random, ch: Chamber, states: int = CHAMBER_STATES) -> Chamber | None:
    """The measured chamber with one painted cell that binds (spec section 3b), placed by the
    designer's :func:`~gridforge.snakes.design.terrain.add_paths` against the chamber's
    minimal solution, then measured again; None when no cell binds."""
    if ch.minimum is None:
        return None
    level = level_from_json(ch.level_json())
    moves = [step_to_move(list(s)) for s in ch.solution]
    placed = add_paths(level, moves, 1, rng, states)
    if placed is None:
        return None
    paths = tuple(((p.cell[0], p.cell[1]), p.color) for p in placed[0].paths)
    measured = measure(ch.with_(family=f"{ch.family}+path", paths=paths), states)
    return None if measured is None else replace(measured, witness=ch.solution)


# ---------------------------------------------------------------- composing a level


@dataclass(frozen=True)
class Built:
    """A level built from chambers, with its certificate facts.

    ``minimum`` is the built solution's length, proven: with separate floor regions each
    chamber's minimum is proven by the exact search and no step in one region changes what
    another can do; with doors the pairwise bound of the joined level reaches it.
    ``joint`` is the level's joint steps read on the whole level
    (:func:`~gridforge.snakes.solver.legibility.reading` with that minimum).
    ``chamber_states`` is the work of every search made while building (stored states).
    """

    level: LevelJson
    solution: tuple[tuple[int, str, str], ...]
    minimum: int
    joint: int
    families: tuple[str, ...]
    promised: tuple[int, ...]
    chamber_states: int
    draws: int


TRANSPOSED_STEP = {"U": "L", "D": "R", "L": "U", "R": "D"}


def transposed(ch: Chamber) -> Chamber:
    """The measured chamber mirrored on its diagonal (x, y) -> (y, x): the same puzzle, its
    measurements kept and its solutions' steps turned with it (up <-> left, down <-> right)."""
    def steps(solution: tuple[tuple[int, str, str], ...]) -> tuple[tuple[int, str, str], ...]:
        return tuple((b, end, TRANSPOSED_STEP[d]) for b, end, d in solution)

    return replace(_transform(ch, False, False, True), minimum=ch.minimum, joint=ch.joint,
                   states=ch.states, serial=ch.serial, solution=steps(ch.solution),
                   witness=steps(ch.witness))


def _pack(chambers: Sequence[Chamber]
          ) -> tuple[int, int, list[Cell], list[Chamber]] | None:
    """Shelf packing, first fit by decreasing height: each chamber lies wide (transposed when
    it is taller than wide and fits the width so), the tallest first, each into the first
    shelf with room for it (one stone column between chambers, one stone row between
    shelves). Offsets and the chambers as placed, in the given order (the solutions' order
    is not the packing's); None when the board would be too large."""
    placed = [transposed(ch) if ch.rows > ch.cols and ch.rows <= MAX_COLS else ch
              for ch in chambers]
    if any(ch.cols > MAX_COLS for ch in placed):
        return None
    shelves: list[list[int]] = []  # [top, height, filled width]
    offsets: list[Cell] = [(0, 0)] * len(placed)
    order = sorted(range(len(placed)), key=lambda i: (-placed[i].rows, i))
    for i in order:
        ch = placed[i]
        shelf = next((s for s in shelves if s[2] + (1 if s[2] else 0) + ch.cols <= MAX_COLS),
                     None)
        if shelf is None:
            top = shelves[-1][0] + shelves[-1][1] + 1 if shelves else 0
            shelf = [top, ch.rows, 0]
            shelves.append(shelf)
        x = shelf[2] + (1 if shelf[2] else 0)
        offsets[i] = (x, shelf[0])
        shelf[2] = x + ch.cols
    cols = max(s[2] for s in shelves)
    rows = shelves[-1][0] + shelves[-1][1]
    if rows > MAX_ROWS or (cols + 2) * (rows + 2) > MAX_PADDED:
        return None
    return cols, rows, offsets, placed


@dataclass(frozen=True)
class Placed:
    """Chambers placed on one board: the level, the concatenated minimal solutions (in the
    chambers' order) and, per chamber, the level's body indices, hole indices and the
    solution's step indices that belong to it."""

    level: LevelJson
    solution: tuple[tuple[int, str, str], ...]
    bodies: tuple[range, ...]
    holes: tuple[range, ...]
    steps: tuple[range, ...]
    paths: tuple[range, ...]
    chambers: tuple[Chamber, ...]


def _colours(ch: Chamber) -> int:
    """How many local colours the chamber uses."""
    return 1 + max(col for _, cols in ch.bodies for col in cols)


def _assemble(chambers: Sequence[Chamber], rng: random.Random, seed: int, target: int,
              doors: bool = False) -> Placed | None:
    """The level of the packed chambers and the concatenated minimal solutions (body indices
    shifted). Colours are distinct inside each chamber; with ``doors`` distinct over the
    whole level (the chambers then share one floor region, and a shared colour would let a
    body take another chamber's hole), and one stone between each two touching chambers is
    opened (:func:`_open_doors`)."""
    packed = _pack(chambers)
    if packed is None:
        return None
    cols, rows, offsets, chambers = packed
    floor: set[Cell] = set()
    bodies: list[BodyJson] = []
    holes: list[HoleJson] = []
    paths: list[PathJson] = []
    bridges: list[list[int]] = []
    solution: list[tuple[int, str, str]] = []
    spans: tuple[list[range], list[range], list[range], list[range]] = ([], [], [], [])
    hole_cells: set[Cell] = set()
    palette = rng.sample(range(PALETTE), PALETTE)
    for ch, (ox, oy) in zip(chambers, offsets, strict=True):
        if doors:
            colours, palette = palette[:_colours(ch)], palette[_colours(ch):]
        else:
            colours = rng.sample(range(PALETTE), _colours(ch))
        floor |= {(ox + x, oy + y) for x in range(ch.cols) for y in range(ch.rows)
                  if (x, y) not in ch.stones}
        base = len(bodies)
        spans[0].append(range(base, base + len(ch.bodies)))
        spans[1].append(range(len(holes), len(holes) + len(ch.holes)))
        spans[2].append(range(len(solution), len(solution) + len(ch.solution)))
        spans[3].append(range(len(paths), len(paths) + len(ch.paths)))
        for cells, cols_ in ch.bodies:
            bodies.append({"cells": [[ox + x, oy + y] for x, y in cells],
                           "colors": [colours[c] for c in cols_]})
        for (x, y), col in ch.holes:
            holes.append({"cell": [ox + x, oy + y], "color": colours[col]})
            hole_cells.add((ox + x, oy + y))
        paths.extend({"cell": [ox + x, oy + y], "color": colours[col]}
                     for (x, y), col in ch.paths)
        bridges.extend([ox + x, oy + y] for x, y in ch.bridges)
        solution.extend((base + b, end, d) for b, end, d in ch.solution)
    if doors:
        floor |= _open_doors(chambers, offsets, floor, rng, hole_cells)
    stones = [[x, y] for y in range(rows) for x in range(cols) if (x, y) not in floor]
    level: LevelJson = {
        "format": "gridforge.snakes.level/1", "cols": cols, "rows": rows,
        "stones": stones, "bodies": bodies, "holes": holes,
        "meta": {"id": f"motif-{target}-{seed}", "template": "motifs", "target": target,
                 "seed": seed},
    }
    if paths:
        level["paths"] = paths
    if bridges:
        level["bridges"] = bridges
    bodies_at, holes_at, steps_at, paths_at = (tuple(span) for span in spans)
    return Placed(level, tuple(solution), bodies_at, holes_at, steps_at, paths_at,
                  tuple(chambers))


def _open_doors(chambers: Sequence[Chamber], offsets: Sequence[Cell], floor: set[Cell],
                rng: random.Random, holes: set[Cell]) -> set[Cell]:
    """One door per pair of chambers that a single stone separates somewhere: a separator
    cell with floor of one chamber on one side and of the other on the opposite side, picked
    at random among the candidates; hole cells are never beside a door (kept at a wall)."""
    owner: dict[Cell, int] = {}
    for i, (ch, (ox, oy)) in enumerate(zip(chambers, offsets, strict=True)):
        for x in range(ch.cols):
            for y in range(ch.rows):
                if (ox + x, oy + y) in floor:
                    owner[(ox + x, oy + y)] = i
    candidates: dict[tuple[int, int], list[Cell]] = {}
    for x, y in sorted({c for c in _around(owner) if c not in floor} - _around_set(holes)):
        for dx, dy in ((1, 0), (0, 1)):
            a, b = owner.get((x - dx, y - dy)), owner.get((x + dx, y + dy))
            if a is not None and b is not None and a != b:
                candidates.setdefault((min(a, b), max(a, b)), []).append((x, y))
    return {rng.choice(cells) for _, cells in sorted(candidates.items())}


def _around(cells: dict[Cell, int]) -> set[Cell]:
    """The 4-neighbours of the given cells."""
    return _around_set(set(cells))


def _around_set(cells: set[Cell]) -> set[Cell]:
    """The 4-neighbours of the given cells."""
    return {(x + dx, y + dy) for x, y in cells for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}


DOOR_TRIES = 4  # door layouts tried before a level gives up its doors


def _assemble_checked(chambers: Sequence[Chamber], rng: random.Random, seed: int, target: int,
                      doors: bool, minimum: int) -> Placed | None:
    """:func:`_assemble`; with ``doors``, a door layout is kept only when the pairwise bound
    of the joined level still reaches ``minimum`` (no door offers a bay: the built solution
    stays minimal, proven, and the joint steps stay those of the chambers). None when no
    layout of :data:`DOOR_TRIES` does."""
    for _ in range(DOOR_TRIES if doors else 1):
        made = _assemble(chambers, rng, seed, target, doors)
        if made is None or not doors:
            return made
        bound = pairwise_bound(Game(level_from_json(made.level))).bound
        if bound >= minimum:
            return made
    return None


@dataclass
class _Tally:
    """What the chambers chosen so far add up to."""

    remaining: int  # joint steps still to place
    steps_left: int  # certificate steps still allowed
    bodies_left: int
    cells: int = 0  # body and hole cells
    floor: int = 0

    def fits(self, ch: Chamber, max_floor: float) -> bool:
        """Whether a measured chamber can join: joint steps >= 1 and within what is left,
        its minimum within the steps left, not leaving a remainder of one, and occupancy so
        far within ``max_floor``."""
        if ch.joint is None or ch.minimum is None or not 1 <= ch.joint <= self.remaining:
            return False
        if ch.minimum > self.steps_left or len(ch.bodies) > self.bodies_left:
            return False
        if ch.cols > MAX_COLS:
            return False
        if self.remaining - ch.joint == 1:
            return False  # a joint step of one is rare in every family: never leave it
        return self.cells + _cells(ch) <= max_floor * (self.floor + _floor(ch))

    def take(self, ch: Chamber) -> None:
        """Count a chamber in."""
        self.remaining -= ch.joint or 0
        self.steps_left -= ch.minimum or 0
        self.bodies_left -= len(ch.bodies)
        self.cells += _cells(ch)
        self.floor += _floor(ch)


def _cells(ch: Chamber) -> int:
    return sum(len(cells) for cells, _ in ch.bodies) + len(ch.holes)


def _floor(ch: Chamber) -> int:
    return ch.cols * ch.rows - len(ch.stones)


def _family_order(rng: random.Random, remaining: int) -> list[str]:
    """Families to try next. The dead-end back-out buys the most joint steps per certificate
    step (6-10 joint in about 19 steps, against 2-4 in 11-14 for the others), so it leads
    while six or more are left; small rooms come first for the last few steps."""
    small = ["pass", "park", "swap"]
    rng.shuffle(small)
    if remaining >= 6:
        return ["back_out", *small, "room"]
    if remaining > 3:
        return [*small, "back_out", "room"]
    return ["room", *small]


@dataclass(frozen=True)
class Chosen:
    """Measured chambers whose joint steps sum to the target, and the work it took."""

    chambers: tuple[Chamber, ...]
    work: int  # stored states of every search made while choosing
    draws: int


def choose(rng: random.Random, target: int, *, required: Sequence[Chamber] = (),
           max_steps: int = 60, max_draws: int = 400, max_bodies: int = 12,
           states: int = CHAMBER_STATES, max_floor: float = 0.55) -> Chosen | None:
    """``required`` chambers (measured; taken whatever their joint steps) and drawn ones
    whose joint steps sum to ``target`` exactly, certificate steps at most ``max_steps``,
    occupancy at most ``max_floor``; None when ``max_draws`` chambers drawn (and measured)
    do not give them."""
    tally = _Tally(target, max_steps, max_bodies)
    for ch in required:
        if ch.minimum is None or ch.joint is None:
            raise ValueError("a required chamber is measured first")
        tally.take(ch)
    if tally.remaining < 0 or tally.steps_left < 0 or tally.bodies_left < 0:
        return None
    chosen = list(required)
    work = draws = 0
    while tally.remaining > 0 and draws < max_draws:
        for family in _family_order(rng, tally.remaining):
            draws += 1
            measured = measure(draw_chamber(rng, family), states)
            if measured is None:
                continue
            work += measured.states
            if tally.fits(measured, max_floor):
                chosen.append(measured)
                tally.take(measured)
                break
    if tally.remaining or not chosen:
        return None
    if tally.cells > max_floor * tally.floor:
        return None
    return Chosen(tuple(chosen), work, draws)


def assemble(chambers: Sequence[Chamber], rng: random.Random, seed: int, target: int, *,
             doors: bool = False) -> Placed | None:
    """The chambers placed on one board in the given order (:class:`Placed`; with ``doors``
    a layout is kept only when the pairwise bound still reaches the sum of the chambers'
    minima); None when they do not fit the board or no door layout keeps the proof."""
    minimum = sum(ch.minimum or 0 for ch in chambers)
    return _assemble_checked(chambers, rng, seed, target, doors, minimum)


def build_level(seed: int, target: int, *, max_steps: int = 60, max_draws: int = 400,
                max_bodies: int = 12, states: int = CHAMBER_STATES,
                max_floor: float = 0.55, doors: bool = False) -> Built | None:
    """A level of chambers whose joint steps sum to ``target`` exactly, certificate steps at
    most ``max_steps``, occupancy at most ``max_floor``; None when ``max_draws`` chambers
    drawn (and measured) do not give one. Deterministic in ``seed``.

    With ``doors`` the chambers are joined by doors where they touch (six bodies at most,
    colours all distinct), and a door layout is kept only when the pairwise bound still
    proves the built solution minimal (:func:`_assemble_checked`)."""
    rng = random.Random(seed)
    chosen = choose(rng, target, max_steps=max_steps, max_draws=max_draws,
                    max_bodies=min(max_bodies, PALETTE) if doors else max_bodies,
                    states=states, max_floor=max_floor)
    if chosen is None:
        return None
    minimum = sum(ch.minimum or 0 for ch in chosen.chambers)
    made = assemble(chosen.chambers, rng, seed, target, doors=doors)
    if made is None:
        return None
    level = level_from_json(made.level)
    read = reading(level, minimum)
    if read.occupancy > max_floor or read.outer_colours > PALETTE:
        return None
    Game(level).replay([list(s) for s in made.solution])
    return Built(made.level, made.solution, minimum, read.joint_steps,
                 tuple(ch.family for ch in chosen.chambers),
                 tuple(ch.joint or 0 for ch in chosen.chambers), chosen.work, chosen.draws)


def prove(built: Built, states: int = PROOF_STATES) -> Certificate:
    """The level's full certificate from its built solution (the designer's
    :func:`~gridforge.snakes.design.certify.certify`): the game's own searches shorten it or
    prove it minimal (matching bound, exact A* under the solution's length, the pairwise
    bound) within ``states`` stored states; the clock never decides."""
    return certify(level_from_json(built.level), solution=[list(s) for s in built.solution],
                   max_states=states, max_seconds=NO_CLOCK)


def folded_share(level: Level) -> float:
    """Share of the level's bodies that are folded (5c)."""
    return sum(is_folded(b.cells) for b in level.bodies) / len(level.bodies)


__all__ = [
    "FAMILIES",
    "Built",
    "Chamber",
    "Chosen",
    "Placed",
    "assemble",
    "bridge_binds",
    "build_level",
    "choose",
    "coated",
    "draw_chamber",
    "folded_share",
    "measure",
    "painted",
    "prove",
]
