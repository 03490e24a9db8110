"""Terrain placed where it binds (spec section 3b): coloured paths and bridges for a level
and a solution the designer has found for it.

Random terrain binds nothing (an independent prototype put 144 random gates on a Gecko Out
level: none made it longer), so both are placed against solutions:

- :func:`add_paths`: a cell is painted only where a shortest solution found for the level
  without it enters that cell with a body of another colour. That solution, refused by the
  paint, is the path's witness (spec section 5b: the level without the path has a solution
  no longer than the certificate that the real rules refuse); the level with the paint is
  solved again, and kept only when that solution is no shorter than the witness.
- :func:`add_bridges`: a bridge is tried on the cells that two bodies (or one body twice)
  pass through along both axes in the found solution; it is kept only when the solution
  found with it *crosses* it (:func:`~gridforge.snakes.solver.puzzle.crossed_bridges`: both lanes
  taken at once, which no board without the bridge allows).

Candidates come in a fixed order shuffled by the caller's seeded ``random.Random``; every
search is bounded by stored states (never seconds), so the same request gives the same bytes.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

from gridforge.errors import ValidationError
from gridforge.grid import Cell
from gridforge.snakes.game.level import Level, PaintedCell, bridge_lane, level_from_json
from gridforge.snakes.game.rules import Game, Move, State
from gridforge.snakes.solver.puzzle import crossed_bridges
from gridforge.snakes.solver.search import Solver

__all__ = ["TRIES", "add_bridges", "add_paths", "bridge_places", "entries", "lanes_lain", "refuses"]

TRIES = 6  # candidate cells tried for each piece of terrain (each costs a search)


def entries(game: Game, moves: list[Move]) -> list[tuple[Cell, int, int, int]]:
    """Every slide of a solution as ``(cell entered, body, its outer colour then, axis)``,
    axis 0 for a step left or right, 1 up or down; exits are left out (a hole is never
    painted or bridged)."""
    out: list[tuple[Cell, int, int, int]] = []
    state = game.initial
    n = game.n
    for move in moves:
        child = game.apply(state, move)
        b = move >> 3
        if child[n + 1] == state[n + 1]:  # a slide, not an exit
            cells = game.body_cells(child, b)
            entered = cells[-1] if move & 4 else cells[0]
            color = game.outer_color(state, b)
            assert color is not None
            out.append((entered, b, color, 0 if move & 3 >= 2 else 1))
        state = child
    return out


def refuses(level: Level, moves: list[Move]) -> bool:
    """Whether the rules of ``level`` refuse ``moves`` (a step, or an unfinished end)."""
    game = Game(level)
    state = game.initial
    for move in moves:
        child = game.advance(state, move)
        if child is None:
            return True
        state = child
    return not game.is_complete(state)


def _shortest(level: Level, max_states: int) -> list[Move] | None:
    """A shortest solution found within ``max_states`` (the fast one when A* runs out)."""
    return Solver(Game(level)).solve(max_states=max_states, max_seconds=math.inf).moves


def _states(level: Level, moves: list[Move]) -> tuple[Game, list[State]]:
    """The game of ``level`` and the states along ``moves`` from its start."""
    game = Game(level)
    states = [game.initial]
    for move in moves:
        states.append(game.apply(states[-1], move))
    return game, states


def _valid(level: Level) -> Level | None:
    """``level`` checked again as a file would be (lanes, overlaps), or None."""
    try:
        return level_from_json(level.to_json())
    except ValidationError:
        return None


def add_paths(level: Level, moves: list[Move], count: int, rng: random.Random,
              max_states: int) -> tuple[Level, list[Move]] | None:
    """``count`` painted cells placed where they bind (module docstring), and a solution of
    the painted level; None when some piece finds no binding place within :data:`TRIES`."""
    colors = sorted({c for b in level.bodies for c in b.colors})
    for _ in range(count):
        witness = _shortest(level, max_states) or moves
        if len(witness) > len(moves):
            witness = moves
        taken = {h.cell for h in level.holes} | {p.cell for p in level.paths}
        taken |= set(level.bridges)
        places = sorted({(cell, color) for cell, _, color, _ in entries(Game(level), witness)
                         if cell not in taken})
        rng.shuffle(places)
        for cell, entering in places[:TRIES]:
            others = [c for c in colors if c != entering]
            if not others:
                continue
            painted = _valid(replace(level, paths=(*level.paths,
                                                   PaintedCell(cell, rng.choice(others)))))
            if painted is None or not refuses(painted, witness):
                continue
            solution = _shortest(painted, max_states)
            if solution is not None and len(solution) >= len(witness):
                level, moves = painted, solution
                break
        else:
            return None
    return level, moves


def _straight_under_bodies(level: Level, cell: Cell) -> bool:
    """Whether every body lying on ``cell`` crosses it straight (a bridge may go there)."""
    for body in level.bodies:
        for j, at in enumerate(body.cells):
            if at == cell and bridge_lane(body.cells, j) is None:
                return False
    return True


def lanes_lain(game: Game, states: list[State]) -> dict[Cell, tuple[list[tuple[int, int]],
                                                                     list[tuple[int, int]]]]:
    """For every cell, who lies on it straight along a solution: per lane (horizontal, then
    vertical), the ``(body, position index)`` of each body lying through it in that lane at
    one of ``states`` (a body that turns there takes no lane)."""
    lanes: dict[Cell, tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {}
    for t, state in enumerate(states):
        for b in range(game.n):
            cells = game.body_cells(state, b)
            for j, cell in enumerate(cells):
                lane = bridge_lane(cells, j)
                if lane is not None:
                    lanes.setdefault(cell, ([], []))[lane].append((b, t))
    return lanes


def bridge_places(level: Level, moves: list[Move], rng: random.Random) -> list[Cell]:
    """The cells where a bridge may let the solution ``moves`` cross, best first: cells that
    bodies lie on straight along both axes at some positions of it (two bodies, or one body
    at two times), free of holes, paint and bridges and with no body turning there at the
    start. Best are the cells where the two lanes were taken closest in time by two bodies:
    there one body made way (or waited) for another, a wait a bridge could spare. Ties keep
    ``rng``'s shuffled order."""
    game, states = _states(level, moves)
    taken = {h.cell for h in level.holes} | {p.cell for p in level.paths}
    taken |= set(level.bridges)
    gaps: dict[Cell, tuple[int, int]] = {}
    for cell, (across, along) in sorted(lanes_lain(game, states).items()):
        if not across or not along or cell in taken or not _straight_under_bodies(level, cell):
            continue
        others = [abs(u - v) for a, u in across for b, v in along if a != b]
        # Two bodies' lanes first (by the time between them); one body's own, last.
        gaps[cell] = (min(others), 0) if others else (len(states), 1)
    places = sorted(gaps)
    rng.shuffle(places)
    places.sort(key=lambda c: gaps[c][::-1])
    return places


def add_bridges(level: Level, moves: list[Move], count: int, rng: random.Random,
                max_states: int) -> tuple[Level, list[Move]] | None:
    """``count`` bridges, each crossed by the solution found with it (module docstring), and
    that solution; None when some bridge finds no such place within :data:`TRIES`."""
    for _ in range(count):
        for cell in bridge_places(level, moves, rng)[:TRIES]:
            bridged = _valid(replace(level, bridges=(*level.bridges, cell)))
            if bridged is None:
                continue
            solution = _shortest(bridged, max_states)
            if solution is None:
                continue
            if len(bridged.bridges) - 1 in crossed_bridges(*_states(bridged, solution)):
                level, moves = bridged, solution
                break
        else:
            return None
    return level, moves
