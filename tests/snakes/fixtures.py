"""Shared fixtures of the snakes tests: the spec's example level and a small dict builder."""

from __future__ import annotations

from typing import Any

from gridforge.snakes.level import spec_example

__all__ = ["level_dict", "spec_example"]


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
