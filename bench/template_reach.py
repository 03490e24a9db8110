"""Measure the design scores each template reaches: the numbers behind ``mainline.REACH``.

For every template, one request at target 100 and one at target 1 (tolerance 0, so no level is
accepted and every candidate is scored), each with ``--candidates`` candidates and the default
state budgets; prints the highest and the lowest total seen, and the seconds taken. The
pressure steers toward the target as it does in a real batch, so the highest seen is what the
template reached when pushed as hard as the designer pushes.

    .venv/bin/python bench/template_reach.py                  # 30 candidates each
    .venv/bin/python bench/template_reach.py --candidates 100 --templates twin,comb
"""

from __future__ import annotations

import argparse
import time

from gridforge.snakes.design.pipeline import design_levels
from gridforge.snakes.design.templates import TEMPLATES


def seen(template: str, target: float, candidates: int, seed: int) -> tuple[float, float]:
    """The lowest and highest score seen over ``candidates`` candidates."""
    batch = design_levels({"target": target, "tolerance": 0, "topology": template, "seed": seed,
                           "budgets": {"candidates": candidates}})
    report = batch["report"]
    if "shortfall" in report:
        short = report["shortfall"]
        return short["lowest_score"] or 0.0, short["highest_score"] or 0.0
    score = float(report["levels"][0]["score"])
    return score, score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--templates", default=",".join(TEMPLATES))
    args = parser.parse_args()
    print(f"{'template':10} {'lowest':>7} {'highest':>8} {'seconds':>8}")
    for template in args.templates.split(","):
        start = time.monotonic()
        low, _ = seen(template, 1, args.candidates, args.seed)
        _, high = seen(template, 100, args.candidates, args.seed)
        print(f"{template:10} {low:7.1f} {high:8.1f} {time.monotonic() - start:8.1f}", flush=True)


if __name__ == "__main__":
    main()
