"""The editor's board inside the window (issue 44): on the main line's tallest and widest
levels at 1280x800 and 390x844 all of it shows on opening, a click on its last row lands on
the board, and heads have eyes there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from .conftest import open_page, wait_idle
from .snakes_helpers import DEVICES

DATA = Path(__file__).resolve().parent.parent / "pkg" / "gridforge" / "snakes" / "data"


def tallest_and_widest() -> list[int]:
    """The shipped main line's tallest level (the most rows, then columns) and its widest
    (the most columns, then rows), the first of each (one level when it is both), read from
    the blocks: whichever line ships, its largest boards."""
    sizes = []  # (cols, rows, -number)
    for path in sorted(DATA.glob("main-*.json")):
        first = int(path.stem.split("-")[1])
        for k, level in enumerate(json.loads(path.read_text())["levels"]):
            sizes.append((level["cols"], level["rows"], -(first + k)))
    tallest = max(sizes, key=lambda s: (s[1], s[0], s[2]))
    widest = max(sizes)
    return sorted({-tallest[2], -widest[2]})


@pytest.mark.parametrize("device", ["desktop", "phone"])
@pytest.mark.parametrize("level", tallest_and_widest())
def test_the_whole_editor_board_is_in_the_window(
    browser: Browser, base_url: str, device: str, level: int
):
    with open_page(browser, base_url, **DEVICES[device]) as page:
        fragment = f"#editor/level/{level}"
        page.goto(f"/{fragment}")
        page.evaluate("() => window.gridforge.ready")
        page.wait_for_selector(f'section.editor[data-route={json.dumps(fragment)}][data-ready="true"]')
        wait_idle(page)
        box = page.get_by_test_id("editor-board").bounding_box()
        size = page.viewport_size
        assert box and size
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (box, size)
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (box, size)
        rows = int(page.get_by_test_id("editor-board").get_attribute("data-rows") or 0)
        cols = int(page.get_by_test_id("editor-board").get_attribute("data-cols") or 0)
        # A click on the last row's last cell lands there: the cursor moves to it (on a
        # phone the tools lie under the board: back to the top after picking one).
        page.get_by_test_id("editor-tool-select").click()
        page.evaluate("() => window.scrollTo(0, 0)")
        box = page.get_by_test_id("editor-board").bounding_box()
        assert box
        page.mouse.click(box["x"] + box["width"] * (cols - 0.5) / cols,
                         box["y"] + box["height"] * (rows - 0.5) / rows)
        expect(page.get_by_test_id("editor-board")).to_have_attribute(
            "data-focus", f"{cols - 1},{rows - 1}")
        assert page.get_by_test_id("editor-eye").count() >= 2
        assert page.page_errors == []
