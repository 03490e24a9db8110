"""The rules screen's words for mines (issue 21): a short guide for a new player, its numbers
read from the shipped run table (:func:`gridforge.mines.run.load_run_table`), and a tiny
board drawn as its picture, in the vocabulary of the view's ``board.grid``."""

from __future__ import annotations

from typing import Any

from gridforge.mines.run import load_run_table

__all__ = ["rules"]

# A corner of a board: one mine, flagged, at (2, 0); every digit counts it; the avatar
# stands on opened ground at (0, 1).
PICTURE: dict[str, Any] = {
    "grid": [["0", "1", "flag", "concealed"],
             ["0", "1", "1", "1"],
             ["0", "0", "0", "concealed"]],
    "avatar": [0, 1],
}


def rules() -> dict[str, Any]:
    """``{"sections": [{key, title, text}], "picture": {grid, avatar}}``: what a run is,
    digging, flags, rounds and AP, fog and hints, in a sentence or two each."""
    table = load_run_table()
    battles = len(table.battles)
    s = table.settlement
    hints = table.hints_per_battle
    sections = [
        ("run", "A run", (
            f"A run is {battles} battles against ever stronger enemies. You start with "
            f"{table.player_hp} HP (hit points); at 0 the run is over.",
            f"Every safe cell you dig hurts the enemy by {s['safe_cell_damage']}; clearing a "
            f"whole board hurts it by {s['clear_bonus_damage']} more.")),
        ("dig", "Dig and read the numbers", (
            "Click or tap a concealed cell next to you to dig it. A number tells how many of "
            "the eight cells around it hide mines.",
            "Every board can be solved by logic alone: you never have to guess.")),
        ("flags", "Flags and mines", (
            "Right click, long press or flag mode puts a flag on a cell you know is a mine; "
            "a correct flag weakens the enemy's attack that round.",
            f"Digging a mine is an ambush: it hurts you by {s['mine_ambush_damage']}, and the "
            "dug mine becomes ground you can walk on.")),
        ("rounds", "Rounds, AP and RAP", (
            "Each round gives you action points (AP): a dig or a flag costs AP, walking over "
            "opened ground is free. When the round ends, the enemy strikes back.",
            "Stop ends the round early and banks the AP left as reserve (RAP), which can buy "
            "a fresh board.")),
        ("fog", "Fog", (
            "In later battles some cells are fog: they are safe, but never show their number.",)),
        ("hints", "Hints", (
            f"Each battle gives {hints} hints. A hint shows one cell that logic proves, and "
            "why.",)),
    ]
    return {"sections": [{"key": key, "title": title, "text": list(text)}
                         for key, title, text in sections],
            "picture": PICTURE}
