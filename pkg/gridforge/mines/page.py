"""The page's contract for mines: the functions the browser may call, JSON in, JSON out.

``gridforge.api.dispatch`` resolves only the names listed in ``__all__`` here (and in
:mod:`gridforge.snakes.page` and :mod:`gridforge.api`); everything else in the package is
internal and may change without breaking the page. A run lives in the worker between
calls and is named by the id that :func:`new_run` answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gridforge.mines import backend, generate, playthrough, run_table
from gridforge.mines import position as position_module
from gridforge.mines.run_json import RunState, Telemetry

if TYPE_CHECKING:  # the rules screen's module is imported when first asked for
    from gridforge.mines import guide

__all__ = ["act", "close_run", "continue_run", "daily_seed", "hint", "move_path", "new_board",
           "new_run",
           "pick_offer", "position_hint", "primary", "refresh", "resume_run", "run_state",
           "secondary", "solve", "telemetry", "use_item"]


def new_run(seed: int) -> backend.Opened:
    """Start a run from ``seed``: the midend's envelope (:mod:`gridforge.midend`: ``id``,
    ``view``, ``offer``, ``changes``, ``events``, ``refused``, ``save``) with the ``log``.

    ``save`` is what the page stores to resume the run (format
    ``gridforge.mines.saved-run/1``); every answer that changes the run carries it anew, and
    every answer after this one carries ``changes`` instead of the whole view and offer.
    """
    return backend.new_run(seed)


def resume_run(saved: object) -> backend.ResumedRun:
    """Rebuild a saved run exactly from its ``save`` (after a reload); answers as
    :func:`new_run`, with the board's last log lines. A malformed or foreign save is refused
    naming the field or step."""
    return backend.resume_run(saved)


def primary(run_id: str, cell: list[int]) -> backend.PlayAnswer:
    """A click, tap, Space or Enter on ``cell``: move onto opened ground, dig a neighbour,
    or move beside a far concealed cell and dig it (two one-intent batches). Answers the
    outcomes, player-facing ``messages`` and ``log``, a settlement, what changed and ``save``."""
    return backend.primary(run_id, cell)


def secondary(run_id: str, cell: list[int]) -> backend.PlayAnswer:
    """A right click, long press, F or a tap in flag mode on ``cell``: place or pull a
    flag. Answers as :func:`primary`."""
    return backend.secondary(run_id, cell)


def telemetry(run_id: str) -> Telemetry:
    """The run's telemetry (format ``gridforge.mines.telemetry/1``: input actions per AP
    spent per round, chain sizes, batches per round, rejections by reason)."""
    return backend.telemetry(run_id)


def act(run_id: str, intent: object) -> backend.PlayAnswer:
    """Settle one intent ``{"kind": "dig" | "flag_place" | "flag_pull" | "move" | "stop",
    "cell": [x, y]}``: the outcome, the events, a settlement if the round ended, what changed."""
    return backend.act(run_id, intent)


def continue_run(run_id: str) -> backend.ContinueAnswer:
    """Go on after a settlement (next round, next board or next battle)."""
    return backend.continue_run(run_id)


def refresh(run_id: str) -> backend.RefreshAnswer:
    """Pay RAP for a fresh board of the same battle (the paid refresh of A3)."""
    return backend.refresh(run_id)


def move_path(run_id: str, cell: list[int]) -> list[list[int]]:
    """The path a move to ``cell`` would take, for the preview (``[]`` when it cannot)."""
    return backend.move_path(run_id, cell)


def hint(run_id: str) -> backend.HintAnswer:
    """The next cell not yet settled that logic proves from what the player sees and has
    marked (flags on proved mines, dug mines, the mine total): the cell, the digits used
    (``constraints``) and the reason in words (``parts`` point at cells); ``cell`` is null
    when nothing is left. A hint has a price: one from the battle's stock (``price``,
    ``hints_left``; ``refused`` when the stock is spent or no round is in play); a paid hint
    changes the run: its answer carries the ``save``."""
    return backend.hint(run_id)


def pick_offer(run_id: str, offer: str) -> backend.PickAnswer:
    """Take one of the three offers open between battles (``view.offers``; a heal, an
    item's charges, a stronger flag, more hints, sparks). An offer that is not open is
    refused naming it; the pick is a step of the save."""
    return backend.pick_offer(run_id, offer)


def use_item(run_id: str, item: str, cell: list[int] | None = None) -> backend.UseAnswer:
    """Use an item during a round (``view.items``): one charge, or its price in sparks.
    The probe needs ``cell`` (a concealed cell: ``result`` is its digit, -1 a mine); the
    shield and the lantern need none. A use that cannot be made is refused with the
    reason (``accepted`` false) and changes nothing."""
    return backend.use_item(run_id, item, cell)


def daily_seed(date: str) -> int:
    """The seed of the daily run of ``date`` (``YYYY-MM-DD``): the same for every player,
    offline. :raises ValidationError: naming the date when it is no such date."""
    return run_table.daily_seed(date)


def run_state(run_id: str) -> RunState:
    """The run as it stands, whole: its view with its offer."""
    return backend.run_state(run_id)


def close_run(run_id: str) -> bool:
    """Forget a run; ``False`` if it was not open."""
    return backend.close_run(run_id)


def new_board(table: str | dict[str, Any], seed: int,
              level: int | None = None) -> generate.GeneratedJson:
    """A generated no-guess board from a preset name or a table, with its metrics."""
    return generate.new_board(table, seed, level)


def solve(board: dict[str, Any], use_mine_count: bool = True) -> playthrough.SolveJson:
    """The deduction solver's playthrough of ``board``: no-guess or not, steps, metrics."""
    return playthrough.solve(board, use_mine_count)


def position_hint(position: dict[str, Any]) -> position_module.PositionHint:
    """What logic proves about a position (opened digits, flags, mine total) and why."""
    return position_module.hint(position)


# --- the rules screen (issue 21)
__all__ += ["rules"]


def rules() -> guide.Rules:
    """The rules screen's words for mines: ``{sections: [{key, title, text}], picture}``
    (numbers from the run table; the picture a tiny board in the view's vocabulary)."""
    from gridforge.mines import guide

    return guide.rules()
