"""Benchmark of the snakes size limits: ``design-levels --verify`` at the largest inputs.

    .venv/bin/python bench/snakes_limits.py

Runs the real command (``python -m gridforge design-levels --verify ...``, a child process)
on each input below and prints its exit code, wall-clock time and peak memory (the child's
maximum resident set size) beside the limit that docs/snakes-engine.md states for it:

- the largest level the validator accepts (18x24 board, 400 floor cells, 16 bodies holding
  350 cells, 50 layers and holes, 15 colours) with the default budgets (200,000 states,
  10 s): the search may end undetermined; what is measured is that it ends within them;
  then once more with the seconds out of the way, so that the state budget decides: its
  peak memory is the figure the state budget bounds;
- a level file of exactly the level cap (1 MiB, the rest of it a meta note): accepted;
- a file one byte above the cap, and a level listing one stone two million times (16 MB):
  refused by their size before any parsing.

Each row prints ``ok`` when the time and the memory are inside the stated limits.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gridforge.snakes.game.level import (
    MAX_BODIES,
    MAX_COLS,
    MAX_FLOOR,
    MAX_LEVEL_BYTES,
    MAX_ROWS,
    MAX_TOTAL_CELLS,
    level_from_json,
    spec_example,
)

# The limits docs/snakes-engine.md states (seconds are wall-clock on a shared 2-core machine).
LIMITS = {
    "largest level, default budgets": (25.0, 400),  # 10 s budget + start-up and replay
    # The whole state budget, whatever it takes: its memory is the bound a user relies on.
    "largest level, 200,000 states": (600.0, 400),
    "level file at the 1 MiB cap": (25.0, 400),
    "file 1 byte over the cap": (3.0, 64),  # start-up and imports: nothing is parsed
    "two million duplicate stones": (3.0, 64),
}


def largest_level() -> dict[str, Any]:
    """The largest level the validator accepts, built by a fixed rule.

    The bottom row and 14 cells of the one above are stones (floor 400); one boustrophedon
    path over the top rows is cut into 16 bodies of 22 or 21 cells (350 in all); the 50
    floor cells left hold the holes, one per layer (11 bodies of 4 layers, one of 2, four
    of 1), coloured 0..14 in turn.
    """
    cols, rows = MAX_COLS, MAX_ROWS
    stones = [[x, rows - 1] for x in range(cols)] + [[x, rows - 2] for x in range(14)]
    path = [[x if y % 2 == 0 else cols - 1 - x, y] for y in range(rows - 2) for x in range(cols)]
    lengths = [22] * 14 + [21] * 2
    layers = [4] * 11 + [2] + [1] * 4
    bodies, colors, at = [], [], 0
    for i, (length, count) in enumerate(zip(lengths, layers, strict=True)):
        cells = path[at: at + length]
        at += length
        body_colors = [(i + k) % 15 for k in range(count)]
        colors += body_colors
        bodies.append({"cells": cells, "colors": body_colors})
    free = path[at:] + [[x, rows - 2] for x in range(14, cols)]
    holes = [{"cell": cell, "color": color} for cell, color in zip(free, colors, strict=True)]
    level = {"format": "gridforge.snakes.level/1", "cols": cols, "rows": rows, "stones": stones,
             "bodies": bodies, "holes": holes}
    parsed = level_from_json(level)
    assert len(parsed.bodies) == MAX_BODIES and parsed.floor_count == MAX_FLOOR
    assert sum(len(b.cells) for b in parsed.bodies) == MAX_TOTAL_CELLS
    return level


def capped_level_text() -> bytes:
    """The spec's example padded by a meta note to exactly MAX_LEVEL_BYTES."""
    level = spec_example()
    level["meta"]["note"] = ""
    base = len(json.dumps(level).encode())
    level["meta"]["note"] = "x" * (MAX_LEVEL_BYTES - base)
    data = json.dumps(level).encode()
    assert len(data) == MAX_LEVEL_BYTES
    return data


# The child reports its own peak (ru_maxrss of itself, in KiB on Linux) on its last line:
# the parent's memory, shared at fork, must not count.
CHILD = """
import resource, sys
from gridforge.cli import main
try:
    code = main(sys.argv[1:])
finally:
    print("peak-kib", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
sys.exit(code)
"""


def run_verify(path: Path, out: Path, *extra: str) -> tuple[int, float, float, str]:
    """(exit code, seconds, peak MiB of the command, its last line of output)."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", CHILD, "design-levels", "--verify",
                           str(path), "--out", str(out), "--quiet", *extra],
                          capture_output=True, text=True, check=False)
    seconds = time.monotonic() - start
    lines = (done.stdout + done.stderr).strip().splitlines()
    peak = [int(line.split()[1]) for line in lines if line.startswith("peak-kib")]
    said = [line for line in lines if not line.startswith("peak-kib")]
    return done.returncode, seconds, (peak[-1] if peak else 0) / 1024, said[-1] if said else ""


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        # Written in pieces: this process stays small, and on Linux a child's peak memory
        # starts from its parent's at the fork.
        inputs: list[tuple[str, Path]] = [
            ("file 1 byte over the cap", folder / "over.json"),
            ("two million duplicate stones", folder / "stones.json"),
            ("level file at the 1 MiB cap", folder / "capped.json"),
            ("largest level, default budgets", folder / "largest.json"),
            ("largest level, 200,000 states", folder / "largest.json"),
        ]
        inputs[0][1].write_bytes(b" " * (MAX_LEVEL_BYTES + 1))
        with open(inputs[1][1], "w", encoding="utf-8") as handle:
            head = json.dumps({**spec_example(), "stones": []})
            handle.write(head[: head.index('"stones": [') + len('"stones": [')])
            handle.write("[3, 0]")
            for _ in range(2_000_000 // 100_000):
                handle.write(", [3, 0]" * (100_000 - 1) + ", [3, 0]")
            handle.write(head[head.index('"stones": [') + len('"stones": ['):])
        inputs[2][1].write_bytes(capped_level_text())
        inputs[3][1].write_text(json.dumps(largest_level()), encoding="utf-8")
        print(f"{'input':32} {'bytes':>10} {'exit':>4} {'seconds':>8} {'limit':>6} "
              f"{'peak MiB':>8} {'limit':>6}  verdict")
        failed = 0
        for name, path in inputs:
            extra = ("--seconds", "590") if "states" in name else ()
            code, seconds, mib, last = run_verify(path, folder / "out.json", *extra)
            max_seconds, max_mib = LIMITS[name]
            ok = seconds <= max_seconds and mib <= max_mib and code in (0, 1, 2)
            failed += not ok
            size = path.stat().st_size
            print(f"{name:32} {size:>10} {code:>4} {seconds:>8.2f} {max_seconds:>6g} "
                  f"{mib:>8.1f} {max_mib:>6}  {'ok' if ok else 'OVER'}: {last[:70]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
