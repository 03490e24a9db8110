"""The search state of the snakes solver: the tables precomputed for one game, the admissible
lower bound of spec section 5, and the int keys and nodes the searches expand
(:class:`StateTables`; :class:`~gridforge.snakes.solver.search.Solver` runs its searches on
them).

The lower bound (:meth:`StateTables.bound`): per current outer colour, a min-cost matching of
bodies to distinct unused holes of that colour, the cost of a pair being the wall-aware
distance from the nearer end to the hole; plus one step per remaining inner layer. The
searches keep it per node instead (:meth:`StateTables.node_bound`): each node carries its
colour groups' optimal square matchings with their duals, and a child re-solves only the
moved body's group by at most one augmenting phase.

Inside the searches a state is one int (the *key*): every body's packed cells at a fixed
offset, then the shed layers, then the used holes. A step is then one XOR (a slide) or one
addition (an exit) with a delta precomputed per body position; the key is the transposition
table's key itself (exact, never a hash).
"""

from __future__ import annotations

from collections import deque
from heapq import heappush
from operator import sub
from typing import Any, NamedTuple

from gridforge.snakes.game.rules import BITS, CELL_MASK, LAYER_BITS, Game, Move, State
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
_NO_BUCKET: deque[Item] = deque()  # _expand's bucket at hand before the first push (empty)
# An open-list item: (key, parent key or None, move from the parent). A plain tuple on
# purpose: the A* pushes one per child, and building a NamedTuple costs several times more.
Item = tuple[int, int | None, int]

MEMO_LIMIT = 100_000  # entries of each cache (matchings, body positions); cleared when full
NEAR_LIMIT = 4_096  # nearest-hole tables (one board-sized list each); cleared when full

# A bucket of the open list is named by one int: f << H_BITS | h.
H_BITS = 24
H_MASK = (1 << H_BITS) - 1


class Child(NamedTuple):
    """A child as the A* pushes it (:meth:`Solver.expand`)."""

    move: Move
    state: State
    estimate: int  # the lower estimate of its bound it is pushed with
    bound: int  # the bound settled from the parent's matchings when it is popped


def bucket(buckets: dict[int, deque[Item]], active: list[int], bk: int) -> deque[Item]:
    """The open list's bucket ``bk``; a new one joins the heap of buckets."""
    lst = buckets.get(bk)
    if lst is None:
        lst = buckets[bk] = deque()
        heappush(active, bk)
    return lst


class StateTables:
    """Precomputed tables of one game, its lower bound, and its search keys and nodes.

    Public methods take and return the tuple states of :mod:`~gridforge.snakes.game.rules`.
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
        # What every expansion reads (see _expand): the near cache is cleared, never replaced,
        # so its bound ``get`` stays valid (no bound method of self: that would be a cycle).
        # ``gated``: some body is frozen or locked.
        self._fixed = (
            self._uoff, game.all_used, game.frozen, self._lockers,
            any(game.frozen) or any(self._lockers), game.hole_frozen, self.outer, self._slot,
            self._cmask, self._near_cache.get,
        )  # fmt: skip
        # What every child's node reads (see _derive), unpacked once per child likewise.
        self._derive_fixed = (
            self._uoff, self._off, self._mask, self._rec_cache, self.outer, self._slot,
            self._cmask, self._near_cache.get,
        )  # fmt: skip

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
        uoff, offs, masks, rec_cache, outer, slot, cmask, near_get = self._derive_fixed
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
        code = (key >> offs[b]) & masks[b]
        new = rec_cache[b][shed].get(code) or self._records(b, shed, code)
        c = outer[b][shed]
        s = slot[c]
        group = minfo[s]
        if group is None:
            used = key >> uoff
            near = near_get((used & cmask[c]) << 4 | c) or self._near(c, used)
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
        h, minfo, ents, occ, alive = node
        assert minfo is not None and ents is not None
        # One tuple of the game's fixed tables, unpacked once: a dozen attribute lookups per
        # expansion were 3% of the search (see StateTables._fixed).
        uoff, all_used, frozen, lockers, gated, hole_frozen, outer, slot, cmask, near_get = \
            self._fixed
        used = key >> uoff
        exited = used.bit_count()
        best_get = best.get
        buckets_get = buckets.get
        unseen = _UNSEEN
        pruned = 0
        # bucket = (scale * ng + weight * lb) << H_BITS | lb = gbase + lb * lmul
        gbase = scale * ng << H_BITS
        cap = upper - ng if upper - ng < INF else INF  # lb >= cap: dead or pruned
        lmul = weight << H_BITS | 1
        last_bk = -1
        last = _NO_BUCKET  # never appended to: no bucket is named -1
        last_group: Group | None = None
        for b, ent in enumerate(ents):
            if ent is None or (gated and (frozen[b] > exited or lockers[b] & alive)):
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
                            or best_get(child := key + delta, unseen) <= ng):
                        continue
                    if weight != scale and child >> uoff == all_used:
                        best[child] = ng
                        return (child, key, move), pruned
                    lb = self._exit_estimate(h, base, b, shed, head, tail, c, group, i, hole,
                                             used)
                else:
                    child = key ^ xor
                    if best_get(child, unseen) <= ng:
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
                    last = buckets_get(bk) or bucket(buckets, active, bk)
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
                out.append(Child(move, self.unpack(child), bk & H_MASK, derived))
        out.sort()
        return out
