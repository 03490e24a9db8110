"""How a snakes level reads to a player: the terms of spec section 5c, for one level.

Shape of the bodies (length, folded, turns), occupancy, outer colours, each body's solo cost,
the body bound, joint and steering steps, and the drags of a solution. Computed on the game's
own rules (:class:`~gridforge.snakes.game.rules.Game`); this module imports only game modules,
never the designer.

Public names:

- :func:`reading` (``level, certificate or minimum -> Reading``): every figure of a level;
  :class:`Reading` holds them.
- :func:`solo_cost` (``level, body -> Solo``): the fewest steps in which one body, alone on the
  board, takes all its layers out, by A* under a counted state budget; :class:`SoloBudget` is
  raised when the budget runs out (never a guess, never seconds).
- The single figures: :func:`is_folded`, :func:`turns`, :func:`occupancy`,
  :func:`outer_colours`, :func:`drags`.

Solo cost (5c): the body alone (every other body removed), its freeze and lock lifted, frozen
holes thawed, stones, paths and bridges kept, every hole passable as floor, and a legal step
whose moving end enters an unused hole of the body's current outer colour allowed to be an
exit (it then sheds that layer and stays where it was, or leaves with its last layer). A hole
takes one layer (section 3): a body of two layers of one colour needs two holes of it.

The A* heuristic: over the layers left, the largest distance (node graph of section 3b, walls
and stones as the rules have them) from the nearer end to the nearest unused hole of that
layer's colour, at least one, plus one step per inner layer left. Admissible: before the exit
of layer j some end must have entered a hole of its colour, and every exit is a step that
moves no end. Consistent: a step moves each end by one edge of that graph (the moving end to
its target, the far end onto the cell next to it in the body), so each distance changes by at
most one; an exit happens next to its hole (that layer's term is one, no larger than any other),
drops one layer and only removes holes. Cells painted another colour are closed to the
current layer's distance only while the body can never lie on one in that layer
(:meth:`_Solo._closed`); the later layers' distances ignore paint.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from heapq import heappop, heappush

from gridforge.errors import GridforgeError
from gridforge.grid import Cell
from gridforge.snakes.game.level import Body, Level
from gridforge.snakes.game.rules import CELL_MASK, Game, State
from gridforge.snakes.solver.matching import INF
from gridforge.snakes.solver.puzzle import travel_bound

SOLO_BUDGET = 200_000  # states one body's solo search may store by default


class SoloBudget(GridforgeError):
    """A body's solo search stored more states than its budget allowed (no answer)."""

    def __init__(self, body: int, budget: int) -> None:
        self.body = body
        self.budget = budget
        super().__init__(f"solo cost of bodies[{body}]: more than {budget} states needed")


@dataclass(frozen=True)
class Solo:
    """A body's solo cost (None: it cannot leave even alone) and the states its search
    stored."""

    cost: int | None
    states: int


@dataclass(frozen=True)
class Reading:
    """Every figure of spec section 5c for one level, bodies in the level's order.

    ``minimum`` is the proven minimum when ``proven``, else the certified lower bound;
    ``steps`` and ``drags`` are those of the certificate's solution (None without one).
    ``joint_steps`` = ``minimum`` - ``body_bound``; ``steering_steps`` = ``body_bound`` -
    ``travel_bound``. ``solo_states`` is the work of each solo search (stored states).
    """

    lengths: tuple[int, ...]
    folded: tuple[bool, ...]
    turns: tuple[int, ...]
    body_cells: int
    hole_cells: int
    floor_cells: int
    occupancy: float
    outer_colours: int
    solo_costs: tuple[int, ...]
    solo_states: tuple[int, ...]
    travel_bound: int
    body_bound: int
    minimum: int
    proven: bool
    steps: int | None
    drags: int | None
    joint_steps: int
    steering_steps: int

    @property
    def folded_count(self) -> int:
        """How many bodies are folded."""
        return sum(self.folded)


# ---------------------------------------------------------------- shape figures


def is_folded(cells: Sequence[Cell]) -> bool:
    """Whether four of the body's cells form a 2x2 square (5c "folded")."""
    own = set(cells)
    return any((x + 1, y) in own and (x, y + 1) in own and (x + 1, y + 1) in own
               for x, y in own)


def turns(cells: Sequence[Cell]) -> int:
    """The inner cells of the body's path where it changes direction (5c "turns")."""
    count = 0
    for j in range(1, len(cells) - 1):
        (ax, ay), (bx, by), (cx, cy) = cells[j - 1], cells[j], cells[j + 1]
        if (bx - ax, by - ay) != (cx - bx, cy - by):
            count += 1
    return count


def occupancy(level: Level) -> float:
    """The seed's occupancy: (initial body cells + hole cells) / floor cells (a body's cell
    listed twice, crossing itself on a bridge, counts twice, as in the design score)."""
    return (sum(len(b.cells) for b in level.bodies) + len(level.holes)) / level.floor_count


def outer_colours(level: Level) -> int:
    """How many distinct outer colours (each body's first layer) the level has."""
    return len({b.colors[0] for b in level.bodies})


def drags(solution: Sequence[Sequence[object]]) -> int:
    """Maximal runs of consecutive steps by the same end of the same body (5c "drag")."""
    count = 0
    last: tuple[object, object] | None = None
    for step in solution:
        here = (step[0], step[1])
        if here != last:
            count += 1
        last = here
    return count


# ---------------------------------------------------------------- solo cost


class _Solo:
    """One body's solo search: the body alone on a copy of the board without holes (so the
    rules make every hole floor), the level's holes kept aside as possible exits."""

    def __init__(self, level: Level, body: int) -> None:
        src = level.bodies[body]
        alone = Level(level.cols, level.rows, level.stones, (Body(src.cells, src.colors),),
                      (), paths=level.paths, bridges=level.bridges)
        self.game = Game(alone)
        self.colors = src.colors
        self.holes = level.holes
        self.hole_of = {self.game.index(h.cell): i for i, h in enumerate(level.holes)}
        self.shift = self.game.shifts[0]
        painted = {p.color for p in level.paths}
        start_paint = {self.game.paint[p] for p in self.game.unpack(self.game.initial[0], 0)}
        self.closed = tuple(self._closed(k, painted, start_paint) for k in range(len(src.colors)))
        self._dist: dict[tuple[int, int], list[int]] = {}
        self._near: dict[tuple[int, int, bool], list[int]] = {}

    def _closed(self, k: int, painted: set[int], start_paint: set[int]) -> bool:
        """Whether the body, wearing layer k, can lie only on cells its colour may enter: it
        starts on such cells, and no earlier layer of another colour could enter paint."""
        c = self.colors[k]
        if not start_paint <= {-1, c}:
            return False
        return all(e == c or e not in painted for e in self.colors[:k])

    def near(self, k: int, used: int, closed: bool) -> list[int]:
        """Distance from every node to the nearest hole of layer k's colour not in ``used``
        (INF: none reachable); paint of other colours closed when ``closed``."""
        key = (k, used, closed)
        table = self._near.get(key)
        if table is None:
            table = [INF] * self.game.nodes
            for h, hole in enumerate(self.holes):
                if hole.color == self.colors[k] and not used >> h & 1:
                    dist = self._distances(h, self.colors[k] if closed else -1)
                    table = [a if a < b else b for a, b in zip(table, dist, strict=True)]
            self._near[key] = table
        return table

    def _distances(self, h: int, color: int) -> list[int]:
        """Distances to hole h for an end of outer colour ``color`` (-1: paint ignored)."""
        key = (h, color)
        dist = self._dist.get(key)
        if dist is None:
            source = self.game.index(self.holes[h].cell)
            dist = self.game.distances_to(source, color if color >= 0 else None, INF)
            self._dist[key] = dist
        return dist

    def estimate(self, code: int, k: int, used: int) -> int:
        """The heuristic (module docstring); INF when some layer can reach no hole."""
        left = len(self.colors) - k
        if not left:
            return 0
        head, tail = code & CELL_MASK, code >> self.shift
        most = 1
        for j in range(k, len(self.colors)):
            near = self.near(j, used, j == k and self.closed[k])
            d = min(near[head], near[tail])
            if d >= INF:
                return INF
            most = max(most, d)
        return most + left - 1

    def exit_hole(self, move: int, child: State, k: int, used: int) -> int:
        """The hole (index) a legal step may exit into, or -1: its target is an unused hole
        of layer k's colour."""
        code = child[0]
        t = code >> self.shift if move & 4 else code & CELL_MASK
        h = self.hole_of.get(t, -1)
        if h < 0 or used >> h & 1 or self.holes[h].color != self.colors[k]:
            return -1
        return h

    def search(self, body: int, budget: int) -> Solo:
        """A* from the body's start; raises SoloBudget past ``budget`` stored states."""
        start = self.game.initial[0]
        h0 = self.estimate(start, 0, 0)
        if h0 >= INF:
            return Solo(None, 1)
        layers = len(self.colors)
        best: dict[tuple[int, int, int], int] = {(start, 0, 0): 0}
        occ0 = self.game.occupancy(self.game.initial)
        heap: list[tuple[int, int, int, int, int, int, int]] = [(h0, 0, 0, start, 0, 0, occ0)]
        seq = 0
        while heap:
            _, neg_g, _, code, k, used, occ = heappop(heap)
            g = -neg_g
            if k == layers:
                return Solo(g, len(best))
            if best[(code, k, used)] < g:
                continue
            for move, child, child_occ in self.game.successors((code, k, 0), occ):
                options = [(child[0], k, used, child_occ)]
                hole = self.exit_hole(move, child, k, used)
                if hole >= 0:
                    options.append((code if k + 1 < layers else 0, k + 1, used | 1 << hole, occ))
                for ncode, nk, nused, nocc in options:
                    key = (ncode, nk, nused)
                    if best.get(key, INF) <= g + 1:
                        continue
                    est = self.estimate(ncode, nk, nused)
                    if est >= INF:
                        continue
                    best[key] = g + 1
                    if len(best) > budget:
                        raise SoloBudget(body, budget)
                    seq += 1
                    heappush(heap, (g + 1 + est, -(g + 1), seq, ncode, nk, nused, nocc))
        return Solo(None, len(best))


def solo_cost(level: Level, body: int, *, budget: int = SOLO_BUDGET) -> Solo:
    """Body ``body``'s solo cost (spec 5c, module docstring), exact by A*.

    :raises SoloBudget: when the search would store more than ``budget`` states.
    """
    return _Solo(level, body).search(body, budget)


# ---------------------------------------------------------------- the whole reading


def _claim(certificate: Mapping[str, object] | int
           ) -> tuple[int, bool, int | None, int | None]:
    """(minimum or certified lower bound, proven, solution steps, drags) of a claim."""
    if isinstance(certificate, int) and not isinstance(certificate, bool):
        return certificate, True, None, None
    if not isinstance(certificate, Mapping):
        raise GridforgeError("a reading needs a certificate or a proven minimum")
    proven = certificate.get("optimal") is True
    value = certificate.get("minimum" if proven else "lower_bound")
    if not isinstance(value, int) or isinstance(value, bool):
        raise GridforgeError("the certificate states neither a minimum nor a lower bound")
    solution = certificate.get("solution")
    if not isinstance(solution, list):
        return value, proven, None, None
    return value, proven, len(solution), drags(solution)


def reading(level: Level, certificate: Mapping[str, object] | int, *,
            budget: int = SOLO_BUDGET) -> Reading:
    """Every 5c figure of ``level``. ``certificate`` is its certificate (``minimum`` when
    ``optimal``, else ``lower_bound``; the solution gives steps and drags) or a proven
    minimum as an int.

    :raises SoloBudget: when a body's solo search needs more than ``budget`` states.
    :raises GridforgeError: when the certificate states no minimum nor lower bound, or a
        body cannot leave even alone (the level is unsolvable).
    """
    minimum, proven, steps, drag_count = _claim(certificate)
    solos = [solo_cost(level, b, budget=budget) for b in range(len(level.bodies))]
    costs: list[int] = []
    for b, solo in enumerate(solos):
        if solo.cost is None:
            raise GridforgeError(f"bodies[{b}] cannot leave the board even alone")
        costs.append(solo.cost)
    travel = travel_bound(Game(level))
    body_bound = max(travel, sum(costs))
    return Reading(
        lengths=tuple(len(b.cells) for b in level.bodies),
        folded=tuple(is_folded(b.cells) for b in level.bodies),
        turns=tuple(turns(b.cells) for b in level.bodies),
        body_cells=sum(len(b.cells) for b in level.bodies),
        hole_cells=len(level.holes),
        floor_cells=level.floor_count,
        occupancy=occupancy(level),
        outer_colours=outer_colours(level),
        solo_costs=tuple(costs),
        solo_states=tuple(s.states for s in solos),
        travel_bound=travel,
        body_bound=body_bound,
        minimum=minimum,
        proven=proven,
        steps=steps,
        drags=drag_count,
        joint_steps=minimum - body_bound,
        steering_steps=body_bound - travel,
    )


__all__ = [
    "SOLO_BUDGET",
    "Reading",
    "Solo",
    "SoloBudget",
    "drags",
    "is_folded",
    "occupancy",
    "outer_colours",
    "reading",
    "solo_cost",
    "turns",
]
