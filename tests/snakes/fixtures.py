"""Shared fixtures of the snakes tests: the spec's example level and a small dict builder."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from gridforge.snakes.game.level import spec_example

__all__ = ["ascii_level", "data_with_first_block", "level_dict", "run", "spec_example"]

# ascii_level's terrain characters: stone, floor, bridge, and coloured paths by colour.
STONE, FLOOR, BRIDGE = "#", ".", "="
PAINT = {"~": 0, "^": 1, "*": 2}


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


def _body_cells(grid: dict[tuple[int, int], str], letter: str) -> list[list[int]]:
    """Body ``letter``'s cells head first: its capital, then the one unvisited neighbour of
    its letter each step (a fixture draws bodies that never touch themselves sideways)."""
    heads = [c for c, ch in grid.items() if ch == letter.upper()]
    assert len(heads) == 1, f"body {letter!r} needs exactly one head"
    own = {c for c, ch in grid.items() if ch == letter}
    cells = [heads[0]]
    while own:
        x, y = cells[-1]
        nxt = [c for c in ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)) if c in own]
        assert len(nxt) == 1, f"body {letter!r} branches or breaks at {cells[-1]}"
        own.discard(nxt[0])
        cells.append(nxt[0])
    return [[x, y] for x, y in cells]


def ascii_level(*rows: str, colors: dict[str, list[int]] | None = None) -> dict[str, Any]:
    """A level dict drawn in text, one string a row (spaces ignored): ``#`` stone, ``.``
    floor, a digit a hole of that colour, ``=`` a bridge, ``~ ^ *`` a path of colour 0, 1,
    2, a letter a body's cell (its capital the head; bodies listed by letter). ``colors``
    gives a body's layers by letter (default ``[0]``)."""
    grid = {(x, y): ch for y, row in enumerate(rows) for x, ch in enumerate(row.replace(" ", ""))}
    cols, height = max(x for x, _ in grid) + 1, len(rows)
    letters = sorted({ch.lower() for ch in grid.values() if ch.isalpha()})
    level = level_dict(
        cols, height,
        [{"cells": _body_cells(grid, b), "colors": list((colors or {}).get(b, [0]))}
         for b in letters],
        [{"cell": [x, y], "color": int(ch)} for (x, y), ch in sorted(
            grid.items(), key=lambda kv: (kv[0][1], kv[0][0])) if ch.isdigit()],
        [[x, y] for (x, y), ch in sorted(grid.items()) if ch == STONE])
    paths = [{"cell": [x, y], "color": PAINT[ch]} for (x, y), ch in sorted(
        grid.items(), key=lambda kv: (kv[0][1], kv[0][0])) if ch in PAINT]
    bridges = [[x, y] for (x, y), ch in sorted(grid.items(), key=lambda kv: (kv[0][1], kv[0][0]))
               if ch == BRIDGE]
    if paths:
        level["paths"] = paths
    if bridges:
        level["bridges"] = bridges
    return level


def data_with_first_block(folder: Path) -> Path:
    """A copy of the package's ``snakes/data`` with the main line's first block only: the
    tests of a command that rechecks the data (the whole line is rechecked once, by the
    shipped-line test of test_mainline.py)."""
    data = resources.files("gridforge.snakes").joinpath("data")
    folder.mkdir(parents=True, exist_ok=True)
    for f in data.iterdir():
        if f.name.endswith(".json") and (not f.name.startswith("main-")
                                         or f.name.startswith("main-0001-")):
            (folder / f.name).write_bytes(f.read_bytes())
    return folder


def run(argv: list[str], capsys: Any) -> tuple[int, str, str]:
    """``gridforge argv`` in-process: (exit code, stdout, stderr); argparse exits count.
    (The CLI is imported here: these fixtures are imported inside Pyodide too.)"""
    from gridforge.cli import main

    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out = capsys.readouterr()
    return code, out.out, out.err
