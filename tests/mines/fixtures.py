"""The seed's fixture boards, built in code, with every registered constant derived by hand.

Boards are 7 x 7 (b_degenerate 8 x 8); cells are (x, y), x the column, y the row. In the
drawings ``*`` is a mine, a digit a safe cell's true count, ``f`` after a digit marks fog.
The derivations are kept beside each board as the seed's registration protocol asks; the
tests assert the registered numbers independently of the engine (``naive_r0`` below is a
second, deliberately plain implementation of the canonical BFS).

Also here: :class:`Harness`, an engine on a real ledger that captures the A2 face, the A3
face and the merged stream, and the move/dig scripts the acceptance tests share.
"""

from __future__ import annotations

from typing import Any

from gridforge.midend import Midend
from gridforge.mines.backend import Input, Mines
from gridforge.mines.board import Board
from gridforge.mines.engine import Engine, check_install_invariants
from gridforge.mines.intents import ActionOutcome, Intent
from gridforge.mines.ledger import Economy, Ledger
from gridforge.mines.run import Run
from gridforge.mines.run_table import RunTable
from hypothesis import assume
from hypothesis import strategies as st

Cell = tuple[int, int]
FOG = ("fog",)

# ---------------------------------------------------------------------------- b_spawn
# M = {(1, y) : y in 0..6, y != 3}: a vertical wall of 6 mines with a gap at (1, 3).
#
#   y\x 0 1 2 3 4 5 6
#   0   2 * 2 0 0 0 0      (0,0): mines (1,0),(1,1)          -> 2
#   1   3 * 3 0 0 0 0      (0,1): mines (1,0),(1,1),(1,2)    -> 3
#   2   2 * 2 0 0 0 0      (0,3): mines (1,2),(1,4)          -> 2
#   3   2 2 2 0 0 0 0      (1,3): mines (1,2),(1,4)          -> 2  (registered: digit 2)
#   4   2 * 2 0 0 0 0      (3,y): neighbours x in 2..4 hold no mine -> 0
#   5   3 * 3 0 0 0 0
#   6   2 * 2 0 0 0 0
#
# |S| = 49 - 6 = 43 (registered 43). Spawn (3,3): B3 = {2..4} x {2..4}, no mine.
# R0: every cell with x >= 3 is a 0-cell and they are 8-connected to B3, so the closure
# takes all of x in 3..6 (28 cells) plus their neighbours at x = 2 (7 cells, digits 2/3,
# leaves). (1,3) is a neighbour only of x = 2 cells, which do not propagate: not in R0.
# |R0| = 28 + 7 = 35 (registered 35); unopened safe = 43 - 35 = 8 (registered 8):
# the x = 0 column (7) and the gap (1,3).
B_SPAWN_MINES = [(1, y) for y in range(7) if y != 3]
B_SPAWN_R0_SIZE = 35
B_SPAWN_SAFE = 43
B_SPAWN_UNOPENED = [(0, y) for y in range(7)] + [(1, 3)]


def b_spawn() -> Board:
    return Board(7, 7, B_SPAWN_MINES, (3, 3))


# b_flag and b_batch reuse b_spawn's geometry (the seed says so).
b_flag = b_spawn
b_batch = b_spawn

# The 8 unopened safe cells of b_spawn dug in a legal order (avatar starts at (3,3)):
# each step is (move target or None, dig target).
B_SPAWN_DIG_ALL: list[tuple[Cell | None, Cell]] = [
    ((2, 3), (1, 3)),
    ((1, 3), (0, 2)),
    (None, (0, 3)),
    (None, (0, 4)),
    ((0, 2), (0, 1)),
    ((0, 1), (0, 0)),
    ((0, 4), (0, 5)),
    ((0, 5), (0, 6)),
]

# ---------------------------------------------------------------------------- b_chain
# spawn (3,2); M = the row y = 4 but its gap (3,4): (0,4),(1,4),(2,4),(4,4),(5,4),(6,4).
#
#   y\x 0 1 2 3 4 5 6
#   0   0 0 0 0 0 0 0
#   1   0 0 0 0 0 0 0
#   2   0 0 0 0 0 0 0      y <= 2: no mine within distance 1 -> 0
#   3   2 3 2 2 2 3 2      (1,3): (0,4),(1,4),(2,4) -> 3; (3,3): (2,4),(4,4) -> 2
#   4   * * * 2 * * *      (3,4): (2,4),(4,4) -> 2
#   5   2 3 2 2 2 3 2      mirror of y = 3
#   6   0 0 0 0 0 0 0
#
# B3 = {2..4} x {1..3}, no mine. R0: the 0-cells y <= 2 are all connected, their
# neighbours add the row y = 3 (nonzero leaves); nothing at y = 4 is a neighbour of a
# 0-cell. |R0| = 4 rows x 7 = 28 (registered 28). |S| = 49 - 6 = 43.
# The area under the wall: y in 5..6 = 14 cells (registered 14).
# Chain (AC-5): after digging (3,4) and (3,5) (digits 2, no chain), dig (3,6) (a 0-cell):
# the BFS opens (3,6) and then all of y = 6 (7 cells, all 0) and y = 5 except (3,5)
# (6 leaves): |O' \ O| = 13 cells. By F2, chain_size = |O' \ (O u {c})| = 12, and the
# event count is chain_size + 1 = 13: one ``dig`` and 12 ``chain`` events. The seed
# registers "|C| = 13 chain events" and, with a flag on (2,5), "chain_size = 12"; its own
# F2 gives 12 and 11. The formulas win (the seed's rule): its 13 counts the dug cell.
# After that dig every safe cell is open: 28 + (3,4) + 14 = 43 = |S|, so the dig clears.
B_CHAIN_MINES = [(x, 4) for x in range(7) if x != 3]
B_CHAIN_R0_SIZE = 28
B_CHAIN_CASCADE = 13  # cells opened by the dig of (3,6), the dug cell included
B_CHAIN_CHAIN_SIZE = 12  # F2: the dug cell excluded (the seed's count 13 disagrees)
B_CHAIN_CHAIN_SIZE_FLAGGED = 11  # F2 with a flag on (2,5) (the seed's count 12 disagrees)


def b_chain() -> Board:
    return Board(7, 7, B_CHAIN_MINES, (3, 2))


# Walk from spawn (3,2) to the 0-cell (3,6): (move target, dig target).
B_CHAIN_WALK: list[tuple[Cell | None, Cell]] = [
    ((3, 3), (3, 4)),
    ((3, 4), (3, 5)),
    ((3, 5), (3, 6)),
]

# ------------------------------------------------------------------------------ b_fog
# b_chain plus mines (5,0),(6,1); fog F = {(0,5),(1,5)} (chain-reachable) u {(6,0)}.
#
#   y\x 0  1  2 3 4 5 6
#   0   0  0  0 0 1 * 2f    (6,0): (5,0),(6,1) -> 2 (fog digit 2, registered)
#   1   0  0  0 0 1 2 *     (5,1): (5,0),(6,1) -> 2; (4,0),(4,1): (5,0) -> 1
#   2   0  0  0 0 0 1 1     (5,2),(6,2): (6,1) -> 1; (4,2): no mine around -> 0
#   3   2  3  2 2 2 3 2
#   4   *  *  * 2 * * *
#   5   2f 3f 2 2 2 3 2     (0,5): 2 and (1,5): 3 (fog digits 2/3, registered)
#   6   0  0  0 0 0 0 0
#
# Fog digits are never 0 and the patches are at most 2 thick. |S| = 49 - 8 = 41.
# R0 from B3 = {2..4} x {1..3}: the 0-cells are x in 0..3 for y in 0..2, and (4,2). Their
# neighbours: x in 0..4 for y in 0..3 (20 cells), plus (5,1),(5,2),(5,3) next to (4,2).
# (6,2) and (6,3) touch no 0-cell any more: they leave R0 (the seed's note).
# |R0| = 20 + 3 = 23. No fog cell is in B3 or R0.
B_FOG_MINES = [*B_CHAIN_MINES, (5, 0), (6, 1)]
B_FOG_FOG = [(0, 5), (1, 5), (6, 0)]
B_FOG_R0_SIZE = 23
B_FOG_SAFE = 41


def b_fog(extra_fog: tuple[Cell, ...] = ()) -> Board:
    variants = {cell: FOG for cell in [*B_FOG_FOG, *extra_fog]}
    return Board(7, 7, B_FOG_MINES, (3, 2), variants=variants)


def b_fog_bare() -> Board:
    return Board(7, 7, B_FOG_MINES, (3, 2))


# ------------------------------------------------------------------------ b_mine_walk
# M = {(3,5)}; spawn (3,3). Digit 1 on (2..4, 4..6) minus the mine; 0 elsewhere.
# (3,4) has digit 1 and lies in B3 (so in R0). Every other 0-cell is connected around the
# mine's ring, so R0 takes every safe cell next to a 0-cell: all but (3,6), whose
# neighbours (2,5),(4,5),(2,6),(4,6) are 1-cells and (3,5) the mine. |S| = 48, |R0| = 47:
# the only unopened safe cell is (3,6), so digging it through the mine clears the board.
B_MINE_WALK_R0_SIZE = 47


def b_mine_walk() -> Board:
    return Board(7, 7, [(3, 5)], (3, 3))


# ----------------------------------------------------------------------- b_degenerate
# 8 x 8, M = {(7,7)}: 0 everywhere but (6,6),(7,6),(6,7) (digit 1), all next to 0-cells,
# so R0 = S (63 cells): invariant 4.
def b_degenerate() -> Board:
    return Board(8, 8, [(7, 7)], (3, 3))


# -------------------------------------------------------------------------- b_invalid
def b_invalid_mine_spawn() -> Board:
    # b_spawn + a mine on the spawn centre: invariant 1.
    return Board(7, 7, [*B_SPAWN_MINES, (3, 3)], (3, 3))


def b_invalid_fog_spawn() -> Board:
    # b_fog + fog on (3,2), the spawn centre: invariant 2a.
    return b_fog(extra_fog=((3, 2),))


def b_invalid_fog_flood() -> Board:
    # b_fog + fog on (5,1): outside B3 = {2..4} x {1..3}, inside R0 (see b_fog): 2b.
    return b_fog(extra_fog=((5, 1),))


def b_invalid_digit() -> Board:
    # b_spawn with (5,5) (true digit 0) carrying 1: only invariant 3 fails, since R0 is
    # computed from true digits.
    board = b_spawn()
    digits = dict(board.digits)
    digits[(5, 5)] = 1
    return Board(7, 7, B_SPAWN_MINES, (3, 3), digits=digits)


# ----------------------------------------------------------------------- naive BFS
def naive_digit(board: Board, cell: Cell) -> int:
    x, y = cell
    return sum(
        (x + dx, y + dy) in board.mines
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
        if (dx, dy) != (0, 0)
    )


def naive_bfs(board: Board, starts: list[Cell], opened: set[Cell], flags: set[Cell]) -> list[Cell]:
    """A plain FIFO BFS, written independently of the engine: the canonical order."""
    queue = list(starts)
    queued = set(starts)
    out = []
    while queue:
        cell = queue.pop(0)
        out.append(cell)
        if cell in board.mines or naive_digit(board, cell) != 0:
            continue
        x, y = cell
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                n = (x + dx, y + dy)
                if (
                    (dx, dy) != (0, 0)
                    and 0 <= n[0] < board.cols
                    and 0 <= n[1] < board.rows
                    and n not in board.mines
                    and n not in opened
                    and n not in flags
                    and n not in queued
                ):
                    queued.add(n)
                    queue.append(n)
    return out


def naive_r0(board: Board) -> list[Cell]:
    sx, sy = board.spawn
    starts = [(sx + dx, sy + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    return naive_bfs(board, starts, set(), set())


# ------------------------------------------------------------------------- harness
class Harness:
    """A real engine on a real ledger, capturing both emitter faces and the merged stream."""

    def __init__(self, economy: Economy | None = None) -> None:
        self.ledger = Ledger(economy if economy is not None else Economy())
        self.engine = Engine(self.ledger)
        self.a2: list[dict[str, Any]] = []
        self.a3: list[dict[str, Any]] = []
        self.stream: list[dict[str, Any]] = []
        self.engine.subscribe(self.a2.append)
        self.engine.subscribe(self.stream.append)
        self.ledger.subscribe(self.a3.append)
        self.ledger.subscribe(self.stream.append)

    @classmethod
    def active(cls, board: Board, economy: Economy | None = None) -> Harness:
        """Installed while idle, then a round started: Installed-Active."""
        h = cls(economy)
        assert h.engine.install_board(board).accepted
        assert h.ledger.notify_round_start()
        return h

    def next_round(self, hint: str = "same_board") -> None:
        assert self.ledger.notify_settlement_done(hint)
        assert self.ledger.notify_round_start()

    def walk(self, steps: list[tuple[Cell | None, Cell]]) -> list[ActionOutcome]:
        """Run (move, dig) steps; every one must execute."""
        outcomes = []
        for move, dig in steps:
            if move is not None:
                assert self.engine.try_move(move).outcome == "executed", move
            outcomes.append(self.engine.try_dig(dig))
            assert outcomes[-1].outcome == "executed", dig
        return outcomes

    def stop(self) -> ActionOutcome:
        return self.engine.settle_batch([Intent("stop")])[0]

    def observables(self) -> tuple[Any, ...]:
        """Everything read-only an outsider can see of A2 and A3."""
        e, led = self.engine, self.ledger
        return (
            e.opened,
            e.flags,
            e.avatar,
            e.remaining_safe,
            led.phase,
            led.ap,
            led.rap,
            led.last_round_end,
        )

    def types(self, stream: list[dict[str, Any]] | None = None) -> list[str]:
        return [ev["type"] for ev in (self.stream if stream is None else stream)]


# A random legal board (hypothesis), for the engine's and the board's properties.
@st.composite
def boards(draw: st.DrawFn) -> Board:
    cols = draw(st.integers(5, 11))
    rows = draw(st.integers(5, 11))
    spawn = (draw(st.integers(1, cols - 2)), draw(st.integers(1, rows - 2)))
    spawn_area = {(spawn[0] + dx, spawn[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    free = [(x, y) for y in range(rows) for x in range(cols) if (x, y) not in spawn_area]
    mines = draw(st.lists(st.sampled_from(free), unique=True, min_size=1, max_size=len(free) // 4))
    plain = Board(cols, rows, mines, spawn)
    r0 = set(naive_r0(plain))
    fog_ok = [c for c in free if c not in r0 and c not in set(mines)]
    fog = draw(st.lists(st.sampled_from(fog_ok), unique=True, max_size=4)) if fog_ok else []
    board = Board(cols, rows, mines, spawn, variants={c: ("fog",) for c in fog})
    assume(check_install_invariants(board) is None)
    return board


# ---------------------------------------------------------------------------- runs
class PlayedRun:
    """A run played through the midend as the page plays it (:mod:`gridforge.mines.backend`):
    each input answers the page's envelope and is recorded in the run's save; anything else
    reads the run itself (``to_json``, ``session``, ``status``...)."""

    def __init__(self, seed: int | None = None, table: RunTable | None = None,
                 saved: Any = None) -> None:
        self.midend: Midend[Any, Any, Any, Any, Any, Any, Any] = Midend(Mines(table))
        turn = self.midend.open(seed) if saved is None else self.midend.resume(None, saved)
        self.id = turn.id
        self.run: Run = turn.game.run

    def _input(self, verb: str, **given: Any) -> dict[str, Any]:
        turn = self.midend.play(self.id, Input(verb, **given))
        return {**turn.envelope, **(turn.extra or {})}  # as the page's act answers

    def primary(self, cell: Cell) -> dict[str, Any]:
        return self._input("primary", cell=cell)

    def secondary(self, cell: Cell) -> dict[str, Any]:
        return self._input("secondary", cell=cell)

    def act(self, intent: Intent) -> dict[str, Any]:
        return self._input("act", intent=intent)

    def continue_run(self) -> dict[str, Any]:
        return self._input("continue")

    def refresh(self) -> dict[str, Any]:
        return self._input("refresh")

    def hint(self) -> dict[str, Any]:
        return self._input("hint")

    def save(self) -> Any:
        """What the page stores: the format, the seed, the table's fingerprint, the steps."""
        return self.midend.save(self.id)

    @property
    def steps(self) -> list[Any]:
        return list(self.save()["steps"])

    def __getattr__(self, name: str) -> Any:
        return getattr(self.run, name)


def replay_saved(saved: Any, table: RunTable | None = None) -> PlayedRun:
    """The run ``saved`` rebuilds, replayed by the midend (ValidationError when it cannot)."""
    return PlayedRun(table=table, saved=saved)
