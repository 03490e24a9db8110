"""bench/audit, the independent audit of snakes levels, stays independent: it imports the
standard library and its own package only, never ``gridforge``, so that it checks the game's
rules, solver and designer instead of repeating them."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.cpython_only  # reads the repository's bench/ folder

AUDIT = Path(__file__).resolve().parents[1] / "bench" / "audit"


def imported(source: str) -> list[str]:
    """Every module a source imports (``from . import x`` counts as its package's own)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append("bench.audit" if node.level else node.module or "")
    return names


def foreign(names: list[str]) -> list[str]:
    """The imports that are neither the standard library nor the audit package."""
    return [name for name in names
            if not (name == "bench.audit" or name.startswith("bench.audit.")
                    or name.split(".")[0] in sys.stdlib_module_names)]


def test_the_scan_sees_every_way_of_importing() -> None:
    source = ("import json\nimport gridforge.snakes.rules as r\nfrom gridforge import errors\n"
              "from bench.audit.shared import astar\nfrom . import line\nimport bench.helpers\n"
              "def f():\n    from gridforge.snakes import level\n")
    assert foreign(imported(source)) == ["gridforge.snakes.rules", "gridforge", "bench.helpers",
                                         "gridforge.snakes"]


def test_the_audit_imports_only_the_standard_library_and_itself() -> None:
    modules = sorted(AUDIT.glob("*.py"))
    assert {p.name for p in modules} >= {"__init__.py", "shared.py", "line.py", "puzzle.py"}
    for path in modules:
        assert foreign(imported(path.read_text(encoding="utf-8"))) == [], path.name
