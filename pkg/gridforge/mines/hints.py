"""Hints for a player in a run (seed 000's A1 solver, read for D1): the next cell to settle.

The solver (:func:`gridforge.mines.solver.deduce`) proves cells from what the player sees:
opened digits (an opened fog cell shows none, A4), dug mines (facts on the board), and the
board's mine total (the page always shows it). What the player has *marked* counts too,
but only where logic agrees: a flag on a cell the solver proves to be a mine is settled
knowledge, a flag anywhere else is a promise the hint does not build on.

A cell is *settled* when the player has nothing left to do about it: it is opened, or it
is a proved mine under a flag. The hint answers the first proof step (the solver's order:
cheapest rule first, row-major among equals) that proves a cell not yet settled, and names
that cell, the digits the proof used and a sentence in the player's words. The sentence
points at cells instead of numbering them (the board shows no coordinates): ``parts`` is
the sentence as pieces, a piece ``{"cell": [x, y], "text": "this cell"}`` naming a cell the
page highlights when the player hovers or taps it; ``text`` is the same sentence as plain
words. Flagging the
hinted mine therefore moves the next hint to another cell; a flag on a proved safe cell is
itself the next thing to fix.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from typing import TypedDict

from gridforge.grid import Cell
from gridforge.i18n import say, say_parts
from gridforge.mines.position import deduce
from gridforge.mines.solver import Step

__all__ = ["CellRef", "Hint", "Part", "Proved", "next_hint", "no_hint", "parts_text", "ref"]


class CellRef(TypedDict):
    """A piece of a sentence that points at a cell the page highlights."""

    cell: list[int]
    text: str


Part = str | CellRef


class Proved(TypedDict):
    safe: int
    mines: int


class Hint(TypedDict):
    """A hint (:func:`next_hint`); a run's hint adds its price
    (:class:`gridforge.mines.run.RunHint`)."""

    cell: list[int] | None
    kind: str | None
    action: str | None
    rule: str | None
    constraints: list[list[int]]
    safe: list[list[int]]
    mines: list[list[int]]
    mine_count: bool
    reachable: bool
    text: str
    parts: list[Part]
    proved: Proved


def no_hint(text: str, proved: Proved) -> Hint:
    """A hint that names no cell, with ``text`` saying why."""
    return {"cell": None, "kind": None, "action": None, "rule": None, "constraints": [],
            "safe": [], "mines": [], "mine_count": False, "reachable": False, "text": text,
            "parts": [text], "proved": proved}


def ref(cell: Cell | list[int], text: str) -> CellRef:
    """A piece of a sentence that points at ``cell`` on the board, in the words ``text``."""
    return {"cell": [cell[0], cell[1]], "text": text}


def parts_text(parts: list[Part]) -> str:
    """The sentence of ``parts`` as plain words."""
    return "".join(p if isinstance(p, str) else str(p["text"]) for p in parts)


def _reason(step: Step, digits: Mapping[Cell, int | None], cell: Cell) -> list[Part]:
    """Why ``step`` proves what it proves, pointing at the digits it reads (the catalogue's
    ``mines.hint.*`` words, in the call's language)."""
    cons = list(step.constraints)

    def digit(c: Cell) -> CellRef:
        return ref(c, say("mines.hint.this-digit", digit=str(digits.get(c))))

    if step.rule == "single" and cons:
        return say_parts("mines.hint.single-safe" if step.safe else "mines.hint.single-mine",
                         digit=digit(cons[0]))
    if step.rule == "subset" and len(cons) == 2:
        return say_parts("mines.hint.subset-safe" if step.safe else "mines.hint.subset-mine",
                         a=digit(cons[0]), b=digit(cons[1]))
    if step.rule == "mine_count":
        lead = say("mines.hint.lead-count")
    else:
        lead = say(("mines.hint.lead-fit-one" if len(cons) == 1 else "mines.hint.lead-fit")
                   + ("-total" if step.mine_count else ""), n=len(cons))
    verdict = "mines.hint.verdict-safe" if cell in step.safe else "mines.hint.verdict-mine"
    return say_parts(verdict, lead=lead, cell=ref(cell, say("mines.this-cell")))


def next_hint(
    cols: int,
    rows: int,
    opened: Mapping[Cell, int | None],
    known_mines: Iterable[Cell],
    flags: Iterable[Cell],
    mine_total: int | None,
    reachable: Container[Cell] | None = None,
) -> Hint:
    """The next unsettled cell that logic proves, with its reason.

    :param opened: opened safe cells and the digit each shows (None: an opened fog cell).
    :param known_mines: dug mines (opened, known to the player).
    :param flags: the player's flags.
    :param mine_total: the board's mine total as the page shows it.
    :param reachable: the concealed cells the player can act on now (beside ground the
        avatar can walk to); a proved cell among them is preferred to one out of reach.
        None: every cell counts as reachable.
    :returns: ``{"cell": [x, y] | None, "kind": "safe" | "mine" | None, "action": "dig" |
        "flag" | "pull_flag" | None, "rule", "constraints": [[x, y], ...], "safe": [...],
        "mines": [...], "mine_count": bool, "reachable": bool, "text": str,
        "proved": {"safe": n, "mines": n}}``; ``cell`` is None when nothing is left to
        prove (``text`` says whether the board is done or a guess is needed).
    """
    flag_set = set(flags)
    deduction = deduce(cols, rows, opened, known_mines, mine_total)
    settled_mines = set(deduction.mines) & flag_set
    proved: Proved = {"safe": len(deduction.safe), "mines": len(deduction.mines)}
    first: tuple[Step, Cell, str, str] | None = None
    for step in deduction.steps:
        for cell, kind, action in _candidates(step, settled_mines, flag_set):
            if first is None:
                first = (step, cell, kind, action)
            if reachable is None or cell in reachable:
                return _answer(step, cell, kind, action, settled_mines, True, proved,
                               opened)
    if first is not None:
        return _answer(*first, settled_mines, False, proved, opened)
    concealed = cols * rows - len(opened) - len(set(known_mines))
    text = say("mines.hint.guess" if concealed > len(settled_mines) else "mines.hint.done")
    if not deduction.complete:
        text = say("mines.hint.too-large")
    return no_hint(text, proved)


def _candidates(step: Step, settled_mines: set[Cell],
                flags: set[Cell]) -> list[tuple[Cell, str, str]]:
    """The cells ``step`` proves that are not settled, most urgent first: a flag on a safe
    cell (to pull), then safe cells (to dig), then mines not yet flagged."""
    out = [(c, "safe", "pull_flag") for c in step.safe if c in flags]
    out += [(c, "safe", "dig") for c in step.safe if c not in flags]
    out += [(c, "mine", "flag") for c in step.mines if c not in settled_mines]
    return out


def _answer(step: Step, cell: Cell, kind: str, action: str, settled_mines: set[Cell],
            reachable: bool, proved: Proved,
            digits: Mapping[Cell, int | None]) -> Hint:
    """The hint of ``step`` about ``cell``."""
    todo: list[Part]
    if action == "pull_flag":
        todo = say_parts("mines.hint.pull", cell=ref(cell, say("mines.this-cell")))
    else:
        todo = say_parts("mines.hint.dig" if action == "dig" else "mines.hint.mine",
                         cell=ref(cell, say("mines.this-cell-start")))
    if not reachable:
        todo = say_parts("mines.hint.unreachable", todo=todo)
    parts: list[Part] = say_parts("mines.hint.why", todo=todo, why=_reason(step, digits, cell))
    return {
        "cell": [cell[0], cell[1]],
        "kind": kind,
        "action": action,
        "rule": step.rule,
        "constraints": [[x, y] for x, y in step.constraints],
        "safe": [[x, y] for x, y in step.safe],
        "mines": [[x, y] for x, y in step.mines if (x, y) not in settled_mines],
        "mine_count": step.mine_count,
        "reachable": reachable,
        "text": parts_text(parts),
        "parts": parts,
        "proved": proved,
    }
