"""Search over full game states (seed 004 section 5, "局面图上的全局 A*").

A :class:`Solver` wraps a :class:`~gridforge.snakes.game.rules.Game` with precomputed tables
(:class:`~gridforge.snakes.solver.nodes.StateTables`, with the bound and the search keys):

- wall-aware BFS distances from every hole over the static floor (walls and stones only;
  cells that reach no hole of a colour are dead for that colour: their distance is INF),
  on the node graph of spec section 3b (a bridge is two nodes, one per lane; cells painted
  another colour than the hole's are closed: :meth:`Game.distances_to`);
- the admissible, consistent lower bound of spec section 5 (:meth:`Solver.bound`): per
  current outer colour, a min-cost matching of bodies to distinct unused holes of that colour,
  the cost of a pair being the wall-aware distance from the nearer end to the hole (the
  steps that end needs at least: each step moves an end by one cell); plus one step per
  remaining inner layer. :meth:`Solver.bound` computes it from scratch (the reference);
  the searches keep it per node instead: each node carries its colour groups' optimal
  square matchings with their duals (:class:`~gridforge.snakes.solver.matching.SquareMatch`), and
  a child re-solves only the moved body's group by at most one augmenting phase.

Searches (all iterative, budgets in stored states and seconds, statistics returned):

- :meth:`Solver.astar`: exact A* with a transposition table keyed by the full state (one
  int packing every body's cells, shed layers and used holes; no hash-only keys, so a proof
  can never rest on a collision), a bucket queue, children pushed with cheap lower
  estimates of their bound (weak duality) and settled when popped, an
  optional upper bound to prune against, and ``weight`` > 1 for the fast, non-optimal
  variant; :meth:`Solver.fast` is that variant (it finds exit orders and the room-making
  moves in between by itself, because every step is a full-state edge).
- :meth:`Solver.solve`: static dead checks, fast search, shortening, then exact A* under
  the fast upper bound; the result says whether the minimum is proven.
- :func:`shorten`: removes cycles on full states and splices one-step shortcuts.
- :func:`bfs_optimum` and :func:`goal_distances`: exhaustive BFS, the reference the tests
  and ``check-designer`` hold A* and the bound against.
- :func:`hint`: the next step of a solution from any state.

Result statuses: ``solved`` (a solution; ``optimal`` tells whether it is proven shortest),
``unsolvable`` (the state space was exhausted, or a static dead check fired),
``budget`` (states or seconds ran out without a solution).
"""

from __future__ import annotations

import gc
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from heapq import heappop, heappush
from typing import Any

from gridforge.i18n import say
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.game.rules import Game, Move, State, move_to_step
from gridforge.snakes.solver.matching import INF
from gridforge.snakes.solver.nodes import H_BITS, H_MASK, Item, Node, StateTables


@dataclass
class SearchResult:
    """What a search found; ``moves`` are internal moves (see :func:`move_to_step`)."""

    status: str  # "solved" | "unsolvable" | "budget"
    moves: list[Move] | None
    optimal: bool
    lower_bound: int
    upper_bound: int | None
    expanded: int = 0
    stored: int = 0
    seconds: float = 0.0
    reason: str = ""
    stats: dict[str, int | None] = field(default_factory=dict)  # the search's own counts

    @property
    def steps(self) -> list[list[Any]] | None:
        return None if self.moves is None else [move_to_step(m) for m in self.moves]


DEFAULT_STATES = 200_000
DEFAULT_SECONDS = 10.0
FAST_WEIGHT = 3


class Solver(StateTables):
    """Precomputed tables and the searches of one game.

    Inside its searches a state is one int (the *key*): every body's packed cells at a fixed
    offset, then the shed layers, then the used holes. A step is then one XOR (a slide) or
    one addition (an exit) with a delta precomputed per body position; the key is the
    transposition table's key itself (exact, never a hash). Public methods take and return
    the tuple states of :mod:`~gridforge.snakes.game.rules`.
    """

    # ------------------------------------------------------------ static dead checks

    def dead_reason(self) -> str:
        """Why the level can never be completed, from its static structure ('' if none)."""
        game = self.game
        total = sum(game.nlayers)
        for b in range(game.n):
            if game.frozen[b] > total - game.nlayers[b]:
                return f"bodies[{b}] stays frozen: only {total - game.nlayers[b]} other layers"
        for h, k in enumerate(game.hole_frozen):
            if k > total - 1:
                return f"holes[{h}] stays frozen: the level has {total} layers"
        # A lock whose keys wait (transitively) on the locked body itself never opens.
        for b in range(game.n):
            seen = set()
            stack = list(game.carriers[b])
            while stack:
                c = stack.pop()
                if c == b:
                    return f"bodies[{b}]: its lock waits on its own key chain"
                if c not in seen:
                    seen.add(c)
                    stack.extend(game.carriers[c])
        if self.bound(game.initial) >= INF:
            return "a body can reach no hole of its color"
        return ""

    # ------------------------------------------------------------ A*

    def astar(
        self,
        start: State | None = None,
        *,
        max_states: int = DEFAULT_STATES,
        max_seconds: float = DEFAULT_SECONDS,
        upper: int | None = None,
        weight: int = 1,
        scale: int = 1,
        progress: Progress = NO_PROGRESS,
    ) -> SearchResult:
        """A* over full states from ``start``, ordered by ``f = g + (weight / scale) * h``
        (kept in integers as ``scale * g + weight * h``).

        With ``weight == scale`` the first goal popped is optimal. ``upper`` (a known
        solution length) prunes every node that cannot beat it: if the open list then
        empties, no solution shorter than ``upper`` exists (status ``budget`` is never
        returned in that case; the caller holds the solution of length ``upper``).

        The open list is a bucket queue: one FIFO per (f, h) pair, popped smallest f first,
        then smallest h (deeper first), first in first out within a pair (the weighted
        search's choices among equals depend on it); a small heap holds the pairs. A node
        is pushed with a lower estimate of its bound and settled when popped: if the exact
        bound is larger it goes back with it (never expanded on an estimate), so every
        expanded node had the smallest exact f of the open list.
        """
        # The search makes no reference cycles (ints, tuples, lists in dicts), so the cyclic
        # garbage collector would only rescan its growing tables: a third of the time.
        collecting = gc.isenabled()
        gc.disable()
        try:
            if weight < scale or scale < 1:
                raise ValueError(f"a weight below 1 is not A*: {weight}/{scale}")
            return self._astar(start, max_states, max_seconds, upper, weight, scale, progress)
        finally:
            if collecting:
                gc.enable()

    def _astar(
        self,
        start: State | None,
        max_states: int,
        max_seconds: float,
        upper: int | None,
        weight: int,
        scale: int,
        progress: Progress,
    ) -> SearchResult:
        game = self.game
        n = game.n
        all_used = game.all_used
        t0 = time.monotonic()
        deadline = t0 + max_seconds
        if start is None:
            start = game.initial
        h0 = self.bound(start)
        if h0 >= INF:
            return SearchResult("unsolvable", None, False, INF, None, reason="dead start state")
        if start[n + 1] == all_used:
            return SearchResult("solved", [], True, 0, 0, stored=1)
        limit = 1 << 62 if upper is None else upper
        key0 = self.pack(start)
        node0 = self._scratch(key0)
        uoff = self._uoff
        best: dict[int, int] = {key0: 0}  # the smallest g found per key
        settled: dict[int, Node] = {key0: node0}  # popped once on an estimate, now exact
        nodes: dict[int, Node] = {}  # expanded keys: their children derive from them
        came: dict[int, Item] = {}  # expanded keys (and the goal): their open-list item
        bk0 = (weight * h0) << H_BITS | h0
        buckets: dict[int, deque[Item]] = {bk0: deque(((key0, None, -1),))}
        active = [bk0]
        expand = self._expand
        derive = self._derive
        # Module constants as locals: the loop below runs once per pop.
        h_bits = H_BITS
        h_mask = H_MASK
        inf = INF
        label = say("progress.searching")  # the call's language, said once
        expanded = 0
        pruned = 0
        goal: Item | None = None
        reason = ""
        while active:
            bk = active[0]
            lst = buckets[bk]
            if not lst:
                heappop(active)
                del buckets[bk]
                continue
            item = lst.popleft()
            key, parent, move = item
            hb = bk & h_mask
            g = ((bk >> h_bits) - weight * hb) // scale
            if best[key] != g:
                continue  # stale: reached again with a smaller g
            # (Most pops find ``settled`` empty: the test is cheaper than the failed pop.)
            node = settled.pop(key, None) if settled else None
            if node is None:
                assert parent is not None
                node = derive(parent, nodes[parent], move, key)
                h = node[0]
                if h >= inf or g + h >= limit:
                    continue
                if h > hb:
                    # Pushed on an estimate: back to the open list with its exact bound.
                    settled[key] = node
                    nb = (scale * g + weight * h) << h_bits | h
                    other = buckets.get(nb)
                    if other is None:
                        buckets[nb] = deque((item,))
                        heappush(active, nb)
                    else:
                        other.append(item)
                    continue
            if key >> uoff == all_used:
                goal = item
                break
            if len(best) >= max_states:
                lst.appendleft(item)
                settled[key] = node
                reason = "states"
                break
            expanded += 1
            if not expanded & 255 and _late(expanded, deadline, progress, len(best), max_states,
                                            label):
                lst.appendleft(item)
                settled[key] = node
                reason = "seconds"
                break
            nodes[key] = node
            came[key] = item
            found, cut = expand(key, node, g + 1, best, limit, weight, buckets, active, scale)
            pruned += cut
            if found is not None:
                goal = found
                break
        return _outcome(goal, came, buckets, h0, upper, weight, scale, expanded, len(best),
                        time.monotonic() - t0, reason, pruned)

    def fast(
        self,
        start: State | None = None,
        *,
        max_states: int = DEFAULT_STATES,
        max_seconds: float = DEFAULT_SECONDS,
        progress: Progress = NO_PROGRESS,
    ) -> SearchResult:
        """Weighted A* (f = g + 3h): finds a solution quickly, never claims optimality;
        the solution is shortened before it is returned."""
        result = self.astar(
            start,
            max_states=max_states,
            max_seconds=max_seconds,
            weight=FAST_WEIGHT,
            progress=progress,
        )
        if result.moves is not None:
            result.moves = shorten(self.game, result.moves, start)
            result.upper_bound = len(result.moves)
            result.optimal = False
        return result

    def solve(
        self,
        *,
        max_states: int = DEFAULT_STATES,
        max_seconds: float = DEFAULT_SECONDS,
        fast_states: int | None = None,
        start: State | None = None,
        progress: Progress = NO_PROGRESS,
        shorter_than: int | None = None,
    ) -> SearchResult:
        """Dead checks, fast search, then exact A* under the fast upper bound.

        ``max_states`` bounds the exact search's table (and the fast one's unless
        ``fast_states`` is given); ``max_seconds`` bounds the two together. With
        ``shorter_than``, a fast solution shorter than that is answered unproven at once (a
        caller that only asks whether the minimum reaches it needs no exact search).
        """
        t0 = time.monotonic()
        if start is None:
            dead = self.dead_reason()
            if dead:
                return SearchResult("unsolvable", None, False, INF, None, reason=dead)
            start = self.game.initial
        h0 = self.bound(start)
        fast = self.fast(
            start,
            max_states=fast_states or max_states,
            max_seconds=max_seconds / 2,
            progress=progress,
        )
        if fast.status == "unsolvable":
            # Weighted A* exhausting the space proves unsolvability just as well.
            fast.seconds = time.monotonic() - t0
            return fast
        upper = fast.upper_bound if fast.moves is not None else None
        if upper is not None and shorter_than is not None and upper < shorter_than:
            fast.lower_bound = h0
            fast.seconds = time.monotonic() - t0
            return fast
        if upper is not None and upper <= h0:
            fast.optimal = True
            fast.lower_bound = upper
            fast.seconds = time.monotonic() - t0
            return fast
        remaining = max(0.0, max_seconds - (time.monotonic() - t0))
        exact = self.astar(
            start, max_states=max_states, max_seconds=remaining, upper=upper, progress=progress
        )
        exact.expanded += fast.expanded
        exact.stats["fast_expanded"] = fast.expanded
        exact.stats["fast_steps"] = upper
        exact.seconds = time.monotonic() - t0
        if exact.status == "solved":
            return exact
        if exact.status == "exhausted_below_upper":
            exact.status = "solved"
            exact.moves = fast.moves
            exact.optimal = True
            return exact
        if fast.moves is not None:
            exact.status = "solved"
            exact.moves = fast.moves
            exact.upper_bound = upper
            exact.optimal = False
            exact.lower_bound = max(h0, exact.lower_bound)
        return exact


def _late(expanded: int, deadline: float, progress: Progress, stored: int, max_states: int,
          label: str) -> bool:
    """Whether the search is past its ``deadline`` (asked every 256 expansions); every 4096
    expansions it reports its ``stored`` states to ``progress`` too."""
    if time.monotonic() > deadline:
        return True
    if not expanded & 4095:
        progress.step(stored, max_states, label)
    return False


def _path(came: dict[int, Item], goal: Item) -> list[Move]:
    """The moves from the start to ``goal`` (its parents are expanded keys in ``came``)."""
    moves: list[Move] = []
    _, parent, move = goal
    while parent is not None:
        moves.append(move)
        _, parent, move = came[parent]
    moves.reverse()
    return moves



def _outcome(goal: Item | None, came: dict[int, Item], buckets: dict[int, deque[Item]],
             h0: int, upper: int | None, weight: int, scale: int, expanded: int, stored: int,
             seconds: float, reason: str, pruned: int) -> SearchResult:
    """What an A* run that stopped (goal found, open list empty, or a budget) answers."""
    open_count = sum(len(x) for x in buckets.values())
    stats: dict[str, int | None] = {"pruned": pruned, "open": open_count}
    if goal is not None:
        moves = _path(came, goal)
        optimal = weight == scale
        lb = len(moves) if optimal else h0
        return SearchResult(
            "solved", moves, optimal, lb, len(moves), expanded, stored, seconds, "", stats
        )
    if not open_count:
        # Exhausted: nothing shorter than ``upper`` (or nothing at all) exists.
        if upper is not None:
            return SearchResult(
                "exhausted_below_upper", None, True, upper, upper, expanded, stored,
                seconds, "no solution shorter than the upper bound", stats,
            )  # fmt: skip
        return SearchResult(
            "unsolvable", None, False, INF, None, expanded, stored, seconds,
            "state space exhausted", stats,
        )  # fmt: skip
    lowest = min(bk >> H_BITS for bk, x in buckets.items() if x)
    lb = h0 if weight != scale else max(h0, lowest)
    if upper is not None:
        lb = min(lb, upper)
    return SearchResult(
        "budget", None, False, lb, upper, expanded, stored, seconds, reason, stats
    )

def shorten(game: Game, moves: list[Move], start: State | None = None) -> list[Move]:
    """Remove cycles on full states, then splice one-step shortcuts, until nothing changes."""
    start = game.initial if start is None else start
    while True:
        states = [start]
        for move in moves:
            states.append(game.apply(states[-1], move))
        last = {s: i for i, s in enumerate(states)}
        # 1. Cycles: jump from each state to its last occurrence.
        out: list[Move] = []
        i = 0
        while i < len(moves):
            i = last[states[i]]
            if i >= len(moves):
                break
            out.append(moves[i])
            i += 1
        if len(out) < len(moves):
            moves = out
            continue
        # 2. Shortcuts: a single step from states[i] that reaches a later state j > i + 1.
        changed = False
        for i in range(len(states) - 2):
            for move, child, _ in game.successors(states[i], game.occupancy(states[i])):
                j = last.get(child, -1)
                if j > i + 1:
                    moves = [*moves[:i], move, *moves[j:]]
                    changed = True
                    break
            if changed:
                break
        if not changed:
            return moves


# ---------------------------------------------------------------- exhaustive references


def bfs_optimum(game: Game, max_states: int = 1_000_000,
                allowed: Callable[[Move], bool] | None = None) -> int | None:
    """Fewest steps to completion by exhaustive BFS (None: unsolvable), using only the moves
    ``allowed`` accepts when it is given; raises OverflowError before storing more than
    ``max_states`` states."""
    start = game.initial
    if game.is_complete(start):
        return 0
    seen = {start}
    frontier = [(start, game.occupancy(start))]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for state, occ in frontier:
            for move, child, cocc in game.successors(state, occ):
                if child in seen or (allowed is not None and not allowed(move)):
                    continue
                if game.is_complete(child):
                    return depth
                if len(seen) >= max_states:
                    raise OverflowError(f"BFS passed {max_states} states")
                seen.add(child)
                nxt.append((child, cocc))
        frontier = nxt
    return None


def goal_distances(game: Game, max_states: int = 200_000) -> dict[State, int]:
    """Exact distance to completion of every reachable state that can still complete.

    Explores the whole reachable space, then runs BFS backwards from the goal states.
    """
    start = game.initial
    index = {start: 0}
    states = [start]
    occs = [game.occupancy(start)]
    preds: list[list[int]] = [[]]
    k = 0
    while k < len(states):
        state, occ = states[k], occs[k]
        for _, child, cocc in game.successors(state, occ):
            j = index.get(child)
            if j is None:
                j = len(states)
                if j >= max_states:
                    raise OverflowError(f"exploration passed {max_states} states")
                index[child] = j
                states.append(child)
                occs.append(cocc)
                preds.append([])
            preds[j].append(k)
        k += 1
    n = game.n
    dist = [-1] * len(states)
    queue = [i for i, s in enumerate(states) if s[n + 1] == game.all_used]
    for i in queue:
        dist[i] = 0
    q = 0
    while q < len(queue):
        i = queue[q]
        q += 1
        for p in preds[i]:
            if dist[p] < 0:
                dist[p] = dist[i] + 1
                queue.append(p)
    return {states[i]: d for i, d in enumerate(dist) if d >= 0}


def hint(
    game: Game,
    state: State,
    *,
    max_states: int = 50_000,
    max_seconds: float = 2.0,
) -> tuple[Move | None, SearchResult]:
    """The next step of a solution from ``state`` (None when none was found in budget)."""
    solver = Solver(game)
    result = solver.solve(start=state, max_states=max_states, max_seconds=max_seconds)
    if result.moves:
        return result.moves[0], result
    return None, result


__all__ = [
    "DEFAULT_SECONDS",
    "DEFAULT_STATES",
    "SearchResult",
    "Solver",
    "bfs_optimum",
    "goal_distances",
    "hint",
    "shorten",
]
