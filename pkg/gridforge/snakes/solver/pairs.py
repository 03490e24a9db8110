"""The pairwise lower bound: exact costs of bodies taken out two at a time, in a relaxed game.

:meth:`Solver.bound <gridforge.snakes.solver.search.Solver.bound>` (spec section 5) charges every
body its distance to a hole as if no other body were on the board. When two bodies block each other
(a corridor both must pass through in opposite directions) it misses the steps one spends making
way. This module finds those steps by exact search on small parts of the game.

**The relaxed game of a set P of one or two bodies**, from a state s: every body outside P is
removed; freezes and locks are lifted; every hole is floor for travel; a body of P may exit into
any hole of its current outer colour that is unused in s and not yet used by P in this play
(each hole once), when no body of P lies on it. Steps otherwise follow the rules (spec section
4): one end moves to a 4-neighbour inside the board, not a stone, not under a body of P except
the moving body's own far end when it has 3 or more cells; an exit sheds the outer layer and
leaves the body in place, or takes it off the board with its last layer. ``cost(P)`` is the
fewest steps after which every body of P has left.

**Why the bound is admissible.** Take any real solution from s and delete the steps of every
body outside P. What remains is legal in the relaxed game, step by step, because the bodies of P
stand on the same cells in both games after every kept step (deleted steps move other bodies
only): a slide's target was floor or a used hole in the real game (floor here too), not a stone,
and not under a body of P other than the own far end of a body of 3 or more cells (the real rule;
fewer bodies here can only free more cells); an exit's hole was unused and unfrozen then, so it
is unused in s, was not used before by P (a hole takes one layer), and nobody stood on it (nobody
stands on an unused hole in the real game); freezes and locks do not exist here. The kept steps
take every layer of P out, so the real solution has at least ``cost(P)`` steps of bodies of P.
For a partition of the bodies on the board into pairs and singles, these step sets are disjoint,
so the solution has at least the sum of the parts' costs: :func:`pairwise_bound` answers the
largest such sum over all partitions, or the matching bound where that is larger. A search that
runs out of its state budget answers a lower bound of ``cost(P)`` instead (the smallest f on its
open list, and never less than the sum of the pair's singles, since deleting one body's steps
from a pair's relaxed play leaves a legal single play), so the bound stays admissible.

**The search** (:func:`relaxed_cost`) is A* over (cells of P, layers shed, holes used by P), its
heuristic per body the layers left beyond the outer one plus the wall-aware distance from the
nearer end to the nearest available hole of the outer colour (at least 1: the exit is a step),
the two bodies matched to distinct holes when their outer colours agree. It is consistent: a
step moves each end of one body by at most one cell, and an exit adds at most one. For a pair,
f is raised to the sum of its singles' costs, a lower bound of every pair solution; with ties
broken toward the smaller heuristic, a pair that never interferes is settled by a straight run
to that sum. Nodes reached again more cheaply are reopened, so the first goal is optimal.
Budgets count stored states, never seconds; nothing is random.

Public names: :class:`PairBound`, :func:`pairwise_bound`, :class:`RelaxedCost`,
:func:`relaxed_cost`, :func:`best_partition`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from heapq import heappop, heappush

from gridforge.snakes.game.rules import BITS, CELL_MASK, LAYER_BITS, Game, State
from gridforge.snakes.solver.matching import INF
from gridforge.snakes.solver.search import Solver

DEFAULT_PAIR_STATES = 20_000

# A relaxed search node: (code of the first body, code of the second (0: absent or exited),
# meta = shed of the first | shed of the second << 3 | holes used by the pair << 6).
_Key = tuple[int, int, int]
_META_USED = 2 * LAYER_BITS


@dataclass(frozen=True)
class PairBound:
    """The pairwise bound of a state and how it was reached.

    ``bound`` is ``max(matching, partition)`` (:data:`~gridforge.snakes.solver.matching.INF` for a
    dead state; then no part was searched and ``partition`` is 0). ``pairs_exact`` counts the pairs
    whose relaxed cost was settled exactly, ``pairs_budget`` those that got a lower bound only
    (their search ran out of states, or one of their singles did, so they were not searched);
    ``singles_budget`` the singles whose search ran out; ``work`` the states stored by all
    searches together.
    """

    bound: int
    matching: int
    partition: int
    pairs_exact: int
    pairs_budget: int
    work: int
    singles_budget: int = 0


@dataclass(frozen=True)
class RelaxedCost:
    """A relaxed search's answer: ``cost`` (exact when ``exact``, else a lower bound; INF when
    the bodies can never all leave) and the ``states`` it stored."""

    cost: int
    exact: bool
    states: int


class _Relaxed:
    """The relaxed game of one state: the tables every part's search shares."""

    def __init__(self, game: Game, state: State, hole_dist: Sequence[Sequence[int]]) -> None:
        self.game = game
        self.state = state
        n = game.n
        used = state[n + 1]
        self.unused = game.all_used & ~used  # by hole index
        self.hole_dist = hole_dist
        self.hole_at = game.hole_at
        self.hole_color = game.hole_color
        # Per colour: the holes unused in the state (the only ones any part may ever use).
        holes: dict[int, list[int]] = {}
        for h, c in enumerate(game.hole_color):
            if self.unused >> h & 1:
                holes.setdefault(c, []).append(h)
        self.holes = {c: tuple(hs) for c, hs in holes.items()}
        self.shed = tuple((state[n] >> (LAYER_BITS * b)) & 7 for b in range(n))
        self._rows: dict[int, tuple[int, ...]] = {}

    def row(self, color: int, head: int, tail: int) -> tuple[int, ...]:
        """Costs (at least 1) of a body with these ends to each hole of ``self.holes[color]``."""
        key = (color << BITS | head) << BITS | tail
        row = self._rows.get(key)
        if row is None:
            dist = self.hole_dist
            holes = self.holes.get(color, ())
            row = tuple(max(1, min(dist[h][head], dist[h][tail])) for h in holes)
            self._rows[key] = row
        return row

    def body_h(self, b: int, code: int, shed: int, avail: int) -> tuple[int, int, tuple[int, ...]]:
        """Body b's heuristic parts: (inner layers left, outer colour, costs to the available
        holes of that colour, INF for the unavailable)."""
        game = self.game
        color = game.colors[b][shed]
        row = self.row(color, code & CELL_MASK, code >> game.shifts[b])
        hs = self.holes.get(color, ())
        costs = tuple(r if avail >> h & 1 else INF for r, h in zip(row, hs, strict=True))
        return game.nlayers[b] - shed - 1, color, costs

    def heuristic(self, members: tuple[int, int], key: _Key) -> int:
        """The consistent lower estimate of a relaxed node's remaining steps (INF: dead)."""
        ca, cb, meta = key
        avail = self.unused & ~(meta >> _META_USED)
        total = 0
        parts = []
        for b, code, shed in ((members[0], ca, meta & 7), (members[1], cb, (meta >> 3) & 7)):
            if code:
                parts.append(self.body_h(b, code, shed, avail))
        if len(parts) == 2 and parts[0][1] == parts[1][1]:
            # Same outer colour: the two bodies need distinct holes.
            ra, rb = parts[0][2], parts[1][2]
            best = INF
            for i, x in enumerate(ra):
                if x >= best:
                    continue
                for j, y in enumerate(rb):
                    if i != j and x + y < best:
                        best = x + y
            return min(INF, parts[0][0] + parts[1][0] + best)
        for inner, _, costs in parts:
            total += inner + min(costs, default=INF)
        return min(INF, total)

    def _start(self, members: tuple[int, ...], pair: tuple[int, int]
               ) -> tuple[_Key, int, int] | None:
        """The search's start key, bound and occupancy, or None when the part can never
        finish (its colours' layers do not fit the holes left, or the bound is infinite)."""
        game = self.game
        state = self.state
        a = members[0]
        b = members[1] if len(members) > 1 else -1
        # Per colour, the layers left must fit the holes left; exits keep the balance, so a
        # part that fails it at the start can never finish.
        demand: dict[int, int] = {}
        for x in members:
            for c in game.colors[x][self.shed[x]:]:
                demand[c] = demand.get(c, 0) + 1
        if any(k > len(self.holes.get(c, ())) for c, k in demand.items()):
            return None
        ca = state[a]
        cb = state[b] if b >= 0 else 0
        start: _Key = (ca, cb, self.shed[a] | (self.shed[b] if b >= 0 else 0) << 3)
        h0 = self.heuristic(pair, start)
        if h0 >= INF:
            return None
        occ0 = 0
        for x, code in ((a, ca), (b, cb)):
            if code:
                for p in game.unpack(code, x):
                    occ0 |= 1 << p
        return start, h0, occ0

    def search(self, members: tuple[int, ...], budget: int, floor: int) -> RelaxedCost:
        """A* on the relaxed game of ``members`` (one or two bodies on the board)."""
        a = members[0]
        b = members[1] if len(members) > 1 else -1
        pair = (a, b if b >= 0 else a)
        begun = self._start(members, pair)
        if begun is None:
            return RelaxedCost(INF, True, 0)
        start, h0, occ0 = begun
        best: dict[_Key, int] = {start: 0}
        # Items (f, h, -sequence, g, key, occupancy): smallest f, then smallest h (deepest),
        # then newest first; f never below ``floor`` (a lower bound of every solution).
        heap: list[tuple[int, int, int, int, _Key, int]] = [(max(h0, floor), h0, 0, 0, start, occ0)]
        seq = 0
        heuristic = self.heuristic
        children = self.children
        while heap:
            f, _, _, g, key, occ = heappop(heap)
            if best[key] != g:
                continue  # stale: reached again more cheaply
            if len(best) >= budget:
                return RelaxedCost(f, False, len(best))
            g1 = g + 1
            for k, x in ((0, a), (1, b)):
                if not key[k]:
                    continue
                for child, new_occ in children(key, k, x, occ):
                    if not child[0] and not child[1]:
                        # A goal one step past the cheapest open f: nothing can beat it.
                        return RelaxedCost(max(g1, floor), True, len(best))
                    if best.get(child, INF) <= g1:
                        continue
                    hc = heuristic(pair, child)
                    if hc >= INF:
                        continue
                    best[child] = g1
                    seq += 1
                    fc = g1 + hc
                    heappush(heap, (fc if fc > floor else floor, hc, -seq, g1, child, new_occ))
        return RelaxedCost(INF, True, len(best))

    def children(self, key: _Key, k: int, x: int, occ: int) -> list[tuple[_Key, int]]:
        """The relaxed game's children of node ``key`` (occupancy ``occ``) by its member k
        (body x), with their occupancies: the rules' steps (paint and bridge lanes as the
        rules have them) without other bodies, freezes or locks, holes floor for travel, and
        an exit into a free hole of the outer colour still available to the part."""
        game = self.game
        ca, cb, meta = key
        code = key[k]
        length = game.lengths[x]
        shift = game.shifts[x]
        cmask = game.code_masks[x]
        shed = (meta >> (LAYER_BITS * k)) & 7
        color = game.colors[x][shed]
        avail = self.unused & ~(meta >> _META_USED)
        hole_at = self.hole_at
        hole_color = self.hole_color
        bit = game.bit
        head = code & CELL_MASK
        tail = code >> shift
        out: list[tuple[_Key, int]] = []
        nbb = game.nbb_color[color]  # per outer colour (one table when nothing is painted)
        for end, here, far in ((0, head, tail), (1, tail, head)):
            far_bit = bit[far]
            for _, t, bt in nbb[here]:
                if occ & bt:
                    if t != far or length < 3:
                        continue
                    new_occ = occ
                else:
                    new_occ = occ ^ bt ^ far_bit
                    h = hole_at[t]
                    if h >= 0 and avail >> h & 1 and hole_color[h] == color:
                        out.append(self._exit(key, k, x, shed, h, occ))
                moved = code >> BITS | t << shift if end else (code << BITS | t) & cmask
                child: _Key = (moved, cb, meta) if k == 0 else (ca, moved, meta)
                out.append((child, new_occ))
        return out

    def _exit(self, key: _Key, k: int, x: int, shed: int, h: int, occ: int) -> tuple[_Key, int]:
        """The node after body x (member k) exits into hole h."""
        ca, cb, meta = key
        meta |= 1 << (_META_USED + h)
        if shed + 1 < self.game.nlayers[x]:
            return (ca, cb, meta + (1 << (LAYER_BITS * k))), occ
        code = key[k]
        for p in self.game.unpack(code, x):
            occ &= ~(1 << p)
        meta &= ~(7 << (LAYER_BITS * k))
        return ((0, cb, meta) if k == 0 else (ca, 0, meta)), occ


def relaxed_cost(
    game: Game,
    bodies: Sequence[int],
    state: State | None = None,
    *,
    max_states: int = DEFAULT_PAIR_STATES,
) -> RelaxedCost:
    """The fewest steps for ``bodies`` (one or two, on the board in ``state``) to take all their
    layers out in the relaxed game of the module docstring, by A* within ``max_states``."""
    state = game.initial if state is None else state
    members = tuple(bodies)
    if not 1 <= len(members) <= 2 or len(set(members)) != len(members):
        raise ValueError(f"relaxed_cost takes one or two distinct bodies, got {members!r}")
    if any(not 0 <= b < game.n or not state[b] for b in members):
        raise ValueError(f"relaxed_cost: a body of {members!r} is not on the board")
    relaxed = _Relaxed(game, state, Solver(game).hole_dist)
    return relaxed.search(members, max(1, max_states), 0)


def best_partition(singles: Sequence[int], pairs: Mapping[tuple[int, int], int]) -> int:
    """The largest sum of costs over the partitions of items ``0..n-1`` into singles and pairs.

    ``singles[i]`` is item i's cost alone, ``pairs[(i, j)]`` (i < j) the cost of i and j
    together; a pair not listed is not offered. Sums are capped at INF. A DP over the set of
    items assigned so far, always placing the lowest item not yet assigned: alone, or with a
    partner whose pair beats the two singles (any other pair cannot improve the sum).
    """
    n = len(singles)
    partners: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for (i, j), cost in sorted(pairs.items()):
        if not 0 <= i < j < n:
            raise ValueError(f"best_partition: pair {(i, j)!r} is not i < j < {n}")
        if cost > singles[i] + singles[j]:
            partners[i].append((j, cost))
    full = (1 << n) - 1
    memo: dict[int, int] = {full: 0}

    def value(mask: int) -> int:
        got = memo.get(mask)
        if got is not None:
            return got
        i = (~mask & (mask + 1)).bit_length() - 1  # the lowest item not assigned
        here = mask | 1 << i
        top = singles[i] + value(here)
        for j, cost in partners[i]:
            if not here >> j & 1:
                top = max(top, cost + value(here | 1 << j))
        top = min(top, INF)
        memo[mask] = top
        return top

    return value(0)


def _regions(game: Game) -> list[int]:
    """A connected-floor label per node (-1 off the floor; a bridge's lanes are nodes of
    their own); holes are floor here."""
    label = [-1] * game.nodes
    region = 0
    for p in range(game.nodes):
        if not game.floor[p] or label[p] >= 0:
            continue
        label[p] = region
        stack = [p]
        while stack:
            q = stack.pop()
            for _, r in game.nb[q]:
                if label[r] < 0:
                    label[r] = region
                    stack.append(r)
        region += 1
    return label


def pairwise_bound(
    game: Game, state: State | None = None, *, pair_states: int = DEFAULT_PAIR_STATES
) -> PairBound:
    """The pairwise lower bound of the fewest steps to complete the level from ``state``
    (default: the start): ``max(matching bound, best partition of the bodies on the board into
    pairs and singles)``, each part costed by :func:`relaxed_cost` within ``pair_states``
    stored states (singles get the same budget)."""
    state = game.initial if state is None else state
    n = game.n
    solver = Solver(game)
    matching = solver.bound(state)
    if matching >= INF:
        return PairBound(INF, matching, 0, 0, 0, 0)
    budget = max(1, pair_states)
    relaxed = _Relaxed(game, state, solver.hole_dist)
    on = [b for b in range(n) if state[b]]
    work = 0
    singles: list[int] = []
    settled: list[bool] = []
    for b in on:
        got = relaxed.search((b,), budget, 0)
        work += got.states
        singles.append(got.cost)
        settled.append(got.exact)
        if got.cost >= INF:
            return PairBound(INF, matching, INF, 0, 0, work, 0)
    label = _regions(game)
    ends = [label[state[b] & CELL_MASK] for b in on]
    pairs: dict[tuple[int, int], int] = {}
    exact = short = 0
    for i in range(len(on)):
        for j in range(i + 1, len(on)):
            floor = singles[i] + singles[j]
            if ends[i] != ends[j]:
                # Apart for good: no shared cell, no shared hole.
                pairs[(i, j)] = floor
                exact += settled[i] and settled[j]
                short += not (settled[i] and settled[j])
                continue
            if not (settled[i] and settled[j]):
                pairs[(i, j)] = floor  # a pair search would run out before its single did
                short += 1
                continue
            got = relaxed.search((on[i], on[j]), budget, floor)
            work += got.states
            pairs[(i, j)] = max(floor, got.cost)
            exact += got.exact
            short += not got.exact
    partition = best_partition(singles, pairs)
    return PairBound(
        max(matching, partition), matching, partition, exact, short, work, settled.count(False)
    )


__all__ = [
    "DEFAULT_PAIR_STATES",
    "PairBound",
    "RelaxedCost",
    "best_partition",
    "pairwise_bound",
    "relaxed_cost",
]
