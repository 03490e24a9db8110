"""``gridforge mines replay`` (gridforge.mines.commands): the event stream as JSON lines, the
same bytes in every process, and every bad input a clear refusal (exit 2)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest
from gridforge import cli
from gridforge.mines import replay

from .fixtures import b_fog
from .test_replay import GOLDEN_SHA256, SCRIPT


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
    assert first == replay.event_lines(replay.replay(b_fog().dumps(), json.dumps(SCRIPT)))
    assert all(json.loads(line)["type"] for line in first.splitlines())
    script_path.write_text('{"steps": [{"kind": "dig", "cell": [1, 3], "extra": 1}]}')
    assert cli.main(argv) == 2
    assert "steps[0].extra" in capsys.readouterr().err
    assert cli.main(["mines", "replay", "--board", str(tmp_path / "nope"), "--script",
                     str(script_path)]) == 2  # fmt: skip


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


def replay_cli(tmp_path, board: bytes | str, script: bytes | str, capsys) -> tuple[int, str]:
    board_path, script_path = tmp_path / "b.json", tmp_path / "s.json"
    for path, data in ((board_path, board), (script_path, script)):
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
    code = cli.main(["mines", "replay", "--board", str(board_path), "--script",
                     str(script_path)])  # fmt: skip
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.cpython_only
@pytest.mark.parametrize(
    ("board", "script", "said"),
    [
        ("[" * 100_000, "[]", "--board"),
        (b_fog().dumps(), "[" * 100_000, "nested deeper than 32"),
        (b_fog().dumps().encode("utf-8").replace(b"mines", b"m\xe9nes"), "[]", "not UTF-8"),
        ('{"format": "gridforge.mines.board/1", "cols": 7, "rows": 7, "spawn": [3, 3], '
         '"mines": [[1' + "0" * 5000 + ", 1]]}", "[]", "the limit is 30"),
        (b_fog().dumps(), '{"steps": [], "economy": {"dig_ap_cost": 1e999}}', "out of range"),
        (b_fog().dumps(), '{"steps": [{"kind": "dig", "cell": [1, 3]}], "start": "yes"}',
         "start: start is true or false"),
        (b_fog().dumps(), json.dumps({"steps": [{"kind": "stop"}] * (replay.MAX_SCRIPT_STEPS + 1)}),
         f"the limit is {replay.MAX_SCRIPT_STEPS}"),
    ],
)
def test_replay_command_refuses_bad_files_naming_flag_and_field(tmp_path, capsys, board,
                                                                  script, said):
    code, text = replay_cli(tmp_path, board, script, capsys)
    assert code == 2 and said in text and "Traceback" not in text
    assert len(text.splitlines()) <= 12


@pytest.mark.cpython_only
def test_replay_command_reports_a_board_the_engine_refuses_to_install(tmp_path, capsys):
    board = {"format": "gridforge.mines.board/1", "cols": 7, "rows": 7, "spawn": [3, 3],
             "mines": [[3, 3]]}  # fmt: skip
    code, text = replay_cli(tmp_path, json.dumps(board), "[]", capsys)
    assert code == 2
    assert text.splitlines() == [
        "gridforge: error: invalid mines board in --board " + str(tmp_path / "b.json") + ":",
        "  <root>: refused at install (inv1_mine_in_spawn): mine at [3, 3] in the spawn 3x3",
    ]


@pytest.mark.cpython_only
def test_replay_command_refuses_a_board_file_over_its_size_before_reading(tmp_path, capsys):
    from gridforge.mines.board import MAX_BOARD_BYTES

    board = '{"format": "gridforge.mines.board/1", "cols": 7, "rows": 7, "spawn": [3, 3], ' \
        '"mines": [' + ",".join(["[0, 0]"] * 2_000_000) + "]}"
    assert len(board) > MAX_BOARD_BYTES
    code, text = replay_cli(tmp_path, board, "[]", capsys)
    assert code == 2 and f"the limit is {MAX_BOARD_BYTES}" in text
    assert len(text.splitlines()) == 2
