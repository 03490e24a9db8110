"""Snakes play telemetry, ``gridforge.snakes.telemetry/1`` (issue 24; docs/snakes-calibration.md).

One record per attempt of a level (a main-line level, a draft or a shared level, named by the
level's SHA-256): how long until the first step, how long until the level was won or left,
restarts, undos, hints, steps against the best known, repositioning runs, thinking time
(pauses before a drag) against drag time, and dead ends entered where they were cheap to know.
The page keeps these on the device only; the synthetic player
(:mod:`gridforge.snakes.player.synthetic`) writes the same format; ``gridforge calibrate`` reads it.

- :func:`validate_telemetry`: a whole export, refused with field paths
  (``attempts[3].undos``), never half-loaded; returns the attempts as plain dicts.
- :func:`validate_attempt`: one attempt record (the page calls it before storing one).
- :func:`repositioning_runs`: the repositioning runs of a list of steps and the exits among
  them (the seed's "腾挪": every maximal run of one body's consecutive steps that does not end
  in an exit).

Times are integer milliseconds. A real player's are wall-clock; the synthetic player's come
from its think-time model (never from a clock), so the same seed gives the same file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import NotRequired, TypedDict, cast

from gridforge.errors import (
    Field,
    Issue,
    Issues,
    Schema,
    ValidationError,
    describe,
    field_path,
    is_int,
)
from gridforge.jsontypes import JsonObject

FORMAT = "gridforge.snakes.telemetry/1"
SOURCES = ("device", "synthetic")
KINDS = ("mainline", "draft", "shared")
OUTCOMES = ("won", "abandoned")
MAX_ATTEMPTS = 5000  # per export; the page keeps the newest STORED_ATTEMPTS
STORED_ATTEMPTS = 500
MAX_COUNT = 1_000_000  # restarts, undos, steps...
MAX_MS = 7 * 24 * 3600 * 1000  # a week, in milliseconds
MAX_TEXT = 64
MAX_EXPORT_BYTES = 16 * 1024 * 1024

_SHA = re.compile(r"[0-9a-f]{64}\Z")
_PLAYER = re.compile(r"[A-Za-z0-9._:-]{1,64}\Z")

TOP_KEYS = ("format", "source", "attempts", "meta")
# Every attempt carries these; ``best_known``, ``level`` and ``dead_ends`` may be null.
ATTEMPT_KEYS = ("level_sha256", "kind", "level", "player", "seq", "outcome", "first_step_ms",
                "duration_ms", "steps", "best_known", "restarts", "undos", "hints",
                "repositioning_runs", "drags", "think_ms", "drag_ms", "dead_ends")
COUNT_KEYS = ("steps", "restarts", "undos", "hints", "repositioning_runs", "drags")
MS_KEYS = ("duration_ms", "think_ms", "drag_ms")



class Attempt(TypedDict):
    """One attempt at a level, as the page records it and an export carries it."""

    level_sha256: str
    kind: str  # one of KINDS
    level: int | None  # the main-line number; null for drafts and shared levels
    player: str
    seq: int
    outcome: str  # one of OUTCOMES
    first_step_ms: int | None
    duration_ms: int
    steps: int
    best_known: int | None
    restarts: int
    undos: int
    hints: int
    repositioning_runs: int
    drags: int
    think_ms: int
    drag_ms: int
    dead_ends: int | None


class Telemetry(TypedDict):
    """A telemetry export (``gridforge.snakes.telemetry/1``)."""

    format: str
    source: str  # one of SOURCES
    attempts: list[Attempt]
    meta: NotRequired[JsonObject]


_Bad = Callable[[str, str, str], None]  # (field, code, message): one issue of an attempt


def _check_identity(raw: JsonObject, bad: _Bad) -> None:
    """Issues of what an attempt is about: the level, its kind, the player, the outcome."""
    sha = raw["level_sha256"]
    if not isinstance(sha, str) or not _SHA.match(sha):
        bad("level_sha256", "type", "must be 64 lowercase hex digits (the level's SHA-256)")
    if raw["kind"] not in KINDS:
        bad("kind", "value", f"must be one of {', '.join(KINDS)}, got {describe(raw['kind'])}")
    level = raw["level"]
    if raw["kind"] == "mainline":
        if not is_int(level) or not 1 <= level <= 2000:
            bad("level", "range", f"a main-line attempt names its level 1..2000, got "
                f"{describe(level)}")
    elif level is not None:
        bad("level", "value", "only a main-line attempt names a level number (null otherwise)")
    player = raw["player"]
    if not isinstance(player, str) or not _PLAYER.match(player):
        bad("player", "type", "must be 1..64 characters of A-Z a-z 0-9 . _ : -")
    if raw["outcome"] not in OUTCOMES:
        bad("outcome", "value", f"must be one of {', '.join(OUTCOMES)}, "
            f"got {describe(raw['outcome'])}")


def _check_cross_fields(raw: Attempt, bad: _Bad) -> None:
    """Issues of fields that are each valid but cannot go together in one attempt."""
    if raw["steps"] == 0 and raw["first_step_ms"] is not None:
        bad("first_step_ms", "value", "an attempt without steps has no first step (null)")
    if raw["steps"] > 0 and raw["first_step_ms"] is None:
        bad("first_step_ms", "missing", "an attempt with steps says when the first came")
    if raw["first_step_ms"] is not None and raw["first_step_ms"] > raw["duration_ms"]:
        bad("first_step_ms", "range", f"the first step ({raw['first_step_ms']} ms) comes after "
            f"the end of the attempt ({raw['duration_ms']} ms)")
    if raw["think_ms"] + raw["drag_ms"] > raw["duration_ms"]:
        bad("think_ms", "range", "thinking and dragging together exceed the attempt's duration")
    if raw["outcome"] == "won" and raw["steps"] == 0:
        bad("steps", "range", "a won attempt has steps")
    if raw["drags"] > raw["steps"] + raw["undos"]:
        bad("drags", "range", "more drags than steps and undos")
    best = raw["best_known"]
    if raw["outcome"] == "won" and best is not None and best < 1:
        bad("best_known", "range", "a level's best known solution has at least one step")


def validate_attempt(raw: object, path: str = "") -> tuple[Attempt | None, list[Issue]]:
    """One attempt record: ``(attempt, [])`` when valid, ``(None, issues)`` otherwise."""
    issues = Issues(path)
    bad = issues.add
    if not isinstance(raw, dict):
        bad("", "type", f"an attempt is an object, got {describe(raw)}")
        return None, issues.items
    issues.unknown_keys(raw, ATTEMPT_KEYS)
    for key in ATTEMPT_KEYS:
        if key not in raw:
            bad(key, "missing", "missing")
    if issues:
        return None, issues.items

    def count(key: str, hi: int = MAX_COUNT, *, nullable: bool = False) -> None:
        value = raw[key]
        if value is None and nullable:
            return
        if not is_int(value):
            bad(key, "type", f"must be an integer{' or null' if nullable else ''}, "
                f"got {describe(value)}")
        elif not 0 <= value <= hi:
            bad(key, "range", f"must be in 0..{hi}, got {value}")

    _check_identity(raw, bad)
    count("seq", 2**53)
    for key in COUNT_KEYS:
        count(key)
    for key in MS_KEYS:
        count(key, MAX_MS)
    count("first_step_ms", MAX_MS, nullable=True)
    count("best_known", MAX_COUNT, nullable=True)
    count("dead_ends", MAX_COUNT, nullable=True)
    if issues:
        return None, issues.items
    attempt = cast(Attempt, {key: raw[key] for key in ATTEMPT_KEYS})  # each field checked
    _check_cross_fields(attempt, bad)
    if issues:
        return None, issues.items
    return attempt, []


def _plain_meta(meta: Mapping[str, object]) -> bool:
    return len(meta) <= 16 and all(isinstance(v, str | int | float | bool) or v is None
                                   for v in meta.values())


def _at_most_attempts(attempts: list[object]) -> tuple[str, str] | None:
    if len(attempts) > MAX_ATTEMPTS:
        return ("too_large", f"at most {MAX_ATTEMPTS} attempts, got {len(attempts)}")
    return None


# A telemetry export's fields, declared once (the attempts are read by validate_attempt).
_EXPORT = Schema((
    Field("format", message=f"must be {FORMAT!r}, got {{shown}}", code="format",
          choices=(FORMAT,)),
    Field("source", message=f"must be one of {', '.join(SOURCES)}, got {{shown}}",
          code="value", choices=SOURCES),
    Field("meta", "object", "meta is an object of at most 16 plain values", "type",
          default={}, test=_plain_meta),
    Field("attempts", "list", "must be a list of attempts", "type", then=_at_most_attempts),
), not_object="a telemetry export is a JSON object", unknown_sorted=True)
assert {f.name for f in _EXPORT.fields} == set(TOP_KEYS)


def validate_telemetry(data: object, what: str = "telemetry") -> Telemetry:
    """A whole telemetry export, every problem named by its field path.

    :raises ValidationError: listing every issue; nothing is returned half-loaded.
    """
    issues = Issues()
    data = _EXPORT.root(data, what)
    reading = _EXPORT.read_all(data, issues)
    meta = data.get("meta", {})
    out: list[Attempt] = []
    if not reading.bad("attempts"):
        for i, raw in enumerate(reading.listed("attempts")):
            attempt, found = validate_attempt(raw, field_path("attempts", i))
            issues += found
            if attempt is not None:
                out.append(attempt)
    if issues:
        raise ValidationError(issues, what)
    result: Telemetry = {"format": FORMAT, "source": str(data["source"]), "attempts": out}
    if isinstance(meta, dict) and "meta" in data:
        result["meta"] = dict(meta)
    return result


def repositioning_runs(bodies: Sequence[int], exits: Sequence[bool]) -> int:
    """The repositioning runs of a play: ``bodies[i]`` moved at step i, ``exits[i]`` whether
    that step was an exit. A run is a maximal sequence of one body's consecutive steps; it is
    a repositioning run when it does not end in an exit (an exit ends a run)."""
    runs = 0
    prev = -1
    open_run = False
    for body, exited in zip(bodies, exits, strict=True):
        if body != prev:
            runs += open_run
            prev = body
        open_run = True
        if exited:
            open_run = False
            prev = -1
    return runs + open_run


__all__ = ["ATTEMPT_KEYS", "FORMAT", "KINDS", "MAX_EXPORT_BYTES", "OUTCOMES", "SOURCES",
           "STORED_ATTEMPTS", "repositioning_runs", "validate_attempt", "validate_telemetry"]
