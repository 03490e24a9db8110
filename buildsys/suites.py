"""The test runner: sets up what the chosen suites need and runs them (ruff, mypy, pytest,
the tests inside Pyodide beside them, the browser tests), reporting each."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Mapping

from buildsys.install import download_wheels, ensure_chromium, ensure_npm, ensure_venv
from buildsys.paths import BUILD, ROOT, WHEELHOUSE, venv_python
from buildsys.steps import Command, say
from buildsys.website import build_all

# Pure-Python wheels that run the package's tests inside Pyodide under Node.js. The newest
# hypothesis releases ship only compiled wheels, so the pin is the last pure one, used on
# CPython too (pyproject.toml) so that both runs draw the same examples.
PYODIDE_TEST_WHEELS = (
    "pytest==9.2.0",
    "pluggy==1.7.0",
    "iniconfig==2.3.1",
    "packaging==26.4",
    "pygments==2.21.0",
    "hypothesis==6.155.7",
    "sortedcontainers==2.4.0",
)
SUITES = ("ruff", "mypy", "tsc", "pytest", "pyodide", "e2e")  # in the order they are reported


def run_suite(name: str, cmd: Command, env: Mapping[str, str] | None = None) -> bool:
    """Run one suite in the foreground, its output as it comes; whether it passed."""
    say(f"--- {name}: {' '.join(str(c) for c in cmd)}")
    started = time.monotonic()
    code = subprocess.call([str(c) for c in cmd], cwd=ROOT, env=env)
    say(f"--- {name}: exit code {code} after {time.monotonic() - started:.1f} s")
    return code == 0


class SuiteBeside:
    """A suite run in a process of its own beside the others (on a second core), its output
    kept in a log that is printed whole when it ends, so that it never interleaves."""

    def __init__(self, name: str, cmd: Command, env: Mapping[str, str]) -> None:
        self.name = name
        self.log = BUILD / f"{name}-suite.log"
        self.log.parent.mkdir(parents=True, exist_ok=True)
        say(f"--- {name} (beside the others; output when it ends): "
            f"{' '.join(str(c) for c in cmd)}")
        self.started = time.monotonic()
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen([str(c) for c in cmd], cwd=ROOT, env=env,
                                         stdout=out, stderr=subprocess.STDOUT)

    def finish(self) -> bool:
        """Wait for the suite, print its output; whether it passed."""
        code = self.proc.wait()
        say(f"--- {self.name}: its output")
        sys.stdout.write(self.log.read_text(encoding="utf-8", errors="replace"))
        say(f"--- {self.name}: exit code {code} after {time.monotonic() - self.started:.1f} s")
        return code == 0


def run_tests(only: list[str]) -> int:
    """Set up what the chosen suites need (all suites when ``only`` is empty), run them."""
    chosen = [name for name in SUITES if not only or name in only]
    full = "pyodide" in chosen or "e2e" in chosen  # the site is built: every part is there
    if "e2e" in chosen or (full and "pytest" in chosen):
        ensure_chromium()  # the e2e tests, and pytest's Lighthouse run on the built site
    if full:
        build_all()
    else:
        ensure_venv()  # ruff, mypy and pytest run on the sources
        if "tsc" in chosen:
            ensure_npm()  # the pinned TypeScript compiler
    if "pyodide" in chosen:
        download_wheels("download the Pyodide test wheels", PYODIDE_TEST_WHEELS, WHEELHOUSE,
                        python_version="3.14")
    py = venv_python()
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    if full:
        env["GRIDFORGE_FULL_SUITE"] = "1"  # everything is installed: a missing part fails
    suites: dict[str, Command] = {
        "ruff": [py, "-m", "ruff", "check", "."],
        "mypy": [py, "-m", "mypy", "--strict", "pkg/gridforge", "buildsys", "tools", "build.py",
                 "bench"],
        # The page's JavaScript against the types generated from Python (web/types/): the
        # page's modules, then the two workers (their global scope is not a window's).
        "tsc": [py, "-m", "buildsys.typecheck"],
        # --durations: the slowest tests in every log, where the suite's time goes. Two
        # workers: the Pyodide run beside them needs a core for about a third of their time.
        "pytest": [py, "-m", "pytest", "-q", "--durations=15", "-n", "2", "tests"],
        "pyodide": ["node", ROOT / "tools" / "pyodide_run.mjs", "test"],
        # Two browsers at once, a test module each (its served site and browser stay shared
        # within the module).
        "e2e": [py, "-m", "pytest", "-q", "--durations=25", "-n", "2", "--dist", "loadfile",
                "e2e"],
    }
    # The Pyodide run shares nothing with the CPython suites and takes about as long as
    # pytest: it starts first and runs beside ruff, mypy and pytest; its turn in SUITES
    # (after pytest, before the browser tests) is where it is waited for.
    beside = SuiteBeside("pyodide", suites["pyodide"], env) if (
        "pyodide" in chosen and len(chosen) > 1) else None
    failed = [name for name in chosen if not (
        beside.finish() if name == "pyodide" and beside is not None
        else run_suite(name, suites[name], env))]
    if failed:
        say(f"FAILED: {', '.join(failed)}")
        return 1
    say("all suites passed")
    return 0

