"""Min-cost assignment: the Hungarian algorithm against brute force."""

from __future__ import annotations

import random

from gridforge.snakes.matching import (
    INF,
    brute_force_assignment,
    hungarian,
    min_cost,
    min_cost_assignment,
)
from hypothesis import given
from hypothesis import strategies as st


@st.composite
def matrices(draw):
    n = draw(st.integers(1, 5))
    m = draw(st.integers(n, 6))
    cell = (
        st.one_of(st.integers(0, 30), st.just(INF)) if draw(st.booleans()) else st.integers(0, 30)
    )
    return [[draw(cell) for _ in range(m)] for _ in range(n)]


@given(matrices())
def test_hungarian_agrees_with_brute_force(cost):
    expected = brute_force_assignment(cost)
    total, assign = min_cost_assignment(cost)
    assert total == expected
    assert min_cost(cost) == expected
    assert len(set(assign)) == len(assign)
    if total < INF:
        assert sum(cost[i][j] for i, j in enumerate(assign)) == total


def test_hungarian_agrees_with_brute_force_on_fixed_seeds():
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(1, 5)
        m = rng.randint(n, 7)
        cost = [[rng.randint(0, 20) for _ in range(m)] for _ in range(n)]
        assert min_cost_assignment(cost)[0] == brute_force_assignment(cost)


def test_greedy_trap():
    # Greedy row by row takes column 0 for row 0 (cost 1) and pays 100 for row 1.
    cost = [[1, 2], [1, 100]]
    assert min_cost_assignment(cost) == (3, [1, 0])


def test_infeasible_and_empty():
    assert min_cost_assignment([]) == (0, [])
    assert min_cost([[INF, INF], [INF, 3]]) >= INF


@given(matrices())
def test_hungarian_duals_are_feasible_and_tight(cost):
    total, _, u, v = hungarian(cost)
    if total >= INF:
        return
    assert all(x <= 0 for x in v)
    assert all(u[i] + v[j] <= cost[i][j] for i in range(len(u)) for j in range(len(v)))
    assert sum(u) + sum(v) == total
