"""How the shipped main line reads (spec section 5c), band by band.

Every level of the line is read with :func:`gridforge.snakes.solver.legibility.reading` against its
certificate: body lengths, folded bodies, occupancy, outer colours, solo costs (exact, by A*
under a counted state budget), body bound, joint and steering steps, drags; beside them what
issue 41 asks of holes (one per colour, against a wall) and the mechanics and terrain shares.
Two Markdown tables (what a player sees; steps), one row per band (levels 1-10, 11-100, then
bands of 100), then the work and the time it took (a benchmark may time; nothing here is
judged by seconds).

    .venv/bin/python bench/mainline_reading.py                      # the shipped line
    .venv/bin/python bench/mainline_reading.py --folder /work/line --budget 50000
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from gridforge.snakes.design.line_plan import breather
from gridforge.snakes.design.line_report import uses_mechanics
from gridforge.snakes.game.certfile import Certificate
from gridforge.snakes.game.level import Level, level_from_json
from gridforge.snakes.game.levelfile import LevelJson
from gridforge.snakes.game.mainline import BLOCK_NAME
from gridforge.snakes.solver.legibility import SOLO_BUDGET, Reading, SoloBudget, reading

DATA = Path(__file__).resolve().parent.parent / "pkg" / "gridforge" / "snakes" / "data"


@dataclass(frozen=True)
class Read:
    """One level's reading (None when a solo search ran out of budget), its seconds, and
    what issue 41 asks of its holes, mechanics and terrain."""

    n: int
    reading: Reading | None
    seconds: float
    one_hole_per_colour: bool  # no colour has two holes
    holes: int
    holes_at_wall: int  # holes with the board's edge or a stone beside them
    mechanics: bool  # coats, freezes or locks (line_report.uses_mechanics)
    terrain: bool  # coloured paths or bridges


def _at_wall(level: Level, cell: tuple[int, int]) -> bool:
    x, y = cell
    stones = set(level.stones)
    return any(not (0 <= x + dx < level.cols and 0 <= y + dy < level.rows)
               or (x + dx, y + dy) in stones for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)))


def read_level(n: int, data: LevelJson, cert: Certificate, budget: int) -> Read:
    """Main-line level ``n`` read against its certificate."""
    level = level_from_json(data)
    start = time.process_time()
    try:
        got: Reading | None = reading(level, cert, budget=budget)
    except SoloBudget:
        got = None
    seconds = time.process_time() - start
    colours = [h.color for h in level.holes]
    return Read(n, got, seconds, len(colours) == len(set(colours)), len(level.holes),
                sum(_at_wall(level, h.cell) for h in level.holes),
                bool(uses_mechanics(data)), level.has_terrain)


def read_line(folder: Path, budget: int) -> list[Read]:
    """Every level of the block files in ``folder``, read in level order."""
    out: list[Read] = []
    for path in sorted(folder.glob("main-*.json")):
        match = BLOCK_NAME.fullmatch(path.name)
        if not match:
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        for i, (level, cert) in enumerate(zip(data["levels"], data["certificates"],
                                              strict=True)):
            out.append(read_level(int(match[1]) + i, level, cert, budget))
    return sorted(out, key=lambda r: r.n)


def band_of(n: int) -> tuple[int, int]:
    """The band of level ``n``: 1-10, 11-100, then 101-200, ..."""
    if n <= 10:
        return 1, 10
    if n <= 100:
        return 11, 100
    first = (n - 1) // 100 * 100 + 1
    return first, first + 99


def _med(values: list[float] | list[int]) -> str:
    return f"{statistics.median(values):g}" if values else "-"


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "-"


def shape_row(reads: list[Read]) -> list[str]:
    """A band's figures of what a player sees."""
    done = [r.reading for r in reads if r.reading is not None]
    lengths = [x for r in done for x in r.lengths]
    return [
        _med([r.floor_cells for r in done]),
        _med([len(r.lengths) for r in done]),
        _med(lengths), str(max(lengths, default=0)),
        _med([x for r in done for x in r.turns]),
        _share(sum(r.folded_count for r in done), len(lengths)),
        f"{statistics.median([r.occupancy for r in done]):.2f}" if done else "-",
        f"{max((r.occupancy for r in done), default=0):.2f}",
        str(max((r.outer_colours for r in done), default=0)),
        _share(sum(r.one_hole_per_colour for r in reads), len(reads)),
        _share(sum(r.holes_at_wall for r in reads), sum(r.holes for r in reads)),
        _share(sum(r.mechanics for r in reads), len(reads)),
        _share(sum(r.terrain for r in reads), len(reads)),
    ]


def steps_row(reads: list[Read]) -> list[str]:
    """A band's figures of steps."""
    done = [r.reading for r in reads if r.reading is not None]
    steps = [r.steps for r in done if r.steps is not None]
    low = [x.n for x in reads if x.reading is not None and x.reading.joint_steps < 1]
    return [
        _med(steps), str(max(steps, default=0)),
        _med([r.drags for r in done if r.drags is not None]),
        _med([r.travel_bound for r in done]),
        _med([r.steering_steps for r in done]),
        _med([r.joint_steps for r in done]),
        _med([r.joint_steps for r in done if r.proven]),
        _med([r.steps - r.body_bound for r in done if r.steps is not None]),
        str(len(low)), str(sum(1 for n in low if not breather(n))),
        _share(sum(r.proven for r in done), len(done)),
        str(len(reads) - len(done)),
    ]


SHAPE = ("band", "levels", "floor", "bodies", "length", "max length", "turns", "folded",
         "occupancy", "max occ.", "max outer", "one hole per colour", "holes at a wall",
         "mechanics", "terrain")
STEPS = ("band", "steps", "max steps", "drags", "travel", "steering", "joint", "joint, proven",
         "joint (cert.)", "joint<1", "of them not breathers", "proven", "out of budget")


def table(header: tuple[str, ...], rows: list[list[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=DATA)
    parser.add_argument("--budget", type=int, default=SOLO_BUDGET,
                        help="states one body's solo search may store")
    args = parser.parse_args()
    wall = time.perf_counter()
    reads = read_line(args.folder, args.budget)
    wall = time.perf_counter() - wall
    bands: dict[tuple[int, int], list[Read]] = {}
    for r in reads:
        bands.setdefault(band_of(r.n), []).append(r)
    names = {key: f"{key[0]}-{key[1]}" for key in bands}
    print(table(SHAPE, [[names[k], str(len(got)), *shape_row(got)]
                        for k, got in sorted(bands.items())]))
    print()
    print(table(STEPS, [[names[k], *steps_row(got)] for k, got in sorted(bands.items())]))
    done = [r for r in reads if r.reading is not None]
    states = [s for r in done if r.reading is not None for s in r.reading.solo_states]
    slow = max(reads, key=lambda r: r.seconds)
    print(f"\n{len(reads)} levels, {len(done)} read within the budget of {args.budget:,} "
          f"states per body; solo searches: {len(states)}, stored states median "
          f"{statistics.median(states):g}, max {max(states):,}, total {sum(states):,}")
    print(f"CPU {sum(r.seconds for r in reads):.1f} s (wall {wall:.1f} s); slowest level "
          f"{slow.n}: {slow.seconds:.2f} s")


if __name__ == "__main__":
    main()
