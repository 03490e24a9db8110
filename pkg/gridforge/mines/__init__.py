"""Mines (seed 000): the board (A1's product), the AP ledger (A3) and the rules engine (A2).

An avatar digs 8-adjacent cells, moves for free over opened ground and pays action points
for digs and flags; a dug mine is a reported fact, not death. The engine reports exactly
three events (``cell_revealed``, ``flag_judged``, ``round_end``) as plain JSON-ready dicts.
Modules: ``board`` (A1 product, JSON), ``ledger`` (A3), ``engine`` (A2), ``events``,
``intents``, ``solver`` (deduction), ``generate`` (A1 generator, A4 fog), ``run`` (B1),
``replay`` (a ledger and engine's session, and the headless replay), ``page`` (the
browser's contract), ``commands`` and ``generate_commands`` (the ``gridforge mines`` verbs).
"""

from gridforge.mines.board import BOARD_FORMAT, Board, initial_expansion, spawn_cells
from gridforge.mines.engine import Engine, check_install_invariants
from gridforge.mines.intents import ActionOutcome, Intent
from gridforge.mines.ledger import Economy, Ledger, load_economy

__all__ = [
    "BOARD_FORMAT",
    "ActionOutcome",
    "Board",
    "Economy",
    "Engine",
    "Intent",
    "Ledger",
    "check_install_invariants",
    "initial_expansion",
    "load_economy",
    "spawn_cells",
]
