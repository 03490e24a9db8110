"""The snakes backend of the midend (:mod:`gridforge.midend`): a level in play, by id.

The page's verbs (:mod:`gridforge.snakes.page`: ``open``, ``resume``, ``act``, ``close``)
run on :data:`MIDEND`, which holds each game (a :class:`Play`: the compiled level and its
state) with its history (the steps, the states before them, a cursor), so a step costs one
rule check and one view: no replay, no re-validation of the level. Every play answer
(:func:`answer`) is the midend's envelope with the steps played and the answers ahead::

    {"id": id, "view": {... state, "markers"} | null, "offer": {"undo", "redo", "hint",
     "restart", "legal"} | null, "changes": null | [[path, value], ...],
     "events": [...], "refused": null | {"reason", "message"},
     "save": null | {"sha": level SHA-256, "steps": [...], "redo": [...]}, "step_count": n,
     "ahead": {"b:end:dir": {"view", "offer", "step_count", "events"}, ...}}

``view`` and ``offer`` come whole when a game opens, else null with ``changes``: what
changed since the last answer (the page applies them). ``save`` comes when the answer
changed the game.

``events`` says what the step just played did (:func:`happened`; empty but for a step and
a redo): the page's sounds and spoken announcements follow it and work nothing out.
``offer`` is what the page may offer now (the buttons, and ``legal``: the steps the rules
allow, from which the page marks the cells a grabbed end may enter); the page computes no
rule. ``ahead`` holds the answers of the legal steps, computed ahead, so a drag step is
drawn without waiting for the worker (:func:`ahead`). ``save`` is all the page stores:
``resume`` replays it (the only replay left) after a reload, or when the worker was
restarted and the id is gone (:class:`UnknownSession`). Undo moves the last step to
``redo``; redo moves it back; a new step clears ``redo``. A refused step is an answer with
``refused``, not an error; bad input (a level that does not validate, a save that does not
replay on it) raises ValidationError with field paths.

Every view carries ``markers``: what the board draws for the mechanics still in play (see
:func:`markers`). :func:`view_after` answers the view after given steps without a game in
play (the editor's replay of a solution, the rules screen's pictures). Verification needs
the designer's score and lives in :mod:`gridforge.snakes.design.certify` (the page's
``verify``).
"""
from __future__ import annotations

import math
from typing import Any

from gridforge.errors import GridforgeError, Issue, field_path, is_int
from gridforge.errors import refusal as invalid_input
from gridforge.i18n import has, say
from gridforge.jsontypes import JsonObject
from gridforge.midend import (
    TOO_LONG,
    Midend,
    Played,
    Resumed,
    Turn,
    UnknownSession,
    Unreplayable,
)
from gridforge.snakes.game.answers import (
    AheadAnswer,
    Answer,
    CountedMarker,
    Event,
    Marker,
    Offer,
    PositionAnswer,
    View,
)
from gridforge.snakes.game.level import level_from_json, level_sha256
from gridforge.snakes.game.levelfile import Step
from gridforge.snakes.game.rules import (
    REFUSALS,
    Game,
    IllegalStep,
    Move,
    State,
    move_to_step,
    step_to_move,
)

_CACHE: dict[str, Game] = {}
_CACHE_SIZE = 8
# Games in play at once; past this the oldest is forgotten (the page resumes it from its save).
MAX_SESSIONS = 16
# A game in play keeps at most this many steps (played and undone): a solution is at most a
# few hundred steps, and a save this long still replays in well under a second.
MAX_SESSION_STEPS = 5_000
MAX_STATES = 1_000_000  # about 1 KiB a stored state at most: 1 GiB in the tab
MAX_SECONDS = 600.0
# The rules' refusals and the midend's own, by reason: the catalogue's words
# (``snakes.refusal.<reason>``), English here (tests; the command line).
MESSAGES = {**REFUSALS, TOO_LONG: say(f"snakes.refusal.{TOO_LONG}", steps=MAX_SESSION_STEPS)}


def refusal(reason: str) -> str:
    """A refused step's reason in the player's words, in the call's language (the rules'
    :data:`REFUSALS` keys are the catalogue's ``snakes.refusal.<reason>``)."""
    key = f"snakes.refusal.{reason}"
    return say(key, steps=MAX_SESSION_STEPS) if has(key) else MESSAGES.get(reason, reason)


class Play:
    """One level in play: its compiled game, its SHA-256 and where it stands."""

    def __init__(self, game: Game, sha: str) -> None:
        self.game = game
        self.sha = sha
        self.state = game.initial


def offer(game: Game, state: State, complete: bool, can_undo: bool, can_redo: bool,
          legal: list[Move] | None = None) -> Offer:
    """What the page may offer at ``state``: undo, redo, hint, restart and the legal steps
    (none once the level is complete; ``legal``: the state's legal moves, when known)."""
    if not complete and legal is None:
        legal = game.legal_moves(state)
    return {"undo": not complete and can_undo, "redo": not complete and can_redo,
            "hint": not complete, "restart": True,
            "legal": [] if complete or legal is None else [move_to_step(m) for m in legal]}


class Snakes:
    """The snakes backend of the midend: a :class:`Play` per game, its state the position
    kept for undo, a step ``[body, "head" | "tail", "U" | "D" | "L" | "R"]`` the intent and
    the record."""

    what = "snakes session"
    prefix = "s"
    limit = MAX_SESSIONS
    max_steps = MAX_SESSION_STEPS
    undoable = True
    save_what = "snakes save"

    def new(self, spec: object) -> Play:
        game, sha = game_of(spec)
        return Play(game, sha)

    def read_save(self, spec: object, save: object) -> Resumed[Play, Step]:
        game, sha = game_of(spec)
        if not isinstance(save, dict):
            raise invalid_input("snakes save", "save", "type", 'a save is {"sha", "steps", "redo"}')
        if save.get("sha") != sha:
            raise invalid_input("snakes save", "save.sha", "mismatch", "the save is for another "
                                "version of this level")
        steps, redo = _save_steps(save, "steps"), _save_steps(save, "redo")
        if len(steps) + len(redo) > MAX_SESSION_STEPS:
            raise invalid_input("snakes save", "save.steps", "too_many", f"with save.redo at most "
                                         f"{MAX_SESSION_STEPS} steps, got "
                                f"{len(steps) + len(redo)}")
        return Resumed(Play(game, sha), steps, redo)

    def header(self, game: Play) -> JsonObject:
        return {"sha": game.sha}

    def play(self, game: Play, intent: object) -> Played[Event, Step, None]:
        before = game.state
        try:
            move = step_to_move(intent)
            game.state = game.game.apply(before, move)
        except IllegalStep as exc:
            return Played(None, [], None, exc.reason)
        return Played(move_to_step(move), happened(game.game, before, game.state, move), None)

    def replay(self, game: Play, step: Step) -> None:
        try:
            game.state = game.game.apply(game.state, step_to_move(step))
        except IllegalStep as exc:
            raise Unreplayable(f"does not replay: {REFUSALS.get(exc.reason)}") from None

    def replay_issue(self, key: str, index: int, reason: str) -> Issue:
        return Issue(field_path("save", key, index), "illegal", reason)

    def position(self, game: Play) -> State:
        return game.state

    def restore(self, game: Play, position: State) -> None:
        game.state = position

    def finished(self, game: Play) -> bool:
        return game.game.is_complete(game.state)

    def view(self, game: Play) -> View:
        return view_of(game.game, game.state)

    def offer(self, game: Play, can_undo: bool, can_redo: bool) -> Offer:
        return offer(game.game, game.state, self.finished(game), can_undo, can_redo)

    def refusal(self, reason: str) -> str:
        return refusal(reason)


MIDEND: Midend[Play, State, View, Offer, Event, Step, None] = Midend(Snakes())


def game_of(level: Any) -> tuple[Game, str]:
    parsed = level_from_json(level, balanced=False)
    key = level_sha256(parsed)
    game = _CACHE.get(key)
    if game is None:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        game = _CACHE[key] = Game(parsed)
    return game, key


def view_of(game: Game, state: State) -> View:
    return {**game.state_to_json(state), "markers": markers(game, state)}


def answer(turn: Turn[Play, View, Offer, Event, Step, None]) -> Answer:
    """A verb's answer as the page receives it: the envelope, the steps played and the
    answers ahead, all from the midend's one answer (``turn``)."""
    return {**turn.envelope, "step_count": turn.steps,
            "ahead": ahead(turn.game, turn.steps, turn.view["markers"])}


def ahead(play: Play, steps: int, state_markers: list[Marker]) -> dict[str, AheadAnswer]:
    """The answers of the legal steps from ``state``, computed ahead, keyed ``"b:end:dir"``:
    each ``{"view", "offer", "step_count", "events"}`` as :func:`step` will answer it. The
    page draws a drag step from here the moment the pointer enters a cell, then sends the
    step (its answer brings the save and the next ``ahead``); no rule runs in the page."""
    game, state = play.game, play.state
    count = steps + 1
    out: dict[str, AheadAnswer] = {}
    for move, child, child_occ in game.successors(state, game.occupancy(state)):
        view = view_of(game, child)
        legal_then = None if view["complete"] else [
            m for m, _, _ in game.successors(child, child_occ)]
        out["{}:{}:{}".format(*move_to_step(move))] = {
            "view": view,
            "offer": offer(game, child, view["complete"], True, False, legal_then),
            "step_count": count,
            "events": happened(game, state, child, move, state_markers, view["markers"]),
        }
    return out


def happened(game: Game, before: State, after: State, move: Move,
             before_markers: list[Marker] | None = None,
             after_markers: list[Marker] | None = None) -> list[Event]:
    """What playing ``move`` from ``before`` (giving ``after``) did, in order:

    - ``{"type": "step", "body": b, "end": "head" | "tail", "direction": "U" | "D" | "L" |
      "R", "color": c}``, always (``c``: the body's outer colour before the step);
    - ``{"type": "exit", "body": b, "color": c, "layers_left": n}`` when a layer of colour
      ``c`` went into a hole (``n`` 0: the body has left the board);
    - ``{"type": "thaw", "body": b}`` or ``{"type": "thaw", "hole": i, "color": c}`` for each
      frozen body or hole whose count reached 0 with this step;
    - ``{"type": "unlock", "body": b, "metal": "silver" | "gold"}`` for each lock whose last
      key was released with this step;
    - ``{"type": "won"}`` when the level is complete.

    ``before_markers`` and ``after_markers``: the two states' :func:`markers`, when the
    caller has them already.
    """
    body, end, direction = move_to_step(move)
    color = game.outer_color(before, body)
    out: list[Event] = [{"type": "step", "body": body, "end": end,
                         "direction": direction, "color": color}]
    if game.exited_layers(after) > game.exited_layers(before):
        out.append({"type": "exit", "body": body, "color": color,
                    "layers_left": game.layers_left(after, body)})

    def counted(state: State, known: list[Marker] | None
                ) -> dict[tuple[str, int], CountedMarker]:
        return {(m["kind"], m["hole"] if m["kind"] == "frozen-hole" else m["body"]): m
                for m in (markers(game, state) if known is None else known)
                if m["kind"] != "key"}

    earlier = counted(before, before_markers)
    for (kind, index), marker in counted(after, after_markers).items():
        old = earlier.get((kind, index))
        if old is None or old["count"] == 0 or marker["count"] != 0:
            continue
        if marker["kind"] == "frozen-body":
            out.append({"type": "thaw", "body": index})
        elif marker["kind"] == "frozen-hole":
            out.append({"type": "thaw", "hole": index, "color": game.level.holes[index].color})
        else:
            out.append({"type": "unlock", "body": index, "metal": marker["metal"]})
    if game.is_complete(after):
        out.append({"type": "won"})
    return out


def markers(game: Game, state: State) -> list[Marker]:
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
    out: list[Marker] = []
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


def _save_steps(save: dict[Any, Any], key: str) -> list[Any]:
    steps = save.get(key, [])
    if not isinstance(steps, list):
        raise invalid_input("snakes save", field_path("save", key), "type", "a list of steps")
    return steps


def view_after(level: Any, steps: Any) -> PositionAnswer:
    """The view after ``steps`` from the start of ``level``, without opening a game (the
    editor shows a solution step by step this way).

    :raises ValidationError: naming ``steps[i]`` when a step does not replay.
    """
    game, _ = game_of(level)
    state = replayed(game, steps, MAX_SESSION_STEPS)
    return {"view": view_of(game, state), "step_count": len(steps)}


def replayed(game: Game, steps: Any, limit: int) -> State:
    """The state after JSON ``steps`` (at most ``limit``) from the start of ``game``.

    :raises ValidationError: naming ``steps`` when it is no such list, ``steps[i]`` when a
        step does not replay.
    """
    if not isinstance(steps, list) or len(steps) > limit:
        raise invalid_input("snakes steps", "steps", "type", f"a list of at most {limit} steps")
    state = game.initial
    for i, step_json in enumerate(steps):
        try:
            state = game.apply(state, step_to_move(step_json))
        except IllegalStep as exc:
            raise invalid_input("snakes steps", field_path("steps", i), "illegal",
                                f"does not replay: {REFUSALS.get(exc.reason)}") from None
    return state


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


__all__ = [
    "MAX_SESSIONS",
    "MAX_SESSION_STEPS",
    "MIDEND",
    "Play",
    "UnknownSession",
    "ahead",
    "answer",
    "budgets",
    "game_of",
    "happened",
    "markers",
    "replayed",
    "view_after",
    "view_of",
]
