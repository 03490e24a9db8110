"""The three events of the mines engine (seed 000, rule 2): plain JSON-ready dicts.

``cell_revealed`` for every opened cell, ``flag_judged`` for every flag standing when a
round-end transaction begins (row-major order, before the round end), ``round_end`` once per
round. Nothing else is ever emitted; adding an event type is interface drift.
"""

from __future__ import annotations

from typing import Any

from gridforge.grid import Cell

EVENT_TYPES = ("cell_revealed", "flag_judged", "round_end")
KINDS = ("safe", "mine")
CHANNELS = ("initial", "chain", "dig")

__all__ = ["CHANNELS", "EVENT_TYPES", "KINDS", "cell_revealed", "flag_judged", "round_end"]


def cell_revealed(
    cell: Cell, digit: int | None, variant_ids: tuple[str, ...], channel: str
) -> dict[str, Any]:
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


def flag_judged(cell: Cell, hit: bool) -> dict[str, Any]:
    """The judgement of one standing flag at a round end: ``hit`` iff a mine lies under it."""
    return {"type": "flag_judged", "cell": [cell[0], cell[1]], "hit": hit}


def round_end(record: dict[str, Any]) -> dict[str, Any]:
    """The round end, its fields copied field by field from the ledger's record."""
    return {"type": "round_end", **record}
