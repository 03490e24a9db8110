"""Probe of the interlock construction (issue 50): per template and target, how often a
climb meets the request, its figures and its cost (CPU seconds, stored states).

    .venv/bin/python bench/interlock_probe.py --templates notched comb --bodies 4 \
        --joint 8 --beyond 2 --chain 2 --seeds 5
"""

from __future__ import annotations

import argparse
import random
import time

from gridforge.snakes.design.interlock import LENGTHS, Request, build_idea
from gridforge.snakes.game.levelfile import LevelJson


def picture(idea_json: LevelJson) -> str:
    """The idea as text: # stones, A-H heads, a-h the rest of the bodies, holes by colour."""
    cols, rows = idea_json["cols"], idea_json["rows"]
    grid = [["." for _ in range(cols)] for _ in range(rows)]
    for x, y in idea_json["stones"]:
        grid[y][x] = "#"
    for i, b in enumerate(idea_json["bodies"]):
        for j, (x, y) in enumerate(b["cells"]):
            grid[y][x] = "ABCDEFGH"[i] if j == 0 else "abcdefgh"[i]
    for h in idea_json["holes"]:
        x, y = h["cell"]
        grid[y][x] = str(h["color"])
    return "\n".join("".join(r) for r in grid)


def say(text: str) -> None:
    print(text, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--templates", nargs="+", default=["notched", "comb", "cross"])
    ap.add_argument("--area", type=int, default=30)
    ap.add_argument("--bodies", type=int, default=4)
    ap.add_argument("--joint", type=int, default=8)
    ap.add_argument("--beyond", type=int, default=2)
    ap.add_argument("--chain", type=int, default=2)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=600)
    ap.add_argument("--states", type=int, default=40_000)
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--lengths", nargs="+", type=int, default=None)
    a = ap.parse_args()
    for template in a.templates:
        met = 0
        cpu = 0.0
        for seed in range(1, a.seeds + 1):
            rng = random.Random(seed)
            lengths = tuple(rng.choice(a.lengths or LENGTHS[template]) for _ in range(a.bodies))
            req = Request(template, a.area, lengths, a.beyond, a.joint, a.chain,
                          rounds=a.rounds, states=a.states)
            t0 = time.process_time()
            idea = build_idea(req, rng)
            dt = time.process_time() - t0
            cpu += dt
            if idea is None:
                say(f"{template} seed {seed}: not met, cpu {dt:.1f}s")
                continue
            met += 1
            m = idea.measure
            say(f"{template} seed {seed}: {idea.shape.cols}x{idea.shape.rows} min {m.minimum} "
                  f"beyond {m.beyond} joint {m.joint} chain {m.chain} stored {m.stored} "
                  f"tried {idea.tried} work {idea.work} cpu {dt:.1f}s")
            if a.show:
                say(picture(idea.level_json()))
        say(f"== {template}: {met}/{a.seeds} met, {cpu / a.seeds:.1f} CPU s per request")


if __name__ == "__main__":
    main()
