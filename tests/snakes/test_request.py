"""The designer's request: every field checked at once with its path, what the fixed fields
allow together, spec files, and a batch file's request validated whole before use."""

from __future__ import annotations

import json

import pytest
from gridforge.errors import ValidationError
from gridforge.snakes.design.pipeline import design_levels
from gridforge.snakes.design.request import check_batch, load_spec, parse_request


def issue_paths(request) -> list[str]:
    with pytest.raises(ValidationError) as info:
        parse_request(request)
    return [issue.path for issue in info.value.issues]


def test_request_more_colours_than_bodies_refused():
    assert "colors" in issue_paths({"target": 40, "bodies": {"count": 2}, "colors": 3})


def test_request_impossible_size_for_template_refused():
    paths = issue_paths({"target": 40, "topology": "cross",
                         "size": {"auto": False, "cols": 4, "rows": 4}})
    assert "size" in paths
    paths = issue_paths({"target": 40, "topology": "island",
                         "size": {"auto": False, "cols": 7, "rows": 7, "cells": 45}})
    assert "size.cells" in paths


def test_request_whose_fewest_bodies_do_not_fit_the_fixed_floor_refused():
    # Five outer colours need five bodies (2 cells and a hole each) and a free cell: 16 > 10.
    assert "size" in issue_paths({"target": 30, "colors": 5, "size": {"cells": 10}})
    assert "size" in issue_paths({"target": 30, "locks": 3, "size": {"cells": 12}})
    # Three colours fit ten cells (9 and a free one), as does issue 20's request.
    assert parse_request({"target": 30, "colors": 3, "size": {"cells": 10}}).colors == 3
    assert parse_request({"topology": "winding", "target": 30,
                          "size": {"auto": False, "cols": 18, "rows": 24, "cells": 10}}
                         ).cells == 10
    with pytest.raises(ValidationError) as info:
        load_spec('{"target": 30, "size": {"cells": 10, "cells": 400}}')
    assert [i.path for i in info.value.issues] == ["size.cells"]


def test_request_unreachable_steps_refused():
    # three bodies with two coats have five layers: four steps can never do
    paths = issue_paths({"target": 40, "bodies": {"count": 3}, "coats": 2,
                         "steps": {"min": 1, "max": 4}})
    assert "steps.max" in paths
    assert "steps.min" in issue_paths({"target": 40, "steps": {"min": 5000}})
    assert "steps" in issue_paths({"target": 40, "steps": [30, 10]})


def test_request_unreachable_target_refused():
    paths = issue_paths({"target": 100, "bodies": {"count": 1, "total": 2},
                         "steps": {"max": 5}, "coats": 0, "frozen": 0, "frozen_holes": 0,
                         "locks": 0})
    assert "target" in paths


def test_request_reports_every_problem_at_once():
    paths = issue_paths({"target": 140, "topology": "maze", "count": 0, "surprise": 1,
                         "budgets": {"candidates": -1}})
    assert {"target", "topology", "count", "surprise", "budgets.candidates"} <= set(paths)


def test_load_spec_reads_editor_parameters():
    req = load_spec(json.dumps({"topology": "twin", "target": 30, "count": 2, "seed": 9,
                                "bodies": {"count": 3, "min_length": 2, "max_length": 4},
                                "colors": 2, "budgets": {"candidates": 50}}))
    assert (req.topology, req.bodies, req.colors, req.budgets["candidates"]) == ("twin", 3, 2, 50)
    assert req.to_json()["budgets"]["candidates"] == 50


def test_spec_text_that_is_not_bounded_json_is_a_validation_error():
    with pytest.raises(ValidationError):
        load_spec('{"target": NaN}')
    with pytest.raises(ValidationError):
        load_spec("[" * 100 + "]" * 100)


@pytest.fixture(scope="module")
def small_batch() -> dict:
    return design_levels({"target": 15, "count": 1, "seed": 3,
                          "budgets": {"candidates": 200, "exact_states": 300}})


def batch_paths(data) -> list[str]:
    with pytest.raises(ValidationError) as info:
        check_batch(data)
    return [issue.path for issue in info.value.issues]


def test_a_designed_batch_passes_whole(small_batch):
    checked = check_batch(json.loads(json.dumps(small_batch)))
    assert checked["request"] == small_batch["request"]
    assert checked["levels"] == small_batch["levels"]
    assert checked["certificates"] == small_batch["certificates"]


@pytest.mark.parametrize(("field", "value", "path"), [
    ("target", "50", "request.target"),
    ("tolerance", None, "request.tolerance"),
    ("steps", ["a", 5], "request.steps.min"),
    ("target", float("nan"), "request.target"),
    ("target", 1e999, "request.target"),
    ("count", 1.5, "request.count"),
    ("surprise", 1, "request.surprise"),
])
def test_a_bad_batch_request_is_refused_up_front_by_field(small_batch, field, value, path):
    data = json.loads(json.dumps(small_batch))
    data["request"][field] = value
    assert path in batch_paths(data)


def test_a_bad_batch_reports_every_problem_with_its_path(small_batch):
    data = json.loads(json.dumps(small_batch))
    data["format"] = "other"
    data["request"] = {"target": "50", "tolerance": None}
    data["levels"][0]["bodies"][0]["cells"] = "x"
    data["certificates"] = {}
    paths = batch_paths(data)
    assert {"format", "request.target", "request.tolerance", "certificates"} <= set(paths)
    assert any(p.startswith("levels[0].bodies[0]") for p in paths)
    assert batch_paths([]) == [""]
    assert "levels" in batch_paths({"format": "gridforge.snakes.batch/1", "levels": []})


def test_a_main_line_block_request_is_checked_too(small_batch):
    data = json.loads(json.dumps(small_batch))
    data["request"] = {"mainline": "gridforge.snakes.mainline/1", "seed": 2026, "levels": [1, 1]}
    assert check_batch(data)["request"] == data["request"]
    data["request"] = {"mainline": "gridforge.snakes.mainline/1", "seed": "x", "levels": [5, 1]}
    assert {"request.seed", "request.levels"} <= set(batch_paths(data))
