"""Probe of the board edition's levels (issue 50): builds main-line levels with
gridforge.snakes.design.board_line and prints, per level, the plan, the figures of spec 5c/5d
and the CPU seconds (split into fresh climbs, a lane's continued climbs and pieces), then the
totals (met share, CPU per level, projected CPU hours).

    .venv/bin/python bench/board_line_probe.py --lane 1702 --count 10    # a lane, in order
    .venv/bin/python bench/board_line_probe.py --levels 101 110 1001     # lanes from their starts

A level's lane is built from its arc's first level up to it (``line_level``), so a late
level alone costs its lane's levels before it; ``--lane`` shows what a build pays a level.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time
from collections.abc import Callable
from typing import Any, TypeVar

from gridforge.errors import GridforgeError
from gridforge.snakes.design import board_line, costs, interlock
from gridforge.snakes.design.board_line import (
    BOARD_FROM,
    LEVELS,
    board_plan,
    lane_levels,
    line_level,
)
from gridforge.snakes.design.interlock import measure_layout
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.solver.legibility import occupancy

T = TypeVar("T")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--levels", nargs="*", type=int, default=[])
    ap.add_argument("--lane", type=int, default=0, help="a level whose lane to build in order")
    ap.add_argument("--count", type=int, default=10, help="levels of --lane")
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    levels = (list(lane_levels(a.lane, a.seed)[:a.count]) if a.lane else list(a.levels)
              or [101, 102, 103])
    clock = _clocked()
    cpu: list[float] = []
    met = 0
    for n in levels:
        plan = board_plan(n, a.seed)
        t0 = time.process_time()
        before = dict(clock)
        try:
            data, cert = line_level(n, a.seed)
        except GridforgeError as exc:
            print(f"{n}: {exc} cpu {time.process_time() - t0:.1f}s", flush=True)
            cpu.append(time.process_time() - t0)
            continue
        dt = time.process_time() - t0
        cpu.append(dt)
        met += 1
        level = level_from_json(data)
        bare = copy.copy(data)
        bare.pop("meta", None)
        m = measure_layout(bare, 60_000)
        steps = cert["steps"]
        assert steps is not None  # a built level's certificate is solved
        score = cert.get("score")
        stone = len(level.stones) / (level.cols * level.rows)
        # A level its own template could not make is built on a deep one (meta.template).
        built = data["meta"].get("template")
        on = plan.template if built == plan.template else f"{plan.template}->{built}"
        listed = data["meta"].get("pieces")
        pieces = ("+".join(map(str, listed)) if isinstance(listed, list)
                  else str(data["meta"].get("piece") or "-"))
        print(f"{n} {on:9} {level.cols}x{level.rows} bodies {len(level.bodies)} "
              f"steps {steps} optimal {cert['optimal']} joint {m.joint if m else '?'} "
              f"(plan {plan.joint}) beyond {m.beyond if m else '?'} chain {m.chain if m else '?'} "
              f"stone {stone:.2f} occ {occupancy(level):.2f} "
              f"steps/joint {steps / max(1, m.joint if m else 1):.1f} "
              f"score {score['total'] if score else '?'} piece {pieces} "
              f"cpu {dt:.1f}s ({', '.join(f'{k} {clock[k] - before[k]:.1f}' for k in clock)})",
              flush=True)
    per = statistics.mean(cpu) if cpu else 0.0
    median = statistics.median(cpu) if cpu else 0.0
    hours = per * (LEVELS - BOARD_FROM + 1) / 3600
    print(f"== {met}/{len(levels)} built; {per:.1f} CPU s a level (median {median:.1f}); "
          f"{hours:.2f} CPU h projected for levels {BOARD_FROM}-{LEVELS}", flush=True)


def _clocked() -> dict[str, float]:
    """CPU seconds spent in fresh climbs, continued climbs and piece placements, counted by
    wrapping the functions board_line calls."""
    clock = {"climb": 0.0, "continued": 0.0, "pieces": 0.0}

    def timed(name: str, f: Callable[..., T]) -> Callable[..., T]:
        def call(*args: Any, **kwargs: Any) -> T:
            t = time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                clock[name] += time.process_time() - t
        return call

    # setattr: the probe swaps the functions board_line looks up, for this process only.
    setattr(board_line, "build_idea", timed("climb", interlock.build_idea))  # noqa: B010
    setattr(board_line, "continue_idea", timed("continued", interlock.continue_idea))  # noqa: B010
    setattr(board_line, "costly", timed("pieces", costs.costly))  # noqa: B010
    setattr(board_line, "lifted", timed("pieces", costs.lifted))  # noqa: B010
    return clock


if __name__ == "__main__":
    main()
