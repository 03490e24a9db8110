"""The mines page's contract: fog digits never leave Python, the view says what every click
does, saved runs resume exactly, far clicks move and dig, telemetry counts what it says."""

from __future__ import annotations

import json
import random
import re

import pytest
from gridforge.errors import ValidationError
from gridforge.mines import backend, page
from gridforge.mines import run_words as runs
from gridforge.mines.intents import REJECT_REASONS, SUB_REASONS, Intent
from gridforge.mines.run_table import load_run_table
from gridforge.mines.run_words import REFUSALS
from gridforge.mines.view import fog_digits, move_tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..page_copy import PageCopy
from .fixtures import PlayedRun, replay_saved

SHOWN = PageCopy()  # what the page keeps of each run, each answer applied to it

# Fog unlocks from the third battle: two one-hit battles first, then long foggy ones.
FOG_TABLE = {"battles": [
    {"preset": "battle-1", "enemy": "Rat", "hp": 1, "attack": 0},
    {"preset": "battle-2", "enemy": "Bat", "hp": 1, "attack": 0},
    {"preset": "battle-3", "enemy": "Wisp", "hp": 60, "attack": 1},
    {"preset": "battle-5", "enemy": "Warden", "hp": 90, "attack": 1},
]}


def fog_table():
    return load_run_table(FOG_TABLE)


def fog_run(seed: int) -> PlayedRun:
    """A run of FOG_TABLE brought to its first foggy board by a player who knows the mines."""
    run = PlayedRun(seed, fog_table())
    while run.battle_index < 2:
        engine, board = run.session.engine, run.session.engine.board
        target = next((x, y) for y in range(board.rows) for x in range(board.cols)
                      if not engine.is_open((x, y)) and not board.is_mine((x, y))
                      and any(engine.is_open(n) for n in board.neighbours((x, y))))
        assert all(o["accepted"] for o in run.primary(target)["outcomes"])
        assert run.act(Intent("stop"))["settlement"]["result"] == "battle_won"
        run.continue_run()
    return run


def random_step(run: PlayedRun, rng: random.Random) -> dict:
    """One input a restless player might give: mostly what the view offers, sometimes not."""
    state = run.to_json()
    if state["status"] == "settled":
        return run.continue_run()
    offer = state["offer"]
    roll = rng.random()
    board = state["board"]
    if roll < 0.05:
        return run.act(Intent("stop"))
    if roll < 0.08 and state["can_refresh"]:
        return run.refresh()
    if roll < 0.15:  # anything at all, refusals included
        cell = (rng.randrange(-1, board["cols"] + 1), rng.randrange(board["rows"]))
        return (run.primary if rng.random() < 0.7 else run.secondary)(cell)
    choices = ([("p", c) for c in offer["dig"]] * 3 + [("p", c) for c in offer["reach"]]
               + [("p", c) for c in offer["move"]] + [("s", c) for c in offer["flag_place"]]
               + [("s", c) for c in offer["flag_pull"]])
    if not choices:
        return run.act(Intent("stop"))
    how, cell = rng.choice(choices)
    target = (cell[0], cell[1])
    return run.primary(target) if how == "p" else run.secondary(target)


def texts(answer: dict) -> list[str]:
    """Every string the page may print from an answer."""
    out = [line["text"] for line in answer.get("log", [])]
    out += [m["text"] for m in answer.get("messages", [])]
    settlement = answer.get("settlement")
    if settlement:
        out += [line["text"] for line in settlement["lines"]] + [settlement["path_text"]]
    return out


def assert_no_fog_digit(run: PlayedRun, answer: dict) -> None:
    board = run.session.engine.board
    if board is None:
        return
    fog = fog_digits(board)
    state = run.to_json()
    for (x, y) in fog:
        assert not isinstance(state["board"]["grid"][y][x], int), (x, y)
    for event in answer.get("events", []):
        if event["type"] == "cell_revealed" and tuple(event["cell"]) in fog:
            assert "digit" not in event, event
    hint = run.proved_next()
    for text in [*texts(answer), state["tip"] or "", hint["text"]]:
        # no line numbers a cell (issue 21): cells are pointed at, as data
        assert not re.search(r"[\[(]\d+, \d+[\])]", text), text
    # A line that points at a fog cell never shows its digit: "Dug this cell: it shows d"
    # is the log's way to tell a digit, "this d" the hint's.
    lines = [*answer.get("log", []), {"parts": hint["parts"]}]
    for line in lines:
        for k, part in enumerate(line["parts"]):
            if isinstance(part, dict) and tuple(part["cell"]) in fog:
                assert not re.search(r"\d", part["text"]), line
                after = line["parts"][k + 1] if k + 1 < len(line["parts"]) else ""
                assert not (isinstance(after, str) and "shows" in after), line


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), play=st.integers(0, 10**6))
def test_no_fog_digit_in_any_view_event_or_text(seed, play):
    run = fog_run(seed)
    rng = random.Random(play)
    assert fog_digits(run.session.engine.board)  # these boards have fog
    for _ in range(60):
        answer = random_step(run, rng)
        assert_no_fog_digit(run, answer)
        if run.status in ("won", "lost"):
            break
    board = run.session.engine.board
    if board is not None:
        for x, y in fog_digits(board):
            if run.session.engine.is_open((x, y)):
                assert run.to_json()["board"]["grid"][y][x] == "open-fog"


def test_an_opened_fog_cell_is_floor_without_digit_in_the_view_and_events():
    for seed in range(40):
        run = fog_run(seed)
        rng = random.Random(seed)
        for _ in range(80):
            answer = random_step(run, rng)
            reveals = [e for e in answer.get("events", []) if e["type"] == "cell_revealed"
                       and e["variant_ids"]]
            if reveals:
                x, y = reveals[0]["cell"]
                assert "digit" not in reveals[0]
                assert run.to_json()["board"]["grid"][y][x] == "open-fog"
                assert any("fog" in line["text"] for line in answer["log"])
                return
    pytest.fail("no fog cell was opened in 40 random runs")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), play=st.integers(0, 10**6), length=st.integers(1, 90))
def test_replaying_a_saved_run_gives_the_same_state(seed, play, length):
    table = fog_table()
    run = fog_run(seed)
    rng = random.Random(play)
    for _ in range(length):
        random_step(run, rng)
        if run.status in ("won", "lost"):
            break
    saved = json.loads(json.dumps(run.save()))  # as the page stores it
    again = replay_saved(saved, table)
    assert json.dumps(again.to_json()) == json.dumps(run.to_json())
    assert again.telemetry() == run.telemetry()
    assert again.save() == run.save()


def state_of(answer: dict) -> dict:
    """The run as the page draws it after ``answer``: its view and offer, kept whole."""
    whole = SHOWN(answer)
    return {**whole["view"], "offer": whole["offer"]}


def test_resume_through_the_page_rebuilds_board_ap_flags_and_hp():
    answer = page.open(12)
    run_id = answer["id"]
    state = state_of(answer)
    x, y, sx, sy = state["offer"]["reach"][0]
    # a move beside a concealed cell
    state_of(page.act(run_id, {"do": "primary", "cell": [sx, sy]}))
    state = state_of(page.act(run_id, {"do": "primary", "cell": [x, y]}))  # a dig
    if not state["offer"]["flag_place"]:
        x, y, sx, sy = state["offer"]["reach"][0]
        state = state_of(page.act(run_id, {"do": "primary", "cell": [sx, sy]}))
    fx, fy = state["offer"]["flag_place"][0]
    last = page.act(run_id, {"do": "secondary", "cell": [fx, fy]})
    assert last["save"] is not None  # a flag placed changes the run: the answer saves it
    state = state_of(last)
    resumed = page.resume(last["save"])
    assert resumed["id"] != run_id
    again = state_of(resumed)
    for key in ("board", "ap", "rap", "player", "enemy", "round", "offer", "pending"):
        assert again[key] == state[key], key
    assert again["board"]["grid"][fy][fx] == "flag"


def _played_with_its_log(seed: int) -> tuple[dict, dict, list[str]]:
    """A run played through the page (far-click digs, continues after each settlement): its
    last answer made whole, its state, and the log lines its answers gave since the current
    board began, as the page keeps them."""
    answer = page.open(seed)
    run_id, shown = answer["id"], list(answer["log"])
    state = state_of(answer)
    boards = 1
    for _ in range(200):
        if state["status"] in ("won", "lost") or (len(shown) > 40 and boards > 1):
            break
        if state["can_continue"]:
            answer = page.act(run_id, {"do": "continue"})
        elif state["offer"]["reach"]:
            x, y, _sx, _sy = state["offer"]["reach"][0]
            answer = page.act(run_id, {"do": "primary", "cell": [x, y]})
        else:
            answer = page.act(run_id, {"do": "stop", "cell": [0, 0]})
        now = state_of(answer)
        if (now["battle"], now["board_no"]) != (state["battle"], state["board_no"]):
            shown, boards = [], boards + 1  # a new board: the page starts its log anew
        shown += answer["log"]
        state = now
    return SHOWN.games[run_id], state, shown


def test_resume_gives_back_the_event_log_as_it_was_shown(monkeypatch):
    new_boards = 0
    for seed in range(8):
        answer, state, shown = _played_with_its_log(seed)
        assert shown
        assert page.resume(answer["save"])["log"] == shown[-60:]  # the page keeps 60
        new_boards += state["board_no"] > 1 or state["battle"] > 1
    assert new_boards  # some runs reached a later board: its log starts with that board
    monkeypatch.setattr(backend, "RESUMED_LOG_LINES", 10)  # the newest lines, when more
    assert page.resume(answer["save"])["log"] == shown[-10:]


def test_a_bad_save_is_refused_naming_the_field_and_changes_nothing():
    good = page.open(5)["save"]
    count = len(page.MIDEND)
    cases = {
        "format": {**good, "format": "x"},
        "seed": {**good, "seed": "5"},
        "table": {**good, "table": "0000"},
        "steps": {**good, "steps": {}},
        "steps[0].do": {**good, "steps": [{"do": "jump"}]},
        "steps[1]": {**good, "steps": [{"kind": "stop"}, {"do": "reach", "cell": [1]}]},
        "steps[0].kind": {**good, "steps": [{"kind": 3}]},
        "steps[2]": {**good, "steps": [{"kind": "stop"}, {"do": "continue"},
                                       {"do": "continue"}]},
    }
    for path, data in cases.items():
        with pytest.raises(ValidationError) as info:
            page.resume(data)
        assert path in [issue.path for issue in info.value.issues], (path, info.value.issues)
    with pytest.raises(ValidationError):
        page.resume([])
    assert len(page.MIDEND) == count


def test_the_move_tree_gives_exactly_the_engines_move_paths():
    for seed in range(8):
        run = PlayedRun(seed)
        rng = random.Random(seed)
        for _ in range(25):
            random_step(run, rng)
            engine = run.session.engine
            if engine.board is None:
                break
            tree = move_tree(engine)
            for cell in engine.opened:
                path = [cell]
                while path[-1] != engine.avatar:
                    path.append(tree[path[-1]])
                assert list(reversed(path)) == engine.compute_move_path(cell)


def test_every_offered_click_does_what_the_view_says():
    for seed in range(5):
        run = PlayedRun(seed)
        rng = random.Random(seed)
        for _ in range(30):
            state = run.to_json()
            if state["status"] != "playing":
                break
            offer = state["offer"]
            ap = state["ap"]
            for kind in ("dig", "reach", "move", "flag_place", "flag_pull"):
                for cell in offer[kind][:3]:
                    probe = replay_saved(run.save())
                    target = (cell[0], cell[1])
                    answer = (probe.secondary if kind.startswith("flag") else
                              probe.primary)(target)
                    assert all(o["accepted"] for o in answer["outcomes"]), (kind, answer)
                    spent = ap - probe.session.ledger.ap if probe.status == "playing" else None
                    if kind == "move":
                        assert probe.session.engine.avatar == target
                        assert spent == 0
                    elif kind == "reach":
                        assert len(answer["outcomes"]) == 2
                        assert probe.session.engine.is_open(target)
                        assert probe.steps[-1] == {"do": "reach", "cell": list(target)}
                    elif kind == "dig":
                        assert len(answer["outcomes"]) == 1
                        assert probe.session.engine.is_open(target)
                    if spent is not None and kind != "move":
                        assert spent == offer["costs"][kind]
            random_step(run, rng)


def test_a_far_click_moves_beside_the_cell_then_digs_it_as_two_batches():
    run = PlayedRun(3)
    far = run.to_json()["offer"]["reach"][0]
    target, stand = (far[0], far[1]), (far[2], far[3])
    path = run.session.engine.compute_move_path(stand)
    answer = run.primary(target)
    assert [o["outcome"] for o in answer["outcomes"]] == ["executed", "executed"]
    assert run.session.engine.avatar == stand and len(path) >= 2
    assert run.session.engine.is_open(target)
    assert run.telemetry()["rounds"][0]["batches"] == 2
    assert run.telemetry()["rounds"][0]["input_actions"] == 1


def test_a_far_click_with_no_ground_beside_the_cell_is_refused_in_words():
    run = PlayedRun(3)
    state = run.to_json()
    board = state["board"]
    reach = {(c[0], c[1]) for c in state["offer"]["reach"]}
    lonely = next((x, y) for y in range(board["rows"]) for x in range(board["cols"])
                  if board["grid"][y][x] == "concealed" and (x, y) not in reach)
    answer = run.primary(lonely)
    assert answer["outcome"]["sub_reason"] == "not_adjacent"
    assert answer["messages"][0]["text"].startswith("No opened ground")
    assert run.session.ledger.ap == state["ap"]


def test_every_refusal_is_in_the_players_words():
    run = PlayedRun(3)
    answer = run.act(Intent("chord", (0, 0)))
    assert answer["messages"] == [{"kind": "error", "text": REFUSALS["out_of_catalog"]}]
    state = run.to_json()
    x, y = next((x, y) for y in range(state["board"]["rows"])
                for x in range(state["board"]["cols"])
                if state["board"]["grid"][y][x] == "concealed")
    assert run.act(Intent("move", (x, y)))["messages"][0]["text"] == \
        REFUSALS["target_concealed"]
    assert "Too far to flag" in run.secondary((x, y))["messages"][0]["text"]
    run.act(Intent("stop"))
    text = run.primary((x, y))["messages"][0]["text"]
    assert "Continue" in text
    for answer_text in REFUSALS.values():
        assert "_" not in answer_text  # no internal names reach the player


def test_pending_ambush_damage_shows_at_once():
    run = PlayedRun(5)
    engine, board = run.session.engine, run.session.engine.board
    for mine in sorted(board.mines, key=lambda c: (c[1], c[0])):
        stand = next((n for n in board.neighbours(mine) if engine.is_open(n)
                      and engine.compute_move_path(n)), None)
        if stand is not None:
            break
    run.act(Intent("move", stand))
    answer = run.primary(mine)
    assert "Ambush" in answer["messages"][0]["text"]
    pending = run.to_json()["pending"]
    damage = run.table.settlement["mine_ambush_damage"]
    assert pending["ambushes"] == 1 and pending["player_damage"] == damage
    assert run.to_json()["board"]["mines_left"] == len(board.mines) - 1


def test_mine_total_and_mines_left_are_in_every_view():
    run = PlayedRun(9)
    rng = random.Random(9)
    for _ in range(60):
        random_step(run, rng)
        if run.status in ("won", "lost"):
            break
        view = run.to_json()["board"]
        grid = [v for row in view["grid"] for v in row]
        assert view["mine_total"] == len(run.session.engine.board.mines)
        assert view["mines_left"] == view["mine_total"] - grid.count("mine") - grid.count("flag")


def test_telemetry_counts_inputs_ap_batches_chains_and_rejections():
    run = PlayedRun(3)
    far = run.to_json()["offer"]["reach"][0]
    run.primary((far[0], far[1]))  # 1 input, 2 batches, 1 AP
    moved = run.act(Intent("move", (0, 0)))  # one input and one batch when it moved
    refused = run.act(Intent("chord", (0, 0)))  # refused: out_of_catalog
    # an input that changed nothing is no step of the run: nor is it counted (a resumed
    # run counts what its save replays)
    assert refused["refused"]["reason"] == "unchanged.out_of_catalog"
    data = run.telemetry()
    assert data["format"] == "gridforge.mines.telemetry/1"
    first = data["rounds"][0]
    inputs = 1 if moved["refused"] else 2
    assert first["input_actions"] == inputs and first["ap_spent"] == 1
    assert first["batches"] == inputs + 1 and "out_of_catalog" not in first["rejections"]
    assert first["actions_per_ap"] == inputs and len(first["chain_sizes"]) == 1
    assert data["totals"]["chain_sizes"] == {str(first["chain_sizes"][0]): 1}
    # every counted reason has its words for the stats panel, and every known reason has words
    words = data["totals"]["reason_words"]
    assert set(words) == set(data["totals"]["rejections"])
    assert set(runs.REASON_WORDS) >= {*REJECT_REASONS, *SUB_REASONS, "voided"}
    assert all("_" not in text for text in runs.REASON_WORDS.values())
    run.act(Intent("stop"))
    run.continue_run()
    assert len(run.telemetry()["rounds"]) == 2
    json.dumps(data)  # JSON as it stands


def test_the_page_lists_the_run_calls():
    for name in ("open", "resume", "act", "close", "telemetry", "run_state", "move_path"):
        assert name in page.__all__ and callable(getattr(page, name))
    with pytest.raises(ValidationError) as info:
        page.act(page.open(1)["id"], {"do": "primary", "cell": [1, "2"]})
    assert [issue.path for issue in info.value.issues] == ["input.cell"]
