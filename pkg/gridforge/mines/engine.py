"""The mines rules engine (seed 000's A2): every board-face rule, and the source of all events.

The engine holds one installed :class:`~gridforge.mines.board.Board` and runs the player's
intents against it. It reports exactly three facts as plain dicts (``cell_revealed``,
``flag_judged``, ``round_end``) to its subscribers, and nothing else.

Contracts of the seed, and where they live here:

- Rule 3 / invariants 1-4: :func:`check_install_invariants`, fail-fast in :meth:`install_board`;
  a rejected install leaves every observable as it was.
- Rule 4 / F3: the install reveals R0 (the board's canonical BFS from the nine spawn cells)
  free of charge, channel ``initial``, never rewarded.
- Rules 5, 6, 11 / F2: a dig is checked on the board face (``not_adjacent``,
  ``target_revealed``, ``flag_present``), then paid through ``ledger.try_spend`` (A2 never
  touches AP itself), then opens its chain with the same BFS; flags block the chain by set
  difference, fog has no branch. A dug mine is a fact, opened and walkable.
- Rule 7: a move goes over opened cells (dug mines included) along a BFS path in row-major
  neighbour order; it is free and silent. :meth:`compute_move_path` returns that path.
- Rule 8: flags are board state; at a round end every standing flag is judged, row-major.
- Rules 9, 10 / F4: :meth:`settle_batch` is the one settlement entry. It orders a batch
  semantically (clearing digs, then stops, then the rest; stable within a class; the class
  is found by simulating the dig, never by counting), executes in that order, and voids
  every intent after the first round end. Board-path round ends (cleared, ap_exhausted)
  are emitted here after the flag judgements, copied from ``ledger.last_round_end``; a
  stop judges the flags and then hands over to ``ledger.request_stop()``, which emits the
  stopped round end itself.
- Rule 1, the four-zero ban: no randomness, no numeric literal, no table or file read,
  no UI import in this module (a test scans its syntax tree).

Check order for every intent: phase (no board, or the ledger not active), then the catalog
(``out_of_catalog`` with a debug diagnostic), then the board face in the seed's order, then
the resource face (``try_spend``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from typing import TYPE_CHECKING

from gridforge.errors import GridforgeError
from gridforge.grid import Cell
from gridforge.mines.board import Board
from gridforge.mines.events import Event, flag_judged, reveal_batch, round_end
from gridforge.mines.intents import EXECUTED, VOIDED, ActionOutcome, Intent

if TYPE_CHECKING:
    from gridforge.mines.ledger import Ledger

INSTALL_CATEGORIES = (
    "inv1_mine_in_spawn",
    "inv2a_variant_in_spawn",
    "inv2b_variant_in_r0",
    "inv3_digit_invariant",
    "inv4_r0_equals_s",
)

# Semantic order of a batch (F4): clearing digs, then stops, then everything else.
SEMANTIC_ORDER = ("C_dig", "C_stop", "C_other")
_RANK = {name: rank for rank, name in enumerate(SEMANTIC_ORDER)}

_PHASE = ActionOutcome.rejected("phase")
_RESOURCE = ActionOutcome.rejected("resource_face")
_BOARD_INVALID = ActionOutcome.rejected("board_invalid")
_CELL_KINDS = ("dig", "flag_place", "flag_pull", "move")

__all__ = ["INSTALL_CATEGORIES", "SEMANTIC_ORDER", "Engine", "check_install_invariants"]

Listener = Callable[[Event], None]


def _board_face(sub_reason: str) -> ActionOutcome:
    return ActionOutcome.rejected("board_face", sub_reason)


_NOT_ADJACENT = _board_face("not_adjacent")
_TARGET_REVEALED = _board_face("target_revealed")
_TARGET_CONCEALED = _board_face("target_concealed")
_FLAG_PRESENT = _board_face("flag_present")
_FLAG_ABSENT = _board_face("flag_absent")
_NO_PATH = _board_face("no_path")
_OUT_OF_CATALOG = _board_face("out_of_catalog")


def _install_check(board: Board) -> tuple[tuple[str, str] | None, list[int]]:
    """The first violated install invariant (category, message) or None, and R0's indices."""
    spawn = [board.index(c) for c in board.spawn_cells]
    mine = board.flat.mine_flags
    marks = board.flat.variant_marks
    for j in spawn:
        if mine[j]:
            return ("inv1_mine_in_spawn", f"mine at {list(board.cell(j))} in the spawn 3x3"), []
    for j in spawn:
        if marks[j]:
            where = list(board.cell(j))
            return ("inv2a_variant_in_spawn", f"variant {list(marks[j])} at {where} in spawn"), []
    r0 = board.initial_expansion_indices()
    for j in r0:
        if marks[j]:
            where = list(board.cell(j))
            return ("inv2b_variant_in_r0", f"variant {list(marks[j])} at {where} in R0"), r0
    carried, true = board.flat.carried_digits, board.flat.true_digits
    if carried != true:
        wrong = next(
            j for j, pair in enumerate(zip(carried, true, strict=True)) if pair[0] != pair[1]
        )
        message = f"digit at {list(board.cell(wrong))} is {carried[wrong]}, true {true[wrong]}"
        return ("inv3_digit_invariant", message), r0
    if len(r0) == board.safe_count:
        return ("inv4_r0_equals_s", "the initial expansion opens every safe cell (R0 = S)"), r0
    return None, r0


def check_install_invariants(board: Board) -> tuple[str, str] | None:
    """The first of the seed's install invariants that ``board`` violates, or None.

    Order: 1 no mine in the spawn 3x3; 2a no variant in it; 2b no variant in R0; 3 every
    carried digit is the true count of neighbouring mines; 4 R0 is not all of S.
    Returns ``(category, message)`` with a category of :data:`INSTALL_CATEGORIES`.
    """
    return _install_check(board)[0]


class Engine:
    """A2, driven by a :class:`~gridforge.mines.ledger.Ledger` (A3). See the module docstring."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.diagnostics: list[dict[str, str]] = []
        self._listeners: list[Listener] = []
        self._board: Board | None = None
        self._opened = bytearray()
        self._flags = bytearray()
        self._avatar = 0
        self._rem = 0

    # ------------------------------------------------------------ observers
    def subscribe(self, listener: Listener) -> None:
        """Receive the A2 face of the event stream (every event but the stopped round end)."""
        self._listeners.append(listener)

    @property
    def board(self) -> Board | None:
        """The installed board, or None (NoBoard)."""
        return self._board

    @property
    def opened(self) -> tuple[Cell, ...]:
        """O: the opened cells (dug mines included), row-major."""
        return self._cells_of(self._opened)

    @property
    def flags(self) -> tuple[Cell, ...]:
        """G: the flagged cells, row-major."""
        return self._cells_of(self._flags)

    @property
    def avatar(self) -> Cell | None:
        """The avatar's cell, or None without a board."""
        return None if self._board is None else self._board.cell(self._avatar)

    @property
    def remaining_safe(self) -> int:
        """rem = |S minus O| (F1): cleared iff it is zero."""
        return self._rem

    def is_open(self, cell: Cell) -> bool:
        board = self._board
        return board is not None and board.contains(cell) and bool(self._opened[board.index(cell)])

    def has_flag(self, cell: Cell) -> bool:
        board = self._board
        return board is not None and board.contains(cell) and bool(self._flags[board.index(cell)])

    def reset_diagnostics(self) -> None:
        """Forget collected diagnostics (each test case starts from none)."""
        self.diagnostics.clear()

    def _cells_of(self, marks: bytearray) -> tuple[Cell, ...]:
        board = self._board
        if board is None:
            return ()
        return tuple(board.cell(j) for j in compress(range(len(marks)), marks))

    def _diagnose(self, level: str, category: str, message: str) -> None:
        self.diagnostics.append({"level": level, "category": category, "message": message})

    # -------------------------------------------------------- orchestration
    def install_board(self, board: Board) -> ActionOutcome:
        """Install ``board``: check invariants 1-4, reveal R0, put the avatar on the spawn.

        Accepted while the ledger is idle or waiting, and in an active round only on the
        paid refresh path (``ledger.request_refresh()`` granted). A violation rejects with
        ``board_invalid`` and one error diagnostic; nothing changes.
        """
        if not isinstance(board, Board):
            raise GridforgeError(f"install_board needs a Board, got {type(board).__name__}")
        ledger = self.ledger
        if ledger.phase == "active" and not ledger.refresh_granted:
            self._diagnose("debug", "install_phase", "install_board during an active round")
            return _PHASE
        violation, r0 = _install_check(board)
        if violation is not None:
            self._diagnose("error", *violation)
            return _BOARD_INVALID
        if ledger.phase == "active":
            ledger.take_refresh()
        size = board.size
        self._board = board
        self._opened = bytearray(size)
        self._flags = bytearray(size)
        self._avatar = board.index(board.spawn)
        for j in r0:
            self._opened[j] = 1
        self._rem = board.safe_count - len(r0)
        if self._listeners:
            self._emit_all(reveal_batch(board, r0, "initial", "initial"))
        return EXECUTED

    def retire_board(self) -> ActionOutcome:
        """Let the board go (flags, avatar, opened cells with it); idempotent without one."""
        if self._board is None:
            return EXECUTED
        if self.ledger.phase == "active":
            self._diagnose("debug", "retire_phase", "retire_board during an active round")
            return _PHASE
        self._board = None
        self._opened = bytearray()
        self._flags = bytearray()
        self._avatar = self._rem = 0
        return EXECUTED

    # -------------------------------------------------------------- actions
    def settle_batch(self, intents: Sequence[Intent]) -> list[ActionOutcome]:
        """Settle a batch of intents: one outcome per intent, in the order given (F4)."""
        if not isinstance(intents, list | tuple):
            raise GridforgeError("settle_batch needs a list of intents")
        count = len(intents)
        if count == 1:
            order: Sequence[int] = range(count)
        else:
            ranks = [_RANK[self._class_of(intent)] for intent in intents]
            order = sorted(range(count), key=ranks.__getitem__)
        outcomes: list[ActionOutcome] = [VOIDED] * count
        ended = False
        for k in order:
            if ended:
                continue
            outcomes[k] = self._execute(intents[k])
            ended = outcomes[k] is EXECUTED and self.ledger.phase != "active"
        return outcomes

    def try_dig(self, cell: Cell) -> ActionOutcome:
        """Convenience form of ``settle_batch([Intent("dig", cell)])``."""
        return self.settle_batch([Intent("dig", cell)])[0]

    def try_flag_place(self, cell: Cell) -> ActionOutcome:
        """Convenience form of ``settle_batch([Intent("flag_place", cell)])``."""
        return self.settle_batch([Intent("flag_place", cell)])[0]

    def try_flag_pull(self, cell: Cell) -> ActionOutcome:
        """Convenience form of ``settle_batch([Intent("flag_pull", cell)])``."""
        return self.settle_batch([Intent("flag_pull", cell)])[0]

    def try_move(self, cell: Cell) -> ActionOutcome:
        """Convenience form of ``settle_batch([Intent("move", cell)])``."""
        return self.settle_batch([Intent("move", cell)])[0]

    def compute_move_path(self, cell: Cell) -> list[Cell]:
        """The move's BFS path over opened cells, avatar first, target last; [] if none."""
        board = self._board
        if board is None or not board.contains(cell):
            return []
        target = board.index(cell)
        if not self._opened[target]:
            return []
        return [board.cell(j) for j in self._path(target)]

    # ------------------------------------------------------------ internals
    def _catalog_index(self, intent: object) -> int | None:
        """The target index of an in-catalog cell intent, else None (with a debug note)."""
        board = self._board
        assert board is not None
        if (
            isinstance(intent, Intent)
            and intent.kind in _CELL_KINDS
            and board.contains(intent.cell)
        ):
            return board.index(intent.cell)
        return None

    def _class_of(self, intent: object) -> str:
        """class(I) at the batch's initial state, by simulating the dig (F4)."""
        if not isinstance(intent, Intent):
            return "C_other"
        if intent.kind == "stop":
            return "C_stop"
        board = self._board
        if intent.kind != "dig" or board is None or self.ledger.phase != "active":
            return "C_other"
        i = self._catalog_index(intent)
        if (
            i is None
            or i not in board.flat.neighbour_indices[self._avatar]
            or self._opened[i]
            or self._flags[i]
            or not self.ledger.can_afford("dig")
        ):
            return "C_other"
        # Simulate F2 on a scratch copy: a dug mine never clears, a chain may.
        cells = board.flood([i], bytearray(self._opened), self._flags)
        return "C_dig" if len(cells) - board.flat.mine_flags[i] == self._rem else "C_other"

    def _execute(self, intent: object) -> ActionOutcome:
        board = self._board
        ledger = self.ledger
        if board is None or ledger.phase != "active":
            return _PHASE
        if isinstance(intent, Intent) and intent.kind == "stop" and intent.cell is None:
            self._judge_flags()
            ledger.request_stop()
            return EXECUTED
        i = self._catalog_index(intent)
        if i is None:
            self._diagnose("debug", "out_of_catalog", f"intent out of catalog: {intent!r}")
            return _OUT_OF_CATALOG
        assert isinstance(intent, Intent)
        kind = intent.kind
        if kind == "move":
            return self._move(i)
        opened = self._opened
        flags = self._flags
        if i not in board.flat.neighbour_indices[self._avatar]:
            return _NOT_ADJACENT
        if kind == "flag_pull":
            if not flags[i]:
                return _FLAG_ABSENT
            if not ledger.try_spend(kind):
                return _RESOURCE
            flags[i] = 0
        else:
            if opened[i]:
                return _TARGET_REVEALED
            if flags[i]:
                return _FLAG_PRESENT
            if not ledger.try_spend(kind):
                return _RESOURCE
            if kind == "dig":
                self._dig(board, i)
            else:
                flags[i] = 1
        if ledger.phase != "active":
            self._judge_flags()
            record = ledger.last_round_end
            assert record is not None
            self._emit(round_end(record))
        return EXECUTED

    def _move(self, i: int) -> ActionOutcome:
        """Move the avatar to ``i`` over opened ground (free; nothing is emitted)."""
        if not self._opened[i]:
            return _TARGET_CONCEALED
        if i != self._avatar:
            if not self._path(i):
                return _NO_PATH
            self._avatar = i
        return EXECUTED

    def _dig(self, board: Board, i: int) -> None:
        """Open ``i`` and its chain (F2), emit the reveals, report to the ledger."""
        cells = board.flood([i], self._opened, self._flags)
        self._rem -= len(cells) - board.flat.mine_flags[i]
        if self._listeners:
            self._emit_all(reveal_batch(board, cells, "dig", "chain"))
        self.ledger.request_dig(len(cells) - 1, self._rem == 0)

    def _judge_flags(self) -> None:
        """One flag_judged per standing flag, row-major: hit iff a mine lies under it."""
        board = self._board
        assert board is not None
        mine = board.flat.mine_flags
        cols = board.cols
        for j in compress(range(len(self._flags)), self._flags):
            y, x = divmod(j, cols)
            self._emit(flag_judged((x, y), bool(mine[j])))

    def _path(self, target: int) -> list[int]:
        """BFS over opened cells from the avatar to ``target``, 8-neighbours row-major."""
        board = self._board
        assert board is not None
        start = self._avatar
        if start == target:
            return [start]
        opened = self._opened
        nbrs = board.flat.neighbour_indices
        parent = {start: start}
        queue = [start]
        append = queue.append
        for here in queue:  # a FIFO: iteration visits what is appended
            for j in nbrs[here]:
                if opened[j] and j not in parent:
                    parent[j] = here
                    if j == target:
                        path = [j]
                        while j != start:
                            j = parent[j]
                            path.append(j)
                        path.reverse()
                        return path
                    append(j)
        return []

    def _emit(self, event: Event) -> None:
        for listener in self._listeners:
            listener(event)

    def _emit_all(self, events: Sequence[Event]) -> None:
        for listener in self._listeners:
            for event in events:
                listener(event)
