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

Public names: :func:`certify` (level or level dict -> certificate dict), :func:`judge`
(request ranges), :func:`check_certificate` (replay a certificate against its level; the
export check), :func:`certify_batch`, :data:`CERT_FORMAT`, :data:`STATUSES`.

Requests (optional) are dicts with ``target`` and ``tolerance`` (default 7) for the score,
and ``steps`` as ``[min, max]`` (either may be null) or ``min_steps`` / ``max_steps``.
Certificates hold no wall-clock figures, so the same level and budgets give the same bytes
unless the seconds budget cuts a search short.
"""

from __future__ import annotations

from typing import Any

from gridforge import __version__
from gridforge.errors import GridforgeError
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.level import FORMAT as LEVEL_FORMAT
from gridforge.snakes.level import Level, balance_issues, level_from_json, level_sha256
from gridforge.snakes.matching import INF
from gridforge.snakes.rules import Game, IllegalStep
from gridforge.snakes.search import DEFAULT_SECONDS, DEFAULT_STATES, Solver

CERT_FORMAT = "gridforge.snakes.certificate/1"
BATCH_FORMAT = "gridforge.snakes.batch/1"
STATUSES = ("verified", "unsolvable", "undetermined", "out_of_range")
DEFAULT_TOLERANCE = 7


def _score(level: Level, solution: list[Any], game: Game) -> dict[str, Any] | None:
    """The designer's seven-term score, when its module is present."""
    try:
        from gridforge.snakes.design import score as score_module
    except ImportError:  # the designer is not installed: certificates carry no score
        return None
    return score_module.score_level(level, solution, game=game)


def judge(request: dict[str, Any] | None, score_total: float | None, steps: int) -> list[str]:
    """Why a solved level misses ``request`` (empty when it is in range)."""
    if not request:
        return []
    misses: list[str] = []
    target = request.get("target")
    if target is not None and score_total is not None:
        tolerance = request.get("tolerance", DEFAULT_TOLERANCE)
        if abs(score_total - target) > tolerance:
            misses.append(f"score {score_total} outside {target} +- {tolerance}")
    lo, hi = request.get("min_steps"), request.get("max_steps")
    if isinstance(request.get("steps"), list | tuple) and len(request["steps"]) == 2:
        lo, hi = request["steps"]
    if lo is not None and steps < lo:
        misses.append(f"{steps} steps, fewer than {lo}")
    if hi is not None and steps > hi:
        misses.append(f"{steps} steps, more than {hi}")
    return misses


def certify(
    level: Level | dict[str, Any],
    *,
    max_states: int = DEFAULT_STATES,
    max_seconds: float = DEFAULT_SECONDS,
    fast_states: int | None = None,
    request: dict[str, Any] | None = None,
    with_score: bool = True,
    progress: Progress = NO_PROGRESS,
) -> dict[str, Any]:
    """Search ``level`` within the budgets and write its certificate.

    A level dict is validated first (structural problems raise ValidationError: such a
    file is not a level); a supply/demand mismatch is a certificate of ``unsolvable``.
    """
    if not isinstance(level, Level):
        level = level_from_json(level, balanced=False)
    cert: dict[str, Any] = {
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
        "budgets": {
            "exact_states": max_states,
            "exact_seconds": max_seconds,
            "fast_states": fast_states or max_states,
        },
        "search": None,
        "version": __version__,
    }
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
        cert["status"] = "undetermined"
        cert["reason"] = f"budget spent ({result.reason}); this does not mean unsolvable"
        cert["lower_bound"] = result.lower_bound if result.lower_bound < INF else None
        return cert
    solution = result.steps or []
    # Export replays the solution again before writing: a certificate never rests on trust.
    if not game.is_complete(game.replay(solution)[-1]):
        raise GridforgeError("internal error: the solution does not complete the level")
    cert["solution"] = solution
    cert["steps"] = len(solution)
    cert["optimal"] = result.optimal
    cert["minimum"] = len(solution) if result.optimal else None
    cert["lower_bound"] = len(solution) if result.optimal else result.lower_bound
    cert["upper_bound"] = len(solution)
    if not result.optimal:
        cert["reason"] = "minimum unproven"
    if with_score:
        cert["score"] = _score(level, solution, game)
    total = cert["score"]["total"] if cert["score"] else None
    misses = judge(request, total, len(solution))
    cert["status"] = "out_of_range" if misses else "verified"
    if misses:
        cert["reason"] = "; ".join(misses)
    return cert


def check_certificate(level: Level | dict[str, Any], cert: dict[str, Any]) -> list[str]:
    """Problems of ``cert`` for ``level`` (empty when it holds): hash, statuses, replay."""
    if not isinstance(level, Level):
        level = level_from_json(level, balanced=False)
    problems: list[str] = []
    if not isinstance(cert, dict) or cert.get("format") != CERT_FORMAT:
        return [f"not a certificate (format must be {CERT_FORMAT!r})"]
    if cert.get("level_sha256") != level_sha256(level):
        problems.append("level_sha256 does not match the level (it was edited)")
    status = cert.get("status")
    if status not in STATUSES:
        problems.append(f"unknown status {status!r}")
    if status in ("verified", "out_of_range"):
        solution = cert.get("solution")
        if not isinstance(solution, list):
            return [*problems, "a solved certificate needs a solution"]
        game = Game(level)
        try:
            final = game.replay(solution)[-1]
        except IllegalStep as exc:
            return [*problems, str(exc)]
        if not game.is_complete(final):
            problems.append("the solution does not complete the level")
        if cert.get("steps") != len(solution):
            problems.append("steps does not equal the solution's length")
        if cert.get("optimal") and cert.get("lower_bound") != len(solution):
            problems.append("optimal, but the lower bound is not the solution's length")
    return problems


def certify_batch(
    data: dict[str, Any], *, progress: Progress = NO_PROGRESS, **budgets: Any
) -> dict[str, Any]:
    """Certify every level of a batch file against the batch's request."""
    levels = data.get("levels")
    if not isinstance(levels, list):
        raise GridforgeError("levels: a batch needs a list of levels")
    request = data.get("request") if isinstance(data.get("request"), dict) else None
    certs = []
    for i, raw in enumerate(levels):
        progress.step(i, len(levels), "certifying")
        certs.append(certify(raw, request=request, progress=progress, **budgets))
    progress.step(len(levels), len(levels), "certified")
    return {"format": BATCH_FORMAT, "request": request, "levels": levels, "certificates": certs}


def certify_file_data(
    data: Any, *, progress: Progress = NO_PROGRESS, **budgets: Any
) -> dict[str, Any]:
    """Certify a level file's data or a batch file's data (dispatching on ``format``)."""
    if isinstance(data, dict) and data.get("format") == BATCH_FORMAT:
        return certify_batch(data, progress=progress, **budgets)
    if isinstance(data, dict) and data.get("format") not in (None, LEVEL_FORMAT):
        raise GridforgeError(
            f"format: expected {LEVEL_FORMAT!r} or {BATCH_FORMAT!r}, got {data.get('format')!r}"
        )
    return certify(data, progress=progress, **budgets)


__all__ = [
    "BATCH_FORMAT",
    "CERT_FORMAT",
    "STATUSES",
    "certify",
    "certify_batch",
    "certify_file_data",
    "check_certificate",
    "judge",
]
