"""Two languages, one catalogue (issue 22): with the browser's locale zh-CN the page speaks
Simplified Chinese (the home screen, the snakes map and a level, mines, a refused step, a
refused flag and the hints of both games, the level editor with its verification and live
status) and <html lang="zh-CN">; choosing English in
#settings changes the words at once, without a reload, and Python's words follow (the
worker is told the language with every call). Played with real clicks and drags; the tests
wait on page states, never on durations."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import READY_TIMEOUT_MS, open_page, wait_idle
from .snakes_helpers import board, drag_into_a_stone, mainline, wait_level
from .test_editor import draw_small_level, pick, tap, verify
from .test_editor_workbench import live_for_board

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
    drag_into_a_stone(page, mainline()["levels"][0])
    wait_idle(page)
    expect(board(page)).to_have_attribute("data-steps", "0")


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
    expect(page.get_by_test_id("home-snakes")).to_contain_text("蛇归洞")
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


def editor_ready(page: Page, route: str = "#editor") -> None:
    page.wait_for_selector(f'section.editor[data-route="{route}"][data-ready="true"]')


def test_the_editor_speaks_chinese_and_english_comes_at_once(zh_page: Page) -> None:
    page = zh_page
    page.goto("/")
    page.evaluate("() => window.gridforge.ready")
    wait_idle(page)
    page.evaluate("() => { window.__sameDocument = true; }")  # gone if the page reloads
    page.get_by_test_id("screen-editor").click()
    editor_ready(page)
    assert lang(page) == "zh-CN"
    expect(page.get_by_test_id("editor-verify")).to_have_text("验证")
    expect(page.get_by_test_id("editor-tool-body")).to_have_text("蛇")
    expect(page.get_by_test_id("editor-message")).to_have_text("空白棋盘：选个工具开始画吧。")

    # A level drawn by hand: the live status (Python's answer) and Verify speak Chinese.
    draw_small_level(page)
    live_for_board(page, "solvable")
    live = page.get_by_test_id("editor-live")
    expect(live).to_have_text(re.compile(r"^有解：\d+ 步"))
    verify(page)
    expect(page.get_by_test_id("editor-status")).to_have_attribute("data-status", "verified")
    expect(page.get_by_test_id("editor-status")).to_contain_text("已验证")
    expect(page.get_by_test_id("editor-message")).to_contain_text("验证结果：已验证")
    expect(page.get_by_test_id("editor-chart-term").first).to_contain_text(HAN)

    # An edit that makes it unsolvable: the status names the edit and Python's reasons.
    pick(page, "erase")
    tap(page, (1, 3))  # the hole of colour 1
    live_for_board(page, "unsolvable")
    expect(live).to_contain_text("擦除第 2 列第 4 行之后就无解了")
    expect(page.get_by_test_id("editor-reason-text").first).to_contain_text("蓝色")
    expect(page.get_by_test_id("editor-issue-sentence").first).to_have_text(
        "再放 1 个蓝色的洞：1 层蓝色需要同样多的洞。")
    page.get_by_test_id("editor-verify").click()
    expect(page.get_by_test_id("editor-message")).to_contain_text("请先改好这些：")
    text = page.evaluate("() => document.body.innerText")
    assert not LEAKS.search(text), f"a key or a developer's word: {LEAKS.search(text)}"

    # English, chosen in settings, applies at once: the editor comes back in English, and so
    # do Python's reasons.
    page.get_by_test_id("screen-settings").click()
    page.get_by_test_id("setting-language-en").click()
    expect(page.locator("#settings-title")).to_have_text("Settings")
    page.get_by_test_id("screen-editor").click()
    editor_ready(page)
    expect(page.get_by_test_id("editor-verify")).to_have_text("Verify")
    expect(page.get_by_test_id("editor-tool-body")).to_have_text("Body")
    live_for_board(page, "unsolvable")
    expect(live).to_contain_text("Not solvable")
    expect(page.get_by_test_id("editor-reason-text").first).to_contain_text("blue")
    expect(page.get_by_test_id("editor-issue-sentence").first).to_have_text(
        "Add 1 blue hole(s): 1 blue layer(s) need as many holes.")
    page.get_by_test_id("editor-verify").click()
    expect(page.get_by_test_id("editor-message")).to_contain_text("Fix these first: ")
    assert lang(page) == "en"
    assert page.evaluate("() => window.__sameDocument === true"), "the page was reloaded"


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
                   r"words|issue|error|editor|store)\.[a-z][\w-]*(?:\.[\w-]+)*\b|\b[a-z]+_[a-z_]+\b|"
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
             ("screen-editor", 'section.editor[data-ready="true"]'),
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
