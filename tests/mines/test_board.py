"""Tests of gridforge.mines.board: the A1 product, its JSON form and R0."""

from __future__ import annotations

import contextlib
import json

import pytest
from gridforge.errors import ValidationError
from gridforge.mines.board import BOARD_FORMAT, Board, initial_expansion, spawn_cells
from hypothesis import given
from hypothesis import strategies as st

from .fixtures import boards


def wall_board() -> Board:
    # b_spawn: a vertical wall of 6 mines at x=1 with a gap at (1,3).
    return Board(7, 7, [(1, y) for y in range(7) if y != 3], (3, 3))


def test_board_digits_computed_from_mines() -> None:
    board = wall_board()
    assert board.digit((1, 3)) == 2
    assert board.digit((0, 0)) == 2
    assert board.digit((1, 0)) is None
    assert board.true_digit((4, 4)) == 0
    assert board.safe_count == 43


def test_spawn_cells_row_major() -> None:
    assert spawn_cells((3, 3)) == [
        (2, 2), (3, 2), (4, 2), (2, 3), (3, 3), (4, 3), (2, 4), (3, 4), (4, 4)
    ]  # fmt: skip


def test_initial_expansion_b_spawn_size() -> None:
    r0 = initial_expansion(wall_board())
    assert len(r0) == 35
    assert r0[:9] == spawn_cells((3, 3))
    assert len(set(r0)) == len(r0)


def test_board_json_round_trip_exact() -> None:
    board = Board(7, 7, [(3, 5)], (3, 3), variants={(0, 0): ("fog",)})
    data = board.to_json()
    assert data["format"] == BOARD_FORMAT
    again = Board.from_json(json.dumps(data))
    assert again == board
    assert again.to_json() == data
    assert Board.from_json(board.dumps()).dumps() == board.dumps()


def test_board_given_digits_kept_as_given() -> None:
    good = wall_board()
    tampered = dict(good.digits)
    tampered[(4, 4)] = 5
    board = Board(7, 7, good.mines, (3, 3), digits=tampered)
    assert board.digit((4, 4)) == 5
    assert board.true_digit((4, 4)) == 0
    assert "digits" in board.to_json()
    assert Board.from_json(board.to_json()) == board


def test_board_from_json_reports_every_problem() -> None:
    bad = {
        "format": "nope",
        "cols": 7,
        "rows": 7,
        "spawn": [3, 3],
        "mines": [[1, 0], [9, 9], "x"],
        "variants": {"fog": [[0, 0], [0, 0]]},
        "colour": "red",
    }
    with pytest.raises(ValidationError) as info:
        Board.from_json(bad)
    paths = [issue.path for issue in info.value.issues]
    assert "format" in paths
    assert "mines[1]" in paths
    assert "mines[2]" in paths
    assert "variants.fog[1]" in paths
    assert "colour" in paths


@pytest.mark.parametrize(
    "source",
    ["", "[]", "{", '{"format": "gridforge.mines.board/1"}', b"\xff", "null"],
)
def test_board_from_json_malformed_raises_validation_error(source: str | bytes) -> None:
    with pytest.raises(ValidationError):
        Board.from_json(source)


def test_board_spawn_must_fit() -> None:
    with pytest.raises(ValidationError) as info:
        Board(7, 7, [], (0, 3))
    assert info.value.issues[0].path == "spawn"


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"cols": "7"}, "cols"),
        ({"rows": 2}, "rows"),
        ({"mines": 5}, "mines"),
        ({"mines": [(1, 1), (1, 1)]}, "mines[1]"),
        ({"mines": [(1, 9)]}, "mines[0]"),
        ({"spawn": "ab"}, "spawn"),
        ({"spawn": (3, 3, 3)}, "spawn"),
        ({"variants": {(0, 0): 5}}, "variants[[0, 0]]"),
        ({"variants": {(0, 0): [""]}}, "variants[[0, 0]]"),
        ({"variants": {(1, 0): ["fog"]}}, "variants[[1, 0]]"),
        ({"variants": [1]}, "variants"),
        ({"digits": {(0, 0): "a"}}, "digits[[0, 0]]"),
        ({"digits": {(1, 0): 1}}, "digits[[1, 0]]"),
        ({"digits": {(0, 0): 2}}, "digits[[0, 1]]"),
    ],
)
def test_board_constructor_names_the_bad_field(kwargs: dict, path: str) -> None:
    args = {"cols": 7, "rows": 7, "mines": [(1, 0)], "spawn": (3, 3), **kwargs}
    with pytest.raises(ValidationError) as info:
        Board(**args)
    assert path in [issue.path for issue in info.value.issues]


def test_board_is_a_read_only_snapshot() -> None:
    variants = {(0, 0): ("fog",)}
    board = Board(7, 7, [(3, 5)], (3, 3), variants=variants)
    variants[(0, 1)] = ("fog",)
    assert board.variant_ids((0, 1)) == () and (0, 1) not in board.variants
    with pytest.raises(TypeError):
        board.variants[(0, 2)] = ("fog",)  # type: ignore[index]
    with pytest.raises(TypeError):
        board.digits[(0, 0)] = 3  # type: ignore[index]


def test_board_digits_json_rows_with_null_on_mines() -> None:
    data = Board(7, 7, [(1, 0)], (3, 3)).to_json()
    assert "digits" not in data  # written only when they differ from the true digits
    data["digits"] = [[0] * 7 for _ in range(7)]
    with pytest.raises(ValidationError) as info:
        Board.from_json(data)
    assert [i.path for i in info.value.issues] == ["digits[0][1]"]
    data["digits"][0][1] = None
    data["digits"][0][0] = 2
    tampered = Board.from_json(data)
    assert tampered.digit((0, 0)) == 2 and tampered.true_digit((0, 0)) == 1
    assert tampered.to_json()["digits"][0][:3] == [2, None, 0]  # (2,0) carried 0, true 1


@given(boards())
def test_board_json_round_trip(board: Board) -> None:
    text = board.dumps()
    again = Board.from_json(text)
    assert again == board and again.dumps() == text


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                    max_leaves=20))  # fmt: skip
def test_board_from_json_fuzz_raises_only_validation_errors(value: object) -> None:
    base = {"format": "gridforge.mines.board/1", "cols": 7, "rows": 7, "spawn": [3, 3],
            "mines": [[0, 0]]}  # fmt: skip
    for candidate in (value, {**base, "mines": value}, {**base, "spawn": value},
                      {**base, "variants": value}, {**base, "digits": value},
                      {**base, "cols": value}):  # fmt: skip
        with contextlib.suppress(ValidationError):
            Board.from_json(candidate)  # type: ignore[arg-type]


@given(board=boards())
def test_the_marked_cells_are_the_ones_the_board_file_lists(board: Board) -> None:
    listed = board.to_json()["variants"]
    for variant in {*listed, "fog"}:
        assert sorted(board.marked(variant)) == sorted(
            (x, y) for x, y in listed.get(variant, []))
