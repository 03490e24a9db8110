"""The run table (``data/run.json``, ``gridforge.mines.run/1``): the numbers of a run, read
and validated once (:class:`RunTable`, :func:`load_run_table`), and the seeds a run derives
from its own (:func:`board_seed`): the same seed and table, the same run.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources

from gridforge.errors import (
    Field,
    GridforgeError,
    Issues,
    Schema,
    parse_json,
)
from gridforge.jsontypes import Json
from gridforge.mines.gen_table import preset
from gridforge.mines.rewards import (
    REWARD_KEYS,
    REWARDS_SCHEMA,
    RewardTable,
)
from gridforge.mines.run_json import (
    RunTableJson,
)

RUN_FORMAT = "gridforge.mines.run/1"


SETTLEMENT_KEYS = ("safe_cell_damage", "flag_hit_weaken", "mine_ambush_damage",
                   "clear_bonus_damage")


BATTLE_KEYS = ("preset", "enemy", "hp", "attack")


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


def board_seed(run_seed: int, battle: int, board_no: int) -> int:
    """The generator seed of a run's board: derived, so a run replays from its seed alone."""
    digest = hashlib.sha256(f"gridforge.mines.run:{run_seed}:{battle}:{board_no}".encode())
    return int.from_bytes(digest.digest()[:6], "big")
