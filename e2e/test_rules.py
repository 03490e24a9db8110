"""How to play (#rules, issue 21), at 1280x800 with the mouse and at 390x844 with touch: the
screen opens from snakes and from mines by the navigation's link, clicked or tapped as a
person would; it pictures the basics and each mechanic (a small board in SVG, no emoji) with
Python's sentences, and has a part on mines; it works with back, forward and reload like the
other routes; the link is there on every game screen; no visible text holds a developer's
identifier, "teaches", "certificate" or a raw [x, y]; nothing scrolls sideways."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from gridforge.mines import page as mines_page
from gridforge.snakes import page as snakes_page
from playwright.sync_api import Browser, Page, expect

from .conftest import READY_TIMEOUT_MS, open_page, press, wait_idle
from .snakes_helpers import DEVICES, goto_ready, set_progress, wait_level

PROGRESS = {"format": "gridforge.progress/1", "snakes": {"done": {}, "open": 3},
            "mines": {"run": None}}
BAD_WORDS = re.compile(r"\w_\w|teaches|certificate|\[\s*-?\d+\s*,\s*-?\d+\s*\]", re.IGNORECASE)
EMOJI = re.compile("[\u2600-\u27bf\U0001f300-\U0001faff]")
SNAKES = snakes_page.rules()
MINES = mines_page.rules()


@contextmanager
def opened(browser: Browser, base_url: str, device: str) -> Iterator[Page]:
    with open_page(browser, base_url, service_workers="block", **DEVICES[device]) as page:
        goto_ready(page)
        set_progress(page, PROGRESS)
        yield page


def wait_rules(page: Page) -> None:
    expect(page.locator('[data-testid="rules"][data-ready="1"]')).to_have_count(
        1, timeout=READY_TIMEOUT_MS)
    wait_idle(page)


def check_rules_screen(page: Page) -> None:
    """Every topic with its words from Python; a picture per snakes topic; words a player
    reads; no sideways scrolling."""
    expect(page).to_have_url(re.compile(r"#rules$"))
    expect(page.locator('nav [aria-current="page"]')).to_have_text("Rules")
    sections = page.get_by_test_id("rules-section")
    topics = [s["key"] for s in SNAKES["basics"] + SNAKES["mechanics"] + MINES["sections"]]
    assert [s.get_attribute("data-topic") for s in sections.all()] == topics
    for section in SNAKES["basics"] + SNAKES["mechanics"] + MINES["sections"]:
        node = page.locator(f'[data-testid="rules-section"][data-topic="{section["key"]}"]')
        expect(node.locator("h3")).to_have_text(section["title"])
        expect(node.locator("p")).to_have_text(section["text"])
    # A small board per snakes topic, drawn by the game's own board (markers included).
    pictures = page.get_by_test_id("rules-board")
    expect(pictures).to_have_count(len(SNAKES["basics"]) + len(SNAKES["mechanics"]))
    for section in SNAKES["mechanics"]:
        node = page.locator(f'[data-testid="rules-section"][data-topic="{section["key"]}"]')
        kinds = {m["kind"] for m in section["picture"]["view"]["markers"]}
        for kind in kinds:
            assert node.locator(f'[data-testid="snakes-marker"][data-kind="{kind}"]').count() >= 1
        box = node.get_by_test_id("rules-board").bounding_box()
        assert box and box["width"] >= 100 and box["height"] >= 40
    # every mines card has its picture and a demonstration (issue 45)
    expect(page.get_by_test_id("rules-mines-board")).to_have_count(len(MINES["sections"]))
    for board in page.get_by_test_id("rules-mines-board").all():
        expect(board).to_be_visible()
    text = page.evaluate("() => document.body.innerText")
    assert BAD_WORDS.findall(text) == [] and EMOJI.findall(text) == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.evaluate(
        "() => document.documentElement.clientWidth")


@pytest.mark.parametrize("device", DEVICES)
def test_the_rules_open_from_snakes_and_work_with_back_forward_and_reload(
    browser: Browser, base_url: str, device: str
):
    with opened(browser, base_url, device) as page:
        page.evaluate("() => { location.hash = '#snakes/level/2'; }")
        wait_level(page, 2)
        press(page, device, "screen-rules")
        wait_rules(page)
        check_rules_screen(page)
        page.go_back()
        wait_level(page, 2)
        page.go_forward()
        wait_rules(page)
        page.reload()
        page.evaluate("() => window.gridforge.ready")
        wait_rules(page)
        check_rules_screen(page)
        # The lesson's own link leads here too.
        page.evaluate("() => { location.hash = '#snakes/level/1'; }")
        wait_level(page, 1)
        press(page, device, "snakes-lesson-rules")
        wait_rules(page)
        # The jump buttons bring each game's part into view without changing the route.
        press(page, device, "rules-jump-mines")
        expect(page.get_by_test_id("rules-mines")).to_be_in_viewport()
        expect(page).to_have_url(re.compile(r"#rules$"))
        assert page.page_errors == []


@pytest.mark.parametrize("device", DEVICES)
def test_the_rules_open_from_mines_and_the_link_is_on_every_game_screen(
    browser: Browser, base_url: str, device: str
):
    with opened(browser, base_url, device) as page:
        for fragment in ("#snakes", "#editor", "#mines"):
            page.evaluate("(f) => { location.hash = f; }", fragment)
            wait_idle(page)
            expect(page.get_by_test_id("app-screen")).to_have_attribute(
                "data-screen", fragment[1:])
            expect(page.get_by_test_id("screen-rules")).to_be_visible()
        press(page, device, "screen-rules")
        wait_rules(page)
        check_rules_screen(page)
        page.go_back()
        expect(page.get_by_test_id("app-screen")).to_have_attribute("data-screen", "mines")
        wait_idle(page)
        assert page.page_errors == []
