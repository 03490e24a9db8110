"""Two languages, one catalogue (issue 22): with the browser's locale zh-CN the page speaks
Simplified Chinese (the home screen, the snakes map and a level, mines, a refused step, a
refused flag and the hints of both games) and <html lang="zh-CN">; choosing English in
#settings changes the words at once, without a reload, and Python's words follow (the
worker is told the language with every call). Played with real clicks and drags; the tests
wait on page states, never on durations."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from conftest import READY_TIMEOUT_MS, open_page, wait_idle
from playwright.sync_api import Browser, Page, expect
from snakes_helpers import DIRS, board, cell_centre, end_cell, mainline, wait_level

HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def zh_page(browser: Browser, base_url: str) -> Iterator[Page]:
    with open_page(browser, base_url, locale="zh-CN", service_workers="block",
                   viewport={"width": 1280, "height": 900}) as page:
        yield page


def lang(page: Page) -> str:
    return page.evaluate("() => document.documentElement.lang")


def message(page: Page):
    return page.get_by_test_id("app-message")


def refuse_a_snakes_step(page: Page) -> None:
    """Drag a body end of level 1 into a stone beside it: the rules refuse the step."""
    level = mainline()["levels"][0]
    stones = {tuple(c) for c in level["stones"]}
    for body in range(len(level["bodies"])):
        for end in ("head", "tail"):
            x, y = end_cell(page, body, end)
            for dx, dy in DIRS.values():
                if (x + dx, y + dy) in stones:
                    page.mouse.move(*cell_centre(page, x, y))
                    page.mouse.down()
                    page.mouse.move(*cell_centre(page, x + dx, y + dy), steps=3)
                    page.mouse.up()
                    wait_idle(page)
                    expect(board(page)).to_have_attribute("data-steps", "0")
                    return
    raise AssertionError("level 1 has no body end beside a stone: the test needs another level")


def open_level_1(page: Page) -> None:
    page.get_by_test_id("screen-snakes").click()
    page.locator('[data-testid="level-tile"][data-level="1"]').click()
    wait_level(page, 1)


def open_mines(page: Page) -> None:
    page.get_by_test_id("screen-mines").click()
    expect(page.locator('[data-testid="mines-cell"][data-avatar="1"]')).to_have_count(
        1, timeout=READY_TIMEOUT_MS)
    wait_idle(page)


def flag_far_away(page: Page) -> None:
    """Right click a concealed cell two or more cells from the avatar: too far to flag."""
    avatar = page.locator('[data-testid="mines-cell"][data-avatar="1"]')
    ax, ay = int(avatar.get_attribute("data-x") or 0), int(avatar.get_attribute("data-y") or 0)
    cells = page.locator('[data-testid="mines-cell"][data-state="concealed"]')
    for i in range(cells.count()):
        cell = cells.nth(i)
        x, y = int(cell.get_attribute("data-x") or 0), int(cell.get_attribute("data-y") or 0)
        if max(abs(x - ax), abs(y - ay)) >= 2:
            cell.click(button="right")
            wait_idle(page)
            return
    raise AssertionError("no concealed cell far from the avatar")


def test_a_chinese_browser_gets_chinese_and_english_comes_at_once(zh_page: Page) -> None:
    page = zh_page
    page.goto("/")
    page.evaluate("() => window.gridforge.ready")
    wait_idle(page)
    page.evaluate("() => { window.__sameDocument = true; }")  # gone if the page reloads

    # Home, in Chinese, and the document says so.
    assert lang(page) == "zh-CN"
    expect(page.get_by_test_id("screen-home")).to_have_text("首页")
    expect(page.get_by_test_id("screen-settings")).to_have_text("设置")
    expect(page.get_by_test_id("home-snakes")).to_contain_text("贪吃蛇")
    expect(page.get_by_test_id("home-snakes-place")).to_have_text("从第 1 关开始")
    expect(page.get_by_test_id("status")).to_have_text("就绪")

    # Snakes: the map, a level, a refused step and a hint, all in Chinese.
    open_level_1(page)
    expect(page.get_by_test_id("snakes-title")).to_have_text("第 1 关")
    expect(page.get_by_test_id("snakes-undo")).to_have_text("撤销")
    expect(page.get_by_test_id("snakes-restart")).to_have_text("重来")
    expect(page.get_by_test_id("snakes-hint")).to_have_text("提示")
    expect(page.get_by_test_id("snakes-lesson-title")).to_have_text("蛇头先行")
    refuse_a_snakes_step(page)
    expect(message(page)).to_contain_text("这一步走不了：那里是石头。")
    page.get_by_test_id("snakes-hint").click()
    wait_idle(page)
    expect(message(page)).to_contain_text("提示：沿箭头移动标出的那一端")

    # Mines: the screen, a refused flag (Python's words) and a hint.
    open_mines(page)
    expect(page.get_by_test_id("mines-stop")).to_have_text("停手")
    expect(page.get_by_test_id("mines-tip")).to_have_text(HAN)
    flag_far_away(page)
    expect(message(page)).to_contain_text("太远了，插不了旗")
    page.get_by_test_id("mines-hint").click()
    wait_idle(page)
    expect(message(page)).to_contain_text("提示")
    expect(page.get_by_test_id("mines-hint-text")).to_have_text(HAN)

    # Settings: English, chosen with a click, applies at once, without a reload.
    page.get_by_test_id("screen-settings").click()
    expect(page.locator("#settings-title")).to_have_text("设置")
    page.get_by_test_id("setting-language-en").click()
    expect(page.locator("#settings-title")).to_have_text("Settings")
    expect(page.get_by_test_id("screen-home")).to_have_text("Home")
    expect(page.get_by_test_id("status")).to_have_text("Ready")
    expect(page.get_by_test_id("setting-language-en")).to_be_checked()
    assert lang(page) == "en"
    assert page.evaluate("() => window.__sameDocument === true"), "the page was reloaded"

    # Python's words follow: the mines refusal and the snakes refusal and hint are English.
    open_mines(page)
    expect(page.get_by_test_id("mines-stop")).to_have_text("Stop")
    flag_far_away(page)
    expect(message(page)).to_contain_text("Too far to flag: stand next to the cell first.")
    open_level_1(page)
    expect(page.get_by_test_id("snakes-hint")).to_have_text("Hint")
    expect(page.get_by_test_id("snakes-lesson-title")).to_have_text("Head first")
    refuse_a_snakes_step(page)
    expect(message(page)).to_contain_text("That move is not allowed: the target is a stone.")
    page.get_by_test_id("snakes-hint").click()
    wait_idle(page)
    expect(message(page)).to_contain_text("Hint: move the marked end along the arrow")
    assert page.evaluate("() => window.__sameDocument === true"), "the page was reloaded"
    # The choice is kept beside the other settings.
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('gridforge.settings')).language")
    assert stored == "en"


def test_an_english_browser_gets_english_and_chinese_from_settings(
        browser: Browser, base_url: str) -> None:
    with open_page(browser, base_url, locale="en-GB", service_workers="block") as page:
        page.goto("/#settings")
        page.evaluate("() => window.gridforge.ready")
        wait_idle(page)
        assert lang(page) == "en"
        expect(page.get_by_test_id("setting-language-system")).to_be_checked()
        page.get_by_test_id("setting-language-zh-CN").click()
        expect(page.get_by_test_id("screen-home")).to_have_text("首页")
        assert lang(page) == "zh-CN"
        page.reload()  # the choice is saved
        page.evaluate("() => window.gridforge.ready")
        expect(page.locator("#settings-title")).to_have_text("设置")
        assert lang(page) == "zh-CN"
        assert page.page_errors == []  # type: ignore[attr-defined]


# A key shown instead of its message (a key missing from the catalogue) or a developer's word.
LEAKS = re.compile(r"\b(?:nav|shell|route|home|settings|snakes|lesson|rules|mines|telemetry|"
                   r"words|issue|error)\.[a-z][\w-]*(?:\.[\w-]+)*\b|\b[a-z]+_[a-z_]+\b|"
                   r"certificate|\[\s*\d+\s*,\s*\d+\s*\]")


def test_in_chinese_no_screen_shows_a_key_or_a_developer_s_word(zh_page: Page) -> None:
    page = zh_page
    page.goto("/")
    page.evaluate("() => window.gridforge.ready")
    wait_idle(page)
    stops = [("screen-home", '[data-testid="home"]'),
             ("screen-snakes", '[data-testid="level-tile"]'),
             ("screen-mines", '[data-testid="mines-cell"][data-avatar="1"]'),
             ("screen-rules", '[data-testid="rules"][data-ready="1"]'),
             ("screen-settings", '[data-testid="settings"]')]
    found = []
    for tab, drawn in stops:
        page.get_by_test_id(tab).click()
        expect(page.locator(drawn).first).to_be_attached(timeout=READY_TIMEOUT_MS)
        wait_idle(page)
        text = page.evaluate("() => document.body.innerText")
        assert HAN.search(text), f"{tab}: no Chinese on the screen"
        found += [(tab, m.group(0)) for m in LEAKS.finditer(text)]
    open_level_1(page)
    text = page.evaluate("() => document.body.innerText")
    found += [("level 1", m.group(0)) for m in LEAKS.finditer(text)]
    assert not found, f"keys or developer words on screen: {found}"
