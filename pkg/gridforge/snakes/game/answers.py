"""The shapes of snakes' answers to the page (play, lessons, the editor): typed JSON objects.

Each is a :class:`~typing.TypedDict`, so an answer is at once the JSON the worker posts and a
value whose every field mypy checks (a misspelt key or a wrong type is a type error, not a
blank on the board). :mod:`gridforge.snakes.play` builds them; the page reads them through
the contract (``web/contract.js``). Steps stay the file format's ``[body, end, direction]``.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from gridforge.jsontypes import JsonObject
from gridforge.midend import Envelope
from gridforge.snakes.game.levelfile import LevelJson, Step


class BodyView(TypedDict):
    """One body as the board draws it."""

    cells: list[list[int]]
    shed: int
    color: int | None
    blocked: str | None  # why the body cannot move now (frozen, locked), or null


class StateView(TypedDict):
    """A state as the board draws it (:meth:`~gridforge.snakes.game.rules.Game.state_to_json`)."""

    bodies: list[BodyView]
    holes_used: list[bool]
    exited_layers: int
    complete: bool


class FrozenBodyMarker(TypedDict):
    kind: Literal["frozen-body"]
    body: int
    needed: int
    count: int


class FrozenHoleMarker(TypedDict):
    kind: Literal["frozen-hole"]
    hole: int
    needed: int
    count: int


class LockMarker(TypedDict):
    kind: Literal["lock"]
    body: int
    pair: str
    metal: str
    needed: int
    count: int


class KeyMarker(TypedDict):
    kind: Literal["key"]
    body: int
    pair: str
    lock_body: int
    used: bool


Marker = FrozenBodyMarker | FrozenHoleMarker | LockMarker | KeyMarker
CountedMarker = FrozenBodyMarker | FrozenHoleMarker | LockMarker


class View(StateView):
    """A state's view with the mechanics' markers (:func:`~gridforge.snakes.play.markers`)."""

    markers: list[Marker]


class StepEvent(TypedDict):
    type: Literal["step"]
    body: int
    end: str
    direction: str
    color: int | None


class ExitEvent(TypedDict):
    type: Literal["exit"]
    body: int
    color: int | None
    layers_left: int


class ThawEvent(TypedDict):
    """A frozen body (``body``) or hole (``hole`` and its ``color``) thawed."""

    type: Literal["thaw"]
    body: NotRequired[int]
    hole: NotRequired[int]
    color: NotRequired[int]


class UnlockEvent(TypedDict):
    type: Literal["unlock"]
    body: int
    metal: str


class WonEvent(TypedDict):
    type: Literal["won"]


Event = StepEvent | ExitEvent | ThawEvent | UnlockEvent | WonEvent


class Offer(TypedDict):
    """What the page may offer: the buttons, and the legal steps."""

    undo: bool
    redo: bool
    hint: bool
    restart: bool
    legal: list[Step]


class AheadAnswer(TypedDict):
    """A legal step's answer, computed before the step is played."""

    view: View
    offer: Offer
    step_count: int
    events: list[Event]


class Answer(Envelope[View, Offer, Event, Step]):
    """Every play verb's answer: the midend's envelope (:mod:`gridforge.midend`), the steps
    played and the answers of the legal steps (see :mod:`gridforge.snakes.play`)."""

    step_count: int
    ahead: dict[str, AheadAnswer]


class HintAnswer(TypedDict):
    step: Step | None
    remaining: int | None
    optimal: bool
    status: str


class PositionAnswer(TypedDict):
    view: View
    step_count: int


class Validation(TypedDict):
    """Every problem of a level (``issues``: ``{"path", "code", "message"}``)."""

    ok: bool
    issues: list[dict[str, str]]


class DemoMove(TypedDict):
    """One step of a lesson's demonstration, as the board animates it: the body's cells
    before and after (for an exit, the end in the hole), its outer colour before and after
    (``next`` null once the body has left)."""

    body: int
    end: str
    cells: list[list[int]]
    to: list[list[int]]
    exit: bool
    color: int | None
    next: int | None


class Demonstration(TypedDict):
    steps: list[Step]
    moves: list[DemoMove]


class LessonAnswer(TypedDict):
    """What a main-line level teaches (:func:`~gridforge.snakes.lessons.lesson_for`)."""

    key: str
    level: int
    title: str
    text: list[str]
    watch: str
    demo: Demonstration | None


class Picture(TypedDict):
    """A rules-screen picture: a tiny level, and a step to draw as an arrow (or null)."""

    level: JsonObject
    arrow: Step | None


class ShownPicture(Picture):
    view: View


class RulesSection(TypedDict):
    key: str
    title: str
    text: list[str]
    picture: ShownPicture


class RulesAnswer(TypedDict):
    basics: list[RulesSection]
    mechanics: list[RulesSection]


class Reason(TypedDict):
    """Why a draft cannot be solved, found without a search
    (:func:`~gridforge.snakes.editor.diagnose.reasons`): the cells to outline and the words."""

    kind: str
    color: int
    cells: list[list[int]]
    text: str


class DraftAnswer(TypedDict):
    """A draft in the editor, what still stops it from being played (``issues``, each
    ``{path, code, message}``, worded by the page's contract) and its SHA-256 once whole."""

    level: LevelJson
    issues: list[dict[str, str]]
    ok: bool
    sha256: str | None
