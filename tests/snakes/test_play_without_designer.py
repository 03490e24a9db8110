"""Play never loads the designer: opening, playing and closing a main-line level through the
page's contract, with its lesson and the win's progress, imports no module of
``gridforge.snakes.design`` (checked in a fresh interpreter, whose ``sys.modules`` starts
empty of the package)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.cpython_only  # a fresh interpreter: a process of its own

# Run in a fresh interpreter: the test process has long imported the designer.
PLAY_A_MAINLINE_LEVEL = r"""
import json, sys
from gridforge.snakes import page
from gridforge.snakes.game.mainline import LEVELS, mainline_level

answers = []
for number in (1, 12, 42, LEVELS):
    shipped = mainline_level(number)
    level, solution = shipped["level"], shipped["certificate"]["solution"]
    opened = page.open(level)
    played = [page.act(opened["id"], {"do": "step", "step": step}) for step in solution]
    answers.append({
        "number": number,
        "refused": [a["refused"] for a in played if a["refused"] is not None],
        "won": any(e["type"] == "won" for a in played for e in a["events"]),
        "closed": page.close(opened["id"]),
        "lesson": page.lesson(number, level, shipped["certificate"]) is not None,
    })
page.progress_after_win({"done": {}, "open": 1}, 1, 5)
designer = sorted(m for m in sys.modules if m.startswith("gridforge.snakes.design"))
print(json.dumps({"answers": answers, "designer": designer}))
"""


def test_playing_a_main_line_level_through_the_page_imports_no_designer_module():
    done = subprocess.run([sys.executable, "-c", PLAY_A_MAINLINE_LEVEL], capture_output=True,
                          text=True, check=True)
    found = json.loads(done.stdout)
    assert found["designer"] == []
    # The calls did play: every certified step was taken, each level won and then closed.
    for answer in found["answers"]:
        assert answer["refused"] == [], answer
        assert answer["won"] and answer["closed"], answer
    # Level 1 and the teaching level 12 teach; the calls above reached the lessons.
    assert [a["lesson"] for a in found["answers"]][:2] == [True, True]
