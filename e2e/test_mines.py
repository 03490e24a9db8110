"""Mines in the browser: a run is playable, and every D1 duty is visible on the page."""

from __future__ import annotations

from conftest import open_ready
from playwright.sync_api import Page, expect


def cells(page: Page, selector: str = ""):
    return page.locator(f'[data-testid="mines-cell"]{selector}')


def settle(page: Page) -> None:
    """Wait until the page has no call in flight (the board is drawn from the answer)."""
    expect(page.locator("section.mines[data-run]:not([data-busy])")).to_have_count(1)


def start(page: Page, seed: int = 3) -> None:
    open_ready(page)
    page.get_by_test_id("mines-seed").fill(str(seed))
    page.get_by_test_id("mines-new-run").click()
    settle(page)
    expect(page.get_by_test_id("mines-ledger")).to_contain_text("AP 8/8")
    expect(page.get_by_test_id("mines-battle")).to_have_text("Battle 1/5")


def move_next_to_concealed(page: Page) -> None:
    """Click opened digit cells until the avatar stands next to a concealed cell."""
    digits = cells(page, '[data-state="open"]')
    for index in range(digits.count()):
        digits.nth(index).click()
        settle(page)
        expect(page.get_by_test_id("mines-message")).to_contain_text("move")
        if cells(page, ".reach").count():
            return
    raise AssertionError("no opened cell borders a concealed one")


def test_a_round_can_be_played_flagged_stopped_settled_and_continued(page: Page):
    start(page)
    page.get_by_test_id("mines-new-run").click()  # a second run replaces the first cleanly
    settle(page)
    move_next_to_concealed(page)
    expect(page.get_by_test_id("mines-tip")).to_contain_text("no chord")
    expect(cells(page, ".avatar")).to_have_count(1)

    target = cells(page, ".reach").first
    x, y = target.get_attribute("data-x"), target.get_attribute("data-y")
    target.click(button="right")
    flagged = page.locator(f'[data-testid="mines-cell"][data-x="{x}"][data-y="{y}"]')
    expect(flagged).to_have_attribute("data-state", "flag")
    expect(page.get_by_test_id("mines-ledger")).to_contain_text("AP 7/8")

    flagged.click()  # digging a flagged cell is refused with its own reason
    expect(page.get_by_test_id("mines-message")).to_contain_text("pull it first")
    expect(page.get_by_test_id("mines-ledger")).to_contain_text("AP 7/8")

    page.get_by_test_id("mines-stop").click()
    expect(page.get_by_test_id("mines-settlement")).to_be_visible()
    expect(page.get_by_test_id("mines-settlement-title")).to_contain_text("stopped")
    expect(page.get_by_test_id("mines-settlement-line").last).to_contain_text("enemy attack")
    expect(page.get_by_test_id("mines-ledger")).to_contain_text("RAP 7")

    cells(page, '[data-state="concealed"]').first.click()  # the round is over: phase
    expect(page.get_by_test_id("mines-message")).to_contain_text("round is over")

    page.get_by_test_id("mines-continue").click()
    expect(page.get_by_test_id("mines-ledger")).to_contain_text("AP 8/8")
    expect(page.get_by_test_id("mines-settlement")).to_be_hidden()
    expect(flagged).to_have_attribute("data-state", "flag")  # flags stay with the board


def test_digging_opens_cells_and_far_cells_are_refused(page: Page):
    start(page, seed=8)
    move_next_to_concealed(page)
    reach = {(c.get_attribute("data-x"), c.get_attribute("data-y"))
             for c in cells(page, ".reach").all()}
    far = [c for c in cells(page, '[data-state="concealed"]').all()
           if (c.get_attribute("data-x"), c.get_attribute("data-y")) not in reach]
    assert far, "this board should have concealed cells out of reach"
    far[0].click()
    expect(page.get_by_test_id("mines-message")).to_contain_text("Too far")
    cells(page, ".reach").first.click()
    expect(page.get_by_test_id("mines-ledger")).to_contain_text("AP 7/8")
    expect(page.get_by_test_id("mines-log")).to_contain_text("dig: (")


def test_hint_explains_a_proved_cell(page: Page):
    start(page, seed=7)
    page.get_by_test_id("mines-hint").click()
    expect(page.get_by_test_id("mines-message")).to_contain_text("Hint:")
    expect(cells(page, ".hint-safe, .hint-mine").first).to_be_visible()
