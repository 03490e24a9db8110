"""What `snakes.improve.improve` does to shipped certificates: steps before and after, proofs
gained, lower bounds (matching and pairwise), process CPU seconds per level.

    .venv/bin/python bench/snakes_improve.py [--sample 30] [--seed 18] [--exact-states 20000]

Prints one line per level and a summary with the median and mean shortening (as a share of
the shipped steps), the proven share before and after, and the mean CPU time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.mainline import LEVELS, mainline_level
from gridforge.snakes.game.rules import Game, step_to_move
from gridforge.snakes.solver.improve import Budget, improve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=30)
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--exact-states", type=int, default=20_000)
    args = parser.parse_args()
    numbers = sorted(random.Random(args.seed).sample(range(1, LEVELS + 1), args.sample))
    shares, seconds = [], []
    proven_before = proven_after = 0
    for n in numbers:
        pair = mainline_level(n)
        game = Game(level_from_json(pair["level"]))
        cert = pair["certificate"]
        moves = [step_to_move(s) for s in cert["solution"]]
        t0 = time.process_time()
        result = improve(game, moves, Budget(exact_states=args.exact_states))
        spent = time.process_time() - t0
        seconds.append(spent)
        share = 1 - len(result.moves) / cert["steps"]
        shares.append(share)
        proven_before += cert["optimal"]
        proven_after += result.optimal
        print(f"level {n:4d}: {cert['steps']:3d} -> {len(result.moves):3d} steps "
              f"({share:5.1%} shorter), bound {cert['lower_bound']:3d} -> {result.lower_bound:3d}, "
              f"proven {cert['optimal']!s:5} -> {result.optimal!s:5}, {spent:5.2f} s", flush=True)
    print(f"\n{len(numbers)} levels (seed {args.seed}): median {statistics.median(shares):.1%}, "
          f"mean {statistics.mean(shares):.1%} shorter; proven {proven_before} -> "
          f"{proven_after}; mean {statistics.mean(seconds):.2f} CPU s a level "
          f"(max {max(seconds):.2f})")


if __name__ == "__main__":
    main()
