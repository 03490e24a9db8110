"""bench.audit.board, the independent auditor of issue 50's must-holds, and its depth terms
(bench.audit.depth) and stretch types (bench.audit.stretch): hand-made levels with known
answers (levels.md's three-body room among them), exhaustive search as the oracle of the
pair split bound, the game's relaxed costs as a second opinion on part costs, and stretch
types held invariant under the square's symmetries and colour renaming.  The auditor imports
nothing from gridforge; this test may."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from gridforge.snakes.design.interlock import blocks, must_move_chain
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.pairs import relaxed_cost
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.audit import board as ba
from bench.audit import depth as dp
from bench.audit import line as la
from bench.audit import stretch as sx
from tests.snakes import terrain_oracle as oracle

pytestmark = pytest.mark.cpython_only  # reads the repository's bench/ folder

DATA = Path(__file__).resolve().parents[2] / "pkg" / "gridforge" / "snakes" / "data"
CHECK = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck),
                 derandomize=True)


def ascii_level(rows: list[str], heads: list[tuple[str, list[int]]]) -> dict[str, Any]:
    """A level drawn as in levels.md: space-separated tokens, '#' stone, '.' floor, a digit a
    hole of that colour, a capital a head and its lower case the rest of its body (followed
    from the head); ``heads``: (capital, colours) in body order."""
    grid = [r.split() for r in rows]
    stones, holes, marks = [], [], {}
    for y, row in enumerate(grid):
        for x, t in enumerate(row):
            if t == "#":
                stones.append([x, y])
            elif t.isdigit():
                holes.append({"cell": [x, y], "color": int(t)})
            elif t != ".":
                marks[(x, y)] = t
    bodies = []
    for head_mark, colors in heads:
        path = [next(c for c, t in marks.items() if t == head_mark)]
        while True:
            x, y = path[-1]
            step = [(x + dx, y + dy) for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0))
                    if marks.get((x + dx, y + dy)) == head_mark.lower()
                    and (x + dx, y + dy) not in path]
            if not step:
                break
            path.append(step[0])
        bodies.append({"cells": [list(c) for c in path], "colors": colors})
    return {"format": "gridforge.snakes.level/1", "cols": len(grid[0]), "rows": len(grid),
            "stones": stones, "bodies": bodies, "holes": holes}


# levels.md, "Depth is interaction": A, B, C heads of colours 0, 1, 2
ROOM = ascii_level(["2 1 A a a",
                    "# # # # B",
                    "# C c c b",
                    ". . . . .",
                    ". . . . #",
                    "0 . . . ."], [("A", [0]), ("B", [1]), ("C", [2])])


def test_the_three_body_room_of_levels_md_keeps_its_figures() -> None:
    lv = la.Level(ROOM)
    d = dp.measure_depth(lv, 100_000)
    assert d.minimum.exact and d.minimum.low == 28
    assert d.singles == [9, 4, 7]
    assert d.pairs[(0, 1)] == 17  # A + B
    assert d.split == 24 and d.beyond == 4
    # A blocks B and C (its cells close the top row), B blocks A and C (the right-hand
    # column): the longest chain A -> B -> C (or B -> A -> C) has length 2
    assert d.edges == {0: [1, 2], 1: [0, 2], 2: []}
    assert d.chain == 2
    # the exhaustive oracle agrees on the minimum
    assert oracle.oracle_min_steps(ROOM, 2_000_000) == 28


def test_the_pair_split_bound_is_the_best_partition() -> None:
    # brute force over every partition of 4 bodies into pairs and singles
    singles = [3, 5, 2, 7]
    pairs = {(0, 1): 10, (0, 2): 9, (1, 3): 14, (2, 3): 9}
    assert dp.pair_split(singles, pairs) == max(
        sum(singles),
        10 + 2 + 7, 9 + 5 + 7, 14 + 3 + 2, 9 + 3 + 5,
        10 + 9, 14 + 9,  # {01, 23}, {02, 13}
    )


def test_chains_are_simple_paths() -> None:
    assert dp.longest_chain({0: [1], 1: [0], 2: []}) == 1  # a cycle adds nothing
    assert dp.longest_chain({0: [1], 1: [2], 2: [3], 3: []}) == 3
    assert dp.longest_chain({0: [], 1: []}) == 0


def lifted(data: dict[str, Any]) -> dict[str, Any]:
    """The level with every freeze, lock and key gone."""
    out = copy.deepcopy(data)
    for b in out["bodies"]:
        for k in ("frozen", "lock", "key"):
            b.pop(k, None)
    for h in out["holes"]:
        h.pop("frozen", None)
    return out


@CHECK
@given(oracle.small_terrain_levels())
def test_the_pair_split_bound_is_never_above_the_exhaustive_minimum(
        data: dict[str, Any]) -> None:
    free = lifted(data)
    exhaustive = oracle.oracle_min_steps(free, 300_000)
    if exhaustive is None:
        return  # too many states for the oracle
    lv = la.Level(free)
    d = dp.measure_depth(lv, 300_000)
    if exhaustive == oracle.UNSOLVABLE:
        assert d.minimum.high is None
        return
    assert d.minimum.exact and d.minimum.low == exhaustive
    assert d.split is not None and d.split <= exhaustive
    assert d.beyond == exhaustive - d.split >= 0


@CHECK
@given(oracle.small_terrain_levels())
def test_part_costs_agree_with_solo_costs_and_the_games_relaxed_costs(
        data: dict[str, Any]) -> None:
    lv = la.Level(data)
    game = Game(level_from_json(data))
    for b in range(lv.k):
        solo, _st = la.solo_cost(lv, b, 200_000)
        assert dp.part_cost(lv, [b], 200_000).cost == solo
    for i in range(lv.k):
        for j in range(i + 1, lv.k):
            mine = dp.part_cost(lv, [i, j], 200_000)
            theirs = relaxed_cost(game, [i, j], max_states=200_000)
            assert theirs.exact and mine.exact
            assert (mine.cost if mine.cost is not None else "none") == (
                theirs.cost if theirs.cost < 10**6 else "none"), (i, j)


def test_blocks_needs_the_blockers_cells_to_be_what_stops_it() -> None:
    # a corridor: body 0 (A, colour 0) stands between body 1 (B) and the hole of colour 1
    data = ascii_level(["B b A a 0 1", "# # # # # #"], [("A", [0]), ("B", [1])])
    lv = la.Level(data)
    assert dp.blocks(lv, 0, 1, 10_000) is True  # A walls B in
    assert dp.blocks(lv, 1, 0, 10_000) is False  # A leaves rightwards whatever B does
    d = dp.measure_depth(lv, 10_000)
    assert d.edges == {0: [1], 1: []} and d.chain == 1


def two_chambers() -> dict[str, Any]:
    """Two corridors split by a row of stones; the lower body frozen until one layer is out
    and locked by a key that the upper body carries: the lower chamber has two bodies and
    is the main region."""
    return {"format": "gridforge.snakes.level/1", "cols": 7, "rows": 3,
            "stones": [[x, 1] for x in range(7)],
            "bodies": [{"cells": [[1, 0], [0, 0]], "colors": [0], "key": "a"},
                       {"cells": [[1, 2], [0, 2]], "colors": [1], "frozen": 1,
                        "lock": {"id": "a", "kind": "silver"}},
                       {"cells": [[5, 2], [6, 2]], "colors": [2], "frozen": 2}],
            "holes": [{"cell": [3, 0], "color": 0}, {"cell": [3, 2], "color": 1},
                      {"cell": [4, 2], "color": 2, "frozen": 2}]}


def test_a_two_chamber_level_has_two_regions_and_a_main_one() -> None:
    lv = la.Level(two_chambers())
    regions = dp.regions_with_bodies(lv)
    assert [bodies for _c, bodies in regions] == [[0], [1, 2]]
    comp, members = dp.main_region(lv)
    assert members == [1, 2] and len(comp) == 7
    # with its mechanics: freezes lose what the other chamber's one layer can give, the
    # lock keyed from outside is lifted
    raw = dp.region_raw(lv, comp, mechanics=True)
    assert [b.get("frozen") for b in raw["bodies"]] == [None, 1]
    assert all("lock" not in b for b in raw["bodies"])
    assert [h.get("frozen") for h in raw["holes"]] == [None, 1]
    assert all("frozen" not in b for b in dp.region_raw(lv, comp, False)["bodies"])
    # the whole solution projected onto the region replays there
    region = la.Level(raw)
    sol = oracle.oracle_solution(two_chambers(), 200_000)
    assert sol is not None
    projected = dp.project(lv, members, [list(s) for s in sol])
    assert la.replay(region, projected)[0]


# ---- stretch types ----------------------------------------------------------------------------


def moved(data: dict[str, Any], sym: int, colours: dict[int, int] | None = None
          ) -> dict[str, Any]:
    """The level under one of the 8 symmetries (bit 4 transposes, bit 1 mirrors x, bit 2
    mirrors y, in that order) with its colours renamed by ``colours``."""
    cols, rows = data["cols"], data["rows"]
    swap = bool(sym & 4)
    w, h = (rows, cols) if swap else (cols, rows)
    ren = colours or {}

    def at(c: list[int]) -> list[int]:
        x, y = (c[1], c[0]) if swap else (c[0], c[1])
        return [w - 1 - x if sym & 1 else x, h - 1 - y if sym & 2 else y]

    out = copy.deepcopy(data)
    out["cols"], out["rows"] = w, h
    out["stones"] = [at(c) for c in data["stones"]]
    for b in out["bodies"]:
        b["cells"] = [at(c) for c in b["cells"]]
        b["colors"] = [ren.get(c, c) for c in b["colors"]]
    for hole in out["holes"]:
        hole["cell"] = at(hole["cell"])
        hole["color"] = ren.get(hole["color"], hole["color"])
    if "paths" in out:
        out["paths"] = [{"cell": at(p["cell"]), "color": ren.get(p["color"], p["color"])}
                        for p in out["paths"]]
    if "bridges" in out:
        out["bridges"] = [at(c) for c in out["bridges"]]
    return out


def kind(data: dict[str, Any]) -> str:
    lv = la.Level(data)
    return sx.stretch_type(lv, dp.main_region(lv)[0])


CORRIDOR = ascii_level([". A a . . . . 0",
                        "# # # # . # # #",
                        "1 . . . . B b b"], [("A", [0]), ("B", [1])])
# the same with its fourth column drawn three times and its middle row twice
LONGER = ascii_level([". A a . . . . . . 0",
                      "# # # # # # . # # #",
                      "# # # # # # . # # #",
                      "1 . . . . . . B b b"], [("A", [0]), ("B", [1])])


def test_a_longer_corridor_is_the_same_stretch_type() -> None:
    assert kind(LONGER) == kind(CORRIDOR)
    # but a body made longer is another picture
    other = copy.deepcopy(CORRIDOR)
    other["bodies"][0]["cells"].insert(0, [0, 0])
    assert kind(other) != kind(CORRIDOR)


def test_symmetries_and_renamed_colours_keep_the_type_and_a_reversed_body_does_not() -> None:
    base = kind(CORRIDOR)
    for sym in range(8):
        assert kind(moved(CORRIDOR, sym)) == base, sym
    assert kind(moved(CORRIDOR, 5, {0: 7, 1: 3})) == base
    assert kind(moved(ROOM, 0, {0: 2, 1: 0, 2: 1})) == kind(ROOM)
    reversed_ = copy.deepcopy(CORRIDOR)
    reversed_["bodies"][1]["cells"].reverse()
    assert kind(reversed_) != base
    # colours matter up to renaming: the two bodies swapping their holes is another type
    swapped = copy.deepcopy(CORRIDOR)
    swapped["holes"][0]["color"], swapped["holes"][1]["color"] = 1, 0
    assert kind(swapped) != base


def test_only_the_main_region_is_typed() -> None:
    # a second, smaller chamber beside the corridor changes nothing
    data = copy.deepcopy(CORRIDOR)
    w = data["cols"]
    data["cols"] += 3
    data["stones"] += [[w, y] for y in range(3)]
    data["bodies"].append({"cells": [[w + 1, 0], [w + 2, 0]], "colors": [2]})
    data["holes"].append({"cell": [w + 1, 2], "color": 2})
    lv = la.Level(data)
    assert [len(bodies) for _c, bodies in dp.regions_with_bodies(lv)] == [2, 1]
    assert kind(data) == kind(CORRIDOR)


@CHECK
@given(oracle.small_terrain_levels(), st.integers(0, 7), st.permutations(list(range(15))))
def test_stretch_types_ignore_symmetries_and_colour_names(
        data: dict[str, Any], sym: int, perm: list[int]) -> None:
    renamed = moved(data, sym, dict(enumerate(perm)))
    lv, lv2 = la.Level(data), la.Level(renamed)
    assert sx.stretch_type(lv2, dp.main_region(lv2)[0]) == sx.stretch_type(
        lv, dp.main_region(lv)[0])


@CHECK
@given(oracle.small_terrain_levels(), st.integers(0, 4))
def test_collapsing_is_the_same_whichever_axis_goes_first(data: dict[str, Any],
                                                          sym: int) -> None:
    lv = la.Level(data)
    grid = sx.transform(sx.picture(lv, dp.main_region(lv)[0]), sym)
    cols_first = sx.transform(sx.collapse(sx.transform(grid, 4)), 4)
    assert sx.collapse(cols_first) == sx.collapse(grid)


# ---- the audit's figures ----------------------------------------------------------------------


def test_turns_spearman_and_share_verdicts() -> None:
    assert ba.turns([[0, 0], [1, 0], [2, 0]]) == 0
    assert ba.turns([[0, 0], [1, 0], [1, 1], [2, 1]]) == 2
    assert ba.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert ba.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert ba.spearman([1, 2, 3], [5, 5, 5]) is None
    assert ba.spearman([1, 2, 3, 4, 5], [1, 3, 2, 5, 4]) == pytest.approx(0.8)
    assert ba.share_verdict(5, 0, 10, 0.5) is True
    assert ba.share_verdict(4, 0, 10, 0.5) is False
    assert ba.share_verdict(4, 1, 10, 0.5) is None
    assert ba.share_verdict(0, 0, 0, 0.5) is None


def audit(items: list[la.Item], **kw: Any) -> ba.BoardAudit:
    args = ba.argparse.Namespace(sample=0, seed=1, budget=200_000, **kw)
    return ba.BoardAudit(items, items, args)


def test_piece_costs_paint_and_freezes() -> None:
    # paint that forces a detour: 10 steps with it, 4 without
    data = oracle.EXAMPLE_PAINT_COSTS
    sol = [list(s) for s in oracle.oracle_solution(data, 100_000) or []]
    it = la.Item(101, data, {"solution": sol, "steps": len(sol)})
    a = audit([it])
    assert a._cost(it, "paint")[:2] == (6, 6)
    # freezes and a lock that only order: they cost nothing
    data = two_chambers()
    sol = [list(s) for s in oracle.oracle_solution(data, 200_000) or []]
    it = la.Item(102, data, {"solution": sol, "steps": len(sol)})
    a = audit([it])
    assert a._cost(it, "freezes")[:2] == (0, 0)
    assert a._cost(it, "locks")[:2] == (0, 0)


def test_a_freeze_that_forces_a_wait_costs_steps() -> None:
    # B (colour 1) would drop into its hole at once, but it is frozen until A's layer is
    # out, and A's way to its hole runs through B's: 3 steps become 5
    data = ascii_level([". . A a",
                        ". . 1 B",
                        ". . 0 b"], [("A", [0]), ("B", [1])])
    lifted_min = oracle.oracle_min_steps(data, 100_000)
    data["bodies"][1]["frozen"] = 1
    full_min = oracle.oracle_min_steps(data, 100_000)
    assert (lifted_min, full_min) == (3, 5)
    sol = [list(s) for s in oracle.oracle_solution(data, 100_000) or []]
    it = la.Item(103, data, {"solution": sol, "steps": len(sol)})
    assert audit([it])._cost(it, "freezes")[:2] == (full_min - lifted_min,) * 2


def shipped_block(first: int) -> dict[str, Any]:
    got: dict[str, Any] = json.loads(
        (DATA / f"main-{first:04d}-{first + 24:04d}.json").read_text())
    return got


def test_the_command_line_judges_a_block_of_the_shipped_line(tmp_path: Path,
                                                              capsys: Any) -> None:
    for first in (1, 101):
        (tmp_path / f"main-{first:04d}-{first + 24:04d}.json").write_text(
            json.dumps(shipped_block(first)))
    assert ba.main(["--data", str(tmp_path), "--sample", "1", "--seed", "3",
                    "--budget", "100000"]) == 0
    out = capsys.readouterr().out
    summary = out[out.index("## must-holds"):]
    # the third build: stone-walled chambers, no seed template, all proven
    assert "1 board: FAIL" in summary
    assert "7 template: FAIL" in summary
    assert "9 proven: PASS" in summary
    for name in ba.ALL_CHECKS:
        assert f" {name}: " in summary
    # the sampled level's depth row is there, with its solo costs
    assert "## 3 depth: main region" in out and "## 4 joint by band of 250" in out


def test_samples_are_drawn_per_band_from_the_seed() -> None:
    items = [la.Item(n, {}, {}) for n in range(101, 801)]
    a = audit(items)
    a.args.sample = 4
    got = a.sample(items, 0)
    # bands of 250: 101-250, 251-500, 501-750, 751-800, four levels from each
    assert [ba.wide_band(it.number) for it in got] == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4
    assert got == a.sample(items, 0)
    a.args.seed = 2
    assert got != a.sample(items, 0)


def test_unknown_checks_are_refused(capsys: Any) -> None:
    with pytest.raises(SystemExit):
        ba.main(["--checks", "board,nonsense"])
    assert "unknown checks" in capsys.readouterr().err


def test_splicing_puts_a_regions_own_steps_in_place_of_the_certificates() -> None:
    data = two_chambers()
    lv = la.Level(data)
    sol = [list(s) for s in oracle.oracle_solution(data, 200_000) or []]
    comp, members = dp.main_region(lv)
    region = la.Level(dp.region_raw(lv, comp, mechanics=False))
    own = dp.minimum(region, 100_000)
    assert own.exact and own.solution is not None
    spliced = dp.splice(lv, sol, [(members, own.solution)])
    assert spliced is not None and la.replay(lv, spliced)[0]
    assert len(spliced) == len(sol) - len(dp.project(lv, members, sol)) + own.low
    # a step no order can make legal (into the stone row): no splice
    into_stone = [[1, "head", "U"]]  # the region's body 1 is the level's body 2
    assert dp.splice(lv, sol, [(members, into_stone)]) is None


def test_main_region_joint_steps_keep_the_mechanics_and_depth_lifts_them() -> None:
    # the room: no mechanics, joint = 28 - body bound (solo sum 20 or the travel bound)
    sol = [list(s) for s in oracle.oracle_solution(ROOM, 2_000_000) or []]
    it = la.Item(301, ROOM, {"solution": sol, "steps": len(sol)})
    lv = la.Level(ROOM)
    row = audit([it])._joint(it)
    assert row is not None and it.fig["joint"] == 28 - max(lv.h(lv.start), 20)
    # the frozen corridor: the freeze's 2 steps are joint steps; depth's minimum lifts them
    data = ascii_level([". . A a",
                        ". . 1 B",
                        ". . 0 b"], [("A", [0]), ("B", [1])])
    data["bodies"][1]["frozen"] = 1
    sol = [list(s) for s in oracle.oracle_solution(data, 100_000) or []]
    it = la.Item(302, data, {"solution": sol, "steps": len(sol)})
    a = audit([it])
    a._joint(it)
    lv = la.Level(data)
    solos = [la.solo_cost(lv, b, 10_000)[0] or 0 for b in range(lv.k)]
    assert it.fig["joint"] == 5 - max(lv.h(lv.start), sum(solos))
    d = a._depth(it)
    assert d is not None and d.minimum.low == 3


@CHECK
@given(oracle.small_terrain_levels())
def test_blocks_and_chains_agree_with_the_designers(data: dict[str, Any]) -> None:
    lv = la.Level(data)
    level = level_from_json(data)
    movable = [b for b in range(lv.k) if la.solo_cost(lv, b, 100_000)[0] not in (None, -1)]
    for x in range(lv.k):
        for y in movable:
            if x != y:
                assert dp.blocks(lv, x, y, 100_000) == blocks(level, x, y, budget=100_000)
    d = dp.measure_depth(lv, 100_000)
    if len(movable) == lv.k:
        assert d.chain == must_move_chain(level)


def test_a_missing_or_broken_data_folder_is_named(tmp_path: Path, capsys: Any) -> None:
    with pytest.raises(SystemExit):
        ba.main(["--data", str(tmp_path / "nowhere")])
    assert "nowhere is not a folder" in capsys.readouterr().err
    (tmp_path / "progress.json").write_text("{not json")
    with pytest.raises(SystemExit):
        ba.main(["--data", str(tmp_path)])
    assert "progress.json unreadable" in capsys.readouterr().err
