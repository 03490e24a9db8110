"""Benchmark of the snakes solver: A* expanded states per second, certify time, peak memory.

    .venv/bin/python bench/snakes_search.py             CPython figures
    .venv/bin/python bench/snakes_search.py --pyodide   also run this script inside Pyodide
                                                        (node tools/pyodide_run.mjs) and
                                                        print the Pyodide / CPython ratios
    ... --json                                          one JSON line (used for --pyodide)

The level set is fixed: the spec's example level and medium random levels from
``gridforge.snakes.solver.selfcheck.random_level(seed, feature_mix(seed), "medium")``. Each level
is solved by plain exact A* from scratch (the rate counts expanded states, i.e. states
whose successors were generated) and then certified (fast search, shortening, exact A*
under the upper bound, replay, score). The largest search then runs again under
tracemalloc, with its state budget, to report peak memory.

Timing: the machine is shared, so each A* runs REPEAT times from scratch (a new Solver
each time, identical work: the search is deterministic) and the best wall-clock time is
reported, as ``timeit`` does; the rate column is expanded states over that time. The
median is printed beside it to show the spread. The repetitions go round the level set
(every level once, then every level again, ...), so a burst of other jobs lasting a few
seconds costs one sample of a few levels, not all samples of one level.
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from gridforge.snakes.design.certify import certify
from gridforge.snakes.game.level import Level, spec_example
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.search import Solver
from gridforge.snakes.solver.selfcheck import feature_mix, random_level

ROOT = Path(__file__).resolve().parent.parent
MEDIUM_SEEDS = (0, 8, 14, 24, 25, 32, 33, 35)
LARGEST_SEED = 7  # six bodies of one colour, eight holes: the heaviest matching
STATES = 300_000
SECONDS = 600.0
REPEAT = 3


def levels() -> list[tuple[str, dict]]:
    out = [("spec-example", spec_example())]
    out += [(f"medium-{s}", random_level(s, feature_mix(s), "medium")) for s in MEDIUM_SEEDS]
    out.append(
        (f"medium-{LARGEST_SEED}", random_level(LARGEST_SEED, feature_mix(LARGEST_SEED), "medium"))
    )
    return out


def measure() -> dict:
    rows = []
    total_expanded = 0
    total_seconds = 0.0
    games = [(name, Level.from_json(data)) for name, data in levels()]
    games = [(name, level, Game(level)) for name, level in games]
    times: dict[str, list[float]] = {name: [] for name, _, _ in games}
    results = {}
    for _ in range(REPEAT):
        for name, _, game in games:
            t0 = time.perf_counter()
            results[name] = Solver(game).astar(max_states=STATES, max_seconds=SECONDS)
            times[name].append(time.perf_counter() - t0)
    for name, level, game in games:
        result = results[name]
        seconds = min(times[name])
        median = sorted(times[name])[len(times[name]) // 2]
        t1 = time.perf_counter()
        cert = certify(level, max_states=STATES, max_seconds=SECONDS)
        cert_seconds = time.perf_counter() - t1
        total_expanded += result.expanded
        total_seconds += seconds
        rows.append(
            {
                "level": name,
                "bodies": game.n,
                "cells": sum(game.lengths),
                "astar_status": result.status,
                "steps": None if result.moves is None else len(result.moves),
                "expanded": result.expanded,
                "stored": result.stored,
                "astar_seconds": round(seconds, 3),
                "astar_median_seconds": round(median, 3),
                "states_per_second": round(result.expanded / seconds) if seconds else None,
                "certificate": cert["status"],
                "optimal": cert["optimal"],
                "certify_seconds": round(cert_seconds, 3),
            }
        )
    name, data = levels()[-1]
    game = Game(Level.from_json(data))
    tracemalloc.start()
    result = Solver(game).astar(max_states=STATES, max_seconds=SECONDS)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "python": f"{sys.implementation.name} {platform.python_version()} {sys.platform}",
        "levels": rows,
        "total_expanded": total_expanded,
        "total_seconds": round(total_seconds, 3),
        "states_per_second": round(total_expanded / total_seconds),
        "largest": {
            "level": name,
            "stored": result.stored,
            "state_budget": STATES,
            "peak_mib": round(peak / 2**20, 1),
            "bytes_per_stored_state": round(peak / max(1, result.stored)),
        },
    }


def show(report: dict) -> None:
    print(f"# {report['python']}")
    print(
        f"{'level':14} {'bodies':>6} {'cells':>5} {'A*':>8} {'steps':>5} {'expanded':>8} "
        f"{'stored':>7} {'A* s':>7} {'median':>7} {'states/s':>8} {'certificate':>12} "
        f"{'cert s':>7}"
    )
    for r in report["levels"]:
        status = r["certificate"] + ("*" if r["optimal"] else "")
        print(
            f"{r['level']:14} {r['bodies']:6} {r['cells']:5} {r['astar_status']:>8} "
            f"{r['steps'] if r['steps'] is not None else '-':>5} {r['expanded']:8} "
            f"{r['stored']:7} {r['astar_seconds']:7.3f} {r['astar_median_seconds']:7.3f} "
            f"{r['states_per_second'] or 0:8} "
            f"{status:>12} {r['certify_seconds']:7.3f}"
        )
    print(f"(* = minimum proven; A* s = best of {REPEAT} runs, median beside it)")
    print(
        f"all levels: {report['total_expanded']} expanded in {report['total_seconds']} s "
        f"= {report['states_per_second']} expanded states/s"
    )
    big = report["largest"]
    print(
        f"largest search ({big['level']}): {big['stored']} stored states "
        f"(budget {big['state_budget']}), peak {big['peak_mib']} MiB traced, "
        f"{big['bytes_per_stored_state']} bytes per stored state"
    )


def main(argv: list[str]) -> int:
    report = measure()
    if "--json" in argv:
        print(json.dumps(report))
        return 0
    show(report)
    if "--pyodide" in argv:
        proc = subprocess.run(
            ["node", "tools/pyodide_run.mjs", "run", "bench/snakes_search.py", "--json"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            print(f"pyodide run failed:\n{proc.stderr[-2000:]}")
            return 1
        other = json.loads(proc.stdout.strip().splitlines()[-1])
        print()
        show(other)
        print()
        ratio = report["states_per_second"] / other["states_per_second"]
        print(f"Pyodide is {ratio:.2f}x slower than CPython in expanded states/s")
        for a, b in zip(report["levels"], other["levels"], strict=True):
            cert_ratio = b["certify_seconds"] / max(a["certify_seconds"], 1e-9)
            astar_ratio = b["astar_seconds"] / max(a["astar_seconds"], 1e-9)
            print(f"  {a['level']:14} certify {cert_ratio:.2f}x  A* {astar_ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
