"""The band table's board columns (spec 5d, issue 50; gridforge.snakes.design.line_report):
floor regions, stone share, bodies in the main region, new layouts per band, and the figures
of exact searches read from the certificates that carry them ("-" where none does)."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from gridforge.snakes.design.console import print_mainline
from gridforge.snakes.design.line_report import band_table, level_row
from gridforge.snakes.design.reports import BuildState

from tests.snakes.fixtures import ascii_level

# Two chambers of one body each (stone share 4/28); the main region is the left one.
CHAMBERS = ascii_level(
    "A a . 0 # . .",
    ". . . . # B b",
    ". . . . # . 0",
    ". . . . # . .",
)
# The same with a longer left chamber: its main region has the same stretch type.
LONGER = ascii_level(
    "A a . . . 0 # . .",
    ". . . . . . # B b",
    ". . . . . . # . 0",
    ". . . . . . # . .",
)
# One hall of three bodies (stone share 5/24).
HALL = ascii_level(
    "A a . . # .",
    ". . 0 # # .",
    "B b 0 . # #",
    ". C c 0 . .",
)
# A stony corridor: 9 stones of 15 cells (0.6), one region.
STONY = ascii_level(
    "# # # # #",
    "A a . . 0",
    "# # # # #",
)


def cert(reading: dict[str, Any] | None = None) -> dict[str, Any]:
    """The certificate fields a band row reads."""
    out: dict[str, Any] = {
        "steps": 10, "lower_bound": 10, "optimal": True,
        "score": {"total": 50.0, "normalised": {}, "diagnostics": {"interaction_steps": 2}}}
    if reading is not None:
        out["reading"] = reading
    return out


def level(n: int, data: dict[str, Any], template: str) -> dict[str, Any]:
    out = copy.deepcopy(data)
    out["meta"] = {"level": n, "template": template}
    return out


BOARD = {"solo_costs": [1], "travel_bound": 1, "body_bound": 1, "joint_steps": 0,
         "steering_steps": 0, "drags": 1}


def rows() -> list[Any]:
    return [
        level_row(1, level(1, CHAMBERS, "twin"), cert({**BOARD, "main_region": {
            "beyond_pairs": 2, "chain": 1, "joint": 6, "bodies": 1},
            "piece_cost": {"bodies[0].frozen": 2, "paths[0]": 0}})),
        level_row(2, level(2, HALL, "twin"), cert()),
        level_row(3, level(3, LONGER, "comb"), cert({**BOARD, "main_region": {
            "beyond_pairs": 4, "chain": 3, "joint": 10, "bodies": 1},
            "piece_cost": {"bridges[0]": -1}})),
        level_row(4, level(4, STONY, "winding"), cert({**BOARD, "main_region": {
            "beyond_pairs": 0, "chain": 2, "joint": 8, "bodies": 1}})),
    ]


def test_band_board_columns_of_hand_built_rows() -> None:
    first, second = band_table({1: rows()}, 2)
    assert first["levels"] == [1, 2] and second["levels"] == [3, 4]
    assert first["floor_regions"] == 2 and second["floor_regions"] == 1.5
    assert first["stone_share"] == pytest.approx(round((4 / 28 + 5 / 24) / 2, 3))
    assert first["low_stone"] == 1.0 and second["low_stone"] == 0.5  # STONY: 0.6
    assert first["main_bodies"] == 2 and second["main_bodies"] == 1
    assert first["top_template_share"] == 1.0 and second["top_template_share"] == 0.5
    # Level 3's main region is level 1's, stretched: not new; level 4's is.
    assert first["new_layouts"] == 1.0 and second["new_layouts"] == 0.5
    # Figures of exact searches: only from certificates that carry them.
    assert (first["beyond_pairs"], first["chain"], first["main_joint"]) == (2, 1, 6)
    assert (second["beyond_pairs"], second["chain"], second["main_joint"]) == (2, 2.5, 9)
    assert first["piece_cost"] == 1 and second["piece_cost"] == -1


def test_a_band_without_searched_figures_shows_dashes() -> None:
    (band,) = band_table({2: rows()[1:2]}, 100)
    assert band["beyond_pairs"] is None and band["piece_cost"] is None
    assert band["new_layouts"] == 1.0
    state: BuildState = {"format": "", "seed": 1, "block": 25, "done": 1, "files": [],
                         "version": "", "notes": [], "warnings": [], "built": 0,
                         "cpu_seconds": 0.0, "bands": [band]}
    out = io.StringIO()
    print_mainline(state, "out", 1.0, stdout=out, stderr=io.StringIO())
    line = out.getvalue().splitlines()[0]
    assert "2 floor regions" in line and "3 bodies in the main region" in line
    assert "beyond-pairs steps -, chain -, main-region joint steps -, piece cost -" in line


def test_a_body_off_the_floor_is_a_clear_row_error() -> None:
    bad = level(1, CHAMBERS, "twin")
    bad["stones"].append([0, 0])
    with pytest.raises(ValueError, match=r"level 1: .*on the board"):
        level_row(1, bad, cert())
