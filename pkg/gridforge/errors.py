"""The project's own errors: every refusal of bad input is one of these, never a traceback.

An :class:`Issue` names one problem of an input with a field path (``bodies[2].cells[3]``)
and a short code; a :class:`ValidationError` carries every issue a validator found in one
pass, so a user sees all that is wrong with a file at once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


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
        self.issues: list[Issue] = list(issues)
        if not self.issues:
            raise ValueError("ValidationError needs at least one issue")
        self.what = what
        lines = "; ".join(str(issue) for issue in self.issues[:10])
        more = f" (+{len(self.issues) - 10} more)" if len(self.issues) > 10 else ""
        super().__init__(f"invalid {what}: {lines}{more}")

    def to_json(self) -> dict[str, object]:
        return {"what": self.what, "issues": [issue.to_json() for issue in self.issues]}


def parse_json(text: str | bytes, what: str) -> Any:
    """Parse JSON text; malformed text is a ValidationError of ``what``, never a traceback."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValidationError([Issue("", "json", f"not valid JSON: {exc}")], what) from None


def is_int(value: object) -> bool:
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
