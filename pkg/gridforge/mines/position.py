"""What logic proves in one mines position as the player sees it (A1): :func:`deduce` on
opened cells, digits, known mines and, when the page shows it, the board's mine count;
:func:`hint` on a position in JSON (:func:`position_from_json` reads and checks it, every
bad field named). The rules themselves are :class:`gridforge.mines.solver.Deducer`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypedDict, TypeGuard

from gridforge.errors import (
    Field,
    Issues,
    Schema,
    ValidationError,
    field_path,
    is_int,
    refusal,
)
from gridforge.grid import Cell
from gridforge.jsontypes import JsonObject
from gridforge.mines.board import MAX_SIDE
from gridforge.mines.solver import (
    DEFAULT_MAX_STATES,
    MINE,
    SAFE,
    UNKNOWN,
    Deducer,
    Step,
    StepJson,
)


class DeductionJson(TypedDict):
    safe: list[list[int]]
    mines: list[list[int]]
    steps: list[StepJson]
    complete: bool


class PositionHint(TypedDict):
    """What logic proves in a position (:func:`hint`): every cell, and the first step."""

    safe: list[list[int]]
    mines: list[list[int]]
    complete: bool
    step: StepJson | None


class Position(TypedDict):
    """A validated position (:func:`position_from_json`): :func:`deduce`'s arguments."""

    cols: int
    rows: int
    opened: dict[Cell, int | None]
    known_mines: list[Cell]
    mine_total: int | None


# ------------------------------------------------------------ static positions
@dataclass(frozen=True)
class Deduction:
    """What logic proves in one position: cells safe and mined, and the steps, in order."""

    safe: tuple[Cell, ...]
    mines: tuple[Cell, ...]
    steps: tuple[Step, ...]
    complete: bool = True

    def to_json(self) -> DeductionJson:
        return {
            "safe": [[x, y] for x, y in self.safe],
            "mines": [[x, y] for x, y in self.mines],
            "steps": [s.to_json() for s in self.steps],
            "complete": self.complete,
        }


def deduce(
    cols: int,
    rows: int,
    opened: Mapping[Cell, int | None],
    known_mines: Iterable[Cell] = (),
    mine_total: int | None = None,
    max_steps: int | None = None,
    max_states: int = DEFAULT_MAX_STATES,
) -> Deduction:
    """Everything logic proves in a position as the player sees it.

    :param opened: opened cells; the value is the digit shown, or None for a fog cell.
    :param known_mines: mines the player knows for a fact (dug mines).
    :param mine_total: the total mine count if the page shows it.
    :param max_steps: stop after this many steps (1 gives a hint).
    :raises GridforgeError: when the digits contradict each other.
    """
    ded = Deducer(cols, rows, mine_total, max_states)
    for x, y in sorted(known_mines, key=lambda c: (c[1], c[0])):
        ded.set_mine(y * cols + x)
    cells = sorted(opened, key=lambda c: (c[1], c[0]))
    for x, y in cells:
        ded.set_safe(y * cols + x)
    for x, y in cells:
        digit = opened[(x, y)]
        if digit is not None:
            ded.add_clue(y * cols + x, digit)
    unknown_before = [i for i in range(ded.size) if ded.state[i] == UNKNOWN]
    steps = ded.run(max_steps)
    safe = [i for i in unknown_before if ded.state[i] == SAFE]
    mines = [i for i in unknown_before if ded.state[i] == MINE]
    return Deduction(ded.cells_of(safe), ded.cells_of(mines), tuple(steps), ded.complete)


def _position_cell_ok(value: object, path: str, length: int, cols: int, rows: int,
                      issues: Issues) -> TypeGuard[list[Any]]:
    """Whether a position's entry is ``length`` values starting with a cell on the board;
    when not, the issue goes to ``issues``."""
    if not isinstance(value, list) or len(value) != length or not all(
        is_int(v) for v in value[:2]
    ):
        issues.add(path, "type", f"expected {length} values [x, y, ...]")
        return False
    if not (0 <= value[0] < cols and 0 <= value[1] < rows):
        issues.add(path, "off_board", f"cell {value[:2]} is outside the board")
        return False
    return True


_CellOk = Callable[[object, str, int], TypeGuard[list[Any]]]


def _opened_cells(raw: list[object], cell_ok: _CellOk, issues: Issues) -> dict[Cell, int | None]:
    """A position's ``opened`` entries ``[x, y, digit|null]`` by cell, problems to
    ``issues``."""
    opened: dict[Cell, int | None] = {}
    for i, entry in enumerate(raw):
        path = field_path("opened", i)
        if not cell_ok(entry, path, 3):
            continue
        digit = entry[2]
        if digit is not None and (not is_int(digit) or not 0 <= digit <= 8):
            issues.add(path, "range", f"a digit is 0..8 or null, got {digit!r}")
            continue
        c = (entry[0], entry[1])
        if c in opened:
            issues.add(path, "duplicate", f"cell {list(c)} opened twice")
        opened[c] = digit
    return opened


def _listed(name: str, shape: str) -> Field:
    return Field(name, "list", f"{name} is a list of {shape}", "type", default=[], fallback=[])


# A position's fields, declared once (position_from_json reads them).
_POSITION = Schema((
    *(Field(name, "int", "must be an integer in 1..{hi}, got {value!r}", lo=1, hi=MAX_SIDE)
      for name in ("cols", "rows")),
    _listed("opened", "[x, y, digit|null]"), _listed("known_mines", "[x, y]"),
    Field("mine_total", "int", "must be 0..{hi} or null", lo=0, nullable=True),  # hi: the area
), not_object="a position is a JSON object")


def position_from_json(data: object) -> Position:
    """Validate a position ``{"cols", "rows", "opened": [[x, y, digit|null]], "known_mines":
    [[x, y]], "mine_total": int|null}`` and return :func:`deduce`'s keyword arguments.

    :raises ValidationError: naming every faulty field.
    """
    issues = Issues()
    position = _POSITION.read(_POSITION.root(data, "position"), issues)
    position.check("cols", "rows")
    if position.bad("cols") or position.bad("rows"):
        raise ValidationError(issues, "position")
    cols, rows = position.integer("cols"), position.integer("rows")
    for name in ("opened", "known_mines"):
        listed = position.data.get(name)
        if isinstance(listed, list) and len(listed) > cols * rows:
            # Refused before any entry is read: more entries than cells repeat some.
            raise refusal("position", name, "too_many", f"{len(listed)} entries, but a "
                          f"{cols}x{rows} board has only {cols * rows} cells")

    def cell_ok(value: object, path: str, length: int) -> TypeGuard[list[Any]]:
        return _position_cell_ok(value, path, length, cols, rows, issues)

    position.check("opened")
    opened = _opened_cells(position.listed("opened"), cell_ok, issues)
    position.check("known_mines")
    mines: list[Cell] = []
    for i, entry in enumerate(position.listed("known_mines")):
        path = field_path("known_mines", i)
        if cell_ok(entry, path, 2):
            c = (entry[0], entry[1])
            if c in opened or c in mines:
                issues.add(path, "duplicate", f"cell {list(c)} given twice")
            mines.append(c)
    position.check_fields([replace(_POSITION.by_name["mine_total"], hi=cols * rows)])
    issues.raise_if_any("position")
    total = position.values["mine_total"]
    assert total is None or is_int(total)
    return {"cols": cols, "rows": rows, "opened": opened, "known_mines": mines,
            "mine_total": total}


def hint(position: JsonObject) -> PositionHint:
    """Browser/CLI entry: the next step a player can take in ``position``, and all it proves.

    Returns ``{"step": step|null, "safe": [...], "mines": [...], "complete": bool}`` where
    ``safe``/``mines`` are every cell logic proves (``step`` is the first of those proofs).
    """
    out = deduce(**position_from_json(position)).to_json()
    return {"safe": out["safe"], "mines": out["mines"], "complete": out["complete"],
            "step": out["steps"][0] if out["steps"] else None}
