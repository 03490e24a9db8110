"""Motion that explains (issue 44): a refused step marks the refused cell on the board
(`snakes-refused`) and is said in the live region; a body that leaves slides into its hole;
under reduced motion no animation anywhere lasts longer than 50 ms."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from .conftest import open_page, wait_idle
from .snakes_helpers import (
    DEVICES,
    drag_into_a_stone,
    goto_ready,
    mainline,
    play_solution_by_dragging,
    wait_level,
)

BLOCK = mainline()
LONG_ANIMATIONS = """() => {
  const long = document.getAnimations()
    .map((a) => [a.animationName || a.constructor.name, a.effect.getComputedTiming().endTime])
    .filter(([, end]) => end > 50);
  for (const node of document.querySelectorAll('animate, animateTransform, animateMotion, set')) {
    const dur = node.getAttribute('dur') || '';
    const ms = dur.endsWith('ms') ? parseFloat(dur)
      : dur.endsWith('s') ? parseFloat(dur) * 1000 : 0;
    if (ms > 50 || node.getAttribute('repeatCount') === 'indefinite') long.push([node.tagName, ms]);
  }
  return long;
}"""


def test_a_refused_step_marks_its_cell_on_the_board_and_in_the_live_region(
    browser: Browser, base_url: str
):
    with open_page(browser, base_url, **DEVICES["desktop"]) as page:
        goto_ready(page, "#snakes/level/1")
        wait_level(page, 1)
        x, y = drag_into_a_stone(page, BLOCK["levels"][0])
        wait_idle(page)
        expect(page.get_by_test_id("snakes-refused")).to_have_attribute("data-cell", f"{x},{y}")
        expect(page.get_by_test_id("app-live")).not_to_be_empty()
        # The next step that goes clears the mark.
        play_solution_by_dragging(page, "desktop", BLOCK["certificates"][0]["solution"][:1])
        expect(page.get_by_test_id("snakes-refused")).to_have_count(0)
        assert page.page_errors == []


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_with_reduced_motion_no_animation_lasts_longer_than_50_ms(
    browser: Browser, base_url: str, device: str
):
    with open_page(browser, base_url, reduced_motion="reduce", **DEVICES[device]) as page:
        goto_ready(page, "#snakes/level/1")
        wait_level(page, 1)
        assert page.evaluate(LONG_ANIMATIONS) == []
        drag_into_a_stone(page, BLOCK["levels"][0])
        wait_idle(page)
        assert page.evaluate(LONG_ANIMATIONS) == []
        play_solution_by_dragging(page, device, BLOCK["certificates"][0]["solution"])
        expect(page.get_by_test_id("snakes-stars")).to_be_visible()
        assert page.evaluate(LONG_ANIMATIONS) == []
        page.goto("/#snakes")
        expect(page.get_by_test_id("map-chapter").first).to_be_visible()
        assert page.evaluate(LONG_ANIMATIONS) == []
        assert page.page_errors == []


def test_the_last_body_slides_into_its_hole_with_motion_on(browser: Browser, base_url: str):
    with open_page(browser, base_url, reduced_motion="no-preference", **DEVICES["desktop"]) as page:
        goto_ready(page, "#snakes/level/1")
        wait_level(page, 1)
        page.evaluate("""() => { window.exits = 0; new MutationObserver((records) => {
          for (const r of records) for (const n of r.addedNodes) {
            if (n.dataset && n.dataset.testid === 'snakes-exit') window.exits++; }
        }).observe(document.body, { subtree: true, childList: true }); }""")
        play_solution_by_dragging(page, "desktop", BLOCK["certificates"][0]["solution"])
        expect(page.get_by_test_id("snakes-stars")).to_be_visible()
        assert page.evaluate("window.exits") >= 1
        assert page.page_errors == []
