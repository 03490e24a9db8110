"""Tests of gridforge.mines.engine beyond the acceptance criteria, and of its JSON faces
(gridforge.mines.play through the api bridge, the ``gridforge mines replay`` command)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest
from gridforge import cli
from gridforge.errors import GridforgeError, ValidationError
from gridforge.mines import play
from gridforge.mines.engine import check_install_invariants
from gridforge.mines.intents import Intent
from gridforge.mines.ledger import Economy

from .fixtures import B_SPAWN_DIG_ALL, B_SPAWN_R0_SIZE, Harness, b_chain, b_fog, b_spawn


@pytest.mark.parametrize(
    "intent",
    [
        Intent("chord", (2, 3)),
        Intent("dig", (7, 0)),
        Intent("dig", "x"),
        Intent("dig", (1.0, 3)),
        Intent("dig", (True, 3)),
        Intent("dig"),
        Intent("stop", (1, 1)),
        {"kind": "dig", "cell": (1, 3)},
    ],
)
def test_engine_out_of_catalog_rejected_with_debug_note(intent) -> None:
    h = Harness.active(b_spawn())
    state, mark = h.observables(), len(h.stream)
    (out,) = h.engine.settle_batch([intent])
    assert (out.reject_reason, out.sub_reason) == ("board_face", "out_of_catalog")
    assert [(d["level"], d["category"]) for d in h.engine.diagnostics] == [
        ("debug", "out_of_catalog")
    ]
    assert h.observables() == state and len(h.stream) == mark


def test_engine_phase_comes_before_catalog() -> None:
    h = Harness()
    h.engine.install_board(b_spawn())
    (out,) = h.engine.settle_batch([Intent("chord", (-5, 99))])
    assert out.reject_reason == "phase" and h.engine.diagnostics == []


def test_engine_cells_as_lists_are_accepted() -> None:
    h = Harness.active(b_spawn())
    assert h.engine.try_move([2, 3]).outcome == "executed"
    assert h.engine.try_dig([1, 3]).outcome == "executed"


def test_engine_bad_argument_types_raise_clear_errors() -> None:
    h = Harness()
    with pytest.raises(GridforgeError):
        h.engine.install_board({"cols": 7})  # type: ignore[arg-type]
    with pytest.raises(GridforgeError):
        h.engine.settle_batch(Intent("stop"))  # type: ignore[arg-type]
    assert h.engine.settle_batch([]) == []


def test_engine_flag_batch_voided_by_stop_leaves_no_ghost_flag() -> None:
    # EC13: the flag action is C_other, the stop wins, the flag is never placed or judged.
    h = Harness.active(b_spawn())
    h.engine.try_move((2, 3))
    mark = len(h.stream)
    outs = h.engine.settle_batch([Intent("flag_place", (1, 2)), Intent("stop")])
    assert [o.outcome for o in outs] == ["voided", "executed"]
    assert h.engine.flags == () and h.types(h.stream[mark:]) == ["round_end"]


def test_engine_rejected_before_winner_stays_rejected() -> None:
    h = Harness.active(b_spawn())
    outs = h.engine.settle_batch([Intent("dig", (0, 0)), Intent("move", (2, 3)), Intent("stop")])
    # Semantic order: stop first, then the two C_other intents are voided.
    assert [o.outcome for o in outs] == ["voided", "voided", "executed"]
    h = Harness.active(b_spawn())
    outs = h.engine.settle_batch([Intent("dig", (0, 0)), Intent("move", (2, 3))])
    assert [(o.outcome, o.sub_reason) for o in outs] == [("rejected", "not_adjacent"),
                                                         ("executed", None)]  # fmt: skip


def test_engine_c_other_keeps_arrival_order() -> None:
    h = Harness.active(b_spawn())
    outs = h.engine.settle_batch([Intent("move", (2, 3)), Intent("dig", (1, 3))])
    assert [o.outcome for o in outs] == ["executed", "executed"]
    h = Harness.active(b_spawn())
    outs = h.engine.settle_batch([Intent("dig", (1, 3)), Intent("move", (2, 3))])
    assert [(o.outcome, o.sub_reason) for o in outs] == [("rejected", "not_adjacent"),
                                                         ("executed", None)]  # fmt: skip


def test_engine_unaffordable_clearing_dig_is_not_c_dig() -> None:
    # A dig is C_dig only if it would execute and clear: with 1 AP left and a dig price of
    # 2 the last-cell dig cannot execute, so the stop goes first and the dig is voided.
    economy = Economy(ap_per_round=9, dig_ap_cost=2)
    h = Harness.active(b_spawn(), economy)
    h.walk(B_SPAWN_DIG_ALL[:4])
    h.stop()
    h.next_round()
    h.walk(B_SPAWN_DIG_ALL[4:7])
    h.engine.try_flag_place((1, 5))
    h.engine.try_flag_place((1, 4))
    assert (h.ledger.ap, h.engine.remaining_safe) == (1, 1)
    outs = h.engine.settle_batch([Intent("dig", B_SPAWN_DIG_ALL[7][1]), Intent("stop")])
    assert [o.outcome for o in outs] == ["voided", "executed"]


def test_engine_refresh_installs_a_new_board_mid_round() -> None:
    h = Harness.active(b_spawn(), Economy(rap_refresh_cost=3))
    h.engine.try_move((2, 3))
    h.engine.try_flag_place((1, 2))
    h.stop()  # banks 7 RAP
    h.next_round()
    ap = h.ledger.ap
    assert h.engine.install_board(b_chain()).reject_reason == "phase"  # not paid for
    assert h.ledger.request_refresh() and h.ledger.rap == 4
    invalid = b_fog(extra_fog=((3, 2),))
    assert h.engine.install_board(invalid).reject_reason == "board_invalid"
    assert h.ledger.refresh_granted  # a refused board does not use the refresh up
    mark = len(h.stream)
    assert h.engine.install_board(b_chain()).accepted
    assert not h.ledger.refresh_granted and h.ledger.ap == ap and h.ledger.phase == "active"
    assert h.engine.flags == () and h.engine.avatar == (3, 2)
    assert len(h.stream[mark:]) == 28


def test_engine_move_path_is_a_bfs_over_opened_cells() -> None:
    h = Harness.active(b_spawn())
    path = h.engine.compute_move_path((6, 6))
    assert path[0] == (3, 3) and path[-1] == (6, 6) and len(path) == 4  # 3 diagonal steps
    assert h.engine.compute_move_path((0, 0)) == []  # concealed
    assert h.engine.compute_move_path((9, 9)) == []  # off the board
    assert h.engine.compute_move_path((3, 3)) == [(3, 3)]
    assert Harness().engine.compute_move_path((1, 1)) == []  # no board


def test_engine_dug_mine_never_counts_toward_clearing() -> None:
    h = Harness.active(b_spawn())
    h.engine.try_move((2, 2))
    rem = h.engine.remaining_safe
    h.engine.try_dig((1, 2))
    assert h.engine.remaining_safe == rem and h.engine.is_open((1, 2))
    assert h.engine.try_dig((1, 2)).sub_reason == "target_revealed"
    assert h.engine.try_flag_place((1, 2)).sub_reason == "target_revealed"


def test_check_install_invariants_passes_good_boards() -> None:
    assert check_install_invariants(b_spawn()) is None
    assert check_install_invariants(b_fog()) is None


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


@pytest.mark.cpython_only
def test_replay_command_prints_identical_bytes(tmp_path, capsys) -> None:
    board_path = tmp_path / "b.json"
    script_path = tmp_path / "s.json"
    board_path.write_text(b_fog().dumps())
    script_path.write_text(json.dumps(SCRIPT))
    argv = ["mines", "replay", "--board", str(board_path), "--script", str(script_path)]
    assert cli.main(argv) == 0
    first = capsys.readouterr().out
    assert cli.main(argv) == 0
    assert capsys.readouterr().out == first
    assert first == play.event_lines(play.replay(b_fog().dumps(), json.dumps(SCRIPT)))
    assert all(json.loads(line)["type"] for line in first.splitlines())
    script_path.write_text('{"steps": [{"kind": "dig", "cell": [1, 3], "extra": 1}]}')
    assert cli.main(argv) == 2
    assert "steps[0].extra" in capsys.readouterr().err
    assert cli.main(["mines", "replay", "--board", str(tmp_path / "nope"), "--script",
                     str(script_path)]) == 2  # fmt: skip


def test_engine_rejected_install_keeps_the_previous_board() -> None:
    h = Harness.active(b_spawn())
    h.engine.try_move((2, 3))
    h.engine.try_dig((1, 3))
    h.engine.try_flag_place((1, 2))
    h.stop()
    state, board, mark = h.observables(), h.engine.board, len(h.stream)
    for bad in (b_fog(extra_fog=((5, 1),)), b_fog(extra_fog=((3, 2),))):
        assert h.engine.install_board(bad).reject_reason == "board_invalid"
    assert h.observables() == state and h.engine.board is board and len(h.stream) == mark


# The bytes of one replay, pinned: the same on every run, process and platform (CPython,
# Pyodide). A deliberate change of the event stream updates this digest.
GOLDEN_SHA256 = "ada65cf86654bcedf0e4e7bebae9b65afb4f41af01e22494ab11cae624803788"


def test_replay_golden_bytes() -> None:
    text = play.event_lines(play.replay(b_fog().to_json(), SCRIPT, outcomes=True))
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == GOLDEN_SHA256


@pytest.mark.cpython_only
def test_replay_command_same_bytes_across_hash_seeds(tmp_path) -> None:
    board_path, script_path = tmp_path / "b.json", tmp_path / "s.json"
    board_path.write_text(b_fog().dumps())
    script_path.write_text(json.dumps(SCRIPT))
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-m", "gridforge", "mines", "replay", "--board", str(board_path),
             "--script", str(script_path), "--outcomes"],
            capture_output=True, env=env, check=True,
        )  # fmt: skip
        outputs.add(done.stdout)
    (only,) = outputs
    assert hashlib.sha256(only).hexdigest() == GOLDEN_SHA256
