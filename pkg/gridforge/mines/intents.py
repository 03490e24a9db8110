"""Player intents and action outcomes of the mines engine (seed 000, A2's closed API).

An :class:`Intent` is data: a kind from the closed list (``dig``, ``flag_place``,
``flag_pull``, ``move``, ``stop``) and a target cell (none for ``stop``). An intent is not
checked when built, so that out-of-catalog input (an unknown kind, a cell off the board)
reaches the engine and is refused there with ``sub_reason = out_of_catalog`` and a debug
diagnostic, as the seed's EC9 asks; :meth:`Intent.from_json` only checks the JSON shape.

An :class:`ActionOutcome` is the engine's answer to one intent: ``executed``, ``voided``
(the round had already ended within the batch: no effect at all) or ``rejected`` with one
of the reject sources and, for the board face only, a sub-reason from the closed list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from gridforge.errors import Issues, ValidationError, refusal
from gridforge.jsontypes import Json

INTENT_KINDS = ("dig", "flag_place", "flag_pull", "move", "stop")
OUTCOMES = ("executed", "voided", "rejected")
REJECT_REASONS = ("board_face", "resource_face", "phase", "board_invalid")
SUB_REASONS = (
    "not_adjacent",
    "target_revealed",
    "target_concealed",
    "flag_present",
    "flag_absent",
    "no_path",
    "out_of_catalog",
)

__all__ = [
    "EXECUTED",
    "INTENT_KINDS",
    "OUTCOMES",
    "REJECT_REASONS",
    "SUB_REASONS",
    "VOIDED",
    "ActionOutcome",
    "Intent",
    "IntentJson",
    "OutcomeJson",
]


class IntentJson(TypedDict):
    """An intent as JSON: ``{"kind": "dig", "cell": [x, y]}`` (no ``cell`` for a stop)."""

    kind: str
    cell: NotRequired[Json]


class OutcomeJson(TypedDict):
    """An action outcome as JSON (:meth:`ActionOutcome.to_json`)."""

    accepted: bool
    outcome: str
    reject_reason: str | None
    sub_reason: str | None


@dataclass(frozen=True, slots=True)
class Intent:
    """One player intent: ``Intent("dig", (3, 4))``, ``Intent("stop")``."""

    kind: str
    # Unchecked (see the module docstring): a cell (x, y), or whatever the JSON gave.
    cell: tuple[Json, ...] | Json = None

    def to_json(self) -> IntentJson:
        out: IntentJson = {"kind": self.kind}
        if self.cell is not None:
            out["cell"] = list(self.cell) if isinstance(self.cell, tuple) else self.cell
        return out

    @classmethod
    def from_json(cls, data: object, path: str = "intent") -> Intent:
        """Read ``{"kind": "dig", "cell": [x, y]}``; the shape is checked, the catalog is not.

        :raises ValidationError: when ``data`` is not an object with a string ``kind``.
        """
        if not isinstance(data, Mapping):
            raise refusal("intent", path, "type", "an intent is an object")
        issues = Issues()
        kind = data.get("kind")
        if not isinstance(kind, str):
            issues.add(f"{path}.kind", "type", f"kind must be a string, got {kind!r}")
        for key in data:
            if key not in ("kind", "cell"):
                issues.add(f"{path}.{key}", "unknown_field", f"unknown field {key!r}")
        if issues:
            raise ValidationError(issues, "intent")
        cell = data.get("cell")
        return cls(str(kind), tuple(cell) if isinstance(cell, list) else cell)


@dataclass(frozen=True, slots=True)
class ActionOutcome:
    """The answer to one intent (see the module docstring)."""

    accepted: bool
    outcome: str
    reject_reason: str | None = None
    sub_reason: str | None = None

    @classmethod
    def rejected(cls, reason: str, sub_reason: str | None = None) -> ActionOutcome:
        return cls(False, "rejected", reason, sub_reason)

    def to_json(self) -> OutcomeJson:
        return {"accepted": self.accepted, "outcome": self.outcome,  # the declared order
                "reject_reason": self.reject_reason, "sub_reason": self.sub_reason}


EXECUTED = ActionOutcome(True, "executed")
VOIDED = ActionOutcome(False, "voided")
