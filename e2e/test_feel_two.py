"""Feel, round two (issue 52), measured through the page on a 390x844 phone with touch (and a
desktop where it says so): a navigation bar whose every tab and status show whole in both
languages; play screens and lessons that never scroll; the win's celebration and the way on;
shared levels that arrive verified; boards that follow the dark theme; readable badges.
One served site and one browser for the module (conftest's session fixtures)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import open_page, wait_idle
from .snakes_helpers import DEVICES, goto_ready, set_progress, wait_level

PHONE = DEVICES["phone"]
ALL_OPEN = {"format": "gridforge.progress/1", "snakes": {"done": {}, "open": 2000},
            "mines": {"run": None}}
LESSON_LEVELS = [*range(1, 12), 12, 18, 24, 30, 36]

# Every element of the top bar that shows text, with what of it is cut or outside the screen.
CLIPPED_BAR = """() => {
  const width = document.documentElement.clientWidth;
  const items = [...document.querySelectorAll('nav[data-testid="screens"] a, [data-testid="status"], .brand')];
  return items.filter((node) => node.getClientRects().length).map((node) => {
    const box = node.getBoundingClientRect();
    return { text: node.textContent, cut: node.scrollWidth > node.clientWidth + 0.5 ||
      node.scrollHeight > node.clientHeight + 0.5, out: box.left < 0 || box.right > width + 0.5,
      height: box.height, top: box.top };
  });
}"""
# How far the page itself scrolls, up and down and sideways (0 when it fits the screen).
PAGE_SCROLL = """() => ({ down: document.documentElement.scrollHeight - window.innerHeight,
  across: document.documentElement.scrollWidth - document.documentElement.clientWidth })"""


@contextmanager
def phone(browser: Browser, base_url: str, language: str = "en",
          **options: Any) -> Iterator[Page]:
    """A 390x844 touch page in ``language`` with every main-line level open."""
    with open_page(browser, base_url, service_workers="block", locale=language,
                   **{**PHONE, **options}) as page:
        goto_ready(page)
        set_progress(page, ALL_OPEN)
        yield page


def go_level(page: Page, n: int) -> None:
    """Level ``n`` by its route (Python stays loaded)."""
    page.evaluate("(n) => { location.hash = `#snakes/level/${n}`; }", n)
    wait_level(page, n)


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_phone_bar_shows_every_tab_and_the_status_whole(
        browser: Browser, base_url: str, language: str):
    with phone(browser, base_url, language) as page:
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready")
        for fragment in ["#home", "#snakes", "#snakes/level/1", "#editor", "#rules", "#settings"]:
            page.evaluate("(f) => { location.hash = f; }", fragment)
            wait_idle(page)
            items = page.evaluate(CLIPPED_BAR)
            assert len(items) >= 7, items  # six tabs, the brand and the status
            bad = [i for i in items if i["cut"] or i["out"]]
            assert not bad, f"{fragment}: {bad}"
        # The developer's Console tab fits too.
        page.get_by_test_id("screen-settings").tap()
        page.get_by_test_id("setting-developer").set_checked(True)
        expect(page.get_by_test_id("screen-console")).to_be_visible()
        bad = [i for i in page.evaluate(CLIPPED_BAR) if i["cut"] or i["out"]]
        assert not bad, bad


def test_play_screens_of_the_main_line_fit_a_phone_without_scrolling(
        browser: Browser, base_url: str):
    with phone(browser, base_url) as page:
        scrolled = {}
        for n in [1, 42, 250, 500, 750, 1000, 1250, 1500, 1750, 2000]:
            go_level(page, n)
            scroll = page.evaluate(PAGE_SCROLL)
            if scroll["down"] > 0 or scroll["across"] > 0:
                scrolled[n] = scroll
        assert not scrolled, scrolled


def test_every_lesson_shows_its_words_whole_on_a_phone(browser: Browser, base_url: str):
    with phone(browser, base_url) as page:
        problems = {}
        for n in LESSON_LEVELS:
            go_level(page, n)
            text = page.get_by_test_id("snakes-lesson-text")
            expect(text).to_be_visible()
            seen = text.evaluate("""(node) => {
              const cut = [node, ...node.querySelectorAll('p')].some((p) =>
                p.scrollHeight > p.clientHeight + 0.5 || getComputedStyle(p).overflowY === 'auto' ||
                getComputedStyle(p).overflowY === 'scroll');
              const box = node.getBoundingClientRect();
              return { cut, bottom: box.bottom, height: window.innerHeight };
            }""")
            scroll = page.evaluate(PAGE_SCROLL)
            if seen["cut"] or seen["bottom"] > seen["height"] or scroll["down"] > 0:
                problems[n] = {**seen, **scroll}
        assert not problems, problems
