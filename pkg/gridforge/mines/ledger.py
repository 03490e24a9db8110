"""The AP ledger (seed 000's A3, as much of it as A2 needs): phases, AP, RAP, round ends.

A2 never touches AP itself: it asks :meth:`Ledger.try_spend` after its board-face checks,
reports every executed dig with :meth:`Ledger.request_dig` (chain size, clears-map fact),
and hands a stop over to :meth:`Ledger.request_stop`. The ledger arbitrates the round's end
with the priority ``cleared > stopped > ap_exhausted`` and records it in
:attr:`Ledger.last_round_end`; A2 copies that record into its board-path ``round_end``,
while the ledger emits the stopped ``round_end`` to its own subscribers (the seed's two
emitters, one payload shape).

Phases: ``idle`` (no round yet), ``active``, ``waiting`` (after any round end). Banking:
a stop banks the remaining AP into RAP 1:1; a cleared board forfeits it (A3 Rule 5); an
exhausted round has none left. RAP pays for a refresh of the board (``rap_refresh_cost``).

Prices live in one data file shipped with the package (``data/economy.json``); an
:class:`Economy` built with explicit values, or :func:`load_economy` with ``overrides``, is
the debug override that tests use (AC-21 needs ``flag_place_ap_cost = 2``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypedDict

from gridforge.errors import Issues, ValidationError, is_int, read_package_json, refusal
from gridforge.mines.events import RoundEnd, RoundEndRecord, round_end

ECONOMY_FORMAT = "gridforge.mines.economy/1"
ECONOMY_FIELDS = (
    "ap_per_round",
    "dig_ap_cost",
    "flag_place_ap_cost",
    "flag_pull_ap_cost",
    "rap_refresh_cost",
)
# try_spend kinds and the price field each one reads.
SPEND_KINDS = {
    "dig": "dig_ap_cost",
    "flag_place": "flag_place_ap_cost",
    "flag_pull": "flag_pull_ap_cost",
}

PHASES = ("idle", "active", "waiting")
PATH_TAGS = ("cleared", "stopped", "ap_exhausted")
CONTINUATION_HINTS = ("same_board", "new_board")

# Field order of a round-end record (and of the round_end event after its "type").
ROUND_END_FIELDS = (
    "path_tag",
    "continuation_hint",
    "round",
    "ap_forfeited",
    "rap_banked",
    "rap",
)

__all__ = [
    "CONTINUATION_HINTS",
    "ECONOMY_FIELDS",
    "PATH_TAGS",
    "PHASES",
    "ROUND_END_FIELDS",
    "Economy",
    "Ledger",
    "load_economy",
]



def _economy_issues(values: Mapping[str, object], base: str) -> Issues:
    issues = Issues()
    for key in values:
        if key not in ECONOMY_FIELDS:
            issues.add(f"{base}.{key}", "unknown_field", f"unknown price {key!r}")
    for key in ECONOMY_FIELDS:
        if key not in values:
            continue
        value = values[key]
        if not is_int(value) or value < 1:
            issues.add(f"{base}.{key}", "range", f"must be an integer >= 1, got {value!r}")
    return issues


def _file_defaults() -> dict[str, int]:
    what = "gridforge/mines/data/economy.json"
    data = read_package_json("gridforge.mines", "data/economy.json",
                             expect_format=ECONOMY_FORMAT)
    values = data.get("action_economy")
    if not isinstance(values, dict):
        raise refusal(what, "action_economy", "type", "action_economy must be an object")
    issues = _economy_issues(values, "action_economy")
    missing = [k for k in ECONOMY_FIELDS if k not in values]
    for key in missing:
        issues.add(f"action_economy.{key}", "missing", "missing price")
    if issues:
        raise ValidationError(issues, what)
    return {k: values[k] for k in ECONOMY_FIELDS}


_DEFAULTS: dict[str, int] | None = None


def _defaults() -> dict[str, int]:
    global _DEFAULTS
    if _DEFAULTS is None:
        _DEFAULTS = _file_defaults()
    return dict(_DEFAULTS)


class Economy:
    """The A3 price list. Every value omitted is read from the package's data file.

    :raises ValidationError: when a value is not an integer >= 1.
    """

    __slots__ = ECONOMY_FIELDS

    ap_per_round: int
    dig_ap_cost: int
    flag_place_ap_cost: int
    flag_pull_ap_cost: int
    rap_refresh_cost: int

    def __init__(
        self,
        ap_per_round: int | None = None,
        dig_ap_cost: int | None = None,
        flag_place_ap_cost: int | None = None,
        flag_pull_ap_cost: int | None = None,
        rap_refresh_cost: int | None = None,
    ) -> None:
        given = {
            "ap_per_round": ap_per_round,
            "dig_ap_cost": dig_ap_cost,
            "flag_place_ap_cost": flag_place_ap_cost,
            "flag_pull_ap_cost": flag_pull_ap_cost,
            "rap_refresh_cost": rap_refresh_cost,
        }
        explicit = {k: v for k, v in given.items() if v is not None}
        if issues := _economy_issues(explicit, "action_economy"):
            raise ValidationError(issues, "economy")
        values = _defaults()
        values.update(explicit)
        for key in ECONOMY_FIELDS:
            object.__setattr__(self, key, values[key])

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Economy is immutable")

    def __copy__(self) -> Economy:
        return self  # immutable

    def __deepcopy__(self, memo: dict[int, object]) -> Economy:
        return self

    def price(self, kind: str) -> int:
        """The AP price of a paid action kind (``dig``, ``flag_place``, ``flag_pull``)."""
        return int(getattr(self, SPEND_KINDS[kind]))

    def to_json(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in ECONOMY_FIELDS}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Economy) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(tuple(self.to_json().values()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v}" for k, v in self.to_json().items())
        return f"Economy({inner})"


def load_economy(overrides: Mapping[str, object] | None = None) -> Economy:
    """The data file's prices with debug ``overrides`` applied.

    Keys may be bare (``flag_place_ap_cost``) or qualified (``action_economy.flag_place_ap_cost``).

    :raises ValidationError: naming an unknown key or a bad value.
    """
    if overrides is None:
        return Economy()
    if not isinstance(overrides, Mapping):
        raise refusal("economy", "economy", "type", "overrides must be an object")
    flat: dict[str, object] = {}
    for key, value in overrides.items():
        name = str(key).removeprefix("action_economy.")
        flat[name] = value
    if issues := _economy_issues(flat, "action_economy"):
        raise ValidationError(issues, "economy")
    return Economy(**{k: v for k, v in flat.items() if is_int(v)})  # all are, checked above


Listener = Callable[[RoundEnd], None]


class LedgerView(TypedDict):
    """The ledger's observables (:meth:`Ledger.to_json`)."""

    phase: str
    ap: int
    rap: int
    round: int
    settled: bool
    last_round_end: RoundEndRecord | None
    economy: dict[str, int]


class Ledger:
    """A3: the round's phase, AP and banked RAP, and the arbiter of round ends."""

    def __init__(self, economy: Economy | None = None) -> None:
        self.economy = economy if economy is not None else Economy()
        self.phase = "idle"
        self.ap = 0
        self.rap = 0
        self.round = 0
        self.last_round_end: RoundEndRecord | None = None
        self.settled = False
        self.settlement_hint: str | None = None
        self.diagnostics: list[dict[str, str]] = []
        self._listeners: list[Listener] = []
        self._dig_pending = False
        self._refresh_granted = False

    # ------------------------------------------------------------ observers
    def subscribe(self, listener: Listener) -> None:
        """Receive the A3 face of the event stream: the stopped ``round_end``."""
        self._listeners.append(listener)

    def price(self, kind: str) -> int:
        """The AP price of ``kind`` (``dig``, ``flag_place``, ``flag_pull``)."""
        return self.economy.price(kind)

    def can_afford(self, kind: str) -> bool:
        """Read-only: whether ``try_spend(kind)`` would succeed now."""
        return self.phase == "active" and kind in SPEND_KINDS and self.ap >= self.price(kind)

    @property
    def refresh_granted(self) -> bool:
        """Whether a paid refresh is waiting for its new board."""
        return self._refresh_granted

    def reset_diagnostics(self) -> None:
        self.diagnostics.clear()

    def _debug(self, category: str, message: str) -> bool:
        self.diagnostics.append({"level": "debug", "category": category, "message": message})
        return False

    # ------------------------------------------------------- orchestration
    def notify_round_start(self) -> bool:
        """Start a round: idle or settled waiting -> active, AP set to ``ap_per_round``."""
        if self.phase == "active":
            return self._debug("round_start_phase", "round start while a round is active")
        if self.phase == "waiting" and not self.settled:
            return self._debug("round_start_unsettled", "round start before settlement done")
        self.phase = "active"
        self.ap = self.economy.ap_per_round
        self.round += 1
        self.settled = False
        self.settlement_hint = None
        self._dig_pending = False
        self._refresh_granted = False
        return True

    def notify_settlement_done(self, continuation_hint: str = "same_board") -> bool:
        """Mark the ended round settled; ``new_board`` means a new board comes first."""
        if continuation_hint not in CONTINUATION_HINTS:
            message = f"unknown continuation hint {continuation_hint!r}"
            return self._debug("settlement_hint", message)
        if self.phase != "waiting" or self.settled:
            return self._debug("settlement_phase", "settlement done outside an unsettled round end")
        self.settled = True
        self.settlement_hint = continuation_hint
        return True

    def request_refresh(self) -> bool:
        """Pay ``rap_refresh_cost`` RAP for a fresh board within the active round."""
        if self.phase != "active" or self._refresh_granted:
            return self._debug("refresh_phase", "refresh only once within an active round")
        if self.rap < self.economy.rap_refresh_cost:
            return False
        self.rap -= self.economy.rap_refresh_cost
        self._refresh_granted = True
        return True

    def take_refresh(self) -> bool:
        """Consume a granted refresh (the engine's install in an active round)."""
        granted = self._refresh_granted
        self._refresh_granted = False
        return granted

    # ---------------------------------------------------------- A2 contract
    def try_spend(self, kind: str) -> bool:
        """The only way AP is spent: deduct the price of ``kind`` if active and affordable.

        A flag spend that leaves no AP ends the round at once (ap_exhausted): flags never
        change the opened set, so nothing can clear the map in that transaction. A dig's
        end is arbitrated by :meth:`request_dig`, when its clears-map fact is known.
        """
        if not self.can_afford(kind):
            return False
        self.ap -= self.price(kind)
        if kind == "dig":
            self._dig_pending = True
        elif self.ap == 0:
            self._end("ap_exhausted")
        return True

    def request_dig(self, chain_size: int, clears_map: bool) -> None:
        """Report an executed dig; arbitrate cleared > ap_exhausted."""
        if not self._dig_pending:
            self._debug("request_dig_unpaid", "request_dig without a paid dig")
            return
        self._dig_pending = False
        if clears_map:
            self._end("cleared")
        elif self.ap == 0:
            self._end("ap_exhausted")

    def request_stop(self) -> bool:
        """End the round by the player's stop: bank the remaining AP, emit round_end."""
        if self.phase != "active":
            return self._debug("stop_phase", "stop outside an active round")
        self._end("stopped")
        return True

    def _end(self, path_tag: str) -> None:
        forfeited = banked = 0
        if path_tag == "stopped":
            banked = self.ap
            self.rap += banked
        else:
            forfeited = self.ap
        self.ap = 0
        self.phase = "waiting"
        self.settled = False
        self._dig_pending = False
        self._refresh_granted = False
        hint = "new_board" if path_tag == "cleared" else "same_board"
        self.last_round_end = {"path_tag": path_tag, "continuation_hint": hint,
                               "round": self.round, "ap_forfeited": forfeited,
                               "rap_banked": banked, "rap": self.rap}  # ROUND_END_FIELDS
        if path_tag == "stopped":
            for listener in list(self._listeners):
                listener(round_end(self.last_round_end))

    def to_json(self) -> LedgerView:
        """The ledger's observables as a JSON-ready dict."""
        return {
            "phase": self.phase,
            "ap": self.ap,
            "rap": self.rap,
            "round": self.round,
            "settled": self.settled,
            "last_round_end": None if self.last_round_end is None else self.last_round_end.copy(),
            "economy": self.economy.to_json(),
        }
