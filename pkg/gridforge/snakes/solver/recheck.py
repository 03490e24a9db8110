"""The recheck of a snakes certificate (spec sections 5 and 7): every claim judged against its
level (:func:`recheck`), the certificate this package can stand behind returned with the
issues of the claims that do not hold, and those issues as lines (:func:`check_certificate`).

A recheck trusts nothing it is given: a solution is replayed, a proof of the minimum or of
unsolvability is re-proved within counted budgets (a claim that needs more is refused, never
believed), a ``reading`` and the witnesses are recomputed; the informational fields are
judged by their shape only. The certificates themselves are written by
:mod:`gridforge.snakes.solver.certificate`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gridforge.errors import GridforgeError, Issue, Issues, field_path, is_int
from gridforge.jsontypes import Json, JsonObject
from gridforge.snakes.game.certfile import (
    CERT_FORMAT,
    STATUSES,
    Certificate,
    CertReading,
    Score,
    Witness,
    certificate_of,
)
from gridforge.snakes.game.level import (
    MAX_BODIES,
    MAX_FLOOR,
    MAX_HOLES,
    Level,
    balance_issues,
    level_from_json,
)
from gridforge.snakes.game.regions import floor_map
from gridforge.snakes.game.rules import Game, IllegalStep
from gridforge.snakes.solver.certificate import (
    CERT_KEYS,
    CHECK_SECONDS,
    CHECK_STATES,
    LATER_DIAGNOSTICS,
    MAIN_REGION_KEYS,
    MAX_INFO_ITEMS,
    MAX_INFO_TEXT,
    MAX_SOLUTION,
    OPTIONAL_KEYS,
    READING_KEYS,
    READING_OPTIONAL,
    READING_STATES,
    Scorer,
    _blank,
    _number,
    _show,
    _solved,
    _total,
    certificate_reading,
    judge,
    request_issues,
)
from gridforge.snakes.solver.matching import INF
from gridforge.snakes.solver.pairs import pairwise_bound
from gridforge.snakes.solver.puzzle import relaxations
from gridforge.snakes.solver.search import SearchResult, Solver


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
        return certificate_of(self.cert)

    def bad(self, name: str, message: str, code: str = "claim") -> None:
        self.add(name, code, message)

    def expect_value(self, name: str, claimed: object, value: object) -> None:
        """The claim at path ``name`` (``claimed``) must equal ``value``."""
        if not _same(claimed, value):
            self.bad(name, f"claims {_show(claimed)}, but the recheck gives {_show(value)}")

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
        for key in sorted(str(k) for k in read if k not in READING_KEYS + READING_OPTIONAL):
            self.bad(field_path("reading", key), f"unknown field {key!r}", "unknown_field")
        if "main_region" in read:
            self.main_region_shape(read["main_region"])
        if "piece_cost" in read:
            self.piece_cost_shape(read["piece_cost"])
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

    def main_region_shape(self, value: Json) -> None:
        """``reading.main_region``: an object of :data:`MAIN_REGION_KEYS`, each an integer
        >= 0 (``joint`` any integer: negative while unproven), ``bodies`` 1..MAX_BODIES."""
        where = field_path("reading", "main_region")
        if not isinstance(value, dict):
            self.bad(where, "must be an object {" + ", ".join(MAIN_REGION_KEYS) + "}, got "
                     f"{_show(value)}", "type")
            return
        for key in sorted(str(k) for k in value if k not in MAIN_REGION_KEYS):
            self.bad(field_path(where, key), f"unknown field {key!r}", "unknown_field")
        for key in MAIN_REGION_KEYS:
            item = value.get(key)
            low, high = (1, MAX_BODIES) if key == "bodies" else (0, MAX_SOLUTION)
            if key not in value:
                self.bad(field_path(where, key), "missing", "missing")
            elif not is_int(item) or not (key == "joint" or low <= item <= high):
                wanted = ("an integer" if key == "joint" else
                          f"an integer {low}..{high}" if key == "bodies" else "an integer >= 0")
                self.bad(field_path(where, key), f"must be {wanted}, got {_show(item)}",
                         "type")

    def piece_cost_shape(self, value: Json) -> None:
        """``reading.piece_cost``: an object naming pieces as the witnesses do (or
        ``bridges[k]``), each an integer step count (negative: the piece saves steps)."""
        where = field_path("reading", "piece_cost")
        if not isinstance(value, dict) or len(value) > MAX_PIECES:
            self.bad(where, "must be an object {piece: steps}, got " + _show(value), "type")
            return
        for name in sorted(value):
            if PIECE_NAME.fullmatch(name) is None:
                self.bad(field_path(where, name), "names no piece (bodies[i].frozen, "
                         "holes[j].frozen, bodies[i].lock, paths[k] or bridges[k])", "type")
            else:
                cost = value[name]
                if not is_int(cost) or not -MAX_SOLUTION <= cost <= MAX_SOLUTION:
                    self.bad(field_path(where, name), "must be an integer step count, got "
                             + _show(cost), "type")

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
        refused = Issues()
        refused.add(field_path(base, "format"), "format",
                    f"not a certificate (format must be {CERT_FORMAT!r})")
        return Recheck(refused.items, None)
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
            out["reading"] = _with_board(read, claims.checked["reading"])


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
    claimed = cert["reading"]
    _compare(claims, "reading", {k: v for k, v in claimed.items() if k not in READING_OPTIONAL},
             read)
    _recheck_board(claims, level, claimed)


# The most pieces a level can have: a freeze and a lock per body, a freeze per hole, and a
# path or a bridge per floor cell.
MAX_PIECES = 2 * MAX_BODIES + MAX_HOLES + MAX_FLOOR
# A piece's name in ``reading.piece_cost``: the field that holds it (the witnesses' names, and
# bridges).
PIECE_NAME = re.compile(r"(bodies)\[(\d+)\]\.(frozen|lock)|(holes)\[(\d+)\]\.frozen"
                        r"|(paths|bridges)\[(\d+)\]")


def _has_piece(level: Level, name: str) -> bool:
    """Whether ``level`` has the piece ``name`` (a well-formed name of :data:`PIECE_NAME`)."""
    found = PIECE_NAME.fullmatch(name)
    assert found is not None  # the shape check let only such names through
    if found[1]:
        i = int(found[2])
        body = level.bodies[i] if i < len(level.bodies) else None
        return body is not None and bool(body.frozen if found[3] == "frozen" else body.lock)
    if found[4]:
        j = int(found[5])
        return j < len(level.holes) and level.holes[j].frozen > 0
    k = int(found[7])
    return k < len(level.paths if found[6] == "paths" else level.bridges)


def _with_board(read: CertReading, claimed: CertReading) -> CertReading:
    """The recomputed 5c ``read`` with 5d's figures as ``claimed`` (judged by
    :func:`_recheck_board`), in the claim's order: the 5c figures first."""
    if "main_region" in claimed:
        read["main_region"] = claimed["main_region"]
    if "piece_cost" in claimed:
        read["piece_cost"] = claimed["piece_cost"]
    return read


def _recheck_board(claims: _Claims, level: Level, read: CertReading) -> None:
    """Spec 5d's optional figures against the level: the main region's body count (counted
    again), a chain no longer than those bodies allow, and pieces the level has. Their step
    figures come from exact searches a recheck cannot afford: judged by shape only."""
    if "main_region" in read:
        main = read["main_region"]
        bodies = floor_map(level.to_json()).main_bodies
        where = field_path("reading", "main_region")
        claims.expect_value(field_path(where, "bodies"), main["bodies"], bodies)
        if main["chain"] > bodies - 1:
            claims.bad(field_path(where, "chain"), f"a must-move chain of {main['chain']} "
                       f"needs more than the main region's {bodies} bodies")
    for name in sorted(read.get("piece_cost", {})):
        if not _has_piece(level, name):
            claims.bad(field_path(field_path("reading", "piece_cost"), name),
                       "the level has no such piece")


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
        steps_of = [step for step in solution if isinstance(step, list)]  # replayed: all
        checked.append({"mechanic": mechanic, "solution": steps_of})
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
