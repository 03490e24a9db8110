"""Certificates (spec sections 5 and 7): writing, rechecking every claim, the CLI verbs."""

from __future__ import annotations

import json

import pytest
from gridforge.cli import main
from gridforge.errors import ValidationError
from gridforge.snakes.certificate import (
    CERT_FORMAT,
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


@pytest.mark.cpython_only
def test_cli_verify_writes_the_certificate(tmp_path, capsys):
    src = tmp_path / "in.json"
    src.write_text(json.dumps(spec_example()), encoding="utf-8")
    out = tmp_path / "cert.json"
    code = main(["design-levels", "--verify", str(src), "--out", str(out), "--quiet"])
    assert code == 0
    cert = json.loads(out.read_text(encoding="utf-8"))
    assert cert["status"] == "verified" and cert["minimum"] == 20
    assert "verified" in capsys.readouterr().out


@pytest.mark.cpython_only
def test_cli_bad_input_is_a_clean_error(tmp_path, capsys):
    src = tmp_path / "in.json"
    src.write_text("{oops", encoding="utf-8")
    code = main(["design-levels", "--verify", str(src), "--out", str(tmp_path / "o.json")])
    assert code == 2 and "not valid JSON" in capsys.readouterr().err
    data = spec_example()
    data["bodies"][3]["lock"]["kind"] = "gold"
    src.write_text(json.dumps(data), encoding="utf-8")
    code = main(["design-levels", "--verify", str(src), "--out", str(tmp_path / "o.json")])
    err = capsys.readouterr().err
    assert code == 2 and "bodies[3].lock" in err and "Traceback" not in err
    assert not (tmp_path / "o.json").exists()


@pytest.mark.cpython_only
def test_cli_check_designer_small(capsys):
    assert main(["check-designer", "--levels", "10", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "astar_vs_bfs: ok" in out and "matching_vs_brute_force: ok" in out
