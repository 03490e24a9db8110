"""The main line's assembly: main-line level ``n`` built, judged and given its ``meta``.

Each main-line level is a pure function of the main line's seed and its number
(:func:`design_level`): the curriculum (:mod:`~gridforge.snakes.design.line_plan`) turns the
number into design requests or a motif plan, the designer
(:func:`~gridforge.snakes.design.pipeline.design_levels`) or the motif builder
(:func:`~gridforge.snakes.design.motif_line.motif_level`) builds one, and the quality rules
(:mod:`~gridforge.snakes.design.line_rules`) judge it. Every budget that decides a byte
counts work (candidates, states); the seconds budgets are loud safety nets only. So a level
has the same bytes whichever process, machine or cluster builds it, alone or in a longer run.
A breather never repeats an earlier breather's layout (:func:`layout_key`).

Imports the curriculum, the rules, the designer and the motif builder; nothing that reads or
writes block files.
"""

from __future__ import annotations

import functools
import hashlib

from gridforge.errors import GridforgeError
from gridforge.jsontypes import JsonObject
from gridforge.snakes.design.line_plan import (
    LESSONS,
    TEACHING,
    TEACHING_LESSONS,
    TERRAIN_LESSONS,
    Attempt,
    breather,
    level_plan,
    motif_plan,
)
from gridforge.snakes.design.line_rules import rule_misses
from gridforge.snakes.design.motif_line import motif_level
from gridforge.snakes.design.pipeline import design_levels
from gridforge.snakes.game.certfile import Certificate
from gridforge.snakes.game.levelfile import LevelJson

__all__ = ["design_level", "layout_key"]

TOO_PLAIN = ("rules", "serial", "interaction")  # rejections that make a plan aim higher


def layout_key(level: LevelJson) -> str:
    """A key equal for two levels exactly when they are the same layout under one of the
    grid's 8 symmetries and a relabelling of colours (a body read from either end is the same
    body; lock ids are ignored, lock kinds and key carriers are not)."""
    cols, rows = level["cols"], level["rows"]
    keys = []
    for t in range(8):
        width, height = (rows, cols) if t & 4 else (cols, rows)

        def move(cell: list[int], t: int = t, width: int = width, height: int = height
                 ) -> tuple[int, int]:
            x, y = (cell[1], cell[0]) if t & 4 else (cell[0], cell[1])
            return (width - 1 - x if t & 1 else x, height - 1 - y if t & 2 else y)

        bodies = []
        for b in level["bodies"]:
            cells = [move(c) for c in b["cells"]]
            cells = min(cells, cells[::-1])
            lock = b["lock"]["kind"] if "lock" in b else ""
            bodies.append((cells, list(b["colors"]), b.get("frozen", 0), lock, "key" in b))
        bodies.sort(key=lambda body: body[0])
        holes = sorted((move(h["cell"]), h["color"], h.get("frozen", 0))
                       for h in level["holes"])
        relabel: dict[int, int] = {}
        for colours in [body[1] for body in bodies] + [[h[1]] for h in holes]:
            for c in colours:
                relabel.setdefault(c, len(relabel))
        shape = (width, height, sorted(move(s) for s in level["stones"]),
                 [(c, [relabel[x] for x in cs], f, lk, k) for c, cs, f, lk, k in bodies],
                 [(cell, relabel[c], f) for cell, c, f in holes])
        keys.append(repr(shape))
    return hashlib.sha256(min(keys).encode("utf-8")).hexdigest()


def design_level(n: int, seed: int) -> tuple[LevelJson, Certificate]:
    """Main-line level ``n`` of the line of ``seed`` and its certificate: a lesson or a
    teaching level from the first attempt of :func:`level_plan` whose level keeps the
    curriculum's rules (the last resort is taken as it comes), any other level from motifs
    (:func:`motif_plan`). A pure function of ``n`` and ``seed``: any process builds the same
    bytes."""
    if n not in LESSONS and n not in TEACHING:
        return _motif_level(n, seed)
    plan = level_plan(n, seed)
    attempt = next(plan)
    reasons: list[str] = []
    keeps_the_rules = functools.partial(rule_misses, n)

    while True:
        # The curriculum judges every candidate about to be taken (not just the first), so a
        # rule that few candidates keep (a lesson's idea, a mechanic that costs steps) costs
        # candidates, not whole attempts; the last resort is taken as it comes.
        batch = design_levels(attempt.request, accept=None if attempt.last else keeps_the_rules)
        if batch["levels"]:
            level, cert = batch["levels"][0], batch["certificates"][0]
            misses = rule_misses(n, level, cert) if attempt.last else []
            return _with_meta(n, seed, attempt, level, cert, misses, reasons)
        rejected = batch["report"]["rejected"]
        outcome = "none"
        broke = rejected.get("rules", 0)
        top = max(rejected, key=lambda r: (rejected[r], r)) if rejected else None
        if top in TOO_PLAIN:  # too plain to keep the curriculum: aim higher
            outcome = "rules"
        reasons.append(f"{attempt.request['topology']}@{attempt.request['target']}: none"
                       + (f" ({broke} broke the curriculum's rules)" if broke else ""))
        try:
            attempt = plan.send(outcome)
        except StopIteration:  # pragma: no cover - the plan ends with its last resort
            raise GridforgeError(f"main-line level {n}: no level at all: {reasons}") from None


def _breather_layouts(n: int, seed: int) -> frozenset[str]:
    """The layouts (:func:`layout_key`) of the breathers before level ``n``: a breather is
    small, and without this one would repeat an earlier one (1 of 199 in a build)."""
    return frozenset(_breather_layout(m, seed) for m in range(20, n, 10) if breather(m))


@functools.cache
def _breather_layout(n: int, seed: int) -> str:
    """The layout of breather ``n`` (built once a process, earlier breathers first)."""
    return layout_key(_motif_level(n, seed)[0])


def _motif_level(n: int, seed: int) -> tuple[LevelJson, Certificate]:
    plan = motif_plan(n)
    taken = _breather_layouts(n, seed) if plan.breather else frozenset()
    level, cert = motif_level(plan, seed, lambda made: layout_key(made) not in taken)
    meta: JsonObject = {"id": f"main-{n:04d}", "template": "motifs", "target": plan.target,
                        "seed": seed, "level": n}
    if n in TERRAIN_LESSONS:
        meta["lesson"] = TERRAIN_LESSONS[n]
    if plan.breather:
        meta["breather"] = True
    level["meta"] = meta
    return level, cert


def _with_meta(n: int, seed: int, attempt: Attempt, level: LevelJson,
               cert: Certificate, misses: list[str], reasons: list[str]
               ) -> tuple[LevelJson, Certificate]:
    meta: JsonObject = {"id": f"main-{n:04d}", "template": level.get("meta", {})["template"],
                            "target": attempt.request["target"], "seed": seed, "level": n}
    if n in LESSONS:
        meta["lesson"] = LESSONS[n]
    if n in TEACHING:
        meta["lesson"] = TEACHING_LESSONS[n]
    if breather(n):
        meta["breather"] = True
    if attempt.fallback is not None:
        meta["fallback"] = {**attempt.fallback, "reasons": list(reasons[-12:])}
    if misses:
        meta["rules_missed"] = list(misses)
    level["meta"] = meta
    return level, cert
