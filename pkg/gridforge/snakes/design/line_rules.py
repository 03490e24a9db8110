"""The main line's quality rules: what a built level must keep to be taken (spec sections 5b
and 5c, issue 41's legibility).

:func:`rule_misses` judges a lesson or a teaching level (its lesson's idea as a predicate
decided by search, :data:`LESSON_CHECKS`; its mechanic shown and costing steps,
:func:`mechanic_costs_steps`), :func:`motif_rule_misses` a level built from motifs (its
plan's joint steps, mechanics and terrain, witnesses, bridges crossed), and
:func:`legibility_misses` what keeps a level from reading at a glance. Each returns the rules
broken, as sentences (empty when all are kept).

Imports the curriculum (:mod:`~gridforge.snakes.design.line_plan`) for its limits and plans,
and the engine's solvers and readings; nothing that builds, reads or writes a level.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from gridforge.errors import is_int
from gridforge.snakes.design.line_plan import (
    LEGIBLE_BODY,
    LESSONS,
    LINE_BODY,
    LONG_BODY,
    MAKE_WAY_LESSONS,
    MAX_COLOURS,
    MAX_COLUMNS,
    MAX_OCCUPANCY,
    MAX_OUTER,
    PALETTE_COLOURS,
    SAFETY_NETS,
    TEACHING,
    breather,
    mechanic_fields,
    motif_plan,
)
from gridforge.snakes.design.motif_line import TOP_STEPS, chamber_of
from gridforge.snakes.game.certfile import Certificate
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.levelfile import LevelJson
from gridforge.snakes.game.rules import Game, Move, step_to_move
from gridforge.snakes.solver.legibility import reading
from gridforge.snakes.solver.puzzle import (
    bridge_needed,
    crossed_bridges,
    exit_orders,
    path_costs_steps,
    relaxations,
    restricted_optimum,
    serial,
)
from gridforge.snakes.solver.search import Solver

__all__ = [
    "LESSON_CHECKS",
    "legibility_misses",
    "mechanic_costs_steps",
    "motif_rule_misses",
    "rule_misses",
]

LESSON_STATES = 200_000  # states a lesson's predicate search may store


def _turns(cells: list[list[int]]) -> bool:
    for p, q, r in zip(cells, cells[1:], cells[2:], strict=False):
        if (q[0] - p[0], q[1] - p[1]) != (r[0] - q[0], r[1] - q[1]):
            return True
    return False


def _game(level: LevelJson) -> Game:
    return Game(level_from_json(level))


def _optimum(game: Game) -> int | None:
    """The proven minimum of ``game`` within :data:`LESSON_STATES` (None if not proven)."""
    found = Solver(game).astar(max_states=LESSON_STATES, max_seconds=SAFETY_NETS["exact_seconds"])
    return len(found.moves) if found.moves is not None and found.optimal else None


def _restricted(game: Game, allowed: Callable[[Move], bool]) -> int | str | None:
    return restricted_optimum(game, allowed, max_states=LESSON_STATES)


def _heads(move: Move) -> bool:
    return not move >> 2 & 1


def _tails(move: Move) -> bool:
    return bool(move >> 2 & 1)


def _costs_more(game: Game, allowed: Callable[[Move], bool], extra: int) -> bool:
    """Whether moving only as ``allowed`` is impossible or costs at least ``extra`` more
    steps than the minimum (both decided exhaustively within the budget)."""
    best = _optimum(game)
    limited = _restricted(game, allowed)
    if best is None or limited == "budget":
        return False
    return limited is None or (isinstance(limited, int) and limited >= best + extra)


def _not_serial(game: Game) -> bool:
    return serial(game, max_states=LESSON_STATES).status == "not_serial"


def _long_bodies_turn(game: Game, lengths: list[int]) -> bool:
    """Whether there is a body of at least :data:`LONG_BODY` cells and none of them can get
    out moving along one axis only (the other bodies moving freely), decided exhaustively."""
    long = [b for b, n in enumerate(lengths) if n >= LONG_BODY]

    def one_axis(b: int, horizontal: bool) -> Callable[[Move], bool]:
        return lambda m: m >> 3 != b or (m & 3 >= 2) == horizontal

    return bool(long) and all(_restricted(game, one_axis(b, h)) is None
                              for b in long for h in (False, True))


def _order_matters(game: Game) -> bool:
    found = exit_orders(game, max_states=LESSON_STATES)
    return found.status == "done" and bool(found.some_order_fails)


# Each lesson's idea as a predicate decided by search on the level (spec section 5b): a level
# that can be solved without the idea does not teach it.
LESSON_CHECKS: dict[int, Callable[[LevelJson, Certificate], bool]] = {
    # Heads alone solve it as briefly as anything.
    1: lambda lv, c: _restricted(_game(lv), _heads) == _optimum(_game(lv)),
    # No solution moves heads only.
    2: lambda lv, c: _restricted(_game(lv), _heads) is None,
    # The body cannot get there moving along one axis only.
    3: lambda lv, c: (_turns(lv["bodies"][0]["cells"])
                      and _restricted(_game(lv), lambda m: m & 3 < 2) is None
                      and _restricted(_game(lv), lambda m: m & 3 >= 2) is None),
    4: lambda lv, c: len({b["colors"][0] for b in lv["bodies"]}) == 2,
    # Either end alone costs at least two more steps (or cannot do it).
    5: lambda lv, c: (_costs_more(_game(lv), _heads, 2) and _costs_more(_game(lv), _tails, 2)),
    # A body backs out or steps aside: not solved one body at a time.
    6: lambda lv, c: _not_serial(_game(lv)),
    7: lambda lv, c: _not_serial(_game(lv)),
    # Some order of exits fails.
    8: lambda lv, c: _order_matters(_game(lv)),
    # Every long body must turn: held to one axis (the others free), it cannot get out.
    9: lambda lv, c: _long_bodies_turn(_game(lv), [len(b["cells"]) for b in lv["bodies"]]),
    10: lambda lv, c: True,
    # Two bodies make way: not serial, and the shortest solution has two make-way runs.
    11: lambda lv, c: _not_serial(_game(lv)) and _diagnostic(c, "shuffle_steps") >= 2,
}


def _diagnostic(cert: Certificate, name: str) -> int:
    """An integer of a certificate's score diagnostics (0 when it has none)."""
    value = cert["score"]["diagnostics"].get(name) if cert["score"] is not None else None
    return value if is_int(value) else 0


def _without(level: LevelJson, mechanic: str) -> LevelJson:
    """``level`` with every instance of a binding mechanic removed (freezes, or locks with
    their keys; for gold, the gold locks)."""
    out: LevelJson = json.loads(json.dumps(level))
    for body in out["bodies"]:
        if mechanic == "frozen":
            body.pop("frozen", None)
        if "lock" in body and (mechanic == "locks"
                               or (mechanic == "gold" and body["lock"]["kind"] == "gold")):
            lock_id = body.pop("lock")["id"]
            for other in out["bodies"]:
                if other.get("key") == lock_id:
                    other.pop("key")
    if mechanic == "frozen_holes":
        for hole in out["holes"]:
            hole.pop("frozen", None)
    return out


def mechanic_costs_steps(level: LevelJson, mechanic: str) -> bool:
    """Whether ``mechanic`` costs steps in ``level`` (spec section 5b): the level without it
    has a smaller minimum, both proven within :data:`LESSON_STATES`."""
    real = _optimum(_game(level))
    relaxed = _optimum(_game(_without(level, mechanic)))
    return real is not None and relaxed is not None and relaxed < real


def _shows(level: LevelJson, mechanic: str) -> bool:
    bodies, holes = level["bodies"], level["holes"]
    return {
        "coats": lambda: any(len(b["colors"]) > 1 and b["colors"][0] != b["colors"][1]
                             for b in bodies),
        "frozen": lambda: any(b.get("frozen") for b in bodies),
        "frozen_holes": lambda: any(h.get("frozen") for h in holes),
        "locks": lambda: any("lock" in b for b in bodies),
        "gold": lambda: any(b.get("lock", {}).get("kind") == "gold" for b in bodies),
    }[mechanic]()


def rule_misses(n: int, level: LevelJson, cert: Certificate) -> list[str]:
    """The curriculum rules that main-line level ``n`` breaks (empty when it keeps them all).
    A level built from motifs: :func:`motif_rule_misses`. A lesson or a teaching level: its
    lesson's predicate; on a teaching level its mechanic shown and costing steps; a returning
    mechanic shown; from level 11 on not solved one body at a time (decided exactly) and
    legible (:func:`legibility_misses`); every frozen body, frozen hole and lock with a
    witness; proven minimal; at most 8 colours drawn from 0..9; at most
    :data:`MAX_COLUMNS` columns."""
    if n not in LESSONS and n not in TEACHING:
        return motif_rule_misses(n, level, cert)
    misses: list[str] = []
    if n in LESSON_CHECKS and not LESSON_CHECKS[n](level, cert):
        misses.append(f"lesson {n} not shown")
    fields = mechanic_fields(n)
    for name in TEACHING.values():
        if fields[name] == 1 and not _shows(level, name):
            misses.append(f"{name} not shown")
        if fields[name] == 0 and _shows(level, name):
            misses.append(f"{name} shown where the curriculum has none")
    if n in TEACHING and TEACHING[n] != "coats" and not mechanic_costs_steps(level, TEACHING[n]):
        misses.append(f"{TEACHING[n]} costs no step")
    if (n >= 11 or n in MAKE_WAY_LESSONS) and not breather(n) and not _not_serial(_game(level)):
        misses.append("solved one body at a time")
    mechanics = ([f"bodies[{i}].frozen" for i, b in enumerate(level["bodies"]) if b.get("frozen")]
                 + [f"holes[{i}].frozen" for i, h in enumerate(level["holes"]) if h.get("frozen")]
                 + [f"bodies[{i}].lock" for i, b in enumerate(level["bodies"]) if "lock" in b])
    witnessed = {w["mechanic"] for w in cert.get("witnesses", [])}
    for name in mechanics:
        if name not in witnessed:
            misses.append(f"{name} has no witness")
    if not cert["optimal"]:
        misses.append("minimum not proven")
    colours = {c for b in level["bodies"] for c in b["colors"]}
    if len(colours) > MAX_COLOURS or any(c >= PALETTE_COLOURS for c in colours):
        misses.append(f"colours {sorted(colours)}: at most {MAX_COLOURS} from 0..9")
    if level["cols"] > MAX_COLUMNS:
        misses.append(f"{level['cols']} columns: at most {MAX_COLUMNS}")
    if n >= 11:
        misses.extend(legibility_misses(level))
    return misses


def motif_rule_misses(n: int, level: LevelJson, cert: Certificate) -> list[str]:
    """The rules a main-line level built from motifs (:func:`motif_plan`) breaks: legible
    (bodies of at most :data:`LINE_BODY` cells, occupancy at most :data:`MAX_OCCUPANCY`, at
    most :data:`MAX_OUTER` outer colours, at most :data:`MAX_COLUMNS` columns), proven
    minimal in at most :data:`TOP_STEPS` steps, its joint steps (spec 5c) the plan's target
    (at least one unless a breather), not solved one body at a time unless a breather
    (decided exactly), the plan's mechanics and terrain shown and no other, every frozen body,
    frozen hole, lock and painted cell with a witness and every bridge crossed; a terrain
    lesson's piece costs steps (a path) or is needed (a bridge)."""
    plan = motif_plan(n)
    misses: list[str] = []
    parsed = level_from_json(level)
    read = reading(parsed, cert["steps"] or 0)
    if max(read.lengths) > LINE_BODY:
        misses.append(f"a body of {max(read.lengths)} cells")
    if read.occupancy > MAX_OCCUPANCY or read.outer_colours > MAX_OUTER:
        misses.append(f"occupancy {read.occupancy:.2f}, {read.outer_colours} outer colours")
    if level["cols"] > MAX_COLUMNS:
        misses.append(f"{level['cols']} columns: at most {MAX_COLUMNS}")
    if not cert["optimal"] or (cert["steps"] or 0) > TOP_STEPS:
        misses.append("not proven minimal within the steps allowed")
    if read.joint_steps != plan.target or (read.joint_steps < 1 and not plan.breather):
        misses.append(f"{read.joint_steps} joint steps, asked {plan.target}")
    if not plan.breather and not _not_serial(Game(parsed)):
        misses.append("solved one body at a time")
    # A gold lock is the lock a level asked for both shows (motif_line.ORDERING).
    shown = {m for m in ("coats", "frozen", "frozen_holes", "gold") if _shows(level, m)}
    shown |= {"locks"} if _shows(level, "locks") and "gold" not in shown else set()
    shown |= {t for t in ("paths", "bridges") if level.get(t)}
    asked = set(plan.mechanics) | set(plan.terrain)
    asked -= {"locks"} if "gold" in asked else set()
    if shown != asked:
        misses.append(f"shows {sorted(shown)}, asked {sorted(asked)}")
    witnessed = {w["mechanic"] for w in cert.get("witnesses", [])}
    for name, _ in relaxations(parsed):
        if name not in witnessed:
            misses.append(f"{name} has no witness")
    game = Game(parsed)
    crossed = crossed_bridges(game, game.replay(cert["solution"] or []))
    if len(crossed) < len(parsed.bridges):
        misses.append("a bridge the solution does not cross")
    moves = [step_to_move(s) for s in cert["solution"] or []]
    if plan.lesson == "paths" and not path_costs_steps(
            level_from_json(chamber_of(level, level["paths"][0]["cell"])), 0):
        misses.append("the path costs no step")  # judged on its chamber alone
    if plan.lesson == "bridges" and not bridge_needed(parsed, 0, moves):
        misses.append("the bridge is not needed")
    return misses


def legibility_misses(level: LevelJson) -> list[str]:
    """What keeps ``level`` from reading at a glance (issue 41): a body longer than
    :data:`LEGIBLE_BODY` cells or folded, occupancy above :data:`MAX_OCCUPANCY`, more than
    :data:`MAX_OUTER` outer colours."""
    read = reading(level_from_json(level), 0)
    misses = []
    if max(read.lengths) > LEGIBLE_BODY or any(read.folded):
        misses.append("a body too long or folded")
    if read.occupancy > MAX_OCCUPANCY:
        misses.append(f"occupancy {read.occupancy:.2f} above {MAX_OCCUPANCY}")
    if read.outer_colours > MAX_OUTER:
        misses.append(f"{read.outer_colours} outer colours")
    return misses
