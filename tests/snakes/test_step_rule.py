"""One step rule (spec sections 3, 3b and 4), many fast copies: every copy against the kernel.

The kernel is :meth:`Game.advance <gridforge.snakes.game.rules.Game.advance>`: the state after one
move, or None when the rules refuse it (head- or tail-first, into free cells or the body's own
far end, an exit into an unused, unfrozen hole of the outer colour, paint, bridge lanes, coats,
freezes, keys and locks). ``tests/snakes/test_terrain.py`` holds the kernel itself to an
independent oracle written from the spec. The searches carry their own copies of the rule,
written for speed; each is compared here with the kernel over random positions (random levels
with terrain, coats, freezes and locks, walked at random by the kernel), and any difference in
the legal steps, their resulting positions or their exits fails:

- :meth:`Game.successors` (the searches' expansion) and :meth:`Game.refusal` (the reasons the
  page shows);
- ``puzzle._Serial.outcomes`` (one body moving alone, the others standing at their starts);
- ``pairs._Relaxed.children`` (the pairwise bound's relaxed game: other bodies removed,
  freezes and locks lifted, holes floor for travel);
- ``search.Solver`` expansion (``_records`` and ``_expand``, through :meth:`Solver.expand`);
- ``design.backward.Unsolver.slides`` (backward play's slides are the forward slides: the body
  ends on the same cells).

Each comparison is a function returning the differences it found, so that the last tests can
break a copy on purpose and see the comparison catch it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from gridforge.snakes.design.backward import Plan, Unsolver, unsolve
from gridforge.snakes.design.templates import make_shape
from gridforge.snakes.game import rules
from gridforge.snakes.game.level import Level, level_from_json
from gridforge.snakes.game.rules import Game, Move, State, move_to_step
from gridforge.snakes.solver import pairs
from gridforge.snakes.solver.matching import INF
from gridforge.snakes.solver.puzzle import _Budget, _Serial
from gridforge.snakes.solver.search import Solver
from gridforge.snakes.solver.selfcheck import FEATURES, TERRAIN_FEATURES, random_level
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .terrain_oracle import small_terrain_levels

WALK = 30  # steps of a random walk (each position on it is compared)
ALL_FEATURES = FEATURES + TERRAIN_FEATURES
SERIAL_STATES = 200_000  # far above any single-body space of these small levels
RELAXED_NODES = 60  # relaxed nodes compared per part (a BFS from the part's start)


# ------------------------------------------------------------------ the kernel


def kernel_children(game: Game, state: State) -> list[tuple[Move, State]]:
    """Every legal move of ``state`` with its child, in move order, by the kernel alone."""
    out = []
    for move in range(8 * game.n):
        child = game.advance(state, move)
        if child is not None:
            out.append((move, child))
    return out


def _is_exit(game: Game, state: State, child: State) -> bool:
    return child[game.n + 1] != state[game.n + 1]


# ------------------------------------------------------------------ random positions


@st.composite
def levels(draw: st.DrawFn) -> dict[str, Any]:
    """A small level with terrain and at most one mechanic (the oracle's strategy), or a
    selfcheck random level (small or medium) with a random mix of coats, freezes, locks,
    paint and bridges."""
    if draw(st.booleans()):
        return draw(small_terrain_levels())
    features = tuple(f for f in ALL_FEATURES if draw(st.booleans()))
    shape = draw(st.sampled_from(["small", "small", "medium"]))
    return random_level(draw(st.integers(0, 10**6)), features, shape)


@st.composite
def positions(draw: st.DrawFn) -> tuple[Game, list[State]]:
    """A level's game and the states of a random walk from its start, played by the kernel
    (exits taken half the time they are offered, so that holes get used, coats shed, bodies
    leave and freezes and locks open along the way)."""
    game = Game(level_from_json(draw(levels())))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    states = [game.initial]
    for _ in range(draw(st.integers(0, WALK))):
        state = states[-1]
        children = [c for _, c in kernel_children(game, state)]
        if not children:
            break
        exits = [c for c in children if _is_exit(game, state, c)]
        states.append(rng.choice(exits if exits and rng.random() < 0.5 else children))
    return game, states


PROPERTY = settings(max_examples=60, suppress_health_check=list(HealthCheck))


# ------------------------------------------------------------------ rules.py's own copies


def successors_differences(game: Game, state: State) -> list[str]:
    """Where :meth:`Game.successors` differs from the kernel (moves, children, order, and the
    child occupancies it carries along)."""
    ours = game.successors(state, game.occupancy(state))
    want = kernel_children(game, state)
    diffs = []
    if [(m, c) for m, c, _ in ours] != want:
        diffs.append(f"successors {[(m, c) for m, c, _ in ours]} != kernel {want}")
    diffs += [f"move {m}: occupancy {occ} != {game.occupancy(c)}"
              for m, c, occ in ours if occ != game.occupancy(c)]
    return diffs


def refusal_differences(game: Game, state: State) -> list[str]:
    """Where :meth:`Game.refusal` (and so :meth:`Game.apply` and the drag) disagrees with the
    kernel on whether a move is legal (a body index past the last included)."""
    diffs = []
    for move in range(8 * game.n + 8):
        legal = game.advance(state, move) is not None
        reason = game.refusal(state, move)
        if (reason is None) != legal:
            diffs.append(f"move {move_to_step(move)}: refusal {reason!r}, kernel legal {legal}")
    return diffs


@PROPERTY
@given(positions())
def test_successors_and_refusal_agree_with_the_kernel(position):
    game, states = position
    for state in states:
        assert successors_differences(game, state) == []
        assert refusal_differences(game, state) == []


# ------------------------------------------------------------------ puzzle: one body alone


def _alone_start(game: Game, gone: int, used: int) -> State:
    """The position ``outcomes`` searches from: every remaining body at its start cells with
    no layer shed, the gone ones off the board, ``used`` holes used."""
    n = game.n
    codes = [0 if gone >> b & 1 else game.initial[b] for b in range(n)]
    return (*codes, 0, used)


def kernel_outcomes(game: Game, start: State, b: int) -> tuple[dict[int, int], int]:
    """Each used-holes set with which body b, moving alone from ``start`` by the kernel,
    leaves the board, with the fewest steps to it (a BFS); and the number of positions with
    b on the board that the BFS reached (the start included)."""
    n = game.n
    seen = {start}
    frontier = [start]
    out: dict[int, int] = {}
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for state in frontier:
            for d in range(8):
                child = game.advance(state, b << 3 | d)
                if child is None or child in seen:
                    continue
                seen.add(child)
                if child[b]:
                    nxt.append(child)
                else:
                    out.setdefault(child[n + 1], depth)
        frontier = nxt
    return out, sum(1 for state in seen if state[b])


def outcomes_differences(game: Game, gone: int, used: int) -> list[str]:
    """Where ``_Serial.outcomes`` (and ``movable``) differs from the kernel, for each body
    still on the board: the ways out, their lengths, each path replayed by the kernel, and
    the positions it stores (a budget of exactly the kernel's positions must do: a copy that
    stores positions the rules never reach runs out of it, even when its answers agree)."""
    serial = _Serial(game, SERIAL_STATES)
    start = _alone_start(game, gone, used)
    diffs = []
    for b in range(game.n):
        if gone >> b & 1:
            continue
        want, space = kernel_outcomes(game, start, b)
        if not serial.movable(b, gone, used):
            if any(game.advance(start, b << 3 | d) is not None for d in range(8)):
                diffs.append(f"body {b}: not movable, but the kernel moves it")
            continue
        got: dict[int, int] = {}
        for new_used, path in serial.outcomes(b, gone, used):
            got[new_used] = len(path)
            state: State | None = start
            for move in path:
                state = None if state is None else game.advance(state, move)
            if state is None or state[b] or state[game.n + 1] != new_used:
                diffs.append(f"body {b}: path {path} does not leave with {new_used:b}")
        if got != want:
            diffs.append(f"body {b}: outcomes {got} != kernel {want}")
        try:
            list(_Serial(game, space).outcomes(b, gone, used))  # every outcome, counted
        except _Budget:
            diffs.append(f"body {b}: more positions stored than the kernel's {space}")
    return diffs


@PROPERTY
@given(positions(), st.data())
def test_single_body_outcomes_agree_with_the_kernel(position, data):
    game, states = position
    state = data.draw(st.sampled_from(states))
    n = game.n
    gone = sum(1 << b for b in range(n) if not state[b])
    assert outcomes_differences(game, gone, state[n + 1]) == []


# ------------------------------------------------------------------ pairs: the relaxed game


class RelaxedKernel:
    """The relaxed game of ``members`` (one or two bodies on the board in ``state``) told by
    the kernel: the members alone on the board, freezes and locks lifted; a slide is the
    kernel's step on the board without holes, an exit the kernel's exit on the board with
    the holes used in ``state`` or by the part used, into a free cell."""

    def __init__(self, game: Game, state: State, members: tuple[int, ...]) -> None:
        level = game.level
        bodies = tuple(replace(level.bodies[x], frozen=0, lock=None, key=None)
                       for x in members)
        holes = tuple(replace(h, frozen=0) for h in level.holes)
        self.slides = Game(replace(level, bodies=bodies, holes=()))
        self.exits = Game(replace(level, bodies=bodies, holes=holes))
        self.used = state[game.n + 1]
        self.members = members

    def state(self, key: pairs._Key, used: int) -> State:
        ca, cb, meta = key
        codes = (ca, cb) if len(self.members) == 2 else (ca,)
        return (*codes, meta & 0o77, used)

    def key(self, state: State) -> pairs._Key:
        m = len(self.members)
        ca, cb = state[0], state[1] if m == 2 else 0
        return ca, cb, state[m] | (state[m + 1] & ~self.used) << pairs._META_USED

    def children(self, key: pairs._Key, k: int) -> list[tuple[pairs._Key, int]]:
        """Member k's children of ``key`` with their occupancies, in move order (an exit
        before the slide into the same hole)."""
        plain = self.state(key, 0)
        holes = self.state(key, self.used | key[2] >> pairs._META_USED)
        occ = self.slides.occupancy(plain)
        out = []
        for move in range(k << 3, k + 1 << 3):
            slid = self.slides.advance(plain, move)
            left = self.exits.advance(holes, move)
            free = slid is not None and self.slides.occupancy(slid) != occ  # not its far end
            if free and left is not None and left[-1] != holes[-1]:
                out.append((self.key(left), self.exits.occupancy(left)))
            if slid is not None:
                out.append((self.key((*slid[:-1], holes[-1])), self.slides.occupancy(slid)))
        return out


def relaxed_differences(game: Game, state: State, members: tuple[int, ...]) -> list[str]:
    """Where ``_Relaxed.children`` differs from the kernel's relaxed game, on the nodes of a
    BFS from the part's start (up to RELAXED_NODES)."""
    relaxed = pairs._Relaxed(game, state, Solver(game).hole_dist)
    kernel = RelaxedKernel(game, state, members)
    n = game.n
    shed = (state[n] >> (rules.LAYER_BITS * members[0])) & 7
    if len(members) == 2:
        shed |= ((state[n] >> (rules.LAYER_BITS * members[1])) & 7) << 3
    start = (state[members[0]], state[members[1]] if len(members) == 2 else 0, shed)
    seen = {start}
    queue = [start]
    diffs = []
    while queue and len(seen) < RELAXED_NODES:
        key = queue.pop(0)
        occ = kernel.slides.occupancy(kernel.state(key, 0))
        for k, x in enumerate(members):
            if not key[k]:
                continue
            got = relaxed.children(key, k, x, occ)
            want = kernel.children(key, k)
            if got != want:
                diffs.append(f"{members} at {key}, member {k}: {got} != kernel {want}")
            for child, _ in want:
                if child not in seen:
                    seen.add(child)
                    queue.append(child)
    return diffs


@PROPERTY
@given(positions(), st.data())
def test_relaxed_game_children_agree_with_the_kernel(position, data):
    game, states = position
    state = data.draw(st.sampled_from(states))
    on_board = [b for b in range(game.n) if state[b]]
    if not on_board:
        return
    a = data.draw(st.sampled_from(on_board))
    part = [a]
    if len(on_board) > 1 and data.draw(st.booleans()):
        part.append(data.draw(st.sampled_from([b for b in on_board if b != a])))
    assert relaxed_differences(game, state, tuple(part)) == []


# ------------------------------------------------------------------ search: the A*'s expansion


def expand_differences(game: Game, state: State, solver: Solver | None = None) -> list[str]:
    """Where the A*'s expansion (:meth:`Solver.expand`: ``_records`` and ``_expand``) differs
    from the kernel: a child it pushes must be the kernel's child of that move, and a kernel
    child it leaves out must be dead (bound INF) or reached by another move already."""
    solver = Solver(game) if solver is None else solver
    if solver.bound(state) >= INF:
        return []
    pushed = {c.move: c.state for c in solver.expand(state)}
    want = dict(kernel_children(game, state))
    diffs = [f"move {move_to_step(m)}: pushed {c}, kernel {want.get(m)}"
             for m, c in pushed.items() if want.get(m) != c]
    diffs += [f"move {move_to_step(m)}: left out, yet live" for m, c in want.items()
              if m not in pushed and c not in pushed.values() and solver.bound(c) < INF]
    return diffs


@PROPERTY
@given(positions())
def test_search_expansion_agrees_with_the_kernel(position):
    game, states = position
    solver = Solver(game)
    for state in states:
        assert expand_differences(game, state, solver) == []


# ------------------------------------------------------------------ backward play's slides


def slides_differences(board: Unsolver, cols: int, rows: int, stones: list[Any]) -> list[str]:
    """Where backward play's slides differ from the kernel's slides (steps that are no exit)
    on the level the board stands for: the same ends into the same cells."""
    game = Game(level_from_json(board.level(cols, rows, stones)))
    state = game.initial
    diffs = []
    for b in range(game.n):
        got = {(end, target) for end, target in board.slides(b)}
        want = set()
        for move in range(b << 3, b + 1 << 3):
            child = game.advance(state, move)
            if child is not None and not _is_exit(game, state, child):
                cells = game.body_cells(child, b)
                want.add((move >> 2 & 1, cells[0] if move & 4 == 0 else cells[-1]))
        if got != want:
            diffs.append(f"body {b}: slides {sorted(got)} != kernel {sorted(want)}")
    return diffs


@settings(max_examples=25, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**6), st.sampled_from(["twin", "comb", "winding", "cross", "courtyard"]))
def test_backward_slides_agree_with_the_kernel(seed, template):
    rng = random.Random(seed)
    shape = make_shape(template, 30, rng)
    plan = Plan([4, 3, 2], [0, 1, 0], [[2], [], [1]], walk=6, seal=20, tries=1)
    built = unsolve(shape.floor, plan, rng)
    if isinstance(built, str):
        return
    board, _ = built
    for _ in range(WALK):
        assert slides_differences(board, shape.cols, shape.rows, shape.stones) == []
        options = [(b, end, t) for b in range(len(board.bodies)) for end, t in board.slides(b)]
        if not options:
            break
        b, end, t = rng.choice(options)
        board.slide(b, end, t, record=False)


# ------------------------------------------------------------------ the comparisons bite


def _walk_states(game: Game, seed: int, steps: int) -> list[State]:
    rng = random.Random(seed)
    states = [game.initial]
    for _ in range(steps):
        children = kernel_children(game, states[-1])
        if not children:
            break
        states.append(rng.choice(children)[1])
    return states


def _biting_positions() -> list[tuple[Game, State]]:
    """Positions of small random levels with paint, bridges, coats, freezes and locks."""
    out = []
    for seed in range(12):
        for features in (ALL_FEATURES, ("coat", "path", "bridge"), ("silver", "frozen_body")):
            game = Game(level_from_json(random_level(seed, features, "small")))
            out += [(game, s) for s in _walk_states(game, seed, 12)]
    return out


def _first_part(game: Game, state: State) -> list[str]:
    on_board = [b for b in range(game.n) if state[b]]
    return relaxed_differences(game, state, tuple(on_board[:2])) if on_board else []


COMPARISONS: dict[str, Callable[[Game, State], list[str]]] = {
    "successors": successors_differences,
    "outcomes": lambda g, s: outcomes_differences(g, 0, s[g.n + 1]),
    "relaxed": _first_part,
    "expand": expand_differences,
}


@pytest.mark.parametrize("comparison", sorted(COMPARISONS))
def test_a_copy_that_forgets_paint_is_caught(monkeypatch, comparison):
    """The comparisons are no tautology: with the per-colour step tables the copies read
    built without the paint check (the kernel reads ``paint`` itself), each one differs."""
    init = Game.__init__

    def unpainted(self: Game, level: Level) -> None:
        init(self, level)
        self.nbb_color = tuple(self.nbb for _ in self.nbb_color)

    monkeypatch.setattr(Game, "__init__", unpainted)
    compare = COMPARISONS[comparison]
    assert any(compare(g, s) for g, s in _biting_positions() if g.has_paint)


def test_a_relaxed_game_exiting_into_any_colour_is_caught(monkeypatch):
    """Exits into holes of every colour: the relaxed comparison sees it."""
    real = pairs._Relaxed.children

    def broken(self: pairs._Relaxed, key: pairs._Key, k: int, x: int, occ: int
               ) -> list[tuple[pairs._Key, int]]:
        saved = self.hole_color
        self.hole_color = tuple(self.game.colors[x][(key[2] >> 3 * k) & 7] for _ in saved)
        try:
            return real(self, key, k, x, occ)
        finally:
            self.hole_color = saved

    monkeypatch.setattr(pairs._Relaxed, "children", broken)
    assert any(_first_part(g, s) for g, s in _biting_positions())


def test_a_single_body_search_ignoring_frozen_holes_is_caught(monkeypatch):
    """Frozen holes taken as open: the outcomes comparison sees it."""
    real = _Serial.__init__

    def broken(self: _Serial, game: Game, max_states: int) -> None:
        real(self, game, max_states)
        self.game = _Thawed(game)  # type: ignore[assignment]

    monkeypatch.setattr(_Serial, "__init__", broken)
    assert any(outcomes_differences(g, 0, s[g.n + 1])
               for g, s in _biting_positions() if any(g.hole_frozen) and s == g.initial)


class _Thawed:
    """A game seen with every hole unfrozen (for the broken single-body search above)."""

    def __init__(self, game: Game) -> None:
        self._game = game
        self.hole_frozen = tuple(0 for _ in game.hole_frozen)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)
