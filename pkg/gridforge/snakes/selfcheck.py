"""A small random level generator for the tests: tiny boards that exhaustive BFS can settle.

``random_level(seed)`` returns a valid level dict (supply equals demand per colour and
region) with 1-4 short bodies; ``features`` forces mechanics in: "coat", "frozen_body",
"frozen_hole", "silver", "gold". Every choice comes from ``random.Random(seed)``.
"""

from __future__ import annotations

import random
from typing import Any

from gridforge.snakes.level import validate_level

FEATURES = ("coat", "frozen_body", "frozen_hole", "silver", "gold")


def _walk(rng: random.Random, free: set[tuple[int, int]], length: int):
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


def random_level(seed: int, features: tuple[str, ...] = ()) -> dict[str, Any]:
    """A valid small level; retries internally until one validates."""
    rng = random.Random(seed)
    while True:
        level = _attempt(rng, features)
        if level is not None and not validate_level(level):
            return level


def _attempt(rng: random.Random, features: tuple[str, ...]) -> dict[str, Any] | None:
    cols = rng.randint(3, 6)
    rows = rng.randint(3, 4)
    cells = [(x, y) for y in range(rows) for x in range(cols)]
    stones = [c for c in cells if rng.random() < 0.1]
    free = set(cells) - set(stones)
    need_bodies = 3 if "gold" in features else 2 if "silver" in features else 1
    nbodies = rng.randint(max(2, need_bodies), 4)
    ncolors = rng.randint(1, 3)
    bodies: list[dict[str, Any]] = []
    for _ in range(nbodies):
        path = _walk(rng, free, rng.choice((2, 2, 3)))
        if path is None:
            return None
        free -= set(path)
        layers = 1
        if ("coat" in features and not bodies) or rng.random() < 0.15:
            layers = 2
        colors = [rng.randrange(ncolors) for _ in range(layers)]
        bodies.append({"cells": [list(c) for c in path], "colors": colors})
    holes = []
    demand = [c for b in bodies for c in b["colors"]]
    spots = sorted(free)
    rng.shuffle(spots)
    if len(spots) < len(demand):
        return None
    for color, spot in zip(demand, spots, strict=False):
        holes.append({"cell": list(spot), "color": color})
    total = len(demand)
    if "frozen_body" in features or rng.random() < 0.1:
        b = rng.randrange(nbodies)
        others = total - len(bodies[b]["colors"])
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
    return {
        "format": "gridforge.snakes.level/1",
        "cols": cols,
        "rows": rows,
        "stones": [list(c) for c in stones],
        "bodies": bodies,
        "holes": holes,
    }


def feature_mix(i: int) -> tuple[str, ...]:
    """The features forced into the i-th level of a test batch (cycles through all)."""
    return (FEATURES[i % len(FEATURES)],)
