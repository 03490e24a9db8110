"""B1, minimal and provisional: a run of battles on generated boards, settled from events.

The seed leaves round orchestration (B1) undesigned; ``spec/mines.md`` fixes its minimal
shape and this module builds it on the engine (A2), the ledger (A3) and the generator (A1):

- a run is a sequence of battles (``data/run.json``); each battle has an enemy with hit
  points and an attack, and is fought in rounds of ``ap_per_round`` AP on boards from A1;
- settlement happens at the Waiting phase (B1 obligation 1: it is triggered by the phase,
  not by the order events arrive in) and every line is attributed to one event (pillar P2):
  each reward-eligible safe cell hurts the enemy, a flag judged hit weakens the attack that
  ends this round (once per mine and board, however often it is judged again: B1
  obligation 3; ``docs/mines-run.md`` says why the cut lasts one round), a dug mine
  is an ambush that hurts the player, a cleared board pays a clear bonus; initial-expansion
  cells never pay (B1 obligation 2). An enemy still standing then attacks;
- the battle is won when the enemy falls, the run lost when the player does; later battles
  grow the board and its density and unlock fog (the presets of ``data/presets.json``);
- every board that ends (cleared, its battle won, the run over) is retired with
  ``retire_board`` before the next one is installed.

Every intent goes to ``settle_batch`` as a one-intent batch (D1 obligations 1 and 6); a
click on a far concealed cell is two of them (a move beside it, then the dig: the compound
intent of D1 data-supply item 13). Every number lives in the data file; every board seed
derives from the run's seed, so the same seed and the same steps replay the same run: the
seed, the table's fingerprint and the steps are all the page stores (the midend keeps the
steps, :mod:`gridforge.mines.backend`) and resuming rebuilds the run from them.

Everything the page receives is in the player's words and hides fog digits at the source
(:mod:`gridforge.mines.view`). The run also keeps the D1 telemetry of data-supply item 13
and A2's own metrics (format ``gridforge.mines.telemetry/1``, see ``docs/mines-run.md``).
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import NotRequired, TypedDict

from gridforge import errors, i18n
from gridforge.errors import (
    Field,
    GridforgeError,
    Issue,
    Issues,
    Schema,
    ValidationError,
    field_path,
    is_int,
    parse_json,
)
from gridforge.grid import Cell
from gridforge.i18n import Words
from gridforge.jsontypes import Json
from gridforge.mines.board import Board
from gridforge.mines.events import Event
from gridforge.mines.generate import MAX_SEED, generate, preset
from gridforge.mines.hints import Hint, Part, next_hint, no_hint, parts_text, ref
from gridforge.mines.intents import ActionOutcome, Intent, IntentJson, OutcomeJson
from gridforge.mines.ledger import SPEND_KINDS
from gridforge.mines.replay import Session
from gridforge.mines.rewards import (
    ITEMS,
    REWARD_KEYS,
    REWARDS_SCHEMA,
    TARGETED,
    RewardTable,
    dig_groups,
    draw_offers,
)
from gridforge.mines.view import (
    BoardView,
    Offer,
    board_view,
    move_tree,
    offer,
    page_event,
    stand_for,
)

RUN_FORMAT = "gridforge.mines.run/1"
SAVE_FORMAT = "gridforge.mines.saved-run/1"
TELEMETRY_FORMAT = "gridforge.mines.telemetry/1"
SETTLEMENT_KEYS = ("safe_cell_damage", "flag_hit_weaken", "mine_ambush_damage",
                   "clear_bonus_damage")
BATTLE_KEYS = ("preset", "enemy", "hp", "attack")
PAGE_STEPS = ("reach", "continue", "refresh", "hint", "pick", "use")
# Runs kept alive at once in the browser's interpreter; the oldest goes first.
MAX_RUNS = 8
# A saved run longer than this is refused (a real run takes a few thousand steps; an
# input that changes nothing is no step). Resuming replays every step: this bounds it.
MAX_STEPS = 20_000
# The seed's input-friction guard rail (data-supply item 13): input actions per AP spent.
FRICTION_GUARD = 2

__all__ = ["Battle", "Run", "RunTable", "load_run_table", "parse_saved"]

# The player's words (the catalogue's, gridforge.i18n, looked up when read: always in the
# call's language). Every refusal (D1 duty 6, data-supply item 10): the seed's reject_reason
# and sub_reason mapped to text.
REFUSALS = Words("mines.refusal", (
    "resource_face", "board_invalid", "not_adjacent", "target_revealed", "target_concealed",
    "flag_present", "flag_absent", "no_path", "out_of_catalog"))
# The same reasons as a stats panel counts them: a few words each (telemetry's
# ``reason_words``), plus "voided" (an intent that came after the round ended).
REASON_WORDS = Words("mines.reason", (
    "board_face", "resource_face", "phase", "board_invalid", "not_adjacent", "target_revealed",
    "target_concealed", "flag_present", "flag_absent", "no_path", "out_of_catalog", "voided",
    "rejected"))
PHASE_TEXT = Words("mines.phase", ("settled", "won", "lost", "playing"))
SOURCE_TEXT = Words("mines.source", ("safe_dig", "safe_chain", "flag_hit", "mine_ambush",
                                     "clear_bonus", "enemy_attack", "mine_shielded",
                                     "chain_overflow", "blast"))
TARGET_TEXT = Words("mines.target", ("enemy", "player", "enemy_attack", "heal"))
PATH_TEXT = Words("mines.path", ("cleared", "stopped", "ap_exhausted"))
# How a round ended, as the end of a sentence ("Round over: you stopped.").
ROUND_END_TEXT = Words("mines.round-end", ("cleared", "stopped", "ap_exhausted"))
# What took the player's last HP (the settlement line that did it).
FALL_TEXT = Words("mines.fall", ("enemy_attack", "mine_ambush"))


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


class Used(TypedDict):
    """The answer to an item's use: ``result`` is a probe's answer (-1: a mine)."""

    accepted: bool
    item: str
    cell: list[int] | None
    result: int | None
    messages: list[Message]


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


class Refreshed(TypedDict):
    accepted: bool
    events: list[Event]
    log: list[Said]
    messages: list[Message]


class Continued(TypedDict):
    events: list[Event]
    log: list[Said]
    messages: list[Message]


class RunHint(Hint):
    """A hint at its price (:meth:`Run.hint`)."""

    refused: bool
    price: int
    hints_left: int


def say(*parts: Part, cells: list[list[int]] | None = None) -> Said:
    """A line for the player that points at cells instead of numbering them: ``parts`` as
    in a hint (a piece ``{"cell": [x, y], "text": ...}`` names a cell the page highlights on
    hover or tap), ``text`` the plain words, ``cells`` every cell the line is about."""
    pointed = [p["cell"] for p in parts if isinstance(p, dict)]
    return {"text": parts_text(list(parts)), "parts": list(parts),
            "cells": [list(c) for c in (cells if cells is not None else pointed)]}


@dataclass(frozen=True)
class Battle:
    """One battle of a run: the board preset and the enemy."""

    preset: str
    enemy: str
    hp: int
    attack: int


@dataclass(frozen=True)
class RunTable:
    """The numbers of a run: the player's hit points, settlement values, the battles."""

    player_hp: int
    settlement: dict[str, int]
    battles: tuple[Battle, ...]
    # Hints a battle gives (the price of a hint: one from this stock; see docs/mines-run.md).
    hints_per_battle: int = 3
    # Sparks, overflow, offers and items (gridforge.mines.rewards); from_json requires them.
    rewards: RewardTable = field(default_factory=lambda: RewardTable({}))

    @classmethod
    def from_json(cls, data: object) -> RunTable:
        """Validate a run table; every problem is reported with its field path.

        :raises ValidationError: naming every faulty field; nothing is built then.
        """
        issues = Issues()
        table = _RUN_TABLE.read_all(_RUN_TABLE.root(data, "run table"), issues)
        issues.raise_if_any("run table")
        values = table.nested["settlement"]
        battles = tuple(Battle(b.text("preset"), b.text("enemy"), b.integer("hp"),
                               b.integer("attack")) for b in table.items["battles"])
        rewards = table.nested["rewards"]
        return cls(table.integer("player_hp"), {k: values.integer(k) for k in SETTLEMENT_KEYS},
                   battles, table.integer("hints_per_battle"),
                   RewardTable({k: rewards.integer(k) for k in REWARD_KEYS}))

    def to_json(self) -> RunTableJson:
        """The table in its file format (``from_json(to_json())`` gives it back)."""
        return {"format": RUN_FORMAT, "player_hp": self.player_hp,
                "hints_per_battle": self.hints_per_battle,
                "settlement": dict(self.settlement),
                "rewards": self.rewards.to_json(),
                "battles": [{"preset": b.preset, "enemy": b.enemy, "hp": b.hp,
                             "attack": b.attack} for b in self.battles]}

    def digest(self) -> str:
        """A short fingerprint of the numbers: a saved run replays only on the same table."""
        return _digest(self.to_json())


def _at_least(name: str, minimum: int) -> Field:
    """A run table's integer field of at least ``minimum`` (read as that when it is not)."""
    return Field(name, "int", "must be an integer >= {lo}, got {value!r}", lo=minimum,
                 fallback=minimum, cut=120)


def _is_preset(name: str) -> bool:
    try:
        preset(name)
    except GridforgeError:
        return False
    return True


# The run table's file format, declared once (RunTable.from_json reads it).
_BATTLE = Schema((
    Field("preset", "str", "preset is the name of a board preset", "type", fallback="",
          then=lambda name: None if _is_preset(name) else (
              "unknown", f"no board preset {name[:40]!r}")),
    Field("enemy", "str", "enemy is a non-empty name", "type", fallback="",
          test=lambda name: bool(name.strip())),
    _at_least("hp", 1), _at_least("attack", 0),
), not_object="a battle is an object", unknown="unknown field {short!r}")
_RUN_TABLE = Schema((
    Field("format", message=f"format must be {RUN_FORMAT!r}", code="format",
          choices=(RUN_FORMAT,)),
    _at_least("player_hp", 1), _at_least("hints_per_battle", 0),
    Field("settlement", "object", "settlement is an object", "type", nested=Schema(
        tuple(_at_least(key, 0) for key in SETTLEMENT_KEYS), unknown="unknown field {short!r}")),
    Field("rewards", "object", "rewards is an object", "type", nested=REWARDS_SCHEMA),
    Field("battles", "list", "battles is a non-empty list", "type", lo=1, items=_BATTLE),
), not_object="a run table is an object", unknown="unknown field {short!r}")


def _digest(table: RunTableJson) -> str:
    text = json.dumps(table, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def load_run_table(overrides: Mapping[str, Json] | None = None) -> RunTable:
    """The shipped run table, with top-level fields replaced by ``overrides`` (tests)."""
    text = resources.files("gridforge.mines").joinpath("data/run.json").read_text("utf-8")
    data = parse_json(text, "run table", expect_format=RUN_FORMAT)
    if overrides:
        data.update(overrides)
    return RunTable.from_json(data)


def settlement_title(result: str, path_tag: object, lines: list[WordedLine]) -> str:
    """The settlement's headline in the player's words: how the round ended when play goes
    on, and when the player fell, what took the last HP (a run lost after a Stop was the
    enemy's strike, not the Stop)."""
    if result == "run_lost":
        last = next((line["source"] for line in reversed(lines)
                     if line["target"] == "player" and line["amount"] > 0), "enemy_attack")
        return i18n.say("mines.fell", why=FALL_TEXT.get(last, FALL_TEXT["enemy_attack"]))
    if result == "run_won":
        return i18n.say("mines.run-won")
    if result == "battle_won":
        return i18n.say("mines.battle-won")
    ended = ROUND_END_TEXT.get(str(path_tag), PATH_TEXT.get(str(path_tag), str(path_tag)))
    return i18n.say("mines.round-over", ended=ended)


def worded(settlement: Settlement) -> WordedSettlement:
    """A settlement with its words added in the call's language (the run keeps none, so a
    settlement shown again after the page changed language is said in the new one): the
    headline ``title``, ``path_text`` and each line's ``text`` and ``parts``."""
    path_tag = settlement["path_tag"]
    lines: list[WordedLine] = []
    for entry in settlement["lines"]:
        words = SOURCE_TEXT.get(entry["source"], entry["source"])
        tail = i18n.say("mines.line-tail-heal" if entry["target"] == "heal" else
                        "mines.line-tail", target=TARGET_TEXT[entry["target"]],
                        amount=entry["amount"])
        said = say(ref(entry["cell"], words), tail) if entry["cell"] else say(words + tail)
        lines.append({**entry, "text": said["text"], "parts": said["parts"]})
    summary = settlement["battle_summary"]
    # The words stand where they always stood: before continuation_hint.
    return {"round": settlement["round"], "battle": settlement["battle"],
            "path_tag": path_tag, "path_text": PATH_TEXT.get(str(path_tag), str(path_tag)),
            "title": settlement_title(settlement["result"], path_tag, lines),
            "continuation_hint": settlement["continuation_hint"], "lines": lines,
            "enemy_damage": settlement["enemy_damage"],
            "player_damage": settlement["player_damage"],
            "enemy_hp_before": settlement["enemy_hp_before"],
            "player_hp_before": settlement["player_hp_before"],
            "enemy_hp": settlement["enemy_hp"], "player_hp": settlement["player_hp"],
            "result": settlement["result"],
            "battle_summary": named(summary) if summary else summary,
            "sparks_earned": settlement.get("sparks_earned", 0),
            "player_healed": settlement.get("player_healed", 0),
            "show": show_lines(settlement)}


# The settlement line sources and the cause each shows as (issue 51: one line per cause and
# cell group). A dig and its chain are one group; every flag that hit is one group.
_CAUSES = {"safe_dig": "strike", "safe_chain": "strike", "chain_overflow": "overflow",
           "mine_ambush": "ambush", "mine_shielded": "shield", "flag_hit": "flags",
           "clear_bonus": "clear", "enemy_attack": "attack", "blast": "blast"}


def show_lines(settlement: Settlement) -> list[ShowLine]:
    """The settlement as the page plays it: the lines grouped by cause and cell group (a
    dig strikes once with its chain's total; the flags weaken the attack at once; the sparks
    earned one line), each with both sides after it, in the player's words."""
    shown: list[ShowLine] = []
    for line in settlement["lines"]:
        cause = _CAUSES.get(line["source"], line["source"])
        cells = [line["cell"]] if line["cell"] else []
        last = shown[-1] if shown else None
        joins = last is not None and last["cause"] == cause and (
            cause in ("flags", "blast") or (cause == "strike" and line["source"] == "safe_chain"))
        if last is not None and joins:
            last["cells"] += cells
            last["amount"] += line["amount"]
            last.update({"enemy_hp_after": line["enemy_hp_after"],
                         "player_hp_after": line["player_hp_after"],
                         "attack_after": line["attack_after"]})
            continue
        shown.append({"cause": cause, "cells": cells, "target": line["target"],
                      "amount": line["amount"], "enemy_hp_after": line["enemy_hp_after"],
                      "player_hp_after": line["player_hp_after"],
                      "attack_after": line["attack_after"], "text": ""})
    sparks = settlement.get("sparks_earned", 0)
    if sparks and shown:
        at = len(shown) - (shown[-1]["cause"] == "attack")  # before the enemy strikes
        before = shown[max(0, at - 1)]
        shown.insert(at, {**before, "cause": "sparks", "cells": [], "target": "sparks",
                          "amount": sparks})
    for entry in shown:
        entry["text"] = i18n.say(f"mines.show.{entry['cause']}", amount=entry["amount"],
                                 cells=len(entry["cells"]))
    return shown


def named(summary: BattleSummary) -> NamedSummary:
    """A battle summary with its enemy's name in the call's language (``enemy_name``; the
    run keeps the table's name, so a summary shown after the language changed reads right)."""
    return {**summary, "enemy_name": enemy_name(summary["enemy"])}


def enemy_name(name: str) -> str:
    """An enemy of the run table by its name in the call's language (the table's own name
    when the catalogue has none: a table from a file)."""
    key = "mines.enemy." + name.lower().replace(" ", "-")
    return i18n.say(key) if i18n.has(key) else name


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
        raise ValidationError([Issue("date", "type", "date is a day as YYYY-MM-DD, got "
                                     f"{str(date)[:20]!r}")], "daily run")
    digest = hashlib.sha256(f"gridforge.mines.daily:{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 2**31


def board_seed(run_seed: int, battle: int, board_no: int) -> int:
    """The generator seed of a run's board: derived, so a run replays from its seed alone."""
    digest = hashlib.sha256(f"gridforge.mines.run:{run_seed}:{battle}:{board_no}".encode())
    return int.from_bytes(digest.digest()[:6], "big")


def outcome_text(outcome: ActionOutcome, intent: Intent, status: str) -> str | None:
    """The player's words for a refused or voided intent (None when it was executed)."""
    if outcome.outcome == "voided":
        return i18n.say(f"mines.too-late.{intent.kind}")
    if outcome.outcome != "rejected":
        return None
    if outcome.reject_reason == "phase":
        return PHASE_TEXT.get(status, PHASE_TEXT["playing"])
    if intent.kind in ("flag_place", "flag_pull") and outcome.sub_reason == "not_adjacent":
        return i18n.say("mines.too-far-flag")
    return REFUSALS.get(outcome.sub_reason or outcome.reject_reason or "",
                        i18n.say("mines.not-now"))


class _Round:
    """Telemetry of one round (D1 data-supply item 13 and A2's observable metrics)."""

    def __init__(self, battle: int, board: int, number: int) -> None:
        self.battle, self.board, self.number = battle, board, number
        self.inputs = 0
        self.ap_spent = 0
        self.batches = 0
        self.chains: list[int] = []
        self.rejections: dict[str, int] = {}

    def to_json(self) -> RoundJson:
        ratio = round(self.inputs / self.ap_spent, 3) if self.ap_spent else None
        return {"battle": self.battle, "board": self.board, "round": self.number,
                "input_actions": self.inputs, "ap_spent": self.ap_spent,
                "actions_per_ap": ratio, "batches": self.batches, "chain_sizes": self.chains,
                "rejections": dict(sorted(self.rejections.items()))}


class Run:
    """One run: a session (ledger + engine), the battle in progress and the settlements."""

    def __init__(self, seed: int, table: RunTable | None = None) -> None:
        if not is_int(seed) or not 0 <= seed <= MAX_SEED:
            shown = repr(seed) if is_int(seed) else type(seed).__name__
            raise ValidationError([Issue("seed", "range", f"seed must be an integer in "
                                         f"0..{MAX_SEED}, got {shown[:40]}")], "run")
        self.seed = seed
        self.table = table if table is not None else load_run_table()
        self.session = Session()
        self.player_hp = self.table.player_hp
        self.battle_index = 0
        self.status = "playing"  # playing | settled | won | lost
        self.settlements: list[Settlement] = []
        # The step the save records for the last input (None: nothing to record); the
        # midend keeps the steps (gridforge.mines.backend).
        self.last_step: SavedStep | None = None
        self.rounds: list[_Round] = []
        self.battle_summaries: list[BattleSummary] = []
        self.final_board: BoardView | None = None
        self._round_events: list[Event] = []
        # Rewards and items (gridforge.mines.rewards): all of it follows from the steps.
        rewards = self.table.rewards
        self.max_hp = self.table.player_hp
        self.sparks = 0
        self.items = rewards.starting_items()
        self.shields = 0  # shields armed: each absorbs one ambush
        self.blasts = 0  # blasts set off this round: they strike at its settlement
        self.flag_bonus = 0  # stronger flags: weaken more per hit
        self.hint_bonus = 0  # more hints a battle
        self.offers: list[str] = []  # open between battles, until one is picked
        self.picked: list[str] = []
        self._start_battle()
        self.session.ledger.notify_round_start()
        self._open_round()
        self.initial_events = self._drain()
        self._round_events = list(self.initial_events)

    # ------------------------------------------------------------ the battle
    @property
    def battle(self) -> Battle:
        return self.table.battles[self.battle_index]

    def _start_battle(self) -> None:
        self.enemy_hp = self.battle.hp
        self.board_no = 0
        self.hints_left = self.hints_per_battle()  # a new stock with every battle
        self._battle: BattleStats = {"battle": self.battle_index + 1,
                                        "enemy": self.battle.enemy,
                        "rounds": 0, "boards": 1, "cells_opened": 0, "mines_dug": 0,
                        "flag_hits": 0, "damage_dealt": 0, "damage_taken": 0,
                        "hints_used": 0, "player_hp_start": self.player_hp}
        self._install(self._next_board(), refresh=False)

    def _next_board(self) -> Board:
        seed = board_seed(self.seed, self.battle_index, self.board_no)
        return generate(self.battle.preset, seed, level=self.battle_index + 1).board

    def _install(self, board: Board, refresh: bool) -> bool:
        # Flags are judged once per mine and board (B1 obligation 3): a new board, a new key.
        if refresh:
            if not self.session.run_call("refresh", board):
                return False
        else:
            engine = self.session.engine
            if engine.board is not None and not engine.retire_board().accepted:
                raise GridforgeError("the ended board could not be retired")
            if not engine.install_board(board).accepted:
                raise GridforgeError("the generated board was refused by the engine")
        self.credited_mines: set[tuple[int, int]] = set()
        self.hinted: Cell | None = None  # the cell the last paid hint on this board named
        self.probed: dict[Cell, int] = {}  # a probe's answer: the digit, or -1 for a mine
        self.marked: list[Cell] = []  # the lantern's safe marks
        return True

    def hints_per_battle(self) -> int:
        """The hints a battle gives: the table's and the offers' picked."""
        return self.table.hints_per_battle + self.hint_bonus

    def _open_round(self) -> None:
        self.rounds.append(_Round(self.battle_index + 1, self.board_no + 1,
                                  self.session.ledger.round))

    def _drain(self) -> list[Event]:
        return self.session.drain()

    # ------------------------------------------------------------ settlement
    def _round_claims(self) -> list[tuple[str, list[int] | None, str, int]]:
        """What the ended round's events claim, in event order: ``(source, cell, target,
        amount)`` per settlement line to be; the battle's counters follow the events."""
        values = self.table.settlement
        claims: list[tuple[str, list[int] | None, str, int]] = []
        for event in self._round_events:
            if event["type"] == "cell_revealed":
                if event["kind"] == "mine":
                    if self.shields > 0:  # an armed shield absorbs the ambush
                        self.shields -= 1
                        claims.append(("mine_shielded", event["cell"], "player", 0))
                    else:
                        claims.append(("mine_ambush", event["cell"], "player",
                                       values["mine_ambush_damage"]))
                    self._battle["mines_dug"] += 1
                elif event["reward_eligible"]:  # initial cells never pay (B1 obligation 2)
                    claims.append((f"safe_{event['channel']}", event["cell"], "enemy",
                                   values["safe_cell_damage"]))
                    self._battle["cells_opened"] += 1
            elif event["type"] == "flag_judged" and event["hit"]:
                key = (event["cell"][0], event["cell"][1])
                if key not in self.credited_mines:
                    self.credited_mines.add(key)
                    self._battle["flag_hits"] += 1
                    claims.append(("flag_hit", event["cell"], "enemy_attack",
                                   values["flag_hit_weaken"] + self.flag_bonus))
            elif event["type"] == "round_end" and event["path_tag"] == "cleared":
                claims.append(("clear_bonus", None, "enemy", values["clear_bonus_damage"]))
        claims += [("blast", None, "enemy", self.table.rewards["blast_damage"])] * self.blasts
        self.blasts = 0
        # A chain's overflow past max_stack heals: one line a dig (obligation B1/B4-2).
        claims += [("chain_overflow", group["cells"][0], "heal", group["heal"])
                   for group in dig_groups(self._round_events, self.table.rewards)
                   if group["heal"] > 0]
        return claims

    def _settle(self) -> Settlement:
        """Settle the ended round from its events; every line names the event it comes from."""
        round_end = self.session.ledger.last_round_end
        enemy_before, player_before = self.enemy_hp, self.player_hp
        weakened = healed = 0
        lines: list[SettlementLine] = []
        sparks = sum(g["sparks"] for g in dig_groups(self._round_events, self.table.rewards))
        self.sparks += sparks
        for source, cell, target, amount in self._round_claims():
            if target == "enemy":
                self.enemy_hp = max(0, self.enemy_hp - amount)
            elif target == "enemy_attack":
                weakened += amount
            elif target == "heal":  # never past the maximum, never back from 0
                amount = min(amount, self.max_hp - self.player_hp) if self.player_hp else 0
                self.player_hp += amount
                healed += amount
            else:
                self.player_hp = max(0, self.player_hp - amount)
            # each line carries both sides after it: the page plays the round's end line
            # by line (issue 45) from these figures, computing nothing
            lines.append(self._line(source, cell, target, amount, weakened))
        if self.enemy_hp > 0 and self.player_hp > 0:
            attack = max(0, self.battle.attack - weakened)
            self.player_hp = max(0, self.player_hp - attack)
            lines.append(self._line("enemy_attack", None, "player", attack, weakened))
        self._battle["rounds"] += 1
        self._battle["damage_dealt"] += enemy_before - self.enemy_hp
        self._battle["damage_taken"] += player_before + healed - self.player_hp
        result = self._result()
        settlement: Settlement = {
            "round": self.session.ledger.round,
            "battle": self.battle_index + 1,
            "path_tag": round_end["path_tag"] if round_end else None,
            "continuation_hint": round_end["continuation_hint"] if round_end else None,
            "lines": lines,
            "enemy_damage": enemy_before - self.enemy_hp,
            "player_damage": player_before + healed - self.player_hp,
            "enemy_hp_before": enemy_before,
            "player_hp_before": player_before,
            "enemy_hp": self.enemy_hp,
            "player_hp": self.player_hp,
            "result": result,
            "battle_summary": None,
            "sparks_earned": sparks,
            "player_healed": healed,
        }
        if result in ("battle_won", "run_won", "run_lost"):
            summary: BattleSummary = {**self._battle, "won": result != "run_lost",
                                      "player_hp_end": self.player_hp}
            self.battle_summaries.append(summary)
            settlement["battle_summary"] = summary
        self.settlements.append(settlement)
        if result == "battle_won":
            self.offers = draw_offers(self.seed, self.battle_index + 1)
        self._round_events = []
        self.status = {"run_lost": "lost", "run_won": "won"}.get(result, "settled")
        if self.status in ("won", "lost"):
            # The run is over: keep the last board's picture, then let the board go.
            self.final_board = board_view(self.session.engine)
            self.session.engine.retire_board()
        return settlement

    def _result(self) -> str:
        """How a settled round leaves the run: lost, won, a battle won, or going on."""
        if self.player_hp == 0:
            return "run_lost"
        if self.enemy_hp == 0:
            last = self.battle_index == len(self.table.battles) - 1
            return "run_won" if last else "battle_won"
        return "continue"

    def _line(self, source: str, cell: list[int] | None, target: str, amount: int,
              weakened: int) -> SettlementLine:
        """A settlement line with both sides as they stand after it: HP and the attack to
        come."""
        return {"source": source, "cell": cell, "target": target, "amount": amount,
                "enemy_hp_after": self.enemy_hp, "player_hp_after": self.player_hp,
                "attack_after": max(0, self.battle.attack - weakened)}

    # ------------------------------------------------------------ player-facing
    def _batch(self, intent: Intent, current: _Round) -> tuple[ActionOutcome, list[Event]]:
        """One intent as a one-intent batch, with its telemetry; the page's events."""
        outcome = self.session.engine.settle_batch([intent])[0]
        events = self._drain()
        self._round_events += events
        current.batches += 1
        if outcome.outcome == "executed":
            if intent.kind in SPEND_KINDS:
                current.ap_spent += self.session.ledger.price(intent.kind)
            if intent.kind == "dig":
                current.chains.append(sum(1 for e in events if e["type"] == "cell_revealed"))
        else:
            reason = ("voided" if outcome.outcome == "voided"
                      else outcome.sub_reason or outcome.reject_reason or "rejected")
            current.rejections[reason] = current.rejections.get(reason, 0) + 1
        return outcome, events

    def _answer(self, intents: list[Intent], outcomes: list[ActionOutcome],
                events: list[Event], settlement: Settlement | None,
                status_before: str) -> Played:
        messages: list[Message] = []
        for intent, outcome in zip(intents, outcomes, strict=True):
            refusal = outcome_text(outcome, intent, status_before)
            if refusal is not None:
                messages.append({"kind": "error", "text": refusal})
        if not messages and not (settlement is not None and intents[-1].kind == "stop"):
            done = self._done_text(intents[-1], events)
            if done:
                messages.append({"kind": "info", "text": done})
        said = None if settlement is None else worded(settlement)
        if said is not None:
            messages.append({"kind": "success" if said["result"] != "run_lost"
                             else "error", "text": said["title"]})
        return {"outcomes": [o.to_json() for o in outcomes],
                "outcome": outcomes[-1].to_json(),
                "events": [page_event(e) for e in events],
                "log": log_lines(events, self.session.engine.board),
                "messages": messages, "settlement": said}

    def _done_text(self, intent: Intent, events: list[Event]) -> str | None:
        reveals = [e for e in events if e["type"] == "cell_revealed"]
        if intent.kind == "dig" and reveals:
            first = reveals[0]
            if first["kind"] == "mine":
                damage = self.table.settlement["mine_ambush_damage"]
                return i18n.say("mines.done.ambush", damage=damage)
            more = len(reveals) - 1
            return i18n.say("mines.done.chain", more=more) if more else i18n.say("mines.done.dug")
        if intent.kind in ("flag_place", "flag_pull", "stop"):
            return i18n.say(f"mines.done.{intent.kind}")
        return None

    def act(self, intent: Intent) -> Played:
        """Settle one intent (a one-intent batch); settle the round if it ended."""
        return self._run([intent], intent.to_json())

    def _run(self, intents: list[Intent], step: SavedStep,
             far: Cell | None = None) -> Played:
        status_before = self.status
        current = self.rounds[-1]
        current.inputs += 1  # one raw input action, however many intents it becomes
        self.last_step = step
        outcomes: list[ActionOutcome] = []
        events: list[Event] = []
        settlement: Settlement | None = None
        for k, intent in enumerate(intents):
            if k and (outcomes[-1].outcome != "executed" or self.status != "playing"):
                break  # the move of a far click was refused: no dig (its refusal is shown)
            outcome, new = self._batch(intent, current)
            outcomes.append(outcome)
            events += new
            if self.status == "playing" and self.session.ledger.phase == "waiting":
                settlement = self._settle()
        answer = self._answer(intents[:len(outcomes)], outcomes, events, settlement,
                              status_before)
        if far is not None and len(intents) == 1 and outcomes[0].outcome == "rejected" \
                and outcomes[0].sub_reason == "not_adjacent":
            answer["messages"] = [{"kind": "error", "text": i18n.say("mines.unreachable")}]
        return answer

    def primary(self, cell: Cell) -> Played:
        """A click, a tap, Space or Enter on ``cell``: move onto opened ground, dig a
        neighbour, or, for a far concealed cell, move beside it and dig it (two batches)."""
        engine = self.session.engine
        board = engine.board
        step: PageStep
        if board is None or not board.contains(cell):
            intent = Intent("dig", cell)
            return self._run([intent], intent.to_json())
        if engine.is_open(cell):
            intent = Intent("move", cell)
            return self._run([intent], intent.to_json())
        avatar = engine.avatar
        if (avatar is not None and cell in board.neighbours(avatar)) or self.status != "playing":
            intent = Intent("dig", cell)
            return self._run([intent], intent.to_json())
        step = {"do": "reach", "cell": [cell[0], cell[1]]}
        stand = stand_for(engine, cell)
        if stand is None:
            return self._run([Intent("dig", cell)], step, far=cell)
        return self._run([Intent("move", stand), Intent("dig", cell)], step, far=cell)

    def secondary(self, cell: Cell) -> Played:
        """A right click, a long press, F or a tap in flag mode: place or pull a flag."""
        kind = "flag_pull" if self.session.engine.has_flag(cell) else "flag_place"
        intent = Intent(kind, cell)
        return self._run([intent], intent.to_json())

    def refresh(self) -> Refreshed:
        """Pay the refresh price from RAP for a new board of the same battle."""
        if self.status != "playing":
            raise GridforgeError("a refresh is only possible during a round")
        self.last_step = {"do": "refresh"}
        self.board_no += 1
        accepted = self._install(self._next_board(), refresh=True)
        if not accepted:
            self.board_no -= 1
        else:
            self._battle["boards"] += 1
        events = self._drain()
        self._round_events += events
        text = (i18n.say("mines.refreshed") if accepted else i18n.say(
            "mines.refresh-refused", cost=self.session.ledger.economy.rap_refresh_cost))
        return {"accepted": accepted, "events": [page_event(e) for e in events],
                "log": log_lines(events, self.session.engine.board),
                "messages": [{"kind": "info" if accepted else "error", "text": text}]}

    def continue_run(self) -> Continued:
        """After a settlement: the next round, on a new board when the last one was cleared,
        or the next battle when the enemy fell."""
        if self.status != "settled":
            raise GridforgeError(f"nothing to continue: the run is {self.status}")
        self.last_step = {"do": "continue"}
        self.offers = []  # going on without a pick lets the offers go
        ledger, last = self.session.ledger, self.settlements[-1]
        new_board = last["result"] == "battle_won" or last["continuation_hint"] == "new_board"
        ledger.notify_settlement_done("new_board" if new_board else "same_board")
        if last["result"] == "battle_won":
            self.battle_index += 1
            self._start_battle()
        elif new_board:
            self.board_no += 1
            self._battle["boards"] += 1
            self._install(self._next_board(), refresh=False)
        ledger.notify_round_start()
        self._open_round()
        self.status = "playing"
        # The initial expansion of a new board belongs to the new round (it never pays).
        events = self._drain()
        self._round_events = list(events)
        what = (i18n.say("mines.next-battle", battle=self.battle_index + 1,
                         enemy=enemy_name(self.battle.enemy))
                if last["result"] == "battle_won" else
                i18n.say("mines.new-board") if new_board else i18n.say("mines.same-board"))
        return {"events": [page_event(e) for e in events],
                "log": log_lines(events, self.session.engine.board),
                "messages": [{"kind": "info", "text": i18n.say(
                    "mines.round-start", what=what, round=ledger.round, ap=ledger.ap)}]}

    # ------------------------------------------------------------ offers and items
    def pick_offer(self, kind: object) -> Picked:
        """Take one of the offers open between battles (``{"do": "pick"}`` in the save).

        :raises GridforgeError: when no offers are open or ``kind`` is not one of them
            (a tampered save): nothing changes then.
        """
        if not self.offers:
            raise GridforgeError("no offers are open: offers come after a battle is won")
        if not isinstance(kind, str) or kind not in self.offers:
            raise GridforgeError(f"{str(kind)[:40]!r} is not one of the offers open now "
                                 f"({', '.join(self.offers)})")
        rewards = self.table.rewards
        if kind == "heal":
            self.player_hp = min(self.max_hp, self.player_hp + rewards["heal"])
        elif kind in ITEMS:
            self.items[kind] += rewards.offer_charges(kind)
        elif kind == "flag":
            self.flag_bonus += rewards["flag_bonus"]
        elif kind == "hints":
            self.hint_bonus += rewards["hints_bonus"]
        else:
            self.sparks += rewards["sparks_bonus"]
        self.offers = []
        self.picked.append(kind)
        self.last_step = {"do": "pick", "offer": kind}
        return {"accepted": True, "picked": kind, "messages": [
            {"kind": "success", "text": i18n.say("mines.offer.taken",
                                                 name=i18n.say(f"mines.offer.{kind}.name"))}]}

    def item_price(self, item: str) -> tuple[str, int] | None:
        """What a use of ``item`` costs now: ``("charge", 1)``, ``("sparks", price)``, or
        None when neither is there."""
        if self.items[item] > 0:
            return ("charge", 1)
        price = self.table.rewards["item_spark_price"]
        return ("sparks", price) if self.sparks >= price else None

    def use_item(self, item: object, cell: Cell | None = None) -> Used:
        """Use an item during a round: one charge, or its price in sparks with none left.
        A use that cannot be made (no round, no charge nor sparks, a bad target) is refused
        with the reason and changes nothing; a use made is a step of the save."""
        self.last_step = None
        if not isinstance(item, str) or item not in ITEMS:
            raise GridforgeError(f"no item {str(item)[:40]!r}: items are {', '.join(ITEMS)}")
        price = self.item_price(item)
        refusal = self._item_refusal(item, cell, price)
        if refusal is not None:
            return {"accepted": False, "item": item, "cell": None, "result": None,
                    "messages": [{"kind": "error", "text": refusal}]}
        assert price is not None
        if price[0] == "charge":
            self.items[item] -= 1
        else:
            self.sparks -= price[1]
        self.rounds[-1].inputs += 1
        found = self._item_effect(item, cell)
        step: PageStep = {"do": "use", "item": item}
        if found is not None:
            step["cell"] = [found[0], found[1]]
        self.last_step = step
        result = self.probed.get(found) if item == "probe" and found is not None else None
        text = i18n.say(f"mines.item.{item}.done", digit=result if result is not None else 0)
        if item == "probe" and result == -1:
            text = i18n.say("mines.item.probe.mine")
        return {"accepted": True, "item": item,
                "cell": None if found is None else [found[0], found[1]], "result": result,
                "messages": [{"kind": "success", "text": text}]}

    def _item_refusal(self, item: str, cell: Cell | None, price: tuple[str, int] | None
                      ) -> str | None:
        """Why ``item`` cannot be used now on ``cell`` (None: it can)."""
        engine = self.session.engine
        board = engine.board
        if self.status != "playing" or self.session.ledger.phase != "active" or board is None:
            return i18n.say("mines.item.no-round")
        if price is None:
            return i18n.say("mines.item.no-charge",
                            price=self.table.rewards["item_spark_price"])
        if item in TARGETED:
            if cell is None or not board.contains(cell) or engine.is_open(cell) \
                    or cell in self.probed:
                return i18n.say(f"mines.item.{item}.target")
        elif item == "lantern" and self._lantern_cell() is None:
            return i18n.say("mines.item.lantern.none")
        return None

    def _item_effect(self, item: str, cell: Cell | None) -> Cell | None:
        """Apply a paid item; the cell it acted on (None: the shield)."""
        board = self.session.engine.board
        assert board is not None
        if item == "probe":
            assert cell is not None
            # A2's query face: the installed board answers; no event is emitted.
            digit = board.true_digit(cell)
            self.probed[cell] = -1 if digit is None else digit
            return cell
        if item == "lantern":
            found = self._lantern_cell()
            assert found is not None
            self.marked.append(found)
            return found
        if item == "blast":
            self.blasts += 1
        else:
            self.shields += 1
        return None

    def _lantern_cell(self) -> Cell | None:
        """The concealed safe cell nearest the avatar (Chebyshev distance, then row-major
        order) that is neither flagged, marked nor probed: what a lantern marks."""
        engine = self.session.engine
        board, avatar = engine.board, engine.avatar
        if board is None or avatar is None:
            return None
        known = set(self.marked) | set(self.probed)
        cells = [(x, y) for y in range(board.rows) for x in range(board.cols)
                 if not engine.is_open((x, y)) and not engine.has_flag((x, y))
                 and not board.is_mine((x, y)) and (x, y) not in known]
        if not cells:
            return None
        return min(cells, key=lambda c: (max(abs(c[0] - avatar[0]), abs(c[1] - avatar[1])),
                                         c[1], c[0]))

    def items_view(self) -> list[ItemView]:
        """Each item the player holds, its charges, and whether it can be used now."""
        playing = self.status == "playing" and self.session.ledger.phase == "active"
        return [{"id": item, "charges": self.items[item],
                 "spark_price": self.table.rewards["item_spark_price"],
                 "target": item in TARGETED,
                 "can_use": playing and self.item_price(item) is not None,
                 "name": i18n.say(f"mines.item.{item}.name"),
                 "effect": i18n.say(f"mines.item.{item}.effect")} for item in ITEMS]

    def offers_view(self) -> list[OfferView]:
        """The offers open now, in the player's words (empty: none open)."""
        rewards = self.table.rewards
        numbers = {"heal": rewards["heal"], "probe": rewards["probe_charges"],
                   "blast": rewards["blast_charges"],
                   "shield": rewards["shield_charges"], "lantern": rewards["lantern_charges"],
                   "flag": rewards["flag_bonus"], "hints": rewards["hints_bonus"],
                   "sparks": rewards["sparks_bonus"]}
        return [{"id": kind, "name": i18n.say(f"mines.offer.{kind}.name"),
                 "effect": i18n.say(f"mines.offer.{kind}.effect", amount=numbers[kind])}
                for kind in self.offers]

    # ------------------------------------------------------------ what the page sees
    def pending(self) -> Pending:
        """What the round's events so far will settle to (shown at once, before the end)."""
        values = self.table.settlement
        ambushes = safe = 0
        for event in self._round_events:
            if event["type"] == "cell_revealed":
                if event["kind"] == "mine":
                    ambushes += 1
                elif event["reward_eligible"]:
                    safe += 1
        hurt = max(0, ambushes - self.shields)  # armed shields absorb the first ambushes
        blasts = self.blasts * self.table.rewards["blast_damage"]
        return {"ambushes": ambushes,
                "player_damage": hurt * values["mine_ambush_damage"],
                "enemy_damage": safe * values["safe_cell_damage"] + blasts,
                "enemy_attack": self.battle.attack}

    def hp_bars(self) -> tuple[EnemyBar, PlayerBar]:
        """What the two HP bars draw beside the HP, for the enemy and for the player:
        ``pending``, the damage the round's events so far will settle (capped at the HP
        left), and for the player ``strike``, the enemy's attack at the round's end if both
        still stand then (a flag judged on a mine may yet weaken it). Zero between rounds."""
        if self.status != "playing":
            return {"pending": 0}, {"pending": 0, "strike": 0}
        pending = self.pending()
        enemy = min(self.enemy_hp, pending["enemy_damage"])
        player = min(self.player_hp, pending["player_damage"])
        stands = self.enemy_hp > enemy and self.player_hp > player
        strike = min(self.player_hp - player, self.battle.attack) if stands else 0
        return {"pending": enemy}, {"pending": player, "strike": strike}

    def stop_ask(self) -> StopAsk | None:
        """Whether Stop asks first (issue 45: it ends the round and lets the enemy strike,
        so with AP left it is a deliberate act), with the question in the player's words;
        None when Stop is not offered or no AP is left."""
        ledger = self.session.ledger
        if self.status != "playing" or ledger.phase != "active" or ledger.ap <= 0:
            return None
        enemy, player = self.hp_bars()
        # The figure the pending line shows beside it (issue 51: the same words and number):
        # the strike to come, or that the enemy falls first.
        falls = enemy["pending"] >= self.enemy_hp
        return {"ap": ledger.ap,
                "text": i18n.say("mines.stop-ask-falls" if falls else "mines.stop-ask",
                                 ap=ledger.ap, strike=player["strike"]),
                "confirm": i18n.say("mines.stop-confirm"),
                "cancel": i18n.say("mines.stop-cancel")}

    def tip(self) -> str | None:
        """A line for the player when the next move is not obvious (None otherwise)."""
        if self.status != "playing":
            return None
        engine, board = self.session.engine, self.session.engine.board
        if board is None or engine.avatar is None:
            return None
        if all(engine.is_open(n) or engine.has_flag(n) for n in board.neighbours(engine.avatar)):
            return i18n.say("mines.tip.walk")
        return i18n.say("mines.tip.dig")

    def proved_next(self) -> Hint:
        """The next cell logic proves from what the player sees and has marked, and why
        (what a hint says), without paying for it: what a player who deduces knows."""
        engine, board = self.session.engine, self.session.engine.board
        if board is None or self.status in ("won", "lost"):
            return _no_hint(i18n.say("mines.hint.run-over"))
        opened: dict[Cell, int | None] = {}
        known_mines = []
        for cell in engine.opened:
            if board.is_mine(cell):
                known_mines.append(cell)
            else:  # a fog cell's digit is hidden from the solver as from the player
                opened[cell] = None if board.variant_ids(cell) else board.digit(cell)
        # What items told the player: a probed digit, a probed mine, a lantern's safe mark
        # (safe with no digit known, as a fog cell). They are known, not yet opened.
        for cell, digit in self.probed.items():
            if digit < 0:
                known_mines.append(cell)
            else:
                opened[cell] = digit
        for cell in self.marked:
            opened.setdefault(cell, None)
        reachable = {n for cell in move_tree(engine) for n in board.neighbours(cell)
                     if not engine.is_open(n)}
        return next_hint(board.cols, board.rows, opened, known_mines, engine.flags,
                         len(board.mines), reachable)

    def can_hint(self) -> bool:
        """Whether the Hint button may be pressed now: a round in play and a hint in stock."""
        return (self.status == "playing" and self.session.ledger.phase == "active"
                and self.hints_left > 0)

    def hint(self) -> RunHint:
        """A hint, at its price: one from the battle's stock (``hints_per_battle``).

        Only a hint that names a cell costs; asking again while the last paid hint's cell
        is still the answer shows it again for free; an answer with nothing to prove is
        free. With the stock spent, the hint is refused (``refused``) and nothing changes.
        A paid hint is a step of the saved run (``{"do": "hint"}``): it changes the run.
        ``price`` says what this answer cost, ``hints_left`` what is left.
        """
        price = 0
        self.last_step = None
        if self.status != "playing" or self.session.ledger.phase != "active":
            answer = (self.proved_next() if self.status in ("won", "lost") else
                      _no_hint(i18n.say("mines.hint.round-over")))
            refused = self.status not in ("won", "lost")
        else:
            answer = self.proved_next()
            cell = answer["cell"]
            refused = False
            if cell is not None and tuple(cell) != self.hinted:
                if self.hints_left <= 0:
                    per = self.hints_per_battle()
                    answer = _no_hint(i18n.say("mines.hint.none-left", per=per))
                    refused = True
                else:
                    self.hints_left -= 1
                    self._battle["hints_used"] += 1
                    self.hinted = (cell[0], cell[1])
                    price = 1
                    self.last_step = {"do": "hint"}
        return {**answer, "refused": refused, "price": price, "hints_left": self.hints_left}

    def to_json(self) -> RunState:
        """The run whole: its view and its offer."""
        return {**self.view(), "offer": self.offer()}

    def offer(self) -> Offer:
        """What a click on each cell would do now, and at what price (:func:`offer`)."""
        return offer(self.session.engine, self.session.ledger, self.status == "playing")

    def view(self) -> RunView:
        """The run as the page draws it: battle, enemy, player, board, pending."""
        ledger = self.session.ledger
        playing = self.status == "playing"
        view = board_view(self.session.engine) or self.final_board
        enemy_bar, player_bar = self.hp_bars()
        return {
            "seed": self.seed,
            "status": self.status,
            "battle": self.battle_index + 1,
            "battles": len(self.table.battles),
            "enemy": {"id": self.battle.enemy.lower().replace(" ", "-"),
                      "name": enemy_name(self.battle.enemy), "hp": self.enemy_hp,
                      "max_hp": self.battle.hp,
                      "attack": self.battle.attack, **enemy_bar},
            "player": {"hp": self.player_hp, "max_hp": self.max_hp, **player_bar},
            "board_no": self.board_no + 1,
            "round": ledger.round,
            "phase": ledger.phase,
            "ap": ledger.ap,
            "ap_per_round": ledger.economy.ap_per_round,
            "rap": ledger.rap,
            "refresh_cost": ledger.economy.rap_refresh_cost,
            "can_refresh": playing and ledger.phase == "active"
            and ledger.rap >= ledger.economy.rap_refresh_cost,
            "can_continue": self.status == "settled",
            "hints": {"left": self.hints_left, "per_battle": self.hints_per_battle(),
                      "price": 1, "can_ask": self.can_hint()},
            "stop_ask": self.stop_ask(),
            "terms": self.terms(),
            "board": view,
            "pending": self.pending(),
            "tip": self.tip(),
            "last_settlement": worded(self.settlements[-1]) if self.settlements else None,
            "battle_summaries": [named(b) for b in self.battle_summaries],
            "totals": self.totals(),
            "sparks": self.sparks,
            "items": self.items_view(),
            "shields": self.shields,
            "blasts": self.blasts,
            "flag_weaken": self.table.settlement["flag_hit_weaken"] + self.flag_bonus,
            "offers": self.offers_view(),
            "probed": [[x, y, d] for (x, y), d in sorted(self.probed.items())
                       if playing and not self.session.engine.is_open((x, y))],
            "marked": [[x, y] for x, y in self.marked
                       if playing and not self.session.engine.is_open((x, y))],
        }

    def terms(self) -> dict[str, str]:
        """Every term the page shows, explained in a sentence (numbers from the tables)."""
        economy = self.session.ledger.economy
        s = self.table.settlement
        numbers = {"ap": economy.ap_per_round, "dig": economy.dig_ap_cost,
                   "flag": economy.flag_place_ap_cost, "refresh": economy.rap_refresh_cost,
                   "weaken": s["flag_hit_weaken"], "hints": self.table.hints_per_battle,
                   "safe": s["safe_cell_damage"], "ambush": s["mine_ambush_damage"],
                   "clear": s["clear_bonus_damage"]}
        return {term: i18n.say(f"mines.term.{term}", **numbers) for term in
                ("AP", "RAP", "HP", "attack", "mines", "hints", "pending", "fog")}

    def totals(self) -> Totals:
        """The run's numbers for the win and loss screens."""
        done = self.battle_summaries
        current = [] if self.status in ("won", "lost") else [self._battle]
        every = done + current
        return {"battles_won": sum(1 for b in done if b["won"]),
                "rounds": len(self.settlements),
                "cells_opened": sum(b["cells_opened"] for b in every),
                "mines_dug": sum(b["mines_dug"] for b in every),
                "flag_hits": sum(b["flag_hits"] for b in every),
                "damage_dealt": sum(b["damage_dealt"] for b in every),
                "damage_taken": sum(b["damage_taken"] for b in every),
                "player_hp": self.player_hp}

    def telemetry(self) -> Telemetry:
        """D1's telemetry of the run (format ``gridforge.mines.telemetry/1``)."""
        rounds = [r.to_json() for r in self.rounds]
        inputs = sum(r.inputs for r in self.rounds)
        spent = sum(r.ap_spent for r in self.rounds)
        rejections: dict[str, int] = {}
        chains: dict[str, int] = {}
        for r in self.rounds:
            for reason, count in r.rejections.items():
                rejections[reason] = rejections.get(reason, 0) + count
            for size in r.chains:
                chains[str(size)] = chains.get(str(size), 0) + 1
        over = sum(1 for r in rounds
                   if r["actions_per_ap"] is not None and r["actions_per_ap"] > FRICTION_GUARD)
        return {
            "format": TELEMETRY_FORMAT,
            "seed": self.seed,
            "guard_actions_per_ap": FRICTION_GUARD,
            "totals": {
                "rounds": len(rounds),
                "input_actions": inputs,
                "ap_spent": spent,
                "actions_per_ap": round(inputs / spent, 3) if spent else None,
                "rounds_over_guard": over,
                "batches": sum(r.batches for r in self.rounds),
                "batches_per_round": round(sum(r.batches for r in self.rounds) / len(rounds),
                                           3) if rounds else None,
                "chain_sizes": dict(sorted(chains.items(), key=lambda i: int(i[0]))),
                "rejections": dict(sorted(rejections.items())),
                "reason_words": {reason: REASON_WORDS.get(reason, reason.replace("_", " "))
                                 for reason in sorted(rejections)},
            },
            "rounds": rounds,
        }


def _no_hint(text: str) -> Hint:
    return no_hint(text, {"safe": 0, "mines": 0})


def log_lines(events: list[Event], board: Board | None) -> list[Said]:
    """The event log in the player's words (lines as :func:`line`: a cell is pointed at,
    never numbered); an opened fog cell never shows a digit."""
    lines: list[Said] = []
    initial = [e for e in events if e["type"] == "cell_revealed" and e["channel"] == "initial"]
    if initial:
        lines.append(say(i18n.say("mines.log.wakes", count=len(initial)),
                          cells=[e["cell"] for e in initial]))
    reveals = [e for e in events if e["type"] == "cell_revealed" and e["channel"] != "initial"]
    if reveals:
        first = reveals[0]
        here = ref(first["cell"], i18n.say("mines.this-cell"))
        if first["kind"] == "mine":
            lines.append(say(*i18n.say_parts("mines.log.dug-mine", cell=here)))
        elif first["variant_ids"]:
            lines.append(say(*i18n.say_parts("mines.log.dug-fog", cell=here)))
        else:
            lines.append(say(*i18n.say_parts("mines.log.dug-digit", cell=here,
                                               digit=first["digit"])))
        if len(reveals) > 1:
            fog = sum(1 for e in reveals[1:] if e["variant_ids"])
            key = "mines.log.chain-fog" if fog else "mines.log.chain"
            lines.append(say(i18n.say(key + ("-one" if len(reveals) == 2 else ""),
                                      count=len(reveals) - 1, fog=fog),
                              cells=[e["cell"] for e in reveals[1:]]))
    for e in events:
        if e["type"] == "flag_judged":
            lines.append(say(*i18n.say_parts(
                "mines.log.flag-hit" if e["hit"] else "mines.log.flag-miss",
                cell=ref(e["cell"], i18n.say("mines.this-cell")))))
        elif e["type"] == "round_end":
            tag = PATH_TEXT.get(e["path_tag"], e["path_tag"])
            lines.append(say(i18n.say("mines.log.round-end-banked" if e.get("rap_banked")
                                      else "mines.log.round-end", round=e["round"], tag=tag,
                                      banked=e.get("rap_banked"))))
    return lines


# ---------------------------------------------------------------- saved runs
def _saved_run(digest: str) -> Schema:
    """The fields of a saved run made under the run table of fingerprint ``digest``."""
    # Earlier tables (before issue 45's boards and enemies) made other boards from the same
    # seeds: their saves cannot replay and are refused (the page keeps them aside).
    return Schema((
        Field("format", message=f"format must be {SAVE_FORMAT!r}", code="format",
              choices=(SAVE_FORMAT,)),
        Field("seed", "int", f"seed must be an integer in 0..{MAX_SEED}, got {{value!r}}",
              "range", lo=0, hi=MAX_SEED, cut=120),
        Field("table", message="the run was saved under other run rules (the run table "
              "changed)", code="mismatch", choices=(digest,)),
        Field("steps", "list", "steps is a list", "type", fallback=[],
              then=lambda steps: ("too_long", f"at most {MAX_STEPS} steps")
              if len(steps) > MAX_STEPS else None),
    ), not_object="a saved run is an object", unknown_cut=80, key_cut=40)


def parse_saved(data: object, table: RunTable) -> tuple[int, list[Intent | PageStep]]:
    """Validate a saved run; every problem is reported with its field path."""
    schema = _saved_run(table.digest())
    issues = Issues()
    saved = schema.read_all(schema.root(data, "saved run"), issues)
    steps = saved.values["steps"] if not saved.bad("steps") else []
    assert isinstance(steps, list)
    parsed = _saved_steps(steps, issues)
    issues.raise_if_any("saved run")
    return saved.integer("seed"), parsed


def _saved_steps(steps: list[object], issues: Issues) -> list[Intent | PageStep]:
    """The steps of a saved run (intents and page steps), problems to ``issues`` (the
    reading stops once more than :data:`errors.MAX_ISSUES` are found)."""
    parsed: list[Intent | PageStep] = []
    for k, step in enumerate(steps):
        if len(issues) > errors.MAX_ISSUES:
            break
        path = field_path("steps", k)
        if isinstance(step, Mapping) and "do" in step:
            page = _page_step(step, path, issues)
            if page is not None:
                parsed.append(page)
            continue
        try:
            parsed.append(Intent.from_json(step, path))
        except ValidationError as exc:
            for issue in exc.issues:
                issues.append(issue)
    return parsed


def _page_step(step: Mapping[str, object], path: str, issues: Issues) -> PageStep | None:
    """A saved step that is no intent (``{"do": ...}``); None, with an issue, when it is
    not one of :data:`PAGE_STEPS` in its shape."""
    do = step.get("do")
    keys = ("do", "cell") if do == "reach" else ("do",)
    if not isinstance(do, str) or do not in PAGE_STEPS:
        issues.append(Issue(f"{path}.do", "unknown", f"do is one of {list(PAGE_STEPS)}"))
        return None
    if do in ("pick", "use"):
        return _reward_step(step, path, issues)
    cell = step.get("cell")
    if any(key not in keys for key in step) or (do == "reach" and not _is_cell(cell)):
        issues.append(Issue(path, "type", "a reach step is {'do': 'reach', 'cell': [x, y]}"
                            if do == "reach" else f"a {do} step is {{'do': {do!r}}}"))
        return None
    if do == "reach":
        assert isinstance(cell, list)
        return {"do": do, "cell": cell}
    return {"do": do}


def _reward_step(step: Mapping[str, object], path: str, issues: Issues) -> PageStep | None:
    """A saved pick (``{"do": "pick", "offer": kind}``) or item use (``{"do": "use",
    "item": id}``, with ``"cell"`` for a targeted item); whether the offer was open and the
    use possible is checked when the step replays."""
    if step["do"] == "pick":
        offer = step.get("offer")
        if set(step) != {"do", "offer"} or not isinstance(offer, str):
            issues.append(Issue(path, "type", "a pick step is {'do': 'pick', 'offer': kind}"))
            return None
        return {"do": "pick", "offer": offer}
    item, cell = step.get("item"), step.get("cell")
    targeted = item in TARGETED or item == "lantern"
    keys = {"do", "item", "cell"} if targeted else {"do", "item"}
    if item not in ITEMS or set(step) != keys or (targeted and not _is_cell(cell)):
        issues.append(Issue(path, "type", "a use step is {'do': 'use', 'item': one of "
                            f"{list(ITEMS)}}} (with 'cell': [x, y] for a probe or lantern)"))
        return None
    used: PageStep = {"do": "use", "item": str(item)}
    if targeted:
        assert isinstance(cell, list)
        used["cell"] = cell
    return used


def _is_cell(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(is_int(v) for v in value)
