"""Bench of the designer's interlock requests (issue 50, ``design-levels --spec`` with an
``interlock`` field): per topology, depth asked and seed, levels made of levels asked, the
layouts drawn, the figures of what was built and the CPU seconds of the request, at the
default budgets (or ``--candidates``).

    .venv/bin/python bench/interlock_requests.py --topologies comb winding mixed \
        --bodies 3 --joint 4 --beyond 1 --chain 1 --seeds 1 2 3 --count 2 [--piece locks]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from gridforge.snakes.design.pipeline import design_levels


def say(text: str) -> None:
    print(text, flush=True)


def one(topology: str, seed: int, a: argparse.Namespace) -> tuple[int, float]:
    """Design one request; print its row; (levels made, CPU s)."""
    request: dict[str, Any] = {
        "topology": topology, "count": a.count, "seed": seed,
        "interlock": {"bodies": a.bodies, "joint": a.joint, "beyond": a.beyond,
                      "chain": a.chain}}
    if a.piece:
        request[a.piece] = 1
    if a.candidates:
        request["budgets"] = {"candidates": a.candidates}
    started = time.process_time()
    batch = design_levels(request)
    cpu = time.process_time() - started
    report = batch["report"]
    figures = " ".join(
        f"{r['template']}:{r['steps']}s/j{r['interlock']['joint']}/b{r['interlock']['beyond_pairs']}"
        f"/c{r['interlock']['chain']}/{r['candidates']}L"
        for r in report["levels"])
    say(f"| {topology} | {seed} | {report['made']}/{report['asked']} | {cpu:.1f} | {figures} | "
        f"{report['rejected']} |")
    return report["made"], cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--topologies", nargs="+", default=["comb", "winding", "mixed"])
    ap.add_argument("--seeds", nargs="+", type=int, default=[1, 2, 3])
    ap.add_argument("--count", type=int, default=2)
    ap.add_argument("--bodies", type=int, default=3)
    ap.add_argument("--joint", type=int, default=4)
    ap.add_argument("--beyond", type=int, default=1)
    ap.add_argument("--chain", type=int, default=1)
    ap.add_argument("--piece", choices=["frozen", "frozen_holes", "locks", "paths"])
    ap.add_argument("--candidates", type=int, default=None)
    a = ap.parse_args()
    say(f"bodies {a.bodies}, joint {a.joint}, beyond-pairs {a.beyond}, chain {a.chain}, "
        f"piece {a.piece or '-'}, count {a.count}")
    say("| topology | seed | made | CPU s | levels (template:steps/joint/beyond/chain/layouts) "
        "| refused ideas |")
    say("| --- | --- | --- | --- | --- | --- |")
    made = asked = 0
    cpu = 0.0
    for topology in a.topologies:
        for seed in a.seeds:
            got, spent = one(topology, seed, a)
            made, asked, cpu = made + got, asked + a.count, cpu + spent
    say(f"total: {made}/{asked} levels, {cpu:.1f} CPU s, {cpu / max(1, made):.1f} CPU s a level")


if __name__ == "__main__":
    main()
