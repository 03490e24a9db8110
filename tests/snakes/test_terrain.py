"""Terrain beyond the seed (spec section 3b): coloured paths and bridges in the level file,
the step rule, the lower bound and the editor's tools."""

from __future__ import annotations

import copy
import json

import pytest
from gridforge.errors import ValidationError
from gridforge.snakes import page as snakes_page
from gridforge.snakes.editor.editing import apply_edit, blank
from gridforge.snakes.editor.snapshot import level_at
from gridforge.snakes.editor.transform import transform
from gridforge.snakes.game.level import level_from_json, level_sha256, spec_example, validate_level
from gridforge.snakes.game.rules import Game, step_to_move
from gridforge.snakes.solver.search import Solver, bfs_optimum

FORMAT = "gridforge.snakes.level/1"


def board(bodies, holes, *, cols=5, rows=5, stones=(), paths=(), bridges=()):
    data = {"format": FORMAT, "cols": cols, "rows": rows, "stones": [list(s) for s in stones],
            "bodies": bodies, "holes": holes}
    if paths:
        data["paths"] = [{"cell": list(c), "color": k} for c, k in paths]
    if bridges:
        data["bridges"] = [list(c) for c in bridges]
    return data


def codes(data):
    return [(i.path, i.code) for i in validate_level(data)]


# A body that crosses itself on the bridge at (2, 2): down the column, round, along the row.
CROSSING = board(
    [{"cells": [[2, 0], [2, 1], [2, 2], [2, 3], [1, 3], [1, 2], [2, 2], [3, 2]], "colors": [1]}],
    [{"cell": [4, 4], "color": 1}], bridges=[(2, 2)])


# ---------------------------------------------------------------- the file


def test_a_level_without_terrain_keeps_its_bytes_and_sha():
    data = spec_example()
    level = level_from_json(data)
    assert "paths" not in level.to_json() and "bridges" not in level.to_json()
    with_empty = {**copy.deepcopy(data), "paths": [], "bridges": []}
    assert level_sha256(with_empty) == level_sha256(data)


def test_terrain_is_part_of_the_sha_and_round_trips():
    data = board([{"cells": [[0, 0], [1, 0]], "colors": [1]}], [{"cell": [4, 4], "color": 1}],
                 paths=[((2, 2), 1)], bridges=[(3, 3)])
    level = level_from_json(data)
    assert level.to_json() == data
    plain = {k: v for k, v in data.items() if k not in ("paths", "bridges")}
    assert level_sha256(data) != level_sha256(plain)


@pytest.mark.parametrize(("paths", "bridges", "expected"), [
    ([((3, 0), 1)], [], ("paths[0].cell", "on_stone")),
    ([((4, 4), 1)], [], ("paths[0].cell", "on_hole")),
    ([((5, 0), 1)], [], ("paths[0].cell", "off_board")),
    ([((2, 2), 1), ((2, 2), 2)], [], ("paths[1].cell", "duplicate")),
    ([((2, 2), 15)], [], ("paths[0].color", "range")),
    ([], [(3, 0)], ("bridges[0]", "on_stone")),
    ([], [(4, 4)], ("bridges[0]", "on_hole")),
    ([], [(0, 9)], ("bridges[0]", "off_board")),
    ([], [(2, 2), (2, 2)], ("bridges[1]", "duplicate")),
    ([((2, 2), 1)], [(2, 2)], ("bridges[0]", "duplicate")),
])
def test_bad_terrain_is_refused_with_its_field_path(paths, bridges, expected):
    data = board([{"cells": [[0, 0], [1, 0]], "colors": [1]}], [{"cell": [4, 4], "color": 1}],
                 stones=[(3, 0)], paths=paths, bridges=bridges)
    assert expected in codes(data)
    with pytest.raises(ValidationError):
        level_from_json(data)


@pytest.mark.parametrize("raw", [
    {"paths": {"cell": [1, 1]}}, {"paths": [[1, 1]]}, {"paths": [{"cell": [1, 1]}]},
    {"paths": [{"cell": [1, 1], "color": 1, "x": 0}]}, {"bridges": [[1]]}, {"bridges": 3},
])
def test_malformed_terrain_names_the_field(raw):
    data = {**board([{"cells": [[0, 0], [1, 0]], "colors": [1]}],
                    [{"cell": [4, 4], "color": 1}]), **raw}
    found = codes(data)
    assert found and all(p.startswith(("paths", "bridges")) for p, _ in found)


def test_a_body_never_turns_on_a_bridge():
    data = board([{"cells": [[1, 1], [2, 1], [2, 2]], "colors": [1]}],
                 [{"cell": [4, 4], "color": 1}], bridges=[(2, 1)])
    assert codes(data) == [("bodies[0].cells[1]", "bridge_turn")]


def test_a_bridge_lane_holds_one_cell():
    # One body in one lane twice (along the row, back along the row) is refused...
    data = board([{"cells": [[1, 2], [2, 2], [3, 2], [3, 3], [2, 3], [1, 3], [1, 2]],
                   "colors": [1]}], [{"cell": [4, 4], "color": 1}], bridges=[(2, 2)])
    assert ("bodies[0].cells[6]", "repeat") in codes(data)
    # ...and so are two bodies in one lane.
    two = board([{"cells": [[1, 2], [2, 2]], "colors": [1]},
                 {"cells": [[3, 2], [2, 2]], "colors": [1]}],
                [{"cell": [4, 4], "color": 1}, {"cell": [0, 4], "color": 1}], bridges=[(2, 2)])
    assert ("bodies[1].cells[1]", "bridge_lane") in codes(two)
    # Two bodies in the two lanes, and one body crossing itself, are levels.
    cross = board([{"cells": [[1, 2], [2, 2]], "colors": [1]},
                   {"cells": [[2, 1], [2, 2]], "colors": [1]}],
                  [{"cell": [4, 4], "color": 1}, {"cell": [0, 4], "color": 1}], bridges=[(2, 2)])
    assert codes(cross) == []
    assert codes(CROSSING) == []


# ---------------------------------------------------------------- the step rule


def test_paint_refuses_an_end_of_another_colour_and_only_the_entered_cell_counts():
    data = board([{"cells": [[0, 2], [1, 2]], "colors": [1]}],
                 [{"cell": [4, 2], "color": 1}], paths=[((0, 1), 2), ((2, 2), 1)])
    game = Game(level_from_json(data))
    s = game.initial
    assert game.refusal(s, step_to_move([0, "head", "U"])) == "paint"
    assert game.refusal(s, step_to_move([0, "tail", "R"])) is None  # its own colour
    assert game.advance(s, step_to_move([0, "head", "U"])) is None
    # Lying on paint of another colour is allowed, and an end pulled by the other end's step
    # follows the body over it: the head lies on colour 2, walled in but by the body.
    lying = board([{"cells": [[0, 1], [0, 2], [1, 2]], "colors": [1]}],
                  [{"cell": [0, 4], "color": 1}], paths=[((0, 1), 2), ((1, 1), 2)],
                  stones=[(1, 0), (0, 0)])
    game = Game(level_from_json(lying))
    best = bfs_optimum(game)
    assert best == Solver(game).solve().upper_bound == 3
    assert Solver(game).bound(game.initial) <= best


def test_a_coat_changes_which_paint_a_body_may_enter():
    # Colour 2 over colour 1: the path of colour 1 opens once the coat is shed.
    data = board([{"cells": [[0, 0], [1, 0]], "colors": [2, 1]}],
                 [{"cell": [0, 1], "color": 2}, {"cell": [4, 0], "color": 1}],
                 stones=[(2, 1), (3, 1), (4, 1)], rows=2, paths=[((2, 0), 1)])
    game = Game(level_from_json(data))
    assert game.refusal(game.initial, step_to_move([0, "tail", "R"])) == "paint"
    shed = game.apply(game.initial, step_to_move([0, "head", "D"]))
    assert game.refusal(shed, step_to_move([0, "tail", "R"])) is None
    assert bfs_optimum(game) == Solver(game).solve().upper_bound == 4


def test_an_end_on_a_bridge_goes_straight_on():
    data = board([{"cells": [[2, 2], [1, 2], [0, 2]], "colors": [1]}],
                 [{"cell": [4, 4], "color": 1}], bridges=[(2, 2)])
    game = Game(level_from_json(data))
    s = game.initial
    assert game.refusal(s, step_to_move([0, "head", "U"])) == "bridge_turn"
    assert game.refusal(s, step_to_move([0, "head", "D"])) == "bridge_turn"
    assert game.refusal(s, step_to_move([0, "head", "R"])) is None
    assert sorted(game.legal_moves(s)) == sorted(
        step_to_move(x) for x in ([0, "head", "R"], [0, "tail", "U"], [0, "tail", "D"]))


def test_two_bodies_pass_each_other_on_a_bridge():
    # A cross of corridors: each body must pass through the crossing to reach its hole.
    stones = [(0, 0), (1, 0), (3, 0), (4, 0), (0, 1), (1, 1), (3, 1), (4, 1),
              (0, 3), (1, 3), (3, 3), (4, 3), (0, 4), (1, 4), (3, 4), (4, 4)]
    bodies = [{"cells": [[2, 1], [2, 0]], "colors": [1]},
              {"cells": [[1, 2], [0, 2]], "colors": [2]}]
    holes = [{"cell": [2, 4], "color": 1}, {"cell": [4, 2], "color": 2}]
    with_bridge = level_from_json(board(bodies, holes, stones=stones, bridges=[(2, 2)]))
    without = level_from_json(board(bodies, holes, stones=stones))
    game = Game(with_bridge)
    assert bfs_optimum(game) == Solver(game).solve().upper_bound == 6
    assert bfs_optimum(Game(without)) == 6  # one waits, the other passes: no shorter here
    # Both lanes at once: the vertical body's head on the bridge, the other body through it.
    state = game.replay([[0, "head", "D"]])[-1]
    state = game.replay([[1, "head", "R"], [1, "head", "R"]], state)[-1]
    assert [c for b in range(2) for c in game.body_cells(state, b)].count((2, 2)) == 2


def test_a_body_crossing_itself_plays_and_solves():
    level = level_from_json(CROSSING)
    game = Game(level)
    assert game.body_cells(game.initial, 0).count((2, 2)) == 2
    best = bfs_optimum(game)
    result = Solver(game).solve()
    assert result.optimal and result.upper_bound == best
    assert Solver(game).bound(game.initial) <= best


def test_views_and_saved_states_keep_lanes():
    game = Game(level_from_json(CROSSING))
    view = game.state_to_json(game.initial)
    assert view["bodies"][0]["cells"].count([2, 2]) == 2
    assert game.state_from_json(view) == game.initial


# ---------------------------------------------------------------- around the level


def test_a_position_keeps_its_terrain():
    data = board([{"cells": [[0, 2], [1, 2]], "colors": [1]}], [{"cell": [4, 2], "color": 1}],
                 paths=[((2, 2), 1)], bridges=[(3, 3)])
    at = level_at(data, [[0, "tail", "R"]])
    assert at["paths"] == data["paths"] and at["bridges"] == data["bridges"]


def test_transforms_carry_terrain_and_undo():
    data = board([{"cells": [[0, 2], [1, 2]], "colors": [1]}], [{"cell": [4, 2], "color": 1}],
                 paths=[((2, 2), 1)], bridges=[(3, 3)])
    turned = data
    for _ in range(4):
        turned = transform(turned, {"op": "rotate"})
    assert level_sha256(turned) == level_sha256(data)
    mirrored = transform(data, {"op": "mirror_x"})
    assert mirrored["paths"] == [{"cell": [2, 2], "color": 1}]
    assert mirrored["bridges"] == [[1, 3]]


def test_editor_paints_erases_and_bridges():
    draft = blank(5, 5)["level"]
    draft = apply_edit(draft, {"tool": "body", "cells": [[0, 0], [1, 0]], "color": 1})["level"]
    draft = apply_edit(draft, {"tool": "hole", "cell": [4, 4], "color": 1})["level"]
    painted = apply_edit(draft, {"tool": "path", "cells": [[1, 0], [2, 0], [2, 1]], "color": 3})
    assert painted["ok"] and [p["cell"] for p in painted["level"]["paths"]] == [
        [1, 0], [2, 0], [2, 1]]
    bridged = apply_edit(painted["level"], {"tool": "bridge", "cells": [[2, 1], [3, 3]]})
    assert bridged["level"]["bridges"] == [[2, 1], [3, 3]]
    assert [p["cell"] for p in bridged["level"]["paths"]] == [[1, 0], [2, 0]]
    erased = apply_edit(bridged["level"], {"tool": "erase", "cell": [3, 3]})["level"]
    assert erased["bridges"] == [[2, 1]]
    cleared = apply_edit(erased, {"tool": "path", "cells": [[1, 0], [2, 0]], "erase": True})
    assert "paths" not in cleared["level"]
    with pytest.raises(ValidationError) as err:
        apply_edit(draft, {"tool": "path", "cells": [[4, 4]], "color": 1})
    assert err.value.issues[0].path == "edit.cells[0]"
    # A bridge under a body's turn is refused by the level's check: nothing changes.
    turning = apply_edit(draft, {"tool": "body", "cells": [[3, 0], [3, 1], [4, 1]],
                                 "color": 1})["level"]
    with pytest.raises(ValidationError) as err:
        apply_edit(turning, {"tool": "bridge", "cells": [[3, 1]]})
    assert err.value.issues[0].code == "bridge_turn"


# ---------------------------------------------------------------- the lessons' predicates


def test_the_path_lesson_predicate_needs_a_path_that_costs_steps():
    from gridforge.snakes.solver.puzzle import path_costs_steps

    plain = board([{"cells": [[1, 1], [0, 1]], "colors": [1]}], [{"cell": [4, 1], "color": 1}],
                  rows=3)
    across = {**plain, "paths": [{"cell": [2, 1], "color": 2}]}  # the straight way is closed
    aside = {**plain, "paths": [{"cell": [2, 0], "color": 2}]}  # off the way: costs nothing
    assert bfs_optimum(Game(level_from_json(plain))) == 3
    assert bfs_optimum(Game(level_from_json(across))) == 5
    assert path_costs_steps(level_from_json(across), 0)
    assert not path_costs_steps(level_from_json(aside), 0)


def test_the_bridge_lesson_predicate_needs_a_crossing_the_level_cannot_do_without():
    from gridforge.snakes.solver.puzzle import bridge_needed, crossed_bridges

    # A plus of corridors; the locked body lies across the crossing, its key comes down
    # through it: only over the bridge.
    stones = [(x, y) for x in range(5) for y in range(7) if x != 2 and y != 3]
    bodies = [{"cells": [[3, 3], [2, 3], [1, 3]], "colors": [1],
               "lock": {"id": "L1", "kind": "silver"}},
              {"cells": [[2, 1], [2, 0]], "colors": [2], "key": "L1"}]
    holes = [{"cell": [4, 3], "color": 1}, {"cell": [2, 6], "color": 2}]
    level = level_from_json(board(bodies, holes, cols=5, rows=7, stones=stones,
                                  bridges=[(2, 3)]))
    game = Game(level)
    found = Solver(game).solve()
    assert found.optimal and found.moves is not None and len(found.moves) == 6
    states = game.replay(found.steps)
    assert crossed_bridges(game, states) == [0]
    assert bridge_needed(level, 0, found.moves)
    without = level_from_json(board(bodies, holes, cols=5, rows=7, stones=stones))
    assert Solver(Game(without)).solve().status == "unsolvable"
    # A solution that never crosses the bridge is no lesson, whatever the level.
    assert not bridge_needed(level, 0, found.moves[:1])


# ---------------------------------------------------------------- against the oracle
# tests/snakes/terrain_oracle.py is an independent implementation of sections 2-4 and 3b,
# written from the spec alone: one step rule held against another on random levels.

from gridforge.snakes.game.rules import move_to_step  # noqa: E402
from gridforge.snakes.solver.pairs import pairwise_bound  # noqa: E402
from gridforge.snakes.solver.search import goal_distances  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402 - the oracle's section

from . import terrain_oracle as oracle  # noqa: E402

ORACLE_STATES = 3_000  # states compared per level (the whole space of most small levels)


def _same_position(game, state, other) -> bool:
    """Whether an engine state and an oracle state are one position (cells, shed, holes)."""
    for b, body in enumerate(other.bodies):
        cells = [tuple(c) for c in game.body_cells(state, b)]
        if cells != list(body.cells):
            return False
        if state[b] and game.layers_shed(state, b) != body.shed:
            return False
    return game.used_holes(state) == list(other.holes_used)


def _walk_both(data):
    """Every reachable position (up to ORACLE_STATES) of both implementations in step, with
    the engine's successors, advance and refusal held to the oracle's on each."""
    level = level_from_json(data)
    game = Game(level)
    spec = oracle.parse_level(data)
    start = (game.initial, oracle.initial_state(spec))
    assert _same_position(game, *start)
    seen = {game.initial}
    queue = [start]
    while queue and len(seen) < ORACLE_STATES:
        state, other = queue.pop()
        ours = {tuple(move_to_step(m)): child
                for m, child, _ in game.successors(state, game.occupancy(state))}
        theirs = dict(oracle.oracle_successors(spec, other))
        assert set(ours) == set(theirs), (data, state)
        for step in oracle.all_steps(spec):
            move = step_to_move(list(step))
            legal = step in ours
            assert (game.advance(state, move) is not None) == legal
            assert (game.refusal(state, move) is None) == legal
            assert oracle.oracle_refuses(spec, other, step) == (not legal)
        for step, child in ours.items():
            assert _same_position(game, child, theirs[step]), (data, step)
            assert game.advance(state, step_to_move(list(step))) == child
            if child not in seen:
                seen.add(child)
                queue.append((child, theirs[step]))


@pytest.mark.search_heavy
@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(oracle.small_terrain_levels())
def test_every_copy_of_the_step_rule_agrees_with_the_independent_rules(data):
    _walk_both(data)


def test_the_oracle_draws_levels_that_cross_themselves_and_share_bridges():
    from hypothesis import find

    assert oracle.crosses_itself(find(oracle.small_terrain_levels(), oracle.crosses_itself))
    assert oracle.shares_a_bridge(find(oracle.small_terrain_levels(), oracle.shares_a_bridge))


@pytest.mark.search_heavy
@settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))
@given(oracle.small_terrain_levels())
def test_the_bounds_never_pass_the_minimum_on_500_random_levels_with_terrain(data):
    game = Game(level_from_json(data))
    try:
        dist = goal_distances(game, max_states=20_000)
    except OverflowError:
        return  # too large to settle exactly: nothing to compare
    solver = Solver(game)
    for state, d in dist.items():
        assert solver.bound(state) <= d, (data, state)
        assert solver.node_bound(state) <= d
    best = oracle.oracle_min_steps(data, 20_000)
    if game.initial in dist:
        assert best == dist[game.initial]
        assert pairwise_bound(game).bound <= best
        found = solver.solve()
        assert found.optimal and found.upper_bound == best
    else:
        assert best == oracle.UNSOLVABLE


@pytest.mark.parametrize("name", sorted(oracle.EXAMPLES))
def test_the_solver_finds_the_oracle_minimum_on_the_hand_made_levels(name):
    data, stated = oracle.EXAMPLES[name]
    best = oracle.oracle_min_steps(data, 200_000)
    assert best == stated
    found = Solver(Game(level_from_json(data))).solve()
    assert found.optimal and found.upper_bound == best
    assert oracle.oracle_replay(data, found.steps or [])


@pytest.mark.cpython_only
@pytest.mark.parametrize("name", sorted(oracle.EXAMPLES))
def test_cli_verify_reports_the_oracle_minimum_and_refuses_what_the_oracle_refuses(
        name, tmp_path, capsys):
    from gridforge.snakes.design import certify

    from .fixtures import run

    data, best = oracle.EXAMPLES[name]
    src, out = tmp_path / "level.json", tmp_path / "cert.json"
    src.write_text(json.dumps(data), encoding="utf-8")
    code, stdout, _ = run(["design-levels", "--verify", str(src), "--out", str(out)], capsys)
    assert code == 0 and f"verified ({best} steps, minimum proven)" in stdout, stdout
    # A certified export whose solution takes, halfway, a step the independent rules refuse.
    spec = oracle.parse_level(data)
    steps = oracle.oracle_solution(spec, 200_000)
    assert steps is not None
    state = oracle.initial_state(spec)
    half = len(steps) // 2
    for step in steps[:half]:
        state = oracle.oracle_apply(spec, state, step)
    def on_board(step) -> bool:  # a refusal by the board's contents, not by its edge
        cells = state.bodies[step[0]].cells
        if not cells:
            return False
        x, y = cells[0] if step[1] == "head" else cells[-1]
        dx, dy = oracle.DIRS[step[2]]
        return 0 <= x + dx < data["cols"] and 0 <= y + dy < data["rows"]

    refused = [s for s in oracle.all_steps(spec) if oracle.oracle_refuses(spec, state, s)]
    bad = next((s for s in refused if on_board(s)), refused[0])
    exported = json.loads(snakes_page.export(data, certify.certify(data)))
    exported["certificate"]["solution"] = [list(s) for s in [*steps[:half], bad, *steps[half:]]]
    src.write_text(json.dumps(exported), encoding="utf-8")
    out.unlink()
    code, _, err = run(["design-levels", "--verify", str(src), "--out", str(out)], capsys)
    assert code == 2 and f"(solution[{half}] = " in err and "Traceback" not in err
    assert not out.exists()


# ---------------------------------------------------------------- the designer


@pytest.mark.search_heavy
def test_designed_terrain_binds_and_replays_under_the_independent_rules():
    from gridforge.snakes.design.pipeline import design_levels
    from gridforge.snakes.solver.puzzle import crossed_bridges
    from gridforge.snakes.solver.recheck import check_certificate

    batch = design_levels({"target": 45, "count": 1, "seed": 7, "paths": 1, "bridges": 1,
                           "budgets": {"candidates": 200}})
    assert batch["request"]["paths"] == 1 and batch["request"]["bridges"] == 1
    [data], [cert] = batch["levels"], batch["certificates"]
    assert len(data["paths"]) == 1 and len(data["bridges"]) == 1
    assert cert["status"] == "verified"
    assert oracle.oracle_replay(data, cert["solution"])
    check_certificate(data, cert)  # the recheck replays it and every witness
    # Each painted cell binds: its witness solves the level without it, in no more steps
    # than the certificate, and the independent rules refuse it on the level itself.
    witnesses = {w["mechanic"]: w["solution"] for w in cert.get("witnesses", [])}
    for k in range(len(data["paths"])):
        unpainted = {**data, "paths": [p for j, p in enumerate(data["paths"]) if j != k]}
        if not unpainted["paths"]:
            del unpainted["paths"]
        found = witnesses[f"paths[{k}]"]
        assert len(found) <= cert["steps"]
        assert oracle.oracle_replay(unpainted, found)
        assert not oracle.oracle_replay(data, found)
    # Each bridge is crossed by the certificate: both lanes taken at once.
    game = Game(level_from_json(data))
    assert crossed_bridges(game, game.replay(cert["solution"])) == list(range(len(data["bridges"])))


def test_a_request_asks_for_terrain_by_count_or_auto_and_refuses_anything_else():
    from gridforge.snakes.design.request import parse_request

    assert parse_request({"target": 70, "paths": "auto", "bridges": 2}).terrain() == (2, 2)
    assert parse_request({"target": 30}).terrain() == (0, 0)
    assert "paths" not in parse_request({"target": 30}).to_json()  # older batches keep bytes
    for bad, path in (({"paths": "many"}, "paths"), ({"bridges": 9}, "bridges"),
                      ({"paths": -1}, "paths"), ({"bridges": True}, "bridges")):
        with pytest.raises(ValidationError) as err:
            parse_request({"target": 50, **bad})
        assert [i.path for i in err.value.issues] == [path]


def test_check_designer_holds_astar_to_bfs_on_levels_with_terrain():
    from gridforge.snakes.solver.selfcheck import (
        TERRAIN_FEATURES,
        check_terrain_against_bfs,
        random_level,
    )

    assert all("paths" in random_level(i, ("path",)) for i in range(5))
    assert any(random_level(i, ("bridge",)).get("bridges") for i in range(5))
    assert "paths" not in random_level(3) and TERRAIN_FEATURES == ("path", "bridge")
    result = check_terrain_against_bfs(20)
    assert result.ok, result.failures
    assert result.figures["solvable"] >= 5
