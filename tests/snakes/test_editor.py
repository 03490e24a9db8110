"""The editor's shipped levels (snakes/editor.py): valid, solvable, in a fixed order."""

from __future__ import annotations

from gridforge.snakes import editor, play
from gridforge.snakes.level import canonical_json, spec_example


def test_every_sample_validates_and_the_first_is_the_spec_example():
    samples = editor.sample_levels()
    assert samples and all(play.validate(level)["ok"] for level in samples)
    main_line = [lv["meta"]["id"] for lv in samples if lv["meta"]["id"].startswith("main-")]
    assert main_line[:3] == ["main-0001", "main-0002", "main-0003"]
    assert samples[0]["meta"]["id"] == "sample-spec"
    assert canonical_json(samples[0]) == canonical_json(spec_example())


def test_samples_are_fresh_copies():
    first = editor.sample_levels()
    first[0]["stones"].append([9, 9])
    assert editor.sample_levels()[0]["stones"] == [[3, 0], [3, 1]]
