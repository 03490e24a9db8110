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
:func:`judge` and :func:`request_issues` (a request's ranges), :func:`certify_batch`,
:func:`certify_file_data`, :data:`CERT_FORMAT`, :data:`BATCH_FORMAT`, :data:`STATUSES`.

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
from typing import Any

from gridforge import __version__
from gridforge.errors import GridforgeError, Issue, ValidationError, field_path, is_int
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.level import FORMAT as LEVEL_FORMAT
from gridforge.snakes.level import Level, balance_issues, level_from_json, level_sha256
from gridforge.snakes.matching import INF
from gridforge.snakes.rules import Game, IllegalStep
from gridforge.snakes.search import DEFAULT_SECONDS, DEFAULT_STATES, SearchResult, Solver

CERT_FORMAT = "gridforge.snakes.certificate/1"
BATCH_FORMAT = "gridforge.snakes.batch/1"
STATUSES = ("verified", "unsolvable", "undetermined", "out_of_range")
DEFAULT_TOLERANCE = 7
CERT_KEYS = ("format", "level_sha256", "status", "reason", "solution", "steps", "optimal",
             "minimum", "lower_bound", "upper_bound", "score", "request", "budgets", "search",
             "version")
MAX_BATCH_LEVELS = 2000  # the designer's largest batch (its MAX_COUNT)
MAX_SOLUTION = 10_000  # steps; far above any certified solution, refused before replay
# A recheck re-proves claims within at most this many stored states (and these seconds, a
# safety net): a claim that needs more is refused, never believed.
CHECK_STATES = DEFAULT_STATES
CHECK_SECONDS = 60.0

# The seven-term score of a solved level: (level, solution as JSON steps, its game) -> the
# certificate's ``score`` object (with at least a numeric ``total``).
Scorer = Callable[[Level, list[Any], Game], dict[str, Any]]


# ------------------------------------------------------------------------------ requests


def _number(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


def request_issues(request: Any, path: str = "request") -> list[Issue]:
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
    names: list[tuple[str, Any]] = [(field_path(path, k), request.get(k))
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


def judge(request: dict[str, Any] | None, score_total: float | None, steps: int) -> list[str]:
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
        if abs(score_total - target) > tolerance:
            misses.append(f"score {score_total} outside {target} +- {tolerance}")
    lo, hi = request.get("min_steps"), request.get("max_steps")
    if isinstance(request.get("steps"), list):
        lo, hi = request["steps"]
    if lo is not None and steps < lo:
        misses.append(f"{steps} steps, fewer than {lo}")
    if hi is not None and steps > hi:
        misses.append(f"{steps} steps, more than {hi}")
    return misses


# ------------------------------------------------------------------------------ writing


def _blank(level: Level, request: dict[str, Any] | None, budgets: dict[str, Any]
           ) -> dict[str, Any]:
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


def _solved(cert: dict[str, Any], solution: list[Any], optimal: bool, lower: int,
            score: dict[str, Any] | None) -> dict[str, Any]:
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


def _total(score: Any) -> float | None:
    """A score object's total, when it is a finite number."""
    total = score.get("total") if isinstance(score, dict) else None
    return total if _number(total) else None


def certify(
    level: Level | dict[str, Any],
    *,
    max_states: int = DEFAULT_STATES,
    max_seconds: float = DEFAULT_SECONDS,
    fast_states: int | None = None,
    request: dict[str, Any] | None = None,
    scorer: Scorer | None = None,
    progress: Progress = NO_PROGRESS,
) -> dict[str, Any]:
    """Search ``level`` within the budgets and write its certificate.

    A level dict is validated first (structural problems raise ValidationError: such a
    file is not a level); a supply/demand mismatch is a certificate of ``unsolvable``.
    ``scorer`` fills ``score`` of a solved level (null without one).
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
    result = Solver(game).solve(
        max_states=max_states, max_seconds=max_seconds, fast_states=fast_states, progress=progress
    )
    cert["search"] = {"expanded": result.expanded, "stored": result.stored}
    if result.status == "unsolvable":
        cert["status"] = "unsolvable"
        cert["reason"] = result.reason
        return cert
    if result.moves is None:
        cert["reason"] = f"budget spent ({result.reason}); this does not mean unsolvable"
        cert["lower_bound"] = result.lower_bound if result.lower_bound < INF else None
        return cert
    solution = result.steps or []
    # Export replays the solution again before writing: a certificate never rests on trust.
    if not game.is_complete(game.replay(solution)[-1]):
        raise GridforgeError("internal error: the solution does not complete the level")
    score = scorer(level, solution, game) if scorer is not None else None
    return _solved(cert, solution, result.optimal, result.lower_bound, score)


# ------------------------------------------------------------------------------ checking


@dataclass(frozen=True)
class Recheck:
    """What :func:`recheck` found: ``issues`` of the claims that do not hold (each with the
    claim's field path) and ``certificate``, the certificate of what the recheck itself
    established (replayed, re-proved, rescored), or None when the file is not one."""

    issues: list[Issue]
    certificate: dict[str, Any] | None


class _Claims:
    """The claim-by-claim judge of one certificate; collects issues with field paths."""

    def __init__(self, cert: dict[str, Any], base: str) -> None:
        self.cert = cert
        self.base = base
        self.issues: list[Issue] = []

    def bad(self, name: str, message: str, code: str = "claim") -> None:
        self.issues.append(Issue(field_path(self.base, name), code, message))

    def expect(self, name: str, value: Any) -> None:
        """The claim ``name`` must equal ``value`` (what the recheck established)."""
        claimed = self.cert.get(name)
        if not _same(claimed, value):
            self.bad(name, f"claims {_show(claimed)}, but the recheck gives {_show(value)}")

    def structure(self) -> bool:
        cert = self.cert
        for key in sorted(k for k in cert if k not in CERT_KEYS):
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
        self.issues += request_issues(cert.get("request"), field_path(self.base, "request"))
        return not self.issues


def _show(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def _budget(cert: dict[str, Any], max_states: int) -> int:
    """The states a re-proof may store: the certificate's own exact budget (so an honest
    claim is re-proved by the very search that made it), at most ``max_states``."""
    budgets = cert.get("budgets")
    states = budgets.get("exact_states") if isinstance(budgets, dict) else None
    return min(states, max_states) if is_int(states) and states >= 1 else max_states


def recheck(
    level: Level | dict[str, Any],
    cert: Any,
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
    again against the request. ``base`` prefixes the issues' field paths.
    """
    if not isinstance(level, Level):
        level = level_from_json(level, balanced=False)
    if not isinstance(cert, dict) or cert.get("format") != CERT_FORMAT:
        return Recheck([Issue(field_path(base, "format"), "format",
                              f"not a certificate (format must be {CERT_FORMAT!r})")], None)
    claims = _Claims(cert, base)
    if not claims.structure():
        return Recheck(claims.issues, None)
    states = _budget(cert, max_states)
    out = _blank(level, cert["request"], {"exact_states": states, "exact_seconds": max_seconds})
    claims.expect("level_sha256", out["level_sha256"])
    status = cert["status"]
    unbalanced = balance_issues(level)
    game = Game(level)
    solver = Solver(game)
    if unbalanced or status == "unsolvable":
        _recheck_unsolvable(claims, out, solver, unbalanced, states, max_seconds)
    elif status == "undetermined":
        _recheck_undetermined(claims, out, solver, states, max_seconds)
    else:
        _recheck_solved(claims, out, solver, scorer, states, max_seconds)
    if claims.issues:
        return Recheck(claims.issues, None)
    return Recheck([], out)


def _recheck_unsolvable(claims: _Claims, out: dict[str, Any], solver: Solver,
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


def _recheck_undetermined(claims: _Claims, out: dict[str, Any], solver: Solver,
                          states: int, seconds: float) -> None:
    cert = claims.cert
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


def _recheck_solved(claims: _Claims, out: dict[str, Any], solver: Solver,
                    scorer: Scorer | None, states: int, seconds: float) -> None:
    cert = claims.cert
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
    # What is proven: the static bound, or (for a claim above it) exact A* under the
    # solution's length, within the certificate's own state budget.
    h0 = solver.bound(game.initial)
    optimal, proven = steps <= h0, min(h0, steps)
    if not optimal and (claimed_optimal or (lower is not None and lower > h0)):
        found = solver.astar(max_states=states, max_seconds=seconds, upper=steps)
        out["search"] = {"expanded": found.expanded, "stored": found.stored}
        _judge_proof(claims, found, steps, states)
        optimal = found.status == "exhausted_below_upper"
        proven = steps if optimal else found.lower_bound
    score = cert["score"]
    if scorer is not None:
        score = scorer(game.level, solution, game)
        _compare(claims, "score", cert["score"], score)
    misses = judge(cert["request"], _total(score), steps)
    claims.expect("status", "out_of_range" if misses else "verified")
    claims.expect("reason", "; ".join(misses) if misses
                  else "" if claimed_optimal else "minimum unproven")
    # The rechecked certificate states what the recheck proved (never less than claimed).
    _solved(out, solution, optimal, proven, score)


def _judge_proof(claims: _Claims, found: SearchResult, steps: int, states: int) -> None:
    """Issues of the ``optimal`` and ``lower_bound`` claims against an A* run under the
    solution's length."""
    cert = claims.cert
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
    if found.status == "exhausted_below_upper":
        return
    if cert["optimal"]:
        claims.bad("optimal", f"claims {steps} steps are the minimum, which exact search did "
                   f"not re-prove within {states} states: refused, not believed")
    elif lower is not None and lower > found.lower_bound:
        claims.bad("lower_bound", f"claims {lower}, but exact search re-proved only "
                   f"{found.lower_bound} within {states} states: refused, not believed")


def _same(claimed: Any, value: Any) -> bool:
    """Equal as JSON values: numbers by value (a browser hands 0.0 back as 0), but a
    boolean is never a number."""
    return bool(claimed == value) and isinstance(claimed, bool) == isinstance(value, bool)


def _compare(claims: _Claims, path: str, claimed: Any, value: Any) -> None:
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


def check_certificate(level: Level | dict[str, Any], cert: Any, *,
                      scorer: Scorer | None = None, max_states: int = CHECK_STATES,
                      max_seconds: float = CHECK_SECONDS) -> list[str]:
    """Problems of ``cert`` for ``level``, one line each naming the claim (empty when every
    claim holds); see :func:`recheck`."""
    found = recheck(level, cert, scorer=scorer, max_states=max_states, max_seconds=max_seconds)
    return [str(issue) for issue in found.issues]


# ------------------------------------------------------------------------------ files


def certify_batch(
    data: dict[str, Any], *, progress: Progress = NO_PROGRESS, **budgets: Any
) -> dict[str, Any]:
    """Certify every level of a batch file against the batch's request."""
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
    parsed = _levels(levels)
    certs = []
    for i, level in enumerate(parsed):
        progress.step(i, len(levels), "certifying")
        certs.append(certify(level, request=request, progress=progress, **budgets))
    progress.step(len(levels), len(levels), "certified")
    return {"format": BATCH_FORMAT, "request": request, "levels": levels, "certificates": certs}


def _levels(levels: list[Any]) -> list[Level]:
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
    data: Any, *, progress: Progress = NO_PROGRESS, **budgets: Any
) -> dict[str, Any]:
    """Certify a level file's data or a batch file's data (dispatching on ``format``)."""
    if isinstance(data, dict) and data.get("format") == BATCH_FORMAT:
        return certify_batch(data, progress=progress, **budgets)
    if isinstance(data, dict) and data.get("format") not in (None, LEVEL_FORMAT):
        raise ValidationError([Issue("format", "format", f"expected {LEVEL_FORMAT!r} or "
                                     f"{BATCH_FORMAT!r}, got {_show(data.get('format'))}")],
                              "level or batch")
    return certify(data, progress=progress, **budgets)


__all__ = [
    "BATCH_FORMAT",
    "CERT_FORMAT",
    "STATUSES",
    "Recheck",
    "Scorer",
    "certify",
    "certify_batch",
    "certify_file_data",
    "check_certificate",
    "judge",
    "recheck",
    "request_issues",
]
