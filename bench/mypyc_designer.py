"""Compile the designer's hot modules with mypyc, beside a copy of the package, for long
builds of the main line on this machine (a tool for the team, not part of the wheel).

The modules are the same sources that ``mypy --strict`` checks; mypyc turns them into C
extension modules, which Python imports before a ``.py`` of the same name. The bytes a build
writes do not change (``bench/same_levels.py`` compares levels built both ways); only the
CPU time does.

    .venv/bin/python bench/mypyc_designer.py /tmp/gridforge-mypyc
    PYTHONPATH=/tmp/gridforge-mypyc/pkg .venv/bin/gridforge generate-levels --out DIR --resume

Needs a C compiler and ``setuptools`` in the environment (mypy, pinned in the test extra,
brings mypyc).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The modules where the search spends its time (profiled on main-line levels 150-1900).
HOT = [
    "gridforge/snakes/game/rules.py",
    "gridforge/snakes/solver/matching.py",
    "gridforge/snakes/solver/pairs.py",
    "gridforge/snakes/solver/search.py",
    "gridforge/snakes/solver/improve.py",
    "gridforge/snakes/solver/puzzle.py",
    "gridforge/snakes/design/topology.py",
    "gridforge/snakes/design/backward.py",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="a folder for the copy (replaced)")
    args = parser.parse_args()
    pkg = args.out / "pkg"
    if args.out.exists():
        shutil.rmtree(args.out)
    shutil.copytree(ROOT / "pkg" / "gridforge", pkg / "gridforge",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    mypyc = Path(sys.executable).with_name("mypyc")
    subprocess.run([str(mypyc), *HOT], cwd=pkg, check=True)
    built = sorted(p.relative_to(pkg) for p in pkg.rglob("*.so") if "build" not in p.parts)
    print(f"{len(built)} extension modules in {pkg}:")
    for path in built:
        print(f"  {path}")


if __name__ == "__main__":
    main()
