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

* :func:`~gridforge.mines.position.deduce` / :func:`~gridforge.mines.position.hint`
  (:mod:`gridforge.mines.position`): a position as the player sees it; the result is the set of
  cells that logic proves, with the steps.
* :func:`~gridforge.mines.playthrough.solve_board`
  (:mod:`gridforge.mines.playthrough`): play a whole board from R0 (the seed's F3: the spawn
  3x3 plus its flood closure, exactly as the engine opens it on install), opening each cell
  as soon as it is proved safe (a dug 0 opens its chain, as in the engine) until every safe
  cell is open (the board is *no-guess*) or the rules are stuck.

Everything is deterministic: cells are kept as row-major indices, queues are FIFO, and every
choice among equals goes to the lowest index.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterable, Sequence
from typing import NamedTuple, TypedDict

from gridforge.errors import (
    GridforgeError,
)
from gridforge.grid import NEIGHBOURS_8, Cell

__all__ = [
    "DEFAULT_MAX_STATES",
    "Deducer",
    "Step",
]

UNKNOWN, SAFE, MINE = 0, 1, 2

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


