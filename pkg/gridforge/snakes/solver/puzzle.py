"""What makes a level a puzzle (spec section 5b), decided on the game's own rules.

Game-side analyses the designer builds its lesson predicates on (this module imports only
the game modules, never the designer):

- :func:`serial`: exact decision of "solved one body at a time": is there an order of the
  bodies in which each, moving alone (every other remaining body untouched at its start
  cells, mechanics as the rules say), takes all its layers out?
- :func:`travel_bound` and :func:`interaction_steps`: the travel bound at the start and the
  steps of a solution beyond it.
- :func:`restricted_optimum`: the fewest steps using only allowed moves (lesson predicates
  such as "no solution moves heads only").
- :func:`exit_orders`: which orders of the bodies' complete exits some solution realises
  (lesson "order matters": some order fails).
- :func:`relaxations` and :func:`witness`: "a mechanic binds": the level with one mechanic
  instance removed, and a solution of it no longer than a limit that the real rules refuse.

Every search is deterministic and counts its work in stored states against a budget; when
the budget runs out the answer is ``"budget"`` (undecided), never a guess.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from heapq import heappop, heappush
from typing import Any

from gridforge.errors import ValidationError
from gridforge.snakes.game.level import Level, level_from_json
from gridforge.snakes.game.rules import BITS, CELL_MASK, Game, Move, State, move_to_step, moves_to
from gridforge.snakes.solver.matching import INF
from gridforge.snakes.solver.search import Solver, bfs_optimum

SERIAL = "serial"
GREEDY_PROBE = 2_000  # states one body's search may store in the greedy pass of serial()
NOT_SERIAL = "not_serial"
BUDGET = "budget"


class _Budget(Exception):
    """The state budget ran out (internal: turned into status ``"budget"``)."""


@dataclass(frozen=True)
class SerialResult:
    """The answer of :func:`serial`.

    ``status``: ``"serial"`` (``order`` and ``moves`` hold a serial solution),
    ``"not_serial"`` (proven: no order works) or ``"budget"`` (undecided). ``order`` is the
    body order found; ``moves`` the full solution, each body's single-body path in turn, each
    a shortest path of that body from where it stands to the outcome (used holes) the order
    continues from. ``work`` counts the states stored over all single-body searches.
    """

    status: str
    order: tuple[int, ...] | None
    moves: list[Move] | None
    work: int


class _Serial:
    """The search of :func:`serial`: a DFS over (bodies gone, holes used) whose edges are
    single-body BFS runs; dead combinations are remembered."""

    def __init__(self, game: Game, max_states: int) -> None:
        self.game = game
        self.max_states = max_states
        self.work = 0
        self.dead: set[tuple[int, int]] = set()
        n = game.n
        self.everyone = (1 << n) - 1
        self.start_occ = [0] * n  # each body's start cells as an occupancy bit set
        for b in range(n):
            for p in game.unpack(game.initial[b], b):
                self.start_occ[b] |= 1 << p
        self.key_masks = [sum(1 << k for k in game.carriers[b]) for b in range(n)]
        self.floor = sum(1 << p for p in range(game.size) if game.floor[p])

    def movable(self, b: int, gone: int, used: int) -> bool:
        """Whether body b can move at all on its turn (the thresholds only grow while it
        moves alone, and its key carriers cannot leave during its turn)."""
        g = self.game
        return g.frozen[b] <= used.bit_count() and self.key_masks[b] & ~gone == 0

    def may_leave(self, b: int, gone: int, used: int) -> bool:
        """A quick necessary condition of :meth:`outcomes` yielding anything: a flood of the
        free cells (its own cells passable, the other remaining bodies, stones and unused holes
        blocking) from body b's ends touches an unused hole of its outer colour that is open
        now (its own first exit must come before any threshold it could raise)."""
        g = self.game
        w = g.width
        others = self._others(b, gone)
        unused = g.unused_holes(used)
        # A flood of cells, not lanes: a bridge stays passable (one lane may be free), and a
        # vertical lane's node (past the board's cells) never blocks; paint is ignored. All
        # of it only widens the flood, so the condition stays necessary.
        free = self.floor & ~(others & ~g.bridge_mask) & ~unused
        color = g.colors[b][0]
        exited = used.bit_count()
        targets = 0
        for h, p in enumerate(g.hole_cells):
            if not used >> h & 1 and g.hole_color[h] == color and g.hole_frozen[h] <= exited:
                targets |= 1 << p
        if not targets:
            return False
        code = g.initial[b]
        region = 1 << g.real[code & CELL_MASK] | 1 << g.real[code >> g.shifts[b]]
        while True:
            grown = region | ((region << 1 | region >> 1 | region << w | region >> w) & free)
            if (region << 1 | region >> 1 | region << w | region >> w) & targets:
                return True
            if grown == region:
                return False
            region = grown

    def outcomes(self, b: int, gone: int, used: int) -> Iterator[tuple[int, list[Move]]]:
        """Every distinct used-holes set with which body b, moving alone from its start
        cells, leaves the board, each with a shortest path to it (shortest first).

        A generator: the BFS runs on only as far as the caller asks, so a serial order is
        often found long before the first body's search space is exhausted.

        Obstacles: the start cells of the remaining bodies other than b. The expansion
        is the rules' step (:meth:`Game.advance`) restricted to one body, inlined for speed
        (``tests/snakes/test_step_rule.py`` holds the two equal); the state is one int:
        cells, then layers shed, then used holes.
        """
        g = self.game
        others = self._others(b, gone)
        length = g.lengths[b]
        shift = g.shifts[b]
        cmask = g.code_masks[b]
        colors = g.colors[b]
        nlayers = g.nlayers[b]
        nbb_color, bit = g.nbb_color, g.bit  # per outer colour (one table without paint)
        hole_at, hole_color, hole_frozen = g.hole_at, g.hole_color, g.hole_frozen
        sh_shed = BITS * length
        sh_used = sh_shed + 3
        code0 = g.initial[b]
        key0 = code0 | used << sh_used
        # parent[key] = (parent key, move); -1 marks the start.
        parent: dict[int, tuple[int, int]] = {key0: (-1, 0)}
        found: set[int] = set()  # the used sets seen on leaving
        possible = self._possible(b, used)
        frontier = [(key0, self.start_occ[b])]
        # States stored and not yet counted in self.work, and the room the budget leaves.
        stored = 1
        room = self.max_states - self.work
        while frontier:
            nxt: list[tuple[int, int]] = []
            for key, own in frontier:
                code = key & cmask
                shed = (key >> sh_shed) & 7
                kused = key >> sh_used
                exited = kused.bit_count()
                unused = g.unused_holes(kused)
                occ = others | own
                head = code & CELL_MASK
                tail = code >> shift
                color = colors[shed]
                nbb = nbb_color[color]
                rest = shed << sh_shed | kused << sh_used  # a slide keeps layers and holes
                for end, here, far in ((0, head, tail), (4, tail, head)):
                    far_bit = bit[far]
                    for d, t, bt in nbb[here]:
                        move = b << 3 | end | d
                        if occ & bt:
                            if t != far or length < 3:
                                continue
                            new_own = own
                            child = rest | ((code >> BITS) | (t << shift) if end
                                            else ((code << BITS) | t) & cmask)
                        elif unused & bt:
                            h = hole_at[t]
                            if hole_color[h] != color or hole_frozen[h] > exited:
                                continue
                            new_used = kused | 1 << h
                            if shed + 1 >= nlayers:  # its last layer: the body leaves
                                if new_used not in found:
                                    found.add(new_used)
                                    # Count what is stored so far: nested searches run now.
                                    self.work += stored
                                    stored = 0
                                    yield new_used, self._path(parent, key, move)
                                    if len(found) >= possible:
                                        return
                                    room = self.max_states - self.work
                                continue
                            new_own = own
                            child = code | (shed + 1) << sh_shed | new_used << sh_used
                        else:
                            new_own = own ^ bt ^ far_bit
                            child = rest | ((code >> BITS) | (t << shift) if end
                                            else ((code << BITS) | t) & cmask)
                        if child not in parent:
                            if stored >= room:
                                self._spend(stored + 1)
                            stored += 1
                            parent[child] = (key, move)
                            nxt.append((child, new_own))
            frontier = nxt
        self.work += stored

    def _others(self, b: int, gone: int) -> int:
        """The start cells of the bodies other than b not yet gone, as an occupancy."""
        others = 0
        for o in range(self.game.n):
            if o != b and not gone >> o & 1:
                others |= self.start_occ[o]
        return others

    def _possible(self, b: int, used: int) -> int:
        """At most this many used sets can come out of :meth:`outcomes` (a hole of each
        layer's colour for each layer): once all have, the rest of the space holds no new
        outcome."""
        g = self.game
        unused_now = g.unused_holes(used)
        possible = 1
        for color in g.colors[b]:
            possible *= sum(1 for h, p in enumerate(g.hole_cells)
                            if unused_now >> p & 1 and g.hole_color[h] == color)
        return possible

    @staticmethod
    def _path(parent: dict[int, tuple[int, int]], key: int, move: Move) -> list[Move]:
        """The moves from the start to ``key``, then ``move``."""
        path = [move]
        while True:
            key, move = parent[key]
            if key < 0:
                break
            path.append(move)
        path.reverse()
        return path

    def _spend(self, states: int) -> None:
        """Count ``states`` more; raise _Budget once the work passes the budget."""
        self.work += states
        if self.work > self.max_states:
            raise _Budget

    def search(self, gone: int, used: int) -> list[tuple[int, list[Move]]] | None:
        """A serial completion from (gone, used) as [(body, path)], or None."""
        if gone == self.everyone:
            return [] if used == self.game.all_used else None
        if (gone, used) in self.dead:
            return None
        for b in range(self.game.n):
            if gone >> b & 1 or not self.movable(b, gone, used) or not self.may_leave(b, gone,
                                                                                   used):
                continue
            for new_used, path in self.outcomes(b, gone, used):
                rest = self.search(gone | 1 << b, new_used)
                if rest is not None:
                    return [(b, path), *rest]
        self.dead.add((gone, used))
        return None

    def greedy(self, probe: int) -> list[tuple[int, list[Move]]] | None:
        """A serial completion found greedily, or None: again and again, the first body
        whose single-body search yields a way out within ``probe`` states leaves by the
        first (shortest) one. Cheap where the exact search is dear: it never explores a
        body's whole space to learn that it cannot leave. Its work counts against the
        budget like the exact search's."""
        g = self.game
        gone, used = 0, g.initial[g.n + 1]
        found: list[tuple[int, list[Move]]] = []
        while gone != self.everyone:
            for b in range(g.n):
                if gone >> b & 1 or not self.movable(b, gone, used) or not self.may_leave(
                        b, gone, used):
                    continue
                trial = _Serial(g, min(probe, self.max_states - self.work))
                try:
                    new_used, path = next(trial.outcomes(b, gone, used))
                except (StopIteration, _Budget):
                    self._spend(trial.work)
                    continue
                self._spend(trial.work)
                found.append((b, path))
                gone, used = gone | 1 << b, new_used
                break
            else:
                return None
        return found if used == g.all_used else None


def serial(game: Game, *, max_states: int = 200_000) -> SerialResult:
    """Decide spec 5b's "solved one body at a time" exactly (within ``max_states``).

    Between bodies only the set of bodies gone and the set of holes used carry over, so
    the search is a DFS over those pairs; each edge is one body's exhaustive BFS over its
    own states (cells, layers shed, holes used) with the other remaining bodies as fixed
    obstacles, yielding every used-holes outcome with which that body leaves completely.
    A serial solution also completes the level (every hole used).
    """
    s = _Serial(game, max_states)
    try:
        # Most levels that are serial show it to a greedy pass at once; the exact DFS decides
        # the rest (its proof of "not serial" must see every order).
        found = s.greedy(GREEDY_PROBE) or s.search(0, game.initial[game.n + 1])
    except _Budget:
        return SerialResult(BUDGET, None, None, s.work)
    if found is None:
        return SerialResult(NOT_SERIAL, None, None, s.work)
    moves = [m for _, path in found for m in path]
    return SerialResult(SERIAL, tuple(b for b, _ in found), moves, s.work)


def travel_bound(game: Game) -> int:
    """The travel bound of spec 5b at the start (the section 5 lower bound)."""
    return Solver(game).bound(game.initial)


def interaction_steps(game: Game, steps: int) -> int:
    """Interaction steps of a solution of ``steps`` steps: steps minus the travel bound."""
    return steps - travel_bound(game)


# ---------------------------------------------------------------- restricted searches


def restricted_optimum(
    game: Game, allowed: Callable[[Move], bool], *, max_states: int
) -> int | str | None:
    """Fewest steps to completion using only moves for which ``allowed`` holds, by
    exhaustive BFS over full states: an int, None (impossible), or ``"budget"`` when more
    than ``max_states`` states would be stored."""
    try:
        return bfs_optimum(game, max_states, allowed)
    except OverflowError:
        return BUDGET


@dataclass(frozen=True)
class ExitOrders:
    """The answer of :func:`exit_orders`.

    ``feasible``: the orders (body indices, first to finish first) in which the bodies can
    finish exiting in some full solution (any interleaving of moves); None when the budget
    ran out (``status`` ``"budget"``, else ``"done"``). ``total``: the number of orders
    (n!). ``work``: states stored.
    """

    status: str
    feasible: frozenset[tuple[int, ...]] | None
    total: int
    work: int

    @property
    def some_order_fails(self) -> bool | None:
        """Whether some finishing order is impossible (None: undecided)."""
        return None if self.feasible is None else len(self.feasible) < self.total


def exit_orders(game: Game, *, max_states: int = 200_000) -> ExitOrders:
    """The feasible finishing orders of the bodies (small levels only; counted budget).

    Exact without storing an order per state: slides keep the used holes and every gate
    unchanged and are reversible, so the states joined by slides form undirected
    components, and exits (which add a used hole) lead from one component to another
    with more used holes: a DAG. The feasible order suffixes of a component are the union
    over its exits, a finishing exit putting its body first. ``work``: states stored.
    """
    n = game.n
    total = math.factorial(n)
    comp_of: dict[State, int] = {}
    exits: list[list[tuple[int, State]]] = []  # per component: (body finished or -1, child)
    level_of: list[int] = []  # per component: the number of used holes
    complete: list[bool] = []
    seeds = [game.initial]
    while seeds:
        seed = seeds.pop()
        if seed in comp_of:
            continue
        c = len(exits)
        exits.append([])
        level_of.append(seed[n + 1].bit_count())
        complete.append(game.is_complete(seed))
        comp_of[seed] = c
        queue = [(seed, game.occupancy(seed))]
        while queue:
            state, occ = queue.pop()
            for move, child, cocc in game.successors(state, occ):
                if child[n + 1] != state[n + 1]:
                    b = move >> 3
                    exits[c].append((b if not child[b] else -1, child))
                    if child not in comp_of:
                        seeds.append(child)
                    continue
                if child in comp_of:
                    continue  # a slide reached from this component: already in it
                if len(comp_of) >= max_states:
                    return ExitOrders(BUDGET, None, total, len(comp_of))
                comp_of[child] = c
                queue.append((child, cocc))
        if len(comp_of) > max_states:
            return ExitOrders(BUDGET, None, total, len(comp_of))
    suffixes: list[frozenset[tuple[int, ...]]] = [frozenset()] * len(exits)
    for c in sorted(range(len(exits)), key=lambda k: -level_of[k]):
        if complete[c]:
            suffixes[c] = frozenset({()})
            continue
        out: set[tuple[int, ...]] = set()
        for b, child in exits[c]:
            rest = suffixes[comp_of[child]]
            out.update(rest if b < 0 else ((b, *x) for x in rest))
        suffixes[c] = frozenset(out)
    return ExitOrders("done", suffixes[0], total, len(comp_of))


# ---------------------------------------------------------------- a mechanic binds


def relaxations(level: Level) -> list[tuple[str, Level]]:
    """One entry per mechanic instance: its name and the level with just it removed.

    Names: ``bodies[i].frozen``, ``holes[j].frozen``, ``bodies[i].lock`` (removing a lock
    also drops the keys for it, so the relaxed level stays valid), and ``paths[k]`` for each
    painted cell of a coloured path (spec section 3b; the level with that cell unpainted).
    Bridges are no relaxation: without one a level is another board (a body crossing
    itself there would not even be a level); a bridge is judged by whether the certificate
    crosses it (:func:`crossed_bridges`).
    """
    out: list[tuple[str, Level]] = []
    bodies = level.bodies
    for i, body in enumerate(bodies):
        if body.frozen:
            relaxed = (*bodies[:i], replace(body, frozen=0), *bodies[i + 1 :])
            out.append((f"bodies[{i}].frozen", replace(level, bodies=relaxed)))
    for j, hole in enumerate(level.holes):
        if hole.frozen:
            holes = (*level.holes[:j], replace(hole, frozen=0), *level.holes[j + 1 :])
            out.append((f"holes[{j}].frozen", replace(level, holes=holes)))
    for i, body in enumerate(bodies):
        if body.lock is not None:
            lock_id = body.lock.id
            relaxed = tuple(
                replace(b, lock=None) if k == i
                else replace(b, key=None) if b.key == lock_id
                else b
                for k, b in enumerate(bodies)
            )
            out.append((f"bodies[{i}].lock", replace(level, bodies=relaxed)))
    for k in range(len(level.paths)):
        out.append((f"paths[{k}]", replace(level, paths=level.paths[:k] + level.paths[k + 1:])))
    return out


def crossed_bridges(game: Game, states: Iterable[State]) -> list[int]:
    """The bridges (indices into ``level.bridges``) that a solution *crosses*: at one of its
    ``states`` (the start included), both lanes of the bridge hold a body's cell (two bodies
    passing each other there, or one body crossing itself). Without the bridge such a
    position is no position at all, so the solution needs it."""
    size = game.size
    lanes = [(game.real[size + k], size + k) for k in range(game.nodes - size)]
    crossed: set[int] = set()
    for state in states if lanes else ():
        occ = game.occupancy(state)
        crossed.update(k for k, (horizontal, vertical) in enumerate(lanes)
                       if occ >> horizontal & 1 and occ >> vertical & 1)
    return sorted(crossed)


def _proven_minimum(level: Level, max_states: int, upper: int | None = None) -> int | None:
    """The proven minimum of ``level`` by exact A* within ``max_states`` (None: unproven, or
    unsolvable); with ``upper``, only whether one of at most ``upper`` steps exists: the
    minimum if so, ``upper + 1`` when the search proved none exists."""
    found = Solver(Game(level)).astar(max_states=max_states, max_seconds=math.inf,
                                      upper=None if upper is None else upper + 1)
    if found.status == "solved" and found.optimal and found.moves is not None:
        return len(found.moves)
    if upper is not None and found.status in ("exhausted_below_upper", "unsolvable"):
        return upper + 1
    return None


def path_costs_steps(level: Level, k: int, *, max_states: int = 200_000) -> bool:
    """The coloured-path lesson's predicate: the level without painted cell ``k`` is solved
    in fewer steps than the level, both minima proven within ``max_states``."""
    with_path = _proven_minimum(level, max_states)
    if with_path is None:
        return False
    without = replace(level, paths=level.paths[:k] + level.paths[k + 1:])
    shorter = _proven_minimum(without, max_states, upper=with_path - 1)
    return shorter is not None and shorter < with_path


def bridge_needed(level: Level, k: int, moves: Sequence[Move], *,
                  max_states: int = 200_000) -> bool:
    """The bridge lesson's predicate: the solution ``moves`` crosses bridge ``k``
    (:func:`crossed_bridges`) and the level without that bridge needs more steps (proven:
    no solution of at most ``len(moves)`` steps within ``max_states``; a start that holds
    two cells on the bridge is no level without it at all)."""
    game = Game(level)
    states = [game.initial]
    for move in moves:
        states.append(game.apply(states[-1], move))
    if not game.is_complete(states[-1]) or k not in crossed_bridges(game, states):
        return False
    data = level.to_json(with_meta=False)
    data["bridges"] = [list(c) for j, c in enumerate(level.bridges) if j != k]
    try:
        without = level_from_json(data)
    except ValidationError:
        return True  # the start itself needs the bridge
    return _proven_minimum(without, max_states, upper=len(moves)) == len(moves) + 1


def _refused(real: Game, state: State, move: Move, child: State) -> bool:
    """Whether the real rules refuse ``move`` from ``state`` where the relaxed rules (same
    board, fewer mechanics) allow it and lead to ``child``: only the gates can differ."""
    n = real.n
    b = move >> 3
    used = state[n + 1]
    exited = used.bit_count()
    if real.frozen[b] > exited:
        return True
    if any(state[k] for k in real.carriers[b]):
        return True
    new = child[n + 1] & ~used
    if new and real.hole_frozen[new.bit_length() - 1] > exited:
        return True
    # A painted cell (a coloured path's relaxation): the states of both games are alike.
    return real.has_paint and real.advance(state, move) is None


def witness(
    level: Level, relaxed: Level, limit: int, *, max_states: int = 20_000,
    solution: list[Move] | None = None,
) -> list[list[Any]] | None:
    """A solution (JSON steps) of ``relaxed`` with at most ``limit`` steps that the real
    rules of ``level`` refuse, or None (none exists, or none was found within the budget).

    Given a ``solution`` of the real level, first its reorderings (:func:`reordered`): one
    body's moves, as a block, earlier. Then the relaxed level's optimum by A* (pruned above
    ``limit``): often it is refused already. Otherwise an A* over relaxed states flagged with
    "a step so far was refused by the real rules" that accepts only flagged goals. Each
    search stores at most ``max_states`` states. Until the first refused step both rules
    give the same states, so a flagged path is exactly one the real replay refuses.
    """
    real = Game(level)
    game = Game(relaxed)
    if solution is not None and len(solution) <= limit:
        found = reordered(real, game, solution)
        if found is not None:
            return found
    solver = Solver(game)
    first = solver.astar(max_states=max_states, max_seconds=math.inf, upper=limit + 1)
    if first.moves is not None and len(first.moves) <= limit:
        if _refuses_solution(real, first.moves):
            return [move_to_step(m) for m in first.moves]
    elif first.status != "budget":
        return None  # exhausted: the relaxed level has no solution within the limit
    return _flagged_search(real, game, solver, limit, max_states)


def _gated(real: Game, game: Game) -> list[int]:
    """The bodies whose steps the real rules gate and the relaxed ones do not (a frozen or
    locked body), or, for a frozen hole, every body of the hole's colour."""
    out = [b for b in range(real.n)
           if real.frozen[b] != game.frozen[b] or real.carriers[b] != game.carriers[b]]
    for h, frozen in enumerate(real.hole_frozen):
        if frozen != game.hole_frozen[h]:
            out += [b for b in range(real.n)
                    if b not in out and real.hole_color[h] in real.colors[b]]
    return out


def reordered(real: Game, game: Game, solution: list[Move]) -> list[list[Any]] | None:
    """The first solution of the relaxed ``game`` made from ``solution`` by moving steps of
    one gated body (:func:`_gated`) to an earlier point, latest point first, that the real
    rules refuse: all its steps as a block, or its first run of steps alone. As long as the
    given one, found by replays alone (no search)."""
    for body, whole in itertools.product(_gated(real, game), (True, False)):
        first = next(i for i, m in enumerate(solution) if m >> 3 == body)
        end = first
        while end < len(solution) and solution[end] >> 3 == body:
            end += 1
        if whole:
            own = [m for m in solution if m >> 3 == body]
            rest = [m for m in solution if m >> 3 != body]
        else:
            own, rest = solution[first:end], solution[:first] + solution[end:]
            if len(own) == sum(1 for m in solution if m >> 3 == body):
                continue  # one run: the block already tried it
        prefix = [game.initial]  # the relaxed states along ``rest``, as far as it is legal
        for move in rest[:first]:
            child = game.advance(prefix[-1], move)
            if child is None:
                break
            prefix.append(child)
        for p in range(min(first, len(prefix) - 1), -1, -1):
            candidate = rest[:p] + own + rest[p:]
            end_state = _replayed(game, prefix[p], candidate[p:])
            if (end_state is not None and game.is_complete(end_state)
                    and _refuses_solution(real, candidate)):
                return [move_to_step(m) for m in candidate]
    return None


def _replayed(game: Game, state: State, moves: Sequence[Move]) -> State | None:
    """The state after ``moves`` from ``state``, or None when ``game`` refuses one."""
    for move in moves:
        child = game.advance(state, move)
        if child is None:
            return None
        state = child
    return state


def _refuses_solution(real: Game, moves: Sequence[Move]) -> bool:
    """Whether the real rules refuse ``moves`` (a step is illegal, or they do not complete)."""
    state = _replayed(real, real.initial, moves)
    return state is None or not real.is_complete(state)


def _flagged_search(
    real: Game, game: Game, solver: Solver, limit: int, max_states: int
) -> list[list[Any]] | None:
    """The shortest relaxed solution within ``limit`` with a step the real rules refuse."""
    start = game.initial
    h0 = solver.bound(start)
    if h0 > limit:
        return None
    # Key: (state, flag); parent[key] = (parent key, move); g per key.
    start_key = (start, False)
    parent: dict[tuple[State, bool], tuple[tuple[State, bool], Move] | None] = {start_key: None}
    best = {start_key: 0}
    bounds: dict[State, int] = {start: h0}
    occs = {start: game.occupancy(start)}
    heap: list[tuple[int, int, int, tuple[State, bool]]] = [(h0, 0, 0, start_key)]
    counter = 1  # a FIFO tie-break: deterministic, never compares states
    while heap:
        _, neg_g, _, key = heappop(heap)
        g = -neg_g
        if best[key] < g:
            continue
        state, flag = key
        if flag and game.is_complete(state):
            return [move_to_step(m) for m in moves_to(parent, key)]
        for move, child, cocc in game.successors(state, occs[state]):
            h = bounds.get(child)
            if h is None:
                h = solver.bound(child)
                bounds[child] = h
                occs[child] = cocc
            if h >= INF or g + 1 + h > limit:
                continue
            ckey = (child, flag or _refused(real, state, move, child))
            if best.get(ckey, limit + 1) <= g + 1:
                continue
            if len(best) >= max_states:
                return None
            best[ckey] = g + 1
            parent[ckey] = (key, move)
            heappush(heap, (g + 1 + h, -(g + 1), counter, ckey))
            counter += 1
    return None


__all__ = [
    "BUDGET",
    "NOT_SERIAL",
    "SERIAL",
    "ExitOrders",
    "SerialResult",
    "bridge_needed",
    "crossed_bridges",
    "exit_orders",
    "interaction_steps",
    "path_costs_steps",
    "relaxations",
    "reordered",
    "restricted_optimum",
    "serial",
    "travel_bound",
    "witness",
]
