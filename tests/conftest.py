"""Shared pytest set-up: deterministic hypothesis profiles for CPython and Pyodide."""

import os
import sys

from hypothesis import HealthCheck, settings

# derandomize: the same examples every run, so CI never flakes on a lucky draw;
# no deadline: timing is never asserted in tests (benchmarks measure speed).
settings.register_profile(
    "default",
    derandomize=True,
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
# Inside Pyodide the same properties run with fewer examples (it is 1.2-3.5x slower).
settings.register_profile(
    "pyodide",
    derandomize=True,
    deadline=None,
    max_examples=25,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)
IN_PYODIDE = sys.platform == "emscripten"
settings.load_profile(
    os.environ.get("GRIDFORGE_HYPOTHESIS", "pyodide" if IN_PYODIDE else "default")
)
