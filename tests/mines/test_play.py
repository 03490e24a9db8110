"""JSON play of the mines engine (gridforge.mines.play): sessions, and the headless replay
whose bytes are pinned."""

from __future__ import annotations

import hashlib
import json

import pytest
from gridforge.errors import GridforgeError, ValidationError
from gridforge.mines import play

from .fixtures import B_SPAWN_R0_SIZE, b_chain, b_fog, b_spawn


# ------------------------------------------------------------------- play API
def call(name: str, *args: object) -> dict:
    """A session call as JSON in, JSON out (the single-board sessions are a tool's API,
    not the page's, so they are called directly rather than through the bridge)."""
    try:
        value = getattr(play, name)(*json.loads(json.dumps(list(args))))
    except GridforgeError as exc:
        error = {"message": str(exc)}
        if isinstance(exc, ValidationError):
            error["issues"] = exc.to_json()["issues"]
        return {"ok": False, "error": error}
    return {"ok": True, "value": json.loads(json.dumps(value))}


def test_play_session_through_the_bridge() -> None:
    board = b_spawn().to_json()
    opened = call("new_session", board)
    assert opened["ok"], opened
    value = opened["value"]
    sid = value["session"]
    assert len(value["events"]) == B_SPAWN_R0_SIZE and value["state"]["phase"] == "active"
    grid = value["state"]["board"]["grid"]
    assert grid[0][0] is None and grid[3][3] == 0 and grid[0][2] == 2  # concealed stays None
    moved = call("act", sid, [{"kind": "move", "cell": [2, 3]}, {"kind": "dig", "cell": [1, 3]}])
    assert moved["ok"]
    assert [o["outcome"] for o in moved["value"]["outcomes"]] == ["executed", "executed"]
    assert moved["value"]["events"][0]["cell"] == [1, 3]
    assert call("move_path", sid, [3, 3])["value"] == [[2, 3], [3, 3]]
    stopped = call("act", sid, [{"kind": "stop"}])["value"]
    assert stopped["events"][-1]["path_tag"] == "stopped"
    assert call("call", sid, "settlement_done", None, "same_board")["value"]["accepted"]
    assert call("call", sid, "round_start")["value"]["state"]["ap"] == 8
    assert call("state", sid)["value"]["round"] == 2
    assert call("close_session", sid)["value"] is True
    assert not call("state", sid)["ok"]


def test_play_bad_input_names_the_field() -> None:
    bad = call("new_session", {"format": "gridforge.mines.board/1", "cols": 7, "rows": 7,
                               "spawn": [3, 3], "mines": [[1, 0], [8, 1]]})  # fmt: skip
    assert not bad["ok"] and bad["error"]["issues"][0]["path"] == "mines[1]"
    sid = call("new_session", b_spawn().to_json(), {"dig_ap_cost": 2})["value"]["session"]
    reply = call("act", sid, [{"kind": "dig", "cell": [1, 3]}, {"cell": [1, 3]}])
    assert not reply["ok"] and reply["error"]["issues"][0]["path"] == "intents[1].kind"
    assert call("state", sid)["value"]["ap"] == 8  # nothing half-applied
    assert not call("call", sid, "teleport")["ok"]
    assert not call("new_session", b_spawn().to_json(), {"dig_ap_cost": 0})["ok"]


def test_play_sessions_are_bounded() -> None:
    ids = [play.new_session(b_spawn().to_json())["session"] for _ in range(play.MAX_SESSIONS + 2)]
    with pytest.raises(GridforgeError):
        play.state(ids[0])
    assert play.state(ids[-1])["phase"] == "active"


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
    events = play.replay(b_spawn().to_json(), SCRIPT)
    types = [e["type"] for e in events]
    assert types.count("round_end") == 2 and types[-1] == "cell_revealed"
    assert {"type": "flag_judged", "cell": [1, 4], "hit": True} in events
    with_outcomes = play.replay(b_spawn().to_json(), SCRIPT, outcomes=True)
    records = {e["step"]: e for e in with_outcomes if "step" in e}
    assert records["install"]["outcomes"][0]["outcome"] == "executed"
    assert records[2]["outcomes"][0]["outcome"] == "voided"
    assert [e for e in with_outcomes if "step" not in e] == events


def test_replay_validates_the_whole_script_first() -> None:
    bad = {"steps": [{"kind": 3}, {"batch": "x"}, {"call": "nap"}, 7,
                     {"call": "install", "board": {"cols": 2}}], "economy": {"x": 1}}  # fmt: skip
    with pytest.raises(ValidationError) as info:
        play.replay(b_spawn().to_json(), bad)
    paths = [i.path for i in info.value.issues]
    assert paths[0] == "action_economy.x"
    for expected in ["steps[0].kind", "steps[1].batch", "steps[2].call", "steps[3]",
                     "steps[4].board.cols"]:  # fmt: skip
        assert any(p.startswith(expected) for p in paths), (expected, paths)
    with pytest.raises(ValidationError):
        play.replay(b_spawn().to_json(), "{not json")


# The bytes of one replay, pinned: the same on every run, process and platform (CPython,
# Pyodide). A deliberate change of the event stream updates this digest.
GOLDEN_SHA256 = "ada65cf86654bcedf0e4e7bebae9b65afb4f41af01e22494ab11cae624803788"


def test_replay_golden_bytes() -> None:
    text = play.event_lines(play.replay(b_fog().to_json(), SCRIPT, outcomes=True))
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == GOLDEN_SHA256


def test_replay_refuses_a_board_the_engine_will_not_install_and_emits_nothing():
    board = {"format": "gridforge.mines.board/1", "cols": 7, "rows": 7, "spawn": [3, 3],
             "mines": [[3, 3]]}  # fmt: skip
    with pytest.raises(ValidationError) as info:
        play.replay(board, [])
    (issue,) = info.value.issues
    assert issue.code == "inv1_mine_in_spawn"
    # Without a round start the script itself installs it, and sees the refusal.
    events = play.replay(board, {"start": False, "steps": [{"call": "install"}]}, outcomes=True)
    assert events == [{"step": 0, "accepted": False}]


def test_scripts_are_bounded_in_steps_and_intents():
    stop = {"kind": "stop"}
    with pytest.raises(ValidationError) as info:
        play.parse_script([stop] * (play.MAX_SCRIPT_STEPS + 1))
    assert info.value.issues[0].path == "steps" and info.value.issues[0].code == "too_many"
    per_batch = play.MAX_SCRIPT_INTENTS // 10 + 1
    with pytest.raises(ValidationError) as info:
        play.parse_script([{"batch": [stop] * per_batch}] * 10)
    assert info.value.issues[0].code == "too_many"
    assert len(play.parse_script([{"batch": [stop] * 10}] * 10).steps) == 10
