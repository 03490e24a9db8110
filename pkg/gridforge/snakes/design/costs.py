"""Mechanics and terrain that cost steps (issue 50, spec 5d "a mechanic's cost").

A piece's **cost** is the level's minimum with it less the minimum with it lifted (a freeze or
lock ignored) or removed (paint gone, a bridge as plain floor); a bridge lets two bodies cross,
so it changes the minimum by lowering it. An order constraint that costs
nothing binds but is not an idea of its own; past their lessons the fourth build places a
piece only where it costs at least :data:`LEAST_COST` steps: it forces a detour, a longer wait
or a different order.

:func:`costly` tries every placement of one piece on a level whose minimum is known, in a
fixed order, solving each variant exactly within a counted state budget, and answers the one
that costs the most (ties: the first), with its minimum and a **witness** (spec 5b): the
relaxed level's minimal solution, shorter than the real minimum, so the real rules refuse it.

Public names: :class:`Costly`, :func:`costly`, :data:`PIECES`, :data:`LEAST_COST`.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from gridforge.snakes.game.level import Level, level_from_json
from gridforge.snakes.game.levelfile import LevelJson
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.puzzle import relaxations
from gridforge.snakes.solver.search import Solver

__all__ = ["LEAST_COST", "PIECES", "Costly", "costly", "lifted"]

LEAST_COST = 2  # steps a piece must cost past its lesson
PIECES = ("frozen", "frozen_holes", "locks", "paths", "bridges")
NO_CLOCK = 1e9


Steps = tuple[tuple[int, str, str], ...]  # a solution's steps: (body, end, direction)


@dataclass(frozen=True)
class Costly:
    """A level with one piece placed: its proven ``minimum``, the piece's ``cost`` (steps
    over the level without it), the field that holds the piece (``mechanic``, as the
    certificate's witnesses name it) and a minimal ``solution``."""

    level: LevelJson
    minimum: int
    cost: int
    mechanic: str
    solution: Steps


def _minimum(data: LevelJson, states: int, at_least: int | None = None
             ) -> tuple[int, Steps] | None:
    """The proven minimum of ``data`` and a minimal solution, or None (invalid, unsolvable,
    unproven within ``states``, or a solution shorter than ``at_least`` found)."""
    try:
        level = level_from_json(data)
    except ValueError:
        return None
    return _solved(level, states, at_least)


def _solved(level: Level, states: int, at_least: int | None = None) -> tuple[int, Steps] | None:
    result = Solver(Game(level)).solve(max_states=states, max_seconds=NO_CLOCK,
                                       shorter_than=at_least)
    if result.status != "solved" or not result.optimal or result.steps is None:
        return None
    return len(result.steps), tuple((int(s[0]), str(s[1]), str(s[2])) for s in result.steps)


def _open_cells(data: LevelJson) -> list[tuple[int, int]]:
    """The floor cells under no body and no hole, row by row."""
    taken = {tuple(c) for b in data["bodies"] for c in b["cells"]}
    taken |= {tuple(h["cell"]) for h in data["holes"]} | {tuple(c) for c in data["stones"]}
    return [(x, y) for y in range(data["rows"]) for x in range(data["cols"])
            if (x, y) not in taken]


def _frozen(data: LevelJson) -> Iterator[tuple[LevelJson, str]]:
    layers = sum(len(b["colors"]) for b in data["bodies"])
    for b, body in enumerate(data["bodies"]):
        for k in range(1, layers - len(body["colors"]) + 1):
            out = copy.deepcopy(data)
            out["bodies"][b]["frozen"] = k
            yield out, f"bodies[{b}].frozen"


def _frozen_holes(data: LevelJson) -> Iterator[tuple[LevelJson, str]]:
    layers = sum(len(b["colors"]) for b in data["bodies"])
    for h in range(len(data["holes"])):
        for k in range(1, layers):
            out = copy.deepcopy(data)
            out["holes"][h]["frozen"] = k
            yield out, f"holes[{h}].frozen"


def _locks(data: LevelJson) -> Iterator[tuple[LevelJson, str]]:
    bodies = len(data["bodies"])
    for b, c in itertools.permutations(range(bodies), 2):
        out = copy.deepcopy(data)
        out["bodies"][b]["lock"] = {"id": "L1", "kind": "silver"}
        out["bodies"][c]["key"] = "L1"
        yield out, f"bodies[{b}].lock"


def _paths(data: LevelJson) -> Iterator[tuple[LevelJson, str]]:
    colours = sorted({b["colors"][0] for b in data["bodies"]})
    for x, y in _open_cells(data):
        for colour in colours:
            out = copy.deepcopy(data)
            out["paths"] = [{"cell": [x, y], "color": colour}]
            yield out, "paths[0]"


def _bridges(data: LevelJson) -> Iterator[tuple[LevelJson, str]]:
    for x, y in _open_cells(data):
        out = copy.deepcopy(data)
        out["bridges"] = [[x, y]]
        yield out, "bridges[0]"


# Every placement of one piece on a level (a fresh copy each), in a fixed order.
_VARIANTS: dict[str, Callable[[LevelJson], Iterator[tuple[LevelJson, str]]]] = {
    "frozen": _frozen, "frozen_holes": _frozen_holes, "locks": _locks, "paths": _paths,
    "bridges": _bridges,
}


def costly(data: LevelJson, piece: str, minimum: int, *, states: int = 40_000,
           least: int = LEAST_COST, aim: int | None = None, limit: int | None = None
           ) -> Costly | None:
    """The placement of ``piece`` on ``data`` (proven minimum ``minimum`` without it) that
    costs the most steps, at least ``least`` (a bridge: that saves the most, at least
    ``least``: the route changes by that much); with ``aim``, the placement whose cost is
    nearest ``aim`` among those costing at least ``least`` (ties: the first in the fixed
    order), so a piece deepens a level by about what the line asks, not by whatever it can.
    ``limit``: at most that many placements are measured, spread evenly over the fixed order
    (a painted cell has one placement per open cell and colour: each an exact search).
    None when no placement costs ``least`` (or none is proven within ``states`` stored
    states)."""
    best: Costly | None = None
    if piece not in _VARIANTS:
        raise ValueError(f"unknown piece {piece!r}: one of {', '.join(PIECES)}")
    variants = list(_VARIANTS[piece](data))
    if limit is not None and len(variants) > limit:
        variants = [variants[i * len(variants) // limit] for i in range(limit)]
    for variant, mechanic in variants:
        # A piece only restricts: a solution shorter than minimum + least proves the
        # placement costs too little, and it needs no exact search.
        got = _minimum(variant, states, None if piece == "bridges" else minimum + least)
        if got is None:
            continue
        # A bridge lets bodies cross: it changes the minimum by shortening it.
        cost = minimum - got[0] if piece == "bridges" else got[0] - minimum
        if cost < least:
            continue
        better = (best is None or (cost > best.cost if aim is None
                                   else abs(cost - aim) < abs(best.cost - aim)))
        if better:
            best = Costly(variant, got[0], cost, mechanic, got[1])
            if cost == aim:
                break  # no later placement is nearer (ties go to the first)
    return best


def lifted(data: LevelJson, mechanic: str, *, states: int = 40_000) -> tuple[int, Steps] | None:
    """The proven minimum of ``data`` with the one mechanic ``mechanic`` lifted (its name as
    a witness gives it: spec 5b's relaxation, :func:`~gridforge.snakes.solver.puzzle.
    relaxations`) and a minimal solution of that level; None when the level has no such
    mechanic or the search proves nothing within ``states`` stored states. On a level with
    several pieces, a piece's cost is the level's minimum less this."""
    relaxed = dict(relaxations(level_from_json(data))).get(mechanic)
    return None if relaxed is None else _solved(relaxed, states)
