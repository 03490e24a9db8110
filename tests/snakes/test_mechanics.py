"""Mechanics along a solution: the scramble's exit count against the score's own reading."""

from __future__ import annotations

import random

import pytest
from gridforge.snakes.design.backward import Plan, unsolve
from gridforge.snakes.design.mechanics import _Exits, _postponed_lock, _timings
from gridforge.snakes.design.score import floor_cells
from gridforge.snakes.design.templates import make_shape
from gridforge.snakes.design.topology import FloorGraph, potential_exits
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.rules import Game, IllegalStep, move_to_step
from gridforge.snakes.solver.search import Solver

from .fixtures import level_dict


@pytest.mark.parametrize("template", ["twin", "comb", "courtyard", "pillars"])
def test_scramble_exit_count_is_the_score_reading_on_every_walked_position(template):
    """The bit-set count the scramble ranks by equals topology.potential_exits (a plain BFS)
    on every position of random walks over crowded levels of several colours."""
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        shape = make_shape(template, 44, rng)
        plan = Plan([6, 5, 4, 3], [0, 1, 0, 1], [[2], [3], [4], [5]], walk=10, seal=40,
                    tries=2)
        built = unsolve(shape.floor, plan, rng)
        if isinstance(built, str):
            continue
        level = level_from_json(built[0].level(shape.cols, shape.rows, shape.stones))
        game = Game(level)
        graph = FloorGraph(level.cols, level.rows, floor_cells(level))
        holes = [(h.cell, h.color) for h in level.holes]
        counter = _Exits(game)
        state = game.initial
        occ = game.occupancy(state)
        for _ in range(60):
            bodies = [(game.body_cells(state, b), game.colors[b]) for b in range(game.n)]
            assert counter.count(state, occ) == sum(potential_exits(graph, bodies, holes))
            checked += 1
            # Walk on ordinary steps only (every hole stays unused, as in the scramble).
            steps = [(child, cocc) for _m, child, cocc in game.successors(state, occ)
                     if child[game.n + 1] == state[game.n + 1]]
            if not steps:
                break
            state, occ = rng.choice(steps)
    assert checked >= 60


def test_a_lock_that_binds_nowhere_is_made_by_postponing_a_body_until_its_keys_left():
    # Three bodies, each free to leave at once: the solution found moves body 0 first, so no
    # lock on a body binds as it stands. Postponed until the two others have left, body 0
    # takes a gold lock they carry the keys of: the old solution is the witness (the level
    # without the lock allows it, the real rules refuse it) and the new one plays.
    data = level_dict(5, 5, [{"cells": [[0, 0], [1, 0]], "colors": [0]},
                             {"cells": [[0, 4], [1, 4]], "colors": [1]},
                             {"cells": [[4, 2], [4, 3]], "colors": [2]}],
                      [{"cell": [3, 0], "color": 0}, {"cell": [3, 4], "color": 1},
                       {"cell": [2, 2], "color": 2}])
    game = Game(level_from_json(data))
    moves = Solver(game).astar(max_states=20_000, max_seconds=60.0).moves
    assert moves is not None
    first_move, gone = _timings(game, moves)
    built = _postponed_lock(data, moves, gone, first_move, [0, 1, 2], 2, "L1",
                            random.Random(3))
    assert built is not None
    after, postponed, keys = built
    locked = next(b for b, body in enumerate(after["bodies"]) if "lock" in body)
    assert sorted(keys) == sorted(set(range(3)) - {locked})
    assert after["bodies"][locked]["lock"] == {"id": "L1", "kind": "gold"}
    real = Game(level_from_json(after))
    assert real.is_complete(real.replay([move_to_step(m) for m in postponed])[-1])
    assert sorted(postponed) == sorted(moves)  # the same steps, reordered
    try:  # the given solution: refused with the lock, played without it
        refused = not real.is_complete(real.replay([move_to_step(m) for m in moves])[-1])
    except IllegalStep:
        refused = True
    assert refused and game.is_complete(game.replay([move_to_step(m) for m in moves])[-1])
