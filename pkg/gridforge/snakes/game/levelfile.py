"""The level file's JSON shapes as types (spec section 7): a level, or a draft the editor
is still building, after :func:`~gridforge.snakes.game.level.validate_level` has accepted its
shape.

The validated model is :class:`~gridforge.snakes.game.level.Level` (tuples, computed facts); these
are the JSON objects themselves, for the code that edits them as JSON (the editor's tools,
:mod:`gridforge.snakes.editor.transform`, :mod:`gridforge.snakes.editor.snapshot`) so that mypy sees
every field it touches. Optional fields are absent, never null, as in a file.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, cast

from gridforge.jsontypes import JsonObject

Step = list[Any]  # [body, "head" | "tail", "U" | "D" | "L" | "R"]: a step of a solution


class LockJson(TypedDict):
    id: str
    kind: str  # "silver" | "gold"


class BodyJson(TypedDict):
    cells: list[list[int]]  # head first
    colors: list[int]  # outer layer first
    frozen: NotRequired[int]
    lock: NotRequired[LockJson]
    key: NotRequired[str]


class HoleJson(TypedDict):
    cell: list[int]
    color: int
    frozen: NotRequired[int]


class PathJson(TypedDict):
    cell: list[int]
    color: int


class LevelJson(TypedDict):
    format: str
    cols: int
    rows: int
    stones: list[list[int]]
    bodies: list[BodyJson]
    holes: list[HoleJson]
    paths: NotRequired[list[PathJson]]  # coloured paths (spec section 3b)
    bridges: NotRequired[list[list[int]]]  # bridge cells (spec section 3b)
    meta: NotRequired[JsonObject]


def accepted(data: object) -> LevelJson:
    """``data`` as a :class:`LevelJson`, once the level check has accepted its shape (a
    draft's unfinished issues aside): the one place where JSON read from outside becomes a
    typed level object."""
    return cast(LevelJson, data)
