"""Rewards, offers and items (issue 51): earned from A2's events, never changing them;
in the save, resumed exactly; tampered saves refused with nothing lost."""

from __future__ import annotations

import copy
import json

import pytest
from gridforge.errors import GridforgeError, ValidationError
from gridforge.mines import page as runs
from gridforge.mines.intents import Intent
from gridforge.mines.rewards import ITEMS, OFFER_KINDS, dig_groups, draw_offers
from gridforge.mines.run import Run
from gridforge.mines.run_table import load_run_table
from gridforge.mines.run_words import show_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.mines.test_run import next_safe_dig, play_round

EASY = {"battles": [{"preset": "battle-1", "enemy": "Tunnel rat", "hp": 2, "attack": 0},
                    {"preset": "battle-2", "enemy": "Cave spider", "hp": 400, "attack": 1}]}


def won_first_battle(seed: int = 5) -> Run:
    """A run of an easy table right after its first battle is won (the offers open)."""
    run = Run(seed, load_run_table(EASY))
    assert play_round(run)["result"] == "battle_won"
    return run


def reveal(cell: list[int], channel: str, kind: str = "safe") -> dict:
    event = {"type": "cell_revealed", "cell": cell, "kind": kind, "variant_ids": [],
             "channel": channel, "reward_eligible": kind == "safe" and channel != "initial"}
    if kind == "safe":
        event["digit"] = 0
    return event


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["dig", "chain", "initial", "mine"]),
                          st.integers(0, 9)), max_size=60),
       st.integers(1, 4), st.integers(1, 6))
def test_a_dig_earns_sparks_up_to_max_stack_and_its_overflow_heals_once(steps, stack, per):
    table = load_run_table()
    rewards = dict(table.rewards.values, max_stack=stack, overflow_per_heal=per)
    events = [reveal([k, y], "dig" if kind == "mine" else kind,
                     "mine" if kind == "mine" else "safe") for k, (kind, y) in enumerate(steps)]
    groups = dig_groups(events, type(table.rewards)(rewards))
    digs = [e for e in events if e["channel"] == "dig" and e["kind"] == "safe"]
    assert [g["cells"][0] for g in groups] == [e["cell"] for e in digs]
    for group in groups:
        assert group["chain"] == len(group["cells"]) - 1
        assert group["sparks"] == 1 + min(group["chain"], stack)
        assert group["overflow"] == max(0, group["chain"] - stack)
        assert group["heal"] == group["overflow"] // per


def test_a_long_chain_settles_as_one_strike_and_one_overflow_line():
    for seed in range(40):
        run = Run(seed)
        settlement = play_round(run)
        overflow = [line for line in settlement["lines"] if line["source"] == "chain_overflow"]
        digs = [line for line in settlement["lines"] if line["source"] == "safe_dig"]
        assert len(overflow) <= len(digs)  # at most one overflow line a dig
        assert settlement["player_hp"] <= run.max_hp
        shown = show_lines(settlement)
        causes = [(line["cause"], tuple(map(tuple, line["cells"]))) for line in shown]
        assert len(causes) == len(set(causes))  # one line per cause and cell group
        assert sum(1 for line in shown if line["cause"] == "strike") == len(digs)
        if overflow:
            return
    raise AssertionError("no round with an overflowing chain in 40 seeds")


def test_offers_are_drawn_from_the_seed_three_distinct():
    for seed in range(50):
        for battle in range(1, 5):
            offers = draw_offers(seed, battle)
            assert offers == draw_offers(seed, battle)
            assert len(set(offers)) == 3 and set(offers) <= set(OFFER_KINDS)
    assert len({tuple(draw_offers(seed, 1)) for seed in range(50)}) > 10


def test_a_won_battle_opens_three_offers_and_a_pick_applies_one():
    run = won_first_battle()
    assert run.offers == draw_offers(run.seed, 1)
    assert [o["id"] for o in run.view()["offers"]] == run.offers
    assert all(o["name"] and o["effect"] for o in run.view()["offers"])
    kind = run.offers[0]
    before = (run.player_hp, dict(run.items), run.flag_bonus, run.hint_bonus, run.sparks)
    run.pick_offer(kind)
    after = (run.player_hp, dict(run.items), run.flag_bonus, run.hint_bonus, run.sparks)
    assert before != after or (kind == "heal" and run.player_hp == run.max_hp)
    assert run.offers == [] and run.picked == [kind]
    with pytest.raises(GridforgeError, match="no offers are open"):
        run.pick_offer(kind)


def test_an_offer_not_open_is_refused_and_nothing_changes():
    run = won_first_battle()
    missing = next(k for k in OFFER_KINDS if k not in run.offers)
    state = json.dumps(run.to_json(), sort_keys=True)
    with pytest.raises(GridforgeError, match="not one of the offers open"):
        run.pick_offer(missing)
    assert json.dumps(run.to_json(), sort_keys=True) == state


def test_the_probe_reads_the_board_and_changes_no_event():
    run = Run(3)
    engine, board = run.session.engine, run.session.engine.board
    concealed = [(x, y) for y in range(board.rows) for x in range(board.cols)
                 if not engine.is_open((x, y))]
    mine = next(c for c in concealed if board.is_mine(c))
    safe = next(c for c in concealed if not board.is_mine(c))
    run.items["probe"] = 2
    assert run.use_item("probe", mine)["result"] == -1
    answer = run.use_item("probe", safe)
    assert answer["result"] == board.true_digit(safe) and answer["accepted"]
    assert run.session.drain() == []  # the query face: no event emitted
    assert [safe[0], safe[1], board.true_digit(safe)] in run.view()["probed"]
    refused = run.use_item("probe", safe)  # probed already
    assert refused["accepted"] is False and refused["step"] is None
    assert run.items["probe"] == 0


def test_with_no_charge_an_item_costs_sparks_and_without_them_it_is_refused():
    run = Run(3)
    price = run.table.rewards["item_spark_price"]
    run.items["shield"] = 0
    run.sparks = price - 1
    refused = run.use_item("shield")
    assert refused["accepted"] is False and "sparks" in refused["messages"][0]["text"]
    assert run.shields == 0 and run.sparks == price - 1
    run.sparks = price
    assert run.use_item("shield")["accepted"] and run.sparks == 0 and run.shields == 1
    with pytest.raises(GridforgeError, match="no item"):
        run.use_item("sword")


def test_a_shield_absorbs_an_ambush_and_a_blast_strikes_at_the_settlement():
    run = Run(7)
    run.items["shield"], run.items["blast"] = 1, 1
    run.use_item("shield")
    run.use_item("blast")
    assert run.view()["pending"]["enemy_damage"] == run.table.rewards["blast_damage"]
    settlement = play_round(run, dig_mine=True)
    sources = [line["source"] for line in settlement["lines"]]
    assert "mine_shielded" in sources and sources.count("blast") == 1
    shielded = next(line for line in settlement["lines"] if line["source"] == "mine_shielded")
    assert shielded["amount"] == 0 and run.shields == 0


def test_the_lantern_marks_a_safe_concealed_cell():
    run = Run(9)
    board = run.session.engine.board
    answer = run.use_item("lantern")
    cell = tuple(answer["cell"])
    assert not board.is_mine(cell) and not run.session.engine.is_open(cell)
    assert list(cell) in run.view()["marked"]
    assert answer["step"] == {"do": "use", "item": "lantern", "cell": list(cell)}


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.sampled_from(ITEMS), max_size=4))
def test_items_never_change_the_engines_events(seed, items):
    """A2 stays as it was: the same intents give the same events, items used or not."""
    plain, used = Run(seed), Run(seed)
    for item in ITEMS:
        used.items[item] = 3
    for item in items:
        concealed = next((x, y) for y in range(8) for x in range(8)
                         if not used.session.engine.is_open((x, y)))
        used.use_item(item, concealed if item == "probe" else None)
    for _ in range(6):
        if plain.status != "playing":
            break
        for intent in next_safe_dig(plain):
            a, b = plain.act(intent), used.act(intent)
            assert a["events"] == b["events"] and a["outcomes"] == b["outcomes"]


def resumed(save: dict) -> dict:
    answer = runs.resume(save)
    view = runs.run_state(answer["id"])
    runs.close(answer["id"])
    return view


@pytest.fixture
def easy_backend():
    """The backend on the easy table (a battle won in a round), put back afterwards."""
    backend = runs.MIDEND.backend
    table = backend.run_table()
    backend.table = load_run_table(EASY)
    yield backend
    backend.table = table


def dig(run_id: str) -> dict:
    """A click on a concealed safe cell the test player knows of."""
    cell = next_safe_dig(runs.MIDEND.game(run_id).run)[-1].cell
    return runs.act(run_id, {"do": "primary", "cell": list(cell)})


def test_saves_mid_round_after_an_item_and_with_offers_open_resume_exactly(easy_backend):
    run_id = runs.open(5)["id"]
    dig(run_id)
    save = runs.act(run_id, {"do": "use", "item": "shield"})["save"]  # an item used, mid-round
    assert runs.run_state(run_id)["shields"] == 1
    assert resumed(save) == runs.run_state(run_id)
    save = runs.act(run_id, {"do": "use", "item": "lantern"})["save"]
    assert runs.run_state(run_id)["marked"] and resumed(save) == runs.run_state(run_id)
    for _ in range(100):  # on to the end of the battle: the offers open
        if runs.run_state(run_id)["offers"]:
            break
        save = dig(run_id)["save"]
    state = runs.run_state(run_id)
    assert len(state["offers"]) == 3 and resumed(save) == state
    # no round: no step
    assert runs.act(run_id, {"do": "use", "item": "shield"})["accepted"] is False
    picked = runs.act(run_id, {"do": "pick", "offer": state["offers"][1]["id"]})
    assert resumed(picked["save"]) == runs.run_state(run_id)
    runs.close(run_id)


def test_a_tampered_save_is_refused_naming_the_step(easy_backend):
    if True:
        run_id = runs.open(5)["id"]
        for _ in range(100):
            if runs.run_state(run_id)["offers"]:
                break
            dig(run_id)
        offers = [o["id"] for o in runs.run_state(run_id)["offers"]]
        good = runs.act(run_id, {"do": "pick", "offer": offers[0]})["save"]
        runs.close(run_id)
        bad = copy.deepcopy(good)
        missing = next(k for k in OFFER_KINDS if k not in offers)
        bad["steps"][-1] = {"do": "pick", "offer": missing}
        with pytest.raises(ValidationError) as info:
            runs.resume(bad)
        assert info.value.issues[0].path == f"steps[{len(bad['steps']) - 1}]"
        assert "not one of the offers" in info.value.issues[0].message
        for step, path in (({"do": "pick"}, "steps[0]"),
                           ({"do": "use", "item": "sword"}, "steps[0]"),
                           ({"do": "use", "item": "probe"}, "steps[0]")):
            broken = copy.deepcopy(good)
            broken["steps"][0] = step
            with pytest.raises(ValidationError) as info:
                runs.resume(broken)
            assert info.value.issues[0].path == path
        lantern = copy.deepcopy(good)
        lantern["steps"].insert(0, {"do": "use", "item": "lantern", "cell": [0, 0]})
        with pytest.raises(ValidationError, match=r"cannot make|does not replay"):
            runs.resume(lantern)


def test_a_run_played_twice_from_its_seed_and_steps_is_the_same():
    a, b = Run(12), Run(12)
    for run in (a, b):
        run.use_item("lantern")
        run.use_item("blast")
        play_round(run)
    assert json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)


def test_the_table_needs_its_rewards_named_by_field():
    data = load_run_table().to_json()
    del data["rewards"]["max_stack"]
    data["rewards"]["heal"] = -1
    with pytest.raises(ValidationError) as info:
        type(load_run_table()).from_json(data)
    paths = {issue.path for issue in info.value.issues}
    assert paths == {"rewards.max_stack", "rewards.heal"}


def test_intent_on_an_unknown_item_names_it():
    answer = runs.open(1)
    with pytest.raises(GridforgeError, match="no item"):
        runs.act(answer["id"], {"do": "use", "item": "sword"})
    runs.close(answer["id"])
    assert Intent("stop").to_json() == {"kind": "stop"}


def test_the_daily_seed_comes_from_the_date_alone():
    from gridforge.mines.page import daily_seed
    assert daily_seed("2026-12-06") == daily_seed("2026-12-06")
    seeds = {daily_seed(f"2026-01-{d:02d}") for d in range(1, 32)}
    assert len(seeds) == 31 and all(0 <= s < 2**31 for s in seeds)
    for bad in ("2026-13-01", "2026-02-30", "today", 20261206, None, "2026-1-1"):
        with pytest.raises(ValidationError) as info:
            daily_seed(bad)
        assert info.value.issues[0].path == "date"


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 5_000), st.lists(st.sampled_from(
    ["dig", "dig", "dig", "stop", "probe", "shield", "lantern", "blast", "pick"]), max_size=40))
def test_a_save_taken_anywhere_resumes_the_exact_run(seed, inputs):
    """Random play with picks and items through the midend: the save resumes the same view,
    offer, sparks, items and offers (and the same save again)."""
    from tests.mines.fixtures import PlayedRun, replay_saved

    table = load_run_table(EASY)
    run = PlayedRun(seed, table)
    for kind in inputs:
        if run.status in ("won", "lost"):
            break
        if run.status == "settled":
            if kind == "pick" and run.run.offers:
                run._input("pick", choice=run.run.offers[seed % len(run.run.offers)])
            else:
                run.continue_run()
        elif kind == "dig":
            run.primary(next_safe_dig(run.run)[-1].cell)
        elif kind == "stop":
            run.act(Intent("stop"))
        elif kind in ITEMS:
            board = run.run.session.engine.board
            cell = next(((x, y) for y in range(board.rows) for x in range(board.cols)
                         if not run.run.session.engine.is_open((x, y))), None)
            run._input("use", choice=kind, cell=cell if kind == "probe" else None)
    saved = run.save()
    again = replay_saved(saved, table)
    assert json.dumps(again.run.to_json(), sort_keys=True) == json.dumps(run.run.to_json(),
                                                                         sort_keys=True)
    assert again.save() == saved
