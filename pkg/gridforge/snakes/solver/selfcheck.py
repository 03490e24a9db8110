"""Self-checks of the engine and solver (spec section 8, ``gridforge check-designer``).

Seed 004 section 5: "小局面用独立穷举BFS校对，匹配算法用独立穷举分配校对". This module holds

- :data:`SPEC_EXAMPLE`: the example level of spec section 7 (minimum 20 steps), read from
  the package's data by :func:`gridforge.snakes.game.level.spec_example`.
- :func:`random_level`: tiny random boards that exhaustive BFS can settle (valid, supply
  equals demand per colour and region, 2-4 short bodies); ``features`` forces mechanics in
  ("coat", "frozen_body", "frozen_hole", "silver", "gold"); every choice comes from
  ``random.Random(seed)``. The tests use the same generator.
- :func:`check_astar_against_bfs`, :func:`check_bound_against_distances`,
  :func:`check_matching`, :func:`check_spec_example`, and :func:`run_all`, which the
  ``check-designer`` command prints (followed by the recheck of the shipped certificates,
  which needs the designer's score: ``gridforge.snakes.design.certify``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from gridforge.jsontypes import Json, JsonObject
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.game.level import Level, spec_example, validate_level
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.matching import brute_force_assignment, min_cost_assignment
from gridforge.snakes.solver.search import Solver, bfs_optimum, goal_distances

# The spec's example level (section 7, data/spec_example.json): the first self-check's input.
SPEC_EXAMPLE: JsonObject = spec_example()


FEATURES = ("coat", "frozen_body", "frozen_hole", "silver", "gold")
TERRAIN_FEATURES = ("path", "bridge")  # spec section 3b (checked on levels of their own)


@dataclass(frozen=True)
class SelfCheck:
    """One self-check's outcome: its name, its figures (what it counted) and its failures
    (none when it holds)."""

    check: str
    figures: dict[str, int | None]
    failures: list[str]

    @property
    def ok(self) -> bool:
        return not self.failures


def _walk(rng: random.Random, free: set[tuple[int, int]], length: int
          ) -> list[tuple[int, int]] | None:
    starts = sorted(free)
    rng.shuffle(starts)
    for start in starts[:10]:
        path = [start]
        while len(path) < length:
            x, y = path[-1]
            options = [
                c
                for c in ((x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y))
                if c in free and c not in path
            ]
            if not options:
                break
            path.append(rng.choice(options))
        if len(path) == length:
            return path
    return None


# Shapes of random levels: (cols, rows, bodies, body lengths); "small" settles by BFS.
SHAPES: dict[str, tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, ...]]] = {
    "small": ((3, 6), (3, 4), (2, 4), (2, 2, 3)),
    "medium": ((6, 8), (5, 7), (4, 6), (2, 3, 3, 4, 5)),
}


def random_level(seed: int, features: tuple[str, ...] = (), shape: str = "small") -> JsonObject:
    """A valid random level dict; retries internally until one validates."""
    rng = random.Random(seed)
    while True:
        level = _attempt(rng, features, SHAPES[shape])
        if level is not None and not validate_level(level):
            return level


def _attempt(
    rng: random.Random, features: tuple[str, ...], shape: tuple[Any, ...]
) -> JsonObject | None:
    (c_lo, c_hi), (r_lo, r_hi), (b_lo, b_hi), lengths = shape
    cols = rng.randint(c_lo, c_hi)
    rows = rng.randint(r_lo, r_hi)
    cells = [(x, y) for y in range(rows) for x in range(cols)]
    stones = [c for c in cells if rng.random() < 0.1]
    free = set(cells) - set(stones)
    need_bodies = 3 if "gold" in features else 2 if "silver" in features else 1
    nbodies = rng.randint(max(b_lo, need_bodies), b_hi)
    ncolors = rng.randint(1, 3)
    bodies: list[JsonObject] = []
    body_colors: list[list[int]] = []
    for _ in range(nbodies):
        path = _walk(rng, free, rng.choice(lengths))
        if path is None:
            return None
        free -= set(path)
        layers = 1
        if ("coat" in features and not bodies) or rng.random() < 0.15:
            layers = 2
        colors = [rng.randrange(ncolors) for _ in range(layers)]
        body_colors.append(colors)
        bodies.append({"cells": [list(c) for c in path], "colors": list[Json](colors)})
    holes: list[JsonObject] = []
    demand = [c for colors in body_colors for c in colors]
    spots = sorted(free)
    rng.shuffle(spots)
    if len(spots) < len(demand):
        return None
    for color, spot in zip(demand, spots, strict=False):
        holes.append({"cell": list(spot), "color": color})
    total = len(demand)
    if "frozen_body" in features or rng.random() < 0.1:
        b = rng.randrange(nbodies)
        others = total - len(body_colors[b])
        if others >= 1:
            bodies[b]["frozen"] = rng.randint(1, others)
    if ("frozen_hole" in features or rng.random() < 0.1) and total >= 2:
        rng.choice(holes)["frozen"] = rng.randint(1, total - 1)
    if "gold" in features:
        order = rng.sample(range(nbodies), 3)
        bodies[order[0]]["lock"] = {"id": "G", "kind": "gold"}
        bodies[order[1]]["key"] = "G"
        bodies[order[2]]["key"] = "G"
    elif "silver" in features or (nbodies >= 2 and rng.random() < 0.1):
        a, k = rng.sample(range(nbodies), 2)
        bodies[a]["lock"] = {"id": "S", "kind": "silver"}
        bodies[k]["key"] = "S"
    level: JsonObject = {
        "format": "gridforge.snakes.level/1",
        "cols": cols,
        "rows": rows,
        "stones": [list(c) for c in stones],
        "bodies": list[Json](bodies),
        "holes": list[Json](holes),
    }
    # Terrain (spec section 3b), drawn only when asked: the other levels keep their bytes.
    bare = sorted(set(cells) - set(stones) - set(spots[:len(demand)]))
    if "path" in features or "bridge" in features:
        rng.shuffle(bare)
    if "path" in features:
        level["paths"] = [{"cell": list(c), "color": rng.randrange(ncolors + 1)}
                          for c in bare[:rng.randint(1, 3)]]
    if "bridge" in features:  # on cells no body lies on (so none turns there)
        level["bridges"] = list[Json]([list[Json]([x, y]) for x, y in bare[3:]
                                       if (x, y) in free][:rng.randint(1, 2)])
    return level


def feature_mix(i: int) -> tuple[str, ...]:
    """The features forced into the i-th level of a test batch (cycles through all)."""
    return (FEATURES[i % len(FEATURES)],)


def check_astar_against_bfs(count: int = 200, progress: Progress = NO_PROGRESS) -> SelfCheck:
    """A* (plain and with the fast upper bound) against BFS optimal step counts."""
    failures: list[str] = []
    solvable = 0
    for i in range(count):
        progress.step(i, count, "A* vs BFS")
        game = Game(Level.from_json(random_level(i, feature_mix(i))))
        expected = bfs_optimum(game)
        solvable += expected is not None
        solver = Solver(game)
        for name, result in (
            ("astar", solver.astar(max_states=10**6, max_seconds=600)),
            ("solve", solver.solve(max_states=10**6, max_seconds=600)),
        ):
            got = None if result.moves is None else len(result.moves)
            if got != expected or (got is not None and not result.optimal):
                failures.append(f"level {i}: {name} {got} vs BFS {expected}")
    return SelfCheck("astar_vs_bfs", {"levels": count, "solvable": solvable}, failures)


def check_terrain_against_bfs(count: int = 60, progress: Progress = NO_PROGRESS) -> SelfCheck:
    """A* against BFS optimal step counts on random levels with coloured paths or bridges."""
    failures: list[str] = []
    solvable = 0
    for i in range(count):
        progress.step(i, count, "A* vs BFS with terrain")
        game = Game(Level.from_json(random_level(i, (TERRAIN_FEATURES[i % 2],))))
        expected = bfs_optimum(game)
        found = Solver(game).solve()
        got = found.upper_bound if found.status == "solved" else None
        if got != expected or (got is not None and not found.optimal):
            failures.append(f"terrain level {i}: A* {got}, BFS {expected}")
        solvable += expected is not None
    return SelfCheck("astar_vs_bfs_terrain", {"levels": count, "solvable": solvable}, failures)


def check_bound_against_distances(
    count: int = 40, progress: Progress = NO_PROGRESS
) -> SelfCheck:
    """The lower bound never exceeds the exact distance to the goal of any reachable state."""
    failures: list[str] = []
    states = 0
    levels = 0
    for i in range(count):
        progress.step(i, count, "bound vs exact distance")
        game = Game(Level.from_json(random_level(i, feature_mix(i))))
        try:
            dist = goal_distances(game, max_states=20_000)
        except OverflowError:
            continue
        levels += 1
        solver = Solver(game)
        for state, d in dist.items():
            states += 1
            if solver.bound(state) > d:
                failures.append(f"level {i}: bound {solver.bound(state)} > distance {d}")
                break
    return SelfCheck("bound_vs_bfs", {"levels": levels, "states": states}, failures)


def check_matching(count: int = 500, seed: int = 4) -> SelfCheck:
    """The Hungarian assignment against brute force on random matrices."""
    rng = random.Random(seed)
    failures: list[str] = []
    for i in range(count):
        n = rng.randint(1, 5)
        m = rng.randint(n, 7)
        cost = [[rng.randint(0, 25) for _ in range(m)] for _ in range(n)]
        if min_cost_assignment(cost)[0] != brute_force_assignment(cost):
            failures.append(f"matrix {i}: {cost}")
    return SelfCheck("matching_vs_brute_force", {"matrices": count}, failures)


def check_spec_example() -> SelfCheck:
    """The spec's example level: A* must prove its minimum of 20 steps."""
    result = Solver(Game(Level.from_json(SPEC_EXAMPLE))).solve(max_states=200_000)
    steps = None if result.moves is None else len(result.moves)
    failures = [] if steps == 20 and result.optimal else [f"got {steps} (optimal {result.optimal})"]
    return SelfCheck("spec_example_minimum", {"steps": steps}, failures)


def run_all(progress: Progress = NO_PROGRESS, *, levels: int = 200) -> list[SelfCheck]:
    """Every self-check of the game, in a fixed order."""
    return [
        check_spec_example(),
        check_matching(),
        check_astar_against_bfs(levels, progress),
        check_terrain_against_bfs(max(10, levels // 4), progress),
        check_bound_against_distances(max(10, levels // 5), progress),
    ]
