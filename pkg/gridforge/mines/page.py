"""The page's contract for mines: the functions the browser may call, JSON in, JSON out.

``gridforge.api.dispatch`` resolves only the names listed in ``__all__`` here (and in
:mod:`gridforge.snakes.page` and :mod:`gridforge.api`); everything else in the package is
internal and may change without breaking the page. A run lives in the worker between
calls and is named by the id that :func:`open` or :func:`resume` answers; :func:`act`
plays in it and :func:`close` forgets it: the same verbs as :mod:`gridforge.snakes.page`.
"""

from __future__ import annotations

import datetime
import hashlib
from typing import TYPE_CHECKING, Any

from gridforge.errors import refusal
from gridforge.mines import generate, playthrough
from gridforge.mines import position as position_module
from gridforge.mines.backend import MIDEND, Opened, ResumedRun, RunAnswer, RunFields, cell_of
from gridforge.mines.board import Board
from gridforge.mines.run_json import RunState, Telemetry
from gridforge.mines.view import page_event

if TYPE_CHECKING:  # the rules screen's module is imported when first asked for
    from gridforge.mines import guide

__all__ = ["act", "close", "daily_seed", "move_path", "new_board", "open", "position_hint",
           "resume", "run_state", "solve", "telemetry"]


# ---------------------------------------------------------------- play (both games' verbs)
# The verbs of play over the midend, the same in gridforge.snakes.page: open, resume, act,
# close. Each answers the midend's envelope (gridforge.midend) with the run's own fields.
def open(seed: object) -> Opened:
    """Start a run from ``seed`` (an integer in 0..2^63-1): the midend's envelope
    (:mod:`gridforge.midend`: ``id``, ``view``, ``offer``, ``changes``, ``events``,
    ``refused``, ``save``) with the board's ``log``; ``events`` are the initial expansion's.

    ``save`` is what the page stores to resume the run (format
    ``gridforge.mines.saved-run/1``); every answer that changes the run carries it anew, and
    every answer after this one carries ``changes`` instead of the whole view and offer.
    """
    turn = MIDEND.open(seed)
    held = turn.game
    return {**turn.envelope, "events": [page_event(e) for e in held.run.initial_events],
            "log": list(held.log)}


def resume(saved: object) -> ResumedRun:
    """Rebuild a saved run exactly from its ``save`` (after a reload); answers as
    :func:`open`, with the board's last log lines. A malformed or foreign save is refused
    naming the field or step."""
    turn = MIDEND.resume(None, saved)
    return {**turn.envelope, "log": list(turn.game.log), "messages": []}


def act(run_id: str, action: object) -> RunAnswer:
    """One input in the run ``run_id``, ``{"do": ...}``:

    - ``{"do": "primary", "cell": [x, y]}``: a click, tap, Space or Enter: move onto opened
      ground, dig a neighbour, or move beside a far concealed cell and dig it (two
      one-intent batches); ``{"do": "secondary", "cell": [x, y]}``: a right click, long
      press, F or a tap in flag mode: place or pull a flag; ``{"do": "dig" | "flag_place" |
      "flag_pull" | "move" | "stop", "cell": [x, y]}``: one intent of the engine. These
      answer the ``outcomes``, player-facing ``messages`` and ``log`` and a ``settlement``
      when the round ended;
    - ``{"do": "continue"}``: go on after a settlement (next round, board or battle);
      ``{"do": "refresh"}``: pay RAP for a fresh board of the same battle (``accepted``);
    - ``{"do": "hint"}``: the next cell not yet settled that logic proves from what the
      player sees and has marked: the cell, the digits used (``constraints``) and the
      reason in words (``parts`` point at cells); ``cell`` null when nothing is left. A
      hint costs one from the battle's stock (``price``, ``hints_left``; ``refused`` when
      the stock is spent or no round is in play);
    - ``{"do": "pick", "offer": kind}``: take one of the offers open between battles (one
      that is not open is refused naming it); ``{"do": "use", "item": id, "cell": [x, y]}``:
      use an item (the probe needs ``cell``: ``result`` is its digit, -1 a mine), or a
      refusal (``accepted`` false) that changes nothing.

    Every answer carries what changed and, when the run changed, the ``save``; an input that
    changed nothing is ``refused`` with the reason in words.

    :raises UnknownSession: when ``run_id`` is not open (resume it from its save).
    :raises ValidationError: naming the field of ``action`` at fault.
    """
    turn = MIDEND.play(run_id, action)
    fields: RunFields = turn.extra if turn.extra is not None else {}
    return {**turn.envelope, **fields}


def close(run_id: str) -> bool:
    """Forget a run; ``False`` if it was not open."""
    return MIDEND.close(run_id)


def run_state(run_id: str) -> RunState:
    """The run as it stands, whole: its view with its offer (a read: nothing changes)."""
    return MIDEND.game(run_id).run.to_json()


def telemetry(run_id: str) -> Telemetry:
    """The run's telemetry (format ``gridforge.mines.telemetry/1``: input actions per AP
    spent per round, chain sizes, batches per round, rejections by reason)."""
    return MIDEND.game(run_id).run.telemetry()


def move_path(run_id: str, cell: object) -> list[list[int]]:
    """The path a move to ``cell`` would take, for the preview (``[]`` when it cannot)."""
    engine = MIDEND.game(run_id).run.session.engine
    return [list(c) for c in engine.compute_move_path(cell_of(cell))]


def daily_seed(date: object) -> int:
    """The run seed of the daily run of ``date`` (``YYYY-MM-DD``, a real calendar day):
    derived from the date alone, so every player gets the same run, offline.

    :raises ValidationError: naming ``date`` when it is not such a day.
    """
    try:
        day = datetime.date.fromisoformat(date) if isinstance(date, str) and len(date) == 10 \
            else None
    except ValueError:
        day = None
    if day is None:
        raise refusal("daily run", "date", "type", "date is a day as YYYY-MM-DD, got "
                                     f"{str(date)[:20]!r}")
    digest = hashlib.sha256(f"gridforge.mines.daily:{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 2**31


def new_board(table: str | dict[str, Any], seed: int,
              level: int | None = None) -> generate.GeneratedJson:
    """A generated no-guess board from a preset name or a table, with its metrics."""
    return generate.generate(table, seed, level).to_json()


def solve(board: dict[str, Any], use_mine_count: bool = True) -> playthrough.SolveJson:
    """The deduction solver's playthrough of ``board``: no-guess or not, steps, metrics."""
    return playthrough.solve_board(Board.from_json(board), bool(use_mine_count)).to_json()


def position_hint(position: dict[str, Any]) -> position_module.PositionHint:
    """What logic proves about a position (opened digits, flags, mine total) and why."""
    return position_module.hint(position)


# --- the rules screen (issue 21)
__all__ += ["rules"]


def rules() -> guide.Rules:
    """The rules screen's words for mines: ``{sections: [{key, title, text}], picture}``
    (numbers from the run table; the picture a tiny board in the view's vocabulary)."""
    from gridforge.mines import guide

    return guide.rules_screen()
