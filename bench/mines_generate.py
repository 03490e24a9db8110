"""Benchmark of the mines generator (issue 4): time to make no-guess boards, per preset.

Prints, per preset, the distribution of generation time over N seeds (median, p95, max,
in wall-clock and in CPU time of this process, which is steadier on a shared machine), the
mean repairs and attempts, and the solver's share. For comparison it also times:

* ``naive``: a rejection sampler with the same solver (random layout, solve from R0,
  start again until the solver clears it), the generator without repair;
* ``gates only``: the generator with ``guarantee: none`` (layout, fog, gates, metrics).

Usage: ``python bench/mines_generate.py [--seeds 50] [--presets expert,battle-1,...]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from gridforge.mines.gen_table import GenTable, preset, presets
from gridforge.mines.generate import generate
from gridforge.mines.playthrough import Playthrough

GOAL_MEDIAN = 0.15
GOAL_P95 = 0.5


def naive(table: GenTable, seed: int, cap: int = 5000) -> int:
    """Rejection sampling: fresh layouts until the solver clears one; returns the tries."""
    rng = random.Random(seed)
    cols, rows = table.cols, table.rows
    sx, sy = table.spawn_cell
    b3 = {(sy + dy) * cols + sx + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)}
    pool = [i for i in range(cols * rows) if i not in b3]
    for tries in range(1, cap + 1):
        flags = bytearray(cols * rows)
        for i in rng.sample(pool, table.mine_count):
            flags[i] = 1
        play = Playthrough(cols, rows, flags, bytes(cols * rows), (sx, sy), table.mine_count)
        if play.safe_left and play.play():
            return tries
    return cap


def measure(run: Callable[[int], object], seeds: int) -> tuple[list[float], list[float], list]:
    walls, cpus, outs = [], [], []
    for seed in range(seeds):
        w, c = time.perf_counter(), time.process_time()
        outs.append(run(seed))
        cpus.append(time.process_time() - c)
        walls.append(time.perf_counter() - w)
    return walls, cpus, outs


def q(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def line(label: str, walls: list[float], cpus: list[float], extra: str = "") -> None:
    print(
        f"  {label:<11} wall median {statistics.median(walls) * 1000:7.1f} ms  "
        f"p95 {q(walls, 0.95) * 1000:7.1f}  max {max(walls) * 1000:7.1f} | "
        f"cpu median {statistics.median(cpus) * 1000:7.1f} ms  p95 {q(cpus, 0.95) * 1000:7.1f}"
        f"  {extra}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--presets", default=",".join(["expert", *sorted(presets())]))
    parser.add_argument("--no-naive", action="store_true", help="skip the rejection sampler")
    parser.add_argument(
        "--dense", default="115,130", help="also 30x16 boards with these mine counts ('' for none)"
    )
    args = parser.parse_args()
    tables = [preset(name) for name in dict.fromkeys(args.presets.split(","))]
    for mines in filter(None, args.dense.split(",")):
        spec = {"cols": 30, "rows": 16, "mines": int(mines), "name": f"dense-{mines}"}
        tables.append(GenTable.from_json(spec))
    for table in tables:
        name = table.name
        print(
            f"{name}: {table.cols}x{table.rows}/{table.mine_count}, fog {table.fog}, "
            f"{args.seeds} seeds"
        )
        walls, cpus, made = measure(lambda s, t=table: generate(t, s), args.seeds)
        reps = statistics.mean(m.metrics["repairs"] for m in made)
        atts = statistics.mean(m.metrics["attempts"] for m in made)
        steps = statistics.mean(m.metrics["deduction_steps"] for m in made)
        comp = max(m.metrics["largest_component"] for m in made)
        line(
            "no-guess",
            walls,
            cpus,
            f"repairs {reps:.2f} attempts {atts:.2f} steps {steps:.0f} largest component {comp}",
        )
        med, p95 = statistics.median(walls), q(walls, 0.95)
        if name == "expert":
            print(
                f"  goal: median < {GOAL_MEDIAN * 1000:.0f} ms ({GOAL_MEDIAN / med:.1f}x under), "
                f"p95 < {GOAL_P95 * 1000:.0f} ms ({GOAL_P95 / p95:.1f}x under)"
            )
        loose = GenTable.from_json({**table.to_json(), "guarantee": "none"})
        w2, c2, _ = measure(lambda s, t=loose: generate(t, s), args.seeds)
        cost = statistics.median(cpus) / statistics.median(c2)
        line("gates only", w2, c2, f"no-guess costs {cost:.1f}x")
        if not args.no_naive and table.fog == 0:
            # rejection needs thousands of tries on dense boards: fewer seeds, capped tries
            runs = min(args.seeds, 5) if name.startswith("dense") else args.seeds
            w3, c3, tries = measure(lambda s, t=table: naive(t, s, cap=2000), runs)
            line(
                "naive",
                w3,
                c3,
                f"{runs} seeds, tries mean {statistics.mean(tries):.1f} max {max(tries)} "
                f"(cap 2000); repair is {statistics.median(c3) / statistics.median(cpus):.1f}x "
                "faster",
            )


if __name__ == "__main__":
    main()
