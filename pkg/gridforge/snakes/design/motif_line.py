"""Main-line levels built from motifs (issue 41, the third build): a level is a set of small
chambers (:mod:`~gridforge.snakes.design.motifs`) whose joint steps (spec section 5c) add up
to the curriculum's target, with the level's mechanics and terrain placed where they bind.

- **Joint steps climb.** :func:`joint_target` rises with the level (a square-root curve from
  2 at level 11 to :data:`JOINT_TOP` at 2000) and gently inside each wave of ten; the tenth
  level of a wave is a breather (a little joint, no mechanic, no terrain).
- **Mechanics order the chambers.** Chambers are separate floor regions, so a frozen body, a
  frozen hole or a lock put in the chamber played *last* binds when it needs layers (or keys)
  that only the chambers played earlier give: the witness of spec section 5b is the same
  solution with that chamber played first (legal without the mechanic, refused with it). A
  frozen count is one more than the layers its own chamber lets out before it is needed, so
  that it waits for another chamber; keys are carried by bodies of earlier chambers.
- **Coats and terrain live inside a chamber**: a coated chamber (:func:`motifs.coated`), a
  painted cell that binds (:func:`motifs.painted`), a bridge that some body must pass while
  another lies on it (:func:`motifs.bridge_binds`), each measured like any chamber.
- **Proof.** The level's minimum is the sum of its chambers' minima (mechanics only order
  them), and the pairwise bound proves it: every chamber was kept only when its own pairwise
  bound is tight. The certificate comes from the designer's
  :func:`~gridforge.snakes.design.certify.certify` on the built solution.

Everything is a function of the line's seed and the level's number (``random.Random``); every
search is bounded by counted states; an attempt that builds nothing tries the next seed, a
fixed number of times.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gridforge.errors import GridforgeError
from gridforge.jsontypes import JsonObject
from gridforge.snakes.design.certify import certify
from gridforge.snakes.design.motifs import (
    NO_CLOCK,
    Chamber,
    Placed,
    assemble,
    bridge_binds,
    choose,
    coated,
    draw_chamber,
    measure,
    painted,
)
from gridforge.snakes.design.terrain import refuses
from gridforge.snakes.game.certfile import Certificate, Witness
from gridforge.snakes.game.level import Level, level_from_json
from gridforge.snakes.game.levelfile import LevelJson
from gridforge.snakes.game.regions import floor_map, region_level
from gridforge.snakes.game.rules import Game, step_to_move
from gridforge.snakes.solver.legibility import reading
from gridforge.snakes.solver.puzzle import path_costs_steps, relaxations, witness

__all__ = ["JOINT_TOP", "MAX_STEPS", "ORDERING", "TOP_STEPS", "MotifPlan", "chamber_of",
           "joint_target", "max_steps", "motif_level"]

LEVELS = 2000
JOINT_FROM = 11  # the first level built from motifs' climb
JOINT_TOP = 16.0  # the base target at level 2000 (a wave's last levels reach 18)
WAVE_RISE = 0.5  # joint steps a wave adds from one level to the next
MAX_STEPS = 60  # certificate steps of a motif level with at most two pieces (below)
PIECE_STEPS = 8  # steps more for each mechanic or terrain piece past the second
TOP_STEPS = 99  # the most steps of any motif level (the steps term's ceiling is 100)
ATTEMPTS = 12  # seeds tried for one level before it gives up
DRAWS = 400  # chambers drawn by one attempt
PROOF_STATES = 5_000  # states the certificate's searches may store (the pairwise bound proves)
DECORATION_DRAWS = 800  # draws for a coated, painted or bridged chamber
# The mechanics that order chambers (a frozen body, a frozen hole, a silver or a gold lock).
ORDERING = ("frozen", "frozen_holes", "locks", "gold")
SMALL = ("park", "swap", "pass")  # families a decoration is drawn on


@dataclass(frozen=True)
class MotifPlan:
    """What one main-line level built from motifs asks: its joint-step ``target``, whether it
    is a ``breather``, the mechanics and terrain it must show, and its ``lesson`` (a terrain
    lesson: the piece must cost steps or be needed, not just bind)."""

    number: int
    target: int
    breather: bool
    mechanics: tuple[str, ...]  # of "coats", "frozen", "frozen_holes", "locks", "gold"
    terrain: tuple[str, ...]  # of "paths", "bridges"
    lesson: str | None = None


def joint_target(n: int, breather: bool) -> int:
    """The joint steps main-line level ``n`` (from :data:`JOINT_FROM`) aims at: a square-root
    climb from 2 to :data:`JOINT_TOP`, plus :data:`WAVE_RISE` per position in its wave of ten
    (the wave opens gently and rises); a breather asks a third of it. Never 1 (no motif
    gives exactly one joint step reliably): a target of 1 becomes 2."""
    x = max(0, n - JOINT_FROM) / (LEVELS - JOINT_FROM)
    base = 2 + (JOINT_TOP - 2) * math.sqrt(x)
    position = (n - 1) % 10
    if breather:
        return int(base / 3)
    target = round(base + WAVE_RISE * (position - 2))
    return max(2, target)


def max_steps(plan: MotifPlan) -> int:
    """The most certificate steps ``plan``'s level may take: :data:`MAX_STEPS`, and
    :data:`PIECE_STEPS` more for each mechanic or terrain piece past the second (each piece
    brings a chamber or a carrier of its own), at most :data:`TOP_STEPS`."""
    pieces = len(plan.mechanics) + len(plan.terrain) - ("gold" in plan.mechanics
                                                        and "locks" in plan.mechanics)
    return min(TOP_STEPS, MAX_STEPS + PIECE_STEPS * max(0, pieces - 2))


def motif_level(plan: MotifPlan, seed: int,
                fresh: Callable[[LevelJson], bool] = lambda level: True
                ) -> tuple[LevelJson, Certificate]:
    """The level of ``plan`` and its certificate (with a witness for every frozen body,
    frozen hole, lock and painted cell): the first of :data:`ATTEMPTS` seeds that builds
    one within :func:`max_steps` that ``fresh`` accepts (not the layout of an earlier
    level), else the first of as many more within :data:`TOP_STEPS`.

    :raises GridforgeError: when none of them builds one.
    """
    for attempt in range(2 * ATTEMPTS):
        rng = random.Random(seed * 1_000_003 + plan.number * 7_919 + attempt * 104_729)
        steps = max_steps(plan) if attempt < ATTEMPTS else TOP_STEPS
        made = _attempt(plan, rng, seed, steps)
        if made is not None and fresh(made[0]):
            return made
    raise GridforgeError(f"main-line level {plan.number}: no motif level in {2 * ATTEMPTS} "
                         f"attempts (target {plan.target})")


# ---------------------------------------------------------------- one attempt


def _decorated(rng: random.Random, make: str, plan: MotifPlan, left: int) -> Chamber | None:
    """A measured chamber that carries ``make`` ("coats", "paths", "bridges") with at most
    ``left`` joint steps (and never exactly one fewer: no motif fills a remainder of one)."""
    for _ in range(DECORATION_DRAWS):
        if make == "bridges":
            ch = measure(draw_chamber(rng, "crossing"))
            if ch is not None and ch.joint is not None and ch.joint <= left and (
                    left - ch.joint != 1) and bridge_binds(ch):
                return ch
            continue
        base = measure(draw_chamber(rng, rng.choice(SMALL)))
        if base is None:
            continue
        if make == "coats":
            coat = coated(rng, base)
            ch = None if coat is None else measure(coat)
        else:
            ch = painted(rng, base)
        if ch is None or ch.joint is None or ch.joint > left or left - ch.joint == 1:
            continue
        if make == "paths" and plan.lesson == "paths" and not path_costs_steps(
                level_from_json(ch.level_json()), 0):
            continue
        return ch
    return None


def _keys_needed(mechanics: Sequence[str]) -> int:
    """Keys the ordering mechanics need carried: one for a silver lock, two for a gold."""
    return ("locks" in mechanics and "gold" not in mechanics) + 2 * ("gold" in mechanics)


def _attempt(plan: MotifPlan, rng: random.Random, seed: int, steps: int
             ) -> tuple[LevelJson, Certificate] | None:
    """One try at ``plan``'s level within ``steps``: the decorated chambers it asks, drawn
    chambers for the rest of its joint steps, mechanics on the chambers played last, then
    :func:`_finish`; None when some part does not come out."""
    required: list[Chamber] = []
    left = plan.target
    for make in ("coats", *plan.terrain):
        if make in plan.mechanics or make in plan.terrain:
            ch = _decorated(rng, make, plan, left)
            if ch is None:
                return None
            required.append(ch)
            left -= ch.joint or 0
    ordering = [m for m in ORDERING if m in plan.mechanics and not (
        m == "locks" and "gold" in plan.mechanics)]
    target = plan.target
    if plan.breather:
        # a breather: a body or two that just walk home beside its small conflict (a lone
        # small chamber would repeat an earlier level's layout)
        required.extend(_solos(rng, (2 if target == 0 else 1) + rng.randint(0, 1)))
    chosen = choose(rng, target, required=required, max_steps=steps, max_draws=DRAWS)
    if chosen is None:
        return None
    chambers = list(chosen.chambers)
    # Mechanic chambers are played last; the rest (with enough key carriers) first.
    firsts, lasts = _roles(rng, chambers, ordering)
    terrain_first = sorted(firsts, key=lambda ch: not (ch.paths or ch.bridges))
    order = terrain_first + [ch for ch, _ in lasts]
    placed = assemble(order, rng, seed, target)
    if placed is None:
        return None
    level = placed.level
    _add_mechanics(level, placed, [m for _, m in lasts], len(terrain_first))
    return _finish(plan, level, placed, steps)


def _solos(rng: random.Random, count: int) -> list[Chamber]:
    """``count`` measured solo chambers (one body walking home)."""
    out: list[Chamber] = []
    while len(out) < count:
        ch = measure(draw_chamber(rng, "solo"))
        if ch is not None:
            out.append(ch)
    return out


def _roles(rng: random.Random, chambers: list[Chamber], ordering: list[str]
           ) -> tuple[list[Chamber], list[tuple[Chamber, str]]]:
    """Chambers played first and (chamber, mechanic) played last: one chamber per ordering
    mechanic, never a decorated one (solo chambers added when there are too few), with enough
    bodies among the first ones to carry the keys (solo chambers added as carriers when
    short)."""
    if not ordering:
        return chambers, []
    plain = [ch for ch in chambers if "+" not in ch.family and ch.family != "crossing"]
    plain.sort(key=lambda ch: -(ch.joint or 0))
    added = _solos(rng, max(0, len(ordering) - len(plain)))
    plain.extend(added)
    chambers = [*chambers, *added]
    lasts = list(zip(plain[:len(ordering)], ordering, strict=True))
    last_ids = {id(ch) for ch, _ in lasts}
    firsts = [ch for ch in chambers if id(ch) not in last_ids]
    keys = _keys_needed(ordering)
    carriers = sum(len(ch.bodies) for ch in firsts)
    if not firsts or carriers < keys:
        firsts.extend(_solos(rng, max(1, keys - carriers)))
    return firsts, lasts


# ---------------------------------------------------------------- mechanics


def _holes_used(level: LevelJson, solution: Sequence[Sequence[object]]) -> list[int]:
    """The used holes (a bit mask) before each step of ``solution``, and at the end."""
    game = Game(level_from_json(level))
    state = game.initial
    n = game.n
    out = [state[n + 1]]
    for step in solution:
        state = game.apply(state, step_to_move(list(step)))
        out.append(state[n + 1])
    return out


def _add_mechanics(level: LevelJson, placed: Placed, mechanics: list[str], firsts: int) -> None:
    """Put each of ``mechanics`` on its chamber (the chambers after the first ``firsts``, in
    order), as the module docstring says."""
    solution = placed.solution
    used = _holes_used(level, solution)
    exits = [mask.bit_count() for mask in used]  # layers out before each step
    carriers = [b for c in range(firsts) for b in placed.bodies[c]]
    for offset, mechanic in enumerate(mechanics):
        c = firsts + offset
        start = placed.steps[c].start
        moves = {b: min(i for i in placed.steps[c] if solution[i][0] == b)
                 for b in placed.bodies[c]}
        body = min(moves, key=lambda b: moves[b])  # the chamber's first body to move
        if mechanic == "frozen":
            level["bodies"][body]["frozen"] = exits[moves[body]] - exits[start] + 1
        elif mechanic == "frozen_holes":
            hole = placed.holes[c][0]
            filled = next(i for i in range(len(solution)) if used[i + 1] >> hole & 1)
            level["holes"][hole]["frozen"] = exits[filled] - exits[start] + 1
        else:
            gold = mechanic == "gold"
            lock_id = "G1" if gold else "S1"
            level["bodies"][body]["lock"] = {"id": lock_id, "kind": "gold" if gold else "silver"}
            for _ in range(2 if gold else 1):
                level["bodies"][carriers.pop(0)]["key"] = lock_id


def _witnesses(level: Level, placed: Placed, moves: list[int]) -> list[Witness] | None:
    """A witness for every relaxation of ``level`` (spec section 5b): first the built
    solution with the chamber that holds the mechanic played first, then the designer's
    general search; None when one is missing."""
    out: list[Witness] = []
    for mechanic, relaxed in relaxations(level):
        found = _chamber_first(level, relaxed, placed, mechanic) or witness(
            level, relaxed, len(moves), solution=moves)
        if found is None:
            return None
        out.append({"mechanic": mechanic, "solution": found})
    return out


def _chamber_first(level: Level, relaxed: Level, placed: Placed, mechanic: str
                   ) -> list[list[object]] | None:
    """The built solution with the chamber of ``mechanic`` played first (for a painted cell:
    with that chamber's solution from before the paint), when the relaxed level takes it and
    the real one refuses it."""
    kind = mechanic.split("[")[0]
    index = int(mechanic.split("[")[1].split("]")[0])
    spans = {"bodies": placed.bodies, "holes": placed.holes, "paths": placed.paths}[kind]
    chamber = next((c for c, r in enumerate(spans) if index in r), None)
    if chamber is None:
        return None
    steps = placed.steps[chamber]
    solution = [list(s) for s in placed.solution]
    own = solution[steps.start:steps.stop]
    if kind == "paths":
        base = placed.bodies[chamber].start
        own = [[base + b, end, d] for b, end, d in placed.chambers[chamber].witness]
    candidate = own + solution[:steps.start] + solution[steps.stop:]
    moves = [step_to_move(s) for s in candidate]
    if refuses(relaxed, moves) or not refuses(level, moves):
        return None
    return candidate


def chamber_of(data: LevelJson, cell: Sequence[int]) -> LevelJson:
    """The floor region of ``data`` holding ``cell`` as a level of its own (every other cell
    stone; its bodies, holes and terrain kept, freezes and locks lifted): a chamber's lesson
    is judged on it, where an exact search is cheap
    (:func:`gridforge.snakes.game.regions.region_level`)."""
    where = floor_map(data)
    region = where.region_of((int(cell[0]), int(cell[1])))
    if region is None:
        raise ValueError(f"cell {list(cell)} is no floor cell of the level")
    return region_level(data, region, where=where)


# ---------------------------------------------------------------- the certificate


def _finish(plan: MotifPlan, data: LevelJson, placed: Placed, steps_allowed: int
            ) -> tuple[LevelJson, Certificate] | None:
    """The level checked (legible, the target's joint steps, a non-breather not solved one
    body at a time) and certified with its witnesses; None when it misses."""
    try:
        level = level_from_json(data)
    except GridforgeError:
        return None
    steps = [list(s) for s in placed.solution]
    cert = certify(level, solution=steps, max_states=PROOF_STATES, max_seconds=NO_CLOCK)
    if cert["steps"] is None or cert["steps"] > steps_allowed or not cert["optimal"]:
        return None  # every motif level is proven: the pairwise bound reaches its minimum
    lower = cert["minimum"] if cert["optimal"] else cert["lower_bound"]
    read = reading(level, lower if isinstance(lower, int) else cert["steps"])
    if read.occupancy > 0.55 or read.outer_colours > 6 or max(read.lengths) > 8:
        return None
    if read.joint_steps != plan.target and cert["optimal"]:
        return None
    # Separate chambers: the level is solved one body at a time exactly when every chamber
    # is (its mechanics only forbid orders), measured when each chamber was drawn.
    if not plan.breather and all(ch.serial for ch in placed.chambers):
        return None
    found = _witnesses(level, placed, [step_to_move(s) for s in cert["solution"] or steps])
    if found is None:
        return None
    if found:
        cert["witnesses"] = found
    meta: JsonObject = {"template": "motifs", "target": plan.target}
    data["meta"] = meta
    return data, cert
