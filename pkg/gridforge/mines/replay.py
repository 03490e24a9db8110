"""The headless replay of the mines engine, and the session it (and a run) plays on.

A :class:`Session` is one ledger (A3) and one engine (A2) with the events they emit, both
faces merged in emission order; a run (:mod:`gridforge.mines.run`) plays its battles on one.

:func:`replay` runs a board and a script headless and returns the event stream; the
``gridforge mines replay`` command prints it as JSON lines (:func:`event_lines`), the
same bytes for the same input (seed rule 1, AC-19). A script is validated whole before
anything runs (:func:`parse_script`) and is bounded: :data:`MAX_SCRIPT_BYTES`,
:data:`MAX_SCRIPT_STEPS` steps, :data:`MAX_SCRIPT_INTENTS` intents in all.

Script format (``gridforge.mines.script/1``)::

    {"format": "gridforge.mines.script/1",
     "economy": {"flag_place_ap_cost": 2},      # optional debug override
     "start": true,                             # install + round start first (default)
     "steps": [
        {"kind": "dig", "cell": [3, 4]},        # one intent = a one-intent batch
        {"batch": [{"kind": "dig", "cell": [0, 6]}, {"kind": "stop"}]},
        {"call": "settlement_done", "hint": "same_board"},
        {"call": "round_start"},
        {"call": "refresh", "board": {...}},    # paid from RAP, then install
        {"call": "install", "board": {...}}, {"call": "retire"}]}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, NotRequired, TypedDict

from gridforge.errors import (
    Field,
    GridforgeError,
    Issues,
    Schema,
    ValidationError,
    parse_json,
    refusal,
)
from gridforge.jsontypes import Json
from gridforge.mines.board import Board
from gridforge.mines.engine import Engine
from gridforge.mines.events import Event
from gridforge.mines.intents import ActionOutcome, Intent, OutcomeJson
from gridforge.mines.ledger import Economy, Ledger, load_economy

SCRIPT_FORMAT = "gridforge.mines.script/1"
CALLS = ("round_start", "settlement_done", "install", "refresh", "retire")
# Limits of a replay script (docs/mines-engine.md, "Limits"): the file, its steps and the
# intents of all its batches. A step costs at most one install or one dig of a board.
MAX_SCRIPT_BYTES = 8 * 1024 * 1024
MAX_SCRIPT_STEPS = 10_000
MAX_SCRIPT_INTENTS = 100_000

__all__ = [
    "MAX_SCRIPT_BYTES",
    "MAX_SCRIPT_INTENTS",
    "MAX_SCRIPT_STEPS",
    "SCRIPT_FORMAT",
    "Script",
    "ScriptStep",
    "Session",
    "StepRecord",
    "event_lines",
    "parse_script",
    "replay",
]


class StepRecord(TypedDict):
    """What a replayed step did (``replay(..., outcomes=True)``): the outcomes of a batch
    (or of the install, ``step`` "install"), or whether a call was accepted."""

    step: int | str
    outcomes: NotRequired[list[OutcomeJson]]
    accepted: NotRequired[bool]


class Session:
    """One ledger and one engine, with the merged event stream they produce."""

    def __init__(self, economy: Economy | None = None) -> None:
        self.ledger = Ledger(economy)
        self.engine = Engine(self.ledger)
        self.events: list[Event] = []
        # A method of the session, not the list's own append: a deep copy of the session
        # (a planning bot's fork of a run) then collects into its own copy of the list.
        self.engine.subscribe(self._collect)
        self.ledger.subscribe(self._collect)

    def _collect(self, event: Event) -> None:
        self.events.append(event)

    def drain(self) -> list[Event]:
        """The events emitted since the last drain."""
        out, self.events[:] = list(self.events), []
        return out

    def run_call(self, name: str, board: Board | None = None, hint: str = "same_board") -> bool:
        """An orchestration call (B1's role): True if the ledger or engine accepted it."""
        if name == "round_start":
            return self.ledger.notify_round_start()
        if name == "settlement_done":
            return self.ledger.notify_settlement_done(hint)
        if name == "retire":
            return self.engine.retire_board().accepted
        if board is None:
            raise GridforgeError(f"call {name!r} needs a board")
        if name == "refresh" and not self.ledger.request_refresh():
            return False
        return self.engine.install_board(board).accepted


def _outcomes(outcomes: list[ActionOutcome]) -> list[OutcomeJson]:
    return [o.to_json() for o in outcomes]


def _economy(overrides: object) -> Economy:
    if overrides is not None and not isinstance(overrides, Mapping):
        raise refusal("economy", "economy", "type", "economy is an object")
    return load_economy(overrides)


# ------------------------------------------------------------------- replay
class ScriptStep(NamedTuple):
    """One validated step of a script: a batch of intents, or an orchestration call."""

    batch: list[Intent] | None = None
    call: str | None = None
    board: Board | None = None  # install / refresh; None means the replay's own board
    hint: str = "same_board"


@dataclass(frozen=True)
class Script:
    """A validated replay script (:func:`parse_script`)."""

    economy: Economy
    start: bool
    steps: list[ScriptStep]


# A script's fields, declared once (its economy and steps are read by their own readers).
_SCRIPT = Schema((
    Field("format", message=f"format must be {SCRIPT_FORMAT!r}", code="format",
          choices=(SCRIPT_FORMAT,), default=SCRIPT_FORMAT),
    Field("economy"),
    Field("start", "bool", "start is true or false", "type", default=True, fallback=True),
    Field("steps", "list", "steps is a list", "type", fallback=[]),
), not_object="a script is an object")


def parse_script(script: object) -> Script:
    """Validate a replay script (object or bare list of steps) before anything runs.

    Boards and intents are parsed; at most :data:`MAX_SCRIPT_STEPS` steps and
    :data:`MAX_SCRIPT_INTENTS` intents in all. :raises ValidationError: naming every faulty
    field (``steps[3].batch[1].kind``).
    """
    if isinstance(script, list):
        script = {"format": SCRIPT_FORMAT, "steps": script}
    script = _SCRIPT.root(script, "mines script")
    issues = Issues()
    fields = _SCRIPT.read(script, issues)
    fields.check("format", "start")
    start = fields.flag("start")
    economy: Economy | None = None
    try:
        economy = _economy(script.get("economy"))
    except ValidationError as exc:
        issues += exc.issues
    fields.check("steps")
    steps = fields.listed("steps")
    parsed: list[ScriptStep] = []
    if len(steps) > MAX_SCRIPT_STEPS:
        raise refusal("mines script", "steps", "too_many",
                      f"{len(steps)} steps; the limit is {MAX_SCRIPT_STEPS}")
    intents = 0
    for k, step in enumerate(steps):
        path = f"steps[{k}]"
        try:
            parsed.append(_parse_step(step, path))
        except ValidationError as exc:
            issues += exc.issues
            continue
        intents += len(parsed[-1].batch or ())
        if intents > MAX_SCRIPT_INTENTS:
            raise refusal("mines script", path, "too_many",
                          f"more than {MAX_SCRIPT_INTENTS} intents in all")
    if issues:
        raise ValidationError(issues, "mines script")
    assert economy is not None  # no issue: it was valid
    return Script(economy, start, parsed)


def _parse_step(step: object, path: str) -> ScriptStep:
    if not isinstance(step, Mapping):
        raise refusal("mines script", path, "type", "a step is an object")
    if "batch" in step:
        batch = step["batch"]
        if not isinstance(batch, list) or len(step) != 1:
            raise refusal("mines script", f"{path}.batch", "type",
                          "a batch step is {'batch': [intents]}")
        issues = Issues()
        intents = []
        for k, item in enumerate(batch):
            try:
                intents.append(Intent.from_json(item, f"{path}.batch[{k}]"))
            except ValidationError as exc:
                issues += exc.issues
        if issues:
            raise ValidationError(issues, "mines script")
        return ScriptStep(batch=intents)
    if "call" in step:
        name = step["call"]
        issues = Issues()
        if name not in CALLS:
            issues.add(f"{path}.call", "unknown_call", f"call is one of {list(CALLS)}")
        for key in step:
            if key not in ("call", "board", "hint"):
                issues.add(f"{path}.{key}", "unknown_field", f"unknown field {key!r}")
        board = None
        if name in ("install", "refresh") and "board" in step:  # omitted: the replay's board
            try:
                board = Board.from_json(step["board"])
            except ValidationError as exc:
                issues.under(f"{path}.board", exc.issues)
        hint = step.get("hint", "same_board")
        if not isinstance(hint, str):
            issues.add(f"{path}.hint", "type", "hint is a string")
        if issues:
            raise ValidationError(issues, "mines script")
        return ScriptStep(call=name, board=board, hint=hint)
    return ScriptStep(batch=[Intent.from_json(step, path)])


def replay(
    board: Board | Json,
    script: Script | Json,
    outcomes: bool = False,
) -> list[Event | StepRecord]:
    """Run ``script`` on ``board`` headless; return the event stream (A2 and A3 faces merged).

    With ``outcomes``, each step also yields a record ``{"step": k, "outcomes": [...]}``
    (or ``{"step": k, "accepted": bool}`` for a call) after its events.

    :raises ValidationError: for a malformed board or script, or a board whose install the
        engine refuses when the script starts the round (the invariant it breaks); nothing
        is emitted then.
    """
    parsed_board = board if isinstance(board, Board) else Board.from_json(board)
    if isinstance(script, str):
        script = parse_json(script, "mines script")
    plan = script if isinstance(script, Script) else parse_script(script)
    session = Session(plan.economy)
    out: list[Event | StepRecord] = []
    if plan.start:
        install = session.engine.install_board(parsed_board)
        if not install.accepted:
            refused = Issues()
            for d in session.engine.diagnostics:
                refused.add("", d["category"], f"refused at install ({d['category']}): "
                            f"{d['message']}")
            raise ValidationError(refused, "mines board")
        session.ledger.notify_round_start()
        out += session.drain()
        if outcomes:
            out.append({"step": "install", "outcomes": [install.to_json()]})
    for k, step in enumerate(plan.steps):
        record: StepRecord
        if step.batch is not None:
            record = {"step": k, "outcomes": _outcomes(session.engine.settle_batch(step.batch))}
        else:
            assert step.call is not None
            board_arg = step.board
            if step.call in ("install", "refresh") and board_arg is None:
                board_arg = parsed_board
            record = {"step": k, "accepted": session.run_call(step.call, board_arg, step.hint)}
        out += session.drain()
        if outcomes:
            out.append(record)
    return out


def event_lines(events: Sequence[Event | StepRecord]) -> str:
    """JSON lines, one per event, fixed key order and separators: same events, same bytes."""
    return "".join(
        json.dumps(ev, separators=(",", ":"), ensure_ascii=False, allow_nan=False) + "\n"
        for ev in events
    )
