"""Benchmark of the exact search as the main line's build runs it: CPU seconds per case,
stored states, solution length, and one digest of every result (issue 50's build budget).

    .venv/bin/python bench/solver_speed.py                 every case, then the total
    .venv/bin/python bench/solver_speed.py --check DIGEST  exit 1 unless the digest is DIGEST
    .venv/bin/python bench/solver_speed.py --profile       the same run under cProfile

The case set is fixed and deterministic:

- ``exact``: every level of ``lines/board/main-1151-1175.json`` and ``main-1176-1200.json``
  searched as their certificates were: the weighted search, then exact A* under the
  certificate's solution length (as ``interlock._exact_stage`` proves a layout);
- ``climb``: seeded interlock climbs (``build_idea``) toward the requests of late board
  levels, their rounds cut short: every layout tried goes through ``measure_layout`` (the
  blocking relation, the weighted search, the readings, the pair split bound, exact A*),
  the build's own mix of ``Game`` construction and searches.

The digest hashes every case's result (statuses, bounds, stored and expanded states,
solutions, the climbs' figures and work), never a time: two versions of the solver that
expand the same states in the same order print the same digest (the speed work is held
byte-neutral by it). CPU time is ``time.process_time`` (valid under ``nice``).
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import random
import sys
import time
from dataclasses import astuple, replace
from pathlib import Path
from typing import Any

from gridforge.snakes.design import interlock
from gridforge.snakes.design.board_line import _request, board_plan
from gridforge.snakes.design.interlock import Measure, build_idea
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.search import Solver

ROOT = Path(__file__).resolve().parent.parent
FILES = ("main-1151-1175.json", "main-1176-1200.json")
SEED = 2026
NO_CLOCK = 1e9  # budgets are counted in states only, as the build's
STATES = 40_000  # Request.states: the build's exact-search budget per layout
CLIMBS = (1152, 1163, 1171, 1178, 1187, 1196)  # late board levels (main line, seed 2026)
ROUNDS = 200  # layouts per climb (the build's Request.rounds is 600)


def exact_cases() -> list[tuple[str, Any]]:
    """The certificate levels: (name, level JSON without its meta, certificate)."""
    out = []
    for name in FILES:
        data = json.loads((ROOT / "lines" / "board" / name).read_text(encoding="utf-8"))
        for level, cert in zip(data["levels"], data["certificates"], strict=True):
            plain = {k: v for k, v in level.items() if k != "meta"}
            out.append((f"exact-{level['meta']['level']}", (plain, cert)))
    return out


def run_exact(plain: dict[str, Any], cert: dict[str, Any]) -> tuple[list[Any], int, int]:
    """Weighted search, then exact A* under the certificate's length: (figures, stored,
    solution length)."""
    solver = Solver(Game(level_from_json(plain)))
    fast = solver.fast(max_states=STATES, max_seconds=NO_CLOCK)
    exact = solver.astar(max_states=STATES, max_seconds=NO_CLOCK, upper=cert["steps"])
    figures = [
        [fast.status, fast.stored, fast.expanded, fast.upper_bound, fast.steps],
        [exact.status, exact.stored, exact.expanded, exact.lower_bound, exact.upper_bound,
         exact.optimal, exact.steps, exact.stats],
    ]
    length = len(exact.steps) if exact.steps is not None else cert["steps"]
    return figures, fast.stored + exact.stored, length


def run_climb(number: int) -> tuple[list[Any], int, int]:
    """A seeded climb toward level ``number``'s request: (figures of every layout measured
    and of the idea, stored states of the layouts' searches, the idea's minimum or 0)."""
    interlock._STAGES.clear()  # each case measures its layouts from scratch
    plan = board_plan(number, SEED)
    rng = random.Random(SEED * 1_000_003 + number * 7_919)
    request = replace(_request(plan, rng), rounds=ROUNDS)
    measured: list[Any] = []
    measure = interlock.measure_layout

    def recorded(data: Any, states: int, **options: Any) -> Measure | None:
        # Every layout's figures go into the digest, not only the idea's.
        m = measure(data, states, **options)
        measured.append(None if m is None else astuple(m))
        return m

    interlock.measure_layout = recorded  # build_idea looks it up as a module global
    try:
        idea = build_idea(request, rng)
    finally:
        interlock.measure_layout = measure
    stored = sum(m[-1] for m in measured if m is not None)
    if idea is None:
        return [measured, None, rng.random()], stored, 0
    figures = [measured, idea.level_json(), astuple(idea.measure), idea.tried, idea.work,
               rng.random()]
    return figures, stored, idea.measure.minimum


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", metavar="DIGEST", help="exit 1 unless the digest is DIGEST")
    ap.add_argument("--profile", action="store_true", help="run under cProfile")
    ap.add_argument("--only", choices=("exact", "climb"), help="one kind of case")
    a = ap.parse_args()
    cases: list[tuple[str, Any]] = []
    if a.only != "climb":
        cases += exact_cases()
    if a.only != "exact":
        cases += [(f"climb-{n}", n) for n in CLIMBS]
    profile = cProfile.Profile() if a.profile else None
    digest = hashlib.sha256()
    total = 0.0
    print(f"{'case':<12} {'cpu s':>7} {'stored':>8} {'length':>6}")
    for name, arg in cases:
        t0 = time.process_time()
        if profile is not None:
            profile.enable()
        figures, stored, length = run_exact(*arg) if name.startswith("exact") else run_climb(arg)
        if profile is not None:
            profile.disable()
        dt = time.process_time() - t0
        total += dt
        digest.update(json.dumps([name, figures], sort_keys=True).encode())
        print(f"{name:<12} {dt:7.2f} {stored:8d} {length:6d}", flush=True)
    hexdigest = digest.hexdigest()
    print(f"total CPU s {total:.2f}  digest {hexdigest}")
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
    if a.check is not None and a.check != hexdigest:
        print(f"digest differs from {a.check}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
