"""Move the snakes palette so that every colour reads 3:1 against the board's floor (issue 44,
WCAG 1.4.11) while every pair stays 20 apart in CIEDE2000 and each colour 16 from a stone.

Deterministic: seeded simulated annealing (a counted number of moves, never seconds) from
targets in the issue-23 palette's hues (its colours, the light ones darkened: yellow, orange,
cyan and pink a shade deeper, mint and periwinkle as olive and slate blue), each colour pulled
back towards its target (the first ten, the main line's, three times as hard), so the colours
move as little as the bounds allow. Prints the
palette found and its weakest figures; web/palette.js holds the one this printed with the
defaults.

    python3 bench/palette_contrast.py [--seed 44] [--moves 40000]
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable
from typing import Any

from tests.test_palette import delta_e_2000, srgb_to_lab

# The targets each colour is pulled back towards (issue 23's palette in its hues, see above).
OLD = ["#d62728", "#1f5fd6", "#2ca02c", "#b89a00", "#a040d0", "#e86a00", "#0aa0b0", "#e0409a",
       "#7a4a1e", "#1a1a1a", "#006655", "#6b8e23", "#000077", "#6a5acd", "#660022"]
WEIGHTS = [3] * 10 + [1] * 5
FLOOR = "#efe9dc"   # --floor, both themes (web/theme.css)
STONE = "#5c6169"
CONTRAST, APART, FROM_STONE = 3.12, 20.6, 16.0  # a little over the tests' 3, 20 and 15


def luminance(rgb: list[int]) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2])


def hexed(rgb: list[int]) -> str:
    return "#" + "".join(f"{v:02x}" for v in rgb)


Cost = Callable[[list[int], tuple[float, float, float], int, list[Any]], float]


def anneal(start: list[str], cost: Cost, moves: int, rng: random.Random, cooling: float
           ) -> tuple[list[list[int]], list[Any]]:
    """Simulated annealing over the colours ``start`` (hex): ``moves`` moves of one colour's
    channels by up to 12, a worse one kept with the Metropolis chance at a temperature from
    30 down by ``cooling`` a move; the colours and their CIELAB values."""
    cols = [[int(c[k:k + 2], 16) for k in (1, 3, 5)] for c in start]
    labs: list[Any] = [srgb_to_lab(hexed(c)) for c in cols]
    temperature = 30.0
    for _ in range(moves):
        i = rng.randrange(len(cols))
        old, old_lab = cols[i][:], labs[i]
        before = cost(cols[i], labs[i], i, labs)
        cols[i] = [min(255, max(0, v + rng.randint(-12, 12))) for v in cols[i]]
        labs[i] = srgb_to_lab(hexed(cols[i]))
        delta = (cost(cols[i], labs[i], i, labs) - before) * 2
        if delta > 0 and rng.random() > math.exp(-delta / temperature):
            cols[i], labs[i] = old, old_lab
        temperature = max(0.05, temperature * cooling)
    return cols, labs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--moves", type=int, default=40000)
    args = parser.parse_args()
    floor = luminance([int(FLOOR[i:i + 2], 16) for i in (1, 3, 5)])
    stone = srgb_to_lab(STONE)
    targets = [srgb_to_lab(c) for c in OLD]

    def cost(rgb: list[int], lab: tuple[float, float, float], i: int,
             labs: list[tuple[float, float, float]]) -> float:
        penalty = 0.0
        ratio = (floor + 0.05) / (luminance(rgb) + 0.05)
        penalty += max(0.0, CONTRAST - ratio) * 200
        penalty += max(0.0, FROM_STONE - delta_e_2000(lab, stone)) * 20
        for j, other in enumerate(labs):
            if j != i:
                penalty += max(0.0, APART - delta_e_2000(lab, other)) * 20
        return penalty + WEIGHTS[i] * delta_e_2000(lab, targets[i])

    cols, labs = anneal(OLD, cost, args.moves, random.Random(args.seed), 0.99985)
    print([hexed(c) for c in cols])
    pairs = min(delta_e_2000(labs[i], labs[j]) for i in range(len(labs)) for j in range(i))
    ratio = min((floor + 0.05) / (luminance(c) + 0.05) for c in cols)
    print(f"closest pair {pairs:.2f}, weakest contrast on the floor {ratio:.2f}:1, "
          f"closest to a stone {min(delta_e_2000(lab, stone) for lab in labs):.2f}")


if __name__ == "__main__":
    main()
