"""Mirror, rotate, move and copy a draft level or a part of it (issue 23).

A transform maps cells and keeps everything else: the order of the stones, bodies, holes and
terrain (coloured paths and bridges, which move with the area they lie in),
each body's colours (a body's head stays its head), freezes, locks, keys and ``meta``. So
mirroring twice, or rotating four times, gives back the very level, and its SHA-256.

- ``mirror_x`` (left-right), ``mirror_y`` (top-bottom) and ``rotate`` (a quarter turn
  clockwise) act on the whole level, or, with ``area`` = ``[x0, y0, x1, y1]`` (corners
  included), on what lies wholly inside that rectangle: its stones, its holes and the bodies
  all of whose cells are inside. A quarter turn of the level swaps columns and rows; a
  quarter turn of an area turns it about its top-left corner's square, so the turned part
  lands in ``[x0, y0, x0 + h - 1, y0 + w - 1]``.
- ``move`` and ``copy`` shift what lies inside ``area`` by ``by`` = ``[dx, dy]``; a copied
  body leaves its lock and key behind (a lock id names one lock).

:func:`transform` refuses, with field paths under ``edit``, a transform whose result leaves
the board or lands on something that stays; the level's validator then has the last word
(see :func:`gridforge.snakes.editor.editing.apply_edit`, which calls this for the ``transform``
tool).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gridforge.errors import ValidationError, is_int, refusal
from gridforge.jsontypes import JsonObject
from gridforge.snakes.game.level import MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS
from gridforge.snakes.game.levelfile import BodyJson, HoleJson, LevelJson, PathJson

__all__ = ["OPS", "transform"]

OPS = ("mirror_x", "mirror_y", "rotate", "move", "copy")
Cell = tuple[int, int]


def _refuse(name: str, code: str, message: str) -> ValidationError:
    return refusal("edit", f"edit.{name}", code, message)


def _area(raw: Any, cols: int, rows: int) -> tuple[int, int, int, int] | None:
    if raw is None:
        return None
    if not (isinstance(raw, list) and len(raw) == 4 and all(is_int(v) for v in raw)):
        raise _refuse("area", "type", "an area is [x0, y0, x1, y1], four integers")
    x0, y0, x1, y1 = min(raw[0], raw[2]), min(raw[1], raw[3]), max(raw[0], raw[2]), \
        max(raw[1], raw[3])
    if x0 < 0 or y0 < 0 or x1 >= cols or y1 >= rows:
        raise _refuse("area", "off_board", f"the area must lie on the {cols}x{rows} board")
    return x0, y0, x1, y1


def _mapping(op: str, area: tuple[int, int, int, int], by: Any) -> Callable[[Cell], Cell]:
    x0, y0, x1, y1 = area
    if op == "mirror_x":
        return lambda c: (x0 + x1 - c[0], c[1])
    if op == "mirror_y":
        return lambda c: (c[0], y0 + y1 - c[1])
    if op == "rotate":
        h = y1 - y0 + 1
        return lambda c: (x0 + (h - 1 - (c[1] - y0)), y0 + (c[0] - x0))
    if not (isinstance(by, list) and len(by) == 2 and all(is_int(v) for v in by)):
        raise _refuse("by", "type", "by is [dx, dy], two integers")
    dx, dy = by
    return lambda c: (c[0] + dx, c[1] + dy)


def _unlocked(body: BodyJson) -> BodyJson:
    """A copy of ``body`` without its lock and key (a copied lock would lack its keys)."""
    out = body.copy()
    out.pop("lock", None)
    out.pop("key", None)
    return out


def transform(level: LevelJson, edit: JsonObject) -> LevelJson:
    """``level`` (a draft dict, not changed) with ``edit`` (``{op, area?, by?}``) applied.

    :raises ValidationError: the edit's fields, or a result off the board or on something
        that stays (paths ``edit.*``).
    """
    op = edit.get("op")
    if not isinstance(op, str) or op not in OPS:
        raise _refuse("op", "choice", f"op must be one of {', '.join(OPS)}, got {op!r}")
    cols, rows = level["cols"], level["rows"]
    area = _area(edit.get("area"), cols, rows)
    if area is None and op in ("move", "copy"):
        raise _refuse("area", "type", "select an area to move or copy")
    whole = area is None
    box = area or (0, 0, cols - 1, rows - 1)
    move = _mapping(op, box, edit.get("by"))
    new_cols, new_rows = (rows, cols) if op == "rotate" and whole else (cols, rows)
    if not (MIN_COLS <= new_cols <= MAX_COLS and MIN_ROWS <= new_rows <= MAX_ROWS):
        raise _refuse("op", "size", f"turned, the board would be {new_cols}x{new_rows}; "
                                    f"columns are {MIN_COLS}..{MAX_COLS}, rows "
                                    f"{MIN_ROWS}..{MAX_ROWS}")

    def inside(c: list[int]) -> bool:
        return box[0] <= c[0] <= box[2] and box[1] <= c[1] <= box[3]

    def moved(c: list[int]) -> list[int]:
        x, y = move((c[0], c[1]))
        return [x, y]

    out: LevelJson = {**level, "cols": new_cols, "rows": new_rows}
    picked_stones = [s for s in level["stones"] if inside(s)]
    picked_holes = [h for h in level["holes"] if inside(h["cell"])]
    picked_bodies = [b for b in level["bodies"] if all(inside(c) for c in b["cells"])]
    picked_paths = [p for p in level.get("paths", []) if inside(p["cell"])]
    picked_bridges = [c for c in level.get("bridges", []) if inside(c)]
    if not whole and not (picked_stones or picked_holes or picked_bodies or picked_paths
                          or picked_bridges):
        raise _refuse("area", "empty", "nothing lies wholly inside the area")
    new_paths: list[PathJson] = [{**p, "cell": moved(p["cell"])} for p in picked_paths]
    new_bridges = [moved(c) for c in picked_bridges]
    if "paths" in level:
        paths = iter(new_paths)
        out["paths"] = ([*level["paths"], *new_paths] if op == "copy" else
                        [next(paths) if inside(p["cell"]) else p for p in level["paths"]])
    if "bridges" in level:
        bridges = iter(new_bridges)
        out["bridges"] = ([*level["bridges"], *new_bridges] if op == "copy" else
                          [next(bridges) if inside(c) else c for c in level["bridges"]])
    new_stones = [moved(s) for s in picked_stones]
    new_holes: list[HoleJson] = [{**h, "cell": moved(h["cell"])} for h in picked_holes]
    new_bodies: list[BodyJson] = [{**b, "cells": [moved(c) for c in b["cells"]]}
                                  for b in picked_bodies]
    if op == "copy":
        new_bodies = [_unlocked(b) for b in new_bodies]
        out["stones"] = [*level["stones"], *new_stones]
        out["holes"] = [*level["holes"], *new_holes]
        out["bodies"] = [*level["bodies"], *new_bodies]
    else:
        stones = iter(new_stones)
        holes = iter(new_holes)
        bodies = iter(new_bodies)
        out["stones"] = [next(stones) if inside(s) else s for s in level["stones"]]
        out["holes"] = [next(holes) if inside(h["cell"]) else h for h in level["holes"]]
        out["bodies"] = [next(bodies) if all(inside(c) for c in b["cells"]) else b
                         for b in level["bodies"]]
    placed = [*new_stones, *(h["cell"] for h in new_holes),
              *(c for b in new_bodies for c in b["cells"])]
    # Terrain lies under bodies: it may land under one; the level's check judges the rest.
    drawn = [*(p["cell"] for p in new_paths), *new_bridges]
    off = [c for c in drawn if not (0 <= c[0] < new_cols and 0 <= c[1] < new_rows)]
    if off:
        raise _refuse("area", "off_board", f"the result leaves the board at {off[0]}")
    off = [c for c in placed if not (0 <= c[0] < new_cols and 0 <= c[1] < new_rows)]
    if off:
        raise _refuse("area", "off_board", f"the result leaves the board at {off[0]}")
    staying: set[tuple[int, int]] = set()
    if not whole:
        kept_stones = level["stones"] if op == "copy" else [
            s for s in level["stones"] if not inside(s)]
        kept_holes = level["holes"] if op == "copy" else [
            h for h in level["holes"] if not inside(h["cell"])]
        kept_bodies = level["bodies"] if op == "copy" else [
            b for b in level["bodies"] if not all(inside(c) for c in b["cells"])]
        staying = {(s[0], s[1]) for s in kept_stones}
        staying |= {(h["cell"][0], h["cell"][1]) for h in kept_holes}
        staying |= {(c[0], c[1]) for b in kept_bodies for c in b["cells"]}
    hit = [c for c in placed if (c[0], c[1]) in staying]
    if hit:
        raise _refuse("area", "occupied", f"the result lands on cell {hit[0]}, which is taken")
    return out
