"""A weights file, ``gridforge.snakes.weights/1`` (issue 24; docs/snakes-calibration.md): the
seven terms' weights fitted to how people (or the synthetic player) play, and the maps from
the weighted score to a predicted difficulty.

The seed's weights (:data:`gridforge.snakes.design.score.WEIGHTS`) stay the design score's
default everywhere; a weights file only adds a *prediction* beside it. Nothing here changes a
design score, a certificate's claims or any output made without a weights file.

- :func:`validate_weights`: a weights file's data, refused with field paths.
- :func:`weighted_score`: the seven normalised terms under a file's weights (0..100).
- :func:`prediction`: the certificate's ``prediction`` object for a score's normalised terms.
- :func:`weights_sha256`: the canonical SHA-256 a prediction names its weights by.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from typing import NotRequired, TypedDict, TypeGuard, cast

from gridforge.errors import Field, Issues, Schema, ValidationError, field_path
from gridforge.snakes.design.score import WEIGHTS

FORMAT = "gridforge.snakes.weights/1"
TERMS = tuple(name for name, _ in WEIGHTS)
TOP_KEYS = ("format", "weights", "predict", "fit", "version")
PREDICT_KEYS = ("difficulty", "solve_logit", "log_seconds", "mean_skill")
SUM_TOLERANCE = 0.05
MAX_WEIGHTS_BYTES = 1024 * 1024


class Predict(TypedDict):
    """The fitted maps from a weighted score: ``[intercept, slope]`` pairs, and the mean
    player's skill."""

    difficulty: list[float]
    solve_logit: list[float]
    log_seconds: list[float]
    mean_skill: float


class Weights(TypedDict):
    """A weights file (``gridforge.snakes.weights/1``)."""

    format: str
    weights: dict[str, float]
    predict: Predict
    fit: NotRequired[Mapping[str, object]]  # the calibration's report, informational
    version: NotRequired[str]


class Prediction(TypedDict):
    """What a weights file predicts for one level (a certificate's ``prediction``)."""

    score: float
    difficulty: float
    solve_rate: float
    median_seconds: float
    weights_sha256: str


def _number(value: object) -> TypeGuard[int | float]:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def _check_terms(weights: object, issues: Issues) -> None:
    """Add to ``issues`` what is wrong with a weights file's ``weights``: the seven terms,
    each in 0..100, summing to 100 (the sum checked only when nothing else is wrong)."""
    if not isinstance(weights, dict):
        issues.add("weights", "type", "must be an object of the seven terms")
        return
    for key in sorted(k for k in weights if k not in TERMS):
        issues.add(field_path("weights", str(key)), "unknown_field", f"unknown term {key!r}")
    for term in TERMS:
        value = weights.get(term)
        if term not in weights:
            issues.add(field_path("weights", term), "missing", "missing")
        elif not _number(value) or not 0 <= value <= 100:
            issues.add(field_path("weights", term), "range",
                       f"must be a number in 0..100, got {value!r}")
    total = sum(v for t in TERMS if _number(v := weights.get(t)))
    if not issues and abs(total - 100) > SUM_TOLERANCE:
        issues.add("weights", "sum", "the seven weights must sum to 100, got "
                            f"{total:g}")


def _check_predict(predict: object, issues: Issues) -> None:
    """Add to ``issues`` what is wrong with a weights file's ``predict`` maps."""
    if not isinstance(predict, dict):
        issues.add("predict", "type", "must be an object")
        return
    for key in sorted(k for k in predict if k not in PREDICT_KEYS):
        issues.add(field_path("predict", str(key)), "unknown_field", f"unknown field {key!r}")
    for key in PREDICT_KEYS:
        value = predict.get(key)
        if key == "mean_skill":
            if not _number(value):
                issues.add(field_path("predict", key), "type", "must be a finite number")
        elif not (isinstance(value, list) and len(value) == 2
                  and all(_number(v) for v in value)):
            issues.add(field_path("predict", key), "type",
                       "must be [intercept, slope], two finite numbers")


# A weights file's fields, declared once (the terms and the prediction maps are read below).
_FILE = Schema((
    Field("format", message=f"must be {FORMAT!r}", code="format", choices=(FORMAT,)),
    Field("weights"), Field("predict"),
    Field("fit", "object", "must be an object (the calibration's report)", "type", default={}),
    Field("version", "str", "must be a text", "type", default=""),
), not_object="a weights file is a JSON object", unknown_sorted=True)
assert {f.name for f in _FILE.fields} == set(TOP_KEYS)


def validate_weights(data: object, what: str = "weights file") -> Weights:
    """A weights file's data, checked: seven non-negative weights summing to 100 (within
    :data:`SUM_TOLERANCE`), the prediction maps as ``[intercept, slope]`` pairs of finite
    numbers, ``fit`` an object (the calibration's report, informational).

    :raises ValidationError: naming every problem by its field path (``weights.steps``).
    """
    issues = Issues()
    fields = _FILE.read(_FILE.root(data, what), issues)
    fields.check("format")
    _check_terms(fields.data.get("weights"), issues)
    _check_predict(fields.data.get("predict"), issues)
    fields.check("fit", "version")
    if issues:
        raise ValidationError(issues, what)
    return cast(Weights, data)  # every field checked above


def weighted_score(weights: Weights, normalised: dict[str, float]) -> float:
    """The seven normalised terms under a weights file's weights: 0..100, one decimal."""
    w = weights["weights"]
    return round(sum(float(w[t]) * float(normalised[t]) for t in TERMS), 1)


def weights_sha256(weights: Weights) -> str:
    """The SHA-256 of a weights file's canonical JSON (keys sorted, no whitespace)."""
    text = json.dumps(weights, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def prediction(weights: Weights, normalised: dict[str, float]) -> Prediction:
    """What a weights file predicts for a level with these normalised terms: the weighted
    score (``score``, 0..100), the fitted difficulty (``difficulty``, in the calibration's
    units: 0 is the calibration set's mean level, +1 one standard deviation harder), the
    share of average players who clear it without a hint, and their median time to clear."""
    s = weighted_score(weights, normalised)
    p = weights["predict"]
    difficulty = p["difficulty"][0] + p["difficulty"][1] * s
    logit = p["solve_logit"][0] + p["solve_logit"][1] * s
    z = p["mean_skill"] - logit
    solve = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
    seconds = math.exp(min(50.0, p["log_seconds"][0] + p["log_seconds"][1] * s))
    return {"score": s, "difficulty": round(difficulty, 2), "solve_rate": round(solve, 3),
            "median_seconds": round(seconds, 1), "weights_sha256": weights_sha256(weights)}


__all__ = ["FORMAT", "MAX_WEIGHTS_BYTES", "TERMS", "prediction", "validate_weights",
           "weighted_score", "weights_sha256"]
