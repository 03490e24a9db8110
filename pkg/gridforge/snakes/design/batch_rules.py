"""What every batch builder of the designer shares (:mod:`~gridforge.snakes.design.pipeline`
and :mod:`~gridforge.snakes.design.interlock_batch`): a caller's own acceptance rule, the
wall-clock safety net's error and the budget of the exact "one body at a time" decision."""

from __future__ import annotations

from collections.abc import Callable

from gridforge.errors import GridforgeError
from gridforge.snakes.game.certfile import Certificate
from gridforge.snakes.game.levelfile import LevelJson

__all__ = ["SERIAL_STATES", "Accept", "SafetyNetError"]

SERIAL_STATES = 200_000  # states the exact "one body at a time" decision may store

# A caller's own rules on a level about to be taken (its JSON without meta, its certificate):
# the faults found, none when it may be taken.
Accept = Callable[[LevelJson, Certificate], list[str]]


class SafetyNetError(GridforgeError):
    """A wall-clock safety net fired. What a level gets is decided by work budgets (candidates,
    states) alone; a run that hits a seconds cap stops instead of writing other bytes."""
