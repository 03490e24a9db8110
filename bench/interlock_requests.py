"""Bench of the designer's interlock requests (issue 50, ``design-levels --spec`` with an
``interlock`` field): per topology, depth asked and seed, levels made of levels asked, the
layouts drawn, the figures of what was built and the CPU seconds of the request, at the
default budgets (or ``--candidates``).

    .venv/bin/python bench/interlock_requests.py --topologies comb winding mixed \
        --bodies 3 --joint 4 --beyond 1 --chain 1 --seeds 1 2 3 --count 2 [--piece locks]

``--bridges`` instead measures why an interlock request refuses ``bridges``: per template and
seed (0..5), a climb of 300 layouts for 3 bodies (joint 4, beyond-pairs 1, chain 1, 32
cells), and whether any bridge placement on its idea saves at least two steps
(``costs.costly``).

    .venv/bin/python bench/interlock_requests.py --bridges --topologies comb winding island \
        cross twin courtyard pillars
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from gridforge.snakes.design.costs import costly
from gridforge.snakes.design.interlock import LENGTHS, Request, build_idea
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


def bridges(templates: list[str]) -> None:
    """Print, per template, the ideas met and those where a bridge saves two steps."""
    say("| template | ideas | a bridge saves >= 2 steps | CPU s |")
    say("| --- | --- | --- | --- |")
    for template in templates:
        ideas = saved = 0
        started = time.process_time()
        for seed in range(6):
            rng = random.Random(seed)
            lengths = tuple(rng.choice(LENGTHS[template]) for _ in range(3))
            idea = build_idea(Request(template, 32, lengths, 1, 4, 1, rounds=300), rng)
            if idea is None:
                continue
            ideas += 1
            saved += costly(idea.level_json(), "bridges", idea.measure.minimum) is not None
        say(f"| {template} | {ideas} | {saved} | {time.process_time() - started:.1f} |")


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
    ap.add_argument("--bridges", action="store_true", help="the bridge probe (see above)")
    a = ap.parse_args()
    if a.bridges:
        bridges(a.topologies)
        return
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
