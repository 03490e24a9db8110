"""Benchmark: a snakes drag step, from the pointer move to the redraw, in headless Chromium.

    .venv/bin/python bench/web_input.py [--levels 1,500,1000,1500,2000] [--rounds 1]
    .venv/bin/python bench/web_input.py --first 8 [--rounds 2]
    .venv/bin/python bench/web_input.py --terrain [--rounds 3]
    .venv/bin/python bench/web_input.py --throttle 4     (the default; --throttle 1: plain only)

Needs a built site (`python3 build.py build`). Plays the certified solutions of main-line
levels (by default 1, 500, 1000, 1500 and 2000; `--first N` plays levels 1..N instead) by
dragging with the mouse (each cell entered is one Python step call and one redraw), one cell
at a time as a hand moves (the pointer enters the next cell after the last step was drawn;
--rushed sends the whole path at once, so steps queue). The page records, for every drag
step, the time from the pointermove event's timestamp to the board redrawn from Python's
answer (window.gridforgeMetrics.dragSteps), and to the next animation frame (dragFrames).
Prints, per level, the count, median, 90th percentile and the ratio of the median to the goal
(< 16 ms); then, on the longest solution, the median of its first ten and of its last ten
steps (the step cost must not grow with the steps played); and the same first/last figures of
Python's `play.step` alone on CPython, for reference. ``--terrain`` plays instead a level with
coloured paths and bridges (spec section 3b) made by the designer from a fixed request
(:data:`TERRAIN_REQUEST`), in the editor's try-play opened from its share link.

Every figure is measured twice and printed side by side: plain, and with Chromium's CPU
throttled ``--throttle`` times (Chrome DevTools Protocol ``Emulation.setCPUThrottlingRate``;
4 is a mid-range phone, issue 52), the page's main thread and its worker slowed alike.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path
from typing import Any

from gridforge.snakes import page, play
from gridforge.snakes.design.pipeline import design_levels
from gridforge.snakes.game.mainline import mainline_level
from playwright.sync_api import sync_playwright

from buildsys.paths import CHROMIUM, SITE
from buildsys.server import make_server, start_in_thread
from e2e.conftest import CHROMIUM_ARGS
from e2e.snakes_helpers import (
    DEVICES,
    play_solution_by_dragging,
    wait_level,
)
from e2e.test_terrain import share_code

ROOT = Path(__file__).resolve().parent.parent

GOAL_MS = 16.0
DEFAULT_LEVELS = "1,500,1000,1500,2000"
# The terrain level: the designer's, from this request (deterministic: same level each run).
TERRAIN_REQUEST = {"target": 45, "count": 1, "seed": 7, "paths": 1, "bridges": 1,
                   "budgets": {"candidates": 200}}
TERRAIN = 0  # its key among the levels played (main-line levels are 1..2000)
# What the page records per drag step (window.gridforgeMetrics), by the names printed here.
PARTS = {"steps": "dragSteps", "frames": "dragFrames", "waits": "dragWaits",
         "calls": "dragCalls", "draws": "dragDraws"}


def _levels(text: str) -> list[int]:
    try:
        out = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"level numbers separated by commas, got {text!r}") from None
    if not out or not all(1 <= n <= 2000 for n in out):
        raise argparse.ArgumentTypeError("level numbers from 1 to 2000")
    return out


def _figures(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]  # nearest rank
    median = statistics.median(ordered)
    return (f"median {median:.1f} ms (ratio {median / GOAL_MS:.2f}), p90 {p90:.1f} ms, "
            f"min {ordered[0]:.1f} ms, max {ordered[-1]:.1f} ms")


def play_in_browser(numbers: list[int], solutions: dict[int, list[Any]], rounds: int,
                    rushed: bool, reduced: bool, terrain: list[dict[str, Any]],
                    throttle: float = 1.0) -> dict[int, dict[str, list[list[float]]]]:
    """``{level: {"steps": [per round: ms per step], "frames": [...]}}`` from the page;
    level :data:`TERRAIN` is ``terrain[0]``, played in the editor's try-play. ``throttle``:
    Chromium's CPU slowed that many times while the levels are played (1: not at all)."""
    server = make_server(SITE, port=0)
    start_in_thread(server)
    host, port = server.server_address[:2]
    progress = {"format": "gridforge.progress/1", "mines": {"run": None},
                "snakes": {"done": {}, "open": max(numbers)}}
    out: dict[int, dict[str, list[list[float]]]] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
            context = browser.new_context(base_url=f"http://{host}:{port}/",
                                          service_workers="block",
                                          reduced_motion="reduce" if reduced else None,
                                          **DEVICES["desktop"])
            page = context.new_page()
            page.goto("/")
            page.evaluate("() => window.gridforge.ready")
            page.evaluate("(t) => localStorage.setItem('gridforge.progress', t)",
                          json.dumps(progress))
            page.reload()
            page.evaluate("() => window.gridforge.ready")
            if throttle != 1:
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            for n in numbers:
                out[n] = {}
                for _ in range(rounds):
                    page.goto("/#home")
                    if n == TERRAIN:
                        page.goto(f"/#editor/share/{share_code(terrain[0])}")
                        page.wait_for_selector('section.editor[data-ready="true"]')
                        page.get_by_test_id("editor-try").click()
                        page.wait_for_selector('[data-testid="snakes-board"][data-steps="0"]')
                    else:
                        page.goto(f"/#snakes/level/{n}")
                        wait_level(page, n)
                    page.evaluate("() => { for (const v of Object.values(window.gridforgeMetrics))"
                                  " v.length = 0; }")
                    play_solution_by_dragging(page, "desktop", solutions[n], paced=not rushed)
                    page.wait_for_function(
                        "(k) => window.gridforgeMetrics.dragFrames.length >= k",
                        arg=len(solutions[n]))
                    metrics = page.evaluate("() => window.gridforgeMetrics")
                    for key, name in PARTS.items():
                        out[n].setdefault(key, []).append(metrics[name])
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return out


def report_throttled(numbers: list[int], solutions: dict[int, list[Any]],
                     plain: dict[int, dict[str, list[list[float]]]],
                     slowed: dict[int, dict[str, list[list[float]]]], rate: float) -> None:
    """The median drag step per level, plain and with the CPU throttled ``rate`` times, side
    by side (with the throttled step's parts)."""
    print(f"pointer move -> board redrawn, median per level: plain | CPU throttled {rate:g}x "
          f"(goal < {GOAL_MS:.0f} ms both):")
    for n in numbers:
        fast = statistics.median([v for run in plain[n]["steps"] for v in run])
        slow = [v for run in slowed[n]["steps"] for v in run]
        parts = {key: statistics.median([v for run in slowed[n][key] for v in run])
                 for key in PARTS}
        met = "met" if statistics.median(slow) < GOAL_MS else "NOT met"
        p90 = sorted(slow)[math.ceil(0.9 * len(slow)) - 1]
        print(f"  level {n:4d} ({len(solutions[n]):3d} steps): {fast:5.1f} ms | "
              f"{statistics.median(slow):5.1f} ms (p90 {p90:.1f}; wait {parts['waits']:.1f}, "
              f"call {parts['calls']:.1f}, redraw {parts['draws']:.1f}); {met}")


def python_steps(level: dict[str, Any], solution: list[Any]) -> list[float]:
    """Milliseconds of each ``play.step`` along ``solution`` on this CPython."""
    session = page.open(level)["id"]
    times = []
    for step in solution:
        started = time.perf_counter()
        page.act(session, {"do": "step", "step": step})
        times.append(1000 * (time.perf_counter() - started))
    assert play.answer(play.MIDEND.current(session))["view"]["complete"]
    page.close(session)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=_levels, default=_levels(DEFAULT_LEVELS),
                        help=f"main-line levels to play (default {DEFAULT_LEVELS})")
    parser.add_argument("--first", type=int, default=None,
                        help="play levels 1..N instead (at most 2000)")
    parser.add_argument("--rounds", type=int, default=1, help="times each level is played")
    parser.add_argument("--rushed", action="store_true", help="send each drag's path at once")
    parser.add_argument("--terrain", action="store_true",
                        help="play a designed level with coloured paths and bridges instead")
    parser.add_argument("--reduced-motion", action="store_true",
                        help="play with prefers-reduced-motion (no 90 ms glide after a step)")
    parser.add_argument("--throttle", type=float, default=4.0,
                        help="also play with the CPU slowed this many times (default 4; 1: no)")
    args = parser.parse_args()
    numbers = list(range(1, max(1, min(args.first, 2000)) + 1)) if args.first else args.levels
    if args.terrain:
        batch = design_levels(TERRAIN_REQUEST)
        numbers = [TERRAIN]
        entries = {TERRAIN: {"level": batch["levels"][0], "certificate": batch["certificates"][0]}}
        level = entries[TERRAIN]["level"]
        print(f"terrain level: {level['cols']}x{level['rows']}, {len(level['bodies'])} bodies, "
              f"{len(level.get('paths', []))} painted cells, {len(level.get('bridges', []))} "
              "bridge(s)")
    else:
        entries = {n: mainline_level(n) for n in numbers}
    solutions = {n: e["certificate"]["solution"] for n, e in entries.items()}
    terrain = [entries[TERRAIN]["level"]] if args.terrain else []
    measured = play_in_browser(numbers, solutions, max(1, args.rounds), args.rushed,
                               args.reduced_motion, terrain)
    if args.throttle != 1:
        slowed = play_in_browser(numbers, solutions, max(1, args.rounds), args.rushed,
                                 args.reduced_motion, terrain, args.throttle)
        report_throttled(numbers, solutions, measured, slowed, args.throttle)

    print(f"pointer move -> board redrawn, per level ({args.rounds} round(s), "
          f"{'rushed' if args.rushed else 'paced'}"
          f"{', reduced motion' if args.reduced_motion else ''}; goal median < {GOAL_MS:.0f} ms):")
    every: list[float] = []
    for n in numbers:
        values = [v for run in measured[n]["steps"] for v in run]
        medians = {key: statistics.median([v for run in measured[n][key] for v in run])
                   for key in PARTS}
        every += values
        met = "met" if statistics.median(values) < GOAL_MS else "NOT met"
        print(f"  level {n:4d} ({len(solutions[n]):3d} steps): {_figures(values)}; {met}")
        print(f"      medians of the parts: event to its turn {medians['waits']:.1f} ms, Python "
              f"call {medians['calls']:.1f} ms, redraw {medians['draws']:.1f} ms; to the next "
              f"frame {medians['frames']:.1f} ms")
    print(f"  all {len(every)} steps: {_figures(every)}")

    longest = max(numbers, key=lambda n: len(solutions[n]))
    runs = measured[longest]["steps"]
    first = [v for run in runs for v in run[:10]]
    last = [v for run in runs for v in run[-10:]]
    growth = statistics.median(last) / statistics.median(first)
    print(f"longest solution, level {longest} ({len(solutions[longest])} steps): first ten "
          f"median {statistics.median(first):.1f} ms, last ten median "
          f"{statistics.median(last):.1f} ms (last/first {growth:.2f})")
    cpython = python_steps(entries[longest]["level"], solutions[longest])
    print(f"  Python's play.step alone on CPython: mean {statistics.fmean(cpython):.2f} ms, "
          f"first ten mean {statistics.fmean(cpython[:10]):.2f} ms, last ten mean "
          f"{statistics.fmean(cpython[-10:]):.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
