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
from typing import Any

from gridforge.errors import Issue, ValidationError, field_path
from gridforge.snakes.design.score import WEIGHTS

FORMAT = "gridforge.snakes.weights/1"
TERMS = tuple(name for name, _ in WEIGHTS)
TOP_KEYS = ("format", "weights", "predict", "fit", "version")
PREDICT_KEYS = ("difficulty", "solve_logit", "log_seconds", "mean_skill")
SUM_TOLERANCE = 0.05
MAX_WEIGHTS_BYTES = 1024 * 1024


def _number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def validate_weights(data: Any, what: str = "weights file") -> dict[str, Any]:
    """A weights file's data, checked: seven non-negative weights summing to 100 (within
    :data:`SUM_TOLERANCE`), the prediction maps as ``[intercept, slope]`` pairs of finite
    numbers, ``fit`` an object (the calibration's report, informational).

    :raises ValidationError: naming every problem by its field path (``weights.steps``).
    """
    issues: list[Issue] = []
    if not isinstance(data, dict):
        raise ValidationError([Issue("", "type", "a weights file is a JSON object")], what)
    for key in sorted(k for k in data if k not in TOP_KEYS):
        issues.append(Issue(str(key), "unknown_field", f"unknown field {key!r}"))
    if data.get("format") != FORMAT:
        issues.append(Issue("format", "format", f"must be {FORMAT!r}"))
    weights = data.get("weights")
    if not isinstance(weights, dict):
        issues.append(Issue("weights", "type", "must be an object of the seven terms"))
    else:
        for key in sorted(k for k in weights if k not in TERMS):
            issues.append(Issue(field_path("weights", str(key)), "unknown_field",
                                f"unknown term {key!r}"))
        for term in TERMS:
            value: Any = weights.get(term)
            if term not in weights:
                issues.append(Issue(field_path("weights", term), "missing", "missing"))
            elif not _number(value) or not 0 <= value <= 100:
                issues.append(Issue(field_path("weights", term), "range",
                                    f"must be a number in 0..100, got {value!r}"))
        if not issues and abs(sum(weights[t] for t in TERMS) - 100) > SUM_TOLERANCE:
            issues.append(Issue("weights", "sum", "the seven weights must sum to 100, got "
                                f"{sum(weights[t] for t in TERMS):g}"))
    predict = data.get("predict")
    if not isinstance(predict, dict):
        issues.append(Issue("predict", "type", "must be an object"))
    else:
        for key in sorted(k for k in predict if k not in PREDICT_KEYS):
            issues.append(Issue(field_path("predict", str(key)), "unknown_field",
                                f"unknown field {key!r}"))
        for key in PREDICT_KEYS:
            value = predict.get(key)
            if key == "mean_skill":
                if not _number(value):
                    issues.append(Issue(field_path("predict", key), "type",
                                        "must be a finite number"))
            elif not (isinstance(value, list) and len(value) == 2
                      and all(_number(v) for v in value)):
                issues.append(Issue(field_path("predict", key), "type",
                                    "must be [intercept, slope], two finite numbers"))
    if "fit" in data and not isinstance(data["fit"], dict):
        issues.append(Issue("fit", "type", "must be an object (the calibration's report)"))
    if "version" in data and not isinstance(data["version"], str):
        issues.append(Issue("version", "type", "must be a text"))
    if issues:
        raise ValidationError(issues, what)
    return data


def weighted_score(weights: dict[str, Any], normalised: dict[str, Any]) -> float:
    """The seven normalised terms under a weights file's weights: 0..100, one decimal."""
    w = weights["weights"]
    return round(sum(float(w[t]) * float(normalised[t]) for t in TERMS), 1)


def weights_sha256(weights: dict[str, Any]) -> str:
    """The SHA-256 of a weights file's canonical JSON (keys sorted, no whitespace)."""
    text = json.dumps(weights, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def prediction(weights: dict[str, Any], normalised: dict[str, Any]) -> dict[str, Any]:
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
