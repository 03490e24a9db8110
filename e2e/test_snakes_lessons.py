"""Snakes lessons in the player's words (issue 21), at 1280x800 with the mouse and at 390x844
with touch: each lesson level of the main line (1-11, and 12, 18, 24, 30 and 36 where the
level shows its mechanic) opens with Python's sentences and a demonstration drawn on the
board; the lesson is put away with "Got it" (remembered after a reload), shown again with a
button, and its ghost leaves the board on the player's first step (a level resumed mid-way
opens without it); reduced motion draws the
paths still; no visible text holds a developer's identifier, "teaches", "certificate" or a
raw [x, y]; a damaged list of put-away lessons is kept aside, never dropped."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from gridforge.snakes import page as snakes_page
from gridforge.snakes.game.mainline import mainline_level
from playwright.sync_api import Browser, Locator, Page, expect

from .conftest import READY_TIMEOUT_MS, open_page, wait_idle
from .snakes_helpers import (
    DEVICES,
    board,
    cell_centre,
    drag_path,
    end_cell,
    goto_ready,
    set_progress,
    wait_level,
)

LESSON_LEVELS = [*range(1, 12), 12, 18, 24, 30, 36]
PROGRESS = {"format": "gridforge.progress/1", "snakes": {"done": {}, "open": 40},
            "mines": {"run": None}}

# The page's visible words (hidden elements excluded) and what a player must never read.
VISIBLE_TEXT = "() => document.body.innerText"
BAD_WORDS = [(re.compile(r"\w_\w"), "an underscore-joined identifier"),
             (re.compile(r"teaches|certificate", re.IGNORECASE), "a developer's word"),
             (re.compile(r"\[\s*-?\d+\s*,\s*-?\d+\s*\]"), "a raw [x, y]")]


def bad_words(text: str) -> list[str]:
    return [f"{why}: {m.group(0)!r}" for pattern, why in BAD_WORDS for m in pattern.finditer(text)]


def expected(n: int) -> dict[str, Any] | None:
    """Python's lesson for shipped level ``n`` (the page must show just that)."""
    entry = mainline_level(n)
    return snakes_page.lesson(n, entry["level"], entry["certificate"])


@contextmanager
def opened(browser: Browser, base_url: str, device: str, **options: Any) -> Iterator[Page]:
    """A page sized as ``device`` with lessons up to 40 open (the service worker blocked: its
    cache is tested elsewhere and would only fill itself in the background here)."""
    options = {**DEVICES[device], **options}
    with open_page(browser, base_url, service_workers="block", **options) as page:
        goto_ready(page)
        set_progress(page, PROGRESS)
        yield page


def go_level(page: Page, n: int) -> None:
    """Level ``n`` by its route (a same-document navigation: Python stays loaded)."""
    page.evaluate("(n) => { location.hash = `#snakes/level/${n}`; }", n)
    wait_level(page, n)


def press(page: Page, device: str, target: Locator) -> None:
    """Click with the mouse, or tap with a finger, as a person would."""
    if device == "phone":
        target.tap()
    else:
        target.click()
    wait_idle(page)


def lesson_ui(page: Page) -> dict[str, Locator]:
    """The lesson's panel and its parts, its show-again button and its demonstration."""
    ids = {"panel": "snakes-lesson", "text": "snakes-lesson-text", "title": "snakes-lesson-title",
           "dismiss": "snakes-lesson-dismiss", "show": "snakes-lesson-show", "demo": "snakes-demo"}
    return {name: page.get_by_test_id(testid) for name, testid in ids.items()}


@pytest.mark.parametrize("device", DEVICES)
def test_every_lesson_level_shows_its_sentences_and_its_demonstration(
    browser: Browser, base_url: str, device: str
):
    with opened(browser, base_url, device) as page:
        for n in LESSON_LEVELS:
            lesson = expected(n)
            go_level(page, n)
            ui = lesson_ui(page)
            if lesson is None:
                # A mechanic lesson whose level does not show it (today's 36): no lesson.
                assert n == 36
                expect(ui["panel"]).to_have_count(0)
                expect(ui["demo"]).to_have_count(0)
                continue
            expect(ui["panel"]).to_be_visible()
            expect(ui["panel"]).to_have_attribute("data-lesson", lesson["key"])
            expect(ui["title"]).to_have_text(lesson["title"])
            expect(ui["text"].locator("p")).to_have_text(lesson["text"])
            demo = lesson["demo"]
            expect(ui["demo"]).to_have_attribute("data-lesson", lesson["key"])
            expect(ui["demo"]).to_have_attribute("data-steps", str(len(demo["steps"])))
            expect(ui["demo"]).to_have_attribute("data-motion", "animated")
            bodies = {m["body"] for m in demo["moves"]}
            expect(page.get_by_test_id("snakes-demo-ghost")).to_have_count(len(bodies))
            assert page.get_by_test_id("snakes-demo-path").count() >= 1
            # The demonstration lies on the board and catches no pointer.
            box, frame = ui["demo"].bounding_box(), board(page).bounding_box()
            assert box and frame and box["width"] > 0
            assert box["x"] >= frame["x"] - 1
            assert box["x"] + box["width"] <= frame["x"] + frame["width"] + 1
            layer = ui["demo"].evaluate("(d) => getComputedStyle(d.parentNode).pointerEvents")
            assert layer == "none"
            # The designer's label never reaches the player (only Python's lesson does).
            expect(page.get_by_test_id("snakes-tip")).to_be_hidden()
            text = page.evaluate(VISIBLE_TEXT)
            assert bad_words(text) == [], (n, text)
            assert all(sentence in text for sentence in lesson["text"])
        assert page.page_errors == []


@pytest.mark.parametrize("device", DEVICES)
def test_a_lesson_is_put_away_remembered_shown_again_and_its_ghost_leaves_on_a_step(
    browser: Browser, base_url: str, device: str
):
    lesson = expected(12)
    with opened(browser, base_url, device) as page:
        go_level(page, 12)
        ui = lesson_ui(page)
        expect(ui["panel"]).to_be_visible()
        expect(ui["show"]).to_be_hidden()
        press(page, device, ui["dismiss"])
        expect(ui["panel"]).to_be_hidden()
        expect(ui["demo"]).to_have_count(0)
        expect(ui["show"]).to_be_visible()
        # Remembered per lesson: after a reload level 12 opens with it put away ...
        page.reload()
        wait_level(page, 12)
        expect(ui["panel"]).to_be_hidden()
        expect(ui["show"]).to_be_visible()
        expect(ui["demo"]).to_have_count(0)
        settings = json.loads(page.evaluate("() => localStorage.getItem('gridforge.settings')"))
        assert settings["lessonsDismissed"] == ["coats"]
        # ... while another lesson still opens.
        go_level(page, 1)
        expect(ui["panel"]).to_have_attribute("data-lesson", "head")
        expect(ui["panel"]).to_be_visible()
        # Shown again with its button, the demonstration back on the board.
        go_level(page, 12)
        press(page, device, ui["show"])
        expect(ui["panel"]).to_be_visible()
        expect(ui["text"].locator("p")).to_have_text(lesson["text"])
        expect(ui["demo"]).to_have_attribute("data-steps", str(len(lesson["demo"]["steps"])))
        settings = json.loads(page.evaluate("() => localStorage.getItem('gridforge.settings')"))
        assert settings["lessonsDismissed"] == []
        # The player's first step: the ghost (drawn from the level's start) leaves the board;
        # the words stay until put away.
        body, end, direction = lesson["demo"]["steps"][0]
        x, y = end_cell(page, body, end)
        dx, dy = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}[direction]
        drag_path(page, device, [cell_centre(page, x, y), cell_centre(page, x + dx, y + dy)])
        expect(board(page)).to_have_attribute("data-steps", "1")
        expect(ui["demo"]).to_have_count(0)
        expect(ui["panel"]).to_be_visible()
        # Resumed after a reload, one step in: the words, without the ghost.
        page.reload()
        wait_level(page, 12)
        expect(board(page)).to_have_attribute("data-steps", "1")
        expect(ui["panel"]).to_be_visible()
        expect(ui["demo"]).to_have_count(0)
        # Shown again mid-level: the demonstration is back.
        press(page, device, ui["dismiss"])
        press(page, device, ui["show"])
        expect(ui["demo"]).to_have_count(1)
        assert page.page_errors == []


def test_with_reduced_motion_the_demonstration_is_drawn_still(browser: Browser, base_url: str):
    lesson = expected(7)
    with opened(browser, base_url, "desktop", reduced_motion="reduce") as page:
        go_level(page, 7)
        demo = page.get_by_test_id("snakes-demo")
        expect(demo).to_have_attribute("data-motion", "static")
        expect(page.get_by_test_id("snakes-demo-ghost")).to_have_count(0)
        assert demo.locator("animate").count() == 0
        # One arrow per run of one end, numbered in order when there are several.
        runs = []
        for move in lesson["demo"]["moves"]:
            if runs and runs[-1][:2] == (move["body"], move["end"]) and not runs[-1][2]:
                runs[-1] = (move["body"], move["end"], move["exit"])
            else:
                runs.append((move["body"], move["end"], move["exit"]))
        paths = page.get_by_test_id("snakes-demo-path")
        expect(paths).to_have_count(len(runs))
        assert [p.get_attribute("data-body") for p in paths.all()] == [str(r[0]) for r in runs]
        # The numbers are drawn above the bodies (issue 52), in their own group.
        numbers = page.get_by_test_id("snakes-demo-numbers")
        assert [t.text_content() for t in numbers.locator("text").all()] == \
            [str(k) for k in range(1, len(runs) + 1)]
        assert page.page_errors == []


def test_a_damaged_list_of_put_away_lessons_is_kept_aside_and_the_lessons_show(
    browser: Browser, base_url: str
):
    raw = json.dumps({"colourLetters": True, "lessonsDismissed": "coats"})
    with opened(browser, base_url, "desktop") as page:
        page.evaluate("(t) => localStorage.setItem('gridforge.settings', t)", raw)
        page.goto("/#snakes/level/12")
        page.reload()
        wait_level(page, 12)
        expect(page.get_by_test_id("snakes-lesson")).to_be_visible()
        stored = page.evaluate("""() => Object.fromEntries(Object.keys(localStorage)
            .filter((k) => k.startsWith('gridforge.settings'))
            .map((k) => [k, localStorage.getItem(k)]))""")
        kept = [k for k in stored if k.startswith("gridforge.settings.corrupt.")]
        assert len(kept) == 1 and stored[kept[0]] == raw
        # The rest of the settings stay (the letters are on), the list starts empty.
        assert json.loads(stored["gridforge.settings"]) == {
            "colourLetters": True, "developer": False, "lessonsDismissed": [], "sound": True,
            "volume": 70, "vibration": True, "theme": "system", "motion": "system",
            "language": "system"}
        expect(page.get_by_test_id("snakes-board").locator("text.letter")).not_to_have_count(0)
        expect(page.get_by_test_id("error")).to_contain_text(kept[0], timeout=READY_TIMEOUT_MS)
        assert page.page_errors == []
