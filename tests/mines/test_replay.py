"""The headless replay of the mines engine (gridforge.mines.replay), whose bytes are pinned."""

from __future__ import annotations

import hashlib

import pytest
from gridforge.errors import ValidationError
from gridforge.mines import replay

from .fixtures import b_chain, b_fog, b_spawn

# --------------------------------------------------------------------- replay
SCRIPT = {
    "format": "gridforge.mines.script/1",
    "steps": [
        {"kind": "move", "cell": [2, 3]},
        {"kind": "dig", "cell": [1, 3]},
        {"batch": [{"kind": "flag_place", "cell": [1, 2]}, {"kind": "stop"}]},
        {"call": "settlement_done", "hint": "same_board"},
        {"call": "round_start"},
        {"kind": "flag_place", "cell": [1, 4]},
        {"kind": "stop"},
        {"call": "retire"},
        {"call": "install", "board": b_chain().to_json()},
    ],
}


def test_replay_stream_and_outcomes() -> None:
    events = replay.replay(b_spawn().to_json(), SCRIPT)
    types = [e["type"] for e in events]
    assert types.count("round_end") == 2 and types[-1] == "cell_revealed"
    assert {"type": "flag_judged", "cell": [1, 4], "hit": True} in events
    with_outcomes = replay.replay(b_spawn().to_json(), SCRIPT, outcomes=True)
    records = {e["step"]: e for e in with_outcomes if "step" in e}
    assert records["install"]["outcomes"][0]["outcome"] == "executed"
    assert records[2]["outcomes"][0]["outcome"] == "voided"
    assert [e for e in with_outcomes if "step" not in e] == events


def test_replay_validates_the_whole_script_first() -> None:
    bad = {"steps": [{"kind": 3}, {"batch": "x"}, {"call": "nap"}, 7,
                     {"call": "install", "board": {"cols": 2}}], "economy": {"x": 1}}  # fmt: skip
    with pytest.raises(ValidationError) as info:
        replay.replay(b_spawn().to_json(), bad)
    paths = [i.path for i in info.value.issues]
    assert paths[0] == "action_economy.x"
    for expected in ["steps[0].kind", "steps[1].batch", "steps[2].call", "steps[3]",
                     "steps[4].board.cols"]:  # fmt: skip
        assert any(p.startswith(expected) for p in paths), (expected, paths)
    with pytest.raises(ValidationError):
        replay.replay(b_spawn().to_json(), "{not json")


# The bytes of one replay, pinned: the same on every run, process and platform (CPython,
# Pyodide). A deliberate change of the event stream updates this digest.
GOLDEN_SHA256 = "ada65cf86654bcedf0e4e7bebae9b65afb4f41af01e22494ab11cae624803788"


def test_replay_golden_bytes() -> None:
    text = replay.event_lines(replay.replay(b_fog().to_json(), SCRIPT, outcomes=True))
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == GOLDEN_SHA256


def test_replay_refuses_a_board_the_engine_will_not_install_and_emits_nothing():
    board = {"format": "gridforge.mines.board/1", "cols": 7, "rows": 7, "spawn": [3, 3],
             "mines": [[3, 3]]}  # fmt: skip
    with pytest.raises(ValidationError) as info:
        replay.replay(board, [])
    (issue,) = info.value.issues
    assert issue.code == "inv1_mine_in_spawn"
    # Without a round start the script itself installs it, and sees the refusal.
    events = replay.replay(board, {"start": False, "steps": [{"call": "install"}]}, outcomes=True)
    assert events == [{"step": 0, "accepted": False}]


def test_scripts_are_bounded_in_steps_and_intents():
    stop = {"kind": "stop"}
    with pytest.raises(ValidationError) as info:
        replay.parse_script([stop] * (replay.MAX_SCRIPT_STEPS + 1))
    assert info.value.issues[0].path == "steps" and info.value.issues[0].code == "too_many"
    per_batch = replay.MAX_SCRIPT_INTENTS // 10 + 1
    with pytest.raises(ValidationError) as info:
        replay.parse_script([{"batch": [stop] * per_batch}] * 10)
    assert info.value.issues[0].code == "too_many"
    assert len(replay.parse_script([{"batch": [stop] * 10}] * 10).steps) == 10
