"""Saved state is never lost (spec/web.md, "Saved state"; issue 20), on the real page.

Whatever the store or Python refuses is copied aside to ``gridforge.progress.corrupt.<time>``
(read back equal) before the original is touched; when no copy fits in the quota the original
stays untouched, the page says so and offers its raw text as a download. Every test waits on
page states (the mines section's ``data-run`` without ``data-busy``, the message, the
``store-held`` notice), never on a duration.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.mines.fixtures import PlayedRun

from .conftest import READY_TIMEOUT_MS

KEY = "gridforge.progress"
HUGE_JS = "'{' + 'x'.repeat(3e6)"  # issue 20's reproduction: larger than the free quota


def progress_with_run(run: dict) -> str:
    """A stored progress text: two snakes levels done and ``run`` as the mines run."""
    return json.dumps({"format": "gridforge.progress/1",
                       "snakes": {"done": {"1": 9, "2": 14}, "open": 3},
                       "mines": {"run": run}})


def store_once(page: Page, text: str) -> None:
    """``text`` is this browser's stored progress when the page first loads (reloads keep
    whatever the page then stores)."""
    page.add_init_script(
        "if (!sessionStorage.getItem('saved-state-seeded')) {"
        f" localStorage.setItem({json.dumps(KEY)}, {json.dumps(text)});"
        " sessionStorage.setItem('saved-state-seeded', '1'); }")


def open_mines(page: Page) -> None:
    page.goto("/#mines")
    page.evaluate("() => window.gridforge.ready")
    settle(page)


def settle(page: Page) -> None:
    # A new run generates its first board in Python: allow a loaded machine its time.
    expect(page.locator("section.mines[data-run]:not([data-busy])")).to_have_count(
        1, timeout=READY_TIMEOUT_MS)


def corrupt_copies(page: Page) -> list[list[str]]:
    return page.evaluate("""() => Object.keys(localStorage).sort()
        .filter(k => k.startsWith('gridforge.progress.corrupt.'))
        .map(k => [k, localStorage.getItem(k)])""")


def kept_once(page: Page, original: str) -> str:
    """The key of the one copy kept aside, which must equal the whole stored value."""
    copies = corrupt_copies(page)
    assert len(copies) == 1, copies
    kept_key, kept_text = copies[0]
    assert kept_text == original
    return kept_key


def said_where_it_went(page: Page, kept_key: str) -> None:
    """The visible message says the save could not be resumed and names where it went."""
    error = page.get_by_test_id("error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("could not be resumed")
    expect(error).to_contain_text(kept_key)


def stored(page: Page) -> dict:
    return json.loads(page.evaluate(f"() => localStorage.getItem({json.dumps(KEY)})"))


def dig_somewhere(page: Page) -> None:
    """One settled dig (or walk-and-dig) on the board."""
    page.locator('[data-testid="mines-cell"]:is([data-do="dig"], [data-do="reach"])').first.click()
    settle(page)


# ---------------------------------------------------------------------------- runs Python refuses
REFUSED_RUNS = {
    # issue 20's reproduction: a valid shape, steps Python cannot replay
    "bad-steps": {"format": "gridforge.mines.saved-run/1", "seed": 7,
                  "table": PlayedRun(7).save()["table"],
                  "steps": [["primary", [99, 99]], "MYDATA"]},
    # a run saved by an older build: its run table's hash differs from this build's
    "older-build": {**PlayedRun(7).save(), "table": "0000000000000000"},
}


@pytest.mark.parametrize("name", sorted(REFUSED_RUNS))
def test_a_run_python_refuses_is_kept_aside_before_a_new_run_saves(page: Page, name: str):
    original = progress_with_run(REFUSED_RUNS[name])
    store_once(page, original)
    open_mines(page)
    kept_key = kept_once(page, original)
    said_where_it_went(page, kept_key)
    # The new run is saved over the mines part only; the snakes progress is as it was.
    now = stored(page)
    assert now["mines"]["run"] != REFUSED_RUNS[name]
    assert now["mines"]["run"]["format"] == "gridforge.mines.saved-run/1"
    assert now["snakes"] == {"done": {"1": 9, "2": 14}, "open": 3}
    # The next visit resumes the new run; the copy is still there, unchanged.
    dig_somewhere(page)
    saved = stored(page)["mines"]["run"]
    page.reload()
    settle(page)
    expect(page.get_by_test_id("app-message")).to_contain_text("back where you left it")
    assert stored(page)["mines"]["run"] == saved
    assert corrupt_copies(page) == [[kept_key, original]]
    expect(page.get_by_test_id("store-held")).to_have_count(0)
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_a_normal_save_resumes_and_keeps_nothing_aside(page: Page):
    store_once(page, progress_with_run(PlayedRun(11).save()))
    open_mines(page)
    expect(page.get_by_test_id("app-message")).to_contain_text("back where you left it")
    dig_somewhere(page)
    saved = stored(page)["mines"]["run"]
    assert saved["seed"] == 11 and len(saved["steps"]) >= 1
    states = page.locator('[data-testid="mines-cell"]').evaluate_all(
        "cells => cells.map(c => c.dataset.state)")
    page.reload()
    settle(page)
    expect(page.get_by_test_id("app-message")).to_contain_text("back where you left it")
    assert page.locator('[data-testid="mines-cell"]').evaluate_all(
        "cells => cells.map(c => c.dataset.state)") == states
    assert stored(page)["mines"]["run"] == saved
    assert corrupt_copies(page) == []
    expect(page.get_by_test_id("store-held")).to_have_count(0)
    assert page.page_errors == []  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------- too large to copy
def original_intact(page: Page) -> bool:
    return page.evaluate(f"() => localStorage.getItem({json.dumps(KEY)}) === {HUGE_JS}")


def test_a_corrupt_value_too_large_to_copy_stays_and_is_offered_as_a_file(
    page: Page, tmp_path: Path
):
    page.goto("/")
    page.evaluate("() => window.gridforge.ready")
    page.evaluate(f"() => localStorage.setItem({json.dumps(KEY)}, {HUGE_JS})")
    page.reload()
    held = page.get_by_test_id("store-held")
    expect(held).to_be_visible()
    expect(held).to_contain_text("could not be used")
    expect(held).to_contain_text(KEY)
    expect(page.get_by_test_id("error")).to_be_visible()
    expect(page.get_by_test_id("error")).to_contain_text("no copy of it could be kept aside")
    assert original_intact(page)
    assert corrupt_copies(page) == []  # nothing half-written beside it

    # Play goes on in memory; nothing is saved over the original.
    open_mines(page)
    dig_somewhere(page)
    expect(held).to_be_visible()
    assert original_intact(page)
    page.reload()
    expect(held).to_be_visible()
    assert original_intact(page)

    # The raw text is offered as a file, byte for byte.
    with page.expect_download() as info:
        page.get_by_test_id("store-held-export").click()
    target = tmp_path / "held.txt"
    info.value.save_as(target)
    assert target.read_text(encoding="utf-8") == "{" + "x" * 3_000_000
    assert original_intact(page)

    # Only then, and only when asked, may it go; progress is saved again after that.
    page.get_by_test_id("store-held-discard").click()
    expect(held).to_have_count(0)
    assert stored(page)["format"] == "gridforge.progress/1"
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_a_small_corrupt_value_is_copied_aside_equal_before_it_is_removed(page: Page):
    text = '{"format": "gridforge.progress/1", "snakes": '
    store_once(page, text)
    page.add_init_script("localStorage.getItem('gridforge.settings') === null &&"
                         " localStorage.setItem('gridforge.settings', 'not json')")
    page.goto("/")
    page.evaluate("() => window.gridforge.ready")
    expect(page.get_by_test_id("error")).to_be_visible()
    expect(page.get_by_test_id("error")).to_contain_text("kept as")
    copies = corrupt_copies(page)
    assert [value for _, value in copies] == [text]
    assert page.evaluate(f"() => localStorage.getItem({json.dumps(KEY)})") is None
    settings = page.evaluate("""() => Object.keys(localStorage)
        .filter(k => k.startsWith('gridforge.settings.corrupt.'))
        .map(k => localStorage.getItem(k))""")
    assert settings == ["not json"]
    expect(page.get_by_test_id("store-held")).to_have_count(0)
    assert page.page_errors == []  # type: ignore[attr-defined]


# ------------------------------------------------------------- a snakes level Python refuses
def snakes_certificate(n: int) -> dict:
    from .snakes_helpers import mainline  # the e2e folder's helpers (test_snakes.py uses them)

    return mainline()["certificates"][n - 1]


SNAKES_LEVEL = 3


def refused_currents() -> dict[str, dict]:
    certificate = snakes_certificate(SNAKES_LEVEL)
    return {
        # steps Python cannot replay (no such body; not a step at all)
        "bad-steps": {"level": SNAKES_LEVEL, "sha": certificate["level_sha256"],
                      "steps": [[99, "head", "U"], "MYDATA"], "redo": []},
        # saved for another version of the level (an older build's level of that number)
        "older-build": {"level": SNAKES_LEVEL, "sha": "0" * 64,
                        "steps": certificate["solution"][:1], "redo": []},
    }


def progress_with_current(current: dict) -> str:
    """A stored progress text: levels 1 and 2 done, level 3 in progress as ``current``, and
    a mines run."""
    return json.dumps({"format": "gridforge.progress/1",
                       "snakes": {"done": {"1": 2, "2": 5}, "open": SNAKES_LEVEL,
                                  "current": current},
                       "mines": {"run": PlayedRun(7).save()}})


def open_snakes_level(page: Page, n: int) -> None:
    page.goto(f"/#snakes/level/{n}")
    page.evaluate("() => window.gridforge.ready")
    settle_snakes(page, n)


def settle_snakes(page: Page, n: int) -> None:
    expect(page.get_by_test_id("snakes-board")).to_have_attribute("data-level", str(n))
    expect(page.locator('[data-testid="snakes-play"][data-ready="1"]')).to_have_count(1)


@pytest.mark.parametrize("name", ["bad-steps", "older-build"])
def test_a_snakes_level_python_refuses_is_kept_aside_before_play_saves(page: Page, name: str):
    from .snakes_helpers import play_solution_by_dragging

    original = progress_with_current(refused_currents()[name])
    store_once(page, original)
    open_snakes_level(page, SNAKES_LEVEL)
    board = page.get_by_test_id("snakes-board")
    expect(board).to_have_attribute("data-steps", "0")  # the level starts fresh
    kept_key = kept_once(page, original)
    said_where_it_went(page, kept_key)
    assert json.loads(page.evaluate(f"() => localStorage.getItem({json.dumps(KEY)})")) == \
        json.loads(original)  # nothing saved yet
    # A step saves the fresh level over the old one; the rest of the progress is as it was.
    first = snakes_certificate(SNAKES_LEVEL)["solution"][:1]
    play_solution_by_dragging(page, "desktop", first)
    # The board draws the step from the answer ahead; the save follows Python's step call.
    # (The older build's save has these very steps: wait on the level's sha too.)
    sha = snakes_certificate(SNAKES_LEVEL)["level_sha256"]
    page.wait_for_function(
        "([key, sha, steps]) => { const current = JSON.parse(localStorage.getItem(key)).snakes"
        ".current || {}; return current.sha === sha && JSON.stringify(current.steps) === steps; }",
        arg=[KEY, sha, json.dumps(first, separators=(",", ":"))])
    before, now = json.loads(original), stored(page)
    assert now["snakes"]["current"] == {"level": SNAKES_LEVEL, "sha": sha,
                                        "steps": first, "redo": []}
    assert now["snakes"]["done"] == before["snakes"]["done"]
    assert now["snakes"]["open"] == before["snakes"]["open"]
    assert now["mines"] == before["mines"]
    # The next visit resumes the new save; the copy is still there, unchanged.
    page.reload()
    settle_snakes(page, SNAKES_LEVEL)
    expect(board).to_have_attribute("data-steps", "1")
    expect(page.get_by_test_id("app-message")).to_contain_text("Back where you left level 3")
    assert corrupt_copies(page) == [[kept_key, original]]
    expect(page.get_by_test_id("store-held")).to_have_count(0)
    assert page.page_errors == []  # type: ignore[attr-defined]
