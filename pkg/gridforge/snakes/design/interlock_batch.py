"""The designer's interlock levels (issue 50): a batch of levels on one board whose bodies
need each other, for a request with an ``interlock`` field
(:mod:`~gridforge.snakes.design.interlock_spec`).

Each level is one idea of :func:`~gridforge.snakes.design.interlock.build_idea`: climbs of at
most :data:`ROUNDS` layouts on a seed template (the request's, or for ``mixed`` one drawn
per climb), each layout measured exactly, until one meets the request's joint steps (and
stays near them: at most the main line's ceiling,
:func:`~gridforge.snakes.design.board_line.most_joint`), beyond-pairs steps and must-move
chain. The idea is coloured from the request's palette, gets the request's piece (if any)
where it costs the most steps, at least two, with its witness
(:mod:`~gridforge.snakes.design.costs`), is judged against the rest of the request
(portrait, make_way, interaction, a level met before) and is certified from its proven
solution by the designer's :func:`~gridforge.snakes.design.certify.certify` under the
request (score range and step range judged there); its certificate's reading carries the
measured figures (``main_region`` and ``piece_cost``, spec 5d). A level whose idea is
refused goes on with a climb beside it (a layout or a few away: mostly one that meets
the whole request), and after a climb that meets nothing with a fresh one.

The budget is counted, never timed: ``budgets.candidates`` layouts a level may draw (a climb
that fails counts every round), ``budgets.exact_states`` states each exact search may store
(the certificate's re-proof half as many again). ``budgets.level_seconds`` is a safety net
only (:class:`~gridforge.snakes.design.batch_rules.SafetyNetError`). Every random choice comes
from ``random.Random`` seeded by the request's seed, the level and the climb, so the same
request gives the same bytes.

Public names: :func:`design_interlocked`, :data:`ROUNDS`.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from gridforge.jsontypes import JsonObject
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.design.batch_rules import SERIAL_STATES, Accept, SafetyNetError
from gridforge.snakes.design.board_line import MAX_OCCUPANCY, most_joint
from gridforge.snakes.design.certify import certify
from gridforge.snakes.design.costs import costly
from gridforge.snakes.design.interlock import (
    NO_CLOCK,
    Idea,
    Measure,
    build_idea,
    continue_idea,
    measure_layout,
)
from gridforge.snakes.design.interlock import Request as IdeaRequest
from gridforge.snakes.design.interlock_spec import (
    PIECES,
    Interlock,
    lengths_for,
    piece_of,
    templates_for,
)
from gridforge.snakes.design.reports import (
    BatchReport,
    DesignedBatch,
    IdeaFigures,
    LevelReport,
    Shortfall,
)
from gridforge.snakes.design.request import Request
from gridforge.snakes.game.certfile import BATCH_FORMAT, Certificate, Witness
from gridforge.snakes.game.level import level_from_json, level_sha256
from gridforge.snakes.game.levelfile import LevelJson
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.puzzle import serial
from gridforge.snakes.solver.search import Solver

__all__ = ["ROUNDS", "design_interlocked"]

ROUNDS = 600  # layouts of one climb: a fresh shape, its kicks, and some of a second shape
NEIGHBOUR_ROUNDS = 200  # layouts of a climb beside a refused idea
PROOF_SHARE = 1.5  # the certificate's re-proof may store this many times a climb's states
MAX_STEPS = 100  # certificate steps of any interlock level (legibility, as the main line's)
# Room grows with the depth asked (a board of 24 floor cells and 2 more a joint step, at most
# 40: depth comes from crowding, not room, docs/snakes-interlock.md), and is at least what
# keeps body cells and holes on MAX_OCCUPANCY of the floor.
BASE_AREA, AREA_PER_JOINT, MOST_AREA = 24, 2, 40


@dataclass
class _Tally:
    """Why ideas were refused, and the scores of those certified."""

    reasons: dict[str, int] = field(default_factory=dict)
    scores: list[float] = field(default_factory=list)

    def reject(self, reason: str) -> None:
        self.reasons[reason] = self.reasons.get(reason, 0) + 1


@dataclass(frozen=True)
class _Made:
    """A level taken: its JSON (meta added by the batch), certificate and report."""

    level: LevelJson
    certificate: Certificate
    template: str
    figures: IdeaFigures
    piece: str | None  # the kind of piece placed (meta.piece, as the main line's)


def _area(ask: Interlock, lengths: Sequence[int]) -> int:
    """The floor cells an idea of ``lengths`` asking ``ask.joint`` joint steps gets."""
    room = min(BASE_AREA + AREA_PER_JOINT * ask.joint, MOST_AREA)
    crowd = sum(lengths) + len(lengths)  # body cells and one hole a body
    return max(room, math.ceil(round(crowd / MAX_OCCUPANCY, 6)))


def _idea_request(req: Request, template: str, rounds: int, rng: random.Random) -> IdeaRequest:
    """What one climb on ``template`` asks, its body lengths drawn from ``rng``."""
    ask = req.interlock
    assert ask is not None
    choices = lengths_for(template, req.min_length, req.max_length)
    lengths = tuple(rng.choice(choices) for _ in range(ask.bodies))
    most = MAX_STEPS if req.steps_max is None else min(MAX_STEPS, req.steps_max)
    return IdeaRequest(template, _area(ask, lengths), lengths, ask.beyond, ask.joint, ask.chain,
                       rounds=rounds - 1, states=int(req.budgets["exact_states"]),
                       max_steps=most, steps_per_joint=None, most_joint=most_joint(ask.joint))


def _coloured(idea: Idea, palette: Sequence[int], rng: random.Random) -> LevelJson:
    """The idea's level, its local colours (body i: colour i) mapped to distinct colours of
    the request's ``palette``."""
    data = idea.level_json()
    colours = rng.sample(list(palette), len(data["bodies"]))
    for body in data["bodies"]:
        body["colors"] = [colours[c] for c in body["colors"]]
    for hole in data["holes"]:
        hole["color"] = colours[hole["color"]]
    return data


@dataclass(frozen=True)
class _Board:
    """An idea's level with the request's piece on it (when it asks one): its solution
    (proven minimal), the main region's figures (spec 5d: freezes and locks lifted, terrain
    kept), the piece's witness and cost."""

    data: LevelJson
    solution: tuple[tuple[int, str, str], ...]
    measure: Measure
    witnesses: list[Witness]
    piece_cost: dict[str, int]
    piece: str | None = None  # the kind of piece placed (a request field: frozen, locks...)


def _placed(req: Request, idea: Idea, data: LevelJson) -> _Board | str:
    """The level of ``idea`` (coloured: ``data``) with the request's piece placed where it
    costs the most steps, at least two (:func:`~gridforge.snakes.design.costs.costly`); or
    why not (``piece``: no placement costs that much, or paint that leaves the level
    shallower than asked)."""
    piece = piece_of({name: getattr(req, name) for name in PIECES})
    if piece is None:
        return _Board(data, idea.measure.solution, idea.measure, [], {})
    states = int(req.budgets["exact_states"])
    placed = costly(data, piece, idea.measure.minimum, states=states)
    if placed is None:
        return "piece"
    measure = idea.measure
    if piece == "paths":
        # Terrain stays in spec 5d's figures (mechanics are lifted): measured again.
        again = measure_layout(placed.level, states)
        ask = req.interlock
        assert ask is not None
        if again is None or again.minimum != placed.minimum or again.beyond < ask.beyond or \
                again.joint < ask.joint or again.chain < ask.chain:
            return "piece"
        measure = again
    # The idea's own minimal solution is a witness: shorter than the level's minimum with a
    # freeze, lock or paint, so the real rules refuse it.
    witnesses: list[Witness] = [{"mechanic": placed.mechanic,
                                 "solution": [[b, end, d] for b, end, d in idea.measure.solution]}]
    return _Board(placed.level, placed.solution, measure, witnesses,
                  {placed.mechanic: placed.cost}, piece)


def _judged(req: Request, board: _Board) -> str | None:
    """Why ``board`` misses a part of the request the climb does not aim at (None: it
    meets them)."""
    data = board.data
    if req.portrait and data["cols"] > data["rows"]:
        return "portrait"
    game = Game(level_from_json(data))
    minimum = len(board.solution)
    if req.steps_min is not None and minimum < req.steps_min:
        return "steps"
    if req.interaction_min is not None and minimum - Solver(game).bound(
            game.initial) < req.interaction_min:
        return "interaction"
    if req.make_way and serial(game, max_states=SERIAL_STATES).status != "not_serial":
        return "serial"
    return None


def _certified(req: Request, board: _Board, tally: _Tally) -> Certificate | str:
    """The certificate of ``board`` from its proven solution, judged under the request; or
    why it is refused (``unproven``, ``score_low``, ``score_high``, ``steps``)."""
    steps = [list(s) for s in board.solution]
    proof = int(PROOF_SHARE * int(req.budgets["exact_states"]))
    cert = certify(level_from_json(board.data), solution=steps, max_states=proof,
                   max_seconds=NO_CLOCK, request=req.to_json())
    if not cert["optimal"] or cert["steps"] != len(steps):
        return "unproven"
    total = cert["score"]["total"] if cert["score"] is not None else None
    if total is not None:
        tally.scores.append(total)
    if cert["status"] != "verified":
        if total is None or abs(total - req.target) <= req.tolerance:
            return "steps"
        return "score_low" if total < req.target else "score_high"
    m = board.measure
    if "reading" in cert:
        assert req.interlock is not None
        cert["reading"]["main_region"] = {"beyond_pairs": m.beyond, "chain": m.chain,
                                          "joint": m.joint, "bodies": req.interlock.bodies}
        if board.piece_cost:
            cert["reading"]["piece_cost"] = board.piece_cost
    if board.witnesses:
        cert["witnesses"] = board.witnesses
    return cert


def _taken(req: Request, idea: Idea, template: str, rng: random.Random, seen: set[str],
           tally: _Tally, accept: Accept | None) -> _Made | None:
    """The level of ``idea`` when it meets the whole request (None, counted, when not)."""
    data = _coloured(idea, req.palette, rng)
    sha = level_sha256(level_from_json(data))
    if sha in seen:
        tally.reject("duplicate")
        return None
    seen.add(sha)
    board = _placed(req, idea, data)
    if isinstance(board, str):
        tally.reject(board)
        return None
    why = _judged(req, board)
    cert = _certified(req, board, tally) if why is None else why
    if isinstance(cert, str):
        tally.reject(cert)
        return None
    if accept is not None and accept(board.data, cert):
        tally.reject("rules")
        return None
    m = board.measure
    figures: IdeaFigures = {"minimum": m.minimum, "pair_split": m.pair_split,
                            "beyond_pairs": m.beyond, "joint": m.joint, "chain": m.chain}
    return _Made(board.data, cert, template, figures, board.piece)


def _level(req: Request, k: int, seen: set[str], tally: _Tally, progress: Progress,
           accept: Accept | None) -> tuple[_Made | None, int]:
    """Level ``k`` of the batch (None when the budget runs out) and the layouts it drew."""
    budget = int(req.budgets["candidates"])
    total = req.count * budget
    templates = [t for t in templates_for(req.topology)
                 if lengths_for(t, req.min_length, req.max_length)]
    deadline = time.monotonic() + float(req.budgets["level_seconds"])
    tried = climb = 0
    held: _Climbed | None = None  # the last idea refused: the next climb starts beside it
    ideas: set[str] = set()  # the layouts met so far, as the climb made them
    while tried < budget:
        progress.step(k * budget + tried, total, f"level {k + 1}/{req.count}",
                      level=k + 1, levels=req.count)
        if time.monotonic() > deadline:
            raise SafetyNetError(
                f"level {k + 1} ran past budgets.level_seconds "
                f"({req.budgets['level_seconds']:g} s) after {tried} layouts: nothing is "
                "written, as what a level gets must not depend on the machine's speed "
                "(lower budgets.candidates, or raise budgets.level_seconds)")
        rng = random.Random(f"gridforge.snakes.interlock/{req.seed}/{k}/{climb}")
        climb += 1
        got = _climb(req, held, templates, budget - tried, rng, ideas)
        tried += got.spent
        if got.idea is None:
            held = None
            tally.reject("no_idea")
            continue
        ideas.add(_digest(got.idea.level_json()))
        made = _taken(req, got.idea, got.template, rng, seen, tally, accept)
        if made is not None:
            return made, tried
        held = got
    return None, tried


@dataclass(frozen=True)
class _Climbed:
    """One climb: the idea it met (None: none), on which template, what it asked, and the
    layouts it drew."""

    idea: Idea | None
    template: str
    ask: IdeaRequest
    spent: int


def _digest(data: LevelJson) -> str:
    return json.dumps(data, sort_keys=True)


def _climb(req: Request, held: _Climbed | None, templates: Sequence[str], left: int,
           rng: random.Random, ideas: set[str]) -> _Climbed:
    """A climb of at most ``left`` layouts: beside ``held`` (the last idea refused, its
    neighbours a layout no climb met before: :func:`~gridforge.snakes.design.interlock.
    continue_idea`, at most :data:`NEIGHBOUR_ROUNDS`) when there is one, else a fresh climb on
    a template drawn from ``templates``. An idea refused for its piece, score or steps
    mostly has a neighbour that meets the whole request a few layouts away, where a fresh
    climb draws hundreds."""
    if held is not None and held.idea is not None:
        rounds = min(NEIGHBOUR_ROUNDS, left)
        ask = replace(held.ask, rounds=rounds - 1)
        idea = continue_idea(ask, held.idea, rng, lambda data, _: _digest(data) not in ideas)
        return _Climbed(idea, held.template, ask, rounds if idea is None else idea.tried)
    template = rng.choice(list(templates))
    rounds = min(ROUNDS, left)
    ask = _idea_request(req, template, rounds, rng)
    idea = build_idea(ask, rng)
    return _Climbed(idea, template, ask, rounds if idea is None else idea.tried)


def design_interlocked(req: Request, progress: Progress = NO_PROGRESS,
                       accept: Accept | None = None) -> DesignedBatch:
    """The batch of an interlock request (``req.interlock`` set), in the designer's batch
    format (:func:`~gridforge.snakes.design.pipeline.design_levels`): ``count`` levels, or
    fewer with the report's ``shortfall`` saying which level the budget ran out on and why
    its ideas were refused.

    :raises Cancelled: when the progress sink asks to stop.
    :raises SafetyNetError: when a level runs past ``budgets.level_seconds``.
    """
    if req.interlock is None:
        raise ValueError("design_interlocked needs a request with an interlock field")
    levels: list[LevelJson] = []
    certificates: list[Certificate] = []
    per_level: list[LevelReport] = []
    seen: set[str] = set()
    tally = _Tally()
    shortfall: Shortfall | None = None
    total = req.count * int(req.budgets["candidates"])
    for k in range(req.count):
        made, tried = _level(req, k, seen, tally, progress, accept)
        if made is None:
            shortfall = {"level": k, "candidates": tried, "stopped_by": "candidates",
                         "reasons": dict(sorted(tally.reasons.items())),
                         "lowest_score": min(tally.scores, default=None),
                         "highest_score": max(tally.scores, default=None)}
            break
        meta: JsonObject = {"id": f"design-{req.seed}-{k + 1:04d}", "template": made.template,
                            "target": req.target, "seed": req.seed, "candidate": tried}
        if made.piece is not None:
            meta["piece"] = made.piece
        levels.append({**made.level, "meta": meta})
        certificates.append(made.certificate)
        cert = made.certificate
        assert cert["score"] is not None and cert["steps"] is not None
        per_level.append({"candidates": tried, "score": cert["score"]["total"],
                          "steps": cert["steps"], "optimal": cert["optimal"],
                          "lower_bound": cert["steps"], "template": made.template,
                          "interlock": made.figures})
    progress.step(total, total, "done", finished=True)
    report: BatchReport = {"made": len(levels), "asked": req.count, "levels": per_level,
                           "rejected": dict(sorted(tally.reasons.items())),
                           "scored": len(tally.scores)}
    if shortfall is not None:
        report["shortfall"] = shortfall
    return {"format": BATCH_FORMAT, "request": req.to_json(), "levels": levels,
            "certificates": certificates, "report": report}

