"""bench.audit.line, the independent main-line auditor, held to the game: its legal steps
on random play (shipped levels and levels with paint and bridges), its solo costs and its
travel bound.  The auditor imports nothing from gridforge; this test may."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.rules import Game, move_to_step, step_to_move
from gridforge.snakes.solver.legibility import solo_cost
from gridforge.snakes.solver.puzzle import travel_bound
from hypothesis import HealthCheck, given, settings

from bench.audit import line as la
from bench.audit import shared
from tests.snakes import terrain_oracle as oracle
from tests.snakes.test_terrain import CROSSING

DATA = Path(__file__).resolve().parents[2] / "pkg" / "gridforge" / "snakes" / "data"
SHIPPED = (1, 4, 12, 18, 24, 30, 36, 150, 777, 1333, 1999)


def shipped(number: int) -> tuple[dict[str, Any], dict[str, Any]]:
    first = (number - 1) // 25 * 25 + 1
    block = json.loads((DATA / f"main-{first:04d}-{first + 24:04d}.json").read_text())
    i = number - first
    return block["levels"][i], block["certificates"][i]


def walk(data: dict[str, Any], seed: int, steps: int) -> int:
    """Random play on both rule sets in step: the same legal steps at every state.  Returns
    the number of states compared."""
    game = Game(level_from_json(data))
    lv = la.Level(data)
    rng = random.Random(seed)
    ours, theirs = lv.start, game.initial
    compared = 0
    for _ in range(steps):
        mine = {tuple(shared.step_json(m)): s for m, s in lv.successors(ours)}
        legal = {tuple(move_to_step(m)) for m in game.legal_moves(theirs)}
        assert set(mine) == legal, (data.get("meta"), ours)
        assert (ours == lv.goal) == game.is_complete(theirs)
        compared += 1
        if not legal:
            ours, theirs = lv.start, game.initial
            continue
        # exits first half the time, so that walks reach coats, thaws and unlocks
        exits = [st for st, s in mine.items() if sum(s[: lv.k]) > sum(ours[: lv.k])]
        step = rng.choice(sorted(exits if exits and rng.random() < 0.5 else mine))
        ours = mine[step]
        theirs = game.apply(theirs, step_to_move(list(step)))
    return compared


def test_random_play_agrees_with_the_game_on_shipped_levels() -> None:
    for number in SHIPPED:
        assert walk(shipped(number)[0], number, 150) == 150


def test_random_play_agrees_with_the_game_with_paint_and_bridges() -> None:
    levels = [CROSSING, *(lv for lv, _ in oracle.EXAMPLES.values())]
    for i, data in enumerate(levels):
        walk(data, i, 200)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=True)
@given(oracle.small_terrain_levels())
def test_random_play_agrees_on_drawn_terrain_levels(data: dict[str, Any]) -> None:
    walk(data, 7, 60)


def test_certificates_replay_and_the_examples_keep_their_minima() -> None:
    for number in SHIPPED:
        raw, cert = shipped(number)
        assert la.replay(la.Level(raw), cert["solution"])[0]
    for data, minimum in oracle.EXAMPLES.values():
        lv = la.Level(data)
        got = shared.astar(lv, 1, 100_000, 10**6)
        assert got["exhausted"] and got["best"] is not None and len(got["best"]) == minimum
        assert lv.h(lv.start) <= minimum


def test_solo_costs_and_travel_bound_agree_with_the_game() -> None:
    levels = [CROSSING, *(lv for lv, _ in oracle.EXAMPLES.values())]
    levels += [shipped(n)[0] for n in (1, 2, 3, 5, 8, 12, 18, 24, 30)]
    for data in levels:
        level = level_from_json(data)
        lv = la.Level(data)
        assert lv.h(lv.start) == travel_bound(Game(level))
        for b in range(lv.k):
            assert la.solo_cost(lv, b, 200_000)[0] == solo_cost(level, b).cost, (data, b)


def test_serial_finds_a_body_that_must_make_way() -> None:
    # a 6x1 corridor (row 1 stones): body 0 at the left, body 1 in the middle standing in
    # its way to the far hole; body 1 leaves first (order 1, 0); frozen until a layer is
    # out, no order works
    data: dict[str, Any] = {"format": "gridforge.snakes.level/1", "cols": 6, "rows": 2,
            "stones": [[x, 1] for x in range(6)],
            "bodies": [{"cells": [[1, 0], [0, 0]], "colors": [0]},
                       {"cells": [[3, 0], [2, 0]], "colors": [1]}],
            "holes": [{"cell": [5, 0], "color": 0}, {"cell": [4, 0], "color": 1}]}
    serial = la.Serial(la.Level(data), 10_000)
    assert serial.run() == "serial" and serial.order == [1, 0]
    data["bodies"][1]["frozen"] = 1
    assert la.Serial(la.Level(data), 10_000).run() == "not serial"


def brute_serial(lv: la.Level) -> bool:
    """Some order of bodies, each moved alone to its last exit (plain BFS over full states)?"""
    def alone(s: shared.State, b: int) -> set[shared.State]:
        seen = {s}
        queue = [s]
        out = set()
        for x in queue:
            for mv, y in lv.successors(x):
                if mv[0] == b and y not in seen:
                    seen.add(y)
                    (out.add(y) if y[b] >= lv.nc[b] else queue.append(y))
        return out

    def go(s: shared.State, left: frozenset[int]) -> bool:
        if not left:
            return s == lv.goal
        return any(go(y, left - {b}) for b in left for y in alone(s, b))

    return go(lv.start, frozenset(range(lv.k)))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=True)
@given(oracle.small_terrain_levels())
def test_serial_agrees_with_brute_force_on_drawn_terrain_levels(data: dict[str, Any]) -> None:
    lv = la.Level(data)
    serial = la.Serial(lv, 1_000_000)
    verdict = serial.run()
    assert verdict == ("serial" if brute_serial(lv) else "not serial")
    if verdict == "serial":
        sol = shared.serial_solution(lv, serial.sequence, 1_000_000)
        assert sol is not None and la.replay(lv, sol)[0]


def test_witnesses_on_paint_and_bridges() -> None:
    # paint: unpainting (2, 0) (paths[0]) lets body 0 walk straight along the top row
    data = oracle.EXAMPLE_PAINT_COSTS
    solution = [list(s) for s in oracle.oracle_solution(data, 100_000) or []]
    relaxed = {**data, "paths": data["paths"][1:]}
    short = [list(s) for s in oracle.oracle_solution(relaxed, 100_000) or []]
    it = la.Item(1, data, {"solution": solution, "steps": len(solution)})
    assert la.mechanic_names(data) == ["paths[0]", "paths[1]"]
    assert la.witness_problem(it, "paths[0]", short) == ""
    assert "accept" in la.witness_problem(it, "paths[1]", solution)  # the full rules take it
    assert "relaxed replay" in la.witness_problem(it, "paths[1]", short)
    # a bridge both lanes of which hold a body at once, and one never shared
    shared = oracle.EXAMPLE_SHARED_BRIDGE
    lv = la.Level(shared)
    states = la.replay(lv, [list(s) for s in oracle.oracle_solution(shared, 100_000) or []])[2]
    assert la.bridges_uncrossed(lv, states) == []
    lone = la.Level(oracle.EXAMPLE_END_ON_BRIDGE)
    states = la.replay(lone, [[0, "tail", "U"], [0, "tail", "L"]])[2]
    assert la.bridges_uncrossed(lone, states) == [[1, 1]]


def two_chambers() -> dict[str, Any]:
    """Two rows split by a row of stones: body 0 (top) needs 2 steps; body 1 (bottom, 3
    steps) is frozen until one layer is out, which only body 0, in the other chamber, can
    give; with a silver lock on body 1 keyed by body 0 as well.  The minimum is 5."""
    return {"format": "gridforge.snakes.level/1", "cols": 7, "rows": 3,
            "stones": [[x, 1] for x in range(7)],
            "bodies": [{"cells": [[1, 0], [0, 0]], "colors": [0], "key": "a"},
                       {"cells": [[1, 2], [0, 2]], "colors": [1], "frozen": 1,
                        "lock": {"id": "a", "kind": "silver"}}],
            "holes": [{"cell": [3, 0], "color": 0}, {"cell": [4, 2], "color": 1}]}


def test_optimality_claims_are_confirmed_region_by_region() -> None:
    data = two_chambers()
    lv = la.Level(data)
    assert [len(r) for r in la.floor_regions(lv)] == [7, 7]
    whole = shared.astar(lv, 1, 100_000, 10**6)
    assert whole["exhausted"] and len(whole["best"]) == 5
    got = la.confirm_claim(lv, 5, 100_000)
    assert (got["verdict"], got["way"], got["regions"]) == ("confirmed", "by regions", "2+3")
    # a claim of fewer steps than the regions' sum cannot be a replaying solution: refused
    got = la.confirm_claim(lv, 4, 100_000)
    assert (got["verdict"], got["way"]) == ("refuted", "by regions")
    # the holes' colours swapped: supply meets demand on the level, not in either region
    data["holes"][0]["color"], data["holes"][1]["color"] = 1, 0
    got = la.confirm_claim(la.Level(data), 5, 100_000)
    assert got["verdict"] == "refuted" and "unsolvable" in got["regions"]


def test_a_single_region_is_judged_on_the_whole_level() -> None:
    for data, minimum in oracle.EXAMPLES.values():
        lv = la.Level(data)
        assert len(la.region_raws(lv)) == 1
        got = la.confirm_claim(lv, minimum, 100_000)
        assert (got["verdict"], got["way"], got["regions"]) == ("confirmed", "whole level", "")
        # a search cut short still reports a floor no solution goes under
        for budget in (3, 10, 30):
            cut = shared.astar(lv, 1, budget, 10**6)
            assert lv.h(lv.start) <= cut["lower"] <= minimum


def test_a_missing_or_broken_data_folder_is_named(tmp_path: Path, capsys: Any) -> None:
    with pytest.raises(SystemExit):
        la.main(["--data", str(tmp_path / "nowhere")])
    assert "nowhere is not a folder" in capsys.readouterr().err
    (tmp_path / "progress.json").write_text("{not json")
    with pytest.raises(SystemExit):
        la.main(["--data", str(tmp_path)])
    assert "progress.json unreadable" in capsys.readouterr().err
