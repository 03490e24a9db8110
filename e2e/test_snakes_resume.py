"""A level in play lives in the worker (issue 19, the play midend); the page keeps only
Python's save. A reload mid-level, and a cancel on a host without cross-origin isolation
(the worker is replaced and everything it held is gone), resume the level exactly: the same
board, the same step count, the same redo, and play goes on to the win.

One plain site (no COOP/COEP, as `build.py serve --plain`) and the session's browser serve
the module; every wait is on a page state.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from gridforge.snakes import page as snakes_page
from playwright.sync_api import Browser, Page, expect

from .conftest import open_page, served_site, wait_idle
from .snakes_helpers import (
    DEVICES,
    board,
    mainline,
    play_solution_by_dragging,
    set_progress,
    wait_level,
)

LEVEL = 24  # 14 steps, a frozen hole whose marker counts down
CERTIFICATE = mainline()["certificates"][LEVEL - 1]
SOLUTION: list[list[Any]] = CERTIFICATE["solution"]
LEVEL_JSON = mainline()["levels"][LEVEL - 1]

SNAPSHOT = """(b) => ({
  steps: b.dataset.steps, state: b.dataset.state,
  bodies: [...b.querySelectorAll('[data-testid="snakes-body"]')]
    .map(e => [e.dataset.body, e.getAttribute('points'), e.getAttribute('stroke')]),
  ends: [...b.querySelectorAll('[data-testid="snakes-end"]')]
    .map(e => [Number(e.dataset.body), e.dataset.end, e.dataset.cell]),
  holes: [...b.querySelectorAll('[data-testid="snakes-hole"]')].map(e => e.dataset.cell),
  markers: [...b.querySelectorAll('[data-testid="snakes-marker"]')]
    .map(e => [e.dataset.kind, e.dataset.count ?? null, e.dataset.state]),
})"""


@pytest.fixture(scope="module")
def plain_url() -> Iterator[str]:
    with served_site(isolation=False) as url:
        yield url


@pytest.fixture
def level_page(browser: Browser, plain_url: str) -> Iterator[Page]:
    """Level 24 open on the plain host at 1280x800, unlocked by a stored progress."""
    with open_page(browser, plain_url, service_workers="block", **DEVICES["desktop"]) as page:
        page.goto("/")
        versions = page.evaluate("() => window.gridforge.ready")
        assert versions["crossOriginIsolated"] is False
        set_progress(page, {"format": "gridforge.progress/1", "mines": {"run": None},
                            "snakes": {"done": {}, "open": LEVEL}})
        page.goto(f"/#snakes/level/{LEVEL}")
        page.reload()
        wait_level(page, LEVEL)
        yield page


def snapshot(page: Page) -> dict[str, Any]:
    return board(page).evaluate(SNAPSHOT)


def ends_by_rules(steps: list[list[Any]]) -> list[list[Any]]:
    """The ends the rules put where ``steps`` lead (Python on this side, a replay)."""
    view = snakes_page.position(LEVEL_JSON, steps)["view"]
    out = []
    for b, body in enumerate(view["bodies"]):
        cells = body["cells"]
        for end, cell in (("head", cells[:1]), ("tail", cells[-1:] if len(cells) > 1 else [])):
            out += [[b, end, f"{c[0]},{c[1]}"] for c in cell]
    return out


def current(page: Page) -> dict[str, Any]:
    stored = json.loads(page.evaluate("() => localStorage.getItem('gridforge.progress')"))
    return stored["snakes"]["current"]


def steps_are(page: Page, n: int) -> None:
    expect(board(page)).to_have_attribute("data-steps", str(n))


def finish(page: Page, played: int) -> None:
    play_solution_by_dragging(page, "desktop", SOLUTION[played:], already=played)
    expect(page.get_by_test_id("snakes-win")).to_be_visible()
    expect(page.get_by_test_id("snakes-win-steps")).to_contain_text(
        f"Solved in {len(SOLUTION)} steps")


def test_a_reload_mid_level_resumes_the_board_the_steps_and_the_redo_exactly(level_page: Page):
    page = level_page
    play_solution_by_dragging(page, "desktop", SOLUTION[:8])
    page.get_by_test_id("snakes-undo").click()
    steps_are(page, 7)
    page.get_by_test_id("snakes-undo").click()
    steps_are(page, 6)
    before = snapshot(page)
    assert sorted(before["ends"]) == sorted(ends_by_rules(SOLUTION[:6]))
    assert current(page) == {"level": LEVEL, "sha": CERTIFICATE["level_sha256"],
                             "steps": SOLUTION[:6], "redo": SOLUTION[6:8]}
    page.reload()
    wait_level(page, LEVEL)
    expect(page.get_by_test_id("app-message")).to_contain_text(
        f"Back where you left level {LEVEL}")
    assert snapshot(page) == before
    expect(page.get_by_test_id("snakes-undo")).to_be_enabled()
    expect(page.get_by_test_id("snakes-redo")).to_be_enabled()
    page.get_by_test_id("snakes-redo").click()
    steps_are(page, 7)
    page.get_by_test_id("snakes-redo").click()
    steps_are(page, 8)
    expect(page.get_by_test_id("snakes-redo")).to_be_disabled()
    assert sorted(snapshot(page)["ends"]) == sorted(ends_by_rules(SOLUTION[:8]))
    finish(page, 8)
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_a_cancel_that_replaces_the_worker_resumes_the_level_exactly(level_page: Page):
    page = level_page
    play_solution_by_dragging(page, "desktop", SOLUTION[:8])
    page.get_by_test_id("snakes-undo").click()
    steps_are(page, 7)
    before = snapshot(page)
    generation = page.evaluate("() => window.gridforge.app.generation")
    # A long call cancelled on this host: the worker, and the game it held, are replaced.
    page.evaluate("""() => { window.spinOutcome = window.gridforge.call('gridforge.api.spin', 60)
                             .then(v => 'finished', e => e.type); }""")
    expect(page.get_by_test_id("progress-label")).to_contain_text("spinning")
    page.get_by_test_id("cancel").click()
    assert page.evaluate("() => window.spinOutcome") == "Cancelled"
    assert page.evaluate("() => window.gridforge.app.generation") == generation + 1
    # The new worker holds no game; the next verb resumes it from the page's save first
    # (the new worker starts Python first: on a loaded machine that takes its time).
    page.get_by_test_id("snakes-redo").click()
    wait_idle(page)
    steps_are(page, 8)
    page.get_by_test_id("snakes-undo").click()
    steps_are(page, 7)
    assert snapshot(page) == before
    assert current(page) == {"level": LEVEL, "sha": CERTIFICATE["level_sha256"],
                             "steps": SOLUTION[:7], "redo": SOLUTION[7:8]}
    page.get_by_test_id("snakes-redo").click()
    steps_are(page, 8)
    finish(page, 8)
    assert page.page_errors == []  # type: ignore[attr-defined]
