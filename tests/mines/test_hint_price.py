"""A hint has a price (issue 21): one from the battle's stock, kept in the run and its save."""

from __future__ import annotations

import pytest
from gridforge.errors import ValidationError
from gridforge.mines import page as runs
from gridforge.mines.intents import Intent
from gridforge.mines.run import Run
from gridforge.mines.run_table import RunTable, load_run_table
from gridforge.mines.view import stand_for

from ..page_copy import PageCopy
from .fixtures import PlayedRun, replay_saved


def dig_hinted(run: PlayedRun, answer: dict) -> None:
    """Do what a hint says, as a player would: dig a safe cell (a far click walks up to
    it), or stand beside a mine and flag it."""
    assert answer["cell"] is not None and answer["reachable"]
    cell = (answer["cell"][0], answer["cell"][1])
    if answer["action"] == "dig":
        run.primary(cell)
        return
    engine = run.session.engine
    if cell not in engine.board.neighbours(engine.avatar):
        run.act(Intent("move", stand_for(engine, cell)))
    run.secondary(cell)


def test_a_hint_spends_one_from_the_stock_and_the_state_says_so():
    shown = PageCopy()
    answer = shown(runs.open(3))
    run_id = answer["id"]
    per = load_run_table().hints_per_battle
    assert per >= 2
    assert answer["view"]["hints"] == {"left": per, "per_battle": per, "price": 1,
                                       "can_ask": True}
    paid = shown(runs.act(run_id, {"do": "hint"}))
    assert paid["cell"] is not None and paid["price"] == 1
    assert paid["view"]["hints"]["left"] == per - 1 == paid["hints_left"]
    assert paid["save"]["steps"][-1] == {"do": "hint"}
    # Asking again about the same cell shows it again for free; nothing is recorded.
    again = runs.act(run_id, {"do": "hint"})
    assert again["cell"] == paid["cell"] and again["price"] == 0
    assert again["save"] is None  # nothing changed: nothing to store
    assert shown(again)["view"]["hints"]["left"] == per - 1
    runs.close(run_id)


def test_with_the_stock_spent_a_hint_is_refused_and_nothing_changes():
    run = PlayedRun(5)
    per = run.table.hints_per_battle
    for _ in range(per):
        answer = run.hint()
        assert answer["price"] == 1
        dig_hinted(run, answer)
        # Seed 5 is chosen so that the round lasts past the stock (deterministic).
        assert run.status == "playing"
    assert run.hints_left == 0 and not run.to_json()["hints"]["can_ask"]
    before, steps = run.to_json(), list(run.steps)
    refused = run.hint()
    assert refused["refused"]["reason"] == "hints_spent" and refused["save"] is None
    assert refused["cell"] is None and refused["price"] == 0
    assert "No hints left" in refused["text"] == refused["refused"]["message"]
    assert run.to_json() == before and run.steps == steps


def test_the_stock_is_a_battle_s_and_comes_back_with_the_next_battle():
    table = load_run_table({"battles": [{"preset": "battle-1", "enemy": "Rat", "hp": 1,
                                         "attack": 0},
                                        {"preset": "battle-1", "enemy": "Rat", "hp": 5,
                                         "attack": 0}]})
    run = PlayedRun(2, table)
    assert run.hint()["price"] == 1
    assert run.hints_left == table.hints_per_battle - 1
    # Play on (what logic proves, at no cost) until the 1-HP enemy falls at a round's end.
    for _ in range(200):
        if run.battle_index == 1 or run.status in ("won", "lost"):
            break
        if run.status == "settled":
            run.continue_run()
            continue
        dig_hinted(run, run.proved_next())
        if run.status == "playing":
            run.act(Intent("stop"))
    assert run.battle_index == 1
    assert run.hints_left == table.hints_per_battle
    assert run.battle_summaries[0]["hints_used"] == 1


def test_a_paid_hint_replays_from_the_save():
    run = PlayedRun(8)
    dig_hinted(run, run.hint())
    run.hint()
    replayed = replay_saved(run.save())
    assert replayed.to_json() == run.to_json()
    assert replayed.save() == run.save()
    # A hint step where no hint can be paid (stock spent) does not replay.
    bad = {**run.save(), "steps": [{"do": "hint"}] * (run.table.hints_per_battle + 1)}
    with pytest.raises(ValidationError, match=r"steps\[\d+\]"):
        replay_saved(bad)


def test_a_run_saved_under_an_earlier_table_is_refused_naming_the_table():
    # Issue 45 changed the boards (the opening gate) and the enemies: a run saved under an
    # earlier table (the fingerprints earlier builds wrote) made other boards from its seed,
    # so it cannot replay and is refused, never replayed into a different game.
    run = PlayedRun(11)
    run.primary(tuple(run.to_json()["offer"]["reach"][0][:2]))
    for earlier in ("817c6c45d8aeeec1", "86b4b48766a9c609", "0000000000000000"):
        with pytest.raises(ValidationError, match=r"table: .*other run rules"):
            runs.resume({**run.save(), "table": earlier})
    answer = runs.resume(run.save())
    assert answer["view"]["board"] == run.to_json()["board"]
    assert answer["messages"] == []
    runs.close(answer["id"])


def test_the_table_checks_the_hint_stock():
    data = load_run_table().to_json()
    assert RunTable.from_json(data).hints_per_battle == data["hints_per_battle"]
    with pytest.raises(ValidationError, match="hints_per_battle"):
        RunTable.from_json({**data, "hints_per_battle": -1})
    # zero hints is a valid table: the Hint button is then never offered
    assert not Run(1, RunTable.from_json({**data, "hints_per_battle": 0})).can_hint()
