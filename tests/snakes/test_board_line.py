"""The fourth build's board levels (gridforge.snakes.design.board_line, issue 50): the plan's
templates and climb, and built levels that keep the plan, one floor region, the phone's board
limits, a proven certificate and the same bytes for the same seed."""

from __future__ import annotations

import statistics
from collections import Counter

import pytest
from gridforge.snakes.design.board_line import (
    BOARD_FROM,
    BOARD_TEMPLATES,
    LEVELS,
    board_level,
    board_plan,
)
from gridforge.snakes.design.certify import check
from gridforge.snakes.design.interlock import MAX_COLS, MAX_ROWS, MAX_STONE_SHARE, measure_layout
from gridforge.snakes.design.topology import FloorGraph, components
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.search import bfs_optimum

SEED = 2026


def test_no_template_holds_more_than_a_quarter_of_any_band_of_the_plan() -> None:
    for lo in range(BOARD_FROM, LEVELS + 1, 100):
        counts = Counter(board_plan(n, SEED).template for n in range(lo, min(lo + 100, LEVELS + 1)))
        assert set(counts) == set(BOARD_TEMPLATES), lo
        assert max(counts.values()) <= 25, (lo, counts)


def test_the_planned_joint_steps_climb_band_by_band() -> None:
    medians = [statistics.median(board_plan(n, SEED).joint for n in range(lo, lo + 250)
                                 if not board_plan(n, SEED).breather)
               for lo in range(251, LEVELS + 1, 250)]
    assert medians == sorted(medians)
    assert medians[0] >= 6 and medians[-1] >= 14


@pytest.mark.search_heavy
@pytest.mark.parametrize("n", [101, 102])
def test_a_board_level_keeps_its_plan_and_is_proven(n: int) -> None:
    plan = board_plan(n, SEED)
    data, cert = board_level(plan, SEED)
    assert board_level(plan, SEED) == (data, cert)
    level = level_from_json(data)
    assert level.cols <= MAX_COLS and level.rows <= MAX_ROWS
    assert len(level.stones) <= MAX_STONE_SHARE * level.cols * level.rows
    floor = [(x, y) for y in range(level.rows) for x in range(level.cols)
             if (x, y) not in set(level.stones)]
    assert len(components(FloorGraph(level.cols, level.rows, floor))) == 1
    assert cert["optimal"] and check(level, cert) == []
    meta = data["meta"]
    assert meta["template"] in BOARD_TEMPLATES and meta["level"] == n
    bare = {k: v for k, v in data.items() if k != "meta"}
    m = measure_layout(bare, 60_000)  # type: ignore[arg-type]
    assert m is not None and m.minimum == cert["steps"]
    assert m.joint >= plan.joint and m.beyond >= plan.beyond and m.chain >= plan.chain


@pytest.mark.search_heavy
def test_a_planned_piece_costs_at_least_two_steps_and_carries_its_witness() -> None:
    plan = board_plan(111, SEED)
    assert plan.piece == "locks"
    data, cert = board_level(plan, SEED)
    assert data["meta"]["piece"] == "locks"
    level = level_from_json(data)
    assert check(level, cert) == []
    locked = [i for i, b in enumerate(data["bodies"]) if "lock" in b]
    assert len(locked) == 1
    lifted = {k: v for k, v in data.items() if k != "meta"}
    lifted["bodies"] = [{k: v for k, v in b.items() if k not in ("lock", "key")}
                        for b in data["bodies"]]
    relaxed = bfs_optimum(Game(level_from_json(lifted)), max_states=2_000_000)
    assert relaxed is not None and cert["steps"] - relaxed >= 2
    (witness,) = cert["witnesses"]
    assert witness["mechanic"] == f"bodies[{locked[0]}].lock"
    assert len(witness["solution"]) == relaxed
