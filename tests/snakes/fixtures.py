"""Shared fixtures of the snakes tests: the spec's example level and a small dict builder."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from gridforge.snakes.game.level import spec_example

__all__ = ["data_with_first_block", "level_dict", "run", "spec_example"]


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
