"""Main-line levels on one board (issue 50, the fourth build): from level 101 a level is one
idea (:mod:`~gridforge.snakes.design.interlock`) on a seed template, its bodies needing each
other, its depth climbing with the level.

- **The plan** (:func:`board_plan`): the template comes from a rotation of the nine
  connected seed templates, shuffled per chapter of :data:`CHAPTER` levels by the line's seed,
  so no template holds more than its share of a band; the joint-step target climbs as a
  square root from :data:`JOINT_FROM_101` to :data:`JOINT_TOP` with waves of ten, the board and
  the body count growing with it; beyond-pairs steps are asked from :data:`BEYOND_FROM`, a
  must-move chain of two on narrow templates (corridors and bays) and of three on some from
  :data:`CHAIN3_FROM`. The tenth level of a wave is a breather: small and kind. Every
  :data:`PIECE_EVERY`-th level carries a mechanic or terrain piece, in turn, placed where it
  costs the most steps (at least two: :mod:`~gridforge.snakes.design.costs`), with its
  witness (the idea's minimal solution, which the piece refuses).
- **Chains** (:func:`chain_idea`): the levels of one template in one chapter are a chain;
  a chain's first idea is climbed afresh, every next one from the idea before it (one
  random move, then a sideways climb to a layout the chain has not had): on deep templates
  a few layouts where a fresh climb takes hundreds.
- **The level** (:func:`board_level`): its chain's idea, else the first seeded climb that
  meets the plan (on its template, then on the next ones of the rotation); its colours drawn
  from the palette;
  certified by the designer's :func:`~gridforge.snakes.design.certify.certify` from the
  climb's proven solution (the exact search re-proves it within :data:`PROOF_STATES`);
  ``meta.template`` names the template it was built on.

Everything is a function of the line's seed and the level's number; every search counts
states, never seconds.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from gridforge.errors import GridforgeError
from gridforge.jsontypes import JsonObject
from gridforge.snakes.design.certify import certify
from gridforge.snakes.design.costs import PIECES, costly
from gridforge.snakes.design.interlock import (
    LENGTHS,
    NARROW,
    NO_CLOCK,
    STEPS_PER_JOINT,
    Idea,
    Request,
    build_idea,
    continue_idea,
)
from gridforge.snakes.design.line_plan import breather
from gridforge.snakes.design.stretch import StretchType, main_stretch
from gridforge.snakes.game.certfile import Certificate, Witness
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.levelfile import LevelJson

__all__ = ["BOARD_FROM", "BOARD_TEMPLATES", "BoardPlan", "board_level", "board_plan", "chain_idea"]

LEVELS = 2000
BOARD_FROM = 101  # the first level built on one board
CHAPTER = 100  # levels over which the template rotation is shuffled
# The connected seed templates (spec 6b; ``split`` is two regions, ``mixed`` a choice).
BOARD_TEMPLATES = ("courtyard", "notched", "stepped", "cross", "island", "twin", "winding",
                   "comb", "pillars")
JOINT_FROM_101 = 4.0  # the joint-step target at level 101
JOINT_TOP = 16.0  # the base target at level 2000 (a wave's last levels reach 18)
WAVE_RISE = 0.5  # joint steps a wave adds from one level to the next
BEYOND_FROM = 201  # the first level that asks beyond-pairs steps
DENSE_FROM = 301  # the first level that asks at most STEPS_PER_JOINT steps per joint step
CHAIN3_FROM = 1001  # the first level whose narrow boards may ask a chain of three
ATTEMPTS = 4  # seeded climbs of the planned template for one level
FALLBACKS = 2  # templates tried next (twice each) before a level gives up
PROOF_STATES = 60_000  # states the certificate's exact search may store
MAX_STEPS = 100  # certificate steps of any level (legibility)
MAX_OCCUPANCY = 0.55  # (body cells + holes) / floor cells of any level (legibility)
PIECE_EVERY = 3  # every third level that is not a breather carries a piece


@dataclass(frozen=True)
class BoardPlan:
    """What main-line level ``number`` asks of the board builder."""

    number: int
    template: str
    bodies: int
    area: int
    joint: int
    beyond: int
    chain: int
    breather: bool
    piece: str | None = None  # a mechanic or terrain piece the level carries (costs.PIECES)


def joint_target(n: int) -> int:
    """The joint steps level ``n`` aims at: a square-root climb from :data:`JOINT_FROM_101`
    to :data:`JOINT_TOP` plus :data:`WAVE_RISE` per position in its wave; a breather asks
    a quarter of the base."""
    x = max(0, n - BOARD_FROM) / (LEVELS - BOARD_FROM)
    base = JOINT_FROM_101 + (JOINT_TOP - JOINT_FROM_101) * math.sqrt(x)
    if breather(n):
        return int(base / 4)
    return max(2, round(base + WAVE_RISE * ((n - 1) % 10 - 3)))


def template_of(n: int, seed: int) -> str:
    """Level ``n``'s template: the rotation of :data:`BOARD_TEMPLATES`, its order shuffled
    afresh for every chapter by the line's seed."""
    chapter = (n - 1) // CHAPTER
    order = list(BOARD_TEMPLATES)
    random.Random(seed * 7_919 + chapter).shuffle(order)
    return order[(n - 1) % len(order)]


def board_plan(n: int, seed: int) -> BoardPlan:
    """The plan of main-line level ``n`` (>= :data:`BOARD_FROM`) of the line of ``seed``."""
    if not BOARD_FROM <= n <= LEVELS:
        raise ValueError(f"board levels are {BOARD_FROM}..{LEVELS}, got {n}")
    template = template_of(n, seed)
    joint = joint_target(n)
    if breather(n):
        return BoardPlan(n, template, 3, 22, joint, 0, 0, True)
    piece = PIECES[(n // PIECE_EVERY) % len(PIECES)] if n % PIECE_EVERY == 0 else None
    # Depth comes from crowding, not room: at joint 14 five bodies on 52 cells reached 6-10
    # on comb boards, six bodies on 40 cells 19 (docs/snakes-interlock.md).
    bodies = 3 if joint < 7 else 4 if joint < 10 else 5 if joint < 13 else 6
    area = min(24 + 2 * joint, 40)
    beyond = 2 if n >= BEYOND_FROM else 0
    narrow = template in NARROW
    chain = (3 if n >= CHAIN3_FROM and n % 3 == 0 else 2) if narrow else 1
    return BoardPlan(n, template, bodies, area, joint, beyond, chain, False, piece)


def most_joint(joint: int) -> int:
    """The most joint steps a level aiming at ``joint`` may take: an idea far past its
    target (a winding corridor gave 61 for 8) would put the line's hardest levels anywhere."""
    return joint + 3 + joint // 2


def chain_before(n: int, seed: int) -> int | None:
    """The level before ``n`` in its chain: the last earlier level of the same chapter on the
    same planned template (breathers and lessons are in no chain); None for a chain's first."""
    template = template_of(n, seed)
    first = max(BOARD_FROM, (n - 1) // CHAPTER * CHAPTER + 1)
    for m in range(n - 1, first - 1, -1):
        if not breather(m) and template_of(m, seed) == template:
            return m
    return None


@functools.cache
def chain_idea(n: int, seed: int) -> tuple[Idea, frozenset[StretchType]] | None:
    """Level ``n``'s idea in its chain, and the main-region stretch types its chain has had up
    to it; None for a breather, or when no idea meets the plan.

    A chain is the levels of one template in one chapter: a chain's first idea is climbed
    afresh, every next one from the idea before it (:func:`~gridforge.snakes.design.interlock.
    continue_idea`: one random move, then a sideways climb to a layout no level of the chain
    had). An idea near
    one that meets a request mostly meets the next level's, so a chain's later levels cost a
    few layouts where a fresh climb costs hundreds. A pure function of ``n`` and ``seed``; a
    process builds each chain's ideas once (cached)."""
    plan = board_plan(n, seed)
    if plan.breather:
        return None
    rng = random.Random(seed * 1_000_003 + n * 7_919 + 7)
    request = _request(plan, rng)
    before = chain_before(n, seed)
    held = chain_idea(before, seed) if before is not None else None
    if held is not None and len(held[0].layout[0]) == plan.bodies:
        last, types = held
        idea = continue_idea(replace(request, lengths=tuple(map(len, last.layout[0]))), last,
                             rng, lambda data: main_stretch(data) not in types)
        if idea is not None:
            return idea, types | {main_stretch(idea.level_json())}
    idea = build_idea(request, rng)
    if idea is None:
        return None
    return idea, frozenset((main_stretch(idea.level_json()),))


def _request(plan: BoardPlan, rng: random.Random) -> Request:
    lengths = tuple(rng.choice(LENGTHS[plan.template]) for _ in range(plan.bodies))
    dense = plan.number >= DENSE_FROM and not plan.breather
    # Legibility: body cells and holes on at most MAX_OCCUPANCY of the floor.
    area = max(plan.area, math.ceil((sum(lengths) + len(lengths)) / MAX_OCCUPANCY))
    return Request(plan.template, area, lengths, plan.beyond, plan.joint, plan.chain,
                   max_steps=MAX_STEPS, steps_per_joint=STEPS_PER_JOINT if dense else None,
                   most_joint=plan.joint + 1 if plan.breather else most_joint(plan.joint))


def _coloured(idea: Idea, rng: random.Random) -> LevelJson:
    """The idea's level with its local colours mapped to distinct palette colours."""
    data = idea.level_json()
    palette = rng.sample(range(6), len(data["bodies"]))
    for body in data["bodies"]:
        body["colors"] = [palette[c] for c in body["colors"]]
    for hole in data["holes"]:
        hole["color"] = palette[hole["color"]]
    return data


def board_level(plan: BoardPlan, seed: int) -> tuple[LevelJson, Certificate]:
    """The level of ``plan`` and its certificate: the first idea (its chain's, then seeded
    climbs: :func:`_ideas`) whose minimum the certificate proves, with the plan's piece placed
    where it costs steps; when no idea takes the piece, the first idea without it
    (``meta.piece`` names a piece only where one was placed).

    :raises GridforgeError: when no climb meets the plan.
    """
    plain: tuple[LevelJson, Certificate] | None = None
    for template, idea, rng in _ideas(plan, seed):
        data = _coloured(idea, rng)
        if plain is None:
            plain = _certified(plan, template, seed, data, idea.measure.solution, [])
            if plan.piece is None and plain is not None:
                return plain
        placed = costly(data, plan.piece, idea.measure.minimum) if plan.piece else None
        if placed is None:
            continue  # no place where the piece costs steps: another idea
        # The idea's own minimal solution is a witness: shorter than the real minimum, so
        # the real rules refuse it, and the level without the piece takes it.
        witnesses: list[Witness] = [] if plan.piece == "bridges" else [{
            "mechanic": placed.mechanic,
            "solution": [[b, end, d] for b, end, d in idea.measure.solution]}]
        made = _certified(plan, template, seed, placed.level, placed.solution, witnesses)
        if made is not None:
            made[0]["meta"]["piece"] = plan.piece
            return made
    if plain is not None:
        return plain
    raise GridforgeError(f"main-line level {plan.number}: no board level in "
                         f"{len(_templates(plan))} attempts ({plan.template} and "
                         f"{FALLBACKS} others, joint {plan.joint})")


def _certified(plan: BoardPlan, template: str, seed: int, data: LevelJson,
               solution: Sequence[Sequence[object]], witnesses: list[Witness]
               ) -> tuple[LevelJson, Certificate] | None:
    """``data`` with its meta and its certificate from ``solution`` (which must prove
    minimal), or None when the certificate's search does not prove it."""
    level = level_from_json(data)
    steps = [list(s) for s in solution]
    cert = certify(level, solution=steps, max_states=PROOF_STATES, max_seconds=NO_CLOCK)
    if not cert["optimal"] or cert["steps"] != len(steps):
        return None
    if witnesses:
        cert["witnesses"] = witnesses
    meta: JsonObject = {"id": f"main-{plan.number:04d}", "template": template,
                        "target": plan.joint, "seed": seed, "level": plan.number}
    if plan.breather:
        meta["breather"] = True
    out: LevelJson = {**data, "meta": meta}
    return out, cert


def _templates(plan: BoardPlan) -> list[str]:
    """The templates a level's attempts try: its own :data:`ATTEMPTS` times, then each of
    the next :data:`FALLBACKS` of the rotation twice (an open template that gives no idea
    of the plan's depth leaves the level to a narrower one; ``meta.template`` says which)."""
    i = BOARD_TEMPLATES.index(plan.template)
    others = [BOARD_TEMPLATES[(i + k) % len(BOARD_TEMPLATES)] for k in range(1, FALLBACKS + 1)]
    return [plan.template] * ATTEMPTS + [t for t in others for _ in range(2)]


def _ideas(plan: BoardPlan, seed: int) -> Iterator[tuple[str, Idea, random.Random]]:
    """The ideas a level tries in turn, each with the random source that colours it: its
    chain's (:func:`chain_idea`), then a fresh climb on each of :func:`_templates`."""
    chained = chain_idea(plan.number, seed)
    if chained is not None:
        yield plan.template, chained[0], random.Random(seed * 1_000_003 + plan.number * 7_919 + 11)
    for attempt, template in enumerate(_templates(plan)):
        rng = random.Random(seed * 1_000_003 + plan.number * 7_919 + attempt * 104_729)
        idea = build_idea(_request(replace(plan, template=template), rng), rng)
        if idea is not None:
            yield template, idea, rng
