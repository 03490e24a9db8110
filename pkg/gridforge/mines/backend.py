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
from typing import NotRequired, TypedDict

from gridforge import i18n
from gridforge.errors import GridforgeError, Issue, ValidationError, field_path, refusal
from gridforge.grid import Cell
from gridforge.jsontypes import JsonObject
from gridforge.midend import TOO_LONG, Envelope, Midend, Played, Resumed, Unreplayable
from gridforge.mines.events import Event
from gridforge.mines.hints import Part, Proved
from gridforge.mines.intents import Intent, OutcomeJson
from gridforge.mines.run import MAX_RUNS, Run
from gridforge.mines.run_json import (
    Message,
    PageStep,
    RunHint,
    RunView,
    Said,
    SavedStep,
    WordedSettlement,
)
from gridforge.mines.run_json import Played as RunPlayed
from gridforge.mines.run_table import RunTable, load_run_table
from gridforge.mines.run_words import log_lines
from gridforge.mines.saved import MAX_STEPS, SAVE_FORMAT, parse_saved
from gridforge.mines.view import Offer

# The refusal reasons of an input that changed nothing: "unchanged." and why
# ("unchanged.not_adjacent", "unchanged.phase", "unchanged.refresh_refused", ...).
UNCHANGED = "unchanged."
RESUMED_LOG_LINES = 60  # the board's newest log lines given back on resume (the page keeps 60)
# The page's own inputs (``{"do": ...}``); any other ``do`` is an intent of the engine
# (``dig``, ``flag_place``, ``flag_pull``, ``move``, ``stop``: one the engine does not know
# is refused by it, as an answer).
INPUTS = ("primary", "secondary", "continue", "refresh", "hint", "pick", "use")

RunEnvelope = Envelope[RunView, Offer, Event, SavedStep]


class Opened(RunEnvelope):
    """A run opened: the envelope and the board's log so far."""

    log: list[Said]


class ResumedRun(Opened):
    """A run resumed: as :class:`Opened`, with the messages of the resumption (none)."""

    messages: list[Message]


class RunFields(TypedDict):
    """The run's own fields of an input's answer, beside the envelope: those of the input
    played (an intent or a click: ``outcomes``, ``outcome``, ``settlement``; a refresh,
    a pick or an item's use: ``accepted``; a hint: its words, cells and price)."""

    log: NotRequired[list[Said]]
    messages: NotRequired[list[Message]]
    outcomes: NotRequired[list[OutcomeJson]]
    outcome: NotRequired[OutcomeJson]
    settlement: NotRequired[WordedSettlement | None]
    accepted: NotRequired[bool]
    picked: NotRequired[str]
    item: NotRequired[str]
    cell: NotRequired[list[int] | None]
    result: NotRequired[int | None]
    kind: NotRequired[str | None]
    action: NotRequired[str | None]
    rule: NotRequired[str | None]
    constraints: NotRequired[list[list[int]]]
    safe: NotRequired[list[list[int]]]
    mines: NotRequired[list[list[int]]]
    mine_count: NotRequired[bool]
    reachable: NotRequired[bool]
    text: NotRequired[str]
    parts: NotRequired[list[Part]]
    proved: NotRequired[Proved]
    price: NotRequired[int]
    hints_left: NotRequired[int]


class RunAnswer(RunEnvelope, RunFields):
    """An input's answer: the envelope and the run's own fields (a hint's ``refused`` is
    the envelope's: its stock spent, or no round in play)."""


@dataclass(frozen=True)
class Reply:
    """What the run answered one input: its fields, the page events, the step the save
    records (None: nothing to record) and whether a hint was refused."""

    fields: RunFields
    events: list[Event]
    record: SavedStep | None
    hint_refused: bool = False


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

    @classmethod
    def from_json(cls, data: object) -> Input:
        """The page's input ``{"do": ..., ...}``: ``primary`` or ``secondary`` with
        ``cell``; ``continue``, ``refresh``, ``hint``; ``pick`` with ``offer``; ``use`` with
        ``item`` (and ``cell`` for an item used on one); any other ``do`` an intent of the
        engine (``{"do": "dig", "cell": [x, y]}``, ``{"do": "stop"}``).

        :raises ValidationError: naming the field (``input.do``, ``input.cell``).
        """
        if not isinstance(data, dict) or not isinstance(data.get("do"), str):
            raise refusal("input", "input.do", "type", "an input is {'do': ...}, do a "
                                         f"string: one of {list(INPUTS)} or an intent")
        do, cell = data["do"], data.get("cell")
        if do in ("primary", "secondary"):
            return cls(do, cell=cell_of(cell, "input.cell"))
        if do == "pick":
            return cls("pick", choice=str(data.get("offer"))[:40])
        if do == "use":
            return cls("use", cell=None if cell is None else cell_of(cell, "input.cell"),
                       choice=str(data.get("item"))[:40])
        if do in INPUTS:
            return cls(do)
        intent = {("kind" if key == "do" else key): value for key, value in data.items()}
        return cls("act", intent=Intent.from_json(intent, "input"))


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
        run = Run(spec, self.run_table())  # Run checks the seed
        held = InPlay(run, board=(run.battle_index, run.board_no))
        held.logged(log_lines(run.initial_events, run.session.engine.board))
        return held

    def read_save(self, spec: object, save: object) -> Resumed[InPlay, SavedStep]:
        seed, steps = parse_saved(save, self.run_table())
        return Resumed(self.new(seed), [s.to_json() if isinstance(s, Intent) else s
                                        for s in steps])

    def header(self, game: InPlay) -> JsonObject:
        return {"format": SAVE_FORMAT, "seed": game.run.seed, "table": game.run.table.digest()}

    def play(self, game: InPlay, intent: object) -> Played[Event, SavedStep, RunFields]:
        """Play one input: an :class:`Input`, or the page's ``{"do": ...}`` read as one."""
        given = intent if isinstance(intent, Input) else Input.from_json(intent)
        run = game.run
        current = run.rounds[-1]
        counted = (current.inputs, current.batches, dict(current.rejections))
        reply = _reply(run, given)
        game.logged(reply.fields.get("log", []))
        refused = None
        if reply.hint_refused:  # its stock is spent, or no round in play
            playing = run.status == "playing" and run.session.ledger.phase == "active"
            refused = "hints_spent" if playing else "round_over"
        unchanged = _unchanged(reply)
        if unchanged is not None:
            # Nothing changed (a misclick, a Stop after the round ended, a refresh it cannot
            # pay): no step to save, so the page writes nothing; the answer says why.
            # Its telemetry goes too: a resumed run counts what its save replays.
            current.inputs, current.batches, current.rejections = counted
            refused, self.unchanged_words = unchanged
            return Played(None, reply.events, reply.fields, refused)
        return Played(reply.record, reply.events, reply.fields, refused)

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

    def _replay_use(self, game: InPlay, step: PageStep) -> None:
        """An item's use again: it must be possible, and a lantern must mark the cell it
        marked (a save that says otherwise was not made by this run)."""
        cell = step.get("cell")
        target = None if cell is None or step.get("item") == "lantern" else (cell[0], cell[1])
        played = self.play(game, Input("use", cell=target, choice=step.get("item")))
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


def _unchanged(reply: Reply) -> tuple[str, str] | None:
    """``(reason, words)`` when an input changed nothing in the run (every intent refused
    or voided, or a refresh refused, with no event), else None."""
    if reply.events:
        return None
    fields = reply.fields
    said = next((m["text"] for m in fields.get("messages", []) if m["kind"] == "error"), "")
    if fields.get("accepted") is False:
        return f"{UNCHANGED}refresh_refused", said
    outcomes = fields.get("outcomes", [])
    if not outcomes or any(o["outcome"] == "executed" for o in outcomes):
        return None
    first = outcomes[0]
    reason = ("voided" if first["outcome"] == "voided"
              else first["sub_reason"] or first["reject_reason"] or "rejected")
    return f"{UNCHANGED}{reason}", said


def _moved(played: RunPlayed) -> Reply:
    return Reply({"log": played["log"], "messages": played["messages"],
                  "outcomes": played["outcomes"], "outcome": played["outcome"],
                  "settlement": played["settlement"]}, played["events"], played["step"])


def _hinted(hint: RunHint) -> Reply:
    return Reply({"cell": hint["cell"], "kind": hint["kind"], "action": hint["action"],
                  "rule": hint["rule"], "constraints": hint["constraints"],
                  "safe": hint["safe"], "mines": hint["mines"],
                  "mine_count": hint["mine_count"], "reachable": hint["reachable"],
                  "text": hint["text"], "parts": hint["parts"], "proved": hint["proved"],
                  "price": hint["price"],
                  "hints_left": hint["hints_left"]}, [], hint["step"], hint["refused"])


def _reply(run: Run, given: Input) -> Reply:
    """The run's answer to one input."""
    if given.verb in ("primary", "secondary") and given.cell is not None:
        return _moved((run.primary if given.verb == "primary" else run.secondary)(given.cell))
    if given.verb == "act" and given.intent is not None:
        return _moved(run.act(given.intent))
    if given.verb == "continue":
        going = run.continue_run()
        return Reply({"log": going["log"], "messages": going["messages"]}, going["events"],
                     going["step"])
    if given.verb == "refresh":
        fresh = run.refresh()
        return Reply({"accepted": fresh["accepted"], "log": fresh["log"],
                      "messages": fresh["messages"]}, fresh["events"], fresh["step"])
    if given.verb == "hint":
        return _hinted(run.hint())
    if given.verb == "pick":
        picked = run.pick_offer(given.choice)
        return Reply({"accepted": picked["accepted"], "picked": picked["picked"],
                      "messages": picked["messages"]}, [], picked["step"])
    if given.verb == "use":
        used = run.use_item(given.choice, given.cell)
        return Reply({"accepted": used["accepted"], "item": used["item"], "cell": used["cell"],
                      "result": used["result"], "messages": used["messages"]}, [],
                     used["step"])
    raise GridforgeError(f"no such input {given.verb!r}")  # Input.from_json makes only these


MIDEND: Midend[InPlay, None, RunView, Offer, Event, SavedStep, RunFields] = Midend(Mines())


def cell_of(value: object, what: str = "cell") -> Cell:
    """``value`` as a cell ``[x, y]`` (two integers), or a ValidationError naming ``what``."""
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise refusal(what, what, "type", "a cell is [x, y], two integers")
    return (value[0], value[1])


__all__ = ["INPUTS", "MIDEND", "Input", "Mines", "Opened", "ResumedRun", "RunAnswer",
           "RunFields", "cell_of"]
