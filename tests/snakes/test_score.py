"""The seven-term score: weights, each term on known levels, the seed's swap test."""

from __future__ import annotations

import copy

from gridforge.snakes.design.score import WEIGHTS, score_level, shuffle_steps
from gridforge.snakes.game.level import Level
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.search import Solver
from gridforge.snakes.solver.selfcheck import SPEC_EXAMPLE

# Two halls joined by a door two cells wide (column 4, rows 2-3).
TWIN_STONES = [[4, 0], [4, 1], [4, 4], [4, 5]]
TWIN_BODIES = [
    {"cells": [[0, 0], [1, 0]], "colors": [1]},
    {"cells": [[0, 5], [1, 5]], "colors": [2]},
    {"cells": [[8, 0], [7, 0]], "colors": [1]},
    {"cells": [[8, 5], [7, 5]], "colors": [2]},
]


def twin(hole_colors: list[int]) -> Level:
    cells = [[2, 2], [2, 3], [6, 2], [6, 3]]
    return Level.from_json({
        "format": "gridforge.snakes.level/1", "cols": 9, "rows": 6, "stones": TWIN_STONES,
        "bodies": copy.deepcopy(TWIN_BODIES),
        "holes": [{"cell": c, "color": k} for c, k in zip(cells, hole_colors, strict=True)],
    })


def solved(level: Level) -> list:
    result = Solver(Game(level)).solve(max_states=50_000, max_seconds=30)
    assert result.moves is not None
    return result.steps


def test_weights_sum_to_one_hundred():
    assert sum(w for _, w in WEIGHTS) == 100
    assert [name for name, _ in WEIGHTS] == [
        "occupancy", "body_scale", "steps", "blocking", "mechanics", "shuffling", "space"]


def test_swap_test_only_hole_colours_swapped_changes_space_score():
    # Each hall holds its own supply: no body has to cross the door.
    home = twin([1, 2, 1, 2])
    # Swap two hole colours across the door: now one layer of each colour must cross.
    away = twin([1, 1, 2, 2])
    assert home.stones == away.stones and home.bodies == away.bodies
    assert sorted(h.cell for h in home.holes) == sorted(h.cell for h in away.holes)
    assert sorted(h.color for h in home.holes) == sorted(h.color for h in away.holes)
    s_home = score_level(home, solved(home))
    s_away = score_level(away, solved(away))
    assert s_home["diagnostics"]["space"]["B"] == 0.0
    assert s_away["diagnostics"]["space"]["B"] == 0.5
    assert s_home["contributions"]["space"] != s_away["contributions"]["space"]
    (door,) = s_away["diagnostics"]["space"]["narrow_points"]
    assert (door["cross_demand"], door["width"]) == (2, 2)


def test_every_contribution_and_diagnostic_is_reported():
    level = Level.from_json(SPEC_EXAMPLE)
    out = score_level(level, solved(level))
    assert set(out["contributions"]) == {name for name, _ in WEIGHTS}
    total = sum(out["contributions"].values())
    assert abs(out["total"] - round(total, 1)) <= 0.05 + 1e-9
    diag = out["diagnostics"]
    for key in ("occupancy_ratio", "body_count", "mean_length", "longest_body",
                "solution_steps", "potential_exits", "shuffle_steps", "extra_layers",
                "frozen_threshold_sum", "key_bodies", "lock_bodies"):
        assert key in diag
    for key in ("component_count", "diameter", "mean_detour_ratio", "coverage_2x2",
                "cycle_rank", "max_narrow_load", "wall_bound", "manhattan_bound",
                "largest_free_area", "general_cuts", "narrow_points"):
        assert key in diag["space"]


def test_spec_example_terms_by_hand():
    level = Level.from_json(SPEC_EXAMPLE)
    out = score_level(level, solved(level))
    norm = out["normalised"]
    # 9 body cells + 5 holes on 40 floor cells
    assert norm["occupancy"] == round((14 / 40 - 0.25) / 0.6, 4)
    assert norm["body_scale"] == round(9 / 70, 4)
    # the spec says this level's minimum is 20 steps
    assert out["diagnostics"]["solution_steps"] == 20
    assert norm["steps"] == 0.2
    # 1 coat, frozen 1 (body) + 2 (hole), 1 key body + 1 lock body, 4 bodies
    assert norm["mechanics"] == round(1 / 2.8 + 3 / 20 + 2 / 4.4, 4)
    # every body can reach a hole of its outer colour at the start
    assert out["diagnostics"]["potential_exits"] == 4
    assert norm["blocking"] == 0.0


def test_shuffle_steps_count_runs_not_ending_in_an_exit():
    level = Level.from_json({
        "format": "gridforge.snakes.level/1", "cols": 6, "rows": 2, "stones": [],
        "bodies": [{"cells": [[1, 0], [2, 0]], "colors": [1]},
                   {"cells": [[3, 0], [4, 0]], "colors": [2]}],
        "holes": [{"cell": [5, 0], "color": 1}, {"cell": [0, 1], "color": 2}],
    })
    game = Game(level)
    make_room = [[1, "head", "D"], [1, "head", "L"]]  # body 1 steps aside: a shuffle run
    body0_out = [[0, "tail", "R"]] * 3  # ends in an exit
    body1_out = [[1, "head", "L"]] * 2  # ends in an exit
    solution = make_room + body0_out + body1_out
    assert game.is_complete(game.replay(solution)[-1])
    assert shuffle_steps(game, solution) == 2
    out = score_level(level, solution)
    assert out["diagnostics"]["shuffle_steps"] == 2
    assert out["normalised"]["shuffling"] == round(0.45 * 2 / 4, 4)


def test_blocking_counts_bodies_walled_in_at_the_start():
    level = Level.from_json({
        "format": "gridforge.snakes.level/1", "cols": 4, "rows": 2, "stones": [],
        "bodies": [{"cells": [[0, 0], [0, 1]], "colors": [1]},
                   {"cells": [[1, 0], [1, 1]], "colors": [2]}],
        "holes": [{"cell": [3, 0], "color": 1}, {"cell": [2, 1], "color": 2}],
    })
    out = score_level(level, solved(level))
    # body 0 is walled in by body 1; body 1 reaches its hole
    assert out["diagnostics"]["potential_exit_bodies"] == [1]
    assert out["normalised"]["blocking"] == 0.5
    assert out["diagnostics"]["shuffle_steps"] >= 0
