"""Issue 51 in the browser, by real clicks: the offers after a won battle (one picked), an
item used (a probe on a cell, kept over a reload), the settlement's show (grouped, skipped
by a click, its text log kept), Stop's question and the pending line saying the same
strike, New run asking first, the run history and the daily run on the home card, and
axe-core on the screen with offers open. One page per test on the module's shared browser
and site; every wait is on a page state (data-busy, data-animating, visibility).
"""

from __future__ import annotations

import datetime
import random
import re
from collections.abc import Iterator

import pytest
from gridforge.mines.page import daily_seed
from gridforge.mines.run_table import load_run_table
from playwright.sync_api import Browser, expect

from bench.mines_balance import deducing
from tests.mines.fixtures import PlayedRun

from .conftest import open_page
from .test_axe import blocking_violations
from .test_mines import DESK, MAX_INPUTS, board_picture, open_mines, settle, stop_round
from .test_mines import Device as _Device

OFFERED = '[data-testid="mines-cell"]:is([data-do="dig"], [data-do="reach"])'


@pytest.fixture
def desk(browser: Browser, base_url: str) -> Iterator[_Device]:
    with open_page(browser, base_url, viewport=DESK) as page:
        yield _Device(page, False)
        assert not page.page_errors, page.page_errors  # type: ignore[attr-defined]


def offers_open_save(seed: int = 5) -> dict:
    """A run of the shipped table played by the deducing bot until its first battle is won
    (its offers open): the save."""
    rng = random.Random(seed)
    run = PlayedRun(seed, load_run_table())
    for _ in range(5000):
        if run.status == "settled" and run.run.offers:
            return run.save()
        if run.status == "settled":
            run.continue_run()
        else:
            deducing(run, rng)
    pytest.fail(f"seed {seed} never won battle 1")


def test_an_offer_is_picked_and_an_item_used_on_a_cell(desk: _Device):
    page = desk.page
    open_mines(page, saved=offers_open_save())
    offers = page.get_by_test_id("mines-offer")
    expect(offers).to_have_count(3)
    for k in range(3):
        assert offers.nth(k).inner_text().strip()  # a name and an effect
    assert not blocking_violations(page), "axe-core: serious violations with offers open"
    probe = page.locator('[data-testid="mines-item"][data-item="probe"]')
    charges = int(probe.get_attribute("data-charges") or "0")
    picked = offers.nth(0).get_attribute("data-offer")
    desk.primary(offers.nth(0))
    settle(page)
    expect(offers).to_have_count(0)
    if picked == "probe":
        charges += int(load_run_table().rewards["probe_charges"])
    expect(probe).to_have_attribute("data-charges", str(charges))
    desk.primary(page.get_by_test_id("mines-continue"))
    settle(page)
    # the probe: a click on the item, then on a hidden cell (a far one: no dig happens)
    desk.primary(probe)
    expect(probe).to_have_attribute("aria-pressed", "true")
    hidden = page.locator('[data-testid="mines-cell"][data-state="concealed"]').last
    ap_before = page.get_by_test_id("mines-ledger").inner_text()
    desk.primary(hidden)
    settle(page)
    expect(hidden).to_have_attribute("data-probe", re.compile(r"^(mine|[0-8])$"))
    expect(hidden).to_have_attribute("data-state", "concealed")  # read, not dug
    assert page.get_by_test_id("mines-ledger").inner_text() == ap_before  # no AP
    left = max(0, charges - 1)
    expect(probe).to_have_attribute("data-charges", str(left))
    # a reload resumes the run exactly: the probe's reading is still there
    x, y = hidden.get_attribute("data-x"), hidden.get_attribute("data-y")
    page.reload()
    page.evaluate("() => window.gridforge.ready")
    settle(page)
    again = page.locator(f'[data-testid="mines-cell"][data-x="{x}"][data-y="{y}"]')
    expect(again).to_have_attribute("data-probe", re.compile(r"^(mine|[0-8])$"))
    expect(probe).to_have_attribute("data-charges", str(left))


def test_the_settlement_plays_grouped_and_a_click_skips_it(desk: _Device):
    page = desk.page
    open_mines(page, seed=11)
    page.evaluate("""() => {
      window.showing = [];
      const board = document.querySelector('[data-testid=mines-board]');
      const seen = () => { if (board.dataset.showing) window.showing.push(board.dataset.showing); };
      new MutationObserver(seen)
        .observe(board, {attributes: true, attributeFilter: ['data-showing']});
    }""")
    for _ in range(3):  # a few digs, so the round's end has strikes to show
        desk.primary(page.locator(OFFERED).first)
        settle(page)
    # Stop's question names the strike the pending line shows
    pending = page.get_by_test_id("mines-pending").inner_text()
    desk.primary(page.get_by_test_id("mines-stop"))
    asked = page.get_by_test_id("mines-stop-ask-text").inner_text()
    strike = re.search(r"strikes for (\d+)", pending)
    if strike:
        assert f"strikes for {strike.group(1)}" in asked, (pending, asked)
    else:
        assert "falls before it strikes" in pending and "falls before it strikes" in asked
    board = page.get_by_test_id("mines-board")
    desk.primary(page.get_by_test_id("mines-stop-confirm"))
    expect(board).to_have_attribute("data-animating", "1")
    expect(page.get_by_test_id("mines-show-line")).to_be_visible()
    expect(board).to_have_attribute("data-showing", re.compile(r"^[a-z]+$"))  # a line plays
    page.get_by_test_id("mines-pending").click()  # a click anywhere skips the show
    expect(board).not_to_have_attribute("data-animating", "1")
    expect(page.get_by_test_id("mines-settlement")).to_be_visible()
    shown = page.evaluate("() => window.showing")
    assert shown and shown.count("strike") <= 3 and shown.count("attack") <= 1, shown
    # the text log of every line is kept
    page.get_by_test_id("mines-settlement-log").locator("summary").click()
    expect(page.get_by_test_id("mines-settlement-line").first).to_be_visible()
    # "Round over" said once, in the message line
    message = page.get_by_test_id("app-message").inner_text()
    assert message.count("Round over") <= 1
    assert "seed" not in message.lower()


def test_new_run_asks_first_and_the_left_run_is_in_the_history(desk: _Device):
    page = desk.page
    open_mines(page, seed=21)
    run = page.locator("section.mines").get_attribute("data-run")
    desk.primary(page.get_by_test_id("mines-new-run"))
    expect(page.get_by_test_id("mines-new-run-ask")).to_be_visible()
    desk.primary(page.get_by_test_id("mines-new-run-cancel"))
    expect(page.get_by_test_id("mines-new-run-ask")).to_be_hidden()
    assert page.locator("section.mines").get_attribute("data-run") == run
    desk.primary(page.get_by_test_id("mines-new-run"))
    desk.primary(page.get_by_test_id("mines-new-run-confirm"))
    expect(page.locator("section.mines")).not_to_have_attribute("data-run", run)
    settle(page)
    page.goto("/#home")
    entry = page.get_by_test_id("mines-history-run").first
    expect(entry).to_have_attribute("data-result", "stopped")
    expect(entry).to_have_attribute("data-seed", "21")
    expect(entry).to_have_attribute("data-battle", "1")


def test_the_daily_run_has_the_dates_seed_and_resumes(desk: _Device):
    page = desk.page
    page.goto("/#home")
    page.evaluate("() => window.gridforge.ready")
    desk.primary(page.get_by_test_id("mines-daily"))
    settle(page)
    today = page.evaluate("() => new Date().toISOString().slice(0, 10)")
    seed = str(daily_seed(today))
    expect(page.get_by_test_id("mines-run-seed")).to_have_text(seed)
    desk.primary(page.locator(OFFERED).first)
    settle(page)
    board = board_picture(page)
    page.goto("/#home")
    desk.primary(page.get_by_test_id("mines-daily"))
    settle(page)  # the same run again: resumed, no question asked
    expect(page.get_by_test_id("mines-run-seed")).to_have_text(seed)
    expect(page.get_by_test_id("mines-new-run-ask")).to_be_hidden()
    assert board_picture(page) == board
    # lost, it is kept in the history and as the day's best
    for _ in range(MAX_INPUTS):
        if page.get_by_test_id("mines-end").is_visible():
            break
        if page.get_by_test_id("mines-continue").is_visible():
            desk.primary(page.get_by_test_id("mines-continue"))
        else:
            stop_round(desk)
        settle(page)
    page.goto("/#home")
    entry = page.get_by_test_id("mines-history-run").first
    expect(entry).to_have_attribute("data-result", "lost")
    expect(entry).to_have_attribute("data-seed", seed)
    expect(page.get_by_test_id("mines-daily-best")).to_contain_text("battle 1")
    assert datetime.date.fromisoformat(today)
