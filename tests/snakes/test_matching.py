"""Min-cost assignment: the Hungarian algorithm against brute force."""

from __future__ import annotations

import random
from operator import sub

from gridforge.snakes.solver.matching import (
    BLOCKED,
    INF,
    SquareMatch,
    augment,
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


@st.composite
def square_problems(draw):
    """A SquareMatch problem and a sequence of edits (replace, add, drop column, remove)."""
    width = draw(st.integers(1, 6))
    cols = sorted(draw(st.sets(st.integers(0, width - 1), min_size=1)))
    k = draw(st.integers(1, len(cols)))
    cell = st.integers(0, 12)
    if draw(st.booleans()):
        cell = st.one_of(cell, st.just(INF))
    row = st.tuples(*[cell] * width)
    real = [draw(row) for _ in range(k)]
    edits = draw(st.lists(st.tuples(st.sampled_from("RADX"), row, st.integers(0, 99)), max_size=5))
    return width, cols, real, edits


def brute(real, cols):
    return brute_force_assignment([[r[j] for j in cols] for r in real])


def assert_optimal_with_duals(match, real, cols):
    assert match.cost == min(INF, brute(real, cols))
    assert match.k == len(real) and list(match.cols) == cols
    assert sorted(match.col_of) == cols
    if match.cost < INF:
        for r, row in enumerate(match.rows):
            assert all(match.u[r] + match.v[j] <= row[j] for j in cols)
            assert match.u[r] + match.v[match.col_of[r]] == row[match.col_of[r]]


@given(square_problems())
def test_square_match_and_its_one_phase_edits_agree_with_brute_force(problem):
    width, cols, real, edits = problem
    match = SquareMatch.solve(real, cols, width)
    assert match is not None
    assert_optimal_with_duals(match, real, cols)
    for kind, row, pick in edits:
        if match.cost >= INF:
            break
        if kind == "R":
            i = pick % len(real)
            real[i] = row
            match = match.replace_row(i, row)
        elif kind == "A" and len(real) < len(cols):
            real.append(row)
            match = match.add_row(row)
        elif kind == "D" and len(real) < len(cols):
            col = cols[pick % len(cols)]
            cols = [j for j in cols if j != col]
            match = match.drop_column(col)
        elif kind == "X" and len(real) >= 2:
            i = pick % len(real)
            col = cols[pick % len(cols)]
            del real[i]
            cols = [j for j in cols if j != col]
            match = match.remove(i, col)
        assert_optimal_with_duals(match, real, cols)


def test_square_match_with_more_rows_than_columns_is_none():
    assert SquareMatch.solve([(1, 2), (3, 4)], [0], 2) is None


def emaxx_augment(rows, cols, row_of, u, v, i):
    """The e-maxx phase with per-iteration dual updates: the reference of ``augment``."""
    huge = 1 << 62
    virtual = len(v) - 1
    row_of[virtual] = i
    minv = [huge] * (virtual + 1)
    way = [virtual] * (virtual + 1)
    done = [False] * (virtual + 1)
    j0 = virtual
    while True:
        done[j0] = True
        i0 = row_of[j0]
        delta = huge
        j1 = -1
        for j in cols:
            if not done[j]:
                cur = rows[i0][j] - u[i0] - v[j]
                if cur < minv[j]:
                    minv[j] = cur
                    way[j] = j0
                if minv[j] < delta:
                    delta = minv[j]
                    j1 = j
        u[i] += delta
        for j in cols:
            if done[j]:
                u[row_of[j]] += delta
                v[j] -= delta
            else:
                minv[j] -= delta
        j0 = j1
        if row_of[j0] < 0:
            break
    while j0 != virtual:
        j1 = way[j0]
        row_of[j0] = row_of[j1]
        j0 = j1
    row_of[virtual] = -1


@given(square_problems())
def test_augment_makes_the_choices_and_duals_of_the_e_maxx_phase(problem):
    """Deferred dual updates: the same augmenting paths, ties and duals, phase by phase
    (rows inserted one by one, then each row taken out and put back with new costs)."""
    width, cols, real, edits = problem
    rows = [*real, *([(0,) * width] * (len(cols) - len(real)))]
    state = [[-1] * (width + 1), [0] * len(rows), [-BLOCKED] * (width + 1)]
    for j in cols:
        state[2][j] = 0
    mine = [list(x) for x in state]
    for i in range(len(rows)):
        augment(rows, cols, *mine, i)
        emaxx_augment(rows, cols, *state, i)
        assert mine == state
    for _, row, pick in edits:
        i = pick % len(rows)
        rows[i] = row
        for x in (mine, state):
            x[0][x[0].index(i)] = -1
            x[1][i] = min(map(sub, row, x[2]))  # feasible again; tight somewhere
        if min(row[j] for j in cols) >= INF:
            break
        augment(rows, cols, *mine, i)
        emaxx_augment(rows, cols, *state, i)
        assert mine == state


@given(square_problems())
def test_replace_row_with_its_best_reduced_cost_given_is_the_same_edit(problem):
    width, cols, real, edits = problem
    match = SquareMatch.solve(real, cols, width)
    assert match is not None
    for _, row, pick in edits:
        if match.cost >= INF:
            break
        i = pick % len(real)
        plain = match.replace_row(i, row)
        given_best = match.replace_row(i, row, -1, min(map(sub, row, match.v)))
        for name in ("rows", "k", "cols", "col_of", "row_of", "u", "v", "cost", "dmin"):
            assert getattr(plain, name) == getattr(given_best, name)
        # An edit that keeps the duals of the columns passes the memo on.
        assert (plain.memo is match.memo) == (plain.v is match.v)
        match = plain
