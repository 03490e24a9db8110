"""The page's telemetry and prediction functions (issue 24)."""

import pytest
from gridforge.errors import ValidationError
from gridforge.snakes import page
from gridforge.snakes.design.calibrate import SEED_WEIGHTS

from .test_telemetry import attempt


def _record(**changes):
    raw = attempt(**changes)
    del raw["repositioning_runs"], raw["dead_ends"]
    raw["moves"] = [[0, False], [0, True], [1, False], [2, False], [1, True]]
    return raw


def test_the_page_record_becomes_a_valid_attempt():
    found = page.telemetry_attempt(_record())
    assert found["repositioning_runs"] == 2 and found["dead_ends"] is None
    assert page.telemetry_check({"format": "gridforge.snakes.telemetry/1", "source": "device",
                                 "attempts": [found]}) == {"attempts": 1}


def test_bad_page_records_name_the_field():
    with pytest.raises(ValidationError, match=r"attempt\.undos"):
        page.telemetry_attempt(_record(undos=-2))
    with pytest.raises(ValidationError, match=r"attempt\.moves"):
        page.telemetry_attempt({**_record(), "moves": [[0, 1]]})


def test_predict_difficulty_validates_and_predicts():
    weights = {"format": "gridforge.snakes.weights/1", "weights": dict(SEED_WEIGHTS),
               "predict": {"difficulty": [-2.0, 0.04], "solve_logit": [-1.0, 0.03],
                           "log_seconds": [2.0, 0.03], "mean_skill": 0.5}}
    assert page.predict_difficulty(weights, None) is None
    cert = {"score": {"normalised": dict.fromkeys(SEED_WEIGHTS, 1.0)}}
    assert page.predict_difficulty(weights, cert)["score"] == 100.0
    with pytest.raises(ValidationError, match="weights"):
        page.predict_difficulty({"format": "gridforge.snakes.weights/1"}, cert)
    assert "predict_difficulty" in page.__all__ and "telemetry_attempt" in page.__all__
