"""Snakes mechanics drawn as part of the board (issue 21): on the lessons of frozen bodies
(level 18), frozen holes (24), silver locks (30) and gold locks (36), every marker lies inside
the board, is at least 12 px tall, and its count changes on the very step that thaws or
unlocks, as Python's view says (the level's certified solution played by mouse); a key and its
lock share `data-pair`, a colour and a shape, and the key flies to its lock unless motion is
reduced. A draft at the smallest cells the page draws (18 x 24 at 390 px) checks a marker in
every corner, with colour letters on.
"""

from __future__ import annotations

from typing import Any

import pytest
from gridforge.snakes import page as snakes_page
from gridforge.snakes.game.mainline import mainline_level
from playwright.sync_api import Browser, Page, expect

from tests.page_copy import PageCopy

from .conftest import READY_TIMEOUT_MS, wait_idle
from .snakes_helpers import (
    DIRS,
    Touch,
    board,
    cell_centre,
    device_page,
    end_cell,
    goto_ready,
    set_progress,
    wait_level,
)

MIN_PX = 12
SLACK = 0.5  # px of rounding at the board's edge

# The lesson of each mechanic and the marker it teaches.
LESSONS = {18: "frozen-body", 24: "frozen-hole", 30: "lock", 36: "lock"}

READ = """() => {
  const b = document.querySelector('[data-testid="snakes-board"]').getBoundingClientRect();
  const markers = [...document.querySelectorAll('[data-testid="snakes-marker"]')].map((m) => {
    const r = m.getBoundingClientRect();
    const shape = m.querySelector('.marker-pair-shape');
    return { kind: m.dataset.kind, count: m.dataset.count ?? null, pair: m.dataset.pair ?? null,
             state: m.dataset.state, body: m.dataset.body ?? null, hole: m.dataset.hole ?? null,
             flight: m.dataset.flight ?? null,
             shape: shape ? shape.dataset.shape : null,
             fill: shape ? shape.getAttribute('fill') : null,
             emoji: /[\\u2600-\\u27ff\\u{1F300}-\\u{1FAFF}]/u.test(m.textContent),
             box: { x: r.x, y: r.y, w: r.width, h: r.height } };
  });
  return { board: { x: b.x, y: b.y, w: b.width, h: b.height }, markers,
           flights: window.__flights ?? 0,
           bodyIce: document.querySelectorAll('.marker-ice').length,
           holeIce: document.querySelectorAll('.marker-hole-ice').length };
}"""


# Whether the used key of a pair is drawn on its lock's row.
DOCKED = """(pair) => {
  const of = (kind) => [...document.querySelectorAll(
    `[data-testid="snakes-marker"][data-kind="${kind}"][data-pair="${pair}"]`)];
  const lock = of("lock")[0], key = of("key").find((m) => m.dataset.state === "used");
  return !!lock && !!key
    && Math.abs(key.getBoundingClientRect().y - lock.getBoundingClientRect().y) < 1;
}"""


# Counts every key flight the board starts (an animateTransform added to a key marker).
WATCH_FLIGHTS = """() => {
  window.__flights = 0;
  const target = document.querySelector('[data-testid="snakes-board"]');
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (!n.querySelectorAll) continue;
      window.__flights += n.querySelectorAll('animateTransform.key-flight').length;
    }
  }).observe(target, { childList: true, subtree: true });
}"""


def read(page: Page) -> dict[str, Any]:
    """The markers as drawn at rest (a thaw's or an unlock's pop draws its marker larger for a
    moment: wait until every pop is over)."""
    expect(board(page).locator('[data-changed="1"]')).to_have_count(0)
    return page.evaluate(READ)


def check_drawn(snap: dict[str, Any], where: str) -> None:
    """Every marker inside the board's box, at least 12 px tall, no emoji."""
    b = snap["board"]
    for m in snap["markers"]:
        box = m["box"]
        assert box["h"] >= MIN_PX, f"{where}: {m['kind']} is {box['h']:.1f} px tall"
        assert box["x"] >= b["x"] - SLACK and box["y"] >= b["y"] - SLACK, f"{where}: {m}"
        assert box["x"] + box["w"] <= b["x"] + b["w"] + SLACK, f"{where}: {m}"
        assert box["y"] + box["h"] <= b["y"] + b["h"] + SLACK, f"{where}: {m}"
        assert not m["emoji"], f"{where}: {m['kind']} is drawn with an emoji"


def expected(marker: dict[str, Any]) -> tuple[str, str | None, str | None]:
    """A marker of Python's view as the page names it: (kind, count, state)."""
    kind = marker["kind"]
    count = None if "count" not in marker else str(marker["count"])
    if kind == "key":
        return kind, None, "used" if marker["used"] else "held"
    if kind == "lock":
        return kind, count, "locked" if marker["count"] else "open"
    return kind, count, "frozen" if marker["count"] else "thawed"


def drawn(snap: dict[str, Any]) -> list[tuple[str, str | None, str | None]]:
    return sorted((m["kind"], m["count"], m["state"]) for m in snap["markers"])


def open_level(page: Page, n: int) -> None:
    goto_ready(page)
    set_progress(page, {"format": "gridforge.progress/1", "snakes": {"done": {}, "open": n},
                        "mines": {"run": None}})
    page.goto(f"/#snakes/level/{n}")
    page.reload()
    wait_level(page, n)


def mouse_step(page: Page, step: list[Any], count: int) -> None:
    """One step of the solution as a one-cell mouse drag; waits for Python's answer drawn."""
    body, end, direction = step
    x, y = end_cell(page, body, end)
    dx, dy = DIRS[direction]
    page.mouse.move(*cell_centre(page, x, y))
    page.mouse.down()
    page.mouse.move(*cell_centre(page, x + dx, y + dy), steps=2)
    page.mouse.up()
    expect(board(page)).to_have_attribute("data-steps", str(count), timeout=READY_TIMEOUT_MS)


def play_and_watch(page: Page, level: dict[str, Any], solution: list[list[Any]],
                   upto: int | None = None) -> list[dict[str, Any]]:
    """Play ``solution`` (its first ``upto`` steps) and compare the markers drawn after each
    step with Python's view; returns the page's snapshots, the start's first."""
    shown = PageCopy()
    answer = shown(snakes_page.open(level))
    page.evaluate(WATCH_FLIGHTS)
    snaps = [read(page)]
    assert drawn(snaps[0]) == sorted(expected(m) for m in answer["view"]["markers"])
    check_drawn(snaps[0], "start")
    for i, step in enumerate(solution[:upto], start=1):
        answer = shown(snakes_page.act(answer["id"], {"do": "step", "step": step}))
        mouse_step(page, step, i)
        snap = read(page)
        assert drawn(snap) == sorted(expected(m) for m in answer["view"]["markers"]), f"step {i}"
        check_drawn(snap, f"step {i}")
        snaps.append(snap)
    return snaps


def changes(counts: list[str | None]) -> list[int]:
    """The steps after which a count differs from the one before (a marker gone: None)."""
    return [i for i in range(1, len(counts)) if counts[i] != counts[i - 1]]


def drawn_counts(snaps: list[dict[str, Any]], kind: str) -> list[str | None]:
    """The count of the (single) ``kind`` marker the page drew at the start and after each step."""
    out = []
    for snap in snaps:
        ms = [m for m in snap["markers"] if m["kind"] == kind]
        out.append(ms[0]["count"] if ms else None)
    return out


def python_counts(level: dict[str, Any], solution: list[list[Any]], kind: str) -> list[str | None]:
    """The same counts from Python's view."""
    shown = PageCopy()
    answer = shown(snakes_page.open(level))
    out = []
    for step in [None, *solution]:
        if step is not None:
            answer = shown(snakes_page.act(answer["id"], {"do": "step", "step": step}))
        ms = [m for m in answer["view"]["markers"] if m["kind"] == kind]
        out.append(str(ms[0]["count"]) if ms else None)
    return out


def thaw_step(level: dict[str, Any], solution: list[list[Any]], kind: str) -> int:
    """The step at which Python's view first drops the ``kind`` count to 0."""
    return python_counts(level, solution, kind).index("0")


@pytest.mark.parametrize("n", sorted(LESSONS))
def test_a_lesson_s_marker_counts_down_on_the_step_that_thaws_or_unlocks(
    browser: Browser, base_url: str, n: int
):
    kind = LESSONS[n]
    entry = mainline_level(n)
    level, solution = entry["level"], entry["certificate"]["solution"]
    with device_page(browser, base_url, "desktop") as page:
        open_level(page, n)
        snaps = play_and_watch(page, level, solution)
        start = [m for m in snaps[0]["markers"] if m["kind"] == kind]
        assert len(start) == 1 and int(start[0]["count"]) >= 1
        # The count changes on exactly the steps where Python's changes, 0 on the thawing one.
        want = python_counts(level, solution, kind)
        assert changes(drawn_counts(snaps, kind)) == changes(want)
        at = thaw_step(level, solution, kind)
        assert at in changes(want)
        after = [m for m in snaps[at]["markers"] if m["kind"] == kind]
        assert after and after[0]["count"] == "0"
        assert after[0]["state"] == ("open" if kind == "lock" else "thawed")
        # The look changes with the count: the ice is gone the moment the count reaches 0.
        if kind == "frozen-body":
            assert snaps[at - 1]["bodyIce"] == 1 and snaps[at]["bodyIce"] == 0
        if kind == "frozen-hole":
            assert snaps[at - 1]["holeIce"] == 1 and snaps[at]["holeIce"] == 0
        expect(page.get_by_test_id("snakes-win")).to_be_visible()
        assert page.page_errors == []


def test_a_key_and_its_lock_share_pair_colour_and_shape_and_the_key_flies_unless_motion_is_reduced(
    browser: Browser, base_url: str
):
    entry = mainline_level(30)
    level, solution = entry["level"], entry["certificate"]["solution"]
    at = thaw_step(level, solution, "lock")
    with device_page(browser, base_url, "desktop") as page:
        open_level(page, 30)
        snaps = play_and_watch(page, level, solution, upto=at)
        lock = next(m for m in snaps[0]["markers"] if m["kind"] == "lock")
        key = next(m for m in snaps[0]["markers"] if m["kind"] == "key")
        assert lock["pair"] and key["pair"] == lock["pair"]
        assert (key["shape"], key["fill"]) == (lock["shape"], lock["fill"])
        assert key["state"] == "held" and key["flight"] is None
        assert snaps[at - 1]["flights"] == 0 and snaps[at]["flights"] >= 1
        used = next(m for m in snaps[at]["markers"] if m["kind"] == "key")
        assert used["state"] == "used" and used["flight"] in ("flying", "landed")
        assert used["pair"] == lock["pair"]
        # Docked by its lock once the flight is over: on the lock's row, beside it (waited
        # for as a page state: a loaded machine may read the board mid-flight).
        page.wait_for_function(DOCKED, arg=used["pair"], timeout=READY_TIMEOUT_MS)
        # Again with reduced motion: the same state, drawn without the flight.
        page.get_by_test_id("snakes-restart").click()
        expect(board(page)).to_have_attribute("data-steps", "0")
        page.emulate_media(reduced_motion="reduce")
        expect(page.locator("html")).to_have_attribute("data-motion", "reduce")  # heard
        snaps = play_and_watch(page, level, solution, upto=at)
        used = next(m for m in snaps[at]["markers"] if m["kind"] == "key")
        assert used["state"] == "used" and used["flight"] is None
        assert snaps[at]["flights"] == 0
        assert page.page_errors == []


# The smallest cells the page draws: the designer's largest board (18 x 24) on a 390 px
# phone, with a marker of every kind in a corner or on an edge, and a gold lock.
CORNERS = {
    "format": "gridforge.snakes.level/1", "cols": 18, "rows": 24,
    "stones": [[x, 11] for x in range(1, 18)] + [[x, 12] for x in range(1, 16)],
    "bodies": [
        {"cells": [[0, 0], [1, 0]], "colors": [0], "key": "G"},
        {"cells": [[0, 13], [1, 13]], "colors": [0], "key": "G"},
        {"cells": [[17, 23], [16, 23]], "colors": [1], "lock": {"id": "G", "kind": "gold"}},
        {"cells": [[17, 2], [17, 1], [17, 0]], "colors": [2], "frozen": 2},
    ],
    "holes": [{"cell": [2, 0], "color": 0}, {"cell": [2, 13], "color": 0},
              {"cell": [0, 23], "color": 1, "frozen": 1}, {"cell": [9, 9], "color": 2}],
    "meta": {"id": "corners"},
}


def test_markers_in_the_corners_of_the_smallest_cells_stay_inside_legible_and_lettered(
    browser: Browser, base_url: str
):
    with device_page(browser, base_url, "phone") as page:
        goto_ready(page, "#snakes")
        # Mount the play view once the chapter map has drawn (its late drawing would replace it).
        expect(page.locator('[data-testid="map-chapter"]').first).to_be_visible()
        wait_idle(page)
        page.evaluate("""async (level) => {
            const { mountPlay } = await import('./screens/snakes-play.js');
            const main = document.getElementById('screen');
            main.replaceChildren();
            mountPlay(main, window.gridforge.app, { level, levelNumber: null });
        }""", CORNERS)
        expect(page.locator('[data-testid="snakes-play"][data-ready="1"]')).to_have_count(
            1, timeout=READY_TIMEOUT_MS)
        # As the box of #settings does:
        page.evaluate("() => { window.gridforge.app.settings.colourLetters = true; }")
        # One letter on each body and each open hole, beside the markers.
        expect(board(page).locator("text.letter")).to_have_count(8)
        snap = read(page)
        cell = snap["board"]["w"] / 18
        assert cell < 30, f"cells of {cell:.1f} px: not the smallest the page draws"
        check_drawn(snap, "start")
        assert drawn(snap) == sorted([
            ("frozen-body", "2", "frozen"), ("frozen-hole", "1", "frozen"),
            ("lock", "2", "locked"), ("key", None, "held"), ("key", None, "held")])
        keys = [m for m in snap["markers"] if m["kind"] == "key"]
        lock = next(m for m in snap["markers"] if m["kind"] == "lock")
        assert {m["pair"] for m in keys} == {lock["pair"]} == {"G"}
        # Each key carrier exits by touch: the gold lock counts down, the freezes thaw.
        touch = Touch(page)
        counts = []
        for count, body in enumerate((0, 1), start=1):
            x, y = end_cell(page, body, "tail")
            touch.drag([cell_centre(page, x, y), cell_centre(page, x + 1, y)])
            expect(board(page)).to_have_attribute("data-steps", str(count),
                                                  timeout=READY_TIMEOUT_MS)
            snap = read(page)
            check_drawn(snap, f"after exit {count}")
            counts.append(drawn(snap))
        assert counts[0] == sorted([
            ("frozen-body", "1", "frozen"), ("frozen-hole", "0", "thawed"),
            ("lock", "1", "locked"), ("key", None, "held"), ("key", None, "used")])
        assert counts[1] == sorted([
            ("frozen-body", "0", "thawed"), ("frozen-hole", "0", "thawed"),
            ("lock", "0", "open"), ("key", None, "used"), ("key", None, "used")])
        assert snap["bodyIce"] == 0 and snap["holeIce"] == 0
        expect(board(page).locator("text.letter")).to_have_count(4)
        assert page.page_errors == []
