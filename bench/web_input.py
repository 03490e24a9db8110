"""Benchmark: a snakes drag step, from the pointer move to the redraw, in headless Chromium.

    .venv/bin/python bench/web_input.py [--levels 8] [--rounds 2]

Needs a built site (`python3 build.py build`). Plays the certified solutions of main-line
levels 1..N by dragging with the mouse (each cell entered is one Python step call and one
redraw), one cell at a time as a hand moves (the pointer enters the next cell after the
last step was drawn; --rushed sends the whole path at once, so steps queue). The page records,
for every drag step, the time from the pointermove event's timestamp to the board redrawn
from Python's answer (window.gridforgeMetrics.dragSteps), and to the next animation frame
(dragFrames). Prints count, median, 90th percentile and the ratio to the goal (< 16 ms).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))

from conftest import CHROMIUM_ARGS  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from snakes_helpers import (  # noqa: E402
    DEVICES,
    mainline,
    play_solution_by_dragging,
    wait_level,
)

import build  # noqa: E402

GOAL_MS = 16.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=int, default=8, help="play levels 1..N (at most 25)")
    parser.add_argument("--rounds", type=int, default=2, help="times each level is played")
    parser.add_argument("--rushed", action="store_true", help="send each drag's path at once")
    args = parser.parse_args()
    block = mainline()
    levels = max(1, min(args.levels, len(block["levels"])))
    server = build.make_server(build.SITE, port=0)
    build.start_in_thread(server)
    host, port = server.server_address[:2]
    progress = {"format": "gridforge.progress/1", "mines": {"run": None},
                "snakes": {"done": {}, "open": levels}}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(build.CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
            context = browser.new_context(base_url=f"http://{host}:{port}/", **DEVICES["desktop"])
            page = context.new_page()
            page.goto("/")
            page.evaluate("() => window.gridforge.ready")
            page.evaluate("(t) => localStorage.setItem('gridforge.progress', t)",
                          json.dumps(progress))
            page.reload()
            page.evaluate("() => window.gridforge.ready")
            for n in range(1, levels + 1):
                for _ in range(args.rounds):
                    page.goto("/#home")
                    page.goto(f"/#snakes/level/{n}")
                    wait_level(page, n)
                    solution = block["certificates"][n - 1]["solution"]
                    play_solution_by_dragging(page, "desktop", solution,
                                              paced=not args.rushed)
            samples = page.evaluate("() => window.gridforgeMetrics.dragSteps")
            frames = page.evaluate("() => window.gridforgeMetrics.dragFrames")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"drag steps measured: {len(samples)} (levels 1-{levels}, {args.rounds} rounds, "
          f"{'rushed' if args.rushed else 'paced'})")
    for name, values in (("pointer move -> board redrawn", samples),
                         ("pointer move -> next frame", frames)):
        values.sort()
        p90 = values[int(0.9 * (len(values) - 1))]
        print(f"{name}: median {statistics.median(values):.1f} ms, p90 {p90:.1f} ms, "
              f"min {values[0]:.1f} ms, max {values[-1]:.1f} ms")
    median = statistics.median(samples)
    print(f"goal median < {GOAL_MS:.0f} ms: ratio {median / GOAL_MS:.2f} "
          f"({'met' if median < GOAL_MS else 'NOT met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
