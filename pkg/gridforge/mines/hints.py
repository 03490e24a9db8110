"""Hints for a player in a run (seed 000's A1 solver, read for D1): the next cell to settle.

The solver (:func:`gridforge.mines.solver.deduce`) proves cells from what the player sees:
opened digits (an opened fog cell shows none, A4), dug mines (facts on the board), and the
board's mine total (the page always shows it). What the player has *marked* counts too,
but only where logic agrees: a flag on a cell the solver proves to be a mine is settled
knowledge, a flag anywhere else is a promise the hint does not build on.

A cell is *settled* when the player has nothing left to do about it: it is opened, or it
is a proved mine under a flag. The hint answers the first proof step (the solver's order:
cheapest rule first, row-major among equals) that proves a cell not yet settled, and names
that cell, the digits the proof used and a sentence in the player's words. Flagging the
hinted mine therefore moves the next hint to another cell; a flag on a proved safe cell is
itself the next thing to fix.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gridforge.grid import Cell
from gridforge.mines.solver import Step, deduce

__all__ = ["next_hint"]


def _cell_text(cell: Cell) -> str:
    return f"[{cell[0]}, {cell[1]}]"


def next_hint(
    cols: int,
    rows: int,
    opened: Mapping[Cell, int | None],
    known_mines: Iterable[Cell],
    flags: Iterable[Cell],
    mine_total: int | None,
) -> dict[str, Any]:
    """The next unsettled cell that logic proves, with its reason.

    :param opened: opened safe cells and the digit each shows (None: an opened fog cell).
    :param known_mines: dug mines (opened, known to the player).
    :param flags: the player's flags.
    :param mine_total: the board's mine total as the page shows it.
    :returns: ``{"cell": [x, y] | None, "kind": "safe" | "mine" | None, "action": "dig" |
        "flag" | "pull_flag" | None, "rule", "constraints": [[x, y], ...], "safe": [...],
        "mines": [...], "mine_count": bool, "text": str, "proved": {"safe": n, "mines": n}}``;
        ``cell`` is None when nothing is left to prove (``text`` says whether the board is
        done or a guess is needed).
    """
    flag_set = set(flags)
    deduction = deduce(cols, rows, opened, known_mines, mine_total)
    proved_mines = set(deduction.mines)
    settled_mines = proved_mines & flag_set
    proved = {"safe": len(deduction.safe), "mines": len(deduction.mines)}
    for step in deduction.steps:
        answer = _answer(step, settled_mines, flag_set, proved)
        if answer is not None:
            return answer
    concealed = cols * rows - len(opened) - len(set(known_mines))
    text = ("Every cell logic can prove is settled: the rest needs a guess."
            if concealed > len(settled_mines) else "Nothing is left to find on this board.")
    if not deduction.complete:
        text = "This position is too large to work through completely; no safe cell found."
    return {"cell": None, "kind": None, "action": None, "rule": None, "constraints": [],
            "safe": [], "mines": [], "mine_count": False, "text": text, "proved": proved}


def _answer(step: Step, settled_mines: set[Cell], flags: set[Cell],
            proved: dict[str, int]) -> dict[str, Any] | None:
    """The hint of ``step`` if it proves a cell not yet settled, else None."""
    safe = list(step.safe)
    mines = [c for c in step.mines if c not in settled_mines]
    if not safe and not mines:
        return None
    # A flag on a safe cell is the most urgent thing to fix; then a safe cell; then a mine.
    flagged_safe = [c for c in safe if c in flags]
    if flagged_safe:
        cell, kind, action = flagged_safe[0], "safe", "pull_flag"
        todo = f"your flag at {_cell_text(cell)} stands on a safe cell: pull it and dig there"
    elif safe:
        cell, kind, action = safe[0], "safe", "dig"
        todo = f"{_cell_text(cell)} is safe to dig"
    else:
        cell, kind, action = mines[0], "mine", "flag"
        todo = f"{_cell_text(cell)} is a mine: flag it or leave it alone"
    return {
        "cell": [cell[0], cell[1]],
        "kind": kind,
        "action": action,
        "rule": step.rule,
        "constraints": [[x, y] for x, y in step.constraints],
        "safe": [[x, y] for x, y in safe],
        "mines": [[x, y] for x, y in mines],
        "mine_count": step.mine_count,
        "text": f"{todo[0].upper()}{todo[1:]}. Why: {step.text}.",
        "proved": proved,
    }
