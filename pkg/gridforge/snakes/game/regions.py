"""Floor regions of a snakes level (spec 5d): which cells join, which bodies and holes each
region holds, the main region, the stone share, and one region as a level of its own.

The one flood fill of the game (:func:`regions`): the level's validator
(:func:`gridforge.snakes.game.level.balance_issues`), the editor and the designer all use it.
Works on the level's JSON (:class:`~gridforge.snakes.game.levelfile.LevelJson`, as a file or
``Level.to_json()`` gives it), so that a band report reads a level without building its model.

Public names:

- :func:`regions` (``cols, rows, blocked -> regions``): the 4-connected regions of the cells
  not blocked, each row-major, in the row-major order of their first cells.
- :func:`floor_map` (``level -> FloorMap``): the floor regions (stones excluded; cells under
  bodies, holes, paths and bridges are floor), the bodies and holes of each, the main region
  and the stone share (:class:`FloorMap`).
- :func:`region_level` (``level, region -> level``): the level restricted to one region.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from gridforge.grid import NEIGHBOURS_4, Cell
from gridforge.snakes.game.levelfile import BodyJson, HoleJson, LevelJson

__all__ = ["FloorMap", "floor_map", "region_level", "regions"]


def regions(cols: int, rows: int, blocked: Collection[Cell]) -> list[list[Cell]]:
    """Connected regions (4-adjacency) of the ``cols`` x ``rows`` cells not in ``blocked``,
    each row-major, in the row-major order of their first cells."""
    seen: set[Cell] = set()
    found: list[list[Cell]] = []
    for y in range(rows):
        for x in range(cols):
            start = (x, y)
            if start in blocked or start in seen:
                continue
            seen.add(start)
            region = [start]
            k = 0
            while k < len(region):
                cx, cy = region[k]
                k += 1
                for dx, dy in NEIGHBOURS_4:
                    nxt = (cx + dx, cy + dy)
                    if (
                        0 <= nxt[0] < cols
                        and 0 <= nxt[1] < rows
                        and nxt not in blocked
                        and nxt not in seen
                    ):
                        seen.add(nxt)
                        region.append(nxt)
            found.append(sorted(region, key=lambda c: (c[1], c[0])))
    return found


def _cell(raw: Sequence[int]) -> Cell:
    return (int(raw[0]), int(raw[1]))


@dataclass(frozen=True)
class FloorMap:
    """The floor regions of a level (spec 5d).

    ``cells[r]`` are region r's cells (row-major; regions in the row-major order of their
    first cells); ``bodies[r]`` and ``holes[r]`` the indices (into the level's lists) of the
    bodies and holes it holds. A body lies in one region (its cells are 4-adjacent floor);
    it is counted where its head is. ``main`` is the region holding the most bodies; of
    regions with as many, the one with more floor cells, then the first (the order above).
    ``stone_share`` is stones / (cols x rows).
    """

    cells: tuple[tuple[Cell, ...], ...]
    bodies: tuple[tuple[int, ...], ...]
    holes: tuple[tuple[int, ...], ...]
    main: int
    stone_share: float

    @property
    def count(self) -> int:
        """How many floor regions the level has."""
        return len(self.cells)

    @property
    def main_bodies(self) -> int:
        """How many bodies the main region holds."""
        return len(self.bodies[self.main]) if self.cells else 0

    def region_of(self, cell: Cell) -> int | None:
        """The region holding ``cell`` (None: a stone or off the board)."""
        for r, cells in enumerate(self.cells):
            if cell in cells:
                return r
        return None


def floor_map(level: LevelJson) -> FloorMap:
    """The :class:`FloorMap` of ``level`` (a level's JSON whose shape a check accepted).

    :raises ValueError: when a body or hole lies on no floor cell (a stone, off the board).
    """
    cols, rows = int(level["cols"]), int(level["rows"])
    stones = {_cell(s) for s in level["stones"]}
    found = regions(cols, rows, stones)
    label = {cell: r for r, cells in enumerate(found) for cell in cells}
    bodies: list[list[int]] = [[] for _ in found]
    holes: list[list[int]] = [[] for _ in found]
    for i, body in enumerate(level["bodies"]):
        r = label.get(_cell(body["cells"][0]))
        if r is None:
            raise ValueError(f"bodies[{i}].cells[0] lies on no floor cell")
        bodies[r].append(i)
    for j, hole in enumerate(level["holes"]):
        r = label.get(_cell(hole["cell"]))
        if r is None:
            raise ValueError(f"holes[{j}].cell lies on no floor cell")
        holes[r].append(j)
    # Most bodies, then most floor cells, then the first region: a fixed, stated tie-break.
    main = min(range(len(found)), key=lambda r: (-len(bodies[r]), -len(found[r]), r),
               default=0)
    return FloorMap(tuple(tuple(c) for c in found), tuple(map(tuple, bodies)),
                    tuple(map(tuple, holes)), main, len(stones) / (cols * rows))


def _body(body: BodyJson, lift: bool) -> BodyJson:
    out: BodyJson = {"cells": body["cells"], "colors": body["colors"]}
    if not lift:
        for key in ("frozen", "lock", "key"):
            if key in body:
                out[key] = body[key]
    return out


def _hole(hole: HoleJson, lift: bool) -> HoleJson:
    out: HoleJson = {"cell": hole["cell"], "color": hole["color"]}
    if not lift and "frozen" in hole:
        out["frozen"] = hole["frozen"]
    return out


def _whole_locks(bodies: list[BodyJson]) -> list[BodyJson]:
    """``bodies`` without the locks whose keys are not all among them, nor those keys: a lock
    keyed from outside the region would leave the region's level invalid."""
    keyed: dict[str, int] = {}
    for body in bodies:
        if "key" in body:
            keyed[body["key"]] = keyed.get(body["key"], 0) + 1
    need = {b["lock"]["id"]: 2 if b["lock"]["kind"] == "gold" else 1
            for b in bodies if "lock" in b}
    whole = {lock for lock, n in need.items() if keyed.get(lock, 0) == n}
    out: list[BodyJson] = []
    for body in bodies:
        kept: BodyJson = {"cells": body["cells"], "colors": body["colors"]}
        if "frozen" in body:
            kept["frozen"] = body["frozen"]
        if "lock" in body and body["lock"]["id"] in whole:
            kept["lock"] = body["lock"]
        if "key" in body and body["key"] in whole:
            kept["key"] = body["key"]
        out.append(kept)
    return out


def region_level(level: LevelJson, region: int, *, lift: bool = True,
                 where: FloorMap | None = None) -> LevelJson:
    """Floor region ``region`` of ``level`` as a level of its own: its bodies, holes, paths and
    bridges kept (in the level's order), every cell outside it turned to stone.

    Stone, not cropped: the board keeps its size, so every cell and step of the region's level
    is the level's own (a solution or a blocked cell maps back as it is; only body indices
    change, to the order of ``floor_map(level).bodies[region]``). ``lift`` (the default, as
    spec 5d measures a region) drops freezes, locks and keys; otherwise freezes stay and a
    lock stays only with all its keys inside (the freeze counts layers of this region alone).
    No ``meta``. A valid level when the region holds a body (its supply and demand balance
    in every level the validator accepted).

    :raises IndexError: when ``region`` is not a region of ``level``.
    """
    fm = where if where is not None else floor_map(level)
    if not 0 <= region < fm.count:
        raise IndexError(f"region {region}: the level has {fm.count} floor region(s)")
    inside = set(fm.cells[region])
    cols, rows = int(level["cols"]), int(level["rows"])
    bodies = [_body(level["bodies"][i], lift) for i in fm.bodies[region]]
    out: LevelJson = {
        "format": level["format"], "cols": cols, "rows": rows,
        "stones": [[x, y] for x in range(cols) for y in range(rows) if (x, y) not in inside],
        "bodies": bodies if lift else _whole_locks(bodies),
        "holes": [_hole(level["holes"][j], lift) for j in fm.holes[region]],
    }
    paths = [p for p in level.get("paths", []) if _cell(p["cell"]) in inside]
    if paths:
        out["paths"] = paths
    bridges = [b for b in level.get("bridges", []) if _cell(b) in inside]
    if bridges:
        out["bridges"] = bridges
    return out
