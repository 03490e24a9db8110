"""A difficulty signal beside the design score: how much a fixed search works to solve each
band's levels.

For a fixed sample of levels per band of 100 (every ``--stride``-th level, offset so that
breathers and wave peaks both appear), a weighted A* with a fixed heuristic and weight
(``f = g + 3 h``, the game's own admissible bound, at most ``--states`` stored states) is run
from the start with no upper bound, and the states it stores before its first solution are
recorded; a level it cannot solve within the budget counts as the budget. The signal knows
nothing of the seven-term score, the certificate or the designer's searches, so a line whose
score climbs while this stays flat climbs on paper only (issue 18: "an independent difficulty
signal keeps rising through the top bands"). Counted work, not seconds: the same line prints
the same figures on any machine.

    .venv/bin/python bench/mainline_effort.py                         # the shipped line
    .venv/bin/python bench/mainline_effort.py --folder /work/line --stride 5 --workers 2
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import statistics
from pathlib import Path

from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.mainline import BLOCK_NAME
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.search import Solver

DATA = Path(__file__).resolve().parent.parent / "pkg" / "gridforge" / "snakes" / "data"
BAND = 100


def effort(level: dict[str, object], states: int) -> tuple[int, bool]:
    """States a ``w = 3`` A* stores before its first solution of ``level`` (and whether it
    found one within ``states``)."""
    found = Solver(Game(level_from_json(level))).astar(max_states=states, max_seconds=3600.0,
                                                        weight=3)
    return found.stored, found.moves is not None


def sample(folder: Path, stride: int) -> list[tuple[int, dict[str, object]]]:
    """Every ``stride``-th built level of ``folder`` (levels 3, 3 + stride, ...)."""
    out = []
    for path in sorted(folder.glob("main-*.json")):
        match = BLOCK_NAME.fullmatch(path.name)
        if not match:
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        for i, level in enumerate(data["levels"]):
            n = int(match[1]) + i
            if n % stride == 3 % stride:
                out.append((n, level))
    return sorted(out, key=lambda p: p[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=DATA)
    parser.add_argument("--stride", type=int, default=10)
    parser.add_argument("--states", type=int, default=200_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    levels = sample(args.folder, args.stride)
    with cf.ProcessPoolExecutor(max_workers=args.workers) as pool:
        results = list(pool.map(effort, [lv for _, lv in levels], [args.states] * len(levels)))
    bands: dict[int, list[tuple[int, bool]]] = {}
    for (n, _), result in zip(levels, results, strict=True):
        bands.setdefault((n - 1) // BAND, []).append(result)
    print(f"w = 3 A*, states stored before the first solution (budget {args.states:,}), "
          f"every {args.stride}th level\n")
    print("| band | levels | median states | mean states | out of budget |")
    print("| --- | --- | --- | --- | --- |")
    for b, got in sorted(bands.items()):
        stored = [s for s, _ in got]
        lost = sum(1 for _, ok in got if not ok)
        print(f"| {b * BAND + 1}-{b * BAND + BAND} | {len(got)} | "
              f"{statistics.median(stored):,.0f} | {statistics.mean(stored):,.0f} | {lost} |")


if __name__ == "__main__":
    main()
