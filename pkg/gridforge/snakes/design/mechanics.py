"""Mechanics along a found solution (seed 004, section 4, step 6 "机制依赖").

Each mechanic is arranged only where the found solution keeps it legal: a coat is a hole put
on a cell next to a body's end that no body has touched before that moment, its exit inserted
there; a frozen threshold never exceeds the layers gone before the body's (or the hole's) first
use; a lock waits only for keys whose carriers left before it first moves. :func:`scramble`
walks the start toward fewer potential exits, the walk undone joining the solution.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from gridforge.snakes.design.layout import coat_colour, reach_cells
from gridforge.snakes.design.recipe import Recipe
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.levelfile import LevelJson
from gridforge.snakes.game.rules import CELL_MASK, Game, IllegalStep, Move, State, move_to_step
from gridforge.snakes.solver.puzzle import reordered
from gridforge.snakes.solver.search import Solver

__all__ = ["add_coats", "add_dependencies", "scramble", "states_along"]


def states_along(game: Game, moves: Sequence[Move]) -> list[State]:
    """The states a solution passes through, the start included."""
    states = [game.initial]
    for move in moves:
        states.append(game.apply(states[-1], move))
    return states


class _Exits:
    """Potential exits of positions with every hole unused, counted as
    :func:`~gridforge.snakes.design.topology.potential_exits` counts them (either end, own
    cells passable, other bodies and holes blocking, a hole of the body's outer colour next to
    a reached cell), by bit-set flood fills over the game's padded board."""

    def __init__(self, game: Game) -> None:
        self.game = game
        w = self.width = game.width
        holes = 0
        near: dict[int, int] = {}
        for p, hole in zip(game.hole_cells, game.level.holes, strict=True):
            holes |= 1 << p
            near[hole.color] = near.get(hole.color, 0) | (
                1 << (p - 1) | 1 << (p + 1) | 1 << (p - w) | 1 << (p + w))
        self.open = sum(1 << p for p in range(game.size) if game.floor[p]) & ~holes
        self.near = [near.get(game.colors[b][0], 0) for b in range(game.n)]
        self._masks: list[dict[int, int]] = [{} for _ in range(game.n)]

    def _mask(self, b: int, code: int) -> int:
        mask = self._masks[b].get(code)
        if mask is None:
            mask = 0
            for p in self.game.unpack(code, b):
                mask |= 1 << self.game.real[p]  # a bridge's vertical lane: its cell
            self._masks[b][code] = mask
        return mask

    def count(self, state: State, occ: int) -> int:
        """Bodies of ``state`` (occupancy ``occ``) with a potential exit."""
        w = self.width
        total = 0
        for b, target in enumerate(self.near):
            m = self._mask(b, state[b])
            if m & target:
                total += 1
                continue
            room = self.open & ~(occ & ~m)
            x = m
            while True:
                y = (x | x << 1 | x >> 1 | x << w | x >> w) & room
                if y == x:
                    break
                x = y
            total += bool(x & target)
        return total


def scramble(data: LevelJson, game: Game, moves: list[Move], recipe: Recipe,
              rng: random.Random) -> tuple[LevelJson, list[Move]]:
    """Walk the start position along legal, non-exit steps toward fewer potential exits.

    Steps are reversible (the far end moves back into the cell just left), so the walked-to
    position is solved by the walk undone, then the found solution: the new level's start
    is that position. This is how blocked starts (no body can reach its hole yet) stay
    solvable: the solution begins by making room, as a player would.
    """
    n = game.n
    solver = Solver(game)
    counter = _Exits(game)
    state = game.initial
    occ = game.occupancy(state)
    seen = {state}
    trail = [state]
    exits = counter.count(state, occ)
    for _ in range(recipe.scramble):
        if exits <= recipe.exits:
            break
        options = [(m, child, cocc) for m, child, cocc in game.successors(state, occ)
                   if child[n + 1] == state[n + 1] and child not in seen]
        if not options:
            break
        # Fewest potential exits first, then the highest lower bound (bodies pushed away from
        # their holes), so that undoing the walk is work the solution needs, not padding.
        # The bound is only needed among the options with the fewest exits.
        counts = [counter.count(child, cocc) for _, child, cocc in options]
        fewest = min(counts)
        ranked = sorted((-solver.bound(options[i][1]), i)
                        for i, e in enumerate(counts) if e == fewest)
        top = [i for bound, i in ranked if bound == ranked[0][0]]
        pick = rng.choice(top) if rng.random() < 0.9 else rng.randrange(len(options))
        _, state, occ = options[pick]
        exits = counts[pick]
        seen.add(state)
        trail.append(state)
    if len(trail) == 1:
        return data, moves
    # The walk undone: from each position the one step back to the previous one.
    back: list[Move] = []
    for later, earlier in zip(trail[:0:-1], trail[-2::-1], strict=True):
        for m, child, _ in game.successors(later, game.occupancy(later)):
            if child == earlier:
                back.append(m)
                break
        else:  # pragma: no cover - steps are always reversible
            raise AssertionError("a scramble step could not be undone")
    data = json.loads(json.dumps(data))
    for b in range(n):
        data["bodies"][b]["cells"] = [list(c) for c in game.body_cells(state, b)]
    return data, back + list(moves)


def _coat_places(game: Game, moves: list[Move]) -> list[tuple[int, int, int, int, int]]:
    """Where a coat's hole may go, as ``(t, body, end, direction, cell)``: a free cell next
    to a body's end at step ``t`` that no body has touched yet, the hole cells excepted."""
    states = states_along(game, moves)
    n = game.n
    first_touch: dict[int, int] = {}
    for t, state in enumerate(states):
        for b in range(n):
            for p in game.unpack(state[b], b):
                first_touch.setdefault(p, t)
    hole_cells = set(game.hole_cells)
    options: list[tuple[int, int, int, int, int]] = []  # (t, body, end, direction, cell)
    for t in range(len(moves)):
        state = states[t]
        occ = None
        for b in range(n):
            code = state[b]
            if not code:
                continue
            if states[t + 1][b] == 0 and moves[t] >> 3 == b:
                continue  # the body leaves with this very step: a coat must come earlier
            ends = (code & CELL_MASK, code >> game.shifts[b])
            for end, p in enumerate(ends):
                for d, cell in game.nb[p]:
                    if cell in hole_cells or first_touch.get(cell, len(states)) <= t:
                        continue
                    if occ is None:
                        occ = game.occupancy(state)
                    if occ >> cell & 1:
                        continue
                    options.append((t, b, end, d, cell))
    return options


def add_coats(data: LevelJson, game: Game, moves: list[Move], count: int,
              hide: bool, rng: random.Random, allowed: Sequence[int] = tuple(range(15))
              ) -> tuple[LevelJson, list[Move]] | None:
    """Put ``count`` coats on bodies: each coat's hole lies next to a body's end at a moment
    when no body has yet touched that cell; its exit step is inserted at that moment.

    With ``hide``, bodies first get one coat each of a colour of its own whose hole the body
    cannot reach at the start (a blocked start, as the blocking term counts it), where the
    solution offers such a moment; the other coats take colours already in use."""
    if count == 0:
        return data, moves
    reach = _start_reach(game) if hide else []
    options = _coat_places(game, moves)
    rng.shuffle(options)
    chosen: list[tuple[int, int, int, int, int]] = []
    used_cells: set[int] = set()
    per_body = [len(b["colors"]) for b in data["bodies"]]
    times: set[tuple[int, int]] = set()
    in_use = {c for b in data["bodies"] for c in b["colors"]} | {h["color"]
                                                                for h in data["holes"]}
    fresh = [c for c in allowed if c not in in_use]
    own: dict[int, int] = {}  # body -> the colour of its hidden coat
    if hide:
        for t, b, _end, _d, cell in options:
            if b in own or cell in used_cells or cell in reach[b] or not fresh:
                continue
            if len(own) == count:
                break
            chosen.append((t, b, _end, _d, cell))
            used_cells.add(cell)
            times.add((t, b))
            per_body[b] += 1
            own[b] = fresh.pop(rng.randrange(len(fresh)))
    for opt in options:
        if len(chosen) >= count:
            break
        t, b, _end, _d, cell = opt
        if cell in used_cells or per_body[b] >= 4 or (t, b) in times or b in own:
            continue
        chosen.append(opt)
        used_cells.add(cell)
        times.add((t, b))
        per_body[b] += 1
        if len(chosen) == count:
            break
    if len(chosen) < count:
        return None
    palette = sorted({b["colors"][0] for b in data["bodies"]})
    chosen.sort()
    # Colours from each body's innermost coat out (the latest exit first), each unlike the
    # layer under it.
    colour_of: dict[tuple[int, int], int] = {}
    under = {b: body["colors"][0] for b, body in enumerate(data["bodies"])}
    for t, b, *_ in reversed(chosen):
        colour_of[t, b] = own[b] if b in own else coat_colour(under[b], palette, allowed, rng)
        under[b] = colour_of[t, b]
    return _with_coats(data, game, moves, chosen, colour_of)


def _start_reach(game: Game) -> list[set[int]]:
    """Per body, the cells (padded indices) its ends can reach at the start over the free
    floor (no body, no hole)."""
    level = game.level
    free = {game.cell(p) for p in range(game.size) if game.floor[p]}
    free -= {c for b in level.bodies for c in b.cells}
    free -= {h.cell for h in level.holes}
    return [{game.index(c) for c in reach_cells(free, list(b.cells))} for b in level.bodies]


def _with_coats(data: LevelJson, game: Game, moves: list[Move],
                chosen: list[tuple[int, int, int, int, int]],
                colour_of: dict[tuple[int, int], int]) -> tuple[LevelJson, list[Move]]:
    """A copy of ``data`` with the ``chosen`` coats (``(t, body, end, direction, cell)``, in
    order) in their colours, and ``moves`` with each coat's exit step inserted at its time."""
    data = json.loads(json.dumps(data))
    coats: dict[int, list[int]] = {}
    inserted: dict[int, list[Move]] = {}
    for t, b, end, d, cell in chosen:
        color = colour_of[t, b]
        coats.setdefault(b, []).append(color)
        data["holes"].append({"cell": list(game.cell(cell)), "color": color})
        inserted.setdefault(t, []).append(b << 3 | end << 2 | d)
    for b, layers in coats.items():
        data["bodies"][b]["colors"] = layers + data["bodies"][b]["colors"]
    new_moves: list[Move] = []
    for t, move in enumerate(moves):
        new_moves.extend(inserted.get(t, ()))
        new_moves.append(move)
    return data, new_moves


class _Binds:
    """Whether a mechanic about to be added would bind (spec section 5b) by the cheapest
    witness: a reordering of the found solution (:func:`~gridforge.snakes.solver.puzzle.reordered`)
    that the level without it allows and the level with it refuses."""

    def __init__(self, moves: list[Move], wanted: bool) -> None:
        self.moves, self.wanted = moves, wanted

    def __call__(self, before: LevelJson, after: LevelJson) -> bool:
        if not self.wanted:
            return True
        real, relaxed = Game(level_from_json(after)), Game(level_from_json(before))
        return reordered(real, relaxed, self.moves) is not None


def add_dependencies(data: LevelJson, game: Game, moves: list[Move], recipe: Recipe,
                      rng: random.Random, *, binding: bool = False
                      ) -> tuple[LevelJson, list[Move]] | None:
    """Frozen bodies and holes, keys and locks that the solution ``moves`` already obeys;
    with ``binding``, only those that also bind by a reordering of ``moves`` (each judged as
    it is added). A lock that no body takes that way is made by construction: a body free to
    move early has its steps postponed until its keys' carriers have left (the level and the
    solution it returns then differ from the given ones). None when too few mechanics fit."""
    if not (recipe.frozen or recipe.frozen_holes or recipe.locks):
        return data, moves
    binds = _Binds(moves, binding)
    states = states_along(game, moves)
    n = game.n
    first_move, gone = _timings(game, moves)
    exited = [s[n + 1].bit_count() for s in states]
    data = json.loads(json.dumps(data))
    # Frozen bodies: the threshold is at most the layers gone before the body's first step.
    if not _freeze(data, "bodies", range(n), first_move, exited, recipe.frozen, binds):
        return None
    # Frozen holes: at most the layers gone before the hole is used.
    use_time = _hole_use_times(states, n)
    if not _freeze(data, "holes", list(use_time), use_time, exited, recipe.frozen_holes, binds):
        return None
    # Locks: the carriers of a lock's keys leave before the locked body first moves.
    carriers_free = list(range(n))
    data, made, gold_left = _locks_obeyed(data, first_move, gone, carriers_free, recipe, binds,
                                          rng)
    while made < recipe.locks:
        # No body's lock binds along the solution as it stands: postpone one that moves early.
        need = 2 if gold_left else 1
        first_move, gone = _timings(Game(level_from_json(data)), moves)
        built = _postponed_lock(data, moves, gone, first_move, carriers_free, need,
                                f"L{made + 1}", rng)
        if built is None:
            return None
        data, moves, keys = built
        for c in keys:
            carriers_free.remove(c)
        if need == 2:
            gold_left -= 1
        made += 1
    return data, moves


def _hole_use_times(states: Sequence[State], n: int) -> dict[int, int]:
    """Per hole used along ``states`` (of a level with n bodies), the step that uses it."""
    use_time: dict[int, int] = {}
    for t in range(len(states) - 1):
        diff = states[t + 1][n + 1] & ~states[t][n + 1]
        if diff:
            use_time[diff.bit_length() - 1] = t
    return use_time


def _locks_obeyed(data: LevelJson, first_move: Sequence[int], gone: Sequence[int],
                  carriers_free: list[int], recipe: Recipe, binds: _Binds,
                  rng: random.Random) -> tuple[LevelJson, int, int]:
    """Up to ``recipe.locks`` locks (gold ones first) that the solution already obeys: the
    carriers of a lock's keys (taken from ``carriers_free``, which loses them) leave before
    the locked body first moves, latest mover first. Returns the level, the locks made and
    the gold ones still wanted."""
    n = len(first_move)
    order = sorted(range(n), key=lambda b: (-first_move[b], b))
    made = 0
    gold_left = recipe.gold
    for b in order:
        if made == recipe.locks:
            break
        need = 2 if gold_left else 1
        ready = [c for c in carriers_free if c != b and gone[c] < first_move[b]]
        if len(ready) < need:
            continue
        keys = rng.sample(ready, need)
        lock_id = f"L{made + 1}"
        after = json.loads(json.dumps(data))
        after["bodies"][b]["lock"] = {"id": lock_id, "kind": "gold" if need == 2 else "silver"}
        for c in keys:
            after["bodies"][c]["key"] = lock_id
        if not binds(data, after):
            continue
        data = after
        for c in keys:
            carriers_free.remove(c)
        if need == 2:
            gold_left -= 1
        made += 1
    return data, made, gold_left


def _timings(game: Game, moves: list[Move]) -> tuple[list[int], list[int]]:
    """Per body, the index of its first step and of the step it leaves by (``len(moves)``
    when it never does)."""
    states = states_along(game, moves)
    first_move = [len(moves)] * game.n
    gone = [len(moves)] * game.n
    for t, move in enumerate(moves):
        b = move >> 3
        first_move[b] = min(first_move[b], t)
        if states[t + 1][b] == 0 and states[t][b] != 0:
            gone[b] = t
    return first_move, gone


def _postponed_lock(data: LevelJson, moves: list[Move], gone: Sequence[int],
                    first_move: Sequence[int], carriers_free: list[int], need: int,
                    lock_id: str, rng: random.Random
                    ) -> tuple[LevelJson, list[Move], list[int]] | None:
    """A lock made to bind: a body ``b`` that moves before the ``need`` earliest leavers
    (among ``carriers_free``, ``b`` excepted) have all gone gets the lock and they its keys,
    and all of ``b``'s steps move, as one block, to just after the last of them leaves. The
    given solution is then the witness (allowed without the lock, refused with it) and the
    postponed one, replayed with the real rules, the new solution. None when no body fits."""
    before = Game(level_from_json(data))
    bodies = [b for b in range(before.n) if first_move[b] < len(moves)]
    rng.shuffle(bodies)
    for b in bodies:
        leavers = sorted((c for c in carriers_free if c != b and gone[c] < len(moves)),
                         key=lambda c: (gone[c], c))[:need]
        if len(leavers) < need:
            continue
        last = max(gone[c] for c in leavers)
        if first_move[b] > last:
            continue  # it already waits for them: the lock would not bind
        own = [m for m in moves if m >> 3 == b]
        rest = [m for t, m in enumerate(moves) if m >> 3 != b]
        cut = sum(1 for t in range(last + 1) if moves[t] >> 3 != b)
        postponed = rest[:cut] + own + rest[cut:]
        after = json.loads(json.dumps(data))
        after["bodies"][b]["lock"] = {"id": lock_id, "kind": "gold" if need == 2 else "silver"}
        for c in leavers:
            after["bodies"][c]["key"] = lock_id
        real = Game(level_from_json(after))
        try:
            states = real.replay([move_to_step(m) for m in postponed])
        except IllegalStep:
            continue
        if real.is_complete(states[-1]):
            return after, postponed, leavers
    return None


Frozen = Literal["bodies", "holes"]  # what a freeze applies to


def _frozen_at(data: LevelJson, kind: Frozen, i: int, threshold: int) -> LevelJson:
    """A copy of ``data`` with ``data[kind][i]`` frozen at ``threshold``."""
    after: LevelJson = json.loads(json.dumps(data))
    after[kind][i]["frozen"] = threshold
    return after


def _freeze(data: LevelJson, kind: Frozen, ids: Iterable[int],
            first_use: Mapping[int, int] | Sequence[int], exited: Sequence[int], count: int,
            binds: _Binds) -> bool:
    """Freeze ``count`` of ``data[kind]`` (bodies or holes) named by ``ids``, those with the
    most layers gone before their first use first, each at that many, skipping those that
    would not bind; False when fewer than ``count`` qualify."""
    ranked = sorted((i for i in ids if exited[first_use[i]] >= 1),
                    key=lambda i: (-exited[first_use[i]], i))
    made = 0
    for i in ranked:
        if made == count:
            break
        # At most it thaws just as the solution needs it: any solution that would use it
        # sooner is refused, which is what makes a freeze bind (spec section 5b's witness).
        # Where it must bind, the lowest threshold that does (the mechanics term and the
        # wait stay moderate).
        most = exited[first_use[i]]
        if not binds(data, _frozen_at(data, kind, i, most)):
            continue
        # A reordering refused at one threshold is refused at every higher one: binding is
        # monotone in the threshold, so the lowest that binds is found by bisection.
        low, high = 0, most  # binds at high; not known to bind at low (0: no freeze)
        while binds.wanted and high - low > 1:
            mid = (low + high) // 2
            if binds(data, _frozen_at(data, kind, i, mid)):
                high = mid
            else:
                low = mid
        frozen = _frozen_at(data, kind, i, high)
        if kind == "bodies":
            data["bodies"][i] = frozen["bodies"][i]
        else:
            data["holes"][i] = frozen["holes"][i]
        made += 1
    return made == count
