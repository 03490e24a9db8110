"""The page's shell (spec/web.md): routes that never show a blank page, the navigation bar,
messages in the player's words that clear on the next screen, and the colour-letter setting
(on the settings screen since issue 22)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from gridforge.snakes.game.mainline import LEVELS
from playwright.sync_api import Browser, expect

from .conftest import set_setting
from .snakes_helpers import board, device_page, goto_ready, mainline, wait_level

LEVELS_DIR = Path(__file__).resolve().parent.parent / "build" / "site" / "levels"
BAD_FRAGMENTS = [
    ("#snakes/level/0", r"#snakes$", "not a level number"),
    ("#snakes/level/2001", r"#snakes$", "no level 2001"),
    ("#snakes/level/3", r"#snakes$", "locked: finish level 1"),
    ("#snakes/somewhere", r"#snakes$", "no page"),
    ("#nowhere/at/all", r"#home$", "no page"),
    ("#editor/level/x", r"#editor$|#home$", "not a level number"),
]


def test_bad_fragments_land_on_the_nearest_screen_with_a_message(browser: Browser, base_url: str):
    with device_page(browser, base_url, "desktop") as page:
        goto_ready(page)
        expect(page).to_have_url(re.compile(r"/(#home)?$"))
        expect(page.locator('nav [aria-current="page"]')).to_have_text("Home")
        message = page.get_by_test_id("app-message")
        for fragment, lands, says in BAD_FRAGMENTS:
            page.goto(f"/{fragment}")
            expect(page).to_have_url(re.compile(lands))
            expect(message).to_contain_text(re.compile(says, re.I))
            expect(page.locator("main")).not_to_be_empty()
        # The message is gone on the next screen, and the nav marks it.
        set_setting(page, "setting-developer")  # the Console tab is a developer's
        page.get_by_test_id("screen-console").click()
        expect(page).to_have_url(re.compile(r"#console$"))
        expect(message).to_have_text("")
        expect(page.locator('nav [aria-current="page"]')).to_have_text("Console")
        # The message line keeps its height whether it is empty or holds two lines of text.
        empty = message.bounding_box()
        page.goto("/#snakes/level/0")
        expect(message).to_contain_text("not a level number")
        assert message.bounding_box() == empty
        assert page.page_errors == []


def test_level_numbers_are_checked_against_the_published_size_before_python_has_loaded(
        browser: Browser, base_url: str):
    """The main line's last level number is Python's, published by the build in
    levels/index.json: a route beyond it is refused with that number while Python has not
    loaded (the worker's script is held back), and the store checks progress against it."""
    with device_page(browser, base_url, "desktop") as page:
        held = []
        page.context.route("**/worker.js", lambda route: held.append(route))  # Python never starts
        index = json.loads((LEVELS_DIR / "index.json").read_text())
        assert index["levels"] == LEVELS
        index["levels"] = 1500  # as if the main line ended there

        def fulfil(route):
            route.fulfill(status=200, content_type="application/json", body=json.dumps(index))

        page.context.route("**/levels/index.json", fulfil)
        message = page.get_by_test_id("app-message")
        page.goto("/#snakes/level/1600")
        expect(page).to_have_url(re.compile(r"#snakes$"))
        expect(message).to_contain_text("There is no level 1600: the main line has 1500 levels.")
        page.goto("/#editor/level/x")
        expect(message).to_contain_text("not a level number (1 to 1500)")
        assert page.evaluate("() => window.gridforge.app.store.levels") == 1500
        assert page.get_by_test_id("status").get_attribute("data-state") != "ready"
        assert held, "the worker's script was asked for and held"
        assert page.page_errors == []


def test_errors_speak_the_players_language(browser: Browser, base_url: str):
    with device_page(browser, base_url, "desktop") as page:
        goto_ready(page)
        error = page.evaluate("""() => window.gridforge.app
            .call('gridforge.snakes.page.open', {cols: 'x'})
            .then(() => null, (e) => ({message: e.message, issues: e.issues || null}))""")
        assert error is not None
        assert "gridforge." not in error["message"]
        assert error["issues"] and all("path" in issue for issue in error["issues"])
        unknown = page.evaluate("""() => window.gridforge.app.call('gridforge.snakes.nothing')
            .then(() => null, (e) => e.message)""")
        assert unknown and "gridforge." not in unknown and unknown[0].isupper()


def test_colour_letters_are_drawn_when_the_setting_is_on_and_it_is_saved(
    browser: Browser, base_url: str
):
    with device_page(browser, base_url, "phone") as page:
        goto_ready(page, "#snakes/level/1")
        wait_level(page, 1)
        letters = board(page).locator("text.letter")
        expect(letters).to_have_count(0)
        before = board(page).bounding_box()
        set_setting(page, "setting-colour-letters")
        page.go_back()
        wait_level(page, 1)
        # One letter on each body and each open hole; the board is where it was.
        level = mainline()["levels"][0]
        expected = len(level["bodies"]) + len(level["holes"])
        expect(letters).to_have_count(expected)
        assert board(page).bounding_box() == before
        page.reload()
        wait_level(page, 1)
        expect(letters).to_have_count(expected)
        page.get_by_test_id("screen-settings").click()
        expect(page.get_by_test_id("setting-colour-letters")).to_be_checked()
        assert page.page_errors == []


def test_the_idle_signal_is_set_at_the_call_and_cleared_once_its_answer_is_drawn(
        browser: Browser, base_url: str):
    with device_page(browser, base_url, "desktop") as page:
        goto_ready(page, "#snakes/level/1")
        wait_level(page, 1)
        assert page.evaluate("() => document.body.dataset.busy") is None
        # Set in the same task as the call: no wait, whatever the machine's load.
        marks = page.evaluate("""async () => {
            const call = window.gridforge.app.call('gridforge.api.echo', 1);
            const at = document.body.dataset.busy;
            await call;
            return [at, document.body.dataset.busy];
        }""")
        assert marks == ["1", "1"]  # still busy in the answer's own reactions
        expect(page.locator("body:not([data-busy])")).to_have_count(1)
        # A step: busy until the board shows it.
        seen = page.evaluate("""() => new Promise((resolve) => {
            const b = document.querySelector('[data-testid="snakes-board"]');
            const steps = b.dataset.steps;
            b.dispatchEvent(new KeyboardEvent('keydown', {key: 'n', bubbles: true}));
            b.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
            const watch = new MutationObserver(() => {
                if (!document.body.dataset.busy) {
                    watch.disconnect();
                    const now = document.querySelector('[data-testid="snakes-board"]');
                    const said = document.querySelector('[data-testid="error"]').textContent;
                    resolve(now.dataset.steps !== steps || said !== '');
                }
            });
            watch.observe(document.body, { attributes: true, attributeFilter: ['data-busy'] });
        })""")
        assert seen is True
        assert page.page_errors == []
