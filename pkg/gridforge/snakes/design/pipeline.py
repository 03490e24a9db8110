"""The snakes level designer's pipeline (seed 004, section 4; spec sections 7 and 8).

条件检查 → 空间模板与尺寸 → 连通区域检查 → 长身体与洞口 → 空间求解 → 机制依赖 → 完整回放 →
七项评分 → 精确搜索与再次筛选 → 去重与认证

1. **Condition check** (:func:`parse_request`): every field of the request is checked at once,
   with a field path, and so is what the fields allow together (more colours than bodies, a
   step range no level can meet, a score target the fixed parameters cannot reach, a fixed
   size the template cannot fill). Nothing is generated for a bad request.
2. **Template and size** (:mod:`~gridforge.snakes.design.templates`): the area follows from the body
   cells, the holes and the occupancy a candidate aims at; fixed sizes are kept or refused.
3. **Connectivity**: the shape keeps its intended regions; each region gets its own bodies and
   its own colour supply and demand (the split template has two).
4. **Bodies and holes**: self-avoiding bodies are laid longest first; each hole avoids the cells
   next to the starting ends of the bodies of its colour and lies in their region.
5. **Spatial solve**: the solver's fast search (:meth:`Solver.fast`) finds exit orders and the
   room-making moves in between; candidates it cannot solve within budget are dropped.
6. **Mechanics**, arranged only where the found solution keeps them legal: a coat is a hole put
   on a cell next to a body's end that no body has touched before that moment, its exit
   inserted there; a frozen threshold never exceeds the layers gone before the body's (or the
   hole's) first use; a lock waits only for keys whose carriers left before it first moves.
7. **Full replay** with the real rules (:class:`~gridforge.snakes.rules.Game`).
8. **The seven-term score** (:mod:`~gridforge.snakes.design.score`), first on the shortened
   solution.
9. **Exact search** (A* under the known upper bound) shortens or proves the solution; the
   score is taken again on the final solution and the request is checked again.
10. **De-duplication and certification** (:mod:`~gridforge.snakes.certificate`).

Difficulty is steered by one number per candidate, the *pressure* (about target / 100): it sets
the body count and size, the occupancy, the mechanics and how far and how hidden the holes
lie. After every scored candidate the pressure moves toward the target by the error seen, so a
batch calibrates itself. Every choice comes from ``random.Random`` seeded by the request's seed
and the level's number, the candidates are tried in a fixed order and every search is bounded
by states, so the same request gives the same bytes; the exact search's seconds are a safety
net only (a run that hits them says so in the certificate).

From pressure 0.95 (the top of the range: a crowded start where no body can reach a hole of
its colour) candidates are built *backwards* from the solved board instead
(:mod:`~gridforge.snakes.design.backward`): steps 4 and 5 become backward play, which yields the
level and its solution together, and :func:`~gridforge.snakes.design.tighten.tighten`
shortens it further.

Fixed parameters of the request are never relaxed: a candidate that cannot honour them is
dropped and counted under its reason; if the budget runs out, the batch says which reasons
stopped it.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gridforge import __version__
from gridforge.errors import GridforgeError, Issue, ValidationError, field_path
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.certificate import CERT_FORMAT, check_certificate, judge
from gridforge.snakes.design.backward import Plan, unsolve
from gridforge.snakes.design.score import score_level
from gridforge.snakes.design.templates import (
    MIN_SIZE,
    TEMPLATES,
    TOPOLOGIES,
    Shape,
    TemplateError,
    make_shape,
    natural_area,
)
from gridforge.snakes.design.tighten import tighten
from gridforge.snakes.design.topology import FloorGraph, potential_exits
from gridforge.snakes.level import Level, level_from_json, level_sha256
from gridforge.snakes.rules import CELL_MASK, Game, Move, State, move_to_step
from gridforge.snakes.search import Solver, shorten

BATCH_FORMAT = "gridforge.snakes.batch/1"
REQUEST_FORMAT = "gridforge.snakes.request/1"

MAX_COUNT = 2000
MAX_STEPS = 600  # the designer does not promise certified solutions longer than this
MAX_CANDIDATES = 1_000_000

DEFAULT_BUDGETS: dict[str, float] = {
    "candidates": 6000,  # candidate levels tried per requested level (16000 from target 80)
    "fast_branches": 6000,  # states the fast search may store per candidate
    "path_search": 400,  # cells one body's hole search may visit when placing holes
    "exact_states": 2000,  # states the exact A* may store
    "exact_seconds": 10.0,  # wall-clock cap of one exact search (a safety net)
    # Wall-clock cap per requested level (a safety net, like exact_seconds): a request whose
    # target the template cannot reach ends with a reason instead of running for hours.
    "level_seconds": 300.0,
}
SECONDS_BUDGETS = {"exact_seconds": 3600.0, "level_seconds": 86400.0}
HIGH_TARGET = 80  # from here the default candidate budget is 16000
PROVEN_EXTRA = 40  # candidates tried after an unproven success, for a proven one


# ------------------------------------------------------------------------------------------
# The request


@dataclass(frozen=True)
class Request:
    """A checked design request. ``None`` means "chosen per candidate"; anything else is fixed."""

    target: float
    tolerance: float = 7.0
    count: int = 1
    seed: int = 0
    topology: str = "mixed"
    cols: int | None = None
    rows: int | None = None
    cells: int | None = None
    bodies: int | None = None
    min_length: int = 2
    max_length: int = 40
    total: int | None = None
    colors: int | None = None
    coats: int | None = None
    frozen: int | None = None
    frozen_holes: int | None = None
    locks: int | None = None
    gold: int | None = None
    steps_min: int | None = None
    steps_max: int | None = None
    budgets: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_BUDGETS))

    def to_json(self) -> dict[str, Any]:
        """The request in the spec file's layout (fixed fields only), key order fixed."""
        out: dict[str, Any] = {
            "format": REQUEST_FORMAT,
            "topology": self.topology,
            "target": self.target,
            "tolerance": self.tolerance,
            "count": self.count,
            "seed": self.seed,
        }
        size = {k: v for k, v in (("cols", self.cols), ("rows", self.rows),
                                  ("cells", self.cells)) if v is not None}
        out["size"] = {"auto": self.cols is None, **size}
        bodies: dict[str, Any] = {"min_length": self.min_length, "max_length": self.max_length}
        if self.bodies is not None:
            bodies["count"] = self.bodies
        if self.total is not None:
            bodies["total"] = self.total
        out["bodies"] = bodies
        for name in ("colors", "coats", "frozen", "frozen_holes", "locks", "gold"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.steps_min is not None or self.steps_max is not None:
            out["steps"] = [self.steps_min, self.steps_max]
        out["budgets"] = dict(self.budgets)
        return out


def _num(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Issues:
    def __init__(self) -> None:
        self.items: list[Issue] = []

    def add(self, path: str, code: str, message: str) -> None:
        self.items.append(Issue(path, code, message))

    def int_field(self, obj: dict[str, Any], key: str, path: str, lo: int, hi: int,
                  default: int | None = None) -> int | None:
        value = obj.get(key)
        if value is None:
            return default
        if not _int(value):
            self.add(path, "type", f"{key} must be an integer, got {value!r}")
            return default
        if not lo <= value <= hi:
            self.add(path, "range", f"{key} must be in {lo}..{hi}, got {value}")
            return default
        return value

    def obj(self, data: dict[str, Any], key: str, allowed: tuple[str, ...]) -> dict[str, Any]:
        value = data.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.add(key, "type", f"{key} must be an object")
            return {}
        for extra in sorted(k for k in value if k not in allowed):
            self.add(field_path(key, extra), "unknown_field", f"unknown field {extra!r}")
        return value


REQUEST_KEYS = ("format", "topology", "target", "tolerance", "count", "seed", "size", "bodies",
                "colors", "coats", "frozen", "frozen_holes", "locks", "gold", "steps", "budgets")


def parse_request(data: Any) -> Request:
    """Check a request (the editor's spec JSON, or the CLI's fields) and build it.

    :raises ValidationError: listing every problem with its field path, including requests
        that no level can satisfy (more colours than bodies, unreachable step ranges or
        score targets, sizes the template cannot fill).
    """
    if isinstance(data, Request):
        return data
    bad = _Issues()
    if not isinstance(data, dict):
        raise ValidationError([Issue("", "type", "a request is a JSON object")], "request")
    for extra in sorted(k for k in data if k not in REQUEST_KEYS):
        bad.add(extra, "unknown_field", f"unknown field {extra!r}")
    if data.get("format", REQUEST_FORMAT) != REQUEST_FORMAT:
        bad.add("format", "format", f"format must be {REQUEST_FORMAT!r}")
    topology = data.get("topology", "mixed")
    if topology not in TOPOLOGIES:
        bad.add("topology", "choice", f"topology must be one of {', '.join(TOPOLOGIES)}, "
                                      f"got {topology!r}")
        topology = "mixed"
    target = data.get("target")
    if not _num(target) or not 0 <= target <= 100:
        bad.add("target", "range", f"target must be a number in 0..100, got {target!r}")
        target = 50
    tolerance = data.get("tolerance", 7)
    if not _num(tolerance) or not 0 <= tolerance <= 100:
        bad.add("tolerance", "range", f"tolerance must be a number in 0..100, got {tolerance!r}")
        tolerance = 7
    count = bad.int_field(data, "count", "count", 1, MAX_COUNT, 1)
    seed = bad.int_field(data, "seed", "seed", 0, 2**63 - 1, 0)

    size = bad.obj(data, "size", ("auto", "cols", "rows", "cells"))
    cols = bad.int_field(size, "cols", "size.cols", 2, 18)
    rows = bad.int_field(size, "rows", "size.rows", 2, 24)
    cells = bad.int_field(size, "cells", "size.cells", 4, 400)
    auto = size.get("auto", cols is None and rows is None)
    if not isinstance(auto, bool):
        bad.add("size.auto", "type", "auto must be true or false")
        auto = True
    if auto:
        if cols is not None or rows is not None:
            bad.add("size", "auto", "give cols and rows only with auto: false")
        cols = rows = None
    elif cols is None or rows is None:
        bad.add("size", "fixed", "with auto: false, cols and rows are both fixed and required")
    if cols is not None and rows is not None and (cols + 2) * (rows + 2) > 600:
        bad.add("size", "too_large", f"(cols+2)*(rows+2) = {(cols + 2) * (rows + 2)} exceeds 600")

    body = bad.obj(data, "bodies", ("count", "min_length", "max_length", "total"))
    n = bad.int_field(body, "count", "bodies.count", 1, 16)
    lo = bad.int_field(body, "min_length", "bodies.min_length", 2, 40, 2)
    hi = bad.int_field(body, "max_length", "bodies.max_length", 2, 40, 40)
    total = bad.int_field(body, "total", "bodies.total", 2, 350)
    assert lo is not None and hi is not None
    if lo > hi:
        bad.add("bodies.min_length", "range", f"min_length {lo} exceeds max_length {hi}")
    if total is not None and n is not None and not n * lo <= total <= n * hi:
        bad.add("bodies.total", "range", f"a total of {total} cells cannot be split into {n} "
                                         f"bodies of {lo}..{hi} cells")
    colors = bad.int_field(data, "colors", "colors", 1, 15)
    if colors is not None and n is not None and colors > n:
        bad.add("colors", "too_many", f"{colors} outer colours need at least {colors} bodies, "
                                      f"but bodies.count is {n}")
    coats = bad.int_field(data, "coats", "coats", 0, 48)
    frozen = bad.int_field(data, "frozen", "frozen", 0, 16)
    frozen_holes = bad.int_field(data, "frozen_holes", "frozen_holes", 0, 64)
    locks = bad.int_field(data, "locks", "locks", 0, 8)
    gold = bad.int_field(data, "gold", "gold", 0, 8)
    if gold is not None and locks is not None and gold > locks:
        bad.add("gold", "range", f"gold ({gold}) counts among the locks ({locks})")
    if n is not None:
        if coats is not None and coats > 3 * n:
            bad.add("coats", "range", f"{n} bodies carry at most {3 * n} coats (3 each)")
        if frozen is not None and frozen > n - 1:
            bad.add("frozen", "range", f"at most {n - 1} of {n} bodies can be frozen: "
                                       f"someone must move first")
        n_locks = locks or 0
        keys = n_locks + (gold or 0)
        if n_locks and (n_locks > n - 1 or keys > n - 1):
            bad.add("locks", "range", f"{n_locks} lock(s) with {keys} key(s) need more than "
                                      f"the {n} bodies (a key rides on another body)")

    raw_steps = data.get("steps")
    if isinstance(raw_steps, list) and len(raw_steps) == 2:
        data = {**data, "steps": {"min": raw_steps[0], "max": raw_steps[1]}}
    steps = bad.obj(data, "steps", ("min", "max"))
    steps_min = bad.int_field(steps, "min", "steps.min", 0, 10**6)
    steps_max = bad.int_field(steps, "max", "steps.max", 0, 10**6)
    if steps_min is not None and steps_max is not None and steps_min > steps_max:
        bad.add("steps", "range", f"steps.min {steps_min} exceeds steps.max {steps_max}")
    if steps_min is not None and steps_min > MAX_STEPS:
        bad.add("steps.min", "unreachable", f"the designer certifies solutions of at most "
                                            f"{MAX_STEPS} steps, steps.min is {steps_min}")
    least_layers = (n or 1) + (coats or 0)
    if steps_max is not None and steps_max < least_layers:
        bad.add("steps.max", "unreachable", f"every one of the {least_layers} layers needs at "
                                            f"least one step; steps.max {steps_max} is too few")

    budgets = dict(DEFAULT_BUDGETS)
    if _num(target) and target >= HIGH_TARGET:
        budgets["candidates"] = 16000
    raw_budgets = bad.obj(data, "budgets", tuple(DEFAULT_BUDGETS))
    for key in DEFAULT_BUDGETS:
        value = raw_budgets.get(key)
        if value is None:
            continue
        path = field_path("budgets", key)
        if key in SECONDS_BUDGETS:
            cap = SECONDS_BUDGETS[key]
            if not _num(value) or not 0 < value <= cap:
                bad.add(path, "range", f"{key} must be a number in (0, {cap:g}], got {value!r}")
                continue
            budgets[key] = float(value)
        elif not _int(value) or not 1 <= value <= MAX_CANDIDATES:
            bad.add(path, "range", f"{key} must be an integer in 1..{MAX_CANDIDATES}, "
                                   f"got {value!r}")
        else:
            budgets[key] = value
    for key in ("candidates", "fast_branches", "path_search", "exact_states"):
        budgets[key] = int(budgets[key])
    if bad.items:
        raise ValidationError(bad.items, "request")

    request = Request(
        target=target, tolerance=tolerance, count=count or 1, seed=seed or 0, topology=topology,
        cols=cols, rows=rows, cells=cells, bodies=n, min_length=lo, max_length=hi, total=total,
        colors=colors, coats=coats, frozen=frozen, frozen_holes=frozen_holes, locks=locks,
        gold=gold, steps_min=steps_min, steps_max=steps_max, budgets=budgets,
    )
    _check_feasible(request)
    return request


def _check_feasible(req: Request) -> None:
    """Refuse requests whose fixed parameters rule out every level (with the reason)."""
    bad = _Issues()
    templates = TEMPLATES if req.topology == "mixed" else (req.topology,)
    if req.cols is not None and req.rows is not None:
        fitting = [t for t in templates if req.cols >= MIN_SIZE[t][0]
                   and req.rows >= MIN_SIZE[t][1]]
        if not fitting:
            t = templates[0]
            bad.add("size", "template", f"template {t!r} needs at least {MIN_SIZE[t][0]}x"
                                        f"{MIN_SIZE[t][1]}, the size is fixed at "
                                        f"{req.cols}x{req.rows}")
        else:
            areas = {t: natural_area(t, req.cols, req.rows) for t in fitting}
            need = req.cells or 4
            if max(areas.values()) < need:
                bad.add("size.cells", "template",
                        f"at {req.cols}x{req.rows} the template(s) {', '.join(fitting)} give at "
                        f"most {max(areas.values())} floor cells, fewer than {need}")
    least_cells = req.total if req.total is not None else (req.bodies or 1) * req.min_length
    least_holes = (req.bodies or 1) + (req.coats or 0)
    room = req.cells
    if room is None and req.cols is not None and req.rows is not None:
        room = req.cols * req.rows
    if room is not None and least_cells + least_holes + 1 > room:
        bad.add("size", "too_small", f"{least_cells} body cells and {least_holes} holes need "
                                     f"more than the {room} cells the size allows")
    if req.colors is not None and req.bodies is None and req.colors > 16:
        bad.add("colors", "too_many", "more colours than the 16 bodies a level can hold")
    low, high = _score_range(req)
    if high < req.target - req.tolerance:
        bad.add("target", "unreachable", f"with these fixed parameters the score cannot rise "
                                         f"above {high:.1f}; the target is {req.target} "
                                         f"± {req.tolerance}")
    if low > req.target + req.tolerance:
        bad.add("target", "unreachable", f"with these fixed parameters the score cannot fall "
                                         f"below {low:.1f}; the target is {req.target} "
                                         f"± {req.tolerance}")
    if bad.items:
        raise ValidationError(bad.items, "request")


def _score_range(req: Request) -> tuple[float, float]:
    """Loose lower and upper bounds of the seven-term score under the fixed parameters."""
    n_lo = req.bodies or 1
    n_hi = req.bodies or 16
    cells_lo = req.total if req.total is not None else n_lo * req.min_length
    cells_hi = req.total if req.total is not None else min(350, n_hi * req.max_length)
    area_hi = req.cells or (req.cols * req.rows if req.cols and req.rows else 400)
    occ_lo = (cells_lo + n_lo) / area_hi
    steps_hi = req.steps_max if req.steps_max is not None else MAX_STEPS
    steps_lo = max(req.steps_min or 0, n_lo + (req.coats or 0))
    mech_hi = 1.0
    if all(v is not None for v in (req.coats, req.frozen, req.frozen_holes, req.locks)):
        n = n_lo
        frozen_sum = (req.frozen or 0) + (req.frozen_holes or 0)
        frozen_sum *= (n + (req.coats or 0))  # thresholds stay below the layer count
        mech_hi = min(1.0, (req.coats or 0) / (0.7 * n) + frozen_sum / (5 * n)
                      + (2 * (req.locks or 0) + (req.gold or 0)) / (1.1 * n))
    mech_lo = 0.0
    if req.coats is not None and n_hi:
        mech_lo = min(1.0, req.coats / (0.7 * n_hi))
    low = (18 * min(1.0, max(0.0, (occ_lo - 0.25) / 0.6)) + 12 * min(1.0, cells_lo / 70)
           + 18 * min(1.0, steps_lo / 100) + 12 * mech_lo)
    high = (18 + 12 * min(1.0, cells_hi / 70) + 18 * min(1.0, steps_hi / 100)
            + 14 * (1 if n_hi > 0 else 0) + 12 * mech_hi + 8 + 18)
    return low, high


def load_spec(text: str | bytes) -> Request:
    """Parse a spec file (JSON text) into a checked :class:`Request`."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise GridforgeError(f"the spec is not valid JSON: {exc}") from None
    return parse_request(data)


# ------------------------------------------------------------------------------------------
# One candidate


HARDNESS = {  # how much each template leans toward hard levels (mixed picks by pressure)
    "courtyard": 0.0, "pillars": 0.2, "split": 0.1, "island": 0.35, "notched": 0.4,
    "stepped": 0.45, "cross": 0.6, "comb": 0.7, "twin": 0.8, "winding": 0.9,
}


@dataclass
class Recipe:
    """What one candidate aims at (drawn from the pressure and the fixed parameters)."""

    pressure: float
    template: str
    lengths: list[int]
    colors: int
    occupancy: float
    coats: int
    frozen: int
    frozen_holes: int
    locks: int
    gold: int
    exits: int  # potential exits the hole layout aims at
    reach: int  # hole candidates drawn per hole (the farthest wins)
    coats_first: bool  # coats join the spatial problem (else inserted along the solution)
    scramble: int  # most steps the start may be walked toward fewer potential exits
    hide_coats: bool  # coats of fresh colours whose holes the bodies cannot reach at first
    provable: bool = False  # leaning toward levels the exact search can settle
    backward: Plan | None = None  # built backwards from the solved board (reverse.py)


def _clamp(x: float, lo: float, hi: float) -> float:
    return min(hi, max(lo, x))


def _lengths(req: Request, n: int, total: int, rng: random.Random) -> list[int] | None:
    lo, hi = req.min_length, req.max_length
    if not n * lo <= total <= n * hi:
        return None
    lengths = [lo] * n
    spare = total - n * lo
    while spare > 0:
        choices = [i for i in range(n) if lengths[i] < hi]
        i = rng.choice(choices)
        add = min(spare, hi - lengths[i], 1 + rng.randrange(3))
        lengths[i] += add
        spare -= add
    lengths.sort(reverse=True)
    return lengths


def _recipe(req: Request, pressure: float, rng: random.Random,
            provable: bool = False) -> Recipe | None:
    """A candidate's aims. ``provable`` leans toward levels whose minimum the exact search can
    prove: few bodies, long corridors (space and steps from geometry, not crowding) and
    mechanics, which add score without widening the search much."""
    q = _clamp(pressure + rng.gauss(0, 0.07), 0.0, 1.15)
    if provable and req.topology == "mixed":
        template = rng.choice(("winding", "comb", "island", "twin", "cross"))
    elif req.topology == "mixed":
        weights = [1.0 - abs(HARDNESS[t] - min(q, 1.0)) * 1.2 for t in TEMPLATES]
        weights = [max(0.05, w) for w in weights]
        template = rng.choices(TEMPLATES, weights)[0]
    else:
        template = req.topology
    n = req.bodies
    if n is None:
        n = int(_clamp(round(1 + 7.5 * q + rng.uniform(-1.0, 1.0)), 1, 12))
        if provable:
            n = rng.randint(1, 3)
        if req.colors is not None:
            n = max(n, req.colors)
        if req.locks:
            n = max(n, req.locks + req.locks + (req.gold or 0) + 1)
    total = req.total
    if total is None:
        want = 70 * q * rng.uniform(0.85, 1.15) if q > 0.05 else 2 * n
        total = int(_clamp(round(want), n * req.min_length, n * req.max_length))
        total = min(total, 350)
    lengths = _lengths(req, n, total, rng)
    if lengths is None:
        return None
    colors = req.colors
    if colors is None:
        colors = int(_clamp(round(1 + rng.uniform(0, 1) * min(n - 1, 1 + 4 * q)), 1, n))
    mech = q * rng.uniform(0.8, 1.3) if q > 0.2 else 0.0
    share = rng.uniform(0.35, 0.7)
    if provable:
        mech = min(1.2, 2 * mech + 0.3)
    coats = req.coats if req.coats is not None else min(3 * n, round(0.7 * n * mech * share))
    frozen = req.frozen if req.frozen is not None else min(n - 1, round(n * mech * 0.3))
    frozen_holes = req.frozen_holes if req.frozen_holes is not None else round(n * mech * 0.15)
    locks = req.locks if req.locks is not None else min(max(0, (n - 1) // 2),
                                                        round(n * mech * 0.12))
    gold = req.gold if req.gold is not None else (1 if locks and rng.random() < q - 0.4 else 0)
    gold = min(gold, locks)
    occupancy = _clamp(0.25 + 0.6 * q + rng.gauss(0, 0.05), 0.12, 0.9)
    exits = int(_clamp(round(n * (1 - q) + rng.uniform(-0.5, 0.5)), 0, n))
    reach = 1 + round(4 * q)
    coats_first = rng.random() < q * 0.3
    scramble = int(150 * q) if q > 0.7 else 0
    hide_coats = q > 0.85 and req.colors is None
    if hide_coats and req.coats is None:
        coats = min(3 * n, max(coats, n))
        coats_first = False
    if provable:
        scramble, hide_coats = 0, False
    if q >= BACKWARD_PRESSURE and not provable:
        backward = _backward_recipe(req, q, rng)
        if backward is not None:
            return backward
    return Recipe(q, template, lengths, colors, occupancy, coats, frozen, frozen_holes, locks,
                  gold, exits, reach, coats_first, scramble, hide_coats, provable)


BACKWARD_PRESSURE = 0.95  # from here candidates are built backwards (reverse.py)
BACKWARD_TEMPLATES = ("twin", "comb", "winding", "cross")


def _backward_recipe(req: Request, q: float, rng: random.Random) -> Recipe | None:
    """The top of the range: a crowded board (occupancy just over 0.85), about 72 body cells,
    every body wearing one coat of a colour of its own whose hole it cannot reach at the start
    (blocking and shuffling in full), a template with narrow points (the space term), built
    backwards so that the solution comes with the level. None when fixed parameters rule it
    out (then the forward recipe is used)."""
    if req.colors is not None or req.frozen or req.frozen_holes or req.locks:
        return None
    template = req.topology if req.topology != "mixed" else rng.choice(BACKWARD_TEMPLATES)
    n = req.bodies if req.bodies is not None else rng.randint(8, 10)
    base_colors = rng.randint(2, 3)
    if n + base_colors > 15 or (req.coats is not None and req.coats != n):
        return None
    total = req.total if req.total is not None else int(_clamp(72 + rng.randint(0, 4),
                                                               n * req.min_length,
                                                               n * req.max_length))
    lo, hi = req.min_length, req.max_length
    # Lengths fall from long to short: the last bodies come back into the fullest board.
    mean = total / n
    spread = min(mean - lo, hi - mean, 4.0)
    lengths = [round(mean + spread * (1 - 2 * i / max(1, n - 1))) for i in range(n)]
    lengths = [int(_clamp(x, lo, hi)) for x in lengths]
    i = 0
    while sum(lengths) != total:
        j = i % n
        step = 1 if sum(lengths) < total else -1
        if lo <= lengths[j] + step <= hi:
            lengths[j] += step
        i += 1
    lengths.sort(reverse=True)
    palette = rng.sample(range(15), 15)
    base = [palette[rng.randrange(base_colors)] for _ in range(n)]
    for c in range(base_colors):  # every base colour in use
        base[c] = palette[c]
    rng.shuffle(base)
    coats = [[palette[base_colors + b]] for b in range(n)]
    occupancy = 0.85 + rng.uniform(0.0, 0.015)
    plan = Plan(lengths, base, coats, walk=30, seal=300)
    return Recipe(q, template, lengths, base_colors, occupancy, n, 0, 0, 0, 0, 0, 0, False, 0,
                  False, False, plan)


@dataclass
class Candidate:
    """A level that passed the pipeline, with its solution and the search's verdict."""

    level: Level
    moves: list[Move]
    score: dict[str, Any]
    optimal: bool
    lower_bound: int
    template: str
    exact: dict[str, Any]
    backward: bool = False  # built backwards (the exact search cannot settle these)


def _area(req: Request, recipe: Recipe) -> int:
    if req.cells is not None:
        return req.cells
    holes = len(recipe.lengths) + recipe.coats
    need = sum(recipe.lengths) + holes
    if recipe.backward is not None:  # at least the occupancy asked, not just about it
        return int(_clamp(math.floor(need / recipe.occupancy), need + 2, 400))
    area = math.ceil(need / recipe.occupancy)
    return int(_clamp(area, need + 2, 400))


def _neighbours(cell: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    x, y = cell
    return ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1))


def _place_bodies(shape: Shape, lengths: Sequence[int], q: float,
                  rng: random.Random) -> list[list[tuple[int, int]]] | None:
    """Self-avoiding bodies, longest first, spread over the shape's regions."""
    floor = shape.floor
    free = set(floor)
    region_of: dict[tuple[int, int], int] = {}
    regions: list[list[tuple[int, int]]] = []
    for cell in floor:  # row-major, so region numbering is deterministic
        if cell in region_of:
            continue
        k = len(regions)
        part = [cell]
        region_of[cell] = k
        i = 0
        while i < len(part):
            for nb in _neighbours(part[i]):
                if nb in free and nb not in region_of:
                    region_of[nb] = k
                    part.append(nb)
            i += 1
        regions.append(part)
    # Each region gets bodies in proportion to its size (at least one while bodies remain).
    order = list(range(len(regions)))
    assign: list[int] = []
    load = [0] * len(regions)
    for length in lengths:
        k = min(order, key=lambda r: ((load[r] + length) / len(regions[r]), r))
        assign.append(k)
        load[k] += length
    bodies: list[list[tuple[int, int]]] = []
    for length, k in zip(lengths, assign, strict=True):
        cells = [c for c in regions[k] if c in free]
        path = None
        for _ in range(12):
            start = rng.choice(cells)
            path = _grow(start, length, free, q, rng)
            if path is not None:
                break
        if path is None:
            return None
        for c in path:
            free.discard(c)
        bodies.append(path)
    return bodies


def _grow(start: tuple[int, int], length: int, free: set[tuple[int, int]], q: float,
          rng: random.Random) -> list[tuple[int, int]] | None:
    path = [start]
    taken = {start}
    while len(path) < length:
        options = [c for c in _neighbours(path[-1]) if c in free and c not in taken]
        if not options:
            path.reverse()  # try growing from the other end
            options = [c for c in _neighbours(path[-1]) if c in free and c not in taken]
            if not options:
                return None
        if rng.random() < 0.5 + 0.4 * min(q, 1.0):
            # Hug walls and other bodies (fewest free onward cells): packs bodies tightly.
            def room(c: tuple[int, int]) -> int:
                return sum(1 for d in _neighbours(c) if d in free and d not in taken)

            best = min(room(c) for c in options)
            options = [c for c in options if room(c) == best]
        nxt = rng.choice(options)
        path.append(nxt)
        taken.add(nxt)
    if rng.random() < 0.5:
        path.reverse()
    return path


def _distances(floor: set[tuple[int, int]], sources: Sequence[tuple[int, int]],
               limit: int) -> dict[tuple[int, int], int]:
    """Wall-aware BFS distances from ``sources`` over ``floor``, visiting at most ``limit``."""
    dist = {s: 0 for s in sources}
    queue = list(sources)
    i = 0
    while i < len(queue) and len(dist) < limit:
        cell = queue[i]
        i += 1
        for nb in _neighbours(cell):
            if nb in floor and nb not in dist:
                dist[nb] = dist[cell] + 1
                queue.append(nb)
    return dist


def _reach(free: set[tuple[int, int]], body: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """Cells a body's ends can reach through ``free`` cells, self-crossing allowed, plus every
    cell next to them (where a hole would give the body a potential exit)."""
    own = set(body)
    seen = {body[0], body[-1]}
    queue = [body[0], body[-1]]
    i = 0
    while i < len(queue):
        for nb in _neighbours(queue[i]):
            if nb not in seen and (nb in free or nb in own):
                seen.add(nb)
                queue.append(nb)
        i += 1
    edge = set(seen)
    for cell in seen:
        edge.update(_neighbours(cell))
    return edge


def _place_holes(shape: Shape, bodies: list[list[tuple[int, int]]], layers: list[list[int]],
                 recipe: Recipe, budget: int, rng: random.Random
                 ) -> list[tuple[tuple[int, int], int]] | None:
    """One hole per layer of every body, of the layer's colour, in the body's region, away from
    the starting ends of the bodies whose outer colour it has.

    Of ``recipe.reach`` drawn cells the farthest (around walls) from the body wins. The holes
    of all but ``recipe.exits`` bodies are *hidden*: no body whose outer colour is the hole's
    can reach a cell next to it through free cells at the start (other bodies and holes
    block), which is what the blocking term measures; later holes only hide earlier ones more.
    """
    floor = set(shape.floor)
    occupied = {c for body in bodies for c in body}
    outer = [cs[0] for cs in layers]
    near: dict[int, set[tuple[int, int]]] = {}
    for body, color in zip(bodies, outer, strict=True):
        near.setdefault(color, set()).update(_neighbours(body[0]) + _neighbours(body[-1]))
    holes: list[tuple[tuple[int, int], int]] = []
    taken: set[tuple[int, int]] = set()
    order = list(range(len(bodies)))
    rng.shuffle(order)
    hidden = set(order[: (len(bodies) - recipe.exits) // (2 if recipe.scramble else 1)])
    wanted = [(b, color) for b in sorted(order, key=lambda b: (b not in hidden, order.index(b)))
              for color in layers[b]]
    for b, color in wanted:
        body = bodies[b]
        dist = _distances(floor, [body[0], body[-1]], budget)
        options = [c for c in dist if c not in occupied and c not in taken
                   and c not in near.get(color, ())]
        if not options:
            return None
        if b in hidden:
            free = floor - occupied - taken
            seen: set[tuple[int, int]] = set()
            for other, other_color in zip(bodies, outer, strict=True):
                if other_color == color:
                    seen |= _reach(free, other)
            covert = [c for c in options if c not in seen]
            options = covert or options
        options.sort(key=lambda c: (c[1], c[0]))
        draws = [rng.choice(options) for _ in range(recipe.reach)]
        cell = max(draws, key=lambda c: (dist[c], c[1], c[0]))
        holes.append((cell, color))
        taken.add(cell)
    holes.sort(key=lambda h: (h[0][1], h[0][0]))
    return holes


def _coat_layers(outer: list[int], coats: int, rng: random.Random) -> list[list[int]]:
    """Colours of every body, outermost first: ``coats`` extra layers (at most 3 a body) on
    top of the given colours, drawn from the colours already in use."""
    layers = [[c] for c in outer]
    palette = sorted(set(outer))
    for _ in range(coats):
        room = [b for b in range(len(layers)) if len(layers[b]) < 4]
        if not room:
            break
        layers[rng.choice(room)].insert(0, rng.choice(palette))
    return layers


def _assign_colors(n: int, k: int, rng: random.Random) -> list[int]:
    palette = rng.sample(range(15), k)
    order = list(range(n))
    rng.shuffle(order)
    colors = [0] * n
    for i, b in enumerate(order):
        colors[b] = palette[i] if i < k else rng.choice(palette)
    return colors


def _level_dict(shape: Shape, bodies: list[list[tuple[int, int]]], colors: list[list[int]],
                holes: list[tuple[tuple[int, int], int]]) -> dict[str, Any]:
    return {
        "format": "gridforge.snakes.level/1",
        "cols": shape.cols,
        "rows": shape.rows,
        "stones": [list(c) for c in shape.stones],
        "bodies": [{"cells": [list(c) for c in cells], "colors": list(cs)}
                   for cells, cs in zip(bodies, colors, strict=True)],
        "holes": [{"cell": list(c), "color": color} for c, color in holes],
    }


# ------------------------------------------------------------------------------------------
# Mechanics along a found solution


def _states(game: Game, moves: Sequence[Move]) -> list[State]:
    states = [game.initial]
    for move in moves:
        states.append(game.apply(states[-1], move))
    return states


def _state_exits(game: Game, state: State, holes: list[tuple[tuple[int, int], int]],
                 graph: Any) -> int:
    bodies = [(game.body_cells(state, b), game.colors[b]) for b in range(game.n)]
    return sum(potential_exits(graph, bodies, holes))


def _scramble(data: dict[str, Any], game: Game, moves: list[Move], recipe: Recipe,
              rng: random.Random) -> tuple[dict[str, Any], list[Move]]:
    """Walk the start position along legal, non-exit steps toward fewer potential exits.

    Steps are reversible (the far end moves back into the cell just left), so the walked-to
    position is solved by the walk undone, then the found solution: the new level's start
    is that position. This is how blocked starts (no body can reach its hole yet) stay
    solvable: the solution begins by making room, as a player would.
    """
    level = game.level
    floor = [(x, y) for y in range(level.rows) for x in range(level.cols)
             if (x, y) not in set(level.stones)]
    graph = FloorGraph(level.cols, level.rows, floor)
    holes = [(h.cell, h.color) for h in level.holes]
    n = game.n
    solver = Solver(game)
    state = game.initial
    occ = game.occupancy(state)
    seen = {state}
    trail = [state]
    exits = _state_exits(game, state, holes, graph)
    for _ in range(recipe.scramble):
        if exits <= recipe.exits:
            break
        options = [(m, child, cocc) for m, child, cocc in game.successors(state, occ)
                   if child[n + 1] == state[n + 1] and child not in seen]
        if not options:
            break
        # Fewest potential exits first, then the highest lower bound (bodies pushed away from
        # their holes), so that undoing the walk is work the solution needs, not padding.
        ranked = sorted(
            ((_state_exits(game, child, holes, graph), -solver.bound(child), i)
             for i, (_, child, _) in enumerate(options)),
        )
        top = [r for r in ranked if r[:2] == ranked[0][:2]]
        pick = rng.choice(top)[2] if rng.random() < 0.9 else rng.randrange(len(options))
        _, state, occ = options[pick]
        exits = _state_exits(game, state, holes, graph)
        seen.add(state)
        trail.append(state)
    if len(trail) == 1:
        return data, moves
    # The walk undone: from each position the one step back to the previous one.
    back: list[Move] = []
    for later, earlier in zip(trail[:0:-1], trail[-2::-1], strict=True):
        for m, child, _ in game.successors(later, game.occupancy(later)):
            if child == earlier:
                back.append(m)
                break
        else:  # pragma: no cover - steps are always reversible
            raise AssertionError("a scramble step could not be undone")
    data = json.loads(json.dumps(data))
    for b in range(n):
        data["bodies"][b]["cells"] = [list(c) for c in game.body_cells(state, b)]
    return data, back + list(moves)


def _add_coats(data: dict[str, Any], game: Game, moves: list[Move], count: int,
               hide: bool, rng: random.Random) -> tuple[dict[str, Any], list[Move]] | None:
    """Put ``count`` coats on bodies: each coat's hole lies next to a body's end at a moment
    when no body has yet touched that cell; its exit step is inserted at that moment.

    With ``hide``, bodies first get one coat each of a colour of its own whose hole the body
    cannot reach at the start (a blocked start, as the blocking term counts it), where the
    solution offers such a moment; the other coats take colours already in use."""
    if count == 0:
        return data, moves
    reach: list[set[int]] = []
    if hide:
        level = game.level
        free = {game.cell(p) for p in range(game.size) if game.floor[p]}
        free -= {c for b in level.bodies for c in b.cells}
        free -= {h.cell for h in level.holes}
        reach = [{game.index(c) for c in _reach(free, list(b.cells))} for b in level.bodies]
    states = _states(game, moves)
    n = game.n
    first_touch: dict[int, int] = {}
    for t, state in enumerate(states):
        for b in range(n):
            for p in game.unpack(state[b], b):
                first_touch.setdefault(p, t)
    hole_cells = set(game.hole_cells)
    options: list[tuple[int, int, int, int, int]] = []  # (t, body, end, direction, cell)
    for t in range(len(moves)):
        state = states[t]
        occ = None
        for b in range(n):
            code = state[b]
            if not code:
                continue
            if states[t + 1][b] == 0 and moves[t] >> 3 == b:
                continue  # the body leaves with this very step: a coat must come earlier
            ends = (code & CELL_MASK, code >> game.shifts[b])
            for end, p in enumerate(ends):
                for d, cell in game.nb[p]:
                    if cell in hole_cells or first_touch.get(cell, len(states)) <= t:
                        continue
                    if occ is None:
                        occ = game.occupancy(state)
                    if occ >> cell & 1:
                        continue
                    options.append((t, b, end, d, cell))
    rng.shuffle(options)
    chosen: list[tuple[int, int, int, int, int]] = []
    used_cells: set[int] = set()
    per_body = [len(b["colors"]) for b in data["bodies"]]
    times: set[tuple[int, int]] = set()
    in_use = {c for b in data["bodies"] for c in b["colors"]} | {h["color"]
                                                                for h in data["holes"]}
    fresh = [c for c in range(15) if c not in in_use]
    own: dict[int, int] = {}  # body -> the colour of its hidden coat
    if hide:
        for t, b, _end, _d, cell in options:
            if b in own or cell in used_cells or cell in reach[b] or not fresh:
                continue
            if len(own) == count:
                break
            chosen.append((t, b, _end, _d, cell))
            used_cells.add(cell)
            times.add((t, b))
            per_body[b] += 1
            own[b] = fresh.pop(rng.randrange(len(fresh)))
    for opt in options:
        if len(chosen) >= count:
            break
        t, b, _end, _d, cell = opt
        if cell in used_cells or per_body[b] >= 4 or (t, b) in times or b in own:
            continue
        chosen.append(opt)
        used_cells.add(cell)
        times.add((t, b))
        per_body[b] += 1
        if len(chosen) == count:
            break
    if len(chosen) < count:
        return None
    palette = sorted({b["colors"][0] for b in data["bodies"]})
    chosen.sort()
    data = json.loads(json.dumps(data))
    coats: dict[int, list[int]] = {}
    inserted: dict[int, list[Move]] = {}
    for t, b, end, d, cell in chosen:
        color = own[b] if b in own else rng.choice(palette)
        coats.setdefault(b, []).append(color)
        data["holes"].append({"cell": list(game.cell(cell)), "color": color})
        inserted.setdefault(t, []).append(b << 3 | end << 2 | d)
    for b, layers in coats.items():
        data["bodies"][b]["colors"] = layers + data["bodies"][b]["colors"]
    new_moves: list[Move] = []
    for t, move in enumerate(moves):
        new_moves.extend(inserted.get(t, ()))
        new_moves.append(move)
    return data, new_moves


def _add_dependencies(data: dict[str, Any], game: Game, moves: list[Move], recipe: Recipe,
                      rng: random.Random) -> dict[str, Any] | None:
    """Frozen bodies and holes, keys and locks that the solution ``moves`` already obeys."""
    if not (recipe.frozen or recipe.frozen_holes or recipe.locks):
        return data
    states = _states(game, moves)
    n = game.n
    first_move = [len(moves)] * n
    gone = [len(moves)] * n
    for t, move in enumerate(moves):
        b = move >> 3
        first_move[b] = min(first_move[b], t)
        if states[t + 1][b] == 0 and states[t][b] != 0:
            gone[b] = t
    exited = [s[n + 1].bit_count() for s in states]
    data = json.loads(json.dumps(data))
    # Frozen bodies: the threshold is at most the layers gone before the body's first step.
    movable = sorted((b for b in range(n) if exited[first_move[b]] >= 1),
                     key=lambda b: (-exited[first_move[b]], b))
    if len(movable) < recipe.frozen:
        return None
    for b in movable[: recipe.frozen]:
        most = exited[first_move[b]]
        data["bodies"][b]["frozen"] = rng.randint((most + 1) // 2, most)
    # Frozen holes: at most the layers gone before the hole is used.
    use_time: dict[int, int] = {}
    for t in range(len(moves)):
        diff = states[t + 1][n + 1] & ~states[t][n + 1]
        if diff:
            use_time[diff.bit_length() - 1] = t
    late = sorted((h for h, t in use_time.items() if exited[t] >= 1),
                  key=lambda h: (-exited[use_time[h]], h))
    if len(late) < recipe.frozen_holes:
        return None
    for h in late[: recipe.frozen_holes]:
        most = exited[use_time[h]]
        data["holes"][h]["frozen"] = rng.randint((most + 1) // 2, most)
    # Locks: the carriers of a lock's keys leave before the locked body first moves.
    carriers_free = list(range(n))
    order = sorted(range(n), key=lambda b: (-first_move[b], b))
    made = 0
    gold_left = recipe.gold
    for b in order:
        if made == recipe.locks:
            break
        need = 2 if gold_left else 1
        ready = [c for c in carriers_free if c != b and gone[c] < first_move[b]]
        if len(ready) < need:
            continue
        keys = rng.sample(ready, need)
        lock_id = f"L{made + 1}"
        data["bodies"][b]["lock"] = {"id": lock_id, "kind": "gold" if need == 2 else "silver"}
        for c in keys:
            data["bodies"][c]["key"] = lock_id
            carriers_free.remove(c)
        if need == 2:
            gold_left -= 1
        made += 1
    if made < recipe.locks:
        return None
    return data


# ------------------------------------------------------------------------------------------
# The pipeline


@dataclass
class _Tally:
    reasons: dict[str, int] = field(default_factory=dict)
    scored: int = 0
    lowest: float | None = None
    highest: float | None = None

    def reject(self, reason: str) -> None:
        self.reasons[reason] = self.reasons.get(reason, 0) + 1

    def seen(self, score: float) -> None:
        self.scored += 1
        self.lowest = score if self.lowest is None else min(self.lowest, score)
        self.highest = score if self.highest is None else max(self.highest, score)


def _in_steps(req: Request, steps: int) -> bool:
    return (req.steps_min is None or steps >= req.steps_min) and (
        req.steps_max is None or steps <= req.steps_max)


def _candidate(req: Request, recipe: Recipe, rng: random.Random, tally: _Tally
               ) -> tuple[Candidate | None, float | None]:
    """Run one candidate through the pipeline; returns it (or None) and its score if scored."""
    budgets = req.budgets
    try:
        shape = make_shape(recipe.template, _area(req, recipe), rng, cols=req.cols, rows=req.rows)
    except TemplateError:
        tally.reject("template")
        return None, None
    if recipe.backward is not None:
        built = _backward(shape, recipe.backward, rng, tally)
        if built is None:
            return None, None
        data, moves = built
        return _finish(req, recipe, data, moves, rng, tally)
    bodies = _place_bodies(shape, recipe.lengths, recipe.pressure, rng)
    if bodies is None:
        tally.reject("placement")
        return None, None
    outer = _assign_colors(len(bodies), recipe.colors, rng)
    # Coats either join the spatial problem now (their holes can then be hidden too) or are
    # inserted later along the found solution.
    early = recipe.coats if recipe.coats_first else 0
    layers = _coat_layers(outer, early, rng)
    graph = FloorGraph(shape.cols, shape.rows, shape.floor)
    best: tuple[int, list[tuple[tuple[int, int], int]]] | None = None
    for _ in range(3):
        holes = _place_holes(shape, bodies, layers, recipe, int(budgets["path_search"]), rng)
        if holes is None:
            continue
        exits = sum(potential_exits(graph, list(zip(bodies, layers, strict=True)), holes))
        miss = abs(exits - recipe.exits)
        if best is None or miss < best[0]:
            best = (miss, holes)
        if miss == 0:
            break
    if best is None:
        tally.reject("holes")
        return None, None
    data = _level_dict(shape, bodies, layers, best[1])
    try:
        level = level_from_json(data)
    except ValidationError:
        tally.reject("invalid")
        return None, None
    game = Game(level)
    solver = Solver(game)
    if solver.dead_reason():
        tally.reject("dead")
        return None, None
    fast = solver.fast(max_states=int(budgets["fast_branches"]),
                       max_seconds=float(budgets["exact_seconds"]))
    if fast.moves is None:
        tally.reject("unsolved")
        return None, None
    moves = fast.moves
    if recipe.scramble:
        data, moves = _scramble(data, game, moves, recipe, rng)
        game = Game(level_from_json(data))
    # Mechanics along the found solution, then the full replay with the real rules.
    coated = _add_coats(data, game, moves, recipe.coats - early, recipe.hide_coats, rng)
    if coated is None:
        tally.reject("mechanics")
        return None, None
    data, moves = coated
    return _finish(req, recipe, data, moves, rng, tally)


def _backward(shape: Shape, plan: Plan, rng: random.Random, tally: _Tally
              ) -> tuple[dict[str, Any], list[Move]] | None:
    """A level built backwards from the solved board, and its solution (see reverse.py);
    None (counted) when the bodies found no room or a body can still reach its hole."""
    built = unsolve(shape.floor, plan, rng)
    if isinstance(built, str):
        tally.reject(built)
        return None
    board, exits = built
    if exits:
        tally.reject("unblocked")
        return None
    return board.level(shape.cols, shape.rows, shape.stones), board.forward()


def _finish(req: Request, recipe: Recipe, data: dict[str, Any], moves: list[Move],
            rng: random.Random, tally: _Tally) -> tuple[Candidate | None, float | None]:
    """Mechanics, full replay, score, exact search and the request's ranges, for a level and
    a solution found for it."""
    budgets = req.budgets
    level = level_from_json(data)
    game = Game(level)
    dependent = _add_dependencies(data, game, moves, recipe, rng)
    if dependent is None:
        tally.reject("mechanics")
        return None, None
    level = level_from_json(dependent)
    game = Game(level)
    moves = shorten(game, moves)  # replays every step with the real rules on the way
    if recipe.backward is not None:
        # Backward play leaves long solutions that the exact search cannot shorten within
        # its budget: bounded local searches splice out what they can (never padding).
        moves = tighten(game, moves)
    steps = [move_to_step(m) for m in moves]
    score = score_level(level, steps, diagnostics=False, game=game)["total"]
    # Exact search can only shorten: a candidate already below the range stays below it.
    if score < req.target - req.tolerance:
        tally.seen(score)
        tally.reject("score_low")
        return None, score
    solver = Solver(game)
    h0 = solver.bound(game.initial)
    optimal = len(moves) <= h0
    lower = min(h0, len(moves))
    exact_info: dict[str, Any] = {"status": "bound" if optimal else "skipped"}
    if not optimal:
        exact = solver.astar(max_states=int(budgets["exact_states"]),
                             max_seconds=float(budgets["exact_seconds"]), upper=len(moves))
        exact_info = {"status": exact.status, "expanded": exact.expanded, "stored": exact.stored,
                      "stopped_by": exact.reason}
        if exact.status == "solved" and exact.moves is not None:
            moves = exact.moves
            optimal = True
            lower = len(moves)
        elif exact.status == "exhausted_below_upper":
            optimal = True
            lower = len(moves)
        else:
            lower = max(h0, min(exact.lower_bound, len(moves)))
        steps = [move_to_step(m) for m in moves]
    final = score_level(level, steps, diagnostics=False, game=game)
    total = final["total"]
    tally.seen(total)
    if total < req.target - req.tolerance:
        tally.reject("score_low")
        return None, total
    if total > req.target + req.tolerance:
        tally.reject("score_high")
        return None, total
    if not _in_steps(req, len(moves)):
        tally.reject("steps")
        return None, total
    return Candidate(level, moves, final, optimal, lower, recipe.template, exact_info,
                     recipe.backward is not None), total


def _certificate(req: Request, cand: Candidate) -> dict[str, Any]:
    """The certificate of an accepted level, in :mod:`~gridforge.snakes.certificate`'s format,
    checked by that module (hash, replay to completion, bounds) and judged against the
    request by its :func:`~gridforge.snakes.certificate.judge`."""
    steps = [move_to_step(m) for m in cand.moves]
    score = score_level(cand.level, steps, diagnostics=True)
    request = req.to_json()
    misses = judge(request, score["total"], len(steps))
    cert = {
        "format": CERT_FORMAT,
        "level_sha256": level_sha256(cand.level),
        "status": "out_of_range" if misses else "verified",
        "reason": "; ".join(misses) if misses else ("" if cand.optimal else "minimum unproven"),
        "solution": steps,
        "steps": len(steps),
        "optimal": cand.optimal,
        "minimum": len(steps) if cand.optimal else None,
        "lower_bound": len(steps) if cand.optimal else cand.lower_bound,
        "upper_bound": len(steps),
        "score": score,
        "request": request,
        "budgets": {"exact_states": int(req.budgets["exact_states"]),
                    "exact_seconds": float(req.budgets["exact_seconds"]),
                    "fast_states": int(req.budgets["fast_branches"]),
                    "candidates": int(req.budgets["candidates"]),
                    "path_search": int(req.budgets["path_search"]),
                    "level_seconds": float(req.budgets["level_seconds"])},
        "search": cand.exact,
        "version": __version__,
    }
    problems = check_certificate(cand.level, cert)
    if problems or misses:  # pragma: no cover - the pipeline checked all of this already
        raise GridforgeError("internal error: certificate check failed: "
                             + "; ".join(problems + misses))
    return cert


def design_levels(request: Any, progress: Progress = NO_PROGRESS) -> dict[str, Any]:
    """Design ``count`` certified levels for a request (see :func:`parse_request`).

    Returns the batch ``{"format": "gridforge.snakes.batch/1", "request", "levels",
    "certificates", "report"}``; ``report`` says how many candidates each level took and why
    the others were dropped. Fewer levels than asked means the candidate budget ran out; the
    report's ``shortfall`` says so with the reasons.

    :raises ValidationError: for a bad or impossible request (nothing is generated).
    :raises Cancelled: when the progress sink asks to stop.
    """
    req = parse_request(request)
    budget = int(req.budgets["candidates"])
    total_work = req.count * budget
    levels: list[dict[str, Any]] = []
    certificates: list[dict[str, Any]] = []
    per_level: list[dict[str, Any]] = []
    seen: set[str] = set()
    pressure = _clamp(req.target / 100, 0.0, 1.1)
    tally = _Tally()
    shortfall: dict[str, Any] | None = None
    for k in range(req.count):
        rng = random.Random(req.seed * 1_000_003 + k)
        made: Candidate | None = None
        tried = 0
        stop = budget
        deadline = time.monotonic() + float(req.budgets["level_seconds"])
        stopped_by = "candidates"
        progress.step(k * budget, total_work, f"level {k + 1}/{req.count}")
        while tried < stop:
            if made is None and time.monotonic() > deadline:
                stopped_by = "level_seconds"
                break
            tried += 1
            if tried % 8 == 0:
                progress.step(k * budget + tried, total_work, f"level {k + 1}/{req.count}")
            recipe = _recipe(req, pressure, rng, provable=made is not None and tried % 2 == 0)
            if recipe is None:
                tally.reject("recipe")
                continue
            cand, score = _candidate(req, recipe, rng, tally)
            if score is not None and not recipe.provable:
                # Steer the pressure toward the target by the error seen.
                pressure = _clamp(pressure + 0.25 * (req.target - score) / 100, 0.0, 1.15)
            if cand is None:
                continue
            sha = level_sha256(cand.level)
            if sha in seen:
                tally.reject("duplicate")
                continue
            seen.add(sha)
            if cand.optimal or cand.backward:
                # A crowded backward-built level is beyond a proof within the exact budget:
                # looking on for a proven one would only spend candidates.
                made = cand
                break
            # In range but the minimum is unproven: keep it, and look a little longer for
            # one whose minimum the exact search can prove.
            if made is None:
                made = cand
                stop = min(budget, tried + PROVEN_EXTRA)
        if made is None:
            shortfall = {"level": k, "candidates": tried, "stopped_by": stopped_by,
                         "reasons": dict(sorted(
                tally.reasons.items())), "lowest_score": tally.lowest,
                "highest_score": tally.highest}
            break
        meta = {"id": f"design-{req.seed}-{k + 1:04d}", "template": made.template,
                "target": req.target, "seed": req.seed, "candidate": tried}
        level_json = made.level.to_json(with_meta=False)
        level_json["meta"] = meta
        levels.append(level_json)
        certificates.append(_certificate(req, made))
        per_level.append({"candidates": tried, "score": made.score["total"],
                          "steps": len(made.moves), "optimal": made.optimal,
                          "lower_bound": made.lower_bound, "template": made.template})
    progress.step(total_work, total_work, "done")
    report: dict[str, Any] = {
        "made": len(levels), "asked": req.count, "levels": per_level,
        "rejected": dict(sorted(tally.reasons.items())), "scored": tally.scored,
    }
    if shortfall is not None:
        report["shortfall"] = shortfall
    return {"format": BATCH_FORMAT, "request": req.to_json(), "levels": levels,
            "certificates": certificates, "report": report}


def command(args: Any, progress: Progress) -> int:
    """``gridforge design-levels --target/--count/--seed`` or ``--spec``: design a batch, write
    it to ``--out`` and print one line per level. Exit code 1 when fewer levels than asked
    were made (the batch is still written, its report says why)."""
    from gridforge.snakes.commands import read_json, write_json

    if getattr(args, "spec", None):
        data = read_json(args.spec)
    else:
        data = {"target": args.target, "count": args.count, "seed": args.seed}
    started = time.monotonic()
    batch = design_levels(data, progress)
    write_json(args.out, batch)
    for level, cert in zip(batch["levels"], batch["certificates"], strict=True):
        bound = ("minimum proven" if cert["optimal"]
                 else f"lower bound {cert['lower_bound']}, minimum unproven")
        print(f"{level['meta']['id']}: score {cert['score']['total']}, "
              f"{level['meta']['template']}, {cert['steps']} steps ({bound})")
    report = batch["report"]
    print(f"{report['made']}/{report['asked']} levels in {time.monotonic() - started:.1f} s "
          f"-> {args.out}")
    if "shortfall" in report:
        short = report["shortfall"]
        why = ("its time budget (budgets.level_seconds) ran out"
               if short["stopped_by"] == "level_seconds" else
               "its candidate budget (budgets.candidates) ran out")
        print(f"stopped at level {short['level'] + 1}: {why} after {short['candidates']} "
              f"candidates; scores seen {short['lowest_score']}..{short['highest_score']}; "
              f"rejected: {short['reasons']}", file=sys.stderr)
        return 1
    return 0
