"""A floor region's **stretch type** (spec 5d): its picture up to the 8 symmetries of the
square, a renaming of colours and of bodies, after every run of identical adjacent rows, and
then columns, is collapsed to one (a corridor made longer is the same type).

The picture of region r is the bounding box of its cells. Each cell is a wall (a stone, or a
cell of another region: both are closed to the region's bodies alike), floor, a hole of a
colour, a path of a colour or a bridge, and holds what lies on it: a body's cell, or on a
bridge one per lane. Freezes, locks and keys are lifted (spec 5d measures a region with its
mechanics lifted); a coat stays, as the body's layers, outermost first.

Body identity: bodies are unordered, so a body cell says which body it belongs to by a label
given at first appearance in the reading order (below), never by its index in the level. It
also says where its previous and next cells lie (up, right, down, left or none): the head has
no previous cell, the tail no next, so the order of the cells, and which end is the head,
is part of the picture (a body reversed head to tail is another type). A straight body lying
along a run of identical rows collapses with it, as the corridor does.

Canonical form: for each of the 8 symmetries (cell positions, link directions and a bridge's
lanes transformed together), rows are collapsed, then columns (a collapse of rows never
makes two columns identical that were not, and the other way round, so the order is immaterial
and the collapse commutes with every symmetry); then colours and bodies are renamed by first
appearance in row-major reading order (inside a cell: the terrain's colour, then the lanes,
horizontal first). The smallest of the 8 resulting keys is the type. A :class:`StretchType`
is hashable and ordered; :attr:`StretchType.digest` is a short hex name for reports.

A level's **layout** (:func:`layout_key`) is stricter than its main region's stretch type: the
whole level up to the 8 symmetries and a renaming of colours, a body read from either end the
same body (a player sees the same puzzle), no corridor collapsed.

Public names: :class:`StretchType`, :func:`stretch_type`, :func:`main_stretch`, :func:`layout_key`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from gridforge.grid import Cell
from gridforge.snakes.game.levelfile import LevelJson
from gridforge.snakes.game.regions import FloorMap, floor_map

__all__ = ["StretchType", "layout_key", "main_stretch", "stretch_type"]

# Terrain kinds of a picture cell.
WALL, FLOOR, HOLE, PATH, BRIDGE = range(5)
# Link directions (to a body's previous or next cell); 0: none.
DIRECTIONS: dict[Cell, int] = {(0, -1): 1, (1, 0): 2, (0, 1): 3, (-1, 0): 4}
HORIZONTAL, VERTICAL = 0, 1  # a bridge's lanes

Vector = tuple[int, int]
# A body's cell before renaming: (body index, layers, link to previous, link to next).
Part = tuple[int, tuple[int, ...], Vector, Vector]
# A picture cell before renaming: terrain kind, terrain colour (-1: none), the part lying on
# it per lane (a cell that is no bridge uses the horizontal lane only).
Raw = tuple[int, int, tuple[Part | None, Part | None]]
Token = tuple[int, ...]
NONE: Vector = (0, 0)


@dataclass(frozen=True, order=True)
class StretchType:
    """A region's stretch type: ``width`` x ``height`` collapsed cells, one token each in
    row-major order (terrain, its colour, then each lane's body cell, renamed)."""

    width: int
    height: int
    cells: tuple[Token, ...]

    @property
    def digest(self) -> str:
        """A short, stable hex name of the type (the first 12 digits of a SHA-256)."""
        text = json.dumps([self.width, self.height, [list(t) for t in self.cells]],
                          separators=(",", ":"))
        return hashlib.sha256(text.encode("ascii")).hexdigest()[:12]


def _cell(raw: Sequence[int]) -> Cell:
    return (int(raw[0]), int(raw[1]))


def _picture(level: LevelJson, region: Sequence[Cell], bodies: Sequence[int]
             ) -> list[list[Raw]]:
    """The region's picture (its bounding box, rows of raw cells), untransformed."""
    inside = set(region)
    x0, y0 = min(x for x, _ in region), min(y for _, y in region)
    x1, y1 = max(x for x, _ in region), max(y for _, y in region)
    terrain: dict[Cell, tuple[int, int]] = {}
    for path in level.get("paths", []):
        terrain[_cell(path["cell"])] = (PATH, int(path["color"]))
    for bridge in level.get("bridges", []):
        terrain[_cell(bridge)] = (BRIDGE, -1)
    for hole in level["holes"]:
        terrain[_cell(hole["cell"])] = (HOLE, int(hole["color"]))
    lanes: dict[Cell, list[Part | None]] = {}
    for i in bodies:
        body = level["bodies"][i]
        cells = [_cell(c) for c in body["cells"]]
        layers = tuple(int(c) for c in body["colors"])
        for k, (x, y) in enumerate(cells):
            before = (cells[k - 1][0] - x, cells[k - 1][1] - y) if k else NONE
            after = (cells[k + 1][0] - x, cells[k + 1][1] - y) if k + 1 < len(cells) else NONE
            axis = before if before != NONE else after
            lane = HORIZONTAL if axis[1] == 0 else VERTICAL
            if terrain.get((x, y), (FLOOR,))[0] != BRIDGE:
                lane = HORIZONTAL  # a cell that is no bridge has one place
            lanes.setdefault((x, y), [None, None])[lane] = (i, layers, before, after)
    rows: list[list[Raw]] = []
    for y in range(y0, y1 + 1):
        row: list[Raw] = []
        for x in range(x0, x1 + 1):
            if (x, y) not in inside:
                row.append((WALL, -1, (None, None)))
                continue
            kind, colour = terrain.get((x, y), (FLOOR, -1))
            on = lanes.get((x, y), [None, None])
            row.append((kind, colour, (on[0], on[1])))
        rows.append(row)
    return rows


def _turn(v: Vector, swap: bool, flip_x: bool, flip_y: bool) -> Vector:
    """The linear part of a symmetry applied to a link vector."""
    dx, dy = (v[1], v[0]) if swap else v
    return (-dx if flip_x else dx, -dy if flip_y else dy)


def _moved(cell: Raw, swap: bool, flip_x: bool, flip_y: bool) -> Raw:
    """A raw cell under a symmetry: its links turned, a bridge's lanes swapped with the axes."""
    kind, colour, lanes = cell
    turned = tuple(None if p is None else
                   (p[0], p[1], _turn(p[2], swap, flip_x, flip_y),
                    _turn(p[3], swap, flip_x, flip_y)) for p in lanes)
    first, second = turned
    return (kind, colour, (second, first) if swap and kind == BRIDGE else (first, second))


def _symmetric(rows: list[list[Raw]], swap: bool, flip_x: bool, flip_y: bool
               ) -> list[list[Raw]]:
    """The picture under one of the 8 symmetries: transpose (``swap``), then mirror."""
    grid = [list(col) for col in zip(*rows, strict=True)] if swap else [list(r) for r in rows]
    if flip_x:
        grid = [row[::-1] for row in grid]
    if flip_y:
        grid = grid[::-1]
    return [[_moved(c, swap, flip_x, flip_y) for c in row] for row in grid]


def _collapsed(rows: list[list[Raw]]) -> list[list[Raw]]:
    """Every run of identical adjacent rows, then columns, as one."""
    kept = [row for y, row in enumerate(rows) if y == 0 or row != rows[y - 1]]
    columns = [list(col) for col in zip(*kept, strict=True)]
    kept_cols = [col for x, col in enumerate(columns) if x == 0 or col != columns[x - 1]]
    return [list(row) for row in zip(*kept_cols, strict=True)]


class _Names:
    """Colours and bodies renamed by first appearance (from 1; 0 means none)."""

    def __init__(self) -> None:
        self.colours: dict[int, int] = {}
        self.bodies: dict[int, int] = {}

    def colour(self, c: int) -> int:
        if c < 0:
            return 0
        return self.colours.setdefault(c, len(self.colours) + 1)

    def part(self, p: Part | None) -> Token:
        if p is None:
            return (0,)
        label = self.bodies.setdefault(p[0], len(self.bodies) + 1)
        layers = tuple(self.colour(c) for c in p[1])
        return (label, DIRECTIONS.get(p[2], 0), DIRECTIONS.get(p[3], 0), len(layers), *layers)


def _key(rows: list[list[Raw]]) -> StretchType:
    names = _Names()
    tokens: list[Token] = []
    for row in rows:
        for kind, colour, lanes in row:
            token: Token = (kind, names.colour(colour))
            for part in lanes:
                token += names.part(part)
            tokens.append(token)
    return StretchType(len(rows[0]), len(rows), tuple(tokens))


SYMMETRIES = tuple((swap, fx, fy) for swap in (False, True) for fx in (False, True)
                   for fy in (False, True))


def stretch_type(level: LevelJson, region: int, *, where: FloorMap | None = None
                 ) -> StretchType:
    """The stretch type of floor region ``region`` of ``level`` (a level's JSON whose shape a
    check accepted; regions numbered as :func:`~gridforge.snakes.game.regions.floor_map`
    numbers them).

    :raises IndexError: when ``region`` is not a region of ``level``.
    """
    fm = where if where is not None else floor_map(level)
    if not 0 <= region < fm.count:
        raise IndexError(f"region {region}: the level has {fm.count} floor region(s)")
    picture = _picture(level, fm.cells[region], fm.bodies[region])
    return min(_key(_collapsed(_symmetric(picture, *s))) for s in SYMMETRIES)


def main_stretch(level: LevelJson, *, where: FloorMap | None = None) -> StretchType:
    """The stretch type of the level's main region (the one holding the most bodies)."""
    fm = where if where is not None else floor_map(level)
    return stretch_type(level, fm.main, where=fm)


def layout_key(level: LevelJson) -> str:
    """A key equal for two levels exactly when they are the same layout under one of the
    grid's 8 symmetries and a relabelling of colours (a body read from either end is the same
    body; lock ids are ignored, lock kinds and key carriers are not)."""
    cols, rows = level["cols"], level["rows"]
    keys = []
    for t in range(8):
        width, height = (rows, cols) if t & 4 else (cols, rows)

        def move(cell: list[int], t: int = t, width: int = width, height: int = height
                 ) -> tuple[int, int]:
            x, y = (cell[1], cell[0]) if t & 4 else (cell[0], cell[1])
            return (width - 1 - x if t & 1 else x, height - 1 - y if t & 2 else y)

        bodies = []
        for b in level["bodies"]:
            cells = [move(c) for c in b["cells"]]
            cells = min(cells, cells[::-1])
            lock = b["lock"]["kind"] if "lock" in b else ""
            bodies.append((cells, list(b["colors"]), b.get("frozen", 0), lock, "key" in b))
        bodies.sort(key=lambda body: body[0])
        holes = sorted((move(h["cell"]), h["color"], h.get("frozen", 0))
                       for h in level["holes"])
        relabel: dict[int, int] = {}
        for colours in [body[1] for body in bodies] + [[h[1]] for h in holes]:
            for c in colours:
                relabel.setdefault(c, len(relabel))
        shape = (width, height, sorted(move(s) for s in level["stones"]),
                 [(c, [relabel[x] for x in cs], f, lk, k) for c, cs, f, lk, k in bodies],
                 [(cell, relabel[c], f) for cell, c, f in holes])
        keys.append(repr(shape))
    return hashlib.sha256(min(keys).encode("utf-8")).hexdigest()
