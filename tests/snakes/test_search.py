"""Search: A* against exhaustive BFS, the bound against exact distances, the spec example."""

from __future__ import annotations

import random

import pytest
from gridforge.snakes.game.level import Level
from gridforge.snakes.game.rules import Game, step_to_move
from gridforge.snakes.solver.matching import INF
from gridforge.snakes.solver.search import Solver, bfs_optimum, goal_distances, hint, shorten
from gridforge.snakes.solver.selfcheck import FEATURES, feature_mix, random_level

from .fixtures import spec_example


def game(data) -> Game:
    return Game(Level.from_json(data))


def test_spec_example_minimum_is_proven_20():
    g = game(spec_example())
    result = Solver(g).solve(max_states=200_000, max_seconds=120)
    assert result.status == "solved" and result.optimal
    assert len(result.moves) == 20 == result.lower_bound == result.upper_bound
    assert g.is_complete(g.replay(result.steps)[-1])


@pytest.mark.parametrize("seed", range(12))
def test_solve_shorter_than_answers_a_short_solution_unproven_else_the_same(seed):
    level = random_level(seed, feature_mix(seed))
    full = Solver(game(level)).solve(max_states=50_000, max_seconds=1e9)
    n = len(full.moves) if full.moves is not None else 0
    for asked in (n + 1, n, 0):
        got = Solver(game(level)).solve(max_states=50_000, max_seconds=1e9, shorter_than=asked)
        if got.moves is not None and len(got.moves) < asked:
            assert not got.optimal or len(got.moves) == n  # a solution, proven or not
            assert g_replays(level, got)
        else:
            assert (got.status, got.moves, got.optimal) == (full.status, full.moves, full.optimal)


def g_replays(data, result) -> bool:
    g = game(data)
    return g.is_complete(g.replay(result.steps)[-1])


def test_spec_example_plain_astar_agrees():
    result = Solver(game(spec_example())).astar(max_states=200_000, max_seconds=120)
    assert result.status == "solved" and len(result.moves) == 20 and result.optimal


def batch(count):
    return [(i, random_level(i, feature_mix(i))) for i in range(count)]


@pytest.mark.cpython_only
def test_astar_agrees_with_bfs_on_200_levels():
    seen_features = set()
    solvable = 0
    for i, data in batch(200):
        g = game(data)
        for body in data["bodies"]:
            if len(body["colors"]) > 1:
                seen_features.add("coat")
            if "frozen" in body:
                seen_features.add("frozen_body")
            if "lock" in body:
                seen_features.add(body["lock"]["kind"])
        if any("frozen" in h for h in data["holes"]):
            seen_features.add("frozen_hole")
        expected = bfs_optimum(g)
        result = Solver(g).astar(max_states=10**6, max_seconds=600)
        got = len(result.moves) if result.moves is not None else None
        assert got == expected, (i, result.status)
        full = Solver(g).solve(max_states=10**6, max_seconds=600)
        assert (len(full.moves) if full.moves is not None else None) == expected, i
        assert full.optimal or expected is None
        solvable += expected is not None
    assert seen_features == {"coat", "frozen_body", "frozen_hole", "silver", "gold"}
    assert solvable >= 150


def test_astar_agrees_with_bfs_on_a_few_levels_of_each_feature():
    for i, data in batch(len(FEATURES) * 3):
        g = game(data)
        result = Solver(g).solve(max_states=10**6, max_seconds=600)
        assert (len(result.moves) if result.moves is not None else None) == bfs_optimum(g), i


@pytest.mark.search_heavy
def test_bound_never_exceeds_the_exact_distance_to_goal():
    checked_levels = 0
    checked_states = 0
    for i, data in batch(60):
        g = game(data)
        try:
            dist = goal_distances(g, max_states=20_000)
        except OverflowError:
            continue
        solver = Solver(g)
        for state, d in dist.items():
            assert solver.bound(state) <= d, (i, state)
        checked_levels += 1
        checked_states += len(dist)
    assert checked_levels >= 30 and checked_states >= 10_000


def test_pushed_estimates_and_settled_bounds_against_the_full_bound():
    for _, data in batch(25):
        g = game(data)
        solver = Solver(g)
        frontier = [g.initial]
        seen = {g.initial}
        for _ in range(6):
            nxt = []
            for state in frontier:
                assert solver.node_bound(state) == solver.bound(state)
                listed = {}
                for move, child, estimate, derived in solver.expand(state):
                    full = solver.bound(child)
                    assert derived == full or (derived >= INF and full >= INF)
                    assert estimate <= full
                    listed[move] = child
                for move, child, _ in g.successors(state, g.occupancy(state)):
                    if move in listed:
                        assert listed[move] == child
                    else:  # left out: dead, or reached by another move already
                        assert child in listed.values() or solver.bound(child) >= INF
                    if child not in seen:
                        seen.add(child)
                        nxt.append(child)
            frontier = nxt


def walk_and_check(g, solver, rng, steps):
    """Derive node after node along a random walk; each must equal the from-scratch bound."""
    key = solver.pack(g.initial)
    node = solver._scratch(key)
    state = g.initial
    checked = 0
    for _ in range(steps):
        options = g.successors(state, g.occupancy(state))
        if not options or node[0] >= INF:
            break
        move, child, _ = options[rng.randrange(len(options))]
        child_key = solver.pack(child)
        assert solver.unpack(child_key) == child
        node = solver._derive(key, node, move, child_key)
        full = solver.bound(child)
        assert node[0] == full or (node[0] >= INF and full >= INF)
        if node[0] < INF:
            scratch = solver._scratch(child_key)
            assert scratch[0] == node[0]
            assert scratch[2:] == node[2:]  # bodies' steps, occupancy, bodies on the board
            assert node[3] == g.occupancy(child)
            for mine, theirs in zip(node[1], scratch[1], strict=True):
                assert (mine is None) == (theirs is None)
                if mine is not None:
                    assert sorted(mine[0]) == sorted(theirs[0])
                    assert mine[1].cost == theirs[1].cost
                    check_duals(mine[1])
        key, state = child_key, child
        checked += 1
    return checked


def check_duals(match):
    for r, row in enumerate(match.rows):
        for j in match.cols:
            assert match.u[r] + match.v[j] <= row[j]
        assert match.u[r] + match.v[match.col_of[r]] == row[match.col_of[r]]
        assert match.row_of[match.col_of[r]] == r


def test_derived_nodes_equal_scratch_along_random_walks():
    rng = random.Random(11)
    checked = 0
    levels = [random_level(i, feature_mix(i)) for i in range(60)]
    levels += [random_level(i, feature_mix(i), "medium") for i in range(12)]
    for data in levels:
        g = game(data)
        solver = Solver(g)
        for _ in range(4):
            checked += walk_and_check(g, solver, rng, 60)
    assert checked >= 5_000


def test_budget_gives_bounds_not_a_verdict():
    g = game(spec_example())
    result = Solver(g).astar(max_states=50)
    assert result.status == "budget" and result.moves is None
    assert 0 < result.lower_bound <= 20
    assert result.reason == "states"


def test_exhausted_space_is_unsolvable():
    # The only body is boxed in by a wrong-colour hole: supply matches, but no way out.
    data = {
        "format": "gridforge.snakes.level/1",
        "cols": 4,
        "rows": 2,
        "stones": [[2, 1], [3, 1]],
        "bodies": [
            {"cells": [[0, 0], [0, 1]], "colors": [1]},
            {"cells": [[1, 1], [1, 0]], "colors": [2]},
        ],
        "holes": [{"cell": [2, 0], "color": 1}, {"cell": [3, 0], "color": 2}],
    }
    g = game(data)
    assert bfs_optimum(g) is None
    result = Solver(g).solve()
    assert result.status == "unsolvable" and result.reason


def test_static_dead_checks():
    data = spec_example()
    data["bodies"][1]["frozen"] = 6  # five other layers only
    assert "frozen" in Solver(game(data)).dead_reason()
    assert Solver(game(spec_example())).dead_reason() == ""


def test_shorten_removes_cycles_and_shortcuts():
    g = game(spec_example())
    solution = Solver(g).solve().moves
    back_and_forth = [step_to_move([0, "tail", "R"]), step_to_move([0, "head", "L"])]
    # tail R then head L returns the 3-cell body to its start: a cycle on full states.
    assert g.apply(g.apply(g.initial, back_and_forth[0]), back_and_forth[1]) == g.initial
    assert shorten(g, back_and_forth + solution) == solution


def test_hint_is_the_first_step_of_a_shortest_solution():
    g = game(spec_example())
    state = g.replay([[0, "tail", "R"]])[-1]
    move, result = hint(g, state)
    assert move is not None and result.optimal
    after = g.apply(state, move)
    rest = Solver(g).astar(after, max_states=200_000)
    assert len(rest.moves) == len(result.moves) - 1


# Proven minima of medium random levels (regression data: the previous implementation, a
# tuple-state A* with full Hungarian bounds, proved the same numbers).
MEDIUM_MINIMA = {0: 14, 8: 24, 24: 19, 32: 18, 33: 22, 35: 18}


@pytest.mark.cpython_only
def test_medium_levels_keep_their_proven_minima():
    for seed, minimum in MEDIUM_MINIMA.items():
        g = game(random_level(seed, feature_mix(seed), "medium"))
        plain = Solver(g).astar(max_states=100_000, max_seconds=600)
        assert plain.status == "solved" and len(plain.moves) == minimum, seed
        full = Solver(g).solve(max_states=100_000, max_seconds=600)
        assert full.optimal and len(full.moves) == minimum == full.lower_bound, seed
        assert g.is_complete(g.replay(full.steps)[-1])
    # The fast search finds a solution where exact search runs out of states.
    g = game(random_level(40, feature_mix(40), "medium"))
    fast = Solver(g).solve(max_states=100_000, max_seconds=600)
    assert fast.status == "solved" and not fast.optimal
    assert fast.lower_bound <= len(fast.moves) and g.is_complete(g.replay(fast.steps)[-1])
