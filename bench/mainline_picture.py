"""A picture of the main line: design score, joint steps, solution steps and lower bound per
level (SVG), the teaching levels marked, and the per-band table of the docs (Markdown).

Reads the block files (the shipped line by default), so it draws exactly what players get.
Three panels: the first 50 levels (the lessons, the mechanics and the terrain taught,
labelled), then the whole line's joint steps (spec 5c, the certificate's reading) with each
band's median, then its solution steps against the lower bound (a proven level has the two
equal). The output is a pure function of the blocks:
the same line draws the same bytes.

    .venv/bin/python bench/mainline_picture.py                  # docs/mainline.svg + table
    .venv/bin/python bench/mainline_picture.py --folder OUT --svg /tmp/line.svg
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from gridforge.snakes.design.blocks import band_report
from gridforge.snakes.design.line_plan import LESSONS, TEACHING, TERRAIN_TEACHING
from gridforge.snakes.design.reports import Band
from gridforge.snakes.game.mainline import BLOCK_NAME, LEVELS

DATA = Path(__file__).resolve().parent.parent / "pkg" / "gridforge" / "snakes" / "data"
WIDTH = 1000
LEFT, RIGHT = 56, 16
PANEL = 150
GAP = 46
SCORE, STEPS, BOUND, MEDIAN, MARK = "#1f6fb2", "#c2410c", "#6b7280", "#111827", "#15803d"


def read_line(folder: Path) -> list[dict[str, Any]]:
    """Every built level in order: number, score, steps, lower bound, proven, template."""
    rows = []
    for path in sorted(folder.glob("main-*.json")):
        match = BLOCK_NAME.fullmatch(path.name)
        if not match:
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        for i, (level, cert) in enumerate(zip(data["levels"], data["certificates"],
                                              strict=True)):
            rows.append({"n": int(match[1]) + i, "score": cert["score"]["total"],
                         "steps": cert["steps"], "bound": cert["lower_bound"],
                         "proven": cert["optimal"], "template": level["meta"]["template"],
                         "joint": cert.get("reading", {}).get("joint_steps", 0)})
    rows.sort(key=lambda r: r["n"])
    return rows


class Panel:
    """One plot area: maps (level, value) into the SVG and collects its elements."""

    def __init__(self, top: float, first: int, last: int, top_value: float, title: str,
                 unit: str) -> None:
        self.top, self.first, self.last, self.top_value = top, first, last, top_value
        self.parts = [f'<text x="{LEFT}" y="{top - 8:.0f}" class="title">{title}</text>']
        self._axes(unit)

    def x(self, n: float) -> float:
        return LEFT + (n - self.first) / max(1, self.last - self.first) * (WIDTH - LEFT - RIGHT)

    def y(self, v: float) -> float:
        return self.top + PANEL - min(v, self.top_value) / self.top_value * PANEL

    def _axes(self, unit: str) -> None:
        p = self.parts
        p.append(f'<rect x="{LEFT}" y="{self.top}" width="{WIDTH - LEFT - RIGHT}" '
                 f'height="{PANEL}" class="frame"/>')
        for k in range(5):
            v = self.top_value * k / 4
            p.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{self.y(v):.1f}" '
                     f'y2="{self.y(v):.1f}" class="grid"/>')
            p.append(f'<text x="{LEFT - 6}" y="{self.y(v) + 4:.1f}" class="tick" '
                     f'text-anchor="end">{v:g}</text>')
        p.append(f'<text x="14" y="{self.top + PANEL / 2:.0f}" class="tick" '
                 f'transform="rotate(-90 14 {self.top + PANEL / 2:.0f})" '
                 f'text-anchor="middle">{unit}</text>')
        span = self.last - self.first + 1
        every = 5 if span <= 60 else 200
        for n in range(self.first, self.last + 1):
            if n == self.first or n % every == 0:
                p.append(f'<text x="{self.x(n):.1f}" y="{self.top + PANEL + 14}" '
                         f'class="tick" text-anchor="middle">{n}</text>')

    def dots(self, rows: Sequence[dict[str, Any]], key: str, colour: str, r: float) -> None:
        for row in rows:
            self.parts.append(f'<circle cx="{self.x(row["n"]):.1f}" cy="{self.y(row[key]):.1f}" '
                              f'r="{r}" fill="{colour}"/>')

    def line(self, points: Sequence[tuple[float, float]], colour: str, width: float) -> None:
        path = " ".join(f"{self.x(n):.1f},{self.y(v):.1f}" for n, v in points)
        self.parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                          f'stroke-width="{width}"/>')


def legend(y: float, items: Sequence[tuple[str, str]]) -> str:
    out, x = [], LEFT
    for colour, label in items:
        out.append(f'<circle cx="{x + 5}" cy="{y - 4}" r="4" fill="{colour}"/>'
                   f'<text x="{x + 13}" y="{y}" class="tick">{label}</text>')
        x += 24 + 7 * len(label)
    return "".join(out)


def draw(rows: list[dict[str, Any]], bands: Sequence[Band]) -> str:
    """The SVG text of the line."""
    last = max((r["n"] for r in rows), default=1)
    intro = [r for r in rows if r["n"] <= 50]
    top_steps = max((max(r["steps"], r["bound"]) for r in rows), default=10)
    top_steps = 20 * (int(top_steps) // 20 + 1)
    y0 = 40
    first = Panel(y0, 1, 50, max(60.0, max((r["score"] for r in intro), default=0) + 5),
                  "Levels 1-50: design score (dots), steps (line); lessons and the mechanics "
                  "taught marked", "score / steps")
    first.dots(intro, "score", SCORE, 3)
    first.line([(r["n"], r["steps"]) for r in intro], STEPS, 1.2)
    taught = {**TEACHING, **TERRAIN_TEACHING}
    for n in sorted({*LESSONS, *taught}):
        label = str(n) if n in LESSONS else taught[n].replace("_", " ")
        x = first.x(n)
        first.parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y0}" y2="{y0 + PANEL}" '
                           f'class="mark"/>')
        if n in taught:
            first.parts.append(f'<text x="{x + 3:.1f}" y="{y0 + 12}" class="marklabel">'
                               f'{label}</text>')
    top_joint = 4 * (max((r["joint"] for r in rows), default=4) // 4 + 1)
    second = Panel(y0 + PANEL + GAP, 1, LEVELS, float(top_joint),
                   f"Joint steps of levels 1-{last} (dots; breathers low) and each band's "
                   "median (line)", "joint steps")
    second.dots(rows, "joint", SCORE, 1.1)
    medians: list[tuple[float, float]] = []
    for band in bands:
        lo, hi = band["levels"]
        medians += [(lo, band["joint"] or 0), (min(hi, last), band["joint"] or 0)]
    second.line(medians, MEDIAN, 1.6)
    third = Panel(y0 + 2 * (PANEL + GAP), 1, LEVELS, float(top_steps),
                  "Solution steps (dots) and lower bound (grey): equal where the minimum is "
                  "proven", "steps")
    third.dots(rows, "bound", BOUND, 1.0)
    third.dots(rows, "steps", STEPS, 1.0)
    height = y0 + 3 * PANEL + 2 * GAP + 44
    body = "".join(first.parts + second.parts + third.parts)
    keys = legend(height - 10, [(SCORE, "design score / joint steps"), (STEPS, "solution steps"),
                                (BOUND, "lower bound"), (MEDIAN, "band median"),
                                (MARK, "lesson / mechanic taught")])
    style = ("<style>.frame{fill:#fff;stroke:#9ca3af}.grid{stroke:#e5e7eb}"
             ".tick{font:11px sans-serif;fill:#374151}.title{font:bold 12px sans-serif;"
             f"fill:#111827}}.mark{{stroke:{MARK};stroke-dasharray:2 2}}"
             f".marklabel{{font:10px sans-serif;fill:{MARK}}}</style>")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
            f'width="{WIDTH}" height="{height}" role="img" aria-label="The main line: design '
            f'score, joint steps, solution steps and lower bound per level">{style}'
            f'<rect width="100%" height="100%" fill="#f9fafb"/>{body}{keys}</svg>\n')


def _median(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def table(bands: Sequence[Band], rows: list[dict[str, Any]]) -> str:
    """The per-band Markdown table of the docs (medians, but the shares)."""
    names = "coats / frozen / frozen holes / locks / gold / paths / bridges"
    out = ["| band | floor | bodies | length | folded | occupancy | steps | drags | joint | "
           f"steering | proven | free of all | {names} | median score |",
           "| --- " * 14 + "|"]
    for band in bands:
        lo, hi = band["levels"]
        shares = " / ".join(f"{v:.0%}" for v in band["mechanics"].values())
        figures = " | ".join(_median(v) for v in (
            band["floor"], band["bodies"], band["median_length"]))
        moves = " | ".join(_median(v) for v in (
            band["steps"], band["drags"], band["joint"], band["steering"]))
        out.append(f"| {lo}-{hi} | {figures} | {band['folded']:.0%} | "
                   f"{band['occupancy']:.2f} | {moves} | {band['proven']:.0%} | "
                   f"{band['mechanic_free']:.0%} | {shares} | {band['median_score']:.1f} |")
    proven = sum(1 for r in rows if r["proven"])
    out.append(f"\nWhole line built: {len(rows)} levels, {proven} proven minimal "
               f"({proven / max(1, len(rows)):.0%}).")
    return "\n".join(out)


def board_table(bands: Sequence[Band]) -> str:
    """The per-band Markdown table of spec 5d's board (medians, but the shares; "-" where no
    certificate of the band carries the figure)."""
    out = ["| band | floor regions | stone share | at most 0.40 | bodies in main region | "
           "largest template share | new layouts | beyond-pairs steps | must-move chain | "
           "main-region joint steps | piece cost |",
           "| --- " * 11 + "|"]
    for band in bands:
        lo, hi = band["levels"]
        searched = " | ".join(_median(v) for v in (
            band["beyond_pairs"], band["chain"], band["main_joint"], band["piece_cost"]))
        out.append(f"| {lo}-{hi} | {_median(band['floor_regions'])} | "
                   f"{_median(band['stone_share'])} | {band['low_stone']:.0%} | "
                   f"{_median(band['main_bodies'])} | {band['top_template_share']:.0%} | "
                   f"{band['new_layouts']:.0%} | {searched} |")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None,
         write: Callable[[Path, str], object] = Path.write_text) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=DATA)
    parser.add_argument("--svg", type=Path,
                        default=Path(__file__).resolve().parent.parent / "docs" / "mainline.svg")
    args = parser.parse_args(argv)
    rows = read_line(args.folder)
    bands = band_report(args.folder)
    write(args.svg, draw(rows, bands))
    print(table(bands, rows))
    print()
    print(board_table(bands))
    print(f"\nwrote {args.svg}")


if __name__ == "__main__":
    main()
