"""Full certificates (snakes/design/certify.py): the score joined to the game's certificate,
every claim rechecked, forged claims refused by name, export writing only what was proven."""

from __future__ import annotations

import copy
import json

import pytest
from gridforge.cli import main
from gridforge.errors import GridforgeError, ValidationError
from gridforge.snakes import page as snakes_page
from gridforge.snakes.design import certify
from gridforge.snakes.game.certfile import BATCH_FORMAT
from gridforge.snakes.game.level import level_sha256
from gridforge.snakes.solver.certificate import certify as game_certify
from gridforge.snakes.solver.selfcheck import random_level
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .fixtures import data_with_first_block, level_dict, spec_example

# A corridor whose proven minimum is 4 steps, and a legal detour of 8 steps through it.
CORRIDOR = level_dict(6, 2, [{"cells": [[1, 0], [0, 0]], "colors": [0]}],
                      [{"cell": [5, 0], "color": 0}])
DETOUR = [[0, "head", d] for d in ("D", "R", "U", "R", "D", "R", "U", "R")]


def forged_corridor() -> dict:
    """The issue's forgery: an 8-step solution claimed optimal, bound 8, score 99.9."""
    cert = certify.certify(CORRIDOR)
    cert.update(solution=DETOUR, steps=8, optimal=True, minimum=8, lower_bound=8,
                upper_bound=8)
    cert["score"]["total"] = 99.9
    return cert


def paths(issues) -> set[str]:
    return {issue.path for issue in issues}


def test_an_honest_certificate_rechecks_clean_and_the_recheck_agrees():
    cert = certify.certify(spec_example())
    found = certify.recheck(spec_example(), cert)
    assert found.issues == []
    assert found.certificate is not None
    for key in ("level_sha256", "status", "solution", "steps", "optimal", "minimum",
                "lower_bound", "upper_bound", "score", "request"):
        assert found.certificate[key] == cert[key], key


def test_the_issues_forgery_is_refused_naming_each_false_claim():
    issues = certify.recheck(CORRIDOR, forged_corridor()).issues
    assert {"optimal", "lower_bound", "score.total"} <= paths(issues)
    text = " ".join(str(i) for i in issues)
    assert "a solution of 4 steps exists" in text


@pytest.mark.parametrize("claim, value", [
    ("steps", 19), ("lower_bound", 21), ("lower_bound", 25), ("upper_bound", 21),
    ("optimal", "yes"), ("minimum", 19), ("status", "out_of_range"), ("status", "unsolvable"),
    ("reason", "minimum unproven"), ("level_sha256", "0" * 64), ("solution", None),
    ("format", "gridforge.snakes.certificate/2"), ("request", {"target": "50"}),
])
def test_any_changed_claim_is_refused_by_its_field(claim, value):
    cert = certify.certify(spec_example())
    cert[claim] = value
    issues = certify.recheck(spec_example(), cert).issues
    assert issues and any(i.path.split(".")[0].split("[")[0] == claim for i in issues), issues


@pytest.mark.parametrize("term", ["occupancy", "body_scale", "steps", "blocking", "mechanics",
                                  "shuffling", "space"])
def test_a_changed_score_term_is_refused_by_its_path(term):
    cert = certify.certify(spec_example())
    cert["score"]["contributions"][term] += 0.5
    assert paths(certify.recheck(spec_example(), cert).issues) == {
        f"score.contributions.{term}"}


def test_a_shortened_or_illegal_solution_is_refused():
    cert = certify.certify(spec_example())
    short = {**cert, "solution": cert["solution"][:-1]}
    assert "solution" in paths(certify.recheck(spec_example(), short).issues)
    illegal = {**cert, "solution": [[9, "head", "U"], *cert["solution"][1:]]}
    assert "solution" in paths(certify.recheck(spec_example(), illegal).issues)


def test_a_claim_beyond_the_recheck_budget_is_refused_not_believed():
    cert = certify.certify(spec_example())
    cert["budgets"]["exact_states"] = 5  # too few states to re-prove the minimum of 20
    issues = certify.recheck(spec_example(), cert).issues
    assert paths(issues) == {"optimal"} and "not re-prove" in str(issues[0])


def test_an_undetermined_bound_above_the_optimum_and_a_false_unsolvable_are_refused():
    cert = certify.certify(spec_example(), max_states=60, fast_states=60)
    assert cert["status"] == "undetermined" and certify.check(spec_example(), cert) == []
    assert "lower_bound" in paths(
        certify.recheck(spec_example(), {**cert, "lower_bound": 21}).issues)
    unsolvable = {**cert, "status": "unsolvable", "lower_bound": None,
                  "budgets": {"exact_states": 20_000}}
    issues = certify.recheck(spec_example(), unsolvable).issues
    assert paths(issues) == {"status"} and "solution of" in str(issues[0])


def test_export_writes_the_rechecked_certificate_and_refuses_forgeries():
    cert = certify.certify(spec_example())
    under = {**cert}
    exported = json.loads(snakes_page.export(spec_example(), under))
    assert exported["certificate"]["level_sha256"] == level_sha256(spec_example())
    assert exported["certificate"]["optimal"] and exported["certificate"]["minimum"] == 20
    with pytest.raises(ValidationError) as err:
        snakes_page.export(CORRIDOR, forged_corridor())
    assert {"certificate.optimal", "certificate.score.total"} <= paths(err.value.issues)
    edited = copy.deepcopy(spec_example())
    edited["stones"].append([3, 2])
    with pytest.raises(ValidationError, match="level_sha256"):
        snakes_page.export(edited, cert)
    with pytest.raises(GridforgeError, match="verify it first"):
        snakes_page.export(spec_example(), {**cert, "status": "undetermined"})


def test_export_states_only_what_was_proven():
    # An honest but weaker claim (minimum unproven, bound 1) is exported as re-proved.
    cert = certify.certify(spec_example())
    weak = {**cert, "optimal": False, "minimum": None, "lower_bound": 1,
            "reason": "minimum unproven"}
    # Its reading (spec 5c) reads the joint steps at that bound, as a claim of it must.
    weak["reading"] = {**cert["reading"], "joint_steps": 1 - cert["reading"]["body_bound"]}
    assert certify.check(spec_example(), weak) == []
    out = json.loads(snakes_page.export(spec_example(), weak))["certificate"]
    assert out["lower_bound"] >= 1 and out["steps"] == 20


def test_the_shipped_certificates_recheck_and_a_forged_shipped_one_fails(tmp_path):
    first = certify.check_shipped_certificates(root=data_with_first_block(tmp_path / "data"))
    assert first.ok and first.failures == [] and first.figures["certificates"] >= 25
    cert = forged_corridor()
    batch = {"format": BATCH_FORMAT, "request": None, "levels": [CORRIDOR],
             "certificates": [cert]}
    (tmp_path / "main-9999-9999.json").write_text(json.dumps(batch), encoding="utf-8")
    result = certify.check_shipped_certificates(root=tmp_path)
    assert result.figures["certificates"] == 1 and not result.ok
    assert any("certificates[0].optimal" in f for f in result.failures)


@pytest.mark.cpython_only
def test_cli_verify_refuses_a_forged_batch_or_export_naming_the_claim(tmp_path, capsys):
    out = tmp_path / "out.json"
    batch = {"format": BATCH_FORMAT, "request": None, "levels": [CORRIDOR],
             "certificates": [forged_corridor()]}
    exported = {"level": CORRIDOR, "certificate": forged_corridor()}
    for data, claim in ((batch, "certificates[0].optimal"), (exported, "certificate.optimal")):
        src = tmp_path / "in.json"
        src.write_text(json.dumps(data), encoding="utf-8")
        code = main(["design-levels", "--verify", str(src), "--out", str(out), "--quiet"])
        err = capsys.readouterr().err
        assert code == 2 and claim in err and "score.total" in err
        assert "Traceback" not in err and not out.exists()
    honest = {"level": spec_example(), "certificate": certify.certify(spec_example())}
    src = tmp_path / "ok.json"
    src.write_text(json.dumps(honest), encoding="utf-8")
    assert main(["design-levels", "--verify", str(src), "--out", str(out), "--quiet"]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["minimum"] == 20


CLAIMS = ["steps", "lower_bound", "upper_bound", "optimal", "minimum", "status",
          "level_sha256", "score.total"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), claim=st.sampled_from(CLAIMS), delta=st.integers(1, 3))
def test_random_levels_certify_recheck_and_any_nudged_claim_is_refused(seed, claim, delta):
    level = random_level(seed)
    cert = certify.certify(level, max_states=20_000)
    assert certify.check(level, cert) == []
    if cert["status"] not in ("verified", "out_of_range"):
        return
    forged = copy.deepcopy(cert)
    if claim == "score.total":
        forged["score"]["total"] = round(forged["score"]["total"] + delta / 10, 1)
    elif claim == "optimal":
        forged["optimal"] = not forged["optimal"]
    elif claim == "status":
        forged["status"] = "unsolvable"
    elif claim == "level_sha256":
        forged["level_sha256"] = "f" * 64
    elif claim == "lower_bound":
        forged["lower_bound"] = forged["steps"] + delta
    else:
        forged[claim] = (forged[claim] or 0) + delta
    issues = certify.recheck(level, forged).issues
    assert issues, (claim, forged)
    # Claims hang together: a flipped ``optimal`` may be named by what it contradicts.
    named = {"optimal": ("optimal", "minimum", "reason", "lower_bound")}.get(
        claim, (claim.split(".")[0],))
    assert any(i.path.startswith(named) for i in issues), issues


def test_the_game_certificate_has_no_score_and_the_full_one_the_same_bytes_otherwise():
    plain = game_certify(spec_example())
    full = certify.certify(spec_example())
    assert plain["score"] is None and full["score"]["total"] > 0
    assert list(plain) == list(full)
    assert {k: v for k, v in plain.items() if k != "score"} == {
        k: v for k, v in full.items() if k != "score"}


def test_a_certificate_written_before_the_interaction_figures_still_holds():
    # Certificates written before issue 18 (a designer's saved batches and editor files)
    # carry scores without the travel bound and interaction steps: judged without them; any
    # other change is not.
    cert = certify.certify(spec_example())
    diagnostics = cert["score"]["diagnostics"]
    assert {"travel_bound", "interaction_steps"} <= set(diagnostics)
    older = copy.deepcopy(cert)
    for key in ("travel_bound", "interaction_steps"):
        del older["score"]["diagnostics"][key]
    assert certify.check(spec_example(), older) == []
    exported = json.loads(snakes_page.export(spec_example(), older))["certificate"]
    assert exported["score"] == cert["score"]  # the recheck states the figures again
    wrong = copy.deepcopy(cert)
    wrong["score"]["diagnostics"]["interaction_steps"] += 1
    assert any("interaction_steps" in line for line in certify.check(spec_example(), wrong))
    half = copy.deepcopy(older)
    half["score"]["diagnostics"]["travel_bound"] = diagnostics["travel_bound"]
    assert any("interaction_steps" in line for line in certify.check(spec_example(), half))
