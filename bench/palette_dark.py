"""Find the snakes palette of the dark theme (issue 52): the board's floor is dark there, so
every body colour is a lighter shade of its light-theme colour, reading 3:1 or more against
the dark floor (WCAG 1.4.11) while every pair stays 20 apart in CIEDE2000 and each colour
16 from a stone and 20 from a hole's dark ground.

Deterministic: seeded simulated annealing (a counted number of moves, never seconds), each
colour starting from its light-theme colour and pulled back towards its hue and chroma (the
first ten, the main line's, three times as hard), so a player knows the same body in both
themes. Prints the palette found and its weakest figures; web/palette.js's DARK_PALETTE holds
the one this printed with the defaults.

    python3 bench/palette_dark.py [--seed 52] [--moves 60000]
"""

from __future__ import annotations

import argparse
import math
import random

from bench.palette_contrast import anneal, hexed, luminance
from tests.test_palette import delta_e_2000, palette, srgb_to_lab

WEIGHTS = [3] * 10 + [1] * 5
FLOOR = "#1e2229"   # --floor of the dark theme (web/theme.css)
STONE = "#8c939e"   # --stone of the dark theme
HOLE = "#07080a"    # --hole of the dark theme
CONTRAST, APART, FROM_STONE = 3.2, 20.6, 16.5  # a little over the tests' 3, 20 and 15


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("--moves", type=int, default=60000)
    args = parser.parse_args()
    light, _, count = palette()
    floor = luminance([int(FLOOR[i:i + 2], 16) for i in (1, 3, 5)])
    stone, hole = srgb_to_lab(STONE), srgb_to_lab(HOLE)
    targets = [srgb_to_lab(c) for c in light[:count]]

    def cost(rgb: list[int], lab: tuple[float, float, float], i: int,
             labs: list[tuple[float, float, float]]) -> float:
        penalty = max(0.0, CONTRAST - (luminance(rgb) + 0.05) / (floor + 0.05)) * 200
        penalty += max(0.0, FROM_STONE - delta_e_2000(lab, stone)) * 20
        penalty += max(0.0, APART - delta_e_2000(lab, hole)) * 20
        for j, other in enumerate(labs):
            if j != i:
                penalty += max(0.0, APART - delta_e_2000(lab, other)) * 20
        # The same hue and chroma as in the light theme; lightness is free to rise.
        target = targets[i]
        hue = math.hypot(lab[1] - target[1], lab[2] - target[2])
        return penalty + WEIGHTS[i] * (hue + 0.15 * abs(lab[0] - target[0]))

    cols, labs = anneal(light[:count], cost, args.moves, random.Random(args.seed), 0.99988)
    print([hexed(c) for c in cols])
    pairs = min(delta_e_2000(labs[i], labs[j]) for i in range(len(labs)) for j in range(i))
    ratio = min((luminance(c) + 0.05) / (floor + 0.05) for c in cols)
    print(f"closest pair {pairs:.2f}, weakest contrast on the floor {ratio:.2f}:1, "
          f"closest to a stone {min(delta_e_2000(lab, stone) for lab in labs):.2f}, "
          f"to a hole {min(delta_e_2000(lab, hole) for lab in labs):.2f}")


if __name__ == "__main__":
    main()
