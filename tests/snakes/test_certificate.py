"""Certificates (spec sections 5 and 7): writing, rechecking every claim, the CLI verbs."""

from __future__ import annotations

import json

import pytest
from gridforge.errors import ValidationError
from gridforge.snakes.game.certfile import BATCH_FORMAT, CERT_FORMAT, STATUSES
from gridforge.snakes.game.level import level_sha256
from gridforge.snakes.solver.certificate import MAX_BATCH_LEVELS, certify, certify_file_data, judge
from gridforge.snakes.solver.recheck import check_certificate

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


def test_witnesses_are_rechecked_legal_without_their_mechanic_and_refused_with_it():
    from gridforge.snakes.game.level import level_from_json
    from gridforge.snakes.solver.puzzle import relaxations, witness

    level = level_from_json(spec_example())
    cert = certify(level)
    found = {}
    for name, relaxed in relaxations(level):
        steps = witness(level, relaxed, cert["steps"], max_states=50_000)
        if steps is not None:
            found[name] = steps
    assert found, "the spec example has a mechanic that binds"
    witnesses = [{"mechanic": k, "solution": v} for k, v in sorted(found.items())]
    assert check_certificate(level, {**cert, "witnesses": witnesses}) == []
    name, steps = next(iter(sorted(found.items())))
    forged = [
        ({"mechanic": name, "solution": cert["solution"]}, "does not bind"),
        ({"mechanic": "bodies[9].frozen", "solution": steps}, "naming a mechanic"),
        ({"mechanic": name, "solution": steps + steps}, "more than the certificate"),
        ({"mechanic": name, "solution": steps[:-1]}, "does not complete"),
    ]
    for item, words in forged:
        problems = check_certificate(level, {**cert, "witnesses": [item]})
        assert len(problems) == 1 and words in problems[0] and "witnesses[0]" in problems[0]


def test_a_given_solution_is_kept_shortened_or_proven_never_worse():
    from gridforge.snakes.game.level import level_from_json
    from gridforge.snakes.game.rules import Game, move_to_step

    level = spec_example()
    best = certify(level)
    game = Game(level_from_json(level))
    start = game.initial
    # A slide and the slide back, then the shortest solution: legal, two steps too long.
    there = next((m, c) for m, c, _ in game.successors(start, game.occupancy(start))
                 if c[game.n + 1] == start[game.n + 1])
    back = next(m for m, c, _ in game.successors(there[1], game.occupancy(there[1]))
                if c == start)
    detour = [move_to_step(there[0]), move_to_step(back), *best["solution"]]
    for states in (1, 200_000):
        cert = certify(level, solution=detour, max_states=states)
        assert cert["status"] == "verified" and cert["steps"] <= len(detour)
    assert certify(level, solution=detour)["steps"] == 20
    with pytest.raises(ValidationError, match=r"solution"):
        certify(level, solution=best["solution"][:-1])
    with pytest.raises(ValidationError, match=r"solution"):
        certify(level, solution=[[0, "head", "X"]])


def _detour(level: dict) -> tuple[list, dict]:
    """A legal solution of ``level`` two steps longer than its shortest (a slide and the slide
    back first), and the level's certificate."""
    from gridforge.snakes.game.level import level_from_json
    from gridforge.snakes.game.rules import Game, move_to_step

    best = certify(level)
    game = Game(level_from_json(level))
    start = game.initial
    there = next((m, c) for m, c, _ in game.successors(start, game.occupancy(start))
                 if c[game.n + 1] == start[game.n + 1])
    back = next(m for m, c, _ in game.successors(there[1], game.occupancy(there[1]))
                if c == start)
    return [move_to_step(there[0]), move_to_step(back), *best["solution"]], best


def test_a_batch_keeps_the_solutions_its_certificates_carry():
    level = spec_example()
    detour, _ = _detour(level)
    carried = {"level_sha256": level_sha256(level), "solution": detour}
    batch = {"format": BATCH_FORMAT, "request": None, "levels": [level, level],
             "certificates": [carried, {**carried, "level_sha256": "0" * 64}]}
    out = certify_file_data(batch, max_states=1, max_seconds=5.0)
    kept, other = out["certificates"]
    # Even a budget of one state keeps the carried solution: verified, never longer.
    assert kept["status"] == "verified" and kept["steps"] <= len(detour)
    # A certificate of another level carries nothing for this one: searched from scratch.
    assert other["status"] == "undetermined"
    assert out["levels"] == batch["levels"]
    bad = {**batch, "certificates": [{**carried, "solution": detour[:-1]}, None]}
    with pytest.raises(ValidationError) as err:
        certify_file_data(bad, max_states=1)
    assert [i.path for i in err.value.issues] == ["certificates[0].solution"]


def test_a_certified_level_file_verifies_from_its_certificate_solution():
    level = spec_example()
    detour, _ = _detour(level)
    data = {"level": level, "certificate": {"level_sha256": level_sha256(level),
                                            "solution": detour}}
    cert = certify_file_data(data, max_states=1, max_seconds=5.0)
    assert cert["format"] == CERT_FORMAT and cert["level_sha256"] == level_sha256(level)
    assert cert["status"] == "verified" and cert["steps"] <= len(detour)
    data["certificate"]["solution"] = [[0, "head", "X"], *detour]
    with pytest.raises(ValidationError) as err:
        certify_file_data(data, max_states=1)
    assert [i.path for i in err.value.issues] == ["certificate.solution"]
