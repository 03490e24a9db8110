"""Levels on one board whose bodies need each other (issue 50, spec section 5d).

The third build stacked two-body chambers behind stone; its depth was the sum of separate
small conflicts. This module builds an *idea* on one open board instead: three or more short
straight bodies on a seed template (spec 6b), placed by a local search over small layouts so
that the template's narrow points and bays become their conflict, each candidate **measured
exactly**:

- the proven minimum (the game's exact A*, :class:`~gridforge.snakes.solver.search.Solver`, under a
  counted state budget; a candidate it cannot prove is dropped),
- the **pair split bound** (:func:`~gridforge.snakes.solver.pairs.pairwise_bound`) and so the
  **beyond-pairs steps** (minimum - pair split bound: steps only three or more bodies
  together explain),
- the **joint steps** (spec 5c, :func:`~gridforge.snakes.solver.legibility.reading`),
- the longest **must-move chain** (:func:`must_move_chain`, spec 5d).

The search is a hill climb over layouts (move a body, move a hole), scored by how far a
candidate falls short of the request (beyond-pairs steps, joint steps, chain length, and at
most :data:`STEPS_PER_JOINT` certificate steps per joint step); it stops as soon as a
candidate meets every target. A cheap screen runs before the exact search: the weighted
search's upper bound caps what a candidate could score (beyond-pairs and joint steps fall one
for one as the minimum falls below it), and a candidate that cannot beat the one held is
never proven. A stalled climb is kicked from its best layout before it starts afresh. Boards
fit a phone held upright (:func:`board_shape`). Every choice comes from the caller's
``random.Random``; every search is bounded by counted states (the solver's clock is given a
bound it never reaches).

Public names: :class:`Request`, :class:`Idea`, :func:`build_idea`, :func:`continue_idea`,
:func:`measure_layout`, :func:`board_shape`, :func:`blocks`, :func:`blocking`,
:func:`longest_chain`, :func:`must_move_chain`, :data:`LENGTHS`, :data:`NARROW`.
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from types import EllipsisType

from gridforge.grid import Cell
from gridforge.snakes.design.templates import Shape, TemplateError, make_shape, recommend_sizes
from gridforge.snakes.game.level import Body, Level, level_from_json
from gridforge.snakes.game.levelfile import LevelJson
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.legibility import SoloBudget, reading, solo_cost
from gridforge.snakes.solver.pairs import pairwise_bound
from gridforge.snakes.solver.search import Solver

__all__ = [
    "LENGTHS",
    "NARROW",
    "Idea",
    "Layout",
    "Request",
    "blocking",
    "blocks",
    "board_shape",
    "build_idea",
    "continue_idea",
    "longest_chain",
    "measure_layout",
    "must_move_chain",
]

NO_CLOCK = 1e9  # seconds handed to the solver: never reached, the state budgets decide
PATIENCE = 120  # layouts a climb may try without improving before it is kicked
KICK = 3  # random moves of a kick
KICKS = 3  # kicks from a shape's best layout before a fresh shape
# A chain's next idea starts one random move away from the last: three moves broke a comb
# idea of six bodies (0 of 5 continuations met), one kept it (4 of 5, 0.4-9 CPU s each).
CHAIN_KICK = 1
STEPS_PER_JOINT = 3.5  # most certificate steps per joint step a request accepts
# States a climb's weighted search may store before the layout is refused. On a winding lane
# at level 1714 the searches that ran out of 40,000 states took 60% of a continuation's CPU
# and no search solved those layouts within 400,000; the solvable layouts that needed more
# than 15,000 walked 78-105 steps for 11-14 joint steps, far past any request's density.
FAST_STATES = 15_000
MAX_COLS, MAX_ROWS = 10, 16  # a phone held upright, cells of 36 px (issue 50)
HOLES_IN_THE_OPEN = 0.5  # the share of holes placed anywhere, not against a wall
MAX_STONE_SHARE = 0.40  # stones / (cols x rows): mostly floor, the Gecko Out look
AREA_GROWTH = 0.25  # how much larger than asked a board may be to keep its stone share
DIRS: tuple[Cell, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))

# Body lengths a template's ideas draw from. Corridors and bays (comb, cross, winding, twin)
# make conflicts of short bodies; on open floor a body must be long enough to stand as a
# wall for another (measured: bench/interlock_probe.py, docs/snakes-interlock.md).
NARROW = ("comb", "cross", "winding", "twin")
LENGTHS: dict[str, tuple[int, ...]] = {
    **{t: (2, 2, 3) for t in NARROW},
    **{t: (2, 3, 4, 4) for t in ("courtyard", "notched", "stepped", "island", "pillars")},
}

# A layout: the bodies (cells head first) and one hole per body (body i's colour is i).
Layout = tuple[tuple[tuple[Cell, ...], ...], tuple[Cell, ...]]


@dataclass(frozen=True)
class Request:
    """What one idea must reach: ``bodies`` short straight bodies of ``lengths`` on a
    ``template`` of ``area`` floor cells; at least ``beyond`` beyond-pairs steps, ``joint``
    joint steps and a must-move chain of ``chain``; the climb's budgets (``rounds`` layouts
    tried after the first, ``states`` stored by each exact search)."""

    template: str
    area: int
    lengths: tuple[int, ...]
    beyond: int
    joint: int
    chain: int
    rounds: int = 600
    states: int = 40_000
    fast_states: int = FAST_STATES
    max_steps: int = 100
    steps_per_joint: float | None = STEPS_PER_JOINT  # None: any
    most_joint: int | None = None  # a breather's ceiling
    # A miss past steps_per_joint counts the joint steps it lacks (the climb walks toward
    # denser layouts), not one.
    graded: bool = False


@dataclass(frozen=True)
class Measure:
    """A layout's exact figures (spec 5c, 5d)."""

    minimum: int
    pair_split: int
    joint: int
    chain: int
    blocked: int  # pairs (x, y) where x blocks y
    solution: tuple[tuple[int, str, str], ...]
    stored: int

    @property
    def beyond(self) -> int:
        """Beyond-pairs steps: the minimum less the pair split bound."""
        return self.minimum - self.pair_split


@dataclass(frozen=True)
class Idea:
    """A built idea: its board, layout, figures and the work spent (stored states)."""

    shape: Shape
    layout: Layout
    measure: Measure
    work: int
    tried: int

    def level_json(self) -> LevelJson:
        """The idea as a level, body i of colour i, its hole of colour i."""
        return level_of(self.shape, self.layout)


def level_of(shape: Shape, layout: Layout) -> LevelJson:
    """The level of ``layout`` on ``shape``."""
    bodies, holes = layout
    return {
        "format": "gridforge.snakes.level/1",
        "cols": shape.cols,
        "rows": shape.rows,
        "stones": [list(c) for c in shape.stones],
        "bodies": [{"cells": [list(c) for c in b], "colors": [i]} for i, b in enumerate(bodies)],
        "holes": [{"cell": list(h), "color": i} for i, h in enumerate(holes)],
    }


# ---------------------------------------------------------------- blocks and chains


def blocks(level: Level, x: int, y: int, *, budget: int = 20_000) -> bool:
    """Whether body ``x`` blocks body ``y`` (spec 5d): y, alone on the board with x's cells
    turned to stone (freezes and locks lifted, holes passable, its own colour's holes exits),
    cannot take its layers out at all."""
    stone = set(level.stones) | set(level.bodies[x].cells)
    holes = tuple(h for h in level.holes if h.cell not in stone)
    src = level.bodies[y]
    alone = Level(level.cols, level.rows, tuple(sorted(stone)), (Body(src.cells, src.colors),),
                  holes, paths=tuple(p for p in level.paths if p.cell not in stone),
                  bridges=tuple(b for b in level.bridges if b not in stone))
    try:
        return solo_cost(alone, 0, budget=budget).cost is None
    except SoloBudget:
        return False  # not shown to be blocked


def blocking(level: Level, bodies: Sequence[int] | None = None) -> dict[int, list[int]]:
    """For each body x of ``bodies`` (default: all), the bodies of ``bodies`` it blocks."""
    members = list(range(len(level.bodies))) if bodies is None else list(bodies)
    return {x: [y for y in members if y != x and blocks(level, x, y)] for x in members}


def longest_chain(edges: dict[int, list[int]]) -> int:
    """The longest path with no body twice in a blocking relation, in edges (k - 1)."""
    best = 0

    def walk(x: int, seen: frozenset[int], length: int) -> None:
        nonlocal best
        best = max(best, length)
        for y in edges[x]:
            if y not in seen:
                walk(y, seen | {y}, length + 1)

    for x in edges:
        walk(x, frozenset((x,)), 0)
    return best


def must_move_chain(level: Level, bodies: Sequence[int] | None = None) -> int:
    """The longest must-move chain (spec 5d) among ``bodies`` (default: all): a path
    X1 blocks X2 blocks ... Xk with no body twice, its length k - 1 (0: nobody blocks)."""
    return longest_chain(blocking(level, bodies))


# ---------------------------------------------------------------- measuring a layout


@dataclass
class _Stages:
    """What measuring one layout has found so far (each stage a pure function of the layout
    and the state budget): its blocking relation, its figures at the weighted search's
    solution (``best``; None: not a solvable level in budget) and its exact figures
    (``exact``; None: not proven). ``...``: that stage not reached yet."""

    chain: int
    blocked: int
    level: Level
    best: Measure | EllipsisType | None = ...
    exact: Measure | EllipsisType | None = ...


# Measured layouts by (level JSON, state budget): a climb comes back to layouts it has met
# (a lane's sideways walks start next to the idea before; kicks start from the best), and a
# screen that refused a layout once may take it later. A cache of pure answers: it changes
# no figure, only the work. Cleared when full.
_STAGES: dict[tuple[str, int, int], _Stages | None] = {}
STAGES_LIMIT = 40_000


def measure_layout(data: LevelJson, states: int, *, upper_cap: int | None = None,
                   worth: Callable[[Measure], bool] | None = None,
                   structure: Callable[[int, int], bool] | None = None,
                   fast_states: int | None = None) -> Measure | None:
    """The exact figures of a layout, or None when it is not a valid level, not solvable
    or not proven within ``states`` stored states (or its fast solution is longer than
    ``upper_cap``).

    ``worth`` screens a layout before its exact search: it is shown the figures the layout
    would have if the weighted search's solution were minimal (the most beyond-pairs and
    joint steps it can have: both fall one for one as the minimum falls below it) and a
    layout it refuses is not proven (None). ``structure`` screens earlier still, on the
    blocking relation alone (its longest chain and its blocking pairs, a few solo searches):
    a layout it refuses is not searched at all (None). ``fast_states`` bounds the weighted
    search (default ``states``): a layout it does not solve within them is refused."""
    fast = states if fast_states is None else fast_states
    key = (json.dumps(data, sort_keys=True, separators=(",", ":")), states, fast)
    if key in _STAGES:
        stages = _STAGES[key]
    else:
        if len(_STAGES) >= STAGES_LIMIT:
            _STAGES.clear()
        stages = _STAGES[key] = _blocking_stage(data)
    if stages is None:
        return None
    if structure is not None and not structure(stages.chain, stages.blocked):
        return None
    if stages.best is ...:
        stages.best = _fast_stage(stages, fast, states)
    best = stages.best
    if best is None or (upper_cap is not None and best.minimum > upper_cap):
        return None
    if worth is not None and not worth(best):
        return None
    if stages.exact is ...:
        stages.exact = _exact_stage(stages.level, best, states)
    return stages.exact


def _blocking_stage(data: LevelJson) -> _Stages | None:
    try:
        level = level_from_json(data)
    except ValueError:
        return None
    edges = blocking(level)
    return _Stages(longest_chain(edges), sum(map(len, edges.values())), level)


def _fast_stage(stages: _Stages, fast_states: int, states: int) -> Measure | None:
    """The figures at the weighted search's solution (its length as the minimum), the
    weighted search within ``fast_states``, the pair split bound within ``states``."""
    level = stages.level
    game = Game(level)
    solver = Solver(game)
    if solver.dead_reason():
        return None
    fast = solver.fast(max_states=fast_states, max_seconds=NO_CLOCK)
    if fast.moves is None or fast.upper_bound is None or fast.steps is None:
        return None
    upper = fast.upper_bound
    try:
        joint_at_upper = reading(level, upper).joint_steps
    except (SoloBudget, ValueError):
        return None
    split = pairwise_bound(game, pair_states=states).partition
    return Measure(upper, split, joint_at_upper, stages.chain, stages.blocked,
                   _steps(fast.steps), fast.stored)


def _exact_stage(level: Level, best: Measure, states: int) -> Measure | None:
    """The proven figures under the weighted search's solution ``best``, or None."""
    upper = best.minimum
    exact = Solver(Game(level)).astar(max_states=states, max_seconds=NO_CLOCK, upper=upper)
    if exact.status == "exhausted_below_upper":
        return replace(best, stored=exact.stored + best.stored)
    if exact.status != "solved" or not exact.optimal or exact.steps is None:
        return None
    minimum = len(exact.steps)
    return replace(best, minimum=minimum, joint=best.joint - (upper - minimum),
                   solution=_steps(exact.steps), stored=exact.stored + best.stored)


def _steps(steps: Sequence[Sequence[object]]) -> tuple[tuple[int, str, str], ...]:
    return tuple((int(str(s[0])), str(s[1]), str(s[2])) for s in steps)


def shortfall(request: Request, m: Measure) -> tuple[int, int]:
    """How far a measured layout falls short of ``request`` (0: met), then a tie-break
    that prefers more beyond-pairs and joint steps and more blocking pairs (a crowded
    layout is the climb's way toward interaction on an open board)."""
    miss = 3 * max(0, request.beyond - m.beyond) + max(0, request.joint - m.joint)
    miss += 2 * max(0, request.chain - m.chain)
    if request.steps_per_joint is not None and m.minimum > request.steps_per_joint * max(
            1, m.joint):
        miss += (math.ceil(m.minimum / request.steps_per_joint) - max(1, m.joint)
                 if request.graded else 1)
    if request.most_joint is not None:
        miss += max(0, m.joint - request.most_joint)
    if m.minimum > request.max_steps:
        miss += m.minimum - request.max_steps
    return miss, -(4 * m.beyond + 2 * m.joint + m.blocked)


# ---------------------------------------------------------------- the climb


def board_shape(template: str, area: int, rng: random.Random) -> Shape | None:
    """A shape of ``template`` with ``area`` floor cells (or up to :data:`AREA_GROWTH` more
    where that many would leave too many stones) on at most :data:`MAX_COLS` x
    :data:`MAX_ROWS` with a stone share of at most :data:`MAX_STONE_SHARE`, and an aspect of
    at most 2:1, at the first recommended size that gives one; None when none does."""
    try:
        sizes = recommend_sizes(template, area, rng)
    except TemplateError:
        return None
    for cols, rows in sizes:
        if cols > MAX_COLS or rows > MAX_ROWS or max(cols, rows) > 2 * min(cols, rows):
            continue
        # A cross cut to the area asked keeps about 0.44 of its board as stone: it takes
        # the floor cells the share needs instead (the plan's area is a size, not a count).
        least = math.ceil(round((1 - MAX_STONE_SHARE) * cols * rows, 6))
        fits = max(area, least)
        if fits > area * (1 + AREA_GROWTH):
            continue
        try:
            return make_shape(template, fits, rng, cols=cols, rows=rows)
        except TemplateError:
            continue
    return None


def _walled(floor: set[Cell], c: Cell) -> int:
    return sum((c[0] + dx, c[1] + dy) not in floor for dx, dy in DIRS)


def _straight(rng: random.Random, free: set[Cell], length: int,
              near: set[Cell] | None = None) -> tuple[Cell, ...] | None:
    """A straight body of ``length`` on ``free`` cells; its head next to a cell of ``near``
    when given (the climb's way of crowding a hole or a body)."""
    cells = sorted(free)
    if near:
        close = sorted(c for c in free if any((c[0] + dx, c[1] + dy) in near for dx, dy in DIRS))
        cells = close or cells
    for _ in range(40):
        x, y = rng.choice(cells)
        dx, dy = rng.choice(DIRS)
        body = tuple((x + dx * i, y + dy * i) for i in range(length))
        if all(c in free for c in body):
            return body
    return None


def _hole_cell(rng: random.Random, floor: set[Cell], free: set[Cell]) -> Cell:
    """A hole on a free cell: half the time anywhere (an unused hole is a wall to every
    other colour, so a hole in the open makes a narrow point), else against the walls (two
    or more stone or wall sides) where one is free."""
    if rng.random() < HOLES_IN_THE_OPEN:
        return rng.choice(sorted(free))
    walls = [c for c in sorted(free) if _walled(floor, c) >= 2]
    return rng.choice(walls or sorted(free))


def _draw(rng: random.Random, floor: set[Cell], lengths: Sequence[int]) -> Layout | None:
    free = set(floor)
    holes: list[Cell] = []
    for _ in lengths:
        h = _hole_cell(rng, floor, free)
        holes.append(h)
        free.discard(h)
    bodies: list[tuple[Cell, ...]] = []
    for n in lengths:
        b = _straight(rng, free, n)
        if b is None:
            return None
        bodies.append(b)
        free -= set(b)
    return tuple(bodies), tuple(holes)


def _mutate(rng: random.Random, floor: set[Cell], layout: Layout) -> Layout | None:
    bodies, holes = list(layout[0]), list(layout[1])
    taken = {c for b in bodies for c in b} | set(holes)
    i = rng.randrange(len(bodies))
    if rng.random() < 0.6:
        others = taken - set(bodies[i])
        near = others if rng.random() < 0.5 else None
        b = _straight(rng, floor - others, len(bodies[i]), near)
        if b is None:
            return None
        bodies[i] = b
    else:
        holes[i] = _hole_cell(rng, floor, floor - (taken - {holes[i]}))
    return tuple(bodies), tuple(holes)


def _at_most(request: Request, miss: tuple[int, int], best: Measure) -> bool:
    """Whether ``best`` (a layout's figures at their most) falls short by at most ``miss``."""
    return shortfall(request, best) <= miss


def _as_tangled(request: Request, held: Measure, chain: int, blocked: int) -> bool:
    """Whether a candidate's blocking relation keeps the held layout's: its chain as long
    (or the request's), at most one blocking pair fewer. Interaction on a board grows out of
    bodies in each other's way; a move that unties them is not worth a search."""
    return chain >= min(request.chain, held.chain) and blocked >= held.blocked - 1


def _kicked(rng: random.Random, floor: set[Cell], layout: Layout, moves: int = KICK
            ) -> Layout | None:
    """``layout`` after ``moves`` random moves (a climb's way out of a local optimum)."""
    for _ in range(moves):
        moved = _mutate(rng, floor, layout)
        if moved is None:
            return None
        layout = moved
    return layout


def _step(request: Request, shape: Shape, layout: Layout,
          held: tuple[Layout, Measure] | None, kick: bool, *, sideways: bool = False
          ) -> Measure | None:
    """One climb step: ``layout`` measured, screened against the ``held`` layout (not when
    it is the first or a kick: then it is measured whatever it holds); ``sideways``: a
    layout that misses the request by no more than the held one is worth measuring even if
    it ties worse (a chain walks among layouts that meet the request)."""
    bar = None if held is None else shortfall(request, held[1])
    worth = None if bar is None or kick else functools.partial(
        _at_most, request, (bar[0], 0) if sideways else bar)
    structure = None if held is None or kick else functools.partial(
        _as_tangled, request, held[1])
    return measure_layout(level_of(shape, layout), request.states,
                          upper_cap=request.max_steps + 20, worth=worth, structure=structure,
                          fast_states=request.fast_states)


def build_idea(request: Request, rng: random.Random,
               accept: Callable[[LevelJson, Measure], bool] | None = None) -> Idea | None:
    """Climb from a random layout on a template shape toward ``request``; the first layout
    that meets it (and that ``accept`` takes, when given: a layout it refuses is held and
    the climb walks on among layouts that meet the request), or None when the rounds run
    out first (or the template cannot give the area). A climb that has not improved for
    :data:`PATIENCE` layouts goes on from its best layout so far after a kick of :data:`KICK`
    random moves, :data:`KICKS` times; then it starts again from a fresh shape and layout."""
    work = tried = 0
    shape: Shape | None = None
    floor: set[Cell] = set()
    held: tuple[Layout, Measure] | None = None
    best: tuple[Layout, Measure] | None = None
    stale = kicks = 0
    for _ in range(request.rounds + 1):
        kick = False
        if shape is None or (stale >= PATIENCE and (best is None or kicks >= KICKS)):
            shape = board_shape(request.template, request.area, rng)
            if shape is None:
                return None
            floor, held, best, stale, kicks = set(shape.floor), None, None, 0, 0
        elif stale >= PATIENCE and best is not None:
            held, stale, kick, kicks = best, 0, True, kicks + 1
        if held is None:
            layout = _draw(rng, floor, request.lengths)
        else:
            layout = _kicked(rng, floor, held[0]) if kick else _mutate(rng, floor, held[0])
        stale += 1
        if layout is None:
            continue
        tried += 1
        # Refused by ``accept`` at the request: walk sideways, as a lane's continuation does.
        sideways = held is not None and shortfall(request, held[1])[0] == 0
        m = _step(request, shape, layout, held, kick, sideways=sideways)
        if m is None:
            continue
        work += m.stored
        if kick or held is None or (shortfall(request, m)[0] == 0 if sideways else
                                    shortfall(request, m) <= shortfall(request, held[1])):
            if best is None or shortfall(request, m) < shortfall(request, best[1]):
                best, stale = (layout, m), 0
            held = (layout, m)
            if shortfall(request, m)[0] == 0 and (
                    accept is None or accept(level_of(shape, layout), m)):
                return Idea(shape, layout, m, work, tried)
    return None


def continue_idea(request: Request, idea: Idea, rng: random.Random,
                  fresh: Callable[[LevelJson, Measure], bool]) -> Idea | None:
    """The next idea of a chain: a climb toward ``request`` on ``idea``'s board from
    ``idea``'s layout moved by :data:`CHAIN_KICK` random moves; the first layout that meets
    the request and that ``fresh`` takes with its figures (a layout no earlier level had);
    None when the
    rounds run out first. The climb walks sideways: a layout that meets the request as well
    as the held one is taken even when it ties worse (a chain looks for a new layout of the
    same depth, not a deeper one).

    A layout near one that meets a request mostly meets its neighbour's: on a winding board
    a chain met joint 14 to 18 in 1-19 layouts each (0.3-1.5 CPU s) where a fresh climb
    took 4-30 s or failed (docs/snakes-interlock.md)."""
    shape, floor = idea.shape, set(idea.shape.floor)
    held: tuple[Layout, Measure] | None = None
    work = tried = 0
    for _ in range(request.rounds + 1):
        start = held is None
        layout = (_kicked(rng, floor, idea.layout, CHAIN_KICK) if held is None
                  else _mutate(rng, floor, held[0]))
        if layout is None:
            continue
        tried += 1
        m = _step(request, shape, layout, held, start, sideways=True)
        if m is None:
            continue
        work += m.stored
        if held is None or shortfall(request, m)[0] <= shortfall(request, held[1])[0]:
            held = (layout, m)
            if shortfall(request, m)[0] == 0 and fresh(level_of(shape, layout), m):
                return Idea(shape, layout, m, work, tried)
    return None
