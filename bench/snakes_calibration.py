#!/usr/bin/env python3
"""Does the synthetic player find hard what an exact search finds hard? (issue 24)

    .venv/bin/python bench/snakes_calibration.py --sample 40 --players 4 --seed 1
    .venv/bin/python bench/snakes_calibration.py --weights output/weights.json --bands

On a sample of shipped main-line levels whose minimum is proven, measures the exact A*'s
effort (states stored to prove the certified minimum: A* with the certificate's length as the
upper bound until its open list empties, a counted budget) and prints Spearman's rank
correlation of that effort with

- the synthetic player's difficulty (the calibration's difficulty fitted on its attempts),
- the seed's design score (the certificate's total),
- the body count, and the score under ``--weights`` when given.

``--bands`` prints the main line's band table under the weights file (median design score,
median score under the fitted weights, median predicted clear rate and time per 100 levels).
Every budget is counted; no figure depends on the machine's speed.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys

from gridforge.errors import read_json
from gridforge.snakes.design.calibrate import (
    fit_difficulty,
    shipped_levels,
    spearman,
)
from gridforge.snakes.design.weights import prediction, validate_weights
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.mainline import mainline_level
from gridforge.snakes.game.rules import Game
from gridforge.snakes.player.synthetic import play, population
from gridforge.snakes.solver.search import Solver

PROOF_STATES = 300_000


def proven_sample(count: int, first: int) -> list[int]:
    """``count`` levels spread evenly over the shipped levels with a proven minimum."""
    from gridforge.errors import parse_json
    from gridforge.snakes.design.certify import shipped_data

    proven = []
    for f in shipped_data().iterdir():
        if f.name.startswith("main-"):
            data = parse_json(f.read_bytes(), f.name, max_bytes=16 * 1024 * 1024)
            pairs = zip(data["levels"], data["certificates"], strict=True)
            proven += [lv["meta"]["level"] for lv, c in pairs
                       if c["optimal"] and lv["meta"]["level"] >= first]
    proven.sort()
    step = len(proven) / count
    return [proven[int(k * step)] for k in range(count)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=40)
    ap.add_argument("--first", type=int, default=12, help="skip the first lessons")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--weights", default=None)
    ap.add_argument("--bands", action="store_true")
    args = ap.parse_args()
    weights = validate_weights(read_json(args.weights, args.weights)) if args.weights else None

    numbers = proven_sample(args.sample, args.first)
    players = population(args.players, args.seed)
    rows = []
    attempts = []
    for k, n in enumerate(numbers):
        data = mainline_level(n)
        cert = data["certificate"]
        level = level_from_json(data["level"])
        proof = Solver(Game(level)).astar(max_states=PROOF_STATES, max_seconds=1e9,
                                          upper=cert["steps"])
        effort = proof.stored if proof.status != "budget" else PROOF_STATES
        for p, (name, profile) in enumerate(players):
            attempts.append(play(level, seed=args.seed * 100_003 + n * 31 + p, profile=profile,
                                 best_known=cert["steps"], player=name, seq=k, number=n))
        rows.append({"n": n, "sha": cert["level_sha256"], "effort": effort,
                     "score": cert["score"]["total"], "bodies": len(level.bodies),
                     "steps": cert["steps"], "normalised": cert["score"]["normalised"]})
        print(f"level {n}: A* {effort} states, score {cert['score']['total']}", file=sys.stderr)
    model = fit_difficulty(attempts)
    synthetic = [model.levels[r["sha"]].difficulty for r in rows]
    effort = [math.log(r["effort"]) for r in rows]
    won = sum(a["outcome"] == "won" for a in attempts)
    print(f"levels {len(rows)} (proven, from level {args.first}), synthetic players "
          f"{len(players)}, attempts {len(attempts)}, won {won}")
    print(f"spearman vs exact A* effort: synthetic player {spearman(synthetic, effort):.2f}, "
          f"seed design score {spearman([r['score'] for r in rows], effort):.2f}, "
          f"body count {spearman([r['bodies'] for r in rows], effort):.2f}, "
          f"solution steps {spearman([r['steps'] for r in rows], effort):.2f}")
    if weights is not None:
        fitted = [prediction(weights, r["normalised"])["score"] for r in rows]
        print(f"spearman vs exact A* effort: score under {args.weights} "
              f"{spearman(fitted, effort):.2f}")
    if args.bands and weights is not None:
        print("| levels | median design score | median fitted score | median clear rate | "
              "median seconds |")
        print("|---|---|---|---|---|")
        infos = sorted((i for i in shipped_levels().values() if i.number is not None),
                       key=lambda i: i.number or 0)
        for lo in range(1, 2001, 200):
            band = [i for i in infos if lo <= (i.number or 0) < lo + 200]
            preds = [prediction(weights, i.normalised) for i in band]
            print(f"| {lo}-{lo + 199} | {statistics.median(i.seed_score for i in band):.1f} | "
                  f"{statistics.median(p['score'] for p in preds):.1f} | "
                  f"{statistics.median(p['solve_rate'] for p in preds):.2f} | "
                  f"{statistics.median(p['median_seconds'] for p in preds):.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
