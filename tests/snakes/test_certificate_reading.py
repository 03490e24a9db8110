"""A solved certificate's ``reading`` (spec section 5c, issue 41): written by certify, equal to
the legibility module's figures, recomputed by the recheck, left out past its budget."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from gridforge.snakes.editor.editing import read_import
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.solver import certificate as certificate_module
from gridforge.snakes.solver.certificate import (
    CERT_KEYS,
    READING_KEYS,
    certificates_of,
    certify,
    certify_file_data,
)
from gridforge.snakes.solver.legibility import reading
from gridforge.snakes.solver.recheck import check_certificate, recheck

from .fixtures import level_dict, spec_example

# One row of five cells over a pocket two cells deep at x = 2:
#   h A A B B      A (colour 0) lies between B (colour 1) and B's hole h at (0, 0);
#   # # . # a      A's hole a is at (4, 1), behind B.
#   # # . # #
# Alone, each body needs 3 steps (A's tail R, R, then D into a; B's head L, L, L into h): solo
# costs [3, 3]. The travel bound is 3 + 3 = 6 (each nearer end is 3 cells from its hole), so
# the body bound is 6 and no step is steering. Together A must first back into the pocket (2
# tail steps), B leaves (3 head steps), and A comes back out and round (U, R, R, D): 9 steps, 3
# of them joint, in 3 drags (A's tail, B's head, A's head).
HAND = level_dict(
    5, 3,
    [{"cells": [[1, 0], [2, 0]], "colors": [0]}, {"cells": [[3, 0], [4, 0]], "colors": [1]}],
    [{"cell": [4, 1], "color": 0}, {"cell": [0, 0], "color": 1}],
    stones=[[0, 1], [1, 1], [3, 1], [0, 2], [1, 2], [3, 2], [4, 2]],
)
HAND_READING = {"solo_costs": [3, 3], "travel_bound": 6, "body_bound": 6, "joint_steps": 3,
                "steering_steps": 0, "drags": 3}

# A body lying across its way (test_legibility): it unwinds before its tail reaches the hole.
TURNAROUND = level_dict(
    4, 3,
    [{"cells": [[2, 0], [3, 0], [3, 1], [2, 1], [1, 1], [0, 1], [0, 2]], "colors": [0]}],
    [{"cell": [0, 0], "color": 0}], stones=[[1, 0]])


def small_levels() -> list[dict[str, Any]]:
    """Small solvable levels: the hand level, a lone body turning round, the spec example."""
    return [HAND, TURNAROUND, spec_example()]


def expected(data: dict[str, Any], cert: Any) -> dict[str, Any]:
    """The certificate's reading as legibility.reading gives it."""
    got = reading(level_from_json(data), cert)
    return {"solo_costs": list(got.solo_costs), "travel_bound": got.travel_bound,
            "body_bound": got.body_bound, "joint_steps": got.joint_steps,
            "steering_steps": got.steering_steps, "drags": got.drags}


def issue_paths(data: dict[str, Any], cert: Any) -> list[str]:
    return [issue.path for issue in recheck(level_from_json(data, balanced=False), cert).issues]


# ---------------------------------------------------------------- writing


def test_the_hand_level_reads_its_hand_computed_figures():
    cert = certify(HAND)
    assert cert["status"] == "verified" and cert["optimal"] and cert["minimum"] == 9
    assert cert["reading"] == HAND_READING
    assert check_certificate(HAND, cert) == []


@pytest.mark.parametrize("index", range(3))
def test_the_reading_is_legibility_s_on_small_levels(index):
    data = small_levels()[index]
    cert = certify(data)
    assert cert["status"] == "verified"
    assert cert["reading"] == expected(data, cert)
    assert list(cert["reading"]) == list(READING_KEYS)
    # The claims of the certificate keep their place; the reading comes after them.
    assert list(cert) == [*CERT_KEYS, "reading"]
    assert check_certificate(data, cert) == []
    again = recheck(level_from_json(data), cert).certificate
    assert again is not None and again["reading"] == cert["reading"]


def test_the_turnaround_reads_as_steering():
    cert = certify(TURNAROUND)
    assert cert["minimum"] == 6
    assert {k: cert["reading"][k] for k in ("solo_costs", "travel_bound", "body_bound",
                                            "joint_steps", "steering_steps")} == {
        "solo_costs": [6], "travel_bound": 2, "body_bound": 6, "joint_steps": 0,
        "steering_steps": 4}


def test_an_out_of_range_certificate_is_read_too():
    cert = certify(HAND, request={"steps": [1, 5]})
    assert cert["status"] == "out_of_range" and cert["reading"] == HAND_READING
    assert check_certificate(HAND, cert) == []


def test_unsolved_certificates_carry_no_reading():
    unbalanced = copy.deepcopy(HAND)
    unbalanced["holes"][1]["color"] = 0
    cert = certify(unbalanced)
    assert cert["status"] == "unsolvable" and "reading" not in cert
    undetermined = certify(spec_example(), max_states=2, fast_states=2)
    assert undetermined["status"] == "undetermined" and "reading" not in undetermined


def test_a_solo_search_past_its_budget_leaves_the_reading_out(monkeypatch):
    honest = certify(HAND)
    monkeypatch.setattr(certificate_module, "READING_STATES", 2)
    cert = certify(HAND)
    assert "reading" not in cert
    assert {k: v for k, v in honest.items() if k != "reading"} == cert
    # A reading the recheck cannot recompute within its budget is refused, not believed.
    found = recheck(level_from_json(HAND), honest)
    assert [i.path for i in found.issues] == ["reading"] and found.certificate is None
    assert "refused, not believed" in found.issues[0].message
    assert check_certificate(HAND, cert) == []


# ---------------------------------------------------------------- the recheck


@pytest.mark.parametrize(("key", "path"), [
    ("joint_steps", "reading.joint_steps"),
    ("steering_steps", "reading.steering_steps"),
    ("travel_bound", "reading.travel_bound"),
    ("body_bound", "reading.body_bound"),
    ("drags", "reading.drags"),
])
def test_a_tampered_figure_is_refused_with_its_path(key, path):
    cert = certify(HAND)
    cert["reading"][key] += 1
    found = recheck(level_from_json(HAND), cert)
    assert [i.path for i in found.issues] == [path] and found.certificate is None
    assert "the recheck gives" in found.issues[0].message


def test_a_tampered_solo_cost_is_refused_with_its_index():
    cert = certify(HAND)
    cert["reading"]["solo_costs"][1] = 2
    assert issue_paths(HAND, cert) == ["reading.solo_costs[1]"]
    cert["reading"]["solo_costs"] = [3, 3, 0]
    assert issue_paths(HAND, cert) == ["reading.solo_costs"]


def test_a_reading_of_another_solution_is_refused():
    cert = certify(HAND)
    cert["reading"]["drags"] = 4  # what a longer solution might have
    assert issue_paths(HAND, cert) == ["reading.drags"]


@pytest.mark.parametrize(("reading_claim", "paths"), [
    ("figures", ["reading"]),
    (None, ["reading"]),
    ({**HAND_READING, "extra": 1}, ["reading.extra"]),
    ({k: v for k, v in HAND_READING.items() if k != "drags"}, ["reading.drags"]),
    ({**HAND_READING, "travel_bound": "6"}, ["reading.travel_bound"]),
    ({**HAND_READING, "body_bound": -1}, ["reading.body_bound"]),
    ({**HAND_READING, "drags": 3.5}, ["reading.drags"]),
    ({**HAND_READING, "joint_steps": True}, ["reading.joint_steps"]),
    ({**HAND_READING, "solo_costs": [3, -3]}, ["reading.solo_costs[1]"]),
    ({**HAND_READING, "solo_costs": 6}, ["reading.solo_costs"]),
    ({**HAND_READING, "solo_costs": [0] * 17}, ["reading.solo_costs"]),
])
def test_a_malformed_reading_names_its_field(reading_claim, paths):
    cert = certify(HAND)
    cert["reading"] = reading_claim
    found = recheck(level_from_json(HAND), cert, base="certificates[3]")
    assert [i.path for i in found.issues] == [f"certificates[3].{p}" for p in paths]
    assert found.certificate is None


def test_a_certificate_without_a_reading_stays_valid():
    cert = certify(HAND)
    del cert["reading"]
    found = recheck(level_from_json(HAND), cert)
    assert found.issues == [] and found.certificate is not None
    assert "reading" not in found.certificate


def test_only_a_solved_certificate_carries_a_reading():
    unbalanced = copy.deepcopy(HAND)
    unbalanced["holes"][1]["color"] = 0
    cert = certify(unbalanced)
    cert["reading"] = HAND_READING
    assert issue_paths(unbalanced, cert) == ["reading"]
    undetermined = certify(HAND, max_states=1, fast_states=1)
    assert undetermined["status"] == "undetermined" and "reading" not in undetermined
    undetermined["reading"] = HAND_READING
    assert issue_paths(HAND, undetermined) == ["reading"]


def test_an_unproven_certificate_reads_at_its_lower_bound():
    """Joint steps at the certified lower bound, negative when it lies below the body bound;
    the rechecked certificate reads at the bound the recheck proved."""
    cert = certify(HAND)
    cert.update(optimal=False, minimum=None, lower_bound=5, reason="minimum unproven")
    cert["reading"] = {**HAND_READING, "joint_steps": 5 - 6}
    found = recheck(level_from_json(HAND), cert)
    assert found.issues == [] and found.certificate is not None
    again = found.certificate
    assert again["reading"] == expected(HAND, again)
    assert again["reading"]["joint_steps"] == again["lower_bound"] - 6
    assert list(again) == [*CERT_KEYS, "reading"]
    cert["reading"]["joint_steps"] = 3  # the minimum's figure, claimed of an unproven one
    assert issue_paths(HAND, cert) == ["reading.joint_steps"]


# ---------------------------------------------------------------- files


def test_files_carrying_a_reading_are_read_everywhere():
    cert = certify(HAND)
    certified = {"level": HAND, "certificate": cert}
    # An exported certified level, re-certified from its own solution.
    again = certificates_of(certify_file_data(copy.deepcopy(certified)))
    assert [c.get("reading") for c in again] == [HAND_READING]
    # The editor's import (a certified level and a batch) keeps the certificate.
    answer = read_import(json.dumps(certified))
    assert answer["certificates"] == [cert] and answer["notes"] == []
    batch: dict[str, Any] = {"format": "gridforge.snakes.batch/1", "request": None,
                             "levels": [HAND], "certificates": [cert]}
    answer = read_import(json.dumps(batch))
    assert answer["certificates"] == [cert] and answer["notes"] == []
    again = certificates_of(certify_file_data(copy.deepcopy(batch)))
    assert [c.get("reading") for c in again] == [HAND_READING]


# ---------------------------------------------------------------- spec 5d's optional figures

# The hand level is one floor region holding both bodies: A must move before B can leave.
BOARD = {"main_region": {"beyond_pairs": 0, "chain": 1, "joint": 3, "bodies": 2}}


def test_the_optional_main_region_and_piece_costs_are_kept_by_the_recheck():
    cert = certify(HAND)
    assert "main_region" not in cert["reading"] and "piece_cost" not in cert["reading"]
    cert["reading"] = {**cert["reading"], **BOARD}
    found = recheck(level_from_json(HAND), cert)
    assert found.issues == [] and found.certificate is not None
    assert found.certificate["reading"] == {**HAND_READING, **BOARD}
    # A piece cost names a piece the level has; a bridge's may be negative.
    data = spec_example()  # a frozen body, a frozen hole, a silver lock
    cert = certify(data)
    costs = {"bodies[1].frozen": 0, "holes[3].frozen": 2, "bodies[3].lock": 1}
    cert["reading"]["piece_cost"] = costs
    found = recheck(level_from_json(data), cert)
    assert found.issues == [] and found.certificate is not None
    assert found.certificate["reading"]["piece_cost"] == costs
    assert list(found.certificate["reading"]) == [*READING_KEYS, "piece_cost"]


@pytest.mark.parametrize(("extra", "paths"), [
    ({"main_region": 3}, ["reading.main_region"]),
    ({"main_region": {**BOARD["main_region"], "bodies": 0}}, ["reading.main_region.bodies"]),
    ({"main_region": {**BOARD["main_region"], "chain": -1}}, ["reading.main_region.chain"]),
    ({"main_region": {**BOARD["main_region"], "joint": "3"}}, ["reading.main_region.joint"]),
    ({"main_region": {k: 1 for k in ("beyond_pairs", "chain", "joint")}},
     ["reading.main_region.bodies"]),
    ({"main_region": {**BOARD["main_region"], "depth": 1}}, ["reading.main_region.depth"]),
    ({"piece_cost": [1]}, ["reading.piece_cost"]),
    ({"piece_cost": {"stones[0]": 1}}, ["reading.piece_cost.stones[0]"]),
    ({"piece_cost": {"paths[0]": 1.5}}, ["reading.piece_cost.paths[0]"]),
])
def test_a_malformed_5d_figure_names_its_field(extra, paths):
    cert = certify(HAND)
    cert["reading"] = {**cert["reading"], **extra}
    found = recheck(level_from_json(HAND), cert, base="certificates[1]")
    assert [i.path for i in found.issues] == [f"certificates[1].{p}" for p in paths]
    assert found.certificate is None


@pytest.mark.parametrize(("extra", "path"), [
    # The hand level's one region holds 2 bodies; a chain of 2 would need 3.
    ({"main_region": {**BOARD["main_region"], "bodies": 3}}, "reading.main_region.bodies"),
    ({"main_region": {**BOARD["main_region"], "chain": 2}}, "reading.main_region.chain"),
    # Pieces the hand level does not have: no freeze, no lock, no path, no bridge.
    ({"piece_cost": {"bodies[0].frozen": 2}}, "reading.piece_cost.bodies[0].frozen"),
    ({"piece_cost": {"bodies[5].lock": 2}}, "reading.piece_cost.bodies[5].lock"),
    ({"piece_cost": {"holes[1].frozen": 2}}, "reading.piece_cost.holes[1].frozen"),
    ({"piece_cost": {"paths[0]": 2}}, "reading.piece_cost.paths[0]"),
    ({"piece_cost": {"bridges[0]": -2}}, "reading.piece_cost.bridges[0]"),
])
def test_a_5d_figure_that_does_not_fit_the_level_is_refused(extra, path):
    cert = certify(HAND)
    cert["reading"] = {**cert["reading"], **extra}
    assert issue_paths(HAND, cert) == [path]
