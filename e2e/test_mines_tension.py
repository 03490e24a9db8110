"""Issue 45 in the browser: Stop asks first (mouse, touch, keyboard), a round's end plays
as a sequence on the board and the bars (instant under reduced motion), the Chinese mines
screen and rules card carry no Latin word, messages wrap on a phone, axe-core is clean on
the mines screen in both themes and languages. Every wait is on a page state (data-busy,
data-animating, visibility), never on a duration.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from . import test_mines
from .conftest import open_page
from .test_axe import blocking_violations
from .test_mines import DESK, MAX_INPUTS, PHONE, Device, fresh, open_mines, settle, stop_round

# the devices of test_mines (a mouse at 1280x800, a finger at 390x844)
device, desk, phone = test_mines.device, test_mines.desk, test_mines.phone

LATIN = re.compile(r"[A-Za-z]{2,}")


def ledger(page: Page) -> str:
    return page.get_by_test_id("mines-ledger").inner_text()


def watch_board(page: Page) -> None:
    """Record every value data-animating takes on the board from now on."""
    page.evaluate("""() => {
      window.minesAnimating = [];
      const board = document.querySelector('[data-testid=mines-board]');
      new MutationObserver(() => window.minesAnimating.push(board.dataset.animating || null))
        .observe(board, {attributes: true, attributeFilter: ['data-animating']});
      window.minesStruck = [];
      new MutationObserver((records) => {
        const names = ['seq-strike', 'seq-ambush', 'seq-weaken', 'shake'];
        for (const r of records) for (const n of names)
          if (r.target.classList.contains(n)) window.minesStruck.push(n);
      }).observe(board, {subtree: true, attributes: true, attributeFilter: ['class']});
    }""")


def dig_some(page: Page, device: Device, digs: int) -> None:
    """Dig what the board offers ``digs`` times (the round goes on: 8 AP a round)."""
    for _ in range(digs):
        offered = page.locator('[data-testid="mines-cell"]:is([data-do="dig"], [data-do="reach"])')
        device.primary(offered.first)
        settle(page)
        if page.get_by_test_id("mines-continue").is_visible():
            return


# ---------------------------------------------------------------------------- Stop asks
def test_stop_with_ap_left_asks_first_by_mouse_and_by_touch(device: Device):
    page = device.page
    open_mines(page, seed=3)
    fresh(page)
    stop = page.get_by_test_id("mines-stop")
    assert "primary" not in (stop.get_attribute("class") or "")  # a secondary button
    before = ledger(page)
    device.primary(stop)
    ask = page.get_by_test_id("mines-stop-ask")
    expect(ask).to_be_visible()
    expect(ask).to_have_attribute("role", "alertdialog")
    expect(page.get_by_test_id("mines-stop-ask-text")).to_contain_text("8 AP")
    # nothing happened yet: the round goes on
    settle(page)
    expect(page.get_by_test_id("mines-settlement")).to_be_hidden()
    assert ledger(page) == before
    device.primary(page.get_by_test_id("mines-stop-cancel"))
    expect(ask).to_be_hidden()
    settle(page)
    expect(page.get_by_test_id("mines-settlement")).to_be_hidden()
    assert page.locator("section.mines").get_attribute("data-status") == "playing"
    # asked again, and this time confirmed: the round ends, the enemy strikes
    device.primary(stop)
    expect(ask).to_be_visible()
    device.primary(page.get_by_test_id("mines-stop-confirm"))
    settle(page)
    expect(page.get_by_test_id("mines-settlement-title")).to_contain_text("you stopped")
    expect(ask).to_be_hidden()


def test_stop_asks_first_with_the_keyboard(desk: Page):
    page = desk
    open_mines(page, seed=3)
    fresh(page)
    board = page.get_by_test_id("mines-board")
    board.focus()
    page.keyboard.press("s")
    ask = page.get_by_test_id("mines-stop-ask")
    expect(ask).to_be_visible()
    # the safe answer has the focus; Escape keeps digging and gives the board its focus back
    expect(page.get_by_test_id("mines-stop-cancel")).to_be_focused()
    page.keyboard.press("Escape")
    expect(ask).to_be_hidden()
    expect(board).to_be_focused()
    settle(page)
    assert page.locator("section.mines").get_attribute("data-status") == "playing"
    # the Stop button reached by Tab asks too; Enter on Keep digging closes the question
    page.keyboard.press("s")
    expect(ask).to_be_visible()
    page.keyboard.press("Enter")
    expect(ask).to_be_hidden()
    # and the question is answered from the keyboard: Shift+Tab to End the round, Enter
    page.keyboard.press("s")
    expect(page.get_by_test_id("mines-stop-cancel")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(page.get_by_test_id("mines-stop-confirm")).to_be_focused()
    page.keyboard.press("Enter")
    settle(page)
    expect(page.get_by_test_id("mines-settlement-title")).to_contain_text("you stopped")


def test_a_click_after_the_round_ended_is_voided_and_said_so(desk: Page):
    # D1 obligation 6: an intent that arrives after the round ended is refused, in words
    page = desk
    open_mines(page, seed=3)
    fresh(page)
    page.get_by_test_id("mines-stop").click()
    page.get_by_test_id("mines-stop-confirm").click()
    settle(page)
    expect(page.get_by_test_id("mines-settlement")).to_be_visible()
    page.get_by_test_id("mines-board").press("f")  # a flag after the round's end
    settle(page)
    expect(page.get_by_test_id("app-message")).to_contain_text("The round is over")


# ---------------------------------------------------------------------------- the sequence
def test_a_round_s_end_plays_its_sequence_then_shows_the_settlement(device: Device):
    page = device.page
    open_mines(page, seed=3)
    fresh(page)
    dig_some(page, device, 3)
    watch_board(page)
    stop_round(device)
    settle(page)  # data-busy covers the sequence: the settled page is drawn after it
    expect(page.get_by_test_id("mines-settlement")).to_be_visible()
    expect(page.get_by_test_id("mines-board")).not_to_have_attribute("data-animating", "1")
    assert "1" in page.evaluate("() => window.minesAnimating")
    assert "seq-strike" in page.evaluate("() => window.minesStruck")
    # the text lines are kept as details, closed until asked for
    log = page.get_by_test_id("mines-settlement-log")
    assert log.evaluate("d => d.tagName") == "DETAILS" and not log.evaluate("d => d.open")
    device.primary(log.locator("summary"))
    expect(page.get_by_test_id("mines-settlement-line").first).to_be_visible()
    # the bars end on Python's figures
    state = page.evaluate("(id) => window.gridforge.call('gridforge.mines.page.run_state', id)",
                          page.locator("section.mines").get_attribute("data-run"))
    settle(page)
    bar = page.get_by_test_id("mines-enemy-hp")
    expect(bar).to_have_attribute("data-hp", str(state["enemy"]["hp"]))
    expect(page.get_by_test_id("mines-player-hp")).to_have_attribute(
        "data-hp", str(state["player"]["hp"]))


def test_under_reduced_motion_a_round_s_end_is_instant(desk: Page):
    page = desk
    page.emulate_media(reduced_motion="reduce")
    open_mines(page, seed=3)
    fresh(page)
    dig_some(page, Device(page, False), 3)
    watch_board(page)
    stop_round(Device(page, False))
    settle(page)
    expect(page.get_by_test_id("mines-settlement")).to_be_visible()
    assert page.evaluate("() => window.minesAnimating") == []
    assert page.evaluate("() => window.minesStruck") == []


# ---------------------------------------------------------------------------- words
@pytest.fixture
def chinese_phone(browser: Browser, base_url: str) -> Iterator[Device]:
    with open_page(browser, base_url, viewport=PHONE, has_touch=True, is_mobile=True,
                   locale="zh-CN", service_workers="block") as page:
        yield Device(page, True)
        assert not page.page_errors, page.page_errors  # type: ignore[attr-defined]


def visible_latin(page: Page, selector: str) -> list[str]:
    """Latin words of two letters or more in the visible text (and the titles and labels)
    of ``selector``."""
    text = page.locator(selector).evaluate("""(root) => [root.innerText,
      ...[...root.querySelectorAll('[title], [aria-label], [placeholder]')].map((n) =>
        [n.title, n.getAttribute('aria-label'), n.getAttribute('placeholder')].join(' '))]
      .join(' ')""")
    return LATIN.findall(text)


def test_in_chinese_the_mines_screen_and_its_rules_card_have_no_latin_word(
        chinese_phone: Device):
    phone = chinese_phone
    page = phone.page
    page.goto("/#mines")
    page.evaluate("() => window.gridforge.ready")
    settle(page)
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    message = '[data-testid="app-message"]'
    found = visible_latin(page, "section.mines") + visible_latin(page, message)
    dig_some(page, phone, 2)
    found += visible_latin(page, "section.mines")
    phone.primary(page.get_by_test_id("mines-stop"))
    expect(page.get_by_test_id("mines-stop-ask")).to_be_visible()
    found += visible_latin(page, "section.mines")
    phone.primary(page.get_by_test_id("mines-stop-confirm"))
    settle(page)
    page.get_by_test_id("mines-settlement-log").locator("summary").click()
    page.locator("summary").filter(has_text="统计").click()
    found += visible_latin(page, "section.mines") + visible_latin(page, message)
    page.goto("/#rules")
    expect(page.locator('[data-testid="rules"][data-ready="1"]')).to_be_attached()
    found += visible_latin(page, '[data-testid="rules-mines"]')
    assert not found, found


def test_messages_wrap_on_a_phone_instead_of_being_cut(phone: Device):
    page = phone.page
    open_mines(page, seed=3)
    fresh(page)
    message = page.get_by_test_id("app-message")
    for _ in range(MAX_INPUTS):  # a hint's sentence is long: it must show whole
        page.get_by_test_id("mines-hint").click()
        settle(page)
        if len(message.inner_text()) > 120:
            break
    span = message.locator("span").first
    expect(span).to_be_visible()
    cut = span.evaluate("s => s.scrollHeight > s.clientHeight + 1 || "
                        "s.parentElement.scrollHeight > s.parentElement.clientHeight + 1")
    assert not cut, message.inner_text()
    assert span.evaluate("s => getComputedStyle(s).textOverflow") != "ellipsis"
    # nor is any line of the mines screen: each shows whole (nothing scrolls inside it)
    cut_lines = page.evaluate("""() => [...document.querySelectorAll(
        '[data-testid=mines-pending], [data-testid=mines-tip], [data-testid=mines-hint-text],'
        + ' .mines-status .chip')].filter((n) => n.offsetParent !== null &&
        (n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1))
        .map((n) => n.textContent)""")
    assert cut_lines == []


# ---------------------------------------------------------------------------- axe
@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_axe_is_clean_on_the_mines_screen_in_both_themes(browser: Browser, base_url: str,
                                                         locale: str):
    with open_page(browser, base_url, viewport=DESK, locale=locale,
                   service_workers="block") as page:
        problems: list[str] = []
        for theme in ("light", "dark"):
            page.goto("/#settings")
            page.evaluate("() => window.gridforge.ready")
            page.get_by_test_id(f"setting-theme-{theme}").check()
            page.goto("/#mines")
            settle(page)
            expect(page.locator("html")).to_have_attribute("data-theme", theme)
            if page.get_by_test_id("mines-continue").is_visible():  # the last theme's round
                page.get_by_test_id("mines-continue").click()
                settle(page)
            problems += [f"{theme} playing: {p}" for p in blocking_violations(page)]
            page.get_by_test_id("mines-stop").click()
            expect(page.get_by_test_id("mines-stop-ask")).to_be_visible()
            problems += [f"{theme} asking: {p}" for p in blocking_violations(page)]
            page.get_by_test_id("mines-stop-confirm").click()
            settle(page)
            expect(page.get_by_test_id("mines-settlement")).to_be_visible()
            problems += [f"{theme} settled: {p}" for p in blocking_violations(page)]
        assert not problems, "\n".join(problems)
        assert page.page_errors == []  # type: ignore[attr-defined]
