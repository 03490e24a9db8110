"""Cells and neighbourhoods shared by both games.

A cell is ``(x, y)``: x is the column from the left, y the row from the top, both from 0.
Neighbour orders are fixed (row-major) so that every traversal is deterministic.
"""

from __future__ import annotations

Cell = tuple[int, int]

# 8-neighbourhood in row-major order (mines: canonical reveal order).
NEIGHBOURS_8: tuple[Cell, ...] = (
    (-1, -1), (0, -1), (1, -1),
    (-1, 0),           (1, 0),
    (-1, 1),  (0, 1),  (1, 1),
)  # fmt: skip

# 4-neighbourhood in row-major order (up, left, right, down).
NEIGHBOURS_4: tuple[Cell, ...] = ((0, -1), (-1, 0), (1, 0), (0, 1))


def in_bounds(cell: Cell, cols: int, rows: int) -> bool:
    """Whether ``cell`` lies inside a ``cols`` x ``rows`` rectangle."""
    x, y = cell
    return 0 <= x < cols and 0 <= y < rows


def row_major_key(cell: Cell) -> tuple[int, int]:
    """Sort key of row-major order: by y, then x."""
    return (cell[1], cell[0])

