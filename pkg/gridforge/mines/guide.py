"""The rules screen's words for mines (issue 21): a short guide for a new player, its numbers
read from the shipped run table (:func:`gridforge.mines.run.load_run_table`), and a tiny
board drawn as its picture, in the vocabulary of the view's ``board.grid``."""

from __future__ import annotations

from typing import Any

from gridforge.i18n import has, say
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
    numbers = {"battles": battles, "hp": table.player_hp, "safe": s["safe_cell_damage"],
               "clear": s["clear_bonus_damage"], "ambush": s["mine_ambush_damage"],
               "hints": hints}
    # The words are the catalogue's: rules.mines.<key>.title and .text.1, .text.2 ...
    sections = []
    for key in ("run", "dig", "flags", "rounds", "fog", "hints"):
        text: list[str] = []
        while has(line := f"rules.mines.{key}.text.{len(text) + 1}"):
            text.append(say(line, **numbers))
        sections.append({"key": key, "title": say(f"rules.mines.{key}.title"), "text": text})
    return {"sections": sections,
            "picture": PICTURE}
