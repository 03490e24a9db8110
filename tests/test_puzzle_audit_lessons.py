"""The lesson predicates of the independent audit (``bench.audit``, check
``lessons``) on small hand-made levels whose answers are worked out by hand in the comments.
The audit is standalone (standard library, nothing from ``gridforge``); so is this test."""

import itertools
import json

import pytest

from bench.audit import lessons, selftest, shared
from bench.audit.puzzle_rules import Item

pytestmark = pytest.mark.cpython_only

def level(cols, rows, floor, bodies, holes):
    """A level from its floor cells (every other cell is a stone)."""
    stones = [[x, y] for y in range(rows) for x in range(cols) if (x, y) not in floor]
    return {"format": "gridforge.snakes.level/1", "cols": cols, "rows": rows, "stones": stones,
            "bodies": bodies, "holes": holes}


def judge(raw, kind, number=50, first_use=None):
    it = Item(number, "test", raw, {"solution": []})
    assert it.error is None or it.error.startswith("certificate"), it.error
    j = lessons.LessonJudge(it, 50000, 50000, first_use=first_use)
    return j.judge(kind)


ROW = {(x, 0) for x in range(4)}
# one body in a dead-end row; its tail is next to the hole: 1 step by the tail, none by heads
TAIL = level(4, 2, ROW, [{"cells": [[1, 0], [2, 0]], "colors": [0]}],
             [{"cell": [3, 0], "color": 0}])
# the same body turned round: its head is next to the hole
HEAD = level(4, 2, ROW, [{"cells": [[2, 0], [1, 0]], "colors": [0]}],
             [{"cell": [3, 0], "color": 0}])
# an L-shaped corridor: the head goes right, then down twice (3 steps); one axis never gets there
CORNER = level(3, 3, {(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)},
               [{"cells": [[1, 0], [0, 0]], "colors": [0]}], [{"cell": [2, 2], "color": 0}])
# two rows cut apart: body 0's head and body 1's tail are next to their holes (2 steps);
# heads alone or tails alone never finish (one body is left facing its dead end)
NEARER = level(4, 3, {(x, y) for x in range(4) for y in (0, 2)},
               [{"cells": [[2, 0], [1, 0]], "colors": [0]},
                {"cells": [[1, 2], [2, 2]], "colors": [1]}],
               [{"cell": [3, 0], "color": 0}, {"cell": [3, 2], "color": 1}])
# a corridor with a two-cell pocket under x=3; body 0 must reach the right end, body 1 the
# left end: neither can go alone first, body 1 ducks into the pocket (make way)
SWAP = level(7, 3, {(x, 0) for x in range(7)} | {(3, 1), (3, 2)},
             [{"cells": [[2, 0], [1, 0]], "colors": [0]},
              {"cells": [[4, 0], [5, 0]], "colors": [1]}],
             [{"cell": [6, 0], "color": 0}, {"cell": [0, 0], "color": 1}])
# a dead-end row with a hole below x=3: body 0 (in front) can only leave; body 1 (behind it)
# cannot leave first, so the order [1, 0] fails; [0, 1] works; serial
ORDER = level(5, 2, {(x, 0) for x in range(5)} | {(3, 1)},
              [{"cells": [[3, 0], [2, 0]], "colors": [0]},
               {"cells": [[1, 0], [0, 0]], "colors": [1]}],
              [{"cell": [4, 0], "color": 0}, {"cell": [3, 1], "color": 1}])


def ring(a_extra=None, b_extra=None, hole_a_extra=None, with_c=False):
    """A ring (rows 1-3) with a pocket above (2, 1) holding body 0's hole; body 0 sits under it
    (1 step out) and blocks body 1's short way (3 steps) to (4, 1): 4 steps in all. When body
    0 must wait for body 1, body 1 goes round the ring tail first (8 steps): 9 in all.
    ``with_c``: a third body in a cut-off column x=6 (1 step), 5 and 10."""
    floor = {(2, 0)} | {(x, 1) for x in range(5)} | {(x, 3) for x in range(5)} | {(0, 2), (4, 2)}
    bodies = [{"cells": [[2, 1], [3, 1]], "colors": [1], **(a_extra or {})},
              {"cells": [[1, 1], [0, 1]], "colors": [0], **(b_extra or {})}]
    holes = [{"cell": [2, 0], "color": 1, **(hole_a_extra or {})}, {"cell": [4, 1], "color": 0}]
    cols = 5
    if with_c:
        cols = 7
        floor |= {(6, 0), (6, 1), (6, 2)}
        bodies.append({"cells": [[6, 0], [6, 1]], "colors": [2], "key": "G"})
        holes.append({"cell": [6, 2], "color": 2})
    return level(cols, 4, floor, bodies, holes)


def test_heads_and_tails():
    assert judge(HEAD, "head")[0] == "holds"
    assert judge(TAIL, "head")[0] == "fails"
    assert judge(TAIL, "tail")[0] == "holds"
    assert judge(HEAD, "tail")[0] == "fails"


def test_corner_and_nearer_end():
    v, fig = judge(CORNER, "corner")
    assert v == "holds" and "min 3" in fig
    assert judge(HEAD, "corner")[0] == "fails"  # left-right only is enough there
    v, fig = judge(NEARER, "nearer")
    assert v == "holds" and "heads-only none, tails-only none vs min 2" in fig
    assert judge(HEAD, "nearer")[0] == "fails"  # heads alone are as short as anything
    assert judge(NEARER, "colours")[0] == "holds"
    assert judge(HEAD, "colours")[0] == "fails"


def test_long_bodies_that_bend():
    # a 5-cell body along the top row must turn down the right-hand column to its hole
    bend = level(6, 4, {(x, 0) for x in range(6)} | {(5, y) for y in range(4)},
                 [{"cells": [[4, 0], [3, 0], [2, 0], [1, 0], [0, 0]], "colors": [0]}],
                 [{"cell": [5, 3], "color": 0}])
    v, fig = judge(bend, "long")
    assert v == "holds" and "straight at the start" in fig and "min 4" in fig
    assert judge(HEAD, "long")[0] == "fails"  # no long body


def test_make_way_order_and_breather():
    v, fig = judge(SWAP, "make_way")
    assert v == "holds" and fig.startswith("not serial")
    assert judge(ORDER, "make_way")[0] == "fails"
    v, fig = judge(ORDER, "order")
    assert v == "holds" and "1/2 [[1, 0]]" in fig
    assert judge(SWAP, "order")[0] == "fails"  # either body may leave first
    assert judge(ORDER, "breather")[0] == "holds"
    assert judge(SWAP, "breather")[0] == "fails"
    assert judge(ring(a_extra={"frozen": 1}), "breather")[0] == "fails"  # a mechanic


def test_mechanics_that_cost_steps():
    assert judge(ring(), "body_frozen")[0] == "fails"  # nothing to remove
    v, fig = judge(ring(a_extra={"frozen": 1}), "body_frozen")
    assert v == "holds" and "min without it 4 < 9 with it" in fig
    v, fig = judge(ring(hole_a_extra={"frozen": 1}), "hole_frozen")
    assert v == "holds" and "min without it 4 < 9 with it" in fig
    v, fig = judge(ring(a_extra={"lock": {"id": "S", "kind": "silver"}}, b_extra={"key": "S"}),
                   "silver")
    assert v == "holds" and "min without it 4 < 9 with it" in fig
    gold = ring(a_extra={"lock": {"id": "G", "kind": "gold"}}, b_extra={"key": "G"}, with_c=True)
    v, fig = judge(gold, "gold")
    assert v == "holds" and "min without it 5 < 10 with it" in fig
    # a freeze that the natural order meets anyway costs nothing: body 1's hole waits for 1 layer
    lazy = ring()
    lazy["holes"][1]["frozen"] = 1
    assert judge(lazy, "hole_frozen")[0] == "fails"
    # a lesson level after an earlier use of its mechanic does not teach it
    assert judge(ring(a_extra={"frozen": 1}), "body_frozen", number=18,
                 first_use={"_covered": set(range(1, 18)), "body_frozen": 15})[0] == "fails"


def test_coats():
    coated = json_copy(NEARER)
    coated["bodies"][0]["colors"] = [0, 1]
    coated["bodies"][1]["colors"] = [1, 0]
    coated["holes"] += [{"cell": [0, 0], "color": 1}, {"cell": [0, 2], "color": 0}]
    first = {"_covered": set(range(1, 12)), "coats": 12}
    v, fig = judge(coated, "coats", number=12, first_use=first)
    assert v == "holds", fig
    same = json_copy(coated)
    same["bodies"][0]["colors"] = [0, 0]
    same["bodies"][1]["colors"] = [1, 1]
    same["holes"][2]["color"], same["holes"][3]["color"] = 0, 1
    assert judge(same, "coats", number=12, first_use=first)[0] == "fails"


def json_copy(x):
    return json.loads(json.dumps(x))


@pytest.mark.parametrize("raw", [TAIL, CORNER, NEARER, SWAP, ORDER, ring(a_extra={"frozen": 1})])
def test_searches_agree_with_plain_bfs(raw):
    # every restricted search of the lessons against breadth-first search through the plain
    # rule function, and the serial decision against brute force
    it = Item(7, "test", raw, {"solution": []})
    assert selftest.lesson_selftest(it, cap=20000) == 0
    lv = it.level
    for p in itertools.permutations(range(lv.k)):
        got = lessons.exact_min(lessons.View(lv, order=p), 20000)
        assert (got["value"] if got["kind"] == "min" else None) == selftest.plain_min(lv, order=p)


def test_the_effort_searches_stop_where_they_say():
    """The audit's difficulty signal: the weighted search stops at its first solution, the
    exact one only once the minimum is proven (SWAP: make way needs more than the bound)."""
    lv = Item(50, "test", SWAP, {"solution": []}).lv
    greedy = shared.astar(lv, 3.0, 100000, shared.INF, first=True)
    exact = shared.astar(lv, 1.0, 100000, shared.INF)
    assert greedy["best"] is not None and not greedy["exhausted"]
    assert exact["exhausted"] and exact["best"] is not None
    assert len(exact["best"]) <= len(greedy["best"])
    assert greedy["expanded"] <= exact["expanded"]
    # A cap that the exact search reaches leaves it unproven; the bound it reports lies
    # between its own root bound and the minimum, whatever the cap.
    capped = shared.astar(lv, 1.0, 2, shared.INF)
    assert not capped["exhausted"]
    assert exact["bound"] == len(exact["best"]) == selftest.plain_min(lv)
    for cap in range(1, exact["stored"] + 1):
        r = shared.astar(lv, 1.0, cap, shared.INF)
        assert r["h0"] <= r["bound"] <= exact["bound"]
