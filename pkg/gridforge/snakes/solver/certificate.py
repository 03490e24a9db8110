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

Public names: :func:`certify` (level -> certificate dict), :func:`recheck` (judge every claim
of a certificate against its level: the certificate this module can stand behind, and the
issues of the claims that do not hold), :func:`check_certificate` (the issues as lines),
:func:`judge` and :func:`request_issues` (a request's ranges), :func:`certificate_reading`
(a solved certificate's ``reading``), :func:`certify_batch`,
:func:`certify_file_data`; the file types and format names (``CERT_FORMAT``,
``BATCH_FORMAT``, ``STATUSES``) are the game's, in :mod:`gridforge.snakes.game.certfile`.

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
from dataclasses import dataclass
from typing import Any, TypeGuard, cast

from gridforge import __version__
from gridforge.errors import GridforgeError, Issue, Issues, ValidationError, field_path, is_int
from gridforge.i18n import say
from gridforge.jsontypes import Json, JsonObject
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.game.certfile import (
    BATCH_FORMAT,
    CERT_FORMAT,
    STATUSES,
    Batch,
    Certificate,
    CertReading,
    Score,
    Witness,
)
from gridforge.snakes.game.level import FORMAT as LEVEL_FORMAT
from gridforge.snakes.game.level import (
    MAX_BODIES,
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
from gridforge.snakes.solver.pairs import pairwise_bound
from gridforge.snakes.solver.puzzle import relaxations
from gridforge.snakes.solver.search import DEFAULT_SECONDS, DEFAULT_STATES, SearchResult, Solver

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
    if request is None:
        return []
    if not isinstance(request, dict):
        return [Issue(path, "type", "a request is an object or null")]
    issues: list[Issue] = []
    target = request.get("target")
    if target is not None and not _number(target):
        issues.append(Issue(field_path(path, "target"), "type",
                            "target must be a finite number"))
    tolerance = request.get("tolerance", DEFAULT_TOLERANCE)
    if not _number(tolerance) or tolerance < 0:
        issues.append(Issue(field_path(path, "tolerance"), "type",
                            "tolerance must be a finite number >= 0"))
    names: list[tuple[str, Json]] = [(field_path(path, k), request.get(k))
                                    for k in ("min_steps", "max_steps")]
    steps = request.get("steps")
    if steps is not None:
        if not isinstance(steps, list) or len(steps) != 2:
            issues.append(Issue(field_path(path, "steps"), "type",
                                "steps is [min, max] (either may be null)"))
        else:
            names += [(field_path(path, "steps", j), v) for j, v in enumerate(steps)]
    for where, value in names:
        if value is not None and (not is_int(value) or value < 0):
            issues.append(Issue(where, "type", "a step count is an integer >= 0 or null"))
    return issues


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
        raise ValidationError([Issue("solution", "type", f"a solution is a list of at most "
                                     f"{MAX_SOLUTION} steps")], "solution")
    try:
        final = game.replay(solution)[-1]
    except IllegalStep as exc:
        raise ValidationError([Issue("solution", exc.reason, str(exc))], "solution") from None
    if not game.is_complete(final):
        raise ValidationError([Issue("solution", "incomplete", "the solution does not "
                                     "complete the level")], "solution")
    return [step_to_move(s) for s in solution]


# ------------------------------------------------------------------------------ checking


@dataclass(frozen=True)
class Recheck:
    """What :func:`recheck` found: ``issues`` of the claims that do not hold (each with the
    claim's field path) and ``certificate``, the certificate of what the recheck itself
    established (replayed, re-proved, rescored), or None when the file is not one."""

    issues: list[Issue]
    certificate: Certificate | None


class _Claims(Issues):
    """The claim-by-claim judge of one certificate: the core collector, paths under
    ``base``."""

    def __init__(self, cert: JsonObject, base: str) -> None:
        super().__init__(base)
        self.cert = cert

    @property
    def checked(self) -> Certificate:
        """The certificate, once :meth:`structure` has found its fields well formed."""
        return cast(Certificate, self.cert)

    def bad(self, name: str, message: str, code: str = "claim") -> None:
        self.add(name, code, message)

    def expect(self, name: str, value: object) -> None:
        """The claim ``name`` must equal ``value`` (what the recheck established)."""
        claimed = self.cert.get(name)
        if not _same(claimed, value):
            self.bad(name, f"claims {_show(claimed)}, but the recheck gives {_show(value)}")

    def structure(self) -> bool:
        cert = self.cert
        for key in sorted(k for k in cert if k not in CERT_KEYS + OPTIONAL_KEYS):
            self.bad(str(key), f"unknown field {key!r}", "unknown_field")
        for key in CERT_KEYS:
            if key not in cert:
                self.bad(key, "missing", "missing")
        kinds: dict[str, tuple[type, ...]] = {
            "level_sha256": (str,), "reason": (str,), "version": (str,), "optimal": (bool,),
            "solution": (list, type(None)), "score": (dict, type(None)),
            "budgets": (dict,), "search": (dict, type(None)),
        }
        for key, types in kinds.items():
            if key in cert and not isinstance(cert[key], types):
                self.bad(key, f"has the wrong type ({_show(cert[key])})", "type")
        for key in ("steps", "minimum", "lower_bound", "upper_bound"):
            value = cert.get(key)
            if value is not None and (not is_int(value) or value < 0):
                self.bad(key, f"must be an integer >= 0 or null, got {_show(value)}", "type")
        if cert.get("status") not in STATUSES:
            self.bad("status", f"must be one of {', '.join(STATUSES)}, got "
                     f"{_show(cert.get('status'))}", "type")
        solution = cert.get("solution")
        if isinstance(solution, list) and len(solution) > MAX_SOLUTION:
            self.bad("solution", f"{len(solution)} steps; the limit is {MAX_SOLUTION}",
                     "too_large")
        if "reading" in cert:
            self.reading_shape(cert["reading"])
        self.informational()
        self.items += request_issues(cert.get("request"), field_path(self.base, "request"))
        return not self.items

    def reading_shape(self, read: Json) -> None:
        """The shape of a claimed ``reading``: an object of :data:`READING_KEYS`, every figure
        an integer >= 0 (``joint_steps`` any integer: negative while the minimum is
        unproven), ``solo_costs`` a list of them. Its figures are judged in the recheck."""
        if not isinstance(read, dict):
            self.bad("reading", "must be an object {" + ", ".join(READING_KEYS) + "}, got "
                     f"{_show(read)}", "type")
            return
        for key in sorted(str(k) for k in read if k not in READING_KEYS):
            self.bad(field_path("reading", key), f"unknown field {key!r}", "unknown_field")
        for key in READING_KEYS:
            where = field_path("reading", key)
            if key not in read:
                self.bad(where, "missing", "missing")
                continue
            value = read[key]
            if key == "solo_costs":
                if not isinstance(value, list) or len(value) > MAX_BODIES:
                    self.bad(where, f"must be a list of at most {MAX_BODIES} integers "
                             f">= 0 (one per body), got {_show(value)}", "type")
                    continue
                for i, cost in enumerate(value):
                    if not is_int(cost) or cost < 0:
                        self.bad(field_path(where, i), f"must be an integer >= 0, got "
                                 f"{_show(cost)}", "type")
                        break
            elif not is_int(value) or (key != "joint_steps" and value < 0):
                wanted = "an integer" if key == "joint_steps" else "an integer >= 0"
                self.bad(where, f"must be {wanted}, got {_show(value)}", "type")

    def informational(self) -> None:
        """The shape of the informational fields (:data:`INFORMATIONAL_KEYS`): a few named
        figures, never a claim. ``budgets`` holds numbers >= 0, ``search`` numbers, short
        texts, booleans or nulls, ``version`` a short text."""
        cert = self.cert
        version = cert.get("version")
        if isinstance(version, str) and len(version) > MAX_INFO_TEXT:
            self.bad("version", f"at most {MAX_INFO_TEXT} characters", "too_large")
        prediction = cert.get("prediction")
        if "prediction" in cert and not (
                isinstance(prediction, dict) and len(prediction) <= MAX_INFO_ITEMS
                and all(_number(v) or (isinstance(v, str) and len(v) <= MAX_INFO_TEXT)
                        for v in prediction.values())):
            self.bad("prediction", f"must be an object of at most {MAX_INFO_ITEMS} numbers or "
                     f"short texts", "type")
        for key in ("budgets", "search"):
            figures = cert.get(key)
            if not isinstance(figures, dict):
                continue
            if len(figures) > MAX_INFO_ITEMS:
                self.bad(key, f"at most {MAX_INFO_ITEMS} figures, got {len(figures)}",
                         "too_large")
                continue
            for name, value in figures.items():
                if key == "budgets":
                    fits = _number(value) and value >= 0
                else:
                    fits = (value is None or isinstance(value, bool) or _number(value)
                            or (isinstance(value, str) and len(value) <= MAX_INFO_TEXT))
                if not fits:
                    wanted = ("a number >= 0" if key == "budgets" else
                              f"a number, a text of at most {MAX_INFO_TEXT} characters, "
                              "a boolean or null")
                    self.bad(field_path(key, str(name)), f"must be {wanted}, got "
                             f"{_show(value)}", "type")


def _show(value: object) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def _budget(cert: JsonObject, max_states: int) -> int:
    """The states a re-proof may store: the certificate's own exact budget (so an honest
    claim is re-proved by the very search that made it), at most ``max_states``."""
    budgets = cert.get("budgets")
    states = budgets.get("exact_states") if isinstance(budgets, dict) else None
    return min(states, max_states) if is_int(states) and states >= 1 else max_states


def recheck(
    level: Level | Json,
    cert: object,
    *,
    scorer: Scorer | None = None,
    max_states: int = CHECK_STATES,
    max_seconds: float = CHECK_SECONDS,
    base: str = "",
) -> Recheck:
    """Judge every claim of ``cert`` against ``level``: nothing is believed.

    The level's hash is recomputed; a solution is replayed to completion; ``steps``,
    ``upper_bound``, ``minimum`` follow from it; ``optimal`` and a ``lower_bound`` above the
    level's static bound are re-proved by exact A* under the solution's length within the
    certificate's own state budget (at most ``max_states``; a claim not re-proved within it
    is refused, never believed); ``unsolvable`` is re-proved likewise; the score is
    recomputed by ``scorer`` (left unjudged without one) and the status and reason judged
    again against the request; a claimed ``reading`` is recomputed from the level and the
    certificate's own figures (only a solved certificate may carry one). ``base`` prefixes the
    issues' field paths.
    """
    if not isinstance(level, Level):
        level = level_from_json(level, balanced=False)
    if not isinstance(cert, dict) or cert.get("format") != CERT_FORMAT:
        return Recheck([Issue(field_path(base, "format"), "format",
                              f"not a certificate (format must be {CERT_FORMAT!r})")], None)
    claims = _Claims(cert, base)
    if not claims.structure():
        return Recheck(claims.items, None)
    states = _budget(cert, max_states)
    out = _blank(level, claims.checked["request"],
                 {"exact_states": states, "exact_seconds": max_seconds})
    claims.expect("level_sha256", out["level_sha256"])
    status = claims.checked["status"]
    unbalanced = balance_issues(level)
    game = Game(level)
    solver = Solver(game)
    if "reading" in cert and (unbalanced or status in ("unsolvable", "undetermined")):
        claims.bad("reading", "only a solved certificate (verified or out_of_range) carries a "
                   "reading")
    if unbalanced or status == "unsolvable":
        _recheck_unsolvable(claims, out, solver, unbalanced, states, max_seconds)
    elif status == "undetermined":
        _recheck_undetermined(claims, out, solver, states, max_seconds)
    else:
        _recheck_solved(claims, out, solver, scorer, states, max_seconds)
    if claims.items:
        return Recheck(claims.items, None)
    return Recheck([], out)


def _recheck_unsolvable(claims: _Claims, out: Certificate, solver: Solver,
                        unbalanced: list[Issue], states: int, seconds: float) -> None:
    if unbalanced:
        out["status"] = "unsolvable"
        out["reason"] = "supply_demand: " + "; ".join(i.message for i in unbalanced)
    else:
        dead = solver.dead_reason()
        found = None if dead else solver.solve(max_states=states, max_seconds=seconds)
        if found is not None:
            out["search"] = {"expanded": found.expanded, "stored": found.stored}
        if found is not None and found.moves is not None:
            claims.bad("status", f"claims unsolvable, but a solution of {len(found.moves)} "
                       "steps exists")
            return
        if found is not None and found.status != "unsolvable":
            claims.bad("status", f"claims unsolvable, which exact search did not re-prove "
                       f"within {states} states ({found.reason}): refused, not believed")
            return
        out["status"] = "unsolvable"
        out["reason"] = dead or (found.reason if found is not None else "")
    for name in ("status", "solution", "steps", "optimal", "minimum", "lower_bound",
                 "upper_bound", "score"):
        claims.expect(name, out[name])


def _recheck_undetermined(claims: _Claims, out: Certificate, solver: Solver,
                          states: int, seconds: float) -> None:
    cert = claims.checked
    for name in ("solution", "steps", "optimal", "minimum", "upper_bound", "score"):
        claims.expect(name, out[name])
    out["reason"] = cert["reason"]  # the budget it says ran out: not a claim about the level
    lower = cert["lower_bound"]
    if lower is None:
        return
    h0 = solver.bound(solver.game.initial)
    proven = h0
    if lower > h0:
        found = solver.astar(max_states=states, max_seconds=seconds)
        out["search"] = {"expanded": found.expanded, "stored": found.stored}
        if found.moves is not None:
            claims.bad("lower_bound", f"claims {lower}, but a solution of {len(found.moves)} "
                       "steps exists")
            return
        proven = found.lower_bound
        if proven < lower:
            claims.bad("lower_bound", f"claims {lower}, but exact search re-proved only "
                       f"{proven} within {states} states: refused, not believed")
            return
    out["lower_bound"] = proven if proven < INF else None


def _recheck_solved(claims: _Claims, out: Certificate, solver: Solver,
                    scorer: Scorer | None, states: int, seconds: float) -> None:
    cert = claims.checked
    game = solver.game
    solution = cert["solution"]
    if solution is None:
        claims.bad("solution", f"a {cert['status']} certificate needs a solution")
        return
    try:
        final = game.replay(solution)[-1]
    except IllegalStep as exc:
        claims.bad("solution", str(exc))
        return
    if not game.is_complete(final):
        claims.bad("solution", "does not complete the level")
        return
    steps = len(solution)
    claimed_optimal, lower = cert["optimal"], cert["lower_bound"]
    claims.expect("steps", steps)
    claims.expect("upper_bound", steps)
    claims.expect("minimum", steps if claimed_optimal else None)
    if claimed_optimal:
        claims.expect("lower_bound", steps)
    elif lower is None:
        claims.bad("lower_bound", "a solved certificate states its lower bound")
    elif lower > steps:
        claims.bad("lower_bound", f"claims {lower}, above the solution's {steps} steps")
    # What is proven: the static bound; for a claim above it the pairwise bound, then exact
    # A* under the solution's length within the certificate's own state budget.
    h0 = solver.bound(game.initial)
    optimal, proven = steps <= h0, min(h0, steps)
    wanted = steps if claimed_optimal else lower if lower is not None else 0
    if not optimal and wanted > h0:
        found = solver.astar(max_states=states, max_seconds=seconds, upper=steps)
        out["search"] = {"expanded": found.expanded, "stored": found.stored}
        optimal = found.status == "exhausted_below_upper"
        proven = steps if optimal else found.lower_bound
        if found.moves is None and wanted > proven:
            # Only then: the pairwise bound costs more than most re-proofs.
            proven = max(proven, min(pairwise_bound(game).bound, steps))
            optimal = proven >= steps
        _judge_proof(claims, found, steps, states, proven)
    if "reading" in cert:
        # Set here so that the rechecked certificate keeps the file's order (reading before
        # witnesses); its figures follow what the recheck proved (below, after _solved).
        out["reading"] = cert["reading"]
        _recheck_reading(claims, game.level)
    if "witnesses" in cert:
        witnesses = _recheck_witnesses(claims, game.level, claims.cert["witnesses"], steps)
        if witnesses is None:
            return
        out["witnesses"] = witnesses
    score = cert["score"]
    if scorer is not None:
        score = scorer(game.level, solution, game)
        _compare(claims, "score", cert["score"], _as_claimed(score, cert["score"]))
    misses = judge(cert["request"], _total(score), steps)
    claims.expect("status", "out_of_range" if misses else "verified")
    claims.expect("reason", "; ".join(misses) if misses
                  else "" if claimed_optimal else "minimum unproven")
    # The rechecked certificate states what the recheck proved (never less than claimed).
    _solved(out, solution, optimal, proven, score)
    if "reading" in out:
        read = certificate_reading(game.level, out) if not claims.items else None
        if read is None:
            del out["reading"]  # refused already: the certificate is not returned
        else:
            out["reading"] = read


def _recheck_reading(claims: _Claims, level: Level) -> None:
    """Issues of the claimed ``reading``, recomputed from the level and the certificate's own
    claims (its minimum or lower bound, its solution) within :data:`READING_STATES` states a
    solo search. Judged only once those claims hold: the figures follow from them."""
    if claims.items:
        return
    cert = claims.checked
    try:
        read = certificate_reading(level, cert)
    except GridforgeError as exc:  # a body that cannot leave alone: no reading at all
        claims.bad("reading", f"a reading of this level cannot be computed ({exc})")
        return
    if read is None:
        claims.bad("reading", f"a solo search needs more than {READING_STATES} states, so "
                   "the reading was not recomputed: refused, not believed")
        return
    _compare(claims, "reading", cert["reading"], read)


def _recheck_witnesses(claims: _Claims, level: Level, witnesses: Json, steps: int
                       ) -> list[Witness] | None:
    """The witnesses, each replayed on the level without its mechanic (to completion, in at
    most ``steps`` steps) and refused by the real rules; None (issues noted) when one fails."""
    relaxed = dict(relaxations(level))
    if not isinstance(witnesses, list) or len(witnesses) > len(relaxed):
        claims.bad("witnesses", f"a list of at most one witness per mechanic ({len(relaxed)})",
                   "type")
        return None
    seen: set[str] = set()
    checked: list[Witness] = []
    for i, item in enumerate(witnesses):
        where = field_path("witnesses", i)
        mechanic = item.get("mechanic") if isinstance(item, dict) else None
        solution = item.get("solution") if isinstance(item, dict) else None
        if (not isinstance(item, dict) or set(item) != {"mechanic", "solution"}
                or not isinstance(mechanic, str) or mechanic not in relaxed
                or mechanic in seen or not isinstance(solution, list)):
            claims.bad(where, "a witness is {mechanic, solution} naming a mechanic of the level "
                       "once", "type")
            return None
        seen.add(mechanic)
        if len(solution) > steps:
            claims.bad(field_path(where, "solution"), f"{len(solution)} steps, more "
                       f"than the certificate's {steps}")
            return None
        relaxed_game = Game(relaxed[mechanic])
        try:
            final = relaxed_game.replay(solution)[-1]
        except IllegalStep as exc:
            claims.bad(field_path(where, "solution"), f"without {mechanic}: {exc}")
            return None
        if not relaxed_game.is_complete(final):
            claims.bad(field_path(where, "solution"), "does not complete the level without "
                       f"{mechanic}")
            return None
        if _replays(Game(level), solution):
            claims.bad(field_path(where, "solution"), f"the real rules accept it: "
                       f"{mechanic} does not bind")
            return None
        checked.append(cast(Witness, dict(item)))  # its steps replayed: a Witness
    return checked


def _as_claimed(score: Score, claimed: Score | None) -> Score:
    """``score`` without the :data:`LATER_DIAGNOSTICS` when ``claimed`` has none of them (a
    certificate written before they were reported); otherwise ``score`` itself."""
    diagnostics = claimed.get("diagnostics") if isinstance(claimed, dict) else None
    if not isinstance(diagnostics, dict) or any(k in diagnostics for k in LATER_DIAGNOSTICS):
        return score
    kept = {k: v for k, v in score["diagnostics"].items() if k not in LATER_DIAGNOSTICS}
    return {**score, "diagnostics": kept}


def _replays(game: Game, steps: list[Json]) -> bool:
    """Whether ``steps`` replay to completion under ``game``'s rules."""
    try:
        return game.is_complete(game.replay(steps)[-1])
    except IllegalStep:
        return False


def _judge_proof(claims: _Claims, found: SearchResult, steps: int, states: int,
                 proven: int) -> None:
    """Issues of the ``optimal`` and ``lower_bound`` claims against an A* run under the
    solution's length and ``proven``, the bound the recheck established."""
    cert = claims.checked
    lower = cert["lower_bound"]
    if found.moves is not None:
        shorter = len(found.moves)
        if cert["optimal"]:
            claims.bad("optimal", f"claims {steps} steps are the minimum, but a solution of "
                       f"{shorter} steps exists")
        if lower is not None and lower > shorter:
            claims.bad("lower_bound", f"claims {lower}, but a solution of {shorter} steps "
                       "exists")
        return
    if proven >= steps:
        return
    if cert["optimal"]:
        claims.bad("optimal", f"claims {steps} steps are the minimum, which exact search did "
                   f"not re-prove within {states} states: refused, not believed")
    elif lower is not None and lower > proven:
        claims.bad("lower_bound", f"claims {lower}, but exact search and the pairwise bound "
                   f"re-proved only {proven} within {states} states: refused, not believed")


def _same(claimed: object, value: object) -> bool:
    """Equal as JSON values: numbers by value (a browser hands 0.0 back as 0), but a
    boolean is never a number."""
    return bool(claimed == value) and isinstance(claimed, bool) == isinstance(value, bool)


def _compare(claims: _Claims, path: str, claimed: object, value: object) -> None:
    """Issues where the claimed JSON differs from the recomputed one (the deepest field)."""
    if isinstance(claimed, dict) and isinstance(value, dict):
        for key in [*value, *(k for k in claimed if k not in value)]:
            if key not in claimed:
                claims.bad(field_path(path, str(key)), "missing", "missing")
            elif key not in value:
                claims.bad(field_path(path, str(key)), f"unknown field {key!r}",
                           "unknown_field")
            else:
                _compare(claims, field_path(path, str(key)), claimed[key], value[key])
        return
    if isinstance(claimed, list) and isinstance(value, list) and len(claimed) == len(value):
        for i, (a, b) in enumerate(zip(claimed, value, strict=True)):
            _compare(claims, field_path(path, i), a, b)
        return
    if not _same(claimed, value):
        claims.bad(path, f"claims {_show(claimed)}, but the recheck gives {_show(value)}")


def check_certificate(level: Level | Json, cert: object, *,
                      scorer: Scorer | None = None, max_states: int = CHECK_STATES,
                      max_seconds: float = CHECK_SECONDS) -> list[str]:
    """Problems of ``cert`` for ``level``, one line each naming the claim (empty when every
    claim holds); see :func:`recheck`."""
    found = recheck(level, cert, scorer=scorer, max_states=max_states, max_seconds=max_seconds)
    return [str(issue) for issue in found.issues]


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
        raise ValidationError([Issue("levels", "type", "a batch needs a list of levels")],
                              "batch")
    if len(levels) > MAX_BATCH_LEVELS:
        raise ValidationError([Issue("levels", "too_large", f"{len(levels)} levels; the limit "
                                     f"is {MAX_BATCH_LEVELS}")], "batch")
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
    if out["format"] == BATCH_FORMAT:
        return cast(Batch, out)["certificates"]
    return [cast(Certificate, out)]


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
        raise ValidationError([Issue(field_path(cert_path, i.path), i.code, i.message)
                               for i in exc.issues], "carried solution") from None


def _levels(levels: list[Json]) -> list[Level]:
    """Every level of a batch, validated before any is searched (all issues at once)."""
    parsed: list[Level] = []
    issues: list[Issue] = []
    for i, raw in enumerate(levels):
        try:
            parsed.append(level_from_json(raw, balanced=False))
        except ValidationError as exc:
            issues += [Issue(field_path(field_path("levels", i), issue.path) if issue.path
                             else field_path("levels", i), issue.code, issue.message)
                       for issue in exc.issues]
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
            raise ValidationError([Issue(field_path("level", i.path) if i.path else "level",
                                         i.code, i.message) for i in exc.issues],
                                  "certified level") from None
        return _certify_carried(level, data["certificate"], "certificate", progress=progress,
                                **budgets)
    if isinstance(data, dict) and data.get("format") not in (None, LEVEL_FORMAT):
        raise ValidationError([Issue("format", "format", f"expected {LEVEL_FORMAT!r} or "
                                     f"{BATCH_FORMAT!r}, got {_show(data.get('format'))}")],
                              "level or batch")
    return certify(data, progress=progress, **budgets)


__all__ = [
    "READING_STATES",
    "Recheck",
    "Scorer",
    "certificate_reading",
    "certificates_of",
    "certify",
    "certify_batch",
    "certify_file_data",
    "check_certificate",
    "judge",
    "recheck",
    "request_issues",
]
