"""The snakes level: model, JSON codec and the collecting validator (spec sections 1-3, 7).

Seed 004 (the Gecko-Out-like level designer) assumes a game whose board, bodies and holes
``spec/snakes.md`` fixes. This module is the one place that turns a level file into a
:class:`Level` and back.

Public names (stable; the designer builds on them):

- :class:`Level`, :class:`Body`, :class:`Hole`, :class:`Lock`: frozen dataclasses; cells are
  ``(x, y)`` tuples; ``Body.cells`` runs head first.
- :func:`validate_level` (``data -> list[Issue]``): every problem of a level dict in one pass,
  each with a field path (``bodies[2].cells[5]``) and a code. Structural issues come first;
  the supply/demand check (code ``supply_demand``) runs only on a structurally valid level.
- :func:`level_from_json` / :meth:`Level.from_json`: validate, then build; raises
  :class:`~gridforge.errors.ValidationError` and never half-loads. ``balanced=False`` skips
  only the supply/demand check (the certificate code reports that as ``unsolvable``).
- :func:`parse_level` (JSON text -> Level), :meth:`Level.to_json` (dict in the file's key
  order), :func:`canonical_json` and :func:`level_sha256` (keys sorted, no whitespace,
  ``meta`` excluded), :func:`balance_issues` (supply/demand per colour and floor region),
  :func:`floor_regions`.
- Terrain (spec section 3b): :class:`PaintedCell` (a coloured path's cell), ``Level.bridges``,
  :func:`bridge_lane` (the lane a body's cell takes on a bridge), the constants ``HORIZONTAL``
  and ``VERTICAL``. Both fields are optional in the file and written only when present, so a
  level without terrain keeps its bytes and its SHA.
- :func:`spec_example`: the example level of spec section 7 (``data/spec_example.json``,
  minimum 20 steps), a fresh dict on each call.
- Limits as constants: ``MIN_COLS`` ... ``MAX_COLOR``, the list caps ``MAX_STONES`` and
  ``MAX_HOLES`` and the file cap ``MAX_LEVEL_BYTES``. A list longer than its cap is refused
  up front, with the limit named, before its items are read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, NamedTuple

from gridforge.errors import (
    Field,
    Issue,
    Issues,
    Schema,
    ValidationError,
    describe,
    field_path,
    is_int,
    parse_json,
)
from gridforge.grid import Cell
from gridforge.jsontypes import JsonObject
from gridforge.snakes.game.levelfile import BodyJson, HoleJson, LevelJson, PathJson
from gridforge.snakes.game.regions import regions

FORMAT = "gridforge.snakes.level/1"

MIN_COLS, MAX_COLS = 2, 18
MIN_ROWS, MAX_ROWS = 2, 24
MIN_FLOOR, MAX_FLOOR = 4, 400
MAX_PADDED_AREA = 600  # (cols + 2) * (rows + 2), the board with its outer wall ring
MIN_BODIES, MAX_BODIES = 1, 16
MIN_BODY_LEN, MAX_BODY_LEN = 2, 40
MIN_TOTAL_CELLS, MAX_TOTAL_CELLS = 2, 350
MIN_LAYERS, MAX_LAYERS = 1, 4
MIN_COLOR, MAX_COLOR = 0, 14
MAX_DISTINCT_COLORS = 15
MAX_FROZEN = 10_000  # a sanity cap: any threshold above the level's layer count never opens
MAX_STONES = MAX_COLS * MAX_ROWS  # more stones than cells cannot all be distinct
MAX_HOLES = MAX_BODIES * MAX_LAYERS  # one hole per layer (supply equals demand)
MAX_LEVEL_BYTES = 1024 * 1024  # a level file (the largest valid one is a few KiB plus meta)
LOCK_KEYS = {"silver": 1, "gold": 2}

MAX_PATHS = MAX_FLOOR  # one paint per floor cell at most
MAX_BRIDGES = MAX_FLOOR
HORIZONTAL, VERTICAL = 0, 1  # a bridge's lanes: entered from the left/right, from above/below

LEVEL_KEYS = ("format", "cols", "rows", "stones", "bodies", "holes", "paths", "bridges", "meta")
PATH_KEYS = ("cell", "color")
BODY_KEYS = ("cells", "colors", "frozen", "lock", "key")
HOLE_KEYS = ("cell", "color", "frozen")
LOCK_FIELDS = ("id", "kind")


@dataclass(frozen=True)
class Lock:
    """A lock on a body: ``kind`` silver needs 1 key, gold needs 2."""

    id: str
    kind: str

    @property
    def keys_needed(self) -> int:
        return LOCK_KEYS[self.kind]


@dataclass(frozen=True)
class Body:
    """A body: cells head first, layers outermost first, optional freeze/lock/key."""

    cells: tuple[Cell, ...]
    colors: tuple[int, ...]
    frozen: int = 0
    lock: Lock | None = None
    key: str | None = None

    def to_json(self) -> BodyJson:
        """The body as in the file (optional fields only when set)."""
        out: BodyJson = {"cells": [list(c) for c in self.cells], "colors": list(self.colors)}
        if self.frozen:
            out["frozen"] = self.frozen
        if self.lock is not None:
            out["lock"] = {"id": self.lock.id, "kind": self.lock.kind}
        if self.key:
            out["key"] = self.key
        return out


@dataclass(frozen=True)
class Hole:
    """A hole: accepts one layer of ``color`` once ``frozen`` layers have exited."""

    cell: Cell
    color: int
    frozen: int = 0

    def to_json(self) -> HoleJson:
        """The hole as in the file (``frozen`` only when set)."""
        out: HoleJson = {"cell": list(self.cell), "color": self.color}
        if self.frozen:
            out["frozen"] = self.frozen
        return out


@dataclass(frozen=True)
class PaintedCell:
    """A cell of a coloured path: a step whose moving end enters it is legal only for a body
    whose current outer colour is ``color`` (spec section 3b)."""

    cell: Cell
    color: int

    def to_json(self) -> PathJson:
        return {"cell": list(self.cell), "color": self.color}


def bridge_lane(cells: Sequence[Cell], j: int) -> int | None:
    """The lane (:data:`HORIZONTAL` or :data:`VERTICAL`) that cell ``j`` of a body's ``cells``
    takes when it lies on a bridge: the axis joining it to its neighbours in the body. None
    when the body turns there (its neighbours do not lie on opposite sides of it), which no
    bridge allows."""
    x, y = cells[j]
    axes = set()
    for k in (j - 1, j + 1):
        if 0 <= k < len(cells):
            axes.add(HORIZONTAL if cells[k][1] == y else VERTICAL)
    if len(axes) != 1:
        return None
    if 0 < j < len(cells) - 1:
        (px, py), (qx, qy) = cells[j - 1], cells[j + 1]
        if (px + qx, py + qy) != (2 * x, 2 * y):
            return None
    return axes.pop()


@dataclass(frozen=True)
class Level:
    """A validated snakes level. Build it with :meth:`from_json` (which validates)."""

    cols: int
    rows: int
    stones: tuple[Cell, ...]
    bodies: tuple[Body, ...]
    holes: tuple[Hole, ...]
    meta: JsonObject | None = field(default=None, compare=False, hash=False)
    paths: tuple[PaintedCell, ...] = ()
    bridges: tuple[Cell, ...] = ()

    @classmethod
    def from_json(cls, data: Any, *, balanced: bool = True) -> Level:
        """Validate ``data`` fully, then build; raises ValidationError listing every issue."""
        return level_from_json(data, balanced=balanced)

    def to_json(self, *, with_meta: bool = True) -> LevelJson:
        """The level as a JSON-ready dict in the file's key order."""
        out: LevelJson = {
            "format": FORMAT,
            "cols": self.cols,
            "rows": self.rows,
            "stones": [list(c) for c in self.stones],
            "bodies": [b.to_json() for b in self.bodies],
            "holes": [h.to_json() for h in self.holes],
        }
        if self.paths:
            out["paths"] = [p.to_json() for p in self.paths]
        if self.bridges:
            out["bridges"] = [list(c) for c in self.bridges]
        if with_meta and self.meta is not None:
            out["meta"] = json.loads(json.dumps(self.meta))
        return out

    @property
    def floor_count(self) -> int:
        """Cells of the board that are not stones."""
        return self.cols * self.rows - len(self.stones)

    @property
    def has_terrain(self) -> bool:
        """Whether the level has coloured paths or bridges (spec section 3b)."""
        return bool(self.paths or self.bridges)


# ---------------------------------------------------------------- validation helpers


def _adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _side(name: str, lo: int, hi: int) -> Field:
    return Field(name, "int", f"{name} must be an integer, got {{shown}}", "type", lo=lo, hi=hi,
                 range_message=f"{name} must be in {{lo}}..{{hi}}, got {{value}}")


# A level file's fields, declared once: the format and the board's size are read here, the
# terrain, bodies and holes by the readers below (their cells need the size).
_LEVEL = Schema((
    Field("format", message=f"format must be {FORMAT!r}, got {{shown}}", code="format",
          choices=(FORMAT,)),
    _side("cols", MIN_COLS, MAX_COLS), _side("rows", MIN_ROWS, MAX_ROWS),
    *(Field(name) for name in LEVEL_KEYS if name not in ("format", "cols", "rows")),
), unknown_sorted=True)


def validate_level(data: Any, *, balanced: bool = True) -> list[Issue]:
    """Every problem of a level dict, in a fixed order; empty when the level is valid."""
    issues, _ = _check(data, balanced=balanced)
    return issues


def _check(data: Any, *, balanced: bool) -> tuple[list[Issue], Level | None]:
    col = Issues()
    if not isinstance(data, dict):
        col.add("", "type", f"a level is a JSON object, got {describe(data)}")
        return col.items, None
    fields = _LEVEL.read(data, col)
    fields.check("format", "cols", "rows")

    # Board size.
    raw_cols, raw_rows = data.get("cols"), data.get("rows")
    ok_cols, ok_rows = not fields.bad("cols"), not fields.bad("rows")
    cols = raw_cols if is_int(raw_cols) else 0
    rows = raw_rows if is_int(raw_rows) else 0
    if ok_cols and ok_rows and (cols + 2) * (rows + 2) > MAX_PADDED_AREA:
        col.add(
            "cols",
            "too_large",
            f"(cols+2)*(rows+2) = {(cols + 2) * (rows + 2)} exceeds {MAX_PADDED_AREA}",
        )
        ok_cols = ok_rows = False
    bc = cols if ok_cols and ok_rows else None
    br = rows if ok_cols and ok_rows else None

    owner: dict[Cell, str] = {}
    stones = _check_stones(col, data.get("stones", []), bc, br, owner)
    if bc is not None and br is not None:
        floor = bc * br - len(stones)
        if not MIN_FLOOR <= floor <= MAX_FLOOR:
            col.add(
                "stones",
                "floor_count",
                f"floor cells must number {MIN_FLOOR}..{MAX_FLOOR}, got {floor}",
            )

    # Terrain before the bodies: a body's cell on a bridge takes a lane.
    paths, bridges = _check_terrain(col, data, bc, br)
    bridge_at = {cell: i for i, cell in enumerate(bridges)}
    lanes: dict[tuple[Cell, int], str] = {}

    # Locks first (keys refer to them), then bodies.
    raw_bodies = col.list_of(data.get("bodies"), "bodies", MIN_BODIES, MAX_BODIES, "bodies",
                             "count")
    raw_bodies = raw_bodies or []
    bodies: list[Body | None] = [
        _check_body(_Scope(col, bc, br, owner, bridge_at, lanes), raw, i)
        for i, raw in enumerate(raw_bodies)
    ]
    total_cells = sum(len(b.cells) for b in bodies if b is not None)
    # The total is judged only when every body is valid: an invalid one would miscount it.
    complete = raw_bodies and all(b is not None for b in bodies)
    if complete and not MIN_TOTAL_CELLS <= total_cells <= MAX_TOTAL_CELLS:
        col.add(
            "bodies",
            "total_cells",
            f"bodies hold {MIN_TOTAL_CELLS}..{MAX_TOTAL_CELLS} cells in all, got {total_cells}",
        )

    _check_keys(col, bodies)

    # Holes.
    raw_holes = col.list_of(data.get("holes"), "holes", 0, MAX_HOLES, "holes", "too_many") or []
    holes: list[Hole] = []
    for i, raw in enumerate(raw_holes):
        hole = _check_hole(_Scope(col, bc, br, owner, bridge_at, lanes), raw, i)
        if hole is not None:
            holes.append(hole)

    _check_terrain_cells(col, paths, bridges, owner)

    # Colours.
    used_colors = {c for b in bodies if b is not None for c in b.colors} | {h.color for h in holes}
    if len(used_colors) > MAX_DISTINCT_COLORS:
        col.add(
            "bodies",
            "colors",
            f"at most {MAX_DISTINCT_COLORS} distinct colors, got {len(used_colors)}",
        )
    outer = {b.colors[0] for b in bodies if b is not None}
    if len(outer) > len(bodies):
        col.add("bodies", "colors", "more distinct outer colors than bodies")

    meta = data.get("meta")
    if meta is not None and not isinstance(meta, dict):
        col.add("meta", "type", "meta must be an object")

    if col.items:
        return col.items, None
    level = Level(
        cols=cols,
        rows=rows,
        stones=tuple(stones),
        bodies=tuple(b for b in bodies if b is not None),
        holes=tuple(holes),
        meta=json.loads(json.dumps(meta)) if isinstance(meta, dict) else None,
        paths=tuple(paths),
        bridges=tuple(bridges),
    )
    if balanced:
        issues = balance_issues(level)
        if issues:
            return issues, None
    return [], level



def _check_stones(col: Issues, raw: Any, bc: int | None, br: int | None,
                  owner: dict[Cell, str]) -> list[Cell]:
    """A level's stones, each cell taken in ``owner``; problems to ``col``."""
    stones: list[Cell] = []
    raw_stones = col.list_of(raw, "stones", 0, MAX_STONES, "stones", "too_many") or []
    for i, item in enumerate(raw_stones):
        path = field_path("stones", i)
        cell = col.cell(item, path, bc, br)
        if cell is None:
            continue
        if cell in owner:
            col.add(path, "duplicate", f"stone {list(cell)} repeats {owner[cell]}")
            continue
        owner[cell] = path
        stones.append(cell)
    return stones


def _check_keys(col: Issues, bodies: list[Body | None]) -> None:
    """Lock ids unique, every key opening a lock of another body, every lock with exactly
    the keys its kind needs; problems to ``col``."""
    locks: dict[str, tuple[int, Lock]] = {}
    for i, body in enumerate(bodies):
        if body is not None and body.lock is not None:
            if body.lock.id in locks:
                other = locks[body.lock.id][0]
                col.add(
                    field_path("bodies", i, "lock", "id"),
                    "duplicate",
                    f"lock id {body.lock.id!r} is also on bodies[{other}]",
                )
            else:
                locks[body.lock.id] = (i, body.lock)
    keys: dict[str, list[int]] = {}
    for i, body in enumerate(bodies):
        if body is not None and body.key is not None:
            path = field_path("bodies", i, "key")
            if body.key not in locks:
                col.add(path, "unknown_lock", f"key {body.key!r} opens no lock of this level")
            elif locks[body.key][0] == i:
                col.add(path, "own_lock", "a body cannot carry the key of its own lock")
            else:
                keys.setdefault(body.key, []).append(i)
    for lock_id, (i, lock) in sorted(locks.items(), key=lambda kv: kv[1][0]):
        have = len(keys.get(lock_id, []))
        if have != lock.keys_needed:
            col.add(
                field_path("bodies", i, "lock"),
                "key_count",
                f"{lock.kind} lock {lock_id!r} needs exactly {lock.keys_needed} key(s)"
                f" carried by other bodies, found {have}",
            )


def _check_terrain(col: Issues, data: dict[str, Any], bc: int | None, br: int | None
                   ) -> tuple[list[PaintedCell], list[Cell]]:
    """A level's coloured paths and bridges, each on the board, each cell painted or bridged
    once; problems to ``col``. Stones and holes under them are judged by
    :func:`_check_terrain_cells`, once the holes are read."""
    taken: dict[Cell, str] = {}
    paths: list[PaintedCell] = []
    raw_paths = col.list_of(data.get("paths", []), "paths", 0, MAX_PATHS, "paths",
                            "too_many") or []
    for i, raw in enumerate(raw_paths):
        base, before = field_path("paths", i), len(col.items)
        if not col.object_of(raw, base, PATH_KEYS, "a path cell"):
            continue
        cell = col.cell(raw.get("cell"), field_path(base, "cell"), bc, br)
        col.integer(raw.get("color"), field_path(base, "color"), MIN_COLOR, MAX_COLOR, "color")
        if cell is not None and cell in taken:
            col.add(field_path(base, "cell"), "duplicate",
                    f"cell {list(cell)} is already terrain: {taken[cell]}")
        elif cell is not None:
            taken[cell] = base
        if len(col.items) == before and cell is not None:
            paths.append(PaintedCell(cell, raw["color"]))
    bridges: list[Cell] = []
    raw_bridges = col.list_of(data.get("bridges", []), "bridges", 0, MAX_BRIDGES, "bridges",
                              "too_many") or []
    for i, raw in enumerate(raw_bridges):
        path = field_path("bridges", i)
        cell = col.cell(raw, path, bc, br)
        if cell is None:
            continue
        if cell in taken:
            what = "painted" if taken[cell].startswith("paths") else "a bridge"
            col.add(path, "duplicate", f"cell {list(cell)} is already {what}: {taken[cell]}")
            continue
        taken[cell] = path
        bridges.append(cell)
    return paths, bridges


def _check_terrain_cells(col: Issues, paths: list[PaintedCell], bridges: list[Cell],
                         owner: dict[Cell, str]) -> None:
    """Terrain lies on floor: never on a stone or a hole (bodies may lie on it)."""
    places = [(field_path("paths", i, "cell"), p.cell) for i, p in enumerate(paths)]
    places += [(field_path("bridges", i), cell) for i, cell in enumerate(bridges)]
    for path, cell in places:
        taken = owner.get(cell, "")
        if taken.startswith("stones"):
            col.add(path, "on_stone", f"cell {list(cell)} is a stone ({taken})")
        elif taken.startswith("holes"):
            col.add(path, "on_hole", f"cell {list(cell)} is a hole ({taken})")


class _Scope(NamedTuple):
    """What each body and hole check needs: the collector, the board's bounds (None when the
    size itself is bad), the owner (a field path) of every cell taken so far, the bridges
    (cell -> index) and the owner of every bridge lane taken so far."""

    col: Issues
    cols: int | None
    rows: int | None
    owner: dict[Cell, str]
    bridge_at: dict[Cell, int]
    lanes: dict[tuple[Cell, int], str]


def _check_body(scope: _Scope, raw: Any, i: int) -> Body | None:
    col, bc, br, owner, bridge_at, _ = scope
    base, before = field_path("bodies", i), len(col.items)
    if not col.object_of(raw, base, BODY_KEYS, "a body"):
        return None
    cells: list[Cell] = []
    raw_cells = col.list_of(raw.get("cells"), field_path(base, "cells"), MIN_BODY_LEN,
                            MAX_BODY_LEN, "a body's cells") or []
    own: set[Cell] = set()
    prev: Cell | None = None
    for j, rc in enumerate(raw_cells):
        path = field_path(base, "cells", j)
        cell = col.cell(rc, path, bc, br)
        if cell is None:
            prev = None
            continue
        if cell in bridge_at:
            pass  # a bridge holds two lanes: judged once the whole path is read
        elif cell in own:
            col.add(path, "repeat", f"cell {list(cell)} appears twice in this body")
        elif cell in owner:
            what = "stone" if owner[cell].startswith("stones") else "body"
            col.add(path, "overlap", f"cell {list(cell)} is already taken by {what} {owner[cell]}")
        else:
            owner[cell] = path
        own.add(cell)
        if prev is not None and not _adjacent(prev, cell):
            col.add(
                path,
                "not_adjacent",
                f"cell {list(cell)} is not 4-adjacent to the previous cell {list(prev)}",
            )
        prev = cell
        cells.append(cell)
    if len(col.items) == before:
        _check_lanes(scope, cells, base)
    colors: list[int] = []
    raw_colors = col.list_of(raw.get("colors"), field_path(base, "colors"), MIN_LAYERS,
                             MAX_LAYERS, "a body's colors (its layers)") or []
    for j, c in enumerate(raw_colors):
        if col.integer(c, field_path(base, "colors", j), MIN_COLOR, MAX_COLOR, "color") is not None:
            colors.append(c)
    frozen = raw.get("frozen", 0)
    if "frozen" in raw:
        col.integer(frozen, field_path(base, "frozen"), 1, MAX_FROZEN, "frozen")
    lock = None
    if "lock" in raw:
        lock = _check_lock(col, raw["lock"], field_path(base, "lock"))
    key = raw.get("key")
    if "key" in raw and (not isinstance(key, str) or not key):
        col.add(field_path(base, "key"), "type", "key must be a non-empty lock id string")
    if len(col.items) != before:
        return None
    return Body(tuple(cells), tuple(colors), frozen, lock, key)


def _check_lanes(scope: _Scope, cells: list[Cell], base: str) -> None:
    """A body's cells on bridges: no turn there, each lane taken once (by any body)."""
    col, _, _, owner, bridge_at, lanes = scope
    for j, cell in enumerate(cells):
        if cell not in bridge_at:
            continue
        path = field_path(base, "cells", j)
        if cell in owner and owner[cell].startswith("stones"):
            col.add(path, "overlap", f"cell {list(cell)} is already taken by stone {owner[cell]}")
            continue
        lane = bridge_lane(cells, j)
        if lane is None:
            col.add(path, "bridge_turn",
                    f"the body turns on the bridge at {list(cell)}: a bridge is crossed straight")
            continue
        name = "horizontal" if lane == HORIZONTAL else "vertical"
        if (cell, lane) in lanes:
            col.add(path, "bridge_lane",
                    f"the {name} lane of the bridge at {list(cell)} is already taken by "
                    f"{lanes[cell, lane]}")
            continue
        lanes[cell, lane] = path


def _check_lock(col: Issues, raw: Any, path: str) -> Lock | None:
    if not isinstance(raw, dict):
        col.add(path, "type", 'a lock is {"id": ..., "kind": "silver" | "gold"}')
        return None
    col.unknown_keys(raw, LOCK_FIELDS, path)
    lock_id, kind = raw.get("id"), raw.get("kind")
    good_id = isinstance(lock_id, str) and bool(lock_id)
    # A kind that is a list or an object is unhashable: test the type before the lookup.
    good_kind = isinstance(kind, str) and kind in LOCK_KEYS
    if not good_id:
        col.add(field_path(path, "id"), "type", "lock id must be a non-empty string")
    if not good_kind:
        col.add(
            field_path(path, "kind"),
            "kind",
            f'lock kind must be "silver" or "gold", got {describe(kind)}',
        )
    if isinstance(lock_id, str) and isinstance(kind, str) and good_id and good_kind:
        return Lock(lock_id, kind)
    return None


def _check_hole(scope: _Scope, raw: Any, i: int) -> Hole | None:
    col, bc, br, owner, _, lanes = scope
    base, before = field_path("holes", i), len(col.items)
    if not col.object_of(raw, base, HOLE_KEYS, "a hole"):
        return None
    cell = col.cell(raw.get("cell"), field_path(base, "cell"), bc, br)
    if cell is not None:
        lane_owner = lanes.get((cell, HORIZONTAL)) or lanes.get((cell, VERTICAL))
        if cell in owner or lane_owner is not None:
            col.add(
                field_path(base, "cell"),
                "overlap",
                f"cell {list(cell)} is already taken by {owner.get(cell) or lane_owner}",
            )
        else:
            owner[cell] = base
    col.integer(raw.get("color"), field_path(base, "color"), MIN_COLOR, MAX_COLOR, "color")
    frozen = raw.get("frozen", 0)
    if "frozen" in raw:
        col.integer(frozen, field_path(base, "frozen"), 1, MAX_FROZEN, "frozen")
    if len(col.items) != before or cell is None:
        return None
    return Hole(cell, raw["color"], frozen)


# ---------------------------------------------------------------- regions and balance


def floor_regions(level: Level) -> list[list[Cell]]:
    """Connected floor regions (4-adjacency; bodies and holes count as floor), row-major
    (:func:`gridforge.snakes.game.regions.regions`; :mod:`~gridforge.snakes.game.regions`
    has the rest of spec 5d's region terms)."""
    return regions(level.cols, level.rows, set(level.stones))


def _supply_demand(bodies: Sequence[Body], holes: Sequence[Hole]
                   ) -> tuple[dict[int, int], dict[int, int]]:
    """Per colour, the layers of ``bodies`` (supply) and the ``holes`` (demand)."""
    supply: dict[int, int] = {}
    demand: dict[int, int] = {}
    for body in bodies:
        for c in body.colors:
            supply[c] = supply.get(c, 0) + 1
    for hole in holes:
        demand[hole.color] = demand.get(hole.color, 0) + 1
    return supply, demand


def balance_issues(level: Level) -> list[Issue]:
    """Supply (layers) against demand (holes) per colour, whole level and per floor region."""
    issues = Issues()
    supply, demand = _supply_demand(level.bodies, level.holes)
    for c in sorted(set(supply) | set(demand)):
        if supply.get(c, 0) != demand.get(c, 0):
            issues.add("holes", "supply_demand",
                       f"color {c}: {supply.get(c, 0)} layer(s) but {demand.get(c, 0)} hole(s)")
    if issues:
        return issues.items
    regions = floor_regions(level)
    if len(regions) <= 1:
        return issues.items
    region_of = {cell: r for r, cells in enumerate(regions) for cell in cells}
    for r in range(len(regions)):
        sup, dem = _supply_demand([b for b in level.bodies if region_of[b.cells[0]] == r],
                                  [h for h in level.holes if region_of[h.cell] == r])
        for c in sorted(set(sup) | set(dem)):
            if sup.get(c, 0) != dem.get(c, 0):
                x, y = regions[r][0]
                issues.add("holes", "supply_demand",
                           f"floor region {r} (from [{x}, {y}]), color {c}: "
                           f"{sup.get(c, 0)} layer(s) but {dem.get(c, 0)} hole(s)")
    return issues.items


# ---------------------------------------------------------------- entry points


def level_from_json(data: Any, *, balanced: bool = True) -> Level:
    """Validate a level dict and build it; raises ValidationError with every issue."""
    issues, level = _check(data, balanced=balanced)
    if issues or level is None:
        raise ValidationError(issues, "snakes level")
    return level


def parse_level(text: str | bytes, *, balanced: bool = True) -> Level:
    """Parse (within :data:`MAX_LEVEL_BYTES` and the reader's limits) and validate a level
    from JSON text."""
    data = parse_json(text, "snakes level", max_bytes=MAX_LEVEL_BYTES)
    return level_from_json(data, balanced=balanced)


def spec_example() -> JsonObject:
    """The example level of spec section 7 (solvable, minimum 20 steps), as a fresh dict."""
    text = resources.files("gridforge.snakes").joinpath("data", "spec_example.json").read_bytes()
    data: JsonObject = parse_json(text, "spec_example.json", max_bytes=MAX_LEVEL_BYTES)
    return data


def canonical_json(level: Level | Mapping[str, object]) -> str:
    """Canonical text of a level: keys sorted, no whitespace, ``meta`` excluded."""
    if not isinstance(level, Level):
        level = level_from_json(level, balanced=False)
    data = level.to_json(with_meta=False)
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def level_sha256(level: Level | Mapping[str, object]) -> str:
    """SHA-256 (hex) of :func:`canonical_json`: names a level in its certificate."""
    return hashlib.sha256(canonical_json(level).encode("utf-8")).hexdigest()


__all__ = [
    "FORMAT",
    "HORIZONTAL",
    "LOCK_KEYS",
    "VERTICAL",
    "Body",
    "Hole",
    "Level",
    "Lock",
    "PaintedCell",
    "balance_issues",
    "bridge_lane",
    "canonical_json",
    "floor_regions",
    "level_from_json",
    "level_sha256",
    "parse_level",
    "spec_example",
    "validate_level",
]
