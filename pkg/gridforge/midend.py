"""The midend: both games' play, held by id, over one backend interface per game.

The lesson of Simon Tatham's collection: one midend over a backend per game. A game's
backend (:class:`Backend`) says how to open a game, read a save, play one intent, and what
the page draws and may offer; this module holds every game in play by the id it answered
and does, once for both games, what play around the rules needs:

- ids: an opening verb (:meth:`Midend.open`, :meth:`Midend.resume`) answers an id; every
  other verb takes it first; past :attr:`Backend.limit` the oldest game is forgotten, and an
  id this worker does not hold is refused with :class:`UnknownSession` (the page then
  resumes from its save, after a reload or a worker restart);
- the history: the steps played (and, where the backend allows taking steps back, the
  positions before them): undo, redo and restart;
- the save: the backend's header (which level, which seed and rules) and the steps, then the
  steps undone (``redo``) for a backend that keeps them; resuming replays it, naming the step
  at fault;
- the answer envelope (:class:`Envelope`): ``id``; the ``view`` and ``offer`` in full when
  a game opens (and from :meth:`Midend.current`), else ``changes``: what changed since the
  last answer (:func:`changes`, applied in the page by contract.js and here by
  :func:`apply_changes`); the ``events`` of what was just played; ``refused``; the ``save``
  only when the answer changed it (a settled action), else null.

Every verb answers a :class:`Turn`: the envelope with what the game's page needs to add its
own fields (the game, its steps, the view just drawn, what its backend's play answered), so
that a page builds its answer from one call and never asks the midend again by id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypedDict, TypeVar

from gridforge.errors import GridforgeError, Issue, ValidationError
from gridforge.jsontypes import JsonObject

G = TypeVar("G")  # a game in play, as its backend keeps it
P = TypeVar("P")  # a position of a game, kept for undo
V = TypeVar("V")  # what the page draws (a view)
F = TypeVar("F")  # what the page may offer (an offer)
E = TypeVar("E")  # an event: what a step did
S = TypeVar("S")  # a step as the save records it (JSON)
X = TypeVar("X")  # what else a played step answers (the game's own fields)
V_co = TypeVar("V_co", covariant=True)
F_co = TypeVar("F_co", covariant=True)

TOO_LONG = "too_long"


class UnknownSession(GridforgeError):
    """An id this worker does not hold (closed, forgotten past the limit, or opened by a
    worker that has since been replaced): resume from the save."""


class Unreplayable(GridforgeError):
    """A saved step that does not replay; its message says why (the midend adds where)."""


class Refusal(TypedDict):
    reason: str
    message: str


Change = list[object]  # [path, value]: the value now at ``path`` (keys and indices)
Save = dict[str, object]  # the backend's header, then ``steps`` (and ``redo``)


class Envelope(TypedDict, Generic[V, F, E, S]):
    """Every play answer's common part, for both games."""

    id: str
    view: V | None  # in full when the game opened; else null and ``changes`` say what changed
    offer: F | None
    changes: list[Change] | None
    events: list[E]
    refused: Refusal | None
    save: Save | None  # when this answer changed the game, else null


@dataclass
class Played(Generic[E, S, X]):
    """What playing one intent did: the step the save records (None: nothing to record),
    the events, the refusal (nothing played) and the game's own answer fields."""

    record: S | None
    events: list[E]
    extra: X
    refused: str | None = None


@dataclass
class Resumed(Generic[G, S]):
    """A save read by its backend: a new game at the start and the steps to replay."""

    game: G
    steps: list[S]
    redo: list[S] = field(default_factory=list)


@dataclass
class Turn(Generic[G, V, F, E, S, X]):
    """A verb's answer (:class:`Envelope`) and what the page adds its own fields from: the
    game's id and the game, the steps played, the view just drawn and what the backend's
    play answered (None when nothing was played)."""

    id: str
    envelope: Envelope[V, F, E, S]
    game: G
    steps: int
    view: V
    extra: X | None = None


class Backend(Protocol[G, P, V_co, F_co, E, S, X]):
    """One game's part under the midend."""

    what: str  # names a game in errors ("snakes session", "mines run")
    prefix: str  # its ids' prefix
    limit: int  # games held at once
    max_steps: int  # steps a game in play keeps (played and undone)
    undoable: bool  # whether steps can be taken back (undo, redo, restart)
    save_what: str  # names the save in errors ("snakes save", "saved run")

    def new(self, spec: object) -> G:
        """A new game at its start (``spec``: the level, or the seed)."""

    def read_save(self, spec: object, save: object) -> Resumed[G, S]:
        """Check ``save`` (for ``spec``): a new game and the steps the save holds.

        :raises ValidationError: naming the field at fault; nothing is opened then."""

    def header(self, game: G) -> JsonObject:
        """The save's fields before its steps (which level, which seed and rules)."""

    def play(self, game: G, intent: object) -> Played[E, S, X]:
        """Play one intent from the page (a refusal or a recorded step)."""

    def replay(self, game: G, step: S) -> None:
        """Play a step the save recorded; :class:`Unreplayable` when it does not replay."""

    def replay_issue(self, key: str, index: int, reason: str) -> Issue:
        """The issue naming saved step ``index`` of ``key`` (``steps`` or ``redo``)."""

    def position(self, game: G) -> P:
        """The game's position, kept to take a step back (undoable backends only)."""

    def restore(self, game: G, position: P) -> None:
        """Put the game back at ``position``."""

    def finished(self, game: G) -> bool:
        """Whether the game is over (no step is taken back then)."""

    def view(self, game: G) -> V_co:
        """What the page draws."""

    def offer(self, game: G, can_undo: bool, can_redo: bool) -> F_co:
        """What the page may offer now."""

    def refusal(self, reason: str) -> str:
        """A refusal's reason in the player's words."""


@dataclass
class Entry(Generic[G, P, S]):
    """One game in play: the backend's game and the midend's history of it."""

    game: G
    steps: list[S] = field(default_factory=list)  # played, then undone (from ``cursor``)
    positions: list[P] = field(default_factory=list)  # before each played step (undoable)
    cursor: int = 0
    shown: dict[str, object] | None = None  # the view and offer the page holds


class Midend(Generic[G, P, V, F, E, S, X]):
    """The games in play of one backend, by id."""

    def __init__(self, backend: Backend[G, P, V, F, E, S, X]) -> None:
        if backend.limit < 1:
            raise ValueError("a midend holds at least one game")
        self.backend = backend
        self.entries: dict[str, Entry[G, P, S]] = {}
        self.count = 0

    # ------------------------------------------------------------------ ids
    def entry(self, game_id: object) -> Entry[G, P, S]:
        """The game named ``game_id``; :class:`UnknownSession` when there is none."""
        if not isinstance(game_id, str) or game_id not in self.entries:
            shown = repr(game_id) if isinstance(game_id, str | int | None) \
                else type(game_id).__name__
            raise UnknownSession(f"unknown {self.backend.what} {shown[:40]}")
        return self.entries[game_id]

    def game(self, game_id: object) -> G:
        """The backend's game named ``game_id`` (for the game's own verbs)."""
        return self.entry(game_id).game

    def _add(self, entry: Entry[G, P, S]) -> str:
        self.count += 1
        game_id = f"{self.backend.prefix}{self.count}"
        self.entries[game_id] = entry
        while len(self.entries) > self.backend.limit:
            del self.entries[next(iter(self.entries))]
        return game_id

    def close(self, game_id: object) -> bool:
        """Forget a game; ``False`` when it was not held."""
        return isinstance(game_id, str) and self.entries.pop(game_id, None) is not None

    def __len__(self) -> int:
        return len(self.entries)

    # ------------------------------------------------------------------ opening
    def open(self, spec: object) -> Turn[G, V, F, E, S, X]:
        """Open a new game on ``spec``: its first answer (view and save in full)."""
        entry: Entry[G, P, S] = Entry(self.backend.new(spec))
        return self._answer(self._add(entry), entry, [], None, saved=True)

    def resume(self, spec: object, save: object) -> Turn[G, V, F, E, S, X]:
        """Open a game where ``save`` left it: the one replay of play (its steps, then its
        ``redo``, undone again).

        :raises ValidationError: naming the field or step at fault; nothing is opened."""
        backend = self.backend
        resumed = backend.read_save(spec, save)
        entry: Entry[G, P, S] = Entry(resumed.game)
        for key, steps in (("steps", resumed.steps), ("redo", resumed.redo)):
            for i, step in enumerate(steps):
                if backend.undoable:
                    entry.positions.append(backend.position(entry.game))
                try:
                    backend.replay(entry.game, step)
                except Unreplayable as exc:
                    raise ValidationError([backend.replay_issue(key, i, str(exc))],
                                          backend.save_what) from None
                entry.steps.append(step)
                entry.cursor += 1
        for _ in resumed.redo:
            self._back(entry)
        return self._answer(self._add(entry), entry, [], None, saved=True)

    # ------------------------------------------------------------------ play
    def play(self, game_id: object, intent: object) -> Turn[G, V, F, E, S, X]:
        """Play one intent: the answer (``refused`` when the rules or the step limit refuse)
        with the game's own answer fields (``extra``: None when refused by the limit)."""
        entry = self.entry(game_id)
        backend = self.backend
        if entry.cursor >= backend.max_steps:
            return self._answer(str(game_id), entry, [], TOO_LONG)
        position = backend.position(entry.game) if backend.undoable else None
        played = backend.play(entry.game, intent)
        if played.record is not None:
            del entry.steps[entry.cursor:]
            del entry.positions[entry.cursor:]
            if position is not None:
                entry.positions.append(position)
            entry.steps.append(played.record)
            entry.cursor += 1
        return self._answer(str(game_id), entry, played.events, played.refused,
                            saved=played.record is not None, extra=played.extra)

    def undo(self, game_id: object) -> Turn[G, V, F, E, S, X]:
        """Take back the last step (it goes to redo); nothing once the game is over."""
        entry = self._undoable(game_id)
        changed = entry.cursor > 0 and not self.backend.finished(entry.game)
        if changed:
            self._back(entry)
        return self._answer(str(game_id), entry, [], None, saved=changed)

    def redo(self, game_id: object) -> Turn[G, V, F, E, S, X]:
        """Play again the first step undone; nothing once the game is over."""
        entry = self._undoable(game_id)
        backend = self.backend
        if self.backend.finished(entry.game) or entry.cursor >= len(entry.steps):
            return self._answer(str(game_id), entry, [], None)
        position = backend.position(entry.game)
        played = backend.play(entry.game, entry.steps[entry.cursor])
        if played.record is None:  # a recorded step always plays again; never drop one
            return self._answer(str(game_id), entry, [], played.refused)
        entry.positions.append(position)
        entry.cursor += 1
        return self._answer(str(game_id), entry, played.events, None, saved=True,
                            extra=played.extra)

    def restart(self, game_id: object) -> Turn[G, V, F, E, S, X]:
        """Back to the start, with no steps and nothing to redo."""
        entry = self._undoable(game_id)
        if entry.positions:
            self.backend.restore(entry.game, entry.positions[0])
        entry.steps.clear()
        entry.positions.clear()
        entry.cursor = 0
        return self._answer(str(game_id), entry, [], None, saved=True)

    def current(self, game_id: object) -> Turn[G, V, F, E, S, X]:
        """The game's answer as it stands, with the view, offer and save in full (the page
        asks this when it holds no copy of them)."""
        entry = self.entry(game_id)
        entry.shown = None
        return self._answer(str(game_id), entry, [], None, saved=True)

    def save(self, game_id: object) -> Save:
        """What the page stores to resume the game."""
        return self._save(self.entry(game_id))

    # ------------------------------------------------------------------ inside
    def _undoable(self, game_id: object) -> Entry[G, P, S]:
        entry = self.entry(game_id)
        if not self.backend.undoable:
            raise GridforgeError(f"a {self.backend.what} cannot take steps back")
        return entry

    def _back(self, entry: Entry[G, P, S]) -> None:
        entry.cursor -= 1
        self.backend.restore(entry.game, entry.positions.pop())

    def _save(self, entry: Entry[G, P, S]) -> Save:
        out: Save = {**self.backend.header(entry.game), "steps": entry.steps[:entry.cursor]}
        if self.backend.undoable:
            out["redo"] = entry.steps[entry.cursor:]
        return out

    def _answer(self, game_id: str, entry: Entry[G, P, S], events: list[E],
                refused: str | None, saved: bool = False,
                extra: X | None = None) -> Turn[G, V, F, E, S, X]:
        backend = self.backend
        game = entry.game
        over = backend.finished(game)
        can_undo = backend.undoable and not over and entry.cursor > 0
        can_redo = backend.undoable and not over and entry.cursor < len(entry.steps)
        view, offer = backend.view(game), backend.offer(game, can_undo, can_redo)
        shown: dict[str, object] = {"view": view, "offer": offer}
        before, entry.shown = entry.shown, shown
        envelope: Envelope[V, F, E, S] = {
            "id": game_id,
            "view": view if before is None else None,
            "offer": offer if before is None else None,
            "changes": None if before is None else changes(before, shown),
            "events": events,
            "refused": None if refused is None else {"reason": refused,
                                                     "message": backend.refusal(refused)},
            "save": self._save(entry) if saved else None,
        }
        return Turn(game_id, envelope, game, entry.cursor, view, extra)


# ---------------------------------------------------------------------- changes
def changes(before: object, after: object) -> list[Change]:
    """What turns ``before`` into ``after``: ``[path, value]`` pairs, the value now at each
    path (object keys and list indices). Objects with the same keys and lists of the same
    length are compared member by member; anything else that differs is given whole. Values
    compare as Python compares them (``1 == True``): a field that keeps its kind is exact."""
    out: list[Change] = []
    _diff(before, after, [], out)
    return out


def _diff(before: object, after: object, path: list[object], out: list[Change]) -> None:
    # Equal parts are skipped whole (compared in C, not member by member). As in Python,
    # 1 == 1.0 == True here: a view keeps each field's kind, so only a change of value counts.
    if type(before) is type(after) and before == after:
        return
    if isinstance(before, dict) and isinstance(after, dict) and before.keys() == after.keys():
        for key, value in after.items():
            _diff(before[key], value, [*path, key], out)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, value in enumerate(after):
            _diff(before[i], value, [*path, i], out)
    else:
        out.append([path, after])


def apply_changes(value: object, changed: Sequence[Change]) -> object:
    """``value`` with ``changed`` applied (:func:`changes`' inverse); ``value`` is copied
    along the changed paths only, never changed itself."""
    for path, new in changed:
        assert isinstance(path, list)
        value = _set(value, path, new)
    return value


def _set(value: object, path: list[object], new: object) -> object:
    if not path:
        return new
    key, rest = path[0], path[1:]
    if isinstance(value, dict) and isinstance(key, str) and key in value:
        return {**value, key: _set(value[key], rest, new)}
    if (isinstance(value, list) and isinstance(key, int) and not isinstance(key, bool)
            and 0 <= key < len(value)):
        copy = list(value)
        copy[key] = _set(value[key], rest, new)
        return copy
    raise GridforgeError(f"a change's path {path!r:.80} is not in the value")


__all__ = [
    "TOO_LONG",
    "Backend",
    "Change",
    "Envelope",
    "Midend",
    "Played",
    "Refusal",
    "Resumed",
    "Save",
    "Turn",
    "UnknownSession",
    "Unreplayable",
    "apply_changes",
    "changes",
]
