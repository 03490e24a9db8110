"""Main-line levels on one board (issue 50; the "board" edition of the line): from level 101
a level is one idea (:mod:`~gridforge.snakes.design.interlock`) on a seed template, its
bodies needing each other, its depth climbing with the level.

- **The plan** (:func:`board_plan`): each chapter of :data:`CHAPTER` levels interleaves the
  nine connected seed templates (:func:`chapter_order`), the deep ones (:data:`DEEP`:
  winding, comb, island, the only ones whose climbs reach the line's high end) taking
  :data:`DEEP_FROM` at level 101, the open ones the rest equally, the shares moving evenly
  to :data:`LATE_SHARES` (by reach and CPU) at chapter :data:`SHARES_FULL`, none more than
  a quarter. The joint-step target climbs from :data:`JOINT_FROM_101` to :data:`JOINT_TOP`
  (the level's place to the power :data:`JOINT_POWER`; the last two arcs rise
  :data:`LATE_RISE` more) with waves of ten; the body count
  follows the wave's top, the board grows with the target;
  beyond-pairs steps are asked from :data:`BEYOND_FROM`, at most
  :func:`idea_steps_per_joint` steps per joint step from :data:`DENSE_FROM` (pieces bring
  a level under :data:`RATIO_AIM`), an idea at most :data:`LINE_OVERSHOOT` joint steps past
  its target, a must-move chain of two on narrow templates and of three on some from
  :data:`CHAIN3_FROM`.
  The tenth level of a wave is a breather: small and kind, at :data:`BREATHER_SHARE` of
  the base target. Open
  templates are asked at most :data:`OPEN_CEILING` joint steps and carry a piece from
  :data:`OPEN_PIECES_FROM`; every
  :data:`PIECE_EVERY`-th level and every level from :data:`ALL_PIECES_FROM` carries one too.
- **Pieces** (:func:`piece_aim`): a mechanic or terrain piece is placed where it costs about
  what the idea falls short of the level's target and what brings it under
  :data:`RATIO_AIM` steps per joint step (at least two steps:
  :mod:`~gridforge.snakes.design.costs`), the plan's piece or the next that does, with its
  witness (the idea's minimal solution, which the piece refuses); a level still short of its
  target takes more pieces of other kinds, each measured on the level with the ones before
  it (:func:`_more_pieces`, at most :data:`MOST_PIECES`), every piece still costing two
  steps on the final level, with its witness there
  (:func:`~gridforge.snakes.design.costs.lifted`).
- **Lanes** (:func:`line_level`): a template's levels in an arc (:data:`ARCS`) are a
  lane; its first idea is climbed afresh, every next one continued on the same board from
  the idea before it, and never a layout or main-region stretch type the lane had. Arcs are
  independent, so a build's tasks are lanes.
- **The level** (:func:`board_level` for a breather, else its lane): the first idea that
  makes a level: the lane's continuation, then seeded climbs on its template, then on its
  own at fewer joint steps, then on the deep ones (:func:`_attempts`); coloured from the palette,
  certified by :func:`~gridforge.snakes.design.certify.certify` from the climb's proven
  solution (the exact search re-proves it within :data:`PROOF_STATES`); ``meta.template``
  names the template it was built on.

Everything is a function of the line's seed and the level's number; every search counts
states, never seconds.
"""

from __future__ import annotations

import copy
import functools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from gridforge.errors import GridforgeError
from gridforge.jsontypes import JsonObject
from gridforge.snakes.design.certify import certify
from gridforge.snakes.design.costs import LEAST_COST, PIECES, Costly, costly, lifted
from gridforge.snakes.design.interlock import (
    LENGTHS,
    NARROW,
    NO_CLOCK,
    Idea,
    Measure,
    Request,
    build_idea,
    continue_idea,
)
from gridforge.snakes.design.line_plan import breather
from gridforge.snakes.design.score import score_level
from gridforge.snakes.design.stretch import StretchType, layout_key, main_stretch
from gridforge.snakes.game.certfile import Certificate, Witness
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.levelfile import LevelJson, Step

__all__ = ["BOARD_FROM", "BOARD_TEMPLATES", "BoardPlan", "board_level", "board_plan", "lane_levels",
           "line_level", "piece_of"]

LEVELS = 2000
BOARD_FROM = 101  # the first level built on one board
CHAPTER = 100  # levels over which the template rotation is shuffled
# The first level of each arc: a template's levels in an arc are one lane. Four hundred
# levels each but the third: the fourth starts at 1201 with fresh boards, the score floor and
# the finale's rise (LATE_FROM), so that levels 1-1200, built before them, keep their bytes.
ARCS = (101, 501, 901, 1201, 1601)
LATE_FROM = ARCS[3]
# The connected seed templates (spec 6b; ``split`` is two regions, ``mixed`` a choice).
BOARD_TEMPLATES = ("courtyard", "notched", "stepped", "cross", "island", "twin", "winding",
                   "comb", "pillars")
JOINT_FROM_101 = 4.0  # the joint-step target at level 101
JOINT_TOP = 16.0  # the climb's base target at level 2000, before the finale's rise
# Joint steps the base gains over the fourth and fifth arcs on top of the climb (linearly
# from LATE_FROM: 18 at level 2000, a wave's last levels 21). The line's residuals from its
# plan (901-1200: sd 2-3 a template, open ones 1-4.5 short, deep ones 2 over) left a
# modelled whole-line rank correlation of 0.66 (0.62 at the auditor's tenth percentile of
# 15 samples a band of 250); this rise gave 0.70 (0.67) and the last band a margin over 14.
LATE_RISE = 2.0
# The climb's shape: a square root (0.5) rose to 9.5 joint steps by level 500, where the open
# templates' levels stay (9-13 late, the deep ones 14-18): the line's middle and end looked
# alike (rank correlation modelled 0.63 against 0.70 at 0.75; 1.0 would put the median of
# levels 251-500 under 6).
JOINT_POWER = 0.75
WAVE_RISE = 0.5  # joint steps a wave adds from one level to the next
# A breather's share of the base target: at half, the line's rank correlation of joint steps
# with the level number modelled 0.59-0.62 with two pieces on open levels, at two thirds
# 0.61-0.63 (docs/snakes-interlock.md): a breather stays kind, a few steps under its wave.
BREATHER_SHARE = 2 / 3
BEYOND_FROM = 201  # the first level that asks beyond-pairs steps
DENSE_FROM = 201  # the first level that asks at most LINE_STEPS_PER_JOINT steps per joint step
# An idea's steps per joint step from DENSE_FROM: LINE_STEPS_PER_JOINT (a layout past it
# misses by one); on open templates falling to IDEA_STEPS_PER_JOINT over DENSE_RAMP levels,
# graded (the climb counts the joint steps a layout lacks, so it walks toward layouts with
# less walking). A piece that costs c steps then takes a level from m/j to
# (m + c)/(j + c), under RATIO_AIM. Open climbs asked 4.0 met it at levels 504-546 at no
# more CPU than without (with their pieces 3.35 on notched and 2.7 on twin, where 6.0 and
# 4-5 before); a winding climb asked 4.0 had not met it after 8 CPU min (at 5.0 and its
# piece: 3.2-3.8). The fall is gradual: shorter solutions score lower (the steps term), and
# the score's band medians may not fall by 3.
LINE_STEPS_PER_JOINT = 5.0
IDEA_STEPS_PER_JOINT = 4.0
DENSE_RAMP = 200
AREA_BASE = 24  # a level's floor: AREA_BASE + 2 per joint step, at most AREA_TOP
# Crowded, not roomy: five bodies on 32 cells met joint 14-18 on winding, comb and island at
# 1701-1718 and scored 53-65, where six on 40 scored 37-41 on island (a two-wide ring has no
# narrow point: the score's space term) at 2-4 times the CPU.
AREA_TOP = 32
BODIES_TOP = 5  # the most bodies of a level (legibility, CPU: see AREA_TOP)
CHAIN3_FROM = 1001  # the first level whose narrow boards may ask a chain of three
ATTEMPTS = 3  # seeded climbs of the planned template for one level
# The templates whose climbs reach the line's high end (docs/snakes-interlock.md): a level
# whose own template gives no idea of its depth is tried on them next.
DEEP = ("winding", "comb", "island")
# The deep templates' share of chapter 2 (101-200), the open ones sharing the rest equally;
# the shares move evenly to LATE_SHARES (levels of a chapter) at chapter SHARES_FULL and
# stay. The line's hardest levels are the deep templates', so their share climbs with it.
# The line's rank correlation of joint steps with the level number, modelled from the
# lanes probed at 901-1762 (docs/snakes-interlock.md): a third deep throughout 0.42-0.45;
# a tenth rising to 0.72 at the end 0.54; full by chapter 10 0.60; with the open share
# leaning to twin and notched 0.63; with JOINT_POWER 0.75 as well 0.70.
DEEP_FROM = 0.1
SHARES_FULL = 10
# From chapter SHARES_FULL, by how far a template's levels reach late with their pieces
# (joint steps probed at 901-1762: winding 16-18, comb 12-18, island 10-18, twin 6-14,
# notched 9-13, cross 5-9, stepped 5-15, pillars 5-10, courtyard 2-11; asked 11, pillars
# and courtyard found no level on their own board) and what they cost (CPU s a level:
# island 18-51 where comb 9, winding 13-24, twin 8-18, notched 7) and how far they walk
# (certificate steps per joint step: winding 4.1-6.2, island 2.7-4.8, comb 3.0-4.0, the
# open ones 2.1-3.2; the issue asks a median of at most 3.5). Every template stays in every
# chapter.
LATE_SHARES = {"winding": 20, "comb": 24, "island": 16, "twin": 16, "notched": 14, "cross": 3,
               "stepped": 3, "pillars": 2, "courtyard": 2}
EASED = 3  # loose climbs at two joint steps fewer each, the last resort of a level
PROOF_STATES = 60_000  # states the certificate's exact search may store
MAX_STEPS = 100  # certificate steps of any level (legibility)
MAX_OCCUPANCY = 0.55  # (body cells + holes) / floor cells of any level (legibility)
PLACEMENTS = 24  # placements of a piece measured on one level (spread over all of them)
# Pieces measured on a level before it takes the best placed so far (more only while none
# costs steps): measured through all five, pieces took most of arc 1's CPU.
PIECE_TRIES = 3
# The most the steps-per-joint-step part of a piece's aim asks: a sparse idea asked 6-10
# steps of a piece that costs 2-4 on most placements.
DENSE_AIM_MOST = 4
# The most pieces a level carries: a level whose first piece leaves it short of its target
# takes more (the open templates' ideas stop at OPEN_CEILING; one piece costs at most 3-4
# on them, a second 0-4: docs/snakes-interlock.md).
MOST_PIECES = 3
# Placements of each further piece measured on a level: 24 took a twin level's pieces 15
# CPU s where 12 took 6.5 for the same pieces (1304).
MORE_PLACEMENTS = 12
PIECE_EVERY = 3  # every third level that is not a breather carries a piece
OPEN_PIECES_FROM = 201  # from here every level on an open template carries a piece
ALL_PIECES_FROM = 301  # from here every level but a breather carries a piece
# The templates whose climbs stop short of the line's high end (joint 5-9 at best where
# winding, comb and island reach 13-26; a fresh four-body climb met joint 5 on about a third
# of its seeds): their ideas are asked at most OPEN_CEILING joint steps, and their pieces
# carry the rest of the level's target.
OPEN = ("courtyard", "notched", "stepped", "cross", "twin", "pillars")
OPEN_CEILING = 5
# A deep template's idea is asked the line's base target (not the wave's), at most this
# (the line's medians must reach 14 from 1751): a lane's next idea then walks sideways at
# about the same depth (4-60 CPU s a level at 1702-1739, where climbs toward the wave's
# 14-18 took 100-250 s or failed), and the level's piece carries the wave.
DEEP_CEILING = 14
# An idea of the line may pass its target by at most this many joint steps (the designer's
# most_joint allows half the target more): the piece carries the wave, and ideas far past
# their targets (winding 101-237 reached 13-20 for 5-9) scattered the line's hardest levels.
LINE_OVERSHOOT = 2
# A lane's continuation is tried this many times before fresh climbs (the last loosened to
# LOOSE_OVERSHOOT, its density bound flat): a failed continuation cost up to ten fresh
# climbs (a stepped lane: 22-126 CPU s at 187, 232 and 316; retried, 5-6 s, and its levels
# from 316 kept their board: scores 32-43 where a deep template's fallback board gave 27-33).
CONTINUATIONS = 3
LOOSE_OVERSHOOT = 4
# From the fourth arc an idea on a swinging template must score (the seed's seven terms, on
# the idea alone) at least its floor, rising from SCORE_FLOOR at LATE_FROM to SCORE_FLOOR_TOP
# at level 2000. The line's score median sits where the deep templates (54-59) meet the open
# ones and breathers (29-47), so it followed the island and twin lanes, whose boards swing
# by arc (island 32-46 over 901-1100, 53 over 701-900): the median fell 3.15 from 1101-1200
# to 1201-1300. Their pieces add 2-3 points (levels 701-1300).
FLOORED = ("island", "twin")
SCORE_FLOOR = 46.0
SCORE_FLOOR_TOP = 49.0
# The certificate steps per joint step a piece aims to bring a level under (the issue asks a
# median of at most 3.5 from 301; an idea alone gave 4.8, a piece of 2 steps 3.6).
RATIO_AIM = 3.3


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


def climb(n: int) -> float:
    """The line's climb at level ``n``: from :data:`JOINT_FROM_101` to :data:`JOINT_TOP` as
    the level's place in the line to the power :data:`JOINT_POWER`."""
    x = max(0, n - BOARD_FROM) / (LEVELS - BOARD_FROM)
    return JOINT_FROM_101 + (JOINT_TOP - JOINT_FROM_101) * float(x ** JOINT_POWER)


def base_target(n: int) -> float:
    """The line's base joint-step target at level ``n``: its :func:`climb` and, from
    :data:`LATE_FROM`, :data:`LATE_RISE` more by level 2000 (linearly)."""
    return climb(n) + LATE_RISE * max(0, n - LATE_FROM) / (LEVELS - LATE_FROM)


def joint_target(n: int) -> int:
    """The joint steps level ``n`` aims at: :func:`base_target` plus :data:`WAVE_RISE` per
    position in its wave; a breather asks :data:`BREATHER_SHARE` of the base (kind, but
    climbing with the line: a breather that stays at two joint steps would hold the line's
    climb down), of the :func:`climb` alone (the finale's rise is not for breathers)."""
    base = base_target(n)
    if breather(n):
        return int(climb(n) * BREATHER_SHARE)
    return max(2, round(base + WAVE_RISE * ((n - 1) % 10 - 3)))


def piece_of(n: int, template: str) -> str | None:
    """The piece non-breather level ``n`` on ``template`` carries, or None: every
    :data:`PIECE_EVERY`-th level, every open template's level from :data:`OPEN_PIECES_FROM`
    and every level from :data:`ALL_PIECES_FROM` (the line's pieces rotate through
    :data:`~gridforge.snakes.design.costs.PIECES`)."""
    if (n % PIECE_EVERY == 0 or n >= ALL_PIECES_FROM
            or (n >= OPEN_PIECES_FROM and template in OPEN)):
        return PIECES[(n // PIECE_EVERY) % len(PIECES)]
    return None


def template_of(n: int, seed: int) -> str:
    """Level ``n``'s template: its chapter's order (:func:`chapter_order`)."""
    return chapter_order((n - 1) // CHAPTER, seed)[(n - 1) % CHAPTER]


def template_share(template: str, chapter: int) -> float:
    """The share of chapter ``chapter``'s levels (0: levels 1-100) planned on ``template``:
    in chapter 1 :data:`DEEP_FROM` over :data:`DEEP`, the rest over the open templates
    equally, moving evenly to :data:`LATE_SHARES` in chapter :data:`SHARES_FULL`, then
    flat. Only the deep templates reach the line's high end; the open ones stay at their
    ceilings (:data:`OPEN_CEILING`) and carry pieces."""
    first = DEEP_FROM / len(DEEP) if template in DEEP else (1 - DEEP_FROM) / len(OPEN)
    grown = min(1.0, max(0, chapter - 1) / (SHARES_FULL - 1))
    late = LATE_SHARES[template] / sum(LATE_SHARES.values())
    return first + (late - first) * grown


@functools.cache
def chapter_order(chapter: int, seed: int) -> tuple[str, ...]:
    """The templates of a chapter's :data:`CHAPTER` levels in turn, each weighted
    :func:`template_share`, interleaved by a smooth weighted round robin (a template's
    levels spread evenly through the chapter, never bunched), ties in an order shuffled per
    chapter by the line's seed."""
    order = list(BOARD_TEMPLATES)
    random.Random(seed * 7_919 + chapter).shuffle(order)
    weight = {t: template_share(t, chapter) for t in order}
    credit = dict.fromkeys(order, 0.0)
    out = []
    for _ in range(CHAPTER):
        for t in order:
            credit[t] += weight[t]
        pick = max(order, key=lambda t: credit[t])
        credit[pick] -= 1.0
        out.append(pick)
    return tuple(out)


def board_plan(n: int, seed: int) -> BoardPlan:
    """The plan of main-line level ``n`` (>= :data:`BOARD_FROM`) of the line of ``seed``."""
    if not BOARD_FROM <= n <= LEVELS:
        raise ValueError(f"board levels are {BOARD_FROM}..{LEVELS}, got {n}")
    template = template_of(n, seed)
    joint = joint_target(n)
    if breather(n):
        # Small and kind, but growing with its target (half the base: 2 to 8 joint steps).
        return BoardPlan(n, template, 3 if joint < 6 else 4,
                         min(22 + 2 * max(0, joint - 3), AREA_TOP), joint,
                         0, 0, True)
    piece = piece_of(n, template)
    # Depth comes from crowding, not room: at joint 14 five bodies on 52 cells reached 6-10
    # on comb boards, five on 32 cells 18 (docs/snakes-interlock.md).
    # The body count follows the top of the wave, not the level's place in it: a lane
    # continues its idea only while its body count holds (a count that flipped within each
    # wave restarted every lane), and three bodies did not reach joint 7 on any template.
    top = base_target(n) + WAVE_RISE * 6
    bodies = 4 if top < 10 else BODIES_TOP
    area = min(AREA_BASE + 2 * joint, AREA_TOP)
    beyond = 2 if n >= BEYOND_FROM else 0
    narrow = template in NARROW
    chain = (3 if n >= CHAIN3_FROM and n % 3 == 0 else 2) if narrow else 1
    return BoardPlan(n, template, bodies, area, joint, beyond, chain, False, piece)


def idea_steps_per_joint(n: int) -> float:
    """The most certificate steps per joint step an idea of level ``n`` (>= :data:`DENSE_FROM`)
    is asked: :data:`LINE_STEPS_PER_JOINT` falling to :data:`IDEA_STEPS_PER_JOINT` over
    :data:`DENSE_RAMP` levels."""
    x = min(1.0, max(0, n - DENSE_FROM) / DENSE_RAMP)
    return LINE_STEPS_PER_JOINT + (IDEA_STEPS_PER_JOINT - LINE_STEPS_PER_JOINT) * x


def most_joint(joint: int) -> int:
    """The most joint steps a designer's level (``design-levels --spec`` with interlock)
    aiming at ``joint`` may take (the line's ideas: :data:`LINE_OVERSHOOT`): an idea far
    past its target (a winding corridor gave 61 for 8) would put the hardest levels
    anywhere."""
    return joint + 3 + joint // 2


def arc_of(n: int) -> int:
    """The arc of level ``n`` (>= :data:`BOARD_FROM`): the last of :data:`ARCS` it reaches."""
    return sum(1 for first in ARCS[1:] if n >= first)


@functools.cache
def lane_levels(n: int, seed: int) -> tuple[int, ...]:
    """The levels of ``n``'s lane, in order: the non-breathers of its arc planned on its
    template (a breather is in no lane)."""
    template = template_of(n, seed)
    arc = arc_of(n)
    end = ARCS[arc + 1] if arc + 1 < len(ARCS) else LEVELS + 1
    return tuple(m for m in range(ARCS[arc], end)
                 if not breather(m) and template_of(m, seed) == template)


@dataclass
class _Lane:
    """A lane as far as it is built: its levels made so far, the idea the next one continues
    from, and the layouts and main-region stretch types it has had."""

    made: dict[int, tuple[LevelJson, Certificate]] = field(default_factory=dict)
    last: Idea | None = None
    keys: set[str] = field(default_factory=set)
    types: set[StretchType] = field(default_factory=set)


# The lanes this process has built, by (seed, arc, template): a lane is built in order once.
_LANES: dict[tuple[int, int, str], _Lane] = {}


def line_level(n: int, seed: int) -> tuple[LevelJson, Certificate]:
    """Main-line level ``n`` (>= :data:`BOARD_FROM`) of the line of ``seed`` and its
    certificate: a breather alone (:func:`board_level`), any other level in its lane, the
    lane built in order up to it (kept for the process: a build asks a lane's levels in turn).

    A **lane** is the levels of one template in one arc. Its first idea is climbed afresh,
    every next one from the idea before it (:func:`~gridforge.snakes.design.interlock.
    continue_idea`: one random move, then a sideways climb on the same board to a layout
    that meets the level's request) and must be new to the lane: a layout
    (:func:`~gridforge.snakes.design.stretch.layout_key`) and a main-region stretch type the
    lane has not had. So the board a player learnt stays while its depth climbs with the
    line, a lane's later levels cost a few layouts where a fresh climb costs hundreds, and
    no lane repeats a puzzle, not even with a body read end for end. A pure function of
    ``n`` and ``seed``."""
    plan = board_plan(n, seed)
    if plan.breather:
        return board_level(plan, seed)
    lane = _LANES.setdefault((seed, arc_of(n), plan.template), _Lane())
    for m in lane_levels(n, seed):
        if m > n:
            break
        if m not in lane.made:
            lane.made[m] = _lane_level(lane, board_plan(m, seed), seed)
    return copy.deepcopy(lane.made[n])


def _lane_level(lane: _Lane, plan: BoardPlan, seed: int) -> tuple[LevelJson, Certificate]:
    """The next level of ``lane``: its continued idea, else the seeded climbs of
    :func:`_ideas`; the first idea new to the lane that makes a level (:func:`_made`)."""
    for template, idea, rng in _ideas(plan, seed, lane):
        plain = idea.level_json()
        key = layout_key(plain)
        if key in lane.keys:
            continue
        made = _made(plan, template, seed, idea, rng)
        if made is None:
            continue
        lane.keys.add(key)
        lane.types.add(main_stretch(plain))
        if template == plan.template:
            lane.last = idea
        return made
    raise _no_level(plan)


def _request(plan: BoardPlan, rng: random.Random) -> Request:
    lengths = tuple(rng.choice(LENGTHS[plan.template]) for _ in range(plan.bodies))
    dense = plan.number >= DENSE_FROM and not plan.breather
    graded = dense and plan.template in OPEN
    # Legibility: body cells and holes on at most MAX_OCCUPANCY of the floor.
    area = max(plan.area, math.ceil((sum(lengths) + len(lengths)) / MAX_OCCUPANCY))
    per = idea_steps_per_joint(plan.number) if graded else LINE_STEPS_PER_JOINT
    return Request(plan.template, area, lengths, plan.beyond, plan.joint, plan.chain,
                   max_steps=MAX_STEPS, steps_per_joint=per if dense else None, graded=graded,
                   most_joint=plan.joint + (1 if plan.breather else LINE_OVERSHOOT))


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
    """The level of ``plan`` alone (a breather's way; other levels are made in their lane by
    :func:`line_level`) and its certificate: the first of :func:`_ideas` that makes a level.

    :raises GridforgeError: when no climb meets the plan.
    """
    for template, idea, rng in _ideas(plan, seed, None):
        made = _made(plan, template, seed, idea, rng)
        if made is not None:
            return made
    raise _no_level(plan)


def _no_level(plan: BoardPlan) -> GridforgeError:
    return GridforgeError(f"main-line level {plan.number}: no board level in "
                          f"{len(_attempts(plan))} attempts ({plan.template}, "
                          f"joint {plan.joint} loosened and eased, then "
                          f"{'/'.join(DEEP)})")


def piece_aim(plan: BoardPlan, joint: int, minimum: int) -> int:
    """The steps level ``plan``'s piece should cost on an idea of ``joint`` joint steps and
    minimum ``minimum``: what the idea falls short of the level's target (an open
    template's idea stops at :data:`OPEN_CEILING`: its piece carries the rest), and at least
    what takes the level to :data:`RATIO_AIM` steps per joint step (a piece of cost c takes
    m / j to (m + c) / (j + c); that part at most :data:`DENSE_AIM_MOST`), and at least
    :data:`~gridforge.snakes.design.costs.LEAST_COST`. The most costly placement instead
    had lifted a tenth of levels 101-1000 by 4-33 joint steps past their targets, putting
    hard levels anywhere."""
    dense = math.ceil((minimum - RATIO_AIM * joint) / (RATIO_AIM - 1))
    return max(LEAST_COST, plan.joint - joint, min(dense, DENSE_AIM_MOST))


def _made(plan: BoardPlan, template: str, seed: int, idea: Idea, rng: random.Random
          ) -> tuple[LevelJson, Certificate] | None:
    """The level of ``idea`` coloured by ``rng``, certified, with a piece placed where it
    costs about :func:`piece_aim`, with its witness; None when the certificate cannot prove
    it. The pieces are measured from the plan's on through
    :data:`~gridforge.snakes.design.costs.PIECES` until one costs the aim (at most
    :data:`PIECE_TRIES` of them once one is placed); short of that,
    the placement that leaves the fewest steps per joint step (a bridge shortens the route
    and raises them: it takes a level that stays under :data:`RATIO_AIM`). A level still
    short of its target takes more pieces (:func:`_more_pieces`). With no piece that costs
    steps on it, the idea's level without one (``meta.piece`` names the first piece placed,
    ``meta.pieces`` all of them where there are several)."""
    data = _coloured(idea, rng)
    if plan.piece is not None:
        m, j = idea.measure.minimum, idea.measure.joint
        aim = piece_aim(plan, j, m)
        first = PIECES.index(plan.piece)
        # (short of the aim, steps per joint step after it, turn, piece, placement)
        placed: list[tuple[bool, float, int, str, Costly]] = []
        for k in range(len(PIECES)):
            if k >= PIECE_TRIES and placed:
                break  # each piece is up to PLACEMENTS exact searches
            piece = PIECES[(first + k) % len(PIECES)]
            got = costly(data, piece, m, aim=aim, limit=PLACEMENTS)
            if got is None:
                continue  # no place where the piece costs steps
            change = -got.cost if piece == "bridges" else got.cost
            ratio = (m + change) / max(1, j + change)
            # A bridge shortens the route: it is the level's piece while the level stays
            # under RATIO_AIM steps per joint step.
            short = ratio > RATIO_AIM if piece == "bridges" else got.cost < aim
            placed.append((short, ratio, k, piece, got))
            if not short:
                break
        for *_, piece, got in sorted(placed, key=lambda p: p[:3]):
            # The idea's own minimal solution is a witness: shorter than the real minimum,
            # so the real rules refuse it, and the level without the piece takes it.
            witnesses = [] if piece == "bridges" else [
                _witness(got.mechanic, idea.measure.solution)]
            change = -got.cost if piece == "bridges" else got.cost
            one = _Pieced(got.level, got.solution, witnesses, (piece,), j + change,
                          {got.mechanic: change})
            for pieced in (*_more_pieces(plan, one), one):
                made = _certified(plan, template, seed, pieced.level, pieced.solution,
                                  pieced.witnesses, idea, pieced.costs)
                if made is not None:
                    made[0]["meta"]["piece"] = piece
                    if len(pieced.pieces) > 1:
                        made[0]["meta"]["pieces"] = list(pieced.pieces)
                    return made
    return _certified(plan, template, seed, data, idea.measure.solution, [], idea, {})


@dataclass(frozen=True)
class _Pieced:
    """A level with its pieces placed: a minimal solution, a witness per piece but a bridge
    (each the minimal solution of the level with that one piece lifted), the pieces' kinds in
    the order placed, the joint steps it is taken to have (the idea's plus the pieces'
    costs: a freeze or lock that costs c steps owes them to the bodies' order) and each
    piece's cost on it by the field that holds it (spec 5d; a bridge's negative)."""

    level: LevelJson
    solution: tuple[tuple[int, str, str], ...]
    witnesses: list[Witness]
    pieces: tuple[str, ...]
    joint: int
    costs: dict[str, int]


def _more_pieces(plan: BoardPlan, pieced: _Pieced) -> Iterator[_Pieced]:
    """``pieced`` with more pieces, deepest first, while it falls short of ``plan``'s joint
    steps by :data:`~gridforge.snakes.design.costs.LEAST_COST` or more (an open template's
    idea stops at :data:`OPEN_CEILING`: its pieces carry the rest of the line's climb): at
    most :data:`MOST_PIECES` of them, each of a kind not placed yet and no bridge (it would
    shorten the route), measured on the level with the pieces before it and placed where it
    costs about :func:`piece_aim` (the first of :data:`PIECE_TRIES` kinds that costs that,
    else the costliest); kept only when every piece before it still costs
    :data:`~gridforge.snakes.design.costs.LEAST_COST` on the new level, each piece with its
    witness on it. A bridge's level takes no more (a bridge is no relaxation: its cost on a
    level with others is not measured), nor does a level over :data:`RATIO_AIM` steps per
    joint step but at its target (on the late winding levels such rounds found no piece and
    took 5-10 CPU s a level)."""
    found: list[_Pieced] = []
    while (len(pieced.pieces) < MOST_PIECES and plan.joint - pieced.joint >= LEAST_COST
           and "bridges" not in pieced.pieces):
        minimum = len(pieced.solution)
        aim = piece_aim(plan, pieced.joint, minimum)
        kinds = [p for p in PIECES if p not in pieced.pieces and p != "bridges"]
        best: _Pieced | None = None
        for piece in kinds[:PIECE_TRIES]:
            got = costly(pieced.level, piece, minimum, aim=aim, limit=MORE_PLACEMENTS)
            if got is None or (best is not None and got.cost <= best.joint - pieced.joint):
                continue
            earlier = _rewitnessed(got.level, got.minimum, pieced.witnesses)
            if earlier is None:
                continue  # a piece before it no longer costs its steps
            witnesses, costs = earlier
            best = _Pieced(got.level, got.solution,
                           [*witnesses, _witness(got.mechanic, pieced.solution)],
                           (*pieced.pieces, piece), pieced.joint + got.cost,
                {**costs, got.mechanic: got.cost})
            if got.cost >= aim:
                break
        if best is None:
            break
        found.append(best)
        pieced = best
    return reversed(found)


def _witness(mechanic: str, solution: Sequence[Sequence[object]]) -> Witness:
    """A certificate's witness: ``solution`` (steps), which the level takes with
    ``mechanic`` lifted and the real rules refuse."""
    return {"mechanic": mechanic, "solution": _json_steps(solution)}


def _json_steps(solution: Sequence[Sequence[object]]) -> list[Step]:
    """A search's solution (step tuples) as a level file's steps (lists)."""
    return [list(step) for step in solution]


def _rewitnessed(data: LevelJson, minimum: int, witnesses: list[Witness]
                 ) -> tuple[list[Witness], dict[str, int]] | None:
    """The witnesses of ``data``'s earlier pieces on it (proven minimum ``minimum``) and
    their costs: for each, a minimal solution of ``data`` with that one piece lifted, which
    must be at least :data:`~gridforge.snakes.design.costs.LEAST_COST` shorter; None when
    one is not."""
    out: list[Witness] = []
    costs: dict[str, int] = {}
    for w in witnesses:
        got = lifted(data, w["mechanic"])
        if got is None or minimum - got[0] < LEAST_COST:
            return None
        out.append(_witness(w["mechanic"], got[1]))
        costs[w["mechanic"]] = minimum - got[0]
    return out, costs


def _certified(plan: BoardPlan, template: str, seed: int, data: LevelJson,
               solution: Sequence[Sequence[object]], witnesses: list[Witness], idea: Idea,
               piece_cost: dict[str, int]) -> tuple[LevelJson, Certificate] | None:
    """``data`` with its meta and its certificate from ``solution`` (which must prove
    minimal), or None when the certificate's search does not prove it. Its reading carries
    spec 5d's figures: the main region's, its mechanics lifted (every body: one floor
    region; beyond-pairs steps, chain and joint steps of ``idea``, whose exact searches
    measured them on the level without its pieces) and each piece's cost."""
    level = level_from_json(data)
    steps = _json_steps(solution)
    cert = certify(level, solution=steps, max_states=PROOF_STATES, max_seconds=NO_CLOCK)
    if not cert["optimal"] or cert["steps"] != len(steps):
        return None
    if "reading" in cert:
        read = cert["reading"]
        m = idea.measure
        read["main_region"] = {"beyond_pairs": m.beyond, "chain": m.chain, "joint": m.joint,
                               "bodies": len(data["bodies"])}
        if piece_cost:
            read["piece_cost"] = dict(sorted(piece_cost.items()))
    if witnesses:
        cert["witnesses"] = witnesses
    meta: JsonObject = {"id": f"main-{plan.number:04d}", "template": template,
                        "target": plan.joint, "seed": seed, "level": plan.number}
    if plan.breather:
        meta["breather"] = True
    out: LevelJson = {**data, "meta": meta}
    return out, cert


def _attempts(plan: BoardPlan) -> list[tuple[str, int, bool]]:
    """The (template, joint target, strict) of a level's fresh climbs, in turn: its own
    template :data:`ATTEMPTS` times; then, not strict (any steps per joint step,
    beyond-pairs steps and chain as they come), its own template at the plan's target and
    :data:`EASED` times at two joint steps fewer each time, down to two: a level a little
    short of its target (its pieces aim at the rest); last, each of :data:`DEEP` (a
    template that gives no idea at all leaves the level to a deeper one; ``meta.template``
    says which), never a line that stops. Its own eased climbs come before another
    template: a fallback onto a deep template took a winding lane past a quarter of its
    band."""
    deep = [(t, idea_target(plan, t), True) for t in DEEP if t != plan.template]
    top = idea_target(plan, plan.template)
    eased = [(plan.template, max(2, top - 2 * k), False) for k in range(EASED + 1)]
    return [(plan.template, top, True)] * ATTEMPTS + eased + deep


def idea_target(plan: BoardPlan, template: str) -> int:
    """The joint steps a level's idea on ``template`` is asked: a breather's own target;
    else the line's base target (its piece carries the wave), at most :data:`OPEN_CEILING`
    on an open template and :data:`DEEP_CEILING` on a deep one."""
    if plan.breather:
        return plan.joint
    ceiling = OPEN_CEILING if template in OPEN else DEEP_CEILING
    return max(2, min(round(base_target(plan.number)), ceiling))


def score_floor(plan: BoardPlan, template: str) -> float | None:
    """The least seven-term score an idea of ``plan`` on ``template`` may have (None: any):
    from :data:`LATE_FROM` on :data:`FLOORED` templates but for a breather, rising
    linearly from :data:`SCORE_FLOOR` to :data:`SCORE_FLOOR_TOP` at the line's last level."""
    if plan.breather or plan.number < LATE_FROM or template not in FLOORED:
        return None
    x = (plan.number - LATE_FROM) / (LEVELS - LATE_FROM)
    return SCORE_FLOOR + (SCORE_FLOOR_TOP - SCORE_FLOOR) * x


def _scores(floor: float | None, data: LevelJson, measure: Measure) -> bool:
    """Whether the idea ``data`` with its figures scores at least ``floor`` (None: yes),
    judged on its proven minimal solution."""
    if floor is None:
        return True
    return score_level(level_from_json(data), _json_steps(measure.solution),
                       diagnostics=False)["total"] >= floor


def _ideas(plan: BoardPlan, seed: int, lane: _Lane | None
           ) -> Iterator[tuple[str, Idea, random.Random]]:
    """The ideas a level tries in turn, each with the random source that colours it: its
    lane's next idea, continued from the lane's last (when the body count is the same; a
    continuation that finds nothing is tried again from another seed, then loosened: at most
    :data:`LOOSE_OVERSHOOT` joint steps past the target, its density bound flat), then a
    fresh climb for each of :func:`_attempts`."""
    floor = score_floor(plan, plan.template)
    if lane is not None and lane.last is not None and len(lane.last.layout[0]) == plan.bodies:
        last = lane.last
        for k in range(CONTINUATIONS):
            rng = random.Random(seed * 1_000_003 + plan.number * 7_919 + 7 + 1000 * k)
            request = replace(_request(replace(plan, joint=idea_target(plan, plan.template)),
                                       rng), lengths=tuple(map(len, last.layout[0])))
            if k == CONTINUATIONS - 1:
                request = replace(request, most_joint=request.joint + LOOSE_OVERSHOOT,
                                  graded=False)
            idea = continue_idea(request, last, rng, lambda data, measure: (
                main_stretch(data) not in lane.types and layout_key(data) not in lane.keys
                and _scores(floor, data, measure)))
            if idea is not None:
                yield plan.template, idea, random.Random(
                    seed * 1_000_003 + plan.number * 7_919 + 11 + k)
                break
    for attempt, (template, joint, strict) in enumerate(_attempts(plan)):
        rng = random.Random(seed * 1_000_003 + plan.number * 7_919 + attempt * 104_729)
        request = _request(replace(plan, template=template, joint=joint), rng)
        if not strict:
            request = replace(request, steps_per_joint=None, beyond=0, chain=1)
        # The floor holds on the level's own strict climbs (an eased one is a last resort).
        floored = floor is not None and strict and template == plan.template
        idea = build_idea(request, rng,
                          functools.partial(_scores, floor) if floored else None)
        if idea is not None:
            yield template, idea, rng
