"""Where the build reads and writes: the repository, build/ and its parts, the virtual
environment, the main line's data and the browser the tests drive."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
SITE = BUILD / "site"
DIST = BUILD / "dist"
WHEELHOUSE = BUILD / "wheelhouse"  # pure-Python wheels for the Pyodide test run
VENV = ROOT / ".venv"
LEVEL_DATA = ROOT / "pkg" / "gridforge" / "snakes" / "data"  # main-line blocks
CHROMIUM = Path("/usr/bin/chromium")

RUNTIME_CACHE = BUILD / "runtime-cache"  # what node made once per input, by its hash


def venv_python() -> Path:
    """The virtual environment's Python (what the suites and the build's pip run on)."""
    return VENV / "bin" / "python"

