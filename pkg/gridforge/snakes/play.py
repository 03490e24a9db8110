"""The JSON-facing snakes calls for the browser (through ``gridforge.api``) and tools.

Play is stateless on this side: a *session* is the JSON dict
``{"level": <level dict>, "steps": [[body, end, dir], ...], "redo": [...]}`` that the page
keeps; every call replays the steps from the start (cheap: a few hundred steps at most)
and answers the new session plus a *view* of the current state. Undo moves the last step
to ``redo``; redo moves it back; a new step clears ``redo``. A refused step is an answer
with ``"refused": {"reason", "message"}``, not an error; bad input (a level that does not
validate) raises ValidationError, which the bridge turns into JSON with field paths.

Every view carries ``markers``: what the board draws for the mechanics still in play, so the
page computes no rule (see :func:`markers`).

Public calls: :func:`start`, :func:`view`, :func:`step`, :func:`drag`, :func:`undo`,
:func:`redo`, :func:`hint`, :func:`validate`, :func:`budgets`. Verification needs the designer's
score and lives in :mod:`gridforge.snakes.design.certify` (the page's ``verify``).
"""

from __future__ import annotations

import math
from typing import Any

from gridforge.errors import GridforgeError, is_int
from gridforge.snakes.level import level_from_json, level_sha256, validate_level
from gridforge.snakes.rules import (
    REFUSALS,
    Game,
    IllegalStep,
    State,
    move_to_step,
    step_to_move,
)
from gridforge.snakes.search import hint as search_hint

_CACHE: dict[str, Game] = {}
_CACHE_SIZE = 8
# Limits of what the page hands in: a session's steps (a solution is at most a few hundred
# steps; replaying this many stays well under a second), a drag's cells, search budgets.
MAX_SESSION_STEPS = 5_000
MAX_DRAG_CELLS = 1_000
MAX_STATES = 1_000_000  # about 1 KiB a stored state at most: 1 GiB in the tab
MAX_SECONDS = 600.0


def _game(level: Any) -> Game:
    parsed = level_from_json(level, balanced=False)
    key = level_sha256(parsed)
    game = _CACHE.get(key)
    if game is None:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        game = _CACHE[key] = Game(parsed)
    return game


def _session(session: Any) -> tuple[Game, list[Any], list[Any]]:
    if not isinstance(session, dict) or "level" not in session:
        raise GridforgeError('a session is {"level": ..., "steps": [...], "redo": [...]}')
    steps = session.get("steps") or []
    redo = session.get("redo") or []
    if not isinstance(steps, list) or not isinstance(redo, list):
        raise GridforgeError("session.steps and session.redo must be lists")
    if len(steps) + len(redo) > MAX_SESSION_STEPS:
        raise GridforgeError(f"session.steps: with session.redo at most {MAX_SESSION_STEPS} "
                             f"steps, got {len(steps) + len(redo)}")
    return _game(session["level"]), list(steps), list(redo)


def _answer(
    game: Game, steps: list[Any], redo: list[Any], refused: str | None = None
) -> dict[str, Any]:
    state = game.replay(steps)[-1]
    out = {
        "session": {"level": game.level.to_json(), "steps": steps, "redo": redo},
        "view": {**game.state_to_json(state), "markers": markers(game, state)},
        "legal": [move_to_step(m) for m in game.legal_moves(state)],
        "step_count": len(steps),
        "refused": None,
    }
    if refused is not None:
        out["refused"] = {"reason": refused, "message": REFUSALS.get(refused, refused)}
    return out


def markers(game: Game, state: State) -> list[dict[str, Any]]:
    """The mechanics' markers of ``state``, in the order the page draws them.

    - ``{"kind": "frozen-body", "body": b, "needed": n, "count": left}`` for each frozen body
      still on the board: ``left`` more layers must exit before it may move (0: thawed);
    - ``{"kind": "frozen-hole", "hole": i, "needed": n, "count": left}`` for each frozen hole
      not yet used, the same count;
    - ``{"kind": "lock", "body": b, "pair": id, "metal": "silver" | "gold", "needed": k,
      "count": held}`` for each locked body still on the board: ``held`` of its ``k`` keys
      are still carried by bodies on the board (0: open);
    - ``{"kind": "key", "body": c, "pair": id, "lock_body": b, "used": bool}`` for each key
      of such a lock: ``c`` carries it (``used`` once ``c`` has left the board, which
      releases the key). A key and the lock it opens share ``pair`` (the lock's id).
    """
    exited = game.exited_layers(state)
    out: list[dict[str, Any]] = []
    bodies = game.level.bodies
    for b, body in enumerate(bodies):
        if body.frozen and state[b]:
            out.append({"kind": "frozen-body", "body": b, "needed": body.frozen,
                        "count": max(0, body.frozen - exited)})
    used = game.used_holes(state)
    for i, hole in enumerate(game.level.holes):
        if hole.frozen and not used[i]:
            out.append({"kind": "frozen-hole", "hole": i, "needed": hole.frozen,
                        "count": max(0, hole.frozen - exited)})
    for b, body in enumerate(bodies):
        if body.lock is None or not state[b]:
            continue
        carriers = game.carriers[b]
        out.append({"kind": "lock", "body": b, "pair": body.lock.id, "metal": body.lock.kind,
                    "needed": body.lock.keys_needed,
                    "count": sum(1 for c in carriers if state[c])})
        out.extend({"kind": "key", "body": c, "pair": body.lock.id, "lock_body": b,
                    "used": not state[c]} for c in carriers)
    return out


def validate(level: Any) -> dict[str, Any]:
    """Every problem of a level dict (``issues`` with field paths), without raising."""
    issues = validate_level(level)
    return {"ok": not issues, "issues": [i.to_json() for i in issues]}


def start(level: Any) -> dict[str, Any]:
    """A new session on ``level`` (validated; supply/demand mismatches are allowed to load
    so the editor can show them, and :func:`verify` reports them)."""
    return _answer(_game(level), [], [])


def view(session: Any) -> dict[str, Any]:
    """The current state of ``session``, its legal steps and step count."""
    game, steps, redo = _session(session)
    return _answer(game, steps, redo)


def step(session: Any, step_json: Any) -> dict[str, Any]:
    """Play one step; a refusal leaves the session unchanged and says why."""
    game, steps, redo = _session(session)
    state = game.replay(steps)[-1]
    try:
        move = step_to_move(step_json)
        game.apply(state, move)
    except IllegalStep as exc:
        return _answer(game, steps, redo, exc.reason)
    return _answer(game, [*steps, move_to_step(move)], [])


def drag(session: Any, body: int, end: str, cells: list[Any]) -> dict[str, Any]:
    """Play the steps of a drag of ``end`` of ``body`` through ``cells`` ([x, y] each)."""
    game, steps, redo = _session(session)
    if isinstance(cells, list) and len(cells) > MAX_DRAG_CELLS:
        raise GridforgeError(f"drag: at most {MAX_DRAG_CELLS} cells, got {len(cells)}")
    if not isinstance(cells, list) or not all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(v, int) for v in c) for c in cells
    ):
        raise GridforgeError("drag: cells must be a list of [x, y]")
    if not isinstance(body, int) or isinstance(body, bool):
        raise GridforgeError("drag: body must be an integer")
    state = game.replay(steps)[-1]
    moves, _, refused = game.drag(state, body, end, cells)
    new_steps = [*steps, *(move_to_step(m) for m in moves)]
    return _answer(game, new_steps, [] if moves else redo, refused)


def undo(session: Any) -> dict[str, Any]:
    """Take back the last step (it moves to ``redo``)."""
    game, steps, redo = _session(session)
    if steps:
        redo = [steps.pop(), *redo]
    return _answer(game, steps, redo)


def redo(session: Any) -> dict[str, Any]:
    """Replay the first step of ``redo``."""
    game, steps, redo_list = _session(session)
    if redo_list:
        steps.append(redo_list.pop(0))
    return _answer(game, steps, redo_list)


def hint(session: Any, max_states: int = 50_000, max_seconds: float = 3.0) -> dict[str, Any]:
    """The next step of a solution from the current state (``step`` null if none found)."""
    max_states, max_seconds = budgets(max_states, max_seconds)
    game, steps, _ = _session(session)
    state = game.replay(steps)[-1]
    move, result = search_hint(game, state, max_states=max_states, max_seconds=max_seconds)
    return {
        "step": None if move is None else move_to_step(move),
        "remaining": None if result.moves is None else len(result.moves),
        "optimal": result.optimal,
        "status": result.status,
    }


def budgets(max_states: Any, max_seconds: Any) -> tuple[int, float]:
    """A search budget handed in by the page, checked: states an integer in
    1..:data:`MAX_STATES`, seconds a finite number in (0, :data:`MAX_SECONDS`]."""
    if not is_int(max_states) or not 1 <= max_states <= MAX_STATES:
        raise GridforgeError(f"max_states: an integer from 1 to {MAX_STATES}, "
                             f"got {str(max_states)[:40]}")
    if (not isinstance(max_seconds, int | float) or isinstance(max_seconds, bool)
            or not math.isfinite(max_seconds) or not 0 < max_seconds <= MAX_SECONDS):
        raise GridforgeError(f"max_seconds: a number of seconds in (0, {MAX_SECONDS:g}], "
                             f"got {str(max_seconds)[:40]}")
    return max_states, float(max_seconds)


__all__ = ["budgets", "drag", "hint", "markers", "redo", "start", "step", "undo", "validate",
           "view"]
