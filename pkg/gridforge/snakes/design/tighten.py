"""Shortening a known solution by bounded local searches (seed 004, section 4: 缩短解法后重新评分).

:func:`gridforge.snakes.search.shorten` removes cycles on full states and splices one-step
shortcuts. :func:`tighten` goes further: from each state of the solution it runs a small
breadth-first search (at most ``depth`` steps, at most ``max_states`` states) with the real
rules, and whenever it reaches a *later* state of the solution in fewer steps than the
solution takes, the detour is replaced by the shorter path. Every splice keeps a legal
solution (the new steps come from :meth:`Game.successors`), the count only falls, and the
searches are bounded by states, so the result is deterministic. This is real shortening: a
level's step count, and so its steps term, is judged on the shortened solution.
"""

from __future__ import annotations

from collections.abc import Sequence

from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.rules import Game, Move, State


def _states(game: Game, moves: Sequence[Move], start: State) -> list[State]:
    states = [start]
    for move in moves:
        states.append(game.apply(states[-1], move))
    return states


def _shortcut(game: Game, states: list[State], last: dict[State, int], i: int, depth: int,
              max_states: int) -> tuple[int, list[Move]] | None:
    """The later solution state reached from ``states[i]`` with the largest saving, and the
    path to it, by breadth-first search (``depth`` steps, ``max_states`` states)."""
    root = states[i]
    parent: dict[State, tuple[State, Move] | None] = {root: None}
    frontier = [(root, game.occupancy(root))]
    best: tuple[int, State] | None = None  # (saving, state)
    for d in range(1, depth + 1):
        nxt: list[tuple[State, int]] = []
        for state, occ in frontier:
            for move, child, child_occ in game.successors(state, occ):
                if child in parent:
                    continue
                parent[child] = (state, move)
                j = last.get(child, -1)
                if j > i and j - i - d > (best[0] if best else 0):
                    best = (j - i - d, child)
                nxt.append((child, child_occ))
                if len(parent) >= max_states:
                    break
            if len(parent) >= max_states:
                break
        frontier = nxt
        if len(parent) >= max_states or not frontier:
            break
    if best is None:
        return None
    path: list[Move] = []
    state = best[1]
    while (link := parent[state]) is not None:
        state, move = link
        path.append(move)
    path.reverse()
    return last[best[1]], path


def tighten(game: Game, moves: list[Move], *, depth: int = 6, max_states: int = 300,
            start: State | None = None, progress: Progress = NO_PROGRESS) -> list[Move]:
    """A solution no longer than ``moves`` (which must solve ``game`` from ``start``): every
    stretch that a ``depth``-step search can do more briefly is replaced."""
    start = game.initial if start is None else start
    moves = list(moves)
    states = _states(game, moves, start)
    i = 0
    while i < len(moves):
        progress.step(i, len(moves), "shortening")
        last = {s: k for k, s in enumerate(states)}
        found = _shortcut(game, states, last, i, depth, max_states)
        if found is None:
            i += 1
            continue
        j, path = found
        moves = [*moves[:i], *path, *moves[j:]]
        states = [*states[: i + 1], *_states(game, path, states[i])[1:], *states[j + 1:]]
    return moves
