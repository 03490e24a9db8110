"""The eleven space templates of the snakes designer (seed 004, section 2; spec section 6b).

Each template is a formula over the inner rectangle (``cols`` x ``rows``): which cells are
stones. Coordinates are always computed, never copied from any existing game. A candidate
shape is made in four steps:

1. the formula, with the few choices it has (door position, corridor width, orientation)
   drawn from the caller's ``random.Random``;
2. mirroring (left-right, top-bottom);
3. a small boundary variation (a couple of boundary cells removed);
4. trimming to an exact effective area, removing boundary cells one at a time while keeping
   the intended number of regions and never touching the cells that give the template its
   character (doors, waists, the ring's corners).

``recommend_size`` picks a rectangle whose template area is a little above the area a
candidate needs; with recommendation off, the sizes are fixed and a shape that does not fit
is refused with a reason (:class:`TemplateError`), never bent.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from gridforge.errors import GridforgeError
from gridforge.grid import NEIGHBOURS_4, Cell, row_major_key
from gridforge.snakes.design.topology import FloorGraph, articulation_points, components

TEMPLATES: tuple[str, ...] = (
    "courtyard",
    "notched",
    "stepped",
    "cross",
    "island",
    "twin",
    "winding",
    "comb",
    "pillars",
    "split",
)
TOPOLOGIES: tuple[str, ...] = ("mixed", *TEMPLATES)

MIN_COLS, MAX_COLS = 2, 18
MIN_ROWS, MAX_ROWS = 2, 24
MIN_FLOOR, MAX_FLOOR = 4, 400
MAX_PADDED_AREA = 600
MIN_REGION = 4  # trimming never shrinks a region below this many cells


class TemplateError(GridforgeError):
    """A template cannot be built as asked (too small, too large, area out of reach)."""


@dataclass(frozen=True)
class Shape:
    """A floor layout: the stones of a ``cols`` x ``rows`` board and what it was built as."""

    template: str
    cols: int
    rows: int
    stones: tuple[Cell, ...]  # row-major
    regions: int  # the intended number of floor regions
    protected: tuple[Cell, ...] = ()  # cells trimming must keep

    @property
    def floor(self) -> list[Cell]:
        """The floor cells in row-major order."""
        stones = set(self.stones)
        return [(x, y) for y in range(self.rows) for x in range(self.cols) if (x, y) not in stones]

    @property
    def area(self) -> int:
        return self.cols * self.rows - len(self.stones)


# A formula: (cols, rows, rng) -> (stones, protected cells, regions)
Formula = Callable[[int, int, random.Random], tuple[set[Cell], set[Cell], int]]


def _rect(x0: int, y0: int, x1: int, y1: int) -> set[Cell]:
    """Cells with x0 <= x < x1 and y0 <= y < y1."""
    return {(x, y) for y in range(y0, y1) for x in range(x0, x1)}


def _courtyard(cols: int, rows: int, rng: random.Random) -> tuple[set[Cell], set[Cell], int]:
    # One open hall; on larger boards one or two lone stones stand in it.
    stones: set[Cell] = set()
    if cols >= 6 and rows >= 6:
        for _ in range(rng.randrange(3)):
            x = rng.randrange(2, cols - 2)
            y = rng.randrange(2, rows - 2)
            if not any((x + dx, y + dy) in stones for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
                stones.add((x, y))
    return stones, set(), 1


def _notched(cols: int, rows: int, rng: random.Random) -> tuple[set[Cell], set[Cell], int]:
    # A hall whose top and bottom walls carry teeth (notches) every third column, leaving bays
    # two cells wide between them; the bottom row of teeth is offset by one column.
    depth = max(1, rows // 5)
    stones: set[Cell] = set()
    phase = rng.randrange(2)
    for x in range(1, cols - 1):
        if (x - 1 - phase) % 3 == 0:
            stones |= _rect(x, 0, x + 1, depth)
        if (x - 2 - phase) % 3 == 0:
            stones |= _rect(x, rows - depth, x + 1, rows)
    return stones, set(), 1


def _stepped(cols: int, rows: int, rng: random.Random) -> tuple[set[Cell], set[Cell], int]:
    # A staircase outline: row band j (from the top) keeps the first (j + 2) steps of columns.
    step_w = max(2, cols // 4)
    step_h = max(2, rows // 4)
    stones = {(x, y) for y in range(rows) for x in range(cols) if x // step_w > y // step_h + 1}
    return stones, set(), 1


def _cross(cols: int, rows: int, rng: random.Random) -> tuple[set[Cell], set[Cell], int]:
    # Two bands crossing in the middle; where each arm meets the centre square it narrows by
    # one cell on each side (the waist).
    arm_h = rows - 2 * (rows // 3)
    arm_w = cols - 2 * (cols // 3)
    y0, x0 = rows // 3, cols // 3
    floor = _rect(0, y0, cols, y0 + arm_h) | _rect(x0, 0, x0 + arm_w, rows)
    stones = _rect(0, 0, cols, rows) - floor
    protected: set[Cell] = set()
    if arm_h >= 3 and x0 >= 2:
        for x in (x0 - 1, x0 + arm_w):
            stones |= {(x, y0), (x, y0 + arm_h - 1)}
            protected |= {(x, y) for y in range(y0 + 1, y0 + arm_h - 1)}
    if arm_w >= 3 and y0 >= 2:
        for y in (y0 - 1, y0 + arm_h):
            stones |= {(x0, y), (x0 + arm_w - 1, y)}
            protected |= {(x, y) for x in range(x0 + 1, x0 + arm_w - 1)}
    return stones, protected, 1


def _island(cols: int, rows: int, rng: random.Random) -> tuple[set[Cell], set[Cell], int]:
    # A ring corridor around a central block; wider boards get a two-wide ring, and one side of
    # the block may open a bay.
    width = 2 if min(cols, rows) >= 7 else 1
    if min(cols, rows) >= 12:
        width = 3
    stones = _rect(width, width, cols - width, rows - width)
    corners = {(x, y) for x in (0, cols - 1) for y in (0, rows - 1)}
    return stones, corners, 1


def _twin(cols: int, rows: int, rng: random.Random) -> tuple[set[Cell], set[Cell], int]:
    # Two halls side by side (or stacked on tall boards) and a door two cells wide (one on
    # short walls) in the middle third of the dividing wall.
    vertical = cols >= rows or rows < 5
    length, across = (rows, cols) if vertical else (cols, rows)
    wall = across // 2 if across % 2 else across // 2 - rng.randrange(2)
    door_w = 2 if length >= 4 else 1
    lo = max(0, length // 3 - 1)
    hi = max(lo, min(length - door_w, (2 * length) // 3))
    door = rng.randrange(lo, hi + 1)
    stones: set[Cell] = set()
    protected: set[Cell] = set()
    for t in range(length):
        cell = (wall, t) if vertical else (t, wall)
        if door <= t < door + door_w:
            for d in (-1, 0, 1):
                protected.add((wall + d, t) if vertical else (t, wall + d))
        else:
            stones.add(cell)
    return stones, protected, 1


def _winding(cols: int, rows: int, rng: random.Random) -> tuple[set[Cell], set[Cell], int]:
    # A switchback: stone walls across the board, alternately open at one end and the other,
    # leaving one corridor folded back on itself. Corridors are two wide on roomy boards.
    vertical = cols >= rows if rng.random() < 0.75 else cols < rows
    length, across = (rows, cols) if vertical else (cols, rows)
    width = 2 if across >= 11 and length >= 7 else 1
    stones: set[Cell] = set()
    k = 0
    pos = width
    while pos + width < across:
        ts = range(0, length - width) if k % 2 == 0 else range(width, length)
        for t in ts:
            stones.add((pos, t) if vertical else (t, pos))
        k += 1
        pos += width + 1
    return stones, set(), 1


def _comb(cols: int, rows: int, rng: random.Random) -> tuple[set[Cell], set[Cell], int]:
    # A spine corridor along the top, side rooms hanging from it like comb teeth, separated
    # by one-wide walls; the rooms' mouths are narrowed by a stone on one side.
    spine = 2 if rows >= 7 else 1
    room = 3 if cols >= 11 else 2
    stones: set[Cell] = set()
    protected: set[Cell] = set()
    x = room
    while x < cols - 1:
        stones |= _rect(x, spine, x + 1, rows)
        x += room + 1
    if room >= 3 and rows >= spine + 3:
        x = 0
        while x + room <= cols:
            stones.add((x + room - 1, spine))
            x += room + 1
    protected |= _rect(0, 0, cols, spine)
    return stones, protected, 1


def _pillars(cols: int, rows: int, rng: random.Random) -> tuple[set[Cell], set[Cell], int]:
    # A cloister: free-standing one-cell pillars every third cell, clear of the outer ring.
    ox = 1 + rng.randrange(2) if cols % 3 == 0 else 1 + (cols % 3 == 2)
    oy = 1 + rng.randrange(2) if rows % 3 == 0 else 1 + (rows % 3 == 2)
    stones = {(x, y) for x in range(ox, cols - 1, 3) for y in range(oy, rows - 1, 3)}
    return stones, set(), 1


def _split(cols: int, rows: int, rng: random.Random) -> tuple[set[Cell], set[Cell], int]:
    # Two regions with no connection at all: a full wall across the middle.
    vertical = cols >= rows
    across = cols if vertical else rows
    length = rows if vertical else cols
    wall = across // 2 - (rng.randrange(2) if across % 2 == 0 else 0)
    stones = {((wall, t) if vertical else (t, wall)) for t in range(length)}
    return stones, set(), 2


FORMULAS: dict[str, Formula] = {
    "courtyard": _courtyard,
    "notched": _notched,
    "stepped": _stepped,
    "cross": _cross,
    "island": _island,
    "twin": _twin,
    "winding": _winding,
    "comb": _comb,
    "pillars": _pillars,
    "split": _split,
}

# The smallest rectangle (cols, rows) at which each formula still shows its idea.
MIN_SIZE: dict[str, tuple[int, int]] = {
    "courtyard": (2, 2),
    "notched": (5, 4),
    "stepped": (4, 4),
    "cross": (5, 5),
    "island": (3, 3),
    "twin": (5, 2),
    "winding": (3, 3),
    "comb": (5, 3),
    "pillars": (4, 4),
    "split": (3, 2),
}


def _fits(cols: int, rows: int) -> bool:
    return (
        MIN_COLS <= cols <= MAX_COLS
        and MIN_ROWS <= rows <= MAX_ROWS
        and (cols + 2) * (rows + 2) <= MAX_PADDED_AREA
    )


def _check_template(template: str) -> None:
    if template not in FORMULAS:
        raise TemplateError(f"unknown template {template!r}: one of {', '.join(TOPOLOGIES)}")


def build(
    template: str,
    cols: int,
    rows: int,
    rng: random.Random,
    *,
    mirror: bool = True,
    vary: bool = True,
) -> Shape:
    """The template's formula at ``cols`` x ``rows``, mirrored and slightly varied.

    :raises TemplateError: unknown template, or a size the board or the template cannot have.
    """
    _check_template(template)
    if not _fits(cols, rows):
        raise TemplateError(
            f"a {cols}x{rows} board is outside 2..18 columns, 2..24 rows and "
            f"600 cells with its wall ring"
        )
    min_cols, min_rows = MIN_SIZE[template]
    if cols < min_cols or rows < min_rows:
        raise TemplateError(
            f"template {template!r} needs at least {min_cols}x{min_rows}, got {cols}x{rows}"
        )
    stones, protected, regions = FORMULAS[template](cols, rows, rng)
    if mirror:
        flip_x, flip_y = rng.random() < 0.5, rng.random() < 0.5

        def flip(c: Cell) -> Cell:
            return (cols - 1 - c[0] if flip_x else c[0], rows - 1 - c[1] if flip_y else c[1])

        stones = {flip(c) for c in stones}
        protected = {flip(c) for c in protected}
    shape = _shape(template, cols, rows, stones, protected, regions)
    if len(components(FloorGraph(cols, rows, shape.floor))) != regions:
        raise TemplateError(
            f"template {template!r} at {cols}x{rows} does not form {regions} region(s)"
        )
    if vary:
        area = shape.area - rng.randrange(3)
        shape = trim(shape, max(area, min(shape.area, MIN_FLOOR)), rng)
    return shape


def _shape(
    template: str, cols: int, rows: int, stones: set[Cell], protected: set[Cell], regions: int
) -> Shape:
    inside = {(x, y) for (x, y) in stones if 0 <= x < cols and 0 <= y < rows}
    keep = sorted(
        (c for c in protected if c not in inside and 0 <= c[0] < cols and 0 <= c[1] < rows),
        key=row_major_key,
    )
    return Shape(
        template, cols, rows, tuple(sorted(inside, key=row_major_key)), regions, tuple(keep)
    )


def trim(shape: Shape, area: int, rng: random.Random) -> Shape:
    """Remove boundary floor cells, one at a time, until exactly ``area`` remain.

    A removed cell is never protected, never an articulation point (so the number of regions
    stays), never from a region at its minimum size; cells with more wall around them go
    first (corners before edges), ties drawn by ``rng``.

    :raises TemplateError: when the area cannot be reached that way.
    """
    if area > shape.area:
        raise TemplateError(
            f"template {shape.template!r} at {shape.cols}x{shape.rows} has "
            f"{shape.area} floor cells, fewer than the {area} asked"
        )
    floor = set(shape.floor)
    protected = set(shape.protected)
    stones = set(shape.stones)
    while len(floor) > area:
        graph = FloorGraph(shape.cols, shape.rows, floor)
        cut = set(articulation_points(graph))
        regions = components(graph)
        small = set()
        for region in regions:
            if len(region) <= MIN_REGION:
                small.update(region)
        best: list[Cell] = []
        best_walls = 0
        for v, (x, y) in enumerate(graph.cells):
            if v in cut or v in small or (x, y) in protected:
                continue
            walls = sum(1 for dx, dy in NEIGHBOURS_4 if (x + dx, y + dy) not in floor)
            if walls == 0:
                continue
            if walls > best_walls:
                best, best_walls = [(x, y)], walls
            elif walls == best_walls:
                best.append((x, y))
        if not best:
            raise TemplateError(
                f"template {shape.template!r} at {shape.cols}x{shape.rows} cannot be trimmed "
                f"to {area} cells without losing its structure"
            )
        # Several cells per round when far from the goal keeps trimming fast on big boards;
        # a batch that splits a region (two cells of a ring, say) is undone and one cell taken.
        rng.shuffle(best)
        take = max(1, min(len(floor) - area, len(best) // 3))
        batch = best[:take]
        floor.difference_update(batch)
        if take > 1 and len(components(FloorGraph(shape.cols, shape.rows, floor))) != len(regions):
            floor.update(batch)
            batch = best[:1]
            floor.difference_update(batch)
        stones.update(batch)
    return Shape(
        shape.template,
        shape.cols,
        shape.rows,
        tuple(sorted(stones, key=row_major_key)),
        shape.regions,
        shape.protected,
    )


def natural_area(template: str, cols: int, rows: int) -> int:
    """Floor cells of the plain formula (no mirroring, no variation) at this size; 0 if the
    template cannot be built there."""
    key = (template, cols, rows)
    cached = _AREA_CACHE.get(key)
    if cached is None:
        try:
            cached = build(template, cols, rows, random.Random(0), mirror=False, vary=False).area
        except TemplateError:
            cached = 0
        _AREA_CACHE[key] = cached
    return cached


_AREA_CACHE: dict[tuple[str, int, int], int] = {}


def recommend_sizes(template: str, area: int, rng: random.Random) -> list[tuple[int, int]]:
    """Board sizes for ``area`` floor cells of ``template``, best first: the plain template
    area at least ``area`` and as little above it as can be, with a pleasant aspect (between
    1:2 and 2:1). The closest few come first in an order drawn by ``rng``.

    :raises TemplateError: when no board size can hold the template with that area.
    """
    _check_template(template)
    if not MIN_FLOOR <= area <= MAX_FLOOR:
        raise TemplateError(f"an effective area of {area} is outside {MIN_FLOOR}..{MAX_FLOOR}")
    scored: list[tuple[float, int, int]] = []
    for rows in range(MIN_ROWS, MAX_ROWS + 1):
        for cols in range(MIN_COLS, MAX_COLS + 1):
            if not _fits(cols, rows):
                continue
            have = natural_area(template, cols, rows)
            if have < area:
                continue
            excess = (have - area) / area
            aspect = max(cols / rows, rows / cols)
            penalty = excess + (0.0 if aspect <= 2 else 0.25 * (aspect - 2))
            scored.append((penalty, cols, rows))
    if not scored:
        raise TemplateError(f"template {template!r} cannot hold {area} floor cells on any board "
                            f"of at most 18x24 (600 cells with the wall ring)")
    scored.sort()
    best = scored[0][0]
    near = [(c, r) for p, c, r in scored if p <= best + 0.12][:4]
    rng.shuffle(near)
    return near + [(c, r) for _, c, r in scored if (c, r) not in near]


def recommend_size(template: str, area: int, rng: random.Random) -> tuple[int, int]:
    """The first of :func:`recommend_sizes`."""
    return recommend_sizes(template, area, rng)[0]


def make_shape(template: str, area: int, rng: random.Random, *, cols: int | None = None,
               rows: int | None = None) -> Shape:
    """A shape of exactly ``area`` floor cells: at a recommended size, or at the fixed
    ``cols`` x ``rows`` (refused, never bent, when the template cannot give that area there).

    :raises TemplateError: with the reason.
    """
    _check_template(template)
    if (cols is None) != (rows is None):
        raise TemplateError("fix both cols and rows, or neither")
    if cols is not None and rows is not None:
        sizes = [(cols, rows)]
    else:
        sizes = recommend_sizes(template, area, rng)[:8]
    error: TemplateError | None = None
    for c, r in sizes:
        try:
            shape = build(template, c, r, rng, vary=False)
            if shape.area < area:
                raise TemplateError(f"template {template!r} at {c}x{r} has {shape.area} floor "
                                    f"cells, fewer than the {area} effective cells asked")
            if shape.area > area + 2:  # room for the small boundary variation
                shape = trim(shape, shape.area - rng.randrange(3), rng)
            return trim(shape, area, rng)
        except TemplateError as exc:
            error = exc
    assert error is not None
    raise error
