"""Every ``--out`` of every command goes through the one writer (:mod:`gridforge.files`):
on a full disk, killed mid-write (SIGKILL) or given a symbolic link as its target, the old
file stays as it was, no temporary file is left beside it, and a link's target is never
written through (the link itself is replaced).

``generate-levels --out DIR`` writes its blocks with the same writer; it is not run here (the
main-line generator is too long for a unit test: tests/snakes/test_mainline.py covers its
folder).
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from gridforge.cli import main
from gridforge.files import write_text

pytestmark = pytest.mark.cpython_only  # a patched os, subprocesses, symbolic links

OLD = "the old file, kept whole\n"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A batch (for --verify) and a telemetry export (for calibrate), made once."""
    folder = tmp_path_factory.mktemp("inputs")
    assert main(["design-levels", "--target", "10", "--count", "1", "--seed", "1",
                 "--out", str(folder / "batch.json"), "--quiet"]) == 0
    assert main(["synthetic-play", "--levels", "12-17", "--players", "2",
                 "--out", str(folder / "telemetry.json"), "--quiet"]) == 0
    return folder


# Each command with an --out, as the argv that writes ``out``, and its exit code when done.
COMMANDS: dict[str, tuple[Callable[[Path, Path], list[str]], int]] = {
    "mines generate": (lambda out, _: ["mines", "generate", "--count", "3", "--quiet",
                                       "--out", str(out)], 0),
    "design-levels": (lambda out, _: ["design-levels", "--target", "10", "--count", "1",
                                      "--seed", "2", "--quiet", "--out", str(out)], 0),
    "design-levels --verify": (lambda out, src: ["design-levels", "--verify",
                                                 str(src / "batch.json"), "--quiet",
                                                 "--out", str(out)], 0),
    "synthetic-play": (lambda out, _: ["synthetic-play", "--levels", "12-12", "--players", "1",
                                       "--quiet", "--out", str(out)], 0),
    "calibrate": (lambda out, src: ["calibrate", str(src / "telemetry.json"),
                                    "--out", str(out)], 0),
}


def entries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def enospc(*_args: object) -> int:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.fixture
def target(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "result.json").write_text(OLD)
    return folder / "result.json"


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("where", ["write", "fsync"])
def test_a_full_disk_keeps_the_old_file_and_leaves_nothing(
        command, where, target, inputs, monkeypatch, capsys):
    argv, _ = COMMANDS[command]
    real_write = os.write
    calls: list[int] = []

    def fills_up(fd: int, data: bytes) -> int:  # a disk that fills half way through
        calls.append(fd)
        if len(calls) > 1 or (where == "write" and len(data) < 2):
            enospc()
        return real_write(fd, bytes(data[:max(1, len(data) // 2)]))

    monkeypatch.setattr(os, "write", fills_up) if where == "write" else \
        monkeypatch.setattr(os, "fsync", enospc)
    code = main(argv(target, inputs))
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"gridforge: error: cannot write {target}: No space left on device" in err
    assert target.read_text() == OLD
    assert entries(target.parent) == ["result.json"]


# The child is killed by its own signal: mid-write (half the bytes out) or once every byte is
# written but before the rename; either way it never runs another line.
KILLER = """
import os, signal, sys
real_write = os.write
def half_then_die(fd, data):
    if len(data) > 1 and os.environ["KILL_AT"] == "write":
        real_write(fd, bytes(data[:len(data) // 2]))
        os.kill(os.getpid(), signal.SIGKILL)
    return real_write(fd, data)
def die(fd):
    os.kill(os.getpid(), signal.SIGKILL)
os.write = half_then_die
if os.environ["KILL_AT"] == "fsync":
    os.fsync = die
from gridforge.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kill_at", ["write", "fsync"])
def test_a_kill_mid_write_keeps_the_old_file_and_leaves_nothing(command, kill_at, target, inputs):
    argv, _ = COMMANDS[command]
    done = subprocess.run([sys.executable, "-c", KILLER, *argv(target, inputs)],
                          env={**os.environ, "KILL_AT": kill_at}, capture_output=True,
                          text=True, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert target.read_text() == OLD
    assert entries(target.parent) == ["result.json"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_link_at_the_target_is_replaced_never_written_through(command, tmp_path, inputs):
    argv, code = COMMANDS[command]
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.json").write_text(OLD)
    folder = tmp_path / "out"
    folder.mkdir()
    link = folder / "result.json"
    link.symlink_to(outside / "victim.json")
    assert main(argv(link, inputs)) == code
    assert (outside / "victim.json").read_text() == OLD
    assert entries(outside) == ["victim.json"]
    assert not link.is_symlink() and link.read_text().strip()
    assert entries(folder) == ["result.json"]


def test_a_written_file_is_whole_and_a_dangling_link_is_replaced(tmp_path):
    (tmp_path / "link").symlink_to(tmp_path / "nowhere" / "file")
    write_text(tmp_path / "link", json.dumps({"é": 1}))
    assert json.loads((tmp_path / "link").read_text("utf-8")) == {"é": 1}
    assert entries(tmp_path) == ["link"]


def test_a_lone_surrogate_is_refused_naming_the_file_and_writes_nothing(tmp_path):
    (tmp_path / "a.json").write_text(OLD)
    with pytest.raises(ValueError, match=r"cannot write .*a\.json: .*surrogate"):
        write_text(tmp_path / "a.json", "\ud800")
    assert (tmp_path / "a.json").read_text() == OLD
    assert entries(tmp_path) == ["a.json"]


@pytest.mark.parametrize("kind", ["device", "pipe", "folder", "link to a device"])
def test_a_target_that_is_no_regular_file_is_refused_and_left_as_it_is(kind, tmp_path, capsys):
    target = tmp_path / "out"
    if kind == "pipe":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
    elif kind == "link to a device":
        target.symlink_to("/dev/null")
    else:
        target = Path("/dev/null")
    before = os.lstat(target)
    assert main(["mines", "generate", "--quiet", "--out", str(target)]) == 2
    assert "not a regular file (nothing written)" in capsys.readouterr().err
    after = os.lstat(target)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    if kind != "device":
        assert entries(tmp_path) == ["out"]
