"""Benchmark: cold time from navigation to ready in headless Chromium, and the wheel's size.

    .venv/bin/python bench/web_startup.py [--runs 5]

Needs a built site (`python3 build.py build`). Each run uses a fresh browser context (no
cache), serves the site from this process on a free loopback port, and measures from
`page.goto` to the moment `window.gridforge.ready` settles. Prints each run, the median,
the wheel's size, and the ratios against the goals (ready < 5 s, wheel < 1 MiB).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))

from conftest import CHROMIUM_ARGS  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402

READY_GOAL_S = 5.0
WHEEL_GOAL_BYTES = 1024 * 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    manifest = json.loads((build.SITE / "manifest.json").read_text())
    server = build.make_server(build.SITE, port=0)
    build.start_in_thread(server)
    host, port = server.server_address[:2]
    times = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(build.CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
            for run in range(1, args.runs + 1):
                context = browser.new_context()
                page = context.new_page()
                started = time.perf_counter()
                page.goto(f"http://{host}:{port}/")
                versions = page.evaluate("() => window.gridforge.ready")
                elapsed = time.perf_counter() - started
                times.append(elapsed)
                stages = versions["timings"]
                steps = ", ".join(
                    f"{name} {stages[name] - stages[prev]} ms"
                    for prev, name in zip(list(stages), list(stages)[1:], strict=False)
                )
                print(f"run {run}: navigation to ready {elapsed:.2f} s (in the worker: {steps})")
                context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    median = statistics.median(times)
    wheel = manifest["wheel_bytes"]
    print(f"cold start median: {median:.2f} s over {len(times)} runs "
          f"(min {min(times):.2f}, max {max(times):.2f}); goal {READY_GOAL_S:.0f} s, "
          f"ratio {median / READY_GOAL_S:.2f}")
    print(f"wheel: {manifest['wheel']} {wheel / 1024:.1f} KiB; goal 1024 KiB, "
          f"ratio {wheel / WHEEL_GOAL_BYTES:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
