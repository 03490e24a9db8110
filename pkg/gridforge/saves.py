"""The page's saved progress (``gridforge.progress/1`` in the browser's storage): its format
declared once, and checked part by part.

The page keeps one progress value: the main line's levels done (``snakes.done``: level
number -> best steps), the open level, the level in progress (``snakes.current``) and the
mines run (``mines``: the saved run, its revision and a summary). The page asks
:func:`check_progress` before it uses a stored value, and again for a file it imports: a
bad part (the mines run, one level's record, the level in progress, the open level) is set
aside alone with its field paths and the rest loads; a value that is no progress at all (no
object, another format) cannot be used. Every message is the catalogue's (``store.issue.*``)
in the page's language.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, NotRequired, TypedDict

from gridforge.errors import Field, Issue, Issues, Reading, Schema, is_int
from gridforge.i18n import say

PROGRESS_FORMAT = "gridforge.progress/1"
# A mines run's status as the page's summary of it says (gridforge.mines.run's statuses).
RUN_STATUSES = ("playing", "settled", "won", "lost")
# The largest whole number the page can hold exactly (JavaScript's Number.MAX_SAFE_INTEGER):
# the bound of a revision, and of a level number when the main line's size is not known.
MAX_SAFE = 2**53 - 1
MAX_BEST_STEPS = 1_000_000
MAX_BATTLES = 99
# A level number's key in snakes.done is at most this long (longer is past any line).
_MAX_KEY_DIGITS = 16


class IssueJson(TypedDict):
    """One problem of the progress: where (a field path) and what, in the page's words."""

    path: str
    code: str
    message: str


class Part(TypedDict):
    """A part of the progress set aside, with the issues that set it aside."""

    part: str
    issues: list[IssueJson]


class ProgressCheck(TypedDict):
    """What :func:`check_progress` found: ``value`` the progress with every bad part at its
    fresh state (None when the value itself cannot be used), ``parts`` the parts set aside
    and ``issues`` every problem found, in order."""

    value: dict[str, Any] | None
    parts: list[Part]
    issues: list[IssueJson]
    whole: NotRequired[bool]


def _words(key: str, **params: object) -> str:
    """A catalogue message as a :class:`Field` message (its braces kept as written)."""
    return say(key, **params).replace("{", "{{").replace("}", "}}")


def _level_key(last: int) -> Any:
    def fits(key: str) -> bool:
        return (key.isascii() and key.isdigit() and key[0] != "0"
                and len(key) <= _MAX_KEY_DIGITS and int(key) <= last)
    return fits


class _Schemas:
    """The progress format's objects, worded in the language of the call in progress;
    ``levels`` is the main line's last level number (None: any)."""

    def __init__(self, levels: int | None) -> None:
        last = levels if levels is not None else MAX_SAFE
        unknown = _words("store.issue.unknown-field")
        self.progress = Schema((
            Field("format", message=_words("store.issue.format", format=PROGRESS_FORMAT),
                  code="format", choices=(PROGRESS_FORMAT,)),
            Field("snakes", "object", _words("store.issue.snakes"), "type"),
            Field("mines", "object", _words("store.issue.mines"), "type"),
        ), unknown=unknown, first=("format",))
        level_words = (_words("store.issue.level-number", levels=levels) if levels
                       else _words("store.issue.level-number-any"))
        not_level = (say("store.issue.not-level", levels=levels) if levels
                     else say("store.issue.not-level-any"))
        object_or_null = _words("store.issue.object-or-null")
        self.snakes = Schema((
            Field("open", "int", level_words, lo=1, hi=last),
            Field("done", "map", _words("store.issue.done"), "type", keys=_level_key(last),
                  key_message=not_level,
                  each=Field("", "int", _words("store.issue.best"), lo=1, hi=MAX_BEST_STEPS)),
            Field("current", "object", object_or_null, "type", nullable=True),
        ), unknown=unknown)
        steps = _words("store.issue.steps")
        self.current = Schema((
            Field("level", "int", _words("store.issue.level"), lo=1, hi=last),
            Field("steps", "list", steps, "type"),
            Field("redo", "list", steps, "type"),
            Field("sha", "str", _words("store.issue.sha"), "type"),
        ), open_ended=True)
        self.mines = Schema((
            # Absent is no run at all: null says "none".
            Field("run", "object", object_or_null, "type", nullable=True, default=...),
            Field("rev", "int", _words("store.issue.rev"), lo=0, hi=MAX_SAFE, default=0),
            Field("summary", "object", object_or_null, "type", nullable=True),
        ), open_ended=True)
        self.summary = Schema((
            Field("status", message=_words("store.issue.one-of",
                                           choices=", ".join(RUN_STATUSES)),
                  code="choice", choices=RUN_STATUSES),
            Field("battles", "int", _words("store.issue.battles"), lo=1, hi=MAX_BATTLES),
            Field("battle", "int", _words("store.issue.battle"), lo=1),
        ), open_ended=True)


def _inner(reading: Reading, name: str) -> Mapping[str, object] | None:
    """The field ``name`` of ``reading`` when it is an object that passed its check."""
    value = reading.data.get(name)
    return value if isinstance(value, Mapping) and not reading.bad(name) else None


def progress_issues(value: object, levels: int | None = None) -> Issues:
    """Every problem of the progress ``value``, in the order of its fields, each with its
    field path (``snakes.done.3``); empty when the page can use every part of it."""
    issues = Issues()
    if not isinstance(value, Mapping):
        issues.add("", "type", say("store.issue.object"))
        return issues
    schemas = _Schemas(levels)
    top = schemas.progress.read(value, issues)  # its format first, then keys unknown
    top.check("snakes")
    if (snakes := _inner(top, "snakes")) is not None:
        reading = schemas.snakes.read_all(snakes, issues, "snakes")
        if (current := _inner(reading, "current")) is not None:
            schemas.current.read_all(current, issues, "snakes.current")
    top.check("mines")
    if (mines := _inner(top, "mines")) is not None:
        reading = schemas.mines.read_all(mines, issues, "mines")
        if (summary := _inner(reading, "summary")) is not None:
            _check_summary(schemas.summary, summary, issues)
    return issues


def _check_summary(schema: Schema, summary: Mapping[str, object], issues: Issues) -> None:
    """The mines summary: its battle is checked within its battles once those are known."""
    reading = schema.read(summary, issues, "mines.summary")
    reading.check("status", "battles")
    if not reading.bad("battles"):
        battles = reading.integer("battles")
        reading.check_fields([replace(schema.by_name["battle"], hi=battles)])


def part_of(path: str) -> str | None:
    """The part of the progress an issue at ``path`` lies in, set aside for it alone (None:
    the whole value, its format or its shape, cannot be used)."""
    top, _, rest = path.partition(".")
    if path == "" or top == "format":
        return None
    if top != "snakes":
        return top  # the mines part, or a field of another build: set aside alone
    if path.startswith("snakes.done."):
        return path  # one level's record
    second = rest.split(".", 1)[0]
    return f"snakes.{second}" if rest else "snakes"


def mines_rev(mines: object) -> int:
    """The mines run's revision in ``mines`` (0 before the first save that carried one)."""
    rev = mines.get("rev") if isinstance(mines, Mapping) else None
    return rev if is_int(rev) and rev >= 0 else 0


def without_part(value: dict[str, Any], part: str, levels: int | None) -> None:
    """``value`` without ``part`` (:func:`part_of`), changed in place: the rest as it was,
    the part at its fresh state."""
    snakes = value.get("snakes")
    if part == "mines":
        # Past the revision stored, so that a tab still playing the run set aside stops.
        rev = mines_rev(value.get("mines"))
        value["mines"] = {"run": None, "rev": rev + 1 if rev < MAX_SAFE else 0}
    elif part == "snakes":
        value["snakes"] = {"done": {}, "open": 1}
    elif not isinstance(snakes, dict):
        value.pop(part, None)
    elif part.startswith("snakes.done."):
        done = snakes.get("done")
        if isinstance(done, dict):
            done.pop(part[len("snakes.done."):], None)
    elif part == "snakes.done":
        snakes["done"] = {}
    elif part == "snakes.open":
        snakes["open"] = _first_open(snakes.get("done"), levels)
    elif part.startswith("snakes."):
        snakes.pop(part[len("snakes."):], None)  # the level in progress, or a field unknown
    else:
        value.pop(part, None)


def _first_open(done: object, levels: int | None) -> int:
    """The open level a fresh ``snakes.open`` takes: the one after the highest level won."""
    won = [int(key) for key in (done if isinstance(done, dict) else {})
           if isinstance(key, str) and key.isascii() and key.isdigit() and key[0] != "0"
           and len(key) <= _MAX_KEY_DIGITS]
    return min(levels if levels is not None else MAX_SAFE, max([1, *(n + 1 for n in won)]))


def _said(issue: Issue) -> IssueJson:
    return {"path": issue.path, "code": issue.code, "message": issue.message}


def _aside_issues(aside: object) -> list[IssueJson]:
    """The issues the page found itself (``[{path, message}]``), each in a part of its own
    path (an issue of no part, the whole value's, is not the page's to give)."""
    issues: list[IssueJson] = []
    for entry in aside if isinstance(aside, list) else []:
        path = entry.get("path") if isinstance(entry, Mapping) else None
        if not isinstance(path, str) or part_of(path) is None:
            continue
        assert isinstance(entry, Mapping)
        issues.append({"path": path, "code": str(entry.get("code", "aside")),
                       "message": str(entry.get("message", ""))})
    return issues


def check_progress(value: object, levels: object = None, aside: object = None
                   ) -> ProgressCheck:
    """The progress ``value`` checked part by part: the issues found (field paths, the
    page's words) and those of ``aside`` (``[{path, message}]``: what the page found it
    cannot use, a best below the proven minimum, a mines run that does not resume) grouped
    by the part they lie in, and the value with each of those parts at its fresh state
    (``value`` None in the answer: the value itself cannot be used, not an object or of
    another format). ``levels``: the main line's last level number (anything else: any).
    """
    last = levels if is_int(levels) and levels >= 1 else None
    found = progress_issues(value, last)
    issues = [_said(issue) for issue in found]
    if not isinstance(value, dict) or any(part_of(i.path) is None for i in found):
        return {"value": None, "parts": [], "issues": issues, "whole": True}
    by_part: dict[str, list[IssueJson]] = {}
    for issue in issues + _aside_issues(aside):
        by_part.setdefault(part_of(issue["path"]) or "", []).append(issue)
    fixed = copy.deepcopy(value)
    # The whole snakes part first: its fields' own issues then need nothing more.
    order = sorted(by_part, key=len)
    for part in order:
        if not (part.startswith("snakes.") and "snakes" in by_part):
            without_part(fixed, part, last)
    if progress_issues(fixed, last):
        return {"value": None, "parts": [], "issues": issues, "whole": True}
    return {"value": fixed, "parts": [{"part": part, "issues": by_part[part]} for part in order],
            "issues": issues}

