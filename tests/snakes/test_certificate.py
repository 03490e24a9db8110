"""Certificates (spec sections 5 and 7): writing, rechecking every claim, the CLI verbs."""

from __future__ import annotations

import json

import pytest
from gridforge.errors import ValidationError
from gridforge.snakes.certificate import (
    BATCH_FORMAT,
    CERT_FORMAT,
    MAX_BATCH_LEVELS,
    STATUSES,
    certify,
    certify_file_data,
    check_certificate,
    judge,
)
from gridforge.snakes.level import level_sha256

from .fixtures import spec_example


def test_spec_example_is_verified_and_optimal():
    cert = certify(spec_example())
    assert cert["format"] == CERT_FORMAT and cert["status"] == "verified"
    assert cert["optimal"] and cert["steps"] == cert["minimum"] == 20
    assert cert["lower_bound"] == cert["upper_bound"] == 20
    assert cert["level_sha256"] == level_sha256(spec_example())
    assert check_certificate(spec_example(), cert) == []


def test_certificate_is_deterministic_bytes():
    a = json.dumps(certify(spec_example()), sort_keys=True)
    b = json.dumps(certify(spec_example()), sort_keys=True)
    assert a == b


def test_edit_invalidates_the_certificate():
    cert = certify(spec_example())
    edited = spec_example()
    edited["stones"].append([3, 2])
    assert any("sha256" in p for p in check_certificate(edited, cert))
    meta_only = spec_example()
    meta_only["meta"]["id"] = "other"
    assert check_certificate(meta_only, cert) == []


def test_tampered_solution_is_caught():
    cert = certify(spec_example())
    cert["solution"] = cert["solution"][:-1]
    assert check_certificate(spec_example(), cert)


def test_supply_demand_mismatch_is_unsolvable():
    data = spec_example()
    data["holes"][0]["color"] = 5
    cert = certify(data)
    assert cert["status"] == "unsolvable" and cert["reason"].startswith("supply_demand")
    assert cert["solution"] is None and not cert["optimal"]


def test_budget_spent_is_undetermined_with_a_lower_bound():
    cert = certify(spec_example(), max_states=60, fast_states=60)
    assert cert["status"] == "undetermined"
    assert "not mean unsolvable" in cert["reason"]
    assert cert["solution"] is None and not cert["optimal"]
    assert 0 < cert["lower_bound"] <= 20


def test_out_of_range_when_the_steps_miss_the_request():
    cert = certify(spec_example(), request={"steps": [30, 60]})
    assert cert["status"] == "out_of_range" and cert["solution"]
    assert check_certificate(spec_example(), cert) == []
    assert judge({"target": 50, "tolerance": 7}, 60.0, 10) == ["score 60.0 outside 50 +- 7"]
    assert judge({"max_steps": 25}, None, 20) == []


def test_structurally_bad_level_raises_with_field_paths():
    data = spec_example()
    data["bodies"][0]["cells"][1] = [3, 0]
    with pytest.raises(ValidationError) as err:
        certify(data)
    assert err.value.issues[0].path.startswith("bodies[0].cells")


def test_batch_certifies_each_level():
    out = certify_file_data(
        {
            "format": "gridforge.snakes.batch/1",
            "request": {"steps": [1, 100]},
            "levels": [spec_example()],
        },
    )
    assert [c["status"] for c in out["certificates"]] == ["verified"]
    assert set(STATUSES) >= {c["status"] for c in out["certificates"]}


@pytest.mark.parametrize("request_, path", [
    ({"target": "50"}, "request.target"), ({"tolerance": None}, "request.tolerance"),
    ({"steps": ["a", 5]}, "request.steps[0]"), ({"steps": [1]}, "request.steps"),
    ({"target": float("nan")}, "request.target"), ({"target": 1e999}, "request.target"),
    ({"max_steps": -1}, "request.max_steps"), ("fast", "request"),
])
def test_a_malformed_request_is_refused_before_any_search(request_, path):
    with pytest.raises(ValidationError) as err:
        certify(spec_example(), request=request_, max_states=1)
    assert err.value.issues[0].path == path
    batch = {"format": BATCH_FORMAT, "request": request_, "levels": [spec_example()]}
    with pytest.raises(ValidationError) as err:
        certify_file_data(batch)
    assert err.value.issues[0].path == path


def test_a_batch_names_the_invalid_level_and_refuses_too_many():
    bad = spec_example()
    bad["bodies"][0]["lock"] = {"id": "X", "kind": ["gold"]}
    batch = {"format": BATCH_FORMAT, "request": None, "levels": [spec_example(), bad]}
    with pytest.raises(ValidationError) as err:
        certify_file_data(batch)
    assert err.value.issues[0].path == "levels[1].bodies[0].lock.kind"
    batch["levels"] = [{}] * (MAX_BATCH_LEVELS + 1)
    with pytest.raises(ValidationError, match="limit"):
        certify_file_data(batch)


def test_the_game_check_judges_bounds_without_a_scorer():
    cert = certify(spec_example())
    assert check_certificate(spec_example(), {**cert, "lower_bound": 25})
    assert check_certificate(spec_example(), {**cert, "steps": 3})
    assert check_certificate(spec_example(), {**cert, "surprise": 1}) == [
        "surprise: unknown field 'surprise'"]
    assert check_certificate(spec_example(), [1, 2])[0].startswith("format")
