"""Shared fixtures of the snakes tests: the spec's example level and a small dict builder."""

from __future__ import annotations

import copy
from typing import Any

SPEC_EXAMPLE: dict[str, Any] = {
    "format": "gridforge.snakes.level/1",
    "cols": 7,
    "rows": 6,
    "stones": [[3, 0], [3, 1]],
    "bodies": [
        {"cells": [[0, 0], [1, 0], [1, 1]], "colors": [2, 5]},
        {"cells": [[5, 5], [6, 5]], "colors": [5], "frozen": 1},
        {"cells": [[0, 4], [0, 5]], "colors": [2], "key": "L1"},
        {"cells": [[4, 4], [4, 5]], "colors": [2], "lock": {"id": "L1", "kind": "silver"}},
    ],
    "holes": [
        {"cell": [6, 0], "color": 2},
        {"cell": [6, 2], "color": 2},
        {"cell": [2, 3], "color": 2},
        {"cell": [2, 5], "color": 5, "frozen": 2},
        {"cell": [5, 2], "color": 5},
    ],
    "meta": {"id": "main-0001", "template": "twin", "target": 70, "seed": 123},
}


def spec_example() -> dict[str, Any]:
    return copy.deepcopy(SPEC_EXAMPLE)


def level_dict(
    cols: int,
    rows: int,
    bodies: list[dict[str, Any]],
    holes: list[dict[str, Any]],
    stones: list[list[int]] | None = None,
) -> dict[str, Any]:
    """A level dict; bodies/holes as in the file format."""
    return {
        "format": "gridforge.snakes.level/1",
        "cols": cols,
        "rows": rows,
        "stones": stones or [],
        "bodies": bodies,
        "holes": holes,
    }
