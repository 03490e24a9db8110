"""The mines board: the product of A1 that A2 installs (seed 000, "Board class_name").

A :class:`Board` is an immutable value: a ``cols`` x ``rows`` grid, its mine set M, the
centre of the 3x3 spawn B3, read-only variant marks per cell (A4: ``{cell: ("fog",)}``) and
the digits it carries for its safe cells. Digits are computed from the mines unless given;
given digits are kept as given, so that a tampered board can be built and then fail the
engine's install invariant 3 (the seed's ``b_invalid_digit``).

Construction checks the *structure* only (types, bounds, duplicates, a variant only on a
safe cell, a digit only on a safe cell and within 0..8) and reports every problem at once
with a field path. The seed's four install invariants are the engine's business
(:func:`gridforge.mines.engine.check_install_invariants`), not this module's.

:func:`initial_expansion` computes R0 (seed F3): a FIFO breadth-first search whose queue
starts with the nine spawn cells in row-major order; a dequeued safe cell whose true digit
is 0 enqueues, in row-major neighbour order, each neighbour that is safe and not yet queued.
The same :meth:`Board.flood` serves the engine's chains (F2), so R0 and a dig's chain are
one operator, as the seed's red line 2 and F3 demand.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple, NotRequired, TypedDict, TypeGuard

from gridforge.errors import (
    Field,
    GridforgeError,
    Issues,
    Schema,
    ValidationError,
    field_path,
    is_int,
    parse_json,
    refusal,
)
from gridforge.grid import NEIGHBOURS_8, Cell, in_bounds

BOARD_FORMAT = "gridforge.mines.board/1"

# Offsets of the 3x3 spawn around its centre, in row-major order.
SPAWN_OFFSETS: tuple[Cell, ...] = (
    (-1, -1), (0, -1), (1, -1),
    (-1, 0), (0, 0), (1, 0),
    (-1, 1), (0, 1), (1, 1),
)  # fmt: skip

# A digit counts the mines among 8 neighbours.
MAX_DIGIT = len(NEIGHBOURS_8)
# A board must hold its spawn 3x3.
MIN_SIDE = 3
# Largest side accepted from input: bounds the memory and time of every tool that reads a
# board (``mines solve`` on a 256x256 board: a few seconds and ~150 MiB, measured by
# bench/mines_limits.py and stated in docs/mines-engine.md).
MAX_SIDE = 256
# Largest board file read from disk: a 256x256 board with 90 % mines and all its digits
# takes 1.0 MB compact, 2.7 MB indented by 2; a file listing one mine two million times
# (12 MB) is refused unread.
MAX_BOARD_BYTES = 4 * 1024 * 1024

_BOARD_KEYS = ("format", "cols", "rows", "spawn", "mines", "variants", "digits")

__all__ = [
    "BOARD_FORMAT",
    "MAX_BOARD_BYTES",
    "MAX_SIDE",
    "Board",
    "initial_expansion",
    "spawn_cells",
]


class BoardJson(TypedDict):
    """A board in its file format (:meth:`Board.to_json`); ``digits`` only on a board whose
    carried digits differ from the true ones (null on a mine)."""

    format: str
    cols: int
    rows: int
    spawn: list[int]
    mines: list[list[int]]
    variants: dict[str, list[list[int]]]
    digits: NotRequired[list[list[int | None]]]


def spawn_cells(spawn: Cell) -> list[Cell]:
    """The nine cells of the 3x3 spawn centred on ``spawn``, in row-major order."""
    x, y = spawn
    return [(x + dx, y + dy) for dx, dy in SPAWN_OFFSETS]



def _cell_entries(table: object, name: str, not_a_map: str, cols: int | None, rows: int | None,
                  issues: Issues) -> Iterator[tuple[Cell, Any, str]]:
    """The entries ``(cell, value, path)`` of the optional cell-keyed mapping ``table`` (field
    ``name``) whose key is a cell on the board; every other problem goes to ``issues``."""
    if table is None:
        return
    if not isinstance(table, Mapping):
        issues.add(name, "type", not_a_map)
        return
    for cell, value in table.items():
        path = f"{name}[{list(cell) if isinstance(cell, tuple) else cell!r}]"
        if not _is_cell(cell, path, cols, rows, issues):
            continue
        yield (cell[0], cell[1]), value, path


def _is_cell(value: object, path: str, cols: int | None, rows: int | None,
             issues: Issues) -> bool:
    """Whether ``value`` is a cell ``[x, y]`` inside the board (an issue at ``path`` if not)."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        issues.add(path, "type", f"a cell is [x, y], got {value!r}")
    elif not (is_int(value[0]) and is_int(value[1])):
        issues.add(path, "type", f"cell coordinates must be integers, got {value!r}")
    elif cols is not None and rows is not None and not in_bounds((value[0], value[1]), cols,
                                                                 rows):
        issues.add(path, "off_board", f"cell {list(value)} is outside the {cols}x{rows} board")
    else:
        return True
    return False


def _too_many_mines(count: int, cols: int, rows: int) -> ValidationError:
    return refusal("mines board", "mines", "too_many",
                   f"{count} entries, but a {cols}x{rows} board has only {cols * rows} cells")


def _check_side(value: object, path: str, issues: Issues) -> None:
    if not is_int(value):
        issues.add(path, "type", f"must be an integer, got {value!r}")
    elif not MIN_SIDE <= value <= MAX_SIDE:
        issues.add(path, "range", f"must be in {MIN_SIDE}..{MAX_SIDE}, got {value}")



def _mine_cells(mines: Iterable[Cell], cols: int, rows: int, issues: Issues) -> list[Cell]:
    """The mine cells of a board being built, each problem added to ``issues``.

    :raises ValidationError: at once when ``mines`` is no list or longer than the board.
    """
    try:
        mine_seq = list(mines)
    except TypeError:
        raise refusal("mines board", "mines", "type", "mines must be a list of cells") from None
    if len(mine_seq) > cols * rows:
        raise _too_many_mines(len(mine_seq), cols, rows)
    mine_cells: list[Cell] = []
    seen: set[Cell] = set()
    for i, cell in enumerate(mine_seq):
        if not _is_cell(cell, field_path("mines", i), cols, rows, issues):
            continue
        c = (cell[0], cell[1])
        if c in seen:
            issues.add(field_path("mines", i), "duplicate", f"mine {list(c)} twice")
        seen.add(c)
        mine_cells.append(c)
    return mine_cells


def _variant_marks(variants: object, mine_set: frozenset[Cell], cols: int, rows: int,
                   issues: Issues) -> dict[Cell, tuple[str, ...]]:
    """The variant marks of a board being built (safe cells only), problems to ``issues``."""
    variant_map: dict[Cell, tuple[str, ...]] = {}
    for c, ids, path in _cell_entries(variants, "variants", "variants must map cells to "
                                      "id lists", cols, rows, issues):
        id_list = [ids] if isinstance(ids, str) else ids
        if not isinstance(id_list, Iterable) or not all(
            isinstance(v, str) and v for v in id_list
        ):
            issues.add(path, "type", "variant ids must be non-empty strings")
            continue
        clean = tuple(sorted(set(id_list)))
        if not clean:
            continue
        if c in mine_set:
            issues.add(path, "variant_on_mine", f"variant on mine cell {list(c)}")
            continue
        variant_map[c] = clean
    return variant_map


def _carried_digits(digits: object, mine_set: frozenset[Cell], cols: int, rows: int,
                    issues: Issues) -> dict[Cell, int]:
    """The digits a board being built carries (every safe cell when given at all), problems
    to ``issues``."""
    digit_map: dict[Cell, int] = {}
    for c, value, path in _cell_entries(digits, "digits", "digits must map cells to "
                                        "integers", cols, rows, issues):
        if c in mine_set:
            issues.add(path, "digit_on_mine", "a mine cell has no digit")
        elif not is_int(value) or not 0 <= value <= MAX_DIGIT:
            issues.add(path, "range", f"digit must be 0..8, got {value!r}")
        else:
            digit_map[c] = value
    if isinstance(digits, Mapping) and not issues:
        for y in range(rows):
            for x in range(cols):
                if (x, y) not in mine_set and (x, y) not in digit_map:
                    issues.add(f"digits[{[x, y]}]", "missing", "safe cell lacks a digit")
    return digit_map



def _json_mines(mines: object, cols: int, rows: int, issues: Issues) -> list[Any]:
    """A board file's ``mines`` (a list of cells), problems to ``issues``.

    :raises ValidationError: at once when the list is longer than the board has cells.
    """
    if not isinstance(mines, list):
        issues.add("mines", "type", "mines must be a list of cells")
        return []
    if len(mines) > cols * rows:
        # Refused before any cell is looked at: a list longer than the board has cells
        # holds a duplicate at least, and could be millions of entries long.
        raise _too_many_mines(len(mines), cols, rows)
    for i, cell in enumerate(mines):
        _is_cell(cell, field_path("mines", i), cols, rows, issues)
    return mines


def _side_range(value: int) -> tuple[str, str] | None:
    if not MIN_SIDE <= value <= MAX_SIDE:
        return ("range", f"must be in {MIN_SIDE}..{MAX_SIDE}, got {value}")
    return None


# A board file's fields, declared once (Board.from_json reads them; the cells are checked
# by the functions above, against the size).
_BOARD = Schema((
    Field("format", message=f"format must be {BOARD_FORMAT!r}, got {{value!r}}", code="format",
          choices=(BOARD_FORMAT,)),
    *(Field(side, "int", "must be an integer, got {value!r}", "type", required=True,
            then=_side_range) for side in ("cols", "rows")),
    Field("spawn", required=True), Field("mines", required=True),
    Field("variants"), Field("digits"),
), not_object="a board is a JSON object", missing_first=True)


def _json_variants(raw_variants: object, cols: int, rows: int, issues: Issues
                   ) -> dict[Cell, list[str]]:
    """A board file's ``variants`` (id -> cells) turned cell -> ids, problems to ``issues``."""
    variants: dict[Cell, list[str]] = {}
    if not isinstance(raw_variants, Mapping):
        issues.add("variants", "type", "variants map an id to a list of cells")
        return variants
    for vid in sorted(raw_variants, key=str):
        cells = raw_variants[vid]
        base = field_path("variants", str(vid))
        if not isinstance(vid, str) or not vid:
            issues.add(base, "type", "a variant id is a non-empty string")
            continue
        if not isinstance(cells, list):
            issues.add(base, "type", "a variant lists its cells")
            continue
        for i, cell in enumerate(cells):
            path = field_path(base, i)
            if not _is_cell(cell, path, cols, rows, issues):
                continue
            ids = variants.setdefault((cell[0], cell[1]), [])
            if vid in ids:
                issues.add(path, "duplicate", f"cell {cell} twice in {vid!r}")
            ids.append(vid)
    return variants


def _json_digits(raw_digits: object, mines: list[Any], cols: int, rows: int,
                 issues: Issues) -> dict[Cell, int] | None:
    """A board file's optional ``digits`` (rows of values, null on mines) by cell, problems
    to ``issues``; None when the file carries none."""
    if raw_digits is None:
        return None
    mine_cells = {(c[0], c[1]) for c in mines if _is_cell(c, "", cols, rows, Issues())}
    digits: dict[Cell, int] = {}
    if not isinstance(raw_digits, list) or len(raw_digits) != rows:
        issues.add("digits", "type", f"digits are {rows} rows of {cols} values")
        return digits
    for y, row in enumerate(raw_digits):
        if not isinstance(row, list) or len(row) != cols:
            issues.add(field_path("digits", y), "type", f"a row has {cols} values")
            continue
        for x, value in enumerate(row):
            path = field_path("digits", y, x)
            if (x, y) in mine_cells:
                if value is not None:
                    issues.add(path, "digit_on_mine", "a mine's digit is null")
            elif not is_int(value) or not 0 <= value <= MAX_DIGIT:
                issues.add(path, "range", f"digit must be 0..8, got {value!r}")
            else:
                digits[(x, y)] = value
    return digits


class FlatView(NamedTuple):
    """A board's read-only arrays, each indexed by row-major cell index."""

    mine_flags: bytes  # 1 per mine cell
    neighbour_indices: tuple[tuple[int, ...], ...]  # in-bounds 8-neighbours, row-major order
    true_digits: tuple[int, ...]  # num(x); -1 for a mine
    carried_digits: tuple[int, ...]  # the digit the board carries; -1 for a mine
    xs: tuple[int, ...]  # x of each cell
    ys: tuple[int, ...]  # y of each cell
    variant_marks: tuple[tuple[str, ...], ...]  # variant ids of each cell


class Board:
    """An immutable mines board (A1's product). See the module docstring.

    :param cols: columns (x from 0 at the left).
    :param rows: rows (y from 0 at the top).
    :param mines: the mine cells.
    :param spawn: the centre of the 3x3 spawn; the whole 3x3 lies inside the board.
    :param variants: read-only variant marks, ``{cell: ("fog",)}``; only on safe cells.
    :param digits: ``{cell: int}`` for every safe cell; computed from the mines when omitted.
    :raises ValidationError: on any structural problem, listing every one with its path.
    """

    __slots__ = (
        "_digit_list",
        "_digits_view",
        "_flat",
        "_key",
        "_mine_list",
        "_nbrs",
        "_true_list",
        "_variant_list",
        "_xs",
        "_ys",
        "_zero",
        "cols",
        "mines",
        "rows",
        "spawn",
        "variants",
    )

    cols: int
    rows: int
    mines: frozenset[Cell]
    spawn: Cell
    variants: Mapping[Cell, tuple[str, ...]]

    def __init__(
        self,
        cols: int,
        rows: int,
        mines: Iterable[Cell],
        spawn: Cell,
        variants: Mapping[Cell, Iterable[str]] | None = None,
        digits: Mapping[Cell, int] | None = None,
    ) -> None:
        issues = Issues()
        for name, side in (("cols", cols), ("rows", rows)):
            _check_side(side, name, issues)
        if issues:
            raise ValidationError(issues, "mines board")
        mine_set = frozenset(_mine_cells(mines, cols, rows, issues))
        if _is_cell(spawn, "spawn", cols, rows, issues):
            sx, sy = spawn
            if not (1 <= sx <= cols - 2 and 1 <= sy <= rows - 2):
                issues.add("spawn", "bounds", "the spawn 3x3 around it must lie inside the board")
        variant_map = _variant_marks(variants, mine_set, cols, rows, issues)
        digit_map = _carried_digits(digits, mine_set, cols, rows, issues)
        if issues:
            raise ValidationError(issues, "mines board")

        self.cols = cols
        self.rows = rows
        self.mines = mine_set
        self.spawn = (spawn[0], spawn[1])
        n = cols * rows
        mine_list = bytearray(n)
        for x, y in mine_set:
            mine_list[y * cols + x] = 1
        nbrs: list[tuple[int, ...]] = []
        true_list: list[int] = []
        # Neighbour tuples share one int object per index (memory: ~8 bytes per reference
        # instead of a fresh 28-byte int each).
        ints = tuple(range(n))
        for y in range(rows):
            for x in range(cols):
                here = tuple(
                    ints[(y + dy) * cols + (x + dx)]
                    for dx, dy in NEIGHBOURS_8
                    if 0 <= x + dx < cols and 0 <= y + dy < rows
                )
                nbrs.append(here)
                true_list.append(-1 if mine_list[y * cols + x] else sum(mine_list[j] for j in here))
        self._mine_list = bytes(mine_list)
        self._nbrs = tuple(nbrs)
        self._true_list = tuple(true_list)
        # 1 on safe cells whose true digit is 0: the only cells a chain spreads from.
        self._zero = bytes(d == 0 for d in true_list)
        self._xs = tuple(x for _ in range(rows) for x in range(cols))
        self._ys = tuple(y for y in range(rows) for _ in range(cols))
        if digits is None:
            digit_list = list(true_list)
        else:
            digit_list = [-1] * n
            for (x, y), value in digit_map.items():
                digit_list[y * cols + x] = value
        self._digit_list = tuple(digit_list)
        # Read-only views: the board is a snapshot, never a live reference to a table.
        self._digits_view: Mapping[Cell, int] | None = None
        self.variants = MappingProxyType(
            {c: variant_map[c] for c in sorted(variant_map, key=lambda c: (c[1], c[0]))}
        )
        variant_list: list[tuple[str, ...]] = [()] * n
        for (x, y), ids in self.variants.items():
            variant_list[y * cols + x] = ids
        self._variant_list = tuple(variant_list)
        self._flat = FlatView(self._mine_list, self._nbrs, self._true_list, self._digit_list,
                              self._xs, self._ys, self._variant_list)
        self._key: str | None = None

    # ----------------------------------------------------------------- cells
    @property
    def digits(self) -> Mapping[Cell, int]:
        """The carried digit of every safe cell, ``{cell: int}`` (read-only, built on demand)."""
        if self._digits_view is None:
            cols = self.cols
            self._digits_view = MappingProxyType(
                {(i % cols, i // cols): d for i, d in enumerate(self._digit_list) if d >= 0}
            )
        return self._digits_view

    @property
    def size(self) -> int:
        """Number of cells, ``cols * rows``."""
        return self.cols * self.rows

    @property
    def safe_count(self) -> int:
        """|S|: number of safe cells."""
        return self.size - len(self.mines)

    @property
    def spawn_cells(self) -> list[Cell]:
        """B3: the nine spawn cells in row-major order."""
        return spawn_cells(self.spawn)

    def index(self, cell: Cell) -> int:
        """Row-major index of an in-bounds ``cell``."""
        return cell[1] * self.cols + cell[0]

    def cell(self, index: int) -> Cell:
        """The cell at row-major ``index``."""
        return (index % self.cols, index // self.cols)

    def contains(self, cell: object) -> TypeGuard[Cell]:
        """Whether ``cell`` is a pair of ints inside the board."""
        return (
            isinstance(cell, tuple | list)
            and len(cell) == 2
            and is_int(cell[0])
            and is_int(cell[1])
            and in_bounds((cell[0], cell[1]), self.cols, self.rows)
        )

    def is_mine(self, cell: Cell) -> bool:
        """Whether ``cell`` holds a mine."""
        return bool(self._mine_list[self.index(cell)])

    def digit(self, cell: Cell) -> int | None:
        """The digit the board carries for ``cell`` (None for a mine)."""
        d = self._digit_list[self.index(cell)]
        return None if d < 0 else d

    def true_digit(self, cell: Cell) -> int | None:
        """num(x): the number of mines among the 8 neighbours (None for a mine)."""
        d = self._true_list[self.index(cell)]
        return None if d < 0 else d

    def variant_ids(self, cell: Cell) -> tuple[str, ...]:
        """The read-only variant marks of ``cell`` (empty for a plain cell)."""
        return self._variant_list[self.index(cell)]

    def marked(self, variant: str) -> list[Cell]:
        """The cells that carry the variant mark ``variant`` (``"fog"``)."""
        return [cell for cell, ids in self.variants.items() if variant in ids]

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The in-bounds 8-neighbours of ``cell`` in row-major order."""
        return [self.cell(j) for j in self._nbrs[self.index(cell)]]

    # ----------------------------------------------------------- flat views
    @property
    def flat(self) -> FlatView:
        """The board's read-only arrays by row-major index (what the engine works on)."""
        return self._flat

    def flood(
        self, starts: Sequence[int], opened: bytearray, flagged: bytes | bytearray | None = None
    ) -> list[int]:
        """The canonical BFS of F2/F3 over row-major indices, opening cells in ``opened``.

        ``starts`` are enqueued in the given order (each must not be open yet, and is marked
        open here). A dequeued safe cell whose true digit is 0 enqueues each neighbour that is
        safe, not open, not flagged, in row-major neighbour order. Returns the cells in the
        order they were dequeued (the emission order). ``opened`` is updated in place.
        """
        zero = self._zero
        if not any(zero[i] for i in starts):  # a plain dig: nothing spreads
            for i in starts:
                opened[i] = 1
            return list(starts)
        size = len(opened)
        # One mask of everything the chain may not enter: open, mined or flagged cells.
        # The byte-wise OR of 0/1 byte strings is an OR of big integers (done in C).
        blocked = int.from_bytes(opened, "little") | int.from_bytes(self._mine_list, "little")
        if flagged is not None:
            blocked |= int.from_bytes(flagged, "little")
        closed = bytearray(blocked.to_bytes(size, "little"))
        queue = list(starts)
        for i in queue:
            closed[i] = 1
        nbrs = self._nbrs
        append = queue.append
        # Iterating a list while appending to it visits the appended items: a FIFO queue.
        for i in queue:
            if zero[i]:
                for j in nbrs[i]:
                    if not closed[j]:
                        closed[j] = 1
                        append(j)
        for i in queue:
            opened[i] = 1
        return queue

    def initial_expansion_indices(self) -> list[int]:
        """R0 as row-major indices, in canonical order."""
        return self.flood([self.index(c) for c in self.spawn_cells], bytearray(self.size))

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> BoardJson:
        """The board as a JSON-ready dict (format ``gridforge.mines.board/1``).

        Mines and variant cells are listed in row-major order; ``digits`` (rows, ``None`` on a
        mine) is written only when the carried digits differ from the true ones.
        """
        by_id: dict[str, list[list[int]]] = {}
        for (x, y), ids in self.variants.items():
            for vid in ids:
                by_id.setdefault(vid, []).append([x, y])
        out: BoardJson = {
            "format": BOARD_FORMAT,
            "cols": self.cols,
            "rows": self.rows,
            "spawn": [self.spawn[0], self.spawn[1]],
            "mines": [[x, y] for x, y in sorted(self.mines, key=lambda c: (c[1], c[0]))],
            "variants": {vid: by_id[vid] for vid in sorted(by_id)},
        }
        if self._digit_list != self._true_list:
            out["digits"] = [
                [
                    None
                    if self._digit_list[y * self.cols + x] < 0
                    else self._digit_list[y * self.cols + x]
                    for x in range(self.cols)
                ]
                for y in range(self.rows)
            ]
        return out

    def dumps(self) -> str:
        """The board as canonical JSON text (same board, same bytes)."""
        return json.dumps(self.to_json(), separators=(",", ":")) + "\n"

    @classmethod
    def from_json(cls, source: object) -> Board:
        """Load a board from JSON text or a parsed dict, validating every field.

        :raises ValidationError: naming each faulty field (``mines[2]``, ``digits[1][4]``).
        """
        given = _BOARD.root(parse_json(source, "mines board")
                            if isinstance(source, str | bytes) else source, "mines board")
        issues = Issues()
        data = _BOARD.read(given, issues)
        data.check("format")
        data.check("cols", "rows", "spawn", "mines")
        if data.bad("cols") or data.bad("rows"):
            raise ValidationError(issues, "mines board")
        cols, rows = data.integer("cols"), data.integer("rows")
        spawn = given.get("spawn")
        if "spawn" in given:
            _is_cell(spawn, "spawn", cols, rows, issues)
        mines = _json_mines(given.get("mines", []), cols, rows, issues)
        variants = _json_variants(given.get("variants", {}), cols, rows, issues)
        digits = _json_digits(given.get("digits"), mines, cols, rows, issues)
        if issues:
            raise ValidationError(issues, "mines board")
        assert isinstance(spawn, list | tuple)  # checked above: no issue means a valid cell
        return cls(
            cols,
            rows,
            [(c[0], c[1]) for c in mines],
            (spawn[0], spawn[1]),
            variants=variants,
            digits=digits,
        )

    # ------------------------------------------------------------- identity
    def __copy__(self) -> Board:
        return self  # immutable

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self

    def _identity(self) -> str:
        if self._key is None:
            self._key = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __repr__(self) -> str:
        return (
            f"Board(cols={self.cols}, rows={self.rows}, mines={len(self.mines)}, "
            f"spawn={self.spawn}, variants={len(self.variants)})"
        )


def initial_expansion(board: Board) -> list[Cell]:
    """R0 of ``board`` (seed F3): B3 plus its flood closure over safe 0-cells, canonical order.

    The queue starts with the nine spawn cells in row-major order; cells are listed in the
    order they are dequeued. Zero cells are judged on the *true* digit (red line 1), never on
    the carried one. This is exactly the set and order the engine reveals on install.
    """
    if not isinstance(board, Board):
        raise GridforgeError("initial_expansion needs a Board")
    cols = board.cols
    return [(i % cols, i // cols) for i in board.initial_expansion_indices()]
