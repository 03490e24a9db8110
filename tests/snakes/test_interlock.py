"""Ideas on one board (gridforge.snakes.design.interlock, issue 50): the blocking relation and
must-move chains of spec 5d on hand-built levels, the measured figures against independent
exhaustive searches, and the climb's ideas meeting their requests, deterministically."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from gridforge.snakes.design import interlock
from gridforge.snakes.design.interlock import (
    LENGTHS,
    MAX_STONE_SHARE,
    Measure,
    Request,
    _draw,
    blocking,
    board_shape,
    build_idea,
    continue_idea,
    level_of,
    measure_layout,
    must_move_chain,
    shortfall,
)
from gridforge.snakes.design.stretch import main_stretch
from gridforge.snakes.design.templates import make_shape
from gridforge.snakes.game.level import Level, level_from_json
from gridforge.snakes.game.levelfile import LevelJson
from gridforge.snakes.game.rules import Game, step_to_move
from gridforge.snakes.solver.search import bfs_optimum


def corridor() -> Level:
    """A dead-end corridor (row 0, columns 0..5) off a room (columns 6..7, rows 0..2): A at
    the dead end, B in the middle, C at the mouth; every hole in the room."""
    stones = [[x, y] for x in range(6) for y in (1, 2)]
    data: LevelJson = {
        "format": "gridforge.snakes.level/1", "cols": 8, "rows": 3, "stones": stones,
        "bodies": [{"cells": [[1, 0], [0, 0]], "colors": [0]},
                   {"cells": [[3, 0], [2, 0]], "colors": [1]},
                   {"cells": [[5, 0], [4, 0]], "colors": [2]}],
        "holes": [{"cell": [7, 2], "color": 0}, {"cell": [6, 2], "color": 1},
                  {"cell": [7, 1], "color": 2}],
    }
    return level_from_json(data)


def test_a_body_blocks_exactly_those_it_walls_in() -> None:
    level = corridor()
    # C walls in B and A; B walls in A; nobody walls in a body nearer the mouth.
    assert blocking(level) == {0: [], 1: [0], 2: [0, 1]}
    assert must_move_chain(level) == 2
    assert must_move_chain(level, [0, 2]) == 1
    assert must_move_chain(level, [0]) == 0


def test_a_chain_never_visits_a_body_twice() -> None:
    # Two bodies in a one-wide corridor, each hole beyond the other: each walls the other in
    # (a cycle), and a chain that may not come back to a body has length 1.
    data: LevelJson = {
        "format": "gridforge.snakes.level/1", "cols": 6, "rows": 2,
        "stones": [[x, 1] for x in range(6)],
        "bodies": [{"cells": [[1, 0], [2, 0]], "colors": [0]},
                   {"cells": [[4, 0], [3, 0]], "colors": [1]}],
        "holes": [{"cell": [5, 0], "color": 0}, {"cell": [0, 0], "color": 1}],
    }
    level = level_from_json(data)
    assert blocking(level) == {0: [1], 1: [0]}
    assert must_move_chain(level) == 1


def _part_minimum(data: LevelJson, part: tuple[int, ...]) -> int:
    """The part cost of spec 5d by an exhaustive BFS written here from the rules: only the
    part's bodies (one layer each, body i of colour i), stones kept, every hole passable as
    floor, and a step into the hole of a body's own colour is its exit."""
    cols, rows = data["cols"], data["rows"]
    stones = {(x, y) for x, y in data["stones"]}
    holes = {(h["cell"][0], h["cell"][1]): h["color"] for h in data["holes"]}
    start = tuple(tuple((x, y) for x, y in data["bodies"][b]["cells"]) for b in part)
    colours = [data["bodies"][b]["colors"][0] for b in part]

    def children(state: tuple[tuple[tuple[int, int], ...] | None, ...]):
        taken = {c for body in state if body for c in body}
        for i, body in enumerate(state):
            if body is None:
                continue
            for end in (0, -1):
                ordered = body if end == 0 else body[::-1]
                x, y = ordered[0]
                for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                    t = (x + dx, y + dy)
                    if not (0 <= t[0] < cols and 0 <= t[1] < rows) or t in stones:
                        continue
                    vacated = ordered[-1] if len(ordered) >= 3 else None
                    if t in taken and t != vacated:
                        continue
                    if holes.get(t) == colours[i]:
                        yield (*state[:i], None, *state[i + 1:])  # the exit
                        continue
                    moved = (t, *ordered[:-1])
                    moved = moved if end == 0 else moved[::-1]
                    yield (*state[:i], moved, *state[i + 1:])

    seen = {start: 0}
    frontier = [start]
    while frontier:
        later = []
        for state in frontier:
            if all(body is None for body in state):
                return seen[state]
            for child in children(state):
                if child not in seen:
                    seen[child] = seen[state] + 1
                    later.append(child)
        frontier = later
    raise AssertionError("the part cannot take its layers out")


def _pair_split(data: LevelJson) -> int:
    n = len(data["bodies"])
    single = {b: _part_minimum(data, (b,)) for b in range(n)}
    pair = {p: _part_minimum(data, p) for p in itertools.combinations(range(n), 2)}

    def best(left: frozenset[int]) -> int:
        if not left:
            return 0
        b = min(left)
        rest = left - {b}
        top = single[b] + best(rest)
        for c in rest:
            top = max(top, pair[(b, c)] + best(rest - {c}))
        return top

    return best(frozenset(range(n)))


def _drawn(template: str, seed: int) -> LevelJson:
    """A random layout of three short bodies on a 16-cell board of ``template``."""
    rng = random.Random(seed)
    shape = make_shape(template, 16, rng)
    layout = None
    while layout is None:
        layout = _draw(rng, set(shape.floor), (2, 2, 3))
    return level_of(shape, layout)


@pytest.mark.parametrize("seed", range(6))
def test_measured_figures_equal_exhaustive_search(seed: int) -> None:
    data = _drawn(("comb", "cross", "courtyard")[seed % 3], seed)
    m = measure_layout(data, 50_000)
    assert m is not None
    assert m.minimum == bfs_optimum(Game(level_from_json(data)), max_states=400_000)
    assert m.pair_split == _pair_split(data)
    assert m.beyond == m.minimum - _pair_split(data)
    assert len(m.solution) == m.minimum


def test_a_layout_the_weighted_search_does_not_solve_within_its_states_is_refused() -> None:
    data = _drawn("comb", 5)
    whole = measure_layout(data, 50_000)
    assert whole is not None
    # The climb's budget counts the weighted search's states: enough of them give the same
    # figures, too few refuse the layout (never a figure from a search cut short).
    assert measure_layout(data, 50_000, fast_states=whole.stored) == whole
    assert measure_layout(data, 50_000, fast_states=2) is None


def _request(template: str) -> Request:
    lengths = LENGTHS[template][:3]
    return Request(template, 24, lengths, beyond=2, joint=4, chain=1, rounds=1500)


@pytest.mark.search_heavy
@pytest.mark.parametrize("template", ["comb", "winding"])
def test_an_idea_meets_its_request_and_is_the_same_for_the_same_seed(template: str) -> None:
    request = _request(template)
    idea = build_idea(request, random.Random(7))
    assert idea is not None
    again = build_idea(request, random.Random(7))
    assert again is not None and again.level_json() == idea.level_json()
    data = idea.level_json()
    level = level_from_json(data)
    # One floor region, holding every body.
    assert idea.shape.regions == 1
    m = measure_layout(data, request.states)
    assert m == idea.measure
    assert m.beyond >= request.beyond and m.joint >= request.joint
    assert must_move_chain(level) >= request.chain
    game = Game(level)
    state = game.initial
    for step in m.solution:
        nxt = game.advance(state, step_to_move(step))
        assert nxt is not None
        state = nxt
    assert game.is_complete(state)


def test_measured_layouts_kept_change_no_idea(monkeypatch: pytest.MonkeyPatch) -> None:
    # The climbs with every layout measured afresh (a one-entry cache) and with the cache
    # kept across both: the same ideas, the second climb meeting layouts the first measured.
    request = replace(_request("comb"), rounds=300, joint=3, beyond=1)

    def climbs() -> list[object]:
        first = build_idea(request, random.Random(3))
        assert first is not None
        nxt = continue_idea(request, first, random.Random(4), lambda data, _: True)
        again = build_idea(request, random.Random(3))
        return [first, nxt, again]

    interlock._STAGES.clear()
    kept = climbs()
    assert len(interlock._STAGES) > 1
    monkeypatch.setattr(interlock, "STAGES_LIMIT", 0)
    interlock._STAGES.clear()
    assert climbs() == kept


@pytest.mark.search_heavy
def test_a_chain_s_next_idea_meets_its_request_on_the_same_board_as_a_new_layout() -> None:
    request = _request("winding")
    first = build_idea(request, random.Random(7))
    assert first is not None
    seen = {main_stretch(first.level_json())}

    def fresh(data: LevelJson, _: Measure) -> bool:
        return main_stretch(data) not in seen

    nxt = continue_idea(request, first, random.Random(8), fresh)
    assert nxt is not None
    again = continue_idea(request, first, random.Random(8), fresh)
    assert again is not None and again.level_json() == nxt.level_json()
    assert nxt.shape == first.shape and nxt.layout != first.layout
    assert main_stretch(nxt.level_json()) not in seen
    data = nxt.level_json()
    m = measure_layout(data, request.states)
    assert m == nxt.measure
    assert m.minimum == bfs_optimum(Game(level_from_json(data)), max_states=400_000)
    assert m.beyond >= request.beyond and m.joint >= request.joint
    assert must_move_chain(level_from_json(data)) >= request.chain
    # A chain that may take nothing new ends empty-handed: it never hands back an old layout.
    assert continue_idea(replace(request, rounds=40), first, random.Random(8),
                         lambda data, _: False) is None


def test_a_climb_walks_on_past_the_layouts_its_accept_refuses() -> None:
    request = replace(_request("comb"), rounds=300, joint=3, beyond=1)
    first = build_idea(request, random.Random(3))
    assert first is not None
    refused: list[LevelJson] = []

    def accept(data: LevelJson, measure: Measure) -> bool:
        assert measure == measure_layout(data, request.states)  # the layout's own figures
        if data == first.level_json():
            refused.append(data)
            return False
        return True

    other = build_idea(request, random.Random(3), accept)
    assert refused == [first.level_json()]  # the same climb up to the layout refused
    assert other is not None and other.shape == first.shape and other.layout != first.layout
    assert shortfall(request, other.measure)[0] == 0
    assert build_idea(replace(request, rounds=60), random.Random(3),
                      lambda data, _: False) is None


@pytest.mark.parametrize("template", ["courtyard", "notched", "stepped", "cross", "island",
                                      "twin", "winding", "comb", "pillars"])
def test_every_template_gives_a_phone_board_of_little_stone_at_every_planned_area(template: str):
    # A cross cut to the exact area keeps about 0.44 of its board as stone: the board may
    # take a few more floor cells instead, never a quarter more than asked.
    for area in range(24, 61, 4):
        for seed in range(3):
            shape = board_shape(template, area, random.Random(seed))
            assert shape is not None, (template, area, seed)
            stones = shape.cols * shape.rows - len(shape.floor)
            assert stones <= MAX_STONE_SHARE * shape.cols * shape.rows
            assert area <= len(shape.floor) <= 1.25 * area
            assert shape.cols <= 10 and shape.rows <= 16
            assert max(shape.cols, shape.rows) <= 2 * min(shape.cols, shape.rows)
