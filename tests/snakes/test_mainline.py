"""The main line: its curriculum, block files with saved progress, resume after a stop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gridforge.errors import Cancelled, GridforgeError
from gridforge.progress import Progress
from gridforge.snakes.certificate import check_certificate
from gridforge.snakes.design.mainline import LEVELS, TEACHING, build_mainline, level_request


def test_each_mechanic_is_taught_once_on_its_level_and_never_before():
    for level, field in TEACHING.items():
        assert level_request(level - 1, 1)[field] == 0
        assert level_request(level, 1)[field] == 1
        assert field not in level_request(level + 1, 1)  # free from then on
    assert level_request(30, 1)["gold"] == 0  # the first lock is silver


def test_targets_climb_in_waves_and_stay_in_range():
    targets = [level_request(n, 1)["target"] for n in range(1, LEVELS + 1)]
    assert all(5 <= t <= 95 for t in targets)
    assert targets[199] > targets[0] + 40 and targets[-1] > targets[199] + 25
    assert targets[9] < targets[8]  # the tenth level of a wave is a breather
    with pytest.raises(GridforgeError):
        level_request(LEVELS + 1, 1)


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_stopped_build_resumes_to_the_same_bytes(tmp_path: Path):
    straight = tmp_path / "straight"
    build_mainline(straight, seed=7, count=9, block=4)

    stopped = tmp_path / "stopped"
    def stop_in_second_block(done: int, total: int, label: str) -> bool:
        return label == "level 6"

    with pytest.raises(Cancelled):
        build_mainline(stopped, seed=7, count=9, block=4, progress=Progress(stop_in_second_block))
    assert sorted(p.name for p in stopped.iterdir()) == ["main-0001-0004.json", "progress.json"]
    with pytest.raises(GridforgeError, match="--resume"):
        build_mainline(stopped, seed=7, count=9, block=4)
    with pytest.raises(GridforgeError, match="seed"):
        build_mainline(stopped, seed=8, count=9, block=4, resume=True)
    state = build_mainline(stopped, seed=7, count=9, block=4, resume=True)
    assert state["done"] == 9 and len(state["files"]) == 3
    assert files_of(stopped) == files_of(straight)


def test_every_main_line_certificate_replays(tmp_path: Path):
    build_mainline(tmp_path, seed=3, count=5, block=5)
    batch = json.loads((tmp_path / "main-0001-0005.json").read_text())
    assert [lv["meta"]["id"] for lv in batch["levels"]] == [f"main-{n:04d}" for n in range(1, 6)]
    for level, cert in zip(batch["levels"], batch["certificates"], strict=True):
        assert cert["status"] == "verified"
        assert check_certificate(level, cert) == []


def test_a_longer_resume_keeps_blocks_aligned(tmp_path: Path):
    build_mainline(tmp_path / "a", seed=5, count=6, block=4)
    state = build_mainline(tmp_path / "a", seed=5, count=9, block=4, resume=True)
    assert state["files"] == ["main-0001-0004.json", "main-0005-0008.json", "main-0009-0009.json"]
    build_mainline(tmp_path / "b", seed=5, count=9, block=4)
    assert files_of(tmp_path / "a") == files_of(tmp_path / "b")
