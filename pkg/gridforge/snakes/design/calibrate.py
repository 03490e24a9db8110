"""Calibration of the seven-term score against play (issue 24; docs/snakes-calibration.md).

Seed 004 section 3 calls the seven-term score a structural design score "尚未用玩家数据拟合"
(not yet fitted to player data) and asks for its weights to be calibrated with first-clear
time, failures, hint use and repositioning, telling operating difficulty from thinking
difficulty. This module does that, in pure Python and deterministically:

1. :func:`fit_difficulty`: per-level difficulty from telemetry attempts with a player-skill
   model. Solved-without-hint is a Rasch model, ``P = sigmoid(skill[p] - b[l])`` (fitted by
   alternating one-dimensional Newton steps with a small ridge, fixed iterations); time is
   log-normal, ``log seconds = mu + beta[l] - pace[p] + noise`` (alternating ridge least
   squares), fitted on the attempt's whole duration, on its thinking time and on its drag
   time separately. A level's ``difficulty`` is the mean of its standardised ``b`` and
   ``beta`` (z-scores over the levels).
2. :func:`fit_weights`: non-negative weights of the seven normalised terms, summing to 100,
   by non-negative least squares with an intercept (coordinate descent, fixed sweeps), and the
   linear maps from the weighted score to the difficulty, the Rasch logit and log seconds.
3. :func:`calibrate`: both, cross-validated by template (each template held out in turn,
   the weights fitted on the others predict it), with held-out Spearman rank correlations
   (overall, solved-without-hint, thinking, operating), the seed weights' figures on the same
   levels, and a calibration table (held-out predicted clear rate against the observed one
   per quintile). Returns a ``gridforge.snakes.weights/1`` file's data.

Levels are joined to attempts by SHA-256: the shipped main line by default, and any batch or
certified-level files given; an attempt of an unknown level is counted and left out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from gridforge import __version__
from gridforge.errors import GridforgeError, parse_json
from gridforge.jsontypes import JsonObject
from gridforge.snakes.design.score import WEIGHTS
from gridforge.snakes.design.weights import FORMAT, TERMS, Predict, Weights, validate_weights
from gridforge.snakes.game.level import level_sha256
from gridforge.snakes.player.telemetry import Attempt

SEED_WEIGHTS: dict[str, float] = {name: float(w) for name, w in WEIGHTS}
RIDGE = 0.5
RASCH_ITERATIONS = 60
TIME_ITERATIONS = 40
NNLS_SWEEPS = 400
MIN_TRAIN = 4  # levels a fold needs to fit weights
# Every fitted figure is rounded to this many decimals as it is updated: CPython and Pyodide
# may differ in the last bit of exp and log, and the rounding keeps that from reaching the
# weights file (the same telemetry gives the same bytes on both).
QUANTUM = 10


def _q(x: float) -> float:
    return round(x, QUANTUM) + 0.0


@dataclass
class LevelInfo:
    """What calibration knows of a level: its terms, template and seed score."""

    sha: str
    template: str
    normalised: dict[str, float]
    seed_score: float
    number: int | None = None


@dataclass
class LevelFit:
    """A level's fitted difficulty and its parts."""

    attempts: int = 0
    clear_rate: float = 0.0  # solved without a hint
    b: float = 0.0  # Rasch difficulty (logit)
    beta: float | None = None  # log-seconds effect of the whole attempt (won attempts)
    think: float | None = None
    operate: float | None = None
    difficulty: float = 0.0
    parts: dict[str, float] = field(default_factory=dict)


def _r(x: float, digits: int = 4) -> float:
    return round(x, digits) + 0.0  # no "-0.0"


def ranks(xs: Sequence[float]) -> list[float]:
    """Ranks from 1, ties given their average rank."""
    order = sorted(range(len(xs)), key=lambda i: (xs[i], i))
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's correlation (0 when either side is constant)."""
    n = len(xs)
    if n < 2:
        return 0.0
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 0 or syy <= 0:
        return 0.0
    return sxy / math.sqrt(sxx * syy)


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson on average ranks)."""
    return pearson(ranks(xs), ranks(ys))


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


# ------------------------------------------------------------------ levels


def levels_from_batch(data: Any) -> dict[str, LevelInfo]:
    """The levels of a batch (``levels`` beside ``certificates``) or of an exported certified
    level (``{"level", "certificate"}``), keyed by SHA-256; levels without a score are left
    out."""
    pairs: list[tuple[Any, Any]] = []
    if isinstance(data, dict) and isinstance(data.get("levels"), list) and isinstance(
            data.get("certificates"), list):
        pairs = list(zip(data["levels"], data["certificates"], strict=False))
    elif isinstance(data, dict) and "level" in data and "certificate" in data:
        pairs = [(data["level"], data["certificate"])]
    else:
        raise GridforgeError("a levels file is a batch (levels and certificates) or an "
                             "exported certified level")
    out: dict[str, LevelInfo] = {}
    for level, cert in pairs:
        if not isinstance(cert, dict) or not isinstance(cert.get("score"), dict):
            continue
        normalised = cert["score"].get("normalised")
        if not isinstance(normalised, dict) or not all(
                isinstance(normalised.get(t), (int, float)) for t in TERMS):
            continue
        meta = level.get("meta", {}) if isinstance(level, dict) else {}
        meta = meta if isinstance(meta, dict) else {}
        sha = cert.get("level_sha256") or level_sha256(level)
        number = meta.get("level")
        out[sha] = LevelInfo(sha, str(meta.get("template", "unknown")),
                             {t: float(normalised[t]) for t in TERMS},
                             float(cert["score"].get("total", 0.0)),
                             number if isinstance(number, int) else None)
    return out


def shipped_levels() -> dict[str, LevelInfo]:
    """The shipped main line's levels, keyed by SHA-256."""
    from gridforge.snakes.design.certify import MAX_DATA_BYTES, shipped_data

    out: dict[str, LevelInfo] = {}
    for f in sorted(shipped_data().iterdir(), key=lambda f: f.name):
        if f.name.startswith("main-") and f.name.endswith(".json"):
            out.update(levels_from_batch(parse_json(f.read_bytes(), f.name,
                                                    max_bytes=MAX_DATA_BYTES)))
    return out


# ------------------------------------------------------------------ difficulty


def _rasch(rows: list[tuple[str, str, int]]) -> tuple[dict[str, float], dict[str, float]]:
    """Skill per player and difficulty per level from (player, level, solved) rows."""
    players = sorted({p for p, _, _ in rows})
    levels = sorted({lv for _, lv, _ in rows})
    theta = dict.fromkeys(players, 0.0)
    b = dict.fromkeys(levels, 0.0)
    by_player: dict[str, list[tuple[str, int]]] = {p: [] for p in players}
    by_level: dict[str, list[tuple[str, int]]] = {lv: [] for lv in levels}
    for p, lv, y in rows:
        by_player[p].append((lv, y))
        by_level[lv].append((p, y))
    for _ in range(RASCH_ITERATIONS):
        for p in players:
            g, h = -RIDGE * theta[p], RIDGE
            for lv, y in by_player[p]:
                q = _sigmoid(theta[p] - b[lv])
                g += y - q
                h += q * (1 - q)
            theta[p] = _q(theta[p] + max(-1.0, min(1.0, g / h)))
        for lv in levels:
            g, h = -RIDGE * b[lv], RIDGE
            for p, y in by_level[lv]:
                q = _sigmoid(theta[p] - b[lv])
                g -= y - q
                h += q * (1 - q)
            b[lv] = _q(b[lv] + max(-1.0, min(1.0, g / h)))
    return theta, b


def _log_time(rows: list[tuple[str, str, float]]
              ) -> tuple[float, dict[str, float], dict[str, float]]:
    """``y = mu + beta[level] - pace[player]`` by alternating ridge least squares."""
    players = sorted({p for p, _, _ in rows})
    levels = sorted({lv for _, lv, _ in rows})
    mu = _q(math.fsum(y for _, _, y in rows) / len(rows))
    beta = dict.fromkeys(levels, 0.0)
    pace = dict.fromkeys(players, 0.0)
    by_player: dict[str, list[tuple[str, float]]] = {p: [] for p in players}
    by_level: dict[str, list[tuple[str, float]]] = {lv: [] for lv in levels}
    for p, lv, y in rows:
        by_player[p].append((lv, y))
        by_level[lv].append((p, y))
    for _ in range(TIME_ITERATIONS):
        for lv in levels:
            beta[lv] = _q(math.fsum(y - mu + pace[p] for p, y in by_level[lv]) / (
                len(by_level[lv]) + RIDGE))
        for p in players:
            pace[p] = _q(math.fsum(mu + beta[lv] - y for lv, y in by_player[p]) / (
                len(by_player[p]) + RIDGE))
        mu = _q(math.fsum(y - beta[lv] + pace[p] for p, lv, y in rows) / len(rows))
    return mu, beta, pace


def _z(values: dict[str, float]) -> dict[str, float]:
    if not values:
        return {}
    n = len(values)
    mean = math.fsum(values.values()) / n
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values.values()) / n)
    # A spread within the rounding of the fit is no spread (every level cleared by all).
    if sd <= 10.0 ** -(QUANTUM - 2):
        return dict.fromkeys(values, 0.0)
    return {k: _q((v - mean) / sd) for k, v in values.items()}


def _log_seconds(ms: int) -> float:
    return _q(math.log(max(ms, 50) / 1000.0))


@dataclass
class Difficulty:
    """The fitted difficulty model: per-level fits, player skills, time intercept."""

    levels: dict[str, LevelFit]
    skills: dict[str, float]
    mu: float
    separated: bool  # thinking and operating times present


def fit_difficulty(attempts: Iterable[Attempt]) -> Difficulty:
    """Per-level difficulty from telemetry attempts (see the module's docs)."""
    rows = list(attempts)
    solved = [(a["player"], a["level_sha256"], int(a["outcome"] == "won" and a["hints"] == 0))
              for a in rows]
    skills, b = _rasch(solved)
    won = [a for a in rows if a["outcome"] == "won"]
    fits = {sha: LevelFit() for sha in sorted(b)}
    for a in rows:
        f = fits[a["level_sha256"]]
        f.attempts += 1
        f.clear_rate += a["outcome"] == "won" and a["hints"] == 0
    for sha, f in fits.items():
        f.clear_rate /= max(1, f.attempts)
        f.b = b[sha]
    mu = 0.0
    if won:
        mu, beta, _ = _log_time([(a["player"], a["level_sha256"], _log_seconds(a["duration_ms"]))
                                 for a in won])
        for sha, v in beta.items():
            fits[sha].beta = v
    separated = bool(won) and all(a["think_ms"] > 0 and a["drag_ms"] > 0 for a in won)
    if separated:
        _, think, _ = _log_time([(a["player"], a["level_sha256"], _log_seconds(a["think_ms"]))
                                 for a in won])
        _, operate, _ = _log_time([(a["player"], a["level_sha256"],
                                    _log_seconds(a["drag_ms"])) for a in won])
        for sha in think:
            fits[sha].think, fits[sha].operate = think[sha], operate[sha]
    zb = _z({sha: f.b for sha, f in fits.items()})
    # A level nobody won has no time effect: it takes the slowest level's.
    known = {sha: f.beta for sha, f in fits.items() if f.beta is not None}
    slowest = max(known.values()) if known else 0.0
    zt = _z({sha: (f.beta if f.beta is not None else slowest) for sha, f in fits.items()})
    for sha, f in fits.items():
        f.difficulty = (zb[sha] + zt[sha]) / 2 if known else zb[sha]
    return Difficulty(fits, skills, mu, separated)


# ------------------------------------------------------------------ weights


def nnls(xs: Sequence[Sequence[float]], ys: Sequence[float]) -> tuple[float, list[float]]:
    """Non-negative least squares with a free intercept: ``(a, v)`` minimising
    ``sum (y - a - v . x)^2`` with ``v >= 0`` (coordinate descent on centred data)."""
    n, k = len(xs), len(xs[0])
    mx = [sum(x[j] for x in xs) / n for j in range(k)]
    my = sum(ys) / n
    cx = [[x[j] - mx[j] for j in range(k)] for x in xs]
    cy = [y - my for y in ys]
    norms = [sum(r[j] ** 2 for r in cx) for j in range(k)]
    v = [0.0] * k
    resid = list(cy)
    for _ in range(NNLS_SWEEPS):
        for j in range(k):
            if norms[j] <= 1e-12:
                continue
            g = sum(r[j] * e for r, e in zip(cx, resid, strict=True))
            new = _q(max(0.0, v[j] + g / norms[j]))
            delta = new - v[j]
            if delta:
                for i, r in enumerate(cx):
                    resid[i] -= delta * r[j]
                v[j] = new
    a = my - sum(v[j] * mx[j] for j in range(k))
    return a, v


def _tenths(v: list[float]) -> list[float]:
    """Weights proportional to ``v`` in tenths, summing to exactly 100.0 (largest
    remainder, ties by term order)."""
    total = sum(v)
    raw = [1000.0 * x / total for x in v]
    base = [math.floor(x) for x in raw]
    order = sorted(range(len(v)), key=lambda j: (-(raw[j] - base[j]), j))
    for j in order[:1000 - sum(base)]:
        base[j] += 1
    return [b / 10 for b in base]


def _line(xs: Sequence[float], ys: Sequence[float]) -> list[float]:
    """Least-squares ``[intercept, slope]`` of ys on xs."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else 0.0
    return [my - slope * mx, slope]


def _score(weights: dict[str, float], info: LevelInfo) -> float:
    return sum(weights[t] * info.normalised[t] for t in TERMS)


@dataclass
class WeightFit:
    weights: dict[str, float]
    predict: Predict


def fit_weights(infos: list[LevelInfo], model: Difficulty) -> WeightFit:
    """The seven weights (non-negative, summing to 100) and the prediction maps, fitted on
    ``infos`` against ``model``'s difficulties."""
    xs = [[i.normalised[t] for t in TERMS] for i in infos]
    ys = [model.levels[i.sha].difficulty for i in infos]
    _a, v = nnls(xs, ys)
    if sum(v) <= 1e-9:  # no term explains the difficulty: the seed's weights, said so
        weights = {t: float(SEED_WEIGHTS[t]) for t in TERMS}
    else:
        weights = dict(zip(TERMS, _tenths(v), strict=True))
    scores = [_score(weights, i) for i in infos]
    timed = [(s, model.levels[i.sha].beta) for s, i in zip(scores, infos, strict=True)
             if model.levels[i.sha].beta is not None]
    log_seconds = _line([s for s, _ in timed], [model.mu + (b or 0.0) for _, b in timed]) \
        if len(timed) >= 2 else [model.mu, 0.0]
    skills = list(model.skills.values())
    predict: Predict = {
        "difficulty": _line(scores, ys),
        "solve_logit": _line(scores, [model.levels[i.sha].b for i in infos]),
        "log_seconds": log_seconds,
        "mean_skill": sum(skills) / len(skills) if skills else 0.0,
    }
    return WeightFit(weights, predict)


def _predicted_rate(fit: WeightFit, score: float) -> float:
    p = fit.predict
    return _sigmoid(p["mean_skill"] - (p["solve_logit"][0] + p["solve_logit"][1] * score))


def _correlations(scores: dict[str, float], infos: list[LevelInfo],
                  model: Difficulty) -> dict[str, float | None]:
    def rho(get: Callable[[LevelFit], float | None]) -> float | None:
        pairs = [(scores[i.sha], y) for i in infos
                 if (y := get(model.levels[i.sha])) is not None]
        return _r(spearman([s for s, _ in pairs], [y for _, y in pairs])) \
            if len(pairs) >= 3 else None

    out: dict[str, float | None] = {
        "difficulty": rho(lambda f: f.difficulty),
        "solved_without_hint": rho(lambda f: f.b),
        "time": rho(lambda f: f.beta),
    }
    if model.separated:
        out["thinking"] = rho(lambda f: f.think)
        out["operating"] = rho(lambda f: f.operate)
    return out


class Fold(TypedDict):
    """Weights fitted without one template's levels (cross-validation)."""

    template: str
    levels: int
    weights: dict[str, float]


class CalibrationBin(TypedDict):
    """A fifth of the held-out levels by predicted clear rate, against the observed one."""

    levels: int
    predicted_clear_rate: float
    observed_clear_rate: float


class Calibration(TypedDict):
    bins: list[CalibrationBin]
    mean_abs_error: float


class FitReport(TypedDict):
    """A weights file's ``fit``: what the calibration saw and how well the weights hold."""

    attempts: int
    unknown_level_attempts: int
    players: int
    levels: int
    sources: int
    templates: list[str]
    thinking_operating_separated: bool
    held_out: dict[str, float | None]
    in_sample: dict[str, float | None]
    seed_weights: dict[str, float | None]
    calibration: Calibration
    folds: list[Fold]


def calibrate(attempts: list[Attempt], infos: dict[str, LevelInfo], *,
              sources: int = 1) -> Weights:
    """The weights file's data of :func:`calibrate_with_report`."""
    return calibrate_with_report(attempts, infos, sources=sources)[0]


def calibrate_with_report(attempts: list[Attempt], infos: dict[str, LevelInfo], *,
                          sources: int = 1) -> tuple[Weights, FitReport]:
    """Fit difficulty and weights and cross-validate by template; the weights file's data
    and its ``fit`` report.

    :raises GridforgeError: when fewer than ``MIN_TRAIN`` known levels were played.
    """
    known = [a for a in attempts if a["level_sha256"] in infos]
    model = fit_difficulty(known)
    levels = [infos[sha] for sha in sorted(model.levels)]
    if len(levels) < MIN_TRAIN:
        raise GridforgeError(f"calibration needs attempts at {MIN_TRAIN} or more known levels, "
                             f"got {len(levels)} (attempts at unknown levels: "
                             f"{len(attempts) - len(known)})")
    fit = fit_weights(levels, model)
    templates = sorted({i.template for i in levels})
    held_out: dict[str, float] = {}
    held_rate: dict[str, float] = {}
    folds: list[Fold] = []
    for t in templates:
        train = [i for i in levels if i.template != t]
        test = [i for i in levels if i.template == t]
        if len(train) < MIN_TRAIN:
            continue
        fold = fit_weights(train, model)
        for i in test:
            held_out[i.sha] = _score(fold.weights, i)
            held_rate[i.sha] = _predicted_rate(fold, held_out[i.sha])
        folds.append({"template": t, "levels": len(test), "weights": fold.weights})
    scored = [i for i in levels if i.sha in held_out]
    seed = {i.sha: _score(SEED_WEIGHTS, i) for i in levels}
    fitted = {i.sha: _score(fit.weights, i) for i in levels}
    bins: list[CalibrationBin] = []
    ordered = sorted(scored, key=lambda i: (held_rate[i.sha], i.sha))
    for q in range(5):
        part = ordered[q * len(ordered) // 5:(q + 1) * len(ordered) // 5]
        if part:
            bins.append({"levels": len(part),
                         "predicted_clear_rate": _r(sum(held_rate[i.sha] for i in part)
                                                    / len(part), 3),
                         "observed_clear_rate": _r(sum(model.levels[i.sha].clear_rate
                                                       for i in part) / len(part), 3)})
    report: FitReport = {
        "attempts": len(known),
        "unknown_level_attempts": len(attempts) - len(known),
        "players": len(model.skills),
        "levels": len(levels),
        "sources": sources,
        "templates": templates,
        "thinking_operating_separated": model.separated,
        "held_out": _correlations(held_out, scored, model),
        "in_sample": _correlations(fitted, levels, model),
        "seed_weights": _correlations(seed, levels, model),
        "calibration": {
            "bins": bins,
            "mean_abs_error": _r(sum(abs(b["predicted_clear_rate"] - b["observed_clear_rate"])
                                     * b["levels"] for b in bins) / max(1, len(scored)), 3),
        },
        "folds": folds,
    }
    p = fit.predict
    out = {
        "format": FORMAT,
        "weights": fit.weights,
        "predict": {"difficulty": [_r(x, 6) for x in p["difficulty"]],
                    "solve_logit": [_r(x, 6) for x in p["solve_logit"]],
                    "log_seconds": [_r(x, 6) for x in p["log_seconds"]],
                    "mean_skill": _r(p["mean_skill"], 6)},
        "fit": report,
        "version": __version__,
    }
    return validate_weights(out), report


def level_table(model: Difficulty, infos: dict[str, LevelInfo],
                weights: Weights) -> list[JsonObject]:
    """Per played level: number, template, seed score, score under ``weights``, fitted
    difficulty and clear rate (for reports and the docs' band table)."""
    rows: list[JsonObject] = []
    for sha, f in sorted(model.levels.items()):
        info = infos.get(sha)
        if info is None:
            continue
        rows.append({"level": info.number, "template": info.template,
                     "seed_score": info.seed_score,
                     "score": round(_score(weights["weights"], info), 1),
                     "difficulty": _r(f.difficulty, 3), "clear_rate": _r(f.clear_rate, 3)})
    return rows


__all__ = ["Difficulty", "LevelFit", "LevelInfo", "calibrate", "fit_difficulty", "fit_weights",
           "level_table", "levels_from_batch", "nnls", "pearson", "ranks", "shipped_levels",
           "spearman"]
