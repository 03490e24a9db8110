"""B4 and A5 on A2's events: what a round earns, what overflows, the offers and the items.

The seed leaves reward content (B4) and probe items (A5) undesigned and asks two things of
them (obligations B1/B4-1 and B1/B4-2): a chain's batch grant against ``max_stack`` must not
fill the settlement with "overflow, no effect" lines, and highlights must pay at once. This
module is our design of both, read from A2's events only (A2 never changes):

- **sparks** are the run's currency: a dig of a safe cell earns one for the dug cell and one
  for each of the first ``max_stack`` cells of its chain;
- the chain's **overflow** (its cells past ``max_stack``) turns into healing, one HP for
  every ``overflow_per_heal`` cells, as ONE settlement line per dig;
- between battles the player picks one of three **offers** drawn from the run's seed (a
  heal, charges of an item, a stronger flag, more hints, sparks);
- **items** are used during a round, each use one charge or, with no charge left, its price
  in sparks: the *probe* shows one concealed cell's number (or that it is a mine) through
  A2's query face (the installed board), the *shield* absorbs the next ambush, the
  *lantern* marks the concealed safe cell nearest the avatar as safe, the *blast* strikes
  the enemy for ``blast_damage`` at the round's settlement (a deducing player never has to
  guess on a no-guess board, so the blast is the item that plays into the race of a round:
  the enemy's HP against its strikes).

Every number lives in the run table (``data/run.json``, its ``rewards`` object); every draw
is a hash of the run's seed, so a run replays from its seed and steps alone.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import TypedDict

from gridforge.errors import Field, Schema
from gridforge.mines.events import Event

ITEMS = ("probe", "shield", "lantern", "blast")
# Items used on a cell (the page asks for one after the item is chosen).
TARGETED = ("probe",)
OFFER_KINDS = ("heal", "probe", "shield", "lantern", "blast", "flag", "hints", "sparks")
OFFERS_SHOWN = 3
REWARD_KEYS = ("max_stack", "overflow_per_heal", "item_spark_price", "heal", "probe_charges",
               "shield_charges", "lantern_charges", "blast_charges", "blast_damage",
               "flag_bonus", "hints_bonus", "sparks_bonus", "start_probe", "start_shield",
               "start_lantern", "start_blast")

__all__ = ["ITEMS", "OFFER_KINDS", "REWARDS_SCHEMA", "REWARD_KEYS", "TARGETED", "DigGroup",
           "RewardTable", "dig_groups", "draw_offers"]


def _at_least(name: str, minimum: int) -> Field:
    return Field(name, "int", "must be an integer >= {lo}, got {value!r}", lo=minimum,
                 fallback=minimum, cut=120)


REWARDS_SCHEMA = Schema(tuple(_at_least(key, 1 if key in ("max_stack", "overflow_per_heal")
                                        else 0) for key in REWARD_KEYS),
                        unknown="unknown field {short!r}")


@dataclass(frozen=True)
class RewardTable:
    """The numbers of rewards, offers and items (the run table's ``rewards`` object)."""

    values: dict[str, int]

    def __getitem__(self, key: str) -> int:
        return self.values[key]

    def to_json(self) -> dict[str, int]:
        return dict(self.values)

    def starting_items(self) -> dict[str, int]:
        """The charges each item has when a run starts."""
        return {item: self[f"start_{item}"] for item in ITEMS}

    def offer_charges(self, kind: str) -> int:
        """The charges an item's offer gives (0: ``kind`` is no item)."""
        return self[f"{kind}_charges"] if kind in ITEMS else 0


class DigGroup(TypedDict):
    """One dig of a safe cell and its chain, as A2 reported them (``cells[0]`` is dug)."""

    cells: list[list[int]]
    chain: int  # the chain's cells (reward-eligible, channel chain)
    sparks: int
    overflow: int
    heal: int


def dig_groups(events: list[Event], table: RewardTable) -> list[DigGroup]:
    """The round's digs of safe cells with what each earns, in event order: A2 emits a
    dig's own cell (channel ``dig``) and then its chain (channel ``chain``)."""
    groups: list[DigGroup] = []
    for event in events:
        if event["type"] != "cell_revealed" or not event["reward_eligible"]:
            continue
        if event["channel"] == "dig":
            groups.append({"cells": [event["cell"]], "chain": 0, "sparks": 0, "overflow": 0,
                           "heal": 0})
        elif groups:
            groups[-1]["cells"].append(event["cell"])
            groups[-1]["chain"] += 1
    stack, per_heal = table["max_stack"], table["overflow_per_heal"]
    for group in groups:
        group["sparks"] = 1 + min(group["chain"], stack)
        group["overflow"] = max(0, group["chain"] - stack)
        group["heal"] = group["overflow"] // per_heal
    return groups


def draw_offers(run_seed: int, battle: int) -> list[str]:
    """The three offers after battle ``battle`` (1-based) is won: drawn from the run's seed
    alone, distinct, in the order the page shows them."""
    digest = hashlib.sha256(f"gridforge.mines.offers:{run_seed}:{battle}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    return rng.sample(OFFER_KINDS, OFFERS_SHOWN)
