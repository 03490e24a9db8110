"""The editor's operations on drafts: tools, refusals with field paths, import, export, share."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from gridforge.errors import GridforgeError, ValidationError
from gridforge.snakes import page
from gridforge.snakes.editor import editing
from gridforge.snakes.game.level import level_sha256, validate_level
from gridforge.snakes.solver.certificate import certify_batch
from hypothesis import given
from hypothesis import strategies as st

from tests.snakes.fixtures import spec_example


def paths(exc: pytest.ExceptionInfo[ValidationError]) -> list[str]:
    return [i.path for i in exc.value.issues]


def draw(level: dict[str, Any], *edits: dict[str, Any]) -> dict[str, Any]:
    for edit in edits:
        level = editing.apply_edit(level, edit)["level"]
    return level


def small_level() -> dict[str, Any]:
    """A 5x4 level drawn with the tools: two stones, two bodies, their holes."""
    return draw(
        editing.blank(5, 4)["level"],
        {"tool": "stone", "cells": [[2, 0], [2, 1]]},
        {"tool": "body", "cells": [[0, 0], [0, 1], [0, 2]], "color": 1},
        {"tool": "body", "cells": [[4, 0], [4, 1]], "color": 3},
        {"tool": "hole", "cell": [1, 3], "color": 1},
        {"tool": "hole", "cell": [3, 3], "color": 3},
    )


def test_blank_board_is_a_draft_that_lists_the_missing_body():
    answer = editing.blank(6, 5)
    assert answer["level"]["cols"] == 6 and answer["level"]["bodies"] == []
    assert answer["ok"] is False and answer["sha256"] is None
    assert [i["path"] for i in answer["issues"]] == ["bodies"]


def test_blank_refuses_a_size_out_of_range_naming_the_field():
    with pytest.raises(ValidationError) as exc:
        editing.blank(1, 30)
    assert paths(exc) == ["cols", "rows"]


def test_level_drawn_with_the_tools_is_whole_and_solvable():
    level = small_level()
    answer = editing.open_draft(level)
    assert answer["ok"] and answer["sha256"] == level_sha256(level)
    assert page.verify(level)["status"] == "verified"


def test_stone_drag_paints_then_erases_and_refuses_a_body_cell():
    level = small_level()
    painted = draw(level, {"tool": "stone", "cells": [[3, 0], [3, 1]]})
    assert [3, 1] in painted["stones"] and [3, 0] in painted["stones"]
    erased = draw(painted, {"tool": "stone", "cells": [[3, 0], [3, 1]], "erase": True})
    assert erased["stones"] == level["stones"]
    with pytest.raises(ValidationError) as exc:
        editing.apply_edit(level, {"tool": "stone", "cells": [[3, 2], [4, 1]]})
    assert paths(exc) == ["edit.cells[1]"]
    assert "bodies[1]" in exc.value.issues[0].message


def test_body_path_that_jumps_is_refused_with_the_cell_path():
    level = small_level()
    before = copy.deepcopy(level)
    with pytest.raises(ValidationError) as exc:
        editing.apply_edit(level, {"tool": "body", "cells": [[1, 0], [1, 2]], "color": 1})
    assert paths(exc) == ["bodies[2].cells[1]"]
    assert level == before  # a refused edit changes nothing


def test_body_drawn_from_an_existing_body_redraws_it_keeping_its_colours():
    level = draw(small_level(), {"tool": "body_props", "index": 0, "colors": [1, 3],
                                 "frozen": 1})
    redrawn = draw(level, {"tool": "body", "cells": [[0, 1], [0, 0], [1, 0]], "color": 7})
    assert redrawn["bodies"][0] == {"cells": [[0, 1], [0, 0], [1, 0]], "colors": [1, 3],
                                    "frozen": 1}
    assert len(redrawn["bodies"]) == 2


def test_hole_click_restyles_an_existing_hole():
    level = draw(small_level(), {"tool": "hole", "cell": [1, 3], "color": 1, "frozen": 2})
    assert level["holes"][0] == {"cell": [1, 3], "color": 1, "frozen": 2}
    with pytest.raises(ValidationError) as exc:
        editing.apply_edit(level, {"tool": "hole", "cell": [0, 0], "color": 15})
    assert paths(exc) == ["edit.color"]


def test_erase_a_locked_body_takes_its_keys_along():
    level = draw(small_level(),
                 {"tool": "body_props", "index": 1, "colors": [3], "lock":
                  {"id": "L1", "kind": "silver"}})
    answer = editing.apply_edit(level, {"tool": "body_props", "index": 0, "colors": [1],
                                        "key": "L1"})
    assert answer["ok"], answer["issues"]
    after = draw(answer["level"], {"tool": "erase", "cell": [4, 0]})
    assert after["bodies"] == [{"cells": [[0, 0], [0, 1], [0, 2]], "colors": [1]}]


def test_lock_without_its_keys_is_an_unfinished_draft_not_a_refusal():
    answer = editing.apply_edit(small_level(), {"tool": "body_props", "index": 0,
                                                "colors": [1], "lock": {"id": "G",
                                                                        "kind": "gold"}})
    assert not answer["ok"]
    assert [i["code"] for i in answer["issues"]] == ["key_count"]


def test_body_props_reports_every_bad_field():
    with pytest.raises(ValidationError) as exc:
        editing.apply_edit(small_level(), {"tool": "body_props", "index": 9,
                                           "colors": [1, 99], "frozen": 0,
                                           "lock": {"id": "", "kind": "bronze"}, "key": 3})
    assert paths(exc) == ["edit.index", "edit.colors[1]", "edit.frozen", "edit.lock",
                          "edit.key"]


def test_resize_drops_stones_outside_and_refuses_to_cut_a_body():
    level = small_level()
    with pytest.raises(ValidationError) as exc:
        editing.apply_edit(level, {"tool": "resize", "cols": 4, "rows": 4})
    assert "bodies[1]" in exc.value.issues[0].message and paths(exc) == ["edit.cols"]
    bigger = draw(level, {"tool": "stone", "cells": [[4, 3]]},
                  {"tool": "resize", "cols": 6, "rows": 6})
    assert (bigger["cols"], bigger["rows"]) == (6, 6)
    grown = draw(bigger, {"tool": "stone", "cells": [[5, 5]]})
    shrunk = draw(grown, {"tool": "resize", "cols": 5, "rows": 4})
    assert [5, 5] not in shrunk["stones"] and [4, 3] in shrunk["stones"]


def test_unknown_tool_and_non_draft_are_refused():
    with pytest.raises(ValidationError) as exc:
        editing.apply_edit(small_level(), {"tool": "paint"})
    assert paths(exc) == ["edit.tool"]
    broken = small_level()
    broken["bodies"][0]["cells"][1] = [3, 3]
    with pytest.raises(ValidationError) as exc:
        editing.apply_edit(broken, {"tool": "erase", "cell": [0, 0]})
    assert "bodies[0].cells[1]" in paths(exc)


CELL = st.lists(st.integers(-1, 6), min_size=2, max_size=2)
EDITS = st.one_of(
    st.fixed_dictionaries({"tool": st.just("stone"), "cells": st.lists(CELL, min_size=1,
                                                                        max_size=4),
                           "erase": st.booleans()}),
    st.fixed_dictionaries({"tool": st.just("erase"), "cell": CELL}),
    st.fixed_dictionaries({"tool": st.just("hole"), "cell": CELL,
                           "color": st.integers(-1, 15)}),
    st.fixed_dictionaries({"tool": st.just("body"), "cells": st.lists(CELL, min_size=1,
                                                                       max_size=5),
                           "color": st.integers(0, 14)}),
    st.fixed_dictionaries({"tool": st.just("resize"), "cols": st.integers(1, 8),
                           "rows": st.integers(1, 8)}),
    st.fixed_dictionaries({"tool": st.just("body_props"), "index": st.integers(-1, 3),
                           "colors": st.lists(st.integers(0, 15), max_size=5)}),
    st.fixed_dictionaries({"tool": st.just("hole_props"), "index": st.integers(-1, 3),
                           "color": st.integers(0, 15)}),
)


@given(st.lists(EDITS, max_size=12))
def test_any_edit_sequence_keeps_a_draft_and_refusals_change_nothing(edits):
    level = small_level()
    for edit in edits:
        before = copy.deepcopy(level)
        try:
            answer = editing.apply_edit(level, edit)
        except ValidationError as exc:
            assert exc.issues and all(i.path for i in exc.issues)
            assert level == before
            continue
        level = answer["level"]
        assert editing.open_draft(level)["level"] == level  # still a draft
        assert answer["ok"] == (validate_level(level) == [])


def test_largest_free_area_matches_the_score_diagnostics():
    from gridforge.snakes.design.score import score_level
    from gridforge.snakes.game.level import level_from_json

    for level in [spec_example(), small_level(), *editing_samples()[:4]]:
        cert = page.verify(level)
        space = score_level(level_from_json(level), cert["solution"])["diagnostics"]["space"]
        cells = editing.largest_free_area(level)
        assert len(cells) == space["largest_free_area"]
        assert len({tuple(c) for c in cells}) == len(cells)


def editing_samples() -> list[dict[str, Any]]:
    return [lv for lv in page.sample_levels() if lv["meta"]["id"].startswith("main-")]


def test_import_reads_a_level_a_certified_level_and_a_batch():
    level = small_level()
    cert = page.verify(level)
    assert editing.read_import(json.dumps(level))["kind"] == "level"
    certified = editing.read_import(json.dumps({"level": level, "certificate": cert}))
    assert certified["kind"] == "certified" and certified["certificates"] == [cert]
    stale = editing.read_import(json.dumps({"level": spec_example(), "certificate": cert}))
    assert stale["certificates"] == [None] and "verify it again" in stale["notes"][0]
    batch = json.dumps({"format": "gridforge.snakes.batch/1", "request": None,
                        "levels": [level, spec_example()], "certificates": [cert, None]})
    read = editing.read_import(batch)
    assert read["kind"] == "batch" and len(read["levels"]) == 2


def test_import_of_a_bad_batch_lists_every_problem_with_paths():
    bad = small_level()
    bad["bodies"][1]["colors"] = [20]
    bad["holes"][0]["cell"] = [9, 9]
    text = json.dumps({"format": "gridforge.snakes.batch/1", "levels": [spec_example(), bad]})
    with pytest.raises(ValidationError) as exc:
        editing.read_import(text)
    assert paths(exc) == ["levels[1].bodies[1].colors[0]", "levels[1].holes[0].cell"]
    for junk in ["{", "[1, 2]", '{"format": "gridforge.snakes.level/1"}', "x" * (5 << 20)]:
        with pytest.raises(ValidationError):
            editing.read_import(junk)


def test_exported_batch_certifies_again_and_refuses_an_uncertified_item():
    level = small_level()
    items = [{"level": level, "certificate": page.verify(level)},
             {"level": spec_example(), "certificate": page.verify(spec_example())}]
    batch = json.loads(editing.export_batch(items))
    again = certify_batch(batch)
    assert [c["status"] for c in again["certificates"]] == ["verified", "verified"]
    with pytest.raises(ValidationError) as exc:
        editing.export_batch([items[0], {"level": level, "certificate": None}])
    assert paths(exc) == ["items[1].certificate"]


def test_share_text_reads_back_to_the_same_level_and_refuses_a_draft():
    level = {**small_level(), "meta": {"title": "mine"}}
    text = editing.share_text(level)
    again = editing.read_import(text)["levels"][0]
    assert level_sha256(again) == level_sha256(level)
    with pytest.raises(GridforgeError):
        editing.share_text(editing.blank()["level"])


def test_page_import_and_export_judge_certificates_as_a_single_export_does():
    level = small_level()
    cert = page.verify(level)
    single = json.loads(page.export(level, cert))["certificate"]
    text = json.dumps({"format": "gridforge.snakes.batch/1",
                       "levels": [level, spec_example()], "certificates": [cert, cert]})
    read = page.editor_import(text)
    assert read["certificates"][0] == single and read["certificates"][1] is None
    # The page reads the note in a designer's words (gridforge.words): a proof, not a certificate.
    assert read["notes"] and read["notes"][0].startswith("level 2: proof dropped")
    batch = json.loads(page.editor_export_batch([{"level": level, "certificate": cert}]))
    assert batch["certificates"] == [single]
    with pytest.raises(ValidationError) as exc:
        page.editor_export_batch([{"level": spec_example(), "certificate": cert}])
    assert paths(exc) == ["items[0].certificate"]


def _as_javascript_reads_it(value: Any) -> Any:
    """JSON as a browser hands it back: JavaScript has one number type, so 0.0 returns as 0."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _as_javascript_reads_it(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_javascript_reads_it(v) for v in value]
    return value


def test_a_certificate_that_went_through_the_browser_still_exports():
    level = small_level()
    cert = _as_javascript_reads_it(page.verify(level))
    batch = json.loads(page.editor_export_batch([{"level": level, "certificate": cert}]))
    assert len(batch["levels"]) == 1
