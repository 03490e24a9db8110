"""The seed's 23 acceptance criteria (AC-1 ... AC-22 and AC-1b), one test each.

Every test runs the real engine on a real ledger (A3 instance, prices read from the data
file unless a debug override is named) on the seed's fixture boards built in code
(tests/mines/fixtures.py, where every registered constant is derived by hand). Expected
numbers are derived from the ledger's prices and the registered constants, never written
as gameplay literals. Where a seed count and its formulas disagree, the formulas win and
the test says so.
"""

from __future__ import annotations

import ast
import json
from itertools import pairwise
from pathlib import Path

import gridforge.mines.engine as engine_module
import pytest
from gridforge.mines.board import Board, initial_expansion
from gridforge.mines.intents import Intent
from gridforge.mines.ledger import Economy, load_economy

from .fixtures import (
    B_CHAIN_CASCADE,
    B_CHAIN_CHAIN_SIZE,
    B_CHAIN_CHAIN_SIZE_FLAGGED,
    B_CHAIN_R0_SIZE,
    B_CHAIN_WALK,
    B_FOG_R0_SIZE,
    B_MINE_WALK_R0_SIZE,
    B_SPAWN_DIG_ALL,
    B_SPAWN_R0_SIZE,
    B_SPAWN_SAFE,
    B_SPAWN_UNOPENED,
    Harness,
    b_batch,
    b_chain,
    b_degenerate,
    b_flag,
    b_fog,
    b_fog_bare,
    b_invalid_digit,
    b_invalid_fog_flood,
    b_invalid_fog_spawn,
    b_invalid_mine_spawn,
    b_mine_walk,
    b_spawn,
    naive_bfs,
    naive_digit,
    naive_r0,
)

ECON = Economy()
AP = ECON.ap_per_round
DIG = ECON.dig_ap_cost
PLACE = ECON.flag_place_ap_cost
PULL = ECON.flag_pull_ap_cost


def cells(events: list[dict]) -> list[tuple[int, int]]:
    return [tuple(ev["cell"]) for ev in events]


def round_ends(events: list[dict]) -> list[dict]:
    return [ev for ev in events if ev["type"] == "round_end"]


def test_AC_1() -> None:
    board = b_spawn()
    h = Harness()
    assert h.engine.install_board(board).accepted
    assert h.ledger.notify_round_start()
    # Only cell_revealed events, one per R0 cell.
    assert set(h.types()) == {"cell_revealed"}
    # (1) free: AP is the table value, no diagnostic.
    assert h.ledger.ap == AP
    assert h.engine.diagnostics == []
    # (3) no reward, channel initial; (4) never a mine, never a variant.
    assert all(ev["channel"] == "initial" and ev["reward_eligible"] is False for ev in h.stream)
    assert all(ev["kind"] == "safe" and ev["variant_ids"] == [] for ev in h.stream)
    # (5) exactly R0, in canonical order, against a naive BFS; registered |R0| = 35.
    assert cells(h.stream) == naive_r0(board)
    assert len(h.stream) == B_SPAWN_R0_SIZE
    # (2) counts toward clearing: digging the 8 unopened cells clears exactly on the 8th.
    assert h.engine.remaining_safe == B_SPAWN_SAFE - B_SPAWN_R0_SIZE == len(B_SPAWN_UNOPENED)
    for k, step in enumerate(B_SPAWN_DIG_ALL, start=1):
        h.walk([step])
        ends = round_ends(h.stream)
        if k < len(B_SPAWN_UNOPENED):
            assert ends == [], k
        else:
            assert [(e["path_tag"], e["continuation_hint"]) for e in ends] == [
                ("cleared", "new_board")
            ]


def test_AC_1b() -> None:
    h = Harness()
    before = h.observables()
    outcome = h.engine.install_board(b_degenerate())
    assert (outcome.accepted, outcome.outcome, outcome.reject_reason) == (
        False,
        "rejected",
        "board_invalid",
    )
    errors = [d for d in h.engine.diagnostics if d["level"] == "error"]
    assert [d["category"] for d in errors] == ["inv4_r0_equals_s"]
    assert h.observables() == before and h.stream == []
    # Atomic: the next install works.
    assert h.engine.install_board(b_spawn()).accepted
    assert len(h.stream) == B_SPAWN_R0_SIZE


@pytest.mark.parametrize(
    ("make", "category"),
    [
        (b_invalid_mine_spawn, "inv1_mine_in_spawn"),
        (b_invalid_fog_spawn, "inv2a_variant_in_spawn"),
        (b_invalid_fog_flood, "inv2b_variant_in_r0"),
        (b_invalid_digit, "inv3_digit_invariant"),
    ],
)
def test_AC_2(make, category) -> None:
    h = Harness()
    h.engine.reset_diagnostics()
    outcome = h.engine.install_board(make())
    assert (outcome.accepted, outcome.reject_reason, outcome.sub_reason) == (
        False,
        "board_invalid",
        None,
    )
    assert [(d["level"], d["category"]) for d in h.engine.diagnostics] == [("error", category)]
    assert h.stream == [] and h.engine.board is None


@pytest.mark.parametrize(("make", "size"), [(b_chain, B_CHAIN_R0_SIZE), (b_fog, B_FOG_R0_SIZE)])
def test_AC_3(make, size) -> None:
    board = make()
    h = Harness()
    h.engine.install_board(board)
    seen = cells(h.stream)
    r0 = naive_r0(board)
    ring = {
        (x + dx, y + dy)
        for x, y in r0
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if 0 <= x + dx < board.cols and 0 <= y + dy < board.rows
    }
    # Arm 1: E(B) within X(B) = R0 plus one ring; arm 2: E(B) equals R0, cell by cell.
    assert set(seen) <= ring
    assert seen == r0 and len(seen) == size
    # The generator's R0 (board.initial_expansion) is the same list.
    assert initial_expansion(board) == seen


def test_AC_4() -> None:
    board = b_spawn()
    h = Harness.active(board)
    assert h.engine.try_move((2, 3)).outcome == "executed"
    mark = len(h.stream)
    out = h.engine.try_dig((1, 3))
    assert out.outcome == "executed" and out.accepted
    assert h.ledger.ap == AP - DIG
    assert h.stream[mark:] == [
        {
            "type": "cell_revealed",
            "cell": [1, 3],
            "kind": "safe",
            "digit": naive_digit(board, (1, 3)),
            "variant_ids": [],
            "channel": "dig",
            "reward_eligible": True,
        }
    ]
    # Rejections: not adjacent, revealed, flagged; no event, no AP.
    assert h.engine.try_flag_place((1, 2)).outcome == "executed"
    ap, mark = h.ledger.ap, len(h.stream)
    for target, sub in [((0, 0), "not_adjacent"), ((3, 3), "target_revealed"),
                        ((1, 2), "flag_present")]:  # fmt: skip
        out = h.engine.try_dig(target)
        assert (out.outcome, out.reject_reason, out.sub_reason) == ("rejected", "board_face", sub)
    assert h.ledger.ap == ap and len(h.stream) == mark

    # Equivalence guard: try_dig(c) and settle_batch([dig c]) from the same state.
    def prepared() -> Harness:
        g = Harness.active(board)
        g.engine.try_move((2, 3))
        return g

    one, batch = prepared(), prepared()
    out_one = one.engine.try_dig((1, 3))
    out_batch = batch.engine.settle_batch([Intent("dig", (1, 3))])
    assert [out_one] == out_batch
    assert one.stream == batch.stream
    assert one.observables() == batch.observables()
    assert one.engine.diagnostics == batch.engine.diagnostics


def test_AC_5() -> None:
    board = b_chain()
    # Branch 1: the third dig hits the 0-cell (3,6).
    h = Harness.active(board)
    h.walk(B_CHAIN_WALK[:2])
    opened_before = set(h.engine.opened)
    mark = len(h.stream)
    h.walk(B_CHAIN_WALK[2:])
    assert h.ledger.phase == "waiting"  # the chain opened the last safe cells: cleared
    revealed = [ev for ev in h.stream[mark:] if ev["type"] == "cell_revealed"]
    # AP: three digs, the chain is free (not 3 + 13).
    assert h.ledger.last_round_end["ap_forfeited"] == AP - len(B_CHAIN_WALK) * DIG
    # F2: chain_size = 12, events = chain_size + 1 = 13 (the seed's "13 chain events"
    # counts the dug cell; the formulas win, see fixtures.py).
    assert [ev["channel"] for ev in revealed] == ["dig"] + ["chain"] * B_CHAIN_CHAIN_SIZE
    assert len(revealed) == B_CHAIN_CASCADE == B_CHAIN_CHAIN_SIZE + 1
    assert cells(revealed) == naive_bfs(board, [(3, 6)], opened_before, set())
    assert all(ev["reward_eligible"] and ev["kind"] == "safe" for ev in revealed)
    assert all(ev["digit"] == naive_digit(board, tuple(ev["cell"])) for ev in revealed)
    # The chain stops at nonzero cells: every non-dug cell it opened is a 0-cell's neighbour.
    assert all(naive_digit(board, c) != 0 for c in cells(revealed) if c[1] == 5)
    # Chain cells count toward clearing: the round ended cleared right there.
    assert [e["path_tag"] for e in round_ends(h.stream)] == ["cleared"]

    # Branch 2: a flag on (2,5) blocks the chain at that cell only (EC17).
    h = Harness.active(board)
    h.walk(B_CHAIN_WALK[:2])
    assert h.engine.try_move((3, 5)).outcome == "executed"
    assert h.engine.try_flag_place((2, 5)).outcome == "executed"
    opened_before = set(h.engine.opened)
    mark = len(h.stream)
    assert h.engine.try_dig((3, 6)).outcome == "executed"
    revealed = h.stream[mark:]
    assert (2, 5) not in cells(revealed) and h.engine.has_flag((2, 5))
    assert not h.engine.is_open((2, 5))
    assert {(1, 5), (1, 6)} <= set(cells(revealed))  # reached around the flag via (2,6)
    # F2: chain_size = 11 (the seed registers 12 = its 13 minus one; formulas win).
    assert len(revealed) - 1 == B_CHAIN_CHAIN_SIZE_FLAGGED == B_CHAIN_CHAIN_SIZE - 1
    assert cells(revealed) == naive_bfs(board, [(3, 6)], opened_before, {(2, 5)})
    assert h.ledger.ap == AP - len(B_CHAIN_WALK) * DIG - PLACE
    # The flag is judged as usual at the round end (a safe cell: miss).
    h.stop()
    assert [ev for ev in h.stream if ev["type"] == "flag_judged"] == [
        {"type": "flag_judged", "cell": [2, 5], "hit": False}
    ]


def test_AC_6() -> None:
    board = b_fog()
    h = Harness.active(board)
    h.walk(B_CHAIN_WALK[:2])
    ap_before = h.ledger.ap
    mark = len(h.stream)
    h.walk(B_CHAIN_WALK[2:])
    revealed = h.stream[mark:]
    by_cell = {tuple(ev["cell"]): ev for ev in revealed}
    # (1) chain-reachable fog opened free, channel chain, no extra AP.
    assert h.ledger.ap == ap_before - DIG
    for fog_cell, digit in [((0, 5), 2), ((1, 5), 3)]:  # registered fog digits
        ev = by_cell[fog_cell]
        # (2) the fog mark and the true digit are carried.
        assert ev["channel"] == "chain" and ev["variant_ids"] == ["fog"]
        assert ev["digit"] == digit == naive_digit(board, fog_cell)
        # (4) rewarded as any safe cell.
        assert ev["reward_eligible"] is True
    # (3) the cascade has the same cells, in the same order, as on b_chain.
    twin = Harness.active(b_chain())
    twin.walk(B_CHAIN_WALK[:2])
    mark_twin = len(twin.stream)
    twin.walk(B_CHAIN_WALK[2:])
    twin_revealed = [ev for ev in twin.stream[mark_twin:] if ev["type"] == "cell_revealed"]
    assert cells(revealed) == cells(twin_revealed)
    # (4) counted toward clearing.
    assert h.engine.remaining_safe == board.safe_count - len(h.engine.opened)

    # Chain-unreachable fog: dug at full price.
    h = Harness.active(board)
    assert h.engine.try_move((5, 1)).outcome == "executed"
    mark = len(h.stream)
    out = h.engine.try_dig((6, 0))
    assert out.outcome == "executed" and h.ledger.ap == AP - DIG
    (ev,) = h.stream[mark:]
    assert (ev["channel"], ev["variant_ids"], ev["digit"]) == ("dig", ["fog"], 2)


def dig_all_but(h: Harness, left: int) -> None:
    """Dig b_batch's unopened cells in order until ``left`` remain unopened."""
    h.walk(B_SPAWN_DIG_ALL[: len(B_SPAWN_DIG_ALL) - left])


def test_AC_7() -> None:
    # Case 1: one unopened cell, ap = 1: cleared and exhausted at once -> cleared.
    h = Harness.active(b_batch())
    dig_all_but(h, 1)
    assert h.ledger.ap == AP - (len(B_SPAWN_UNOPENED) - 1) * DIG == DIG
    rap = h.ledger.rap
    move, last = B_SPAWN_DIG_ALL[-1]
    h.engine.try_move(move)
    assert h.engine.try_dig(last).outcome == "executed"
    ends = round_ends(h.a2)
    assert len(ends) == 1 and round_ends(h.a3) == []
    (end,) = ends
    assert (end["path_tag"], end["continuation_hint"]) == ("cleared", "new_board")
    assert {k: v for k, v in end.items() if k != "type"} == h.ledger.last_round_end
    assert h.ledger.rap == rap
    cleared_shape = {k: type(v) for k, v in end.items()}

    # Case 2: same construction with k >= 2 AP left: the k - 1 left are forfeited.
    h = Harness.active(b_batch())
    dig_all_but(h, 2)
    h.stop()  # bank, then a fresh round with the full AP
    h.next_round()
    h.walk(B_SPAWN_DIG_ALL[-2:-1])
    k = h.ledger.ap
    assert k >= 2
    rap = h.ledger.rap
    move, last = B_SPAWN_DIG_ALL[-1]
    h.engine.try_move(move)
    h.engine.try_dig(last)
    ends = round_ends(h.a2)
    assert [e["path_tag"] for e in ends] == ["cleared"]
    assert h.ledger.rap == rap and h.ledger.ap == 0
    assert ends[0]["ap_forfeited"] == k - DIG > 0
    # Same payload shape as the stopped path (A3's emitter).
    stopped = round_ends(h.a3)[0]
    assert {k2: type(v) for k2, v in stopped.items()} == cleared_shape


def test_AC_8() -> None:
    h = Harness.active(b_batch())
    # ap = 1 with >= 2 unopened: one flag (on a mine) and 6 digs.
    h.engine.try_move((2, 3))
    assert h.engine.try_flag_place((1, 2)).outcome == "executed"
    h.walk(B_SPAWN_DIG_ALL[:6])
    assert h.ledger.ap == AP - PLACE - 6 * DIG == DIG
    assert h.engine.remaining_safe == 2
    h.engine.try_move((0, 4))
    assert h.engine.try_dig((0, 5)).outcome == "executed"
    ends = round_ends(h.stream)
    assert [(e["path_tag"], e["continuation_hint"]) for e in ends] == [
        ("ap_exhausted", "same_board")
    ]
    assert h.ledger.ap == 0 and h.ledger.phase == "waiting"
    assert h.types()[-2:] == ["flag_judged", "round_end"]
    mark, state = len(h.stream), h.observables()
    for out in [
        h.engine.try_dig((0, 6)),
        h.engine.try_flag_place((0, 6)),
        h.engine.try_flag_pull((1, 2)),
        h.engine.try_move((0, 4)),
        h.stop(),
    ]:
        assert (out.outcome, out.reject_reason) == ("rejected", "phase")
    assert len(h.stream) == mark and h.observables() == state


def test_AC_9() -> None:
    h = Harness.active(b_batch())
    h.engine.try_move((2, 3))
    h.engine.try_flag_place((1, 2))
    h.engine.try_flag_place((1, 4))
    h.walk(B_SPAWN_DIG_ALL[:1])
    k, rap = h.ledger.ap, h.ledger.rap
    assert k >= 1
    assert h.engine.settle_batch([Intent("stop")])[0].outcome == "executed"
    assert round_ends(h.a2) == []  # A2 never emits the stopped round end
    assert [(e["path_tag"], e["continuation_hint"]) for e in round_ends(h.a3)] == [
        ("stopped", "same_board")
    ]
    assert h.ledger.rap == rap + k
    # Flag judgements (row-major) before the round end.
    assert h.types()[-3:] == ["flag_judged", "flag_judged", "round_end"]
    assert cells(h.stream[-3:-1]) == [(1, 2), (1, 4)]


def _batch_case(batch_of, setup):
    h = Harness.active(b_batch())
    setup(h)
    intents = batch_of(h)
    ap, rap = h.ledger.ap, h.ledger.rap
    mark = len(h.stream)
    outcomes = h.engine.settle_batch(intents)
    return h, outcomes, h.stream[mark:], rap, ap


def _one_left(h: Harness) -> None:
    dig_all_but(h, 1)
    h.engine.try_move(B_SPAWN_DIG_ALL[-1][0])


def _ap_one_left_safe_one(h: Harness) -> None:
    # "ap = 1, 7 non-clearing digs": 7 safe digs leave ap = 1 and one unopened safe cell
    # (0,6); the batch's dig is the mine (1,5): never clearing (a mine is not in S), the
    # counterexample to the "rem = 1 means any dig clears" shortcut.
    dig_all_but(h, 1)
    h.engine.try_move((0, 5))
    assert h.ledger.ap == AP - (len(B_SPAWN_UNOPENED) - 1) * DIG


def test_AC_10() -> None:
    last = B_SPAWN_DIG_ALL[-1][1]
    dig_last, stop = Intent("dig", last), Intent("stop")
    results = {}
    for name, intents in {"a": [dig_last, stop], "b": [stop, dig_last]}.items():
        h, outs, events, rap, _ = _batch_case(lambda _h, i=intents: i, _one_left)
        exec_dig = outs[intents.index(dig_last)]
        assert exec_dig.outcome == "executed" and outs[intents.index(stop)].outcome == "voided"
        assert [e["path_tag"] for e in round_ends(events)] == ["cleared"]
        assert h.ledger.rap == rap  # the stop was voided: nothing banked
        results[name] = (round_ends(events), h.ledger.rap, len(events))
    assert results["a"] == results["b"]

    mine = Intent("dig", (1, 5))
    for name, intents in {"c": [mine, stop], "d": [stop, mine]}.items():
        h, outs, events, rap, ap = _batch_case(lambda _h, i=intents: i, _ap_one_left_safe_one)
        # Arrival order would give (ap_exhausted, RAP + 0); the semantic order gives stopped.
        assert outs[intents.index(stop)].outcome == "executed"
        assert outs[intents.index(mine)].outcome == "voided"
        assert [e["path_tag"] for e in round_ends(events)] == ["stopped"]
        assert h.ledger.rap == rap + ap  # ap = AP - 7 x DIG, banked 1:1
        assert not h.engine.is_open((1, 5))  # the voided dig left the board untouched
        assert [ev["type"] for ev in events] == ["round_end"]  # no flags standing
        results[name] = (round_ends(events), h.ledger.rap)
    assert results["c"] == results["d"]
    # c with a standing flag: flag_judged before round_end.
    h = Harness.active(b_batch())
    h.engine.try_move((2, 3))
    h.engine.try_flag_place((1, 4))
    h.walk(B_SPAWN_DIG_ALL[:6])
    h.engine.try_move((0, 5))
    assert h.ledger.ap == DIG
    mark = len(h.stream)
    h.engine.settle_batch([Intent("dig", (1, 5)), stop])
    assert [ev["type"] for ev in h.stream[mark:]] == ["flag_judged", "round_end"]

    # e: two clearing digs: the first in arrival order wins, the second is voided.
    h, outs, events, rap, _ = _batch_case(lambda _h: [dig_last, dig_last], _one_left)
    assert [o.outcome for o in outs] == ["executed", "voided"]
    assert len(round_ends(events)) == 1 and round_ends(events)[0]["path_tag"] == "cleared"
    assert len([ev for ev in events if ev["type"] == "cell_revealed"]) == 1

    # f: two non-clearing digs that clear together. The seed's GIVEN (dig the mine (1,2),
    # the rest of x = 0, stop) needs two mine digs (to reach (0,4..6) without (0,3),(1,3))
    # plus six safe digs = 8 AP: the round would end exhausted, not stopped. Formulas win:
    # we spread it over two stopped rounds.
    h = Harness.active(b_batch())
    h.walk([((2, 2), (1, 2)), ((1, 2), (0, 1)), (None, (0, 2)), ((0, 1), (0, 0))])  # (1,2): mine
    h.stop()
    h.next_round()
    h.walk([((2, 4), (1, 4)), ((1, 4), (0, 4)), (None, (0, 5)), ((0, 5), (0, 6))])  # (1,4): mine
    h.stop()
    h.next_round()
    h.engine.try_move((1, 2))
    unopened = [c for c in B_SPAWN_UNOPENED if not h.engine.is_open(c)]
    assert sorted(unopened) == [(0, 3), (1, 3)] and h.ledger.ap == AP
    rap, mark = h.ledger.rap, len(h.stream)
    outs = h.engine.settle_batch([Intent("dig", (0, 3)), Intent("dig", (1, 3))])
    assert [o.outcome for o in outs] == ["executed", "executed"]
    events = h.stream[mark:]
    assert [e["path_tag"] for e in round_ends(events)] == ["cleared"]
    assert h.ledger.rap == rap


def test_AC_11() -> None:
    h = Harness.active(b_flag())
    h.engine.try_move((2, 3))
    ap, mark = h.ledger.ap, len(h.stream)
    assert h.engine.try_flag_place((1, 4)).outcome == "executed"
    assert h.engine.try_flag_place((1, 2)).outcome == "executed"
    assert h.engine.flags == ((1, 2), (1, 4))
    assert h.engine.try_flag_pull((1, 2)).outcome == "executed"  # moving a flag: pull + place
    assert h.engine.flags == ((1, 4),)
    # The seed writes "-(place + pull) x 2"; the three actions it lists cost
    # 2 x place + 1 x pull. Formulas win.
    assert h.ledger.ap == ap - 2 * PLACE - PULL
    assert len(h.stream) == mark  # flags emit nothing
    ap = h.ledger.ap
    for call, target, sub in [
        (h.engine.try_dig, (1, 4), "flag_present"),
        (h.engine.try_flag_place, (0, 3), "not_adjacent"),
        (h.engine.try_flag_place, (3, 3), "target_revealed"),
        (h.engine.try_flag_place, (1, 4), "flag_present"),
        (h.engine.try_flag_pull, (1, 3), "flag_absent"),
        (h.engine.try_flag_pull, (0, 3), "not_adjacent"),
    ]:
        out = call(target)
        assert (out.outcome, out.reject_reason, out.sub_reason) == ("rejected", "board_face", sub)
    assert h.ledger.ap == ap and len(h.stream) == mark and h.engine.flags == ((1, 4),)


def test_AC_12() -> None:
    # Branch 1: a hit flag, a miss flag, and a pulled flag that is not judged.
    h = Harness.active(b_flag())
    h.engine.try_move((2, 3))
    h.engine.try_flag_place((1, 4))
    h.engine.try_dig((1, 3))
    h.engine.try_move((1, 3))
    h.engine.try_flag_place((0, 3))
    h.engine.try_flag_place((1, 2))
    h.engine.try_flag_pull((1, 2))
    mark = len(h.stream)
    h.engine.settle_batch([Intent("stop")])
    judged = [ev for ev in h.stream[mark:] if ev["type"] == "flag_judged"]
    assert judged == [
        {"type": "flag_judged", "cell": [0, 3], "hit": False},
        {"type": "flag_judged", "cell": [1, 4], "hit": True},
    ]
    # Branch 3: the next round on the same board reports them again (honest repetition).
    h.next_round()
    mark = len(h.stream)
    h.stop()
    assert [ev for ev in h.stream[mark:] if ev["type"] == "flag_judged"] == judged

    # Branch 2: a flag in fog is always a miss (no mine in fog, no special case).
    h = Harness.active(b_fog())
    h.engine.try_move((5, 1))
    h.engine.try_flag_place((6, 0))
    mark = len(h.stream)
    h.stop()
    assert h.stream[mark] == {"type": "flag_judged", "cell": [6, 0], "hit": False}


def test_AC_13() -> None:
    h = Harness.active(b_flag())
    h.engine.try_move((2, 3))
    h.engine.try_flag_place((1, 2))
    h.engine.try_flag_place((1, 4))
    h.stop()
    flags = h.engine.flags
    mark = len(h.stream)
    h.next_round()
    assert h.engine.flags == flags == ((1, 2), (1, 4))
    assert h.stream[mark:] == []  # R0 is not replayed each round
    h.stop()
    assert h.engine.retire_board().outcome == "executed"
    mark = len(h.stream)
    assert h.engine.install_board(b_fog()).accepted
    assert h.engine.flags == ()
    assert cells(h.stream[mark:]) == naive_r0(b_fog())


def test_AC_14() -> None:
    h = Harness.active(b_spawn())
    first = h.engine.compute_move_path((2, 3))
    assert first == h.engine.compute_move_path((2, 3))
    opened = set(h.engine.opened)
    assert first[0] == (3, 3) and first[-1] == (2, 3) and set(first) <= opened
    assert all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 for a, b in pairwise(first))
    ap, mark = h.ledger.ap, len(h.stream)
    # (4) the normal move.
    assert h.engine.try_move((2, 3)).outcome == "executed"
    assert h.engine.avatar == (2, 3) and h.ledger.ap == ap and len(h.stream) == mark
    # (1) a concealed target.
    out = h.engine.try_move((0, 3))
    assert (out.reject_reason, out.sub_reason) == ("board_face", "target_concealed")
    # (3) the avatar's own cell: a zero move, executed, nothing changes.
    state = h.observables()
    assert h.engine.try_move((2, 3)).outcome == "executed"
    assert h.observables() == state and len(h.stream) == mark
    # (2) an opened cell with no path. With the closed API the opened set stays
    # 8-connected (R0 is a closure of the connected B3; every dig touches the avatar's
    # opened cell; chains are connected), so the island is written in by the test itself.
    island = (0, 0)
    h.engine._opened[h.engine.board.index(island)] = 1
    out = h.engine.try_move(island)
    assert (out.outcome, out.reject_reason, out.sub_reason) == ("rejected", "board_face", "no_path")
    assert h.engine.compute_move_path(island) == []
    assert h.engine.avatar == (2, 3) and h.ledger.ap == ap and len(h.stream) == mark


def test_AC_15() -> None:
    board = b_mine_walk()
    h = Harness.active(board)
    assert len(h.stream) == B_MINE_WALK_R0_SIZE
    h.engine.try_move((3, 4))
    mark = len(h.stream)
    assert h.engine.try_dig((3, 5)).outcome == "executed"
    assert h.ledger.ap == AP - DIG
    assert h.stream[mark:] == [
        {
            "type": "cell_revealed",
            "cell": [3, 5],
            "kind": "mine",
            "variant_ids": [],
            "channel": "dig",
            "reward_eligible": False,
        }
    ]
    assert round_ends(h.stream) == [] and h.ledger.phase == "active"
    assert h.engine.try_move((3, 5)).outcome == "executed"
    assert h.engine.avatar == (3, 5)
    # Digging on from the mine: (3,6) is the last safe cell, so it also clears the board.
    assert h.engine.try_dig((3, 6)).outcome == "executed"
    assert [e["path_tag"] for e in round_ends(h.stream)] == ["cleared"]


def test_AC_16() -> None:
    def all_actions(h: Harness) -> list:
        return [
            h.engine.try_dig((1, 3)),
            h.engine.try_flag_place((1, 3)),
            h.engine.try_flag_pull((1, 3)),
            h.engine.try_move((4, 4)),
            h.engine.settle_batch([Intent("stop")])[0],
        ]

    no_board = Harness()
    idle = Harness()
    idle.engine.install_board(b_spawn())
    waiting = Harness.active(b_spawn())
    waiting.stop()
    for h in (no_board, idle, waiting):
        state, mark = h.observables(), len(h.stream)
        for out in all_actions(h):
            assert (out.outcome, out.reject_reason, out.sub_reason) == ("rejected", "phase", None)
        assert h.observables() == state and len(h.stream) == mark
    # Active: neither install nor retire (outside the paid refresh path).
    h = Harness.active(b_spawn())
    state, mark = h.observables(), len(h.stream)
    h.engine.reset_diagnostics()
    assert h.engine.install_board(b_flag()).reject_reason == "phase"
    assert h.engine.retire_board().reject_reason == "phase"
    assert h.observables() == state and len(h.stream) == mark
    assert [d["level"] for d in h.engine.diagnostics] == ["debug", "debug"]


def test_AC_17() -> None:
    h = Harness.active(b_spawn())
    h.engine.try_move((2, 3))
    h.engine.try_dig((1, 3))
    h.engine.try_flag_place((1, 2))
    h.stop()
    assert h.engine.retire_board().outcome == "executed"
    assert h.engine.board is None and h.engine.opened == () and h.engine.flags == ()
    for out in [h.engine.try_dig((1, 3)), h.engine.try_move((3, 3)), h.stop()]:
        assert (out.outcome, out.reject_reason) == ("rejected", "phase")
    mark = len(h.stream)
    assert h.engine.install_board(b_flag()).accepted
    segment = h.stream[mark:]
    assert cells(segment) == naive_r0(b_flag())
    assert h.engine.flags == () and h.engine.avatar == (3, 3)
    assert set(h.engine.opened) == set(naive_r0(b_flag()))


FOG_SCRIPT: list[list[Intent]] = [
    [Intent("move", (3, 3))],
    [Intent("dig", (3, 4))],
    [Intent("move", (3, 4))],
    [Intent("dig", (3, 5))],
    [Intent("move", (3, 5)), Intent("flag_place", (2, 4))],
    [Intent("dig", (3, 6))],  # chain through the fog (0,5),(1,5)
    [Intent("flag_pull", (2, 4)), Intent("flag_place", (4, 4))],
    [Intent("move", (5, 1)), Intent("flag_place", (6, 0)), Intent("stop")],
]


def run_script(board: Board) -> list[dict]:
    h = Harness.active(board)
    for batch in FOG_SCRIPT:
        h.engine.settle_batch(batch)
    return h.stream


def test_AC_18() -> None:
    # The variation "table" the board is built from; after the board is built, the table
    # is reloaded with other contents: the board holds a snapshot, not a live reference.
    table = {"fog": [[0, 5], [1, 5], [6, 0]]}
    source = {**b_fog().to_json(), "variants": table}
    board = Board.from_json(source)
    baseline = run_script(board)
    table["fog"].clear()
    table["fog"].append([2, 6])
    source["mines"].clear()
    replay = run_script(board)
    assert json.dumps(replay) == json.dumps(baseline)
    assert any(ev.get("variant_ids") == ["fog"] for ev in baseline)


def test_AC_19() -> None:
    first, second = run_script(b_fog()), run_script(b_fog())
    assert json.dumps(first) == json.dumps(second)
    kinds = {(ev["type"], ev.get("channel")) for ev in first}
    assert {("cell_revealed", "initial"), ("cell_revealed", "dig"), ("cell_revealed", "chain"),
            ("flag_judged", None), ("round_end", None)} <= kinds  # fmt: skip


def test_AC_20() -> None:
    fog, bare = run_script(b_fog()), run_script(b_fog_bare())
    assert len(fog) == len(bare)
    differing = set()
    for a, b in zip(fog, bare, strict=True):
        assert a.keys() == b.keys()
        differing |= {k for k in a if a[k] != b[k]}
    assert differing == {"variant_ids"}


def test_AC_21() -> None:
    economy = load_economy({"action_economy.flag_place_ap_cost": 2})
    place = economy.flag_place_ap_cost
    h = Harness.active(b_flag(), economy)
    h.engine.try_move((2, 3))
    h.engine.try_flag_place((1, 4))
    h.walk([(None, (1, 3)), ((1, 3), (0, 3)), (None, (0, 2)), (None, (0, 4)),
            ((0, 4), (0, 5))])  # fmt: skip
    assert h.ledger.ap == economy.ap_per_round - place - 5 * economy.dig_ap_cost == 1
    state, mark = h.observables(), len(h.stream)
    out = h.engine.try_flag_place((1, 5))  # legal on the board face, not affordable
    assert (out.outcome, out.reject_reason, out.sub_reason) == ("rejected", "resource_face", None)
    assert h.observables() == state and len(h.stream) == mark
    out = h.engine.try_dig((0, 1))
    assert (out.reject_reason, out.sub_reason) == ("board_face", "not_adjacent")
    out = h.engine.try_dig((1, 4))
    assert (out.reject_reason, out.sub_reason) == ("board_face", "flag_present")
    # Out of catalog (checked in an active round: the phase check comes first).
    h.engine.reset_diagnostics()
    out = h.engine.try_dig((-1, -1))
    assert (out.reject_reason, out.sub_reason) == ("board_face", "out_of_catalog")
    assert [(d["level"], d["category"]) for d in h.engine.diagnostics] == [
        ("debug", "out_of_catalog")
    ]
    # Waiting: the phase source.
    h.engine.try_move((0, 5))
    h.engine.try_dig((0, 6))
    assert h.ledger.phase == "waiting"
    out = h.engine.try_dig((0, 1))
    assert (out.reject_reason, out.sub_reason) == ("phase", None)


A2_FILES = ["engine.py", "events.py", "intents.py"]
ALLOWED_IMPORTS = {
    "__future__",
    "collections",
    "collections.abc",
    "dataclasses",
    "itertools",
    "typing",
    "gridforge.errors",
    "gridforge.grid",
    "gridforge.jsontypes",  # type aliases only: no table, file or UI
    "gridforge.mines.board",
    "gridforge.mines.events",
    "gridforge.mines.intents",
    "gridforge.mines.ledger",  # only under TYPE_CHECKING, asserted below
}
LEDGER_SURFACE = {
    "phase",
    "try_spend",
    "can_afford",
    "request_dig",
    "request_stop",
    "last_round_end",
    "refresh_granted",
    "take_refresh",
}


def test_AC_22() -> None:
    package = Path(engine_module.__file__).parent
    for name in A2_FILES:
        tree = ast.parse((package / name).read_text("utf-8"))
        for node in ast.walk(tree):
            # (1) no randomness, (2)/(3) no table or file read, (4) no UI: allow-listed imports.
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert alias.name in ALLOWED_IMPORTS, (name, alias.name)
            if isinstance(node, ast.ImportFrom):
                assert node.module in ALLOWED_IMPORTS, (name, node.module)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"open", "exec", "eval", "__import__", "input"}
            if isinstance(node, ast.Name):
                assert node.id not in {"random", "Random", "Economy", "load_economy"}
            # No gameplay literal: only the structural 0 and 1 (first index, one step).
            if isinstance(node, ast.Constant) and type(node.value) in (int, float, complex):
                assert node.value in (0, 1), (name, node.lineno, node.value)
    # The ledger is imported for type hints only, and only its A2 contract is used.
    tree = ast.parse((package / "engine.py").read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and (
            (isinstance(node.value, ast.Attribute) and node.value.attr == "ledger")
            or (isinstance(node.value, ast.Name) and node.value.id == "ledger")
        ):
            assert node.attr in LEDGER_SURFACE, node.attr
    top_imports = [n for n in tree.body if isinstance(n, ast.ImportFrom)]
    assert "gridforge.mines.ledger" not in {n.module for n in top_imports}
    # The smoke script and its fixtures hold no RNG either (tests are not exempt).
    for path in [Path(__file__), Path(__file__).with_name("fixtures.py")]:
        source = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(source):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", "") or ""]
                assert not any("random" in n for n in names), path
    # (5) AC-1 runs headless: it is an ordinary test of this module.
    test_AC_1()
