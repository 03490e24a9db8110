"""B1 run orchestration: settlement attributed to events, battles won and lost, replayable."""

from __future__ import annotations

import json

import pytest
from gridforge.errors import GridforgeError, ValidationError
from gridforge.mines import page as runs
from gridforge.mines.intents import Intent
from gridforge.mines.run import Run
from gridforge.mines.run_table import RunTable, load_run_table


def neighbours8(cell, cols, rows):
    x, y = cell
    return [(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
            if (dx or dy) and 0 <= x + dx < cols and 0 <= y + dy < rows]


def next_safe_dig(run: Run) -> list[Intent]:
    """A test-only player that knows the mines: move next to a concealed safe cell, dig it."""
    engine, board = run.session.engine, run.session.engine.board
    opened = set(engine.opened)
    flags = set(engine.flags)
    for y in range(board.rows):
        for x in range(board.cols):
            cell = (x, y)
            if cell in opened or cell in flags or board.is_mine(cell):
                continue
            stands = [n for n in neighbours8(cell, board.cols, board.rows) if n in opened]
            for stand in stands:
                if stand == engine.avatar or engine.compute_move_path(stand):
                    return [Intent("move", stand), Intent("dig", cell)]
    raise AssertionError("no reachable safe cell left")


def play_round(run: Run, dig_mine: bool = False) -> dict:
    """Play intents until the round settles; returns the settlement."""
    for _ in range(200):
        if dig_mine:
            dig_mine = False
            engine, board = run.session.engine, run.session.engine.board
            for mine in sorted(board.mines, key=lambda c: (c[1], c[0])):
                for stand in neighbours8(mine, board.cols, board.rows):
                    if stand in set(engine.opened) and engine.compute_move_path(stand):
                        run.act(Intent("move", stand))
                        answer = run.act(Intent("dig", mine))
                        assert answer["events"][0]["kind"] == "mine"
                        break
                else:
                    continue
                break
        for intent in next_safe_dig(run):
            answer = run.act(intent)
            assert answer["outcome"]["accepted"], answer["outcome"]
            if answer["settlement"]:
                return answer["settlement"]
    raise AssertionError("round never ended")


def test_settlement_lines_come_from_the_round_events_and_initial_cells_never_pay():
    run = Run(11)
    before_enemy, before_player = run.enemy_hp, run.player_hp
    settlement = play_round(run)
    assert settlement["path_tag"] in ("ap_exhausted", "cleared")
    damage = sum(line["amount"] for line in settlement["lines"] if line["target"] == "enemy")
    assert before_enemy - damage == max(0, settlement["enemy_hp"]) or settlement["enemy_hp"] == 0
    sources = {line["source"] for line in settlement["lines"]}
    assert "safe_initial" not in sources  # B1 obligation 2
    assert sources <= {"safe_dig", "safe_chain", "clear_bonus", "enemy_attack", "flag_hit",
                       "chain_overflow"}
    attack = [line for line in settlement["lines"] if line["source"] == "enemy_attack"]
    assert attack and settlement["player_hp"] == before_player - attack[0]["amount"]


def test_a_dug_mine_is_an_ambush_on_the_player():
    run = Run(5)
    settlement = play_round(run, dig_mine=True)
    ambush = [line for line in settlement["lines"] if line["source"] == "mine_ambush"]
    assert len(ambush) == 1 and ambush[0]["target"] == "player"
    assert ambush[0]["amount"] == run.table.settlement["mine_ambush_damage"]


def test_flag_hits_weaken_once_per_mine_however_often_judged():
    run = Run(3)
    engine, board = run.session.engine, run.session.engine.board
    target = None
    for mine in sorted(board.mines, key=lambda c: (c[1], c[0])):
        stands = [n for n in neighbours8(mine, board.cols, board.rows) if n in set(engine.opened)]
        if stands:
            target = (mine, stands[0])
            break
    assert target is not None
    mine, stand = target
    run.act(Intent("move", stand))
    assert run.act(Intent("flag_place", mine))["outcome"]["accepted"]
    first = run.act(Intent("stop"))["settlement"]
    hits = [line for line in first["lines"] if line["source"] == "flag_hit"]
    assert [line["cell"] for line in hits] == [list(mine)]
    run.continue_run()
    second = run.act(Intent("stop"))["settlement"]
    assert not [line for line in second["lines"] if line["source"] == "flag_hit"]
    # the cut weakens the attack of the round the flag was first judged in, no later one
    attacks = [[line["amount"] for line in s["lines"] if line["source"] == "enemy_attack"]
               for s in (first, second)]
    assert attacks == [[run.battle.attack - 1], [run.battle.attack]]


def test_winning_a_battle_moves_to_the_next_with_a_new_board():
    run = Run(21, load_run_table({"battles": [
        {"preset": "battle-1", "enemy": "Rat", "hp": 3, "attack": 0},
        {"preset": "battle-2", "enemy": "Spider", "hp": 50, "attack": 1},
    ]}))
    settlement = play_round(run)
    assert settlement["result"] == "battle_won"
    run.continue_run()
    state = run.to_json()
    assert state["battle"] == 2 and state["enemy"]["name"] == "Spider"
    assert state["board"]["cols"] == 10 and state["phase"] == "active"
    summary = run.settlements[0]["battle_summary"]
    assert summary["won"] and summary["battle"] == 1 and summary["enemy"] == "Rat"
    assert summary["damage_dealt"] == 3 and summary["rounds"] == 1


def test_the_run_is_lost_when_the_player_falls():
    run = Run(4, load_run_table({"player_hp": 2, "battles": [
        {"preset": "battle-1", "enemy": "Ogre", "hp": 99, "attack": 2}]}))
    settlement = run.act(Intent("stop"))["settlement"]
    assert settlement["result"] == "run_lost" and run.status == "lost"
    with pytest.raises(GridforgeError, match="nothing to continue"):
        run.continue_run()


def test_the_settlement_says_how_the_round_ended_and_what_felled_the_player():
    run = Run(4)
    answer = run.act(Intent("stop"))
    settlement = answer["settlement"]
    assert settlement["result"] == "continue"
    assert settlement["title"] == "Round over: you stopped."
    assert answer["messages"][-1]["text"] == settlement["title"]
    # A Stop that the enemy's strike then ends in a loss: the strike felled the player.
    run = Run(4, load_run_table({"player_hp": 2, "battles": [
        {"preset": "battle-1", "enemy": "Ogre", "hp": 99, "attack": 2}]}))
    answer = run.act(Intent("stop"))
    title = answer["settlement"]["title"]
    assert title == "You fell: the enemy's strike took your last HP."
    assert "stopped" not in title and "(" not in title
    assert answer["messages"][-1] == {"kind": "error", "text": title}
    # A dug mine's ambush that takes the last HP: the ambush felled the player.
    run = Run(5, load_run_table({"player_hp": 3, "battles": [
        {"preset": "battle-1", "enemy": "Ogre", "hp": 99, "attack": 0}]}))
    settlement = play_round(run, dig_mine=True)
    assert settlement["result"] == "run_lost"
    assert settlement["title"] == "You fell: an ambush (a mine you dug) took your last HP."


def test_the_hp_bars_show_what_the_round_so_far_will_settle():
    run = Run(11)
    state = run.to_json()
    assert state["enemy"]["pending"] == 0 and state["player"]["pending"] == 0
    assert state["player"]["strike"] == run.battle.attack
    for intent in next_safe_dig(run):
        run.act(intent)
    state = run.to_json()
    pending = run.pending()
    assert pending["enemy_damage"] > 0
    assert state["enemy"]["pending"] == min(state["enemy"]["hp"], pending["enemy_damage"])
    answer = run.act(Intent("stop"))
    settlement = answer["settlement"]
    state = run.to_json()
    # what the bar showed pending is what the settlement took, and the strike came
    assert settlement["enemy_hp_before"] - settlement["enemy_damage"] == state["enemy"]["hp"]
    assert settlement["player_hp_before"] - settlement["player_damage"] == state["player"]["hp"]
    assert settlement["enemy_damage"] == pending["enemy_damage"]
    assert settlement["player_damage"] == run.battle.attack
    # nothing is pending between rounds
    assert state["enemy"]["pending"] == 0 and state["player"] == {
        "hp": state["player"]["hp"], "max_hp": run.table.player_hp, "pending": 0, "strike": 0}


def test_no_strike_is_shown_once_the_round_so_far_fells_either_side():
    run = Run(11, load_run_table({"battles": [
        {"preset": "battle-1", "enemy": "Rat", "hp": 1, "attack": 3}]}))
    for intent in next_safe_dig(run):
        run.act(intent)
    state = run.to_json()
    assert state["enemy"]["pending"] == 1 == state["enemy"]["hp"]  # capped at what is left
    assert state["player"]["strike"] == 0


def test_same_seed_and_intents_replay_the_same_bytes():
    def transcript(seed: int) -> str:
        answer = runs.open(seed)
        run_id = answer.pop("id")  # the id counts runs; everything else must repeat
        lines = [answer]
        run = runs.MIDEND.game(run_id).run
        for _ in range(3):
            for intent in next_safe_dig(run):
                action = {"do": intent.kind, "cell": list(intent.cell)}
                lines.append({k: v for k, v in runs.act(run_id, action).items() if k != "id"})
        runs.close(run_id)
        return json.dumps(lines, sort_keys=True)

    assert transcript(99) == transcript(99)
    assert transcript(99) != transcript(100)


def test_paid_refresh_needs_banked_rap():
    run = Run(8)
    assert run.refresh()["accepted"] is False  # no RAP banked yet
    run.act(Intent("stop"))  # banks all 8 AP
    run.continue_run()
    board_before = run.session.engine.board
    answer = run.refresh()
    assert answer["accepted"] is True
    assert run.session.engine.board is not board_before
    assert all(ev["channel"] == "initial" for ev in answer["events"])


def test_bad_input_names_the_field():
    with pytest.raises(ValidationError) as info:
        RunTable.from_json({"format": "gridforge.mines.run/1", "player_hp": 0,
                            "settlement": {}, "battles": [{"preset": "nope", "enemy": "",
                                                           "hp": -1, "attack": 1}]})
    paths = [issue.path for issue in info.value.issues]
    assert "player_hp" in paths and "settlement.safe_cell_damage" in paths
    assert "battles[0].preset" in paths and "battles[0].enemy" in paths
    assert "battles[0].hp" in paths
    answer = runs.open(1)
    chord = runs.act(answer["id"], {"do": "chord", "cell": [0, 0]})["outcome"]
    assert chord == {"accepted": False, "outcome": "rejected", "reject_reason": "board_face",
                     "sub_reason": "out_of_catalog"}
    with pytest.raises(ValidationError):
        runs.act(answer["id"], ["dig", [0, 0]])
    with pytest.raises(GridforgeError, match="unknown mines run"):
        runs.act("r-nope", {"do": "stop"})


def test_hint_proves_only_true_facts_from_what_the_player_sees():
    for seed in range(6):
        answer = runs.open(seed)
        run = runs.MIDEND.game(answer["id"]).run
        for _ in range(3):
            proof = runs.act(answer["id"], {"do": "hint"})
            board = run.session.engine.board
            assert all(not board.is_mine(tuple(cell)) for cell in proof["safe"])
            assert all(board.is_mine(tuple(cell)) for cell in proof["mines"])
            assert proof["cell"] is not None and proof["text"]
            assert proof["constraints"] or proof["mine_count"]
            for intent in next_safe_dig(run):
                run.act(intent)
        runs.close(answer["id"])


def test_the_table_refuses_a_list_preset_and_every_bad_field_with_a_path():
    good = load_run_table().to_json()
    assert RunTable.from_json(good) == load_run_table()
    bad = json.loads(json.dumps(good))
    bad["battles"][0]["preset"] = ["battle-1"]
    bad["battles"][1]["hp"] = True
    bad["battles"][2]["speed"] = 3
    bad["settlement"]["extra"] = 1
    bad["colour"] = "red"
    with pytest.raises(ValidationError) as info:
        RunTable.from_json(bad)
    paths = {issue.path for issue in info.value.issues}
    assert paths == {"battles[0].preset", "battles[1].hp", "battles[2].speed",
                     "settlement.extra", "colour"}
    for data in ([], "run", None, {"format": "gridforge.mines.run/1", "battles": {}}):
        with pytest.raises(ValidationError):
            RunTable.from_json(data)


def test_every_ended_board_is_retired_before_the_next_is_installed():
    run = Run(21, load_run_table({"battles": [
        {"preset": "battle-1", "enemy": "Rat", "hp": 3, "attack": 0},
        {"preset": "battle-2", "enemy": "Spider", "hp": 1, "attack": 0},
    ]}))
    retired = []
    original = run.session.engine.retire_board

    def spy():
        retired.append(run.session.engine.board)
        return original()

    run.session.engine.retire_board = spy
    first = run.session.engine.board
    assert play_round(run)["result"] == "battle_won"
    run.continue_run()
    assert retired == [first]
    second = run.session.engine.board
    assert play_round(run)["result"] == "run_won"
    assert retired == [first, second] and run.session.engine.board is None
    state = run.to_json()  # the last board stays on the page after the run
    assert state["status"] == "won" and state["board"]["cols"] == second.cols
    assert state["offer"]["dig"] == [] and not state["offer"]["stop"]
    assert state["totals"]["battles_won"] == 2
