"""The board generator of A1 with the fog variant of A4 (seed 000, "Around A2").

A *generation table* (:class:`GenTable`) says what to make: size, mine count or density,
spawn, fog count and maximum thickness, the level that unlocks the fog, the guarantee and
the number of attempts. :func:`generate` turns a table and a seed into a board that passes
every legality gate:

* no mine in the spawn 3x3 (B3); R0 != S (the initial expansion never clears the board);
* when the table sets ``max_opening``, R0 (the spawn 3x3 and its zero closure, the cells the
  engine opens for free) is at most that share of the safe cells: the board leaves most of
  its safe cells to be worked out, so a battle has tension from its first round;
* no variant in B3 or R0; a fog cell is safe and its digit is never 0;
* fog patches are at most ``fog_thickness`` (<= 2) thick: no (t+1) x (t+1) square of the
  board is all fog, i.e. with t = 2 every fog cell touches a cell that is not fog (or the
  board's edge);
* by default (``guarantee = "no_guess"``), the deduction solver opens every safe cell from
  R0 alone, with fog digits hidden from it and, when ``mine_count_shown``, the total count.

No-guess is reached the way Simon Tatham's generator reaches it: the solver plays the board
and, where it gets stuck, the generator *repairs* the board: it picks one digit of the
undecidable frontier and moves the mines out of that digit's hidden cells (or, when there is
no room, fills them), then the solver carries on. A repaired board is then solved again from
scratch, and only a board that this fresh solve clears without any repair is returned, so
the guarantee never rests on deductions made before a repair. Attempts are bounded and a
failure says why (:class:`GenerationError`).

Every random choice comes from one ``random.Random(seed)``; the same table and seed give the
same board, byte for byte. The board carries its metrics in a wrapper
(``gridforge.mines.generated/1``), because the board format itself is closed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from gridforge.errors import (
    GridforgeError,
    Issues,
    field_path,
    is_int,
    parse_json,
    refusal,
)
from gridforge.i18n import say
from gridforge.jsontypes import JsonObject
from gridforge.mines.board import BOARD_FORMAT, Board, BoardJson, spawn_cells
from gridforge.mines.gen_table import (
    FOG,
    MAX_FOG_THICKNESS,
    MAX_SEED,
    GenTable,
    TableJson,
    preset,
)
from gridforge.mines.playthrough import Metrics, Playthrough, result_of
from gridforge.mines.solver import MINE, SAFE, UNKNOWN, geometry
from gridforge.progress import NO_PROGRESS, Progress

__all__ = [
    "GENERATED_FORMAT",
    "Generated",
    "GenerationError",
    "check_gates",
    "generate",
    "generate_many",
    "load_generated",
]

GENERATED_FORMAT = "gridforge.mines.generated/1"

# Per attempt: a fresh solve after a repaired one must need strictly fewer repairs, and at
# most this many such solves are run (Tatham's rule, which ends every attempt).
MAX_ROUNDS = 8
# Largest fog patch grown around one seed cell.
MAX_PATCH = 4


class GeneratedMetrics(Metrics):
    """A generated board's metrics: the solve's, and how the generator got there."""

    mine_count_used: bool
    attempts: int
    repairs: int


class GeneratedJson(TypedDict):
    """The generator's wrapper of a board (format ``gridforge.mines.generated/1``)."""

    format: str
    preset: str
    seed: int
    level: int | None
    table: TableJson
    metrics: GeneratedMetrics
    board: BoardJson


class GenerationError(GridforgeError):
    """No board passed the gates within the table's attempts; ``reasons`` counts why."""

    def __init__(self, table: GenTable, seed: int, reasons: Mapping[str, int]) -> None:
        self.reasons = dict(reasons)
        why = ", ".join(f"{k} x{v}" for k, v in sorted(self.reasons.items()))
        super().__init__(
            f"no board for table {table.name!r} (seed {seed}) after {table.attempts} "
            f"attempts: {why}"
        )


# ------------------------------------------------------------------- gates
def fog_thickness_ok(fog: Sequence[int] | bytes, cols: int, rows: int, thickness: int) -> bool:
    """Whether no (thickness+1)-square of the board is all fog (fog flags by index)."""
    k = thickness + 1
    for y in range(rows - k + 1):
        for x in range(cols - k + 1):
            if all(fog[(y + dy) * cols + x + dx] for dy in range(k) for dx in range(k)):
                return False
    return True


def _square_would_fill(fog: bytearray, i: int, cols: int, rows: int, thickness: int) -> bool:
    """Whether fogging cell ``i`` would complete an all-fog (thickness+1)-square."""
    k = thickness + 1
    x, y = i % cols, i // cols
    for oy in range(max(0, y - k + 1), min(y, rows - k) + 1):
        for ox in range(max(0, x - k + 1), min(x, cols - k) + 1):
            if all(
                fog[(oy + dy) * cols + ox + dx] or (oy + dy) * cols + ox + dx == i
                for dy in range(k)
                for dx in range(k)
            ):
                return True
    return False


def check_gates(board: Board, fog_thickness: int = MAX_FOG_THICKNESS) -> Issues:
    """Every legality gate of A1/A4 that ``board`` fails (no-guess excepted), as issues."""
    issues = Issues()
    b3 = set(spawn_cells(board.spawn))
    for i, (x, y) in enumerate(sorted(board.mines, key=lambda c: (c[1], c[0]))):
        if (x, y) in b3:
            issues.add(field_path("mines", i), "mine_in_spawn", f"mine [{x}, {y}] in B3")
    r0 = set(board.initial_expansion_indices())
    if len(r0) == board.safe_count:
        issues.add("mines", "r0_equals_s", "the initial expansion opens every safe cell")
    fog = bytearray(board.size)
    for cell, ids in board.variants.items():
        where = f"variants[{list(cell)}]"
        i = board.index(cell)
        if cell in b3:
            issues.add(where, "variant_in_spawn", f"variant on spawn cell {list(cell)}")
        elif i in r0:
            issues.add(where, "variant_in_r0", f"variant on R0 cell {list(cell)}")
        if FOG in ids:
            fog[i] = 1
            if board.true_digit(cell) == 0:
                issues.add(where, "fog_digit_zero", f"fog cell {list(cell)} shows 0")
    if board.variants and not fog_thickness_ok(fog, board.cols, board.rows, fog_thickness):
        issues.add("variants.fog", "fog_too_thick", f"a fog patch is over {fog_thickness} thick")
    return issues


# --------------------------------------------------------------- generation
@dataclass
class Generated:
    """A generated board, the table and seed that made it, and its metrics."""

    board: Board
    table: GenTable
    seed: int
    level: int | None
    metrics: GeneratedMetrics

    def to_json(self) -> GeneratedJson:
        return {
            "format": GENERATED_FORMAT,
            "preset": self.table.name,
            "seed": self.seed,
            "level": self.level,
            "table": self.table.to_json(),
            "metrics": self.metrics,
            "board": self.board.to_json(),
        }

    def dumps(self) -> str:
        """Canonical JSON text: same table and seed, same bytes."""
        return json.dumps(self.to_json(), separators=(",", ":"), allow_nan=False) + "\n"


class _Attempt:
    """One attempt: a random layout, its fog, and the solve-and-repair rounds."""

    def __init__(self, table: GenTable, fog_count: int, rng: random.Random) -> None:
        self.table = table
        self.rng = rng
        self.cols, self.rows = table.cols, table.rows
        self.size = self.cols * self.rows
        self.nbrs, _ = geometry(self.cols, self.rows)
        sx, sy = table.spawn_cell
        self.spawn = (sx, sy)
        self.b3 = {(sy + dy) * self.cols + sx + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)}
        pool = [i for i in range(self.size) if i not in self.b3]
        self.mines = bytearray(self.size)
        for i in rng.sample(pool, table.mine_count):
            self.mines[i] = 1
        self.fog = bytearray(self.size)
        self.fog_count = fog_count
        self.total = table.mine_count if table.mine_count_shown else None
        self.repairs = 0

    # ---- fog (A4)
    def _digits(self) -> list[int]:
        mines, nbrs = self.mines, self.nbrs
        return [-1 if mines[i] else sum(mines[j] for j in nbrs[i]) for i in range(self.size)]

    def place_fog(self, r0: Iterable[int]) -> bool:
        """Grow fog patches on eligible cells until ``fog_count`` are fog (False: no room)."""
        need = self.fog_count - sum(self.fog)
        if need <= 0:
            return True
        digits = self._digits()
        banned = set(r0)
        fog, cols, rows, k = self.fog, self.cols, self.rows, self.table.fog_thickness

        def eligible(i: int) -> bool:
            return (
                not fog[i]
                and digits[i] > 0
                and i not in banned
                and not _square_would_fill(fog, i, cols, rows, k)
            )

        pool = [i for i in range(self.size) if eligible(i)]
        self.rng.shuffle(pool)
        for seed_cell in pool:
            if need == 0:
                break
            if not eligible(seed_cell):
                continue
            patch = [seed_cell]
            fog[seed_cell] = 1
            need -= 1
            target = self.rng.randint(1, MAX_PATCH)
            while need and len(patch) < target:
                edge = sorted({j for p in patch for j in self.nbrs[p] if eligible(j)})
                if not edge:
                    break
                j = self.rng.choice(edge)
                fog[j] = 1
                patch.append(j)
                need -= 1
        return need == 0

    # ---- repair (Tatham's perturbation, adapted to R0, fog and the seed's gates)
    def _removable(self, cells: Iterable[int], k: int, digits: list[int]) -> list[int] | None:
        """``k`` of ``cells`` (in order) whose mines may go together without any fog digit
        dropping to 0, or None. Mines added by the same repair are not counted on: safe."""
        fog, nbrs = self.fog, self.nbrs
        drop: dict[int, int] = {}
        out: list[int] = []
        for i in cells:
            fogs = [j for j in nbrs[i] if fog[j]]
            if all(digits[j] - drop.get(j, 0) >= 2 for j in fogs):
                for j in fogs:
                    drop[j] = drop.get(j, 0) + 1
                out.append(i)
                if len(out) == k:
                    return out
        return None

    def _far_first(self, cells: list[int], touching: bytearray) -> list[int]:
        """``cells`` shuffled, those touching no opened cell first (moving a mine there
        changes no digit the solver has read)."""
        far = [i for i in cells if not touching[i]]
        near = [i for i in cells if touching[i]]
        self.rng.shuffle(far)
        self.rng.shuffle(near)
        return far + near

    def _trade(
        self,
        group: list[int],
        spots: list[int],
        donors: list[int],
        mines: bytearray,
        digits: list[int],
    ) -> list[tuple[int, bool]] | None:
        """Changes ``(cell, mine?)`` that empty ``group`` into ``spots`` or else fill it from
        ``donors`` (both in order of preference), or None when neither is possible."""
        full = [i for i in group if mines[i]]
        empty = [i for i in group if not mines[i]]
        if full and len(spots) >= len(full) and self._removable(full, len(full), digits):
            return [(i, True) for i in spots[: len(full)]] + [(i, False) for i in full]
        if empty and not any(self.fog[i] for i in empty):
            picked = self._removable(donors, len(empty), digits)
            if picked is not None:
                return [(i, True) for i in empty] + [(i, False) for i in picked]
        return None

    def repair(self, play: Playthrough) -> str:
        """Change the layout so that one stuck digit becomes decidable.

        First with unknown cells only (the play goes on: nothing it has read changes but
        digits beside the moved mines); as a last resort also with cells it already knows
        (then its knowledge is void and the round restarts). With no digit left to work
        on, the group is every unknown cell (Tatham's "big" perturbation). Failing all
        that, an opened fog cell beside the unknown cells stops being fog (restart).
        Returns ``"continue"``, ``"restart"`` or ``""`` (nothing possible).
        """
        state, mines, fog, digits = play.state, play.mine_flag, self.fog, play.true
        active = sorted(play.active)
        self.rng.shuffle(active)
        unknown = [i for i in range(self.size) if state[i] == UNKNOWN]
        touching = bytearray(self.size)  # unknown cells beside an opened cell
        for i in unknown:
            if any(state[j] == SAFE for j in self.nbrs[i]):
                touching[i] = 1
        groups = [play.unknown_neighbours(q) for q in active] or [unknown]
        for group in groups:
            inside = set(group)
            outside = [i for i in unknown if i not in inside]
            spots = self._far_first([i for i in outside if not mines[i] and not fog[i]], touching)
            donors = self._far_first([i for i in outside if mines[i]], touching)
            moves = self._trade(group, spots, donors, mines, digits)
            if moves is not None:
                for cell, mine in moves:
                    play.move_mine(cell, mine)
                return "continue"
        known_spots = [
            i for i in range(self.size) if state[i] == SAFE and i not in self.b3 and not fog[i]
        ]
        known_mines = [i for i in range(self.size) if state[i] == MINE]
        self.rng.shuffle(known_spots)
        self.rng.shuffle(known_mines)
        for group in groups:
            inside = set(group)
            outside = [i for i in unknown if i not in inside]
            spots = [i for i in outside if not mines[i] and not fog[i]] + known_spots
            donors = [i for i in outside if mines[i]] + known_mines
            moves = self._trade(group, spots, donors, mines, digits)
            if moves is not None:
                self.mines = bytearray(mines)
                for cell, mine in moves:
                    self.mines[cell] = 1 if mine else 0
                return "restart"
        # Fog that hides the only digit that could help: lift it (the round tops the fog up
        # again elsewhere before the fresh solve).
        veiled = sorted({j for i in unknown for j in self.nbrs[i] if fog[j] and state[j] == SAFE})
        if veiled:
            self.mines = bytearray(mines)
            self.fog[self.rng.choice(veiled)] = 0
            return "restart"
        return ""

    def new_play(self) -> Playthrough:
        return Playthrough(self.cols, self.rows, self.mines, self.fog, self.spawn, self.total)

    def run(self) -> tuple[_Attempt, Playthrough, bool] | str:
        """The final playthrough and whether it clears the board, or a failure reason."""
        no_guess = self.table.guarantee == "no_guess"
        previous: int | None = None
        max_repairs = max(30, self.size // 4)
        for _ in range(MAX_ROUNDS):
            play = self.new_play()
            if play.safe_left == 0:
                return "r0_equals_s"
            if not self.table.opening_ok(len(play.r0)):
                return "opening_too_large"
            r0 = play.r0
            stray = [i for i in r0 if self.fog[i]]
            if stray or sum(self.fog) < self.fog_count:
                for i in stray:  # a repair grew R0 over fog: move that fog elsewhere
                    self.fog[i] = 0
                if not self.place_fog(r0):
                    return "fog_no_room"
                play = self.new_play()
            if not no_guess:
                return self, play, play.play()
            repairs = 0
            how = "continue"
            while how == "continue" and not play.play():
                if repairs >= max_repairs:
                    return "repair_budget"
                how = self.repair(play)
                if not how:
                    return "stuck_unrepairable"
                repairs += 1
            if how == "continue":
                self.mines = bytearray(play.mine_flag)
            self.repairs += repairs
            if repairs == 0:
                return self, play, True
            if how == "continue" and previous is not None and repairs >= previous:
                return "no_progress"
            previous = repairs if how == "continue" else None
        return "rounds_exhausted"


def _resolve(table: GenTable | str | Mapping[str, object]) -> GenTable:
    if isinstance(table, GenTable):
        return table
    if isinstance(table, str):
        return preset(table)
    return GenTable.from_json(table)


def generate(
    table: GenTable | str | Mapping[str, object],
    seed: int,
    level: int | None = None,
    progress: Progress = NO_PROGRESS,
) -> Generated:
    """Make one board from ``table`` (a table, a preset name or a table's JSON) and ``seed``.

    :param level: the run level of the battle; fog appears only from the table's
        ``unlock_level`` on (None: the fog is unlocked).
    :raises ValidationError: for an impossible table, naming the field.
    :raises GenerationError: when every attempt failed, counting the reasons.
    """
    table = _resolve(table)
    if not is_int(seed) or not 0 <= seed <= MAX_SEED:
        shown = repr(seed) if is_int(seed) else type(seed).__name__
        raise refusal("board request", "seed", "range", f"seed must be an integer in "
                      f"0..{MAX_SEED}, got {shown[:40]}")
    if level is not None and not is_int(level):
        raise GridforgeError(f"level must be an integer or null, got {level!r}")
    rng = random.Random(seed)
    fog_count = table.fog_at(level)
    reasons: dict[str, int] = {}
    for attempt in range(1, table.attempts + 1):
        progress.step(attempt - 1, table.attempts, say("progress.boards"))
        outcome = _Attempt(table, fog_count, rng).run()
        if isinstance(outcome, str):
            reasons[outcome] = reasons.get(outcome, 0) + 1
            continue
        trial, play, solved = outcome
        board = Board(
            table.cols,
            table.rows,
            [play.cell(i) for i in range(play.size) if trial.mines[i]],
            trial.spawn,
            variants={play.cell(i): (FOG,) for i in range(play.size) if trial.fog[i]},
        )
        issues = check_gates(board, table.fog_thickness)
        if issues:  # a generator bug; never hand out such a board
            raise AssertionError(f"generated board fails its gates: {issues}")
        metrics: GeneratedMetrics = {**result_of(play, solved).metrics(),
                                     "mine_count_used": trial.total is not None,
                                     "attempts": attempt, "repairs": trial.repairs}
        return Generated(board, table, seed, level, metrics)
    raise GenerationError(table, seed, reasons)


def generate_many(
    table: GenTable | str | Mapping[str, object],
    seed: int,
    count: int,
    level: int | None = None,
    progress: Progress = NO_PROGRESS,
) -> list[Generated]:
    """``count`` boards with seeds ``seed``, ``seed + 1``, ... (each reproducible alone)."""
    table = _resolve(table)
    if not is_int(count) or count < 1:
        raise GridforgeError(f"count must be a positive integer, got {count!r}")
    out = []
    for k in range(count):
        progress.step(k, count, say("progress.boards"))
        out.append(generate(table, seed + k, level))
    progress.step(count, count, say("progress.boards"))
    return out


def load_generated(source: object) -> tuple[Board, JsonObject | None]:
    """A board from a generator wrapper or a plain board file, and its metrics (if any)."""
    data = parse_json(source, "board") if isinstance(source, str | bytes) else source
    if isinstance(data, Mapping) and data.get("format") == GENERATED_FORMAT:
        if "board" not in data:
            raise refusal("board", "board", "missing", "missing field 'board'")
        metrics = data.get("metrics")
        return Board.from_json(data["board"]), dict(metrics) if isinstance(metrics, dict) else None
    if isinstance(data, Mapping) and data.get("format") not in (BOARD_FORMAT, None):
        raise refusal("board", "format", "format",
                      f"expected {BOARD_FORMAT!r} or {GENERATED_FORMAT!r}")
    return Board.from_json(data), None
