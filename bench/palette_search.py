"""Search a 15-colour palette for the snakes board (issue 23): every pair of the designer's
colours at least 20 apart in CIEDE2000, each colour readable on the board's grounds in both
themes (floor and hole at least 20, stone at least 15, as tests/test_theme.py asks).

Deterministic (seeded): the first ten colours of web/palette.js stay as they are (the main
line's colours stay recognisable); the remaining five are searched on a 4096-colour sRGB grid
by seeded greedy max-min picks refined by local swaps. Prints the best palette found and its
smallest distances; `--seed` and `--restarts` make other runs reproducible.

    python3 bench/palette_search.py [--seed 23] [--restarts 20]
"""

from __future__ import annotations

import argparse
import itertools
import random
from pathlib import Path

from tests.test_palette import delta_e_2000, palette, srgb_to_lab
from tests.test_theme import colour

ROOT = Path(__file__).resolve().parent.parent

KEEP = 10
WANT = 15
APART = 20.0


def grounds() -> list[tuple[str, float]]:
    """(colour, least distance) for the board's grounds in both themes."""
    out = []
    for theme in ("light", "dark"):
        out += [(colour(theme, "floor"), APART), (colour(theme, "hole"), APART),
                (colour(theme, "stone"), 15.0)]
    return out


def candidates(step: int = 17) -> list[str]:
    levels = range(0, 256, step)
    return [f"#{r:02x}{g:02x}{b:02x}" for r in levels for g in levels for b in levels]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--restarts", type=int, default=20)
    args = parser.parse_args()
    kept = palette()[0][:KEEP]
    lab = {c: srgb_to_lab(c) for c in kept}
    ground = [(srgb_to_lab(c), d) for c, d in grounds()]
    pool = []
    for c in candidates():
        lc = srgb_to_lab(c)
        if all(delta_e_2000(lc, g) >= d for g, d in ground) and \
                all(delta_e_2000(lc, lab[k]) >= APART for k in kept):
            pool.append(c)
            lab[c] = lc
    print(f"{len(pool)} grid colours stand {APART} from the kept ten and from the grounds")
    dist: dict[tuple[str, str], float] = {}

    def d(a: str, b: str) -> float:
        key = (a, b) if a < b else (b, a)
        if key not in dist:
            dist[key] = delta_e_2000(lab[a], lab[b])
        return dist[key]

    def worst(extra: list[str]) -> float:
        every = kept + extra
        return min(d(a, b) for a, b in itertools.combinations(every, 2))

    rng = random.Random(args.seed)
    best: list[str] = []
    best_score = -1.0
    for _ in range(args.restarts):
        extra: list[str] = []
        while len(extra) < WANT - KEEP:
            live = [c for c in pool if all(d(c, e) >= APART for e in extra)]
            if not live:
                break
            # Seeded greedy: among the colours farthest from everything chosen, pick one.
            scored = sorted(live, key=lambda c: -min(d(c, e) for e in kept + extra))
            extra.append(rng.choice(scored[:8]))
        if len(extra) < WANT - KEEP:
            continue
        score = worst(extra)
        for _ in range(200):  # local swaps: replace one pick by a random pool colour
            i = rng.randrange(len(extra))
            trial = [*extra[:i], rng.choice(pool), *extra[i + 1:]]
            s = worst(trial)
            if s > score:
                extra, score = trial, s
        if score > best_score:
            best, best_score = extra, score
    if not best:
        print("no 15-colour palette found with the first ten kept")
        return 1
    print(f"least pairwise distance of all {WANT}: {best_score:.2f}")
    for c in best:
        near = min(kept + [e for e in best if e != c], key=lambda o: d(c, o))
        print(f'  "{c}",  nearest {near} at {d(c, near):.2f}')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
