"""The telemetry format gridforge.snakes.telemetry/1 (issue 24): valid attempts load, bad
ones are refused with field paths, never a traceback."""

import json
from typing import Any

import pytest
from gridforge.errors import ValidationError, parse_json
from gridforge.snakes.player.telemetry import (
    ATTEMPT_KEYS,
    FORMAT,
    MAX_ATTEMPTS,
    repositioning_runs,
    validate_attempt,
    validate_telemetry,
)
from hypothesis import given
from hypothesis import strategies as st


def attempt(**changes: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "level_sha256": "ab" * 32, "kind": "mainline", "level": 12, "player": "device-1",
        "seq": 3, "outcome": "won", "first_step_ms": 2100, "duration_ms": 30500,
        "steps": 24, "best_known": 20, "restarts": 1, "undos": 2, "hints": 1,
        "repositioning_runs": 3, "drags": 9, "think_ms": 18000, "drag_ms": 6000,
        "dead_ends": None}
    out.update(changes)
    return out


def export(*attempts: Any) -> dict[str, Any]:
    return {"format": FORMAT, "source": "device", "attempts": list(attempts)}


def test_a_valid_export_loads_whole() -> None:
    data = validate_telemetry(export(attempt(), attempt(kind="draft", level=None,
                                                       outcome="abandoned", best_known=None)))
    assert len(data["attempts"]) == 2
    assert list(data["attempts"][0]) == list(ATTEMPT_KEYS)


@pytest.mark.parametrize(("changes", "path"), [
    ({"undos": -1}, "attempts[1].undos"),
    ({"undos": True}, "attempts[1].undos"),
    ({"level_sha256": "AB" * 32}, "attempts[1].level_sha256"),
    ({"kind": "mainline", "level": None}, "attempts[1].level"),
    ({"kind": "draft"}, "attempts[1].level"),
    ({"outcome": "lost"}, "attempts[1].outcome"),
    ({"first_step_ms": 40000}, "attempts[1].first_step_ms"),
    ({"steps": 0}, "attempts[1].first_step_ms"),
    ({"think_ms": 30000}, "attempts[1].think_ms"),
    ({"player": ""}, "attempts[1].player"),
    ({"colour": 1}, "attempts[1].colour"),
    ({"drags": 100}, "attempts[1].drags"),
])
def test_bad_fields_are_named_by_path(changes: dict[str, Any], path: str) -> None:
    with pytest.raises(ValidationError) as exc:
        validate_telemetry(export(attempt(), attempt(**changes)))
    assert path in {i.path for i in exc.value.issues}


def test_bad_top_level() -> None:
    with pytest.raises(ValidationError) as exc:
        validate_telemetry({"format": "x", "source": "cloud", "attempts": {}, "extra": 1})
    assert {i.path for i in exc.value.issues} == {"format", "source", "attempts", "extra"}
    with pytest.raises(ValidationError, match="at most"):
        validate_telemetry(export(*[attempt()] * (MAX_ATTEMPTS + 1)))
    missing = attempt()
    del missing["hints"]
    with pytest.raises(ValidationError, match=r"attempts\[0\].hints: missing"):
        validate_telemetry(export(missing))


_json = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**9) | st.text(max_size=8)
                     | st.floats(allow_nan=False, allow_infinity=False),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


@given(st.sampled_from(ATTEMPT_KEYS), _json)
def test_any_field_value_is_judged_never_a_crash(key: str, value: Any) -> None:
    raw = attempt(**{key: value})
    found, issues = validate_attempt(raw, "attempts[0]")
    assert (found is None) == bool(issues)
    assert all(i.path.startswith("attempts[0]") for i in issues)
    # what is valid survives a JSON round trip through the project's bounded reader
    if found is not None:
        text = json.dumps(export(found))
        assert validate_telemetry(parse_json(text, "t"))["attempts"][0] == found


@given(_json)
def test_any_document_is_judged_never_a_crash(data: Any) -> None:
    try:
        validate_telemetry(data)
    except ValidationError as exc:
        assert exc.issues


def test_repositioning_runs() -> None:
    # body 0 moves twice and exits (no run), body 1 moves, body 2 moves, body 1 exits
    assert repositioning_runs([0, 0, 1, 2, 1], [False, True, False, False, True]) == 2
    assert repositioning_runs([], []) == 0
    assert repositioning_runs([3, 3], [False, False]) == 1
