"""How a level reads (spec section 5c): body shapes, occupancy, solo costs against an
independent exhaustive search, the budget, and the figures of the shipped line's first levels."""

from __future__ import annotations

import copy
import json
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from gridforge.errors import GridforgeError
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.mainline import mainline_level
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.legibility import (
    SOLO_BUDGET,
    SoloBudget,
    drags,
    is_folded,
    occupancy,
    outer_colours,
    reading,
    solo_cost,
    turns,
)
from gridforge.snakes.solver.puzzle import travel_bound
from gridforge.snakes.solver.selfcheck import FEATURES, random_level
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from . import terrain_oracle as oracle
from .fixtures import level_dict, spec_example

# ---------------------------------------------------------------- the oracle


class OracleBudget(Exception):
    """The oracle's search needed more states than it was allowed."""


def oracle_solo(data: dict[str, Any], b: int, max_states: int = 200_000) -> int | None:
    """Body ``b``'s solo cost read from 5c alone, by breadth-first search over every position
    of that one body, its steps judged by the independent rules of ``terrain_oracle``: the
    body alone on the board (no freeze, no lock), the level's holes taken off the board (so
    they are floor) and kept aside; a legal step whose new end lies on an unused hole of the
    current outer colour may also be an exit (the body sheds that layer where it stood, and
    that hole is used). None when the body can never leave."""
    body = data["bodies"][b]
    alone = copy.deepcopy(data)
    alone["bodies"] = [{"cells": body["cells"], "colors": body["colors"]}]
    alone["holes"] = []
    board = oracle.OracleLevel.from_dict(alone)
    holes = [((h["cell"][0], h["cell"][1]), h["color"]) for h in data["holes"]]
    colors = body["colors"]
    start = (oracle.initial_state(board).bodies[0], frozenset[int]())
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        (me, used), depth = queue.popleft()
        for step, nxt in oracle.oracle_successors(board, oracle.OracleState((me,), ())):
            moved = nxt.bodies[0]
            end = moved.cells[0] if step[1] == "head" else moved.cells[-1]
            children = [(moved, used)]
            for h, (cell, color) in enumerate(holes):
                if cell == end and color == colors[me.shed] and h not in used:
                    if me.shed + 1 == len(colors):
                        return depth + 1
                    shed = oracle.OracleBody(me.cells, me.lanes, me.shed + 1)
                    children.append((shed, used | {h}))
            for child in children:
                if child not in seen:
                    seen.add(child)
                    if len(seen) > max_states:
                        raise OracleBudget
                    queue.append((child, depth + 1))
    return None


def check_solo_costs(data: dict[str, Any]) -> None:
    """Every body's A* solo cost equals the oracle's."""
    level = level_from_json(data)
    for b in range(len(level.bodies)):
        try:
            expected = oracle_solo(data, b, max_states=60_000)
        except OracleBudget:
            continue
        assert solo_cost(level, b).cost == expected, (data, b)


@st.composite
def long_bodies(draw: st.DrawFn) -> dict[str, Any]:
    """One or two bodies of up to 9 cells on a board of at most 6x6 with stones and paint,
    1..3 layers: bodies that must turn themselves around, coats whose holes lie apart."""
    cols, rows = draw(st.integers(3, 6)), draw(st.integers(3, 6))
    cells = [(x, y) for y in range(rows) for x in range(cols)]
    stones = set(draw(st.lists(st.sampled_from(cells), max_size=4)))
    free = [c for c in cells if c not in stones]
    bodies: list[dict[str, Any]] = []
    taken: set[tuple[int, int]] = set()
    for _ in range(draw(st.integers(1, 2))):
        open_cells = [c for c in free if c not in taken]
        assume(open_cells)
        path = [draw(st.sampled_from(open_cells))]
        for _ in range(draw(st.integers(3, 8))):
            x, y = path[-1]
            nxt = [(x + dx, y + dy) for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0))]
            nxt = [c for c in nxt if c in free and c not in taken and c not in path]
            if not nxt:
                break
            path.append(draw(st.sampled_from(nxt)))
        assume(len(path) >= 2)
        taken |= set(path)
        colors = draw(st.lists(st.integers(0, 2), min_size=1, max_size=3))
        bodies.append({"cells": [list(c) for c in path], "colors": colors})
    holes = []
    for body in bodies:
        for color in body["colors"]:
            open_cells = [c for c in free if c not in taken]
            assume(open_cells)
            cell = draw(st.sampled_from(open_cells))
            taken.add(cell)
            holes.append({"cell": list(cell), "color": color})
    data = level_dict(cols, rows, bodies, holes, [list(s) for s in sorted(stones)])
    unpainted = [c for c in free if c not in {tuple(h["cell"]) for h in holes}]
    painted = draw(st.lists(st.sampled_from(unpainted), max_size=3, unique=True))
    if painted:
        data["paths"] = [{"cell": list(c), "color": draw(st.integers(0, 2))} for c in painted]
    assume(level_validates(data))
    return data


def level_validates(data: dict[str, Any]) -> bool:
    try:
        level_from_json(data)
    except GridforgeError:
        return False
    return True


# ---------------------------------------------------------------- solo cost, exactly


@pytest.mark.search_heavy
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(oracle.small_terrain_levels())
def test_solo_costs_match_an_exhaustive_search_on_random_levels_with_terrain(data):
    check_solo_costs(data)


@pytest.mark.search_heavy
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(long_bodies())
def test_solo_costs_match_an_exhaustive_search_for_long_coated_bodies_on_paint(data):
    check_solo_costs(data)


@pytest.mark.parametrize("seed", range(40))
def test_solo_costs_match_an_exhaustive_search_on_random_levels_with_mechanics(seed):
    check_solo_costs(random_level(seed, (FEATURES[seed % len(FEATURES)],), "medium"))


@pytest.mark.search_heavy
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(oracle.small_terrain_levels())
def test_the_body_bound_never_passes_the_minimum(data):
    """5c: travel bound and the sum of solo costs are both lower bounds of the minimum."""
    minimum = oracle.oracle_min_steps(data, max_states=4_000)
    assume(minimum is not None and minimum != oracle.UNSOLVABLE)
    assert minimum is not None
    got = reading(level_from_json(data), minimum)
    assert got.travel_bound <= got.body_bound <= minimum
    assert got.joint_steps >= 0 and got.steering_steps >= 0


def one_row(cols: int, bodies: list[dict[str, Any]], holes: list[dict[str, Any]]
            ) -> dict[str, Any]:
    """A level of one row of floor (a second row of stones: a board has 2 rows at least)."""
    return level_dict(cols, 2, bodies, holes, stones=[[x, 1] for x in range(cols)])


def test_a_body_lying_across_its_way_pays_for_turning_round():
    # H # h b      the hole H at (0, 0) is next to the body's own cell (0, 1); the tail t is
    # b b b b      two cells from it, but through the body: the body must unwind first.
    # t . . .
    data = level_dict(
        4, 3,
        [{"cells": [[2, 0], [3, 0], [3, 1], [2, 1], [1, 1], [0, 1], [0, 2]], "colors": [0]}],
        [{"cell": [0, 0], "color": 0}], stones=[[1, 0]])
    level = level_from_json(data)
    assert solo_cost(level, 0).cost == oracle_solo(data, 0) == 6
    got = reading(level, 6)
    assert (got.travel_bound, got.body_bound, got.steering_steps, got.joint_steps) == (2, 6, 4, 0)


def test_a_hole_takes_one_layer_even_alone():
    """Two layers of one colour need two holes; the far one counts."""
    data = one_row(6, [{"cells": [[1, 0], [2, 0]], "colors": [0, 0]}],
                      [{"cell": [0, 0], "color": 0}, {"cell": [5, 0], "color": 0}])
    level = level_from_json(data)
    # Exit left (1), then the tail walks from (2, 0) to (4, 0) and exits (2 + 1); two exits
    # into the near hole would take 2.
    assert solo_cost(level, 0).cost == oracle_solo(data, 0) == 4


def test_freezes_and_locks_are_lifted_alone():
    # One row: body 0 (frozen, locked) between its frozen hole and body 1, which holds the key.
    data = one_row(
        6,
        [{"cells": [[1, 0], [2, 0]], "colors": [0], "frozen": 1,
          "lock": {"id": "L", "kind": "silver"}},
         {"cells": [[3, 0], [4, 0]], "colors": [0], "key": "L"}],
        [{"cell": [0, 0], "color": 0, "frozen": 1}, {"cell": [5, 0], "color": 0}],
    )
    level = level_from_json(data)
    assert [solo_cost(level, b).cost for b in range(2)] == [1, 1]
    assert reading(level, 2).joint_steps == 0


def test_other_bodies_are_removed_and_other_holes_are_floor_alone():
    # One row: hole 0, hole 1, body 1, body 0. Body 0 walks over body 1's place and hole.
    data = one_row(
        6,
        [{"cells": [[4, 0], [5, 0]], "colors": [0]}, {"cells": [[2, 0], [3, 0]], "colors": [1]}],
        [{"cell": [0, 0], "color": 0}, {"cell": [1, 0], "color": 1}],
    )
    level = level_from_json(data)
    assert [solo_cost(level, b).cost for b in range(2)] == [4, 1]
    assert [oracle_solo(data, b) for b in range(2)] == [4, 1]
    got = reading(level, 5)
    assert got.body_bound == 5 and got.joint_steps == 0


def test_a_body_lying_on_paint_of_another_colour_is_pulled_across_it():
    # The hole at (0, 0) is reached only through (1, 0), painted colour 1; the body (colour 0)
    # lies on that paint: one tail step pulls its head onto (1, 0), the next one exits. A
    # distance closed to the paint would call the body stuck.
    data = level_dict(
        4, 3,
        [{"cells": [[1, 1], [1, 0], [2, 0], [3, 0], [3, 1], [3, 2]], "colors": [0]}],
        [{"cell": [0, 0], "color": 0}], stones=[[0, 1]])
    data["paths"] = [{"cell": [x, y], "color": 1} for y in (0, 1) for x in (1, 2, 3)]
    assert solo_cost(level_from_json(data), 0).cost == oracle_solo(data, 0) == 2


def test_a_coat_that_walked_onto_paint_leaves_its_next_layer_lying_on_it():
    # Only (1, 0), painted 1, leads to the hole of colour 0 at (0, 0). Wearing its coat of
    # colour 1 the body enters (1, 0) and (1, 1), sheds the coat into (1, 2); then a tail step
    # pulls its head back onto the paint and the head exits: 5 steps.
    data = level_dict(
        5, 3,
        [{"cells": [[2, 0], [3, 0], [4, 0]], "colors": [1, 0]}],
        [{"cell": [0, 0], "color": 0}, {"cell": [1, 2], "color": 1}], stones=[[0, 1], [0, 2]])
    data["paths"] = [{"cell": [1, 0], "color": 1}]
    assert solo_cost(level_from_json(data), 0).cost == oracle_solo(data, 0) == 5


def test_a_hole_of_the_body_s_colour_may_be_crossed_without_exiting():
    # Body 0 wears colour 0 over colour 1. Shedding into the first hole of colour 0, at (2, 0),
    # would leave colour 1 in front of paint 0; it crosses that hole, the paint, sheds into the
    # second hole (5, 0) and exits at (6, 0): 6 steps.
    data = level_dict(
        7, 2,
        [{"cells": [[0, 0], [1, 0]], "colors": [0, 1]}, {"cells": [[0, 1], [1, 1]], "colors": [0]}],
        [{"cell": [2, 0], "color": 0}, {"cell": [5, 0], "color": 0}, {"cell": [6, 0], "color": 1}],
        stones=[[x, 1] for x in range(2, 7)])
    data["paths"] = [{"cell": [3, 0], "color": 0}, {"cell": [4, 0], "color": 0}]
    assert solo_cost(level_from_json(data), 0).cost == oracle_solo(data, 0) == 6


def test_a_body_that_cannot_leave_even_alone_has_no_solo_cost():
    # Paint of colour 1 at (1, 0) stands between the body (colour 0) and its hole.
    data = one_row(5, [{"cells": [[2, 0], [3, 0]], "colors": [0]}], [{"cell": [0, 0], "color": 0}])
    data["paths"] = [{"cell": [1, 0], "color": 1}]
    level = level_from_json(data)
    assert solo_cost(level, 0).cost is None and oracle_solo(data, 0) is None
    with pytest.raises(GridforgeError, match="cannot leave the board even alone"):
        reading(level, 10)


# ---------------------------------------------------------------- the budget


def test_the_budget_raises_and_never_answers_wrong():
    data = turnaround_long()
    level = level_from_json(data)
    exact = solo_cost(level, 0)
    assert exact.cost == oracle_solo(data, 0) and exact.states > 10
    for budget in range(1, exact.states + 3):
        if budget < exact.states:
            with pytest.raises(SoloBudget) as caught:
                solo_cost(level, 0, budget=budget)
            assert caught.value.body == 0 and caught.value.budget == budget
        else:
            assert solo_cost(level, 0, budget=budget) == exact
    with pytest.raises(SoloBudget):
        reading(level, 50, budget=3)


def turnaround_long() -> dict[str, Any]:
    """A body of 4 cells facing a dead end, its hole behind the far end of a room: it turns."""
    return level_dict(
        5, 4,
        [{"cells": [[1, 0], [2, 0], [3, 0], [4, 0]], "colors": [0]}],
        [{"cell": [0, 3], "color": 0}],
        stones=[[0, 0], [1, 1], [2, 1], [3, 1]],
    )


# ---------------------------------------------------------------- shapes


STRAIGHT = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]
ELL = [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)]
YOU = [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0)]
FOLD = [(0, 0), (1, 0), (1, 1), (0, 1)]
ZIGZAG = [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]
SPIRAL = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1), (1, 1)]
SNAKE_FOLD = [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)]


@pytest.mark.parametrize(("cells", "folded", "bends"), [
    (STRAIGHT, False, 0), (ELL, False, 1), (YOU, False, 2), (FOLD, True, 2),
    (ZIGZAG, False, 3), (SPIRAL, True, 4), (SNAKE_FOLD, True, 2), ([(0, 0), (0, 1)], False, 0),
])
def test_folded_and_turns_of_hand_made_bodies(cells, folded, bends):
    assert is_folded(cells) is folded
    assert turns(cells) == bends
    assert is_folded(cells[::-1]) is folded and turns(cells[::-1]) == bends


def test_a_body_crossing_itself_on_a_bridge_turns_only_off_it():
    # Down through the bridge at (1, 1), round a 2x2 loop, back across it left to right.
    cells = [(1, 0), (1, 1), (1, 2), (2, 2), (2, 1), (1, 1), (0, 1)]
    assert turns(cells) == 3 and is_folded(cells)


def test_occupancy_outer_colours_and_drags():
    data = level_dict(4, 3, [{"cells": [[0, 0], [1, 0], [2, 0]], "colors": [1, 2]},
                             {"cells": [[0, 2], [1, 2]], "colors": [1]}],
                      [{"cell": [3, 0], "color": 1}, {"cell": [3, 1], "color": 2},
                       {"cell": [3, 2], "color": 1}], stones=[[1, 1]])
    level = level_from_json(data)
    assert occupancy(level) == (3 + 2 + 3) / 11
    assert outer_colours(level) == 1
    steps = [[0, "tail", "R"], [0, "tail", "D"], [1, "tail", "R"], [0, "tail", "D"],
             [0, "head", "L"], [0, "head", "L"]]
    assert drags(steps) == 4
    assert drags([]) == 0


# ---------------------------------------------------------------- the whole reading


def test_the_reading_of_the_spec_example():
    level = level_from_json(spec_example())
    got = reading(level, 20)
    assert got.proven and got.minimum == 20 and got.steps is None and got.drags is None
    assert got.solo_costs == tuple(solo_cost(level, b).cost for b in range(len(level.bodies)))
    assert got.travel_bound == travel_bound(Game(level))
    assert got.body_bound == max(got.travel_bound, sum(got.solo_costs))
    assert got.joint_steps == 20 - got.body_bound
    assert got.steering_steps == got.body_bound - got.travel_bound


def test_an_unproven_certificate_is_read_at_its_lower_bound():
    level = level_from_json(spec_example())
    cert = {"optimal": False, "minimum": None, "lower_bound": 17, "steps": 3,
            "solution": [[0, "head", "U"], [0, "head", "U"], [1, "tail", "L"]]}
    got = reading(level, cert)
    assert not got.proven and got.minimum == 17 and got.steps == 3 and got.drags == 2
    assert got.joint_steps == 17 - got.body_bound
    with pytest.raises(GridforgeError):
        reading(level, {"optimal": False, "lower_bound": None})


def test_level_1312_of_the_second_build_reads_as_the_issue_measured_it():
    """Issue 41: 34 of level 1312's 46 interaction steps are one body turning alone (the
    second build's level, kept beside the tests: the third build replaced it)."""
    path = Path(__file__).parent / "data" / "second_build_1312.json"
    entry = json.loads(path.read_text(encoding="utf-8"))
    got = reading(level_from_json(entry["level"]), entry["certificate"])
    assert got.proven and got.minimum - got.travel_bound == 46
    assert got.steering_steps == 34 and got.joint_steps == 12


def test_the_shipped_line_reads_within_the_budget_from_level_1_to_40():
    unread = []
    for n in range(1, 41):
        entry = mainline_level(n)
        level = level_from_json(entry["level"])
        cert = entry["certificate"]
        try:
            got = reading(level, cert)
        except SoloBudget as exc:  # only a very long body may take more than the budget
            assert len(level.bodies[exc.body].cells) >= 12, (n, exc)
            unread.append(n)
            continue
        assert got.proven and got.minimum == cert["minimum"] == got.steps
        assert got.lengths == tuple(len(b.cells) for b in level.bodies)
        assert all(c >= len(b.colors) for c, b in zip(got.solo_costs, level.bodies, strict=True))
        assert got.travel_bound <= got.body_bound <= got.minimum, n
        assert 1 <= (got.drags or 0) <= got.minimum
        assert max(got.solo_states) <= SOLO_BUDGET
        for b, body in enumerate(level.bodies):  # short bodies: the oracle is quick enough
            if len(body.cells) <= 4:
                assert got.solo_costs[b] == oracle_solo(entry["level"], b), (n, b)
    assert not unread
