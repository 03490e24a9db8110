"""Floor regions of a level (spec 5d; gridforge.snakes.game.regions): the regions, the bodies
and holes each holds, the main region, the stone share and one region as a level."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from gridforge.snakes.game.level import floor_regions, level_from_json
from gridforge.snakes.game.levelfile import accepted
from gridforge.snakes.game.regions import floor_map, region_level, regions
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.snakes.fixtures import ascii_level

# Two chambers, split by a wall of stones: one body each, the right one larger.
TWO_CHAMBERS = ascii_level(
    "A a 0 # . . .",
    ". . . # B b 0",
    ". . . # . . .",
    ". . . # . . .",
)

# Every body in one hall; a closet with no body at the top right.
ONE_HALL = ascii_level(
    "A a . . # .",
    ". . 0 # # .",
    "B b 0 . # #",
    ". C c 0 . .",
)

# Two halls joined only through a bridge and a painted cell.
JOINED = ascii_level(
    "A a . # . 0",
    ". . . = ~ .",
    ". . 0 # B b",
)


def test_two_chambers_are_two_regions_with_their_own_bodies_and_holes() -> None:
    fm = floor_map(accepted(TWO_CHAMBERS))
    assert fm.count == 2
    assert [len(c) for c in fm.cells] == [12, 12]
    assert fm.bodies == ((0,), (1,)) and fm.holes == ((0,), (1,))
    # As many bodies and floor cells: the first region (row-major by its first cell).
    assert fm.main == 0 and fm.main_bodies == 1
    assert fm.stone_share == pytest.approx(4 / 28)
    assert fm.region_of((4, 1)) == 1 and fm.region_of((3, 0)) is None


def test_main_region_is_the_one_with_most_bodies_then_most_floor() -> None:
    fm = floor_map(accepted(ONE_HALL))
    assert fm.count == 2
    assert fm.bodies[fm.main] == (0, 1, 2) and fm.main_bodies == 3
    closet = 1 - fm.main
    assert fm.bodies[closet] == () and fm.holes[closet] == ()
    assert fm.stone_share == pytest.approx(5 / 24)
    # Equal bodies: the larger region wins, wherever it lies.
    level = ascii_level(
        "A a 0 # . . . .",
        "# # # # B b 0 .",
    )
    fm = floor_map(accepted(level))
    assert fm.bodies == ((0,), (1,)) and fm.main == 1


def test_bridges_and_paths_keep_a_region_joined() -> None:
    fm = floor_map(accepted(JOINED))
    assert fm.count == 1 and fm.bodies == ((0, 1),)
    assert (3, 1) in fm.cells[0] and (4, 1) in fm.cells[0]
    # The same board with the bridge and the paint as stones: two regions.
    cut = {**JOINED, "stones": [*JOINED["stones"], [3, 1]]}
    del cut["bridges"]
    assert floor_map(accepted(cut)).count == 2


def test_floor_regions_of_a_level_model_are_the_same_regions() -> None:
    for data in (TWO_CHAMBERS, ONE_HALL, JOINED):
        level = level_from_json(data)
        assert [tuple(r) for r in floor_regions(level)] == list(floor_map(accepted(data)).cells)
        assert floor_map(accepted(level.to_json())).cells == floor_map(accepted(data)).cells


def test_a_body_on_no_floor_is_named() -> None:
    bad: dict[str, Any] = {**TWO_CHAMBERS, "stones": [*TWO_CHAMBERS["stones"], [0, 0]]}
    with pytest.raises(ValueError, match=r"bodies\[0\]\.cells\[0\]"):
        floor_map(accepted(bad))


def test_region_level_keeps_its_region_and_turns_the_rest_to_stone() -> None:
    right = region_level(accepted(TWO_CHAMBERS), 1)
    level = level_from_json(right)  # a valid level of its own
    assert (level.cols, level.rows) == (7, 4)
    assert [list(b.cells) for b in level.bodies] == [[(4, 1), (5, 1)]]
    assert [h.cell for h in level.holes] == [(6, 1)]
    assert level.floor_count == 12 and len(level.stones) == 16
    assert floor_map(accepted(right)).count == 1
    joined = region_level(accepted(JOINED), 0)
    assert joined["paths"] == JOINED["paths"] and joined["bridges"] == JOINED["bridges"]
    with pytest.raises(IndexError, match="2 floor region"):
        region_level(accepted(TWO_CHAMBERS), 2)


def test_region_level_lifts_mechanics_or_keeps_only_whole_locks() -> None:
    data = json.loads(json.dumps(TWO_CHAMBERS))
    data["bodies"][0]["frozen"] = 1
    data["bodies"][1]["lock"] = {"id": "L1", "kind": "silver"}
    data["bodies"][0]["key"] = "L1"  # the key lies in the other chamber
    data["holes"][1]["frozen"] = 1
    lifted = region_level(accepted(data), 1)
    assert lifted["bodies"] == [{"cells": [[4, 1], [5, 1]], "colors": [0]}]
    assert lifted["holes"] == [{"cell": [6, 1], "color": 0}]
    kept = region_level(accepted(data), 1, lift=False)
    assert kept["bodies"] == [{"cells": [[4, 1], [5, 1]], "colors": [0]}]  # no key inside
    assert kept["holes"] == [{"cell": [6, 1], "color": 0, "frozen": 1}]
    left = region_level(accepted(data), 0, lift=False)
    assert left["bodies"][0]["frozen"] == 1 and "key" not in left["bodies"][0]
    # A lock with all its keys inside stays, and the region is a valid level with it.
    hall = json.loads(json.dumps(ONE_HALL))
    hall["bodies"][2]["lock"] = {"id": "L1", "kind": "silver"}
    hall["bodies"][0]["key"] = "L1"
    main = floor_map(accepted(hall)).main
    kept = region_level(accepted(hall), main, lift=False)
    assert kept["bodies"][2]["lock"] == {"id": "L1", "kind": "silver"}
    assert kept["bodies"][0]["key"] == "L1"
    assert level_from_json(kept).bodies[2].lock is not None


def test_the_shipped_line_regions_match_the_balance_check() -> None:
    """Every shipped level: regions partition the floor, every body and hole in one."""
    data = resources.files("gridforge.snakes").joinpath("data", "main-0501-0525.json")
    for raw in json.loads(data.read_text("utf-8"))["levels"]:
        fm = floor_map(accepted(raw))
        floor = raw["cols"] * raw["rows"] - len(raw["stones"])
        assert sum(map(len, fm.cells)) == floor
        assert sorted(i for b in fm.bodies for i in b) == list(range(len(raw["bodies"])))
        assert sorted(j for h in fm.holes for j in h) == list(range(len(raw["holes"])))
        for r in range(fm.count):
            if fm.bodies[r]:
                level_from_json(region_level(accepted(raw), r, where=fm))  # each chamber a level


@st.composite
def boards(draw: st.DrawFn) -> tuple[int, int, set[tuple[int, int]]]:
    cols = draw(st.integers(1, 7))
    rows = draw(st.integers(1, 7))
    cells = [(x, y) for y in range(rows) for x in range(cols)]
    blocked = draw(st.sets(st.sampled_from(cells)))
    return cols, rows, blocked


@settings(max_examples=150, deadline=None)
@given(boards())
def test_regions_partition_the_free_cells_into_connected_separate_parts(
        board: tuple[int, int, set[tuple[int, int]]]) -> None:
    cols, rows, blocked = board
    found = regions(cols, rows, blocked)
    free = {(x, y) for y in range(rows) for x in range(cols)} - blocked
    assert sorted(c for r in found for c in r) == sorted(free)
    label = {c: k for k, r in enumerate(found) for c in r}
    for (x, y), k in label.items():  # no two regions touch
        for nb in ((x + 1, y), (x, y + 1)):
            assert label.get(nb, k) == k
    for r in found:  # each region connected: a walk from its first cell reaches all of it
        seen, todo = {r[0]}, [r[0]]
        while todo:
            x, y = todo.pop()
            for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if nb in label and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        assert seen == set(r)
    firsts = [min(r, key=lambda c: (c[1], c[0])) for r in found]
    assert firsts == sorted(firsts, key=lambda c: (c[1], c[0]))
