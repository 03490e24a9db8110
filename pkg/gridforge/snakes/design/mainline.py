"""The main line (seed 004, section 4; spec section 8): 2000 levels built in blocks, anywhere.

Each main-line level is a pure function of the main line's seed and its number
(:func:`design_level`): a fixed curriculum (:func:`level_plan`) turns the number into design
requests, the designer (:func:`~gridforge.snakes.design.pipeline.design_levels`) builds one,
and the curriculum's rules (:func:`rule_misses`) judge it. Every budget that decides a byte
counts work (candidates, states); the seconds budgets are loud safety nets only. So a level
has the same bytes whichever process, machine or cluster builds it, alone or in a longer run.

The curriculum:

- levels 1-11 teach head, tail and turns, one idea a level (:data:`LESSONS`, named in the
  level's ``meta.lesson`` and checked on the certified solution);
- 12, 18, 24, 30 and 36 teach coats, frozen bodies, frozen holes, keys and gold locks
  (:data:`TEACHING`) with short straight bodies, the mechanic visible and costing steps;
  these and the lessons come from design requests (:func:`level_plan`, templates asked only
  for targets inside their measured reach, :data:`REACH`);
- every other level is built from motifs (:func:`motif_plan`,
  :mod:`~gridforge.snakes.design.motif_line`): small chambers whose joint steps (spec 5c)
  add up to a target that climbs through the line (:func:`motif_line.joint_target`), in
  waves of ten whose tenth level is a breather; 42 and 48 teach coloured paths and bridges
  (:data:`TERRAIN_TEACHING`); a mechanic or a terrain piece, once taught, comes back on a
  fixed share of levels (:func:`recurs`), rising with the level;
- from level 11 on no level but a breather is solved one body at a time, every level is
  legible (bodies of at most 8 cells, occupancy at most 0.55, at most 6 outer colours, at
  most 12 columns) and proven minimal; at most 8 colours, drawn from 0..9.

A lesson or teaching level that fails on its eligible templates falls back by a fixed rule:
the target is lowered by :data:`FALLBACK_STEP` and templates are tried again, at most
:data:`FALLBACK_ROUNDS` times, then the curriculum's own rules are relaxed to the designer's
(:data:`LAST_RESORT_TARGET`); what happened is recorded in the level's ``meta.fallback``. The
build never aborts on one level.

:func:`build_mainline` writes one batch file per block of 25 levels (or the part of a block a
``levels`` range asks for), ``main-NNNN-NNNN.json``, and after each a ``progress.json`` that
records every block file with its SHA-256. ``resume`` trusts nothing: the progress file is
validated whole, a block file that is missing or changed is named and rebuilt, and nothing but
the builder's own block names inside the output folder is ever replaced or removed.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import hashlib
import importlib
import json
import os
import random
import re
import signal
import statistics
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from gridforge import __version__
from gridforge.errors import Cancelled, GridforgeError, Issue, ValidationError, is_int, parse_json
from gridforge.jsontypes import Json, JsonObject
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.certificate import Batch, Certificate
from gridforge.snakes.design.files import FileRefused, WriteError, dumps, read_regular, write_text
from gridforge.snakes.design.motif_line import (
    TOP_STEPS,
    MotifPlan,
    chamber_of,
    joint_target,
    motif_level,
)
from gridforge.snakes.design.pipeline import design_levels
from gridforge.snakes.design.reports import (
    Band,
    BandReading,
    BlockRecord,
    BuildState,
    MainlineLevel,
    ProgressFile,
)
from gridforge.snakes.design.request import BATCH_FORMAT, MAINLINE_FORMAT
from gridforge.snakes.design.templates import TEMPLATES
from gridforge.snakes.legibility import is_folded, reading
from gridforge.snakes.level import level_from_json
from gridforge.snakes.levelfile import LevelJson, accepted
from gridforge.snakes.puzzle import (
    bridge_needed,
    crossed_bridges,
    exit_orders,
    path_costs_steps,
    relaxations,
    restricted_optimum,
    serial,
)
from gridforge.snakes.rules import Game, Move, step_to_move
from gridforge.snakes.search import Solver

__all__ = [
    "BLOCK",
    "LESSONS",
    "LEVELS",
    "REACH",
    "TEACHING",
    "TERRAIN_TEACHING",
    "band_report",
    "build_mainline",
    "design_level",
    "layout_key",
    "level_plan",
    "level_target",
    "mainline_level",
    "motif_plan",
    "motif_rule_misses",
    "parse_levels",
    "pieces_due",
    "rule_misses",
]

LEVELS = 2000
BLOCK = 25
PROGRESS_FORMAT = "gridforge.snakes.mainline-progress/2"
BLOCK_NAME = re.compile(r"main-(\d{4})-(\d{4})\.json")
MAX_PROGRESS_BYTES = 1024 * 1024
PACE_WINDOW = 40  # completions the time-left estimate looks back over

# Levels 1-11: one idea a level, checked on the certified solution by LESSON_CHECKS.
LESSONS: dict[int, str] = {
    1: "grab the head: drag a body head first into its hole",
    2: "grab the tail: a body can also go tail first",
    3: "turn a corner: the body follows its end around a bend",
    4: "two colours: each body goes to a hole of its own colour",
    5: "the nearer end: choose the end that is closer to the hole",
    6: "back out: pull a body back the way it came to free the path",
    7: "make way: move one body aside so that another can pass",
    8: "order matters: the wrong body first blocks the others",
    9: "long bodies: a long body needs room to turn",
    10: "a breather: three bodies, room to spare",
    11: "make way twice: two bodies stand in each other's way",
}
# Levels 12, 18, 24, 30 and 36 teach a mechanic: the request field fixed to one on that level.
TEACHING: dict[int, str] = {12: "coats", 18: "frozen", 24: "frozen_holes", 30: "locks",
                            36: "gold"}
# What a teaching level says to the player (meta.lesson).
TEACHING_LESSONS: dict[int, str] = {
    12: "coats: a body wears layers; each layer goes into a hole of its own colour, the outer "
        "one first",
    18: "frozen bodies: a frozen body waits until enough layers have gone into holes",
    24: "frozen holes: a frozen hole opens only after enough layers have gone in",
    30: "keys and locks: a locked body moves once the body carrying its key has left",
    36: "gold locks: a gold lock needs two keys, carried by two other bodies",
}
# Terrain (spec section 3b) is taught on its own levels, then comes back like a mechanic.
TERRAIN_TEACHING: dict[int, str] = {42: "paths", 48: "bridges"}
TERRAIN_LESSONS: dict[int, str] = {
    42: "coloured paths: a painted cell lets in only a body of its colour",
    48: "bridges: two bodies may lie on a bridge at once, one across and one along",
}
# From level 11 every level is legible (issue 41): bodies of at most LEGIBLE_BODY cells here
# (8 for the line), none folded, occupancy at most MAX_OCCUPANCY, at most 6 outer colours.
LEGIBLE_BODY = 4
LINE_BODY = 8
PIECES_AT_MOST = 3  # mechanics and terrain pieces of one level built from motifs
MAX_OCCUPANCY = 0.55
MAX_OUTER = 6
# The mechanics whose every instance must bind (a witness in the certificate), and the
# request field of each.
BINDING = ("frozen", "frozen_holes", "locks", "gold")
# Colours 0..9 only (the page's palette keeps those ten distinct), at most 8 in one level.
PALETTE_COLOURS = 10
MAX_COLOURS = 8

# Reachable design scores per template: the lowest and highest totals seen by
# bench/template_reach.py (targets 1 and 100, tolerance 0, default budgets, seed 1; 8
# candidates a target for courtyard, notched, stepped, cross and island, 10 for pillars, 6 for
# twin, winding, comb and split; run on 2026-11-30). Few candidates: the highs are what the
# designer surely reaches, not all it could; measure again with more to raise the top.
REACH: dict[str, tuple[float, float]] = {
    "courtyard": (0.7, 85.7), "notched": (0.7, 86.6), "stepped": (0.7, 86.5),
    "cross": (1.0, 85.8), "island": (8.8, 71.7), "twin": (0.8, 94.9),
    "winding": (7.0, 87.8), "comb": (7.3, 83.7), "pillars": (1.0, 86.6),
    "split": (1.3, 70.3),
}
REACH_MARGIN = 3.0
FALLBACK_STEP = 3.0
FALLBACK_ROUNDS = 4
LAST_RESORT_TARGET = 20.0
FALLBACK_RULE = ("next template (3 a round, new seeds); after a round that made no level the "
                 "target is lowered by 3, after one whose levels broke a rule it is raised by 3")
# Work budgets of one attempt (one template at one target); seconds are safety nets.
BUDGETS_LOW = {"candidates": 1500, "exact_states": 20000}
TEMPLATES_PER_ROUND = 3  # templates tried at one target before it is lowered
SAFETY_NETS = {"exact_seconds": 900.0, "level_seconds": 7200.0}
PROVEN_UP_TO = 300  # levels 1..300 are proven minimal
MAX_COLUMNS = 12  # every level fits a phone held upright (the requests ask portrait)
LESSON_STATES = 200_000  # states a lesson's predicate search may store
MAKE_WAY_LESSONS = frozenset({6, 7, 11})  # lessons that are not solved one body at a time
MAKE_WAY_TARGET = 16.0  # the least target of those
LONG_BODY = 5  # cells of a long body (lesson 9)
TOO_PLAIN = ("rules", "serial", "interaction")  # rejections that make a plan aim higher
ORDER_LESSON_CELLS = 20  # lesson 8's floor: small enough to decide every exit order


def level_target(n: int) -> float:
    """The design score lesson or teaching level ``n`` (1-based) aims at."""
    if n <= 11:
        # The lessons: small and calm; but a level where a body must make way scores about 15
        # at least (the blocking term), so those lessons aim there.
        return max(5.0 + n, MAKE_WAY_TARGET if n in MAKE_WAY_LESSONS else 0.0)
    # From level 12 a body must make way, and a blocked start alone is worth 14 points (the
    # blocking term): the teaching levels climb from lesson 11's 16, in waves of ten whose
    # tenth level is calmer.
    wave = (n - 1) % 10
    return round(16 + 39 * (n - 12) / 188 + 0.8 * wave - (9 if wave == 9 else 0), 1)


def recurs(n: int, mechanic_level: int) -> bool:
    """Whether level ``n`` (past the teaching level) brings the mechanic back: one level in
    ten at first, rising steadily to one in four at level 2000 (a fixed pattern: the running
    count ``0.1 x + 0.0000375 x**2`` of levels ``x`` past the teaching level steps up)."""
    if n <= mechanic_level:
        return False

    def count(x: int) -> int:
        return (4000 * x + 3 * x * x // 2) // 40000  # floor(0.1 x + 0.0000375 x^2), in ints

    x = n - mechanic_level
    return count(x) > count(x - 1)


def eligible_templates(target: float) -> list[str]:
    """The templates whose measured reach holds ``target`` (with the margin), in a fixed
    order."""
    return [t for t in TEMPLATES if REACH[t][0] <= target <= REACH[t][1] - REACH_MARGIN]


@dataclass(frozen=True)
class Attempt:
    """One request of a level's plan and the fallback that led to it (None for the first)."""

    request: JsonObject
    fallback: JsonObject | None
    last: bool = False  # the last resort: taken as it comes


def _palette(seed: int, n: int) -> list[int]:
    rng = random.Random(seed * 1_000_033 + n)
    return sorted(rng.sample(range(PALETTE_COLOURS), MAX_COLOURS))


def _makes_way(n: int) -> bool:
    """Whether main-line level ``n`` is asked to make way (spec section 5b)."""
    return (n >= 11 or n in MAKE_WAY_LESSONS) and not breather(n)


def breather(n: int) -> bool:
    """Whether main-line level ``n`` is a breather: the tenth of its wave from level 11 on
    (teaching levels excepted). A breather carries no mechanic and may be solved one body at
    a time; its ``meta.breather`` says so."""
    return n > 11 and n % 10 == 0 and n not in TEACHING


def _mechanics(n: int) -> dict[str, int | None]:
    """The mechanic fields of level ``n``'s request: 0 before a mechanic is taught and on
    breathers; 1 on its teaching level and when it comes back (:func:`recurs`; a return that
    falls on a breather comes on the level after it instead, so that the gap between two
    returns stays within ten levels); otherwise 0, except coats, which the designer may then
    use freely (None). A gold lock is a lock."""
    fields: dict[str, int | None] = {}
    for level, name in TEACHING.items():
        if n < level or breather(n):
            fields[name] = 0
        elif n == level or recurs(n, level) or (breather(n - 1) and recurs(n - 1, level)):
            fields[name] = 1
        else:
            fields[name] = None if name == "coats" else 0
    if fields["gold"]:
        fields["locks"] = 1
    return fields


def _base_request(n: int, seed: int, target: float, template: str, k: int) -> JsonObject:
    budgets: JsonObject = {**BUDGETS_LOW, **SAFETY_NETS}
    request: JsonObject = {
        "target": target,
        "count": 1,
        "seed": seed * 100_003 + n + 7_919 * k,
        "topology": template,
        "palette": list(_palette(seed, n)),
        "budgets": budgets,
    }
    if n in LESSONS:
        request.update(_lesson_fields(n))
    request.update({k: v for k, v in _mechanics(n).items() if v is not None})
    # A mechanic's lesson: short straight bodies (legible), a locked body and its key
    # carriers and one more.
    counts = {12: 2, 18: 3, 24: 3, 30: 3, 36: 4}
    if n in counts:
        request["bodies"] = {"count": counts[n], "min_length": 2, "max_length": LEGIBLE_BODY}
    # What makes a level a puzzle (spec section 5b): from level 11 on a body must make way,
    # every frozen body, frozen hole and lock binds, and every lesson is proven minimal.
    if _makes_way(n):
        request["make_way"] = True
    if any(request.get(name) for name in BINDING):
        request["binding"] = True
    request["proven"] = True
    request["portrait"] = True  # at most MAX_COLUMNS columns on a phone held upright
    return request


def _lesson_fields(n: int) -> JsonObject:
    if n <= 3:
        return {"bodies": {"count": 1, "min_length": 2 + (n == 3), "max_length": 3 + (n == 3)}}
    if n in (4, 5, 6):
        return {"bodies": {"count": 2, "min_length": 2, "max_length": 4}, "colors": 2}
    if n == 8:
        # Every order of exits is decided on the whole state space: a small, crowded floor
        # (where the wrong body first does block the others).
        return {"bodies": {"count": 3, "min_length": 2, "max_length": 3},
                "size": {"auto": True, "cells": ORDER_LESSON_CELLS}}
    if n == 9:
        return {"bodies": {"count": 2, "min_length": LONG_BODY, "max_length": 7}}
    return {"bodies": {"count": 3, "min_length": 2, "max_length": 5}}


def level_plan(n: int, seed: int) -> Generator[Attempt, str | None, None]:
    """The requests tried for main-line level ``n``, in order, as a generator that is told
    each attempt's outcome (``send("rules")`` when the attempt made a level that broke a rule,
    anything else when it made none): rounds of :data:`TEMPLATES_PER_ROUND` eligible
    templates (the first chosen independently of the wave position), each attempt with a
    seed of its own; after a round in which no attempt made a level the target is lowered by
    :data:`FALLBACK_STEP`, after one whose levels broke a rule (too plain: solved one body
    at a time, too few interaction steps) it is raised by as much; then a last resort. A
    lesson (levels 1-11) keeps its target and tries every template each round.

    :raises GridforgeError: when ``n`` is not a lesson or a mechanic's teaching level (the
        rest of the line is built from motifs: :func:`motif_plan`).
    """
    if not is_int(n) or not 1 <= n <= LEVELS:
        raise GridforgeError(f"a main-line level is 1..{LEVELS}, got {n!r}")
    if n not in LESSONS and n not in TEACHING:
        raise GridforgeError(f"main-line level {n} is built from motifs (motif_plan), "
                             "not from design requests")
    target = level_target(n)
    k = 0
    drops = 0
    first: str | None = None
    for _round in range(FALLBACK_ROUNDS + 1):
        aim = round(max(5.0, target - FALLBACK_STEP * drops), 1)
        names = eligible_templates(aim) or list(TEMPLATES)
        per_round = min(TEMPLATES_PER_ROUND, len(names))
        if n in LESSONS:
            # A lesson is cheap and its idea matters more than its score: every template,
            # new seeds; one small region shows one idea, not two rooms.
            names = [t for t in names if t != "split"]
            per_round = len(names)
        # The template turns with the level and, by a different stride, with its wave, so
        # that no template sits on the same wave slot (the breather, the hardest) every time.
        start = (n + 3 * ((n - 1) // 10)) % len(names)
        made_none = True
        missed_rules = False
        for i in range(per_round):
            template = names[(start + i) % len(names)]
            first = first or template
            fallback: JsonObject | None = None if k == 0 else {
                "rule": FALLBACK_RULE, "from_target": target, "from_template": first, "tries": k}
            outcome = yield Attempt(_base_request(n, seed, aim, template, k), fallback)
            made_none = made_none and outcome != "rules"
            missed_rules = missed_rules or outcome == "rules"
            k += 1
        if n not in LESSONS:
            if made_none:
                drops += 1
            elif missed_rules:
                drops -= 1  # a level that breaks a rule here is too plain: aim higher
    last: JsonObject = {
        "target": LAST_RESORT_TARGET, "count": 1, "seed": seed * 100_003 + n + 7_919 * k,
        "topology": "mixed", "palette": list(_palette(seed, n)),
        "budgets": {**BUDGETS_LOW, **SAFETY_NETS}}
    yield Attempt(last, {"rule": "last resort: curriculum fields dropped", "from_target": target,
                         "from_template": first, "tries": k}, last=True)


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
    fields = _mechanics(n)
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


def design_level(n: int, seed: int) -> tuple[LevelJson, Certificate]:
    """Main-line level ``n`` of the line of ``seed`` and its certificate: a lesson or a
    teaching level from the first attempt of :func:`level_plan` whose level keeps the
    curriculum's rules (the last resort is taken as it comes), any other level from motifs
    (:func:`motif_plan`). A pure function of ``n`` and ``seed``: any process builds the same
    bytes."""
    if n not in LESSONS and n not in TEACHING:
        return _motif_level(n, seed)
    plan = level_plan(n, seed)
    attempt = next(plan)
    reasons: list[str] = []
    keeps_the_rules = functools.partial(rule_misses, n)

    while True:
        # The curriculum judges every candidate about to be taken (not just the first), so a
        # rule that few candidates keep (a lesson's idea, a mechanic that costs steps) costs
        # candidates, not whole attempts; the last resort is taken as it comes.
        batch = design_levels(attempt.request, accept=None if attempt.last else keeps_the_rules)
        if batch["levels"]:
            level, cert = batch["levels"][0], batch["certificates"][0]
            misses = rule_misses(n, level, cert) if attempt.last else []
            return _with_meta(n, seed, attempt, level, cert, misses, reasons)
        rejected = batch["report"]["rejected"]
        outcome = "none"
        broke = rejected.get("rules", 0)
        top = max(rejected, key=lambda r: (rejected[r], r)) if rejected else None
        if top in TOO_PLAIN:  # too plain to keep the curriculum: aim higher
            outcome = "rules"
        reasons.append(f"{attempt.request['topology']}@{attempt.request['target']}: none"
                       + (f" ({broke} broke the curriculum's rules)" if broke else ""))
        try:
            attempt = plan.send(outcome)
        except StopIteration:  # pragma: no cover - the plan ends with its last resort
            raise GridforgeError(f"main-line level {n}: no level at all: {reasons}") from None


def motif_plan(n: int) -> MotifPlan:
    """What main-line level ``n`` (past the lessons, not a mechanic's teaching level) asks of
    the motif builder: its joint-step target, the mechanics and terrain that come back on it
    (:func:`pieces_due`), whether it is a breather, and its terrain lesson if any."""
    pieces = pieces_due()[n]
    mechanics = tuple(p for p in ("coats", "frozen", "frozen_holes", "locks", "gold")
                      if p in pieces)
    terrain = tuple(p for p in ("paths", "bridges") if p in pieces)
    return MotifPlan(n, joint_target(n, breather(n)), breather(n), mechanics, terrain,
                     TERRAIN_TEACHING.get(n))


def _breather_layouts(n: int, seed: int) -> frozenset[str]:
    """The layouts (:func:`layout_key`) of the breathers before level ``n``: a breather is
    small, and without this one would repeat an earlier one (1 of 199 in a build)."""
    return frozenset(_breather_layout(m, seed) for m in range(20, n, 10) if breather(m))


@functools.cache
def _breather_layout(n: int, seed: int) -> str:
    """The layout of breather ``n`` (built once a process, earlier breathers first)."""
    return layout_key(_motif_level(n, seed)[0])


@functools.cache
def pieces_due() -> dict[int, frozenset[str]]:
    """The mechanics and terrain pieces each main-line level from 12 shows. A piece is taught
    on its level (:data:`TEACHING`, :data:`TERRAIN_TEACHING`) and comes back where
    :func:`recurs` says; a level built from motifs shows at most :data:`PIECES_AT_MOST` (a
    gold lock also counts as the lock), the ones waiting longest first, and a breather none:
    the others wait for the next level (the recurrence patterns of seven pieces fall on the
    same levels near 900, every sixth level; no level should carry them all)."""
    taught = {**TEACHING, **TERRAIN_TEACHING}
    last: dict[str, int] = {}
    waiting: set[str] = set()
    out: dict[int, frozenset[str]] = {}
    for n in range(12, LEVELS + 1):
        waiting |= {name for level, name in taught.items()
                    if n == level or (n > level and recurs(n, level))}
        if n in TEACHING:  # the request's own fields (:func:`_mechanics`)
            shown = {name for name, value in _mechanics(n).items() if value == 1}
        elif breather(n):
            shown = set()
        else:
            lesson = TERRAIN_TEACHING.get(n)
            order = sorted(waiting, key=lambda p: (p != lesson, last.get(p, 0), p))
            shown = set(order[:PIECES_AT_MOST + ("gold" in order[:PIECES_AT_MOST]
                                                 and "locks" in order)])
        if "gold" in shown:
            shown.add("locks")
        for piece in shown:
            last[piece] = n
        waiting -= shown
        out[n] = frozenset(shown)
    return out


def _motif_level(n: int, seed: int) -> tuple[LevelJson, Certificate]:
    plan = motif_plan(n)
    taken = _breather_layouts(n, seed) if plan.breather else frozenset()
    level, cert = motif_level(plan, seed, lambda made: layout_key(made) not in taken)
    meta: JsonObject = {"id": f"main-{n:04d}", "template": "motifs", "target": plan.target,
                        "seed": seed, "level": n}
    if n in TERRAIN_LESSONS:
        meta["lesson"] = TERRAIN_LESSONS[n]
    if plan.breather:
        meta["breather"] = True
    level["meta"] = meta
    return level, cert


def _with_meta(n: int, seed: int, attempt: Attempt, level: LevelJson,
               cert: Certificate, misses: list[str], reasons: list[str]
               ) -> tuple[LevelJson, Certificate]:
    meta: JsonObject = {"id": f"main-{n:04d}", "template": level.get("meta", {})["template"],
                            "target": attempt.request["target"], "seed": seed, "level": n}
    if n in LESSONS:
        meta["lesson"] = LESSONS[n]
    if n in TEACHING:
        meta["lesson"] = TEACHING_LESSONS[n]
    if breather(n):
        meta["breather"] = True
    if attempt.fallback is not None:
        meta["fallback"] = {**attempt.fallback, "reasons": list(reasons[-12:])}
    if misses:
        meta["rules_missed"] = list(misses)
    level["meta"] = meta
    return level, cert


def mainline_level(n: object, folder: str | os.PathLike[str] | None = None) -> MainlineLevel:
    """Shipped main-line level ``n`` and its certificate, ``{"level", "certificate"}``, read
    from the block file that ``folder``'s ``progress.json`` lists for it (the package's data
    by default), checked against its SHA-256; no other file of the folder is read.

    :raises GridforgeError: when ``n`` is not an integer in 1..2000, its block is not listed,
        or the listed file is missing, changed or not a main-line block (named with the reason).
    """
    if not is_int(n) or not 1 <= n <= LEVELS:
        raise GridforgeError(f"level: a main-line level is 1..{LEVELS}, got {n!r}")
    where = Path(folder) if folder is not None else Path(__file__).parent.parent / "data"
    seed, _block, files = _read_progress(where)
    for f in files:
        if f.first <= n <= f.last:
            data, _rows = _read_block(where, f, seed)
            i = n - f.first
            return {"level": data["levels"][i], "certificate": data["certificates"][i]}
    raise GridforgeError(f"level: main-line level {n} is not built yet (no block file holds it "
                         f"in {where})")


def band_report(folder: str | os.PathLike[str] | None = None, band: int = 100, *,
                warnings: list[str] | None = None) -> list[Band]:
    """Per band of ``band`` levels found in the block files of ``folder`` (the shipped line by
    default): levels, proven share, mean gap between solution and lower bound, median score,
    the largest template share, fallbacks and the body counts used.

    Only the block files ``folder/progress.json`` lists are read, each checked against its
    SHA-256 and its shape; a listed file that fails is left out and anything else in the
    folder is ignored, each named in a line appended to ``warnings`` (when given).

    :raises GridforgeError: when ``progress.json`` is missing, not a regular file or not valid.
    """
    where = Path(folder) if folder is not None else Path(__file__).parent.parent / "data"
    seed, _block, files = _read_progress(where)
    notes = warnings if warnings is not None else []
    rows: dict[int, list[_Row]] = {}
    for f in files:
        try:
            rows[f.first] = _read_block(where, f, seed)[1]
        except GridforgeError as exc:
            notes.append(f"{exc}: left out of the band report")
    notes += _unlisted(where, {f.name for f in files})
    return _band_table(rows, band)


def _band_table(blocks: dict[int, list[_Row]], band: int) -> list[Band]:
    """The band rows of :func:`band_report` from the rows of block files (by first level)."""
    rows: dict[int, list[_Row]] = {}
    for first in sorted(blocks):
        for i, row in enumerate(blocks[first]):
            rows.setdefault((first + i - 1) // band, []).append(row)
    out: list[Band] = []
    for b in sorted(rows):
        pairs = rows[b]
        scores = sorted(r.score for r in pairs)
        mid = len(scores) // 2
        median = scores[mid] if len(scores) % 2 else (scores[mid - 1] + scores[mid]) / 2
        templates = [r.template for r in pairs]
        measured = [r.interaction for r in pairs if r.interaction is not None]
        out.append({
            "levels": [b * band + 1, b * band + band], "built": len(pairs),
            "proven": round(sum(1 for r in pairs if r.optimal) / len(pairs), 3),
            "mean_gap": round(sum(r.gap for r in pairs) / len(pairs), 2),
            "median_score": round(median, 2),
            "top_template_share": round(max(templates.count(t) for t in set(templates))
                                        / len(pairs), 3),
            "fallbacks": sum(1 for r in pairs if r.fallback),
            "body_counts": sorted({r.bodies for r in pairs}),
            "mean_interaction": (round(sum(measured) / len(measured), 2) if measured
                                 else None),
            "median_interaction": statistics.median(measured) if measured else None,
            # Decided exactly by the designer for every level it asks it of.
            "make_way": round(sum(1 for r in pairs if r.make_way) / len(pairs), 3),
            "mechanic_free": round(sum(1 for r in pairs if not r.mechanics) / len(pairs), 3),
            "all_mechanics": round(sum(1 for r in pairs if len(r.mechanics) == len(MECHANICS))
                                   / len(pairs), 3),
            "mechanics": {m: round(sum(1 for r in pairs if m in r.mechanics) / len(pairs), 3)
                          for m in MECHANICS},
            # The share of levels with each score term at its ceiling.
            "ceilings": {t: round(sum(1 for r in pairs if t in r.ceilings) / len(pairs), 3)
                         for t in sorted(set().union(*(r.ceilings for r in pairs)))},
            **_reading_columns([r.shape for r in pairs]),
        })
    return out


def _reading_columns(shapes: list[_Shape]) -> BandReading:
    """The band's reading (spec 5c): medians of floor cells, bodies, body length, occupancy,
    steps, drags, joint and steering steps, and the share of folded bodies."""
    lengths = [n for s in shapes for n in s.lengths]

    def median(values: list[int | None] | list[int] | list[float]) -> float | None:
        known = [v for v in values if v is not None]
        return round(float(statistics.median(known)), 3) if known else None

    return {
        "floor": median([s.floor for s in shapes]),
        "bodies": median([len(s.lengths) for s in shapes]),
        "median_length": median(lengths),
        "folded": round(sum(s.folded for s in shapes) / len(lengths), 3) if lengths else 0.0,
        "occupancy": median([s.occupancy for s in shapes]),
        "steps": median([s.steps for s in shapes]),
        "drags": median([s.drags for s in shapes]),
        "joint": median([s.joint for s in shapes]),
        "steering": median([s.steering for s in shapes]),
    }


# ------------------------------------------------------------------------------------------
# Blocks, progress and resume


def parse_levels(text: str) -> tuple[int, int]:
    """``"A-B"`` (or ``"N"``) as a level range inside 1..2000.

    :raises GridforgeError: naming ``--levels`` for anything else.
    """
    match = re.fullmatch(r"\s*(\d{1,4})\s*(?:-\s*(\d{1,4})\s*)?", text)
    if not match:
        raise GridforgeError(f"--levels: expected A-B (for example 1-25), got {text!r}")
    first = int(match[1])
    last = int(match[2]) if match[2] else first
    if not 1 <= first <= last <= LEVELS:
        raise GridforgeError(f"--levels: a range inside 1..{LEVELS} with A <= B, got {text!r}")
    return first, last


def block_name(first: int, last: int) -> str:
    """The block file's name for levels ``first``..``last``."""
    return f"main-{first:04d}-{last:04d}.json"


@dataclass(frozen=True)
class BlockFile:
    """A finished block file as progress.json records it."""

    name: str
    first: int
    last: int
    sha256: str

    def to_json(self) -> BlockRecord:
        """The record in progress.json."""
        return {"name": self.name, "first": self.first, "last": self.last,
                "sha256": self.sha256}


def _block_of(n: int, block: int) -> int:
    return (n - 1) // block


def _block_record(item: Json, path: str, block: int, taken: set[int],
                  bad: Callable[[str, str], None]) -> BlockFile | None:
    """One record of a progress file's ``files`` (at ``path``), or None after saying what is
    wrong with it through ``bad``; ``taken`` holds the levels of the records before it."""
    if not isinstance(item, dict) or set(item) != {"name", "first", "last", "sha256"}:
        bad(path, "a block record is {name, first, last, sha256}")
        return None
    first, last, name, sha = item["first"], item["last"], item["name"], item["sha256"]
    if not (is_int(first) and is_int(last) and 1 <= first <= last <= LEVELS
            and _block_of(first, block) == _block_of(last, block)):
        bad(path, f"first..last must lie inside one block of {block} levels")
        return None
    if not isinstance(name, str) or name != block_name(first, last):
        bad(f"{path}.name", f"must be the builder's own block name "
                            f"{block_name(first, last)!r}, got {str(name)[:60]!r}")
        return None
    if not isinstance(sha, str) or not re.fullmatch(r"[0-9a-f]{64}", sha):
        bad(f"{path}.sha256", "must be 64 lowercase hex digits")
        return None
    if not taken.isdisjoint(range(first, last + 1)):
        bad(path, f"levels {first}..{last} are listed twice")
        return None
    return BlockFile(name, first, last, sha)


def _check_progress(data: Json, block: int | None) -> tuple[int, int, list[BlockFile]]:
    """Validate a progress file whole; returns its seed, block size and block files. The
    block size must be ``block``; ``None`` takes the file's own (an integer in 1..2000).

    :raises ValidationError: naming every bad field (``files[2].name``, ``done``, ...).
    """
    if not isinstance(data, dict):
        raise ValidationError([Issue("", "type", "progress is a JSON object")], "progress.json")
    issues: list[Issue] = []

    def bad(path: str, message: str) -> None:
        issues.append(Issue(path, "invalid", message))

    if data.get("format") != PROGRESS_FORMAT:
        bad("format", f"format must be {PROGRESS_FORMAT!r}")
    seed = data.get("seed")
    if not is_int(seed) or not 0 <= seed < 2**31:
        bad("seed", f"seed must be an integer in 0..2**31-1, got {str(seed)[:30]}")
        seed = -1
    if block is None:
        size = data.get("block")
        if not is_int(size) or not 1 <= size <= LEVELS:
            bad("block", f"block must be an integer in 1..{LEVELS}, got {str(size)[:30]}")
            size = LEVELS
        block = size
    elif data.get("block") != block:
        bad("block", f"block must be {block}, got {str(data.get('block'))[:30]}")
    files: list[BlockFile] = []
    raw = data.get("files")
    if not isinstance(raw, list) or len(raw) > LEVELS:
        bad("files", "files must be a list of block records")
        raw = []
    taken: set[int] = set()
    for i, item in enumerate(raw):
        record = _block_record(item, f"files[{i}]", block, taken, bad)
        if record is not None:
            taken |= set(range(record.first, record.last + 1))
            files.append(record)
    done = data.get("done")
    if not is_int(done) or done != len(taken):
        bad("done", f"done must be the number of levels the files hold ({len(taken)}), "
                    f"got {str(done)[:30]}")
    if issues:
        raise ValidationError(issues, "progress.json")
    assert is_int(seed)
    return seed, block, sorted(files, key=lambda f: f.first)


# A block file is about 15 KB a level; a file larger than this is not read back.
MAX_BLOCK_BYTES_PER_LEVEL = 1024 * 1024


@dataclass(frozen=True)
class _Row:
    """What the band report needs of one level."""

    score: float
    optimal: bool
    gap: int
    template: str
    fallback: bool
    bodies: int
    # Steps beyond the travel bound (the certificate's diagnostics); None on a level built by
    # the designer before issue 18 (a folder of an older build), which did not report them.
    interaction: int | None
    mechanics: frozenset[str]  # of MECHANICS, those the level uses
    make_way: bool  # asked of the designer: never solved one body at a time
    ceilings: frozenset[str]  # the score terms at their ceiling
    shape: _Shape


@dataclass(frozen=True)
class _Shape:
    """How a level reads (spec 5c): floor cells, body lengths and folded bodies, occupancy,
    and the certificate's steps, drags, joint and steering steps (None for a certificate
    without a reading, written before issue 41)."""

    floor: int
    lengths: tuple[int, ...]
    folded: int
    occupancy: float
    steps: int
    drags: int | None
    joint: int | None
    steering: int | None


def _shape(level: JsonObject, cert: JsonObject, steps: int) -> _Shape:
    """The :class:`_Shape` of a level read from its JSON (checked by the caller)."""
    cols, rows = cast(int, level["cols"]), cast(int, level["rows"])
    stones = cast(list[Json], level.get("stones", []))
    bodies = cast(list[JsonObject], level["bodies"])
    cells = [[tuple(c) for c in cast(list[list[int]], b["cells"])] for b in bodies]
    holes = len(cast(list[Json], level.get("holes", [])))
    floor = cols * rows - len(stones)
    read = cert.get("reading")
    figures = read if isinstance(read, dict) else {}

    def figure(name: str) -> int | None:
        value = figures.get(name)
        return value if is_int(value) else None

    return _Shape(floor, tuple(len(c) for c in cells),
                  sum(is_folded(c) for c in cells),  # type: ignore[arg-type]
                  (sum(len(c) for c in cells) + holes) / floor if floor else 0.0, steps,
                  figure("drags"), figure("joint_steps"), figure("steering_steps"))


# The taught mechanics and terrain, as the band report counts them (a coat counts where it
# shows: its colour differs from the layer under it; a gold lock is also a lock).
MECHANICS = ("coats", "frozen", "frozen_holes", "locks", "gold", "paths", "bridges")


def uses_mechanics(level: LevelJson) -> frozenset[str]:
    """Which of :data:`MECHANICS` a level (its JSON) uses."""
    bodies, holes = level.get("bodies", []), level.get("holes", [])
    used = set()
    if any(len(b["colors"]) > 1 and b["colors"][0] != b["colors"][1] for b in bodies):
        used.add("coats")
    if any(b.get("frozen") for b in bodies):
        used.add("frozen")
    if any(h.get("frozen") for h in holes):
        used.add("frozen_holes")
    if any("lock" in b for b in bodies):
        used.add("locks")
    if any(b.get("lock", {}).get("kind") == "gold" for b in bodies):
        used.add("gold")
    used |= {name for name in ("paths", "bridges") if level.get(name)}
    return frozenset(used)


def _row(n: int, level: object, cert: object) -> _Row:
    """The band report's row of main-line level ``n``; a ValueError says what is wrong."""
    if not isinstance(level, dict) or not isinstance(cert, dict):
        raise ValueError(f"level {n}: a level and its certificate are objects")
    meta, score = level.get("meta"), cert.get("score")
    if not isinstance(meta, dict) or meta.get("level") != n or not isinstance(
            meta.get("template"), str):
        raise ValueError(f"level {n}: meta must name level {n} and its template")
    total = score.get("total") if isinstance(score, dict) else None
    if isinstance(total, bool) or not isinstance(total, int | float):
        raise ValueError(f"level {n}: certificate score.total must be a number")
    steps, bound = cert.get("steps"), cert.get("lower_bound")
    if not (is_int(steps) and is_int(bound) and isinstance(cert.get("optimal"), bool)):
        raise ValueError(f"level {n}: certificate steps, lower_bound and optimal are missing")
    bodies = level.get("bodies")
    if not isinstance(bodies, list):
        raise ValueError(f"level {n}: bodies must be a list")
    diagnostics = score.get("diagnostics") if isinstance(score, dict) else None
    normalised = score.get("normalised") if isinstance(score, dict) else None
    interaction = diagnostics.get("interaction_steps") if isinstance(diagnostics, dict) else None
    if not (interaction is None or is_int(interaction)) or not isinstance(normalised, dict):
        raise ValueError(f"level {n}: certificate score.diagnostics.interaction_steps must be "
                         "an integer and score.normalised an object")
    try:
        used = uses_mechanics(accepted(level))
    except (KeyError, TypeError, IndexError, AttributeError):
        raise ValueError(f"level {n}: bodies and holes must be objects with colours") from None
    ceilings = frozenset(k for k, v in normalised.items() if v == 1)
    try:
        shape = _shape(cast(JsonObject, level), cast(JsonObject, cert), steps)
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"level {n}: cols, rows, stones and body cells must be "
                         "numbers and lists of cells") from None
    return _Row(float(total), cert["optimal"], steps - bound, meta["template"],
                "fallback" in meta, len(bodies), interaction, used,
                _makes_way(n) and interaction is not None, ceilings, shape)


def _block_rows(data: JsonObject, f: BlockFile, seed: int) -> list[_Row]:
    """Check a parsed block file against its record; its band report rows."""
    request = data.get("request")
    if not isinstance(request, dict) or request.get("seed") != seed or request.get(
            "levels") != [f.first, f.last]:
        raise ValueError(f"its request must be seed {seed}, levels [{f.first}, {f.last}]")
    levels, certs = data.get("levels"), data.get("certificates")
    count = f.last - f.first + 1
    if not (isinstance(levels, list) and isinstance(certs, list)
            and len(levels) == len(certs) == count):
        raise ValueError(f"it must hold {count} levels and {count} certificates")
    return [_row(f.first + i, lv, c) for i, (lv, c) in enumerate(zip(levels, certs,
                                                                       strict=True))]


def _read_block(where: Path, f: BlockFile, seed: int) -> tuple[Batch, list[_Row]]:
    """The listed block file ``f`` in ``where``, read once (never through a symbolic link),
    checked against its SHA-256 and its record, and its band report rows.

    :raises FileRefused: naming the file and the reason (``reason``: "is missing", "was
        changed (SHA-256 differs)", "is not the block it is listed as (...)", ...).
    """
    path = where / f.name
    raw = read_regular(path, (f.last - f.first + 1) * MAX_BLOCK_BYTES_PER_LEVEL)
    if hashlib.sha256(raw).hexdigest() != f.sha256:
        raise FileRefused(path, "was changed (SHA-256 differs)")
    try:
        data = parse_json(raw, f.name, max_bytes=len(raw), expect_format=BATCH_FORMAT)
        if not isinstance(data, dict):
            raise ValueError("a block is a JSON object")
        rows = _block_rows(data, f, seed)
        # Its levels and certificates are those the rows were read from: a block as written.
        return cast(Batch, data), rows
    except (ValidationError, ValueError) as exc:
        why = exc.issues[0] if isinstance(exc, ValidationError) and exc.issues else exc
        raise FileRefused(path, f"is not the block it is listed as ({str(why)[:200]})"
                          ) from None


def _read_progress(where: Path, block: int | None = None
                   ) -> tuple[int, int, list[BlockFile]]:
    """``where/progress.json``, read with the bounded reader (never through a symbolic link)
    and validated whole: its seed, block size and block files.

    :raises GridforgeError: when it is missing, a symbolic link or not a regular file.
    :raises ValidationError: naming every bad field.
    """
    path = where / "progress.json"
    raw = read_regular(path, MAX_PROGRESS_BYTES)
    return _check_progress(parse_json(raw, "progress.json", max_bytes=MAX_PROGRESS_BYTES),
                           block)


MAX_WARNED = 20  # stray entries named one by one; the rest are counted


def _unlisted(where: Path, listed: set[str]) -> list[str]:
    """One warning per entry of ``where`` that is neither progress.json nor a listed block
    file: such entries are never read (the first :data:`MAX_WARNED` named, the rest counted)."""
    try:
        names = sorted(entry.name for entry in os.scandir(where))
    except OSError:
        return []
    stray = [name for name in names if name != "progress.json" and name not in listed]
    out = [f"{where / name} is not listed in progress.json: ignored"
           for name in stray[:MAX_WARNED]]
    if len(stray) > MAX_WARNED:
        out.append(f"{len(stray) - MAX_WARNED} more entries of {where} are not listed in "
                   "progress.json: ignored")
    return out


@dataclass
class _Plan:
    """What a build writes: per block index, the span of levels its file will hold."""

    spans: dict[int, tuple[int, int]]
    valid: dict[int, BlockFile]  # listed block files whose bytes match their SHA-256
    keep: dict[int, BlockFile]  # those of them that stay as they are
    rows: dict[int, list[_Row]]  # the band report rows of the valid files
    notes: list[str]


def _plan(files: list[BlockFile], out: Path, first: int, last: int, block: int,
          seed: int) -> _Plan:
    spans: dict[int, tuple[int, int]] = {}
    valid: dict[int, BlockFile] = {}
    rows: dict[int, list[_Row]] = {}
    notes: list[str] = []
    for f in files:
        b = _block_of(f.first, block)
        try:
            rows[b] = _read_block(out, f, seed)[1]
        except FileRefused as exc:
            notes.append(f"{f.name} {exc.reason}: rebuilding it")
        else:
            valid[b] = f
        spans[b] = (f.first, f.last)
    keep = dict(valid)
    for b in range(_block_of(first, block), _block_of(last, block) + 1):
        lo = max(first, b * block + 1)
        hi = min(last, (b + 1) * block)
        if b in spans:
            # A block file holds one contiguous span: a wider request widens it (gaps filled).
            lo, hi = min(lo, spans[b][0]), max(hi, spans[b][1])
            if (lo, hi) != spans[b] and b in keep:
                del keep[b]
        spans[b] = (lo, hi)
    return _Plan(spans, valid, keep, rows, notes)


def _executor(workers: int, scheduler: str | None) -> tuple[cf.Executor | None, Any]:
    """An executor for level tasks: None (this process) for one local worker, a process pool
    for several, or a Dask cluster's executor; and the Dask client to close (or None)."""
    if scheduler is not None:
        try:
            # Imported by name: Dask is an optional extra, and has no type information.
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise GridforgeError("--scheduler needs Dask: pip install 'gridforge[cluster]'"
                                 ) from None
        try:
            client = distributed.Client(scheduler, timeout="20s")
        except OSError as exc:
            raise GridforgeError(f"--scheduler: cannot reach {scheduler}: {exc}") from None
        executor: cf.Executor = client.get_executor(pure=False)
        return executor, client
    if workers <= 1:
        return None, None
    return cf.ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts), None


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to the builder, which stops it (no traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_workers(executor: cf.Executor) -> None:
    """Stop a local pool's workers now, running levels included (shutdown alone waits for
    them; Python has no public call for this before 3.14's ``terminate_workers``)."""
    # Taken before the shutdown, which forgets them (then the running levels were waited
    # for at exit: Ctrl-C took as long as the slowest level in flight).
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(5)


def _fmt_seconds(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds} s"


def _check_build_arguments(seed: object, levels: object, first: object, last: object,
                           workers: object, block: object) -> None:
    """:raises GridforgeError: naming the first argument of a build that is out of range."""
    if not is_int(seed) or not 0 <= seed < 2**31:
        raise GridforgeError(f"--seed: an integer in 0..2**31-1, got {seed!r}")
    if not (is_int(first) and is_int(last) and 1 <= first <= last <= LEVELS):
        raise GridforgeError(f"--levels: a range inside 1..{LEVELS}, got {levels!r}")
    if not is_int(workers) or not 1 <= workers <= 256:
        raise GridforgeError(f"--workers: an integer in 1..256, got {workers!r}")
    if not is_int(block) or not 1 <= block <= LEVELS:
        raise GridforgeError(f"block: an integer in 1..{LEVELS}, got {block!r}")


def _resumed_files(out: Path, seed: int, block: int, resume: bool) -> list[BlockFile]:
    """The block files ``out``'s progress.json lists (none without one).

    :raises GridforgeError: when it exists and ``resume`` is false, or lists another seed.
    """
    state_path = out / "progress.json"
    if not os.path.lexists(state_path):  # (a dangling symbolic link exists too)
        return []
    if not resume:
        raise GridforgeError(f"{state_path} exists: pass --resume to go on with it")
    old_seed, _block, files = _read_progress(out, block)
    if old_seed != seed:
        raise GridforgeError(f"--seed: {state_path} was built with seed {old_seed}, not {seed}")
    return files


def build_mainline(out_dir: str | os.PathLike[str], seed: int = 2026,
                   levels: tuple[int, int] = (1, LEVELS), *, resume: bool = False,
                   workers: int = 1, scheduler: str | None = None,
                   progress: Progress = NO_PROGRESS, block: int = BLOCK,
                   count: int | None = None) -> BuildState:
    """Build main-line levels ``levels[0]..levels[1]`` into ``out_dir``: block files
    ``main-NNNN-NNNN.json`` and ``progress.json``; returns the progress data with ``notes``
    (what resume found and rebuilt), ``warnings`` (entries of ``out_dir`` that are not
    listed, and so never read) and ``built`` (levels designed by this run).

    ``workers`` local processes share the levels (one: this process); ``scheduler`` sends them
    to a Dask cluster instead. Either way a block's bytes are the same. ``count`` (the older
    keyword) means ``levels=(1, count)``.

    :raises GridforgeError: for bad arguments; when ``out_dir`` holds a main line and
        ``resume`` is false; when ``resume`` meets one of another seed or block size.
    :raises ValidationError: when ``progress.json`` is not valid (each bad field named).
    :raises GridforgeError: when ``progress.json`` is a symbolic link or not a regular file,
        and when a file cannot be written (named; nothing half-written stays behind).
    :raises Cancelled: when ``progress`` asks to stop; finished blocks stay saved and listed.
    """
    first, last = (1, count) if count is not None else levels
    _check_build_arguments(seed, levels, first, last, workers, block)
    out = Path(out_dir)
    state_path = out / "progress.json"
    files = _resumed_files(out, seed, block, resume)
    executor, client, plan = _start(out, files, (first, last), block, seed, workers, scheduler)
    records = dict(plan.valid)  # a valid file stays listed until its replacement is written
    rows = dict(plan.rows)  # the band report rows of the listed files
    todo = {b: span for b, span in plan.spans.items() if b not in plan.keep}
    wanted = [n for b in sorted(todo) for n in range(todo[b][0], todo[b][1] + 1)]
    results: dict[int, tuple[LevelJson, Certificate]] = {}
    cpu: dict[int, float] = {}  # each level's design in CPU seconds (printed, never written)
    total = len(wanted)
    started = time.monotonic()
    running: dict[int, float] = {}

    pace: list[tuple[float, int]] = [(started, 0)]  # (when, levels done) as levels come in

    def report(label: str = "") -> None:
        done = len(results)
        now = time.monotonic()
        if done != pace[-1][1]:
            pace.append((now, done))
            del pace[:-PACE_WINDOW]
        left = ""
        if done and done < total:
            # The recent pace, not the whole run's: later levels cost more than early ones.
            (t0, d0), (t1, d1) = pace[0], pace[-1]
            per = (t1 - t0) / max(1, d1 - d0)
            left = f"; about {_fmt_seconds(per * (total - done))} left"
        slow = ""
        if running:
            n0 = min(running, key=lambda k: running[k])
            slow = f"; slowest: level {n0} ({_fmt_seconds(time.monotonic() - running[n0])})"
        progress.step(done, max(total, 1), label or f"levels{slow}{left}")

    def finish_blocks() -> None:
        for b in sorted(todo):
            lo, hi = todo[b]
            if all(n in results for n in range(lo, hi + 1)):
                old = records.get(b)
                new, new_rows = _write_block(out, seed, lo, hi, results)
                _write_progress(state_path, seed, block, {**records, b: new})
                records[b], rows[b] = new, new_rows
                del todo[b]
                if old is not None and old.name != records[b].name:
                    # The narrower block file this one replaces: a validated name of the
                    # builder's own pattern, so the path is inside ``out``.
                    (out / old.name).unlink(missing_ok=True)

    try:
        for note in plan.notes:
            report(note)
        _design_wanted(executor, client, wanted, seed, workers, results, cpu, running, report,
                       finish_blocks)
    except KeyboardInterrupt:
        raise Cancelled(f"stopped by Ctrl-C with {_kept(records)}: run the same command with "
                        "--resume to go on") from None
    except WriteError as exc:  # a full disk, say: the temporary file is already removed
        raise GridforgeError(f"{exc}; {_kept(records)}: make room and run the same command "
                             "with --resume to go on") from None
    except cf.BrokenExecutor:  # (a broken process pool; the name needs no multiprocessing)
        raise GridforgeError(f"a worker process ended abruptly (killed, or out of memory) with "
                             f"{_kept(records)}: run the same command with --resume to go on"
                             ) from None
    finally:
        _shut_down(executor, client)
    report("done")
    # From what was checked or written, not read back: nothing unlisted is ever read.
    return {**_progress_json(seed, block, records), "notes": plan.notes,
            "warnings": _unlisted(out, {f.name for f in records.values()}), "built": total,
            "cpu_seconds": sum(cpu.values()),
            "bands": _band_table({records[b].first: rows[b] for b in records}, 100)}


def _start(out: Path, files: list[BlockFile], levels: tuple[int, int], block: int, seed: int,
           workers: int, scheduler: str | None) -> tuple[cf.Executor | None, Any, _Plan]:
    """Reach the workers, then make ``out`` and plan the build in it, listing the files kept
    in ``progress.json``: the executor, the Dask client and the plan. The workers come
    first, so that a build that cannot start leaves no folder behind."""
    executor, client = _executor(workers, scheduler)
    try:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WriteError(out, exc) from None
        plan = _plan(files, out, levels[0], levels[1], block, seed)
        _write_progress(out / "progress.json", seed, block, dict(plan.valid))
    except BaseException:
        _shut_down(executor, client)
        raise
    return executor, client, plan


def _design_wanted(executor: cf.Executor | None, client: Any, wanted: list[int], seed: int,
                   workers: int, results: dict[int, tuple[LevelJson, Certificate]],
                   cpu: dict[int, float], running: dict[int, float],
                   report: Callable[[], None], finish_blocks: Callable[[], None]) -> None:
    """Design the ``wanted`` levels into ``results`` (their CPU seconds into ``cpu``), in this
    process when ``executor`` is None, else on it; ``running`` holds the levels in progress
    with their start times, ``finish_blocks`` writes every block whose levels are all in."""
    if executor is None:
        for n in wanted:
            running.clear()
            running[n] = time.monotonic()
            report()
            level, cert, cpu[n] = designed(n, seed)
            results[n] = level, cert
            running.clear()
            finish_blocks()
        return
    if client is not None:  # one task in flight per thread of the cluster
        workers = max(workers, sum(client.nthreads().values()))
    _run_pool(executor, wanted, seed, workers, results, cpu, running, report, finish_blocks)


def _shut_down(executor: cf.Executor | None, client: Any) -> None:
    """Stop the workers of a build, or close its Dask client."""
    if client is not None and executor is not None:
        executor.shutdown(wait=False)  # Dask's executor cancels nothing on its own
        client.close()
    elif executor is not None:
        _stop_workers(executor)


def _kept(records: dict[int, BlockFile]) -> str:
    done = sum(f.last - f.first + 1 for f in records.values())
    return f"{done} levels kept in {len(records)} block files"


def designed(n: int, seed: int) -> tuple[LevelJson, Certificate, float]:
    """:func:`design_level` and the CPU seconds it took in the process that ran it (what a
    build costs, whichever machines share it; the seconds go to the summary, not the files)."""
    started = time.process_time()
    level, cert = design_level(n, seed)
    return level, cert, time.process_time() - started


def _run_pool(executor: cf.Executor, wanted: list[int], seed: int, workers: int,
              results: dict[int, tuple[LevelJson, Certificate]], cpu: dict[int, float],
              running: dict[int, float], report: Callable[[], None],
              finish_blocks: Callable[[], None]) -> None:
    """Keep ``workers`` level tasks in flight (so that 'running' means running), in level
    order, and write each block as soon as its levels are in."""
    queue = list(reversed(wanted))
    flight: dict[cf.Future[tuple[LevelJson, Certificate, float]], int] = {}
    while queue or flight:
        while queue and len(flight) < workers:
            n = queue.pop()
            flight[executor.submit(designed, n, seed)] = n
            running[n] = time.monotonic()
        done, _ = cf.wait(list(flight), timeout=1.0, return_when=cf.FIRST_COMPLETED)
        for future in sorted(done, key=lambda f: flight[f]):
            n = flight.pop(future)
            del running[n]
            level, cert, cpu[n] = future.result()
            results[n] = level, cert
        report()
        if done:
            finish_blocks()


def _write_block(out: Path, seed: int, lo: int, hi: int,
                 results: dict[int, tuple[LevelJson, Certificate]]
                 ) -> tuple[BlockFile, list[_Row]]:
    name = block_name(lo, hi)
    data: Batch = {"format": BATCH_FORMAT,
            "request": {"mainline": MAINLINE_FORMAT, "seed": seed, "levels": [lo, hi]},
            "levels": [results[n][0] for n in range(lo, hi + 1)],
            "certificates": [results[n][1] for n in range(lo, hi + 1)]}
    text = dumps(data, indent=1)
    write_text(out / name, text)
    rows = [_row(n, *results[n]) for n in range(lo, hi + 1)]
    return BlockFile(name, lo, hi, hashlib.sha256(text.encode("utf-8")).hexdigest()), rows


def _progress_json(seed: int, block: int, records: dict[int, BlockFile]) -> ProgressFile:
    files = [records[b] for b in sorted(records)]
    return {"format": PROGRESS_FORMAT, "seed": seed, "block": block,
            "done": sum(f.last - f.first + 1 for f in files),
            "files": [f.to_json() for f in files], "version": __version__}


def _write_progress(path: Path, seed: int, block: int, records: dict[int, BlockFile]) -> None:
    write_text(path, dumps(_progress_json(seed, block, records), indent=1))
