"""Mechanics along a solution: the scramble's exit count against the score's own reading."""

from __future__ import annotations

import random

import pytest
from gridforge.snakes.design.backward import Plan, unsolve
from gridforge.snakes.design.mechanics import _Exits
from gridforge.snakes.design.score import floor_cells
from gridforge.snakes.design.templates import make_shape
from gridforge.snakes.design.topology import FloorGraph, potential_exits
from gridforge.snakes.level import level_from_json
from gridforge.snakes.rules import Game


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
