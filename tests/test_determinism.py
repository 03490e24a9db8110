"""Same input, same bytes, on CPython and in Pyodide: pinned digests of generated output.

These run in both interpreters (build.py test runs tests/ inside Pyodide too), so one pin
proves both produce the very same bytes. A pin changes only when generation changes on
purpose (or the package version, which certificates carry); then it is updated here, in a
commit that says why.
"""

from __future__ import annotations

import hashlib
import json

from gridforge.mines import page as mines_run
from gridforge.mines.generate import generate
from gridforge.snakes.design.line_levels import design_level
from gridforge.snakes.design.pipeline import design_levels


def digest(value: object) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_snakes_batch_has_pinned_bytes():
    batch = design_levels({"target": 30, "count": 2, "seed": 5})
    assert batch["report"]["made"] == 2
    assert digest(batch) == SNAKES_BATCH


def test_a_backward_built_target_100_level_has_pinned_bytes():
    # The high-target recipe (backward play, sealing, tightening) takes other code paths.
    batch = design_levels({"target": 100, "count": 1, "seed": 2})
    assert batch["report"]["made"] == 1
    assert digest(batch) == SNAKES_TARGET_100


def test_an_interlock_batch_has_pinned_bytes():
    # Levels on one board (issue 50): the climb, its exact measures, colours and certificate.
    batch = design_levels({"topology": "comb", "count": 1, "seed": 3,
                           "interlock": {"bodies": 3, "joint": 4, "beyond": 1, "chain": 1}})
    assert batch["report"]["made"] == 1
    assert digest(batch) == SNAKES_INTERLOCK


def test_chambers_edition_levels_have_pinned_bytes():
    # The chambers edition (the third build), named so that the pin holds whichever edition
    # is the default: a lesson (3), levels built from motifs with a mechanic's return (22),
    # the coloured-path and bridge lessons (42, 48) and one near the top (1995; in the board
    # edition a lane's level, which builds its lane's earlier levels: too slow here).
    levels = [design_level(n, 2026, "chambers") for n in (3, 22, 42, 48, 1995)]
    assert digest(levels) == SNAKES_MAINLINE


def test_board_edition_levels_have_pinned_bytes():
    # The board edition (issue 50): a motif level refitted to a phone (58),
    # two lanes' first levels (101 plain, 102 with a piece) and a breather (110).
    levels = [design_level(n, 2026, "board") for n in (58, 101, 102, 110)]
    assert digest(levels) == SNAKES_BOARD_EDITION


def test_mines_boards_of_every_battle_preset_have_pinned_bytes():
    boards = [generate(f"battle-{k}", 1000 + k, level=k).dumps() for k in range(1, 6)]
    assert digest(boards) == MINES_BOARDS


def test_a_mines_run_transcript_has_pinned_bytes():
    answer = mines_run.open(2026)
    run_id = answer["id"]
    transcript = [answer, mines_run.act(run_id, {"do": "stop"})]
    transcript.append(mines_run.act(run_id, {"do": "continue"}))
    transcript.append(mines_run.act(run_id, {"do": "hint"}))
    mines_run.close(run_id)
    for answer in transcript:
        answer.pop("id")  # the id counts runs; everything else must repeat
    assert digest(transcript) == MINES_RUN


SNAKES_BATCH = "f770270c94bce0a9909a635c856a8704909e7d83c19c36836f13637c3d16053c"
SNAKES_TARGET_100 = "368b7247adff6b9391fa71884bfa5130e554b9a6e3aabb66f52f7c9127bc18b1"
SNAKES_INTERLOCK = "140a9348c74208d1076083c63f106222a67791a68c79cf56e2db0cbec76a8fd8"
SNAKES_BOARD_EDITION = "dba14bdaa8d358209caeb01f6e30737b409c7291376cb1d4b5be183b131a6830"
SNAKES_MAINLINE = "0549817259424d832ce9ce054b267571e4a9ad4af5b561863c0fd45b4bab06df"
MINES_BOARDS = "74141cffc1e46ce4680888224398d71794b4427ceed4cff8fa969138efe201f3"
MINES_RUN = "c56872503fbbce5bca7014e4471e4e326b74fa1fbe6d500496f8cbb4ab856afc"
