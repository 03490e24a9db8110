"""The three events of the mines engine (seed 000, rule 2): plain JSON-ready dicts.

``cell_revealed`` for every opened cell, ``flag_judged`` for every flag standing when a
round-end transaction begins (row-major order, before the round end), ``round_end`` once per
round. Nothing else is ever emitted; adding an event type is interface drift.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

from gridforge.grid import Cell

if TYPE_CHECKING:
    from gridforge.mines.board import Board

EVENT_TYPES = ("cell_revealed", "flag_judged", "round_end")
KINDS = ("safe", "mine")
CHANNELS = ("initial", "chain", "dig")

__all__ = [
    "CHANNELS",
    "EVENT_TYPES",
    "KINDS",
    "CellRevealed",
    "Event",
    "FlagJudged",
    "RoundEnd",
    "RoundEndRecord",
    "cell_revealed",
    "flag_judged",
    "reveal_batch",
    "round_end",
]


class CellRevealed(TypedDict):
    """A cell opened: ``digit`` only on a safe cell (and never on an opened fog cell as the
    page sees it)."""

    type: Literal["cell_revealed"]
    cell: list[int]
    kind: str  # "safe" | "mine"
    digit: NotRequired[int]
    variant_ids: list[str]
    channel: str  # one of CHANNELS
    reward_eligible: bool


class FlagJudged(TypedDict):
    type: Literal["flag_judged"]
    cell: list[int]
    hit: bool


class RoundEndRecord(TypedDict):
    """The ledger's record of a round end (fields in ``ROUND_END_FIELDS`` order)."""

    path_tag: str
    continuation_hint: str
    round: int
    ap_forfeited: int
    rap_banked: int
    rap: int


class RoundEnd(TypedDict):
    """The ``round_end`` event: ``type``, then the record's fields in their order."""

    type: Literal["round_end"]
    path_tag: str
    continuation_hint: str
    round: int
    ap_forfeited: int
    rap_banked: int
    rap: int


Event = CellRevealed | FlagJudged | RoundEnd


def cell_revealed(
    cell: Cell, digit: int | None, variant_ids: tuple[str, ...], channel: str
) -> CellRevealed:
    """A revealed cell; ``digit`` None means a mine (the event then has no ``digit`` key).

    reward_eligible is a fact of the board face: a safe cell opened by a dig or its chain.
    """
    if digit is None:
        return {
            "type": "cell_revealed",
            "cell": [cell[0], cell[1]],
            "kind": "mine",
            "variant_ids": list(variant_ids),
            "channel": channel,
            "reward_eligible": False,
        }
    return {
        "type": "cell_revealed",
        "cell": [cell[0], cell[1]],
        "kind": "safe",
        "digit": digit,
        "variant_ids": list(variant_ids),
        "channel": channel,
        "reward_eligible": channel != "initial",
    }


def reveal_batch(
    board: Board, indices: Sequence[int], first_channel: str, channel: str
) -> list[CellRevealed]:
    """The events of the cells one transaction opened, in order (row-major indices).

    The first cell (the dug cell, or the first spawn cell) gets ``first_channel``, the rest
    ``channel``. Only the first can be a mine: a chain never enters a mine (F2) and the
    initial expansion never opens one (invariant 1 and the closure over safe cells).
    """
    if not indices:
        return []
    first = indices[0]
    digits, marks = board.flat.carried_digits, board.flat.variant_marks
    head = cell_revealed(
        (board.flat.xs[first], board.flat.ys[first]),
        None if board.flat.mine_flags[first] else digits[first],
        marks[first],
        first_channel,
    )
    xs, ys = board.flat.xs, board.flat.ys
    reward = channel != "initial"
    rest: list[CellRevealed] = [
        {
            "type": "cell_revealed",
            "cell": [xs[j], ys[j]],
            "kind": "safe",
            "digit": digits[j],
            "variant_ids": list(marks[j]),
            "channel": channel,
            "reward_eligible": reward,
        }
        for j in indices[1:]
    ]
    rest.insert(0, head)
    return rest


def flag_judged(cell: Cell, hit: bool) -> FlagJudged:
    """The judgement of one standing flag at a round end: ``hit`` iff a mine lies under it."""
    return {"type": "flag_judged", "cell": [cell[0], cell[1]], "hit": hit}


def round_end(record: RoundEndRecord) -> RoundEnd:
    """The round end, its fields copied field by field from the ledger's record."""
    return {"type": "round_end", **record}
