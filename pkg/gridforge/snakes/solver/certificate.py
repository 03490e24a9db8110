"""Certificates (seed 004 section 5, "可解证书与最少步数"; spec sections 5 and 7).

A certificate names a level by the SHA-256 of its canonical JSON (``meta`` excluded) and
states one of four statuses, exactly as spec section 5 defines them:

- ``verified``: a full legal solution replays to completion (and, when a request is given,
  the score and steps lie inside its ranges);
- ``unsolvable``: supply and demand differ (per colour or floor region), or the state
  space was exhausted (or a static dead check proved it);
- ``undetermined``: the budget ran out without a solution; never means unsolvable;
- ``out_of_range``: solved, but the score or the steps miss the request.

``optimal`` is true only when the search proved that nothing shorter exists; otherwise
``minimum`` is null and ``lower_bound`` / ``upper_bound`` bracket it.

This module is the game's half of a certificate: search, replay, steps, bounds, status. The
seven-term score belongs to the designer; :func:`certify` and :func:`recheck` take it as a
:data:`Scorer` (``gridforge.snakes.design.certify`` passes the designer's), so the game never
imports its designer. Without a scorer a certificate's ``score`` is null (and a recheck leaves
a claimed score unjudged).

Public names: :func:`certify` (level -> certificate dict), :func:`judge` and
:func:`request_issues` (a request's ranges), :func:`certificate_reading` (a solved
certificate's ``reading``), :func:`certify_batch`, :func:`certify_file_data`; the recheck of a
certificate's claims is :mod:`gridforge.snakes.solver.recheck`; the file types and format
names (``CERT_FORMAT``, ``BATCH_FORMAT``, ``STATUSES``) are the game's, in
:mod:`gridforge.snakes.game.certfile`.

A solved certificate (``verified`` or ``out_of_range``) written by :func:`certify` also carries
``reading``, the figures of spec section 5c (:class:`CertReading`): each body's solo cost, the
travel and body bounds, the joint and steering steps (at the certificate's ``minimum`` when
``optimal``, else at its ``lower_bound``, so joint steps may be negative while the minimum is
unproven) and the drags of its solution, computed by
:func:`gridforge.snakes.solver.legibility.reading`. Each solo search has a counted budget
(:data:`READING_STATES` stored states): when one runs out the certificate has no ``reading``
at all, never a guessed figure. A recheck recomputes a claimed ``reading`` (within the same
budget: a figure it cannot recompute is refused, not believed); a certificate without one
(written before issue 41) stays valid and is rechecked without one.

``budgets``, ``search`` and ``version`` are informational, not claims: what the maker says
of its budgets, of its searches' work and of the package that wrote it. A recheck believes
none of them and shows none of them as a result: it judges their shape only (a few figures,
short texts) and writes its own in the certificate it returns; ``budgets.exact_states`` can
only lower the states a re-proof may store.

Requests (optional) are dicts with ``target`` and ``tolerance`` (default 7) for the score,
and ``steps`` as ``[min, max]`` (either may be null) or ``min_steps`` / ``max_steps``; other
fields are the designer's and are carried along unread. Certificates hold no wall-clock
figures, so the same level and budgets give the same bytes unless the seconds budget cuts a
search short.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, TypeGuard

from gridforge import __version__
from gridforge.errors import (
    GridforgeError,
    Issue,
    Issues,
    ValidationError,
    field_path,
    is_int,
    refusal,
)
from gridforge.i18n import say
from gridforge.jsontypes import Json, JsonObject
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.game.certfile import (
    BATCH_FORMAT,
    CERT_FORMAT,
    Batch,
    Certificate,
    CertReading,
    Score,
)
from gridforge.snakes.game.level import FORMAT as LEVEL_FORMAT
from gridforge.snakes.game.level import (
    Level,
    balance_issues,
    level_from_json,
    level_sha256,
)
from gridforge.snakes.game.levelfile import Step, accepted
from gridforge.snakes.game.rules import Game, IllegalStep, move_to_step, step_to_move
from gridforge.snakes.solver.improve import Budget, improve
from gridforge.snakes.solver.legibility import SOLO_BUDGET, SoloBudget
from gridforge.snakes.solver.legibility import reading as legibility_reading
from gridforge.snakes.solver.matching import INF
from gridforge.snakes.solver.search import DEFAULT_SECONDS, DEFAULT_STATES, Solver

DEFAULT_TOLERANCE = 7
CERT_KEYS = ("format", "level_sha256", "status", "reason", "solution", "steps", "optimal",
             "minimum", "lower_bound", "upper_bound", "score", "request", "budgets", "search",
             "version")
# Optional: ``witnesses``, one per mechanic instance that binds (spec section 5b), each
# {"mechanic": "bodies[i].frozen" | "holes[j].frozen" | "bodies[i].lock", "solution": steps}: a
# solution of the level with that mechanic removed, no longer than the certificate's, that the
# real rules refuse.
# Optional and informational: ``prediction``, what a weights file predicts for the level
# (issue 24, docs/snakes-calibration.md); made only when a weights file is given.
# Optional: ``reading``, the figures of spec section 5c of a solved level (:class:`CertReading`),
# absent when a solo search ran out of its budget (and in certificates written before it).
OPTIONAL_KEYS = ("reading", "witnesses", "prediction")
READING_KEYS = ("solo_costs", "travel_bound", "body_bound", "joint_steps", "steering_steps",
                "drags")
# Optional in a ``reading`` (spec 5d, the fourth build's): ``main_region`` {beyond_pairs, chain,
# joint, bodies} and ``piece_cost`` {piece: steps}. The designer measures them by exact searches
# a recheck cannot afford; a recheck judges their shape and that they fit the level (the main
# region's body count, a chain no longer than its bodies allow, pieces the level has).
READING_OPTIONAL = ("main_region", "piece_cost")
MAIN_REGION_KEYS = ("beyond_pairs", "chain", "joint", "bodies")
# The states each body's solo search may store, for a certificate's ``reading`` and its
# recheck alike (so an honest reading is recomputed by the very searches that made it).
READING_STATES = SOLO_BUDGET
# ``budgets``, ``search`` and ``version`` are informational: the maker's own account of the
# budgets it had, the work its searches did and the package that wrote it. They are no
# claims (nothing about the level follows from them), so a recheck judges only their shape
# (below) and writes its own; ``budgets.exact_states`` only ever lowers the states a re-proof
# may store (an honest claim is re-proved by the very search that made it).
INFORMATIONAL_KEYS = ("budgets", "search", "version")
MAX_INFO_ITEMS = 16  # figures in ``budgets`` or ``search``
MAX_INFO_TEXT = 64  # characters of ``version`` or of a text in ``search``
MAX_BATCH_LEVELS = 2000  # the designer's largest batch (its MAX_COUNT)
MAX_SOLUTION = 10_000  # steps; far above any certified solution, refused before replay
# Diagnostics a score reports since the certificates of issue 18 (the travel bound and the
# steps beyond it): a certificate written before them (a saved batch, an editor file) is
# judged without them, so that it stays valid.
LATER_DIAGNOSTICS = ("travel_bound", "interaction_steps")
# A recheck re-proves claims within at most this many stored states (and these seconds, a
# safety net): a claim that needs more is refused, never believed.
CHECK_STATES = DEFAULT_STATES
CHECK_SECONDS = 60.0


# The seven-term score of a solved level: (level, solution as JSON steps, its game) -> the
# certificate's ``score`` object.
Scorer = Callable[[Level, list[Step], Game], Score]


# ------------------------------------------------------------------------------ requests


def _number(value: object) -> TypeGuard[int | float]:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


def request_issues(request: Json, path: str = "request") -> list[Issue]:
    """Problems of the fields of ``request`` that :func:`judge` reads (empty when they hold);
    ``None`` is no request. Other fields belong to the designer and are not read here."""
    issues = Issues()
    if request is None:
        return issues.items
    if not isinstance(request, dict):
        issues.add(path, "type", "a request is an object or null")
        return issues.items
    target = request.get("target")
    if target is not None and not _number(target):
        issues.add(field_path(path, "target"), "type", "target must be a finite number")
    tolerance = request.get("tolerance", DEFAULT_TOLERANCE)
    if not _number(tolerance) or tolerance < 0:
        issues.add(field_path(path, "tolerance"), "type", "tolerance must be a finite number >= 0")
    names: list[tuple[str, Json]] = [(field_path(path, k), request.get(k))
                                    for k in ("min_steps", "max_steps")]
    steps = request.get("steps")
    if steps is not None:
        if not isinstance(steps, list) or len(steps) != 2:
            issues.add(field_path(path, "steps"), "type",
                       "steps is [min, max] (either may be null)")
        else:
            names += [(field_path(path, "steps", j), v) for j, v in enumerate(steps)]
    for where, value in names:
        if value is not None and (not is_int(value) or value < 0):
            issues.add(where, "type", "a step count is an integer >= 0 or null")
    return issues.items


def judge(request: JsonObject | None, score_total: float | None, steps: int) -> list[str]:
    """Why a solved level misses ``request`` (empty when it is in range).

    :raises ValidationError: when a field it reads is malformed (see :func:`request_issues`).
    """
    if not request:
        return []
    issues = request_issues(request)
    if issues:
        raise ValidationError(issues, "request")
    misses: list[str] = []
    target = request.get("target")
    if target is not None and score_total is not None:
        tolerance = request.get("tolerance", DEFAULT_TOLERANCE)
        assert _number(target) and _number(tolerance)  # request_issues checked them
        if abs(score_total - target) > tolerance:
            misses.append(f"score {score_total} outside {target} +- {tolerance}")
    lo, hi = request.get("min_steps"), request.get("max_steps")
    pair = request.get("steps")
    if isinstance(pair, list):
        lo, hi = pair
    # request_issues has checked them: integers or null.
    assert (lo is None or is_int(lo)) and (hi is None or is_int(hi))
    if lo is not None and steps < lo:
        misses.append(f"{steps} steps, fewer than {lo}")
    if hi is not None and steps > hi:
        misses.append(f"{steps} steps, more than {hi}")
    return misses


# ------------------------------------------------------------------------------ writing


def _blank(level: Level, request: JsonObject | None, budgets: dict[str, float]
           ) -> Certificate:
    """A certificate of status ``undetermined`` with every claim empty, in the file's order."""
    return {
        "format": CERT_FORMAT,
        "level_sha256": level_sha256(level),
        "status": "undetermined",
        "reason": "",
        "solution": None,
        "steps": None,
        "optimal": False,
        "minimum": None,
        "lower_bound": None,
        "upper_bound": None,
        "score": None,
        "request": request,
        "budgets": budgets,
        "search": None,
        "version": __version__,
    }


def _solved(cert: Certificate, solution: list[Step], optimal: bool, lower: int,
            score: Score | None) -> Certificate:
    """Fill the claims of a solved level into ``cert``: steps, bounds, score, status."""
    cert["solution"] = solution
    cert["steps"] = len(solution)
    cert["optimal"] = optimal
    cert["minimum"] = len(solution) if optimal else None
    cert["lower_bound"] = len(solution) if optimal else lower
    cert["upper_bound"] = len(solution)
    cert["reason"] = "" if optimal else "minimum unproven"
    cert["score"] = score
    misses = judge(cert["request"], _total(score), len(solution))
    cert["status"] = "out_of_range" if misses else "verified"
    if misses:
        cert["reason"] = "; ".join(misses)
    return cert


def certificate_reading(level: Level, cert: Certificate) -> CertReading | None:
    """The ``reading`` of the solved certificate ``cert`` of ``level`` (spec section 5c, by
    :func:`gridforge.snakes.solver.legibility.reading`), or None when a body's solo search needs
    more than :data:`READING_STATES` stored states (no figure rather than a wrong one) or ``cert``
    has no solution.

    :raises GridforgeError: when ``cert`` states neither a minimum nor a lower bound, or a body
        cannot leave even alone (impossible for a level a solution completes).
    """
    try:
        read = legibility_reading(level, cert, budget=READING_STATES)
    except SoloBudget:
        return None
    if read.drags is None:
        return None
    return {"solo_costs": list(read.solo_costs), "travel_bound": read.travel_bound,
            "body_bound": read.body_bound, "joint_steps": read.joint_steps,
            "steering_steps": read.steering_steps, "drags": read.drags}


def _with_reading(level: Level, cert: Certificate) -> Certificate:
    """``cert`` (solved) with its ``reading`` added, when one could be computed."""
    read = certificate_reading(level, cert)
    if read is not None:
        cert["reading"] = read
    return cert


def _total(score: Json | Score) -> float | None:
    """A score object's total, when it is a finite number."""
    total = score.get("total") if isinstance(score, dict) else None
    return total if _number(total) else None


def certify(
    level: Level | Json,
    *,
    max_states: int = DEFAULT_STATES,
    max_seconds: float = DEFAULT_SECONDS,
    fast_states: int | None = None,
    request: JsonObject | None = None,
    scorer: Scorer | None = None,
    solution: Json = None,
    progress: Progress = NO_PROGRESS,
) -> Certificate:
    """Search ``level`` within the budgets and write its certificate.

    A level dict is validated first (structural problems raise ValidationError: such a
    file is not a level); a supply/demand mismatch is a certificate of ``unsolvable``.
    ``scorer`` fills ``score`` of a solved level (null without one).

    Verify keeps what it is given (spec section 5b): with ``solution`` (JSON steps that must
    replay to completion) the level is solved by it, and the searches may only shorten it or
    prove it minimal (:func:`~gridforge.snakes.solver.improve.improve`); without one the solver
    looks for a solution first. Either way the certificate's solution is the shortest found.

    :raises ValidationError: when ``solution`` is not a legal complete solution (``solution``
        or ``solution[i]`` named).
    """
    if not isinstance(level, Level):
        level = level_from_json(level, balanced=False)
    issues = request_issues(request)
    if issues:
        raise ValidationError(issues, "request")
    cert = _blank(level, request, {"exact_states": max_states, "exact_seconds": max_seconds,
                                   "fast_states": fast_states or max_states})
    issues = balance_issues(level)
    if issues:
        cert["status"] = "unsolvable"
        cert["reason"] = "supply_demand: " + "; ".join(i.message for i in issues)
        return cert
    game = Game(level)
    solver = Solver(game)
    if solution is not None:
        moves = _given_moves(game, solution)
        cert["search"] = {"given": len(moves)}
    else:
        result = solver.solve(max_states=max_states, max_seconds=max_seconds,
                              fast_states=fast_states, progress=progress)
        cert["search"] = {"expanded": result.expanded, "stored": result.stored}
        if result.status == "unsolvable":
            cert["status"] = "unsolvable"
            cert["reason"] = result.reason
            return cert
        if result.moves is None:
            cert["reason"] = f"budget spent ({result.reason}); this does not mean unsolvable"
            cert["lower_bound"] = result.lower_bound if result.lower_bound < INF else None
            return cert
        moves = result.moves
    best = improve(game, moves, Budget(exact_states=max_states, seconds=max_seconds),
                   solver=solver, progress=progress)
    cert["search"] = {**(cert["search"] or {}), **best.record}
    steps = [move_to_step(m) for m in best.moves]
    # Export replays the solution again before writing: a certificate never rests on trust.
    if not game.is_complete(game.replay(steps)[-1]):
        raise GridforgeError("internal error: the solution does not complete the level")
    score = scorer(level, steps, game) if scorer is not None else None
    return _with_reading(level, _solved(cert, steps, best.optimal, best.lower_bound, score))


def _given_moves(game: Game, solution: Json) -> list[int]:
    """The moves of a given solution, replayed to completion.

    :raises ValidationError: naming the solution (or its first refused step).
    """
    if not isinstance(solution, list) or len(solution) > MAX_SOLUTION:
        raise refusal("solution", "solution", "type", f"a solution is a list of at most "
                      f"{MAX_SOLUTION} steps")
    try:
        final = game.replay(solution)[-1]
    except IllegalStep as exc:
        raise refusal("solution", "solution", exc.reason, str(exc)) from None
    if not game.is_complete(final):
        raise refusal("solution", "solution", "incomplete", "the solution does not "
                      "complete the level")
    return [step_to_move(s) for s in solution]


# ------------------------------------------------------------------------------ checking


def _show(value: object) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


# ------------------------------------------------------------------------------ files


def certify_batch(
    data: JsonObject, *, progress: Progress = NO_PROGRESS, **budgets: Any
) -> Batch:
    """Certify every level of a batch file against the batch's request.

    Verify keeps what it is given (spec section 5b): a level whose certificate in the batch's
    ``certificates`` (one per level, for the same ``level_sha256``) carries a solution starts
    from that solution (see :func:`certify`), so it stays solved and never gets longer. The
    caller rechecks those certificates first; a carried solution that does not replay is a
    ValidationError naming it (``certificates[2].solution``).
    """
    levels = data.get("levels")
    if not isinstance(levels, list):
        raise refusal("batch", "levels", "type", "a batch needs a list of levels")
    if len(levels) > MAX_BATCH_LEVELS:
        raise refusal("batch", "levels", "too_large", f"{len(levels)} levels; the limit "
                      f"is {MAX_BATCH_LEVELS}")
    request = data.get("request")
    issues = request_issues(request)
    if issues:
        raise ValidationError(issues, "batch")
    request = request if isinstance(request, dict) else None  # checked: an object or null
    parsed = _levels(levels)
    carried = data.get("certificates")
    if not isinstance(carried, list) or len(carried) != len(levels):
        carried = [None] * len(levels)
    certs = []
    for i, level in enumerate(parsed):
        progress.step(i, len(levels), say("progress.certifying"))
        certs.append(_certify_carried(level, carried[i], field_path("certificates", i),
                                      request=request, progress=progress, **budgets))
    progress.step(len(levels), len(levels), say("progress.certifying"))
    return {"format": BATCH_FORMAT, "request": request,
            "levels": [accepted(raw) for raw in levels], "certificates": certs}


def certificates_of(out: Batch | Certificate) -> list[Certificate]:
    """The certificates of what :func:`certify_file_data` answered: a batch's, or the one."""
    if "certificates" in out:
        return out["certificates"]
    return [out]


def _carried_solution(level: Level, cert: Json) -> list[Json] | None:
    """The solution a file carries for ``level``: its certificate's ``solution`` when that is
    a list and the certificate names this very level (its ``level_sha256``); else None."""
    if not isinstance(cert, dict) or cert.get("level_sha256") != level_sha256(level):
        return None
    solution = cert.get("solution")
    return solution if isinstance(solution, list) else None


def _certify_carried(level: Level, cert: Json, cert_path: str, **options: Any
                     ) -> Certificate:
    """:func:`certify` from the solution of ``cert`` (the certificate a file carries for
    ``level`` at ``cert_path``), when it carries one; a refused solution names its path."""
    solution = _carried_solution(level, cert)
    try:
        return certify(level, solution=solution, **options)
    except ValidationError as exc:
        if solution is None or not all(i.path.startswith("solution") for i in exc.issues):
            raise
        raise exc.under(cert_path, "carried solution") from None


def _levels(levels: list[Json]) -> list[Level]:
    """Every level of a batch, validated before any is searched (all issues at once)."""
    parsed: list[Level] = []
    issues = Issues()
    for i, raw in enumerate(levels):
        try:
            parsed.append(level_from_json(raw, balanced=False))
        except ValidationError as exc:
            issues.under(field_path("levels", i), exc.issues)
    if issues:
        raise ValidationError(issues, "batch")
    return parsed


def certify_file_data(
    data: Json, *, progress: Progress = NO_PROGRESS, **budgets: Any
) -> Batch | Certificate:
    """Certify a level file's data, an exported certified level's (``{"level",
    "certificate"}``) or a batch file's (dispatching on ``format``); the solutions a file
    carries are kept (see :func:`certify_batch`). A certified level gives the certificate of
    its level, starting from its certificate's solution (for the same ``level_sha256``)."""
    if isinstance(data, dict) and data.get("format") == BATCH_FORMAT:
        return certify_batch(data, progress=progress, **budgets)
    if isinstance(data, dict) and set(data) == {"level", "certificate"}:
        try:
            level = level_from_json(data["level"], balanced=False)
        except ValidationError as exc:
            raise exc.under("level", "certified level") from None
        return _certify_carried(level, data["certificate"], "certificate", progress=progress,
                                **budgets)
    if isinstance(data, dict) and data.get("format") not in (None, LEVEL_FORMAT):
        raise refusal("level or batch", "format", "format", f"expected {LEVEL_FORMAT!r} or "
                      f"{BATCH_FORMAT!r}, got {_show(data.get('format'))}")
    return certify(data, progress=progress, **budgets)


__all__ = [
    "READING_STATES",
    "Scorer",
    "certificate_reading",
    "certificates_of",
    "certify",
    "certify_batch",
    "certify_file_data",
    "judge",
    "request_issues",
]
