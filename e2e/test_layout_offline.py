"""Issue 21, the page's part: boards that fill the screen (1280x800 and 390x844, with zoom
and pan where a level is too wide for 30 px cells), the whole main line offline after one
visit (levels 1999, 1000 and 2000 open and play with the network gone; a level that cannot
be had says so with a way back), and players see a game (no Console tab or version line
without the developer setting; no "certificate" on the snakes screens)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from gridforge.snakes.design.line_plan import MAX_COLUMNS
from gridforge.snakes.game.mainline import mainline_level
from playwright.sync_api import Browser, Page, expect

from .conftest import READY_TIMEOUT_MS, open_page, wait_idle
from .snakes_helpers import (
    DEVICES,
    SITE_LEVELS,
    board,
    device_page,
    goto_ready,
    play_by_keys,
    site_level,
    wait_level,
)


def all_open() -> str:
    return json.dumps({"format": "gridforge.progress/1", "mines": {"run": None},
                       "snakes": {"done": {}, "open": 2000}})


def open_level(page: Page, n: int) -> None:
    page.goto(f"/#snakes/level/{n}")
    wait_level(page, n)


def sideways(page: Page) -> float:
    return page.evaluate(
        "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - document.documentElement.clientWidth")


def cell_px(page: Page) -> float:
    b = board(page).bounding_box()
    assert b is not None
    return b["width"] / int(board(page).get_attribute("data-cols") or 1)


# ---------------------------------------------------------------------------- layout

def test_at_1280x800_level_1_fills_the_height_with_the_controls_beside(
        browser: Browser, base_url: str):
    level = mainline_level(1)["level"]
    cols, rows = level["cols"], level["rows"]
    with device_page(browser, base_url, "desktop") as page:
        goto_ready(page)
        open_level(page, 1)
        b = board(page).bounding_box()
        assert b is not None
        assert b["height"] >= 0.6 * 800, b
        assert b["y"] + b["height"] <= 800, b  # all of it on screen
        assert abs(b["width"] / cols - b["height"] / rows) < 0.5  # square cells
        bar = page.locator(".play-bar").bounding_box()
        assert bar is not None and bar["x"] >= b["x"] + b["width"], (bar, b)  # beside it
        assert sideways(page) <= 0
        print(f"1280x800 level 1: board {b['width']:.0f}x{b['height']:.0f}, "
              f"{100 * b['height'] / 800:.0f}% of the height, cells {b['width'] / cols:.1f} px")
        assert page.page_errors == []


PHONE_LEVELS = [1, 500, 1000, 1500, 2000]


def test_at_390x844_cells_are_30px_or_zoom_to_it_and_nothing_scrolls_sideways(
        browser: Browser, base_url: str):
    figures = []
    with device_page(browser, base_url, "phone") as page:
        goto_ready(page)
        page.evaluate("(t) => localStorage.setItem('gridforge.progress', t)", all_open())
        for n in PHONE_LEVELS:
            level, _ = site_level(n)
            open_level(page, n)
            fit = cell_px(page)
            if level["cols"] <= MAX_COLUMNS:  # the designer's levels: a phone held upright
                assert fit >= 30, (n, level["cols"], fit)
            b = board(page).bounding_box()
            assert b is not None and b["x"] >= 0 and b["x"] + b["width"] <= 390.01, (n, b)
            assert sideways(page) <= 0, n
            bar = page.locator(".play-bar").bounding_box()
            assert bar is not None and bar["y"] >= b["y"] + b["height"], n  # controls below
            zoom = page.get_by_test_id("snakes-zoom")
            zoomed = None
            if fit < 30:
                expect(zoom).to_be_visible()
                zoom.click()
                expect(page.get_by_test_id("snakes-play")).to_have_attribute("data-zoom", "in")
                zoomed = cell_px(page)
                assert zoomed >= 30, (n, zoomed)
                # The board scrolls inside its frame; the frame and the page stay 390 wide.
                frame = page.get_by_test_id("snakes-frame").bounding_box()
                assert frame is not None and frame["x"] >= 0
                assert frame["x"] + frame["width"] <= 390.01
                assert sideways(page) <= 0, n
                assert page.evaluate(
                    "() => { const f = document.querySelector('[data-testid=snakes-frame]');"
                    " return f.scrollWidth > f.clientWidth; }")
                zoom.click()  # and back to the whole board
                expect(page.get_by_test_id("snakes-play")).to_have_attribute("data-zoom", "fit")
            else:
                expect(zoom).to_be_hidden()
            figures.append((n, level["cols"], level["rows"], round(fit, 1),
                            None if zoomed is None else round(zoomed, 1)))
        print("390x844 (level, cols, rows, fitted cell px, zoomed cell px):", figures)
        assert page.page_errors == []


def touch(cdp, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
        {"x": x, "y": y, "id": i + 1, "radiusX": 4, "radiusY": 4, "force": 1}
        for i, (x, y) in enumerate(points)]})


# A level too wide for 30 px cells at 390 px (the main line's fit): the widest a level may
# be, 18 columns.
WIDE_LEVEL = {"format": "gridforge.snakes.level/1", "cols": 18, "rows": 8, "stones": [[9, 3]],
              "bodies": [{"cells": [[1, 1], [2, 1], [3, 1]], "colors": [1]},
                         {"cells": [[14, 6], [15, 6]], "colors": [2]}],
              "holes": [{"cell": [16, 1], "color": 1}, {"cell": [2, 6], "color": 2}]}


def test_at_390x844_two_fingers_zoom_a_wide_level_and_one_finger_pans_it(
        browser: Browser, base_url: str, tmp_path: Path):
    with device_page(browser, base_url, "phone") as page:
        # A designer's wide draft, played on the phone through the editor's try-play (the
        # play view the main line uses).
        goto_ready(page, "#editor")
        source = tmp_path / "wide.json"
        source.write_text(json.dumps(WIDE_LEVEL))
        page.get_by_test_id("editor-import-file").set_input_files(str(source))
        expect(page.get_by_test_id("editor-board")).to_have_attribute("data-cols", "18")
        page.get_by_test_id("editor-try").click()
        expect(board(page)).to_have_attribute("data-cols", "18")
        expect(page.locator('[data-testid="snakes-play"][data-ready="1"]')).to_have_count(1)
        wait_idle(page)
        level = WIDE_LEVEL
        fit = cell_px(page)
        assert fit < 30
        b = board(page).bounding_box()
        assert b is not None
        cdp = page.context.new_cdp_session(page)
        cx, cy = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
        touch(cdp, "touchStart", [(cx - 20, cy), (cx + 20, cy)])
        for spread in range(30, 100, 10):
            touch(cdp, "touchMove", [(cx - spread, cy), (cx + spread, cy)])
        touch(cdp, "touchEnd", [])
        expect(page.get_by_test_id("snakes-play")).to_have_attribute("data-zoom", "in")
        zoomed = cell_px(page)
        assert zoomed >= 30, zoomed
        assert sideways(page) <= 0
        assert int(board(page).get_attribute("data-steps") or 0) == 0  # nothing moved
        # One finger on a cell that holds no end pans the board inside its frame.
        ends = {tuple(c) for body in level["bodies"] for c in (body["cells"][0], body["cells"][-1])}
        scroll = "() => document.querySelector('[data-testid=snakes-frame]').scrollLeft"
        before = page.evaluate(scroll)
        frame = page.get_by_test_id("snakes-frame").bounding_box()
        assert frame is not None
        b = board(page).bounding_box()
        assert b is not None
        size = b["width"] / level["cols"]
        start = None
        for y in range(level["rows"]):
            for x in range(level["cols"]):
                px, py = b["x"] + (x + .5) * size, b["y"] + (y + .5) * size
                inside = frame["x"] + 60 < px < frame["x"] + frame["width"] - 10 and \
                    frame["y"] < py < frame["y"] + frame["height"]
                if (x, y) not in ends and inside:
                    start = (px, py)
                    break
            if start:
                break
        assert start is not None
        direction = -1 if before < 20 else 1
        touch(cdp, "touchStart", [start])
        for k in range(1, 6):
            touch(cdp, "touchMove", [(start[0] + direction * 10 * k, start[1])])
        touch(cdp, "touchEnd", [])
        page.wait_for_function(f"(b) => ({scroll})() !== b", arg=before)
        assert int(board(page).get_attribute("data-steps") or 0) == 0
        assert sideways(page) <= 0
        print(f"an 18-column draft at 390x844: fitted {fit:.1f} px, pinched to {zoomed:.1f} px, "
              f"panned {before} -> {page.evaluate(scroll)}")
        assert page.page_errors == []


# ---------------------------------------------------------------------------- offline

def test_after_one_visit_levels_1999_1000_and_2000_open_and_play_offline(
        browser: Browser, base_url: str):
    context = browser.new_context(base_url=base_url, **DEVICES["desktop"])
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto("/")
        page.evaluate("() => window.gridforge.ready")
        # The whole line is saved in the background once the worker is active.
        expect(page.locator("html")).to_have_attribute("data-offline", "ready",
                                                       timeout=READY_TIMEOUT_MS)
        total = int(page.locator("html").get_attribute("data-offline-total") or 0)
        assert total == len(json.loads((SITE_LEVELS / "index.json").read_text())["blocks"])
        expect(page.get_by_test_id("offline-status")).to_contain_text("Every level plays offline")
        page.evaluate("(t) => localStorage.setItem('gridforge.progress', t)", all_open())

        context.set_offline(True)
        reached: list[str] = []
        context.route("**/*", lambda route: (reached.append(route.request.url), route.abort()))
        page.reload()
        page.evaluate("() => window.gridforge.ready")
        for n, moves in ((1999, 12), (1000, 12), (2000, None)):
            _, certificate = site_level(n)
            open_level(page, n)
            steps = certificate["solution"] if moves is None else certificate["solution"][:moves]
            play_by_keys(page, steps)
            if moves is None:
                expect(page.get_by_test_id("snakes-win")).to_be_visible()
                expect(page.get_by_test_id("snakes-win-steps")).to_contain_text(
                    f"Solved in {len(steps)} steps")
        assert [u for u in reached if not u.endswith("/sw.js")] == []
        assert errors == []
    finally:
        context.close()


def test_a_level_that_cannot_be_had_says_so_in_words_with_a_way_back(
        browser: Browser, base_url: str):
    with open_page(browser, base_url, service_workers="block", **DEVICES["phone"]) as page:
        goto_ready(page)
        page.evaluate("(t) => localStorage.setItem('gridforge.progress', t)", all_open())
        page.context.route("**/levels/main-1976-2000.json", lambda route: route.abort())
        page.goto("/#snakes/level/1999")
        panel = page.get_by_test_id("snakes-unavailable")
        expect(panel).to_be_visible(timeout=READY_TIMEOUT_MS)
        expect(panel).to_contain_text("Level 1999")
        assert "Failed to fetch" not in panel.inner_text()
        page.get_by_test_id("snakes-unavailable-map").click()
        expect(page).to_have_url(re.compile(r"#snakes$"))
        expect(page.get_by_test_id("level-tile").first).to_be_visible()
        # Back again, still unavailable; once the block can be had, "Try again" opens it.
        page.go_back()
        expect(panel).to_be_visible()
        page.context.unroute("**/levels/main-1976-2000.json")
        page.get_by_test_id("snakes-retry").click()
        wait_level(page, 1999)
        assert page.page_errors == []


# ---------------------------------------------------------------------------- players see a game

@pytest.mark.parametrize("device", DEVICES)
def test_the_console_tab_and_versions_only_with_the_developer_setting(
        browser: Browser, base_url: str, device: str):
    with device_page(browser, base_url, device) as page:
        goto_ready(page)
        nav = page.get_by_test_id("screens")
        expect(nav).to_be_visible()
        expect(page.get_by_test_id("screen-console")).to_have_count(0)
        expect(page.get_by_test_id("versions")).to_be_hidden()
        assert "Pyodide" not in page.locator("body").inner_text()
        # The route keeps working for tools and tests.
        page.goto("/#console")
        expect(page.get_by_test_id("call-run")).to_be_visible()
        page.get_by_test_id("screen-settings").click()
        page.get_by_test_id("setting-developer").check()
        expect(page.get_by_test_id("screen-console")).to_be_visible()
        expect(page.get_by_test_id("versions")).to_contain_text("Pyodide")
        page.reload()
        page.evaluate("() => window.gridforge.ready")
        expect(page.get_by_test_id("setting-developer")).to_be_checked()
        expect(page.get_by_test_id("screen-console")).to_be_visible()
        page.get_by_test_id("setting-developer").uncheck()
        expect(page.get_by_test_id("screen-console")).to_have_count(0)
        expect(page.get_by_test_id("versions")).to_be_hidden()
        assert page.page_errors == []


def test_no_visible_text_on_the_snakes_screens_says_certificate(browser: Browser, base_url: str):
    with device_page(browser, base_url, "desktop") as page:
        goto_ready(page)
        done = {"1": site_level(1)[1]["steps"] + 3}
        page.evaluate("(t) => localStorage.setItem('gridforge.progress', t)", json.dumps(
            {"format": "gridforge.progress/1", "mines": {"run": None},
             "snakes": {"done": done, "open": 3}}))
        page.goto("/#snakes")
        expect(page.locator('[data-testid="level-tile"][data-level="1"]')).to_have_attribute(
            "data-state", "done")

        def visible_text() -> str:
            return page.evaluate("() => document.body.innerText + ' ' + [...document"
                                 ".querySelectorAll('[title]')].map(e => e.title).join(' ')")

        assert "certificate" not in visible_text().lower()
        for n in (1, 2):
            _, certificate = site_level(n)
            open_level(page, n)
            assert "certificate" not in visible_text().lower()
            play_by_keys(page, certificate["solution"])
            expect(page.get_by_test_id("snakes-win")).to_be_visible()
            won = page.get_by_test_id("snakes-win-steps").inner_text()
            assert "certificate" not in visible_text().lower(), won
            best = certificate["steps"]
            assert f"{best} step" in won, won
            assert "fewest steps possible" in won or "best known" in won, won
        assert page.page_errors == []
