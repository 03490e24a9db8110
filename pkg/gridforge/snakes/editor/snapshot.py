"""A level from a position reached in play (issue 23: edit from a try-play position).

:func:`level_at` replays ``steps`` on ``level`` with the game's own rules and writes the
position reached as a new level that plays on exactly as the position would:

- bodies still on the board keep their current cells and their remaining layers (the next
  layer outermost); bodies that have left are gone;
- used holes are gone (they became floor); coloured paths and bridges stay;
- freeze counts drop by the layers already out (a count reached is removed);
- a lock whose keys were released by bodies that left needs that many keys fewer (a gold lock
  with one key left becomes silver; with none it is removed), and a key for a lock that has
  left the board is dropped.

``meta`` is not carried (the position is a new level).
"""

from __future__ import annotations

from typing import Any

from gridforge.jsontypes import Json, JsonObject
from gridforge.snakes.game.level import FORMAT, LOCK_KEYS, level_from_json
from gridforge.snakes.game.rules import Game
from gridforge.snakes.play import replayed

__all__ = ["MAX_STEPS", "level_at"]

MAX_STEPS = 100_000
_KIND_FOR_KEYS = {n: kind for kind, n in LOCK_KEYS.items()}


def level_at(level: Any, steps: Any) -> JsonObject:
    """The level whose start is the position after ``steps`` (JSON steps) from ``level``.

    :raises ValidationError: ``level`` is no level, or ``steps[i]`` does not replay.
    """
    parsed = level_from_json(level, balanced=False)
    game = Game(parsed)
    state = replayed(game, steps, MAX_STEPS)
    exited = game.exited_layers(state)
    on_board = [b for b in range(game.n) if state[b]]
    locks_left = {lock.id for b in on_board if (lock := parsed.bodies[b].lock) is not None}
    bodies: list[Json] = []
    for b in on_board:
        body = parsed.bodies[b]
        out: JsonObject = {"cells": [list(c) for c in game.body_cells(state, b)],
                          "colors": list(body.colors[game.layers_shed(state, b):])}
        if body.frozen > exited:
            out["frozen"] = body.frozen - exited
        if body.lock is not None:
            held = sum(1 for c in on_board if parsed.bodies[c].key == body.lock.id)
            if held:
                out["lock"] = {"id": body.lock.id, "kind": _KIND_FOR_KEYS[held]}
        if body.key is not None and body.key in locks_left:
            out["key"] = body.key
        bodies.append(out)
    used = game.used_holes(state)
    holes: list[Json] = []
    for i, hole in enumerate(parsed.holes):
        if used[i]:
            continue
        entry: JsonObject = {"cell": list(hole.cell), "color": hole.color}
        if hole.frozen > exited:
            entry["frozen"] = hole.frozen - exited
        holes.append(entry)
    out_level: JsonObject = {"format": FORMAT, "cols": parsed.cols, "rows": parsed.rows,
                             "stones": [list(c) for c in parsed.stones], "bodies": bodies,
                             "holes": holes}
    # Terrain is fixed: the position keeps it.
    if parsed.paths:
        out_level["paths"] = [{"cell": list(p.cell), "color": p.color} for p in parsed.paths]
    if parsed.bridges:
        out_level["bridges"] = [list(c) for c in parsed.bridges]
    return out_level
