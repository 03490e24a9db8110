"""The deduction solver of A1 (seed 000): what a player can read from the digits, and why.

The solver sees only what the player sees: opened cells with their digits, opened fog cells
(A4: a safe cell whose digit is hidden, so it gives *no* constraint), mines proved or dug,
and, when the page shows it, the board's total mine count. It never sees flags (a flag is a
player's promise, not a fact) nor the round-end flag judgements (paid information).

It applies three kinds of rule, cheapest first, and every application is a :class:`Step`
that names the cells it proved safe or mined and the digit cells it used, so that the
browser can show it as a hint:

1. ``single``: one digit alone. A digit ``d`` touching ``k`` known mines and ``u`` hidden
   cells: if ``d == k`` the hidden cells are safe; if ``d - k == u`` they are mines.
2. ``subset``: two digits whose hidden cells nest, ``A ⊂ B``: the cells of ``B \\ A`` hold
   ``(d_B - k_B) - (d_A - k_A)`` mines, so they are all safe or all mines when that is 0 or
   ``|B \\ A|``.
3. ``enumeration``: every coupled component of the frontier (hidden cells that touch a
   digit, coupled when they share one) is enumerated exactly, by dynamic programming over
   the component's cells (the state is the mines counted so far for each digit that is
   "open" at that point), which gives, for every cell and every possible number of mines
   ``k`` in the component, whether some arrangement with ``k`` mines makes the cell a mine
   and whether one makes it safe. With the total count, the components and the hidden
   cells that touch no digit (the "interior") are combined exactly: a cell is proved when
   no arrangement of the *whole* board that fits every digit and the total disagrees.
   ``mine_count`` on the step says whether the total was needed; rule ``mine_count`` is the
   case that proves interior cells.

After the three rules find nothing, no consistent arrangement is left out: the cells proved
are exactly the cells that every arrangement agrees on (the tests check this against brute
force). The only exception is a component whose enumeration exceeds ``max_states`` states
in one layer; it is then left undecided and ``complete`` is False.

Two ways to use it:

* :func:`deduce` / :func:`hint`: a position as the player sees it; the result is the set of
  cells that logic proves, with the steps.
* :func:`solve_board` / :func:`solve`: play a whole board from R0 (the seed's F3: the spawn
  3x3 plus its flood closure, exactly as the engine opens it on install), opening each cell
  as soon as it is proved safe (a dug 0 opens its chain, as in the engine) until every safe
  cell is open (the board is *no-guess*) or the rules are stuck.

Everything is deterministic: cells are kept as row-major indices, queues are FIFO, and every
choice among equals goes to the lowest index.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, TypedDict, TypeGuard

from gridforge.errors import (
    Field,
    GridforgeError,
    Issue,
    Issues,
    Schema,
    ValidationError,
    field_path,
    is_int,
)
from gridforge.grid import NEIGHBOURS_8, Cell
from gridforge.jsontypes import JsonObject
from gridforge.mines.board import MAX_SIDE, Board

__all__ = [
    "DEFAULT_MAX_STATES",
    "Deducer",
    "Deduction",
    "Playthrough",
    "SolveResult",
    "Step",
    "deduce",
    "hint",
    "position_from_json",
    "solve",
    "solve_board",
]

UNKNOWN, SAFE, MINE = 0, 1, 2
_QUEUED = 3  # inside Playthrough.open_many only: safe, its digit not read yet

# Layer size above which one component's enumeration gives up (then ``complete`` is False).
# Frontier components of real boards stay far below it; it only bounds hostile input.
DEFAULT_MAX_STATES = 200_000

RULES = ("single", "subset", "enumeration", "mine_count")


Table = tuple[tuple[int, ...], ...]


@functools.lru_cache(maxsize=64)
def geometry(cols: int, rows: int) -> tuple[Table, Table]:
    """Neighbour tables of a ``cols`` x ``rows`` board, by row-major index.

    Returns ``(nbrs, near)``: ``nbrs[i]`` are the 8-neighbours of ``i`` in row-major
    neighbour order; ``near[i]`` are the cells within Chebyshev distance 2 of ``i`` (itself
    excluded) in row-major order: the only digits whose hidden cells can overlap ``i``'s.
    """
    nbrs: list[tuple[int, ...]] = []
    near: list[tuple[int, ...]] = []
    for y in range(rows):
        for x in range(cols):
            nbrs.append(
                tuple(
                    (y + dy) * cols + (x + dx)
                    for dx, dy in NEIGHBOURS_8
                    if 0 <= x + dx < cols and 0 <= y + dy < rows
                )
            )
            near.append(
                tuple(
                    ny * cols + nx
                    for ny in range(max(0, y - 2), min(rows, y + 3))
                    for nx in range(max(0, x - 2), min(cols, x + 3))
                    if (nx, ny) != (x, y)
                )
            )
    return tuple(nbrs), tuple(near)


def sumset(a: int, b: int) -> int:
    """``{i + j : i in a, j in b}`` for sets of small integers held as bit masks."""
    if a.bit_count() > b.bit_count():
        a, b = b, a
    out = 0
    while a:
        low = a & -a
        out |= b * low  # b shifted by the index of ``low``
        a ^= low
    return out


def _range_mask(lo: int, hi: int) -> int:
    """Bits ``lo..hi`` (inclusive) set; 0 when the range is empty."""
    lo = max(lo, 0)
    if hi < lo:
        return 0
    return ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)


class StepJson(TypedDict):
    """A deduction step as JSON (:meth:`Step.to_json`)."""

    rule: str
    safe: list[list[int]]
    mines: list[list[int]]
    constraints: list[list[int]]
    mine_count: bool
    text: str


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


class Metrics(TypedDict):
    """A playthrough's metrics (:meth:`SolveResult.metrics`)."""

    r0_size: int
    safe_count: int
    inferable_ratio: float
    deduction_steps: int
    largest_component: int
    rule_counts: dict[str, int]
    no_guess: bool


class SolveJson(TypedDict):
    """A playthrough as JSON (:meth:`SolveResult.to_json`)."""

    no_guess: bool
    metrics: Metrics
    r0: list[list[int]]
    steps: list[StepJson]
    stuck_frontier: list[list[int]]
    complete: bool


class Step(NamedTuple):
    """One application of a rule: the cells it proved and the digit cells it used.

    ``cells`` of every kind are ``(x, y)`` in row-major order. ``mine_count`` is True when
    the proof needed the board's total mine count. ``text`` is a one-line explanation.
    (A named tuple: a playthrough makes hundreds, and it is three times cheaper to build
    than a frozen dataclass.)
    """

    rule: str
    safe: tuple[Cell, ...]
    mines: tuple[Cell, ...]
    constraints: tuple[Cell, ...]
    mine_count: bool = False
    text: str = ""

    def to_json(self) -> StepJson:
        return {
            "rule": self.rule,
            "safe": [[x, y] for x, y in self.safe],
            "mines": [[x, y] for x, y in self.mines],
            "constraints": [[x, y] for x, y in self.constraints],
            "mine_count": self.mine_count,
            "text": self.text,
        }


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


class Deducer:
    """Knowledge of one position (cells safe, mined, unknown; the digits seen) and the rules.

    Cells are row-major indices. A *constraint* is an opened cell that shows its digit; an
    opened fog cell is safe but shows nothing. Subclasses decide what proving a cell safe
    means (:class:`Playthrough` opens it and reads its digit).

    :param mine_total: the board's total mine count when the player is shown it, else None.
    :param max_states: per-layer budget of one component's enumeration.
    """

    def __init__(
        self,
        cols: int,
        rows: int,
        mine_total: int | None = None,
        max_states: int = DEFAULT_MAX_STATES,
    ) -> None:
        self.cols = cols
        self.rows = rows
        self.nbrs, self.near = geometry(cols, rows)
        n = cols * rows
        self.size = n
        self.state = bytearray(n)
        self.clue = [-1] * n  # the digit shown, or -1: no constraint
        self.rem = [0] * n  # digit minus known mines around it (constraints only)
        self.unk = [0] * n  # unknown cells around it (constraints only)
        self._mask: list[int] = [-1] * n  # cached bit mask of the unknown neighbours; -1 stale
        self.unknown_count = n
        self.mines_known = 0
        self.mine_total = mine_total
        self.max_states = max_states
        self._queue: deque[int] = deque()
        self._queued = bytearray(n)
        self._dirty: set[int] = set()  # constraints to re-check for the subset rule
        self.active: set[int] = set()  # constraints with unknown neighbours
        self._pending: deque[Step] = deque()
        self.largest_component = 0
        self.complete = True
        self.rule_counts: dict[str, int] = dict.fromkeys(RULES, 0)

    # -------------------------------------------------------------- knowledge
    def cell(self, i: int) -> Cell:
        return (i % self.cols, i // self.cols)

    def _touch(self, j: int) -> None:
        """Constraint ``j``'s neighbourhood changed: re-examine it."""
        self._mask[j] = -1
        self._dirty.add(j)
        if not self._queued[j]:
            self._queued[j] = 1
            self._queue.append(j)

    def set_safe(self, i: int) -> None:
        """Record that unknown cell ``i`` is safe (without reading a digit)."""
        if self.state[i] != UNKNOWN:
            return
        self.state[i] = SAFE
        self.unknown_count -= 1
        self._lose_unknown(i, 0)

    def set_mine(self, i: int) -> None:
        """Record that unknown cell ``i`` holds a mine."""
        if self.state[i] != UNKNOWN:
            return
        self.state[i] = MINE
        self.unknown_count -= 1
        self.mines_known += 1
        self._lose_unknown(i, 1)

    def _lose_unknown(self, i: int, mine: int) -> None:
        """Cell ``i`` stopped being unknown (``mine``: it is a mine): update the digits
        around it and queue them for the rules. (The hot path: :meth:`_touch` inlined.)"""
        clue, unk, rem, mask = self.clue, self.unk, self.rem, self._mask
        queued, enqueue, dirty = self._queued, self._queue.append, self._dirty.add
        for j in self.nbrs[i]:
            if clue[j] >= 0:
                u = unk[j] - 1
                unk[j] = u
                if mine:
                    rem[j] -= 1
                if u == 0:
                    self.active.discard(j)
                mask[j] = -1
                dirty(j)
                if not queued[j]:
                    queued[j] = 1
                    enqueue(j)

    def add_clue(self, i: int, digit: int) -> None:
        """Record that safe cell ``i`` shows ``digit``."""
        self.clue[i] = digit
        unknown = mines = 0
        state = self.state
        for j in self.nbrs[i]:
            s = state[j]
            if s == UNKNOWN:
                unknown += 1
            elif s == MINE:
                mines += 1
        self.unk[i] = unknown
        self.rem[i] = digit - mines
        if unknown:
            self.active.add(i)
        self._touch(i)

    def shift_clue(self, i: int, delta: int) -> None:
        """The digit shown at constraint ``i`` changed by ``delta`` (a board repair)."""
        self.clue[i] += delta
        self.rem[i] += delta
        self._touch(i)

    def mask_of(self, q: int) -> int:
        """Bit mask (bit ``j`` = cell ``j``) of constraint ``q``'s unknown neighbours."""
        m = self._mask[q]
        if m < 0:
            m = 0
            state = self.state
            for j in self.nbrs[q]:
                if state[j] == UNKNOWN:
                    m |= 1 << j
            self._mask[q] = m
        return m

    def on_safe(self, i: int) -> None:
        """What proving cell ``i`` safe does; a playthrough also opens it."""
        self.set_safe(i)

    def apply(self, step: Step) -> None:
        """Apply a step's facts to the knowledge."""
        self.rule_counts[step.rule] += 1
        cols = self.cols
        for x, y in step.mines:
            self.set_mine(y * cols + x)
        for x, y in step.safe:
            i = y * cols + x
            if self.state[i] == UNKNOWN:
                self.on_safe(i)

    # ----------------------------------------------------------------- rules
    def cells_of(self, indices: Iterable[int]) -> tuple[Cell, ...]:
        """Indices as ``(x, y)`` cells in row-major order."""
        cols = self.cols
        return tuple((i % cols, i // cols) for i in sorted(indices))

    def unknown_neighbours(self, q: int) -> list[int]:
        """The unknown neighbours of cell ``q``, in row-major neighbour order."""
        state = self.state
        return [j for j in self.nbrs[q] if state[j] == UNKNOWN]

    def _inconsistent(self, q: int, why: str) -> GridforgeError:
        x, y = self.cell(q)
        return GridforgeError(f"inconsistent position: the digit at [{x}, {y}] {why}")

    def _single(self) -> Step | None:
        queue, queued, unk, rem = self._queue, self._queued, self.unk, self.rem
        while queue:
            q = queue.popleft()
            queued[q] = 0
            u = unk[q]
            if u == 0:
                if rem[q] != 0:
                    raise self._inconsistent(q, f"needs {rem[q]} more mines and has no room")
                continue
            r = rem[q]
            if r == 0 or r == u:
                cells = self.cells_of(self.unknown_neighbours(q))
                x, y = self.cell(q)
                known = self.clue[q] - r
                if r == 0:
                    text = (
                        f"[{x}, {y}] shows {self.clue[q]} and already touches "
                        f"{_plural(known, 'known mine')}: its other hidden neighbours are safe"
                    )
                    return Step("single", cells, (), ((x, y),), text=text)
                text = (
                    f"[{x}, {y}] shows {self.clue[q]}, touches {_plural(known, 'known mine')} "
                    f"and {_plural(u, 'hidden cell')}: they are all mines"
                )
                return Step("single", (), cells, ((x, y),), text=text)
            if r < 0 or r > u:
                raise self._inconsistent(q, "cannot be satisfied")
        return None

    def _subset(self) -> Step | None:
        order = sorted(self._dirty)
        for k, a in enumerate(order):
            if self.unk[a] == 0 or self.clue[a] < 0:
                continue
            step = self._subset_from(a)
            if step is not None:
                self._dirty.difference_update(order[:k])
                return step
        self._dirty.clear()
        return None

    def _subset_from(self, a: int) -> Step | None:
        clue, unk, rem = self.clue, self.unk, self.rem
        mask_a = self.mask_of(a)
        for b in self.near[a]:
            if clue[b] < 0 or unk[b] == 0:
                continue
            mask_b = self.mask_of(b)
            inter = mask_a & mask_b
            if not inter or mask_a == mask_b:
                continue
            if inter == mask_a:
                small, big, diff = a, b, mask_b ^ mask_a
            elif inter == mask_b:
                small, big, diff = b, a, mask_a ^ mask_b
            else:
                continue
            extra = rem[big] - rem[small]
            size = diff.bit_count()
            if extra != 0 and extra != size:
                if extra < 0 or extra > size:
                    raise self._inconsistent(big, "contradicts a neighbouring digit")
                continue
            cells = self.cells_of(_bits(diff))
            sx, sy = self.cell(small)
            bx, by = self.cell(big)
            text = (
                f"the hidden cells of [{sx}, {sy}] ({rem[small]} mines left) lie within those of "
                f"[{bx}, {by}] ({rem[big]} left): the other "
                f"{_plural(size, 'cell')} of [{bx}, {by}] "
                + ("are safe" if extra == 0 else f"hold {extra} mines, so all are mines")
            )
            constraints = tuple(sorted(((sx, sy), (bx, by)), key=lambda c: (c[1], c[0])))
            if extra == 0:
                return Step("subset", cells, (), constraints, text=text)
            return Step("subset", (), cells, constraints, text=text)
        return None

    def components(self) -> list[tuple[list[int], list[int]]]:
        """Coupled frontier components: ``(cells, constraints)``, both in a fixed order.

        Cells are ordered by a breadth-first walk from the component's first cell (cells
        are adjacent when they share a constraint), which keeps the enumeration narrow.
        """
        state, nbrs, clue = self.state, self.nbrs, self.clue
        active = self.active
        seen_q: set[int] = set()
        out = []
        for start in sorted(active):
            if start in seen_q:
                continue
            seen_q.add(start)
            todo = [start]
            cons: list[int] = []
            cells_set: set[int] = set()
            while todo:
                q = todo.pop()
                cons.append(q)
                for u in nbrs[q]:
                    if state[u] != UNKNOWN or u in cells_set:
                        continue
                    cells_set.add(u)
                    for r in nbrs[u]:
                        if clue[r] >= 0 and r in active and r not in seen_q:
                            seen_q.add(r)
                            todo.append(r)
            cons.sort()
            # breadth-first cell order from the first cell
            first = min(cells_set)
            order = [first]
            placed = {first}
            head = 0
            while head < len(order):
                u = order[head]
                head += 1
                for r in nbrs[u]:
                    if clue[r] >= 0 and r in active:
                        for v in nbrs[r]:
                            if v in cells_set and v not in placed:
                                placed.add(v)
                                order.append(v)
                if head == len(order) and len(order) < len(cells_set):
                    rest = min(cells_set - placed)
                    placed.add(rest)
                    order.append(rest)
            out.append((order, cons))
        return out

    def _enumeration(self) -> list[Step]:
        comps = self.components()
        frontier = sum(len(cells) for cells, _ in comps)
        results: list[_Enumerated | None] = []
        for cells, cons in comps:
            self.largest_component = max(self.largest_component, len(cells))
            res = enumerate_component(
                cells, [(self.rem[q], self.unknown_neighbours(q)) for q in cons], self.max_states
            )
            if res is None:
                self.complete = False
            elif res[0] == 0:
                raise self._inconsistent(cons[0], "and its neighbours admit no arrangement")
            results.append(res)
        steps: list[Step] = []
        # Local proofs: each component alone.
        for (cells, cons), res in zip(comps, results, strict=True):
            if res is None:
                continue
            _, mine_k, safe_k = res
            safe = [c for c, m in zip(cells, mine_k, strict=True) if not m]
            mines = [c for c, s in zip(cells, safe_k, strict=True) if not s]
            if safe or mines:
                steps.append(self._enum_step("enumeration", safe, mines, cons, False))
        if self.mine_total is None or any(r is None for r in results):
            return steps
        return self._global_steps(comps, results, frontier, steps)

    def _global_steps(self, comps: list[tuple[list[int], list[int]]],
                      results: list[_Enumerated | None], frontier: int,
                      steps: list[Step]) -> list[Step]:
        """``steps`` (the local proofs) and the global ones: the components and the interior
        under the total mine count."""
        assert self.mine_total is not None
        left = self.mine_total - self.mines_known
        interior = self.unknown_count - frontier
        if left < 0 or left > self.unknown_count:
            raise GridforgeError(
                f"inconsistent position: {left} mines left for {self.unknown_count} hidden cells"
            )
        window = _range_mask(left - interior, left)
        prefix = [1]
        for res in results:
            assert res is not None
            prefix.append(sumset(prefix[-1], res[0]))
        if not prefix[-1] & window:
            raise GridforgeError("inconsistent position: no arrangement fits the mine total")
        suffix = [1]
        for res in reversed(results):
            assert res is not None
            suffix.append(sumset(suffix[-1], res[0]))
        suffix.reverse()
        all_cons = sorted(self.active)
        done = {cell for s in steps for cell in s.safe + s.mines}
        for i, ((cells, _cons), res) in enumerate(zip(comps, results, strict=True)):
            assert res is not None
            others = sumset(prefix[i], suffix[i + 1])
            _, mine_k, safe_k = res
            safe, mines = [], []
            for c, m, s in zip(cells, mine_k, safe_k, strict=True):
                if self.cell(c) in done:
                    continue
                if not sumset(m, others) & window:
                    safe.append(c)
                elif not sumset(s, others) & window:
                    mines.append(c)
            if safe or mines:
                steps.append(self._enum_step("enumeration", safe, mines, all_cons, True))
        if interior:
            totals = prefix[-1]
            can_mine = totals & _range_mask(left - interior, left - 1)
            can_safe = totals & _range_mask(left - interior + 1, left)
            if not can_mine or not can_safe:
                in_frontier = {c for cells, _ in comps for c in cells}
                hidden = [
                    i for i in range(self.size) if self.state[i] == UNKNOWN and i not in in_frontier
                ]
                safe = hidden if not can_mine else []
                mines = hidden if not can_safe else []
                steps.append(self._enum_step("mine_count", safe, mines, all_cons, True))
        return steps

    def _enum_step(
        self, rule: str, safe: list[int], mines: list[int], cons: list[int], total: bool
    ) -> Step:
        parts = []
        if safe:
            parts.append(_plural(len(safe), "cell") + " safe")
        if mines:
            parts.append(_plural(len(mines), "cell") + " mined")
        if rule == "mine_count":
            why = (
                f"the total of {self.mine_total} mines, after every arrangement the "
                f"{_plural(len(cons), 'digit')} allow, leaves the cells that touch no digit"
            )
        else:
            why = f"every arrangement of mines that fits these {_plural(len(cons), 'digit')}"
            if total:
                why += f" and the total of {self.mine_total} mines"
        text = f"{why}: " + " and ".join(parts)
        return Step(
            rule, self.cells_of(safe), self.cells_of(mines), self.cells_of(cons), total, text
        )

    def next_step(self) -> Step | None:
        """The next deduction (cheapest rule first), or None when nothing more is provable."""
        if self._pending:
            return self._pending.popleft()
        step = self._single()
        if step is None:
            step = self._subset()
        if step is None and (self.active or self._interior_possible()):
            found = self._enumeration()
            if found:
                step = found[0]
                self._pending.extend(found[1:])
        return step

    def _interior_possible(self) -> bool:
        """Whether the mine total alone might still decide something (no frontier left)."""
        return self.mine_total is not None and self.unknown_count > 0

    def run(self, limit: int | None = None) -> list[Step]:
        """Apply steps until nothing more is provable (or ``limit`` steps); return them."""
        steps: list[Step] = []
        while limit is None or len(steps) < limit:
            step = self.next_step()
            if step is None:
                break
            self.apply(step)
            steps.append(step)
        return steps


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# What enumerate_component finds: (counts, per-cell mine counts, per-cell safe counts).
_Enumerated = tuple[int, list[int], list[int]]


def enumerate_component(
    cells: Sequence[int],
    constraints: Sequence[tuple[int, Sequence[int]]],
    max_states: int = DEFAULT_MAX_STATES,
) -> tuple[int, list[int], list[int]] | None:
    """Exact enumeration of one coupled component, by dynamic programming.

    :param cells: the component's unknown cells, in processing order.
    :param constraints: ``(mines_needed, cells)`` for each digit of the component.
    :returns: ``(totals, mine_k, safe_k)`` as bit masks over mine counts ``k`` of the
        component: ``totals`` has bit ``k`` when some arrangement has ``k`` mines;
        ``mine_k[j]`` (``safe_k[j]``) has bit ``k`` when some arrangement with ``k`` mines
        makes ``cells[j]`` a mine (safe). None when a layer exceeds ``max_states``.
    """
    n = len(cells)
    pos = {c: j for j, c in enumerate(cells)}
    qcells = [sorted(pos[c] for c in cs) for _, cs in constraints]
    need = [r for r, _ in constraints]
    starts: list[list[int]] = [[] for _ in range(n)]
    touching: list[list[int]] = [[] for _ in range(n)]
    for q, qc in enumerate(qcells):
        starts[qc[0]].append(q)
        for j in qc:
            touching[j].append(q)
    # Precompute, per cell, the layout of active constraints and the checks to run.
    plans = []
    layout: list[int] = []
    for j in range(n):
        layout = layout + starts[j]
        where = {q: p for p, q in enumerate(layout)}
        checks = tuple(
            (where[q], need[q], len(qcells[q]) - 1 - qcells[q].index(j)) for q in touching[j]
        )
        keep = tuple(p for p, q in enumerate(layout) if qcells[q][-1] != j)
        plans.append((len(starts[j]), checks, keep))
        layout = [layout[p] for p in keep]

    forward: list[dict[tuple[int, ...], int]] = [{(): 1}]
    trans: list[list[tuple[tuple[int, ...], int, tuple[int, ...]]]] = []
    for j in range(n):
        grow, checks, keep = plans[j]
        pad = (0,) * grow
        nxt: dict[tuple[int, ...], int] = {}
        moves = []
        for s, ks in forward[j].items():
            base = s + pad if grow else s
            for m in (0, 1):
                new = list(base)
                for p, req, after in checks:
                    v = new[p] + m
                    if v > req or v + after < req:
                        break
                    new[p] = v
                else:
                    t = tuple(new[p] for p in keep)
                    nxt[t] = nxt.get(t, 0) | (ks << m)
                    moves.append((s, m, t))
        if len(nxt) > max_states:
            return None
        forward.append(nxt)
        trans.append(moves)
    backward: dict[tuple[int, ...], int] = {(): 1} if () in forward[n] else {}
    mine_k = [0] * n
    safe_k = [0] * n
    for j in range(n - 1, -1, -1):
        here: dict[tuple[int, ...], int] = {}
        fw = forward[j]
        mk = sk = 0
        for s, m, t in trans[j]:
            tail = backward.get(t, 0)
            if not tail:
                continue
            tail <<= m
            here[s] = here.get(s, 0) | tail
            if m:
                mk |= sumset(fw[s], tail)
            else:
                sk |= sumset(fw[s], tail)
        mine_k[j] = mk
        safe_k[j] = sk
        backward = here
    totals = backward.get((), 0)
    return totals, mine_k, safe_k


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
        issues.append(Issue(path, "type", f"expected {length} values [x, y, ...]"))
        return False
    if not (0 <= value[0] < cols and 0 <= value[1] < rows):
        issues.append(Issue(path, "off_board", f"cell {value[:2]} is outside the board"))
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
            issues.append(Issue(path, "range", f"a digit is 0..8 or null, got {digit!r}"))
            continue
        c = (entry[0], entry[1])
        if c in opened:
            issues.append(Issue(path, "duplicate", f"cell {list(c)} opened twice"))
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
            raise ValidationError([Issue(name, "too_many", f"{len(listed)} entries, but a "
                                         f"{cols}x{rows} board has only {cols * rows} cells")],
                                  "position")

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
                issues.append(Issue(path, "duplicate", f"cell {list(c)} given twice"))
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


# --------------------------------------------------------------- playthrough
class Playthrough(Deducer):
    """Plays a board from R0 as a player who only ever digs cells proved safe.

    The true board is the oracle that answers a dig: a safe cell opens and shows its digit
    (a fog cell shows none), and a safe cell whose true digit is 0 opens its chain, as the
    engine does (F2 with no flags). The generator may change the oracle through
    :meth:`move_mine` while the play is stuck (a *repair*).
    """

    def __init__(
        self,
        cols: int,
        rows: int,
        mine_flags: Sequence[int],
        fog_flags: Sequence[int],
        spawn: Cell,
        mine_total: int | None = None,
        max_states: int = DEFAULT_MAX_STATES,
    ) -> None:
        super().__init__(cols, rows, mine_total, max_states)
        self.mine_flag = bytearray(mine_flags)
        self.fog = bytes(fog_flags)
        nbrs = self.nbrs
        true = [0] * self.size
        mined = [i for i, m in enumerate(self.mine_flag) if m]
        for i in mined:
            for j in nbrs[i]:
                true[j] += 1
        for i in mined:
            true[i] = -1
        self.true = true
        self.safe_left = self.size - len(mined)
        sx, sy = spawn
        self.r0 = self.open_many(
            [(sy + dy) * cols + sx + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
        )
        self.steps: list[Step] = []

    def open_many(self, starts: Sequence[int]) -> list[int]:
        """Dig ``starts`` (all safe) and their chains, in canonical BFS order.

        A cell is marked queued when enqueued; when dequeued it becomes open, the digits
        around it lose an unknown cell and its own digit is read (queued cells still count
        as unknown for it, since they will update it when their turn comes).
        """
        state, true, fog, nbrs, mine = self.state, self.true, self.fog, self.nbrs, self.mine_flag
        clue, unk, rem, mask, active = self.clue, self.unk, self.rem, self._mask, self.active
        queued, enqueue, dirty = self._queued, self._queue.append, self._dirty.add
        queue = [i for i in starts if state[i] == UNKNOWN]
        for i in queue:
            if mine[i]:
                raise AssertionError("the solver dug a mine")  # a bug, never bad input
            state[i] = _QUEUED
        head = 0
        while head < len(queue):
            i = queue[head]
            head += 1
            state[i] = SAFE
            digit = true[i]
            unknown = mines = 0
            for j in nbrs[i]:
                s = state[j]
                if s in (UNKNOWN, _QUEUED):
                    unknown += 1
                elif s == MINE:
                    mines += 1
                if clue[j] >= 0:  # a digit beside i loses an unknown cell
                    u = unk[j] - 1
                    unk[j] = u
                    if u == 0:  # nothing left to deduce there (the board is consistent)
                        active.discard(j)
                    else:
                        mask[j] = -1
                        dirty(j)
                        if not queued[j]:
                            queued[j] = 1
                            enqueue(j)
                if digit == 0 and s == UNKNOWN:
                    state[j] = _QUEUED
                    queue.append(j)
            if not fog[i]:
                clue[i] = digit
                unk[i] = unknown
                rem[i] = digit - mines
                if unknown and digit:  # a 0 has its unknown neighbours in this very queue
                    active.add(i)
                    mask[i] = -1
                    dirty(i)
                    if not queued[i]:
                        queued[i] = 1
                        enqueue(i)
        self.unknown_count -= len(queue)
        self.safe_left -= len(queue)
        return queue

    def on_safe(self, i: int) -> None:
        self.open_many([i])

    def play(self) -> bool:
        """Deduce and dig until every safe cell is open (True) or the rules are stuck."""
        while self.safe_left > 0:
            step = self.next_step()
            if step is None:
                return False
            self.apply(step)
            self.steps.append(step)
        return True

    def move_mine(self, i: int, mine: bool) -> None:
        """Put (``mine``) or take away the mine of unknown cell ``i`` in the oracle."""
        assert self.state[i] == UNKNOWN and bool(self.mine_flag[i]) != mine
        delta = 1 if mine else -1
        self.mine_flag[i] = 1 if mine else 0
        self.safe_left -= delta
        true, clue = self.true, self.clue
        true[i] = -1 if mine else sum(self.mine_flag[j] for j in self.nbrs[i])
        for j in self.nbrs[i]:
            if true[j] >= 0:
                true[j] += delta
                if clue[j] >= 0:
                    self.shift_clue(j, delta)
        self._pending.clear()


@dataclass
class SolveResult:
    """The outcome of playing a board from R0: whether it is no-guess, and the evidence."""

    no_guess: bool
    r0: list[Cell]
    steps: list[Step]
    safe_count: int
    solved_count: int  # safe cells open at the end, R0 included
    largest_component: int
    complete: bool = True
    rule_counts: dict[str, int] = field(default_factory=dict)
    stuck_frontier: list[Cell] = field(default_factory=list)

    @property
    def inferable_ratio(self) -> float:
        """Share of the safe cells outside R0 that deduction opens (1.0 when none exist)."""
        work = self.safe_count - len(self.r0)
        return 1.0 if work <= 0 else (self.solved_count - len(self.r0)) / work

    def metrics(self) -> Metrics:
        return {
            "r0_size": len(self.r0),
            "safe_count": self.safe_count,
            "inferable_ratio": round(self.inferable_ratio, 6),
            "deduction_steps": len(self.steps),
            "largest_component": self.largest_component,
            "rule_counts": {k: self.rule_counts.get(k, 0) for k in RULES},
            "no_guess": self.no_guess,
        }

    def to_json(self) -> SolveJson:
        return {
            "no_guess": self.no_guess,
            "metrics": self.metrics(),
            "r0": [[x, y] for x, y in self.r0],
            "steps": [s.to_json() for s in self.steps],
            "stuck_frontier": [[x, y] for x, y in self.stuck_frontier],
            "complete": self.complete,
        }


def playthrough_for(
    board: Board, use_mine_count: bool = True, max_states: int = DEFAULT_MAX_STATES
) -> Playthrough:
    """A :class:`Playthrough` of ``board`` that has opened R0 (fog = variant ``fog``)."""
    if any(board.is_mine(c) for c in board.spawn_cells):
        raise GridforgeError("the board has a mine in its spawn 3x3 (install invariant 1)")
    fog = [1 if "fog" in ids else 0 for ids in board.flat.variant_marks]
    return Playthrough(
        board.cols,
        board.rows,
        board.flat.mine_flags,
        fog,
        board.spawn,
        len(board.mines) if use_mine_count else None,
        max_states,
    )


def result_of(play: Playthrough, solved: bool) -> SolveResult:
    """Summarise a finished (or stuck) playthrough."""
    cells = play.cells_of
    stuck = (
        sorted({u for q in play.active for u in play.unknown_neighbours(q)}) if not solved else []
    )
    safe_count = play.size - sum(play.mine_flag)
    return SolveResult(
        no_guess=solved,
        r0=[play.cell(i) for i in play.r0],
        steps=list(play.steps),
        safe_count=safe_count,
        solved_count=safe_count - play.safe_left,
        largest_component=play.largest_component,
        complete=play.complete,
        rule_counts=dict(play.rule_counts),
        stuck_frontier=list(cells(stuck)),
    )


def solve_board(
    board: Board, use_mine_count: bool = True, max_states: int = DEFAULT_MAX_STATES
) -> SolveResult:
    """Play ``board`` from R0 by deduction alone; fog digits stay hidden from the solver.

    :param use_mine_count: let the solver use the total mine count (only when the page shows
        it to the player).
    """
    play = playthrough_for(board, use_mine_count, max_states)
    return result_of(play, play.play())


def solve(board: JsonObject, use_mine_count: bool = True) -> SolveJson:
    """Browser/CLI entry: play a board (JSON) from R0 and return the trace and metrics."""
    return solve_board(Board.from_json(board), bool(use_mine_count)).to_json()
