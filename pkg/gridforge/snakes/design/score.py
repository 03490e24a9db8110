"""The seven-term design score of a snakes level (seed 004, section 3; spec section 6).

``clip(x) = min(1, max(0, x))``; each term is its weight times a normalised value in [0, 1];
the total (0..100) is rounded to one decimal at the end:

==========  ======  =========================================================================
term        weight  normalised value
==========  ======  =========================================================================
occupancy   18      clip((occupancy - 0.25) / 0.60), occupancy = (body cells + holes) / floor
body scale  12      clip(body cells / 70)
steps       18      clip(solution steps / 100), on the final (shortened) solution
blocking    14      1 - initial potential exits / bodies
mechanics   12      clip(extra layers / (0.7 n) + frozen thresholds / (5 n)
                    + (key bodies + lock bodies + terrain) / (1.1 n)); terrain: the painted
                    cells (the designer places only binding ones, with a witness each)
                    and the bridges the solution crosses (spec section 3b)
shuffling   8       0.55 [no potential exit] + 0.45 clip(shuffle steps / max(4, 0.2 body cells))
space       18      sqrt(0.45 B^2 + 0.25 D^2 + 0.20 N^2 + 0.10 F^2)  (see topology)
==========  ======  =========================================================================

Readings fixed here (the seed and spec leave them open; docs/snakes-designer.md records them):
the frozen-threshold sum counts frozen bodies and frozen holes; shuffle runs are split at
exits, so a coat exit in the middle of one body's moves ends a run; D's bounds include the
remaining inner layers (section 5's lower bound), computed with the seed's cost
``max(1, d - 1)`` even where the solver uses a stronger bound, so that the score's meaning does
not move when the solver improves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from gridforge.snakes.design.topology import FloorGraph, Space, analyse_space, potential_exits
from gridforge.snakes.game.certfile import Score
from gridforge.snakes.game.level import Level
from gridforge.snakes.game.levelfile import Step
from gridforge.snakes.game.rules import Game, State, step_to_move
from gridforge.snakes.solver.puzzle import crossed_bridges, travel_bound

WEIGHTS: tuple[tuple[str, int], ...] = (
    ("occupancy", 18), ("body_scale", 12), ("steps", 18), ("blocking", 14),
    ("mechanics", 12), ("shuffling", 8), ("space", 18),
)


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


def occupancy_term(occupancy: float) -> float:
    """The occupancy term's normalised value for an occupancy ratio."""
    return _clip((occupancy - 0.25) / 0.60)


def body_scale_term(body_cells: int) -> float:
    """The body-scale term's normalised value for a number of body cells."""
    return _clip(body_cells / 70)


def steps_term(steps: int) -> float:
    """The steps term's normalised value for a solution length."""
    return _clip(steps / 100)


def mechanics_term(n: int, extra_layers: int, frozen_sum: int, key_lock_bodies: int,
                   terrain: int = 0) -> float:
    """The mechanics term's normalised value for ``n`` bodies; ``terrain`` counts the
    pieces of terrain that bind (spec section 3b), each weighed like a key or lock body."""
    return _clip(extra_layers / (n * 0.7) + frozen_sum / (n * 5)
                 + (key_lock_bodies + terrain) / (n * 1.1))


def _r(x: float) -> float:
    """Round a reported float (4 decimals) so that the JSON stays short and stable."""
    return round(x, 4)


def floor_cells(level: Level) -> list[tuple[int, int]]:
    """The level's floor cells in row-major order."""
    stones = set(level.stones)
    return [(x, y) for y in range(level.rows) for x in range(level.cols) if (x, y) not in stones]


def shuffle_steps(game: Game, steps: Sequence[Step], states: Sequence[State] | None = None) -> int:
    """Steps of every maximal run of one body's consecutive steps that does not end in an exit
    (a run ends at an exit or when another body moves)."""
    if states is None:
        states = game.replay(steps)
    n = game.n
    total = 0
    run = 0
    prev_body = -1
    for i, step in enumerate(steps):
        body = step_to_move(step) >> 3
        exit_now = states[i + 1][n + 1] != states[i][n + 1]
        if body != prev_body:
            total += run  # the previous run ended without an exit
            run = 0
            prev_body = body
        run += 1
        if exit_now:
            run = 0
            prev_body = -1
    return total + run


def space_inputs(level: Level) -> tuple[list[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]],
                                        list[tuple[tuple[int, int], int]]]:
    """Bodies and holes of a level as the topology module's plain data."""
    bodies = [(b.cells, b.colors) for b in level.bodies]
    holes = [(h.cell, h.color) for h in level.holes]
    return bodies, holes


def score_level(level: Level, solution: Sequence[Step], *, diagnostics: bool = True,
                game: Game | None = None) -> Score:
    """The seven-term score of ``level`` judged on the full ``solution`` (JSON steps).

    Returns ``{"total", "contributions", "normalised", "weights", "diagnostics"}``;
    ``diagnostics=False`` skips only what the total does not use: the all-pairs floor
    diagnostics (diameter and mean detour ratio) and the travel bound with the solution's
    interaction steps (its steps beyond that bound, spec section 5b).

    :raises IllegalStep: when the solution does not replay.
    """
    game = game if game is not None else Game(level)
    states = game.replay(solution)
    n = len(level.bodies)
    floor = floor_cells(level)
    bodies, holes = space_inputs(level)
    body_cells = sum(len(b.cells) for b in level.bodies)
    lengths = [len(b.cells) for b in level.bodies]
    occupancy = (body_cells + len(level.holes)) / len(floor)
    graph = FloorGraph(level.cols, level.rows, floor)
    exits = potential_exits(graph, bodies, holes)
    exit_count = sum(exits)
    extra_layers = sum(len(b.colors) - 1 for b in level.bodies)
    frozen_sum = sum(b.frozen for b in level.bodies) + sum(h.frozen for h in level.holes)
    key_bodies = sum(1 for b in level.bodies if b.key is not None)
    lock_bodies = sum(1 for b in level.bodies if b.lock is not None)
    shuffles = shuffle_steps(game, solution, states)
    space = analyse_space(level.cols, level.rows, floor, bodies, holes, diagnostics=diagnostics)

    normalised = {
        "occupancy": occupancy_term(occupancy),
        "body_scale": body_scale_term(body_cells),
        "steps": steps_term(len(solution)),
        "blocking": 1 - exit_count / n,
        "mechanics": mechanics_term(n, extra_layers, frozen_sum, key_bodies + lock_bodies,
                                    len(level.paths) + len(crossed_bridges(game, states))),
        "shuffling": 0.55 * (exit_count == 0)
        + 0.45 * _clip(shuffles / max(4, body_cells * 0.2)),
        "space": space["value"],
    }
    contributions = {name: weight * normalised[name] for name, weight in WEIGHTS}
    total = round(sum(contributions[name] for name, _ in WEIGHTS), 1)
    # Every float of the diagnostics rounded (the same keys: still a Space).
    space_out = cast(Space, {k: (_r(v) if isinstance(v, float) else v)
                             for k, v in space.items()})
    return {
        "total": total,
        "contributions": {k: _r(v) for k, v in contributions.items()},
        "normalised": {k: _r(v) for k, v in normalised.items()},
        "weights": dict(WEIGHTS),
        "diagnostics": {
            "floor_cells": len(floor),
            "occupancy_ratio": _r(occupancy),
            "body_count": n,
            "body_cells": body_cells,
            "mean_length": _r(body_cells / n),
            "longest_body": max(lengths),
            "hole_count": len(level.holes),
            "solution_steps": len(solution),
            "potential_exits": exit_count,
            "potential_exit_bodies": [i for i, ok in enumerate(exits) if ok],
            "shuffle_steps": shuffles,
            "extra_layers": extra_layers,
            "frozen_threshold_sum": frozen_sum,
            "key_bodies": key_bodies,
            "lock_bodies": lock_bodies,
            "space": space_out,
            **(_interaction(game, len(solution)) if diagnostics else {}),
        },
    }


def _interaction(game: Game, steps: int) -> dict[str, int]:
    bound = travel_bound(game)
    return {"travel_bound": bound, "interaction_steps": steps - bound}
