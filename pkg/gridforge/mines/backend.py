"""The mines backend of the midend: runs in play, by id, and the verbs the page calls.

A run (:class:`~gridforge.mines.run.Run`) is one game of the midend
(:mod:`gridforge.midend`): it opens from a seed, its save is the format, the seed, the run
table's fingerprint and the steps, and it cannot take a step back (a roguelike: what was
dug stays dug). A step the save records is an intent (``{"kind", "cell"}``) or one of the
page's own (``{"do": "reach", "cell"}``: a far click, a move then a dig; ``{"do":
"continue"}``, ``{"do": "refresh"}``, ``{"do": "hint"}``: a paid hint). Every answer is the
midend's envelope: the view (the run as the page draws it) and the offer (what a click on
each cell would do) in full when a run opens, else what changed; the page events of the
input; the save when the input changed the run; and the run's own fields (``log``,
``messages``, ``outcomes``, ``settlement``, a hint's words).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from gridforge import i18n
from gridforge.errors import GridforgeError, Issue, ValidationError, field_path, refusal
from gridforge.grid import Cell
from gridforge.jsontypes import JsonObject
from gridforge.midend import TOO_LONG, Envelope, Midend, Played, Resumed, Unreplayable
from gridforge.mines.events import Event
from gridforge.mines.hints import Hint
from gridforge.mines.intents import Intent, OutcomeJson
from gridforge.mines.run import MAX_RUNS, Run, SavedStep
from gridforge.mines.run_json import (
    Continued,
    Message,
    PageStep,
    Picked,
    Refreshed,
    RunHint,
    RunState,
    RunView,
    Said,
    Telemetry,
    Used,
    WordedSettlement,
)
from gridforge.mines.run_json import Played as RunPlayed
from gridforge.mines.run_table import RunTable, load_run_table
from gridforge.mines.run_words import log_lines
from gridforge.mines.saved import MAX_STEPS, SAVE_FORMAT, parse_saved
from gridforge.mines.view import Offer, page_event

# The refusal reasons of an input that changed nothing: "unchanged." and why
# ("unchanged.not_adjacent", "unchanged.phase", "unchanged.refresh_refused", ...).
UNCHANGED = "unchanged."
RESUMED_LOG_LINES = 60  # the board's newest log lines given back on resume (the page keeps 60)

Reply = RunPlayed | Refreshed | Continued | RunHint | Picked | Used  # the run's answers
RunEnvelope = Envelope[RunView, Offer, Event, SavedStep]


class Opened(RunEnvelope):
    """A run started: the envelope and the board's log so far."""

    log: list[Said]


class ResumedRun(Opened):
    """A run resumed: as :class:`Opened`, with the messages of the resumption (none)."""

    messages: list[Message]


class PlayAnswer(RunEnvelope):
    """An intent or a click: the envelope and the run's outcomes, words and settlement."""

    outcomes: list[OutcomeJson]
    outcome: OutcomeJson
    log: list[Said]
    messages: list[Message]
    settlement: WordedSettlement | None


class RefreshAnswer(RunEnvelope):
    accepted: bool
    log: list[Said]
    messages: list[Message]


class ContinueAnswer(RunEnvelope):
    log: list[Said]
    messages: list[Message]


class PickAnswer(RunEnvelope):
    accepted: bool
    picked: str
    messages: list[Message]


class UseAnswer(RunEnvelope):
    accepted: bool
    item: str
    cell: list[int] | None
    result: int | None
    messages: list[Message]


class HintAnswer(RunEnvelope, Hint):
    """A hint at its price (``refused`` is the envelope's: the stock spent, no round)."""

    price: int
    hints_left: int


@dataclass
class InPlay:
    """A run in play and the event log of its board as the page shows it (the page starts
    its log anew with each board: a line names cells of its own board only)."""

    run: Run
    log: list[Said] = field(default_factory=list)
    board: tuple[int, int] = (0, 0)

    def logged(self, lines: list[Said]) -> None:
        """Add an answer's log lines, after forgetting the last board's if it changed."""
        board = (self.run.battle_index, self.run.board_no)
        if board != self.board:
            self.board = board
            self.log.clear()
        self.log += lines
        del self.log[:-RESUMED_LOG_LINES]


@dataclass(frozen=True)
class Input:
    """One input of the page: ``verb`` is ``primary`` or ``secondary`` (with ``cell``),
    ``act`` (with ``intent``), ``continue``, ``refresh``, ``hint``, ``pick`` (with
    ``choice``, the offer) or ``use`` (with ``choice``, the item, and ``cell`` when it is
    used on one)."""

    verb: str
    cell: Cell | None = None
    intent: Intent | None = None
    choice: str | None = None  # the offer picked, or the item used


class Mines:
    """The mines backend: a run per game, no step taken back."""

    what = "mines run"
    prefix = "r"
    limit = MAX_RUNS
    max_steps = MAX_STEPS
    undoable = False
    save_what = "saved run"

    def __init__(self, table: RunTable | None = None) -> None:
        self.table = table
        self.unchanged_words = ""  # the words of the last input that changed nothing

    def run_table(self) -> RunTable:
        if self.table is None:
            self.table = load_run_table()
        return self.table

    def new(self, spec: object) -> InPlay:
        run = Run(spec, self.run_table())  # type: ignore[arg-type]  # Run checks the seed
        held = InPlay(run, board=(run.battle_index, run.board_no))
        held.logged(log_lines(run.initial_events, run.session.engine.board))
        return held

    def read_save(self, spec: object, save: object) -> Resumed[InPlay, SavedStep]:
        seed, steps = parse_saved(save, self.run_table())
        return Resumed(self.new(seed), [s.to_json() if isinstance(s, Intent) else s
                                        for s in steps])

    def header(self, game: InPlay) -> JsonObject:
        return {"format": SAVE_FORMAT, "seed": game.run.seed, "table": game.run.table.digest()}

    def play(self, game: InPlay, intent: object) -> Played[Event, SavedStep, Reply]:
        assert isinstance(intent, Input)
        run = game.run
        run.last_step = None
        current = run.rounds[-1]
        counted = (current.inputs, current.batches, dict(current.rejections))
        answer, events, log = _reply(run, intent)
        game.logged(log)
        refused = None
        if answer.get("refused"):  # a hint refused: its stock is spent, or no round in play
            playing = run.status == "playing" and run.session.ledger.phase == "active"
            refused = "hints_spent" if playing else "round_over"
        unchanged = _unchanged(answer, events)
        if unchanged is not None:
            # Nothing changed (a misclick, a Stop after the round ended, a refresh it cannot
            # pay): no step to save, so the page writes nothing; the answer says why.
            # Its telemetry goes too: a resumed run counts what its save replays.
            current.inputs, current.batches, current.rejections = counted
            refused, self.unchanged_words = unchanged
            return Played(None, events, answer, refused)
        return Played(run.last_step, events, answer, refused)

    def replay(self, game: InPlay, step: SavedStep) -> None:
        try:
            if "kind" in step:
                self.play(game, Input("act", intent=Intent.from_json(step)))
            elif step["do"] == "reach":
                cell = step["cell"]
                self.play(game, Input("primary", cell=(cell[0], cell[1])))
            elif step["do"] == "hint":
                if self.play(game, Input("hint")).record is None:
                    raise GridforgeError("a paid hint was recorded where none can be paid")
            elif step["do"] == "pick":
                self.play(game, Input("pick", choice=step["offer"]))
            elif step["do"] == "use":
                self._replay_use(game, step)
            else:
                self.play(game, Input(step["do"]))
        except ValidationError:
            raise
        except GridforgeError as exc:
            raise Unreplayable(str(exc)) from None

    def _replay_use(self, game: InPlay, step: SavedStep) -> None:
        """An item's use again: it must be possible, and a lantern must mark the cell it
        marked (a save that says otherwise was not made by this run)."""
        page = cast(PageStep, step)
        cell = page.get("cell")
        target = None if cell is None or page.get("item") == "lantern" else (cell[0], cell[1])
        played = self.play(game, Input("use", cell=target, choice=page.get("item")))
        if played.record != step:
            raise GridforgeError("an item use was recorded that this run cannot make")

    def replay_issue(self, key: str, index: int, reason: str) -> Issue:
        return Issue(field_path(key, index), "replay", f"this step does not replay: {reason}")

    def position(self, game: InPlay) -> None:
        raise GridforgeError("a mines run keeps no position to go back to")

    def restore(self, game: InPlay, position: None) -> None:
        raise GridforgeError("a mines run cannot go back")

    def finished(self, game: InPlay) -> bool:
        return game.run.status in ("won", "lost")

    def view(self, game: InPlay) -> RunView:
        return game.run.view()

    def offer(self, game: InPlay, can_undo: bool, can_redo: bool) -> Offer:
        return game.run.offer()

    def refusal(self, reason: str) -> str:
        if reason.startswith(UNCHANGED):
            return self.unchanged_words or i18n.say("mines.not-now")
        if reason == TOO_LONG:
            return i18n.say("mines.refusal.too_long", steps=MAX_STEPS)
        if reason == "hints_spent":
            return i18n.say("mines.hint.none-left", per=self.run_table().hints_per_battle)
        return i18n.say("mines.hint.round-over")


def _unchanged(answer: Reply, events: list[Event]) -> tuple[str, str] | None:
    """``(reason, words)`` when an input changed nothing in the run (every intent refused
    or voided, or a refresh refused, with no event), else None."""
    if events:
        return None
    messages = cast(list[Message], answer.get("messages", []))
    said = next((m["text"] for m in messages if m["kind"] == "error"), "")
    if answer.get("accepted") is False:
        return f"{UNCHANGED}refresh_refused", said
    outcomes = cast(list[OutcomeJson], answer.get("outcomes", []))
    if not outcomes or any(o["outcome"] == "executed" for o in outcomes):
        return None
    first = outcomes[0]
    reason = ("voided" if first["outcome"] == "voided"
              else first["sub_reason"] or first["reject_reason"] or "rejected")
    return f"{UNCHANGED}{reason}", said


def _reply(run: Run, intent: Input) -> tuple[Reply, list[Event], list[Said]]:
    """The run's answer to one input, with its events and its log lines."""
    answer: RunPlayed | Refreshed | Continued
    if intent.verb in ("primary", "secondary") and intent.cell is not None:
        answer = (run.primary if intent.verb == "primary" else run.secondary)(intent.cell)
    elif intent.verb == "act" and intent.intent is not None:
        answer = run.act(intent.intent)
    elif intent.verb == "continue":
        answer = run.continue_run()
    elif intent.verb == "refresh":
        answer = run.refresh()
    elif intent.verb == "hint":
        return run.hint(), [], []
    elif intent.verb == "pick":
        return run.pick_offer(intent.choice), [], []
    elif intent.verb == "use":
        return run.use_item(intent.choice, intent.cell), [], []
    else:
        raise GridforgeError(f"no such input {intent.verb!r}")  # the verbs build only these
    return answer, answer["events"], answer["log"]


MIDEND: Midend[InPlay, None, RunView, Offer, Event, SavedStep, Reply] = Midend(Mines())


def _cell(value: object, what: str = "cell") -> Cell:
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise refusal(what, what, "type", "a cell is [x, y], two integers")
    return (value[0], value[1])


def _played(run_id: object, intent: Input) -> dict[str, object]:
    """The envelope of an input with the run's own answer fields (a hint's ``refused`` is
    the envelope's)."""
    MIDEND.entry(run_id)
    envelope, reply = MIDEND.play(run_id, intent)
    own = {key: value for key, value in (reply or {}).items() if key != "refused"}
    return {**envelope, **own}


def _opened(run_id: str, envelope: RunEnvelope) -> Opened:
    return {**envelope, "log": list(MIDEND.game(run_id).log)}


def new_run(seed: int) -> Opened:
    """Start a run from ``seed``: the envelope with the initial events and log."""
    run_id, envelope = MIDEND.start(seed)
    run = MIDEND.game(run_id).run
    opened = _opened(run_id, envelope)
    opened["events"] = [page_event(e) for e in run.initial_events]
    return opened


def resume_run(saved: object) -> ResumedRun:
    """Rebuild a saved run exactly (the page's store after a reload); answers as
    :func:`new_run`, with the board's last log lines. :raises ValidationError: naming the
    faulty field or step."""
    run_id, envelope = MIDEND.resume(None, saved)
    return {**_opened(run_id, envelope), "messages": []}


def act(run_id: object, intent: object) -> PlayAnswer:
    """Settle one intent ``{"kind", "cell"}``: the outcome, the events, a settlement."""
    MIDEND.entry(run_id)
    return cast(PlayAnswer, _played(run_id, Input("act", intent=Intent.from_json(intent,
                                                                                  "intent"))))


def primary(run_id: object, cell: object) -> PlayAnswer:
    """A click or tap on ``cell`` (move, dig, or move beside a far cell and dig it)."""
    MIDEND.entry(run_id)
    return cast(PlayAnswer, _played(run_id, Input("primary", cell=_cell(cell))))


def secondary(run_id: object, cell: object) -> PlayAnswer:
    """A right click or long press on ``cell``: place or pull a flag."""
    MIDEND.entry(run_id)
    return cast(PlayAnswer, _played(run_id, Input("secondary", cell=_cell(cell))))


def continue_run(run_id: object) -> ContinueAnswer:
    """Go on after a settlement (next round, next board or next battle)."""
    return cast(ContinueAnswer, _played(run_id, Input("continue")))


def refresh(run_id: object) -> RefreshAnswer:
    """Pay RAP for a fresh board of the same battle (the paid refresh of A3)."""
    return cast(RefreshAnswer, _played(run_id, Input("refresh")))


def hint(run_id: object) -> HintAnswer:
    """A hint at its price (:meth:`Run.hint`); a paid hint is a step of the run."""
    return cast(HintAnswer, _played(run_id, Input("hint")))


def pick_offer(run_id: object, offer: object) -> PickAnswer:
    """Take one of the offers open between battles (:meth:`Run.pick_offer`).
    :raises GridforgeError: when ``offer`` is not open (nothing changes)."""
    return cast(PickAnswer, _played(run_id, Input("pick", choice=str(offer)[:40])))


def use_item(run_id: object, item: object, cell: object = None) -> UseAnswer:
    """Use an item (:meth:`Run.use_item`); ``cell`` for an item used on a cell."""
    target = None if cell is None else _cell(cell)
    return cast(UseAnswer, _played(run_id, Input("use", cell=target, choice=str(item)[:40])))


def move_path(run_id: object, cell: object) -> list[list[int]]:
    """The path a move to ``cell`` would take, for the preview ([] when it cannot)."""
    engine = MIDEND.game(run_id).run.session.engine
    return [list(c) for c in engine.compute_move_path(_cell(cell))]


def telemetry(run_id: object) -> Telemetry:
    """The run's telemetry (format ``gridforge.mines.telemetry/1``)."""
    return MIDEND.game(run_id).run.telemetry()


def run_state(run_id: object) -> RunState:
    """The run as it stands, whole: its view with its offer (a read: nothing changes)."""
    return MIDEND.game(run_id).run.to_json()


def close_run(run_id: object) -> bool:
    """Forget a run; False if it was not open."""
    return MIDEND.close(run_id)


__all__ = ["MIDEND", "ContinueAnswer", "HintAnswer", "Input", "Mines", "Opened", "PlayAnswer",
           "RefreshAnswer", "ResumedRun", "act", "close_run", "continue_run", "hint",
           "move_path", "new_run", "pick_offer", "primary", "refresh", "resume_run",
           "run_state", "secondary", "telemetry", "use_item"]
