"""Issue 54: an input that changes nothing is no step of the run (no save, so the page
writes nothing), the answer says why in the player's language; seeds are range-checked on
every path; a saved run is bounded."""

from __future__ import annotations

import json
import random

import pytest
from gridforge import api
from gridforge.errors import ValidationError
from gridforge.mines import page
from gridforge.mines.intents import Intent
from gridforge.mines.saved import MAX_STEPS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .fixtures import PlayedRun, replay_saved
from .test_page import random_step

MAX_SEED = 2**63 - 1


def call(name: str, *args: object, language: str = "en") -> dict:
    """A page call as the worker makes it: the JSON envelope, parsed."""
    return json.loads(api.dispatch(f"gridforge.{name}", json.dumps(args), language))


def assert_unchanged(answer: dict, steps_before: int, run: PlayedRun) -> None:
    assert answer["save"] is None, "an input that changed nothing carries no save"
    assert answer["events"] == []
    assert answer["refused"]["reason"].startswith("unchanged.")
    assert answer["refused"]["message"]
    assert len(run.save()["steps"]) == steps_before


def test_off_board_clicks_a_far_click_with_no_ground_and_a_second_stop_are_not_steps():
    run = PlayedRun(7)
    before = run.save()
    for cell in [(-1, -1), (999, 999), (-5, 0)]:
        assert_unchanged(run.primary(cell), 0, run)
        assert_unchanged(run.secondary(cell), 0, run)
    # a far concealed cell with no opened ground beside it: nothing to stand on
    state = run.to_json()
    board = state["board"]
    reach = {tuple(c[:2]) for c in state["offer"]["reach"]}
    lonely = next((x, y) for y in range(board["rows"]) for x in range(board["cols"])
                  if board["grid"][y][x] == "concealed" and (x, y) not in reach
                  and max(abs(x - board["avatar"][0]), abs(y - board["avatar"][1])) > 1)
    assert_unchanged(run.primary(lonely), 0, run)
    assert run.save() == before
    stopped = run.act(Intent("stop"))
    assert stopped["save"] is not None and len(stopped["save"]["steps"]) == 1
    for _ in range(4):  # a burst of Stop confirms after the round ended
        assert_unchanged(run.act(Intent("stop")), 1, run)
    assert run.save() == stopped["save"]


def test_a_refused_refresh_is_not_a_step():
    run = PlayedRun(7)
    answer = run.refresh()  # no RAP banked yet
    assert_unchanged(answer, 0, run)
    assert answer["refused"]["reason"] == "unchanged.refresh_refused"


def test_the_page_says_why_in_both_languages():
    opened = call("mines.page.open", 11)["value"]
    words = {}
    for language in ("en", "zh-CN"):
        answer = call("mines.page.act", opened["id"], {"do": "primary", "cell": [-1, -1]},
                      language=language)["value"]
        assert answer["save"] is None and answer["refused"]["reason"].startswith("unchanged.")
        words[language] = answer["refused"]["message"]
    assert words["en"] != words["zh-CN"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in words["zh-CN"])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), play=st.integers(0, 10**6))
def test_every_answer_either_saves_one_step_more_or_nothing_and_says_why(seed, play):
    run = PlayedRun(seed)
    rng = random.Random(play)
    steps = 0
    for _ in range(60):
        answer = random_step(run, rng)
        if answer["save"] is None:
            assert answer["refused"] is not None, "an answer that saves nothing says why"
        else:
            assert len(answer["save"]["steps"]) == steps + 1
            steps += 1
        if run.run.status in ("won", "lost"):
            break
    again = replay_saved(json.loads(json.dumps(run.save())))
    assert json.dumps(again.to_json()) == json.dumps(run.to_json())
    assert again.telemetry() == run.telemetry()


@pytest.mark.parametrize("seed", [-1, 2**63, 2**64 + 5, 1.5, "7", True, None])
def test_out_of_range_seeds_are_refused_naming_the_field(seed):
    for name, args in (("mines.page.open", [seed]),
                       ("mines.page.new_board", ["beginner", seed])):
        error = call(name, *args)["error"]
        assert error["type"] == "ValidationError", error
        assert [issue["path"] for issue in error["issues"]] == ["seed"]
        assert "0..9223372036854775807" in error["message"]
    save = page.open(3)["save"]
    with pytest.raises(ValidationError) as caught:
        page.resume({**save, "seed": seed})
    assert [issue.path for issue in caught.value.issues] == ["seed"]


def test_the_seed_range_ends_are_taken():
    for seed in (0, MAX_SEED):
        opened = page.open(seed)
        assert opened["view"]["seed"] == seed
        assert page.resume(opened["save"])["view"]["seed"] == seed


def test_a_saved_run_is_bounded():
    save = page.open(3)["save"]
    too_long = {**save, "steps": [{"kind": "stop"}] * (MAX_STEPS + 1)}
    with pytest.raises(ValidationError) as caught:
        page.resume(too_long)
    assert [issue.path for issue in caught.value.issues] == ["steps"]
