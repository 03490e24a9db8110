"""Whether this code builds main-line levels byte for byte as a built folder holds them.

    .venv/bin/python bench/same_levels.py /work/line 3 17 36 61

Prints, per level, the process CPU seconds and "same" or "DIFFERENT"; exits 1 on any
difference. Used to show that a speed-up leaves the designer's output alone.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from gridforge.snakes.design.line_levels import design_level


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("levels", type=int, nargs="+")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    differ = 0
    for n in args.levels:
        first = (n - 1) // 25 * 25 + 1
        block = json.loads((args.folder / f"main-{first:04}-{first + 24:04}.json").read_text())
        start = time.process_time()
        built = json.loads(json.dumps(design_level(n, args.seed)))
        same = built == [block["levels"][n - first], block["certificates"][n - first]]
        differ += not same
        print(f"level {n}: {time.process_time() - start:6.1f} CPU s, "
              f"{'same' if same else 'DIFFERENT'}", flush=True)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
