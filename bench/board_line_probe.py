"""Probe of the fourth build's board levels (issue 50): builds sampled main-line levels with
gridforge.snakes.design.board_line and prints, per level, the plan, the figures of spec 5c/5d
and the CPU seconds, then the totals (met share, CPU per level, projected CPU hours).

    .venv/bin/python bench/board_line_probe.py --levels 101 301 1001 1999 --seed 2026
    .venv/bin/python bench/board_line_probe.py --every 97      # 101, 198, 295, ...
"""

from __future__ import annotations

import argparse
import statistics
import time

from gridforge.errors import GridforgeError
from gridforge.snakes.design.board_line import BOARD_FROM, LEVELS, board_level, board_plan
from gridforge.snakes.design.interlock import measure_layout
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.solver.legibility import occupancy


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--levels", nargs="*", type=int, default=[])
    ap.add_argument("--every", type=int, default=0)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    levels = list(a.levels) or list(range(BOARD_FROM, LEVELS + 1, a.every or 190))
    cpu: list[float] = []
    met = 0
    for n in levels:
        plan = board_plan(n, a.seed)
        t0 = time.process_time()
        try:
            data, cert = board_level(plan, a.seed)
        except GridforgeError as exc:
            print(f"{n}: {exc} cpu {time.process_time() - t0:.1f}s", flush=True)
            cpu.append(time.process_time() - t0)
            continue
        dt = time.process_time() - t0
        cpu.append(dt)
        met += 1
        level = level_from_json(data)
        m = measure_layout({k: v for k, v in data.items() if k != "meta"}, 60_000)  # type: ignore[misc]
        stone = len(level.stones) / (level.cols * level.rows)
        print(f"{n} {plan.template:9} {level.cols}x{level.rows} bodies {len(level.bodies)} "
              f"steps {cert['steps']} optimal {cert['optimal']} joint {m.joint if m else '?'} "
              f"(plan {plan.joint}) beyond {m.beyond if m else '?'} chain {m.chain if m else '?'} "
              f"stone {stone:.2f} occ {occupancy(level):.2f} "
              f"steps/joint {cert['steps'] / max(1, m.joint if m else 1):.1f} "
              f"score {cert['score']['total'] if cert.get('score') else '?'} cpu {dt:.1f}s",
              flush=True)
    per = statistics.mean(cpu) if cpu else 0.0
    median = statistics.median(cpu) if cpu else 0.0
    hours = per * (LEVELS - BOARD_FROM + 1) / 3600
    print(f"== {met}/{len(levels)} built; {per:.1f} CPU s a level (median {median:.1f}); "
          f"{hours:.2f} CPU h projected for levels {BOARD_FROM}-{LEVELS}", flush=True)


if __name__ == "__main__":
    main()
