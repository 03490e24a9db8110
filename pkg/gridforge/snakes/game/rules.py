"""The snakes rules (spec section 4): legal steps, exits, coats, freezes, locks, completion.

Seed 004's "局面图" (the game-state graph): a vertex is a full state, an edge one legal step.
A :class:`Game` compiles a :class:`~gridforge.snakes.game.level.Level` into flat tables once;
states are then small immutable tuples of ints that hash fast, so play, search, generation
and scoring all run on the same code.

Public names (stable; the designer and the browser build on them):

- :class:`Game` (``Game(level)``): ``initial`` (the start state), ``advance(state, move)``
  (the step rule's kernel: the child, or None when refused), ``successors(state, occ)``
  (``[(move, child, child_occ)]``, the search's expansion), ``legal_moves(state)``,
  ``refusal(state, move)`` (a reason code or ``None``), ``apply(state, move)`` (raises
  :class:`IllegalStep`), ``is_complete(state)``, ``occupancy(state)``, ``body_cells``,
  ``outer_color``, ``layers_left``, ``used_holes``, ``exited_layers``, ``is_movable``,
  ``replay(steps)``, ``state_to_json``, ``state_from_json``, ``drag(state, body, end, cells)``.
- Moves: an int ``body << 3 | end << 2 | direction`` internally (end 0 head, 1 tail;
  directions ``DIRS = ("U", "D", "L", "R")``); :func:`move_to_step` / :func:`step_to_move`
  convert to and from the JSON step ``[body_index, "head" | "tail", "U" | "D" | "L" | "R"]``.

State layout (``State = tuple[int, ...]``), for a level with n bodies: ``state[b]`` for
``b < n`` is body b's cells packed 10 bits each, head in the lowest bits, as *nodes*: indices
into the board padded with its wall ring (``(y + 1) * (cols + 2) + x + 1``), and for the
vertical lane of bridge k (spec section 3b) the extra node ``size + k`` (the horizontal lane
is the cell's own index); 0 once the body has exited. Every rule reads the tables built
over nodes (``nb``, ``nbb``, ``target``), so a lane is just another node: two bodies, or two
parts of one, on one bridge in different lanes occupy different bits. ``state[n]`` packs
the layers each body has shed, 3 bits per body. ``state[n + 1]`` is the bit set of used
holes. The number of exited layers is the popcount of the last field. Occupancy (the bit
set of nodes under bodies) is derived; searches carry it along.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from gridforge.errors import (
    GridforgeError,
    Issues,
    ValidationError,
    field_path,
    is_int,
    refusal,
)
from gridforge.grid import Cell
from gridforge.snakes.game.level import MAX_COLOR, VERTICAL, Level, bridge_lane

if TYPE_CHECKING:
    from gridforge.snakes.game.answers import StateView

State = tuple[int, ...]
Move = int

DIRS = ("U", "D", "L", "R")
ENDS = ("head", "tail")
BITS = 10  # bits per packed cell index; the padded board has at most 600 cells
CELL_MASK = (1 << BITS) - 1
LAYER_BITS = 3
CELLS_CACHE_SIZE = 4096  # bodies' JSON cells kept for views (cleared when full)

REFUSALS = {
    "no_body": "there is no such body",
    "exited": "the body has already left the board",
    "frozen": "the body is frozen until more layers have exited",
    "locked": "the body is locked until its keys are released",
    "bad_step": "a step is [body_index, 'head' | 'tail', 'U' | 'D' | 'L' | 'R']",
    "wall": "the target is outside the board",
    "stone": "the target is a stone",
    "occupied": "the target is occupied by another body",
    "own_body": "the target is occupied by the body itself",
    "hole_frozen": "the hole is frozen until more layers have exited",
    "hole_color": "the hole has another color than the body's outer layer",
    "not_adjacent": "the dragged path leaves the end's neighbourhood",
    "bridge_turn": "an end on a bridge goes straight on along its lane",
    "paint": "the cell is painted another colour than the body's outer layer",
}


class IllegalStep(GridforgeError):
    """A step refused by the rules; ``reason`` is a key of :data:`REFUSALS`."""

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        super().__init__(f"illegal step: {REFUSALS.get(reason, reason)}{detail}")


K = TypeVar("K", bound=Hashable)  # a search's key: a state, or a state and a flag


def moves_to(parent: Mapping[K, tuple[K, Move] | None], key: K) -> list[Move]:
    """The moves that lead to ``key`` in a search's ``parent`` links (each key's parent and
    the move from it; None at the start), first move first."""
    moves: list[Move] = []
    link = parent[key]
    while link is not None:
        key, move = link
        moves.append(move)
        link = parent[key]
    moves.reverse()
    return moves


def move_to_step(move: Move) -> list[Any]:
    """The JSON step of an internal move."""
    return [move >> 3, ENDS[(move >> 2) & 1], DIRS[move & 3]]


def step_to_move(step: Any) -> Move:
    """The internal move of a JSON step ``[body_index, end, direction]``; raises IllegalStep."""
    if (
        not isinstance(step, list | tuple)
        or len(step) != 3
        or not isinstance(step[0], int)
        or isinstance(step[0], bool)
        or step[0] < 0
        or step[1] not in ENDS
        or step[2] not in DIRS
    ):
        raise IllegalStep("bad_step", f", got {step!r}")
    return step[0] << 3 | ENDS.index(step[1]) << 2 | DIRS.index(step[2])


Neighbours = tuple[tuple[tuple[int, int], ...], ...]  # Game.nb
NeighbourBits = tuple[tuple[tuple[int, int, int], ...], ...]  # Game.nbb
Distances = dict[tuple[int, int | None, int], tuple[int, ...]]  # Game.distances_to's answers
# A board's tables, shared by the Games of one board: (floor, nb, nbb, target, bit, paint,
# nbb_color, distances) as the Game attributes of those names (``distances``: the answers of
# Game.distances_to so far, by its arguments).
BoardTables = tuple[
    tuple[bool, ...], Neighbours, NeighbourBits, tuple[int, ...], tuple[int, ...],
    tuple[int, ...], tuple[NeighbourBits, ...], Distances,
]
BOARDS_CACHE_SIZE = 64  # boards whose tables are kept (cleared when full; a climb uses one)
DISTANCES_CACHE_SIZE = 512  # distance tables kept per board (cleared when full)
_BOARDS: dict[Hashable, BoardTables] = {}


def _painted(nbb: NeighbourBits, paint: list[int]) -> tuple[NeighbourBits, ...]:
    """``nbb_color`` of a level with paint: per colour c, ``nbb`` without the steps into
    cells painted another colour."""
    # Only the nodes next to paint differ between colours: filter those alone.
    touched = [p for p, ts in enumerate(nbb) if any(paint[x[1]] >= 0 for x in ts)]
    tables = []
    for c in range(MAX_COLOR + 1):
        table = list(nbb)
        for p in touched:
            table[p] = tuple([x for x in nbb[p] if paint[x[1]] in (-1, c)])
        tables.append(tuple(table))
    return tuple(tables)


class Game:
    """A level compiled into flat tables; every rule of the game lives in this class."""

    def __init__(self, level: Level) -> None:
        self.level = level
        cols, rows = level.cols, level.rows
        w = cols + 2
        self.width = w
        self.size = w * (rows + 2)
        self.deltas = (-w, w, -1, 1)  # U, D, L, R
        # Nodes: every padded cell, then the vertical lane of each bridge (module docstring).
        self.bridge_at = {self.index(c): k for k, c in enumerate(level.bridges)}
        self.nodes = self.size + len(level.bridges)
        self.real = (*range(self.size), *(self.index(c) for c in level.bridges))
        self.bridge_mask = sum(1 << p for p in self.bridge_at)
        self.has_paint = bool(level.paths)
        # The board's tables depend on the board alone (cols, rows, stones, bridges, paint),
        # and the designer builds a Game for every layout it measures on one board (and for
        # every body's solo reading): built once per board, shared (all immutable tuples).
        board = (cols, rows, level.stones, level.bridges, level.paths)
        try:
            tables = _BOARDS.get(board)
        except TypeError:  # a Level built by hand with lists for cells: not cached
            tables = self._board_tables()
        if tables is None:
            tables = self._board_tables()
            if len(_BOARDS) >= BOARDS_CACHE_SIZE:
                _BOARDS.clear()
            _BOARDS[board] = tables
        (self.floor, self.nb, self.nbb, self.target, self.bit, self.paint, self.nbb_color,
         self._distances) = tables
        self._unused: dict[int, int] = {}
        self._cells_cache: dict[tuple[int, int], list[list[int]]] = {}
        self.n = len(level.bodies)
        self.hole_at = [-1] * self.nodes
        for i, hole in enumerate(level.holes):
            self.hole_at[self.index(hole.cell)] = i
        self.hole_cells = tuple(self.index(h.cell) for h in level.holes)
        self.hole_color = tuple(h.color for h in level.holes)
        self.hole_frozen = tuple(h.frozen for h in level.holes)
        self.hole_mask = sum(1 << p for p in self.hole_cells)
        self.all_used = (1 << len(level.holes)) - 1
        self.lengths = tuple(len(b.cells) for b in level.bodies)
        self.colors = tuple(b.colors for b in level.bodies)
        self.nlayers = tuple(len(b.colors) for b in level.bodies)
        self.frozen = tuple(b.frozen for b in level.bodies)
        self.shifts = tuple(BITS * (length - 1) for length in self.lengths)
        self.code_masks = tuple((1 << (BITS * length)) - 1 for length in self.lengths)
        carriers: list[tuple[int, ...]] = []
        for body in level.bodies:
            if body.lock is None:
                carriers.append(())
            else:
                lock_id = body.lock.id
                carriers.append(
                    tuple(j for j, other in enumerate(level.bodies) if other.key == lock_id)
                )
        self.carriers = tuple(carriers)
        codes = [self.pack(self.nodes_of(b.cells)) for b in level.bodies]
        self.initial: State = (*codes, 0, 0)

    def _board_tables(self) -> BoardTables:
        """The board's tables (see :data:`BoardTables`), built from ``self.level``."""
        level = self.level
        stones = set(level.stones)
        w = self.width
        floor = [False] * self.nodes
        for y in range(level.rows):
            row = (y + 1) * w + 1  # self.index((0, y)), the row's first inner cell
            for x in range(level.cols):
                if (x, y) not in stones:
                    floor[row + x] = True
        for k in range(len(level.bridges)):
            floor[self.size + k] = True
        nb, nbb, target = self._neighbours(floor)
        # Coloured paths: paint[node] is the colour a body needs to enter it (-1: any), and
        # nbb_color[c] the neighbour table of a body of outer colour c (``nbb`` itself when
        # nothing is painted, so a level without paint runs the same loops as before).
        paint = [-1] * self.nodes
        for painted in level.paths:
            paint[self.index(painted.cell)] = painted.color
        nbb_color = _painted(nbb, paint) if level.paths else (nbb,) * (MAX_COLOR + 1)
        bit = tuple(1 << p for p in range(self.nodes))
        return tuple(floor), nb, nbb, target, bit, tuple(paint), nbb_color, {}

    def _neighbours(self, floor: list[bool]) -> tuple[Neighbours, NeighbourBits, tuple[int, ...]]:
        """The neighbour tables ``nb``, ``nbb`` and ``target`` of the floor.

        ``nb[node]``: (direction, target node) for floor targets only (a bridge's node has
        only the two directions of its lane); ``nbb`` the same with the target's bit;
        ``target[node << 2 | d]`` the node a step in direction d reaches (-1: none). One loop
        over local names builds the three.
        """
        real = self.real
        deltas = self.deltas
        bridges = bool(self.bridge_at)
        everywhere = (0, 1, 2, 3)
        nb: list[tuple[tuple[int, int], ...]] = []
        nbb: list[tuple[tuple[int, int, int], ...]] = []
        target = [-1] * (4 * self.nodes)
        for p in range(self.nodes):
            if not floor[p]:
                nb.append(())
                nbb.append(())
                continue
            here = real[p]
            ts: list[tuple[int, int]] = []
            for d in self._ways(p) if bridges else everywhere:
                q = here + deltas[d]
                if floor[q]:
                    t = self._enter(q, d) if bridges else q
                    ts.append((d, t))
                    target[p << 2 | d] = t
            nb.append(tuple(ts))
            nbb.append(tuple([(d, t, 1 << t) for d, t in ts]))
        return tuple(nb), tuple(nbb), tuple(target)

    def _ways(self, node: int) -> tuple[int, ...]:
        """The directions a step may take from ``node``: along its lane on a bridge."""
        if node >= self.size:
            return (0, 1)  # a bridge's vertical lane: up and down
        if node in self.bridge_at:
            return (2, 3)  # its horizontal lane: left and right
        return (0, 1, 2, 3)

    def _enter(self, p: int, d: int) -> int:
        """The node a step in direction ``d`` enters at padded cell ``p``: on a bridge, the
        lane of the step's axis."""
        k = self.bridge_at.get(p)
        return p if k is None or d >= 2 else self.size + k

    def nodes_of(self, cells: Sequence[Cell]) -> list[int]:
        """The nodes of a body lying on ``cells`` (head first): a cell on a bridge takes the
        lane of the axis through its neighbours in the body."""
        out = []
        for j, c in enumerate(cells):
            p = self.index(c)
            k = self.bridge_at.get(p)
            if k is not None and bridge_lane(cells, j) == VERTICAL:
                p = self.size + k
            out.append(p)
        return out

    def distances_to(self, source: int, color: int | None, unreachable: int) -> list[int]:
        """Steps an end of a body of outer colour ``color`` needs from every node to the node
        ``source`` (a hole), by BFS on the node graph (walls, stones and bridge lanes as the
        rules have them), cells painted another colour closed: an end may lie on one, but
        never enters it (``color`` None: paint ignored). Nodes that never reach ``source``
        get ``unreachable``.

        Closing paint is a lower bound only while the body lies on no cell painted another
        colour: an end *pulled* by the other end's step follows the body without the paint
        check. :func:`paint_closes` says for which colours that holds in every position."""
        # A pure function of the board and the arguments: answered once per board (a Game is
        # built per layout on one board), a fresh list each time (callers own their copy).
        key = (source, color, unreachable)
        known = self._distances.get(key)
        if known is None:
            known = self._bfs(source, color, unreachable)
            if len(self._distances) >= DISTANCES_CACHE_SIZE:
                self._distances.clear()
            self._distances[key] = known
        return list(known)

    def _bfs(self, source: int, color: int | None, unreachable: int) -> tuple[int, ...]:
        """:meth:`distances_to` computed (a breadth-first search from ``source``)."""
        dist = [unreachable] * self.nodes
        dist[source] = 0
        queue = [source]
        paint = self.paint
        k = 0
        while k < len(queue):
            q = queue[k]
            k += 1
            if q != source and color is not None and paint[q] not in (-1, color):
                continue  # reached (an end may lie here) but never entered on the way
            nd = dist[q] + 1
            for _, r in self.nb[q]:
                if dist[r] == unreachable:
                    dist[r] = nd
                    queue.append(r)
        return tuple(dist)

    def paint_closes(self, color: int) -> bool:
        """Whether no body of outer colour ``color`` can ever lie on a cell painted another
        colour, so that :meth:`distances_to` may close those cells for it. A body takes its
        first colour where it starts (checked), and moves by entering cells its colour may
        enter; a coat's colour comes where the layer before it left the body, anywhere, so a
        coat of ``color`` under another layer counts as lying on paint when other paint exists.
        """
        if not any(p.color != color for p in self.level.paths):
            return True
        for b, body in enumerate(self.level.bodies):
            if color in body.colors[1:]:
                return False
            if body.colors[0] == color and any(
                self.paint[p] not in (-1, color) for p in self.unpack(self.initial[b], b)
            ):
                return False
        return True

    # ------------------------------------------------------------ coordinates and packing

    def index(self, cell: Cell) -> int:
        """Padded index of an inner cell ``(x, y)`` (a bridge's horizontal lane node)."""
        return (cell[1] + 1) * self.width + cell[0] + 1

    def cell(self, index: int) -> Cell:
        """Inner cell ``(x, y)`` of a node (a padded index, or a bridge's vertical lane)."""
        y, x = divmod(self.real[index], self.width)
        return (x - 1, y - 1)

    @staticmethod
    def pack(indices: Sequence[int]) -> int:
        code = 0
        for k, p in enumerate(indices):
            code |= p << (BITS * k)
        return code

    def unpack(self, code: int, body: int) -> list[int]:
        """Padded indices of a packed body, head first ([] once exited)."""
        if not code:
            return []
        return [(code >> (BITS * k)) & CELL_MASK for k in range(self.lengths[body])]

    # ------------------------------------------------------------ state queries

    def body_cells(self, state: State, body: int) -> list[Cell]:
        return [self.cell(p) for p in self.unpack(state[body], body)]

    def layers_shed(self, state: State, body: int) -> int:
        return (state[self.n] >> (LAYER_BITS * body)) & 7

    def layers_left(self, state: State, body: int) -> int:
        return 0 if not state[body] else self.nlayers[body] - self.layers_shed(state, body)

    def outer_color(self, state: State, body: int) -> int | None:
        if not state[body]:
            return None
        return self.colors[body][self.layers_shed(state, body)]

    def used_holes(self, state: State) -> list[bool]:
        used = state[self.n + 1]
        return [bool(used >> i & 1) for i in range(len(self.hole_cells))]

    def exited_layers(self, state: State) -> int:
        return state[self.n + 1].bit_count()

    def is_complete(self, state: State) -> bool:
        return state[self.n + 1] == self.all_used and not any(state[: self.n])

    def occupancy(self, state: State) -> int:
        """Bit set of padded indices under bodies."""
        occ = 0
        for b in range(self.n):
            for p in self.unpack(state[b], b):
                occ |= 1 << p
        return occ

    def is_movable(self, state: State, body: int) -> str | None:
        """Why ``body`` cannot move now (a refusal code), or None."""
        if not 0 <= body < self.n:
            return "no_body"
        if not state[body]:
            return "exited"
        if self.frozen[body] > state[self.n + 1].bit_count():
            return "frozen"
        for carrier in self.carriers[body]:
            if state[carrier]:
                return "locked"
        return None

    # ------------------------------------------------------------ steps

    def unused_holes(self, used: int) -> int:
        """Bit set (by padded index) of the holes not yet used, for a used-hole set."""
        mask = self._unused.get(used)
        if mask is None:
            mask = self.hole_mask
            for i, p in enumerate(self.hole_cells):
                if used >> i & 1:
                    mask &= ~(1 << p)
            self._unused[used] = mask
        return mask

    def successors(self, state: State, occ: int) -> list[tuple[Move, State, int]]:
        """Every legal step from ``state`` (occupancy ``occ``), in move order, as
        ``(move, child, child_occupancy)``.

        This is the search's inner loop: plain ints, precomputed neighbour triples
        ``(direction, target, target_bit)``, one list reused for all children.
        """
        n = self.n
        used = state[n + 1]
        exited = used.bit_count()
        unused = self._unused.get(used)
        if unused is None:
            unused = self.unused_holes(used)
        nbb = self.nbb
        painted = self.nbb_color if self.has_paint else None
        frozen = self.frozen
        carriers = self.carriers
        bit = self.bit
        out: list[tuple[Move, State, int]] = []
        append = out.append
        lst = list(state)
        for b in range(n):
            code = state[b]
            if not code or frozen[b] > exited:
                continue
            locked = False
            for carrier in carriers[b]:
                if state[carrier]:
                    locked = True
                    break
            if locked:
                continue
            length = self.lengths[b]
            shift = self.shifts[b]
            cmask = self.code_masks[b]
            head = code & CELL_MASK
            tail = code >> shift
            base = b << 3
            steps = nbb if painted is None else painted[
                self.colors[b][(state[n] >> (LAYER_BITS * b)) & 7]]
            # A head step vacates the tail cell, a tail step the head cell.
            for end, here, far in ((0, head, tail), (4, tail, head)):
                far_bit = bit[far]
                for d, t, bt in steps[here]:
                    if occ & bt:
                        if t != far or length < 3:
                            continue
                        new_occ = occ
                    elif unused & bt:
                        self._exit(state, b, base | end | d, t, occ, exited, append)
                        continue
                    else:
                        new_occ = occ ^ bt ^ far_bit
                    lst[b] = (code >> BITS) | (t << shift) if end else ((code << BITS) | t) & cmask
                    append((base | end | d, tuple(lst), new_occ))
            lst[b] = code
        return out

    def _exit(
        self, state: State, b: int, move: Move, t: int, occ: int, exited: int, append: Any
    ) -> None:
        """Append the exit of body b into the hole at t, when the hole takes its colour."""
        n = self.n
        h = self.hole_at[t]
        layers = state[n]
        shed = (layers >> (LAYER_BITS * b)) & 7
        if self.hole_color[h] != self.colors[b][shed] or self.hole_frozen[h] > exited:
            return
        new_used = state[n + 1] | (1 << h)
        if shed + 1 < self.nlayers[b]:
            append((move, (*state[:n], layers + (1 << (LAYER_BITS * b)), new_used), occ))
            return
        code = state[b]
        for _ in range(self.lengths[b]):
            occ &= ~self.bit[code & CELL_MASK]
            code >>= BITS
        child = (*state[:b], 0, *state[b + 1 : n], layers & ~(7 << (LAYER_BITS * b)), new_used)
        append((move, child, occ))

    def legal_moves(self, state: State) -> list[Move]:
        return [m for m, _, _ in self.successors(state, self.occupancy(state))]

    def refusal(self, state: State, move: Move) -> str | None:
        """The reason code why ``move`` is illegal in ``state``, or None when it is legal."""
        body, end, d = move >> 3, (move >> 2) & 1, move & 3
        reason = self.is_movable(state, body)
        if reason:
            return reason
        cells = self.unpack(state[body], body)
        here = cells[0] if end == 0 else cells[-1]
        far = cells[-1] if end == 0 else cells[0]
        cell = self.real[here] + self.deltas[d]
        x, y = self.cell(cell)
        if not (0 <= x < self.level.cols and 0 <= y < self.level.rows):
            return "wall"
        if not self.floor[cell]:
            return "stone"
        t = self.target[here << 2 | d]
        if t < 0:
            return "bridge_turn"
        color = self.paint[t]
        if color >= 0 and color != self.outer_color(state, body):
            return "paint"
        h = self.hole_at[t]
        used = state[self.n + 1]
        if h >= 0 and not used >> h & 1:
            if self.hole_frozen[h] > used.bit_count():
                return "hole_frozen"
            if self.hole_color[h] != self.outer_color(state, body):
                return "hole_color"
            return None
        if t in cells:
            return None if t == far and len(cells) >= 3 else "own_body"
        for b in range(self.n):
            if b != body and t in self.unpack(state[b], b):
                return "occupied"
        return None

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``; raises IllegalStep (with its reason) when refused."""
        child = self.advance(state, move)
        if child is None:
            raise IllegalStep(self.refusal(state, move) or "bad_step")
        return child

    def advance(self, state: State, move: Move) -> State | None:
        """The state after ``move``, or None when the rules refuse it: the step rule's
        kernel (spec sections 3, 3b and 4), in one pass without building cell lists.

        Every faster copy of the rule (:meth:`successors`, :meth:`refusal`, the searches'
        expansions in ``puzzle``, ``pairs`` and ``search``, backward play's slides) is held
        to this one by ``tests/snakes/test_step_rule.py``; this one is held to an oracle
        written from the spec by ``tests/snakes/test_terrain.py``."""
        n = self.n
        b = move >> 3
        if not 0 <= b < n:
            return None
        code = state[b]
        used = state[n + 1]
        if not code or self.frozen[b] > used.bit_count():
            return None
        for carrier in self.carriers[b]:
            if state[carrier]:
                return None
        shift = self.shifts[b]
        head, tail = code & CELL_MASK, code >> shift
        end = move & 4
        t = self.target[(tail if end else head) << 2 | (move & 3)]
        if t < 0:  # a wall (the padding), a stone, or a turn on a bridge
            return None
        layers = state[n]
        shed = (layers >> (LAYER_BITS * b)) & 7
        if self.has_paint and self.paint[t] not in (-1, self.colors[b][shed]):
            return None
        h = self.hole_at[t]
        if h >= 0 and not used >> h & 1:
            return self._exited(state, b, h, shed)
        rest = code
        while rest:  # padded indices of cells are never 0
            if rest & CELL_MASK == t:
                if t != (head if end else tail) or self.lengths[b] < 3:
                    return None
                break
            rest >>= BITS
        else:
            for other in range(n):
                rest = state[other] if other != b else 0
                while rest:
                    if rest & CELL_MASK == t:
                        return None
                    rest >>= BITS
        moved = (code >> BITS) | (t << shift) if end else ((code << BITS) | t) & self.code_masks[b]
        return (*state[:b], moved, *state[b + 1 :])

    def _exited(self, state: State, b: int, h: int, shed: int) -> State | None:
        """:meth:`advance` of body b (``shed`` layers shed) into the unused hole h: the state
        after its exit, or None when the hole is frozen or of another colour."""
        n = self.n
        used = state[n + 1]
        if self.hole_frozen[h] > used.bit_count() or self.hole_color[h] != self.colors[b][shed]:
            return None
        layers = state[n]
        new_used = used | (1 << h)
        if shed + 1 < self.nlayers[b]:
            return (*state[:n], layers + (1 << (LAYER_BITS * b)), new_used)
        return (*state[:b], 0, *state[b + 1 : n], layers & ~(7 << (LAYER_BITS * b)), new_used)

    def replay(self, steps: Iterable[Any], state: State | None = None) -> list[State]:
        """States along JSON ``steps`` from ``state`` (default initial); raises IllegalStep
        naming the step index at the first refusal."""
        states = [self.initial if state is None else state]
        for i, step in enumerate(steps):
            try:
                states.append(self.apply(states[-1], step_to_move(step)))
            except IllegalStep as exc:
                raise IllegalStep(exc.reason, f" (solution[{i}] = {step!r})") from None
        return states

    def drag(
        self, state: State, body: int, end: str, cells: Sequence[Sequence[int]]
    ) -> tuple[list[Move], State, str | None]:
        """Turn a dragged path of ``end`` of ``body`` into steps.

        ``cells`` are the cells the end is dragged through, in order (the end's own cell
        may come first and is skipped). Steps are applied while legal; the drag stops at
        the first refused cell (its reason is returned) or after an exit.
        """
        if end not in ENDS:
            return [], state, "bad_step"
        reason = self.is_movable(state, body) if isinstance(body, int) else "no_body"
        if reason:
            return [], state, reason
        e = ENDS.index(end)
        moves: list[Move] = []
        for raw in cells:
            if not state[body]:
                break
            idx = self.unpack(state[body], body)
            here = self.cell(idx[0] if e == 0 else idx[-1])
            target = (raw[0], raw[1]) if len(raw) == 2 else None
            if target == here:
                continue
            if target is None or abs(target[0] - here[0]) + abs(target[1] - here[1]) != 1:
                return moves, state, "not_adjacent"
            dx, dy = target[0] - here[0], target[1] - here[1]
            d = {(0, -1): 0, (0, 1): 1, (-1, 0): 2, (1, 0): 3}[(dx, dy)]
            move = body << 3 | e << 2 | d
            reason = self.refusal(state, move)
            if reason:
                return moves, state, reason
            before = state
            state = self.apply(state, move)
            moves.append(move)
            if state[self.n + 1] != before[self.n + 1]:
                break
        return moves, state, None

    # ------------------------------------------------------------ JSON views

    def state_to_json(self, state: State) -> StateView:
        """A JSON view of ``state`` (cells as [x, y]; safe for JavaScript numbers)."""
        used = state[self.n + 1]
        return {
            "bodies": [
                {
                    "cells": self._cells_json(b, state[b]),
                    "shed": self.layers_shed(state, b) if state[b] else self.nlayers[b],
                    "color": self.outer_color(state, b),
                    "blocked": self.is_movable(state, b),
                }
                for b in range(self.n)
            ],
            "holes_used": [bool(used >> i & 1) for i in range(len(self.hole_cells))],
            "exited_layers": used.bit_count(),
            "complete": self.is_complete(state),
        }

    def _cells_json(self, body: int, code: int) -> list[list[int]]:
        """A body's cells as JSON [x, y] lists, kept per packed code: a step changes one
        body, so the views of a state's children share the others' lists (read only)."""
        key = (body, code)
        cells = self._cells_cache.get(key)
        if cells is None:
            if len(self._cells_cache) >= CELLS_CACHE_SIZE:
                self._cells_cache.clear()
            cells = self._cells_cache[key] = [[x, y] for x, y in
                                              (self.cell(p) for p in self.unpack(code, body))]
        return cells

    def state_from_json(self, data: Any) -> State:
        """Rebuild a state from :meth:`state_to_json` output (bodies' cells, shed, holes).

        Only the shape is checked here (integers on the board, the right lengths and
        counts), not whether the state is reachable.

        :raises ValidationError: naming the field at fault (``bodies[1].cells[0]``).
        """
        issues = Issues()

        def bad(path: str, message: str) -> None:
            issues.add(path, "state", message)

        if not isinstance(data, dict):
            raise refusal("snakes state", "", "type", "a state is a JSON object")
        bodies, holes = data.get("bodies"), data.get("holes_used")
        if not isinstance(bodies, list) or len(bodies) != self.n:
            bad("bodies", f"a list of {self.n} bodies")
            bodies = []
        if not isinstance(holes, list) or len(holes) != len(self.hole_cells) or not all(
            isinstance(u, bool) for u in holes
        ):
            bad("holes_used", f"a list of {len(self.hole_cells)} booleans")
            holes = []
        codes: list[int] = []
        layers = 0
        for b, body in enumerate(bodies):
            path = field_path("bodies", b)
            cells = body.get("cells") if isinstance(body, dict) else None
            shed = body.get("shed") if isinstance(body, dict) else None
            if not isinstance(cells, list) or len(cells) not in (0, self.lengths[b]):
                bad(field_path(path, "cells"), f"a list of {self.lengths[b]} cells, or none")
                continue
            if not is_int(shed) or not 0 <= shed <= self.nlayers[b]:
                bad(field_path(path, "shed"), f"an integer in 0..{self.nlayers[b]}")
                continue
            indices: list[Cell] = []
            for j, cell in enumerate(cells):
                if not (isinstance(cell, list) and len(cell) == 2 and all(is_int(v) for v in cell)
                        and 0 <= cell[0] < self.level.cols and 0 <= cell[1] < self.level.rows):
                    bad(field_path(path, "cells", j), "a cell [x, y] on the board")
                    break
                indices.append((cell[0], cell[1]))
            else:
                codes.append(self.pack(self.nodes_of(indices)) if indices else 0)
                if indices:
                    layers |= shed << (LAYER_BITS * b)
        if issues:
            raise ValidationError(issues, "snakes state")
        used = sum(1 << i for i, u in enumerate(holes) if u)
        return (*codes, layers, used)


__all__ = [
    "DIRS",
    "ENDS",
    "REFUSALS",
    "Game",
    "IllegalStep",
    "Move",
    "State",
    "move_to_step",
    "moves_to",
    "step_to_move",
]
