"""Settings (#settings, issue 22) and the dark theme: the screen opens from every screen by
the navigation's link (clicked, or tapped on a phone) and works with back, forward and
reload; each setting is saved in gridforge.settings and is there again after a reload; the
theme is dark, light or the system's (emulated ``prefers-color-scheme``), applied at once on
every screen with <meta name="theme-color"> following it; motion is the system's or always
reduced; letters on colours still reach the boards; clearing the saved data asks first; a
damaged setting is kept aside, not dropped."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import READY_TIMEOUT_MS, open_page, press, wait_idle
from .snakes_helpers import DEVICES, board, goto_ready, mainline, set_progress, wait_level

PROGRESS = {"format": "gridforge.progress/1", "snakes": {"done": {"1": 9}, "open": 2},
            "mines": {"run": None}}
# Every screen, the way to know it is drawn, and its tab in the navigation.
SCREENS = [
    ("#home", '[data-testid="home"]', "Home"),
    ("#snakes", '[data-testid="level-tile"]', "Snakes"),
    ("#snakes/level/1", '[data-testid="snakes-play"][data-ready="1"]', "Snakes"),
    ("#mines", '[data-testid="mines-board"] [data-testid="mines-cell"]', "Mines"),
    ("#editor", '[data-testid="editor-board"]', "Editor"),
    ("#rules", '[data-testid="rules"][data-ready="1"]', "Rules"),
    ("#console", '[data-testid="call-run"]', "Console"),
]
THEME_BAR = {"light": "#ffffff", "dark": "#1d2027"}   # --topbar (web/theme.css)
THEME_BG = {"light": "rgb(246, 245, 241)", "dark": "rgb(21, 23, 28)"}  # --bg


def stored_settings(page: Page) -> dict[str, Any]:
    return json.loads(page.evaluate("() => localStorage.getItem('gridforge.settings')") or "{}")


def wait_screen(page: Page, fragment: str, drawn: str) -> None:
    expect(page).to_have_url(re.compile(re.escape(fragment) + "$"))
    expect(page.locator(drawn).first).to_be_attached(timeout=READY_TIMEOUT_MS)
    wait_idle(page)


def theme_of(page: Page) -> dict[str, str]:
    return page.evaluate("""() => ({
        theme: document.documentElement.dataset.theme,
        choice: document.documentElement.dataset.themeChoice,
        bar: document.querySelector('meta[name="theme-color"]').content,
        bg: getComputedStyle(document.body).backgroundColor,
        scheme: getComputedStyle(document.documentElement).colorScheme,
    })""")


def expect_theme(page: Page, theme: str, choice: str) -> None:
    page.wait_for_function("(t) => document.documentElement.dataset.theme === t", arg=theme)
    assert theme_of(page) == {"theme": theme, "choice": choice, "bar": THEME_BAR[theme],
                              "bg": THEME_BG[theme], "scheme": theme}


@pytest.mark.parametrize("device", DEVICES)
def test_the_settings_screen_opens_from_every_screen_and_keeps_its_place_in_history(
        browser: Browser, base_url: str, device: str):
    with open_page(browser, base_url, service_workers="block", **DEVICES[device]) as page:
        goto_ready(page)
        set_progress(page, PROGRESS)
        # The Console tab is there too (a developer's).
        page.evaluate("() => { window.gridforge.app.settings.developer = true; }")
        for fragment, drawn, tab in SCREENS:
            page.goto(f"/{fragment}")
            wait_screen(page, fragment, drawn)
            expect(page.locator('nav [aria-current="page"]')).to_have_text(tab)
            press(page, device, "screen-settings")
            wait_screen(page, "#settings", '[data-testid="settings"]')
            expect(page.locator('nav [aria-current="page"]')).to_have_text("Settings")
            assert page.title() == "gridforge · the settings"
            page.go_back()
            wait_screen(page, fragment, drawn)
            page.go_forward()
            wait_screen(page, "#settings", '[data-testid="settings"]')
            page.go_back()
            wait_screen(page, fragment, drawn)
        page.goto("/#settings")
        page.reload()
        wait_screen(page, "#settings", '[data-testid="setting-sound"]')
        # Nothing scrolls sideways, and every control has a name.
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        controls = page.get_by_test_id("settings").locator("input, button")
        for control in controls.all():
            if control.is_visible():
                assert control.evaluate("(e) => e.labels?.length > 0 || e.textContent.trim()")
        assert page.page_errors == []


def test_each_setting_is_saved_and_there_again_after_a_reload(browser: Browser, base_url: str):
    with open_page(browser, base_url, service_workers="block", **DEVICES["desktop"]) as page:
        goto_ready(page, "#settings")
        expect(page.get_by_test_id("setting-sound")).to_be_checked()
        expect(page.get_by_test_id("setting-volume")).to_have_value("70")
        expect(page.get_by_test_id("setting-theme-system")).to_be_checked()
        page.get_by_test_id("setting-volume").focus()
        for _ in range(4):
            page.keyboard.press("ArrowLeft")  # 5 a step
        expect(page.get_by_test_id("setting-volume-value")).to_have_text("50%")
        page.get_by_test_id("setting-sound").uncheck()
        expect(page.get_by_test_id("setting-volume")).to_be_disabled()
        page.get_by_test_id("setting-vibration").uncheck()
        page.get_by_test_id("setting-theme-dark").check()
        page.get_by_test_id("setting-motion-reduce").check()
        page.get_by_test_id("setting-colour-letters").check()
        expect(page.get_by_test_id("settings-letters-preview").locator(".swatch").first).to_have_text("R")
        page.get_by_test_id("setting-developer").check()
        expect(page.get_by_test_id("screen-console")).to_be_visible()
        wanted = {"sound": False, "volume": 50, "vibration": False, "theme": "dark",
                  "motion": "reduce", "colourLetters": True, "developer": True,
                  "lessonsDismissed": [], "language": "system"}
        assert stored_settings(page) == wanted
        page.reload()
        page.evaluate("() => window.gridforge.ready")
        expect(page.get_by_test_id("setting-sound")).not_to_be_checked()
        expect(page.get_by_test_id("setting-volume")).to_have_value("50")
        expect(page.get_by_test_id("setting-volume-value")).to_have_text("50%")
        expect(page.get_by_test_id("setting-vibration")).not_to_be_checked()
        expect(page.get_by_test_id("setting-theme-dark")).to_be_checked()
        expect(page.get_by_test_id("setting-motion-reduce")).to_be_checked()
        expect(page.get_by_test_id("setting-colour-letters")).to_be_checked()
        expect(page.get_by_test_id("setting-developer")).to_be_checked()
        expect(page.get_by_test_id("screen-console")).to_be_visible()
        expect_theme(page, "dark", "dark")
        assert stored_settings(page) == wanted
        assert page.page_errors == []


def test_the_theme_follows_the_system_unless_the_player_chooses(browser: Browser, base_url: str):
    with open_page(browser, base_url, service_workers="block", color_scheme="dark",
                   **DEVICES["phone"]) as page:
        goto_ready(page, "#settings")
        expect_theme(page, "dark", "system")
        page.emulate_media(color_scheme="light")  # the system changes: the page follows
        expect_theme(page, "light", "system")
        page.get_by_test_id("setting-theme-dark").tap()
        expect_theme(page, "dark", "dark")
        page.emulate_media(color_scheme="light")
        page.reload()
        # theme.js applies the choice before anything is drawn, before Python is ready.
        assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
        page.evaluate("() => window.gridforge.ready")
        expect_theme(page, "dark", "dark")
        page.get_by_test_id("setting-theme-light").tap()
        page.emulate_media(color_scheme="dark")
        expect_theme(page, "light", "light")
        page.get_by_test_id("setting-theme-system").tap()
        expect_theme(page, "dark", "system")
        assert stored_settings(page)["theme"] == "system"
        assert page.page_errors == []


def test_motion_follows_the_system_unless_the_player_reduces_it(browser: Browser, base_url: str):
    """Level 1's lesson shows its demonstration gliding, or drawn still under reduced motion."""
    with open_page(browser, base_url, service_workers="block", reduced_motion="no-preference",
                   **DEVICES["desktop"]) as page:
        demo = page.get_by_test_id("snakes-demo")
        goto_ready(page, "#snakes/level/1")
        wait_level(page, 1)
        assert page.evaluate("() => document.documentElement.dataset.motion") == "full"
        expect(demo).to_have_attribute("data-motion", "animated")
        page.emulate_media(reduced_motion="reduce")  # the system asks for less: at once
        expect(demo).to_have_attribute("data-motion", "static")
        page.emulate_media(reduced_motion="no-preference")
        expect(demo).to_have_attribute("data-motion", "animated")
        page.get_by_test_id("screen-settings").click()
        page.get_by_test_id("setting-motion-reduce").check()
        assert page.evaluate("() => document.documentElement.dataset.motion") == "reduce"
        spinner = page.evaluate("""() => { const s = document.createElement('span');
            s.className = 'spinner'; document.body.append(s);
            const name = getComputedStyle(s).animationName; s.remove(); return name; }""")
        assert spinner == "none"  # the stylesheets' animations are off too
        page.go_back()
        wait_level(page, 1)
        expect(demo).to_have_attribute("data-motion", "static")
        page.reload()
        wait_level(page, 1)
        expect(demo).to_have_attribute("data-motion", "static")
        assert page.page_errors == []


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_every_screen_is_drawn_in_the_theme(browser: Browser, base_url: str, scheme: str):
    """The page's ground, a board's ground and a piece on it take the theme's colours."""
    # The snakes board follows the theme (issue 52: a dark floor, the dark palette 3:1 on it).
    floor = {"light": "rgb(239, 233, 220)", "dark": "rgb(30, 34, 41)"}[scheme]
    open_ground = {"light": "rgb(247, 246, 241)", "dark": "rgb(37, 40, 46)"}[scheme]
    with open_page(browser, base_url, service_workers="block", color_scheme=scheme,
                   **DEVICES["desktop"]) as page:
        goto_ready(page)
        set_progress(page, PROGRESS)
        for fragment, drawn, _tab in SCREENS:
            page.goto(f"/{fragment}")
            wait_screen(page, fragment, drawn)
            expect_theme(page, scheme, "system")
            panel = page.evaluate("""() => getComputedStyle(document.querySelector(
                '.topbar')).backgroundColor""")
            assert panel == {"light": "rgb(255, 255, 255)", "dark": "rgb(29, 32, 39)"}[scheme]
            if fragment in ("#snakes/level/1", "#rules"):
                fills = page.evaluate("""() => [...document.querySelectorAll(
                    '.snakes-board .floor')].map((f) => getComputedStyle(f).fill)""")
                assert fills and set(fills) == {floor}
            if fragment == "#mines":
                # The board's own stylesheet loaded, and the opening patch's fade ended.
                expect(page.locator("link[data-mines-css][data-loaded]")).to_be_attached()
                page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
                grounds = page.evaluate("""() => [...document.querySelectorAll(
                    '[data-testid="mines-cell"][data-state^="open"]:not([data-state="open-fog"])')]
                    .map((c) => getComputedStyle(c).backgroundColor)""")
                assert grounds and set(grounds) == {open_ground}
        assert page.page_errors == []


def test_letters_on_colours_reach_the_boards_and_leave_the_mines_board_as_it_was(
        browser: Browser, base_url: str):
    with open_page(browser, base_url, service_workers="block", **DEVICES["desktop"]) as page:
        goto_ready(page, "#mines")
        wait_screen(page, "#mines", '[data-testid="mines-cell"]')
        cells = """() => [...document.querySelectorAll('[data-testid="mines-cell"]')].map((c) =>
            [c.dataset.x, c.dataset.y, c.dataset.state, c.dataset.digit, c.textContent,
             c.querySelectorAll('text, .letter').length])"""
        mines_before = page.evaluate(cells)
        page.get_by_test_id("screen-settings").click()
        page.get_by_test_id("setting-colour-letters").check()
        page.go_back()
        wait_screen(page, "#mines", '[data-testid="mines-cell"]')
        # The mines board has no colour pieces: digits in their customary colours, as before.
        assert page.evaluate(cells) == mines_before
        page.goto("/#snakes/level/1")
        wait_level(page, 1)
        level = mainline()["levels"][0]
        expect(board(page).locator("text.letter")).to_have_count(
            len(level["bodies"]) + len(level["holes"]))
        page.goto("/#rules")
        wait_screen(page, "#rules", '[data-testid="rules"][data-ready="1"]')
        expect(page.get_by_test_id("rules-board").locator("text.letter").first).to_be_attached()
        assert page.page_errors == []


def test_clearing_the_saved_data_asks_first_then_removes_all_of_it(browser: Browser, base_url: str):
    with open_page(browser, base_url, service_workers="block", **DEVICES["desktop"]) as page:
        goto_ready(page)
        set_progress(page, PROGRESS)
        page.evaluate("""() => {
            localStorage.setItem('gridforge.drafts', '[]');
            localStorage.setItem('gridforge.progress.corrupt.2026-01-01T00:00:00.000Z', 'x');
            localStorage.setItem('another.site', 'kept');
        }""")
        page.goto("/#settings")
        page.get_by_test_id("setting-theme-dark").check()
        page.get_by_test_id("setting-colour-letters").check()
        panel = page.get_by_test_id("settings-clear-panel")
        expect(panel).to_be_hidden()
        page.get_by_test_id("settings-clear").click()
        expect(panel).to_be_visible()
        expect(page.get_by_test_id("settings-clear-cancel")).to_be_focused()
        page.get_by_test_id("settings-clear-cancel").click()  # changed their mind: nothing goes
        expect(panel).to_be_hidden()
        keys = "() => Object.keys(localStorage).sort()"
        assert len(page.evaluate(keys)) == 5
        page.get_by_test_id("settings-clear").click()
        page.get_by_test_id("settings-clear-confirm").click()
        expect(panel).to_be_hidden()
        expect(page.get_by_test_id("message-text")).to_contain_text("was removed")
        assert page.evaluate(keys) == ["another.site"]
        # The defaults apply at once, and every screen starts fresh.
        expect_theme(page, "light", "system")
        expect(page.get_by_test_id("setting-colour-letters")).not_to_be_checked()
        page.get_by_test_id("screen-home").click()
        expect(page.get_by_test_id("home-snakes-place")).to_have_text("Start with level 1")
        expect(page.get_by_test_id("home-editor-place")).to_have_text("No drafts yet")
        assert page.page_errors == []


def test_the_play_records_can_be_forgotten_alone(browser: Browser, base_url: str):
    records = json.dumps({"format": "gridforge.snakes.telemetry/1", "source": "device",
                          "attempts": [{"seq": 0}, {"seq": 1}]})
    with open_page(browser, base_url, service_workers="block", **DEVICES["phone"]) as page:
        goto_ready(page)
        set_progress(page, PROGRESS)
        page.evaluate("(text) => localStorage.setItem('gridforge.snakes.telemetry', text)",
                      records)
        page.goto("/#settings")
        count = page.get_by_test_id("settings-telemetry-count")
        expect(count).to_have_attribute("data-attempts", "2")
        expect(count).to_have_text("2 attempts recorded.")
        press(page, "phone", "settings-telemetry-clear")
        expect(count).to_have_attribute("data-attempts", "0")
        expect(page.get_by_test_id("settings-telemetry-clear")).to_be_disabled()
        stored = "() => localStorage.getItem('gridforge.snakes.telemetry')"
        assert page.evaluate(stored) is None
        progress = "() => localStorage.getItem('gridforge.progress')"
        assert json.loads(page.evaluate(progress))["snakes"]["done"] == {"1": 9}  # kept
        page.reload()
        expect(page.get_by_test_id("settings-telemetry-count")).to_have_attribute(
            "data-attempts", "0", timeout=READY_TIMEOUT_MS)
        assert page.page_errors == []


def test_a_damaged_setting_is_kept_aside_and_the_rest_stay(browser: Browser, base_url: str):
    raw = json.dumps({"colourLetters": True, "theme": "purple", "volume": 300})
    with open_page(browser, base_url, service_workers="block", color_scheme="dark",
                   **DEVICES["desktop"]) as page:
        goto_ready(page)
        page.evaluate("(t) => localStorage.setItem('gridforge.settings', t)", raw)
        page.goto("/#settings")
        page.reload()
        page.evaluate("() => window.gridforge.ready")
        kept = page.evaluate("""() => Object.keys(localStorage)
            .filter((k) => k.startsWith('gridforge.settings.corrupt.'))""")
        assert len(kept) == 1
        assert page.evaluate("(k) => localStorage.getItem(k)", kept[0]) == raw
        error = page.get_by_test_id("error")
        expect(error).to_contain_text(kept[0])
        expect(error).to_contain_text("theme")
        expect(error).to_contain_text("volume")
        settings = stored_settings(page)
        assert (settings["colourLetters"], settings["theme"], settings["volume"]) == \
            (True, "system", 70)
        expect(page.get_by_test_id("setting-colour-letters")).to_be_checked()
        expect_theme(page, "dark", "system")
        assert page.page_errors == []
