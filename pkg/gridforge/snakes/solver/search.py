"""Search over full game states (seed 004 section 5, "局面图上的全局 A*").

A :class:`Solver` wraps a :class:`~gridforge.snakes.game.rules.Game` with precomputed tables:

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
from operator import sub
from typing import Any, NamedTuple

from gridforge.i18n import say
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.game.rules import BITS, CELL_MASK, LAYER_BITS, Game, Move, State, move_to_step
from gridforge.snakes.solver.matching import INF, SquareMatch, min_cost


class Group(NamedTuple):
    """A colour group of two or more bodies on the board and its optimal square matching."""

    bodies: tuple[int, ...]
    match: SquareMatch


Matchings = tuple[Group | None, ...]  # per colour slot: None for groups of 0 or 1 body
# A body's geometric step at a position (see Solver._records): (move, need, xor, hole,
# exit_delta, head, tail, row, ends). A plain tuple on purpose: the A* inner loop unpacks one
# per child, and Python unpacks an exact tuple fastest.
StepRecord = tuple[int, int, int, int, int, int, int, tuple[int, ...], int]


# A body at a position, as the searches keep it (cached per position): (shed, code, steps,
# occupancy, head, tail, row) = layers shed so far, its cells packed as in the search key, its
# geometric steps from here, the bit set of its cells, its two ends, and its cost to every hole
# of its outer colour. A plain tuple on purpose, like StepRecord: A* unpacks one for every body
# of every expansion, and unpacking a NamedTuple costs five times as much (measured: 3-4% of
# the search's speed).
Entry = tuple[int, int, tuple[StepRecord, ...], int, int, int, tuple[int, ...]]


# A search node: (bound, matchings per colour slot (None: dead), entry per body (None once
# exited), occupancy bit set, bit set of the bodies on the board). A plain tuple on purpose,
# like Entry: the A* builds one per child it settles and unpacks one per expansion, and as a
# NamedTuple those two steps cost 6% of the search's speed (measured with bench/snakes_search.py
# against the tuple: construction 6x, unpacking 5x slower).
Node = tuple[int, Matchings | None, tuple[Entry | None, ...] | None, int, int]


DEAD: Node = (INF, None, None, 0, 0)
_new = tuple.__new__
_UNSEEN = 1 << 62  # what the best-g table answers for a state it does not hold
# An open-list item: (key, parent key or None, move from the parent). A plain tuple on
# purpose: the A* pushes one per child, and building a NamedTuple costs several times more.
Item = tuple[int, int | None, int]

DEFAULT_STATES = 200_000
DEFAULT_SECONDS = 10.0
FAST_WEIGHT = 3
MEMO_LIMIT = 100_000  # entries of each cache (matchings, body positions); cleared when full
NEAR_LIMIT = 4_096  # nearest-hole tables (one board-sized list each); cleared when full

# A bucket of the open list is named by one int: f << _H_BITS | h.
_H_BITS = 24
_H_MASK = (1 << _H_BITS) - 1


class Child(NamedTuple):
    """A child as the A* pushes it (:meth:`Solver.expand`)."""

    move: Move
    state: State
    estimate: int  # the lower estimate of its bound it is pushed with
    bound: int  # the bound settled from the parent's matchings when it is popped


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


class Solver:
    """Precomputed tables and the searches of one game.

    Inside its searches a state is one int (the *key*): every body's packed cells at a fixed
    offset, then the shed layers, then the used holes. A step is then one XOR (a slide) or
    one addition (an exit) with a delta precomputed per body position; the key is the
    transposition table's key itself (exact, never a hash). Public methods take and return
    the tuple states of :mod:`~gridforge.snakes.game.rules`.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        n = game.n
        # Paint is closed for a colour only where that stays a lower bound (Game.paint_closes).
        closes = {c: game.paint_closes(c) for c in set(game.hole_color)}
        self.hole_dist = [game.distances_to(p, c if closes[c] else None, INF)
                          for p, c in zip(game.hole_cells, game.hole_color, strict=True)]
        self.outer = tuple(tuple(cs) for cs in game.colors)
        colors = sorted({*game.hole_color, *(c for cs in game.colors for c in cs)})
        self._colors = tuple(colors)
        self._slot = [0] * (max(colors) + 1 if colors else 1)
        self._cols: list[tuple[int, ...]] = [()] * len(self._slot)  # holes of a colour
        self._column = [0] * len(game.hole_color)  # a hole's index among its colour's
        self._cmask = [0] * len(self._slot)
        for s, c in enumerate(colors):
            self._slot[c] = s
            holes = tuple(h for h, hc in enumerate(game.hole_color) if hc == c)
            self._cols[c] = holes
            for j, h in enumerate(holes):
                self._column[h] = j
                self._cmask[c] |= 1 << h
        # Packing of the int key: cells take as many bits as the padded board needs.
        cb = max(1, (game.nodes - 1).bit_length())
        self._cb = cb
        self._cm = (1 << cb) - 1
        self._shift = tuple(cb * (length - 1) for length in game.lengths)
        self._mask = tuple((1 << (cb * length)) - 1 for length in game.lengths)
        offsets = []
        o = 0
        for length in game.lengths:
            offsets.append(o)
            o += cb * length
        self._off = tuple(offsets)
        self._loff = o
        self._lsh = tuple(o + LAYER_BITS * b for b in range(n))
        self._uoff = o + LAYER_BITS * n
        # Lazily filled caches (bounded by the positions a search visits).
        self._row_cache: list[dict[int, tuple[int, ...]]] = [{} for _ in self._slot]
        self._near_cache: dict[int, list[int]] = {}
        self._rec_cache: list[list[dict[int, Any]]] = [
            [{} for _ in range(game.nlayers[b])] for b in range(n)
        ]
        self._match_memo: dict[Any, SquareMatch | None] = {}
        self._lockers = tuple(sum(1 << k for k in keys) for keys in game.carriers)
        # The colour of body b's next layer after shedding ``shed`` layers (-1: none left).
        self._next_color = tuple(
            tuple(cs[s + 1] if s + 1 < len(cs) else -1 for s in range(len(cs))) for cs in self.outer
        )

    # ------------------------------------------------------------ the lower bound

    def bound(self, state: State) -> int:
        """The admissible lower bound of spec section 5 (INF for a dead state).

        Computed from scratch with the rectangular Hungarian algorithm; the searches keep
        the same value incrementally (:meth:`node_bound`), and the tests hold the two equal.
        """
        game = self.game
        n = game.n
        used = state[n + 1]
        groups: dict[int, list[tuple[int, int]]] = {}
        total = 0
        for b in range(n):
            code = state[b]
            if not code:
                continue
            shed = (state[n] >> (LAYER_BITS * b)) & 7
            total += game.nlayers[b] - shed - 1
            groups.setdefault(self.outer[b][shed], []).append(
                (code & CELL_MASK, code >> game.shifts[b])
            )
        for c, ends in groups.items():
            dists = [self.hole_dist[h] for h in self._cols[c] if not used >> h & 1]
            if len(ends) > len(dists):
                return INF
            rows = [[min(d[head], d[tail]) for d in dists] for head, tail in ends]
            total += min_cost(rows)
            if total >= INF:
                return INF
        return total

    def _row(self, c: int, head: int, tail: int) -> tuple[int, ...]:
        """Costs of a body with these ends to every hole of colour c (used ones included)."""
        cache = self._row_cache[c]
        key = head << BITS | tail
        row = cache.get(key)
        if row is None:
            dist = self.hole_dist
            row = tuple(min(dist[h][head], dist[h][tail]) for h in self._cols[c])
            cache[key] = row
        return row

    def _near(self, c: int, used: int) -> list[int]:
        """Distance from every cell to the nearest unused hole of colour c (INF: none)."""
        key = (used & self._cmask[c]) << 4 | c
        near = self._near_cache.get(key)
        if near is None:
            near = [INF] * self.game.nodes
            for h in self._cols[c]:
                if not used >> h & 1:
                    near = [x if x < y else y for x, y in zip(near, self.hole_dist[h], strict=True)]
            if len(self._near_cache) >= NEAR_LIMIT:
                self._near_cache.clear()  # one table per colour and used-hole set: bounded
            self._near_cache[key] = near
        return near

    def _match(self, c: int, used: int, ends: list[tuple[int, int]]) -> SquareMatch | None:
        """A colour group's matching solved from scratch (memoised, bounded)."""
        key = (c, used & self._cmask[c], tuple(ends))
        if key in self._match_memo:
            return self._match_memo[key]
        cols = [j for j, h in enumerate(self._cols[c]) if not used >> h & 1]
        match = SquareMatch.solve(
            [self._row(c, head, tail) for head, tail in ends], cols, len(self._cols[c])
        )
        if len(self._match_memo) >= MEMO_LIMIT:
            self._match_memo.clear()  # a cache, never needed for correctness
        self._match_memo[key] = match
        return match

    # ------------------------------------------------------------ int keys and nodes

    def pack(self, state: State) -> int:
        """The int key of a tuple state."""
        game = self.game
        n = game.n
        key = state[n] << self._loff | state[n + 1] << self._uoff
        cb = self._cb
        for b in range(n):
            code = 0
            for k, p in enumerate(game.unpack(state[b], b)):
                code |= p << (cb * k)
            key |= code << self._off[b]
        return key

    def unpack(self, key: int) -> State:
        """The tuple state of an int key."""
        game = self.game
        cb = self._cb
        cm = self._cm
        codes = []
        for b in range(game.n):
            code = (key >> self._off[b]) & self._mask[b]
            codes.append(game.pack([(code >> (cb * k)) & cm for k in range(game.lengths[b])])
                         if code else 0)  # fmt: skip
        layers = (key >> self._loff) & ((1 << (LAYER_BITS * game.n)) - 1)
        return (*codes, layers, key >> self._uoff)

    def _scratch(self, key: int) -> Node:
        """A node computed from scratch: its bound, matchings and bodies' steps."""
        h, minfo = self._scratch_bound(key)
        if h >= INF:
            return DEAD
        game = self.game
        ents: list[Entry | None] = []
        occ = alive = 0
        for b in range(game.n):
            code = (key >> self._off[b]) & self._mask[b]
            if not code:
                ents.append(None)
                continue
            shed = (key >> self._lsh[b]) & 7
            ent = self._entry(b, shed, code)
            ents.append(ent)
            occ |= ent[3]
            alive |= 1 << b
        return h, minfo, tuple(ents), occ, alive

    def _entry(self, b: int, shed: int, code: int) -> Entry:
        """Body b's entry at a position (see :data:`Entry`; cached per position)."""
        ent = self._rec_cache[b][shed].get(code)
        if ent is None:
            ent = self._records(b, shed, code)
        return ent

    def _derive(self, parent: int, node: Node, move: Move, key: int) -> Node:
        """A child's node from its parent's: only the moved body's entry and colour group
        change (for a coat, its next colour's group too), re-solved by at most one
        Hungarian phase. A group of two made by a coat is the only one solved from scratch.
        """
        h, minfo, ents, occ, alive = node
        assert minfo is not None and ents is not None
        b = move >> 3
        old = ents[b]
        assert old is not None
        uoff = self._uoff
        if key >> uoff != parent >> uoff:
            h, minfo = self._exit_bound(parent, node, move, key)
            if h >= INF:
                return DEAD
            code = (key >> self._off[b]) & self._mask[b]
            if code:  # a coat peeled: same cells, next layer
                peeled = self._entry(b, (key >> self._lsh[b]) & 7, code)
                return h, minfo, (*ents[:b], peeled, *ents[b + 1 :]), occ, alive
            return h, minfo, (*ents[:b], None, *ents[b + 1 :]), occ ^ old[3], alive ^ 1 << b
        # A slide: only body b's row of its colour group changes.
        shed, _, _, before, head, tail, _ = old  # unpacked once: read several times below
        code = (key >> self._off[b]) & self._mask[b]
        new = self._rec_cache[b][shed].get(code) or self._records(b, shed, code)
        c = self.outer[b][shed]
        s = self._slot[c]
        group = minfo[s]
        if group is None:
            used = key >> uoff
            near = self._near_cache.get((used & self._cmask[c]) << 4 | c) or self._near(c, used)
            x = near[new[4]]
            y = near[new[5]]
            h += x if x < y else y
            x = near[head]
            y = near[tail]
            h -= x if x < y else y
        else:
            bodies, match = group
            # The parent's expansion left min(map(sub, row, v)) of this row in the memo.
            updated = match.replace_row(
                bodies.index(b), new[6], -1, match.memo.get(new[4] << BITS | new[5])
            )
            h += updated.cost - match.cost
            groups = list(minfo)  # (list, set, tuple: faster than splicing two slices)
            groups[s] = _new(Group, (bodies, updated))  # (half the cost of Group(...))
            minfo = tuple(groups)
        if h >= INF:
            return DEAD
        entries = list(ents)
        entries[b] = new
        return h, minfo, tuple(entries), occ ^ before ^ new[3], alive

    def _scratch_bound(self, key: int) -> tuple[int, Matchings | None]:
        """A node's bound and per-colour matchings, computed from scratch."""
        game = self.game
        used = key >> self._uoff
        groups: dict[int, list[tuple[int, tuple[int, int]]]] = {}
        h = 0
        for b in range(game.n):
            code = (key >> self._off[b]) & self._mask[b]
            if not code:
                continue
            shed = (key >> self._lsh[b]) & 7
            h += game.nlayers[b] - shed - 1
            groups.setdefault(self.outer[b][shed], []).append(
                (b, (code & self._cm, code >> self._shift[b]))
            )
        minfo: list[Group | None] = [None] * len(self._colors)
        for c, members in groups.items():
            if len(members) == 1:
                head, tail = members[0][1]
                near = self._near(c, used)
                h += min(near[head], near[tail])
            else:
                match = self._match(c, used, [e for _, e in members])
                if match is None:
                    return INF, None
                minfo[self._slot[c]] = Group(tuple(b for b, _ in members), match)
                h += match.cost
            if h >= INF:
                return INF, None
        return h, tuple(minfo)

    def _exit_bound(
        self, parent: int, node: Node, move: Move, key: int
    ) -> tuple[int, Matchings | None]:
        """The bound and matchings after an exit, from the parent's node (see _derive)."""
        h, minfo = node[0], node[1]
        assert minfo is not None
        game = self.game
        b = move >> 3
        uoff = self._uoff
        used = parent >> uoff
        shed = (parent >> self._lsh[b]) & 7
        c = self.outer[b][shed]
        s = self._slot[c]
        group = minfo[s]
        mask = self._mask[b]
        shift = self._shift[b]
        code = (parent >> self._off[b]) & mask
        head = code & self._cm
        tail = code >> shift
        child_used = key >> uoff
        hole = (child_used ^ used).bit_length() - 1
        coat = shed + 1 < game.nlayers[b]
        c2 = self.outer[b][shed + 1] if coat else -1
        if c2 == c:
            # The next layer has the same colour: the body stays in its group, the hole's
            # column leaves it (with a dummy row), and one inner layer is gone.
            if group is None:
                near = self._near(c, used)
                after = self._near(c, child_used)
                h += min(after[head], after[tail]) - min(near[head], near[tail]) - 1
                return (h, minfo) if h < INF else (INF, None)
            bodies, match = group
            if match.k >= len(match.cols):
                return INF, None  # more bodies of this colour than free holes left
            new = match.drop_column(self._column[hole])
            return h - 1 - match.cost + new.cost, (*minfo[:s], Group(bodies, new), *minfo[s + 1 :])
        # The body leaves its colour group with the hole's column.
        groups = list(minfo)
        if group is None:
            near = self._near(c, used)
            h -= min(near[head], near[tail])
        else:
            bodies, match = group
            rest = tuple(x for x in bodies if x != b)
            h -= match.cost
            if len(rest) == 1:
                h += self._cost_alone(key, rest[0], c)
                groups[s] = None
            else:
                new = match.remove(bodies.index(b), self._column[hole])
                h += new.cost
                groups[s] = Group(rest, new)
        if coat:
            # Its next layer joins the group of colour c2; one inner layer is gone.
            h -= 1
            s2 = self._slot[c2]
            group2 = groups[s2]
            row = self._row(c2, head, tail)
            if group2 is not None:
                bodies, match = group2
                if match.k >= len(match.cols):
                    return INF, None
                new = match.add_row(row)
                h += new.cost - match.cost
                groups[s2] = Group((*bodies, b), new)
            else:
                mates = [
                    o for o in range(game.n)
                    if o != b and (key >> self._off[o]) & self._mask[o]
                    and self.outer[o][(key >> self._lsh[o]) & 7] == c2
                ]  # fmt: skip
                if not mates:
                    near = self._near(c2, child_used)
                    h += min(near[head], near[tail])
                else:
                    o = mates[0]
                    h -= self._cost_alone(key, o, c2)
                    code = (key >> self._off[o]) & self._mask[o]
                    ends = [(code & self._cm, code >> self._shift[o]), (head, tail)]
                    pair = self._match(c2, child_used, ends)
                    if pair is None:
                        return INF, None
                    h += pair.cost
                    groups[s2] = Group((o, b), pair)
        if h >= INF:
            return INF, None
        return h, tuple(groups)

    def _cost_alone(self, key: int, b: int, c: int) -> int:
        """Cost of body b alone in colour group c in state ``key``: its nearest free hole."""
        code = (key >> self._off[b]) & self._mask[b]
        near = self._near(c, key >> self._uoff)
        return min(near[code & self._cm], near[code >> self._shift[b]])

    def node_bound(self, state: State) -> int:
        """The bound as the searches compute it (from the int key, from scratch)."""
        return self._scratch_bound(self.pack(state))[0]

    def _records(self, b: int, shed: int, code: int) -> Entry:
        """Body b's geometric steps and occupancy at this position (cached per position).

        A step is ``(move, need, xor, hole, exit_delta, head, tail, row, ends)``: ``need`` the
        cell bit that must be free (0 for the far end's own vacating cell), ``xor`` turns
        the key into the slid child, ``hole`` the hole index at the target (-1: none),
        ``exit_delta`` is added to the key for an exit (0 when the hole's colour never
        takes this layer), ``head``/``tail`` the new ends, ``row`` their cost row and
        ``ends`` the int naming the row among the rows of its colour (``head << BITS | tail``).
        """
        game = self.game
        length = game.lengths[b]
        shift = self._shift[b]
        cmask = self._mask[b]
        cb = self._cb
        off = self._off[b]
        head = code & self._cm
        tail = code >> shift
        c = self.outer[b][shed]
        occ = 0
        x = code
        for _ in range(length):
            occ |= 1 << (x & self._cm)
            x >>= self._cb
        steps = game.nbb_color[c]  # ``game.nbb`` itself on a level without paint
        if shed + 1 < game.nlayers[b]:
            peel = 1 << self._lsh[b]
        else:
            peel = -(code << off) - (shed << self._lsh[b])
        recs: list[StepRecord] = []
        for end, here, far in ((0, head, tail), (4, tail, head)):
            for d, t, bt in steps[here]:
                need = bt
                if t == far:
                    if length < 3:
                        continue
                    need = 0  # the far end vacates its cell as this end arrives
                elif occ & bt:
                    continue  # another cell of the body itself: never free
                # A head step drops the tail cell; a tail step drops the head cell.
                new = (code >> cb) | (t << shift) if end else ((code << cb) | t) & cmask
                nh = new & self._cm
                nt = new >> shift
                hole = game.hole_at[t]
                delta = 0  # never an exit (the hole's colour never takes this layer)
                if hole >= 0 and game.hole_color[hole] == c:
                    delta = peel + (1 << (self._uoff + hole))
                recs.append(
                    (b << 3 | end | d, need, (code ^ new) << off, hole, delta, nh, nt,
                     self._row(c, nh, nt), nh << BITS | nt)
                )  # fmt: skip
        entry = (shed, code, tuple(recs), occ, head, tail, self._row(c, head, tail))
        cache = self._rec_cache[b][shed]
        if len(cache) >= MEMO_LIMIT:
            cache.clear()
        cache[code] = entry
        return entry

    def _expand(
        self,
        key: int,
        node: Node,
        ng: int,
        best: dict[int, int],
        upper: int,
        weight: int,
        buckets: dict[int, deque[Item]],
        active: list[int],
        scale: int = 1,
    ) -> tuple[Item | None, int]:
        """Push every child of ``key`` worth keeping; returns ``(goal or None, pruned)``.

        A child is skipped when ``best`` already holds it with a g of at most ``ng``, or
        when its bound is INF (dead), and pruned when ``ng + bound >= upper``. It is pushed
        with a lower estimate of its bound, exact for a body alone in its colour: else,
        by weak duality with the parent's duals, ``cost - u[row] + min_j(row'[j] - v[j])``
        for a slide, and :meth:`_exit_estimate` for an exit; A* settles the exact bound
        when the child is popped (:meth:`_derive`). The weighted search stops at the first
        goal child (returned).
        """
        game = self.game
        h, minfo, ents, occ, alive = node
        assert minfo is not None and ents is not None
        uoff = self._uoff
        used = key >> uoff
        exited = used.bit_count()
        all_used = game.all_used
        frozen = game.frozen
        lockers = self._lockers
        hole_frozen = game.hole_frozen
        outer = self.outer
        slot = self._slot
        best_get = best.get
        buckets_get = buckets.get
        pruned = 0
        exit_estimate = self._exit_estimate
        near_get = self._near_cache.get
        cmask = self._cmask
        # bucket = (scale * ng + weight * lb) << _H_BITS | lb = gbase + lb * lmul
        gbase = scale * ng << _H_BITS
        cap = min(upper - ng, INF)  # lb >= cap: dead (INF) or pruned (ng + lb >= upper)
        lmul = weight << _H_BITS | 1
        last_bk = -1
        last: deque[Item] = deque()
        last_group: Group | None = None
        for b, ent in enumerate(ents):
            if ent is None or frozen[b] > exited or lockers[b] & alive:
                continue  # exited, frozen, or locked while a key carrier is on the board
            shed, _, recs, _, head, tail, _ = ent
            c = outer[b][shed]
            group = minfo[slot[c]]
            if group is None:
                near = near_get((used & cmask[c]) << 4 | c) or self._near(c, used)
                x = near[head]
                y = near[tail]
                base = h - (x if x < y else y)
                i = -1
            else:
                if group is not last_group:  # bodies of one colour come one after another
                    last_group = group
                    bodies, match = group
                    u = match.u
                    v = match.v
                    memo = match.memo  # min(map(sub, row, v)) per row: siblings share v
                    memo_get = memo.get
                i = bodies.index(b)
                base = h - u[i]
            for move, need, xor, hole, delta, nh, nt, row, ends in recs:
                if occ & need:
                    continue
                if hole >= 0 and not used >> hole & 1:
                    # An exit: the hole must take this layer (delta), be open, and the child
                    # be new or reached more cheaply.
                    if (not delta or hole_frozen[hole] > exited
                            or best_get(child := key + delta, _UNSEEN) <= ng):
                        continue
                    if weight != scale and child >> uoff == all_used:
                        best[child] = ng
                        return (child, key, move), pruned
                    lb = exit_estimate(h, base, b, shed, head, tail, c, group, i, hole, used)
                else:
                    child = key ^ xor
                    if best_get(child, _UNSEEN) <= ng:
                        continue
                    if i >= 0:
                        known = memo_get(ends)
                        if known is None:
                            known = memo[ends] = min(map(sub, row, v))
                        lb = base + known
                    else:
                        x = near[nh]
                        y = near[nt]
                        lb = base + (x if x < y else y)
                if lb >= cap:
                    pruned += 1 if lb < INF else 0  # ng + lb >= upper (else INF: dead)
                    continue
                best[child] = ng
                bk = gbase + lb * lmul
                if bk != last_bk:  # siblings often share a bucket: keep it at hand
                    last_bk = bk
                    last = buckets_get(bk) or _bucket(buckets, active, bk)
                last.append((child, key, move))
        return None, pruned

    def _exit_estimate(
        self, h: int, base: int, b: int, shed: int, head: int, tail: int, c: int,
        group: Group | None, i: int, hole: int, used: int,
    ) -> int:  # fmt: skip
        """A lower estimate of the bound after body b (colour c) exits into ``hole``.

        ``base`` is h less b's share (``u[i]``, i its row in ``group``; or its nearest
        free hole when alone), as :meth:`_expand` has it.

        The exact bound is consistent, so ``h - 1`` always holds. Sharper: the group of c
        loses row b and the hole's column, which lowers its cost by ``cost_b`` (b alone) or,
        by weak duality with the parent's square duals (u, v), by at most ``u[b] + v[hole]``
        minus the rise of the dual of the hole's row r (when r is not b), which must move:
        ``min_{j != hole}(row_r[j] - v[j]) - u[r]``.
        A coat of another colour c2 costs one inner layer and adds b to c2's group, which
        raises that cost by at least b's nearest free hole of c2 (drop b's pair from the new
        optimum: the rest is a matching of the old rows). With a coat of the same colour, b
        stays, the hole's column and one dummy d leave, and b's dual can rise to
        ``u'_b = min_{j != hole}(row_b[j] - v[j])``: ``h - 1 - u[b] - v[hole] + u'_b -
        min_d u[d]`` (b alone: exact, its nearest remaining hole).
        """
        c2 = self._next_color[b][shed]  # -1: no coat left
        if group is None:
            lb = base
        else:
            match = group[1]
            col = self._column[hole]
            v = match.v
            lb = base - v[col]
            r = match.row_of[col]
            if r != i and c2 != c:
                # The hole's row loses its column: its dual can rise to its best other one.
                reduced = list(map(sub, match.rows[r], v))
                reduced[col] = INF << 8
                lb += min(reduced) - match.u[r]
        if c2 >= 0:
            if c2 != c or group is None:
                after = self._near(c2, used | 1 << hole)
                x = after[head]
                y = after[tail]
                lb += (x if x < y else y) - 1
            elif match.k >= len(match.cols):
                return INF  # no free hole left for the next layer: dead
            elif match.col_of[i] != col:
                # b's best other hole is its own column, where its reduced cost is u[b].
                lb += match.u[i] - 1 - match.dmin
            else:
                reduced = list(map(sub, match.rows[i], v))
                reduced[col] = INF << 8
                lb += min(reduced) - 1 - match.dmin
        return lb if lb > h - 1 else h - 1

    def expand(self, state: State) -> list[Child]:
        """Children of ``state`` as the A* pushes them (:class:`Child`, sorted; checks and
        tests; dead children are left out)."""
        key = self.pack(state)
        node = self._scratch(key)
        if node[0] >= INF:
            return []
        best: dict[int, int] = {key: 0}
        buckets: dict[int, deque[Item]] = {}
        self._expand(key, node, 1, best, 1 << 62, 1, buckets, [])
        out: list[Child] = []
        for bk, children in sorted(buckets.items()):
            for child, _, move in children:
                derived = self._derive(key, node, move, child)[0]
                out.append(Child(move, self.unpack(child), bk & _H_MASK, derived))
        out.sort()
        return out

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
        bk0 = (weight * h0) << _H_BITS | h0
        buckets: dict[int, deque[Item]] = {bk0: deque(((key0, None, -1),))}
        active = [bk0]
        expand = self._expand
        derive = self._derive
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
            hb = bk & _H_MASK
            g = ((bk >> _H_BITS) - weight * hb) // scale
            if best[key] != g:
                continue  # stale: reached again with a smaller g
            node = settled.pop(key, None)
            if node is None:
                assert parent is not None
                node = derive(parent, nodes[parent], move, key)
                h = node[0]
                if h >= INF or g + h >= limit:
                    continue
                if h > hb:
                    # Pushed on an estimate: back to the open list with its exact bound.
                    settled[key] = node
                    nb = (scale * g + weight * h) << _H_BITS | h
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


def _bucket(buckets: dict[int, deque[Item]], active: list[int], bk: int) -> deque[Item]:
    """The open list's bucket ``bk``; a new one joins the heap of buckets."""
    lst = buckets.get(bk)
    if lst is None:
        lst = buckets[bk] = deque()
        heappush(active, bk)
    return lst


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
    lowest = min(bk >> _H_BITS for bk, x in buckets.items() if x)
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
