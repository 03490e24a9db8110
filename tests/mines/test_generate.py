"""The board generator: every gate, no-guess by repair, metrics, determinism, clear errors."""

from __future__ import annotations

import hashlib
import json
import sys

import pytest
from gridforge import api
from gridforge.errors import ValidationError
from gridforge.mines.board import Board, spawn_cells
from gridforge.mines.engine import Engine
from gridforge.mines.gen_table import GenTable, preset, presets
from gridforge.mines.generate import (
    GENERATED_FORMAT,
    GenerationError,
    check_gates,
    fog_thickness_ok,
    generate,
    generate_many,
    load_generated,
)
from gridforge.mines.ledger import Ledger
from gridforge.mines.playthrough import solve_board

IN_PYODIDE = sys.platform == "emscripten"
PRESETS = sorted(presets())


def independent_gates(board: Board, thickness: int = 2) -> list[str]:
    """Every gate, re-derived here from the board alone (not through check_gates)."""
    problems = []
    b3 = set(spawn_cells(board.spawn))
    if b3 & board.mines:
        problems.append("mine in spawn")
    # R0 by a plain BFS over the public definition (F3)
    r0, todo = set(b3), list(b3)
    while todo:
        c = todo.pop()
        if board.true_digit(c) == 0:
            for n in board.neighbours(c):
                if n not in board.mines and n not in r0:
                    r0.add(n)
                    todo.append(n)
    if len(r0) == board.safe_count:
        problems.append("R0 = S")
    fog = {c for c, ids in board.variants.items() if "fog" in ids}
    if set(board.variants) & (b3 | r0):
        problems.append("variant in spawn or R0")
    if fog & board.mines:
        problems.append("fog on a mine")
    if any(board.true_digit(c) == 0 for c in fog):
        problems.append("fog digit 0")
    k = thickness + 1
    for y in range(board.rows - k + 1):
        for x in range(board.cols - k + 1):
            if all((x + dx, y + dy) in fog for dx in range(k) for dy in range(k)):
                problems.append("fog too thick")
    return problems


def install_events(board: Board) -> tuple[bool, list[tuple[int, int]]]:
    engine = Engine(Ledger())
    events: list[dict] = []
    engine.subscribe(events.append)
    outcome = engine.install_board(board)
    return outcome.accepted, [tuple(e["cell"]) for e in events]


# ------------------------------------------------------------------ tables
def test_presets_cover_the_classic_sizes_and_the_battles():
    tables = presets()
    classic = {(t["cols"], t["rows"], t["mines"]) for t in tables.values()}
    assert {(9, 9, 10), (16, 16, 40), (30, 16, 99)} <= classic
    battles = [name for name in tables if name.startswith("battle-")]
    assert len(battles) >= 3
    assert any(tables[name]["fog"] > 0 for name in battles)
    assert preset("expert").spawn_cell == (15, 8)


@pytest.mark.parametrize(
    ("table", "path", "code"),
    [
        ({"cols": 5, "rows": 5, "mines": 17}, "mines", "too_many"),  # 16 cells outside B3
        ({"cols": 5, "rows": 5, "mines": 16}, "mines", "too_many"),  # then R0 = S
        ({"cols": 5, "rows": 5, "mines": 0}, "mines", "too_few"),
        ({"cols": 5, "rows": 5, "density": 0.99}, "density", "too_many"),
        ({"cols": 5, "rows": 5, "density": 1.5}, "density", "range"),
        ({"cols": 5, "rows": 5}, "mines", "missing"),
        ({"cols": 5, "rows": 5, "mines": 3, "density": 0.1}, "mines", "missing"),
        ({"cols": 9, "rows": 9, "mines": 10, "fog": 63}, "fog", "no_room"),  # 62 safe outside B3
        ({"cols": 9, "rows": 9, "mines": 2, "fog": 17}, "fog", "no_room"),  # 2 mines touch <= 16
        ({"cols": 9, "rows": 9, "mines": 10, "fog": -1}, "fog", "range"),
        ({"cols": 9, "rows": 9, "mines": 10, "fog_thickness": 3}, "fog_thickness", "range"),
        ({"cols": 9, "rows": 9, "mines": 10, "spawn": [0, 4]}, "spawn", "bounds"),
        ({"cols": 9, "rows": 9, "mines": 10, "guarantee": "maybe"}, "guarantee", "enum"),
        ({"cols": 9, "rows": 9, "mines": 10, "attempts": 0}, "attempts", "range"),
        ({"cols": 9, "rows": 9, "mines": 10, "colour": "red"}, "colour", "unknown_field"),
        ({"cols": 2, "rows": 9, "mines": 1}, "cols", "range"),
        ({"cols": 9, "rows": 9, "mines": 10, "mine_count_shown": 1}, "mine_count_shown", "type"),
    ],
)
def test_impossible_tables_name_the_field(table, path, code):
    with pytest.raises(ValidationError) as err:
        GenTable.from_json(table)
    assert (path, code) in {(i.path, i.code) for i in err.value.issues}


def test_a_table_reports_every_problem_at_once():
    with pytest.raises(ValidationError) as err:
        GenTable.from_json(
            {"cols": 9, "rows": 9, "mines": 100, "fog_thickness": 0, "attempts": "x", "x": 1}
        )
    assert {i.path for i in err.value.issues} == {"mines", "fog_thickness", "attempts", "x"}
    assert "80 cells" in str(err.value) or "72 cells" in str(err.value)


def test_density_sets_the_mine_count_and_tables_round_trip():
    table = GenTable.from_json({"cols": 10, "rows": 10, "density": 0.15, "name": "d"})
    assert table.mine_count == 15
    assert GenTable.from_json(table.to_json()) == table.__class__(
        **{**table.__dict__, "spawn": table.spawn_cell}
    )


def test_every_attempt_failing_says_why_and_stops():
    # 5x5 with 1 mine: for this seed the flood reaches every safe cell (R0 = S).
    table = GenTable.from_json({"cols": 5, "rows": 5, "mines": 1, "attempts": 1})
    with pytest.raises(GenerationError) as err:
        generate(table, 1)
    assert err.value.reasons == {"r0_equals_s": 1}
    assert "1 attempts" in str(err.value) and "r0_equals_s" in str(err.value)


def test_fog_that_cannot_be_placed_fails_with_its_reason():
    # Valid on paper (21 <= 8 * 3), but 3 mines on a 7x7 board leave no room for 21 fog
    # cells outside R0 that touch a mine and keep patches thin. Attempts stay bounded.
    table = GenTable.from_json({"cols": 7, "rows": 7, "mines": 3, "fog": 21, "attempts": 5})
    with pytest.raises(GenerationError) as err:
        generate(table, 0)
    assert set(err.value.reasons) <= {"fog_no_room", "r0_equals_s"}
    assert "fog_no_room" in err.value.reasons
    assert sum(err.value.reasons.values()) == 5


def test_fog_thickness_definition():
    cols, rows = 4, 4
    two_thick = [1, 1, 0, 0] * 4  # a 2-wide strip down the left edge
    assert fog_thickness_ok(two_thick, cols, rows, 2)
    assert not fog_thickness_ok(two_thick, cols, rows, 1)
    block = [1, 1, 1, 0] * 3 + [0, 0, 0, 0]
    assert not fog_thickness_ok(block, cols, rows, 2)


# --------------------------------------------------------------- generation
def test_same_seed_same_bytes_and_seeds_differ():
    for name in ("expert", "battle-4"):
        a = generate(name, 7).dumps()
        assert a == generate(name, 7).dumps()
        assert a != generate(name, 8).dumps()
        assert json.loads(a)["format"] == GENERATED_FORMAT


# Regression pins: a change of any of these bytes changes every board a seed names (on
# CPython and in Pyodide alike). Update them only on purpose, with the reason in the commit.
GOLDEN = {
    ("expert", 7): "deea5006939469210f6eee17118df641501b720b10ca6785d883b3d678de391c",
    ("battle-5", 2): "ced6ef83f6868eac4ff0966e4c203d86a2b8aad00f717df47853bca92331fb66",
    ("beginner", 0): "2f001b1c22f0681eb7325f76fb6ca27f5a22e5c6c8a9b7e7a3379ff601c8fdc8",
}


@pytest.mark.parametrize(("name", "seed"), sorted(GOLDEN))
def test_golden_bytes(name, seed):
    text = generate(name, seed).dumps()
    assert hashlib.sha256(text.encode()).hexdigest() == GOLDEN[(name, seed)]


def test_metrics_travel_with_the_board_and_match_a_fresh_solve():
    made = generate("battle-5", 3)
    data = json.loads(made.dumps())
    board, metrics = load_generated(made.dumps())
    assert board == made.board and metrics == data["metrics"]
    fresh = solve_board(board).metrics()
    assert {k: metrics[k] for k in fresh} == fresh
    assert metrics["no_guess"] and metrics["inferable_ratio"] == 1.0
    assert metrics["r0_size"] < metrics["safe_count"] == board.safe_count
    assert metrics["deduction_steps"] > 0
    assert metrics["largest_component"] >= 0
    assert metrics["mine_count_used"] is True


def test_no_guess_is_reached_by_repair_not_only_by_retries():
    made = [generate("expert", seed) for seed in range(20)]
    repaired = [m for m in made if m.metrics["repairs"] > 0 and m.metrics["attempts"] == 1]
    assert repaired, "some first attempts are stuck and repaired into no-guess boards"
    for m in repaired:
        assert solve_board(m.board).no_guess
        assert len(m.board.mines) == 99


def test_guarantee_none_keeps_the_gates_and_measures_what_can_be_read():
    table = GenTable.from_json({**preset("expert").to_json(), "guarantee": "none"})
    made = [generate(table, seed) for seed in range(15)]
    assert all(not independent_gates(m.board) for m in made)
    ratios = [m.metrics["inferable_ratio"] for m in made]
    assert min(ratios) < 1.0 and all(0.0 <= r <= 1.0 for r in ratios)
    assert all(m.metrics["repairs"] == 0 for m in made)


def test_without_a_shown_count_the_board_is_no_guess_without_it():
    table = GenTable.from_json({**preset("intermediate").to_json(), "mine_count_shown": False})
    for seed in range(10):
        made = generate(table, seed)
        assert made.metrics["mine_count_used"] is False
        assert solve_board(made.board, use_mine_count=False).no_guess


def test_fog_unlocks_at_its_level():
    table = preset("battle-3")
    assert not generate(table, 1, level=table.unlock_level - 1).board.variants
    fogged = generate(table, 1, level=table.unlock_level).board
    assert len(fogged.variants) == table.fog
    assert all(ids == ("fog",) for ids in fogged.variants.values())


def test_thin_fog_tables_hold_their_thickness():
    table = GenTable.from_json(
        {"cols": 16, "rows": 14, "mines": 38, "fog": 14, "fog_thickness": 1, "name": "thin"}
    )
    for seed in range(15):
        board = generate(table, seed).board
        assert len(board.variants) == 14
        assert not independent_gates(board, thickness=1)
        assert not check_gates(board, 1)


def test_generate_many_uses_consecutive_seeds():
    many = generate_many("beginner", 40, 3)
    assert [m.seed for m in many] == [40, 41, 42]
    assert many[1].dumps() == generate("beginner", 41).dumps()


def test_new_board_through_the_json_bridge():
    answer = json.loads(
        api.dispatch("gridforge.mines.page.new_board", json.dumps(["battle-2", 5]))
    )
    assert answer["ok"]
    assert Board.from_json(answer["value"]["board"]) == generate("battle-2", 5).board
    bad = json.loads(
        api.dispatch(
            "gridforge.mines.page.new_board",
            json.dumps([{"cols": 5, "rows": 5, "mines": 40}, 1]),
        )
    )
    assert bad["ok"] is False and bad["error"]["issues"][0]["path"] == "mines"


def test_check_gates_names_each_violation():
    assert [i.code for i in check_gates(Board(7, 7, [(3, 3), (0, 0)], (3, 3)))] == ["mine_in_spawn"]
    # One mine in a corner: R0 floods everything (R0 = S); fog on the spawn, on R0, on a 0.
    bad = Board(7, 7, [(6, 6)], (3, 3), variants={(0, 0): ("fog",), (2, 2): ("fog",)})
    codes = {i.code for i in check_gates(bad)}
    assert codes == {"r0_equals_s", "variant_in_spawn", "variant_in_r0", "fog_digit_zero"}
    thick = Board(
        9, 9, [(8, 8)], (1, 1), variants={(x, y): ("fog",) for x in (4, 5, 6) for y in (4, 5, 6)}
    )
    assert "fog_too_thick" in {i.code for i in check_gates(thick)}


def gate_check(name: str, count: int) -> None:
    table = preset(name)
    for seed in range(count):
        made = generate(table, seed)
        board = made.board
        assert not independent_gates(board, table.fog_thickness), (name, seed)
        assert len(board.mines) == table.mine_count
        assert len(board.variants) == table.fog
        accepted, initial = install_events(board)
        assert accepted, (name, seed)
        result = solve_board(board, use_mine_count=table.mine_count_shown)
        assert result.no_guess, (name, seed)
        # dual containment (F3): the solver starts from exactly the engine's R0, in order
        assert initial == result.r0, (name, seed)
        assert made.metrics["r0_size"] == len(initial)


@pytest.mark.parametrize("name", PRESETS)
def test_gates_on_generated_boards(name):
    """A quick pass of every gate in every environment (Pyodide included)."""
    gate_check(name, 5 if IN_PYODIDE else 25)


@pytest.mark.cpython_only
@pytest.mark.slow
@pytest.mark.parametrize("name", PRESETS)
def test_gates_on_a_thousand_boards_per_preset(name):
    gate_check(name, 1000)


