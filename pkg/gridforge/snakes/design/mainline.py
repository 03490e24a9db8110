"""The main line (seed 004, section 4; spec section 8): 2000 levels built in blocks, anywhere.

Each main-line level is a pure function of the main line's seed and its number
(:func:`design_level`): a fixed curriculum (:func:`level_plan`) turns the number into design
requests, the designer (:func:`~gridforge.snakes.design.pipeline.design_levels`) builds one,
and the curriculum's rules (:func:`rule_misses`) judge it. Every budget that decides a byte
counts work (candidates, states); the seconds budgets are loud safety nets only. So a level
has the same bytes whichever process, machine or cluster builds it, alone or in a longer run.

The curriculum:

- levels 1-11 teach head, tail and turns, one idea a level (:data:`LESSONS`, named in the
  level's ``meta.lesson`` and checked on the certified solution);
- 12, 18, 24 and 30 teach coats, frozen bodies, frozen holes and keys (:data:`TEACHING`); the
  mechanic is visible (a coat differs from the layer under it) and, after its teaching level,
  comes back on a fixed share of levels (:func:`recurs`), rising with the level;
- from level 11 on no level is solved by moving each body alone straight out;
- the target climbs (:func:`level_target`), in waves of ten with a breather;
- templates are asked only for targets inside their measured reach (:data:`REACH`), and turn
  independently of the wave position; at most 8 colours, drawn from 0..9
  (:data:`PALETTE`).

A level that fails on its eligible templates falls back by a fixed rule: the target is
lowered by :data:`FALLBACK_STEP` and templates are tried again, at most
:data:`FALLBACK_ROUNDS` times, then the curriculum's own rules are relaxed to the designer's
(:data:`LAST_RESORT_TARGET`); what happened is recorded in the level's ``meta.fallback``. The
build never aborts on one level.

:func:`build_mainline` writes one batch file per block of 25 levels (or the part of a block a
``levels`` range asks for), ``main-NNNN-NNNN.json``, and after each a ``progress.json`` that
records every block file with its SHA-256. ``resume`` trusts nothing: the progress file is
validated whole, a block file that is missing or changed is named and rebuilt, and nothing but
the builder's own block names inside the output folder is ever replaced or removed.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import importlib
import os
import random
import re
import signal
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridforge import __version__
from gridforge.errors import Cancelled, GridforgeError, Issue, ValidationError, is_int, parse_json
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.design.files import FileRefused, WriteError, dumps, read_regular, write_text
from gridforge.snakes.design.pipeline import design_levels
from gridforge.snakes.design.request import BATCH_FORMAT, MAINLINE_FORMAT
from gridforge.snakes.design.templates import TEMPLATES

__all__ = [
    "BLOCK",
    "LESSONS",
    "LEVELS",
    "REACH",
    "TEACHING",
    "band_report",
    "build_mainline",
    "design_level",
    "layout_key",
    "level_plan",
    "level_target",
    "mainline_level",
    "parse_levels",
    "rule_misses",
]

LEVELS = 2000
BLOCK = 25
PROGRESS_FORMAT = "gridforge.snakes.mainline-progress/2"
BLOCK_NAME = re.compile(r"main-(\d{4})-(\d{4})\.json")
MAX_PROGRESS_BYTES = 1024 * 1024
PACE_WINDOW = 40  # completions the time-left estimate looks back over

# Levels 1-11: one idea a level, checked on the certified solution by LESSON_CHECKS.
LESSONS: dict[int, str] = {
    1: "grab the head: drag a body head first into its hole",
    2: "grab the tail: a body can also go tail first",
    3: "turn a corner: the body follows its end around a bend",
    4: "two colours: each body goes to a hole of its own colour",
    5: "the nearer end: choose the end that is closer to the hole",
    6: "back out: pull a body back the way it came to free the path",
    7: "make way: move one body aside so that another can pass",
    8: "order matters: the wrong body first blocks the others",
    9: "long bodies: a long body needs room to turn",
    10: "a breather: three bodies, room to spare",
    11: "make way twice: two bodies stand in each other's way",
}
# Levels 12, 18, 24, 30 teach a mechanic: the request field fixed to one on that level.
TEACHING: dict[int, str] = {12: "coats", 18: "frozen", 24: "frozen_holes", 30: "locks"}
# Colours 0..9 only (the page's palette keeps those ten distinct), at most 8 in one level.
PALETTE_COLOURS = 10
MAX_COLOURS = 8

# Reachable design scores per template: the lowest and highest totals seen by
# bench/template_reach.py (targets 1 and 100, tolerance 0, default budgets, seed 1; 8
# candidates a target for courtyard, notched, stepped, cross and island, 10 for pillars, 6 for
# twin, winding, comb and split; run on 2026-11-30). Few candidates: the highs are what the
# designer surely reaches, not all it could; measure again with more to raise the top.
REACH: dict[str, tuple[float, float]] = {
    "courtyard": (0.7, 85.7), "notched": (0.7, 86.6), "stepped": (0.7, 86.5),
    "cross": (1.0, 85.8), "island": (8.8, 71.7), "twin": (0.8, 94.9),
    "winding": (7.0, 87.8), "comb": (7.3, 83.7), "pillars": (1.0, 86.6),
    "split": (1.3, 70.3),
}
REACH_MARGIN = 3.0
# The top of the line is capped where at least this many templates still reach: with fewer,
# one template would make more than 30% of a band.
TEMPLATES_AT_THE_TOP = 4
FALLBACK_STEP = 3.0
FALLBACK_ROUNDS = 4
LAST_RESORT_TARGET = 20.0
FALLBACK_RULE = ("next template (3 a round, new seeds); after a round that made no level the "
                 "target is lowered by 3, after one whose levels broke a rule it is raised by 3")
# Work budgets of one attempt (one template at one target); seconds are safety nets.
BUDGETS_LOW = {"candidates": 1500, "exact_states": 20000}
BUDGETS_HIGH = {"candidates": 800, "exact_states": 6000}
TEMPLATES_PER_ROUND = 3  # templates tried at one target before it is lowered
SAFETY_NETS = {"exact_seconds": 900.0, "level_seconds": 7200.0}


def level_target(n: int) -> float:
    """The design score main-line level ``n`` (1-based) aims at."""
    if n <= 11:
        return 5.0 + n  # the teaching levels: small and calm
    # A steep climb over the first 200 levels, then a slow one to the top.
    base = 6 + 49 * (n - 1) / 199 if n <= 200 else 55 + 37 * (n - 200) / (LEVELS - 200)
    wave = (n - 1) % 10
    target = base + 0.8 * wave - (9 if wave == 9 else 0)  # the tenth level is a breather
    return round(min(95.0, max(5.0, target)), 1)


def recurs(n: int, mechanic_level: int) -> bool:
    """Whether level ``n`` (past the teaching level) brings the mechanic back: one level in
    ten at first, rising steadily to one in four at level 2000 (a fixed pattern: the running
    count ``0.1 x + 0.0000375 x**2`` of levels ``x`` past the teaching level steps up)."""
    if n <= mechanic_level:
        return False

    def count(x: int) -> int:
        return (4000 * x + 3 * x * x // 2) // 40000  # floor(0.1 x + 0.0000375 x^2), in ints

    x = n - mechanic_level
    return count(x) > count(x - 1)


def top_target() -> float:
    """The highest target the curriculum asks: inside the reach of
    :data:`TEMPLATES_AT_THE_TOP` templates."""
    highs = sorted((hi for _, hi in REACH.values()), reverse=True)
    return round(highs[TEMPLATES_AT_THE_TOP - 1] - REACH_MARGIN, 1)


def eligible_templates(target: float) -> list[str]:
    """The templates whose measured reach holds ``target`` (with the margin), in a fixed
    order."""
    return [t for t in TEMPLATES if REACH[t][0] <= target <= REACH[t][1] - REACH_MARGIN]


@dataclass(frozen=True)
class Attempt:
    """One request of a level's plan and the fallback that led to it (None for the first)."""

    request: dict[str, Any]
    fallback: dict[str, Any] | None
    last: bool = False  # the last resort: taken as it comes


def _palette(seed: int, n: int) -> list[int]:
    rng = random.Random(seed * 1_000_033 + n)
    return sorted(rng.sample(range(PALETTE_COLOURS), MAX_COLOURS))


def _base_request(n: int, seed: int, target: float, template: str, k: int) -> dict[str, Any]:
    request: dict[str, Any] = {
        "target": target,
        "count": 1,
        "seed": seed * 100_003 + n + 7_919 * k,
        "topology": template,
        "palette": _palette(seed, n),
        "budgets": {**(BUDGETS_HIGH if target >= 60 else BUDGETS_LOW), **SAFETY_NETS},
    }
    if n in LESSONS:
        request.update(_lesson_fields(n))
    for level, name in TEACHING.items():
        if n < level:
            request[name] = 0  # not taught yet
        elif n == level or recurs(n, level):
            request[name] = 1  # the lesson, or the mechanic coming back
    if request.get("locks") == 1:
        request["gold"] = 0  # one silver lock: one key
    if n == 30:
        request["bodies"] = {"count": 3}  # a locked body, its key's carrier, one more
    if n == 12:
        request["bodies"] = {"count": 2}
    return request


def _lesson_fields(n: int) -> dict[str, Any]:
    if n <= 3:
        return {"bodies": {"count": 1, "min_length": 2 + (n == 3), "max_length": 3 + (n == 3)}}
    if n in (4, 5, 6):
        return {"bodies": {"count": 2, "min_length": 2, "max_length": 4}, "colors": 2}
    if n == 9:
        return {"bodies": {"count": 2, "min_length": 5, "max_length": 7}}
    return {"bodies": {"count": 3, "min_length": 2, "max_length": 5}}


def level_plan(n: int, seed: int) -> Generator[Attempt, str | None, None]:
    """The requests tried for main-line level ``n``, in order, as a generator that is told
    each attempt's outcome (``send("rules")`` when the attempt made a level that broke a rule,
    anything else when it made none): rounds of :data:`TEMPLATES_PER_ROUND` eligible
    templates (the first chosen independently of the wave position), each attempt with a
    seed of its own; after a round in which no attempt made a level the target is lowered by
    :data:`FALLBACK_STEP`, after one whose levels broke a rule (too plain: straight out, no
    make-way) it is raised by as much; then a last resort. A lesson (levels 1-11) keeps its
    target and tries every template each round.

    :raises GridforgeError: when ``n`` is not in 1..2000.
    """
    if not is_int(n) or not 1 <= n <= LEVELS:
        raise GridforgeError(f"a main-line level is 1..{LEVELS}, got {n!r}")
    target = min(level_target(n), top_target())
    k = 0
    drops = 0
    first: str | None = None
    for _round in range(FALLBACK_ROUNDS + 1):
        aim = round(min(top_target(), max(5.0, target - FALLBACK_STEP * drops)), 1)
        names = eligible_templates(aim) or list(TEMPLATES)
        per_round = min(TEMPLATES_PER_ROUND, len(names))
        if n in LESSONS:
            # A lesson is cheap and its idea matters more than its score: every template,
            # new seeds; one small region shows one idea, not two rooms.
            names = [t for t in names if t != "split"]
            per_round = len(names)
        # The template turns with the level and, by a different stride, with its wave, so
        # that no template sits on the same wave slot (the breather, the hardest) every time.
        start = (n + 3 * ((n - 1) // 10)) % len(names)
        made_none = True
        missed_rules = False
        for i in range(per_round):
            template = names[(start + i) % len(names)]
            first = first or template
            fallback = None if k == 0 else {"rule": FALLBACK_RULE, "from_target": target,
                                            "from_template": first, "tries": k}
            outcome = yield Attempt(_base_request(n, seed, aim, template, k), fallback)
            made_none = made_none and outcome != "rules"
            missed_rules = missed_rules or outcome == "rules"
            k += 1
        if n not in LESSONS:
            if made_none:
                drops += 1
            elif missed_rules:
                drops -= 1  # a level that breaks a rule here is too plain: aim higher
    last = {"target": LAST_RESORT_TARGET, "count": 1, "seed": seed * 100_003 + n + 7_919 * k,
            "topology": "mixed", "palette": _palette(seed, n),
            "budgets": {**BUDGETS_LOW, **SAFETY_NETS}}
    yield Attempt(last, {"rule": "last resort: curriculum fields dropped", "from_target": target,
                         "from_template": first, "tries": k}, last=True)


def _steps_of(cert: dict[str, Any]) -> list[list[Any]]:
    solution = cert.get("solution") or []
    return [list(s) for s in solution]


def _turns(cells: list[list[int]]) -> bool:
    for a, b, c in zip(cells, cells[1:], cells[2:], strict=False):
        if (b[0] - a[0], b[1] - a[1]) != (c[0] - b[0], c[1] - b[1]):
            return True
    return False


LESSON_CHECKS: dict[int, Callable[[dict[str, Any], dict[str, Any]], bool]] = {
    1: lambda lv, c: all(s[1] == "head" for s in _steps_of(c)),
    2: lambda lv, c: any(s[1] == "tail" for s in _steps_of(c)),
    3: lambda lv, c: _turns(lv["bodies"][0]["cells"]),
    4: lambda lv, c: len({b["colors"][0] for b in lv["bodies"]}) == 2,
    5: lambda lv, c: {s[1] for s in _steps_of(c)} == {"head", "tail"},
    6: lambda lv, c: c["score"]["diagnostics"]["shuffle_steps"] > 0,
    7: lambda lv, c: c["score"]["diagnostics"]["shuffle_steps"] > 0,
    8: lambda lv, c: c["score"]["diagnostics"]["potential_exits"] < len(lv["bodies"]),
    9: lambda lv, c: any(_turns(b["cells"]) for b in lv["bodies"]),
    10: lambda lv, c: True,
    11: lambda lv, c: c["score"]["diagnostics"]["shuffle_steps"] >= 2,
}


def straight_out(level: dict[str, Any], cert: dict[str, Any]) -> bool:
    """Whether the certified solution moves each body alone straight to its exits (no step
    makes way for another body) on a level without mechanics."""
    plain = all(len(b["colors"]) == 1 and not b.get("frozen") and "lock" not in b
                for b in level["bodies"]) and not any(h.get("frozen") for h in level["holes"])
    return plain and cert["score"]["diagnostics"]["shuffle_steps"] == 0


def rule_misses(n: int, level: dict[str, Any], cert: dict[str, Any]) -> list[str]:
    """The curriculum rules that main-line level ``n`` breaks (empty when it keeps them all):
    its lesson, its mechanic shown and needed, no straight-out solution from level 11, at most
    8 colours drawn from 0..9."""
    misses: list[str] = []
    if n in LESSON_CHECKS and not LESSON_CHECKS[n](level, cert):
        misses.append(f"lesson {n} not shown")
    if n >= 11 and straight_out(level, cert):
        misses.append("solved by moving each body straight out")
    colours = {c for b in level["bodies"] for c in b["colors"]}
    if len(colours) > MAX_COLOURS or any(c >= PALETTE_COLOURS for c in colours):
        misses.append(f"colours {sorted(colours)}: at most {MAX_COLOURS} from 0..9")
    bodies, holes = level["bodies"], level["holes"]
    needs = {"coats": any(len(b["colors"]) > 1 and b["colors"][0] != b["colors"][1]
                          for b in bodies),
             "frozen": any(b.get("frozen") for b in bodies),
             "frozen_holes": any(h.get("frozen") for h in holes),
             "locks": any("lock" in b for b in bodies)}
    for level_no, name in TEACHING.items():
        if (n == level_no or recurs(n, level_no)) and not needs[name]:
            misses.append(f"{name} not shown")
    return misses


def layout_key(level: dict[str, Any]) -> str:
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


def design_level(n: int, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Main-line level ``n`` of the line of ``seed`` and its certificate: the first attempt
    of :func:`level_plan` whose level keeps the curriculum's rules (the last resort is taken
    as it comes). A pure function of ``n`` and ``seed``: any process builds the same bytes."""
    plan = level_plan(n, seed)
    attempt = next(plan)
    reasons: list[str] = []
    while True:
        batch = design_levels(attempt.request)
        outcome = "none"
        if batch["levels"]:
            level, cert = batch["levels"][0], batch["certificates"][0]
            misses = rule_misses(n, level, cert)
            if not misses or attempt.last:
                return _with_meta(n, seed, attempt, level, cert, misses, reasons)
            outcome = "rules"
            reasons.append(f"{attempt.request['topology']}@{attempt.request['target']}: "
                           f"{'; '.join(misses)}")
        else:
            reasons.append(f"{attempt.request['topology']}@{attempt.request['target']}: none")
        try:
            attempt = plan.send(outcome)
        except StopIteration:  # pragma: no cover - the plan ends with its last resort
            raise GridforgeError(f"main-line level {n}: no level at all: {reasons}") from None


def _with_meta(n: int, seed: int, attempt: Attempt, level: dict[str, Any],
               cert: dict[str, Any], misses: list[str], reasons: list[str]
               ) -> tuple[dict[str, Any], dict[str, Any]]:
    meta: dict[str, Any] = {"id": f"main-{n:04d}", "template": level["meta"]["template"],
                            "target": attempt.request["target"], "seed": seed, "level": n}
    if n in LESSONS:
        meta["lesson"] = LESSONS[n]
    if n in TEACHING:
        meta["lesson"] = f"teaches {TEACHING[n]}"
    if attempt.fallback is not None:
        meta["fallback"] = {**attempt.fallback, "reasons": reasons[-12:]}
    if misses:
        meta["rules_missed"] = misses
    level["meta"] = meta
    return level, cert


def mainline_level(n: Any, folder: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """Shipped main-line level ``n`` and its certificate, ``{"level", "certificate"}``, read
    from the block file that ``folder``'s ``progress.json`` lists for it (the package's data
    by default), checked against its SHA-256; no other file of the folder is read.

    :raises GridforgeError: when ``n`` is not an integer in 1..2000, its block is not listed,
        or the listed file is missing, changed or not a main-line block (named with the reason).
    """
    if not is_int(n) or not 1 <= n <= LEVELS:
        raise GridforgeError(f"level: a main-line level is 1..{LEVELS}, got {n!r}")
    where = Path(folder) if folder is not None else Path(__file__).parent.parent / "data"
    seed, _block, files = _read_progress(where)
    for f in files:
        if f.first <= n <= f.last:
            data, _rows = _read_block(where, f, seed)
            i = n - f.first
            return {"level": data["levels"][i], "certificate": data["certificates"][i]}
    raise GridforgeError(f"level: main-line level {n} is not built yet (no block file holds it "
                         f"in {where})")


def band_report(folder: str | os.PathLike[str] | None = None, band: int = 100, *,
                warnings: list[str] | None = None) -> list[dict[str, Any]]:
    """Per band of ``band`` levels found in the block files of ``folder`` (the shipped line by
    default): levels, proven share, mean gap between solution and lower bound, median score,
    the largest template share, fallbacks and the body counts used.

    Only the block files ``folder/progress.json`` lists are read, each checked against its
    SHA-256 and its shape; a listed file that fails is left out and anything else in the
    folder is ignored, each named in a line appended to ``warnings`` (when given).

    :raises GridforgeError: when ``progress.json`` is missing, not a regular file or not valid.
    """
    where = Path(folder) if folder is not None else Path(__file__).parent.parent / "data"
    seed, _block, files = _read_progress(where)
    notes = warnings if warnings is not None else []
    rows: dict[int, list[_Row]] = {}
    for f in files:
        try:
            rows[f.first] = _read_block(where, f, seed)[1]
        except GridforgeError as exc:
            notes.append(f"{exc}: left out of the band report")
    notes += _unlisted(where, {f.name for f in files})
    return _band_table(rows, band)


def _band_table(blocks: dict[int, list[_Row]], band: int) -> list[dict[str, Any]]:
    """The band rows of :func:`band_report` from the rows of block files (by first level)."""
    rows: dict[int, list[_Row]] = {}
    for first in sorted(blocks):
        for i, row in enumerate(blocks[first]):
            rows.setdefault((first + i - 1) // band, []).append(row)
    out = []
    for b in sorted(rows):
        pairs = rows[b]
        scores = sorted(r.score for r in pairs)
        mid = len(scores) // 2
        median = scores[mid] if len(scores) % 2 else (scores[mid - 1] + scores[mid]) / 2
        templates = [r.template for r in pairs]
        out.append({
            "levels": [b * band + 1, b * band + band], "built": len(pairs),
            "proven": round(sum(1 for r in pairs if r.optimal) / len(pairs), 3),
            "mean_gap": round(sum(r.gap for r in pairs) / len(pairs), 2),
            "median_score": round(median, 2),
            "top_template_share": round(max(templates.count(t) for t in set(templates))
                                        / len(pairs), 3),
            "fallbacks": sum(1 for r in pairs if r.fallback),
            "body_counts": sorted({r.bodies for r in pairs}),
        })
    return out


# ------------------------------------------------------------------------------------------
# Blocks, progress and resume


def parse_levels(text: str) -> tuple[int, int]:
    """``"A-B"`` (or ``"N"``) as a level range inside 1..2000.

    :raises GridforgeError: naming ``--levels`` for anything else.
    """
    match = re.fullmatch(r"\s*(\d{1,4})\s*(?:-\s*(\d{1,4})\s*)?", text)
    if not match:
        raise GridforgeError(f"--levels: expected A-B (for example 1-25), got {text!r}")
    first = int(match[1])
    last = int(match[2]) if match[2] else first
    if not 1 <= first <= last <= LEVELS:
        raise GridforgeError(f"--levels: a range inside 1..{LEVELS} with A <= B, got {text!r}")
    return first, last


def block_name(first: int, last: int) -> str:
    """The block file's name for levels ``first``..``last``."""
    return f"main-{first:04d}-{last:04d}.json"


@dataclass(frozen=True)
class BlockFile:
    """A finished block file as progress.json records it."""

    name: str
    first: int
    last: int
    sha256: str

    def to_json(self) -> dict[str, Any]:
        """The record in progress.json."""
        return {"name": self.name, "first": self.first, "last": self.last,
                "sha256": self.sha256}


def _block_of(n: int, block: int) -> int:
    return (n - 1) // block


def _check_progress(data: Any, block: int | None) -> tuple[int, int, list[BlockFile]]:
    """Validate a progress file whole; returns its seed, block size and block files. The
    block size must be ``block``; ``None`` takes the file's own (an integer in 1..2000).

    :raises ValidationError: naming every bad field (``files[2].name``, ``done``, ...).
    """
    if not isinstance(data, dict):
        raise ValidationError([Issue("", "type", "progress is a JSON object")], "progress.json")
    issues: list[Issue] = []

    def bad(path: str, message: str) -> None:
        issues.append(Issue(path, "invalid", message))

    if data.get("format") != PROGRESS_FORMAT:
        bad("format", f"format must be {PROGRESS_FORMAT!r}")
    seed = data.get("seed")
    if not is_int(seed) or not 0 <= seed < 2**31:
        bad("seed", f"seed must be an integer in 0..2**31-1, got {str(seed)[:30]}")
        seed = -1
    if block is None:
        block = data.get("block")
        if not is_int(block) or not 1 <= block <= LEVELS:
            bad("block", f"block must be an integer in 1..{LEVELS}, got {str(block)[:30]}")
            block = LEVELS
    elif data.get("block") != block:
        bad("block", f"block must be {block}, got {str(data.get('block'))[:30]}")
    files: list[BlockFile] = []
    raw = data.get("files")
    if not isinstance(raw, list) or len(raw) > LEVELS:
        bad("files", "files must be a list of block records")
        raw = []
    taken: set[int] = set()
    for i, item in enumerate(raw):
        path = f"files[{i}]"
        if not isinstance(item, dict) or set(item) != {"name", "first", "last", "sha256"}:
            bad(path, "a block record is {name, first, last, sha256}")
            continue
        first, last, name, sha = item["first"], item["last"], item["name"], item["sha256"]
        if not (is_int(first) and is_int(last) and 1 <= first <= last <= LEVELS
                and _block_of(first, block) == _block_of(last, block)):
            bad(path, f"first..last must lie inside one block of {block} levels")
            continue
        if not isinstance(name, str) or name != block_name(first, last):
            bad(f"{path}.name", f"must be the builder's own block name "
                                f"{block_name(first, last)!r}, got {str(name)[:60]!r}")
            continue
        if not isinstance(sha, str) or not re.fullmatch(r"[0-9a-f]{64}", sha):
            bad(f"{path}.sha256", "must be 64 lowercase hex digits")
            continue
        span = set(range(first, last + 1))
        if span & taken:
            bad(path, f"levels {first}..{last} are listed twice")
            continue
        taken |= span
        files.append(BlockFile(name, first, last, sha))
    done = data.get("done")
    if not is_int(done) or done != len(taken):
        bad("done", f"done must be the number of levels the files hold ({len(taken)}), "
                    f"got {str(done)[:30]}")
    if issues:
        raise ValidationError(issues, "progress.json")
    assert is_int(seed)
    return seed, block, sorted(files, key=lambda f: f.first)


# A block file is about 15 KB a level; a file larger than this is not read back.
MAX_BLOCK_BYTES_PER_LEVEL = 1024 * 1024


@dataclass(frozen=True)
class _Row:
    """What the band report needs of one level."""

    score: float
    optimal: bool
    gap: int
    template: str
    fallback: bool
    bodies: int


def _row(n: int, level: Any, cert: Any) -> _Row:
    """The band report's row of main-line level ``n``; a ValueError says what is wrong."""
    if not isinstance(level, dict) or not isinstance(cert, dict):
        raise ValueError(f"level {n}: a level and its certificate are objects")
    meta, score = level.get("meta"), cert.get("score")
    if not isinstance(meta, dict) or meta.get("level") != n or not isinstance(
            meta.get("template"), str):
        raise ValueError(f"level {n}: meta must name level {n} and its template")
    total = score.get("total") if isinstance(score, dict) else None
    if isinstance(total, bool) or not isinstance(total, int | float):
        raise ValueError(f"level {n}: certificate score.total must be a number")
    steps, bound = cert.get("steps"), cert.get("lower_bound")
    if not (is_int(steps) and is_int(bound) and isinstance(cert.get("optimal"), bool)):
        raise ValueError(f"level {n}: certificate steps, lower_bound and optimal are missing")
    bodies = level.get("bodies")
    if not isinstance(bodies, list):
        raise ValueError(f"level {n}: bodies must be a list")
    return _Row(float(total), cert["optimal"], steps - bound, meta["template"],
                "fallback" in meta, len(bodies))


def _block_rows(data: Any, f: BlockFile, seed: int) -> list[_Row]:
    """Check a parsed block file against its record; its band report rows."""
    request = data.get("request")
    if not isinstance(request, dict) or request.get("seed") != seed or request.get(
            "levels") != [f.first, f.last]:
        raise ValueError(f"its request must be seed {seed}, levels [{f.first}, {f.last}]")
    levels, certs = data.get("levels"), data.get("certificates")
    count = f.last - f.first + 1
    if not (isinstance(levels, list) and isinstance(certs, list)
            and len(levels) == len(certs) == count):
        raise ValueError(f"it must hold {count} levels and {count} certificates")
    return [_row(f.first + i, lv, c) for i, (lv, c) in enumerate(zip(levels, certs,
                                                                       strict=True))]


def _read_block(where: Path, f: BlockFile, seed: int) -> tuple[dict[str, Any], list[_Row]]:
    """The listed block file ``f`` in ``where``, read once (never through a symbolic link),
    checked against its SHA-256 and its record, and its band report rows.

    :raises FileRefused: naming the file and the reason (``reason``: "is missing", "was
        changed (SHA-256 differs)", "is not the block it is listed as (...)", ...).
    """
    path = where / f.name
    raw = read_regular(path, (f.last - f.first + 1) * MAX_BLOCK_BYTES_PER_LEVEL)
    if hashlib.sha256(raw).hexdigest() != f.sha256:
        raise FileRefused(path, "was changed (SHA-256 differs)")
    try:
        data = parse_json(raw, f.name, max_bytes=len(raw), expect_format=BATCH_FORMAT)
        return data, _block_rows(data, f, seed)
    except (ValidationError, ValueError) as exc:
        why = exc.issues[0] if isinstance(exc, ValidationError) and exc.issues else exc
        raise FileRefused(path, f"is not the block it is listed as ({str(why)[:200]})"
                          ) from None


def _read_progress(where: Path, block: int | None = None
                   ) -> tuple[int, int, list[BlockFile]]:
    """``where/progress.json``, read with the bounded reader (never through a symbolic link)
    and validated whole: its seed, block size and block files.

    :raises GridforgeError: when it is missing, a symbolic link or not a regular file.
    :raises ValidationError: naming every bad field.
    """
    path = where / "progress.json"
    raw = read_regular(path, MAX_PROGRESS_BYTES)
    return _check_progress(parse_json(raw, "progress.json", max_bytes=MAX_PROGRESS_BYTES),
                           block)


MAX_WARNED = 20  # stray entries named one by one; the rest are counted


def _unlisted(where: Path, listed: set[str]) -> list[str]:
    """One warning per entry of ``where`` that is neither progress.json nor a listed block
    file: such entries are never read (the first :data:`MAX_WARNED` named, the rest counted)."""
    try:
        names = sorted(entry.name for entry in os.scandir(where))
    except OSError:
        return []
    stray = [name for name in names if name != "progress.json" and name not in listed]
    out = [f"{where / name} is not listed in progress.json: ignored"
           for name in stray[:MAX_WARNED]]
    if len(stray) > MAX_WARNED:
        out.append(f"{len(stray) - MAX_WARNED} more entries of {where} are not listed in "
                   "progress.json: ignored")
    return out


@dataclass
class _Plan:
    """What a build writes: per block index, the span of levels its file will hold."""

    spans: dict[int, tuple[int, int]]
    valid: dict[int, BlockFile]  # listed block files whose bytes match their SHA-256
    keep: dict[int, BlockFile]  # those of them that stay as they are
    rows: dict[int, list[_Row]]  # the band report rows of the valid files
    notes: list[str]


def _plan(files: list[BlockFile], out: Path, first: int, last: int, block: int,
          seed: int) -> _Plan:
    spans: dict[int, tuple[int, int]] = {}
    valid: dict[int, BlockFile] = {}
    rows: dict[int, list[_Row]] = {}
    notes: list[str] = []
    for f in files:
        b = _block_of(f.first, block)
        try:
            rows[b] = _read_block(out, f, seed)[1]
        except FileRefused as exc:
            notes.append(f"{f.name} {exc.reason}: rebuilding it")
        else:
            valid[b] = f
        spans[b] = (f.first, f.last)
    keep = dict(valid)
    for b in range(_block_of(first, block), _block_of(last, block) + 1):
        lo = max(first, b * block + 1)
        hi = min(last, (b + 1) * block)
        if b in spans:
            # A block file holds one contiguous span: a wider request widens it (gaps filled).
            lo, hi = min(lo, spans[b][0]), max(hi, spans[b][1])
            if (lo, hi) != spans[b] and b in keep:
                del keep[b]
        spans[b] = (lo, hi)
    return _Plan(spans, valid, keep, rows, notes)


def _executor(workers: int, scheduler: str | None) -> tuple[cf.Executor | None, Any]:
    """An executor for level tasks: None (this process) for one local worker, a process pool
    for several, or a Dask cluster's executor; and the Dask client to close (or None)."""
    if scheduler is not None:
        try:
            # Imported by name: Dask is an optional extra, and has no type information.
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise GridforgeError("--scheduler needs Dask: pip install 'gridforge[cluster]'"
                                 ) from None
        try:
            client = distributed.Client(scheduler, timeout="20s")
        except OSError as exc:
            raise GridforgeError(f"--scheduler: cannot reach {scheduler}: {exc}") from None
        executor: cf.Executor = client.get_executor(pure=False)
        return executor, client
    if workers <= 1:
        return None, None
    return cf.ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts), None


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to the builder, which stops it (no traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_workers(executor: cf.Executor) -> None:
    """Stop a local pool's workers now, running levels included (shutdown alone waits for
    them; Python has no public call for this before 3.14's ``terminate_workers``)."""
    executor.shutdown(wait=False, cancel_futures=True)
    processes: dict[int, Any] = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()
    for process in list(processes.values()):
        process.join(5)


def _fmt_seconds(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds} s"


def build_mainline(out_dir: str | os.PathLike[str], seed: int = 2026,
                   levels: tuple[int, int] = (1, LEVELS), *, resume: bool = False,
                   workers: int = 1, scheduler: str | None = None,
                   progress: Progress = NO_PROGRESS, block: int = BLOCK,
                   count: int | None = None) -> dict[str, Any]:
    """Build main-line levels ``levels[0]..levels[1]`` into ``out_dir``: block files
    ``main-NNNN-NNNN.json`` and ``progress.json``; returns the progress data with ``notes``
    (what resume found and rebuilt), ``warnings`` (entries of ``out_dir`` that are not
    listed, and so never read) and ``built`` (levels designed by this run).

    ``workers`` local processes share the levels (one: this process); ``scheduler`` sends them
    to a Dask cluster instead. Either way a block's bytes are the same. ``count`` (the older
    keyword) means ``levels=(1, count)``.

    :raises GridforgeError: for bad arguments; when ``out_dir`` holds a main line and
        ``resume`` is false; when ``resume`` meets one of another seed or block size.
    :raises ValidationError: when ``progress.json`` is not valid (each bad field named).
    :raises GridforgeError: when ``progress.json`` is a symbolic link or not a regular file,
        and when a file cannot be written (named; nothing half-written stays behind).
    :raises Cancelled: when ``progress`` asks to stop; finished blocks stay saved and listed.
    """
    if not is_int(seed) or not 0 <= seed < 2**31:
        raise GridforgeError(f"--seed: an integer in 0..2**31-1, got {seed!r}")
    first, last = (1, count) if count is not None else levels
    if not (is_int(first) and is_int(last) and 1 <= first <= last <= LEVELS):
        raise GridforgeError(f"--levels: a range inside 1..{LEVELS}, got {levels!r}")
    if not is_int(workers) or not 1 <= workers <= 256:
        raise GridforgeError(f"--workers: an integer in 1..256, got {workers!r}")
    if not is_int(block) or not 1 <= block <= LEVELS:
        raise GridforgeError(f"block: an integer in 1..{LEVELS}, got {block!r}")
    out = Path(out_dir)
    state_path = out / "progress.json"
    files: list[BlockFile] = []
    if os.path.lexists(state_path):  # (a dangling symbolic link exists too)
        if not resume:
            raise GridforgeError(f"{state_path} exists: pass --resume to go on with it")
        old_seed, _block, files = _read_progress(out, block)
        if old_seed != seed:
            raise GridforgeError(f"--seed: {state_path} was built with seed {old_seed}, "
                                 f"not {seed}")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(out, exc) from None
    plan = _plan(files, out, first, last, block, seed)
    records = dict(plan.valid)  # a valid file stays listed until its replacement is written
    rows = dict(plan.rows)  # the band report rows of the listed files
    todo = {b: span for b, span in plan.spans.items() if b not in plan.keep}
    wanted = [n for b in sorted(todo) for n in range(todo[b][0], todo[b][1] + 1)]
    results: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
    total = len(wanted)
    started = time.monotonic()
    running: dict[int, float] = {}

    pace: list[tuple[float, int]] = [(started, 0)]  # (when, levels done) as levels come in

    def report(label: str = "") -> None:
        done = len(results)
        now = time.monotonic()
        if done != pace[-1][1]:
            pace.append((now, done))
            del pace[:-PACE_WINDOW]
        left = ""
        if done and done < total:
            # The recent pace, not the whole run's: later levels cost more than early ones.
            (t0, d0), (t1, d1) = pace[0], pace[-1]
            per = (t1 - t0) / max(1, d1 - d0)
            left = f"; about {_fmt_seconds(per * (total - done))} left"
        slow = ""
        if running:
            n0 = min(running, key=lambda k: running[k])
            slow = f"; slowest: level {n0} ({_fmt_seconds(time.monotonic() - running[n0])})"
        progress.step(done, max(total, 1), label or f"levels{slow}{left}")

    def finish_blocks() -> None:
        for b in sorted(todo):
            lo, hi = todo[b]
            if all(n in results for n in range(lo, hi + 1)):
                old = records.get(b)
                new, new_rows = _write_block(out, seed, lo, hi, results)
                _write_progress(state_path, seed, block, {**records, b: new})
                records[b], rows[b] = new, new_rows
                del todo[b]
                if old is not None and old.name != records[b].name:
                    # The narrower block file this one replaces: a validated name of the
                    # builder's own pattern, so the path is inside ``out``.
                    (out / old.name).unlink(missing_ok=True)

    for note in plan.notes:
        report(note)
    _write_progress(state_path, seed, block, records)
    executor, client = _executor(workers, scheduler)
    try:
        if executor is None:
            for n in wanted:
                running = {n: time.monotonic()}
                report()
                results[n] = design_level(n, seed)
                running = {}
                finish_blocks()
        else:
            if client is not None:  # one task in flight per thread of the cluster
                workers = max(workers, sum(client.nthreads().values()))
            _run_pool(executor, wanted, seed, workers, results, running, report, finish_blocks)
    except KeyboardInterrupt:
        raise Cancelled(f"stopped by Ctrl-C with {_kept(records)}: run the same command with "
                        "--resume to go on") from None
    except WriteError as exc:  # a full disk, say: the temporary file is already removed
        raise GridforgeError(f"{exc}; {_kept(records)}: make room and run the same command "
                             "with --resume to go on") from None
    except cf.BrokenExecutor:  # (a broken process pool; the name needs no multiprocessing)
        raise GridforgeError(f"a worker process ended abruptly (killed, or out of memory) with "
                             f"{_kept(records)}: run the same command with --resume to go on"
                             ) from None
    finally:
        if client is not None and executor is not None:
            executor.shutdown(wait=False)  # Dask's executor cancels nothing on its own
            client.close()
        elif executor is not None:
            _stop_workers(executor)
    report("done")
    state = _progress_json(seed, block, records)
    state["notes"] = plan.notes
    state["warnings"] = _unlisted(out, {f.name for f in records.values()})
    state["built"] = total
    # From what was checked or written, not read back: nothing unlisted is ever read.
    state["bands"] = _band_table({records[b].first: rows[b] for b in records}, 100)
    return state


def _kept(records: dict[int, BlockFile]) -> str:
    done = sum(f.last - f.first + 1 for f in records.values())
    return f"{done} levels kept in {len(records)} block files"


def _run_pool(executor: cf.Executor, wanted: list[int], seed: int, workers: int,
              results: dict[int, tuple[dict[str, Any], dict[str, Any]]],
              running: dict[int, float], report: Callable[[], None],
              finish_blocks: Callable[[], None]) -> None:
    """Keep ``workers`` level tasks in flight (so that 'running' means running), in level
    order, and write each block as soon as its levels are in."""
    queue = list(reversed(wanted))
    flight: dict[cf.Future[tuple[dict[str, Any], dict[str, Any]]], int] = {}
    while queue or flight:
        while queue and len(flight) < workers:
            n = queue.pop()
            flight[executor.submit(design_level, n, seed)] = n
            running[n] = time.monotonic()
        done, _ = cf.wait(list(flight), timeout=1.0, return_when=cf.FIRST_COMPLETED)
        for future in sorted(done, key=lambda f: flight[f]):
            n = flight.pop(future)
            del running[n]
            results[n] = future.result()
        report()
        if done:
            finish_blocks()


def _write_block(out: Path, seed: int, lo: int, hi: int,
                 results: dict[int, tuple[dict[str, Any], dict[str, Any]]]
                 ) -> tuple[BlockFile, list[_Row]]:
    name = block_name(lo, hi)
    data = {"format": BATCH_FORMAT,
            "request": {"mainline": MAINLINE_FORMAT, "seed": seed, "levels": [lo, hi]},
            "levels": [results[n][0] for n in range(lo, hi + 1)],
            "certificates": [results[n][1] for n in range(lo, hi + 1)]}
    text = dumps(data, indent=1)
    write_text(out / name, text)
    rows = [_row(n, *results[n]) for n in range(lo, hi + 1)]
    return BlockFile(name, lo, hi, hashlib.sha256(text.encode("utf-8")).hexdigest()), rows


def _progress_json(seed: int, block: int, records: dict[int, BlockFile]) -> dict[str, Any]:
    files = [records[b] for b in sorted(records)]
    return {"format": PROGRESS_FORMAT, "seed": seed, "block": block,
            "done": sum(f.last - f.first + 1 for f in files),
            "files": [f.to_json() for f in files], "version": __version__}


def _write_progress(path: Path, seed: int, block: int, records: dict[int, BlockFile]) -> None:
    write_text(path, dumps(_progress_json(seed, block, records), indent=1))
