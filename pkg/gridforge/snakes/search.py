"""Search over full game states (seed 004 section 5, "局面图上的全局 A*").

A :class:`Solver` wraps a :class:`~gridforge.snakes.rules.Game` with precomputed tables:

- wall-aware BFS distances from every hole over the static floor (walls and stones only;
  cells that reach no hole of a colour are dead for that colour: their distance is INF);
- the admissible, consistent lower bound of spec section 5 (:meth:`Solver.bound`): per
  current outer colour, a min-cost matching of bodies to distinct unused holes of that colour,
  the cost of a pair being the wall-aware distance from the nearer end to the hole (the
  steps that end needs at least: each step moves an end by one cell); plus one step per
  remaining inner layer. During A* it is updated incrementally: a slide changes only the
  moved body's colour group, so only that group's matching is recomputed.

Searches (all iterative, budgets in stored states and seconds, statistics returned):

- :meth:`Solver.astar`: exact A* with a transposition table keyed by the full state (the
  state tuple itself; no hash-only keys, so a proof can never rest on a collision), an
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

import heapq
import time
from dataclasses import dataclass, field
from typing import Any

from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.matching import INF, hungarian
from gridforge.snakes.rules import CELL_MASK, LAYER_BITS, Game, Move, State, move_to_step

Match = tuple[int, list[int], list[int], list[int]]  # (cost, assignment, u, v)

DEFAULT_STATES = 200_000
DEFAULT_SECONDS = 10.0
FAST_WEIGHT = 3
MEMO_LIMIT = 100_000  # cached matchings of multi-body colour groups

# Priority packing of heap entries: f, then h (smaller h first = deeper first), then a
# counter for a deterministic FIFO among equals, then one bit: 1 when h is exact, 0 when it
# is an estimate still to be settled. One int compares faster than a tuple.
_CNT_BITS = 40
_H_BITS = 20
_F_SHIFT = _CNT_BITS + _H_BITS
_H_MASK = (1 << _H_BITS) - 1


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
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def steps(self) -> list[list[Any]] | None:
        return None if self.moves is None else [move_to_step(m) for m in self.moves]

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "solution": self.steps,
            "steps": None if self.moves is None else len(self.moves),
            "optimal": self.optimal,
            "lower_bound": self.lower_bound,
            "upper_bound": self.upper_bound,
            "expanded": self.expanded,
            "stored": self.stored,
            "seconds": round(self.seconds, 3),
            "reason": self.reason,
        }


class Solver:
    """Precomputed tables and the searches of one game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.hole_dist = [self._distances(p) for p in game.hole_cells]
        by_color: dict[int, list[tuple[int, list[int]]]] = {}
        for h, c in enumerate(game.hole_color):
            by_color.setdefault(c, []).append((h, self.hole_dist[h]))
        self.color_holes = by_color
        self.outer = tuple(tuple(cs) for cs in game.colors)
        self.color_used = {
            c: sum(1 << h for h, _ in holes) for c, holes in self.color_holes.items()
        }
        self._memo: dict[tuple[int, tuple[tuple[int, int], ...], int], Match] = {}

    def _distances(self, source: int) -> list[int]:
        """Wall-aware BFS distances from ``source`` over the static floor (INF: unreachable)."""
        dist = [INF] * self.game.size
        dist[source] = 0
        queue = [source]
        nb = self.game.nb
        k = 0
        while k < len(queue):
            p = queue[k]
            k += 1
            nd = dist[p] + 1
            for _, q in nb[p]:
                if dist[q] == INF:
                    dist[q] = nd
                    queue.append(q)
        return dist

    # ------------------------------------------------------------ the lower bound

    def group_cost(self, color: int, ends: list[tuple[int, int]], used: int) -> int:
        """Min-cost matching of bodies (their (head, tail)) of ``color`` to unused holes."""
        dists = [d for h, d in self.color_holes.get(color, ()) if not used >> h & 1]
        if len(ends) == 1:
            head, tail = ends[0]
            best = INF
            for d in dists:
                x = d[head]
                y = d[tail]
                if y < x:
                    x = y
                if x < best:
                    best = x
            return best
        return self.group_match(color, tuple(ends), used)[0]

    def group_match(self, color: int, ends: tuple[tuple[int, int], ...], used: int) -> Match:
        """The optimal matching of a colour group with its duals (cached, bounded)."""
        key = (color, ends, used & self.color_used[color])
        match = self._memo.get(key)
        if match is not None:
            return match
        dists = [d for h, d in self.color_holes.get(color, ()) if not used >> h & 1]
        if len(ends) > len(dists):
            match = (INF, [], [], [])
        else:
            rows = []
            for head, tail in ends:
                rows.append([d[head] if d[head] < d[tail] else d[tail] for d in dists])
            match = hungarian(rows)
        if len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()  # bounded memory: a cache, never needed for correctness
        self._memo[key] = match
        return match

    def _groups(self, state: State) -> tuple[dict[int, list[tuple[int, int]]], int]:
        """Bodies' ends grouped by current outer colour, and the remaining inner layers."""
        game = self.game
        n = game.n
        layers = state[n]
        groups: dict[int, list[tuple[int, int]]] = {}
        inner = 0
        for b in range(n):
            code = state[b]
            if not code:
                continue
            shed = (layers >> (LAYER_BITS * b)) & 7
            inner += game.nlayers[b] - shed - 1
            c = self.outer[b][shed]
            ends = (code & CELL_MASK, code >> game.shifts[b])
            if c in groups:
                groups[c].append(ends)
            else:
                groups[c] = [ends]
        return groups, inner

    def bound(self, state: State) -> int:
        """The admissible lower bound of spec section 5 (INF for a dead state)."""
        groups, total = self._groups(state)
        used = state[self.game.n + 1]
        for c, ends in groups.items():
            total += self.group_cost(c, ends, used)
            if total >= INF:
                return INF
        return total

    def expand(
        self, state: State, occ: int, best: dict[State, Any] | None = None, ng: int = 0
    ) -> list[tuple[Move, State, int, int, int]]:
        """Children of ``state`` as ``(move, child, occupancy, bound, exact)``.

        Children already in ``best`` with a g of at most ``ng`` are skipped (they are never
        improved), which saves their bound. A slide changes only the moved body's colour
        group. For a group of one body its new cost is exact and cheap. For a larger group
        the parent's optimal duals (u, v) give, by weak duality, the lower bound
        ``cost - u[row] + min_j(cost'[row][j] - v[j])`` in O(holes); when complementary
        slackness still holds (the minimum is at the body's old hole, or at a free hole
        with both duals zero) that bound is the exact new optimum and the child's matching
        is cached without solving it; otherwise the child carries the bound as an estimate
        (``exact == 0``) and A* settles it only if the child is ever popped. An exit child
        is bounded from the parent's duals the same way (see :meth:`_exit_bound`).
        """
        game = self.game
        n = game.n
        used = state[n + 1]
        layers = state[n]
        outer = self.outer
        shifts = game.shifts
        color_holes = self.color_holes
        groups, inner = self._groups(state)
        gcost = {c: self.group_cost(c, ends, used) for c, ends in groups.items()}
        base_h = inner + sum(gcost.values())
        last_body = -1
        rest = 0
        dists: list[list[int]] = []
        grouped = False
        memo = self._memo
        group: tuple[tuple[int, int], ...] = ()
        row = col = dual_rest = used_c = 0
        assign: list[int] = []
        u: list[int] = []
        v: list[int] = []
        taken: set[int] = set()
        out = []
        append = out.append
        for move, child, cocc in game.successors(state, occ):
            if best is not None:
                old = best.get(child)
                if old is not None and old[0] <= ng:
                    continue
            if child[n + 1] != used:
                ch, exact_flag = self._exit_bound(state, move >> 3, child, groups, gcost, base_h)
                append((move, child, cocc, ch, exact_flag))
                continue
            b = move >> 3
            if b != last_body:
                last_body = b
                c = outer[b][(layers >> (LAYER_BITS * b)) & 7]
                code = state[b]
                mine = (code & CELL_MASK, code >> shifts[b])
                dists = [d for hole, d in color_holes[c] if not used >> hole & 1]
                grouped = len(groups[c]) > 1
                rest = base_h - gcost[c]
                if grouped:
                    group = tuple(groups[c])
                    row = group.index(mine)
                    _, assign, u, v = self.group_match(c, group, used)
                    col = assign[row]
                    taken = set(assign)
                    dual_rest = gcost[c] - u[row]
                    used_c = used & self.color_used[c]
            code = child[b]
            head = code & CELL_MASK
            tail = code >> shifts[b]
            if not grouped:
                best_d = INF
                for d in dists:
                    x = d[head]
                    y = d[tail]
                    if y < x:
                        x = y
                    if x < best_d:
                        best_d = x
                append((move, child, cocc, rest + best_d, 1))
                continue
            # Weak duality with the parent's duals: the new row's best reduced cost.
            d = dists[col]
            x = d[head]
            y = d[tail]
            best_val = (x if x < y else y) - v[col]
            arg = col
            for j, d in enumerate(dists):
                x = d[head]
                y = d[tail]
                x = (x if x < y else y) - v[j]
                if x < best_val:
                    best_val = x
                    arg = j
            lb = dual_rest + best_val
            if lb >= INF:
                continue  # no finite matching: a dead state
            if arg == col or (arg not in taken and v[arg] == 0 and v[col] == 0):
                # Complementary slackness still holds: the bound is exact, and the
                # child's matching is known without solving it; cache it.
                new_u = list(u)
                new_u[row] = best_val
                new_assign = list(assign)
                new_assign[row] = arg
                key = (c, (*group[:row], (head, tail), *group[row + 1 :]), used_c)
                if len(memo) < MEMO_LIMIT:
                    memo[key] = (lb, new_assign, new_u, v)
                append((move, child, cocc, rest + lb, 1))
            else:
                append((move, child, cocc, rest + lb, 0))
        return out

    def _exit_bound(
        self,
        state: State,
        b: int,
        child: State,
        groups: dict[int, list[tuple[int, int]]],
        gcost: dict[int, int],
        base_h: int,
    ) -> tuple[int, int]:
        """The bound of an exit child from the parent's matchings: ``(bound, exact)``.

        The exiting body's row and its hole's column leave the group of colour c: by weak
        duality ``cost - u[row] - v[col]`` bounds the rest, exactly when the body was
        matched to that hole. A coat's next colour c2 adds a row to group c2:
        ``cost2 + min_j(c[j] - v2[j])``, exact when that column was free. When c2 == c,
        the parent's bound minus one (consistency) is the estimate.
        """
        n = self.game.n
        used = state[n + 1]
        hole = (child[n + 1] ^ used).bit_length() - 1
        shed = (state[n] >> (LAYER_BITS * b)) & 7
        c = self.outer[b][shed]
        code = state[b]
        mine = (code & CELL_MASK, code >> self.game.shifts[b])
        group = groups[c]
        h = base_h - gcost[c]
        exact = 1
        if len(group) > 1:
            ends = tuple(group)
            row = ends.index(mine)
            _, assign, u, v = self.group_match(c, ends, used)
            col = [x for x, _ in self.color_holes[c] if not used >> x & 1].index(hole)
            h += gcost[c] - u[row] - v[col]
            if assign[row] != col:
                exact = 0
        if shed + 1 >= self.game.nlayers[b]:
            return h, exact
        c2 = self.outer[b][shed + 1]
        h -= 1  # one inner layer fewer: it becomes the outer one
        if c2 == c:
            return (base_h - 1 if base_h > 0 else 0), 0
        dists = [d for x, d in self.color_holes[c2] if not used >> x & 1]
        head, tail = mine
        if c2 not in groups:
            best = INF
            for d in dists:
                x = d[head] if d[head] < d[tail] else d[tail]
                if x < best:
                    best = x
            return h + best, exact
        _, assign2, _, v2 = self.group_match(c2, tuple(groups[c2]), used)
        best = INF
        arg = -1
        for j, d in enumerate(dists):
            x = (d[head] if d[head] < d[tail] else d[tail]) - v2[j]
            if x < best:
                best = x
                arg = j
        if arg in assign2:
            exact = 0
        return h + best, exact

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
        progress: Progress = NO_PROGRESS,
    ) -> SearchResult:
        """A* over full states from ``start``.

        With ``weight == 1`` the first goal popped is optimal. ``upper`` (a known
        solution length) prunes every node that cannot beat it: if the open list then
        empties, no solution shorter than ``upper`` exists (status ``budget`` is never
        returned in that case; the caller holds the solution of length ``upper``).
        """
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
        expand = self.expand
        bound = self.bound
        heappush = heapq.heappush
        heappop = heapq.heappop
        counter = 0
        best: dict[State, tuple[int, State | None, int]] = {start: (0, None, -1)}
        heap: list[tuple[int, State, int]] = [
            ((weight * h0) << _F_SHIFT | h0 << _CNT_BITS | 1, start, game.occupancy(start))
        ]
        expanded = 0
        pruned = 0
        goal: State | None = None
        reason = ""
        while heap:
            prio, state, occ = heappop(heap)
            h = (prio >> _CNT_BITS) & _H_MASK
            g = (prio >> _F_SHIFT) - weight * h
            if best[state][0] < g:
                continue  # stale entry
            if not prio & 1:
                # The key held an estimate: settle the exact bound before expanding.
                exact = bound(state)
                if exact >= INF or (upper is not None and g + exact >= upper):
                    continue
                if exact > h:
                    counter += 1
                    prio = (g + weight * exact) << _F_SHIFT | exact << _CNT_BITS | counter << 1 | 1
                    heappush(heap, (prio, state, occ))
                    continue
            if state[n + 1] == all_used:
                goal = state
                break
            if len(best) >= max_states:
                heappush(heap, (prio, state, occ))
                reason = "states"
                break
            expanded += 1
            if not expanded & 255:
                if time.monotonic() > deadline:
                    heappush(heap, (prio, state, occ))
                    reason = "seconds"
                    break
                if not expanded & 4095:
                    progress.step(len(best), max_states, "A*" if weight == 1 else "fast search")
            ng = g + 1
            for move, child, cocc, ch, exact_flag in expand(state, occ, best, ng):
                if ch >= INF:
                    continue
                if upper is not None and ng + ch >= upper:
                    pruned += 1
                    continue
                best[child] = (ng, state, move)
                counter += 1
                if weight != 1 and child[n + 1] == all_used:
                    goal = child
                    heap.clear()
                    break
                prio = (ng + weight * ch) << _F_SHIFT | ch << _CNT_BITS | counter << 1 | exact_flag
                heappush(heap, (prio, child, cocc))
            if goal is not None:
                break
        seconds = time.monotonic() - t0
        stats = {"pruned": pruned, "open": len(heap)}
        if goal is not None:
            moves = _path(best, goal)
            optimal = weight == 1
            lb = len(moves) if optimal else h0
            return SearchResult(
                "solved", moves, optimal, lb, len(moves), expanded, len(best), seconds, "", stats
            )
        if not heap:
            # Exhausted: nothing shorter than ``upper`` (or nothing at all) exists.
            if upper is not None:
                return SearchResult(
                    "exhausted_below_upper", None, True, upper, upper, expanded, len(best),
                    seconds, "no solution shorter than the upper bound", stats,
                )  # fmt: skip
            return SearchResult(
                "unsolvable", None, False, INF, None, expanded, len(best), seconds,
                "state space exhausted", stats,
            )  # fmt: skip
        lb = h0 if weight != 1 else max(h0, (heap[0][0] >> _F_SHIFT))
        if upper is not None:
            lb = min(lb, upper)
        return SearchResult(
            "budget", None, False, lb, upper, expanded, len(best), seconds, reason, stats
        )

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
    ) -> SearchResult:
        """Dead checks, fast search, then exact A* under the fast upper bound.

        ``max_states`` bounds the exact search's table (and the fast one's unless
        ``fast_states`` is given); ``max_seconds`` bounds the two together.
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


def _path(best: dict[State, tuple[int, State | None, int]], goal: State) -> list[Move]:
    moves: list[Move] = []
    state: State | None = goal
    while state is not None:
        _, parent, move = best[state]
        if parent is None:
            break
        moves.append(move)
        state = parent
    moves.reverse()
    return moves


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


def bfs_optimum(game: Game, max_states: int = 1_000_000) -> int | None:
    """Fewest steps to completion by exhaustive BFS (None: unsolvable; raises if too big)."""
    start = game.initial
    n = game.n
    if start[n + 1] == game.all_used:
        return 0
    seen = {start}
    frontier = [(start, game.occupancy(start))]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for state, occ in frontier:
            for _, child, cocc in game.successors(state, occ):
                if child in seen:
                    continue
                if child[n + 1] == game.all_used:
                    return depth
                seen.add(child)
                nxt.append((child, cocc))
        if len(seen) > max_states:
            raise OverflowError(f"BFS passed {max_states} states")
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
