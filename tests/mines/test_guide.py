"""The rules screen's words for mines (mines/guide.py): numbers from the run table, a
picture in the view's vocabulary, and words a player reads."""

from __future__ import annotations

import re

from gridforge import i18n
from gridforge.mines import guide, page
from gridforge.mines.run_table import load_run_table


def test_guide_speaks_of_the_run_table_s_numbers():
    table = load_run_table()
    rules = page.rules()
    words = " ".join(" ".join(s["text"]) for s in rules["sections"])
    assert f"{len(table.battles)} battles" in words
    assert f"{table.player_hp} HP" in words
    assert f"Hints a battle gives: {table.hints_per_battle}." in words
    assert [s["key"] for s in rules["sections"]] == ["run", "dig", "flags", "rounds", "rewards",
                                                     "items", "fog", "hints"]
    assert f"{table.rewards['item_spark_price']} sparks" in words  # items taught (issue 51)
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


def test_every_rule_card_has_a_picture_and_a_demonstration_of_a_consistent_board():
    # Issue 45: every mines card has a picture (the demonstration's first frame) and a
    # demonstration of two frames or more; every frame is the same corner (the mine at
    # (2, 0)): each digit shown counts it, the avatar stands on opened ground, the cells a
    # frame marks are on the board, and each frame says what it shows.
    for language in ("en", "zh-CN"):
        with i18n.speaking(language):
            sections = page.rules()["sections"]
        for section in sections:
            frames = section["demo"]
            assert len(frames) >= 2 and section["picture"] == frames[0], section["key"]
            for frame in frames:
                grid = frame["grid"]
                for y, row in enumerate(grid):
                    for x, cell in enumerate(row):
                        if cell.isdigit():
                            assert int(cell) == (abs(x - 2) <= 1 and y <= 1), (section["key"], x, y)
                        if cell in ("flag", "mine"):
                            assert (x, y) == (2, 0)
                ax, ay = frame["avatar"]
                assert grid[ay][ax].isdigit()
                for x, y in ([frame["mark"]] if frame["mark"] else []) + frame["ring"]:
                    assert 0 <= y < len(grid) and 0 <= x < len(grid[0])
                assert frame["caption"]
                if language == "zh-CN":  # a Chinese player's words: no Latin word
                    assert not re.search(r"[A-Za-z]{2,}", frame["caption"]), frame["caption"]
