"""Hints in a run: they reason from what the player sees and has marked, and move on."""

from __future__ import annotations

import random
import re

from gridforge.mines.hints import next_hint
from gridforge.mines.intents import Intent
from gridforge.mines.run import Run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def flag_via_page(run: Run, cell: tuple[int, int]) -> None:
    """Stand beside ``cell`` (over opened ground) and flag it, as a player would."""
    engine, board = run.session.engine, run.session.engine.board
    if cell not in board.neighbours(engine.avatar):
        stand = next(n for n in board.neighbours(cell)
                     if engine.is_open(n) and engine.compute_move_path(n))
        assert run.act(Intent("move", stand))["outcome"]["accepted"]
    assert run.secondary(cell)["outcome"]["accepted"]


def test_a_flag_on_the_hinted_mine_moves_the_next_hint_to_another_cell():
    moved = 0
    for seed in range(30):
        run = Run(seed)
        seen = set()
        for _ in range(6):
            hint = run.hint()
            if hint["kind"] != "mine" or run.session.ledger.ap < 2:
                break
            cell = (hint["cell"][0], hint["cell"][1])
            assert cell not in seen  # never the same already-flagged mine
            seen.add(cell)
            flag_via_page(run, cell)
            after = run.hint()
            assert after["cell"] != hint["cell"]
            assert tuple(after["cell"] or ()) not in seen
            moved += 1
    assert moved >= 10  # the situation is common, and it was met


def test_a_flag_that_logic_does_not_prove_is_not_built_on():
    # 3x1: [1] [?] [?], one mine in all: the digit proves (1, 0) a mine, the total
    # then proves (2, 0) safe.
    opened = {(0, 0): 1}
    first = next_hint(3, 1, opened, [], [], mine_total=1)
    assert first["cell"] == [1, 0] and first["kind"] == "mine" and first["action"] == "flag"
    # a flag on the safe cell is not taken for a mine: the proof still starts at (1, 0)
    assert next_hint(3, 1, opened, [], [(2, 0)], mine_total=1)["cell"] == [1, 0]
    second = next_hint(3, 1, opened, [], [(1, 0)], mine_total=1)
    assert second["cell"] == [2, 0] and second["kind"] == "safe" and second["mine_count"]
    wrong = next_hint(3, 1, opened, [], [(1, 0), (2, 0)], mine_total=1)
    assert wrong["cell"] == [2, 0] and wrong["action"] == "pull_flag"
    done = next_hint(3, 1, {(0, 0): 1, (2, 0): 1}, [], [(1, 0)], mine_total=1)
    assert done["cell"] is None and "Nothing is left" in done["text"]


def test_the_hint_names_the_digits_it_used():
    # 3x3 with the centre opened showing 1 and the mine known below-right: all else safe.
    hint = next_hint(3, 3, {(1, 1): 1}, [(2, 2)], [], mine_total=None)
    assert hint["kind"] == "safe" and hint["constraints"] == [[1, 1]]
    assert hint["rule"] == "single" and "this 1 already has all its mines" in hint["text"]
    assert hint["cell"] == [0, 0]
    # The sentence points at cells instead of numbering them (issue 21): the hinted cell and
    # the digit it reads are pieces that carry the cell; the plain text has no coordinates.
    pointed = [p["cell"] for p in hint["parts"] if isinstance(p, dict)]
    assert pointed == [[0, 0], [1, 1]]
    assert "".join(p if isinstance(p, str) else p["text"] for p in hint["parts"]) == hint["text"]
    assert not re.search(r"\[\s*\d+\s*,\s*\d+\s*\]|\(\s*\d+\s*,\s*\d+\s*\)",
                         hint["text"])


def test_a_position_that_needs_a_guess_says_so():
    # two hidden cells, one mine, no digit touching them apart: a 50/50
    hint = next_hint(2, 1, {}, [], [], mine_total=1)
    assert hint["cell"] is None and "guess" in hint["text"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), play=st.integers(0, 10**6))
def test_a_hint_is_true_and_never_names_a_settled_cell(seed, play):
    run = Run(seed)
    rng = random.Random(play)
    for _ in range(40):
        if run.status != "playing":
            if run.status == "settled":
                run.continue_run()
                continue
            break
        hint = run.hint()
        engine, board = run.session.engine, run.session.engine.board
        if hint["cell"] is not None:
            cell = (hint["cell"][0], hint["cell"][1])
            assert not engine.is_open(cell)
            assert board.is_mine(cell) == (hint["kind"] == "mine")
            if hint["kind"] == "mine":
                assert not engine.has_flag(cell)
            for x, y in hint["constraints"]:
                assert engine.is_open((x, y)) and not board.variant_ids((x, y))
        offer = run.to_json()["offer"]
        if rng.random() < 0.3 and offer["flag_place"]:
            run.secondary(tuple(rng.choice(offer["flag_place"])))
        elif hint["action"] == "dig" and rng.random() < 0.7:
            run.primary(cell)
        else:
            targets = offer["dig"] + [c[:2] for c in offer["reach"]]
            if not targets:
                run.act(Intent("stop"))
                continue
            run.primary(tuple(rng.choice(targets)))
