"""The rules screen's words for mines (mines/guide.py): numbers from the run table, a
picture in the view's vocabulary, and words a player reads."""

from __future__ import annotations

from gridforge.mines import guide, page
from gridforge.mines.run import load_run_table


def test_guide_speaks_of_the_run_table_s_numbers():
    table = load_run_table()
    rules = page.rules()
    words = " ".join(" ".join(s["text"]) for s in rules["sections"])
    assert f"{len(table.battles)} battles" in words
    assert f"{table.player_hp} HP" in words
    assert f"{table.hints_per_battle} hints" in words
    assert [s["key"] for s in rules["sections"]] == ["run", "dig", "flags", "rounds", "fog",
                                                     "hints"]
    assert all(s["title"] and 1 <= len(s["text"]) <= 2 for s in rules["sections"])


def test_guide_picture_is_a_consistent_corner_of_a_board():
    grid = guide.PICTURE["grid"]
    mines = {(x, y) for y, row in enumerate(grid) for x, cell in enumerate(row) if cell == "flag"}
    for y, row in enumerate(grid):
        for x, cell in enumerate(row):
            if cell.isdigit():
                around = sum((x + dx, y + dy) in mines for dx in (-1, 0, 1) for dy in (-1, 0, 1))
                assert int(cell) == around, (x, y)
    x, y = guide.PICTURE["avatar"]
    assert grid[y][x].isdigit()
