"""Shortening a known solution within counted budgets (seed 004, section 3: "缩短解法后重新评分，
禁止用绕圈凑分"; spec section 5b: verify keeps what it is given).

:func:`improve` takes any legal solution and returns one no longer, with what it learnt about
the minimum:

1. :func:`~gridforge.snakes.solver.search.shorten` removes cycles on full states and one-step
   shortcuts;
2. exact A* under the given length: on small levels it proves the minimum (or finds it)
   at once, and the rest is skipped; otherwise the pairwise bound
   (:mod:`~gridforge.snakes.solver.pairs`) may prove it (bodies that stand in each other's way only
   in pairs, as in levels built from motifs), and the rest is skipped too;
3. weighted A* restarts (:data:`RESTARTS`: ``f = g + w h`` for w = 10 and 5, greedy ones
   that find a far shorter line at once where a solution wanders, then 3/2, 3, 2, 5/4), each
   pruned by the best solution so far (``g + h >= upper`` is never stored), so each finds
   only strictly shorter solutions; after a success the same weight runs again under the new
   upper bound; a restart that exhausts every shorter line ends them (the minimum is found);
4. :func:`tighten`: from each state of the solution a small breadth-first search splices in
   any shorter path to a later state of the solution (windows re-solved exactly);
5. suffix re-solving: exact A* from states near the end of the solution, where few bodies
   remain, replaces a suffix by a shortest one;
6. steps 3-5 repeat until a pass changes nothing (so improving the result again gives it
   back unchanged), then exact A* under the final length proves the minimum or gives a lower
   bound, and the pairwise bound (:mod:`~gridforge.snakes.solver.pairs`) may raise that bound up to
   the solution.

Every budget counts stored states, never seconds (the seconds arguments are safety nets that
callers turn into loud errors), so the same solution and budgets give the same result on any
machine. Every returned solution comes from the real rules' successors and is replayed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gridforge.i18n import say
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.game.rules import Game, Move, State
from gridforge.snakes.solver.pairs import DEFAULT_PAIR_STATES, pairwise_bound
from gridforge.snakes.solver.search import SearchResult, Solver, shorten

__all__ = ["RESTARTS", "Budget", "Improved", "improve", "tighten"]

# (weight, scale, stored states): f = scale * g + weight * h, i.e. w = weight / scale.
RESTARTS: tuple[tuple[int, int, int], ...] = (
    (10, 1, 40_000), (5, 1, 40_000),
    (3, 2, 40_000), (3, 1, 60_000), (2, 1, 60_000), (5, 4, 60_000))


# The most states a proof after an exhausted weighted restart may take: the recheck of a
# certificate re-proves within at most as many (certificate.CHECK_STATES).
PROOF_STATES = 200_000


@dataclass(frozen=True)
class Budget:
    """The work :func:`improve` may spend: stored states per weighted restart, per suffix and
    for the final exact search; states of each :func:`tighten` window."""

    restarts: tuple[tuple[int, int, int], ...] = RESTARTS
    exact_states: int = 20_000
    suffix_states: int = 5_000
    suffixes: int = 12  # suffix starts tried, from the end backwards
    window_depth: int = 6
    window_states: int = 300
    pair_states: int = DEFAULT_PAIR_STATES  # per pair of the pairwise bound (0: no bound)
    seconds: float = 900.0  # safety net only (the caller raises on it)


@dataclass
class Improved:
    """The shortest solution found, whether it is proven minimal, the lower bound, and the
    searches' record (stored states per phase, what stopped the exact search)."""

    moves: list[Move]
    optimal: bool
    lower_bound: int
    given: int
    record: dict[str, int | str] = field(default_factory=dict)
    safety_net: bool = False  # a seconds cap fired somewhere (the caller decides)


def _states(game: Game, moves: Sequence[Move], start: State) -> list[State]:
    states = [start]
    for move in moves:
        states.append(game.apply(states[-1], move))
    return states


def _shortcut(game: Game, states: list[State], last: dict[State, int], i: int, depth: int,
              max_states: int) -> tuple[int, list[Move]] | None:
    """The later solution state reached from ``states[i]`` with the largest saving, and the
    path to it, by breadth-first search (``depth`` steps, ``max_states`` states)."""
    root = states[i]
    parent: dict[State, tuple[State, Move] | None] = {root: None}
    frontier = [(root, game.occupancy(root))]
    best: tuple[int, State] | None = None  # (saving, state)
    for d in range(1, depth + 1):
        nxt: list[tuple[State, int]] = []
        for state, occ in frontier:
            for move, child, child_occ in game.successors(state, occ):
                if child in parent:
                    continue
                parent[child] = (state, move)
                j = last.get(child, -1)
                if j > i and j - i - d > (best[0] if best else 0):
                    best = (j - i - d, child)
                nxt.append((child, child_occ))
                if len(parent) >= max_states:
                    break
            if len(parent) >= max_states:
                break
        frontier = nxt
        if len(parent) >= max_states or not frontier:
            break
    if best is None:
        return None
    path: list[Move] = []
    state = best[1]
    while (link := parent[state]) is not None:
        state, move = link
        path.append(move)
    path.reverse()
    return last[best[1]], path


def tighten(game: Game, moves: list[Move], *, depth: int = 6, max_states: int = 300,
            start: State | None = None, progress: Progress = NO_PROGRESS) -> list[Move]:
    """A solution no longer than ``moves`` (which must solve ``game`` from ``start``): every
    stretch that a ``depth``-step search can do more briefly is replaced."""
    start = game.initial if start is None else start
    moves = list(moves)
    states = _states(game, moves, start)
    i = 0
    while i < len(moves):
        progress.step(i, len(moves), say("progress.shortening"))
        last = {s: k for k, s in enumerate(states)}
        found = _shortcut(game, states, last, i, depth, max_states)
        if found is None:
            i += 1
            continue
        j, path = found
        moves = [*moves[:i], *path, *moves[j:]]
        states = [*states[: i + 1], *_states(game, path, states[i])[1:], *states[j + 1:]]
    return moves


def _suffixes(solver: Solver, moves: list[Move], budget: Budget, record: dict[str, int | str]
              ) -> tuple[list[Move], bool]:
    """Exact A* from states near the end: a shorter suffix replaces the old one. Returns the
    moves and whether a seconds cap fired."""
    game = solver.game
    states = _states(game, moves, game.initial)
    stored = 0
    tried = 0
    k = len(moves) - 2
    while k > 0 and tried < budget.suffixes:
        tried += 1
        rest = len(moves) - k
        found = solver.astar(states[k], max_states=budget.suffix_states,
                             max_seconds=budget.seconds, upper=rest)
        stored += found.stored
        if found.reason == "seconds":
            return moves, True
        if found.moves is not None and len(found.moves) < rest:
            moves = [*moves[:k], *found.moves]
            states = _states(game, moves, game.initial)
        if found.reason == "states":
            break  # longer suffixes only cost more
        # Double the suffix each time: a proven-short tail lets the next start further back.
        k = len(moves) - 2 * (len(moves) - k)
    record["suffix_states"] = int(record.get("suffix_states", 0)) + stored
    return moves, False


def _exact(solver: Solver, moves: list[Move], states: int, budget: Budget,
           record: dict[str, int | str], h0: int) -> tuple[bool, list[Move], int, bool]:
    """Exact A* under ``len(moves)``: (proven, moves, lower bound, a seconds cap fired)."""
    exact = solver.astar(max_states=states, max_seconds=budget.seconds, upper=len(moves))
    record["exact"] = int(record.get("exact", 0)) + exact.stored
    record["stopped_by"] = exact.reason
    # The budget a re-proof needs: the search stops once it holds max_states states, so one
    # more than it stored.
    if exact.status == "solved" and exact.moves is not None:
        record["proof_states"] = exact.stored + 1
        return True, exact.moves, len(exact.moves), False
    if exact.status == "exhausted_below_upper":
        record["proof_states"] = exact.stored + 1
        return True, moves, len(moves), False
    return False, moves, max(h0, min(exact.lower_bound, len(moves))), exact.reason == "seconds"


def _restarts(game: Game, solver: Solver, moves: list[Move], budget: Budget,
              record: dict[str, int | str], progress: Progress
              ) -> tuple[list[Move], bool, int]:
    """One pass of the weighted restarts (step 3): the solution they leave, whether a
    seconds net was hit, and the states of a restart that exhausted every shorter line (0
    when none did)."""
    net = False
    for weight, scale, states in budget.restarts:
        name = f"w{weight}/{scale}"
        while True:
            progress.step(0, 1, say("progress.shortening"))
            found: SearchResult = solver.astar(
                max_states=states, max_seconds=budget.seconds, upper=len(moves),
                weight=weight, scale=scale)
            record[name] = int(record.get(name, 0)) + found.stored
            net = found.reason == "seconds"
            if found.status == "exhausted_below_upper":
                # The pruned weighted search saw every shorter line: nothing to improve.
                # The exact search after it proves it again, so that a recheck (exact A*
                # within the certificate's states) re-proves it by the same search.
                return moves, net, found.stored
            if found.moves is not None and len(found.moves) < len(moves):
                moves = shorten(game, found.moves)
                continue
            break
        if net:
            break
    return moves, net, 0


def improve(game: Game, moves: list[Move], budget: Budget = Budget(), *,
            solver: Solver | None = None, progress: Progress = NO_PROGRESS) -> Improved:
    """The shortest solution of ``game`` that the budgets find starting from ``moves`` (a
    legal solution from the initial state; never a longer one), proven minimal when the
    exact search exhausts every shorter line.

    :raises IllegalStep: when ``moves`` is not legal (replayed first).
    """
    solver = solver or Solver(game)
    given = len(moves)
    moves = shorten(game, list(moves))
    h0 = solver.bound(game.initial)
    record: dict[str, int | str] = {}
    net = False
    if len(moves) <= h0:
        return Improved(moves, True, len(moves), given, {"proof": "bound"})
    # First the exact search under the given length: on small levels it proves the minimum
    # (or finds it) at once, and the restarts are not needed.
    proven, moves, lower, net = _exact(solver, moves, budget.exact_states, budget, record, h0)
    pairs: int | None = None
    if not proven and not net and budget.pair_states > 0:
        # The pairwise bound may prove the given solution minimal at once (bodies that stand
        # in each other's way only in pairs): then no restart can find a shorter one.
        pairs = pairwise_bound(game, pair_states=budget.pair_states).bound
        record["pairwise"] = pairs
        proven = pairs >= len(moves)
        lower = len(moves) if proven else lower
    exhausted = 0  # states of a weighted restart that exhausted every shorter line
    given_length = len(moves)
    # Passes until one changes nothing: then improving the result again gives it back
    # unchanged (the restarts depend only on the upper bound), so a verify that runs the
    # same budgets on a designed level keeps its solution and its score.
    while not (proven or net or exhausted):
        before = len(moves)
        moves, net, exhausted = _restarts(game, solver, moves, budget, record, progress)
        if net or exhausted:
            break
        moves = tighten(game, moves, depth=budget.window_depth, max_states=budget.window_states)
        moves, net = _suffixes(solver, moves, budget, record)
        if len(moves) == before:
            break
    if not (proven or net) and (exhausted or len(moves) < given_length):
        states = budget.exact_states
        if exhausted:
            states = max(states, min(PROOF_STATES, 4 * exhausted))
        proven, moves, lower, net = _exact(solver, moves, states, budget, record, h0)
    if not proven and not net and pairs is not None:
        lower = max(lower, min(pairs, len(moves)))
        proven = lower >= len(moves)
    if proven:
        lower = len(moves)
    if not game.is_complete(_states(game, moves, game.initial)[-1]):  # pragma: no cover
        raise AssertionError("improve: the solution no longer completes the level")
    return Improved(moves, proven, lower, given, record, net)
