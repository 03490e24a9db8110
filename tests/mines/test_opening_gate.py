"""Issue 45: battle boards open a small share of their safe cells by themselves (R0), and
stay no-guess, checked by an exact solver written here, independent of the generator's.

The exact solver plays a board as a player who sees what the page shows: opened digits (an
opened fog cell shows none) and the mine total. At each step it enumerates every mine
configuration of the frontier (the hidden cells beside a shown digit) that agrees with all
shown digits, component by component, and joins the components through the mine total
(the hidden cells off the frontier take the mines left over, in any arrangement). A cell is
proved safe when no agreeing configuration puts a mine on it; the player digs every proved
safe cell (a 0 opens its neighbours, as the engine's chain does) and looks again. The board
is no-guess when this opens every safe cell. Being exact, this player is at least as strong
as the generator's solver: a board it cannot finish needs a guess.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from gridforge.grid import Cell
from gridforge.mines.board import Board, spawn_cells
from gridforge.mines.gen_table import GenTable, preset
from gridforge.mines.generate import generate
from gridforge.mines.run_table import board_seed, load_run_table

SEEDS = 50
# Counted budget of the enumeration (search nodes per board): the test fails rather than
# runs on when a frontier is too wide to enumerate.
NODE_BUDGET = 3_000_000


def opening(board: Board) -> set[Cell]:
    """R0 by its public definition: the spawn 3x3 and its flood through zeros."""
    r0 = set(spawn_cells(board.spawn))
    todo = list(r0)
    while todo:
        cell = todo.pop()
        if board.true_digit(cell) == 0:
            for n in board.neighbours(cell):
                if n not in r0:
                    r0.add(n)
                    todo.append(n)
    return r0


class _Budget:
    def __init__(self, nodes: int) -> None:
        self.left = nodes

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise AssertionError("the exact solver's node budget ran out")


def _component_solutions(
    cells: list[Cell], constraints: list[tuple[list[Cell], int]], most: int, budget: _Budget
) -> dict[int, tuple[set[Cell], set[Cell]]]:
    """Every assignment of ``cells`` agreeing with ``constraints`` (at most ``most`` mines),
    summed up by mine count: count -> (cells that can be a mine, cells that can be safe)."""
    index = {c: i for i, c in enumerate(cells)}
    cons = [([index[c] for c in vs], need) for vs, need in constraints]
    by_cell: list[list[int]] = [[] for _ in cells]
    for k, (vs, _) in enumerate(cons):
        for i in vs:
            by_cell[i].append(k)
    mines_in = [0] * len(cons)
    open_in = [len(vs) for vs, _ in cons]
    value = [0] * len(cells)
    out: dict[int, tuple[set[Cell], set[Cell]]] = {}

    def ok(i: int) -> bool:
        for k in by_cell[i]:
            need = cons[k][1]
            if mines_in[k] > need or mines_in[k] + open_in[k] < need:
                return False
        return True

    def walk(i: int, mines: int) -> None:
        budget.spend()
        if i == len(cells):
            can_mine, can_safe = out.setdefault(mines, (set(), set()))
            for j, v in enumerate(value):
                (can_mine if v else can_safe).add(cells[j])
            return
        for v in (0, 1):
            if v and mines == most:
                continue
            value[i] = v
            for k in by_cell[i]:
                open_in[k] -= 1
                mines_in[k] += v
            if ok(i):
                walk(i + 1, mines + v)
            for k in by_cell[i]:
                open_in[k] += 1
                mines_in[k] -= v

    walk(0, 0)
    return out


def _sums(options: list[set[int]]) -> set[int]:
    sums = {0}
    for choice in options:
        sums = {s + k for s in sums for k in choice}
    return sums


def _components(constraints: list[tuple[list[Cell], int]]) -> list[list[Cell]]:
    """The frontier's cells grouped by the digits they share (union-find)."""
    parent: dict[Cell, Cell] = {}

    def find(c: Cell) -> Cell:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for vs, _ in constraints:
        for c in vs:
            parent.setdefault(c, c)
        for c in vs[1:]:
            parent[find(c)] = find(vs[0])
    groups: dict[Cell, list[Cell]] = {}
    for c in sorted(parent, key=lambda c: (c[1], c[0])):
        groups.setdefault(find(c), []).append(c)
    return list(groups.values())


def _deduce(constraints: list[tuple[list[Cell], int]], hidden: list[Cell], left: int,
            budget: _Budget) -> tuple[set[Cell], set[Cell]]:
    """The hidden cells proved safe and proved mines by every agreeing configuration."""
    comps = []
    for cells in _components(constraints):
        inside = set(cells)
        mine = [(vs, need) for vs, need in constraints if vs[0] in inside]
        sols = _component_solutions(cells, mine, left, budget)
        assert sols, "no configuration agrees with the digits: a broken board"
        comps.append((cells, sols))
    frontier = {c for cells, _ in comps for c in cells}
    others = [c for c in hidden if c not in frontier]
    safe: set[Cell] = set()
    mines: set[Cell] = set()
    feasible_rest: set[int] = set() if comps else {left} & set(range(len(others) + 1))
    for k, (cells, sols) in enumerate(comps):
        rest = _sums([set(s) for j, (_, s) in enumerate(comps) if j != k])
        can_mine: set[Cell] = set()
        can_safe: set[Cell] = set()
        for count, (m, s) in sols.items():
            fits = [left - count - r for r in rest if 0 <= left - count - r <= len(others)]
            if fits:
                can_mine |= m
                can_safe |= s
                feasible_rest.update(fits)
        safe |= set(cells) - can_mine
        mines |= set(cells) - can_safe
    assert feasible_rest, "no configuration agrees with the mine total"
    if max(feasible_rest) == 0:
        safe |= set(others)
    if min(feasible_rest) == len(others):
        mines |= set(others)
    return safe, mines


def _open(board: Board, opened: set[Cell], cells: set[Cell], fog: set[Cell]) -> None:
    """Dig ``cells`` (safe): a 0 opens its neighbours, as the engine's chain does."""
    todo = list(cells)
    opened |= cells
    while todo:
        cell = todo.pop()
        if cell not in fog and board.true_digit(cell) == 0:
            for n in board.neighbours(cell):
                if n not in opened:
                    opened.add(n)
                    todo.append(n)


def exact_no_guess(board: Board, budget_nodes: int = NODE_BUDGET) -> bool:
    """Whether exact deduction from R0 (shown digits and the mine total) opens every safe
    cell of ``board``."""
    budget = _Budget(budget_nodes)
    fog = {c for c, ids in board.variants.items() if "fog" in ids}
    opened = opening(board)
    known_mines: set[Cell] = set()
    every = [(x, y) for y in range(board.rows) for x in range(board.cols)]
    while len(opened) < board.safe_count:
        hidden = [c for c in every if c not in opened and c not in known_mines]
        constraints: list[tuple[list[Cell], int]] = []
        for cell in opened - fog:  # an opened fog cell shows no digit
            around = board.neighbours(cell)
            vs = [n for n in around if n not in opened and n not in known_mines]
            digit = board.true_digit(cell)
            if vs and digit is not None:
                constraints.append((sorted(vs), digit - sum(n in known_mines for n in around)))
        safe, mines = _deduce(constraints, hidden, len(board.mines) - len(known_mines), budget)
        assert not (safe & board.mines), "the exact solver proved a mine safe"
        known_mines |= mines
        if not safe:
            return False
        _open(board, opened, safe, fog)
    return True


def _battle_boards(battle: int) -> list[Board]:
    """Battle ``battle``'s first boards of runs 1..SEEDS, as the run makes them."""
    table = load_run_table()
    name = table.battles[battle].preset
    return [generate(name, board_seed(run, battle, 0), level=battle + 1).board
            for run in range(1, SEEDS + 1)]


@pytest.mark.search_heavy  # 250 boards solved exactly: CPython (Pyodide: the same bytes)
@pytest.mark.parametrize("battle", range(5))
def test_battle_boards_open_a_small_share_and_need_no_guess(battle: int) -> None:
    table = load_run_table()
    gate = 0.45 if battle == 0 else 0.35
    assert preset(table.battles[battle].preset).max_opening == gate
    shares = []
    for board in _battle_boards(battle):
        r0 = opening(board)
        assert not r0 & board.mines
        shares.append(len(r0) / board.safe_count)
        assert len(r0) / board.safe_count <= gate
        assert exact_no_guess(board), f"a guess is needed on {board!r}"
    # the gate bites: boards are not all far below it (the opening is still a real start)
    assert max(shares) > gate / 2


def brute_no_guess(board: Board) -> bool:
    """The same player by brute force: every placement of all the board's mines on its
    hidden cells is tried against every shown digit (tiny boards only)."""
    fog = {c for c, ids in board.variants.items() if "fog" in ids}
    opened = opening(board)
    every = [(x, y) for y in range(board.rows) for x in range(board.cols)]
    while len(opened) < board.safe_count:
        hidden = [c for c in every if c not in opened]
        shown = [c for c in opened if c not in fog]
        agree = [set(pick) for pick in combinations(hidden, len(board.mines))
                 if all(sum(n in pick for n in board.neighbours(c)) == board.true_digit(c)
                        for c in shown)]
        safe = {c for c in hidden if not any(c in pick for pick in agree)}
        if not safe:
            return False
        _open(board, opened, safe, fog)
    return True


def test_the_exact_solver_agrees_with_brute_force_on_small_boards() -> None:
    rng = random.Random(45)
    verdicts = []
    for _ in range(120):
        cols, rows = rng.choice([(5, 5), (6, 4), (6, 5)])
        spawn = (rng.randint(1, cols - 2), rng.randint(1, rows - 2))
        b3 = set(spawn_cells(spawn))
        pool = [(x, y) for y in range(rows) for x in range(cols) if (x, y) not in b3]
        board = Board(cols, rows, rng.sample(pool, rng.randint(2, 5)), spawn)
        if len(opening(board)) == board.safe_count:
            continue
        verdict = exact_no_guess(board)
        assert verdict == brute_no_guess(board), board.to_json()
        verdicts.append(verdict)
    assert True in verdicts and False in verdicts  # both answers are exercised


def test_the_table_names_a_bad_opening_share() -> None:
    with pytest.raises(Exception, match="max_opening"):
        GenTable.from_json({"cols": 8, "rows": 8, "mines": 10, "max_opening": 1.5})
    with pytest.raises(Exception, match=r"max_opening.*under 9"):
        GenTable.from_json({"cols": 8, "rows": 8, "mines": 10, "max_opening": 0.1})
    table = GenTable.from_json({"cols": 8, "rows": 8, "mines": 10, "max_opening": 0.45})
    assert table.to_json()["max_opening"] == 0.45
    assert GenTable.from_json(table.to_json()).max_opening == 0.45
