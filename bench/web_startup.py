"""Benchmark: start-up in headless Chromium, first and second visit, against bare Pyodide.

    .venv/bin/python bench/web_startup.py [--runs 5]

Needs a built site (`python3 build.py build`). The site is copied to a temporary folder
beside a bare page (`bare.html`: a module worker that only loads Pyodide from the same
site's runtime and says so) and served from this process on a free loopback port, with the
same headers as `build.py serve`. Each run, in its own fresh browser context (no HTTP cache,
no service worker):

1. first visit of the bare page: `page.goto` until its worker's Pyodide is loaded;
2. first visit of the site: `page.goto` until `window.gridforge.ready` settles;
3. second visit: once the site's service worker is active (its cache filled), a new page of
   the same context, `page.goto` until ready, every file from the service worker's cache.

The two first visits alternate inside each run, so both see the same load on the machine.
Prints each run (with the worker's own stage times), the medians, the first visit's
difference to the bare page (goal <= 0.3 s), the second visit's median (goal < 1.5 s), the
wheel's size (goal < 1 MiB), and each figure's ratio to its goal.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

from buildsys.paths import CHROMIUM, SITE
from buildsys.server import make_server, start_in_thread
from e2e.conftest import CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parent.parent

FIRST_VISIT_OVERHEAD_GOAL_S = 0.3
SECOND_VISIT_GOAL_S = 1.5
WHEEL_GOAL_BYTES = 1024 * 1024
TIMEOUT_MS = 120_000

BARE_HTML = """<!doctype html>
<meta charset="utf-8"><title>bare Pyodide</title>
<script type="module">
  const worker = new Worker("./bare-worker.js", { type: "module" });
  window.bareReady = null;
  worker.onmessage = (event) => { window.bareReady = event.data; };
  worker.onerror = (event) => { document.title = `failed: ${event.message}`; };
</script>
"""
BARE_WORKER = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
self.postMessage(pyodide.runPython("import sys; sys.version"));
"""


def stages(versions: dict[str, Any]) -> str:
    timings = versions.get("timings") or {}
    names = list(timings)
    return ", ".join(f"{name} {timings[name] - timings[prev]} ms"
                     for prev, name in itertools.pairwise(names))


def visit(page: Page, url: str, ready: str) -> tuple[float, Any]:
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_function(f"() => {ready}", timeout=TIMEOUT_MS)
    elapsed = time.perf_counter() - started
    return elapsed, page.evaluate(f"() => {ready}")


def one_run(browser: Browser, base: str
            ) -> tuple[float, float, float, dict[str, Any], dict[str, Any]]:
    """Bare first visit, site first visit, site second visit (seconds) and the versions."""
    context = browser.new_context()
    try:
        page = context.new_page()
        bare, _ = visit(page, base + "bare.html",
                        "window.bareReady")
    finally:
        context.close()
    context = browser.new_context()
    try:
        page = context.new_page()
        first, versions = visit(page, base, "window.gridforge && window.gridforge.versions")
        # Wait until the service worker is active with its cache filled.
        page.evaluate("() => { window.swReady = false;"
                      " navigator.serviceWorker.ready.then(() => { window.swReady = true; }); }")
        page.wait_for_function("() => window.swReady", timeout=TIMEOUT_MS)
        page.close()
        page = context.new_page()
        from_network: list[str] = []
        page.on("response", lambda r: None if r.from_service_worker or r.url.endswith("/sw.js")
                else from_network.append(r.url))
        second, warm = visit(page, base, "window.gridforge && window.gridforge.versions")
        if from_network:
            raise SystemExit(f"second visit fetched from the network: {from_network}")
    finally:
        context.close()
    return bare, first, second, versions, warm


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if not (SITE / "sw-manifest.json").exists():
        print("web_startup.py: the site is not built: run `python3 build.py build`",
              file=sys.stderr)
        return 2
    manifest = json.loads((SITE / "manifest.json").read_text())
    bares, firsts, seconds = [], [], []
    with tempfile.TemporaryDirectory(prefix="gridforge-bench-") as tmp:
        host_dir = Path(tmp) / "site"
        shutil.copytree(SITE, host_dir)
        (host_dir / "bare.html").write_text(BARE_HTML)
        (host_dir / "bare-worker.js").write_text(BARE_WORKER)
        server = make_server(host_dir, port=0)
        start_in_thread(server)
        host, port = server.server_address[:2]
        assert isinstance(host, str)
        base = f"http://{host}:{port}/"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
                )
                try:
                    for run in range(1, args.runs + 1):
                        bare, first, second, versions, warm = one_run(browser, base)
                        bares.append(bare)
                        firsts.append(first)
                        seconds.append(second)
                        print(f"run {run}: bare Pyodide {bare:.2f} s; first visit {first:.2f} s"
                              f" (+{first - bare:.2f}; worker: {stages(versions)}); second "
                              f"visit {second:.2f} s (worker: {stages(warm)})", flush=True)
                finally:
                    browser.close()
        finally:
            server.shutdown()
            server.server_close()

    def spread(values: list[float]) -> str:
        return (f"{statistics.median(values):.2f} s median of {len(values)} "
                f"({min(values):.2f}-{max(values):.2f})")

    overheads = [first - bare for bare, first in zip(bares, firsts, strict=True)]
    overhead = statistics.median(overheads)
    second = statistics.median(seconds)
    wheel = manifest["wheel_bytes"]
    print(f"bare Pyodide page, first visit: {spread(bares)}")
    print(f"gridforge, first visit: {spread(firsts)}")
    print(f"first visit minus bare Pyodide (per run, median): {overhead:+.2f} s "
          f"(runs: {', '.join(f'{o:+.2f}' for o in overheads)}); goal <= "
          f"{FIRST_VISIT_OVERHEAD_GOAL_S} s, ratio {overhead / FIRST_VISIT_OVERHEAD_GOAL_S:.2f}")
    print(f"gridforge, second visit (service worker warm): {spread(seconds)}; goal < "
          f"{SECOND_VISIT_GOAL_S} s, ratio {second / SECOND_VISIT_GOAL_S:.2f}")
    print(f"wheel: {manifest['wheel']} {wheel / 1024:.1f} KiB; goal 1024 KiB, "
          f"ratio {wheel / WHEEL_GOAL_BYTES:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
