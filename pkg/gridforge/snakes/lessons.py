"""The snakes lessons in the player's words (issue 21), and the words of the rules screen.

The main line teaches one idea a level on levels 1-11 and one mechanic on levels 12, 18, 24,
30 and 36 (the designer's curriculum, :mod:`gridforge.snakes.design.line_plan`; this module is
the game's side and never imports it: ``tests/snakes/test_lessons.py`` checks that both name
the same levels). :func:`lesson_for` answers what a level's lesson says (a title and one or
two plain sentences) and a short demonstration to draw on the board, computed here from the
level's own solution on the game's rules: the page draws, it decides nothing.

A mechanic's lesson is offered only when its level shows that mechanic (:func:`shows`), so
the answer is right for the line shipped today and for a rebuilt one: a level 36 without a
gold lock has no lesson. The same sentences serve the rules screen (:func:`rules`), each
with a tiny level drawn as its picture.

A demonstration (:func:`demonstration`) is a list of legal steps from the level's start,
taken from its solution: the run of steps that shows the idea (or the steps up to the event
the lesson is about: a coat shed, a thaw, a lock opening), with every earlier run of steps
left out when the rest still replays without it. Each step carries the moving body's cells
before and after it (an exit slides the end into its hole), so that the page can draw a
ghost body gliding along them, or, with reduced motion, the path of the end as an arrow.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gridforge.errors import GridforgeError
from gridforge.i18n import has, say
from gridforge.jsontypes import Json, JsonObject
from gridforge.snakes.game.answers import (
    DemoMove,
    Demonstration,
    LessonAnswer,
    Picture,
    RulesAnswer,
    RulesSection,
)
from gridforge.snakes.game.level import Level, level_from_json
from gridforge.snakes.game.levelfile import Step
from gridforge.snakes.game.rules import Game, Move, State, move_to_step, moves_to, step_to_move

__all__ = ["LESSONS", "MECHANICS", "Lesson", "Mechanic", "demonstration", "lesson_at",
           "lesson_for", "rules_screen", "shows"]

# A demonstration longer than this is cut after its first steps (a prefix stays legal); one
# that leads up to an event (a thaw, a lock opening) may take longer to get there.
MAX_DEMO_STEPS = 16
MAX_EVENT_STEPS = 32
# The head lesson's search for a solution without tails stops after this many states.
HEADS_ONLY_STATES = 20_000
# After a coat is shed, the same body's next steps are shown too, up to this many.
FOLLOW_STEPS = 6

# The words of lessons, mechanics and the rules screen are the catalogue's (gridforge.i18n):
# ``lesson.<key>.title`` and ``lesson.<key>.text.1``, ``.text.2`` ...; said in the language of
# the call. WATCH is the English line (tests); the page gets it in its own language.
WATCH = say("lesson.watch")


def _title(prefix: str) -> str:
    return say(f"{prefix}.title")


def _text(prefix: str) -> tuple[str, ...]:
    """The sentences ``<prefix>.text.1``, ``.text.2`` ... as many as the catalogue has."""
    out: list[str] = []
    while has(key := f"{prefix}.text.{len(out) + 1}"):
        out.append(say(key))
    return tuple(out)


class _Worded:
    """The words of a lesson or a mechanic, from the catalogue's ``lesson.<key>`` entries."""

    key: str

    @property
    def title(self) -> str:
        return _title(f"lesson.{self.key}")

    @property
    def text(self) -> tuple[str, ...]:
        return _text(f"lesson.{self.key}")


@dataclass(frozen=True)
class Mechanic(_Worded):
    """A mechanic as the player meets it: its words and whether a level shows it."""

    key: str
    shows: Callable[[Level], bool]


def _coated(level: Level) -> bool:
    # A coat the player can see: a layer of another colour under the outer one.
    return any(any(a != b for a, b in zip(body.colors, body.colors[1:], strict=False))
               for body in level.bodies)


def _lock(kind: str) -> Callable[[Level], bool]:
    return lambda level: any(b.lock is not None and b.lock.kind == kind for b in level.bodies)


MECHANICS: dict[str, Mechanic] = {m.key: m for m in (
    Mechanic("coats", _coated),
    Mechanic("frozen-bodies", lambda level: any(b.frozen for b in level.bodies)),
    Mechanic("frozen-holes", lambda level: any(h.frozen for h in level.holes)),
    Mechanic("silver-lock", _lock("silver")),
    Mechanic("gold-lock", _lock("gold")),
    # Terrain (spec section 3b), taught on levels 42 and 48 (its lesson predicates are
    # puzzle.path_costs_steps and puzzle.bridge_needed).
    Mechanic("paths", lambda level: bool(level.paths)),
    Mechanic("bridges", lambda level: bool(level.bridges)),
)}


@dataclass(frozen=True)
class Lesson(_Worded):
    """The lesson of one main-line level: its words, the mechanic its level must show
    (``None`` for levels 1-11) and how its demonstration is picked from the solution."""

    key: str
    level: int
    pick: str
    mechanic: str | None = None


def _mechanic_lesson(level: int, mechanic: str, pick: str) -> Lesson:
    m = MECHANICS[mechanic]
    return Lesson(m.key, level, pick, mechanic)


LESSONS: dict[int, Lesson] = {lesson.level: lesson for lesson in (
    Lesson("head", 1, "head"),
    Lesson("tail", 2, "tail"),
    Lesson("turns", 3, "turn"),
    Lesson("colours", 4, "exit"),
    Lesson("nearer-end", 5, "first"),
    Lesson("back-out", 6, "make-way"),
    Lesson("make-way", 7, "make-way"),
    Lesson("order", 8, "first"),
    Lesson("long-bodies", 9, "turn"),
    Lesson("breather", 10, "first"),
    Lesson("make-way-twice", 11, "make-way"),
    _mechanic_lesson(12, "coats", "coat"),
    _mechanic_lesson(18, "frozen-bodies", "thaw"),
    _mechanic_lesson(24, "frozen-holes", "hole-thaw"),
    _mechanic_lesson(30, "silver-lock", "silver"),
    _mechanic_lesson(36, "gold-lock", "gold"),
    _mechanic_lesson(42, "paths", "first"),
    _mechanic_lesson(48, "bridges", "first"),
)}


def shows(level: Level, mechanic: str) -> bool:
    """Whether ``level`` shows ``mechanic`` (a key of :data:`MECHANICS`)."""
    return MECHANICS[mechanic].shows(level)


def lesson_at(number: int, level: Level) -> Lesson | None:
    """The lesson of main-line level ``number`` drawn as ``level``, or None: none is taught
    there, or its mechanic does not appear in this level."""
    lesson = LESSONS.get(number)
    if lesson is None or (lesson.mechanic is not None and not shows(level, lesson.mechanic)):
        return None
    return lesson


def lesson_for(number: int, level: Level, solution: Any = None) -> LessonAnswer | None:
    """What main-line level ``number`` teaches, for the page: ``{key, level, title, text,
    watch, demo}`` (``demo`` as :func:`demonstration`, or None without a solution that
    replays to the end), or None when the level teaches nothing."""
    lesson = lesson_at(number, level)
    if lesson is None:
        return None
    game = Game(level)
    moves = _solution_moves(game, solution)
    if lesson.pick == "head" and moves is not None and any((m >> 2) & 1 for m in moves):
        # The head lesson never shows a tail: a solution with heads only, when there is one.
        moves = _heads_only(game) or moves
    return {"key": lesson.key, "level": lesson.level, "title": lesson.title,
            "text": list(lesson.text), "watch": say("lesson.watch"),
            "demo": None if moves is None else demonstration(game, lesson, moves)}


def _solution_moves(game: Game, solution: Any) -> list[Move] | None:
    """The moves of ``solution`` when it is a list of steps that replays to completion."""
    if not isinstance(solution, list):
        return None
    try:
        moves = [step_to_move(step) for step in solution]
    except GridforgeError:
        return None
    states = _replay(game, moves)
    return moves if states is not None and game.is_complete(states[-1]) else None


def _heads_only(game: Game) -> list[Move] | None:
    """A shortest solution that moves heads only (breadth-first, at most
    :data:`HEADS_ONLY_STATES` states), or None when there is none within them."""
    head_moves = [body << 3 | direction for body in range(game.n) for direction in range(4)]
    parent: dict[State, tuple[State, Move] | None] = {game.initial: None}
    frontier = [game.initial]
    while frontier and len(parent) < HEADS_ONLY_STATES:
        following: list[State] = []
        for state in frontier:
            if game.is_complete(state):
                return moves_to(parent, state)
            for move in head_moves:
                child = game.advance(state, move)
                if child is not None and child not in parent:
                    parent[child] = (state, move)
                    following.append(child)
        frontier = following
    return None


def _replay(game: Game, moves: list[Move]) -> list[State] | None:
    states = [game.initial]
    for move in moves:
        if game.refusal(states[-1], move) is not None:
            return None
        states.append(game.apply(states[-1], move))
    return states


def _runs(moves: list[Move]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive moves by one body, as ``(start, stop)`` index ranges."""
    runs: list[tuple[int, int]] = []
    for i, move in enumerate(moves):
        if runs and moves[runs[-1][0]] >> 3 == move >> 3:
            runs[-1] = (runs[-1][0], i + 1)
        else:
            runs.append((i, i + 1))
    return runs


def _exits(states: list[State], i: int, game: Game) -> bool:
    """Whether move ``i`` (from ``states[i]``) was an exit."""
    return game.exited_layers(states[i + 1]) != game.exited_layers(states[i])


# What a lesson's demonstration leads up to: the first move of the solution that does it.
Event = Callable[[Game, list[State], list[Move], int], bool]


def _coat_shed(game: Game, states: list[State], moves: list[Move], i: int) -> bool:
    return _exits(states, i, game) and game.layers_left(states[i + 1], moves[i] >> 3) > 0


def _thawed(game: Game, states: list[State], moves: list[Move], i: int) -> bool:
    return game.frozen[moves[i] >> 3] > 0


def _hole_thawed(game: Game, states: list[State], moves: list[Move], i: int) -> bool:
    if not _exits(states, i, game):
        return False
    used_before = game.used_holes(states[i])
    used_after = game.used_holes(states[i + 1])
    return any(game.hole_frozen[h] > 0 for h in range(len(used_after))
               if used_after[h] and not used_before[h])


def _unlocked(kind: str) -> Event:
    def event(game: Game, states: list[State], moves: list[Move], i: int) -> bool:
        lock = game.level.bodies[moves[i] >> 3].lock
        return lock is not None and lock.kind == kind
    return event


EVENTS: dict[str, Event] = {"coat": _coat_shed, "thaw": _thawed, "hole-thaw": _hole_thawed,
                            "silver": _unlocked("silver"), "gold": _unlocked("gold")}


def _turns(moves: list[Move]) -> bool:
    return len({(m >> 2) & 1 for m in moves}) > 1 or len({m & 3 for m in moves}) > 1


def _target(game: Game, pick: str, moves: list[Move], states: list[State]
            ) -> tuple[int, int] | None:
    """The moves ``[keep, stop)`` of the solution that show the idea of ``pick``."""
    runs = _runs(moves)
    if pick in EVENTS:
        event = EVENTS[pick]
        for start, stop in runs:
            for i in range(start, stop):
                if event(game, states, moves, i):
                    return start, i + 1
        return None
    ends = {"head": 0, "tail": 1}
    for k, (start, stop) in enumerate(runs):
        run = moves[start:stop]
        if pick in ends and any((m >> 2) & 1 == ends[pick] for m in run):
            return start, stop
        if pick == "turn" and _turns(run):
            return start, stop
        if pick == "make-way" and not _exits(states, stop - 1, game):
            # A run that ends without an exit makes way: show it and the moves up to the
            # next exit (the body it let through).
            for later in runs[k + 1:]:
                if any(_exits(states, i, game) for i in range(*later)):
                    return start, later[1]
    return runs[0] if runs else None


def _leave_out(game: Game, moves: list[Move], keep: int, check: Callable[[list[State],
               list[Move]], bool]) -> list[Move]:
    """``moves`` without each run before index ``keep`` (the latest first) whose removal
    leaves a sequence that still replays and still passes ``check``."""
    for start, stop in reversed(_runs(moves[:keep])):
        trial = moves[:start] + moves[stop:]
        states = _replay(game, trial)
        if states is not None and check(states, trial):
            moves = trial
    return moves


def demonstration(game: Game, lesson: Lesson, solution: list[Move]) -> Demonstration | None:
    """The first steps of ``solution`` (moves that replay to completion) that show the
    idea of ``lesson``: ``{"steps": [...], "moves": [...]}`` or None when the solution never
    shows it. Each of ``moves`` is ``{"body", "end", "cells", "to", "exit", "color",
    "next"}``: the body's cells before the step and after it (for an exit, with the end in
    the hole and the body following it in), the outer colour before and after (``next`` is
    None once the body has left)."""
    states = _replay(game, solution)
    assert states is not None, "a solution that replays"
    target = _target(game, lesson.pick, solution, states)
    if target is None:
        return None
    event = EVENTS.get(lesson.pick)

    def still(trial_states: list[State], trial: list[Move]) -> bool:
        return event is None or event(game, trial_states, trial, len(trial) - 1)

    if lesson.pick == "exit":
        # The shortest way a body goes into its hole.
        exits = [(start, stop) for start, stop in _runs(solution)
                 if any(_exits(states, i, game) for i in range(start, stop))]
        moves = min((_leave_out(game, solution[:stop], start, still) for start, stop in exits),
                    key=len, default=solution[:target[1]])
    else:
        moves = _leave_out(game, solution[:target[1]], target[0], still)
    stop = target[1]
    if lesson.pick == "coat":
        moves = _follow(game, moves, solution[stop:])
    moves = moves[:MAX_EVENT_STEPS if event is not None else MAX_DEMO_STEPS]
    return _frames(game, moves)


def _follow(game: Game, moves: list[Move], rest: list[Move]) -> list[Move]:
    """``moves`` and the next steps of its last body in ``rest`` (up to its next exit),
    when they replay straight after it."""
    body = moves[-1] >> 3
    more: list[Move] = []
    for move in (m for m in rest if m >> 3 == body):
        states = _replay(game, moves + more + [move])
        if states is None or len(more) == FOLLOW_STEPS:
            break
        more.append(move)
        if _exits(states, len(states) - 2, game):
            break
    return moves + more


def _frames(game: Game, moves: list[Move]) -> Demonstration:
    states = _replay(game, moves)
    assert states is not None
    out: list[DemoMove] = []
    for i, move in enumerate(moves):
        body, end, d = move >> 3, (move >> 2) & 1, move & 3
        before, after = states[i], states[i + 1]
        cells = [list(c) for c in game.body_cells(before, body)]
        exited = _exits(states, i, game)
        if exited or not after[body]:
            here = cells[0] if end == 0 else cells[-1]
            dx, dy = ((0, -1), (0, 1), (-1, 0), (1, 0))[d]
            into = [here[0] + dx, here[1] + dy]
            to = [into, *cells[:-1]] if end == 0 else [*cells[1:], into]
        else:
            to = [list(c) for c in game.body_cells(after, body)]
        out.append({"body": body, "end": "head" if end == 0 else "tail", "cells": cells,
                    "to": to, "exit": exited, "color": game.outer_color(before, body),
                    "next": game.outer_color(after, body)})
    return {"steps": [move_to_step(m) for m in moves], "moves": out}


# ------------------------------------------------------------------------ the rules screen
# Each picture is a tiny level (drawn by the page's own board), with an arrow for a step.
def _picture(cols: int, rows: int, bodies: list[Json], holes: list[Json],
             arrow: Step | None = None, **terrain: Json) -> Picture:
    return {"level": {"format": "gridforge.snakes.level/1", "cols": cols, "rows": rows,
                      "stones": [], "bodies": bodies, "holes": holes, **terrain},
            "arrow": arrow}


def _row(y: int, color: int, length: int = 2, **extra: Json) -> JsonObject:
    return {"cells": [[x, y] for x in range(length - 1, -1, -1)], "colors": [color], **extra}


# Each basic rule: its key (its words are ``rules.snakes.<key>.title`` and ``.text.N``) and
# its picture.
BASICS: tuple[tuple[str, Picture], ...] = (
    ("goal",
     _picture(5, 2, [_row(0, 2, 3), _row(1, 1, 2)],
              [{"cell": [4, 0], "color": 2}, {"cell": [4, 1], "color": 1}])),
    ("drag",
     _picture(5, 2, [_row(0, 2, 3)], [{"cell": [3, 1], "color": 2}], [0, "head", "R"])),
    ("holes",
     _picture(5, 2, [_row(0, 2, 3), {"cells": [[3, 1], [4, 1]], "colors": [1]}],
              [{"cell": [4, 0], "color": 2}, {"cell": [0, 1], "color": 1}], [0, "head", "R"])),
    ("steps", _picture(
        4, 2, [_row(1, 5, 2)], [{"cell": [3, 0], "color": 5}], [0, "head", "R"])),
)

PICTURES: dict[str, Picture] = {
    "coats": _picture(5, 2, [{"cells": [[1, 0], [0, 0]], "colors": [2, 6]}],
                      [{"cell": [3, 0], "color": 2}, {"cell": [3, 1], "color": 6}]),
    "frozen-bodies": _picture(5, 2, [_row(0, 2), _row(1, 5, frozen=1)],
                              [{"cell": [3, 0], "color": 2}, {"cell": [4, 1], "color": 5}]),
    "frozen-holes": _picture(5, 2, [_row(0, 2), _row(1, 5)],
                             [{"cell": [3, 0], "color": 2},
                              {"cell": [4, 1], "color": 5, "frozen": 1}]),
    "silver-lock": _picture(5, 2, [_row(0, 2, key="L1"),
                                   _row(1, 5, lock={"id": "L1", "kind": "silver"})],
                            [{"cell": [3, 0], "color": 2}, {"cell": [4, 1], "color": 5}]),
    "gold-lock": _picture(5, 3, [_row(0, 2, key="L1"),
                                 _row(1, 5, lock={"id": "L1", "kind": "gold"}),
                                 _row(2, 1, key="L1")],
                          [{"cell": [3, 0], "color": 2}, {"cell": [4, 1], "color": 5},
                           {"cell": [3, 2], "color": 1}]),
    # Each body may step onto the path of its own colour only.
    "paths": _picture(5, 2, [_row(0, 2), _row(1, 5)],
                      [{"cell": [4, 0], "color": 2}, {"cell": [4, 1], "color": 5}],
                      [0, "head", "R"],
                      paths=[{"cell": [2, 0], "color": 2}, {"cell": [3, 0], "color": 2},
                             {"cell": [2, 1], "color": 5}, {"cell": [3, 1], "color": 5}]),
    # One body lies across the bridge; the other goes straight over it, in the other lane.
    "bridges": _picture(5, 3, [{"cells": [[2, 1], [2, 0]], "colors": [2]},
                               {"cells": [[3, 1], [2, 1], [1, 1]], "colors": [5]}],
                        [{"cell": [2, 2], "color": 2}, {"cell": [4, 1], "color": 5}],
                        [0, "head", "D"], bridges=[[2, 1]]),
}


def rules_screen() -> RulesAnswer:
    """The rules screen's snakes part: ``{"basics": [...], "mechanics": [...]}``, each a
    ``{key, title, text, picture}`` whose picture is ``{level, view, arrow}`` (a tiny level,
    its view at the start with its markers, and a step to draw as an arrow, or None)."""
    from gridforge.snakes.play import view_after  # the view with its markers, as play draws it

    def section(key: str, title: str, text: tuple[str, ...], picture: Picture
                ) -> RulesSection:
        level = level_from_json(picture["level"])  # every picture is a real, balanced level
        view = view_after(level.to_json(with_meta=False), [])["view"]
        return {"key": key, "title": title, "text": list(text),
                "picture": {**picture, "view": view}}

    return {"basics": [section(key, _title(f"rules.snakes.{key}"), _text(f"rules.snakes.{key}"),
                               picture) for key, picture in BASICS],
            "mechanics": [section(m.key, m.title, m.text, PICTURES[m.key])
                          for m in MECHANICS.values()]}
