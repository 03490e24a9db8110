"""The fourth build's board levels (gridforge.snakes.design.board_line, issue 50): the plan's
templates and climb, and built levels that keep the plan, one floor region, the phone's board
limits, a proven certificate and the same bytes for the same seed."""

from __future__ import annotations

import copy
import json
import re
import statistics
from collections import Counter
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from gridforge.errors import GridforgeError
from gridforge.jsontypes import JsonObject
from gridforge.snakes.design import board_line, costs
from gridforge.snakes.design.board_line import (
    _LANES,
    ALL_PIECES_FROM,
    BOARD_FROM,
    BOARD_TEMPLATES,
    DEEP,
    DENSE_AIM_MOST,
    DENSE_FROM,
    DENSE_RAMP,
    IDEA_STEPS_PER_JOINT,
    LEVELS,
    LINE_STEPS_PER_JOINT,
    OPEN,
    OPEN_PIECES_FROM,
    RATIO_AIM,
    arc_of,
    board_level,
    board_plan,
    idea_steps_per_joint,
    lane_levels,
    line_level,
    piece_aim,
)
from gridforge.snakes.design.certify import check
from gridforge.snakes.design.costs import PIECES
from gridforge.snakes.design.interlock import (
    MAX_COLS,
    MAX_ROWS,
    MAX_STONE_SHARE,
    Measure,
    Request,
    measure_layout,
    shortfall,
)
from gridforge.snakes.design.line_build import build_mainline, tasks
from gridforge.snakes.design.line_levels import design_level
from gridforge.snakes.design.score import score_level
from gridforge.snakes.design.stretch import layout_key
from gridforge.snakes.design.topology import FloorGraph, components
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.levelfile import LevelJson
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.search import Solver

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


def test_the_body_count_rises_once_to_five_on_boards_of_at_most_32_cells() -> None:
    # Five bodies crowded on 32 cells scored 53-65 on the deep templates at the line's end
    # where six on 40 scored 37-41 on island; a count that changes restarts every lane.
    counts = [board_plan(n, SEED).bodies for n in range(BOARD_FROM, LEVELS + 1)
              if not board_plan(n, SEED).breather]
    assert counts == sorted(counts) and set(counts) == {4, 5}
    assert all(board_plan(n, SEED).area <= 32 for n in range(BOARD_FROM, LEVELS + 1)
               if not board_plan(n, SEED).breather)


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


def _lifted(data: LevelJson) -> JsonObject:
    """``data`` without its meta and with every freeze, lock, key and painted cell gone."""
    out: JsonObject = {k: v for k, v in data.items() if k not in ("meta", "paths")}
    out["bodies"] = [{k: v for k, v in b.items() if k not in ("lock", "key", "frozen")}
                     for b in data["bodies"]]
    out["holes"] = [{k: v for k, v in h.items() if k != "frozen"} for h in data["holes"]]
    return out


@pytest.mark.search_heavy
def test_a_planned_piece_costs_at_least_two_steps_and_carries_its_witness() -> None:
    plan = board_plan(111, SEED)
    assert plan.piece == "locks"
    data, cert = board_level(plan, SEED)
    # The plan's piece, or the next of PIECES that costs steps on the level's idea.
    piece = data["meta"]["piece"]
    assert piece in PIECES and piece != "bridges"
    level = level_from_json(data)
    assert check(level, cert) == []
    # The exact A* (the BFS oracle passes two million states on four bodies).
    relaxed_level = level_from_json(_lifted(data))  # type: ignore[arg-type]
    result = Solver(Game(relaxed_level)).solve(max_states=400_000, max_seconds=1e9)
    assert result.status == "solved" and result.optimal and result.steps is not None
    relaxed = len(result.steps)
    assert cert["steps"] - relaxed >= 2
    (witness,) = cert["witnesses"]
    field = {"frozen": r"bodies\[\d\]\.frozen", "frozen_holes": r"holes\[\d\]\.frozen",
             "locks": r"bodies\[\d\]\.lock", "paths": r"paths\[0\]"}[piece]
    assert re.fullmatch(field, witness["mechanic"])
    assert len(witness["solution"]) == relaxed
    # The reading carries the piece's cost and the main region's figures (pieces lifted).
    reading = cert["reading"]
    assert reading["piece_cost"] == {witness["mechanic"]: cert["steps"] - relaxed}
    main = reading["main_region"]
    assert main["bodies"] == len(data["bodies"]) and main["joint"] == relaxed - reading[
        "body_bound"] and main["beyond_pairs"] >= 0 and main["chain"] >= 1


def test_lanes_split_every_board_non_breather_by_arc_and_template() -> None:
    seen: list[int] = []
    for n in range(BOARD_FROM, LEVELS + 1):
        lane = lane_levels(n, SEED)
        if board_plan(n, SEED).breather:
            continue
        assert n in lane and list(lane) == sorted(lane)
        assert len({board_plan(m, SEED).template for m in lane}) == 1
        assert len({arc_of(m) for m in lane}) == 1
        assert not any(board_plan(m, SEED).breather for m in lane)
        if lane[0] == n:
            seen.extend(lane)
    non_breathers = [n for n in range(BOARD_FROM, LEVELS + 1) if not board_plan(n, SEED).breather]
    assert sorted(seen) == non_breathers  # every level in exactly one lane


def test_breathers_climb_with_the_line_at_two_thirds_of_its_base() -> None:
    targets = [board_plan(n, SEED).joint for n in range(BOARD_FROM, LEVELS + 1)
               if board_plan(n, SEED).breather]
    assert targets == sorted(targets) and targets[0] == 2 and targets[-1] == 10
    for n in range(BOARD_FROM, LEVELS + 1):
        plan = board_plan(n, SEED)
        if plan.breather:
            assert plan.joint == int(board_line.climb(n) * 2 / 3) and plan.piece is None
            assert plan.area <= 32 and plan.bodies <= 4


def test_pieces_every_third_level_on_open_templates_and_everywhere_in_the_finale() -> None:
    for n in range(BOARD_FROM, LEVELS + 1):
        plan = board_plan(n, SEED)
        if plan.breather:
            continue
        carries = (n % 3 == 0 or n >= ALL_PIECES_FROM
                   or (n >= OPEN_PIECES_FROM and plan.template in OPEN))
        assert (plan.piece is not None) == carries, n
        assert plan.piece is None or plan.piece in PIECES


def test_a_piece_aims_at_what_the_idea_falls_short_of() -> None:
    plan = board_plan(301, SEED)
    j = plan.joint
    assert piece_aim(plan, j - 5, 3 * (j - 5)) == 5  # the target's rest
    assert piece_aim(plan, j + 4, 3 * (j + 4)) == 2  # at least the least cost
    # A sparse idea (m / j over RATIO_AIM): the piece that brings it under RATIO_AIM.
    c = piece_aim(plan, j + 4, 4 * (j + 4))
    assert (4 * (j + 4) + c) / (j + 4 + c) <= RATIO_AIM < (4 * (j + 4) + c - 1) / (j + 4 + c - 1)
    assert piece_aim(plan, j + 4, 9 * (j + 4)) == DENSE_AIM_MOST  # at most that for density


def test_open_ideas_are_asked_ever_fewer_steps_per_joint_step_graded() -> None:
    ramp = [idea_steps_per_joint(n) for n in range(DENSE_FROM, DENSE_FROM + DENSE_RAMP + 50)]
    assert ramp[0] == LINE_STEPS_PER_JOINT and ramp[-1] == IDEA_STEPS_PER_JOINT
    assert ramp == sorted(ramp, reverse=True)
    ask = Request("twin", 40, (2, 2, 3), 0, 5, 1, steps_per_joint=4.0)
    sparse = Measure(36, 0, 5, 1, 2, (), 0)  # 36 steps on 5 joint steps: 9 joint short of 4.0
    assert shortfall(ask, sparse)[0] == 1
    assert shortfall(replace(ask, graded=True), sparse)[0] == 9 - 5
    assert shortfall(replace(ask, graded=True), replace(sparse, minimum=20))[0] == 0


@pytest.mark.parametrize(("table", "want"), [
    # (piece -> its placement's cost or None), the piece the level gets. The idea below is
    # 38 steps on 10 joint steps: the aim is 3 (to 3.3 steps per joint step).
    ({"locks": 1, "paths": 3, "frozen": 5}, "paths"),  # the first from the plan's to cost 3
    ({"locks": None, "paths": 2, "bridges": 2, "frozen": 2, "frozen_holes": 2}, "paths"),
    ({"locks": None, "paths": None, "frozen": 3}, "frozen"),  # wraps round
    # Three pieces measured: the best so far (frozen_holes' 3 is not measured).
    ({"locks": None, "paths": 2, "frozen_holes": 3}, "paths"),
    ({"paths": 2, "bridges": 2, "frozen": 2, "frozen_holes": 3}, "paths"),
    ({"bridges": 2}, "bridges"),  # 36 / 8 > 3.3, but the only piece that places
    ({}, None),  # nothing costs steps: the idea's level alone
])
def test_a_level_takes_the_first_piece_that_costs_its_aim_else_the_densest(
        monkeypatch: pytest.MonkeyPatch, table: dict[str, int | None], want: str | None) -> None:
    plan = replace(board_plan(1207, SEED), piece="locks", joint=8)
    assert piece_aim(plan, 10, 38) == 3
    idea = SimpleNamespace(measure=Measure(38, 0, 10, 1, 2, ((0, "head", "up"),), 0))
    asked: list[str] = []

    def costly(data: LevelJson, piece: str, minimum: int, **kw: object) -> object:
        asked.append(piece)
        cost = table.get(piece)
        if cost is None:
            return None
        change = -cost if piece == "bridges" else cost
        return costs.Costly({**data, "piece": piece}, minimum + change, cost, piece, ())

    monkeypatch.setattr(board_line, "costly", costly)
    monkeypatch.setattr(board_line, "_coloured", lambda idea, rng: {"meta": {}})
    monkeypatch.setattr(board_line, "_certified",
                        lambda plan, template, seed, data, *rest: (
                            {"meta": {}, "placed": data.get("piece")}, {}))
    made = board_line._made(plan, plan.template, SEED, idea, None)  # type: ignore[arg-type]
    assert made is not None
    assert made[0]["placed"] == want
    if want is not None and table[want] == 3:
        assert asked[-1] == want  # the pieces after the one that met the aim are not measured


@pytest.mark.parametrize(("table", "want"), [
    # (piece -> the cost it places at), the pieces of the level. The first piece (frozen, 3)
    # leaves the level at joint 8 of its 16: more pieces aim at the rest.
    ({"frozen_holes": 3, "locks": 4, "paths": 2}, ("frozen", "locks", "frozen_holes")),
    ({"frozen_holes": None, "locks": 8, "paths": 9}, ("frozen", "locks")),  # 8 meets the aim
    ({"frozen_holes": 2, "locks": 5, "paths": 3}, ("frozen", "locks", "paths")),  # costliest
    # A piece that leaves an earlier one costing under two steps is not kept.
    ({"frozen_holes": -1, "locks": -1, "paths": -1}, ("frozen",)),
    ({"frozen_holes": -1, "locks": 6, "paths": None}, ("frozen", "locks")),
])
def test_a_level_short_of_its_target_takes_more_pieces_each_with_its_witness(
        monkeypatch: pytest.MonkeyPatch, table: dict[str, int | None], want: tuple[str, ...]
) -> None:
    plan = replace(board_plan(1704, SEED), joint=16)

    def cost(piece: str) -> int:
        return 3 if piece == "frozen" else abs(table[piece] or 0)

    def costly(data: JsonObject, piece: str, minimum: int, *, aim: int, limit: int) -> object:
        placed: list[str] = data["placed"][1:]  # type: ignore[index, assignment]
        assert aim == plan.joint - 5 - sum(map(cost, placed))  # what is still short
        assert piece != "bridges" and piece not in placed
        if table.get(piece) is None:
            return None
        steps = ((len(placed), "head", "up"),) * (minimum + cost(piece))
        return costs.Costly({"placed": ["idea", *placed, piece]}, minimum + cost(piece),
                            cost(piece), f"{piece}[0]", steps)

    def lifted(data: JsonObject, mechanic: str) -> tuple[int, object]:
        # Lifting a piece saves its own cost, or one step once a piece of negative cost in
        # the table was placed after the first.
        placed: list[str] = data["placed"][1:]  # type: ignore[index, assignment]
        minimum = 20 + sum(map(cost, placed[1:]))
        spoilt = any((table[p] or 0) < 0 for p in placed[1:])
        saves = 1 if spoilt else cost(mechanic.split("[")[0])
        return minimum - saves, ((9, "tail", "down"),) * (minimum - saves)

    monkeypatch.setattr(board_line, "costly", costly)
    monkeypatch.setattr(board_line, "lifted", lifted)
    first = board_line._Pieced({"placed": ["idea", "frozen"]}, ((1, "head", "up"),) * 20,  # type: ignore[arg-type]
                               [{"mechanic": "frozen[0]", "solution": [[0, "head", "up"]] * 17}],
                               ("frozen",), 5 + 3, {"frozen[0]": 3})
    got = list(board_line._more_pieces(plan, first))
    if len(want) == 1:
        assert got == []
        return
    deepest = got[0]  # deepest first, each with one piece fewer after it
    assert [g.pieces for g in got] == [want[:k] for k in range(len(want), 1, -1)]
    assert deepest.level["placed"] == ["idea", *want]  # type: ignore[index]
    assert len(deepest.pieces) <= board_line.MOST_PIECES
    # A witness per piece, named as placed, each shorter than the level by its cost; the
    # last piece's witness is the minimal solution of the level before it.
    assert [w["mechanic"] for w in deepest.witnesses] == [f"{p}[0]" for p in want]
    minimum = len(deepest.solution)
    assert all(minimum - len(w["solution"]) >= 2 for w in deepest.witnesses)
    before = got[1] if len(got) > 1 else first
    assert deepest.witnesses[-1]["solution"] == [list(s) for s in before.solution]
    # Each piece's cost on the deepest level, by its field, as lifting it measured.
    assert deepest.costs == {f"{p}[0]": minimum - len(w["solution"])
                             for p, w in zip(want, deepest.witnesses, strict=True)}


def test_a_lane_continues_again_then_loosened_before_any_fresh_climb(
        monkeypatch: pytest.MonkeyPatch) -> None:
    plan = board_plan(1207, SEED)
    last = SimpleNamespace(layout=(((0, 0),) * plan.bodies, ()), shape=None)
    lane = board_line._Lane(last=last)  # type: ignore[arg-type]
    asked: list[Request] = []

    def continued(request: Request, idea: object, rng: object, fresh: object) -> object:
        asked.append(request)
        return "idea" if len(asked) == board_line.CONTINUATIONS else None

    def fresh_climb(request: Request, rng: object) -> object:
        raise AssertionError("a fresh climb before the lane's continuations ran out")

    monkeypatch.setattr(board_line, "continue_idea", continued)
    monkeypatch.setattr(board_line, "build_idea", fresh_climb)
    template, idea, _ = next(board_line._ideas(plan, SEED, lane))
    assert (template, idea) == (plan.template, "idea")
    *tight, loose = asked
    assert all(r.most_joint == r.joint + board_line.LINE_OVERSHOOT for r in tight)
    assert loose.most_joint == loose.joint + board_line.LOOSE_OVERSHOOT and not loose.graded


def test_deep_templates_take_a_growing_share_and_none_more_than_a_quarter() -> None:
    shares = []
    for lo in range(BOARD_FROM, LEVELS + 1, 100):
        counts = Counter(board_plan(n, SEED).template for n in range(lo, lo + 100))
        shares.append(sum(counts[t] for t in DEEP))
        assert max(counts.values()) <= 24, (lo, counts)
    # A tenth at 101, LATE_SHARES from chapter 10 on: the line's hardest levels are theirs.
    late = sum(board_line.LATE_SHARES[t] for t in DEEP)
    assert shares == sorted(shares) and shares[0] <= 11 and shares[9:] == [late] * 10
    assert late >= 60


def test_the_open_share_leans_to_the_templates_that_reach_furthest_and_keeps_every_one(
        ) -> None:
    for lo in range(BOARD_FROM, LEVELS + 1, 100):
        counts = Counter(board_plan(n, SEED).template for n in range(lo, lo + 100))
        assert set(counts) == set(BOARD_TEMPLATES), lo  # every template in every chapter
        if lo == BOARD_FROM:
            assert len({counts[t] for t in OPEN}) == 1  # equal shares at first
        if lo >= 1001:
            assert counts["twin"] > counts["notched"] > counts["courtyard"] >= 2


def test_costly_with_an_aim_takes_the_placement_nearest_it(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    # Replace the exact searches by a table: placement i costs COSTS[i] steps.
    costs_by_placement = [1, 7, 3, 4, 9, 3]
    data = {"cols": 1, "rows": 1, "stones": [], "bodies": [], "holes": []}

    def variants(level: object) -> object:
        for i in range(len(costs_by_placement)):
            yield {"i": i}, f"p{i}"

    monkeypatch.setitem(costs._VARIANTS, "frozen", variants)
    monkeypatch.setattr(costs, "_minimum", lambda v, states, at_least: (
        10 + costs_by_placement[v["i"]], ((0, "head", "up"),)))
    assert costs.costly(data, "frozen", 10).cost == 9  # type: ignore[arg-type, union-attr]
    assert costs.costly(data, "frozen", 10, aim=4).cost == 4  # type: ignore[arg-type, union-attr]
    assert costs.costly(data, "frozen", 10, aim=2).level == {"i": 2}  # type: ignore[arg-type, union-attr]
    assert costs.costly(data, "frozen", 10, aim=8).cost == 7  # type: ignore[arg-type, union-attr]
    assert costs.costly(data, "frozen", 10, least=10, aim=2) is None  # type: ignore[arg-type]
    # A placement that costs the aim ends the search: no later one is nearer.
    measured: list[int] = []
    monkeypatch.setattr(costs, "_minimum", lambda v, states, at_least: (
        measured.append(v["i"]) or (10 + costs_by_placement[v["i"]], ((0, "head", "up"),))))
    assert costs.costly(data, "frozen", 10, aim=3).level == {"i": 2}  # type: ignore[arg-type, union-attr]
    assert measured == [0, 1, 2]


@pytest.mark.parametrize(("n", "piece", "limit"), [(102, "frozen", 12), (105, "locks", 12),
                                                (106, "paths", 12)])
def test_costly_answers_the_same_without_exact_searches_of_too_cheap_placements(
        monkeypatch: pytest.MonkeyPatch, n: int, piece: str, limit: int) -> None:
    data = copy.deepcopy(design_level(n, SEED, "board")[0])
    for body in data["bodies"]:
        for mechanic in ("frozen", "lock", "key"):
            body.pop(mechanic, None)  # type: ignore[misc]
    for hole in data["holes"]:
        hole.pop("frozen", None)
    data.pop("paths", None)
    data.pop("meta", None)
    cert = Solver(Game(level_from_json(data))).solve(max_states=200_000, max_seconds=1e9)
    assert cert.optimal and cert.steps is not None
    quick = costs.costly(data, piece, len(cert.steps), aim=4, limit=limit)
    assert quick is not None  # some placement costs steps: the answers compared are real
    real = costs._minimum
    monkeypatch.setattr(costs, "_minimum", lambda v, states, at_least: real(v, states))
    assert costs.costly(data, piece, len(cert.steps), aim=4, limit=limit) == quick


def test_board_tasks_hold_each_lane_whole_and_every_wanted_level_once() -> None:
    wanted = list(range(95, 260))
    got = tasks(wanted, SEED, "board")
    assert sorted(n for task in got for n in task) == wanted
    assert [task[0] for task in got] == sorted(task[0] for task in got)
    for task in got:
        if len(task) > 1:
            assert set(task) <= set(lane_levels(task[0], SEED))
    assert tasks(wanted, SEED, "chambers") == [(n,) for n in wanted]


@pytest.mark.parametrize("n", [40, 58, 89, 99])
def test_the_board_edition_fits_every_early_level_to_a_phone(n: int) -> None:
    # The chambers edition's level is wider or taller than a phone's 10 x 16 cells.
    level, cert = design_level(n, SEED, "board")
    assert level["cols"] <= 10 and level["rows"] <= 16
    assert cert["optimal"] and check(level_from_json(level), cert) == []
    assert level["meta"]["level"] == n


def test_an_unknown_edition_is_named() -> None:
    with pytest.raises(GridforgeError, match="edition: one of chambers, board, got 'open'"):
        design_level(101, SEED, "open")


@pytest.mark.search_heavy
def test_a_lane_continues_its_board_and_never_repeats_a_layout() -> None:
    first = lane_levels(101, SEED)
    made = [line_level(n, SEED) for n in first[:4]]
    keys = [layout_key({k: v for k, v in level.items() if k != "meta"})  # type: ignore[arg-type]
            for level, _cert in made]
    assert len(set(keys)) == len(keys)
    for (level, cert), n in zip(made, first, strict=False):
        assert level["meta"]["level"] == n and cert["optimal"]
        assert check(level_from_json(level), cert) == []
    # The lane's later levels keep its board where they continue its idea.
    boards = [(level["cols"], level["rows"], tuple(sorted(map(tuple, level["stones"]))))
              for level, _cert in made]
    assert len(set(boards)) < len(boards)
    _LANES.clear()  # built afresh, the lane gives the same bytes
    assert line_level(first[2], SEED) == made[2]


def test_costly_with_a_limit_measures_that_many_placements_spread_over_all(
        monkeypatch: pytest.MonkeyPatch) -> None:
    measured: list[int] = []

    def variants(level: object) -> object:
        for i in range(10):
            yield {"i": i}, f"p{i}"

    def minimum(v: dict[str, int], states: int, at_least: int | None
                ) -> tuple[int, tuple[tuple[int, str, str], ...]]:
        measured.append(v["i"])
        return 12, ((0, "head", "up"),)

    monkeypatch.setitem(costs._VARIANTS, "frozen", variants)
    monkeypatch.setattr(costs, "_minimum", minimum)
    costs.costly({}, "frozen", 10, limit=4)  # type: ignore[arg-type]
    assert measured == [0, 2, 5, 7]


@pytest.mark.cpython_only  # worker processes: not in Pyodide
@pytest.mark.search_heavy
def test_a_board_build_has_the_same_bytes_with_one_and_two_workers(tmp_path: Path) -> None:
    # Levels 101-112: three lanes with two levels each (101 and 109 on twin, 103 and 111 on
    # pillars, 104 and 112 on notched) and a breather (110); with two workers a lane is one
    # task, built in order.
    assert tasks(list(range(101, 113)), SEED, "board")[:4] == [(101, 109), (102,), (103, 111),
                                                                (104, 112)]
    build_mainline(tmp_path / "one", seed=SEED, levels=(101, 112), block=4, edition="board")
    build_mainline(tmp_path / "two", seed=SEED, levels=(101, 112), block=4, workers=2,
                   edition="board")
    one = {p.name: p.read_bytes() for p in (tmp_path / "one").iterdir()}
    assert one == {p.name: p.read_bytes() for p in (tmp_path / "two").iterdir()}
    assert sorted(one) == ["main-0101-0104.json", "main-0105-0108.json", "main-0109-0112.json",
                           "progress.json"]
    with pytest.raises(GridforgeError, match="--edition: one of chambers, board"):
        build_mainline(tmp_path / "three", seed=SEED, levels=(101, 101), edition="open")


@pytest.mark.search_heavy
def test_a_level_with_two_pieces_is_rebuilt_from_its_first_and_each_piece_costs_its_reading(
) -> None:
    # Level 388 of the board edition (courtyard, built from f6a70e6): its first piece (a
    # freeze) left it short of its plan, so it took a frozen hole measured on top of it.
    saved = json.loads((Path(__file__).parent / "data" / "board_0388_two_pieces.json").read_text())
    data, cert = saved["level"], saved["certificate"]
    assert data["meta"]["pieces"] == ["frozen", "frozen_holes"]
    assert check(level_from_json(data), cert) == []  # both witnesses replay and are refused
    steps = cert["steps"]
    for mechanic, cost in cert["reading"]["piece_cost"].items():
        got = costs.lifted(data, mechanic)
        assert got is not None and steps - got[0] == cost >= 2

    def minimal(level: LevelJson) -> tuple[tuple[int, str, str], ...]:
        result = Solver(Game(level_from_json(level))).solve(max_states=400_000, max_seconds=1e9)
        assert result.optimal and result.steps is not None
        return tuple((int(s[0]), str(s[1]), str(s[2])) for s in result.steps)

    plain = {k: v for k, v in data.items() if k != "meta"}
    first = copy.deepcopy(plain)
    first["holes"][1].pop("frozen")
    idea = copy.deepcopy(first)
    idea["bodies"][2].pop("frozen")
    idea_steps, first_steps = minimal(idea), minimal(first)
    cost = len(first_steps) - len(idea_steps)
    joint = cert["reading"]["main_region"]["joint"]
    pieced = board_line._Pieced(first, first_steps, [{  # type: ignore[arg-type]
        "mechanic": "bodies[2].frozen", "solution": [list(s) for s in idea_steps]}],
        ("frozen",), joint + cost, {"bodies[2].frozen": cost})
    deepest = next(iter(board_line._more_pieces(board_plan(388, SEED), pieced)))
    # The same level and piece costs as the build's; each witness a minimal solution of the
    # level with its one piece lifted.
    assert deepest.level == plain and deepest.pieces == ("frozen", "frozen_holes")
    assert deepest.costs == cert["reading"]["piece_cost"]
    assert [len(w["solution"]) for w in deepest.witnesses] == [
        len(w["solution"]) for w in cert["witnesses"]]


def test_the_fourth_arc_starts_fresh_lanes_at_the_score_floor() -> None:
    # Levels up to 1200 keep their lanes of the third arc (built before the floor).
    assert board_line.ARCS[3] == board_line.LATE_FROM
    assert all(arc_of(n) == 2 for n in (901, 1200)) and arc_of(1201) == 3
    for n in range(board_line.LATE_FROM, board_line.LATE_FROM + 20):
        if not board_plan(n, SEED).breather:
            assert lane_levels(n, SEED)[0] >= board_line.LATE_FROM
    twin = next(n for n in range(1201, 1300) if board_plan(n, SEED).template == "twin"
                and not board_plan(n, SEED).breather)
    rise = board_line.SCORE_FLOOR_TOP - board_line.SCORE_FLOOR
    for n in (twin, LEVELS - 1):  # linear to SCORE_FLOOR_TOP at level 2000 (a breather)
        assert board_line.score_floor(board_plan(n, SEED), "twin") == pytest.approx(
            board_line.SCORE_FLOOR + rise * (n - 1201) / (LEVELS - 1201))
    assert board_line.score_floor(board_plan(twin, SEED), "comb") is None
    assert board_line.score_floor(board_plan(1200, SEED), "twin") is None
    breather = next(n for n in range(1201, 1300) if board_plan(n, SEED).breather)
    assert board_line.score_floor(board_plan(breather, SEED), "twin") is None


def test_an_idea_under_its_score_floor_is_refused_by_the_level_s_own_strict_climbs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    data, cert = design_level(58, SEED)  # any level with its proven solution
    solution = cert["solution"]
    score = score_level(level_from_json(data), solution, diagnostics=False)["total"]
    steps = tuple((int(b), str(end), str(d)) for b, end, d in solution)
    measure = Measure(len(steps), 0, 0, 1, 0, steps, 0)
    assert board_line._scores(score, data, measure)
    assert not board_line._scores(score + 0.1, data, measure)
    assert board_line._scores(None, data, measure)
    plan = next(board_plan(n, SEED) for n in range(1201, 1300)
                if board_plan(n, SEED).template == "twin" and not board_plan(n, SEED).breather)
    asked: list[tuple[str, bool, object]] = []

    def fresh_climb(request: Request, rng: object, accept: object = None) -> None:
        asked.append((request.template, request.steps_per_joint is not None, accept))

    monkeypatch.setattr(board_line, "build_idea", fresh_climb)
    assert list(board_line._ideas(plan, SEED, None)) == []
    floored = [accept is not None for *_, accept in asked]
    assert floored == [True] * board_line.ATTEMPTS + [False] * (len(asked) - board_line.ATTEMPTS)
    asked.clear()
    list(board_line._ideas(board_plan(plan.number - 100, SEED), SEED, None))
    assert all(accept is None for *_, accept in asked)
