"""The designer's files (``snakes/design/files.py``): written whole through a fresh temporary
name (no planted name or symbolic link followed), nothing left behind when a write fails (a
full disk, an interrupt) and the error names the file; read back only from regular files."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from gridforge.cli import main
from gridforge.snakes import commands
from gridforge.snakes.design import files
from gridforge.snakes.design.files import FileRefused, WriteError, read_regular, write_text

pytestmark = pytest.mark.cpython_only  # symbolic links, pipes and a patched os


def entries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def enospc(*_args: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_planted_temporary_name_or_a_link_at_the_target_is_never_written_through(tmp_path):
    folder, outside = tmp_path / "out", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    (outside / "victim").write_text("mine")
    # The fixed names of the old writer, and the target itself, as links out of the folder.
    planted = ["a.json.tmp", ".a.json.tmp", "b.json.tmp", "b.json", "c.json.tmp"]
    for name in planted:
        (folder / name).symlink_to(outside / ("new" if name == "a.json.tmp" else "victim"))
    write_text(folder / "a.json", "one\n")
    files.write_json(folder / "b.json", {"x": 1})
    commands.write_json(str(folder / "c.json"), {"é": [1, 2]})
    assert (folder / "a.json").read_text() == "one\n"
    assert not (folder / "b.json").is_symlink()
    assert json.loads((folder / "b.json").read_text()) == {"x": 1}
    # The command's writer keeps its bytes: indented, key order and non-ASCII kept.
    assert (folder / "c.json").read_text("utf-8") == '{\n  "é": [\n    1,\n    2\n  ]\n}\n'
    assert entries(outside) == ["victim"] and (outside / "victim").read_text() == "mine"
    assert entries(folder) == sorted([*planted, "a.json", "c.json"])
    assert all((folder / name).is_symlink() for name in planted if name != "b.json")


@pytest.mark.parametrize("where", ["write", "fsync", "replace"])
def test_a_failed_write_leaves_nothing_behind_and_names_the_file(tmp_path, monkeypatch, where):
    target = tmp_path / "deep" / "batch.json"
    target.parent.mkdir()
    (target.parent / "keep.txt").write_text("old")
    real_write = os.write
    calls = []

    def half_then_full(fd: int, data: bytes) -> int:  # a disk filling up half way
        calls.append(len(data))
        if len(calls) > 1:
            enospc()
        return real_write(fd, bytes(data[:len(data) // 2]))

    if where == "write":
        monkeypatch.setattr(os, "write", half_then_full)
    elif where == "fsync":
        monkeypatch.setattr(os, "fsync", enospc)
    else:
        target.mkdir()  # the target is a folder: the rename fails
    with pytest.raises(WriteError, match=r"cannot write .*batch\.json: ") as info:
        write_text(target, "x" * 10_000)
    assert info.value.path == str(target)
    if where != "replace":
        assert "No space left on device" in str(info.value)
        assert entries(target.parent) == ["keep.txt"]
    else:
        assert entries(target.parent) == ["batch.json", "keep.txt"] and target.is_dir()


def test_an_interrupt_during_a_write_removes_the_temporary_file(tmp_path, monkeypatch):
    def interrupt(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_text(tmp_path / "a.json", "{}\n")
    assert entries(tmp_path) == []


def test_design_levels_on_a_full_disk_exits_2_with_one_line_naming_the_file(
        tmp_path, monkeypatch, capsys):
    out = tmp_path / "batch.json"
    monkeypatch.setattr(os, "write", enospc)
    code = main(["design-levels", "--target", "10", "--count", "1", "--seed", "1",
                 "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.splitlines() == [f"gridforge: error: cannot write {out}: No space left on device"]
    assert entries(tmp_path) == []


def test_only_a_regular_file_is_read_back(tmp_path):
    (tmp_path / "file").write_bytes(b"abc")
    assert read_regular(tmp_path / "file", 3) == b"abc"
    (tmp_path / "outside").write_bytes(b"secret")
    (tmp_path / "link").symlink_to(tmp_path / "outside")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "pipe")  # opened, it would block a reader forever
    for name, reason in [("file", "is larger than 2 bytes"), ("missing", "is missing"),
                         ("link", "is a symbolic link (not followed)"),
                         ("dangling", "is a symbolic link (not followed)"),
                         ("folder", "is not a regular file"), ("pipe", "is not a regular file")]:
        with pytest.raises(FileRefused) as info:
            read_regular(tmp_path / name, 2)
        assert info.value.reason == reason and str(info.value).startswith(str(tmp_path / name))
