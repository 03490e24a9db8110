"""The main line's curriculum (seed 004, section 4; spec section 8): what each of the 2000
levels asks for.

- levels 1-11 teach head, tail and turns, one idea a level (:data:`LESSONS`, named in the
  level's ``meta.lesson`` and checked on the certified solution by
  :mod:`~gridforge.snakes.design.line_rules`);
- 12, 18, 24, 30 and 36 teach coats, frozen bodies, frozen holes, keys and gold locks
  (:data:`TEACHING`) with short straight bodies, the mechanic visible and costing steps;
  these and the lessons come from design requests (:func:`level_plan`, templates asked only
  for targets inside their measured reach, :data:`REACH`);
- every other level is built from motifs (:func:`motif_plan`,
  :mod:`~gridforge.snakes.design.motif_line`): small chambers whose joint steps (spec 5c)
  add up to a target that climbs through the line (:func:`motif_line.joint_target`), in
  waves of ten whose tenth level is a breather; 42 and 48 teach coloured paths and bridges
  (:data:`TERRAIN_TEACHING`); a mechanic or a terrain piece, once taught, comes back on a
  fixed share of levels (:func:`recurs`, :func:`pieces_due`), rising with the level;
- from level 11 on no level but a breather is solved one body at a time, every level is
  legible and proven minimal; at most 8 colours, drawn from 0..9 (the limits are here, the
  checks in :mod:`~gridforge.snakes.design.line_rules`).

A lesson or teaching level that fails on its eligible templates falls back by a fixed rule:
the target is lowered by :data:`FALLBACK_STEP` and templates are tried again, at most
:data:`FALLBACK_ROUNDS` times, then the curriculum's own rules are relaxed to the designer's
(:data:`LAST_RESORT_TARGET`); what happened is recorded in the level's ``meta.fallback``.

Pure data and arithmetic: it imports only the templates' names and the motif line's targets,
nothing that builds, judges, reads or writes a level.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Generator
from dataclasses import dataclass

from gridforge.errors import GridforgeError, is_int
from gridforge.jsontypes import JsonObject
from gridforge.snakes.design.motif_line import MotifPlan, joint_target
from gridforge.snakes.design.templates import TEMPLATES
from gridforge.snakes.game.mainline import LEVELS

__all__ = [
    "LESSONS",
    "LEVELS",
    "REACH",
    "TEACHING",
    "TERRAIN_TEACHING",
    "Attempt",
    "breather",
    "level_plan",
    "level_target",
    "makes_way",
    "mechanic_fields",
    "motif_plan",
    "pieces_due",
    "recurs",
]


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


def makes_way(n: int) -> bool:
    """Whether main-line level ``n`` is asked to make way (spec section 5b)."""
    return (n >= 11 or n in MAKE_WAY_LESSONS) and not breather(n)


def breather(n: int) -> bool:
    """Whether main-line level ``n`` is a breather: the tenth of its wave from level 11 on
    (teaching levels excepted). A breather carries no mechanic and may be solved one body at
    a time; its ``meta.breather`` says so."""
    return n > 11 and n % 10 == 0 and n not in TEACHING


def mechanic_fields(n: int) -> dict[str, int | None]:
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
    request.update({k: v for k, v in mechanic_fields(n).items() if v is not None})
    # A mechanic's lesson: short straight bodies (legible), a locked body and its key
    # carriers and one more.
    counts = {12: 2, 18: 3, 24: 3, 30: 3, 36: 4}
    if n in counts:
        request["bodies"] = {"count": counts[n], "min_length": 2, "max_length": LEGIBLE_BODY}
    # What makes a level a puzzle (spec section 5b): from level 11 on a body must make way,
    # every frozen body, frozen hole and lock binds, and every lesson is proven minimal.
    if makes_way(n):
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
        if n in TEACHING:  # the request's own fields (:func:`mechanic_fields`)
            shown = {name for name, value in mechanic_fields(n).items() if value == 1}
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
