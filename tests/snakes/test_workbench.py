"""The editor as a designer's workbench (issue 23), its Python side: why a level fails
(diagnose), mirror/rotate/move/copy (transform), a level from a play position (snapshot),
the live status, and exports written as ``design-levels --out`` writes them."""

from __future__ import annotations

import copy
import json

import pytest
from gridforge.errors import ValidationError
from gridforge.snakes import page
from gridforge.snakes.editor import diagnose, snapshot, transform
from gridforge.snakes.game.level import level_sha256, spec_example
from gridforge.words import issue_words

from .fixtures import run


def small() -> dict:
    """Two bodies, two holes, a stone: solvable in a few steps."""
    return {"format": "gridforge.snakes.level/1", "cols": 5, "rows": 4, "stones": [[2, 0]],
            "bodies": [{"cells": [[0, 0], [0, 1], [0, 2]], "colors": [1]},
                       {"cells": [[4, 0], [4, 1]], "colors": [3]}],
            "holes": [{"cell": [1, 3], "color": 1}, {"cell": [3, 3], "color": 3}]}


def kinds(level: dict) -> list[str]:
    return [r["kind"] for r in diagnose.reasons(level)]


def test_a_solvable_level_has_no_reason():
    assert diagnose.reasons(spec_example()) == []
    assert diagnose.reasons(small()) == []


def test_a_hole_removed_is_a_supply_and_demand_reason_marking_its_colour():
    level = small()
    level["holes"].pop(0)
    found = diagnose.reasons(level)
    assert [r["kind"] for r in found] == ["supply_demand", "body_unreachable"]
    assert found[0]["color"] == 1 and "1 layer(s) but only 0 hole(s)" in found[0]["text"]
    assert [0, 0] in found[0]["cells"]


def test_a_wall_between_a_body_and_its_hole_is_named_per_region():
    level = small()
    level["stones"] = [[2, 0], [2, 1], [2, 2], [2, 3]]  # two regions
    level["holes"] = [{"cell": [3, 3], "color": 1}, {"cell": [1, 3], "color": 3}]
    found = diagnose.reasons(level)
    assert {r["kind"] for r in found} == {"supply_demand", "body_unreachable",
                                          "hole_unreachable"}
    assert any(r["text"].startswith("region 1 (from column 1, row 1)") for r in found)
    assert {"kind": "hole_unreachable", "color": 3, "cells": [[1, 3]]}.items() <= next(
        r for r in found if r["kind"] == "hole_unreachable" and r["color"] == 3).items()


def test_freezes_and_locks_that_can_never_open_are_named():
    level = small()
    level["bodies"][0]["frozen"] = 2  # only body 2's one layer can leave first
    assert kinds(level) == ["frozen_never"]
    level = small()
    level["holes"][0]["frozen"] = 2  # two layers in all: at most one leaves before it
    assert kinds(level) == ["hole_frozen_never"]
    level = small()  # each lock's key carried by the other locked body
    level["bodies"][0].update(lock={"id": "A", "kind": "silver"}, key="B")
    level["bodies"][1].update(lock={"id": "B", "kind": "silver"}, key="A")
    assert kinds(level) == ["locked_never", "locked_never"]


def test_mirror_twice_and_rotate_four_times_give_back_the_level_and_its_sha():
    level = spec_example()
    sha = level_sha256(level)
    for op in ("mirror_x", "mirror_y"):
        once = transform.transform(level, {"op": op})
        assert level_sha256(once) != sha
        assert transform.transform(once, {"op": op}) == level
    turned = level
    for k in range(4):
        turned = transform.transform(turned, {"op": "rotate"})
        assert (turned["cols"], turned["rows"]) == ((6, 7) if k % 2 == 0 else (7, 6))
    assert turned == level and level_sha256(turned) == sha


def test_a_quarter_turn_is_clockwise_and_keeps_the_level_solvable():
    level = small()
    turned = transform.transform(level, {"op": "rotate"})
    assert turned["bodies"][0]["cells"] == [[3, 0], [2, 0], [1, 0]]  # (x, y) -> (rows-1-y, x)
    assert page.editor_status(turned)["state"] == "solvable"


def test_an_area_is_mirrored_moved_and_copied_and_a_collision_is_refused():
    level = small()
    moved = page.editor_edit(level, {"tool": "transform", "op": "move", "area": [4, 0, 4, 1],
                                     "by": [-1, 1]})["level"]
    assert moved["bodies"][1]["cells"] == [[3, 1], [3, 2]]
    copied = page.editor_edit(level, {"tool": "transform", "op": "copy", "area": [3, 3, 3, 3],
                                      "by": [1, 0]})["level"]
    assert copied["holes"][-1] == {"cell": [4, 3], "color": 3}
    flipped = transform.transform(level, {"op": "mirror_y", "area": [4, 0, 4, 1]})
    assert flipped["bodies"][1]["cells"] == [[4, 1], [4, 0]]
    with pytest.raises(ValidationError) as caught:
        page.editor_edit(level, {"tool": "transform", "op": "move", "area": [4, 0, 4, 1],
                                 "by": [-2, 0]})  # onto the stone
    assert caught.value.issues[0].path == "edit.area"
    with pytest.raises(ValidationError) as caught:
        transform.transform(level, {"op": "spin"})
    assert caught.value.issues[0].path == "edit.op"
    tall = {**level, "cols": 2, "rows": 20, "stones": [], "bodies": [], "holes": []}
    with pytest.raises(ValidationError, match=r"columns are 2\.\.18"):
        transform.transform(tall, {"op": "rotate"})


def test_a_level_from_a_play_position_plays_on_from_there():
    level = spec_example()
    solution = page.verify(level)["solution"]
    for k in (0, 5, len(solution) - 1):
        at = snapshot.level_at(level, solution[:k])
        rest = page.verify(at)
        assert rest["status"] == "verified"
        assert rest["steps"] <= len(solution) - k
    assert level_sha256(snapshot.level_at(level, [])) == level_sha256(level)
    with pytest.raises(ValidationError) as caught:
        snapshot.level_at(level, [[0, "head", "U"]] * 3)
    assert caught.value.issues[0].path.startswith("steps[")


def test_the_live_status_says_solvable_unsolvable_unfinished_with_reasons():
    status = page.editor_status(small())
    assert status["state"] == "solvable" and status["steps"] and status["score"] is not None
    assert status["lower_bound"] <= status["steps"]
    broken = small()
    broken["holes"].pop()
    status = page.editor_status(broken)
    assert status["state"] == "unsolvable" and status["reasons"]
    assert status["reason"] == status["reasons"][0]["text"]
    assert page.editor_status(page.editor_blank(5, 5)["level"])["state"] == "unfinished"
    assert page.editor_status(small(), 1)["state"] in ("unknown", "solvable")
    with pytest.raises(Exception, match="max_states"):
        page.editor_status(small(), "many")


def test_the_editor_export_is_written_as_the_designer_writes_a_batch():
    level = small()
    cert = page.verify(level)
    text = page.editor_export_batch([{"level": level, "certificate": cert}],
                                    {"target": 30})
    assert text.startswith('{\n  "format": "gridforge.snakes.batch/1",\n  "request": {\n')
    assert text.endswith("}\n")
    assert json.loads(text)["request"] == {"target": 30}


def test_a_message_that_begins_with_its_place_says_it_once():
    worded = issue_words({"path": "bodies", "code": "count",
                          "message": "bodies: 1..16 items, got 0"})
    assert f"{worded['place']}: {worded['text']}" == "bodies: 1..16 items, got 0"


def test_editor_facts_carry_the_budget_limits():
    facts = page.facts()
    assert facts["verify"]["states"][1] >= facts["verify"]["states"][2]
    assert facts["budgets"]["candidates"][2] == 6000
    assert facts["live_states"] == page.LIVE_STATES


def test_the_transform_never_changes_its_input():
    level = spec_example()
    before = copy.deepcopy(level)
    transform.transform(level, {"op": "rotate"})
    assert level == before


def test_the_editors_design_text_is_byte_equal_to_design_levels_out(tmp_path, capsys):
    request = {"topology": "courtyard", "target": 30, "tolerance": 7, "seed": 2, "count": 1}
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(request))
    out = tmp_path / "batch.json"
    code, _, err = run(["design-levels", "--spec", str(spec), "--out", str(out)], capsys)
    assert code == 0, err
    designed = page.editor_design(request)
    assert designed["text"].encode("utf-8") == out.read_bytes()
    assert json.loads(designed["text"]) == designed["batch"]
