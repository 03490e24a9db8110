"""A mines battle that looks like one (issue 21): at 1280x800 the board is the centrepiece
(at least 60% of the viewport's height, the battle and the controls beside it), the avatar
is a figure, the enemy and the player have HP bars that draw Python's numbers (HP, the
damage the round so far will settle, the strike to come) and change when a round is
settled, animating only without reduced motion; at 390x844 by touch nothing scrolls
sideways and a loss reached by playing shows New run without scrolling. Played with real
clicks and taps; every wait is on a page state (the idle signal, attributes), never on time.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from . import test_mines
from .test_mines import (
    DESK,
    MAX_INPUTS,
    PHONE,
    Device,
    fresh,
    open_mines,
    settle,
    stop_round,
    stop_until_lost,
)

# the devices of test_mines (a mouse at 1280x800, a finger at 390x844)
device, desk, phone = test_mines.device, test_mines.desk, test_mines.phone

SIDES = {"enemy": "mines-enemy-hp", "player": "mines-player-hp"}
ANIMATED = ("draining", "rising", "pulse", "flinch")


def python_state(page: Page) -> dict:
    """The run's state as Python reports it (the page contract's run_state)."""
    run_id = page.locator("section.mines").get_attribute("data-run")
    state = page.evaluate(
        "(id) => window.gridforge.call('gridforge.mines.page.run_state', id)", run_id)
    settle(page)
    return state


def bar(page: Page, side: str) -> dict:
    """What the HP bar of `side` draws: its data attributes, the meter's values and the
    fill's width in per cent of the bar."""
    return page.get_by_test_id(SIDES[side]).evaluate(
        """b => ({hp: +b.dataset.hp, max: +b.dataset.max, pending: +b.dataset.pending,
                  strike: b.dataset.strike === undefined ? null : +b.dataset.strike,
                  now: +b.getAttribute('aria-valuenow'), top: +b.getAttribute('aria-valuemax'),
                  fill: parseFloat(b.querySelector('.hp-fill').style.width)})""")


def bars_match_python(page: Page) -> dict:
    """Both bars draw exactly Python's numbers; returns Python's state."""
    state = python_state(page)
    for side in SIDES:
        drawn, told = bar(page, side), state[side]
        assert (drawn["hp"], drawn["max"], drawn["pending"]) == (
            told["hp"], told["max_hp"], told["pending"]), (side, drawn, told)
        assert (drawn["now"], drawn["top"]) == (told["hp"], told["max_hp"])
        # the fill's share of the bar (its drawn width, not a moment of its transition)
        assert abs(drawn["fill"] - 100 * told["hp"] / told["max_hp"]) < 0.01
    assert bar(page, "player")["strike"] == state["player"]["strike"]
    assert bar(page, "enemy")["strike"] is None  # only the player is struck
    return state


def no_sideways_scroll(page: Page) -> None:
    widths = page.evaluate("() => [document.scrollingElement.scrollWidth, "
                           "document.scrollingElement.clientWidth]")
    assert widths[0] <= widths[1], widths


def watch_animations(page: Page) -> None:
    """Record every animation class the battle bar is given from now on."""
    page.evaluate("""(names) => {
      window.minesAnimated = [];
      new MutationObserver((records) => {
        for (const r of records) for (const n of names)
          if (r.target.classList.contains(n)) window.minesAnimated.push(n);
      }).observe(document.querySelector('[data-testid=mines-fight]'),
        {subtree: true, attributes: true, attributeFilter: ['class']});
    }""", list(ANIMATED))


def dig_until_damage_pends(page: Page, device: Device) -> dict:
    """Dig what the board offers, checking the bars after every dig, until the enemy's bar
    shows damage pending (a safe cell dug); returns Python's state then."""
    for _ in range(MAX_INPUTS):
        offered = page.locator('[data-testid="mines-cell"]:is([data-do="dig"], [data-do="reach"])')
        device.primary(offered.first)
        settle(page)
        state = bars_match_python(page)
        if state["status"] != "playing":
            raise AssertionError("the round ended before any damage was pending")
        if state["enemy"]["pending"] > 0:
            return state
    raise AssertionError("no damage pending after the inputs' budget")


# ---------------------------------------------------------------------------- what must hold
def test_at_1280_the_first_board_is_the_centrepiece(desk: Page):
    page = desk
    open_mines(page, seed=3)
    fresh(page)
    board = page.get_by_test_id("mines-board").bounding_box()
    assert board is not None
    assert board["height"] >= 0.6 * DESK["height"], board
    assert board["y"] + board["height"] <= DESK["height"]  # the whole board in view
    # the battle and the controls stand beside the board, not above it
    for testid in ("mines-fight", "mines-stop", "mines-ledger"):
        box = page.get_by_test_id(testid).bounding_box()
        assert box is not None and box["x"] >= board["x"] + board["width"], (testid, box)
        assert box["y"] + box["height"] <= DESK["height"], (testid, box)
    no_sideways_scroll(page)
    # the avatar is a figure standing in its cell, not a ring around it
    avatar = page.locator('[data-testid="mines-cell"][data-avatar="1"]')
    expect(avatar).to_have_count(1)
    figure = avatar.locator("svg.avatar-figure")
    expect(figure).to_have_count(1)
    cell, drawn = avatar.bounding_box(), figure.bounding_box()
    assert drawn["height"] >= 0.5 * cell["height"]
    assert cell["x"] <= drawn["x"]
    assert drawn["x"] + drawn["width"] <= cell["x"] + cell["width"] + 0.5
    assert avatar.evaluate("c => getComputedStyle(c, '::before').borderTopStyle") == "none"
    # both sides have a figure and an HP bar
    expect(page.get_by_test_id("mines-enemy-figure")).to_be_visible()
    for testid in SIDES.values():
        expect(page.get_by_test_id(testid)).to_be_visible()


def test_hp_bars_draw_python_s_numbers_and_change_when_a_round_is_settled(device: Device):
    page = device.page
    open_mines(page, seed=3)
    fresh(page)
    start = bars_match_python(page)
    assert start["enemy"]["pending"] == start["player"]["pending"] == 0
    assert start["player"]["strike"] == start["enemy"]["attack"]  # the strike to come
    pending = dig_until_damage_pends(page, device)
    expect(page.get_by_test_id("mines-enemy-hp").locator(".hp-pending")).to_be_visible()
    watch_animations(page)
    stop_round(device)  # the round is settled (its end plays out first)
    settle(page)
    expect(page.get_by_test_id("mines-settlement")).to_be_visible()
    after = bars_match_python(page)
    settlement = after["last_settlement"]
    # the bars moved by the settlement's own figures: what was pending, then the strike
    assert settlement["enemy_damage"] == pending["enemy"]["pending"] > 0
    assert after["enemy"]["hp"] == pending["enemy"]["hp"] - settlement["enemy_damage"]
    assert after["player"]["hp"] == pending["player"]["hp"] - settlement["player_damage"]
    assert settlement["player_damage"] > 0
    assert after["enemy"]["pending"] == after["player"]["pending"] == 0
    for side in SIDES:
        expect(page.get_by_test_id(SIDES[side])).to_have_attribute(
            "data-settled", str(settlement[f"{side}_damage"]))
    expect(page.get_by_test_id("mines-player")).to_contain_text(
        f"You {after['player']['hp']}/{after['player']['max_hp']} HP")
    # the round's end played on the bars: the damage rose from them, the figures flinched
    animated = page.evaluate("() => window.minesAnimated")
    assert "rising" in animated and "flinch" in animated, animated
    assert page.get_by_test_id("mines-settlement-title").inner_text().startswith("Round over")


def test_under_reduced_motion_the_bars_change_without_animating(desk: Page):
    page = desk
    page.emulate_media(reduced_motion="reduce")
    open_mines(page, seed=3)
    fresh(page)
    watch_animations(page)
    dig_until_damage_pends(page, Device(page, False))
    stop_round(Device(page, False))
    settle(page)
    after = bars_match_python(page)
    assert after["last_settlement"]["enemy_damage"] > 0
    assert page.evaluate("() => window.minesAnimated") == []


def test_at_390_nothing_scrolls_sideways_and_a_loss_shows_new_run_in_view(phone: Device):
    page = phone.page
    open_mines(page, seed=4)
    fresh(page)
    no_sideways_scroll(page)
    # the board comes first on a phone: under the battle, above the controls
    board = page.get_by_test_id("mines-board").bounding_box()
    fight = page.get_by_test_id("mines-fight").bounding_box()
    stop = page.get_by_test_id("mines-stop").bounding_box()
    assert fight["y"] + fight["height"] <= board["y"] < 0.4 * PHONE["height"], (fight, board)
    assert board["y"] + board["height"] <= stop["y"] < PHONE["height"], (board, stop)
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
    stop_until_lost(phone, no_sideways_scroll)
    bars_match_python(page)
    expect(page.get_by_test_id("mines-player-hp")).to_have_attribute("data-hp", "0")
    # the message says what felled the player, not that stopping did
    message = page.get_by_test_id("app-message")
    expect(message).to_contain_text("You fell: the enemy's strike took your last HP.")
    expect(message).not_to_contain_text("you stopped")
    page.evaluate("() => window.scrollTo(0, 0)")
    button = page.get_by_test_id("mines-end-new-run")
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    no_sideways_scroll(page)


def test_a_wrong_mines_fragment_s_message_stays_readable(desk: Page):
    page = desk
    open_mines(page, seed=3)  # a saved run: the page opens with "back where you left it"
    page.goto("/#mines/extra")
    page.evaluate("() => window.gridforge.ready")
    expect(page).to_have_url(re.compile(r"#mines$"))
    settle(page)
    message = page.get_by_test_id("app-message")
    # the run's opening words come after the route's complaint, never over it
    expect(message).to_contain_text(re.compile(r"no page .*mines/extra.*back where you left it"))
