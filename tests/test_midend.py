"""The midend (gridforge/midend.py): ids, undo, redo, restart, saves and resume, and the
changes an answer carries, on a small game of its own (a counter that counts up or down to a
goal) and against an independent oracle for the changes."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import pytest
from gridforge.errors import GridforgeError, Issue, ValidationError
from gridforge.midend import (
    TOO_LONG,
    Midend,
    Played,
    Resumed,
    UnknownSession,
    Unreplayable,
    apply_changes,
    changes,
)
from hypothesis import given
from hypothesis import strategies as st

from .page_copy import PageCopy


def opened(mid: Midend[Any, Any, Any, Any, Any, Any, Any], spec: object) -> tuple[str, Any]:
    """A game opened: its id and first answer."""
    turn = mid.open(spec)
    return turn.id, turn.envelope


def resumed(mid: Midend[Any, Any, Any, Any, Any, Any, Any], spec: object,
            save: object) -> tuple[str, Any]:
    """A game resumed: its id and first answer."""
    turn = mid.resume(spec, save)
    return turn.id, turn.envelope


def played(mid: Midend[Any, Any, Any, Any, Any, Any, Any], game_id: object,
           intent: object) -> tuple[Any, Any]:
    """One intent played: the answer and the backend's own fields."""
    turn = mid.play(game_id, intent)
    return turn.envelope, turn.extra



@dataclass
class Counter:
    value: int
    goal: int


class CounterGame:
    """A game for the midend alone: ``+1``/``-1`` steps from 0 to ``goal``; -1 at 0 refused."""

    what = "counter"
    prefix = "c"
    limit = 3
    max_steps = 6
    undoable = True
    save_what = "counter save"

    def new(self, spec: object) -> Counter:
        assert isinstance(spec, int)
        return Counter(0, spec)

    def read_save(self, spec: object, save: object) -> Resumed[Counter, int]:
        if not isinstance(save, dict) or save.get("goal") != spec:
            raise ValidationError([Issue("save.goal", "mismatch", "another goal")], "save")
        return Resumed(self.new(spec), list(save["steps"]), list(save.get("redo", [])))

    def header(self, game: Counter) -> Any:
        return {"goal": game.goal}

    def play(self, game: Counter, intent: object) -> Played[str, int, str]:
        if intent not in (1, -1) or game.value + intent < 0:  # type: ignore[operator]
            return Played(None, [], "no", "below_zero")
        assert isinstance(intent, int)
        game.value += intent
        return Played(intent, ["up" if intent > 0 else "down"], "yes")

    def replay(self, game: Counter, step: int) -> None:
        if self.play(game, step).refused:
            raise Unreplayable("below zero")

    def replay_issue(self, key: str, index: int, reason: str) -> Issue:
        return Issue(f"save.{key}[{index}]", "illegal", reason)

    def position(self, game: Counter) -> int:
        return game.value

    def restore(self, game: Counter, position: int) -> None:
        game.value = position

    def finished(self, game: Counter) -> bool:
        return game.value == game.goal

    def view(self, game: Counter) -> Any:
        return {"value": game.value, "cells": [int(i < game.value) for i in range(game.goal)]}

    def offer(self, game: Counter, can_undo: bool, can_redo: bool) -> Any:
        return {"undo": can_undo, "redo": can_redo, "down": game.value > 0}

    def refusal(self, reason: str) -> str:
        return reason.replace("_", " ")


def midend() -> Midend[Counter, int, Any, Any, str, int, str]:
    return Midend(CounterGame())


def test_a_game_opens_plays_undoes_redoes_and_restarts_by_id():
    mid, page = midend(), PageCopy()
    game_id, first = opened(mid, 5)
    assert first["view"] == {"value": 0, "cells": [0] * 5} and first["changes"] is None
    assert first["save"] == {"goal": 5, "steps": [], "redo": []}
    envelope, extra = played(mid, game_id, 1)
    assert extra == "yes" and envelope["events"] == ["up"] and envelope["view"] is None
    assert envelope["changes"] == [[["view", "value"], 1], [["view", "cells", 0], 1],
                                   [["offer", "undo"], True], [["offer", "down"], True]]
    assert envelope["save"] == {"goal": 5, "steps": [1], "redo": []}
    page(first)
    shown = page(envelope)
    assert shown["view"] == mid.backend.view(mid.game(game_id))
    undone = page(mid.undo(game_id).envelope)
    assert undone["view"]["value"] == 0 and undone["save"] == {"goal": 5, "steps": [],
                                                                "redo": [1]}
    assert undone["offer"] == {"undo": False, "redo": True, "down": False}
    redone = page(mid.redo(game_id).envelope)
    assert redone["events"] == ["up"] and redone["save"]["steps"] == [1]
    played(mid, game_id, 1)
    restarted = page(mid.restart(game_id).envelope)
    assert restarted["view"]["value"] == 0 and restarted["save"]["steps"] == []
    assert restarted["offer"] == {"undo": False, "redo": False, "down": False}


def test_a_refused_intent_changes_nothing_and_carries_no_save():
    mid = midend()
    game_id, _ = opened(mid, 5)
    envelope, extra = played(mid, game_id, -1)
    assert envelope["refused"] == {"reason": "below_zero", "message": "below zero"}
    assert envelope["save"] is None and envelope["changes"] == [] and extra == "no"
    assert mid.entry(game_id).cursor == 0


def test_a_new_step_drops_redo_and_the_step_limit_refuses_past_it():
    mid = midend()
    game_id, _ = opened(mid, 9)
    for _ in range(3):
        played(mid, game_id, 1)
    mid.undo(game_id)
    mid.undo(game_id)
    envelope, _ = played(mid, game_id, -1)
    assert envelope["save"] == {"goal": 9, "steps": [1, -1], "redo": []}
    for _ in range(4):
        played(mid, game_id, 1)
    envelope, extra = played(mid, game_id, 1)
    assert envelope["refused"]["reason"] == TOO_LONG and extra is None
    assert mid.entry(game_id).cursor == 6


def test_nothing_is_taken_back_once_the_game_is_over():
    mid = midend()
    game_id, _ = opened(mid, 1)
    envelope, _ = played(mid, game_id, 1)
    assert envelope["changes"] and mid.backend.finished(mid.game(game_id))
    undone = mid.undo(game_id).envelope
    assert undone["save"] is None and mid.entry(game_id).cursor == 1


def test_resume_replays_the_save_and_names_the_step_at_fault():
    mid = midend()
    game_id, _ = opened(mid, 5)
    for step in (1, 1, -1, 1):
        played(mid, game_id, step)
    mid.undo(game_id)
    save = mid.save(game_id)
    assert save == {"goal": 5, "steps": [1, 1, -1], "redo": [1]}
    again_id, again = resumed(mid, 5, copy.deepcopy(save))
    assert again_id != game_id and again["save"] == save
    assert again["view"] == mid.current(game_id).envelope["view"]
    assert mid.redo(again_id).envelope["view"] is None and mid.game(again_id).value == 2
    count = len(mid)
    with pytest.raises(ValidationError) as err:
        resumed(mid, 5, {"goal": 5, "steps": [1, -1, -1], "redo": []})
    assert [i.path for i in err.value.issues] == ["save.steps[2]"]
    with pytest.raises(ValidationError) as err:
        resumed(mid, 5, {"goal": 5, "steps": [], "redo": [-1]})
    assert [i.path for i in err.value.issues] == ["save.redo[0]"]
    assert len(mid) == count  # nothing half-opened


def test_ids_are_never_reused_and_the_oldest_goes_past_the_limit():
    mid = midend()
    ids = [opened(mid, 3)[0] for _ in range(4)]
    assert ids == ["c1", "c2", "c3", "c4"] and len(mid) == 3
    with pytest.raises(UnknownSession, match="unknown counter 'c1'"):
        played(mid, "c1", 1)
    assert mid.close("c2") is True and mid.close("c2") is False
    assert opened(mid, 3)[0] == "c5"


@pytest.mark.parametrize("key", [None, 1, 1.5, [], {}, "x" * 1000, True])
def test_an_id_of_any_other_kind_is_unknown_and_the_message_stays_short(key):
    mid = midend()
    opened(mid, 3)
    with pytest.raises(UnknownSession) as err:
        mid.undo(key)
    assert isinstance(err.value, GridforgeError) and len(str(err.value)) < 80


def test_a_backend_that_cannot_go_back_refuses_undo_redo_and_restart():
    class OneWay(CounterGame):
        undoable = False

    mid: Midend[Counter, int, Any, Any, str, int, str] = Midend(OneWay())
    game_id, first = opened(mid, 4)
    assert first["save"] == {"goal": 4, "steps": []}  # no redo in its saves
    played(mid, game_id, 1)
    for verb in (mid.undo, mid.redo, mid.restart):
        with pytest.raises(GridforgeError, match="cannot take steps back"):
            verb(game_id)
    assert mid.save(game_id) == {"goal": 4, "steps": [1]}


# ---------------------------------------------------------------------- changes
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner,
                                                                 max_size=4),
    max_leaves=20)


def mutated(value: Any, data: st.DataObject) -> Any:
    """``value`` with some members changed, as a game's view changes between answers."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: mutated(value[key], data)}
    if isinstance(value, list) and value and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(value) - 1))
        return [*value[:i], mutated(value[i], data), *value[i + 1:]]
    return data.draw(json_values)


@given(before=json_values, data=st.data())
def test_the_changes_applied_to_the_old_value_give_the_new_one(before, data):
    after = mutated(before, data)
    kept = copy.deepcopy(before)
    changed = changes(before, after)
    assert apply_changes(before, changed) == after
    assert before == kept  # the old value is never changed in place
    if before == after and type(before) is type(after):
        assert changed == []


@given(before=json_values, after=json_values)
def test_any_two_values_change_into_each_other(before, after):
    assert apply_changes(before, changes(before, after)) == after


def test_the_changes_name_only_what_changed():
    before = {"grid": [[0, 0, 0], [0, 1, 0]], "ap": 8, "name": "a"}
    after = {"grid": [[0, 0, 0], [0, 1, 2]], "ap": 7, "name": "a"}
    assert changes(before, after) == [[["grid", 1, 2], 2], [["ap"], 7]]
    assert changes([1, 2], [1, 2, 3]) == [[[], [1, 2, 3]]]  # a list grew: given whole
    assert changes({"a": 1}, {"b": 1}) == [[[], {"b": 1}]]  # other keys: given whole
    assert changes({"a": 1}, {"a": "1"}) == [[["a"], "1"]]  # another kind of value
    with pytest.raises(GridforgeError, match="not in the value"):
        apply_changes({"a": 1}, [[["b", 0], 2]])
