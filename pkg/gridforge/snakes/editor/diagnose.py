"""Why a level fails, in words and as cells to mark on the board (issue 23).

A level proven unsolvable, or refused, is more use to its designer with the reasons that can
be computed without a search: :func:`reasons` answers each as ``{kind, text, cells}``
(``cells`` the board cells to mark, ``[x, y]`` each), in this order:

- ``supply_demand``: in a floor region (floor cells joined 4-adjacently; stones part them), a
  colour has more layers than holes or more holes than layers;
- ``body_unreachable``: a body with a layer of a colour that has no hole in its region;
- ``hole_unreachable``: a hole whose colour no body in its region carries;
- ``frozen_never``, ``locked_never``, ``hole_frozen_never``: a frozen body, a locked body or a
  frozen hole whose condition can never be met: the freeze needs more layers out than the
  bodies that can ever move hold, a lock's keys are missing or carried only by bodies that can
  never move (two locks whose keys are behind each other).

Each reason is a necessary condition of the rules (spec sections 2-4): a level with one is
unsolvable whatever the search. A level with none may still be unsolvable (the search says).
The words are :data:`WORDS`, the catalogue's ``editor.reason.*`` in the language of the call.
"""

from __future__ import annotations

from typing import Any

from gridforge.i18n import Words
from gridforge.jsontypes import JsonObject
from gridforge.snakes.game.answers import Reason
from gridforge.snakes.game.level import Level, level_from_json
from gridforge.snakes.game.regions import regions
from gridforge.words import colour_name

__all__ = ["WORDS", "reasons"]

# The reasons' words are the catalogue's (``editor.reason.<name>``: gridforge.i18n), said in
# the language of the call in progress (English on the command line).
WORDS = Words("editor.reason", ("more_layers", "more_holes", "region", "body_unreachable",
                                "hole_unreachable", "frozen_never", "locked_never",
                                "keys_missing", "hole_frozen_never", "lock_silver",
                                "lock_gold"))


def _lock(kind: str) -> str:
    """A lock's kind in words (``silver`` or ``gold``)."""
    return WORDS[f"lock_{kind}"] if f"lock_{kind}" in WORDS.names else kind


def _cells(cells: Any) -> list[list[int]]:
    return [list(c) for c in cells]


def _balance(level: Level, areas: list[list[tuple[int, int]]]) -> list[Reason]:
    region_of = {cell: r for r, cells in enumerate(areas) for cell in cells}
    out: list[Reason] = []
    several = len(areas) > 1
    for r, area in enumerate(areas):
        layers: dict[int, list[int]] = {}
        holes: dict[int, list[int]] = {}
        for b, body in enumerate(level.bodies):
            if region_of.get(body.cells[0]) == r:
                for c in body.colors:
                    layers.setdefault(c, []).append(b)
        for h, hole in enumerate(level.holes):
            if region_of.get(hole.cell) == r:
                holes.setdefault(hole.color, []).append(h)
        for color in sorted(set(layers) | set(holes)):
            n_layers, n_holes = len(layers.get(color, [])), len(holes.get(color, []))
            if n_layers == n_holes:
                continue
            where = WORDS["region"].format(region=r + 1, x=area[0][0] + 1,
                                           y=area[0][1] + 1) if several else ""
            key = "more_layers" if n_layers > n_holes else "more_holes"
            cells = [c for b in sorted(set(layers.get(color, [])))
                     for c in level.bodies[b].cells]
            cells += [level.holes[h].cell for h in holes.get(color, [])]
            out.append({"kind": "supply_demand", "color": color, "cells": _cells(cells),
                        "text": WORDS[key].format(where=where, color=colour_name(color),
                                                  layers=n_layers, holes=n_holes)})
    return out


def _reach(level: Level, areas: list[list[tuple[int, int]]]) -> list[Reason]:
    region_of = {cell: r for r, cells in enumerate(areas) for cell in cells}
    out: list[Reason] = []
    hole_colours: dict[int, set[int]] = {}
    body_colours: dict[int, set[int]] = {}
    for hole in level.holes:
        hole_colours.setdefault(region_of[hole.cell], set()).add(hole.color)
    for body in level.bodies:
        body_colours.setdefault(region_of[body.cells[0]], set()).update(body.colors)
    for b, body in enumerate(level.bodies):
        here = hole_colours.get(region_of[body.cells[0]], set())
        for color in dict.fromkeys(body.colors):
            if color not in here:
                out.append({"kind": "body_unreachable", "color": color,
                            "cells": _cells(body.cells),
                            "text": WORDS["body_unreachable"].format(
                                body=b + 1, color=colour_name(color))})
    for hole in level.holes:
        if hole.color not in body_colours.get(region_of[hole.cell], set()):
            x, y = hole.cell
            out.append({"kind": "hole_unreachable", "color": hole.color, "cells": [[x, y]],
                        "text": WORDS["hole_unreachable"].format(
                            x=x + 1, y=y + 1, color=colour_name(hole.color))})
    return out


def _mechanics(level: Level) -> list[Reason]:
    """Bodies that can ever move, found as a fixed point: a body moves once its freeze count
    is reached by the layers of bodies that can move before it, and its lock's keys are
    carried by such bodies."""
    bodies = level.bodies
    movable: set[int] = set()
    changed = True
    while changed:
        changed = False
        out_before = sum(len(bodies[m].colors) for m in movable)
        for b, body in enumerate(bodies):
            if b in movable:
                continue
            if body.frozen and body.frozen > out_before:
                continue
            if body.lock is not None:
                keys = sum(1 for m in movable if bodies[m].key == body.lock.id and m != b)
                if keys < body.lock.keys_needed:
                    continue
            movable.add(b)
            changed = True
    have = sum(len(bodies[m].colors) for m in movable)
    out: list[Reason] = []
    for b, body in enumerate(bodies):
        if b in movable:
            continue
        others = sum(len(bodies[m].colors) for m in movable if m != b)
        if body.frozen and body.frozen > others:
            out.append({"kind": "frozen_never", "color": body.colors[0],
                        "cells": _cells(body.cells),
                        "text": WORDS["frozen_never"].format(body=b + 1, need=body.frozen,
                                                             have=others)})
        elif body.lock is not None:
            keys = sum(1 for m in movable if bodies[m].key == body.lock.id)
            why = WORDS["keys_missing"].format(need=body.lock.keys_needed, have=keys)
            out.append({"kind": "locked_never", "color": body.colors[0],
                        "cells": _cells(body.cells),
                        "text": WORDS["locked_never"].format(body=b + 1, kind=_lock(body.lock.kind),
                                                             lock=body.lock.id, why=why)})
    for hole in level.holes:
        # The hole takes one of the layers that can leave: at most have - 1 leave before it.
        if hole.frozen and hole.frozen > have - 1:
            x, y = hole.cell
            out.append({"kind": "hole_frozen_never", "color": hole.color, "cells": [[x, y]],
                        "text": WORDS["hole_frozen_never"].format(
                            x=x + 1, y=y + 1, need=hole.frozen, have=max(0, have - 1))})
    return out


def reasons(level: Level | JsonObject) -> list[Reason]:
    """Every reason of the module doc that holds for ``level`` (a level or a level dict whose
    supply and demand may differ); empty when none does.

    :raises ValidationError: the dict is no level (field paths), as the level's loader says.
    """
    if not isinstance(level, Level):
        level = level_from_json(level, balanced=False)
    areas = regions(level.cols, level.rows, set(level.stones))
    return [*_balance(level, areas), *_reach(level, areas), *_mechanics(level)]
