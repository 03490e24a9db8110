"""Helpers for the snakes e2e tests: contexts per device, main-line data, drags by mouse
and by real touch events (Chrome DevTools Protocol ``Input.dispatchTouchEvent``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .conftest import READY_TIMEOUT_MS, open_page, wait_idle

ROOT = Path(__file__).resolve().parent.parent
BLOCK = ROOT / "pkg" / "gridforge" / "snakes" / "data" / "main-0001-0025.json"
DEVICES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
SITE_LEVELS = ROOT / "build" / "site" / "levels"  # the main line as the page serves it
DIRS = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}


def mainline() -> dict[str, Any]:
    """The shipped first block: ``levels`` and ``certificates`` of levels 1-25."""
    return json.loads(BLOCK.read_text())


def site_level(n: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Main-line level ``n`` as the built site serves it: its level and certificate (only
    its own block is read)."""
    index = json.loads((SITE_LEVELS / "index.json").read_text())
    entry = next(b for b in index["blocks"] if b["first"] <= n <= b["last"])
    block = json.loads((SITE_LEVELS / entry["file"]).read_text())
    return block["levels"][n - entry["first"]], block["certificates"][n - entry["first"]]


def site_levels() -> Iterator[tuple[int, dict[str, Any], dict[str, Any]]]:
    """Every main-line level the built site serves: its number, level and certificate."""
    index = json.loads((SITE_LEVELS / "index.json").read_text())
    for entry in index["blocks"]:
        block = json.loads((SITE_LEVELS / entry["file"]).read_text())
        for k, (level, certificate) in enumerate(
                zip(block["levels"], block["certificates"], strict=True)):
            yield entry["first"] + k, level, certificate


@contextmanager
def device_page(browser: Browser, base_url: str, device: str) -> Iterator[Page]:
    """A page in a fresh context sized as ``device`` (its own empty localStorage)."""
    with open_page(browser, base_url, **DEVICES[device]) as page:
        yield page


def goto_ready(page: Page, fragment: str = "") -> None:
    """Open the site at ``fragment`` and wait until Python is loaded."""
    page.goto(f"/{fragment}")
    page.evaluate("() => window.gridforge.ready")
    wait_idle(page)


def set_progress(page: Page, progress: dict[str, Any] | str) -> None:
    """Store ``progress`` (a dict, or raw text) as gridforge.progress; takes effect on reload."""
    text = progress if isinstance(progress, str) else json.dumps(progress)
    page.evaluate("(t) => localStorage.setItem('gridforge.progress', t)", text)


def board(page: Page):
    return page.get_by_test_id("snakes-board")


ARROWS = {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight"}


def focus_end(page: Page, body: object, end: object) -> None:
    """Cycle the keyboard focus (N) to ``body``'s ``end``. The focus is drawn in the play
    queue, behind a step's call still in flight: each N is read once the page is idle."""
    for _ in range(40):
        wait_idle(page)
        if board(page).get_attribute("data-focus") == f"{body}:{end}":
            return
        page.keyboard.press("n")
    assert board(page).get_attribute("data-focus") == f"{body}:{end}"


def play_by_keys(page: Page, steps: list[list[Any]]) -> None:
    """Play ``steps`` with the keyboard on the focused board (N picks the end, an arrow
    moves it), each step drawn before the next."""
    # The locator waits for the board: a level reopened (another tab's save) redraws it.
    page.get_by_test_id("snakes-board").focus()
    start = int(board(page).get_attribute("data-steps") or 0)
    for count, (body, end, direction) in enumerate(steps, start=start + 1):
        focus_end(page, body, end)
        page.keyboard.press(ARROWS[str(direction)])
        expect(board(page)).to_have_attribute("data-steps", str(count))


def wait_level(page: Page, n: int) -> None:
    """Wait until level ``n`` is drawn and ready for input."""
    expect(board(page)).to_have_attribute("data-level", str(n), timeout=READY_TIMEOUT_MS)
    expect(page.locator('[data-testid="snakes-play"][data-ready="1"]')).to_have_count(1)
    wait_idle(page)


def cell_centre(page: Page, x: int, y: int) -> tuple[float, float]:
    """The page coordinates of cell (x, y)'s centre, from the board's box and size."""
    box = board(page).bounding_box()
    assert box is not None
    cols = int(board(page).get_attribute("data-cols") or 0)
    rows = int(board(page).get_attribute("data-rows") or 0)
    return box["x"] + (x + 0.5) * box["width"] / cols, box["y"] + (y + 0.5) * box["height"] / rows


def end_cell(page: Page, body: int, end: str) -> tuple[int, int]:
    node = page.locator(f'[data-testid="snakes-end"][data-body="{body}"][data-end="{end}"]')
    x, y = (int(v) for v in (node.get_attribute("data-cell") or "").split(","))
    return x, y


def groups(solution: list[list[Any]]) -> list[tuple[int, str, list[str]]]:
    """The solution as drags: runs of steps by the same end."""
    out: list[tuple[int, str, list[str]]] = []
    for body, end, direction in solution:
        if out and out[-1][0] == body and out[-1][1] == end:
            out[-1][2].append(direction)
        else:
            out.append((body, end, [direction]))
    return out


class Touch:
    """One finger through CDP: real touch events, as a phone sends them."""

    def __init__(self, page: Page) -> None:
        self.cdp = page.context.new_cdp_session(page)

    def send(self, kind: str, points: list[tuple[float, float]]) -> None:
        self.cdp.send("Input.dispatchTouchEvent", {
            "type": kind,
            "touchPoints": [{"x": x, "y": y, "id": 1, "radiusX": 4, "radiusY": 4, "force": 1}
                            for x, y in points],
        })

    def drag(self, path: list[tuple[float, float]]) -> None:
        self.send("touchStart", [path[0]])
        previous = path[0]
        for point in path[1:]:
            # Two moves per cell, as a finger reports several points on its way.
            middle = ((previous[0] + point[0]) / 2, (previous[1] + point[1]) / 2)
            self.send("touchMove", [middle])
            self.send("touchMove", [point])
            previous = point
        self.send("touchEnd", [])


def drag_path(page: Page, device: str, path: list[tuple[float, float]]) -> None:
    """Drag along ``path`` (page coordinates) with the device's pointer."""
    if device == "phone":
        Touch(page).drag(path)
        return
    page.mouse.move(*path[0])
    page.mouse.down()
    for point in path[1:]:
        page.mouse.move(*point, steps=2)
    page.mouse.up()


def play_solution_by_dragging(
    page: Page, device: str, solution: list[list[Any]], *, paced: bool = False,
    already: int = 0,
) -> None:
    """Play ``solution`` by dragging each run of steps of one end along its cells. ``paced``
    (mouse only) waits for each step's answer before the pointer enters the next cell, as
    a person's slower hand would; otherwise the pointer runs ahead and steps queue up.
    ``already``: the steps on the board's counter before the first of ``solution``."""
    done = already
    for body, end, run in groups(solution):
        for directions in _drags(page, body, end, run):
            x, y = end_cell(page, body, end)
            cells = [(x, y)]
            for direction in directions:
                dx, dy = DIRS[direction]
                x, y = x + dx, y + dy
                cells.append((x, y))
            points = [cell_centre(page, *c) for c in cells]
            if paced and device != "phone":
                page.mouse.move(*points[0])
                page.mouse.down()
                for count, point in enumerate(points[1:], start=done + 1):
                    page.mouse.move(*point)
                    expect(board(page)).to_have_attribute("data-steps", str(count))
                page.mouse.up()
            else:
                drag_path(page, device, points)
            done += len(directions)
            expect(board(page)).to_have_attribute("data-steps", str(done))


def _drags(page: Page, body: int, end: str, directions: list[str]) -> list[list[str]]:
    """A run of steps of one end as drags: an exit into a hole ends a drag (a coated body
    stays where it is and sheds a layer; the next layer needs a new grab)."""
    holes = set(page.get_by_test_id("snakes-hole").evaluate_all(
        "(holes) => holes.map(h => h.dataset.cell)"))
    x, y = end_cell(page, body, end)
    out: list[list[str]] = [[]]
    for direction in directions:
        dx, dy = DIRS[direction]
        out[-1].append(direction)
        if f"{x + dx},{y + dy}" in holes:
            holes.discard(f"{x + dx},{y + dy}")
            out.append([])
        else:
            x, y = x + dx, y + dy
    return [d for d in out if d]


def drag_into_a_stone(page: Page, level: dict[str, Any]) -> tuple[int, int]:
    """Drag a body end of ``level`` (the one on the page) into a stone beside it with the
    mouse: a step the rules refuse. Answers the stone's cell."""
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
                    return x + dx, y + dy
    raise AssertionError("the level has no body end beside a stone: the test needs another level")
