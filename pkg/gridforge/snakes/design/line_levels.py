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

from gridforge.errors import GridforgeError
from gridforge.jsontypes import JsonObject
from gridforge.snakes.design.board_line import BOARD_FROM, line_level
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
from gridforge.snakes.design.stretch import layout_key
from gridforge.snakes.game.certfile import Certificate
from gridforge.snakes.game.levelfile import LevelJson

__all__ = ["EDITIONS", "design_level", "layout_key"]

# The main line's editions: "chambers" is the shipped third build (levels of stone-walled
# chambers); "board" builds every level from 101 on one board whose bodies need each other
# (issue 50: :mod:`~gridforge.snakes.design.board_line`), and fits every level from 1 to a
# phone's board (at most PHONE_COLS x PHONE_ROWS).
EDITIONS = ("chambers", "board")
PHONE_COLS, PHONE_ROWS = 10, 16

TOO_PLAIN = ("rules", "serial", "interaction")  # rejections that make a plan aim higher


def design_level(n: int, seed: int, edition: str = "chambers"
                 ) -> tuple[LevelJson, Certificate]:
    """Main-line level ``n`` of the line of ``seed`` in ``edition`` (:data:`EDITIONS`) and its
    certificate: a lesson or a teaching level from the first attempt of :func:`level_plan`
    whose level keeps the curriculum's rules (the last resort is taken as it comes), any
    other level to 100 (every level in "chambers") from motifs (:func:`motif_plan`), and in
    "board" every level from 101 from :func:`~gridforge.snakes.design.board_line.line_level`.
    A pure function of ``n``, ``seed`` and ``edition``: any process builds the same bytes."""
    if edition not in EDITIONS:
        raise GridforgeError(f"edition: one of {', '.join(EDITIONS)}, got {edition!r}")
    if edition == "board" and n >= BOARD_FROM:
        return line_level(n, seed)
    if n not in LESSONS and n not in TEACHING:
        return _motif_level(n, seed, edition)
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


def _breather_layouts(n: int, seed: int, edition: str) -> frozenset[str]:
    """The layouts (:func:`layout_key`) of the breathers before level ``n``: a breather is
    small, and without this one would repeat an earlier one (1 of 199 in a build)."""
    return frozenset(_breather_layout(m, seed, edition) for m in range(20, n, 10)
                     if breather(m))


@functools.cache
def _breather_layout(n: int, seed: int, edition: str) -> str:
    """The layout of breather ``n`` (built once a process, earlier breathers first)."""
    return layout_key(_motif_level(n, seed, edition)[0])


def _fits(level: LevelJson, edition: str) -> bool:
    """Whether ``level`` fits ``edition``'s boards ("board": a phone's, 36 px cells on 390 px)."""
    return edition != "board" or (level["cols"] <= PHONE_COLS and level["rows"] <= PHONE_ROWS)


def _motif_level(n: int, seed: int, edition: str) -> tuple[LevelJson, Certificate]:
    plan = motif_plan(n)
    taken = _breather_layouts(n, seed, edition) if plan.breather else frozenset()
    level, cert = motif_level(plan, seed, lambda made: (
        layout_key(made) not in taken and _fits(made, edition)))
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
