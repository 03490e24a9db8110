"""A region's stretch type (spec 5d): its picture up to the 8 symmetries of the square and a
renaming of colours, after every run of identical adjacent rows, then columns, is collapsed
to one (a corridor made longer is the same type).

The picture is the region's bounding box, every cell outside the region a stone, each cell
drawn as: stone, floor, a hole of colour c, paint of colour c or a bridge, plus the body
cells lying on it (two on a bridge).  A body cell is drawn by its role in its body and its
links, never by which body it is: a head with the direction to the next cell, a tail with
the direction to the cell before it, a middle cell with both, and the body's colours (every
layer, outermost first).  Head and tail differ, so a body reversed is another picture.
Freezes, locks and keys are left out (mechanics lifted).

Canonical form: for each symmetry the picture is transformed (cells and link directions),
collapsed (rows, then columns: the two orders give the same result, since collapsing never
makes two different rows or columns equal), its colours renamed 0, 1, 2, ... by first
appearance in reading order (within a cell: the hole's or paint's colour, then its body
cells, sorted by role and links, each with its layers in order); the least of the eight
texts is the type.  Standard library only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from bench.audit.line import Level

Vec = tuple[int, int]
# a body cell: (role "H" | "M" | "T", links (dx, dy) ..., colours)
BodyMark = tuple[str, tuple[Vec, ...], tuple[int, ...]]
# a cell: (ground "#" | "." | "o" | "p" | "=", ground colour or -1, body marks sorted)
Mark = tuple[str, int, tuple[BodyMark, ...]]
Grid = list[list[Mark]]


def picture(lv: Level, comp: Iterable[int]) -> Grid:
    """The region's picture (module docstring) over its bounding box."""
    inside = set(comp)
    cols = lv.cols
    xs = [c % cols for c in inside]
    ys = [c // cols for c in inside]
    x0, y0 = min(xs), min(ys)
    w, h = max(xs) - x0 + 1, max(ys) - y0 + 1
    marks: dict[int, list[BodyMark]] = {}
    for b in range(lv.k):
        cells = [p % lv.n for p in lv.bplaces[b]]
        if cells[0] not in inside:
            continue
        for i, c in enumerate(cells):
            marks.setdefault(c, []).append(_body_mark(cells, i, cols, lv.bcolors[b]))
    paint = {x: col for x, col in lv.paths}
    grid: Grid = []
    for y in range(y0, y0 + h):
        row: list[Mark] = []
        for x in range(x0, x0 + w):
            c = y * cols + x
            row.append(_mark(lv, c, c in inside, paint, marks.get(c, [])))
        grid.append(row)
    return grid


def _mark(lv: Level, c: int, inside: bool, paint: dict[int, int],
          bodies: list[BodyMark]) -> Mark:
    if not inside:
        return ("#", -1, ())
    hj = lv.hole_at[c]
    if hj >= 0:
        ground, col = "o", lv.hcolor[hj]
    elif c in paint:
        ground, col = "p", paint[c]
    elif lv.bridge[c]:
        ground, col = "=", -1
    else:
        ground, col = ".", -1
    return (ground, col, tuple(sorted(bodies, key=lambda m: (m[0], m[1]))))


def _body_mark(cells: Sequence[int], i: int, cols: int, colors: Sequence[int]) -> BodyMark:
    def link(a: int, b: int) -> Vec:
        return (b % cols - a % cols, b // cols - a // cols)

    here = cells[i]
    links: list[Vec] = []
    if i > 0:
        links.append(link(here, cells[i - 1]))
    if i < len(cells) - 1:
        links.append(link(here, cells[i + 1]))
    role = "H" if i == 0 else ("T" if i == len(cells) - 1 else "M")
    return (role, tuple(links), tuple(colors))


def transform(grid: Grid, sym: int) -> Grid:
    """One of the 8 symmetries: bit 4 transposes, then bit 1 mirrors left-right, bit 2
    top-bottom; link directions follow."""
    swap, fx, fy = bool(sym & 4), bool(sym & 1), bool(sym & 2)
    h, w = len(grid), len(grid[0])
    nh, nw = (w, h) if swap else (h, w)

    def vec(v: Vec) -> Vec:
        dx, dy = (v[1], v[0]) if swap else v
        return (-dx if fx else dx, -dy if fy else dy)

    def cell(m: Mark) -> Mark:
        bodies = tuple(sorted(((r, tuple(vec(v) for v in links), cs) for r, links, cs in m[2]),
                              key=lambda bm: (bm[0], bm[1])))
        return (m[0], m[1], bodies)

    out: Grid = []
    for y in range(nh):
        row = []
        for x in range(nw):
            sx, sy = (nw - 1 - x if fx else x), (nh - 1 - y if fy else y)
            ox, oy = (sy, sx) if swap else (sx, sy)
            row.append(cell(grid[oy][ox]))
        out.append(row)
    return out


def collapse(grid: Grid) -> Grid:
    """Every run of identical adjacent rows, then columns, kept once."""
    rows = [r for i, r in enumerate(grid) if i == 0 or r != grid[i - 1]]
    cols = list(zip(*rows, strict=True))
    keep = [i for i, c in enumerate(cols) if i == 0 or c != cols[i - 1]]
    return [[r[i] for i in keep] for r in rows]


def text(grid: Grid) -> str:
    """The grid written out with its colours renamed by first appearance."""
    names: dict[int, int] = {}

    def name(c: int) -> int:
        if c < 0:
            return c
        return names.setdefault(c, len(names))

    lines = []
    for row in grid:
        words = []
        for ground, col, bodies in row:
            word = ground + (str(name(col)) if col >= 0 else "")
            for role, links, colors in bodies:
                word += "(" + role + "".join(f"{dx:+d}{dy:+d}" for dx, dy in links)
                word += ":" + ",".join(str(name(c)) for c in colors) + ")"
            words.append(word)
        lines.append(" ".join(words))
    return "\n".join(lines)


def stretch_type(lv: Level, comp: Iterable[int]) -> str:
    """The region's stretch type, as its canonical text (module docstring)."""
    grid = picture(lv, comp)
    return min(text(collapse(transform(grid, s))) for s in range(8))


def short(kind: str) -> str:
    """A short name for a type (for tables)."""
    return hashlib.sha256(kind.encode()).hexdigest()[:8]


def describe(kind: Any) -> str:
    """The type drawn for a reader: one line per row."""
    return str(kind).replace("\n", " / ")
