"""Snakes layout (issue 12): at 390x844 no screen scrolls sideways for every shipped
main-line level and for the largest board the designer makes (18 x 24); the board does not
move during a drag, a hover, a hint or a busy call."""

from __future__ import annotations

import json

from playwright.sync_api import Browser, Page, expect

from .conftest import wait_idle
from .snakes_helpers import (
    board,
    cell_centre,
    device_page,
    end_cell,
    goto_ready,
    mainline,
    set_progress,
    wait_level,
)

BLOCK = mainline()
LEVELS = len(BLOCK["levels"])
# The designer's largest board: 18 columns x 24 rows (32 stones keep the floor at 400 cells).
LARGEST = {
    "format": "gridforge.snakes.level/1", "cols": 18, "rows": 24,
    "stones": [[x, 11] for x in range(1, 18)] + [[x, 12] for x in range(1, 16)],
    "bodies": [{"cells": [[0, 0], [1, 0], [2, 0]], "colors": [0]},
               {"cells": [[0, 23], [0, 22]], "colors": [1]}],
    "holes": [{"cell": [17, 23], "color": 0}, {"cell": [17, 0], "color": 1}],
    "meta": {"id": "largest"},
}


def sideways(page: Page) -> int:
    """How far the document is wider than the viewport (0 when it does not scroll sideways)."""
    return page.evaluate(
        "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - document.documentElement.clientWidth")


def box(page: Page) -> tuple[float, float, float, float]:
    b = board(page).bounding_box()
    assert b is not None
    return round(b["x"], 2), round(b["y"], 2), round(b["width"], 2), round(b["height"], 2)


def progress_all_open() -> str:
    return json.dumps({"format": "gridforge.progress/1", "mines": {"run": None},
                       "snakes": {"done": {}, "open": LEVELS}})


def test_no_screen_scrolls_sideways_at_390_for_every_level_and_the_largest_board(
    browser: Browser, base_url: str
):
    with device_page(browser, base_url, "phone") as page:
        goto_ready(page)
        page.evaluate("(t) => localStorage.setItem('gridforge.progress', t)", progress_all_open())
        for fragment in ("#home", "#snakes", "#console"):
            page.goto(f"/{fragment}")
            expect(page.locator(f'main[data-screen="{fragment[1:]}"]')).to_have_count(1)
            assert sideways(page) <= 0, fragment
        page.reload()
        for n in range(1, LEVELS + 1):
            page.goto(f"/#snakes/level/{n}")
            wait_level(page, n)
            assert sideways(page) <= 0, f"level {n}"
            b = box(page)
            assert b[0] >= 0 and b[0] + b[2] <= 390, f"level {n}: board {b}"
            # The drawing is a regular grid filling the board element.
            cols, rows = BLOCK["levels"][n - 1]["cols"], BLOCK["levels"][n - 1]["rows"]
            assert abs(b[2] / cols - b[3] / rows) < 0.5, f"level {n}: cells are not square"
        # The largest board, in play as the editor's try-play mounts it.
        page.goto("/#snakes")
        # The map draws its chapter when Python answers: mount the play view only after it,
        # or the map's late drawing replaces it.
        expect(page.locator('[data-testid="map-chapter"]').first).to_be_visible()
        wait_idle(page)
        page.evaluate("""async (level) => {
            const { mountPlay } = await import('./screens/snakes-play.js');
            const main = document.getElementById('screen');
            main.replaceChildren();
            mountPlay(main, window.gridforge.app, { level, levelNumber: null });
        }""", LARGEST)
        expect(board(page)).to_have_attribute("data-level", "draft")
        expect(page.locator('[data-testid="snakes-play"][data-ready="1"]')).to_have_count(1)
        expect(board(page)).to_have_attribute("data-cols", "18")
        assert sideways(page) <= 0
        b = box(page)
        assert b[0] >= 0 and b[0] + b[2] <= 390 and b[2] >= 18 * 18, b  # cells >= 18 px
        assert page.page_errors == []


def test_the_board_does_not_move_during_a_drag_a_hover_a_hint_or_a_busy_call(
    browser: Browser, base_url: str
):
    with device_page(browser, base_url, "desktop") as page:
        # Level 5: the first run of steps by one end leaves the level unfinished.
        goto_ready(page)
        set_progress(page, {"format": "gridforge.progress/1",
                            "snakes": {"done": {}, "open": 5}, "mines": {"run": None}})
        page.goto("/#snakes/level/5")
        page.reload()
        wait_level(page, 5)
        before = box(page)
        # Hover over every cell of the board: no Python call, no movement.
        calls = page.evaluate("() => { window.__calls = 0; const c = window.gridforge.app.call;"
                              " window.gridforge.app.call = (...a) => { window.__calls++;"
                              " return c.apply(window.gridforge.app, a); }; return 0; }")
        assert calls == 0
        level = BLOCK["levels"][4]
        for y in range(level["rows"]):
            for x in range(level["cols"]):
                page.mouse.move(*cell_centre(page, x, y))
        assert page.evaluate("() => window.__calls") == 0, "hovering called Python"
        assert box(page) == before
        # A drag along the solution's first run of steps, measured after every step.
        body, end, _ = BLOCK["certificates"][4]["solution"][0]
        run = []
        for step in BLOCK["certificates"][4]["solution"]:
            if step[0] != body or step[1] != end:
                break
            run.append(step[2])
        x, y = end_cell(page, body, end)
        page.mouse.move(*cell_centre(page, x, y))
        page.mouse.down()
        for count, direction in enumerate(run, start=1):
            dx, dy = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}[direction]
            x, y = x + dx, y + dy
            page.mouse.move(*cell_centre(page, x, y), steps=2)
            expect(board(page)).to_have_attribute("data-steps", str(count))
            assert box(page) == before
        page.mouse.up()
        # A hint: an arrow on the board and a line in the fixed-height message line.
        page.get_by_test_id("snakes-hint").click()
        expect(page.get_by_test_id("snakes-hint-arrow")).to_have_count(1)
        expect(page.get_by_test_id("app-message")).to_contain_text("Hint")
        assert box(page) == before
        # A busy call: the overlay appears over the page and moves nothing.
        page.evaluate("() => { window.__spin = window.gridforge.call('gridforge.api.spin', 1); }")
        expect(page.get_by_test_id("app-busy")).to_be_visible()
        assert box(page) == before
        page.evaluate("() => window.__spin")
        expect(page.get_by_test_id("app-busy")).to_have_count(0)
        assert box(page) == before
        # A refusal message and its clearing: the line keeps its height.
        page.get_by_test_id("snakes-undo").click()
        expect(board(page)).to_have_attribute("data-steps", str(len(run) - 1))
        assert box(page) == before
        assert page.page_errors == []


def test_quick_calls_never_show_the_busy_overlay(browser: Browser, base_url: str):
    with device_page(browser, base_url, "desktop") as page:
        goto_ready(page, "#home")
        # The overlay waits BUSY_DELAY_MS of page time. With the page's clock paused, every
        # call is quick whatever the machine's load, so only an overlay shown without that
        # wait (at the call itself) is seen: the check no longer depends on durations.
        page.clock.install()
        page.clock.pause_at(page.evaluate("Date.now()") + 86_400_000)
        seen = page.evaluate("""async () => {
            let seen = 0;
            const watch = new MutationObserver(() => {
                if (document.querySelector('[data-testid="app-busy"]')) seen++;
            });
            watch.observe(document.body, { childList: true });
            for (let i = 0; i < 20; i++) await window.gridforge.app.call('gridforge.api.echo', i);
            watch.disconnect();
            return seen;
        }""")
        assert seen == 0
        page.clock.run_for(1000)  # the delay passes with nothing in flight: still nothing
        expect(page.get_by_test_id("app-busy")).to_have_count(0)
        # A long call (a design that runs until cancelled, in practice) shows it once 150 ms
        # of page time have passed, not before, and it goes when the call ends.
        page.evaluate("""() => { window.__design = window.gridforge.app.callWithProgress(
            'gridforge.snakes.page.design_levels',
            [{target: 90, count: 50, seed: 3, budgets: {candidates: 1000000}}], () => {})
            .catch((e) => e.type); }""")
        page.clock.run_for(149)
        expect(page.get_by_test_id("app-busy")).to_have_count(0)
        page.clock.run_for(2)
        expect(page.get_by_test_id("app-busy")).to_be_visible()
        page.evaluate("() => window.gridforge.app.cancel()")
        assert page.evaluate("() => window.__design") == "Cancelled"
        expect(page.get_by_test_id("app-busy")).to_have_count(0)
