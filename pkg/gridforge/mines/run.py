"""B1, minimal and provisional: a run of battles on generated boards, settled from events.

The seed leaves round orchestration (B1) undesigned; ``spec/mines.md`` fixes its minimal
shape and this module builds it on the engine (A2), the ledger (A3) and the generator (A1):

- a run is a sequence of battles (``data/run.json``); each battle has an enemy with hit
  points and an attack, and is fought in rounds of ``ap_per_round`` AP on boards from A1;
- settlement happens at the Waiting phase (B1 obligation 1: it is triggered by the phase,
  not by the order events arrive in) and every line is attributed to one event (pillar P2):
  each reward-eligible safe cell hurts the enemy, a flag judged hit weakens its attack
  (once per mine and board, however often it is judged again: B1 obligation 3), a dug mine
  is an ambush that hurts the player, a cleared board pays a clear bonus; initial-expansion
  cells never pay (B1 obligation 2). An enemy still standing then attacks;
- the battle is won when the enemy falls, the run lost when the player does; later battles
  grow the board and its density and unlock fog (the presets of ``data/presets.json``).

Every intent goes to ``settle_batch`` as a one-intent batch (D1 obligations 1 and 6). Every
number lives in the data file; every board seed derives from the run's seed, so the same
seed and the same intents replay the same run.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from gridforge.errors import GridforgeError, Issue, ValidationError, is_int
from gridforge.mines.board import Board
from gridforge.mines.generate import generate, preset
from gridforge.mines.intents import Intent
from gridforge.mines.play import Registry, Session
from gridforge.mines.solver import hint as solver_hint

RUN_FORMAT = "gridforge.mines.run/1"
SETTLEMENT_KEYS = ("safe_cell_damage", "flag_hit_weaken", "mine_ambush_damage",
                   "clear_bonus_damage")
# Runs kept alive at once in the browser's interpreter; the oldest goes first.
MAX_RUNS = 8

__all__ = ["Battle", "Run", "RunTable", "act", "close_run", "continue_run", "hint",
           "load_run_table", "move_path", "new_run", "refresh", "run_state"]


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

    @classmethod
    def from_json(cls, data: object) -> RunTable:
        """Validate a run table; every problem is reported with its field path."""
        issues: list[Issue] = []

        def positive_int(value: object, path: str, minimum: int = 1) -> int:
            if not is_int(value) or value < minimum:  # type: ignore[operator]
                issues.append(Issue(path, "range", f"must be an integer >= {minimum}"))
                return minimum
            return value

        if not isinstance(data, Mapping):
            raise ValidationError([Issue("", "type", "a run table is an object")], "run table")
        if data.get("format") != RUN_FORMAT:
            issues.append(Issue("format", "format", f"format must be {RUN_FORMAT!r}"))
        player_hp = positive_int(data.get("player_hp"), "player_hp")
        raw = data.get("settlement")
        settlement: dict[str, int] = {}
        if not isinstance(raw, Mapping):
            issues.append(Issue("settlement", "type", "settlement is an object"))
            raw = {}
        for key in SETTLEMENT_KEYS:
            settlement[key] = positive_int(raw.get(key), f"settlement.{key}", 0)
        battles: list[Battle] = []
        raw_battles = data.get("battles")
        if not isinstance(raw_battles, list) or not raw_battles:
            issues.append(Issue("battles", "type", "battles is a non-empty list"))
            raw_battles = []
        for k, item in enumerate(raw_battles):
            path = f"battles[{k}]"
            if not isinstance(item, Mapping):
                issues.append(Issue(path, "type", "a battle is an object"))
                continue
            name = item.get("preset")
            try:
                preset(name)  # type: ignore[arg-type]
            except GridforgeError:
                issues.append(Issue(f"{path}.preset", "unknown", f"no board preset {name!r}"))
            enemy = item.get("enemy")
            if not isinstance(enemy, str) or not enemy:
                issues.append(Issue(f"{path}.enemy", "type", "enemy is a non-empty name"))
            battles.append(Battle(str(name), str(enemy), positive_int(item.get("hp"),
                                  f"{path}.hp"), positive_int(item.get("attack"),
                                  f"{path}.attack", 0)))
        if issues:
            raise ValidationError(issues, "run table")
        return cls(player_hp, settlement, tuple(battles))


def load_run_table(overrides: Mapping[str, Any] | None = None) -> RunTable:
    """The shipped run table, with top-level fields replaced by ``overrides`` (tests)."""
    text = resources.files("gridforge.mines").joinpath("data/run.json").read_text("utf-8")
    data = json.loads(text)
    if overrides:
        data.update(overrides)
    return RunTable.from_json(data)


def board_seed(run_seed: int, battle: int, board_no: int) -> int:
    """The generator seed of a run's board: derived, so a run replays from its seed alone."""
    digest = hashlib.sha256(f"gridforge.mines.run:{run_seed}:{battle}:{board_no}".encode())
    return int.from_bytes(digest.digest()[:6], "big")


class Run:
    """One run: a session (ledger + engine), the battle in progress and the settlements."""

    def __init__(self, seed: int, table: RunTable | None = None) -> None:
        if not is_int(seed):
            raise GridforgeError(f"a run's seed is an integer, got {seed!r}")
        self.seed = seed
        self.table = table if table is not None else load_run_table()
        self.session = Session()
        self.player_hp = self.table.player_hp
        self.battle_index = 0
        self.status = "playing"  # playing | settled | won | lost
        self.settlements: list[dict[str, Any]] = []
        self._round_events: list[dict[str, Any]] = []
        self._start_battle()
        self.session.ledger.notify_round_start()

    # ------------------------------------------------------------ the battle
    @property
    def battle(self) -> Battle:
        return self.table.battles[self.battle_index]

    def _start_battle(self) -> None:
        self.enemy_hp = self.battle.hp
        self.weakened = 0
        self.board_no = 0
        self._install(self._next_board(), refresh=False)

    def _next_board(self) -> Board:
        seed = board_seed(self.seed, self.battle_index, self.board_no)
        return generate(self.battle.preset, seed, level=self.battle_index + 1).board

    def _install(self, board: Board, refresh: bool) -> bool:
        # Flags are judged once per mine and board (B1 obligation 3): a new board, a new key.
        if refresh:
            if not self.session.run_call("refresh", board):
                return False
        elif not self.session.engine.install_board(board).accepted:
            raise GridforgeError("the generated board was refused by the engine")
        self.credited_mines: set[tuple[int, int]] = set()
        return True

    # ------------------------------------------------------------ settlement
    def _settle(self) -> dict[str, Any]:
        """Settle the ended round from its events; every line names the event it comes from."""
        values = self.table.settlement
        lines: list[dict[str, Any]] = []
        round_end = self.session.ledger.last_round_end or {}
        for event in self._round_events:
            cell = event.get("cell")
            if event["type"] == "cell_revealed":
                if event["kind"] == "mine":
                    lines.append({"source": "mine_ambush", "cell": cell,
                                  "target": "player", "amount": values["mine_ambush_damage"]})
                elif event["reward_eligible"]:  # initial cells never pay (B1 obligation 2)
                    lines.append({"source": f"safe_{event['channel']}", "cell": cell,
                                  "target": "enemy", "amount": values["safe_cell_damage"]})
            elif event["type"] == "flag_judged" and event["hit"]:
                key = (cell[0], cell[1])
                if key not in self.credited_mines:
                    self.credited_mines.add(key)
                    lines.append({"source": "flag_hit", "cell": cell, "target": "enemy_attack",
                                  "amount": values["flag_hit_weaken"]})
            elif event["type"] == "round_end" and event["path_tag"] == "cleared":
                lines.append({"source": "clear_bonus", "cell": None, "target": "enemy",
                              "amount": values["clear_bonus_damage"]})
        for line in lines:
            if line["target"] == "enemy":
                self.enemy_hp = max(0, self.enemy_hp - line["amount"])
            elif line["target"] == "enemy_attack":
                self.weakened += line["amount"]
            else:
                self.player_hp = max(0, self.player_hp - line["amount"])
        if self.enemy_hp > 0 and self.player_hp > 0:
            attack = max(0, self.battle.attack - self.weakened)
            lines.append({"source": "enemy_attack", "cell": None, "target": "player",
                          "amount": attack})
            self.player_hp = max(0, self.player_hp - attack)
        if self.player_hp == 0:
            result = "run_lost"
        elif self.enemy_hp == 0:
            last = self.battle_index == len(self.table.battles) - 1
            result = "run_won" if last else "battle_won"
        else:
            result = "continue"
        settlement = {
            "round": self.session.ledger.round,
            "battle": self.battle_index + 1,
            "path_tag": round_end.get("path_tag"),
            "continuation_hint": round_end.get("continuation_hint"),
            "lines": lines,
            "enemy_hp": self.enemy_hp,
            "player_hp": self.player_hp,
            "result": result,
        }
        self.settlements.append(settlement)
        self._round_events = []
        self.status = {"run_lost": "lost", "run_won": "won"}.get(result, "settled")
        return settlement

    # ------------------------------------------------------------ player-facing
    def act(self, intent: Intent) -> dict[str, Any]:
        """Settle one intent (a one-intent batch); settle the round if it ended."""
        outcome = self.session.engine.settle_batch([intent])[0]
        events = self.session.drain()
        self._round_events += events
        settlement = None
        if self.status == "playing" and self.session.ledger.phase == "waiting":
            settlement = self._settle()
        return {"outcome": outcome.to_json(), "events": events, "settlement": settlement}

    def refresh(self) -> dict[str, Any]:
        """Pay the refresh price from RAP for a new board of the same battle."""
        if self.status != "playing":
            raise GridforgeError("a refresh is only possible during a round")
        self.board_no += 1
        accepted = self._install(self._next_board(), refresh=True)
        if not accepted:
            self.board_no -= 1
        return {"accepted": accepted, "events": self.session.drain()}

    def continue_run(self) -> dict[str, Any]:
        """After a settlement: the next round, on a new board when the last one was cleared,
        or the next battle when the enemy fell."""
        if self.status != "settled":
            raise GridforgeError(f"nothing to continue: the run is {self.status}")
        ledger, last = self.session.ledger, self.settlements[-1]
        new_board = last["result"] == "battle_won" or last["continuation_hint"] == "new_board"
        ledger.notify_settlement_done("new_board" if new_board else "same_board")
        if last["result"] == "battle_won":
            self.battle_index += 1
            self._start_battle()
        elif new_board:
            self.board_no += 1
            self._install(self._next_board(), refresh=False)
        ledger.notify_round_start()
        self.status = "playing"
        # The initial expansion of a new board belongs to the new round (it never pays).
        events = self.session.drain()
        self._round_events = list(events)
        return {"events": events}

    def reach(self) -> list[list[int]]:
        """Concealed cells the avatar can dig or flag from where it stands (8-adjacent)."""
        engine, board = self.session.engine, self.session.engine.board
        if board is None or engine.avatar is None:
            return []
        x, y = engine.avatar
        return [[x + dx, y + dy] for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                if (dx or dy) and board.contains((x + dx, y + dy))
                and not engine.is_open((x + dx, y + dy))]

    def position(self) -> dict[str, Any]:
        """What the player sees, as the solver's position: opened digits (a fog cell's digit
        hidden), dug mines as known mines, and the mine total (the page shows it)."""
        engine, board = self.session.engine, self.session.engine.board
        opened = []
        known_mines = []
        for cell in engine.opened:
            if board.is_mine(cell):
                known_mines.append(list(cell))
            else:
                digit = None if board.variant_ids(cell) else board.digit(cell)
                opened.append([cell[0], cell[1], digit])
        return {"cols": board.cols, "rows": board.rows, "opened": opened,
                "known_mines": known_mines, "mine_total": len(board.mines)}

    def to_json(self) -> dict[str, Any]:
        """The run as the page draws it: battle, enemy, player, status, board view."""
        return {
            "reach": self.reach(),
            "seed": self.seed,
            "status": self.status,
            "battle": self.battle_index + 1,
            "battles": len(self.table.battles),
            "enemy": {"name": self.battle.enemy, "hp": self.enemy_hp, "max_hp": self.battle.hp,
                      "attack": max(0, self.battle.attack - self.weakened)},
            "player": {"hp": self.player_hp, "max_hp": self.table.player_hp},
            "board_no": self.board_no + 1,
            "last_settlement": self.settlements[-1] if self.settlements else None,
            "session": self.session.view(),
        }


# ---------------------------------------------------------------- JSON facade for the page
_runs: Registry[Run] = Registry("r", MAX_RUNS, "run")


def _run(run_id: object) -> Run:
    return _runs.get(run_id)


def new_run(seed: int) -> dict[str, Any]:
    """Start a run from ``seed``; answers its id, the initial events and the state."""
    run = Run(seed)
    run_id = _runs.add(run)
    events = run.session.drain()
    run._round_events = list(events)
    return {"run": run_id, "events": events, "state": run.to_json()}


def act(run_id: str, intent: dict[str, Any]) -> dict[str, Any]:
    """Settle one intent ``{"kind": "dig" | "flag_place" | "flag_pull" | "move" | "stop",
    "cell": [x, y]}``; answers the outcome, the events, a settlement if the round ended."""
    run = _run(run_id)
    answer = run.act(Intent.from_json(intent, "intent"))
    return {**answer, "state": run.to_json()}


def continue_run(run_id: str) -> dict[str, Any]:
    """Go on after a settlement (next round, next board or next battle)."""
    run = _run(run_id)
    return {**run.continue_run(), "state": run.to_json()}


def refresh(run_id: str) -> dict[str, Any]:
    """Pay RAP for a fresh board of the same battle (the paid refresh of A3)."""
    run = _run(run_id)
    return {**run.refresh(), "state": run.to_json()}


def move_path(run_id: str, cell: list[int]) -> list[list[int]]:
    """The path a move to ``cell`` would take, for the preview ([] when it cannot)."""
    engine = _run(run_id).session.engine
    if not (isinstance(cell, list) and len(cell) == 2
            and all(is_int(v) for v in cell)):
        raise GridforgeError(f"a cell is [x, y], got {cell!r}")
    return [list(c) for c in engine.compute_move_path((cell[0], cell[1]))]


def hint(run_id: str) -> dict[str, Any]:
    """What logic proves from what the player sees: the next safe cell or mine and why."""
    return solver_hint(_run(run_id).position())


def run_state(run_id: str) -> dict[str, Any]:
    """The run's state as the page draws it."""
    return _run(run_id).to_json()


def close_run(run_id: str) -> bool:
    """Forget a run; False if it was not open."""
    return _runs.drop(run_id)
