"""The deduction solver: sound and complete against brute force, explained, deterministic."""

from __future__ import annotations

import itertools
import json
import random
import sys

import pytest
from gridforge import api
from gridforge.errors import GridforgeError, ValidationError
from gridforge.mines.board import Board, initial_expansion, spawn_cells
from gridforge.mines.page import solve
from gridforge.mines.playthrough import solve_board
from gridforge.mines.position import deduce, hint
from gridforge.mines.solver import Deducer, enumerate_component, geometry, sumset

IN_PYODIDE = sys.platform == "emscripten"
POSITIONS = 400 if IN_PYODIDE else 2500


def brute_force(cols, rows, opened, known, total):
    """Every mine set of the hidden cells that fits the shown digits (and the total)."""
    nbrs, _ = geometry(cols, rows)
    hidden = [
        i
        for i in range(cols * rows)
        if (i % cols, i // cols) not in opened and (i % cols, i // cols) not in known
    ]
    known_idx = {y * cols + x for x, y in known}
    digits = [(y * cols + x, d) for (x, y), d in opened.items() if d is not None]
    fits = []
    for bits in itertools.product((0, 1), repeat=len(hidden)):
        mines = known_idx | {h for h, b in zip(hidden, bits, strict=True) if b}
        if total is not None and len(mines) != total:
            continue
        if all(sum(j in mines for j in nbrs[q]) == d for q, d in digits):
            fits.append(mines)
    return hidden, fits


def random_position(rng: random.Random, max_hidden: int = 13):
    """A consistent small position from a random board: some cells opened (a few as fog),
    a few mines known; None when too many cells stay hidden for brute force."""
    cols, rows = rng.randint(2, 6), rng.randint(2, 5)
    n = cols * rows
    density = rng.random() * 0.5
    mines = {i for i in range(n) if rng.random() < density}
    nbrs, _ = geometry(cols, rows)
    opened, known = {}, set()
    share = rng.uniform(0.2, 0.7)
    for i in range(n):
        cell = (i % cols, i // cols)
        if i in mines:
            if rng.random() < 0.1:
                known.add(cell)
        elif rng.random() < share:
            fog = rng.random() < 0.15
            opened[cell] = None if fog else sum(j in mines for j in nbrs[i])
    if n - len(opened) - len(known) > max_hidden:
        return None
    total = len(mines) if rng.random() < 0.5 else None
    return cols, rows, opened, known, total


def test_solver_matches_brute_force_on_thousands_of_random_positions():
    rng = random.Random(20260914)
    checked = proved = 0
    while checked < POSITIONS:
        pos = random_position(rng)
        if pos is None:
            continue
        cols, rows, opened, known, total = pos
        hidden, fits = brute_force(cols, rows, opened, known, total)
        assert fits, "a position made from a real board has at least one arrangement"
        safe = {(h % cols, h // cols) for h in hidden if all(h not in f for f in fits)}
        mined = {(h % cols, h // cols) for h in hidden if all(h in f for f in fits)}
        result = deduce(cols, rows, opened, known, total)
        assert result.complete
        # sound: every proof holds in every arrangement; complete: nothing provable missed
        assert set(result.safe) == safe, pos
        assert set(result.mines) == mined, pos
        checked += 1
        proved += len(safe) + len(mined)
    assert proved > POSITIONS  # the sample is not trivial


def test_every_step_is_true_and_cites_what_it_used():
    rng = random.Random(7)
    rules_seen = set()
    checked = 0
    while checked < (100 if IN_PYODIDE else 600):
        pos = random_position(rng, max_hidden=12)
        if pos is None:
            continue
        cols, rows, opened, known, total = pos
        _, fits = brute_force(cols, rows, opened, known, total)
        result = deduce(cols, rows, opened, known, total)
        for step in result.steps:
            rules_seen.add(step.rule)
            for x, y in step.safe:
                assert all(y * cols + x not in f for f in fits)
            for x, y in step.mines:
                assert all(y * cols + x in f for f in fits)
            assert step.safe or step.mines
            assert step.text
            cited = set(step.constraints)
            assert all(c in opened and opened[c] is not None for c in cited)
            if step.rule == "single":
                assert len(cited) == 1
            if step.rule == "subset":
                assert len(cited) == 2
            if step.rule in ("single", "subset"):
                assert not step.mine_count
                near = {
                    (cx + dx, cy + dy) for cx, cy in cited for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                }
                assert set(step.safe) | set(step.mines) <= near
            if step.mine_count:
                assert total is not None
        checked += 1
    assert rules_seen == {"single", "subset", "enumeration", "mine_count"}


def test_subset_rule_names_both_digits():
    # Row 0 hidden, row 1 shows 1 1 at x=0..1: A = {(0,0),(1,0)} inside B = {(0,0),(1,0),(2,0)}
    # of the digit at (1,1), so (2,0) is safe.
    opened = {(0, 1): 1, (1, 1): 1, (2, 1): 1, (0, 2): 0, (1, 2): 0, (2, 2): 0}
    result = deduce(3, 3, opened, max_steps=1)
    (step,) = result.steps
    assert step.rule == "subset"
    assert step.safe == ((2, 0),)
    assert step.constraints == ((0, 1), (1, 1))


def test_fog_cells_give_no_constraint():
    # A 3x1 strip: [hidden][opened][hidden] with one mine. Shown as a digit, "1" decides
    # nothing; hidden as fog, nothing is known either way; with a 0 it would prove both.
    assert deduce(3, 1, {(1, 0): 0}).safe == ((0, 0), (2, 0))
    assert deduce(3, 1, {(1, 0): None}).safe == ()
    # A digit 2 with 2 hidden cells proves mines; the same cell in fog proves nothing.
    assert deduce(3, 1, {(1, 0): 2}).mines == ((0, 0), (2, 0))
    assert deduce(3, 1, {(1, 0): None}).mines == ()


def test_mine_count_decides_the_interior_and_is_cited():
    # 4x1: (0,0) shows 0 -> (1,0) safe; the rest touch no digit. With 2 mines left for 2
    # hidden cells that touch no digit, both are mines, by the count only.
    result = deduce(4, 1, {(0, 0): 0, (1, 0): 1}, mine_total=2)
    assert set(result.mines) == {(2, 0), (3, 0)}
    assert any(s.mine_count for s in result.steps)
    assert deduce(4, 1, {(0, 0): 0, (1, 0): 1}).mines == ((2, 0),)


def test_inconsistent_positions_raise_a_clear_error():
    with pytest.raises(GridforgeError, match=r"\[1, 0\]"):
        deduce(3, 1, {(1, 0): 3})
    with pytest.raises(GridforgeError, match="inconsistent"):
        deduce(4, 1, {(0, 0): 0, (1, 0): 1}, mine_total=0)


def test_enumeration_is_exact_and_bounded():
    # Two cells, one digit needing exactly one mine among them.
    totals, mine_k, safe_k = enumerate_component([5, 6], [(1, [5, 6])])
    assert totals == 0b10
    assert mine_k == [0b10, 0b10] and safe_k == [0b10, 0b10]
    # A long chain of "1 of 3" digits exceeds a tiny state budget: the result is None.
    cells = list(range(30))
    cons = [(1, cells[i : i + 3]) for i in range(0, 28)]
    assert enumerate_component(cells, cons, max_states=1) is None
    assert enumerate_component(cells, cons) is not None


def test_state_budget_leaves_the_deduction_incomplete_not_wrong():
    # A 12x3 board: the middle row shows 1s, top and bottom rows hidden: a wide component.
    opened = {(x, 1): 1 for x in range(12)}
    full = deduce(12, 3, opened)
    capped = deduce(12, 3, opened, max_states=1)
    assert full.complete and not capped.complete
    assert set(capped.safe) <= set(full.safe) and set(capped.mines) <= set(full.mines)


def test_sumset():
    assert sumset(0b101, 0b11) == 0b1111
    assert sumset(0, 0b1) == 0
    assert sumset(0b1, 0b1000) == 0b1000


def test_deduction_is_deterministic():
    rng = random.Random(3)
    for _ in range(50):
        pos = random_position(rng, max_hidden=20)
        if pos is None:
            continue
        a = deduce(*pos[:3], pos[3], pos[4])
        b = deduce(*pos[:3], pos[3], pos[4])
        assert [s.to_json() for s in a.steps] == [s.to_json() for s in b.steps]


def test_playthrough_initial_visible_set_is_r0_cell_for_cell():
    rng = random.Random(11)
    for _ in range(100 if IN_PYODIDE else 300):
        cols, rows = rng.randint(3, 12), rng.randint(3, 12)
        spawn = (rng.randint(1, cols - 2), rng.randint(1, rows - 2))
        b3 = {(spawn[0] + dx, spawn[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        free = [(x, y) for y in range(rows) for x in range(cols) if (x, y) not in b3]
        mines = rng.sample(free, rng.randint(0, len(free) // 3))
        board = Board(cols, rows, mines, spawn)
        result = solve_board(board)
        assert result.r0 == initial_expansion(board)


def test_playthrough_steps_each_prove_something_true_and_are_counted():
    rng = random.Random(5)
    for _ in range(30 if IN_PYODIDE else 150):
        cols, rows = rng.randint(5, 16), rng.randint(5, 12)
        spawn = (cols // 2, rows // 2)
        b3 = set(spawn_cells(spawn))
        free = [(x, y) for y in range(rows) for x in range(cols) if (x, y) not in b3]
        board = Board(cols, rows, rng.sample(free, len(free) // 6), spawn)
        result = solve_board(board)
        opened = set(result.r0)
        for step in result.steps:
            assert step.safe or step.mines, step
            assert not any(board.is_mine(c) for c in step.safe)
            assert all(board.is_mine(c) for c in step.mines)
            assert not set(step.safe) & opened  # never proves what is already open
            opened |= set(step.safe)
        counts = result.rule_counts
        assert sum(counts.values()) == len(result.steps)
        assert result.no_guess == (result.solved_count == board.safe_count)


def test_solve_board_opens_every_safe_cell_of_an_easy_board():
    # 5x5, spawn (2,2), one mine in the corner: everything but the corner is read.
    board = Board(6, 5, [(5, 0), (5, 4)], (2, 2))
    result = solve_board(board)
    assert result.no_guess and result.solved_count == board.safe_count
    assert result.inferable_ratio == 1.0


def test_solve_board_reports_a_guess_and_its_frontier():
    # 0 0 0 0 0 0
    # 0 0 1 1 1 0
    # 0 0 2 * 3 1
    # 0 0 2 * * 1   <- (4,3) or (5,3): a 50/50 that even the mine count cannot split
    board = Board(6, 4, [(3, 2), (3, 3), (4, 3)], (1, 1))
    result = solve_board(board)
    assert not result.no_guess
    assert result.stuck_frontier == [(4, 3), (5, 3)]
    assert result.inferable_ratio < 1.0 and result.metrics()["no_guess"] is False


def test_mine_count_opens_a_region_walled_off_by_mines():
    # Column 4 is all mines; the digits of column 3 prove it, and only the count (3 mines,
    # all found) proves the cells behind the wall safe.
    board = Board(7, 3, [(4, 0), (4, 1), (4, 2)], (1, 1))
    assert not solve_board(board, use_mine_count=False).no_guess
    counted = solve_board(board)
    assert counted.no_guess
    assert counted.rule_counts["mine_count"] == 1


def test_hint_and_solve_through_the_json_bridge():
    position = {"cols": 3, "rows": 1, "opened": [[1, 0, 0]], "mine_total": 0}
    answer = json.loads(api.dispatch("gridforge.mines.page.position_hint", json.dumps([position])))
    assert answer["ok"]
    assert answer["value"]["step"]["rule"] == "single"
    assert answer["value"]["safe"] == [[0, 0], [2, 0]]
    board = Board(6, 5, [(5, 0), (5, 4)], (2, 2)).to_json()
    value = json.loads(api.dispatch("gridforge.mines.page.solve", json.dumps([board])))
    assert value["value"]["no_guess"] is True
    assert value["value"]["metrics"]["r0_size"] == len(value["value"]["r0"])
    assert solve(board)["steps"] == value["value"]["steps"]


def test_position_validation_names_every_field():
    with pytest.raises(ValidationError) as err:
        hint(
            {
                "cols": 3,
                "rows": 2,
                "opened": [[5, 0, 1], [0, 0, 9]],
                "known_mines": [[0]],
                "extra": 1,
            }
        )
    paths = {issue.path for issue in err.value.issues}
    assert paths == {"extra", "opened[0]", "opened[1]", "known_mines[0]"}


def test_deducer_hidden_cells_with_no_information_stay_unknown():
    ded = Deducer(4, 4)
    assert ded.run() == []
    assert ded.unknown_count == 16
