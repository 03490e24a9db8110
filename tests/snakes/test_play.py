"""The browser-facing play calls (snakes/play.py): sessions, steps, drags, undo, hints."""

from __future__ import annotations

import math

import pytest
from gridforge.errors import GridforgeError
from gridforge.snakes import play

from .fixtures import spec_example


def test_play_session_step_undo_redo_drag_and_refusal():
    s = play.start(spec_example())
    assert s["step_count"] == 0 and [0, "tail", "R"] in s["legal"]
    s = play.step(s["session"], [0, "tail", "R"])
    assert s["step_count"] == 1 and s["refused"] is None
    r = play.step(s["session"], [1, "head", "U"])
    assert r["refused"]["reason"] == "frozen" and r["step_count"] == 1
    u = play.undo(s["session"])
    assert u["step_count"] == 0 and u["session"]["redo"] == [[0, "tail", "R"]]
    assert play.redo(u["session"])["session"]["steps"] == [[0, "tail", "R"]]
    d = play.drag(play.start(spec_example())["session"], 0, "tail", [[2, 1], [2, 2]])
    assert d["session"]["steps"] == [[0, "tail", "R"], [0, "tail", "D"]]
    assert d["view"]["bodies"][0]["cells"] == [[1, 1], [2, 1], [2, 2]]


def test_play_hint_finds_the_proven_minimum():
    s = play.start(spec_example())
    h = play.hint(s["session"])
    assert h["remaining"] == 20 and h["optimal"]
    after = play.step(s["session"], h["step"])
    assert after["refused"] is None
    assert play.validate({"format": 1})["ok"] is False


@pytest.mark.parametrize("states, seconds, field", [
    (0, 3.0, "max_states"), (-1, 3.0, "max_states"), (True, 3.0, "max_states"),
    ("50", 3.0, "max_states"), (10**30, 3.0, "max_states"), (100, math.nan, "max_seconds"),
    (100, math.inf, "max_seconds"), (100, 0, "max_seconds"), (100, -1.0, "max_seconds"),
    (100, None, "max_seconds"),
])
def test_hint_budgets_out_of_range_are_refused_naming_the_field(states, seconds, field):
    s = play.start(spec_example())
    with pytest.raises(GridforgeError, match=field):
        play.hint(s["session"], states, seconds)


def test_an_oversized_session_or_drag_is_refused_before_replay():
    session = play.start(spec_example())["session"]
    long = {**session, "steps": [[0, "tail", "R"]] * (play.MAX_SESSION_STEPS + 1)}
    with pytest.raises(GridforgeError, match=r"session\.steps"):
        play.view(long)
    with pytest.raises(GridforgeError, match="drag"):
        play.drag(session, 0, "tail", [[2, 1]] * (play.MAX_DRAG_CELLS + 1))


def test_a_bad_step_in_a_session_is_a_refusal_of_the_package():
    session = play.start(spec_example())["session"]
    with pytest.raises(GridforgeError, match="illegal step"):
        play.view({**session, "steps": [[0, "tail", "X"]]})
    answer = play.step(session, ["a", "b", "c"])
    assert answer["refused"]["reason"] == "bad_step" and answer["step_count"] == 0


def _marker(view, kind):
    return [m for m in view["markers"] if m["kind"] == kind]


@pytest.mark.parametrize("n, kind", [(18, "frozen-body"), (24, "frozen-hole"), (30, "lock")])
def test_markers_count_down_on_the_step_that_thaws_or_unlocks(n, kind):
    from gridforge.snakes.design.mainline import mainline_level

    entry = mainline_level(n)
    answer = play.start(entry["level"])
    first = _marker(answer["view"], kind)
    assert len(first) == 1 and first[0]["count"] >= 1
    counts = [first[0]["count"]]
    for step_json in entry["certificate"]["solution"]:
        answer = play.step(answer["session"], step_json)
        assert answer["refused"] is None
        view = answer["view"]
        for m in view["markers"]:
            blocked = view["bodies"][m.get("body", 0)]["blocked"]
            if m["kind"] == "frozen-body":
                # The count is the rule's: frozen exactly while layers are still needed.
                assert m["count"] == max(0, m["needed"] - view["exited_layers"])
                assert (blocked == "frozen") == (m["count"] > 0)
            elif m["kind"] == "frozen-hole":
                assert m["count"] == max(0, m["needed"] - view["exited_layers"])
                assert not view["holes_used"][m["hole"]]
            elif m["kind"] == "lock":
                assert (blocked == "locked") == (m["count"] > 0)
        now = _marker(view, kind)
        if now:
            counts.append(now[0]["count"])
    assert counts[-1] == 0 and counts[0] > 0 and sorted(counts, reverse=True) == counts
    assert answer["view"]["complete"]


def test_a_key_and_its_lock_share_their_pair_and_the_key_is_used_when_its_carrier_exits():
    from gridforge.snakes.design.mainline import mainline_level

    entry = mainline_level(30)
    answer = play.start(entry["level"])
    (lock,) = _marker(answer["view"], "lock")
    (key,) = _marker(answer["view"], "key")
    assert lock["pair"] == key["pair"] == entry["level"]["bodies"][lock["body"]]["lock"]["id"]
    assert key["lock_body"] == lock["body"] and entry["level"]["bodies"][key["body"]]["key"]
    assert lock["metal"] == "silver" and lock["needed"] == 1 and lock["count"] == 1
    assert key["used"] is False
    for step_json in entry["certificate"]["solution"]:
        answer = play.step(answer["session"], step_json)
        keys = _marker(answer["view"], "key")
        if keys and keys[0]["used"]:
            assert answer["view"]["bodies"][key["body"]]["cells"] == []
            assert _marker(answer["view"], "lock")[0]["count"] == 0
            break
    else:
        raise AssertionError("the key was never used")


def test_a_gold_lock_counts_its_two_keys():
    from .fixtures import level_dict

    level = level_dict(5, 3, [
        {"cells": [[0, 0], [1, 0]], "colors": [0], "key": "G"},
        {"cells": [[0, 2], [1, 2]], "colors": [0], "key": "G"},
        {"cells": [[3, 1], [2, 1]], "colors": [1], "lock": {"id": "G", "kind": "gold"}},
    ], [{"cell": [2, 0], "color": 0}, {"cell": [2, 2], "color": 0}, {"cell": [4, 1], "color": 1}])
    answer = play.start(level)
    (lock,) = _marker(answer["view"], "lock")
    assert lock["metal"] == "gold" and lock["needed"] == 2 and lock["count"] == 2
    assert [k["body"] for k in _marker(answer["view"], "key")] == [0, 1]
    answer = play.step(answer["session"], [0, "tail", "R"])
    assert _marker(answer["view"], "lock")[0]["count"] == 1
    assert [k["used"] for k in _marker(answer["view"], "key")] == [True, False]
    answer = play.step(answer["session"], [1, "tail", "R"])
    assert _marker(answer["view"], "lock")[0]["count"] == 0
    assert answer["view"]["bodies"][2]["blocked"] is None
    answer = play.step(answer["session"], [2, "head", "R"])
    assert answer["view"]["complete"] and answer["view"]["markers"] == []
