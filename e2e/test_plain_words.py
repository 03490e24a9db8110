"""Players and designers read words, not a developer's (issue 21, "What must hold"): at
1280x800, no visible text of any screen (home, the snakes map, play with its lesson, a hint
and a win, mines with a settlement and its panels, the editor after drawing, Verify,
Design, a property edit, imports good and bad, try-play, and the rules) contains an
underscore-joined identifier, "teaches", "certificate" or a raw [x, y]. The console is a
developer's tool behind a setting and is left out."""

from __future__ import annotations

import json
import re
from pathlib import Path

from gridforge.snakes import page as contract
from gridforge.snakes.solver.selfcheck import SPEC_EXAMPLE
from playwright.sync_api import Browser, Page, expect

from .conftest import READY_TIMEOUT_MS, open_page, wait_idle
from .snakes_helpers import goto_ready, mainline, play_by_keys, set_progress, wait_level
from .test_editor import draw_small_level, open_editor, pick, tap, verify
from .test_mines import settle

DESK = {"width": 1280, "height": 800}
PATTERNS = {
    "identifier": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "teaches": re.compile(r"teaches", re.IGNORECASE),
    "certificate": re.compile(r"certificate", re.IGNORECASE),
    "[x, y]": re.compile(r"\[\s*\d+\s*,\s*\d+\s*\]"),
}


class Reader:
    """Reads the page's visible text at each stop and keeps every developer's word found,
    with the line it stands in and where it was seen."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.found: list[tuple[str, str, str]] = []
        self.stops: list[str] = []

    def read(self, where: str) -> None:
        wait_idle(self.page)
        text = self.page.evaluate("() => document.body.innerText")
        self.stops.append(where)
        for line in text.splitlines():
            for name, pattern in PATTERNS.items():
                if pattern.search(line):
                    self.found.append((where, name, line.strip()[:200]))

    def check(self) -> None:
        assert self.found == [], "\n".join(f"{w}: {n}: {line}" for w, n, line in self.found)


def progress(open_level: int) -> dict:
    return {"format": "gridforge.progress/1", "snakes": {"done": {"1": 7}, "open": open_level},
            "mines": {"run": None}}


def play_to_win(page: Page, n: int) -> None:
    """Play main-line level ``n``'s certified solution with the keyboard."""
    steps = mainline()["certificates"][n - 1]["solution"]
    play_by_keys(page, steps)
    expect(page.get_by_test_id("snakes-win")).to_be_visible()


def test_no_screen_shows_a_developers_words(browser: Browser, base_url: str, tmp_path: Path):
    with open_page(browser, base_url, viewport=DESK) as page:
        reader = Reader(page)
        goto_ready(page)
        set_progress(page, progress(30))
        page.reload()
        page.evaluate("() => window.gridforge.ready")
        expect(page.get_by_test_id("home")).to_be_visible()
        reader.read("home")

        # Snakes: the map, a lesson level with a hint and a refused move, a mechanic's lesson
        # of each kind, and a win.
        page.goto("/#snakes")
        expect(page.get_by_test_id("level-tile").first).to_be_visible(timeout=READY_TIMEOUT_MS)
        reader.read("snakes map")
        for n in (12, 18, 24, 30):
            page.goto(f"/#snakes/level/{n}")
            wait_level(page, n)
            reader.read(f"snakes level {n}")
        page.goto("/#snakes/level/1")
        wait_level(page, 1)
        reader.read("snakes level 1")
        page.get_by_test_id("snakes-hint").click()
        reader.read("snakes level 1 after a hint")
        play_to_win(page, 1)
        reader.read("snakes level 1 won")

        # How to play.
        page.goto("/#rules")
        expect(page.locator('[data-testid="rules"][data-ready="1"]')).to_have_count(
            1, timeout=READY_TIMEOUT_MS)
        reader.read("rules")

        # Mines: a fresh run, digs, a hint, a Stop and its settlement, the panels opened.
        page.goto("/#mines")
        settle(page)
        reader.read("mines, a new run")
        for _ in range(3):
            offered = page.locator(
                '[data-testid="mines-cell"]:is([data-do="dig"], [data-do="reach"])')
            if offered.count() == 0:
                break
            offered.first.click()
            settle(page)
        reader.read("mines after digs")
        page.get_by_test_id("mines-hint").click()
        settle(page)
        reader.read("mines after a hint")
        for testid in ("mines-stats", "mines-telemetry"):
            page.get_by_test_id(testid).locator("summary").first.click()
        for button in page.get_by_test_id("mines-term-button").all():
            if button.is_visible():
                button.click()
        reader.read("mines with its panels open")
        if page.get_by_test_id("mines-stop").is_enabled():
            page.get_by_test_id("mines-stop").click()
            reader.read("mines asking before a Stop")
            page.get_by_test_id("mines-stop-confirm").click()  # Stop asks first (issue 45)
            settle(page)
            reader.read("mines after a Stop")

        # The editor: drawn, verified, a body's properties, a refused edit, try-play, a
        # design, imports (a level with its proof, a batch, a refused file) and a copy of
        # a main-line level with mechanics, verified.
        open_editor(page)
        reader.read("editor, empty")
        draw_small_level(page)
        verify(page)
        reader.read("editor after Verify")
        page.get_by_test_id("editor-replay-step").fill("2")
        expect(page.get_by_test_id("editor-replay-label")).to_contain_text("step 2")
        reader.read("editor replaying the solution")
        pick(page, "select")
        tap(page, (0, 0))
        page.get_by_test_id("editor-prop-colors").fill("1, 99")
        page.get_by_test_id("editor-prop-apply").click()
        expect(page.get_by_test_id("editor-message")).to_contain_text("Refused")
        reader.read("editor after a refused property edit")
        page.get_by_test_id("editor-try").click()
        expect(page.get_by_test_id("editor-try-view")).to_be_visible()
        reader.read("editor try-play")
        page.get_by_test_id("editor-try-back").click()

        page.get_by_test_id("editor-design").locator(":scope > summary").click()
        page.get_by_test_id("editor-design-target").fill("30")
        page.get_by_test_id("editor-design-go").click()
        expect(page.get_by_test_id("editor-design-progress")).to_have_attribute(
            "data-state", "done", timeout=120_000)
        reader.read("editor after Design")

        level = SPEC_EXAMPLE
        exported = tmp_path / "level.json"
        exported.write_text(json.dumps({"level": level, "certificate": contract.verify(level)}))
        page.get_by_test_id("editor-import-file").set_input_files(str(exported))
        expect(page.get_by_test_id("editor-message")).to_contain_text("Imported 1 level")
        reader.read("editor after importing a level with its proof")
        batch = tmp_path / "batch.json"
        stale = contract.verify(level)
        stale["steps"] = (stale["steps"] or 0) + 1  # a proof that no longer holds: a note
        batch.write_text(json.dumps({"format": "gridforge.snakes.batch/1",
                                     "levels": [level, level], "certificates": [stale, None]}))
        page.get_by_test_id("editor-import-file").set_input_files(str(batch))
        expect(page.get_by_test_id("editor-message")).to_contain_text("Imported")
        reader.read("editor after importing a batch")
        bad = dict(level, frozen_holes=3, bodies=[dict(level["bodies"][0], cells=[[0, 0], [5, 5]])])
        page.get_by_test_id("editor-import-text").fill(json.dumps(bad))
        page.get_by_test_id("editor-import-paste").click()
        expect(page.get_by_test_id("editor-import-issue").first).to_be_visible()
        reader.read("editor after a refused import")

        stuck = dict(level, bodies=[dict(level["bodies"][0], frozen=99), *level["bodies"][1:]])
        page.get_by_test_id("editor-import-text").fill(json.dumps(stuck))
        page.get_by_test_id("editor-import-paste").click()
        expect(page.get_by_test_id("editor-message")).to_contain_text("Imported 1 level")
        verify(page)
        expect(page.get_by_test_id("editor-status")).to_have_attribute("data-status", "unsolvable")
        expect(page.get_by_test_id("editor-message")).to_contain_text("body 1 stays frozen")
        reader.read("editor after verifying a level that cannot be solved")

        open_editor(page, "#editor/level/30")
        verify(page)
        reader.read("editor on a copy of level 30, verified")
        open_editor(page, "#editor/level/24")
        reader.read("editor on a copy of level 24")

        # Home and the map again, with a level won and a mines run under way.
        page.goto("/#home")
        expect(page.get_by_test_id("home")).to_be_visible()
        reader.read("home after play")
        page.goto("/#snakes")
        expect(page.get_by_test_id("level-tile").first).to_be_visible()
        reader.read("snakes map after play")

        reader.check()
        assert len(reader.stops) >= 20
        assert page.page_errors == []  # type: ignore[attr-defined]
