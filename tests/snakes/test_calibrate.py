"""Calibration (issue 24): planted weights are recovered, the fit's invariants hold, weights
files are validated with field paths."""

import hashlib
import json
import math
import random
from typing import Any

import pytest
from gridforge.errors import GridforgeError, ValidationError
from gridforge.snakes.design import calibrate as cal
from gridforge.snakes.design.calibrate import calibrate, shipped_levels
from gridforge.snakes.design.weights import (
    TERMS,
    prediction,
    validate_weights,
    weighted_score,
)
from gridforge.snakes.game.mainline import mainline_level
from gridforge.snakes.player.synthetic import export, play, population
from gridforge.snakes.player.telemetry import FORMAT, validate_telemetry
from hypothesis import given
from hypothesis import strategies as st

PLANTED = {"occupancy": 5.0, "body_scale": 10.0, "steps": 40.0, "blocking": 0.0,
           "mechanics": 20.0, "shuffling": 25.0, "space": 0.0}
TEMPLATES = ("courtyard", "notched", "stepped", "cross", "island", "twin", "winding", "comb")
# Each recovered weight lies within this many points of the planted one (docs).
TOLERANCE = 5.0


def _gauss(rng: random.Random) -> float:
    u1, u2 = max(rng.random(), 1e-12), rng.random()
    return math.sqrt(-2 * math.log(u1)) * math.cos(2 * math.pi * u2)


def planted(levels: int = 120, players: int = 40, per_player: int = 30, seed: int = 3
            ) -> tuple[dict[str, cal.LevelInfo], list[dict[str, Any]], dict[str, float]]:
    """Levels with random terms, a difficulty made from PLANTED, players of spread skill,
    and their attempts (solved without hint by a Rasch draw, log-normal times)."""
    rng = random.Random(seed)
    infos: dict[str, cal.LevelInfo] = {}
    truth: dict[str, float] = {}
    for i in range(levels):
        sha = f"{i:064x}"
        terms = {t: round(rng.random(), 4) for t in TERMS}
        infos[sha] = cal.LevelInfo(sha, TEMPLATES[i % len(TEMPLATES)], terms, 0.0, i + 1)
        truth[sha] = (sum(PLANTED[t] * terms[t] for t in TERMS) - 35) / 12
    shas = sorted(infos)
    attempts = []
    for p in range(players):
        skill, pace = _gauss(rng), 0.3 * _gauss(rng)
        for k in range(per_player):
            sha = shas[rng.randrange(len(shas))]
            d = truth[sha]
            solved = rng.random() < 1 / (1 + math.exp(-(skill - d)))
            won = solved or rng.random() < 0.6
            seconds = math.exp(3 + 0.6 * d - pace + 0.3 * _gauss(rng))
            ms = int(seconds * 1000)
            attempts.append({
                "level_sha256": sha, "kind": "draft", "level": None, "player": f"p{p}",
                "seq": k, "outcome": "won" if won else "abandoned", "first_step_ms": 100,
                "duration_ms": ms, "steps": 20, "best_known": 15, "restarts": 0,
                "undos": 0, "hints": 0 if solved or not won else 1,
                "repositioning_runs": 2, "drags": 10, "think_ms": ms * 6 // 10,
                "drag_ms": ms * 3 // 10, "dead_ends": None})
    return infos, attempts, truth


def test_planted_weights_are_recovered() -> None:
    infos, attempts, truth = planted()
    validate_telemetry({"format": FORMAT, "source": "synthetic", "attempts": attempts})
    model = cal.fit_difficulty(attempts)
    shas = sorted(model.levels)
    rho = cal.spearman([model.levels[s].difficulty for s in shas], [truth[s] for s in shas])
    assert rho >= 0.9
    out = cal.calibrate(attempts, infos)
    for t in TERMS:
        assert abs(out["weights"][t] - PLANTED[t]) <= TOLERANCE, (t, out["weights"])
    assert out["fit"]["held_out"]["difficulty"] >= 0.8
    assert out["fit"]["thinking_operating_separated"] is True


def test_calibration_is_deterministic_and_a_valid_file() -> None:
    infos, attempts, _ = planted(levels=40, players=12, per_player=20, seed=5)
    a = json.dumps(cal.calibrate(attempts, infos), sort_keys=True)
    b = json.dumps(cal.calibrate(list(attempts), infos), sort_keys=True)
    assert a == b
    data = validate_weights(json.loads(a))
    assert sum(data["weights"].values()) == pytest.approx(100, abs=1e-9)
    assert {f["template"] for f in data["fit"]["folds"]} == set(TEMPLATES)


def test_too_few_levels_is_refused() -> None:
    infos, attempts, _ = planted(levels=3, players=3, per_player=5)
    with pytest.raises(GridforgeError, match="4 or more known levels"):
        cal.calibrate(attempts, infos)


@given(st.lists(st.lists(st.floats(0, 1), min_size=7, max_size=7), min_size=3, max_size=25),
       st.lists(st.floats(-5, 5), min_size=25, max_size=25))
def test_nnls_weights_are_non_negative_and_sum_to_100(xs: list[list[float]],
                                                      ys: list[float]) -> None:
    ys = ys[:len(xs)]
    _a, v = cal.nnls(xs, ys)
    assert all(x >= 0 for x in v)
    if sum(v) > 1e-9:
        w = cal._tenths(v)
        assert all(x >= 0 for x in w)
        assert round(sum(w), 6) == 100
    assert cal.nnls(xs, ys) == (_a, v)


@given(st.lists(st.floats(-100, 100), min_size=2, max_size=30))
def test_spearman_of_a_list_with_itself(xs: list[float]) -> None:
    rho = cal.spearman(xs, xs)
    assert rho == pytest.approx(1.0) or len(set(xs)) == 1


def _weights() -> dict[str, Any]:
    return {"format": "gridforge.snakes.weights/1",
            "weights": {t: w for t, w in cal.SEED_WEIGHTS.items()},
            "predict": {"difficulty": [-2.0, 0.04], "solve_logit": [-1.0, 0.03],
                        "log_seconds": [2.0, 0.03], "mean_skill": 0.5}}


def test_weights_file_refusals_name_the_field() -> None:
    data = _weights()
    validate_weights(data)
    bad = json.loads(json.dumps(data))
    bad["weights"]["steps"] = -1
    bad["predict"]["mean_skill"] = "x"
    bad["colour"] = 1
    with pytest.raises(ValidationError) as exc:
        validate_weights(bad)
    paths = {i.path for i in exc.value.issues}
    assert {"weights.steps", "predict.mean_skill", "colour"} <= paths
    bad = json.loads(json.dumps(data))
    bad["weights"]["steps"] += 5
    with pytest.raises(ValidationError, match="sum to 100"):
        validate_weights(bad)


def test_prediction_under_the_seed_weights_is_the_design_score() -> None:
    norm = {t: 0.5 for t in TERMS}
    assert weighted_score(_weights(), norm) == 50.0
    p = prediction(_weights(), norm)
    assert p["score"] == 50.0 and 0 < p["solve_rate"] < 1 and p["median_seconds"] > 0
    assert len(p["weights_sha256"]) == 64


def calibration_digests() -> tuple[str, str]:
    """SHA-256 of a synthetic-play export and of the weights calibrated from it (without the
    package version): synthetic players on shipped levels 12-47, every 5th."""
    attempts = []
    players = population(3, 11)
    for k, n in enumerate(range(12, 48, 5)):
        found = mainline_level(n)
        for p, (name, profile) in enumerate(players):
            attempts.append(play(found["level"], seed=1000 * n + p, profile=profile,
                                 best_known=found["certificate"]["steps"], player=name,
                                 seq=k, number=n))
    tele = json.dumps(export(attempts, seed=11), sort_keys=True)
    weights = calibrate(attempts, shipped_levels())
    weights.pop("version")
    text = json.dumps(weights, sort_keys=True)
    return (hashlib.sha256(tele.encode()).hexdigest(), hashlib.sha256(text.encode()).hexdigest())


def test_synthetic_play_and_calibration_give_pinned_bytes() -> None:
    """The same on CPython and in Pyodide (this file runs in both)."""
    assert calibration_digests() == (
        "082eba3e8e6173bd11fab7faa6a3c8453d6fc3140671452296d7b25af513d0ec",
        "0f698bdeed4902c018239bb307e0025d57d39663f72c60db5a0c26f2f6ba6d32")
