"""Playing a whole mines board by logic alone (A1; the seed's F3): :func:`solve_board` opens
R0 (the spawn 3x3 and its flood closure, as the engine opens it on install), then digs each
cell as soon as :class:`gridforge.mines.solver.Deducer`'s rules prove it safe (a dug 0 opens
its chain, as in the engine) until every safe cell is open (the board is *no-guess*) or the
rules are stuck; :class:`SolveResult` says which, with the steps and the metrics the
generator's gates read. The page's ``solve`` plays a board's JSON this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from gridforge.errors import (
    GridforgeError,
)
from gridforge.grid import Cell
from gridforge.mines.board import Board
from gridforge.mines.solver import (
    DEFAULT_MAX_STATES,
    MINE,
    RULES,
    SAFE,
    UNKNOWN,
    Deducer,
    Step,
    StepJson,
)

_QUEUED = 3  # inside Playthrough.open_many only: safe, its digit not read yet


class Metrics(TypedDict):
    """A playthrough's metrics (:meth:`SolveResult.metrics`)."""

    r0_size: int
    safe_count: int
    inferable_ratio: float
    deduction_steps: int
    largest_component: int
    rule_counts: dict[str, int]
    no_guess: bool


class SolveJson(TypedDict):
    """A playthrough as JSON (:meth:`SolveResult.to_json`)."""

    no_guess: bool
    metrics: Metrics
    r0: list[list[int]]
    steps: list[StepJson]
    stuck_frontier: list[list[int]]
    complete: bool


# --------------------------------------------------------------- playthrough
class Playthrough(Deducer):
    """Plays a board from R0 as a player who only ever digs cells proved safe.

    The true board is the oracle that answers a dig: a safe cell opens and shows its digit
    (a fog cell shows none), and a safe cell whose true digit is 0 opens its chain, as the
    engine does (F2 with no flags). The generator may change the oracle through
    :meth:`move_mine` while the play is stuck (a *repair*).
    """

    def __init__(
        self,
        cols: int,
        rows: int,
        mine_flags: Sequence[int],
        fog_flags: Sequence[int],
        spawn: Cell,
        mine_total: int | None = None,
        max_states: int = DEFAULT_MAX_STATES,
    ) -> None:
        super().__init__(cols, rows, mine_total, max_states)
        self.mine_flag = bytearray(mine_flags)
        self.fog = bytes(fog_flags)
        nbrs = self.nbrs
        true = [0] * self.size
        mined = [i for i, m in enumerate(self.mine_flag) if m]
        for i in mined:
            for j in nbrs[i]:
                true[j] += 1
        for i in mined:
            true[i] = -1
        self.true = true
        self.safe_left = self.size - len(mined)
        sx, sy = spawn
        self.r0 = self.open_many(
            [(sy + dy) * cols + sx + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
        )
        self.steps: list[Step] = []

    def open_many(self, starts: Sequence[int]) -> list[int]:
        """Dig ``starts`` (all safe) and their chains, in canonical BFS order.

        A cell is marked queued when enqueued; when dequeued it becomes open, the digits
        around it lose an unknown cell and its own digit is read (queued cells still count
        as unknown for it, since they will update it when their turn comes).
        """
        state, true, fog, nbrs, mine = self.state, self.true, self.fog, self.nbrs, self.mine_flag
        clue, unk, rem, mask, active = self.clue, self.unk, self.rem, self._mask, self.active
        queued, enqueue, dirty = self._queued, self._queue.append, self._dirty.add
        queue = [i for i in starts if state[i] == UNKNOWN]
        for i in queue:
            if mine[i]:
                raise AssertionError("the solver dug a mine")  # a bug, never bad input
            state[i] = _QUEUED
        head = 0
        while head < len(queue):
            i = queue[head]
            head += 1
            state[i] = SAFE
            digit = true[i]
            unknown = mines = 0
            for j in nbrs[i]:
                s = state[j]
                if s in (UNKNOWN, _QUEUED):
                    unknown += 1
                elif s == MINE:
                    mines += 1
                if clue[j] >= 0:  # a digit beside i loses an unknown cell
                    u = unk[j] - 1
                    unk[j] = u
                    if u == 0:  # nothing left to deduce there (the board is consistent)
                        active.discard(j)
                    else:
                        mask[j] = -1
                        dirty(j)
                        if not queued[j]:
                            queued[j] = 1
                            enqueue(j)
                if digit == 0 and s == UNKNOWN:
                    state[j] = _QUEUED
                    queue.append(j)
            if not fog[i]:
                clue[i] = digit
                unk[i] = unknown
                rem[i] = digit - mines
                if unknown and digit:  # a 0 has its unknown neighbours in this very queue
                    active.add(i)
                    mask[i] = -1
                    dirty(i)
                    if not queued[i]:
                        queued[i] = 1
                        enqueue(i)
        self.unknown_count -= len(queue)
        self.safe_left -= len(queue)
        return queue

    def on_safe(self, i: int) -> None:
        self.open_many([i])

    def play(self) -> bool:
        """Deduce and dig until every safe cell is open (True) or the rules are stuck."""
        while self.safe_left > 0:
            step = self.next_step()
            if step is None:
                return False
            self.apply(step)
            self.steps.append(step)
        return True

    def move_mine(self, i: int, mine: bool) -> None:
        """Put (``mine``) or take away the mine of unknown cell ``i`` in the oracle."""
        assert self.state[i] == UNKNOWN and bool(self.mine_flag[i]) != mine
        delta = 1 if mine else -1
        self.mine_flag[i] = 1 if mine else 0
        self.safe_left -= delta
        true, clue = self.true, self.clue
        true[i] = -1 if mine else sum(self.mine_flag[j] for j in self.nbrs[i])
        for j in self.nbrs[i]:
            if true[j] >= 0:
                true[j] += delta
                if clue[j] >= 0:
                    self.shift_clue(j, delta)
        self._pending.clear()


@dataclass
class SolveResult:
    """The outcome of playing a board from R0: whether it is no-guess, and the evidence."""

    no_guess: bool
    r0: list[Cell]
    steps: list[Step]
    safe_count: int
    solved_count: int  # safe cells open at the end, R0 included
    largest_component: int
    complete: bool = True
    rule_counts: dict[str, int] = field(default_factory=dict)
    stuck_frontier: list[Cell] = field(default_factory=list)

    @property
    def inferable_ratio(self) -> float:
        """Share of the safe cells outside R0 that deduction opens (1.0 when none exist)."""
        work = self.safe_count - len(self.r0)
        return 1.0 if work <= 0 else (self.solved_count - len(self.r0)) / work

    def metrics(self) -> Metrics:
        return {
            "r0_size": len(self.r0),
            "safe_count": self.safe_count,
            "inferable_ratio": round(self.inferable_ratio, 6),
            "deduction_steps": len(self.steps),
            "largest_component": self.largest_component,
            "rule_counts": {k: self.rule_counts.get(k, 0) for k in RULES},
            "no_guess": self.no_guess,
        }

    def to_json(self) -> SolveJson:
        return {
            "no_guess": self.no_guess,
            "metrics": self.metrics(),
            "r0": [[x, y] for x, y in self.r0],
            "steps": [s.to_json() for s in self.steps],
            "stuck_frontier": [[x, y] for x, y in self.stuck_frontier],
            "complete": self.complete,
        }


def playthrough_for(
    board: Board, use_mine_count: bool = True, max_states: int = DEFAULT_MAX_STATES
) -> Playthrough:
    """A :class:`Playthrough` of ``board`` that has opened R0 (fog = variant ``fog``)."""
    if any(board.is_mine(c) for c in board.spawn_cells):
        raise GridforgeError("the board has a mine in its spawn 3x3 (install invariant 1)")
    fog = [1 if "fog" in ids else 0 for ids in board.flat.variant_marks]
    return Playthrough(
        board.cols,
        board.rows,
        board.flat.mine_flags,
        fog,
        board.spawn,
        len(board.mines) if use_mine_count else None,
        max_states,
    )


def result_of(play: Playthrough, solved: bool) -> SolveResult:
    """Summarise a finished (or stuck) playthrough."""
    cells = play.cells_of
    stuck = (
        sorted({u for q in play.active for u in play.unknown_neighbours(q)}) if not solved else []
    )
    safe_count = play.size - sum(play.mine_flag)
    return SolveResult(
        no_guess=solved,
        r0=[play.cell(i) for i in play.r0],
        steps=list(play.steps),
        safe_count=safe_count,
        solved_count=safe_count - play.safe_left,
        largest_component=play.largest_component,
        complete=play.complete,
        rule_counts=dict(play.rule_counts),
        stuck_frontier=list(cells(stuck)),
    )


def solve_board(
    board: Board, use_mine_count: bool = True, max_states: int = DEFAULT_MAX_STATES
) -> SolveResult:
    """Play ``board`` from R0 by deduction alone; fog digits stay hidden from the solver.

    :param use_mine_count: let the solver use the total mine count (only when the page shows
        it to the player).
    """
    play = playthrough_for(board, use_mine_count, max_states)
    return result_of(play, play.play())
