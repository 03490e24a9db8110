"""Backward play (design/backward.py): every level it builds is solved by its recorded moves;
and tightening (snakes/solver/improve.py) of the long solutions it leaves."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from gridforge.snakes.design.backward import Plan, Unsolver, unsolve
from gridforge.snakes.design.score import floor_cells
from gridforge.snakes.design.templates import make_shape
from gridforge.snakes.design.topology import FloorGraph, potential_exits
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.rules import Game, IllegalStep, move_to_step


def _build(seed: int, template: str = "twin", area: int = 40,
           lengths: tuple[int, ...] = (6, 5, 4, 3)) -> tuple[Unsolver, dict, int] | None:
    rng = random.Random(seed)
    shape = make_shape(template, area, rng)
    n = len(lengths)
    plan = Plan(list(lengths), [0] * n, [[1 + b] for b in range(n)], walk=12, seal=60,
                tries=2)
    built = unsolve(shape.floor, plan, rng)
    if isinstance(built, str):
        return None
    board, left = built
    return board, board.level(shape.cols, shape.rows, shape.stones), left


@pytest.mark.parametrize("template", ["twin", "comb", "winding", "cross", "courtyard"])
def test_unsolve_forward_moves_solve_the_level(template):
    built = [b for b in (_build(seed, template) for seed in range(4)) if b is not None]
    assert built, "backward play found room on none of the seeds"
    for board, data, _left in built:
        level = level_from_json(data)
        game = Game(level)
        states = game.replay([move_to_step(m) for m in board.forward()])
        assert game.is_complete(states[-1])
        # every body wears the coat it was given, over its base colour
        assert all(len(b.colors) == 2 for b in level.bodies)


def test_unsolve_exits_agree_with_the_score_reading():
    for seed in range(6):
        built = _build(seed)
        if built is None:
            continue
        board, data, left = built
        level = level_from_json(data)
        floor = floor_cells(level)
        graph = FloorGraph(level.cols, level.rows, floor)
        bodies = [(b.cells, b.colors) for b in level.bodies]
        holes = [(h.cell, h.color) for h in level.holes]
        assert board.exits() == potential_exits(graph, bodies, holes)
        assert sum(board.exits()) == left


def test_unsolve_same_seed_same_level():
    first = _build(3)
    again = _build(3)
    assert first is not None and again is not None
    assert json.dumps(first[1], sort_keys=True) == json.dumps(again[1], sort_keys=True)
    assert first[0].forward() == again[0].forward()


def test_backward_slide_is_undone_by_its_forward_move():
    rng = random.Random(5)
    shape = make_shape("courtyard", 20, rng)
    board = Unsolver(shape.floor, rng)
    b = board.try_spawn(4, [1, 0])
    assert b == 0
    for _ in range(6):
        end, target = board.slides(b)[0]
        board.slide(b, end, target)
    level = level_from_json(board.level(shape.cols, shape.rows, shape.stones))
    game = Game(level)
    assert game.is_complete(game.replay([move_to_step(m) for m in board.forward()])[-1])


def test_backward_candidate_blocks_every_body():
    from gridforge.snakes.design.pipeline import _backward, _Tally
    from gridforge.snakes.design.recipe import backward_recipe as _backward_recipe
    from gridforge.snakes.design.request import parse_request

    req = parse_request({"target": 100, "seed": 1})
    rng = random.Random(7)
    recipe = _backward_recipe(req, 1.0, rng)
    assert recipe is not None and recipe.backward is not None
    assert recipe.colors + len(recipe.lengths) <= 15
    shape = make_shape("twin", 60, rng)
    plan = Plan([7, 6, 5, 4], [0, 1, 0, 1], [[2], [3], [4], [5]], walk=20, seal=200)
    tally = _Tally()
    for _ in range(6):
        built = _backward(shape, plan, rng, tally)
        if built is None:
            continue
        data, moves = built
        level = level_from_json(data)
        game = Game(level)
        assert game.is_complete(game.replay([move_to_step(m) for m in moves])[-1])
        graph = FloorGraph(level.cols, level.rows, floor_cells(level))
        exits = potential_exits(graph, [(b.cells, b.colors) for b in level.bodies],
                                [(h.cell, h.color) for h in level.holes])
        assert not any(exits)
        return
    pytest.fail(f"no blocked backward level in 6 tries: {tally.reasons}")


def _courtyard_games(seeds: int) -> Iterator[tuple[Game, list[int]]]:
    """Small backward-built courtyard levels and their recorded solutions."""
    for seed in range(seeds):
        built = _build(seed, "courtyard", 30, (5, 4, 3))
        if built is not None:
            board, data, _left = built
            yield Game(level_from_json(data)), board.forward()


def test_tighten_never_lengthens_and_still_solves():
    from gridforge.snakes.solver.improve import tighten
    from gridforge.snakes.solver.search import shorten

    checked = 0
    for game, moves in _courtyard_games(6):
        short = shorten(game, moves)
        tight = tighten(game, short, depth=4, max_states=200)
        assert len(tight) <= len(short) <= len(moves)
        assert game.is_complete(game.replay([move_to_step(m) for m in tight])[-1])
        checked += 1
    assert checked


def test_tighten_removes_a_detour_that_shorten_keeps():
    from gridforge.snakes.solver.improve import tighten
    from gridforge.snakes.solver.search import shorten

    for game, forward in _courtyard_games(8):
        moves = shorten(game, forward)
        s0 = game.initial
        m0, m1 = moves[0], moves[1]
        s2 = game.apply(game.apply(s0, m0), m1)
        if s2[game.n + 1] != s0[game.n + 1]:
            continue  # keep the example to plain slides
        movers = {m0 >> 3, m1 >> 3}
        for x, sx, _ in game.successors(s0, game.occupancy(s0)):
            if x >> 3 in movers or sx[game.n + 1] != s0[game.n + 1]:
                continue
            try:
                s3 = game.apply(game.apply(sx, m0), m1)
            except IllegalStep:
                continue
            back = [m for m, child, _ in game.successors(s3, game.occupancy(s3)) if child == s2]
            if not back:
                continue
            detour = [x, m0, m1, back[0], *moves[2:]]
            assert len(shorten(game, detour)) == len(detour)  # no cycle, no one-step cut
            tight = tighten(game, detour, depth=3, max_states=500)
            assert len(tight) <= len(moves)
            assert game.is_complete(game.replay([move_to_step(m) for m in tight])[-1])
            return
    pytest.fail("no level with a detour to remove")
