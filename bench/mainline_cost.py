"""What the whole main line costs to build: CPU seconds per level, per band of 100 levels.

Builds a few levels of each chosen band with
:func:`gridforge.snakes.design.line_levels.design_level` (exactly what ``generate-levels``
runs per level), measures process CPU time (not wall time: other jobs on the machine do not
count against a level) and prints, per band, the mean CPU
seconds per level, how many fell back, and the band's projected cost. Bands not measured are
interpolated linearly between measured ones. The sample itself runs in ``--workers``
processes (each level's own CPU time is measured, so the figures do not depend on how many
run at once on an idle machine). The projection for ``--workers`` processes assumes the
levels share the cores evenly (a level is one task; 2000 tasks keep every worker busy to the
end but for the last few).

    .venv/bin/python bench/mainline_cost.py                       # bands 1,5,10,15,20, 1 level
    .venv/bin/python bench/mainline_cost.py --bands 1-20 --per-band 3 --workers 2
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import time

from gridforge.snakes.design.line_levels import design_level
from gridforge.snakes.game.mainline import LEVELS

BAND = 100


def bands_of(text: str) -> list[int]:
    """``"1,5,10"`` or ``"1-20"`` as a sorted list of band numbers (1-based)."""
    out: set[int] = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return sorted(b for b in out if 1 <= b <= LEVELS // BAND)


def measure(n: int, seed: int) -> tuple[str, float]:
    """Build level ``n`` and return its printed row and its process CPU seconds."""
    start = time.process_time()
    level, cert = design_level(n, seed)
    spent = time.process_time() - start
    meta = level["meta"]
    score = cert["score"]
    ceilings = ",".join(t for t, v in score["normalised"].items() if v == 1) or "-"
    return (f"{meta['target']:6} {score['total']:5} {cert['steps']:5} "
            f"{score['diagnostics']['interaction_steps']:5} {cert['optimal']!s:>6} "
            f"{spent:7.1f} {meta.get('fallback', {}).get('tries', '') or '-':>8} {ceilings}",
            spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bands", default="1,5,10,15,20")
    parser.add_argument("--per-band", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    measured: dict[int, float] = {}
    print(f"{'band':>9} {'level':>5} {'target':>6} {'score':>5} {'steps':>5} {'inter':>5} "
          f"{'proven':>6} {'cpu s':>7} fallback ceilings")
    # Spread over the band and over the wave (slot 3, 8, 5, ...): breathers included.
    levels = [(band, (band - 1) * BAND + 1 + (37 + 61 * k) % BAND)
              for band in bands_of(args.bands) for k in range(args.per_band)]
    cpu: dict[int, list[float]] = {}
    # The sample is measured by --workers processes at once (each level's own CPU time).
    with cf.ProcessPoolExecutor(max_workers=args.workers) as pool:
        runs = pool.map(measure, [n for _, n in levels], [args.seed] * len(levels))
        for (band, n), (row, spent) in zip(levels, runs, strict=True):
            cpu.setdefault(band, []).append(spent)
            print(f"{(band - 1) * BAND + 1:4}-{band * BAND:<4} {n:5} {row}", flush=True)
    measured = {band: sum(times) / len(times) for band, times in cpu.items()}
    if not measured:
        return
    known = sorted(measured)
    total = 0.0
    print(f"\n{'band':>9} {'cpu s/level':>11} {'band cpu h':>10}")
    for band in range(1, LEVELS // BAND + 1):
        if band in measured:
            per = measured[band]
        else:
            lo = max((b for b in known if b < band), default=known[0])
            hi = min((b for b in known if b > band), default=known[-1])
            w = 0.0 if hi == lo else (band - lo) / (hi - lo)
            per = measured[lo] * (1 - w) + measured[hi] * w
        total += per * BAND
        mark = "" if band in measured else " (interpolated)"
        print(f"{(band - 1) * BAND + 1:4}-{band * BAND:<4} {per:11.1f} "
              f"{per * BAND / 3600:10.2f}{mark}")
    print(f"\nwhole line: {total / 3600:.1f} CPU hours; with --workers {args.workers}: about "
          f"{total / 3600 / args.workers:.1f} hours wall on an otherwise idle machine")


if __name__ == "__main__":
    main()
