"""The snakes play midend (snakes/play.py): games held by id, steps, undo, redo, restart,
hints, saves and resume, each answer checked against the replay of its steps."""

from __future__ import annotations

import math
from typing import Any

import pytest
from gridforge.errors import GridforgeError, ValidationError
from gridforge.midend import UnknownSession
from gridforge.snakes import page, play
from gridforge.snakes.game.level import level_from_json, level_sha256
from gridforge.snakes.game.rules import Game, move_to_step, step_to_move
from hypothesis import given
from hypothesis import strategies as st

from ..page_copy import PageCopy
from .fixtures import spec_example

PAGE = PageCopy()


def do_start(level: Any) -> Any:
    return PAGE(page.open(level))


def do_resume(level: Any, save: Any) -> Any:
    return PAGE(page.resume(level, save))


def do_step(sid: Any, step_json: Any) -> Any:
    return PAGE(page.act(sid, {"do": "step", "step": step_json}))


def do_undo(sid: Any) -> Any:
    return PAGE(page.act(sid, {"do": "undo"}))


def do_redo(sid: Any) -> Any:
    return PAGE(page.act(sid, {"do": "redo"}))


def do_restart(sid: Any) -> Any:
    return PAGE(page.act(sid, {"do": "restart"}))


def replayed(level: Any, steps: list[Any]) -> dict[str, Any]:
    """The oracle: what the stateless play of old answered for ``steps`` (a replay from the
    start of the level): the view with its markers and the legal steps."""
    game = Game(level_from_json(level, balanced=False))
    state = game.replay(steps)[-1]
    complete = game.is_complete(state)
    return {"view": {**game.state_to_json(state), "markers": play.markers(game, state)},
            "legal": [] if complete else [move_to_step(m) for m in game.legal_moves(state)],
            "complete": complete}


def test_a_game_steps_refuses_undoes_and_redoes_by_id():
    s = do_start(spec_example())
    sid = s["id"]
    assert isinstance(sid, str) and s["step_count"] == 0 and [0, "tail", "R"] in s["offer"]["legal"]
    assert s["offer"] == {**s["offer"], "undo": False, "redo": False, "hint": True}
    assert s["save"] == {"sha": level_sha256(spec_example()), "steps": [], "redo": []}
    s = do_step(sid, [0, "tail", "R"])
    assert s["id"] == sid and s["step_count"] == 1 and s["refused"] is None
    assert s["offer"]["undo"] and not s["offer"]["redo"]
    r = do_step(sid, [1, "head", "U"])
    assert r["refused"]["reason"] == "frozen" and r["step_count"] == 1
    assert r["refused"]["message"] and r["save"] == s["save"]
    u = do_undo(sid)
    assert u["step_count"] == 0 and u["save"]["redo"] == [[0, "tail", "R"]]
    assert u["offer"]["redo"] and not u["offer"]["undo"]
    assert do_redo(sid)["save"]["steps"] == [[0, "tail", "R"]]
    d = do_step(sid, [0, "tail", "D"])
    assert d["save"]["steps"] == [[0, "tail", "R"], [0, "tail", "D"]]
    assert d["view"]["bodies"][0]["cells"] == [[1, 1], [2, 1], [2, 2]]
    again = do_restart(sid)
    assert again["id"] == sid and again["save"]["steps"] == again["save"]["redo"] == []
    assert again["view"] == do_start(spec_example())["view"]
    assert page.close(sid) is True and page.close(sid) is False
    with pytest.raises(UnknownSession, match="unknown snakes session"):
        do_step(sid, [0, "tail", "R"])


def test_play_hint_finds_the_proven_minimum():
    s = do_start(spec_example())
    h = page.hint(s["id"])
    assert h["remaining"] == 20 and h["optimal"]
    after = do_step(s["id"], h["step"])
    assert after["refused"] is None
    assert page.validate({"format": 1})["ok"] is False


@pytest.mark.parametrize("states, seconds, field", [
    (0, 3.0, "max_states"), (-1, 3.0, "max_states"), (True, 3.0, "max_states"),
    ("50", 3.0, "max_states"), (10**30, 3.0, "max_states"), (100, math.nan, "max_seconds"),
    (100, math.inf, "max_seconds"), (100, 0, "max_seconds"), (100, -1.0, "max_seconds"),
    (100, None, "max_seconds"),
])
def test_hint_budgets_out_of_range_are_refused_naming_the_field(states, seconds, field):
    s = do_start(spec_example())
    with pytest.raises(GridforgeError, match=field):
        page.hint(s["id"], states, seconds)


def test_a_bad_step_is_a_refusal_and_a_bad_id_the_packages_error():
    sid = do_start(spec_example())["id"]
    answer = do_step(sid, ["a", "b", "c"])
    assert answer["refused"]["reason"] == "bad_step" and answer["step_count"] == 0
    for bad in (None, 3, "s0", ["s1"], {"id": sid}):
        with pytest.raises(UnknownSession):
            do_undo(bad)


def test_a_game_keeps_at_most_max_session_steps(monkeypatch):
    monkeypatch.setattr(play.Snakes, "max_steps", 3)
    answer = do_start(spec_example())
    for _ in range(3):
        answer = do_step(answer["id"], answer["offer"]["legal"][0])
        assert answer["refused"] is None
    answer = do_step(answer["id"], answer["offer"]["legal"][0])
    assert answer["refused"]["reason"] == play.TOO_LONG and answer["step_count"] == 3


def test_the_oldest_game_is_forgotten_past_the_limit_and_resumes_from_its_save():
    first = do_start(spec_example())
    first = do_step(first["id"], [0, "tail", "R"])
    for _ in range(play.MAX_SESSIONS):
        do_start(spec_example())
    with pytest.raises(UnknownSession):
        do_step(first["id"], [0, "tail", "D"])
    back = do_resume(spec_example(), first["save"])
    assert back["id"] != first["id"]
    # the same game, where the step left it (a resume plays no step: no events)
    assert {k: v for k, v in back.items() if k not in ("id", "events")} == \
        {k: v for k, v in first.items() if k not in ("id", "events")}
    assert back["events"] == [] and first["events"][0]["type"] == "step"


@pytest.mark.parametrize("save, path", [
    ("steps", "save"),
    ({"sha": "0" * 64, "steps": [], "redo": []}, "save.sha"),
    ({"steps": [], "redo": []}, "save.sha"),
    ({"sha": None, "steps": [[0, "tail", "R"]]}, "save.sha"),
    ({"steps": "x", "redo": []}, "save.steps"),
    ({"steps": [], "redo": {}}, "save.redo"),
    ({"steps": [[0, "tail", "R"], [9, "head", "U"]], "redo": []}, "save.steps[1]"),
    ({"steps": [[0, "tail", "R"], "MYDATA"], "redo": []}, "save.steps[1]"),
    ({"steps": [[0, "tail", "R"]], "redo": [[0, "tail", "D"], [1, "head", "U"]]},
     "save.redo[1]"),
    ({"steps": [[0, "tail", "R"]] * 3000, "redo": [[0, "tail", "L"]] * 2001}, "save.steps"),
])
def test_a_save_that_does_not_resume_is_refused_naming_its_field(save, path):
    level = spec_example()
    if isinstance(save, dict) and "sha" not in save and path != "save.sha":
        save = {"sha": level_sha256(level), **save}
    with pytest.raises(ValidationError) as err:
        do_resume(level, save)
    assert [i.path for i in err.value.issues] == [path]


def test_position_answers_the_view_after_steps_without_a_game():
    level = spec_example()
    steps = [[0, "tail", "R"], [0, "tail", "D"]]
    assert page.position(level, steps)["view"] == replayed(level, steps)["view"]
    with pytest.raises(ValidationError) as err:
        page.position(level, [[0, "tail", "R"], [0, "tail", "X"]])
    assert [i.path for i in err.value.issues] == ["steps[1]"]


# ------------------------------------------------------- the midend against the old replay
def _levels() -> list[dict[str, Any]]:
    from gridforge.snakes.game.mainline import mainline_level

    return [spec_example(), *(mainline_level(n)["level"] for n in (18, 30, 120))]


LEVELS = _levels()
OPS = st.sampled_from(["legal", "legal", "legal", "any", "undo", "redo", "restart"])
ANY_STEP = st.tuples(st.integers(-1, 12), st.sampled_from(["head", "tail", "x"]),
                     st.sampled_from(["U", "D", "L", "R"])).map(list)


@given(level=st.sampled_from(range(len(LEVELS))), ops=st.lists(OPS, max_size=60),
       data=st.data())
def test_any_sequence_of_verbs_answers_the_replay_of_its_steps(level, ops, data):
    """Random steps (mostly legal ones), undos, redos and restarts: after every verb the
    view, the offer and the save equal what replaying the model's steps gives, the answers
    ahead are those of exactly the legal steps (each equal to its step's answer), and a
    resume from the save answers the very same game."""
    level_json = LEVELS[level]
    answer = do_start(level_json)
    sid = answer["id"]
    steps: list[Any] = []
    redo: list[Any] = []
    for op in ops:
        oracle = replayed(level_json, steps)
        if op in ("legal", "any"):
            if op == "legal" and oracle["legal"]:
                step_json = data.draw(st.sampled_from(oracle["legal"]))
            else:
                step_json = data.draw(ANY_STEP)
            before = answer
            answer = do_step(sid, step_json)
            legal = step_json in oracle["legal"]
            if legal:  # the answer the page drew ahead is the step's answer
                assert before["ahead"]["{}:{}:{}".format(*step_json)] == {
                    k: answer[k] for k in ("view", "offer", "step_count", "events")}
            assert (answer["refused"] is None) == legal, (step_json, answer["refused"])
            assert [e["type"] for e in answer["events"][:1]] == (["step"] if legal else [])
            if legal:
                steps, redo = [*steps, move_to_step(step_to_move(step_json))], []
        elif op == "undo":
            answer = do_undo(sid)
            if steps and not oracle["complete"]:
                redo = [steps.pop(), *redo]
        elif op == "redo":
            answer = do_redo(sid)
            if redo and not oracle["complete"]:
                steps.append(redo.pop(0))
        else:
            answer = do_restart(sid)
            steps, redo = [], []
        oracle = replayed(level_json, steps)
        assert answer["view"] == oracle["view"]
        assert answer["offer"]["legal"] == oracle["legal"]
        assert answer["offer"]["undo"] == (bool(steps) and not oracle["complete"])
        assert answer["offer"]["redo"] == (bool(redo) and not oracle["complete"])
        assert answer["step_count"] == len(steps)
        assert answer["save"] == {"sha": level_sha256(level_json), "steps": steps, "redo": redo}
        assert list(answer["ahead"]) == ["{}:{}:{}".format(*s) for s in oracle["legal"]]
    resumed = do_resume(level_json, answer["save"])
    assert {k: v for k, v in resumed.items() if k not in ("id", "refused", "events")} == \
        {k: v for k, v in answer.items() if k not in ("id", "refused", "events")}
    assert page.close(sid) and page.close(resumed["id"])


@pytest.mark.parametrize("n", [1, 500])
def test_a_certified_solution_plays_to_the_win_and_undo_is_no_longer_offered(n):
    from gridforge.snakes.game.mainline import mainline_level

    entry = mainline_level(n)
    answer = do_start(entry["level"])
    sid = answer["id"]
    for step_json in entry["certificate"]["solution"]:
        answer = do_step(sid, step_json)
        assert answer["refused"] is None
    assert answer["view"]["complete"]
    assert answer["offer"] == {"undo": False, "redo": False, "hint": False, "restart": True,
                               "legal": []}
    assert do_undo(sid)["step_count"] == len(entry["certificate"]["solution"])
    assert page.hint(sid)["status"] == "complete"
    assert answer["view"] == replayed(entry["level"], entry["certificate"]["solution"])["view"]


def _marker(view, kind):
    return [m for m in view["markers"] if m["kind"] == kind]


@pytest.mark.parametrize("n, kind", [(18, "frozen-body"), (24, "frozen-hole"), (30, "lock")])
def test_markers_count_down_on_the_step_that_thaws_or_unlocks(n, kind):
    from gridforge.snakes.game.mainline import mainline_level

    entry = mainline_level(n)
    answer = do_start(entry["level"])
    first = _marker(answer["view"], kind)
    assert len(first) == 1 and first[0]["count"] >= 1
    counts = [first[0]["count"]]
    for step_json in entry["certificate"]["solution"]:
        answer = do_step(answer["id"], step_json)
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
    from gridforge.snakes.game.mainline import mainline_level

    entry = mainline_level(30)
    answer = do_start(entry["level"])
    (lock,) = _marker(answer["view"], "lock")
    (key,) = _marker(answer["view"], "key")
    assert lock["pair"] == key["pair"] == entry["level"]["bodies"][lock["body"]]["lock"]["id"]
    assert key["lock_body"] == lock["body"] and entry["level"]["bodies"][key["body"]]["key"]
    assert lock["metal"] == "silver" and lock["needed"] == 1 and lock["count"] == 1
    assert key["used"] is False
    for step_json in entry["certificate"]["solution"]:
        answer = do_step(answer["id"], step_json)
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
    answer = do_start(level)
    (lock,) = _marker(answer["view"], "lock")
    assert lock["metal"] == "gold" and lock["needed"] == 2 and lock["count"] == 2
    assert [k["body"] for k in _marker(answer["view"], "key")] == [0, 1]
    answer = do_step(answer["id"], [0, "tail", "R"])
    assert _marker(answer["view"], "lock")[0]["count"] == 1
    assert [k["used"] for k in _marker(answer["view"], "key")] == [True, False]
    answer = do_step(answer["id"], [1, "tail", "R"])
    assert _marker(answer["view"], "lock")[0]["count"] == 0
    assert answer["view"]["bodies"][2]["blocked"] is None
    answer = do_step(answer["id"], [2, "head", "R"])
    assert answer["view"]["complete"] and answer["view"]["markers"] == []


@pytest.mark.parametrize("n, kind", [(18, "frozen-body"), (24, "frozen-hole"), (30, "lock")])
def test_each_step_says_what_it_did_exits_thaws_unlocks_and_the_win(n, kind):
    from gridforge.snakes.game.mainline import mainline_level

    entry = mainline_level(n)
    level = entry["level"]
    answer = do_start(level)
    sid = answer["id"]
    assert answer["events"] == []
    seen: list[dict[str, Any]] = []
    for step in entry["certificate"]["solution"]:
        before = answer["view"]
        answer = do_step(sid, step)
        events = answer["events"]
        body, end, direction = step
        assert events[0] == {"type": "step", "body": body, "end": end, "direction": direction,
                             "color": before["bodies"][body]["color"]}
        exits = [e for e in events if e["type"] == "exit"]
        gained = answer["view"]["exited_layers"] - before["exited_layers"]
        assert len(exits) == gained
        for e in exits:
            assert e["color"] == before["bodies"][body]["color"]
            assert e["layers_left"] == (len(answer["view"]["bodies"][body]["cells"]) and
                                        len(level["bodies"][body]["colors"]) -
                                        answer["view"]["bodies"][body]["shed"])
        seen += events
    assert seen[-1] == {"type": "won"} and sum(e["type"] == "won" for e in seen) == 1
    wanted = {"frozen-body": "thaw", "frozen-hole": "thaw", "lock": "unlock"}[kind]
    markers = [m for m in do_start(level)["view"]["markers"] if m["kind"] == kind]
    opened = [e for e in seen if e["type"] == wanted]
    assert len(opened) == len(markers) > 0
    if kind == "frozen-hole":
        assert {e["hole"] for e in opened} == {m["hole"] for m in markers}
        assert all(e["color"] == level["holes"][e["hole"]]["color"] for e in opened)
    else:
        assert {e["body"] for e in opened} == {m["body"] for m in markers}
    assert do_undo(sid)["events"] == []  # the level is complete: nothing to undo
    # undo says nothing happened; redo says again what the step did; a refusal, nothing
    fresh = do_start(level)["id"]
    stepped = do_step(fresh, entry["certificate"]["solution"][0])
    assert do_undo(fresh)["events"] == []
    assert do_redo(fresh)["events"] == stepped["events"]
    assert do_redo(fresh)["events"] == []  # nothing left to redo
    assert do_step(fresh, [99, "head", "U"])["events"] == []
