"""What one candidate of the designer aims at (seed 004, section 4, steps 2-4): its *recipe*.

Difficulty is steered by one number per candidate, the *pressure* (about target / 100): it
sets the template (for ``mixed``), the body count and size, the occupancy, the mechanics and
how far and how hidden the holes lie. Fixed fields of the request are kept as they are. From
pressure :data:`BACKWARD_PRESSURE` the recipe is one for backward play
(:mod:`~gridforge.snakes.design.backward`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from gridforge.snakes.design.backward import Plan
from gridforge.snakes.design.request import Request
from gridforge.snakes.design.templates import MAX_FLOOR, TEMPLATES

__all__ = ["BACKWARD_PRESSURE", "Recipe", "area_for", "backward_recipe", "clamp", "floor_room",
           "make_recipe"]


HARDNESS = {  # how much each template leans toward hard levels (mixed picks by pressure)
    "courtyard": 0.0, "pillars": 0.2, "split": 0.1, "island": 0.35, "notched": 0.4,
    "stepped": 0.45, "cross": 0.6, "comb": 0.7, "twin": 0.8, "winding": 0.9,
}


@dataclass
class Recipe:
    """What one candidate aims at (drawn from the pressure and the fixed parameters)."""

    pressure: float
    template: str
    lengths: list[int]
    colors: int
    occupancy: float
    coats: int
    frozen: int
    frozen_holes: int
    locks: int
    gold: int
    exits: int  # potential exits the hole layout aims at
    reach: int  # hole candidates drawn per hole (the farthest wins)
    coats_first: bool  # coats join the spatial problem (else inserted along the solution)
    scramble: int  # most steps the start may be walked toward fewer potential exits
    hide_coats: bool  # coats of fresh colours whose holes the bodies cannot reach at first
    provable: bool = False  # leaning toward levels the exact search can settle
    backward: Plan | None = None  # built backwards from the solved board (reverse.py)


def clamp(x: float, lo: float, hi: float) -> float:
    """``x`` held within ``lo``..``hi``."""
    return min(hi, max(lo, x))


def _lengths(req: Request, n: int, total: int, rng: random.Random) -> list[int] | None:
    lo, hi = req.min_length, req.max_length
    if not n * lo <= total <= n * hi:
        return None
    lengths = [lo] * n
    spare = total - n * lo
    while spare > 0:
        choices = [i for i in range(n) if lengths[i] < hi]
        i = rng.choice(choices)
        add = min(spare, hi - lengths[i], 1 + rng.randrange(3))
        lengths[i] += add
        spare -= add
    lengths.sort(reverse=True)
    return lengths


def _template(req: Request, q: float, provable: bool, rng: random.Random) -> str:
    """The candidate's template: the request's, or for a mixed topology one drawn by the
    pressure ``q`` (a corridor-like one when ``provable``)."""
    if provable and req.topology == "mixed":
        return rng.choice(("winding", "comb", "island", "twin", "cross"))
    if req.topology == "mixed":
        weights = [1.0 - abs(HARDNESS[t] - min(q, 1.0)) * 1.2 for t in TEMPLATES]
        weights = [max(0.05, w) for w in weights]
        return rng.choices(TEMPLATES, weights)[0]
    return req.topology


def _body_count(req: Request, q: float, room: int, provable: bool, rng: random.Random) -> int:
    """The number of bodies when the request leaves it open: drawn by the pressure ``q`` (few
    when ``provable``), then fitted to the floor's ``room``, the colours and the locks."""
    n = int(clamp(round(1 + 7.5 * q + rng.uniform(-1.0, 1.0)), 1, 12))
    if provable:
        n = rng.randint(1, 3)
    if req.make_way:
        # A lone body is always solved one body at a time, and two make way only from a
        # fully blocked start (the blocking term at its ceiling): three at least.
        n = max(n, 3)
    if req.terrain()[1]:
        # A bridge binds where two bodies cross (one body crosses itself only when long and
        # folded back, which short bodies never are): two at least.
        n = max(n, 2)
    # A fixed floor holds at most this many bodies of the shortest length, each with its
    # hole, and a free cell (the count of the request's own check).
    n = min(n, max(1, (room - 1) // (req.min_length + 1)))
    if req.colors is not None:
        n = max(n, req.colors)
    if req.locks:
        n = max(n, req.locks + req.locks + (req.gold or 0) + 1)
    return n


def _colour_count(req: Request, q: float, n: int, rng: random.Random) -> int:
    """The number of outer colours of n bodies when the request leaves it open."""
    colors = int(clamp(round(1 + rng.uniform(0, 1) * min(n - 1, 1 + 4 * q)), 1, n))
    if req.make_way:
        colors = max(colors, 2)  # walled-in bodies of one colour could swap holes
    if req.terrain()[0]:
        colors = max(colors, min(n, 2))  # paint binds where a body of another colour enters
    return min(colors, len(req.palette))


def make_recipe(req: Request, pressure: float, rng: random.Random,
            provable: bool = False) -> Recipe | None:
    """A candidate's aims. ``provable`` leans toward levels whose minimum the exact search can
    prove: few bodies, long corridors (space and steps from geometry, not crowding) and
    mechanics, which add score without widening the search much."""
    q = clamp(pressure + rng.gauss(0, 0.07), 0.0, 1.15)
    template = _template(req, q, provable, rng)
    room = floor_room(req)
    n = req.bodies
    if n is None:
        n = _body_count(req, q, room, provable, rng)
    total = req.total
    if total is None:
        want = 70 * q * rng.uniform(0.85, 1.15) if q > 0.05 else 2 * n
        total = int(clamp(round(want), n * req.min_length, n * req.max_length))
        total = min(total, 350, room - 1 - n - (req.coats or 0))
    lengths = _lengths(req, n, total, rng)
    if lengths is None:
        return None
    colors = req.colors
    if colors is None:
        colors = _colour_count(req, q, n, rng)
    mech = q * rng.uniform(0.8, 1.3) if q > 0.2 else 0.0
    share = rng.uniform(0.35, 0.7)
    if provable:
        mech = min(1.2, 2 * mech + 0.3)
    coats = req.coats if req.coats is not None else min(3 * n, round(0.7 * n * mech * share))
    frozen = req.frozen if req.frozen is not None else min(n - 1, round(n * mech * 0.3))
    frozen_holes = req.frozen_holes if req.frozen_holes is not None else round(n * mech * 0.15)
    locks = req.locks if req.locks is not None else min(max(0, (n - 1) // 2),
                                                        round(n * mech * 0.12))
    gold = req.gold if req.gold is not None else (1 if locks and rng.random() < q - 0.4 else 0)
    gold = min(gold, locks)
    occupancy = clamp(0.25 + 0.6 * q + rng.gauss(0, 0.05), 0.12, 0.9)
    exits = int(clamp(round(n * (1 - q) + rng.uniform(-0.5, 0.5)), 0, n))
    if req.make_way and n >= 2:
        # Two bodies at least wall each other's holes in, and one at least is free to leave
        # (a fully blocked start puts the blocking term at its ceiling).
        exits = int(clamp(exits, 1, n - 2)) if n >= 3 else 0
    reach = 1 + round(4 * q)
    coats_first = rng.random() < q * 0.3
    scramble = int(150 * q) if q > 0.7 else 0
    hide_coats = q > 0.85 and req.colors is None
    if hide_coats and req.coats is None:
        coats = min(3 * n, max(coats, n))
        coats_first = False
    if provable:
        scramble, hide_coats = 0, False
    if req.coats is None:
        coats = max(0, min(coats, room - 1 - n - total))  # the coats' holes fit the floor too
        # Coats past 0.6 n put the mechanics term at its ceiling with any freeze or lock.
        coats = min(coats, max(1, int(COATS_PER_BODY * n)))
    if total + n + coats + 1 > room:
        return None  # the fixed fields leave no room for this candidate's bodies
    if q >= BACKWARD_PRESSURE and not provable and (req.steps_max is None
                                                    or req.steps_max >= BACKWARD_MIN_STEPS):
        backward = backward_recipe(req, q, rng)
        if backward is not None:
            return backward
    return Recipe(q, template, lengths, colors, occupancy, coats, frozen, frozen_holes, locks,
                  gold, exits, reach, coats_first, scramble, hide_coats, provable)


COATS_PER_BODY = 0.6  # free coats at most this many a body (the mechanics term counts 0.7 n)
BACKWARD_PRESSURE = 0.95  # from here candidates are built backwards (reverse.py)
# Backward play leaves solutions of a hundred steps and more (about 72 body cells, every body
# coated): a request capped below this many steps gets none.
BACKWARD_MIN_STEPS = 100
BACKWARD_TEMPLATES = ("twin", "comb", "winding", "cross")


def backward_recipe(req: Request, q: float, rng: random.Random) -> Recipe | None:
    """The top of the range: a crowded board (occupancy just over 0.85), about 72 body cells,
    every body wearing one coat of a colour of its own whose hole it cannot reach at the start
    (blocking and shuffling in full), a template with narrow points (the space term), built
    backwards so that the solution comes with the level. None when fixed parameters rule it
    out (then the forward recipe is used)."""
    if req.colors is not None or (req.gold or 0) > 0:
        return None
    template = req.topology if req.topology != "mixed" else rng.choice(BACKWARD_TEMPLATES)
    n = req.bodies if req.bodies is not None else rng.randint(8, 10)
    base_colors = rng.randint(2, 3)
    if req.bodies is None and n + base_colors > len(req.palette):
        n = len(req.palette) - base_colors  # one colour of its own per body, within the palette
    base_colors = min(base_colors, n)  # every base colour on a body of its own
    if n < 1 or n + base_colors > len(req.palette) or (req.coats is not None and req.coats != n):
        return None
    total = req.total if req.total is not None else int(clamp(72 + rng.randint(0, 4),
                                                               n * req.min_length,
                                                               n * req.max_length))
    lo, hi = req.min_length, req.max_length
    if not n * lo <= total <= n * hi or total + 2 * n + 1 > floor_room(req):
        # The lengths cannot sum to a fixed total, or the bodies, a hole and a coat's hole
        # each need more than the fixed floor holds.
        return None
    # Lengths fall from long to short: the last bodies come back into the fullest board.
    mean = total / n
    spread = min(mean - lo, hi - mean, 4.0)
    lengths = [round(mean + spread * (1 - 2 * i / max(1, n - 1))) for i in range(n)]
    lengths = [int(clamp(x, lo, hi)) for x in lengths]
    i = 0
    while sum(lengths) != total:
        j = i % n
        step = 1 if sum(lengths) < total else -1
        if lo <= lengths[j] + step <= hi:
            lengths[j] += step
        i += 1
    lengths.sort(reverse=True)
    palette = rng.sample(req.palette, len(req.palette))
    base = [palette[rng.randrange(base_colors)] for _ in range(n)]
    for c in range(base_colors):  # every base colour in use
        base[c] = palette[c]
    rng.shuffle(base)
    coats = [[palette[base_colors + b]] for b in range(n)]
    occupancy = 0.85 + rng.uniform(0.0, 0.015)
    plan = Plan(lengths, base, coats, walk=30, seal=300)
    # Freezes and locks asked for are arranged along the backward-built solution afterwards,
    # as for a forward candidate (mechanics.add_dependencies).
    return Recipe(q, template, lengths, base_colors, occupancy, n, req.frozen or 0,
                  req.frozen_holes or 0, req.locks or 0, 0, 0, 0, False, 0,
                  False, False, plan)


def floor_room(req: Request) -> int:
    """The most floor cells a candidate's shape may have: the fixed ``size.cells``, else the
    fixed rectangle, else the largest floor a board holds."""
    if req.cells is not None:
        return req.cells
    if req.cols is not None and req.rows is not None:
        return min(req.cols * req.rows, MAX_FLOOR)
    return MAX_FLOOR


def area_for(req: Request, recipe: Recipe) -> int:
    """The floor area a candidate's shape is asked for."""
    if req.cells is not None:
        return req.cells
    holes = len(recipe.lengths) + recipe.coats
    need = sum(recipe.lengths) + holes
    if recipe.backward is not None:  # at least the occupancy asked, not just about it
        return int(clamp(math.floor(need / recipe.occupancy), need + 2, 400))
    area = math.ceil(need / recipe.occupancy)
    return int(clamp(area, need + 2, 400))
