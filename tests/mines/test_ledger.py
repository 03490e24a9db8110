"""Tests of gridforge.mines.ledger: prices, phases, spending, arbitration, banking, refresh."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from gridforge.errors import ValidationError
from gridforge.mines.ledger import ECONOMY_FIELDS, Economy, Ledger, load_economy


def file_prices() -> dict[str, int]:
    text = resources.files("gridforge.mines").joinpath("data/economy.json").read_text("utf-8")
    return json.loads(text)["action_economy"]


def test_economy_defaults_come_from_the_data_file() -> None:
    assert Economy().to_json() == file_prices()
    # The seed's fixture numbers imply 8 AP per round and every price 1 AP.
    assert Economy().ap_per_round == 8
    assert {Economy().price(k) for k in ("dig", "flag_place", "flag_pull")} == {1}


def test_economy_override_and_validation() -> None:
    assert load_economy({"action_economy.flag_place_ap_cost": 2}).flag_place_ap_cost == 2
    assert load_economy({"dig_ap_cost": 3}).price("dig") == 3
    with pytest.raises(ValidationError) as info:
        load_economy({"dig_cost": 1, "ap_per_round": 0, "flag_pull_ap_cost": True})
    paths = [i.path for i in info.value.issues]
    assert paths == ["action_economy.dig_cost", "action_economy.ap_per_round",
                     "action_economy.flag_pull_ap_cost"]  # fmt: skip
    with pytest.raises(ValidationError):
        load_economy([1, 2])  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        Economy().dig_ap_cost = 5  # type: ignore[misc]
    assert set(Economy().to_json()) == set(ECONOMY_FIELDS)


def test_ledger_phases_and_refusals() -> None:
    led = Ledger()
    assert led.phase == "idle" and not led.try_spend("dig")
    assert not led.notify_settlement_done()
    assert led.notify_round_start() and led.phase == "active" and led.ap == 8
    assert not led.notify_round_start()  # already active
    assert led.request_stop() and led.phase == "waiting"
    assert not led.notify_round_start()  # not settled yet
    assert not led.notify_settlement_done("sideways")
    assert led.notify_settlement_done("new_board") and led.settlement_hint == "new_board"
    assert led.notify_round_start() and led.round == 2
    cats = [d["category"] for d in led.diagnostics]
    assert cats == ["settlement_phase", "round_start_phase", "round_start_unsettled",
                    "settlement_hint"]  # fmt: skip
    assert all(d["level"] == "debug" for d in led.diagnostics)


def test_ledger_stop_banks_remaining_ap_and_emits() -> None:
    led = Ledger()
    seen: list[dict] = []
    led.subscribe(seen.append)
    led.notify_round_start()
    assert led.try_spend("flag_place") and led.ap == 7
    led.request_stop()
    assert led.rap == 7 and led.ap == 0
    assert seen == [{"type": "round_end", "path_tag": "stopped", "continuation_hint": "same_board",
                     "round": 1, "ap_forfeited": 0, "rap_banked": 7, "rap": 7}]  # fmt: skip
    assert {k: v for k, v in seen[0].items() if k != "type"} == led.last_round_end


def test_ledger_cleared_forfeits_and_beats_exhaustion() -> None:
    led = Ledger(Economy(ap_per_round=2))
    seen: list[dict] = []
    led.subscribe(seen.append)
    led.notify_round_start()
    led.try_spend("dig")
    led.request_dig(0, False)
    assert led.phase == "active"
    led.try_spend("dig")  # the last AP: the dig's end waits for its clears-map fact
    assert led.phase == "active"
    led.request_dig(3, True)
    assert led.last_round_end["path_tag"] == "cleared"
    assert led.last_round_end["continuation_hint"] == "new_board"
    assert seen == []  # the board path is A2's to emit


def test_ledger_cleared_with_ap_left_forfeits_it() -> None:
    led = Ledger()
    led.notify_round_start()
    led.try_spend("dig")
    led.request_dig(0, True)
    assert (led.rap, led.ap, led.last_round_end["ap_forfeited"]) == (0, 0, 7)


def test_ledger_flag_spending_last_ap_exhausts_at_once() -> None:
    led = Ledger(Economy(ap_per_round=1))
    led.notify_round_start()
    assert led.try_spend("flag_pull")
    assert led.phase == "waiting" and led.last_round_end["path_tag"] == "ap_exhausted"


def test_ledger_dig_exhaustion_and_unpaid_report() -> None:
    led = Ledger(Economy(ap_per_round=1))
    led.notify_round_start()
    led.request_dig(0, False)  # without a paid dig: refused
    assert led.phase == "active" and led.diagnostics[-1]["category"] == "request_dig_unpaid"
    led.try_spend("dig")
    led.request_dig(0, False)
    assert led.last_round_end["path_tag"] == "ap_exhausted"
    assert not led.try_spend("dig") and not led.request_stop()


def test_ledger_resource_face() -> None:
    led = Ledger(Economy(flag_place_ap_cost=3, ap_per_round=2))
    led.notify_round_start()
    assert not led.can_afford("flag_place") and not led.try_spend("flag_place")
    assert led.ap == 2 and not led.can_afford("jump")


def test_ledger_refresh_is_paid_from_rap() -> None:
    led = Ledger(Economy(rap_refresh_cost=5))
    led.notify_round_start()
    assert not led.request_refresh()  # no RAP yet
    led.request_stop()  # banks 8
    assert not led.request_refresh()  # not active
    led.notify_settlement_done()
    led.notify_round_start()
    assert led.request_refresh() and led.rap == 3 and led.refresh_granted
    assert not led.request_refresh()  # one at a time
    assert led.take_refresh() and not led.take_refresh()
    json.dumps(led.to_json())
