"""The shipped sample levels (snakes/editor/samples.py): valid, solvable, in a fixed order."""

from __future__ import annotations

from gridforge.snakes import page
from gridforge.snakes.editor import samples
from gridforge.snakes.game.level import canonical_json, spec_example


def test_every_sample_validates_and_the_first_is_the_spec_example():
    levels = samples.shipped()
    assert levels and all(page.validate(level)["ok"] for level in levels)
    main_line = [lv["meta"]["id"] for lv in levels if lv["meta"]["id"].startswith("main-")]
    assert main_line[:3] == ["main-0001", "main-0002", "main-0003"]
    assert levels[0]["meta"]["id"] == "sample-spec"
    assert canonical_json(levels[0]) == canonical_json(spec_example())


def test_samples_are_fresh_copies():
    first = samples.shipped()
    first[0]["stones"].append([9, 9])
    assert samples.shipped()[0]["stones"] == [[3, 0], [3, 1]]
