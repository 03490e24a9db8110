"""Snakes as a game (issue 44): the map in chapters with `map-jump`, locks and stars; stars
against the certificate's steps on a win, kept over a reload; Next at the first tap; the
phone-first play screen (no scroll, a short header, cells of 30 px, a margin) and the desktop
board beside its controls, on the largest main-line levels."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import wait_idle
from .snakes_helpers import (
    board,
    device_page,
    goto_ready,
    mainline,
    play_solution_by_dragging,
    set_progress,
    wait_level,
)

DATA = Path(__file__).resolve().parent.parent / "pkg" / "gridforge" / "snakes" / "data"
BLOCK = mainline()


def certificates(first: int) -> list[dict[str, object]]:
    """The certificates of the block that starts at level ``first``."""
    block = json.loads((DATA / f"main-{first:04d}-{first + 24:04d}.json").read_text())
    return block["certificates"]


def largest_levels(count: int) -> list[int]:
    """The main-line levels with the most rows, then the most cells (the hardest to fit)."""
    sizes = []
    for path in sorted(DATA.glob("main-*.json")):
        first = int(path.stem.split("-")[1])
        for k, level in enumerate(json.loads(path.read_text())["levels"]):
            sizes.append((level["rows"], level["rows"] * level["cols"], first + k))
    return [n for _, _, n in sorted(sizes, reverse=True)[:count]]


def progress(done: dict[str, int], opened: int) -> dict[str, object]:
    return {"format": "gridforge.progress/1", "snakes": {"done": done, "open": opened},
            "mines": {"run": None}}


def test_the_map_opens_on_the_current_chapter_with_stars_locks_and_a_jump(
    browser: Browser, base_url: str
):
    pars = {101 + k: c["steps"] for k, c in enumerate(certificates(101))}
    # Chapter 1 won at its certificates' steps (a best below a proven minimum would be set
    # aside: issue 54).
    done = {str(first + k): c["steps"] for first in (1, 26, 51, 76)
            for k, c in enumerate(certificates(first))}
    # Level 101 at its par (three stars), 102 one step over (two), 103 twice over (one).
    done.update({"101": pars[101], "102": pars[102] + 1, "103": pars[103] * 2 + 3})
    with device_page(browser, base_url, "phone") as page:
        goto_ready(page)
        set_progress(page, progress(done, 104))
        page.goto("/#snakes")
        page.reload()
        chapters = page.get_by_test_id("map-chapter")
        expect(chapters.first).to_be_visible()
        second = page.locator('[data-testid="map-chapter"][data-chapter="2"]')
        expect(second).to_have_attribute("aria-pressed", "true")
        expect(second).to_have_attribute("data-first", "101")
        expect(second).to_have_attribute("data-last", "200")
        expect(second.get_by_test_id("map-chapter-name")).not_to_be_empty()
        tiles = page.get_by_test_id("level-tile")
        expect(tiles).to_have_count(100)
        assert int(chapters.last.get_attribute("data-last") or 0) >= 2000
        for n, stars in ((101, 3), (102, 2), (103, 1)):
            expect(page.locator(f'[data-testid="level-tile"][data-level="{n}"]')).to_have_attribute(
                "data-stars", str(stars))
        locked = page.locator('[data-testid="level-tile"][data-level="150"]')
        expect(locked).to_have_attribute("data-state", "locked")
        expect(locked.get_by_test_id("level-lock")).to_be_visible()
        expect(locked).to_have_attribute("data-stars", "0")
        # A locked level is refused in words; the page stays on the map.
        page.get_by_test_id("map-jump").fill("1500")
        page.get_by_test_id("map-jump").press("Enter")
        expect(page.get_by_test_id("map-jump-message")).to_contain_text("1500")
        expect(page.get_by_test_id("app-message")).to_contain_text("locked")
        expect(page).to_have_url(re.compile(r"#snakes$"))
        assert page.get_by_test_id("level-tile").count() <= 250
        # Another chapter replaces the tiles; an open level by number plays.
        page.locator('[data-testid="map-chapter"][data-chapter="1"]').click()
        expect(page.locator('[data-testid="level-tile"][data-level="1"]')).to_have_attribute(
            "data-stars", re.compile(r"[123]"))
        expect(tiles).to_have_count(100)
        page.get_by_test_id("map-jump").fill("102")
        page.get_by_test_id("map-jump").press("Enter")
        expect(page).to_have_url(re.compile(r"#snakes/level/102$"))
        wait_level(page, 102)
        assert page.page_errors == []


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_win_shows_stars_against_the_par_kept_on_the_map_and_next_takes_the_first_tap(
    browser: Browser, base_url: str, device: str
):
    certificate = BLOCK["certificates"][0]
    with device_page(browser, base_url, device) as page:
        goto_ready(page, "#snakes/level/1")
        wait_level(page, 1)
        play_solution_by_dragging(page, device, certificate["solution"])
        stars = page.get_by_test_id("snakes-stars")
        expect(stars).to_have_attribute("data-stars", "3")
        expect(stars).to_have_attribute("data-par", str(certificate["steps"]))
        proven = "true" if certificate["optimal"] else "false"
        expect(stars).to_have_attribute("data-par-proven", proven)
        expect(page.get_by_test_id("snakes-lesson")).to_be_hidden()
        expect(page.get_by_test_id("snakes-next")).to_be_focused()
        # The first tap, at once: no wait on anything but the panel being there.
        if device == "phone":
            page.get_by_test_id("snakes-next").tap()
        else:
            page.get_by_test_id("snakes-next").click()
        expect(page).to_have_url(re.compile(r"#snakes/level/2$"))
        wait_level(page, 2)
        page.goto("/#snakes")
        page.reload()
        expect(page.locator('[data-testid="level-tile"][data-level="1"]')).to_have_attribute(
            "data-stars", "3")
        assert page.page_errors == []


def layout_figures(page: Page) -> dict[str, float]:
    return page.evaluate("""() => {
      const b = document.querySelector('[data-testid="snakes-board"]').getBoundingClientRect();
      const cols = Number(document.querySelector('[data-testid="snakes-board"]').dataset.cols);
      const bar = document.querySelector('[data-testid="snakes-undo"]').getBoundingClientRect();
      return { scroll: document.documentElement.scrollHeight - window.innerHeight,
        top: b.top + window.scrollY, left: b.left, right: window.innerWidth - b.right,
        height: b.height, cell: b.width / cols,
        gap: Math.max(bar.left - b.right, bar.top - b.bottom, b.left - bar.right,
          b.top - bar.bottom) };
    }""")


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_play_screen_fits_the_largest_levels_without_scrolling(
    browser: Browser, base_url: str, device: str
):
    levels = [1, *largest_levels(3)]
    with device_page(browser, base_url, device) as page:
        goto_ready(page)
        set_progress(page, progress({}, 2000))
        for n in levels:
            page.goto(f"/#snakes/level/{n}")
            wait_level(page, n)
            fold = page.get_by_test_id("snakes-lesson-toggle")
            if fold.count() and fold.is_visible() and fold.get_attribute("aria-expanded") == "true":
                fold.click()
                wait_idle(page)
            figures = layout_figures(page)
            if device == "phone":
                assert figures["scroll"] <= 0, (n, figures)
                assert figures["top"] <= 96, (n, figures)
                assert figures["cell"] >= 30, (n, figures)
                assert min(figures["left"], figures["right"]) >= 8, (n, figures)
            else:
                assert figures["height"] >= 0.7 * 800, (n, figures)
                assert figures["gap"] <= 24, (n, figures)
            expect(board(page)).to_be_visible()
        assert page.page_errors == []
