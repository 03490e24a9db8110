"""``gridforge synthetic-play``, ``calibrate`` and ``design-levels --weights`` end to end
(issue 24): synthetic player -> export -> calibrate -> weights -> a prediction beside the
design score; the same inputs give the same weights file, byte for byte."""

from __future__ import annotations

import json

import pytest
from gridforge.snakes.design.weights import validate_weights
from gridforge.snakes.player.telemetry import validate_telemetry

from .fixtures import run, spec_example
from .test_telemetry import attempt

pytestmark = pytest.mark.cpython_only


def test_synthetic_play_calibrate_and_score_with_the_weights(tmp_path, capsys):
    tele = tmp_path / "t.json"
    code, out, err = run(["synthetic-play", "--levels", "12-71", "--every", "3", "--players",
                          "3", "--seed", "5", "--out", str(tele), "--quiet"], capsys)
    assert code == 0, err
    data = validate_telemetry(json.loads(tele.read_text("utf-8")))
    assert len(data["attempts"]) == 60 and data["source"] == "synthetic"
    weights = tmp_path / "w.json"
    code, out, err = run(["calibrate", str(tele), "--out", str(weights)], capsys)
    assert code == 0, err
    assert "held out" in out and "seed weights" in out
    first = weights.read_bytes()
    fitted = validate_weights(json.loads(first))
    assert all(w >= 0 for w in fitted["weights"].values())
    assert round(sum(fitted["weights"].values()), 6) == 100
    assert fitted["fit"]["levels"] == 20 and len(fitted["fit"]["folds"]) >= 2
    again = tmp_path / "w2.json"
    assert run(["calibrate", str(tele), "--out", str(again)], capsys)[0] == 0
    assert again.read_bytes() == first

    level = tmp_path / "level.json"
    level.write_text(json.dumps(spec_example()), encoding="utf-8")
    plain, scored = tmp_path / "plain.json", tmp_path / "scored.json"
    assert run(["design-levels", "--verify", str(level), "--out", str(plain), "--quiet"],
               capsys)[0] == 0
    code, out, _ = run(["design-levels", "--verify", str(level), "--weights", str(weights),
                        "--out", str(scored), "--quiet"], capsys)
    assert code == 0 and "predicted difficulty" in out
    cert = json.loads(scored.read_text("utf-8"))
    base = json.loads(plain.read_text("utf-8"))
    prediction = cert.pop("prediction")
    assert cert == base  # the design score and every claim unchanged
    assert 0 <= prediction["score"] <= 100 and 0 <= prediction["solve_rate"] <= 1
    # a certified level carrying a prediction still rechecks
    both = tmp_path / "both.json"
    both.write_text(json.dumps({"level": spec_example(), "certificate": {**cert,
                                "prediction": prediction}}), encoding="utf-8")
    assert run(["design-levels", "--verify", str(both), "--out", str(tmp_path / "x.json"),
                "--quiet"], capsys)[0] == 0
    # generation with --weights: every certificate of the batch carries its prediction, and
    # the batch still rechecks
    batch = tmp_path / "batch.json"
    code, out, err = run(["design-levels", "--target", "30", "--count", "1", "--seed", "3",
                          "--weights", str(weights), "--out", str(batch), "--quiet"], capsys)
    assert code == 0, err
    made = json.loads(batch.read_text("utf-8"))
    assert all("prediction" in c for c in made["certificates"])
    assert run(["design-levels", "--verify", str(batch), "--out", str(tmp_path / "y.json"),
                "--quiet"], capsys)[0] == 0


def test_bad_files_are_refused_with_field_paths(tmp_path, capsys):
    bad = tmp_path / "t.json"
    bad.write_text(json.dumps({"format": "gridforge.snakes.telemetry/1", "source": "device",
                               "attempts": [attempt(undos=-1)]}), encoding="utf-8")
    code, _, err = run(["calibrate", str(bad), "--out", str(tmp_path / "w.json")], capsys)
    assert code == 2 and "attempts[0].undos" in err and "Traceback" not in err
    assert not (tmp_path / "w.json").exists()
    weights = tmp_path / "w.json"
    weights.write_text(json.dumps({"format": "gridforge.snakes.weights/1",
                                   "weights": {"steps": 100}}), encoding="utf-8")
    level = tmp_path / "level.json"
    level.write_text(json.dumps(spec_example()), encoding="utf-8")
    code, _, err = run(["design-levels", "--verify", str(level), "--weights", str(weights),
                        "--out", str(tmp_path / "c.json")], capsys)
    assert code == 2 and "weights.occupancy" in err and not (tmp_path / "c.json").exists()
    code, _, err = run(["synthetic-play", "--players", "0", "--out", "x.json"], capsys)
    assert code == 2 and "--players" in err


def test_calibrate_recovers_planted_weights_from_files(tmp_path, capsys):
    """The issue's check through the command: planted weights -> telemetry file and a batch
    naming the levels' terms -> ``gridforge calibrate`` -> the weights within 5 points."""
    from .test_calibrate import PLANTED, TOLERANCE, planted

    infos, attempts, _truth = planted()
    tele = tmp_path / "planted.json"
    tele.write_text(json.dumps({"format": "gridforge.snakes.telemetry/1", "source": "synthetic",
                                "attempts": attempts}), encoding="utf-8")
    batch = tmp_path / "levels.json"
    batch.write_text(json.dumps({
        "levels": [{"meta": {"template": i.template, "level": i.number}} for i in infos.values()],
        "certificates": [{"level_sha256": i.sha, "score": {"total": 0.0,
                                                           "normalised": i.normalised}}
                         for i in infos.values()]}), encoding="utf-8")
    out = tmp_path / "w.json"
    code, _out, err = run(["calibrate", str(tele), "--levels", str(batch), "--out", str(out)],
                          capsys)
    assert code == 0, err
    fitted = json.loads(out.read_text("utf-8"))
    assert fitted["fit"]["levels"] == len(infos) and fitted["fit"]["unknown_level_attempts"] == 0
    for term, weight in PLANTED.items():
        assert abs(fitted["weights"][term] - weight) <= TOLERANCE
