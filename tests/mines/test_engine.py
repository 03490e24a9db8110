"""Tests of gridforge.mines.engine beyond the seed's acceptance criteria
(test_engine_acceptance.py) and its random-play properties (test_engine_properties.py)."""

from __future__ import annotations

import pytest
from gridforge.errors import GridforgeError
from gridforge.mines.engine import check_install_invariants
from gridforge.mines.intents import Intent
from gridforge.mines.ledger import Economy

from .fixtures import B_SPAWN_DIG_ALL, Harness, b_chain, b_fog, b_spawn


@pytest.mark.parametrize(
    "intent",
    [
        Intent("chord", (2, 3)),
        Intent("dig", (7, 0)),
        Intent("dig", "x"),
        Intent("dig", (1.0, 3)),
        Intent("dig", (True, 3)),
        Intent("dig"),
        Intent("stop", (1, 1)),
        {"kind": "dig", "cell": (1, 3)},
    ],
)
def test_engine_out_of_catalog_rejected_with_debug_note(intent) -> None:
    h = Harness.active(b_spawn())
    state, mark = h.observables(), len(h.stream)
    (out,) = h.engine.settle_batch([intent])
    assert (out.reject_reason, out.sub_reason) == ("board_face", "out_of_catalog")
    assert [(d["level"], d["category"]) for d in h.engine.diagnostics] == [
        ("debug", "out_of_catalog")
    ]
    assert h.observables() == state and len(h.stream) == mark


def test_engine_phase_comes_before_catalog() -> None:
    h = Harness()
    h.engine.install_board(b_spawn())
    (out,) = h.engine.settle_batch([Intent("chord", (-5, 99))])
    assert out.reject_reason == "phase" and h.engine.diagnostics == []


def test_engine_cells_as_lists_are_accepted() -> None:
    h = Harness.active(b_spawn())
    assert h.engine.try_move([2, 3]).outcome == "executed"
    assert h.engine.try_dig([1, 3]).outcome == "executed"


def test_engine_bad_argument_types_raise_clear_errors() -> None:
    h = Harness()
    with pytest.raises(GridforgeError):
        h.engine.install_board({"cols": 7})  # type: ignore[arg-type]
    with pytest.raises(GridforgeError):
        h.engine.settle_batch(Intent("stop"))  # type: ignore[arg-type]
    assert h.engine.settle_batch([]) == []


def test_engine_flag_batch_voided_by_stop_leaves_no_ghost_flag() -> None:
    # EC13: the flag action is C_other, the stop wins, the flag is never placed or judged.
    h = Harness.active(b_spawn())
    h.engine.try_move((2, 3))
    mark = len(h.stream)
    outs = h.engine.settle_batch([Intent("flag_place", (1, 2)), Intent("stop")])
    assert [o.outcome for o in outs] == ["voided", "executed"]
    assert h.engine.flags == () and h.types(h.stream[mark:]) == ["round_end"]


def test_engine_rejected_before_winner_stays_rejected() -> None:
    h = Harness.active(b_spawn())
    outs = h.engine.settle_batch([Intent("dig", (0, 0)), Intent("move", (2, 3)), Intent("stop")])
    # Semantic order: stop first, then the two C_other intents are voided.
    assert [o.outcome for o in outs] == ["voided", "voided", "executed"]
    h = Harness.active(b_spawn())
    outs = h.engine.settle_batch([Intent("dig", (0, 0)), Intent("move", (2, 3))])
    assert [(o.outcome, o.sub_reason) for o in outs] == [("rejected", "not_adjacent"),
                                                         ("executed", None)]  # fmt: skip


def test_engine_c_other_keeps_arrival_order() -> None:
    h = Harness.active(b_spawn())
    outs = h.engine.settle_batch([Intent("move", (2, 3)), Intent("dig", (1, 3))])
    assert [o.outcome for o in outs] == ["executed", "executed"]
    h = Harness.active(b_spawn())
    outs = h.engine.settle_batch([Intent("dig", (1, 3)), Intent("move", (2, 3))])
    assert [(o.outcome, o.sub_reason) for o in outs] == [("rejected", "not_adjacent"),
                                                         ("executed", None)]  # fmt: skip


def test_engine_unaffordable_clearing_dig_is_not_c_dig() -> None:
    # A dig is C_dig only if it would execute and clear: with 1 AP left and a dig price of
    # 2 the last-cell dig cannot execute, so the stop goes first and the dig is voided.
    economy = Economy(ap_per_round=9, dig_ap_cost=2)
    h = Harness.active(b_spawn(), economy)
    h.walk(B_SPAWN_DIG_ALL[:4])
    h.stop()
    h.next_round()
    h.walk(B_SPAWN_DIG_ALL[4:7])
    h.engine.try_flag_place((1, 5))
    h.engine.try_flag_place((1, 4))
    assert (h.ledger.ap, h.engine.remaining_safe) == (1, 1)
    outs = h.engine.settle_batch([Intent("dig", B_SPAWN_DIG_ALL[7][1]), Intent("stop")])
    assert [o.outcome for o in outs] == ["voided", "executed"]


def test_engine_refresh_installs_a_new_board_mid_round() -> None:
    h = Harness.active(b_spawn(), Economy(rap_refresh_cost=3))
    h.engine.try_move((2, 3))
    h.engine.try_flag_place((1, 2))
    h.stop()  # banks 7 RAP
    h.next_round()
    ap = h.ledger.ap
    assert h.engine.install_board(b_chain()).reject_reason == "phase"  # not paid for
    assert h.ledger.request_refresh() and h.ledger.rap == 4
    invalid = b_fog(extra_fog=((3, 2),))
    assert h.engine.install_board(invalid).reject_reason == "board_invalid"
    assert h.ledger.refresh_granted  # a refused board does not use the refresh up
    mark = len(h.stream)
    assert h.engine.install_board(b_chain()).accepted
    assert not h.ledger.refresh_granted and h.ledger.ap == ap and h.ledger.phase == "active"
    assert h.engine.flags == () and h.engine.avatar == (3, 2)
    assert len(h.stream[mark:]) == 28


def test_engine_move_path_is_a_bfs_over_opened_cells() -> None:
    h = Harness.active(b_spawn())
    path = h.engine.compute_move_path((6, 6))
    assert path[0] == (3, 3) and path[-1] == (6, 6) and len(path) == 4  # 3 diagonal steps
    assert h.engine.compute_move_path((0, 0)) == []  # concealed
    assert h.engine.compute_move_path((9, 9)) == []  # off the board
    assert h.engine.compute_move_path((3, 3)) == [(3, 3)]
    assert Harness().engine.compute_move_path((1, 1)) == []  # no board


def test_engine_dug_mine_never_counts_toward_clearing() -> None:
    h = Harness.active(b_spawn())
    h.engine.try_move((2, 2))
    rem = h.engine.remaining_safe
    h.engine.try_dig((1, 2))
    assert h.engine.remaining_safe == rem and h.engine.is_open((1, 2))
    assert h.engine.try_dig((1, 2)).sub_reason == "target_revealed"
    assert h.engine.try_flag_place((1, 2)).sub_reason == "target_revealed"


def test_check_install_invariants_passes_good_boards() -> None:
    assert check_install_invariants(b_spawn()) is None
    assert check_install_invariants(b_fog()) is None


def test_engine_rejected_install_keeps_the_previous_board() -> None:
    h = Harness.active(b_spawn())
    h.engine.try_move((2, 3))
    h.engine.try_dig((1, 3))
    h.engine.try_flag_place((1, 2))
    h.stop()
    state, board, mark = h.observables(), h.engine.board, len(h.stream)
    for bad in (b_fog(extra_fog=((5, 1),)), b_fog(extra_fog=((3, 2),))):
        assert h.engine.install_board(bad).reject_reason == "board_invalid"
    assert h.observables() == state and h.engine.board is board and len(h.stream) == mark


