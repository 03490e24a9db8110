"""Probe of levels built from motifs (gridforge.snakes.design.motifs), per joint-step target.

For each target, builds one level per seed, certifies it from its built solution with the
game's own searches (counted state budget), reads it (spec 5c) with the certificate's proven
minimum, and prints one Markdown table row per target:

    .venv/bin/python bench/motif_probe.py                       # targets 2 4 8 12 16, seeds 1..20
    .venv/bin/python bench/motif_probe.py --targets 12 --seeds 50 --proof-states 100000
    .venv/bin/python bench/motif_probe.py --doors                 # chambers joined by doors
    .venv/bin/python bench/motif_probe.py --climb 100 --top 16    # a climb 2 -> 16, by fifths

CPU seconds are process time (design + proof) per level; every search is bounded by counted
states, so the levels and figures are the same on every run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from gridforge.snakes.design.motifs import PROOF_STATES, build_level, prove
from gridforge.snakes.game.level import Level, floor_regions, level_from_json
from gridforge.snakes.solver.legibility import reading

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


def _climb(levels: int, top: int, proof_states: int, doors: bool) -> None:
    """Build ``levels`` levels whose target climbs from 2 to ``top`` (level n asks
    2 + round((top - 2) * (n - 1) / (levels - 1)); a level that does not build tries the
    next seed, n + 100000 k); print per fifth of the line what was built and its cost."""
    print("| levels | targets | retries | joint = target | proven | steps med | steps max | "
          "occ. max | CPU s total |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    total = 0.0
    fifth = max(1, levels // 5)
    for start in range(1, levels + 1, fifth):
        stop = min(levels, start + fifth - 1)
        retries = hit = proven = 0
        steps: list[int] = []
        occ: list[float] = []
        targets: list[int] = []
        t0 = time.process_time()
        for n in range(start, stop + 1):
            target = 2 + round((top - 2) * (n - 1) / max(1, levels - 1))
            targets.append(target)
            for k in range(20):
                built = build_level(n + 100_000 * k, target, doors=doors)
                if built is not None:
                    break
                retries += 1
            if built is None:
                continue
            cert = prove(built, proof_states)
            read = reading(level_from_json(built.level), cert)
            hit += read.joint_steps == target
            proven += read.proven
            steps.append(int(cert["steps"] or 0))
            occ.append(read.occupancy)
        spent = time.process_time() - t0
        total += spent
        count = stop - start + 1
        print(f"| {start}-{stop} | {min(targets)}-{max(targets)} | {retries} | {hit}/{count} | "
              f"{proven}/{count} | {statistics.median(steps):g} | {max(steps)} | "
              f"{max(occ):.2f} | {spent:.1f} |", flush=True)
    print(f"\n{levels} levels: {total:.1f} CPU s in all, {total / levels:.2f} per level")


def main() -> None:
    """Parse the flags and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", type=int, nargs="+", default=[2, 4, 8, 12, 16])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--proof-states", type=int, default=PROOF_STATES)
    parser.add_argument("--doors", action="store_true",
                        help="join the chambers by doors into one floor region")
    parser.add_argument("--climb", type=int, default=0, metavar="N",
                        help="instead: N levels whose target climbs from 2 to --top")
    parser.add_argument("--top", type=int, default=16)
    args = parser.parse_args()
    if args.climb:
        _climb(args.climb, args.top, args.proof_states, args.doors)
        return
    print(HEADER)
    print("|" + " --- |" * HEADER.count(" | ") + " --- |")
    for target in args.targets:
        print(_row(target, args.seeds, args.proof_states, args.doors), flush=True)


if __name__ == "__main__":
    main()
