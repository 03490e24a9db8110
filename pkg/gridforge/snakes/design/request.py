"""The designer's request: its format, its checks and what it may ask for (seed 004, section 4,
step 1 "条件检查"; spec sections 7 and 8).

Every field of a request is checked at once, with a field path, and so is what the fields
allow together (more colours than bodies, a step range no level can meet, a score target the
fixed parameters cannot reach, computed from the score's own weights, a fixed size the template
cannot fill). Nothing is generated for a bad request. An ``interlock`` field asks for levels
on one board whose bodies need each other instead; what the rest of such a request may ask
is checked by :mod:`~gridforge.snakes.design.interlock_spec`.

The format names of the designer's files and the default tolerance are defined once: here, or
in :mod:`gridforge.snakes.solver.certificate` for the two formats the game itself reads
(batches and certificates).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import TypeGuard

from gridforge.errors import (
    Field,
    Issues,
    Schema,
    ValidationError,
    field_path,
    is_int,
    parse_json,
    read_json,
)
from gridforge.jsontypes import Json, JsonObject
from gridforge.snakes.design.interlock_spec import (
    ANY_SCORE,
    INTERLOCK_BUDGETS,
    Asked,
    Interlock,
    check_interlock,
    parse_interlock,
)
from gridforge.snakes.design.score import (
    WEIGHTS,
    body_scale_term,
    mechanics_term,
    occupancy_term,
    steps_term,
)
from gridforge.snakes.design.templates import MIN_SIZE, TEMPLATES, TOPOLOGIES, natural_area
from gridforge.snakes.game.certfile import BATCH_FORMAT
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.solver.certificate import DEFAULT_TOLERANCE

__all__ = [
    "BATCH_FORMAT",
    "DEFAULT_BUDGETS",
    "DEFAULT_TOLERANCE",
    "MAINLINE_FORMAT",
    "REQUEST_FORMAT",
    "Request",
    "check_batch",
    "check_batch_request",
    "load_spec",
    "parse_request",
    "read_spec",
]

ALL_COLORS = tuple(range(15))  # the colours a level may use (spec section 2)
MAX_SPEC_BYTES = 64 * 1024  # a spec is a few hundred bytes; this is generous
REQUEST_FORMAT = "gridforge.snakes.request/1"
MAINLINE_FORMAT = "gridforge.snakes.mainline/1"

MAX_COUNT = 2000
MAX_STEPS = 600  # the designer does not promise certified solutions longer than this
MAX_CANDIDATES = 1_000_000

DEFAULT_BUDGETS: dict[str, float] = {
    "candidates": 6000,  # candidate levels tried per requested level (16000 from target 80)
    "fast_branches": 6000,  # states the fast search may store per candidate
    "path_search": 400,  # cells one body's hole search may visit when placing holes
    "exact_states": 2000,  # states the exact A* may store
    # States the largest shortening restart may store (improve.RESTARTS at 60000); the other
    # restarts scale with it.
    "shorten_states": 60000,
    # Wall-clock cap of one search (a safety net that never decides a byte): far above what
    # the state budgets take even on a loaded machine (a 60000-state restart: ~1-4 s).
    "exact_seconds": 120.0,
    # Wall-clock cap per requested level (a safety net, like exact_seconds): a request whose
    # target the template cannot reach ends with a reason instead of running for hours.
    "level_seconds": 300.0,
}
SECONDS_BUDGETS = {"exact_seconds": 3600.0, "level_seconds": 86400.0}
HIGH_TARGET = 80  # from here the default candidate budget is 16000


@dataclass(frozen=True)
class Request:
    """A checked design request. ``None`` means "chosen per candidate"; anything else is fixed."""

    target: float
    tolerance: float = float(DEFAULT_TOLERANCE)
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
    paths: int | str | None = None  # painted cells (spec section 3b): a count, or "auto"
    bridges: int | str | None = None  # bridges: a count, or "auto"
    steps_min: int | None = None
    steps_max: int | None = None
    palette: tuple[int, ...] = ALL_COLORS
    budgets: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_BUDGETS))
    # What makes a level a puzzle (spec section 5b), each a filter on candidates when true:
    make_way: bool = False  # never solved one body at a time (decided exactly)
    binding: bool = False  # every frozen body, frozen hole and lock has a witness
    proven: bool = False  # the minimum is proven
    portrait: bool = False  # a level wider than tall is stored transposed (taller than wide)
    interaction_min: int | None = None  # fewest interaction steps (beyond the travel bound)
    # Levels on one board whose bodies need each other (interlock_spec.py); None: the
    # candidate pipeline's levels.
    interlock: Interlock | None = None

    def terrain(self) -> tuple[int, int]:
        """How many painted cells and bridges a level gets. ``"auto"`` follows the target:
        paths 1 + target // 50 (1..3), bridges 1 + target // 70 (1..2)."""
        paths = 1 + int(self.target) // 50 if self.paths == "auto" else self.paths
        bridges = 1 + int(self.target) // 70 if self.bridges == "auto" else self.bridges
        return (paths if isinstance(paths, int) else 0,
                bridges if isinstance(bridges, int) else 0)

    def to_json(self) -> JsonObject:
        """The request in the spec file's layout (fixed fields only), key order fixed."""
        out: JsonObject = {
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
        bodies: JsonObject = {"min_length": self.min_length, "max_length": self.max_length}
        if self.bodies is not None:
            bodies["count"] = self.bodies
        if self.total is not None:
            bodies["total"] = self.total
        out["bodies"] = bodies
        for name in ("colors", "coats", "frozen", "frozen_holes", "locks", "gold", "paths",
                     "bridges"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.steps_min is not None or self.steps_max is not None:
            out["steps"] = [self.steps_min, self.steps_max]
        if self.palette != ALL_COLORS:  # written only when narrowed: older batches keep bytes
            out["palette"] = list(self.palette)
        for name in PUZZLE_FIELDS:
            if getattr(self, name):  # written only when asked, like the palette
                out[name] = True
        if self.interaction_min is not None:
            out["interaction"] = {"min": self.interaction_min}
        if self.interlock is not None:
            out["interlock"] = self.interlock.to_json()
        out["budgets"] = dict(self.budgets)
        return out


def _num(value: object) -> TypeGuard[int | float]:
    """A finite JSON number (not a bool)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _int_field(bad: Issues, obj: JsonObject, key: str, path: str, lo: int, hi: int,
               default: int | None = None) -> int | None:
    """``obj[key]`` when it is an integer in ``lo..hi``; ``default`` when absent or bad (an
    issue then says why: ``type`` or ``range``)."""
    value = obj.get(key)
    if value is None:
        return default
    if is_int(value) and lo <= value <= hi:
        return value
    code, wanted = ("range", f"in {lo}..{hi}") if is_int(value) else ("type", "an integer")
    bad.add(path, code, f"{key} must be {wanted}, got {value!r}")
    return default


def _object_field(bad: Issues, data: JsonObject, key: str, allowed: tuple[str, ...]
                  ) -> JsonObject:
    """``data[key]`` when it is an object (its unknown keys are issues); ``{}`` when absent
    or not an object (an issue then)."""
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        bad.add(key, "type", f"{key} must be an object")
        return {}
    bad.unknown_keys(value, allowed, key)
    return value


REQUEST_KEYS = ("format", "topology", "target", "tolerance", "count", "seed", "size", "bodies",
                "colors", "coats", "frozen", "frozen_holes", "locks", "gold", "paths", "bridges",
                "steps", "palette", "budgets", "make_way", "binding", "proven", "portrait",
                "interaction", "interlock")
MAX_TERRAIN = 8  # painted cells or bridges a request may ask for


def _terrain_field(bad: Issues, data: JsonObject, key: str) -> int | str | None:
    """``paths`` or ``bridges``: a count in 0..MAX_TERRAIN, or ``"auto"`` (by the target)."""
    value = data.get(key)
    if value is None or value == "auto":
        return value
    if not is_int(value):
        bad.add(key, "type", f'{key} must be a count 0..{MAX_TERRAIN} or "auto", got {value!r}')
        return None
    return _int_field(bad, data, key, key, 0, MAX_TERRAIN)
PUZZLE_FIELDS = ("make_way", "binding", "proven", "portrait")


def _parse_size(bad: Issues, data: JsonObject) -> tuple[int | None, int | None, int | None]:
    """A request's ``size``: fixed columns and rows (None: the designer picks), floor cells."""
    size = _object_field(bad, data, "size", ("auto", "cols", "rows", "cells"))
    cols = _int_field(bad, size, "cols", "size.cols", 2, 18)
    rows = _int_field(bad, size, "rows", "size.rows", 2, 24)
    cells = _int_field(bad, size, "cells", "size.cells", 4, 400)
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
    return cols, rows, cells


def _parse_bodies(bad: Issues, data: JsonObject
                  ) -> tuple[int | None, int, int, int | None]:
    """A request's ``bodies``: count, shortest and longest length, total cells."""
    body = _object_field(bad, data, "bodies", ("count", "min_length", "max_length", "total"))
    n = _int_field(bad, body, "count", "bodies.count", 1, 16)
    lo = _int_field(bad, body, "min_length", "bodies.min_length", 2, 40, 2)
    hi = _int_field(bad, body, "max_length", "bodies.max_length", 2, 40, 40)
    total = _int_field(bad, body, "total", "bodies.total", 2, 350)
    assert lo is not None and hi is not None
    if lo > hi:
        bad.add("bodies.min_length", "range", f"min_length {lo} exceeds max_length {hi}")
    if total is not None and n is not None and not n * lo <= total <= n * hi:
        bad.add("bodies.total", "range", f"a total of {total} cells cannot be split into {n} "
                                         f"bodies of {lo}..{hi} cells")
    return n, lo, hi, total


def _parse_colours(bad: Issues, data: JsonObject, n: int | None
                   ) -> tuple[tuple[int, ...], int | None]:
    """A request's ``palette`` and its count of outer ``colors`` (with ``n`` bodies)."""
    palette = ALL_COLORS
    raw_palette = data.get("palette")
    if raw_palette is not None:
        if (not isinstance(raw_palette, list) or not raw_palette
                or not all(is_int(c) and 0 <= c <= 14 for c in raw_palette)
                or len(set(raw_palette)) != len(raw_palette)):
            bad.add("palette", "type", "palette must be a list of distinct colours 0..14")
        else:
            palette = tuple(c for c in raw_palette if is_int(c))
    colors = _int_field(bad, data, "colors", "colors", 1, 15)
    if colors is not None and colors > len(palette):
        bad.add("colors", "too_many", f"{colors} colours, but the palette holds {len(palette)}")
    if colors is not None and n is not None and colors > n:
        bad.add("colors", "too_many", f"{colors} outer colours need at least {colors} bodies, "
                                      f"but bodies.count is {n}")
    return palette, colors


def _parse_mechanics(bad: Issues, data: JsonObject, n: int | None
                     ) -> tuple[int | None, int | None, int | None, int | None, int | None]:
    """A request's coats, frozen bodies, frozen holes, locks and gold locks (with ``n``
    bodies)."""
    coats = _int_field(bad, data, "coats", "coats", 0, 48)
    frozen = _int_field(bad, data, "frozen", "frozen", 0, 16)
    frozen_holes = _int_field(bad, data, "frozen_holes", "frozen_holes", 0, 64)
    locks = _int_field(bad, data, "locks", "locks", 0, 8)
    gold = _int_field(bad, data, "gold", "gold", 0, 8)
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
    return coats, frozen, frozen_holes, locks, gold


def _parse_steps(bad: Issues, data: JsonObject, least_layers: int
                 ) -> tuple[int | None, int | None]:
    """A request's ``steps`` range (an object, or a ``[min, max]`` pair), with at least one
    step for each of the ``least_layers`` layers."""
    raw_steps = data.get("steps")
    if isinstance(raw_steps, list) and len(raw_steps) == 2:
        data = {**data, "steps": {"min": raw_steps[0], "max": raw_steps[1]}}
    steps = _object_field(bad, data, "steps", ("min", "max"))
    steps_min = _int_field(bad, steps, "min", "steps.min", 0, 10**6)
    steps_max = _int_field(bad, steps, "max", "steps.max", 0, 10**6)
    if steps_min is not None and steps_max is not None and steps_min > steps_max:
        bad.add("steps", "range", f"steps.min {steps_min} exceeds steps.max {steps_max}")
    if steps_min is not None and steps_min > MAX_STEPS:
        bad.add("steps.min", "unreachable", f"the designer certifies solutions of at most "
                                            f"{MAX_STEPS} steps, steps.min is {steps_min}")
    if steps_max is not None and steps_max < least_layers:
        bad.add("steps.max", "unreachable", f"every one of the {least_layers} layers needs at "
                                            f"least one step; steps.max {steps_max} is too few")
    return steps_min, steps_max


def _parse_budgets(bad: Issues, data: JsonObject, target: float) -> dict[str, float]:
    """A request's ``budgets``, the defaults filled in (more candidates for a high target)."""
    budgets = dict(DEFAULT_BUDGETS)
    if target >= HIGH_TARGET:
        budgets["candidates"] = 16000
    raw_budgets = _object_field(bad, data, "budgets", tuple(DEFAULT_BUDGETS))
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
        elif not is_int(value) or not 1 <= value <= MAX_CANDIDATES:
            bad.add(path, "range", f"{key} must be an integer in 1..{MAX_CANDIDATES}, "
                                   f"got {value!r}")
        else:
            budgets[key] = value
    for key in ("candidates", "fast_branches", "path_search", "exact_states", "shorten_states"):
        budgets[key] = int(budgets[key])
    return budgets


def _percent(value: object) -> bool:
    return _num(value) and 0 <= value <= 100


# A request's fields, declared once: the first few are read here, the rest by the readers
# above (their bounds depend on one another).
_REQUEST = Schema((
    Field("format", message=f"format must be {REQUEST_FORMAT!r}", code="format",
          choices=(REQUEST_FORMAT,), default=REQUEST_FORMAT),
    Field("topology", message=f"topology must be one of {', '.join(TOPOLOGIES)}, got {{value!r}}",
          code="choice", choices=tuple(TOPOLOGIES), default="mixed", fallback="mixed"),
    Field("target", message="target must be a number in 0..100, got {value!r}", test=_percent,
          fallback=50),
    Field("tolerance", message="tolerance must be a number in 0..100, got {value!r}",
          test=_percent, default=DEFAULT_TOLERANCE, fallback=DEFAULT_TOLERANCE),
    *(Field(name) for name in REQUEST_KEYS
      if name not in ("format", "topology", "target", "tolerance")),
), not_object="a request is a JSON object", unknown_sorted=True)


def parse_request(data: Json) -> Request:
    """Check a request (the editor's spec JSON, or the CLI's fields) and build it.

    :raises ValidationError: listing every problem with its field path, including requests
        that no level can satisfy (more colours than bodies, unreachable step ranges or
        score targets, sizes the template cannot fill).
    """
    if isinstance(data, Request):
        return data
    bad = Issues()
    _REQUEST.root(data, "request")
    assert isinstance(data, dict)  # root refused anything else
    interlock = parse_interlock(bad, data)
    if interlock is not None:
        data = _any_score(bad, data)
    fields = _REQUEST.read(data, bad)
    fields.check("format", "topology", "target", "tolerance")
    topology = fields.text("topology")
    target, tolerance = fields.number("target"), fields.number("tolerance")
    count = _int_field(bad, data, "count", "count", 1, MAX_COUNT, 1)
    seed = _int_field(bad, data, "seed", "seed", 0, 2**63 - 1, 0)

    cols, rows, cells = _parse_size(bad, data)

    n, lo, hi, total = _parse_bodies(bad, data)
    asked_bodies = n
    if interlock is not None:
        n = interlock.bodies
    palette, colors = _parse_colours(bad, data, n)
    coats, frozen, frozen_holes, locks, gold = _parse_mechanics(bad, data, n)
    paths, bridges = _terrain_field(bad, data, "paths"), _terrain_field(bad, data, "bridges")

    steps_min, steps_max = _parse_steps(bad, data, (n or 1) + (coats or 0))

    puzzle: dict[str, bool] = {}
    for name in PUZZLE_FIELDS:
        value = data.get(name, False)
        if not isinstance(value, bool):
            bad.add(name, "type", f"{name} must be true or false, got {value!r}")
            value = False
        puzzle[name] = value
    interaction = _object_field(bad, data, "interaction", ("min",))
    interaction_min = _int_field(bad, interaction, "min", "interaction.min", 0, 10**6)
    if interaction_min is not None and interaction_min > MAX_STEPS:
        bad.add("interaction.min", "unreachable", f"the designer certifies solutions of at "
                                                  f"most {MAX_STEPS} steps, interaction.min is "
                                                  f"{interaction_min}")

    budgets = _parse_budgets(bad, data, target)
    if interlock is not None:
        raw_budgets = data.get("budgets")
        given = {k: v for k, v in raw_budgets.items() if k in DEFAULT_BUDGETS} if isinstance(
            raw_budgets, dict) else {}
        check_interlock(bad, interlock, Asked(
            topology, cols, rows, cells, asked_bodies, total, lo, hi, colors, len(palette),
            {"coats": coats, "frozen": frozen, "frozen_holes": frozen_holes, "locks": locks,
             "gold": gold, "paths": paths, "bridges": bridges}), given)
        budgets = {k: budgets[k] if k in given else default
                   for k, default in INTERLOCK_BUDGETS.items()}
    if bad.items:
        raise ValidationError(bad.items, "request")

    request = Request(
        target=target, tolerance=tolerance, count=count or 1, seed=seed or 0, topology=topology,
        cols=cols, rows=rows, cells=cells, bodies=n, min_length=lo, max_length=hi, total=total,
        colors=colors, coats=coats, frozen=frozen, frozen_holes=frozen_holes, locks=locks,
        gold=gold, paths=paths, bridges=bridges, steps_min=steps_min, steps_max=steps_max,
        palette=palette, budgets=budgets,
        interaction_min=interaction_min, interlock=interlock, **puzzle,
    )
    _check_feasible(request)
    return request


def _any_score(bad: Issues, data: JsonObject) -> JsonObject:
    """An interlock request's ``data`` with the whole score scale as its range
    (:data:`~gridforge.snakes.design.interlock_spec.ANY_SCORE`) when it names no target: its
    levels are asked for their depth, not a score. A tolerance without a target is an issue."""
    if "target" in data:
        return data
    if "tolerance" in data:
        bad.add("tolerance", "no_target", "a tolerance needs a target")
    target, tolerance = ANY_SCORE
    return {**data, "target": target, "tolerance": tolerance}


def _check_feasible(req: Request) -> None:
    """Refuse requests whose fixed parameters rule out every level (with the reason)."""
    bad = Issues()
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
    # Every outer colour needs a body of its own, and a lock its body and key carriers.
    least_bodies = req.bodies or max(1, req.colors or 1,
                                     (req.locks + (req.gold or 0) + 1) if req.locks else 1)
    least_cells = req.total if req.total is not None else least_bodies * req.min_length
    least_holes = least_bodies + (req.coats or 0)
    room = req.cells
    if room is None and req.cols is not None and req.rows is not None:
        room = req.cols * req.rows
    if room is not None and least_cells + least_holes + 1 > room:
        bad.add("size", "too_small", f"{least_cells} body cells and {least_holes} holes need "
                                     f"more than the {room} cells the size allows")
    _check_terrain(req, bad, room, least_holes)
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


SELF_CROSSING = 5  # the fewest cells of a body that crosses itself on a bridge


def _check_terrain(req: Request, bad: Issues, room: int | None, least_holes: int) -> None:
    """Refuse terrain that no level of the request can bind (spec section 3b): paint with no
    second colour to refuse, a bridge with no second body and a body too short to cross
    itself, or more pieces than the floor has cells besides the holes."""
    paths, bridges = req.terrain()
    one_body = req.bodies == 1
    if paths and (len(req.palette) < 2 or ((one_body or req.colors == 1) and req.coats == 0)):
        why = (f"the palette holds {len(req.palette)} colour" if len(req.palette) < 2 else
               "every body has one colour, and no coats are allowed")
        bad.add("paths", "unbindable", f"a painted cell binds only where a body of another "
                                       f"colour would enter it, but {why}")
    if bridges and one_body and req.max_length < SELF_CROSSING:
        bad.add("bridges", "unbindable", f"a bridge binds where two bodies cross on it, or one "
                                         f"body of at least {SELF_CROSSING} cells crosses "
                                         f"itself; bodies.count is 1 and max_length "
                                         f"{req.max_length}")
    if room is None:
        return
    free = room - least_holes  # terrain never lies on a hole, nor two pieces on one cell
    if bridges > free:
        bad.add("bridges", "too_many", f"{bridges} bridges need as many floor cells besides "
                                       f"the {least_holes} holes; the size allows {free}")
    elif paths + bridges > free:
        bad.add("paths", "too_many", f"{paths} painted cells and {bridges} bridges need as "
                                     f"many floor cells besides the {least_holes} holes; the "
                                     f"size allows {free}")


def _score_range(req: Request) -> tuple[float, float]:
    """Loose lower and upper bounds of the seven-term score under the fixed parameters, from
    the score's own weights and normalisations (:mod:`~gridforge.snakes.design.score`)."""
    n_lo = req.bodies or 1
    n_hi = req.bodies or 16
    cells_lo = req.total if req.total is not None else n_lo * req.min_length
    cells_hi = req.total if req.total is not None else min(350, n_hi * req.max_length)
    area_hi = req.cells or (req.cols * req.rows if req.cols and req.rows else 400)
    occ_lo = (cells_lo + n_lo) / area_hi
    steps_hi = req.steps_max if req.steps_max is not None else MAX_STEPS
    steps_lo = max(req.steps_min or 0, n_lo + (req.coats or 0))
    mech_hi = 1.0
    if (req.coats is not None and req.frozen is not None and req.frozen_holes is not None
            and req.locks is not None):
        frozen_sum = (req.frozen + req.frozen_holes) * (n_lo + req.coats)  # thresholds stay
        # below the layer count; a silver lock has one key body, a gold lock two
        key_lock_bodies = 2 * req.locks + (req.gold or 0)
        mech_hi = mechanics_term(n_lo, req.coats, frozen_sum, key_lock_bodies)
    mech_lo = mechanics_term(n_hi, req.coats, 0, 0) if req.coats is not None else 0.0
    # Blocking, shuffling and space can each be 0 and 1 whatever the fixed parameters are.
    lowest = {"occupancy": occupancy_term(occ_lo), "body_scale": body_scale_term(cells_lo),
              "steps": steps_term(steps_lo), "blocking": 0.0, "mechanics": mech_lo,
              "shuffling": 0.0, "space": 0.0}
    highest = {"occupancy": 1.0, "body_scale": body_scale_term(cells_hi),
               "steps": steps_term(steps_hi), "blocking": 1.0, "mechanics": mech_hi,
               "shuffling": 1.0, "space": 1.0}
    return (sum(weight * lowest[name] for name, weight in WEIGHTS),
            sum(weight * highest[name] for name, weight in WEIGHTS))


def load_spec(text: str | bytes) -> Request:
    """Parse a spec file (JSON text, read with :func:`gridforge.errors.parse_json`'s limits)
    into a checked :class:`Request`.

    :raises ValidationError: for text that is not bounded JSON, or a bad request.
    """
    return parse_request(parse_json(text, "design spec", max_bytes=MAX_SPEC_BYTES))


def read_spec(path: str | os.PathLike[str]) -> Request:
    """Read a spec file (``--spec``) into a checked :class:`Request`."""
    return parse_request(read_json(path, "design spec", max_bytes=MAX_SPEC_BYTES))


def check_batch_request(request: Json) -> JsonObject | None:
    """Validate a batch file's ``request`` whole, before any level is searched.

    A batch holds ``null`` (no request), a design request (:func:`parse_request`'s format,
    returned in its canonical layout, :meth:`Request.to_json`) or a main-line block's request
    ``{"mainline": "gridforge.snakes.mainline/1", "seed", "levels": [first, last]}``
    (returned as it is).

    :raises ValidationError: naming every bad field under ``request`` (``request.target``,
        ``request.steps.min``, ...).
    """
    if request is None:
        return None
    if isinstance(request, dict) and "mainline" in request:
        return _check_block_request(request)
    try:
        return parse_request(request).to_json()
    except ValidationError as exc:
        raise exc.under("request", "batch") from None


def _check_block_request(request: JsonObject) -> JsonObject:
    bad = Issues()
    for extra in sorted(k for k in request if k not in ("mainline", "seed", "levels")):
        bad.add(field_path("request", extra), "unknown_field", f"unknown field {extra!r}")
    if request.get("mainline") != MAINLINE_FORMAT:
        bad.add("request.mainline", "format", f"mainline must be {MAINLINE_FORMAT!r}")
    _int_field(bad, request, "seed", "request.seed", 0, 2**63 - 1)
    if "seed" not in request:
        bad.add("request.seed", "missing", "a main-line block names its seed")
    span = request.get("levels")
    first, last = span if isinstance(span, list) and len(span) == 2 else (None, None)
    if not (is_int(first) and is_int(last) and 1 <= first <= last <= MAX_COUNT):
        bad.add("request.levels", "range", f"levels must be [first, last] within "
                                           f"1..{MAX_COUNT}, got {str(span)[:40]}")
    if bad.items:
        raise ValidationError(bad.items, "batch")
    return request


def _at_most_levels(levels: list[Json]) -> tuple[str, str] | None:
    if len(levels) > MAX_COUNT:
        return ("too_many", f"a batch holds at most {MAX_COUNT} levels, got {len(levels)}")
    return None


# A batch file's fields, declared once (its request, levels and certificates are read by
# their own readers; a field besides these is not read).
_BATCH = Schema((
    Field("format", message=f"format must be {BATCH_FORMAT!r}", code="format",
          choices=(BATCH_FORMAT,)),
    Field("request"),
    Field("levels", "list", "levels must be a non-empty list of levels", "type", lo=1,
          fallback=[], then=_at_most_levels),
    Field("certificates"),
), not_object="a batch is a JSON object", open_ended=True)


def check_batch(data: Json) -> JsonObject:
    """Validate a whole batch file's data (``gridforge.snakes.batch/1``) before use: its
    format, its request (:func:`check_batch_request`), every level (paths ``levels[i]....``)
    and, when present, that ``certificates`` is a list of one object per level. Returns
    ``{"format", "request", "levels"[, "certificates"]}`` with the request in canonical form.

    :raises ValidationError: listing every problem found, with its field path.
    """
    issues = Issues()
    given = _BATCH.root(data, "batch")
    assert isinstance(data, dict)  # root refused anything else
    fields = _BATCH.read(given, issues)
    fields.check("format")
    request: JsonObject | None = None
    try:
        request = check_batch_request(data.get("request"))
    except ValidationError as exc:
        issues.extend(exc.issues)
    fields.check("levels")
    raw_levels = given.get("levels")
    levels = raw_levels if isinstance(raw_levels, list) and not fields.bad("levels") else []
    for i, raw in enumerate(levels):
        try:
            level_from_json(raw, balanced=False)
        except ValidationError as exc:
            issues.under(field_path("levels", i), exc.issues)
    out: JsonObject = {"format": BATCH_FORMAT, "request": request, "levels": levels}
    if "certificates" in given:
        certs = given["certificates"]
        if not isinstance(certs, list) or len(certs) != len(levels):
            issues.add("certificates", "type",
                       "certificates must be a list of one certificate per level")
        elif not all(isinstance(c, dict) for c in certs):
            issues.add("certificates", "type", "every certificate is an object")
        else:
            out["certificates"] = certs
    if issues:
        raise ValidationError(issues, "batch")
    return out
