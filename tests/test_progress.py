"""The terminal progress bar: current labels without flooding, no leftovers of longer lines."""

from __future__ import annotations

import io

import pytest
from gridforge import progress as progress_module
from gridforge.errors import Cancelled
from gridforge.progress import Progress, terminal_bar


def test_the_bar_redraws_a_new_label_at_most_once_a_second_and_wipes_longer_lines(
        monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: clock[0])
    out = io.StringIO()
    bar = terminal_bar(out, width=10)
    bar.step(0, 100, "levels, slowest running: level 27 (3 s)")
    bar.step(0, 100, "levels, slowest running: level 27 (4 s)")  # too soon: not drawn
    clock[0] += 1.5
    bar.step(0, 100, "levels")  # a second later: drawn, padded over the longer line
    bar.step(10, 100, "levels")  # the bar grew: drawn at once
    bar.step(100, 100, "done")
    lines = out.getvalue().split("\r")[1:]
    assert [line.split("] ")[1].strip() for line in lines] == [
        "0/100 levels, slowest running: level 27 (3 s)", "0/100 levels", "10/100 levels",
        "100/100 done"]
    assert len(lines[1]) == len(lines[0]) > len(lines[1].rstrip())
    assert lines[-1].endswith("\n")


def test_a_sink_that_asks_to_stop_cancels_the_work():
    calls = []
    prog = Progress(lambda done, total, label, figures: calls.append(done) or done >= 2)
    prog.step(1, 5)
    with pytest.raises(Cancelled, match="cancelled at 2/5"):
        prog.step(2, 5, "")
    with pytest.raises(Cancelled):
        prog.step(3, 5)
    assert calls[:2] == [1, 2]


def test_a_step_hands_its_named_figures_to_the_sink():
    seen = []
    prog = Progress(lambda done, total, label, figures: seen.append((label, figures)))
    prog.step(1, 3, "level 1/2", level=1, best=42.5)
    prog.step(3, 3, "done", finished=True)
    assert seen == [("level 1/2", {"level": 1, "best": 42.5}), ("done", {"finished": True})]
