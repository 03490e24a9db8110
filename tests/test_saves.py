"""The saved progress's check (gridforge.saves), which the page asks before it uses stored
progress and before it imports a file: a bad part is set aside alone with its field paths,
the rest is kept as stored, and a value that is no progress at all cannot be used."""

from __future__ import annotations

import copy
import json
from typing import Any

from gridforge import api
from gridforge.i18n import speaking
from gridforge.saves import check_progress, part_of, progress_issues
from hypothesis import given, settings
from hypothesis import strategies as st

GOOD: dict[str, Any] = {
    "format": "gridforge.progress/1",
    "snakes": {"done": {"1": 9, "2": 14}, "open": 3,
               "current": {"level": 3, "sha": "x", "steps": [[0, "head", "U"]], "redo": []}},
    "mines": {"run": {"format": "gridforge.mines.saved-run/1"}, "rev": 3,
              "summary": {"status": "playing", "battle": 1, "battles": 5}},
}


def tampered(*changes: tuple[tuple[str, ...], object]) -> dict[str, Any]:
    value = copy.deepcopy(GOOD)
    for path, new in changes:
        node = value
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = new
    return value


def said(value: object, levels: int | None = 100) -> list[tuple[str, str]]:
    return [(i.path, i.message) for i in progress_issues(value, levels)]


def test_good_progress_passes_whole():
    assert said(GOOD) == []
    assert check_progress(GOOD, 100) == {"value": GOOD, "parts": [], "issues": []}


def test_each_field_is_named_with_the_page_s_words():
    value = tampered((("snakes", "open"), 0), (("snakes", "done"), {"1": "seven", "x": 2}),
                     (("mines", "rev"), -4), (("mines", "summary", "battle"), 6))
    assert said(value) == [
        ("snakes.open", "must be a level number from 1 to 100"),
        ("snakes.done.1", "best steps must be a whole number of at least 1"),
        ("snakes.done.x", "not a level number from 1 to 100"),
        ("mines.rev", "must be a whole number of at least 0 (the run's revision)"),
        ("mines.summary.battle", "must be a battle number within battles"),
    ]
    assert said(tampered((("snakes", "open"), 0)), None) == [
        ("snakes.open", "must be a level number from 1")]


def test_the_format_and_unknown_fields_and_shapes():
    assert said([]) == [("", "progress must be a JSON object")]
    value = {"format": "other", "extra": 1, "snakes": 5, "mines": {"rev": 0}}
    assert said(value) == [("format", 'must be "gridforge.progress/1"'),
                           ("extra", "unknown field"),
                           ("snakes", "must be an object with done and open"),
                           ("mines.run", "must be an object or null")]
    assert said(tampered((("mines", "summary", "status"), "paused"))) == [
        ("mines.summary.status", "must be one of playing, settled, won, lost")]
    assert said(tampered((("snakes", "current", "steps"), None))) == [
        ("snakes.current.steps", "must be a list of steps")]


def test_the_words_follow_the_page_s_language():
    with speaking("zh-CN"):
        message = progress_issues(tampered((("mines", "rev"), -1)), 100).items[0].message
    assert message != "must be a whole number of at least 0 (the run's revision)"
    assert message


def test_a_bad_part_is_set_aside_alone_and_the_rest_kept():
    checked = check_progress(tampered((("mines", "rev"), -4)), 100)
    assert checked["value"] is not None
    assert checked["value"]["snakes"] == GOOD["snakes"]
    assert checked["value"]["mines"] == {"run": None, "rev": 1}  # past any stored revision
    assert [(p["part"], [i["path"] for i in p["issues"]]) for p in checked["parts"]] == [
        ("mines", ["mines.rev"])]
    level = check_progress(tampered((("snakes", "done", "2"), 2.5)), 100)
    assert level["value"] is not None
    assert level["value"]["snakes"]["done"] == {"1": 9}
    assert level["value"]["mines"] == GOOD["mines"]


def test_parts_the_page_found_are_set_aside_with_its_words():
    aside = [{"path": "snakes.done.1",
              "message": "best 1 steps is below the level's proven minimum"},
             {"path": "", "message": "not the page's to say"}]
    checked = check_progress(GOOD, 100, aside)
    assert checked["value"] is not None
    assert checked["value"]["snakes"]["done"] == {"2": 14}
    assert checked["parts"] == [{"part": "snakes.done.1", "issues": [
        {"path": "snakes.done.1", "code": "aside",
         "message": "best 1 steps is below the level's proven minimum"}]}]


def test_no_progress_at_all_cannot_be_used():
    for value in (None, [], "x", tampered((("format",), "gridforge.progress/2"))):
        checked = check_progress(value, 100)
        assert checked["value"] is None and checked.get("whole") is True
        assert {i["path"] for i in checked["issues"]} & {"", "format"}


def test_the_page_calls_it_through_the_api():
    answer = json.loads(api.dispatch("gridforge.api.check_progress",
                                     json.dumps([tampered((("snakes", "open"), 0)), 100])))
    assert answer["ok"] is True
    assert [p["part"] for p in answer["value"]["parts"]] == ["snakes.open"]
    assert answer["value"]["value"]["snakes"]["open"] == 3  # after the highest level won


WEIRD = [None, True, 0, -1, -4, 2.5, 2001, 2**53, "", "x", [], {}, [[2, 1]], {"a": 1}]
FIELDS = [("snakes", "done", "1"), ("snakes", "done", "2"), ("snakes", "done", "x"),
          ("snakes", "open"), ("snakes", "current"), ("snakes", "current", "level"),
          ("snakes", "current", "steps"), ("mines", "rev"), ("mines", "run"),
          ("mines", "summary"), ("mines", "summary", "battle"), ("snakes", "extra"),
          ("extra",), ("format",), ("snakes",), ("mines",)]


@st.composite
def tamperings(draw: st.DrawFn) -> dict[str, Any]:
    value = copy.deepcopy(GOOD)
    for path in draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=3, unique=True)):
        node = value
        for key in path[:-1]:
            if not isinstance(node.get(key), dict):
                node[key] = {}
            node = node[key]
        node[path[-1]] = copy.deepcopy(draw(st.sampled_from(WEIRD)))
    return value


@settings(max_examples=300, deadline=None)
@given(tamperings(), st.sampled_from([None, 2, 100, 2000]))
def test_parts_cost_only_themselves(value: dict[str, Any], levels: int | None):
    checked = check_progress(value, levels)
    paths = [i["path"] for i in checked["issues"]]
    if checked["value"] is None:
        assert any(part_of(path) is None for path in paths)  # only the format or the shape
        return
    kept, parts = checked["value"], [p["part"] for p in checked["parts"]]
    assert progress_issues(kept, levels).items == []
    assert sorted({i["path"] for p in checked["parts"] for i in p["issues"]}) == sorted(paths)
    if "mines" not in parts:
        assert kept["mines"] == value["mines"]
    snakes = value["snakes"] if isinstance(value.get("snakes"), dict) else {}
    for level, best in snakes["done"].items() if isinstance(snakes.get("done"), dict) else ():
        if not {f"snakes.done.{level}", "snakes.done", "snakes"} & set(parts):
            assert kept["snakes"]["done"][level] == best


def test_the_summary_s_statuses_are_a_mines_run_s():
    from gridforge.mines.run_words import PHASE_TEXT
    from gridforge.saves import RUN_STATUSES

    assert set(RUN_STATUSES) == set(PHASE_TEXT)  # a run's status is one of its phases
