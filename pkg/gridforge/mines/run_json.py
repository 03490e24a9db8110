"""The JSON shapes of a mines run (B1): what a run answers the page (views, settlements,
battle summaries, hints, telemetry) and the steps a save records, as TypedDicts.

Types only: the run (:mod:`gridforge.mines.run`), its words (:mod:`gridforge.mines.run_words`)
and its saves (:mod:`gridforge.mines.saved`) build and read them.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from gridforge.mines.events import Event
from gridforge.mines.hints import Hint, Part
from gridforge.mines.intents import IntentJson, OutcomeJson
from gridforge.mines.view import (
    BoardView,
    Offer,
)


# ---------------------------------------------------------------- the shapes of the JSON
class Said(TypedDict):
    """A line for the player (:func:`say`): plain words, the pieces, the cells it is about."""

    text: str
    parts: list[Part]
    cells: list[list[int]]


class Message(TypedDict):
    kind: str  # "info" | "success" | "error"
    text: str


class BattleJson(TypedDict):
    preset: str
    enemy: str
    hp: int
    attack: int


class RunTableJson(TypedDict):
    """A run table in its file format (``data/run.json``)."""

    format: str
    player_hp: int
    hints_per_battle: int
    settlement: dict[str, int]
    rewards: dict[str, int]
    battles: list[BattleJson]


class SettlementLine(TypedDict):
    """One line of a settlement, attributed to one event, with both sides after it."""

    source: str
    cell: list[int] | None
    target: str  # "enemy" | "player" | "enemy_attack" | "heal"
    amount: int
    enemy_hp_after: int
    player_hp_after: int
    attack_after: int


class WordedLine(SettlementLine):
    text: str
    parts: list[Part]


class BattleStats(TypedDict):
    """A battle's numbers so far."""

    battle: int
    enemy: str
    rounds: int
    boards: int
    cells_opened: int
    mines_dug: int
    flag_hits: int
    damage_dealt: int
    damage_taken: int
    hints_used: int
    player_hp_start: int


class BattleSummary(BattleStats):
    """A battle's numbers when it ended."""

    won: bool
    player_hp_end: int


class NamedSummary(BattleSummary):
    enemy_name: str


class Settlement(TypedDict):
    """A round's settlement as the run keeps it (no words: :func:`worded` adds them)."""

    round: int
    battle: int
    path_tag: str | None
    continuation_hint: str | None
    lines: list[SettlementLine]
    enemy_damage: int
    player_damage: int
    enemy_hp_before: int
    player_hp_before: int
    enemy_hp: int
    player_hp: int
    result: str  # "continue" | "battle_won" | "run_won" | "run_lost"
    battle_summary: BattleSummary | None
    sparks_earned: int
    player_healed: int


class ShowLine(TypedDict):
    """One line of the settlement's show: one cause and one group of cells (a dig and its
    chain strike once with their total; every flag that hit weakens the attack at once)."""

    cause: str  # strike overflow ambush shield flags clear blast sparks attack
    cells: list[list[int]]
    target: str
    amount: int
    enemy_hp_after: int
    player_hp_after: int
    attack_after: int
    text: str


class WordedSettlement(TypedDict):
    """A settlement with its words (:func:`worded`), fields in the page's order."""

    round: int
    battle: int
    path_tag: str | None
    path_text: str
    title: str
    continuation_hint: str | None
    lines: list[WordedLine]
    enemy_damage: int
    player_damage: int
    enemy_hp_before: int
    player_hp_before: int
    enemy_hp: int
    player_hp: int
    result: str
    battle_summary: NamedSummary | BattleSummary | None
    sparks_earned: int
    player_healed: int
    show: list[ShowLine]


class PageStep(TypedDict):
    """A step of a saved run that is no intent: a far click, continue, refresh, a paid hint,
    an offer picked, an item used."""

    do: str  # one of PAGE_STEPS
    cell: NotRequired[list[int]]  # a reach, or an item used on a cell
    offer: NotRequired[str]  # a pick only
    item: NotRequired[str]  # a use only


# A step as a saved run records it: an intent, or one of the page's own.
SavedStep = IntentJson | PageStep


class RoundJson(TypedDict):
    """The telemetry of one round."""

    battle: int
    board: int
    round: int
    input_actions: int
    ap_spent: int
    actions_per_ap: float | None
    batches: int
    chain_sizes: list[int]
    rejections: dict[str, int]


class TelemetryTotals(TypedDict):
    rounds: int
    input_actions: int
    ap_spent: int
    actions_per_ap: float | None
    rounds_over_guard: int
    batches: int
    batches_per_round: float | None
    chain_sizes: dict[str, int]
    rejections: dict[str, int]
    reason_words: dict[str, str]


class Telemetry(TypedDict):
    """A run's telemetry (format ``gridforge.mines.telemetry/1``)."""

    format: str
    seed: int
    guard_actions_per_ap: int
    totals: TelemetryTotals
    rounds: list[RoundJson]


class Pending(TypedDict):
    """What the round's events so far will settle to."""

    ambushes: int
    player_damage: int
    enemy_damage: int
    enemy_attack: int


class EnemyBar(TypedDict):
    pending: int


class PlayerBar(TypedDict):
    pending: int
    strike: int


class EnemyView(TypedDict):
    id: str  # the table's name in lower case with dashes (the page draws each enemy)
    name: str
    hp: int
    max_hp: int
    attack: int
    pending: int


class PlayerView(TypedDict):
    hp: int
    max_hp: int
    pending: int
    strike: int


class HintStock(TypedDict):
    left: int
    per_battle: int
    price: int
    can_ask: bool


class StopAsk(TypedDict):
    ap: int
    text: str
    confirm: str
    cancel: str


class Totals(TypedDict):
    """The run's numbers for the win and loss screens."""

    battles_won: int
    rounds: int
    cells_opened: int
    mines_dug: int
    flag_hits: int
    damage_dealt: int
    damage_taken: int
    player_hp: int


class ItemView(TypedDict):
    """An item the player holds, as the page draws it."""

    id: str
    charges: int
    spark_price: int
    target: bool  # used on a cell
    can_use: bool
    name: str
    effect: str


class OfferView(TypedDict):
    """An offer open between battles, as the page draws it."""

    id: str
    name: str
    effect: str


class Picked(TypedDict):
    accepted: bool
    picked: str
    messages: list[Message]
    step: SavedStep | None


class Used(TypedDict):
    """The answer to an item's use: ``result`` is a probe's answer (-1: a mine)."""

    accepted: bool
    item: str
    cell: list[int] | None
    result: int | None
    messages: list[Message]
    step: SavedStep | None


class RunView(TypedDict):
    """The run as the page draws it (:meth:`Run.view`), what a click does apart."""

    seed: int
    status: str  # "playing" | "settled" | "won" | "lost"
    battle: int
    battles: int
    enemy: EnemyView
    player: PlayerView
    board_no: int
    round: int
    phase: str
    ap: int
    ap_per_round: int
    rap: int
    refresh_cost: int
    can_refresh: bool
    can_continue: bool
    hints: HintStock
    stop_ask: StopAsk | None
    terms: dict[str, str]
    board: BoardView | None
    pending: Pending
    tip: str | None
    last_settlement: WordedSettlement | None
    battle_summaries: list[NamedSummary]
    totals: Totals
    sparks: int
    items: list[ItemView]
    shields: int
    blasts: int
    flag_weaken: int
    offers: list[OfferView]
    probed: list[list[int]]
    marked: list[list[int]]


class RunState(RunView):
    """The run whole (:meth:`Run.to_json`): its view and its offer."""

    offer: Offer


class Played(TypedDict):
    """The answer to an input (an intent, a click): outcomes, events, words, a settlement."""

    outcomes: list[OutcomeJson]
    outcome: OutcomeJson
    events: list[Event]
    log: list[Said]
    messages: list[Message]
    settlement: WordedSettlement | None
    step: SavedStep | None  # what the save records for this input (None: nothing)


class Refreshed(TypedDict):
    accepted: bool
    events: list[Event]
    log: list[Said]
    messages: list[Message]
    step: SavedStep | None


class Continued(TypedDict):
    events: list[Event]
    log: list[Said]
    messages: list[Message]
    step: SavedStep | None


class RunHint(Hint):
    """A hint at its price (:meth:`Run.hint`)."""

    refused: bool
    price: int
    hints_left: int
    step: SavedStep | None
