"""The mines generator's table (A1, A4): what a board generation asks for (size, mine count
or density, spawn, fog count and thickness, the level that unlocks the fog, the guarantee,
the attempts and the opening limit), read and validated whole (:class:`GenTable`, every bad
field named), and the shipped presets (``data/presets.json``: :func:`preset`,
:func:`presets`). :mod:`gridforge.mines.generate` makes boards from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from gridforge.errors import (
    Field,
    GridforgeError,
    Issues,
    Schema,
    ValidationError,
    is_int,
    read_package_json,
    refusal,
)
from gridforge.grid import Cell

PRESETS_FORMAT = "gridforge.mines.presets/1"


GUARANTEES = ("no_guess", "none")


FOG = "fog"


# The generator's own bounds on input (the board format allows more; generation time grows
# with the area, so the table keeps it to what a page can make quickly).
MAX_GEN_SIDE = 200


MAX_SEED = 2**63 - 1  # every seed, on the page as on the CLI: 0..2^63-1


MAX_ATTEMPTS = 10_000


MAX_FOG_THICKNESS = 2  # A4: fog patches at most 2 thick


_TABLE_KEYS = (
    "name", "cols", "rows", "mines", "density", "spawn", "fog", "fog_thickness",
    "unlock_level", "guarantee", "attempts", "mine_count_shown", "max_opening",
)  # fmt: skip


class TableJson(TypedDict):
    """A generation table as JSON (:meth:`GenTable.to_json`): ``mines`` or ``density``,
    ``max_opening`` only when set."""

    name: str
    cols: int
    rows: int
    mines: NotRequired[int]
    density: NotRequired[float | None]
    spawn: list[int]
    fog: int
    fog_thickness: int
    unlock_level: int
    guarantee: str
    attempts: int
    mine_count_shown: bool
    max_opening: NotRequired[float]


_Bad = Callable[[str, str, str], None]  # (field, code, message): one issue of a table


def _mine_count(data: Mapping[str, object], cols: int, rows: int, bad: _Bad,
                flagged: Callable[[str], bool]) -> int:
    """The mine count a table asks for (``mines``, or ``density`` of the board), 0 when it
    is not a valid one; ``flagged(field)`` says whether that field already has an issue."""
    area = cols * rows
    mines, density = data.get("mines"), data.get("density")
    count = 0
    if (mines is None) == (density is None):
        bad("mines", "missing", "give exactly one of 'mines' and 'density'")
    elif mines is not None:
        if not is_int(mines):
            bad("mines", "type", f"must be an integer, got {mines!r}")
        else:
            count = mines
    elif (
        not isinstance(density, int | float) or isinstance(density, bool) or not 0 < density < 1
    ):
        bad("density", "range", f"must be a number strictly between 0 and 1, got {density!r}")
    else:
        count = round(density * area)
    which = "mines" if mines is not None else "density"
    outside = area - 9
    if not (flagged("mines") or flagged("density")):
        if count > outside:
            bad(
                which,
                "too_many",
                f"{count} mines do not fit: only {outside} cells lie "
                f"outside the spawn 3x3 of a {cols}x{rows} board",
            )
        elif count == outside:
            bad(
                which,
                "too_many",
                f"{count} mines leave no safe cell outside the spawn 3x3, so R0 would equal S",
            )
        elif count < 1:
            bad(which, "too_few", "at least 1 mine is needed, or R0 would equal S")
    return count


def _spawn_cell(spawn: object, cols: int, rows: int, bad: _Bad) -> tuple[int, int] | None:
    """A table's optional fixed spawn, None when absent or not valid (an issue said why)."""
    if spawn is None:
        return None
    if not isinstance(spawn, list | tuple) or len(spawn) != 2 or not all(is_int(v) for v in spawn):
        bad("spawn", "type", f"a spawn is [x, y] or null, got {spawn!r}")
        return None
    if not (1 <= spawn[0] <= cols - 2 and 1 <= spawn[1] <= rows - 2):
        bad(
            "spawn",
            "bounds",
            f"the spawn 3x3 around {list(spawn)} must lie inside the {cols}x{rows} board",
        )
        return None
    return (spawn[0], spawn[1])


def _check_fog(fog: object, count: int, cols: int, rows: int, bad: _Bad) -> None:
    """Issues of a table's fog count: a non-negative integer that fits beside ``count``
    mines."""
    area = cols * rows
    outside = area - 9
    if not is_int(fog) or fog < 0:
        bad("fog", "range", f"must be a non-negative integer, got {fog!r}")
    elif fog and 0 < count < outside:
        room = area - count - 9
        if fog > room:
            bad(
                "fog",
                "no_room",
                f"{fog} fog cells cannot fit: fog lies on safe cells "
                f"outside the spawn 3x3 and R0, and only {room} safe cells lie outside "
                "the spawn",
            )
        elif fog > 8 * count:
            bad(
                "fog",
                "no_room",
                f"{fog} fog cells cannot fit: a fog digit is never 0, "
                f"so fog touches a mine, and {count} mines touch at most {8 * count} cells",
            )


@dataclass(frozen=True)
class GenTable:
    """A generation table (A1). Build one with :meth:`from_json`, which validates it.

    :param mines: the mine count; or give ``density`` (a share of all cells) instead.
    :param spawn: centre of the spawn 3x3; None means the board's centre.
    :param fog: number of fog cells (A4), placed only from level ``unlock_level`` on.
    :param fog_thickness: maximum thickness of a fog patch, 1 or 2.
    :param guarantee: ``"no_guess"`` (default) or ``"none"`` (gates only).
    :param attempts: attempts before :class:`GenerationError`.
    :param mine_count_shown: the page shows the total mine count, so the solver may use it.
    :param max_opening: the largest share of the safe cells R0 may open (None: no bound).
    """

    cols: int
    rows: int
    mines: int | None = None
    density: float | None = None
    spawn: Cell | None = None
    fog: int = 0
    fog_thickness: int = MAX_FOG_THICKNESS
    unlock_level: int = 0
    guarantee: str = "no_guess"
    attempts: int = 100
    mine_count_shown: bool = True
    name: str = "custom"
    max_opening: float | None = None

    @property
    def mine_count(self) -> int:
        if self.mines is not None:
            return self.mines
        assert self.density is not None
        return round(self.density * self.cols * self.rows)

    @property
    def spawn_cell(self) -> Cell:
        return self.spawn if self.spawn is not None else (self.cols // 2, self.rows // 2)

    def fog_at(self, level: int | None) -> int:
        """Fog cells for a board of run ``level`` (None: the fog is unlocked)."""
        return self.fog if level is None or level >= self.unlock_level else 0

    def to_json(self) -> TableJson:
        spawn = list(self.spawn_cell)
        out: TableJson
        if self.mines is not None:
            out = {"name": self.name, "cols": self.cols, "rows": self.rows, "mines": self.mines,
                   "spawn": spawn, "fog": self.fog, "fog_thickness": self.fog_thickness,
                   "unlock_level": self.unlock_level, "guarantee": self.guarantee,
                   "attempts": self.attempts, "mine_count_shown": self.mine_count_shown}
        else:
            out = {"name": self.name, "cols": self.cols, "rows": self.rows,
                   "density": self.density, "spawn": spawn, "fog": self.fog,
                   "fog_thickness": self.fog_thickness, "unlock_level": self.unlock_level,
                   "guarantee": self.guarantee, "attempts": self.attempts,
                   "mine_count_shown": self.mine_count_shown}
        if self.max_opening is not None:  # absent when unset: older wrappers keep their bytes
            out["max_opening"] = self.max_opening
        return out

    def opening_ok(self, r0_size: int) -> bool:
        """Whether an initial expansion of ``r0_size`` cells passes the ``max_opening``
        gate (compared in integers: at most floor(share x safe cells) cells)."""
        if self.max_opening is None:
            return True
        safe = self.cols * self.rows - self.mine_count
        return r0_size <= opening_limit(self.max_opening, safe)

    @classmethod
    def from_json(cls, data: object, path: str = "") -> GenTable:
        """Validate a table (every problem at once, each with its field path) and build it.

        :raises ValidationError: e.g. ``mines: 80 mines do not fit ...``.
        """
        given = _GEN_TABLE.root(data, "table", path)
        issues = Issues(path)
        table = _GEN_TABLE.read(given, issues)
        table.check("name", "cols", "rows")
        if table.bad("cols") or table.bad("rows"):
            raise ValidationError(issues.items, "generation table")
        cols, rows = table.integer("cols"), table.integer("rows")
        count = _mine_count(given, cols, rows, issues.add, table.bad)
        spawn = _spawn_cell(given.get("spawn"), cols, rows, issues.add)
        fog = given.get("fog", 0)
        _check_fog(fog, count, cols, rows, issues.add)
        table.check("fog_thickness", "unlock_level", "guarantee", "attempts", "mine_count_shown")
        opening = _max_opening(given.get("max_opening"), count, cols, rows, issues.add)
        issues.raise_if_any("generation table")
        mines, density = given.get("mines"), given.get("density")
        assert (mines is None or is_int(mines)) and is_int(fog)  # no issue: both are
        assert density is None or isinstance(density, int | float)
        return cls(
            cols=cols,
            rows=rows,
            mines=mines,
            density=float(density) if density is not None else None,
            spawn=spawn,
            fog=fog,
            fog_thickness=table.integer("fog_thickness"),
            unlock_level=table.integer("unlock_level"),
            guarantee=table.text("guarantee"),
            attempts=table.integer("attempts"),
            mine_count_shown=table.flag("mine_count_shown"),
            name=table.text("name"),
            max_opening=opening,
        )


def _max_opening(opening: object, count: int, cols: int, rows: int, bad: _Bad) -> float | None:
    """A table's optional ``max_opening`` share, None when absent or not valid (an issue
    said why)."""
    if opening is None:
        return None
    if not isinstance(opening, int | float) or isinstance(opening, bool) or not 0 < opening <= 1:
        bad("max_opening", "range",
            f"must be a share in (0, 1] of the safe cells, or null, got {opening!r}")
        return None
    if 0 < count < outside_spawn(cols, rows) and opening_limit(float(opening),
                                                               cols * rows - count) < 9:
        bad("max_opening", "too_small",
            f"{opening} of {cols * rows - count} safe cells is under 9, but R0 holds "
            "at least the spawn 3x3")
    return float(opening)


# A generation table's fields, declared once (GenTable.from_json reads them; ``mines``,
# ``density``, ``spawn``, ``fog`` and ``max_opening`` depend on each other and the size,
# and are checked by the functions above).
_GEN_TABLE = Schema((
    Field("name", "str", "a name is a non-empty string", "type", default="custom",
          fallback="custom", test=bool),
    *(Field(side, "int", "must be an integer in {lo}..{hi}, got {value!r}", lo=3,
            hi=MAX_GEN_SIDE, required=True) for side in ("cols", "rows")),
    Field("mines"), Field("density"), Field("spawn"), Field("fog"),
    Field("fog_thickness", "int", "must be 1 or 2, got {value!r}", lo=1,
          hi=MAX_FOG_THICKNESS, default=MAX_FOG_THICKNESS),
    Field("unlock_level", "int", "must be a non-negative integer, got {value!r}", lo=0,
          default=0),
    Field("guarantee", message=f"must be one of {list(GUARANTEES)}, got {{value!r}}",
          code="enum", choices=GUARANTEES, default="no_guess"),
    Field("attempts", "int", "must be an integer in {lo}..{hi}, got {value!r}", lo=1,
          hi=MAX_ATTEMPTS, default=100),
    Field("mine_count_shown", "bool", "must be true or false, got {value!r}", "type",
          default=True),
    Field("max_opening"),
), not_object="a table is a JSON object")


def outside_spawn(cols: int, rows: int) -> int:
    """Cells of a board outside its spawn 3x3."""
    return cols * rows - 9


def opening_limit(share: float, safe: int) -> int:
    """The most cells R0 may hold under ``max_opening = share`` with ``safe`` safe cells
    (rounded down, with a tolerance for shares such as 0.35 that binary floats miss)."""
    return int(share * safe + 1e-9)


# ------------------------------------------------------------------ presets
_PRESETS: dict[str, GenTable] | None = None


def _load_presets() -> dict[str, GenTable]:
    global _PRESETS
    if _PRESETS is None:
        data = read_package_json("gridforge.mines", "data/presets.json",
                                 expect_format=PRESETS_FORMAT)
        entries = data.get("presets")
        if not isinstance(entries, dict):
            raise refusal("gridforge/mines/data/presets.json", "presets", "type",
                          "presets map names to tables")
        out = {}
        for name, entry in entries.items():
            if not isinstance(entry, dict):
                raise refusal("gridforge/mines/data/presets.json", f"presets.{name}", "type",
                              "a preset is a table object")
            out[name] = GenTable.from_json({"name": name, **entry}, f"presets.{name}")
        _PRESETS = out
    return _PRESETS


def preset(name: str) -> GenTable:
    """The preset table ``name`` (``beginner``, ``intermediate``, ``expert``, ``battle-N``)."""
    tables = _load_presets()
    if name not in tables:
        raise GridforgeError(f"unknown preset {name!r}: known presets are {sorted(tables)}")
    return tables[name]


def presets() -> dict[str, TableJson]:
    """Browser/CLI entry: every preset table, by name, as JSON."""
    return {name: table.to_json() for name, table in _load_presets().items()}
