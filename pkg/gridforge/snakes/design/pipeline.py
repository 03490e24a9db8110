"""The snakes level designer's pipeline (seed 004, section 4; spec sections 7 and 8).

条件检查 → 空间模板与尺寸 → 连通区域检查 → 长身体与洞口 → 空间求解 → 机制依赖 → 完整回放 →
七项评分 → 精确搜索与再次筛选 → 去重与认证

1. **Condition check** (:mod:`~gridforge.snakes.design.request`): every field of the request
   is checked at once, with a field path, and so is what the fields allow together. Nothing
   is generated for a bad request.
2. **Template and size** (:mod:`~gridforge.snakes.design.templates`): the area follows from
   the body cells, the holes and the occupancy a candidate aims at (its *recipe*,
   :mod:`~gridforge.snakes.design.recipe`); fixed sizes are kept or refused.
3. **Connectivity**: the shape keeps its intended regions; each region gets its own bodies and
   its own colour supply and demand (the split template has two).
4. **Bodies and holes** (:mod:`~gridforge.snakes.design.layout`): self-avoiding bodies are laid
   longest first; each hole avoids the cells next to the starting ends of the bodies of its
   colour and lies in their region.
5. **Spatial solve**: the game's solver (:meth:`~gridforge.snakes.solver.search.Solver.fast`) finds
   exit orders and the room-making moves in between; candidates it cannot solve within its
   state budget are dropped.
6. **Mechanics** (:mod:`~gridforge.snakes.design.mechanics`), arranged only where the found
   solution keeps them legal; then terrain (:mod:`~gridforge.snakes.design.terrain`) where
   it binds, when the request asks for coloured paths or bridges.
7. **Full replay** with the real rules (:class:`~gridforge.snakes.game.rules.Game`).
8. **The seven-term score** (:mod:`~gridforge.snakes.design.score`), first on the shortened
   solution.
9. **Exact search** (the solver's A* under the known upper bound) shortens or proves the
   solution; the score is taken again on the final solution and the request checked again.
10. **De-duplication and certification**: the certificate is judged by
    :func:`~gridforge.snakes.solver.certificate.judge` (its claims are this pipeline's own results:
    re-proving them here cost a sixth of a main-line level's time; the tests and
    ``--verify`` recheck certificates with
    :func:`~gridforge.snakes.solver.recheck.check_certificate`).

After every scored candidate the pressure (about target / 100) moves toward the target by the
error seen, so a batch calibrates itself. Every choice comes from ``random.Random`` seeded by
the request's seed and the level's number, the candidates are tried in a fixed order and every
search is bounded by states, so the same request gives the same bytes on any machine under any
load. The seconds budgets (``exact_seconds``, ``level_seconds``) are safety nets only: when one
fires, :class:`SafetyNetError` stops the batch loudly instead of writing what a faster machine
would not have written.

From pressure 0.95 candidates are built *backwards* from the solved board instead
(:mod:`~gridforge.snakes.design.backward`): steps 4 and 5 become backward play, which yields the
level and its solution together, and :func:`~gridforge.snakes.solver.improve.tighten` shortens
it further.

Fixed parameters of the request are never relaxed: a candidate that cannot honour them is
dropped and counted under its reason; if the budget runs out, the batch says which reasons
stopped it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace
from typing import Any

from gridforge import __version__
from gridforge.errors import GridforgeError, ValidationError
from gridforge.jsontypes import Json, JsonObject
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.design.backward import Plan, unsolve
from gridforge.snakes.design.batch_rules import SERIAL_STATES, Accept, SafetyNetError
from gridforge.snakes.design.console import print_batch
from gridforge.snakes.design.files import write_json
from gridforge.snakes.design.layout import (
    assign_colors,
    coat_layers,
    level_dict,
    place_bodies,
    place_holes,
)
from gridforge.snakes.design.mechanics import add_coats, add_dependencies, scramble
from gridforge.snakes.design.recipe import Recipe, area_for, clamp, make_recipe
from gridforge.snakes.design.reports import BatchReport, DesignedBatch, LevelReport, Shortfall
from gridforge.snakes.design.request import Request, parse_request, read_spec
from gridforge.snakes.design.score import score_level
from gridforge.snakes.design.templates import Shape, TemplateError, make_shape
from gridforge.snakes.design.terrain import add_bridges, add_paths
from gridforge.snakes.design.topology import FloorGraph, potential_exits
from gridforge.snakes.game.certfile import BATCH_FORMAT, CERT_FORMAT, Certificate, Score, Witness
from gridforge.snakes.game.level import Level, level_from_json, level_sha256
from gridforge.snakes.game.levelfile import LevelJson
from gridforge.snakes.game.rules import Game, Move, move_to_step
from gridforge.snakes.solver.certificate import certificate_reading, judge
from gridforge.snakes.solver.improve import RESTARTS, Budget, Improved, improve, tighten
from gridforge.snakes.solver.puzzle import crossed_bridges, relaxations, serial, witness
from gridforge.snakes.solver.search import SearchResult, Solver, shorten

__all__ = ["Candidate", "SafetyNetError", "command", "design_levels", "parse_request"]

PROVEN_EXTRA = 12  # candidates tried after an unproven success, for a proven one
WITNESS_STATES = 20_000  # states each mechanic's witness search may store
PAIR_STATES = 5_000  # states of each pair of the pairwise bound
BLOCKED_PLACEMENTS = 12  # body placements a make-way candidate may try
# The shortening that judges a candidate; the candidate taken gets improve.RESTARTS in full.
# Both scale with budgets.shorten_states (RESTART_STATES is its default: the largest restart).
QUICK_RESTARTS = ((3, 1, 15_000),)
RESTART_STATES = max(states for _, _, states in RESTARTS)


def _safety_net(result: SearchResult, what: str) -> None:
    if result.reason == "seconds":
        raise SafetyNetError(
            f"{what} ran past budgets.exact_seconds after {result.expanded} expansions: "
            "nothing is written, as the result must not depend on the machine's speed "
            "(lower the state budgets, or raise budgets.exact_seconds)")


@dataclass
class Candidate:
    """A level that passed the pipeline, with its solution and the search's verdict."""

    level: Level
    moves: list[Move]
    score: Score
    optimal: bool
    lower_bound: int
    template: str
    exact: dict[str, int | str]
    backward: bool = False  # built backwards from the solved board
    witnesses: list[Witness] = field(default_factory=list)
    certificate: Certificate | None = None  # once taken (_take)


@dataclass
class _Tally:
    reasons: dict[str, int] = field(default_factory=dict)
    scored: int = 0
    lowest: float | None = None
    highest: float | None = None

    def reject(self, reason: str) -> None:
        self.reasons[reason] = self.reasons.get(reason, 0) + 1

    def seen(self, score: float) -> None:
        self.scored += 1
        self.lowest = score if self.lowest is None else min(self.lowest, score)
        self.highest = score if self.highest is None else max(self.highest, score)


def _placement(req: Request, recipe: Recipe, shape: Shape, early: int, rng: random.Random
               ) -> tuple[tuple[list[list[tuple[int, int]]], list[list[int]],
                                list[tuple[tuple[int, int], int]]] | None, bool]:
    """Bodies, their layers (``early`` coats among them) and holes placed on ``shape``, the
    holes leaving the number of potential exits closest to the recipe's (None when no
    placement of holes succeeded); and whether some placement of the bodies succeeded."""
    graph = FloorGraph(shape.cols, shape.rows, shape.floor)
    best: tuple[int, list[tuple[tuple[int, int], int]]] | None = None
    placed: tuple[list[list[tuple[int, int]]], list[list[int]]] | None = None
    laid = False  # some placement of the bodies succeeded
    # A make-way candidate walls some bodies' holes in by each other (pockets), for good:
    # no order of the other bodies' exits frees them, so it is never solved one at a time.
    # Few placements do that: such a candidate tries several (each cheap next to a search).
    # Crowded boards (a scrambled start) make way by crowding; walls there leave levels the
    # fast search cannot solve.
    walled = len(recipe.lengths) - recipe.exits if req.make_way and not recipe.scramble else 0
    hidden = list(range(walled)) if walled >= 2 else None
    for _ in range(BLOCKED_PLACEMENTS if hidden else 1):
        bodies = place_bodies(shape, recipe.lengths, recipe.pressure, rng, pockets=walled)
        if bodies is None:
            continue
        laid = True
        outer = assign_colors(len(bodies), recipe.colors, rng, req.palette, walled)
        layers = coat_layers(outer, early, rng, req.palette)
        for _ in range(3):
            holes = place_holes(shape, bodies, layers, recipe, int(req.budgets["path_search"]),
                                rng, hidden)
            if holes is None:
                continue
            exits = sum(potential_exits(graph, list(zip(bodies, layers, strict=True)), holes))
            miss = abs(exits - recipe.exits)
            if best is None or miss < best[0]:
                best, placed = (miss, holes), (bodies, layers)
            if miss == 0:
                break
        if best is not None and best[0] == 0:
            break
    if placed is None or best is None:
        return None, laid
    return (*placed, best[1]), laid


def _candidate(req: Request, recipe: Recipe, rng: random.Random, tally: _Tally
               ) -> tuple[Candidate | None, float | None]:
    """Run one candidate through the pipeline; returns it (or None) and its score if scored."""
    budgets = req.budgets
    try:
        shape = make_shape(recipe.template, area_for(req, recipe), rng, cols=req.cols,
                           rows=req.rows)
    except TemplateError:
        tally.reject("template")
        return None, None
    if recipe.backward is not None:
        built = _backward(shape, recipe.backward, rng, tally)
        if built is None:
            return None, None
        data, moves = built
        return _finish(req, recipe, data, moves, rng, tally)
    # Coats either join the spatial problem now (their holes can then be hidden too) or are
    # inserted later along the found solution.
    early = recipe.coats if recipe.coats_first else 0
    placed, laid = _placement(req, recipe, shape, early, rng)
    if placed is None:
        tally.reject("holes" if laid else "placement")
        return None, None
    bodies, layers, holes = placed
    data = level_dict(shape, bodies, layers, holes)
    try:
        level = level_from_json(data)
    except ValidationError:
        tally.reject("invalid")
        return None, None
    game = Game(level)
    solver = Solver(game)
    if solver.dead_reason():
        tally.reject("dead")
        return None, None
    fast = solver.fast(max_states=int(budgets["fast_branches"]),
                       max_seconds=float(budgets["exact_seconds"]))
    _safety_net(fast, "the fast search")
    if fast.moves is None:
        tally.reject("unsolved")
        return None, None
    moves = fast.moves
    if recipe.scramble:
        data, moves = scramble(data, game, moves, recipe, rng)
        game = Game(level_from_json(data))
    # Mechanics along the found solution, then the full replay with the real rules.
    coated = add_coats(data, game, moves, recipe.coats - early, recipe.hide_coats, rng,
                       req.palette)
    if coated is None:
        tally.reject("mechanics")
        return None, None
    data, moves = coated
    return _finish(req, recipe, data, moves, rng, tally)


def _backward(shape: Shape, plan: Plan, rng: random.Random, tally: _Tally
              ) -> tuple[LevelJson, list[Move]] | None:
    """A level built backwards from the solved board, and its solution (see reverse.py);
    None (counted) when the bodies found no room or a body can still reach its hole."""
    built = unsolve(shape.floor, plan, rng)
    if isinstance(built, str):
        tally.reject(built)
        return None
    board, exits = built
    if exits:
        tally.reject("unblocked")
        return None
    return board.level(shape.cols, shape.rows, shape.stones), board.forward()


def _transposed(data: LevelJson, moves: list[Move]) -> tuple[LevelJson, list[Move]]:
    """A level mirrored on its main diagonal (columns become rows) and its solution mirrored
    (U and L, D and R trade places: the direction's bit 1 flips)."""
    out: LevelJson = {
        **data, "cols": data["rows"], "rows": data["cols"],
        "stones": sorted([y, x] for x, y in data["stones"]),
        "bodies": [{**b, "cells": [[y, x] for x, y in b["cells"]]} for b in data["bodies"]],
        "holes": [{**h, "cell": [h["cell"][1], h["cell"][0]]} for h in data["holes"]]}
    return out, [m ^ 2 for m in moves]


def _finish(req: Request, recipe: Recipe, data: LevelJson, moves: list[Move],
            rng: random.Random, tally: _Tally) -> tuple[Candidate | None, float | None]:
    """Mechanics, full replay, score, exact search and the request's ranges, for a level and
    a solution found for it."""
    if req.portrait and data["cols"] > data["rows"]:
        data, moves = _transposed(data, moves)
    level = level_from_json(data)
    game = Game(level)
    dependent = add_dependencies(data, game, moves, recipe, rng, binding=req.binding)
    if dependent is None:
        tally.reject("mechanics")
        return None, None
    data, moves = dependent
    level = level_from_json(data)
    paths, bridges = req.terrain()
    if paths or bridges:
        # Terrain where it binds, against the solution found so far (design/terrain.py).
        states = int(req.budgets["exact_states"])
        placed = add_bridges(level, moves, bridges, rng, states) if bridges else (level, moves)
        if placed is not None and paths:
            placed = add_paths(*placed, paths, rng, states)
        if placed is None:
            tally.reject("terrain")
            return None, None
        level, moves = placed
    game = Game(level)
    moves = shorten(game, moves)  # replays every step with the real rules on the way
    if recipe.backward is not None:
        # Backward play leaves long solutions that the exact search cannot shorten within
        # its budget: bounded local searches splice out what they can (never padding).
        moves = tighten(game, moves)
    steps = [move_to_step(m) for m in moves]
    score = score_level(level, steps, diagnostics=False, game=game)["total"]
    # Exact search can only shorten: a candidate already below the range stays below it.
    if score < req.target - req.tolerance:
        tally.seen(score)
        tally.reject("score_low")
        return None, score
    if req.make_way and serial(game, max_states=SERIAL_STATES).status != "not_serial":
        tally.seen(score)
        tally.reject("serial")  # solved one body at a time, or undecided within the budget
        return None, score
    solver = Solver(game)
    if _too_plain(req, solver, len(moves), tally):  # shortening only lowers it
        return None, score
    # A quick shortening to judge the candidate; the one taken is shortened in full (_final).
    # (The pairwise bound only reports a lower bound: the candidate taken gets it.)
    # A level that must be proven is judged by the exact search alone: shortening does not
    # make a proof within the same states (A* explores below the bound all the same).
    improved = _improve(req, game, moves, solver, QUICK_RESTARTS, 0, proof_only=req.proven)
    moves, optimal, lower = improved.moves, improved.optimal, improved.lower_bound
    if req.proven and not optimal:
        tally.reject("unproven")
        return None, None
    steps = [move_to_step(m) for m in moves]
    if level.bridges and len(crossed_bridges(game, game.replay(steps))) < len(level.bridges):
        # The shortened solution goes round a bridge: refused here, before the full
        # shortening and the witnesses a taken candidate gets (_final checks again).
        tally.reject("unbound")
        return None, None
    final = score_level(level, steps, diagnostics=False, game=game)
    total = final["total"]
    tally.seen(total)
    if _out_of_range(req, total, len(moves), tally) or _too_plain(req, solver, len(moves),
                                                                   tally):
        return None, total
    return Candidate(level, moves, final, optimal, lower, recipe.template,
                     dict(improved.record), recipe.backward is not None), total


def _improve(req: Request, game: Game, moves: list[Move], solver: Solver,
             restarts: tuple[tuple[int, int, int], ...], pair_states: int,
             proof_only: bool = False) -> Improved:
    """:func:`improve` within the request's budgets (the restarts scaled by
    ``shorten_states``); ``proof_only``: the exact search alone, no shortening."""
    budgets = req.budgets
    scale = int(budgets["shorten_states"])
    restarts = tuple((w, s, max(1, states * scale // RESTART_STATES)) for w, s, states in restarts)
    budget = Budget(restarts=restarts, exact_states=int(budgets["exact_states"]),
                    seconds=float(budgets["exact_seconds"]), pair_states=pair_states)
    if proof_only:
        budget = replace(budget, restarts=(), suffixes=0, window_depth=0)
    improved = improve(game, moves, budget, solver=solver)
    if improved.safety_net:
        raise SafetyNetError(
            "the shortening searches ran past budgets.exact_seconds: nothing is written, as "
            "the result must not depend on the machine's speed (lower the state budgets, or "
            "raise budgets.exact_seconds)")
    return improved


def _too_plain(req: Request, solver: Solver, steps: int, tally: _Tally) -> bool:
    """Whether a solution of ``steps`` steps has fewer interaction steps (beyond the travel
    bound at the start) than the request asks (counted)."""
    if req.interaction_min is None or steps - solver.bound(solver.game.initial) >= \
            req.interaction_min:
        return False
    tally.reject("interaction")
    return True


def _out_of_range(req: Request, total: float, steps: int, tally: _Tally) -> bool:
    """Whether the request's ranges refuse the level (counted), as the certificate module
    judges them (one reading of "in range", rounding included)."""
    if not judge(req.to_json(), total, steps):
        return False
    if abs(total - req.target) <= req.tolerance:
        tally.reject("steps")
    else:
        tally.reject("score_low" if total < req.target else "score_high")
    return True


def _final(req: Request, cand: Candidate, tally: _Tally) -> Candidate | None:
    """The candidate about to be taken, shortened in full (:data:`RESTARTS`), judged again,
    and its mechanics' witnesses found; None (counted) when it no longer qualifies."""
    game = Game(cand.level)
    solver = Solver(game)
    improved = cand.exact
    moves, optimal, lower = cand.moves, cand.optimal, cand.lower_bound
    if not optimal:
        full = _improve(req, game, moves, solver, RESTARTS, PAIR_STATES)
        moves, optimal, lower, improved = (full.moves, full.optimal, full.lower_bound,
                                           dict(full.record))
    steps = [move_to_step(m) for m in moves]
    final = score_level(cand.level, steps, diagnostics=False, game=game)
    if _out_of_range(req, final["total"], len(moves), tally) or _too_plain(
            req, solver, len(moves), tally):
        return None
    witnesses: list[Witness] = []
    for mechanic, relaxed in relaxations(cand.level):
        found = witness(cand.level, relaxed, len(moves), max_states=WITNESS_STATES,
                        solution=moves)
        if found is None:
            # Terrain is placed only where it binds (spec section 3b): always judged.
            if req.binding or mechanic.startswith("paths"):
                tally.reject("unbound")
                return None
            continue
        witnesses.append({"mechanic": mechanic, "solution": found})
    if cand.level.bridges and len(crossed_bridges(game, game.replay(steps))) < len(
            cand.level.bridges):
        tally.reject("unbound")  # a bridge the final solution does not cross
        return None
    return Candidate(cand.level, moves, final, optimal, lower, cand.template, improved,
                     cand.backward, witnesses)


def _take(req: Request, cand: Candidate, tally: _Tally, accept: Accept | None
          ) -> Candidate | None:
    """The candidate about to be taken, finished (:func:`_final`) with its certificate, or
    None (counted) when it no longer qualifies or ``accept`` finds faults with it."""
    made = _final(req, cand, tally)
    if made is None:
        return None
    made.certificate = _certificate(req, made)
    if accept is not None and accept(made.level.to_json(with_meta=False), made.certificate):
        tally.reject("rules")
        return None
    return made


def _certificate(req: Request, cand: Candidate) -> Certificate:
    """The certificate of an accepted level, in :mod:`~gridforge.snakes.solver.certificate`'s
    format, judged against the request by its :func:`~gridforge.snakes.solver.certificate.judge`."""
    steps = [move_to_step(m) for m in cand.moves]
    score = score_level(cand.level, steps, diagnostics=True)
    request = req.to_json()
    misses = judge(request, score["total"], len(steps))
    cert: Certificate = {
        "format": CERT_FORMAT,
        "level_sha256": level_sha256(cand.level),
        "status": "out_of_range" if misses else "verified",
        "reason": "; ".join(misses) if misses else ("" if cand.optimal else "minimum unproven"),
        "solution": steps,
        "steps": len(steps),
        "optimal": cand.optimal,
        "minimum": len(steps) if cand.optimal else None,
        "lower_bound": len(steps) if cand.optimal else cand.lower_bound,
        "upper_bound": len(steps),
        "score": score,
        "request": request,
        # A proof found by a weighted restart is re-proved by exact A* within as many states.
        "budgets": {"exact_states": max(int(req.budgets["exact_states"]),
                                        int(cand.exact.get("proof_states", 0))),
                    "exact_seconds": float(req.budgets["exact_seconds"]),
                    "fast_states": int(req.budgets["fast_branches"]),
                    "shorten_states": int(req.budgets["shorten_states"]),
                    "candidates": int(req.budgets["candidates"]),
                    "path_search": int(req.budgets["path_search"]),
                    "level_seconds": float(req.budgets["level_seconds"])},
        "search": cand.exact,
        "version": __version__,
    }
    # The figures of spec 5c, as the game's certify writes them (left out past their budget).
    read = certificate_reading(cand.level, cert)
    if read is not None:
        cert["reading"] = read
    if cand.witnesses:
        cert["witnesses"] = cand.witnesses
    if misses:  # pragma: no cover - the pipeline judged all of this already
        raise GridforgeError("internal error: certificate out of range: " + "; ".join(misses))
    return cert


def _stage(k: int, count: int, best: float | None) -> str:
    """The progress label: which level, and the score nearest the target seen so far."""
    return f"level {k + 1}/{count}" + ("" if best is None else f", best score {best:g}")


def _figures(k: int, count: int, best: float | None) -> dict[str, int | float]:
    """The same as named figures, for a page to word itself (``best`` once there is one)."""
    return {"level": k + 1, "levels": count, **({} if best is None else {"best": best})}


UNSOLVED_EASE = 0.02  # the pressure given back for a candidate the fast search cannot solve


def _steered(req: Request, recipe: Recipe, pressure: float, score: float | None,
             unsolved: bool) -> float:
    """The pressure for the next candidate after one of ``recipe`` scored ``score`` (None:
    not scored), ``unsolved`` when the fast search could not solve it. A provable recipe
    steers nothing."""
    if unsolved and not recipe.provable:
        # Too hard for the fast search: ease off (scores only ever push up).
        pressure = clamp(pressure - UNSOLVED_EASE, 0.0, 1.15)
    if score is not None and not recipe.provable:
        # Steer the pressure toward the target by the error seen.
        pressure = clamp(pressure + 0.25 * (req.target - score) / 100, 0.0, 1.15)
    return pressure


def design_levels(request: Json, progress: Progress = NO_PROGRESS,
                  accept: Accept | None = None) -> DesignedBatch:
    """Design ``count`` certified levels for a request (see :func:`parse_request`).

    ``accept`` (for callers with rules of their own, such as the main line's curriculum)
    judges each level about to be taken, with its certificate: a level it finds faults with
    is counted under ``rules`` and the search goes on with the next candidate, so a rule that
    few candidates keep costs candidates, not whole requests.

    Returns the batch ``{"format": "gridforge.snakes.batch/1", "request", "levels",
    "certificates", "report"}``; ``report`` says how many candidates each level took and why
    the others were dropped. Fewer levels than asked means the candidate budget ran out; the
    report's ``shortfall`` says so with the reasons. A request with an ``interlock`` field
    is built by :func:`~gridforge.snakes.design.interlock_batch.design_interlocked` instead
    (levels on one board whose bodies need each other), in the same batch format.

    :raises ValidationError: for a bad or impossible request (nothing is generated).
    :raises Cancelled: when the progress sink asks to stop.
    """
    req = parse_request(request)
    if req.interlock is not None:
        # Levels on one board: their own construction (loaded only when asked for).
        from gridforge.snakes.design.interlock_batch import design_interlocked

        return design_interlocked(req, progress, accept)
    return _design_candidates(req, progress, accept)


def _design_candidates(req: Request, progress: Progress, accept: Accept | None
                       ) -> DesignedBatch:
    """:func:`design_levels` by the candidate pipeline (every request but an interlock's)."""
    budget = int(req.budgets["candidates"])
    total_work = req.count * budget
    levels: list[LevelJson] = []
    certificates: list[Certificate] = []
    per_level: list[LevelReport] = []
    seen: set[str] = set()
    pressure = clamp(req.target / 100, 0.0, 1.1)
    tally = _Tally()
    shortfall: Shortfall | None = None
    for k in range(req.count):
        rng = random.Random(req.seed * 1_000_003 + k)
        made: Candidate | None = None
        pending: Candidate | None = None  # in range, minimum unproven: taken if none is proven
        tried = 0
        stop = budget
        deadline = time.monotonic() + float(req.budgets["level_seconds"])
        best: float | None = None  # the score nearest the target so far, for the progress
        progress.step(k * budget, total_work, _stage(k, req.count, best),
                      **_figures(k, req.count, best))
        while made is None and tried < budget:
            if tried >= stop and pending is not None:
                # No proven one in the extra candidates: the unproven one, shortened in full.
                made, pending, stop = _take(req, pending, tally, accept), None, budget
                continue
            if time.monotonic() > deadline:
                raise SafetyNetError(
                    f"level {k + 1} ran past budgets.level_seconds "
                    f"({req.budgets['level_seconds']:g} s) after {tried} candidates: nothing "
                    "is written, as what a level gets must not depend on the machine's speed "
                    "(lower budgets.candidates, or raise budgets.level_seconds)")
            tried += 1
            if tried % 8 == 0:
                progress.step(k * budget + tried, total_work, _stage(k, req.count, best),
                              **_figures(k, req.count, best))
            # Every other candidate leans toward a provable level once one is made, and from
            # the start when the request asks for a proven minimum.
            provable = (pending is not None or req.proven) and tried % 2 == 0
            recipe = make_recipe(req, pressure, rng, provable=provable)
            if recipe is None:
                tally.reject("recipe")
                continue
            unsolved = tally.reasons.get("unsolved", 0)
            cand, score = _candidate(req, recipe, rng, tally)
            pressure = _steered(req, recipe, pressure, score,
                                tally.reasons.get("unsolved", 0) > unsolved)
            if score is not None and (best is None or abs(score - req.target)
                                      < abs(best - req.target)):
                best = score
            if cand is None:
                continue
            sha = level_sha256(cand.level)
            if sha in seen:
                tally.reject("duplicate")
                continue
            seen.add(sha)
            if not (cand.optimal or cand.backward):
                # In range but the minimum is unproven: keep the first such, and look a
                # little longer for one whose minimum the exact search can prove (a crowded
                # backward-built level is beyond a proof: it is taken as it is).
                if pending is None:
                    pending = cand
                    stop = min(budget, tried + PROVEN_EXTRA)
                continue
            made = _take(req, cand, tally, accept)
        if made is None and pending is not None:
            made = _take(req, pending, tally, accept)
        if made is None:
            shortfall = {"level": k, "candidates": tried, "stopped_by": "candidates",
                         "reasons": dict(sorted(
                tally.reasons.items())), "lowest_score": tally.lowest,
                "highest_score": tally.highest}
            break
        meta: JsonObject = {"id": f"design-{req.seed}-{k + 1:04d}",
                            "template": made.template, "target": req.target, "seed": req.seed,
                            "candidate": tried}
        level_json = made.level.to_json(with_meta=False)
        level_json["meta"] = meta
        levels.append(level_json)
        assert made.certificate is not None  # _take made it
        certificates.append(made.certificate)
        per_level.append({"candidates": tried, "score": made.score["total"],
                          "steps": len(made.moves), "optimal": made.optimal,
                          "lower_bound": made.lower_bound, "template": made.template})
    progress.step(total_work, total_work, "done", finished=True)
    report: BatchReport = {
        "made": len(levels), "asked": req.count, "levels": per_level,
        "rejected": dict(sorted(tally.reasons.items())), "scored": tally.scored,
    }
    if shortfall is not None:
        report["shortfall"] = shortfall
    return {"format": BATCH_FORMAT, "request": req.to_json(), "levels": levels,
            "certificates": certificates, "report": report}


def command(args: Any, progress: Progress) -> int:
    """``gridforge design-levels --target/--count/--seed`` or ``--spec``: design a batch and
    write it to ``--out``; the lines a person reads come from
    :func:`gridforge.snakes.design.console.print_batch`. Exit code 1 when fewer levels than
    asked were made (the batch is still written, its report says why).

    Kept for ``snakes/commands.py`` as it is; that module may call :func:`design_levels`,
    :func:`~gridforge.snakes.design.files.write_json` and ``print_batch`` itself instead.
    """
    if getattr(args, "spec", None):
        request: Any = read_spec(args.spec)
    else:
        request = {"target": args.target, "count": args.count, "seed": args.seed}
    started = time.monotonic()
    batch = design_levels(request, progress)
    write_json(args.out, batch)
    return print_batch(batch, args.out, time.monotonic() - started)
