"""The rules screen's words for mines (issue 21): a short guide for a new player, its numbers
read from the shipped run table (:func:`gridforge.mines.run.load_run_table`), and a tiny
board drawn as its picture, in the vocabulary of the view's ``board.grid``."""

from __future__ import annotations

from typing import TypedDict

from gridforge.i18n import has, say
from gridforge.mines.run_table import load_run_table

__all__ = ["Frame", "Picture", "Rules", "Section", "rules_screen"]


class Picture(TypedDict):
    """A tiny board in the view's vocabulary, and where the avatar stands."""

    grid: list[list[str]]
    avatar: list[int]


class Frame(Picture):
    """A frame of a demonstration: ``mark`` the cell it is about, ``ring`` the digits that
    prove it (a frame of a section's ``demo`` adds its ``caption``)."""

    mark: list[int] | None
    ring: list[list[int]]


class CaptionedFrame(Frame):
    caption: str


class Section(TypedDict):
    key: str
    title: str
    text: list[str]
    picture: CaptionedFrame
    demo: list[CaptionedFrame]


class Rules(TypedDict):
    """The rules screen's words (:func:`rules`)."""

    sections: list[Section]
    picture: Picture

# A corner of a board: one mine, flagged, at (2, 0); every digit counts it; the avatar
# stands on opened ground at (0, 1).
PICTURE: Picture = {
    "grid": [["0", "1", "flag", "concealed"],
             ["0", "1", "1", "1"],
             ["0", "0", "0", "concealed"]],
    "avatar": [0, 1],
}

# Issue 45: every rule card has a picture and a short demonstration, frames of the same
# corner (the mine at (2, 0)) in the view's vocabulary: ``grid``, ``avatar``, ``mark`` (the
# cell the frame is about), ``ring`` (the digits that prove it) and a caption from the
# catalogue (rules.mines.demo.<card>.<n>).
_C, _F, _M = "concealed", "flag", "mine"
DEMOS: dict[str, list[Frame]] = {
    "run": [
        {"grid": [["0", "1", _F, _C], ["0", "1", "1", "1"], ["0", "0", "0", _C]],
         "avatar": [2, 1], "mark": None, "ring": []},
        {"grid": [["0", "1", _F, "1"], ["0", "1", "1", "1"], ["0", "0", "0", _C]],
         "avatar": [2, 1], "mark": [3, 0], "ring": []},
        {"grid": [["0", "1", _F, "1"], ["0", "1", "1", "1"], ["0", "0", "0", "0"]],
         "avatar": [2, 1], "mark": [3, 2], "ring": []},
    ],
    "dig": [
        {"grid": [["0", "1", _C, _C], ["0", _C, _C, _C], ["0", "0", _C, _C]],
         "avatar": [0, 1], "mark": [1, 1], "ring": []},
        {"grid": [["0", "1", _C, _C], ["0", "1", _C, _C], ["0", "0", _C, _C]],
         "avatar": [0, 1], "mark": [1, 1], "ring": []},
    ],
    "flags": [
        {"grid": [["0", "1", _C, _C], ["0", "1", "1", "1"], ["0", "0", "0", "0"]],
         "avatar": [1, 1], "mark": [2, 0], "ring": [[1, 0], [1, 1]]},
        {"grid": [["0", "1", _F, _C], ["0", "1", "1", "1"], ["0", "0", "0", "0"]],
         "avatar": [1, 1], "mark": [2, 0], "ring": []},
        {"grid": [["0", "1", _M, _C], ["0", "1", "1", "1"], ["0", "0", "0", "0"]],
         "avatar": [1, 1], "mark": [2, 0], "ring": []},
    ],
    "rounds": [
        {"grid": [["0", "1", _F, _C], ["0", "1", "1", "1"], ["0", "0", "0", _C]],
         "avatar": [2, 1], "mark": None, "ring": []},
        {"grid": [["0", "1", _F, "1"], ["0", "1", "1", "1"], ["0", "0", "0", _C]],
         "avatar": [2, 1], "mark": [3, 0], "ring": []},
        {"grid": [["0", "1", _F, "1"], ["0", "1", "1", "1"], ["0", "0", "0", _C]],
         "avatar": [2, 1], "mark": [2, 1], "ring": []},
    ],
    "fog": [
        {"grid": [["0", "1", _F, "concealed-fog"], ["0", "1", "1", "1"], ["0", "0", "0", _C]],
         "avatar": [2, 1], "mark": [3, 0], "ring": []},
        {"grid": [["0", "1", _F, "open-fog"], ["0", "1", "1", "1"], ["0", "0", "0", _C]],
         "avatar": [2, 1], "mark": [3, 0], "ring": []},
    ],
    "rewards": [
        {"grid": [["0", "1", _F, _C], ["0", "1", "1", "1"], ["0", "0", "0", _C]],
         "avatar": [2, 1], "mark": [3, 2], "ring": []},
        {"grid": [["0", "1", _F, _C], ["0", "1", "1", "1"], ["0", "0", "0", "0"]],
         "avatar": [2, 1], "mark": [3, 2], "ring": []},
        {"grid": [["0", "1", _F, "1"], ["0", "1", "1", "1"], ["0", "0", "0", "0"]],
         "avatar": [2, 1], "mark": None, "ring": []},
    ],
    "items": [
        {"grid": [["0", "1", _C, _C], ["0", "1", "1", "1"], ["0", "0", "0", "0"]],
         "avatar": [1, 1], "mark": [3, 0], "ring": []},
        {"grid": [["0", "1", _C, "1"], ["0", "1", "1", "1"], ["0", "0", "0", "0"]],
         "avatar": [1, 1], "mark": [2, 0], "ring": []},
        {"grid": [["0", "1", _M, "1"], ["0", "1", "1", "1"], ["0", "0", "0", "0"]],
         "avatar": [1, 1], "mark": [2, 0], "ring": []},
    ],
    "hints": [
        {"grid": [["0", "1", _F, "1"], ["0", "1", "1", "1"], ["0", "0", "0", _C]],
         "avatar": [1, 1], "mark": [3, 2], "ring": [[2, 1]]},
        {"grid": [["0", "1", _F, "1"], ["0", "1", "1", "1"], ["0", "0", "0", "0"]],
         "avatar": [1, 1], "mark": [3, 2], "ring": []},
    ],
}


def rules_screen() -> Rules:
    """``{"sections": [{key, title, text, picture, demo}], "picture": {grid, avatar}}``:
    what a run is, digging, flags, rounds and AP, rewards and offers, items, fog and hints,
    in a sentence or two each,
    each with its picture (the demonstration's first frame) and its demonstration (frames
    with a caption each)."""
    from gridforge.mines.ledger import load_economy

    table = load_run_table()
    battles = len(table.battles)
    s = table.settlement
    hints = table.hints_per_battle
    economy = load_economy()
    numbers = {"battles": battles, "hp": table.player_hp, "safe": s["safe_cell_damage"],
               "clear": s["clear_bonus_damage"], "ambush": s["mine_ambush_damage"],
               "hints": hints, "ap": economy.ap_per_round, "dig": economy.dig_ap_cost,
               "weaken": s["flag_hit_weaken"], "attack": table.battles[0].attack,
               "stack": table.rewards["max_stack"], "per": table.rewards["overflow_per_heal"],
               "price": table.rewards["item_spark_price"], "blast": table.rewards["blast_damage"]}
    # The words are the catalogue's: rules.mines.<key>.title and .text.1, .text.2 ...
    sections: list[Section] = []
    for key in ("run", "dig", "flags", "rounds", "rewards", "items", "fog", "hints"):
        text: list[str] = []
        while has(line := f"rules.mines.{key}.text.{len(text) + 1}"):
            text.append(say(line, **numbers))
        demo: list[CaptionedFrame] = [
            {**frame, "caption": say(f"rules.mines.demo.{key}.{n}", **numbers)}
            for n, frame in enumerate(DEMOS[key], 1)]
        sections.append({"key": key, "title": say(f"rules.mines.{key}.title"), "text": text,
                         "picture": demo[0], "demo": demo})
    return {"sections": sections,
            "picture": PICTURE}
