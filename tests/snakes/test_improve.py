"""Shortening a known solution (snakes/solver/improve.py) and the weighted A* it restarts: never
longer, always legal, proven minima equal to exhaustive BFS, a second pass changes nothing."""

from __future__ import annotations

import random

import pytest
from gridforge.snakes.game.level import Level
from gridforge.snakes.game.rules import Game, Move
from gridforge.snakes.solver.improve import Budget, improve
from gridforge.snakes.solver.search import Solver, bfs_optimum
from gridforge.snakes.solver.selfcheck import feature_mix, random_level

from .fixtures import spec_example

SMALL = Budget(restarts=((3, 2, 3000), (3, 1, 3000), (2, 1, 2000)), exact_states=5000,
               suffix_states=500, window_states=100)


def game(data) -> Game:
    return Game(Level.from_json(data))


def detour(g: Game, moves: list[Move], rng: random.Random) -> list[Move]:
    """A legal but longer solution: wander a few random steps first and back (the wander is
    undone step by step, so it stays legal whatever it does)."""
    state = g.initial
    walk: list[Move] = []
    back: list[Move] = []
    for _ in range(rng.randint(1, 6)):
        options = [(m, c) for m, c, _ in g.successors(state, g.occupancy(state))
                   if c[g.n + 1] == state[g.n + 1]]  # slides only: they can be undone
        if not options:
            break
        move, child = rng.choice(options)
        reverse = [m for m, c, _ in g.successors(child, g.occupancy(child)) if c == state]
        if not reverse:
            break
        walk.append(move)
        back.insert(0, reverse[0])
        state = child
    return [*walk, *back, *moves]


def solved(data) -> tuple[Game, list[Move]] | None:
    g = game(data)
    found = Solver(g).fast(max_states=20_000, max_seconds=60)
    return None if found.moves is None else (g, found.moves)


def test_improve_never_lengthens_stays_legal_and_proves_only_true_minima():
    rng = random.Random(18)
    checked = proven = 0
    for i in range(60):
        pair = solved(random_level(i, feature_mix(i)))
        if pair is None:
            continue
        g, moves = pair
        given = detour(g, moves, rng)
        result = improve(g, given, SMALL)
        assert len(result.moves) <= len(given) and result.given == len(given)
        assert g.is_complete(_replay(g, result.moves))
        best = bfs_optimum(g)
        assert best is not None and result.lower_bound <= best <= len(result.moves)
        if result.optimal:
            assert len(result.moves) == best == result.lower_bound
            proven += 1
        checked += 1
    assert checked >= 40 and proven >= checked // 2


def _replay(g: Game, moves: list[Move]):
    state = g.initial
    for move in moves:
        state = g.apply(state, move)
    return state


def test_a_second_pass_gives_the_same_solution():
    # What verify relies on: a designed level verified with the designer's budgets keeps its
    # solution, its steps and so its score.
    rng = random.Random(7)
    for i in range(0, 40, 3):
        pair = solved(random_level(i, feature_mix(i)))
        if pair is None:
            continue
        g, moves = pair
        once = improve(g, detour(g, moves, rng), SMALL)
        twice = improve(g, once.moves, SMALL)
        assert twice.moves == once.moves and twice.optimal == once.optimal
        assert twice.lower_bound == once.lower_bound


def test_the_spec_example_is_shortened_to_its_proven_minimum():
    g = game(spec_example())
    moves = Solver(g).fast(max_states=50_000, max_seconds=60).moves
    assert moves is not None
    result = improve(g, detour(g, moves, random.Random(1)))
    assert result.optimal and len(result.moves) == 20 == result.lower_bound


def test_fractional_weights_solve_and_never_claim_a_proof_by_finding():
    g = game(spec_example())
    solver = Solver(g)
    for weight, scale in ((3, 2), (5, 4), (2, 1)):
        found = solver.astar(max_states=100_000, max_seconds=60, weight=weight, scale=scale)
        assert found.status == "solved" and not found.optimal and len(found.moves) >= 20
    exact = solver.astar(max_states=100_000, max_seconds=60, weight=4, scale=4)
    assert exact.optimal and len(exact.moves) == 20
    with pytest.raises(ValueError, match="below 1"):
        solver.astar(weight=1, scale=2)


def test_a_weighted_search_under_the_minimum_proves_it_by_exhaustion():
    g = game(spec_example())
    found = Solver(g).astar(max_states=200_000, max_seconds=60, upper=20, weight=3, scale=2)
    assert found.status == "exhausted_below_upper" and found.optimal
