"""Shared pytest set-up: deterministic hypothesis profiles for CPython and Pyodide, the
``fuzz_long`` marker (long fuzz runs, left out unless ``-m fuzz_long`` asks for them) and the
``requires`` marker (a test that needs an optional part: skipped without it, except under the
README's test command, which installs every part and so fails instead)."""

import os
import sys

import pytest
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
# Set by `python3 build.py test` once it has installed everything the suites use (the venv
# with the test and cluster extras, node_modules, the built site).
FULL_SUITE = os.environ.get("GRIDFORGE_FULL_SUITE") == "1"
settings.load_profile(
    os.environ.get("GRIDFORGE_HYPOTHESIS", "pyodide" if IN_PYODIDE else "default")
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "fuzz_long: the long fuzz run (>= 10,000 cases per loader); deselected "
        "unless -m names fuzz_long"
    )
    config.addinivalue_line(
        "markers", "requires(present, what): the test needs an optional part; skipped when "
        "it is absent, a failure under the README's test command"
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in item.iter_markers("requires"):
        present, what = marker.args
        if not present:
            if FULL_SUITE:
                pytest.fail(f"the test command installs it, yet it is missing: {what}")
            pytest.skip(what)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The long fuzz run takes many minutes: it runs only when asked for by name.
    if "fuzz_long" in (config.getoption("markexpr") or ""):
        return
    kept = [item for item in items if item.get_closest_marker("fuzz_long") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept
