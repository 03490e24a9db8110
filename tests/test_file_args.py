"""Every file a command reads, through the one reader (:func:`gridforge.errors.read_json`):
a file argument that is not a regular file (a pipe with no writer, a device, a socket, a
folder) is refused at once with a message naming it (exit 2, never a hang); a lone surrogate
(``"\\ud800"``) in any string of any file is refused with its field path (exit 2, never a
traceback, never exit 1, which means "not solvable")."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from gridforge.cli import main
from gridforge.mines.gen_table import preset
from gridforge.snakes.game.level import spec_example

from tests.mines.fixtures import b_fog
from tests.mines.test_replay import SCRIPT

pytestmark = pytest.mark.cpython_only  # pipes, sockets, subprocesses

# A hang is a failure, not a stuck suite: a refused pipe answers in well under this.
GUARD_SECONDS = 60


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One valid file of each kind a command reads."""
    folder = tmp_path_factory.mktemp("good")
    (folder / "board.json").write_text(b_fog().dumps())
    (folder / "script.json").write_text(json.dumps(SCRIPT))
    (folder / "table.json").write_text(json.dumps(preset("beginner").to_json()))
    (folder / "level.json").write_text(json.dumps(spec_example()))
    (folder / "spec.json").write_text(json.dumps({"target": 10, "count": 1}))
    assert main(["design-levels", "--target", "10", "--count", "1", "--seed", "1", "--quiet",
                 "--out", str(folder / "batch.json")]) == 0
    assert main(["synthetic-play", "--levels", "12-17", "--players", "2", "--quiet",
                 "--out", str(folder / "telemetry.json")]) == 0
    assert main(["calibrate", str(folder / "telemetry.json"),
                 "--out", str(folder / "weights.json")]) == 0
    return folder


# Each file argument of each command: the argv with ``bad`` in that place, the rest valid.
Argv = Callable[[str, Path], list[str]]
LOADERS: dict[str, Argv] = {
    "mines replay --board": lambda bad, g: ["mines", "replay", "--board", bad,
                                            "--script", str(g / "script.json")],
    "mines replay --script": lambda bad, g: ["mines", "replay", "--board", str(g / "board.json"),
                                             "--script", bad],
    "mines generate --table": lambda bad, g: ["mines", "generate", "--table", bad, "--quiet"],
    "mines solve": lambda bad, g: ["mines", "solve", bad],
    "design-levels --verify": lambda bad, g: ["design-levels", "--verify", bad, "--quiet",
                                              "--out", str(g.parent / "out.json")],
    "design-levels --spec": lambda bad, g: ["design-levels", "--spec", bad, "--quiet",
                                            "--out", str(g.parent / "out.json")],
    "design-levels --weights": lambda bad, g: ["design-levels", "--verify",
                                               str(g / "level.json"), "--weights", bad,
                                               "--quiet", "--out", str(g.parent / "out.json")],
    "synthetic-play --batch": lambda bad, g: ["synthetic-play", "--batch", bad, "--quiet",
                                              "--out", str(g.parent / "out.json")],
    "calibrate TELEMETRY": lambda bad, g: ["calibrate", bad, "--out", str(g.parent / "out.json")],
    "calibrate --levels": lambda bad, g: ["calibrate", str(g / "telemetry.json"), "--levels", bad,
                                          "--out", str(g.parent / "out.json")],
}
# The valid file each loader reads in the place under test.
GOOD_FILE = {"mines replay --board": "board.json", "mines replay --script": "script.json",
             "mines generate --table": "table.json", "mines solve": "board.json",
             "design-levels --verify": "batch.json", "design-levels --spec": "spec.json",
             "design-levels --weights": "weights.json", "synthetic-play --batch": "batch.json",
             "calibrate TELEMETRY": "telemetry.json", "calibrate --levels": "batch.json"}


def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gridforge", *argv], capture_output=True,
                          text=True, timeout=GUARD_SECONDS, check=False)


@pytest.mark.parametrize("loader", LOADERS)
def test_a_pipe_with_no_writer_is_refused_at_once(loader, good, tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    done = run(LOADERS[loader](str(fifo), good))
    assert done.returncode == 2, done.stderr
    assert f"cannot read {fifo}: it is a pipe (FIFO), not a regular file" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("kind", ["device", "socket", "folder"])
def test_a_device_a_socket_or_a_folder_is_refused_by_name(kind, good, tmp_path, capsys):
    if kind == "device":
        path, words = "/dev/zero", "a character device"
    elif kind == "folder":
        path, words = str(tmp_path), "a folder"
    else:
        path, words = str(tmp_path / "s.sock"), "a socket"
        server = socket.socket(socket.AF_UNIX)
        server.bind(path)
    for loader, argv in LOADERS.items():
        assert main(argv(path, good)) == 2, loader
        assert f"cannot read {path}: it is {words}, not a regular file" in capsys.readouterr().err


def with_surrogate(data: object) -> tuple[object, str]:
    """``data`` with a lone surrogate in its first string value found (depth first), and
    that value's field path."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, str):
                return {**data, key: value + "\ud800"}, key
            if isinstance(value, dict | list):
                changed, path = with_surrogate(value)
                if path:
                    return {**data, key: changed}, f"{key}.{path}" if not path.startswith("[") \
                        else f"{key}{path}"
    if isinstance(data, list):
        for i, value in enumerate(data):
            changed, path = with_surrogate(value)
            if path or isinstance(value, str):
                out = list(data)
                out[i] = changed
                return out, f"[{i}]" + (f".{path}" if path and not path.startswith("[") else path)
    if isinstance(data, str):
        return data + "\ud800", ""
    return data, ""


@pytest.mark.parametrize("loader", LOADERS)
def test_a_lone_surrogate_in_any_file_is_refused_with_its_field_path(loader, good, tmp_path,
                                                                     capsys):
    data = json.loads((good / GOOD_FILE[loader]).read_text("utf-8"))
    spoiled, path = with_surrogate(data)
    if not path:  # a file of numbers only: a key gets it instead
        spoiled, path = {**spoiled, "\ud800": 1}, "\\ud800"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(spoiled), encoding="utf-8")  # ensure_ascii: written "\ud800"
    assert main(LOADERS[loader](str(bad), good)) == 2
    err = capsys.readouterr().err
    assert f"  {path}: a " in err and "lone surrogate" in err, err


def test_an_unforeseen_error_is_one_line_and_exit_3_never_1(monkeypatch, capsys, good):
    from gridforge.mines import generate_commands

    def broken(*_args: object, **_kwargs: object) -> object:
        raise KeyError("a bug")

    monkeypatch.setattr(generate_commands, "generate_many", broken)
    assert main(["mines", "generate", "--quiet"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("gridforge: internal error (KeyError") and len(err.splitlines()) == 1


def test_a_lone_surrogate_in_a_page_call_is_refused_with_its_path_not_an_internal_error(good):
    from gridforge import api

    weights = json.loads((good / "weights.json").read_text())
    weights["source"] = "\ud800"
    answer = json.loads(api.dispatch("gridforge.snakes.page.predict_difficulty",
                                     json.dumps([weights, None])))
    assert answer["error"]["type"] == "ValidationError"
    assert answer["error"]["issues"][0]["path"] == "[0].source"
