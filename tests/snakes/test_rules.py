"""The rules of a step (spec section 4), one test per edge case, plus undo/redo and drags."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from gridforge.errors import ValidationError
from gridforge.snakes.game.level import Level
from gridforge.snakes.game.rules import (
    Game,
    IllegalStep,
    move_to_step,
    step_to_move,
)
from gridforge.snakes.solver.search import Solver

from .fixtures import level_dict, spec_example


def game_of(cols, rows, bodies, holes, stones=None) -> Game:
    return Game(Level.from_json(level_dict(cols, rows, bodies, holes, stones)))


def mv(body: int, end: str, d: str) -> int:
    return step_to_move([body, end, d])


def test_step_json_round_trip():
    for move in range(64):
        assert step_to_move(move_to_step(move)) == move
    with pytest.raises(IllegalStep):
        step_to_move([0, "middle", "U"])


def test_head_step_slides_the_body():
    g = game_of(
        4, 3, [{"cells": [[1, 1], [2, 1], [3, 1]], "colors": [0]}], [{"cell": [0, 0], "color": 0}]
    )
    s = g.apply(g.initial, mv(0, "head", "U"))
    assert g.body_cells(s, 0) == [(1, 0), (1, 1), (2, 1)]
    s = g.apply(s, mv(0, "tail", "D"))
    assert g.body_cells(s, 0) == [(1, 1), (2, 1), (2, 2)]


def square_body(length):
    # Head at [0,0]; the tail ends next to the head when the body closes a 2x2 square.
    cells = [[0, 0], [1, 0], [1, 1], [0, 1]][:length]
    return {"cells": cells, "colors": [0]}


def test_head_into_own_vacating_tail_for_length_2_is_refused():
    g = game_of(3, 3, [{"cells": [[0, 0], [1, 0]], "colors": [0]}], [{"cell": [2, 2], "color": 0}])
    assert g.refusal(g.initial, mv(0, "head", "R")) == "own_body"
    assert g.refusal(g.initial, mv(0, "tail", "L")) == "own_body"


def test_head_into_own_vacating_tail_for_length_4_is_legal():
    g = game_of(3, 3, [square_body(4)], [{"cell": [2, 2], "color": 0}])
    move = mv(0, "head", "D")  # [0,0] -> [0,1], the tail cell
    assert g.refusal(g.initial, move) is None
    s = g.apply(g.initial, move)
    assert g.body_cells(s, 0) == [(0, 1), (0, 0), (1, 0), (1, 1)]
    assert g.occupancy(s) == g.occupancy(g.initial)
    # The rest of the body is still solid: the neck is refused.
    assert g.refusal(s, mv(0, "head", "U")) == "own_body"


def test_head_into_own_body_cell_that_is_not_the_tail():
    g = game_of(3, 3, [square_body(3)], [{"cell": [2, 2], "color": 0}])
    assert g.refusal(g.initial, mv(0, "head", "R")) == "own_body"


def test_walls_stones_and_other_bodies_block():
    g = game_of(
        3,
        3,
        [{"cells": [[0, 0], [0, 1]], "colors": [0]}, {"cells": [[2, 0], [2, 1]], "colors": [0]}],
        [{"cell": [2, 2], "color": 0}, {"cell": [0, 2], "color": 0}],
        stones=[[1, 1]],
    )
    assert g.refusal(g.initial, mv(0, "head", "U")) == "wall"
    assert g.refusal(g.initial, mv(0, "tail", "R")) == "stone"
    s = g.apply(g.initial, mv(0, "head", "R"))  # head to [1,0]
    assert g.refusal(s, mv(0, "head", "R")) == "occupied"


def test_coat_peels_and_the_body_stays_put():
    g = game_of(
        4,
        2,
        [{"cells": [[1, 0], [2, 0]], "colors": [3, 4]}],
        [{"cell": [0, 0], "color": 3}, {"cell": [3, 0], "color": 4}],
    )
    s = g.apply(g.initial, mv(0, "head", "L"))
    assert g.body_cells(s, 0) == [(1, 0), (2, 0)]
    assert g.outer_color(s, 0) == 4 and g.layers_left(s, 0) == 1
    assert g.used_holes(s) == [True, False]
    # The used hole is plain floor now.
    s2 = g.apply(s, mv(0, "head", "L"))
    assert g.body_cells(s2, 0) == [(0, 0), (1, 0)]
    s3 = g.apply(s, mv(0, "tail", "R"))
    assert g.is_complete(s3)
    assert g.body_cells(s3, 0) == []


def test_hole_of_the_wrong_color_blocks():
    g = game_of(
        3,
        2,
        [{"cells": [[1, 0], [1, 1]], "colors": [1]}, {"cells": [[2, 0], [2, 1]], "colors": [2]}],
        [{"cell": [0, 0], "color": 2}, {"cell": [0, 1], "color": 1}],
    )
    assert g.refusal(g.initial, mv(0, "head", "L")) == "hole_color"
    assert g.refusal(g.initial, mv(0, "tail", "L")) is None
    assert mv(0, "head", "L") not in g.legal_moves(g.initial)


def test_frozen_threshold_met_by_another_body_exit():
    g = game_of(
        4,
        2,
        [
            {"cells": [[1, 0], [2, 0]], "colors": [1]},
            {"cells": [[1, 1], [2, 1]], "colors": [2], "frozen": 1},
        ],
        [{"cell": [0, 0], "color": 1}, {"cell": [3, 1], "color": 2}],
    )
    assert g.refusal(g.initial, mv(1, "tail", "R")) == "frozen"
    assert all(m >> 3 == 0 for m in g.legal_moves(g.initial))
    s = g.apply(g.initial, mv(0, "head", "L"))
    assert g.refusal(s, mv(1, "tail", "R")) is None
    assert g.is_complete(g.apply(s, mv(1, "tail", "R")))


def test_frozen_hole_accepts_nothing_until_its_threshold():
    g = game_of(
        4,
        2,
        [{"cells": [[1, 0], [2, 0]], "colors": [1]}, {"cells": [[1, 1], [2, 1]], "colors": [1]}],
        [{"cell": [0, 0], "color": 1, "frozen": 1}, {"cell": [3, 1], "color": 1}],
    )
    assert g.refusal(g.initial, mv(0, "head", "L")) == "hole_frozen"
    s = g.apply(g.initial, mv(1, "tail", "R"))
    assert g.refusal(s, mv(0, "head", "L")) is None


def test_silver_lock_opens_when_its_carrier_has_fully_exited():
    g = game_of(
        4,
        2,
        [
            {"cells": [[1, 0], [2, 0]], "colors": [1, 1], "key": "A"},
            {"cells": [[1, 1], [2, 1]], "colors": [1], "lock": {"id": "A", "kind": "silver"}},
        ],
        [{"cell": [0, 0], "color": 1}, {"cell": [3, 0], "color": 1}, {"cell": [3, 1], "color": 1}],
    )
    assert g.refusal(g.initial, mv(1, "tail", "R")) == "locked"
    s = g.apply(g.initial, mv(0, "head", "L"))  # coat only: the key is still on the board
    assert g.refusal(s, mv(1, "tail", "R")) == "locked"
    s = g.apply(s, mv(0, "tail", "R"))
    assert g.refusal(s, mv(1, "tail", "R")) is None


def test_gold_lock_needs_both_keys():
    g = game_of(
        5,
        3,
        [
            {"cells": [[1, 0], [2, 0]], "colors": [1], "key": "G"},
            {"cells": [[1, 2], [2, 2]], "colors": [1], "key": "G"},
            {"cells": [[3, 1], [2, 1]], "colors": [2], "lock": {"id": "G", "kind": "gold"}},
        ],
        [{"cell": [0, 0], "color": 1}, {"cell": [0, 2], "color": 1}, {"cell": [4, 1], "color": 2}],
    )
    s = g.apply(g.initial, mv(0, "head", "L"))
    assert g.refusal(s, mv(2, "head", "R")) == "locked"
    s = g.apply(s, mv(1, "head", "L"))
    assert g.refusal(s, mv(2, "head", "R")) is None
    assert g.is_complete(g.apply(s, mv(2, "head", "R")))


def test_successors_agree_with_refusal_and_occupancy():
    g = Game(Level.from_json(spec_example()))
    frontier = [g.initial]
    seen = {g.initial}
    for _ in range(5):
        nxt = []
        for s in frontier:
            succ = g.successors(s, g.occupancy(s))
            moves = {m for m, _, _ in succ}
            for move in range(len(g.level.bodies) * 8):
                assert (g.refusal(s, move) is None) == (move in moves)
            for move in range(len(g.level.bodies) * 8):
                assert g.advance(s, move) == next((c for m, c, _ in succ if m == move), None)
            for _move, child, occ in succ:
                assert occ == g.occupancy(child)
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
    assert len(seen) > 50


@pytest.mark.parametrize("number", [12, 36, 1221, 1900])
def test_one_move_child_agrees_with_successors_on_main_line_mechanics(number):
    # Coats, frozen bodies and holes, silver and gold locks: apply() computes a single
    # move's child apart from successors(); the two must agree on every state reached.
    first = (number - 1) // 25 * 25 + 1
    block = resources.files("gridforge.snakes") / "data" / f"main-{first:04}-{first + 24:04}.json"
    g = Game(Level.from_json(json.loads(block.read_text())["levels"][number - first]))
    frontier, seen = [g.initial], {g.initial}
    while frontier and len(seen) < 3000:
        s = frontier.pop()
        children = {move: child for move, child, _ in g.successors(s, g.occupancy(s))}
        for move in range(g.n * 8):
            assert g.advance(s, move) == children.get(move)
            assert (g.refusal(s, move) is None) == (move in children)
        for move, child in children.items():
            assert g.apply(s, move) == child
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    assert len(seen) > 100


def test_state_json_round_trip():
    g = Game(Level.from_json(spec_example()))
    s = g.replay([[0, "tail", "R"], [0, "tail", "U"]])[-1]
    assert g.state_from_json(g.state_to_json(s)) == s
    done = g.replay(Solver(g).solve().steps or [])[-1]
    assert g.state_from_json(g.state_to_json(done)) == done


@pytest.mark.parametrize("change, path", [
    (lambda v: v["bodies"][0]["cells"].__setitem__(0, [1e999, 0]), "bodies[0].cells[0]"),
    (lambda v: v["bodies"][0]["cells"].__setitem__(0, [7, 0]), "bodies[0].cells[0]"),
    (lambda v: v["bodies"][0]["cells"].__setitem__(0, [-1, 0]), "bodies[0].cells[0]"),
    (lambda v: v["bodies"][0]["cells"].__setitem__(0, [10**30, 0]), "bodies[0].cells[0]"),
    (lambda v: v["bodies"][1].__setitem__("shed", float("inf")), "bodies[1].shed"),
    (lambda v: v["bodies"][1].__setitem__("shed", 9), "bodies[1].shed"),
    (lambda v: v["bodies"][2].__setitem__("cells", [[0, 4]]), "bodies[2].cells"),
    (lambda v: v.__setitem__("bodies", v["bodies"][:3]), "bodies"),
    (lambda v: v.__setitem__("holes_used", [1, 0, 0, 0, 0]), "holes_used"),
    (lambda v: v.__setitem__("bodies", [None] * 4), "bodies[0].cells"),
])
def test_state_from_json_refuses_bad_fields_by_path(change, path):
    g = Game(Level.from_json(spec_example()))
    view = g.state_to_json(g.initial)
    change(view)
    with pytest.raises(ValidationError) as err:
        g.state_from_json(view)
    assert err.value.issues[0].path == path


def test_replay_names_the_refused_step():
    g = Game(Level.from_json(spec_example()))
    with pytest.raises(IllegalStep) as err:
        g.replay([[0, "tail", "R"], [1, "head", "U"]])
    assert "solution[1]" in str(err.value) and err.value.reason == "frozen"


def test_drag_turns_a_path_into_steps_and_stops_at_refusal():
    g = Game(Level.from_json(spec_example()))
    moves, s, reason = g.drag(g.initial, 0, "tail", [[1, 1], [2, 1], [2, 2], [3, 2], [3, 1]])
    assert [move_to_step(m) for m in moves] == [
        [0, "tail", "R"],
        [0, "tail", "D"],
        [0, "tail", "R"],
    ]
    assert reason == "stone"
    assert g.body_cells(s, 0) == [(2, 1), (2, 2), (3, 2)]
    _, _, reason = g.drag(g.initial, 0, "head", [[2, 0]])
    assert reason == "not_adjacent"


def test_drag_stops_after_an_exit():
    g = game_of(
        4,
        2,
        [{"cells": [[2, 0], [3, 0]], "colors": [1, 1]}],
        [{"cell": [0, 0], "color": 1}, {"cell": [1, 1], "color": 1}],
    )
    moves, s, reason = g.drag(g.initial, 0, "head", [[1, 0], [0, 0], [0, 1]])
    assert len(moves) == 2 and reason is None
    assert g.layers_left(s, 0) == 1
