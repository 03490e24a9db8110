"""The editor's calls: shipped samples are valid and solvable; export guards certificates."""

from __future__ import annotations

import copy
import json

import pytest
from gridforge.errors import GridforgeError
from gridforge.snakes import editor, play


def test_every_sample_validates_and_is_verified():
    samples = editor.sample_levels()
    assert samples and all(play.validate(level)["ok"] for level in samples)
    main_line = [lv["meta"]["id"] for lv in samples if lv["meta"]["id"].startswith("main-")]
    assert main_line[:3] == ["main-0001", "main-0002", "main-0003"]
    spec_example = samples[0]
    certificate = play.verify(spec_example)
    assert certificate["status"] == "verified"
    assert certificate["optimal"] is True and certificate["steps"] == 20  # spec section 7


def test_export_replays_and_refuses_an_edited_level():
    level = editor.sample_levels()[1]
    certificate = play.verify(level)
    exported = json.loads(editor.export(level, certificate))
    assert exported["certificate"]["level_sha256"] == certificate["level_sha256"]
    edited = copy.deepcopy(level)
    edited["stones"].append([2, 0])
    with pytest.raises(GridforgeError, match="does not hold"):
        editor.export(edited, certificate)
    with pytest.raises(GridforgeError, match="verify it first"):
        editor.export(level, {**certificate, "status": "undetermined"})


def test_topologies_start_with_mixed_and_name_all_eleven():
    names = editor.topologies()
    assert names[0] == "mixed" and len(names) == 11 and len(set(names)) == 11
