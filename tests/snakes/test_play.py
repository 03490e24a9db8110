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
