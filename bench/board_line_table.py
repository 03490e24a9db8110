"""The board edition's figures from its built blocks, at a glance (issue 50): per band of
100 from 101, the certificates' joint steps against the plan, certificate steps per joint
step, levels with a piece and with several, and the design score; per template, joint
steps and steps per joint step from 301; the rank correlation of joint steps with the level
number. The certificates' reading is the
whole level's (one floor region: the main region); ``bench.audit.board`` is the
independent audit, this is the designer's quick look while a build runs.

    .venv/bin/python bench/board_line_table.py --data output/board [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from gridforge.snakes.design.board_line import BOARD_FROM, board_plan
from gridforge.snakes.design.calibrate import ranks


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation (ties take their mean rank)."""
    return statistics.correlation(ranks(xs), ranks(ys)) if len(xs) > 2 else float("nan")


def load(folder: Path) -> list[dict[str, Any]]:
    """Every level of the folder's blocks with its certificate, by level number."""
    rows = []
    for path in sorted(folder.glob("main-*.json")):
        block = json.loads(path.read_text())
        for level, cert in zip(block["levels"], block["certificates"], strict=True):
            rows.append({"n": level["meta"]["level"], "level": level, "cert": cert})
    return sorted(rows, key=lambda r: r["n"])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    rows = [r for r in load(a.data) if r["n"] >= BOARD_FROM]
    for r in rows:
        r["plan"] = board_plan(r["n"], a.seed)
        r["joint"] = r["cert"]["reading"]["joint_steps"]
        r["ratio"] = r["cert"]["steps"] / max(1, r["joint"])
    bands: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        bands[(r["n"] - 1) // 100].append(r)
    print("band       levels  joint med (plan)  joint-plan med  steps/joint med (non-breathers)"
          "  pieces  several  score med")
    for b, rs in sorted(bands.items()):
        nb = [r for r in rs if not r["plan"].breather]
        planned = statistics.median(r["plan"].joint for r in rs)
        print(f"{b * 100 + 1:4d}-{b * 100 + 100:<4d}  {len(rs):6d}  "
              f"{statistics.median(r['joint'] for r in rs):9} ({planned:4})"
              f"  {statistics.median(r['joint'] - r['plan'].joint for r in rs):14}"
              f"  {statistics.median(r['ratio'] for r in nb) if nb else float('nan'):31.2f}"
              f"  {sum(1 for r in rs if r['level']['meta'].get('piece')):6d}"
              f"  {sum(1 for r in rs if r['level']['meta'].get('pieces')):7d}"
              f"  {statistics.median(r['cert']['score']['total'] for r in rs):9.2f}")
    late = [r for r in rows if r["n"] >= 301 and not r["plan"].breather]
    if late:
        carried = [r["ratio"] for r in late if r["level"]["meta"].get("piece")] or [0.0]
        print(f"\nsteps per joint step from 301 (non-breathers): median "
              f"{statistics.median(r['ratio'] for r in late):.2f} over {len(late)}; with a piece "
              f"{statistics.median(carried):.2f} over {len(carried)}")
        by: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in late:
            by[r["level"]["meta"]["template"]].append(r)
        print("  by template (joint, steps per joint step, levels): " + ", ".join(
            f"{t} {statistics.median(x['joint'] for x in v)} "
            f"{statistics.median(x['ratio'] for x in v):.2f} ({len(v)})"
            for t, v in sorted(by.items())))
    print(f"\nrank correlation of joint steps with the level number over {len(rows)} levels: "
          f"{spearman([r['n'] for r in rows], [r['joint'] for r in rows]):.3f}")


if __name__ == "__main__":
    main()
