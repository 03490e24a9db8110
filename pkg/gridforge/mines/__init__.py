"""Mines (seed 000): the board (A1's product), the AP ledger (A3) and the rules engine (A2).

An avatar digs 8-adjacent cells, moves for free over opened ground and pays action points
for digs and flags; a dug mine is a reported fact, not death. The engine reports exactly
three events (``cell_revealed``, ``flag_judged``, ``round_end``) as plain JSON-ready dicts.
"""

from gridforge.mines.board import BOARD_FORMAT, Board, initial_expansion, spawn_cells

__all__ = ["BOARD_FORMAT", "Board", "initial_expansion", "spawn_cells"]
