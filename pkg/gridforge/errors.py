"""The project's own errors: every refusal of bad input is one of these, never a traceback.

An :class:`Issue` names one problem of an input with a field path (``bodies[2].cells[3]``)
and a short code; a :class:`ValidationError` carries every issue a validator found in one
pass, so a user sees all that is wrong with a file at once.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, NoReturn, TypeGuard, TypeVar

# Limits of the one JSON reader (see read_json): deeper nesting, longer integers or bigger
# texts than these are refused up front, before the parser could recurse or grow.
MAX_DEPTH = 32
MAX_INT_DIGITS = 30
MAX_BYTES = 8 * 1024 * 1024
# A ValidationError lists this many issues and counts the rest.
MAX_ISSUES = 50

T = TypeVar("T")

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# A text that may hold a lone surrogate: an escape \uD800..\uDFFF (the walk then decides).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


class GridforgeError(ValueError):
    """Base class of every error that gridforge raises on purpose."""


class Cancelled(GridforgeError):
    """Long work was cancelled by its caller (Ctrl-C, the browser's cancel button)."""


@dataclass(frozen=True)
class Issue:
    """One problem of an input: where (a field path), what kind (a code), and a message."""

    path: str
    code: str
    message: str

    def __str__(self) -> str:
        where = self.path or "<root>"
        return f"{where}: {self.message}"

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "code": self.code, "message": self.message}


class ValidationError(GridforgeError):
    """An input failed validation; ``issues`` lists every problem found, in a fixed order."""

    def __init__(self, issues: Iterable[Issue], what: str = "input") -> None:
        found: list[Issue] = []
        self.more = 0  # issues found beyond MAX_ISSUES, counted but not kept
        for issue in issues:
            if len(found) < MAX_ISSUES:
                found.append(issue)
            else:
                self.more += 1
        if not found:
            raise ValueError("ValidationError needs at least one issue")
        self.issues: list[Issue] = found
        self.what = what
        lines = "; ".join(str(issue) for issue in found[:10])
        rest = len(found) - 10 + self.more
        more = f" (+{rest} more)" if rest > 0 else ""
        super().__init__(f"invalid {what}: {lines}{more}")

    def to_json(self) -> dict[str, object]:
        return {"what": self.what, "issues": [issue.to_json() for issue in self.issues],
                "more": self.more}

    def under(self, prefix: str, what: str | None = None) -> ValidationError:
        """The same issues moved under ``prefix`` (see :meth:`Issues.under`), said of
        ``what`` (this error's own, when None): a part's refusal as the whole's."""
        moved = Issues()
        moved.under(prefix, self.issues)
        error = ValidationError(moved, self.what if what is None else what)
        error.more = self.more
        return error

    def about(self, what: str) -> ValidationError:
        """The same issues (and count of the rest) said of ``what``, e.g. the file read."""
        renamed = ValidationError(self.issues, what)
        renamed.more = self.more
        return renamed


class Issues:
    """The one collector of a validator's problems: every loader of the project adds its
    issues here, in the order found, each with its field path under ``base``.

    The same wrong input gets the same code whichever file it is in: ``type`` (a value of
    the wrong kind: a text for a number, a float for an integer), ``range`` (a number out of
    its bounds), ``off_board`` (a cell outside the board), ``missing``, ``unknown_field``.
    """

    def __init__(self, base: str = "") -> None:
        self.base = base
        self.items: list[Issue] = []

    def __bool__(self) -> bool:
        return bool(self.items)

    def __iter__(self) -> Iterator[Issue]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def append(self, issue: Issue) -> None:
        """An issue made elsewhere (a checker that answers one), kept as it is."""
        self.items.append(issue)

    def extend(self, found: Iterable[Issue]) -> None:
        """Issues made elsewhere (another validator's), kept as they are, in order."""
        self.items.extend(found)

    def __iadd__(self, found: Iterable[Issue]) -> Issues:
        self.extend(found)
        return self

    def under(self, prefix: str, found: Iterable[Issue]) -> None:
        """The issues ``found`` in a part of the input read on its own (a level inside a
        batch), each moved under ``prefix`` (its root path becomes ``prefix`` itself)."""
        for issue in found:
            self.add(field_path(prefix, issue.path) if issue.path else prefix, issue.code,
                     issue.message)

    def at(self, *parts: str | int) -> str:
        """The full field path of ``parts`` under this collector's base."""
        return field_path(self.base, *parts)

    def add(self, path: str, code: str, message: str) -> None:
        """One issue at ``path`` (under the base; "" is the base itself)."""
        self.items.append(Issue(self.at(path) if path else self.base, code, message))

    def integer(self, value: object, path: str, lo: int, hi: int, what: str) -> int | None:
        """``value`` when it is an integer in ``lo..hi``; else None, with a ``type`` issue
        (not an integer) or a ``range`` one."""
        if not is_int(value):
            self.add(path, "type", f"{what} must be an integer, got {describe(value)}")
            return None
        if not lo <= value <= hi:
            self.add(path, "range", f"{what} must be in {lo}..{hi}, got {value}")
            return None
        return value

    def unknown_keys(self, obj: Mapping[str, object], allowed: Iterable[str],
                     path: str = "") -> None:
        """An ``unknown_field`` issue for each key of ``obj`` outside ``allowed``, sorted."""
        known = set(allowed)
        for key in sorted((k for k in obj if k not in known), key=str):
            self.add(field_path(path, str(key)), "unknown_field", f"unknown field {key!r}")

    def list_of(self, value: Any, path: str, lo: int, hi: int, what: str,
                code: str = "length") -> list[Any] | None:
        """``value`` when it is a list of ``lo..hi`` items (None, with an issue, otherwise):
        a longer list is refused before any item is read."""
        if not isinstance(value, list):
            self.add(path, "type", f"{what} must be a list")
            return None
        if not lo <= len(value) <= hi:
            self.add(path, code, f"{what}: {lo}..{hi} items, got {len(value)}")
            return None
        return value

    def object_of(self, value: object, path: str, allowed: Iterable[str],
                  what: str) -> TypeGuard[dict[str, Any]]:
        """Whether ``value`` is an object (an issue otherwise); its unknown keys are issues.

        (``Any`` values: the level loader reads fields it has checked one by one.)"""
        if not isinstance(value, dict):
            self.add(path, "type", f"{what} is an object, got {describe(value)}")
            return False
        self.unknown_keys(value, allowed, path)
        return True

    def cell(self, value: object, path: str, cols: int | None, rows: int | None
             ) -> tuple[int, int] | None:
        """``value`` as a cell ``(x, y)`` when it is ``[x, y]`` (two integers) on a
        ``cols`` x ``rows`` board (any, when the size is not known); else None, with a
        ``type`` or ``off_board`` issue."""
        if not isinstance(value, list) or len(value) != 2 or not all(is_int(v) for v in value):
            self.add(path, "type", f"a cell is [x, y] with two integers, got {describe(value)}")
            return None
        x, y = value
        if cols is not None and rows is not None and not (0 <= x < cols and 0 <= y < rows):
            self.add(path, "off_board", f"cell [{x}, {y}] is outside the {cols}x{rows} board")
            return None
        return (x, y)

    def raise_if_any(self, what: str) -> None:
        """:raises ValidationError: with every issue found, when there is one."""
        if self.items:
            raise ValidationError(self.items, what)


# ------------------------------------------------------------------ declared objects
@dataclass(frozen=True)
class Field:
    """One field of a JSON object as a :class:`Schema` declares it.

    ``kind`` is what the value must be: ``"int"`` (in ``lo..hi`` when given), ``"bool"``,
    ``"str"``, ``"object"`` (read by ``nested``), ``"list"`` (of at least ``lo`` items; each
    an object read by ``items``), ``"map"`` (an object whose keys pass ``keys``, each other
    key a ``key_code`` issue worded ``key_message``, and whose values ``each`` checks, at
    the key's path) or ``"any"``; ``choices`` lists the only values allowed,
    ``test`` is a further condition on a value of the right kind. A value that fails gets one
    issue, ``code`` and ``message`` (``{value!r}``, ``{lo}``, ``{hi}`` filled in; cut to
    ``cut`` characters when given), and reads as ``fallback``; ``nullable`` lets null
    pass (``{shown}`` in a message is the value as :func:`describe` shows it). A
    ``required`` field that is absent gets a ``missing`` issue instead; any other
    absent field reads as ``default`` and is checked like a given one. ``then`` checks a
    value that passed: an issue ``(code, message)`` or None. An ``"int"`` field with a
    ``range_message`` says an integer out of bounds with it (code ``range``), as
    :meth:`Issues.integer` does, and keeps ``message`` for a value of another kind.
    """

    name: str
    kind: str = "any"
    message: str = ""
    code: str = "range"
    lo: int | None = None
    hi: int | None = None
    required: bool = False
    nullable: bool = False
    default: object = None
    fallback: object = None
    choices: tuple[object, ...] = ()
    test: Callable[[Any], bool] | None = None
    then: Callable[[Any], tuple[str, str] | None] | None = None
    cut: int | None = None
    range_message: str = ""
    nested: Schema | None = None
    items: Schema | None = None
    keys: Callable[[str], bool] | None = None
    key_message: str = ""
    key_code: str = "range"
    each: Field | None = None

    def fits(self, value: object) -> bool:
        """Whether ``value`` is what this field holds."""
        if value is None and self.nullable:
            return True
        if self.choices and value not in self.choices:
            return False
        fits = _KINDS[self.kind](value)
        if fits and self.kind == "int":
            assert isinstance(value, int)
            fits = (self.lo is None or value >= self.lo) and (self.hi is None or value <= self.hi)
        elif fits and self.kind == "list":
            assert isinstance(value, list)
            fits = self.lo is None or len(value) >= self.lo
        return fits and (self.test is None or self.test(value))

    def refused(self, value: object) -> tuple[str, str]:
        """The code and message of a value that does not fit: an integer out of ``lo..hi``
        is said by ``range_message`` (code ``range``) when the field has one."""
        if self.range_message and self.kind == "int" and is_int(value):
            return "range", self.range_message.format(value=value, lo=self.lo, hi=self.hi)
        return self.code, self.words(value)

    def words(self, value: object) -> str:
        """The message of a value that does not fit."""
        text = self.message.format(value=value, shown=describe(value), lo=self.lo, hi=self.hi)
        return text if self.cut is None else text[:self.cut]


_KINDS: dict[str, Callable[[object], bool]] = {
    "int": lambda value: is_int(value),
    "bool": lambda value: isinstance(value, bool),
    "str": lambda value: isinstance(value, str),
    "object": lambda value: isinstance(value, Mapping),
    "list": lambda value: isinstance(value, list),
    "map": lambda value: isinstance(value, Mapping),
    "any": lambda value: True,
}


@dataclass(frozen=True)
class Schema:
    """A JSON object's fields, declared once: :meth:`read` checks an object against them
    and gives its values, every problem an issue with its field path.

    ``not_object`` is the message of a value that is no object (``"a board is a JSON
    object"``); ``unknown`` the message of a key outside the fields (``{key!r}`` the key,
    ``{short!r}`` its first 40 characters), cut to ``unknown_cut`` characters, and its
    path the key cut to ``key_cut``; ``missing_first`` reports every absent required field
    of a :meth:`Reading.check` call before any other issue of that call; an ``open_ended``
    object may hold keys besides its fields (a part another build writes more into); the
    fields ``first`` are checked as reading starts, before the unknown keys are reported;
    ``unknown_sorted`` reports the unknown keys in sorted order, not the object's.
    """

    fields: tuple[Field, ...]
    not_object: str = "an object"
    unknown: str = "unknown field {key!r}"
    unknown_cut: int | None = None
    key_cut: int | None = None
    missing_first: bool = False
    open_ended: bool = False
    first: tuple[str, ...] = ()
    unknown_sorted: bool = False
    by_name: dict[str, Field] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_name", {f.name: f for f in self.fields})

    def root(self, data: object, what: str, path: str = "") -> Mapping[str, object]:
        """``data`` when it is an object. :raises ValidationError: (``what``) otherwise."""
        if not isinstance(data, Mapping):
            raise refusal(what, path, "type", self.not_object)
        return data

    def read(self, data: Mapping[str, object], issues: Issues, base: str = "") -> Reading:
        """Start reading ``data`` (its unknown keys become issues at once); check its
        fields with :meth:`Reading.check`."""
        return Reading(self, data, issues, base)

    def read_all(self, data: Mapping[str, object], issues: Issues, base: str = "") -> Reading:
        """Read ``data`` and check every field, in declared order."""
        reading = self.read(data, issues, base)
        reading.check(*(name for name in self.by_name if name not in self.first))
        return reading


class Reading:
    """The values of one object read by a :class:`Schema` (see :meth:`Schema.read`)."""

    def __init__(self, schema: Schema, data: Mapping[str, object], issues: Issues,
                 base: str) -> None:
        self.schema, self.data, self.issues, self.base = schema, data, issues, base
        self.values: dict[str, object] = {}
        self.nested: dict[str, Reading] = {}
        self.items: dict[str, list[Reading]] = {}
        self.check(*schema.first)
        keys = () if schema.open_ended else sorted(data, key=str) if schema.unknown_sorted else data
        for key in keys:
            if key not in schema.by_name:
                self._add(str(key)[:schema.key_cut], "unknown_field", self._unknown(key))

    def _unknown(self, key: object) -> str:
        text = self.schema.unknown.format(key=key, short=str(key)[:40])
        return text[:self.schema.unknown_cut] if self.schema.unknown_cut else text

    def _add(self, name: str, code: str, message: str) -> None:
        self.issues.add(field_path(self.base, name), code, message)

    def check(self, *names: str) -> None:
        """Check the fields ``names`` in this order, each problem an issue."""
        self.check_fields([self.schema.by_name[name] for name in names])

    def check_fields(self, fields: list[Field]) -> None:
        """Check ``fields`` (the schema's, or one of them with bounds known only now)."""
        missing = [f for f in fields if f.required and f.name not in self.data]
        if self.schema.missing_first:
            for f in missing:
                self._add(f.name, "missing", f"missing field {f.name!r}")
        for f in fields:
            if f not in missing:
                self._check(f, self.data.get(f.name, f.default))
            elif not self.schema.missing_first:
                self._add(f.name, "missing", f"missing field {f.name!r}")

    def _check(self, f: Field, value: object) -> None:
        if not f.fits(value):
            self._add(f.name, *f.refused(value))
            self.values[f.name] = f.fallback
            value = {} if f.kind == "object" else []
        else:
            self.values[f.name] = value
            found = f.then(value) if f.then is not None else None
            if found is not None:
                self._add(f.name, *found)
        path = field_path(self.base, f.name)
        if f.kind == "map" and isinstance(value, Mapping):
            self._check_map(f, value, path)
        if f.nested is not None:
            assert isinstance(value, Mapping)
            self.nested[f.name] = f.nested.read_all(value, self.issues, path)
        if f.items is not None:
            assert isinstance(value, list)
            self.items[f.name] = [f.items.read_all(item, self.issues, field_path(path, k))
                                  for k, item in enumerate(value)
                                  if self._is_object(f.items, item, field_path(path, k))]

    def _check_map(self, f: Field, table: Mapping[str, object], path: str) -> None:
        """Each entry of the map field ``f``: its key, then its value (``f.each``)."""
        for key, value in table.items():
            where = field_path(path, key)
            if f.keys is not None and not f.keys(key):
                self.issues.add(where, f.key_code, f.key_message)
            elif f.each is not None and not f.each.fits(value):
                self.issues.add(where, f.each.code, f.each.words(value))

    def _is_object(self, schema: Schema, item: object, path: str) -> bool:
        if isinstance(item, Mapping):
            return True
        self.issues.add(path, "type", schema.not_object)
        return False

    def bad(self, name: str) -> bool:
        """Whether the field ``name`` was checked and found wanting (or missing)."""
        return any(i.path == self.issues.at(field_path(self.base, name)) for i in self.issues)

    def listed(self, name: str) -> list[object]:
        """The list field ``name`` (as checked, or its fallback)."""
        value = self.values[name]
        assert isinstance(value, list)
        return value

    def integer(self, name: str) -> int:
        """The integer field ``name`` (as checked, or its fallback)."""
        value = self.values[name]
        assert is_int(value)
        return value

    def number(self, name: str) -> float:
        """The number field ``name`` (as checked, or its fallback)."""
        value = self.values[name]
        assert isinstance(value, int | float) and not isinstance(value, bool)
        return value

    def text(self, name: str) -> str:
        """The text field ``name`` (as checked, or its fallback)."""
        value = self.values[name]
        assert isinstance(value, str)
        return value

    def flag(self, name: str) -> bool:
        """The true-or-false field ``name`` (as checked, or its fallback)."""
        value = self.values[name]
        assert isinstance(value, bool)
        return value


def describe(value: object) -> str:
    """A short JSON rendering of ``value`` for a message (at most 40 characters)."""
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def refusal(what: str, path: str, code: str, message: str) -> ValidationError:
    """The error of an input refused for one issue (``path``, ``code``, ``message``) found
    before any other could be looked for (not an object, a list over its limit)."""
    return ValidationError([Issue(path, code, message)], what)


def _refuse(what: str, code: str, message: str, path: str = "") -> ValidationError:
    return refusal(what, path, code, message)


def _nesting_depth(text: str, limit: int) -> int:
    """The deepest nesting of arrays and objects in ``text``, stopping once past ``limit``
    (a linear scan that skips strings, so the parser is never asked to recurse deeper)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif char in "]}":
            depth -= 1
    return deepest


class _Repeated(dict[str, object]):
    """An object of the text that names a key twice (the keys in ``repeated``); only seen
    by :func:`parse_json`, which refuses the text naming where."""

    repeated: list[str]


def _repeated_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    seen: set[str] = set()
    out = _Repeated(obj)
    out.repeated = []
    for key, _ in pairs:
        if key in seen and key not in out.repeated:
            out.repeated.append(key)
        seen.add(key)
    return out


def _walk(value: object) -> Iterator[tuple[object, str]]:
    """Every value inside ``value`` (itself first) with its field path, in document order
    (a loop, not recursion; a key with a lone surrogate is shown escaped in a path)."""
    stack: list[tuple[object, str]] = [(value, "")]
    while stack:
        node, path = stack.pop()
        yield node, path
        if isinstance(node, dict):
            children = [(v, field_path(path, _safe_key(k))) for k, v in node.items()]
        elif isinstance(node, list):
            children = [(v, field_path(path, i)) for i, v in enumerate(node)]
        else:
            continue
        stack += reversed(children)


def _duplicate_issues(value: object) -> list[Issue]:
    """Every key an object of ``value`` names twice, with its field path, document order."""
    return [Issue(field_path(path, key), "duplicate_key",
                  f"the key {key[:60]!r} is given more than once")
            for node, path in _walk(value) if isinstance(node, dict)
            for key in getattr(node, "repeated", ())]


def _has_lone_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def _safe_key(key: str) -> str:
    """A key as a path may show it: a lone surrogate written as its escape (printable)."""
    if not _has_lone_surrogate(key):
        return key
    return key.encode("utf-8", "backslashreplace").decode("utf-8")


def _surrogate_issues(value: object) -> list[Issue]:
    """Every string (key or value) of ``value`` holding a lone surrogate (``"\\ud800"``:
    no character, and not writable as UTF-8), with its field path, document order."""
    issues: list[Issue] = []
    for node, path in _walk(value):
        if isinstance(node, str) and _has_lone_surrogate(node):
            issues.append(Issue(path, "encoding", "a text holds a lone surrogate "
                                "(\\ud800..\\udfff alone is no character)"))
        elif isinstance(node, dict):
            issues += [Issue(field_path(path, _safe_key(k)), "encoding", "a key holds a lone "
                             "surrogate (\\ud800..\\udfff alone is no character)")
                       for k in node if _has_lone_surrogate(k)]
    return issues


def parse_json(text: str | bytes, what: str, *, max_bytes: int = MAX_BYTES,
               expect_format: str | None = None) -> Any:
    """Parse JSON text within the reader's limits; every failure is a ValidationError.

    UTF-8 only; at most ``max_bytes`` bytes, :data:`MAX_DEPTH` levels of nesting and
    :data:`MAX_INT_DIGITS` digits per integer; ``NaN``, ``Infinity`` and numbers that
    overflow to infinity are refused, and so is an object that names a key twice (the issue
    names its path, ``bodies[0].cells``: JSON does not say which one would count).
    With ``expect_format`` the value must be an object whose ``format`` field is that string.
    """
    text = _bounded_text(text, what, max_bytes)
    hooks = _Hooks(what)
    try:
        value = json.loads(text, parse_int=hooks.bounded_int, parse_float=hooks.finite_float,
                           parse_constant=hooks.no_constant, object_pairs_hook=hooks.pairs)
    except json.JSONDecodeError as exc:
        raise _refuse(what, "json", f"not valid JSON: {exc}") from None
    except RecursionError:  # pragma: no cover - the depth scan refuses this first
        raise _refuse(what, "too_deep", "nested too deeply") from None
    if hooks.repeated:
        raise ValidationError(_duplicate_issues(value), what)
    if _SURROGATE_ESCAPE.search(text) and (lone := _surrogate_issues(value)):
        raise ValidationError(lone, what)
    if expect_format is not None:
        _check_format(value, what, expect_format)
    return value


def _bounded_text(text: str | bytes, what: str, max_bytes: int) -> str:
    """``text`` as a string (UTF-8 decoded, a leading BOM dropped) within the reader's
    size and nesting limits. :raises ValidationError: otherwise."""
    if not isinstance(text, str | bytes):
        raise _refuse(what, "type", f"expected JSON text, got {type(text).__name__}")
    size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    if size > max_bytes:
        raise _refuse(what, "too_large", f"{size} bytes; the limit is {max_bytes} bytes")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _refuse(what, "encoding",
                          f"not UTF-8 text (byte {exc.start}: {exc.reason})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if _nesting_depth(text, MAX_DEPTH) > MAX_DEPTH:
        raise _refuse(what, "too_deep", f"nested deeper than {MAX_DEPTH} levels")
    return text


class _Hooks:
    """The parser's hooks for one text: numbers within the limits, repeated keys noted."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.repeated = False

    def bounded_int(self, token: str) -> int:
        if len(token.lstrip("-")) > MAX_INT_DIGITS:
            raise _refuse(self.what, "number",
                          f"an integer of {len(token)} digits; the limit is {MAX_INT_DIGITS}")
        return int(token)

    def finite_float(self, token: str) -> float:
        value = float(token)
        if not math.isfinite(value):
            raise _refuse(self.what, "number", f"the number {token[:40]} is out of range")
        return value

    def no_constant(self, token: str) -> NoReturn:
        raise _refuse(self.what, "number", f"{token} is not a JSON number")

    def pairs(self, pairs: list[tuple[str, object]]) -> dict[str, object]:
        obj = _repeated_keys(pairs)
        self.repeated = self.repeated or isinstance(obj, _Repeated)
        return obj


def _check_format(value: object, what: str, expect_format: str) -> None:
    """:raises ValidationError: unless ``value`` is an object of format ``expect_format``."""
    if not isinstance(value, dict):
        raise _refuse(what, "type", f"expected an object with format {expect_format!r}")
    if value.get("format") != expect_format:
        raise _refuse(what, "format", f"expected {expect_format!r}, "
                      f"got {str(value.get('format'))[:60]!r}", "format")


def read_json(path: str | os.PathLike[str], what: str, *, max_bytes: int = MAX_BYTES,
              expect_format: str | None = None) -> Any:
    """Read and parse the JSON file at ``path`` with :func:`parse_json`'s limits; a missing
    or unreadable file is a ValidationError naming it, and an oversized file is refused
    before it is read."""
    name = os.fspath(path)
    if "\0" in str(name):
        raise _refuse(what, "file", f"cannot read {name!r}: a file name has no NUL byte")
    try:
        # Named before it is opened (a socket cannot be opened at all).
        mode = os.stat(path).st_mode
    except (OSError, ValueError) as exc:
        raise _refuse(what, "file", f"cannot read {name}: "
                      f"{getattr(exc, 'strerror', None) or exc}") from None
    if not stat.S_ISREG(mode):
        raise _refuse(what, "file", f"cannot read {name}: {file_kind(mode)}, "
                      "not a regular file")
    try:
        # O_NONBLOCK: opening a pipe with no writer returns at once (then refused below)
        # instead of waiting forever for one; it changes nothing for a regular file.
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _CLOEXEC)
    except OSError as exc:
        raise _refuse(what, "file", f"cannot read {name}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _refuse(what, "file", f"cannot read {name}: {file_kind(info.st_mode)}, "
                          "not a regular file")
        size = info.st_size
        data = b"" if size > max_bytes else _read_upto(fd, max_bytes + 1)
    except OSError as exc:
        raise _refuse(what, "file", f"cannot read {name}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > max_bytes or len(data) > max_bytes:
        raise _refuse(what, "too_large",
                      f"{name} has {max(size, len(data))} bytes; the limit is {max_bytes}")
    return parse_json(data, what, max_bytes=max_bytes, expect_format=expect_format)


def _read_upto(fd: int, limit: int) -> bytes:
    """At most ``limit`` bytes of the open file ``fd``, read to its end."""
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        chunk = os.read(fd, min(1 << 20, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    kinds = [(stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a pipe (FIFO)"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device")]
    return next((f"it is {name}" for test, name in kinds if test(mode)), "it is a special file")


def load_file(path: str | os.PathLike[str], what: str, build: Callable[[Any], T], *,
              max_bytes: int = MAX_BYTES, expect_format: str | None = None) -> T:
    """Read the JSON file at ``path`` (:func:`read_json`) and ``build`` a value from it; a
    ValidationError from either says ``what`` was read (``--board b.json``), so the user
    learns which flag and file the field path belongs to."""
    data = read_json(path, what, max_bytes=max_bytes, expect_format=expect_format)
    try:
        return build(data)
    except ValidationError as exc:
        raise exc.about(f"{exc.what} in {what}") from None


def read_package_json(package: str, name: str, *, expect_format: str,
                      max_bytes: int = MAX_BYTES) -> Any:
    """Read the data file ``name`` shipped inside ``package`` (``"gridforge.mines"``,
    ``"data/presets.json"``) with :func:`parse_json`'s limits and format check; the
    ValidationError names the file as ``package/name``."""
    what = f"{package.replace('.', '/')}/{name}"
    try:
        data = resources.files(package).joinpath(name).read_bytes()
    except OSError as exc:
        raise _refuse(what, "file", f"cannot read {what}: {exc.strerror or exc}") from None
    return parse_json(data, what, max_bytes=max_bytes, expect_format=expect_format)


def is_int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a JSON integer (``True`` and ``False`` are not, though Python's
    bools are ints)."""
    return isinstance(value, int) and not isinstance(value, bool)


def field_path(base: str, *parts: str | int) -> str:
    """Join a field path: ``field_path("bodies", 2, "cells", 3) == "bodies[2].cells[3]"``."""
    path = base
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path = f"{path}.{part}" if path else part
    return path
