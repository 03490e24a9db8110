"""The pairwise bound (snakes/solver/pairs.py): admissible against exhaustive search at every
reachable state of small levels, its relaxed A* equal to a plain BFS of the relaxed rules, the
partition DP equal to brute force, strictly above the matching bound where two bodies block each
other, and still admissible when its searches run out of states."""

from __future__ import annotations

from collections import deque

from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.matching import INF
from gridforge.snakes.solver.pairs import (
    PairBound,
    RelaxedCost,
    best_partition,
    pairwise_bound,
    relaxed_cost,
)
from gridforge.snakes.solver.search import Solver, bfs_optimum, goal_distances
from gridforge.snakes.solver.selfcheck import FEATURES, random_level
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .fixtures import level_dict

FEW = settings(max_examples=12, deadline=None, database=None,
               suppress_health_check=[HealthCheck.too_slow])

# A corridor 7 cells long with a pocket two cells deep under its middle: body 0 must reach the
# right end, body 1 the left end, so one of them waits in the pocket for the other. The
# matching bound sees 4 + 4 steps; the minimum is 11.
CORRIDOR = level_dict(
    7, 3,
    [{"cells": [[2, 0], [1, 0]], "colors": [0]}, {"cells": [[4, 0], [5, 0]], "colors": [1]}],
    [{"cell": [6, 0], "color": 0}, {"cell": [0, 0], "color": 1}],
    stones=[[x, y] for y in (1, 2) for x in range(7) if x != 3],
)


def game_of(data) -> Game:
    return Game(level_from_json(data))


def small_game(seed: int, feature: str) -> Game:
    return game_of(random_level(seed, (feature,) if feature else ()))


def check_state(game: Game, state, exact: int, pair_states: int = 20_000) -> PairBound:
    """The bound at one state: admissible, and the max of its two parts."""
    got = pairwise_bound(game, state, pair_states=pair_states)
    assert got.bound <= exact, (state, exact, got)
    assert got.bound == max(got.matching, got.partition)
    assert got.matching == Solver(game).bound(state)
    return got


# ---------------------------------------------------------------- admissibility


@FEW
@given(st.integers(0, 10**6), st.sampled_from(("", *FEATURES)))
def test_admissible_at_every_state_of_random_small_levels(seed, feature):
    game = small_game(seed, feature)
    try:
        dist = goal_distances(game, max_states=1_500)
    except OverflowError:
        return  # too big to settle exhaustively here
    for state, d in dist.items():
        check_state(game, state, d)


def test_admissible_mid_way_with_coats_and_exited_bodies_and_sometimes_stronger():
    levels = states = stronger = exited = shed = 0
    for seed in range(24):
        game = small_game(seed, FEATURES[seed % len(FEATURES)])
        try:
            dist = goal_distances(game, max_states=1_200)
        except OverflowError:
            continue
        levels += 1
        n = game.n
        for state, d in dist.items():
            got = check_state(game, state, d)
            states += 1
            stronger += got.partition > got.matching
            exited += not all(state[:n]) and not game.is_complete(state)
            shed += any(state[b] and game.layers_shed(state, b) for b in range(n))
    assert levels >= 8 and states >= 2_000
    assert exited > 1_000 and shed > 500 and stronger > 40


def test_admissible_at_the_start_against_bfs_optimum():
    checked = 0
    for seed in range(40):
        game = small_game(seed, FEATURES[seed % len(FEATURES)])
        try:
            optimum = bfs_optimum(game, max_states=20_000)
        except OverflowError:
            continue
        got = pairwise_bound(game)
        if optimum is None:
            continue  # unsolvable: any bound is admissible
        assert got.bound <= optimum, (seed, got, optimum)
        checked += 1
    assert checked >= 20


# ---------------------------------------------------------------- the relaxed search


def relaxed_bfs(game: Game, state, bodies) -> int:
    """The relaxed game of pairs.py played by plain BFS on cell lists (INF: never done)."""
    level = game.level
    stones = set(level.stones)
    holes = {h.cell: (i, h.color) for i, h in enumerate(level.holes)}
    unused = {i for i, u in enumerate(game.used_holes(state)) if not u}
    colors = [level.bodies[b].colors for b in bodies]
    start = (tuple(tuple(game.body_cells(state, b)) for b in bodies),
             tuple(game.layers_shed(state, b) for b in bodies), frozenset())
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        (cells, sheds, taken), g = queue.popleft()
        if not any(cells):
            return g
        for k, own in enumerate(cells):
            if not own:
                continue
            others = {c for j, cs in enumerate(cells) if j != k for c in cs}
            for end in (0, -1):
                x, y = own[end]
                far = own[-1 - end]
                for t in ((x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y)):
                    if not (0 <= t[0] < level.cols and 0 <= t[1] < level.rows) or t in stones:
                        continue
                    if t in others or (t in own and (t != far or len(own) < 3)):
                        continue
                    moved = (t, *own[:-1]) if end == 0 else (*own[1:], t)
                    nexts = [(moved, sheds[k], taken)]
                    hole = holes.get(t)
                    if (t not in own and hole and hole[0] in unused and hole[0] not in taken
                            and hole[1] == colors[k][sheds[k]]):
                        left = sheds[k] + 1 < len(colors[k])
                        nexts.append((own if left else (), sheds[k] + 1 if left else 0,
                                      taken | {hole[0]}))
                    for new_cells, new_shed, new_taken in nexts:
                        child = (tuple(new_cells if j == k else c for j, c in enumerate(cells)),
                                 tuple(new_shed if j == k else s for j, s in enumerate(sheds)),
                                 new_taken)
                        if child not in seen:
                            seen.add(child)
                            queue.append((child, g + 1))
    return INF


@FEW
@given(st.integers(0, 10**6), st.sampled_from(("", *FEATURES)), st.integers(0, 30))
def test_relaxed_astar_equals_plain_bfs_of_the_relaxed_rules(seed, feature, walk):
    game = small_game(seed, feature)
    # A state a few steps in (deterministic walk), so holes may be used and coats shed.
    state = game.initial
    for i in range(walk):
        children = game.successors(state, game.occupancy(state))
        if not children:
            break
        state = children[(seed + 7 * i) % len(children)][1]
    on = [b for b in range(game.n) if state[b]]
    parts = [(b,) for b in on] + [(a, b) for i, a in enumerate(on) for b in on[i + 1:]]
    for part in parts:
        got = relaxed_cost(game, part, state, max_states=10**6)
        assert got.exact
        assert got.cost == relaxed_bfs(game, state, part), (part, state)


def test_relaxed_cost_of_the_corridor():
    game = game_of(CORRIDOR)
    assert relaxed_cost(game, [0]) == RelaxedCost(4, True, relaxed_cost(game, [0]).states)
    assert relaxed_cost(game, [1]).cost == 4
    assert relaxed_cost(game, [0, 1]).cost == 11
    tiny = relaxed_cost(game, [0, 1], max_states=1)
    assert not tiny.exact and tiny.cost <= 11


# ---------------------------------------------------------------- the partition DP


def brute_partition(singles, pairs, rest=None) -> int:
    """Every partition into singles and listed pairs, tried one by one."""
    rest = list(range(len(singles))) if rest is None else rest
    if not rest:
        return 0
    i, others = rest[0], rest[1:]
    best = singles[i] + brute_partition(singles, pairs, others)
    for j in others:
        if (i, j) in pairs:
            left = [k for k in others if k != j]
            best = max(best, pairs[(i, j)] + brute_partition(singles, pairs, left))
    return min(best, INF)


@st.composite
def cost_tables(draw):
    n = draw(st.integers(0, 8))
    singles = [draw(st.integers(0, 20)) for _ in range(n)]
    pairs = {}
    for i in range(n):
        for j in range(i + 1, n):
            if draw(st.booleans()):
                pairs[(i, j)] = draw(st.integers(0, 45))
    return singles, pairs


@settings(max_examples=300, deadline=None, database=None)
@given(cost_tables())
def test_partition_dp_equals_brute_force(table):
    singles, pairs = table
    assert best_partition(singles, pairs) == brute_partition(singles, pairs)


def test_partition_dp_on_sixteen_bodies_and_inf():
    singles = [1] * 16
    pairs = {(i, j): 3 + (i * j) % 5 for i in range(16) for j in range(i + 1, 16)}
    assert best_partition(singles, pairs) >= 8 * 3
    assert best_partition([INF, 2], {(0, 1): 5}) == INF


# ---------------------------------------------------------------- the corridor, budgets


def test_the_corridor_is_strictly_above_the_matching_bound():
    game = game_of(CORRIDOR)
    assert bfs_optimum(game) == 11
    got = pairwise_bound(game)
    assert got.matching == 8
    assert got.bound == got.partition == 11
    assert (got.pairs_exact, got.pairs_budget) == (1, 0)
    assert got.work > 0
    assert pairwise_bound(game) == got  # deterministic
    for state, d in goal_distances(game).items():
        check_state(game, state, d)


def test_tiny_budgets_stay_admissible():
    game = game_of(CORRIDOR)
    for budget in (0, 1, 2, 5):
        got = check_state(game, game.initial, 11, pair_states=budget)
        assert got.pairs_budget == 1 and got.pairs_exact == 0
    checked = 0
    for seed in range(30):
        game = small_game(seed, FEATURES[seed % len(FEATURES)])
        try:
            dist = goal_distances(game, max_states=400)
        except OverflowError:
            continue
        for state, d in dist.items():
            full = pairwise_bound(game, state)
            for budget in (1, 3, 12):
                got = check_state(game, state, d, pair_states=budget)
                if not (full.pairs_budget or full.singles_budget):
                    assert got.bound <= full.bound  # a budget only ever lowers the parts
            checked += 1
    assert checked >= 300


def test_dead_state_is_inf():
    # Body 1's only hole is walled off from it: no part (and no real play) can finish.
    data = level_dict(
        5, 2,
        [{"cells": [[0, 0], [0, 1]], "colors": [0]}, {"cells": [[4, 0], [4, 1]], "colors": [1]}],
        [{"cell": [1, 0], "color": 1}, {"cell": [3, 0], "color": 0}],
        stones=[[2, 0], [2, 1]],
    )
    game = Game(level_from_json(data, balanced=False))
    assert pairwise_bound(game).bound >= INF
