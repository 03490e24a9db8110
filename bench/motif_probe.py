"""Probe of levels built from motifs (gridforge.snakes.design.motifs), per joint-step target.

For each target, builds one level per seed, certifies it from its built solution with the
game's own searches (counted state budget), reads it (spec 5c) with the certificate's proven
minimum, and prints one Markdown table row per target:

    .venv/bin/python bench/motif_probe.py                       # targets 2 4 8 12 16, seeds 1..20
    .venv/bin/python bench/motif_probe.py --targets 12 --seeds 50 --proof-states 100000
    .venv/bin/python bench/motif_probe.py --doors                 # chambers joined by doors

CPU seconds are process time (design + proof) per level; every search is bounded by counted
states, so the levels and figures are the same on every run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from gridforge.snakes.design.motifs import PROOF_STATES, build_level, prove
from gridforge.snakes.legibility import reading
from gridforge.snakes.level import Level, floor_regions, level_from_json

HEADER = ("| target | built/asked | joint med | joint max | joint = target | steps med | "
          "steps max | proven | occ. med | occ. max | bodies med | max length | folded | "
          "max outer | holes at a wall | one hole per colour | steering/steps med | drags med | "
          "CPU s/level med | max | regions med | families |")


def _at_wall(level: Level, cell: tuple[int, int]) -> bool:
    """Whether a cell touches the board's edge or a stone."""
    x, y = cell
    stones = set(level.stones)
    return any(not (0 <= x + dx < level.cols and 0 <= y + dy < level.rows)
               or (x + dx, y + dy) in stones for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))


def _row(target: int, seeds: int, proof_states: int, doors: bool) -> str:
    """One table row: build, prove and read ``seeds`` levels for ``target``."""
    joints: list[int] = []
    steps: list[int] = []
    occ: list[float] = []
    bodies: list[int] = []
    cpu: list[float] = []
    steering: list[float] = []
    drag_counts: list[int] = []
    regions: list[int] = []
    families: Counter[str] = Counter()
    proven = hit = folded = nbodies = holes = wall = single = outer = longest = 0
    for seed in range(1, seeds + 1):
        t0 = time.process_time()
        built = build_level(seed, target, doors=doors)
        if built is None:
            cpu.append(time.process_time() - t0)
            continue
        cert = prove(built, proof_states)
        cpu.append(time.process_time() - t0)
        level = level_from_json(built.level)
        read = reading(level, cert)
        proven += read.proven
        joints.append(read.joint_steps)
        hit += read.joint_steps == target
        steps.append(int(cert["steps"] or 0))
        steering.append(read.steering_steps / max(1, steps[-1]))
        drag_counts.append(read.drags or 0)
        regions.append(len(floor_regions(level)))
        occ.append(read.occupancy)
        bodies.append(len(level.bodies))
        folded += read.folded_count
        nbodies += len(level.bodies)
        longest = max(longest, *read.lengths)
        outer = max(outer, read.outer_colours)
        holes += len(level.holes)
        wall += sum(_at_wall(level, h.cell) for h in level.holes)
        per = Counter(h.color for h in level.holes)
        single += all(v == 1 for v in per.values())
        families.update(built.families)
    n = len(joints)
    if not n:
        return f"| {target} | 0/{seeds} |" + " |" * 20
    mix = " ".join(f"{f} {c}" for f, c in families.most_common())
    return (f"| {target} | {n}/{seeds} | {statistics.median(joints):g} | {max(joints)} | "
            f"{hit}/{n} | {statistics.median(steps):g} | {max(steps)} | {proven}/{n} | "
            f"{statistics.median(occ):.2f} | {max(occ):.2f} | {statistics.median(bodies):g} | "
            f"{longest} | {folded / nbodies:.0%} | {outer} | {wall / holes:.0%} | "
            f"{single}/{n} | {statistics.median(steering):.0%} | "
            f"{statistics.median(drag_counts):g} | "
            f"{statistics.median(cpu):.2f} | {max(cpu):.2f} | "
            f"{statistics.median(regions):g} | {mix} |")


def main() -> None:
    """Parse the flags and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", type=int, nargs="+", default=[2, 4, 8, 12, 16])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--proof-states", type=int, default=PROOF_STATES)
    parser.add_argument("--doors", action="store_true",
                        help="join the chambers by doors into one floor region")
    args = parser.parse_args()
    print(HEADER)
    print("|" + " --- |" * HEADER.count(" | ") + " --- |")
    for target in args.targets:
        print(_row(target, args.seeds, args.proof_states, args.doors), flush=True)


if __name__ == "__main__":
    main()
