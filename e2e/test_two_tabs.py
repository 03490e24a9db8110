"""Saved state two tabs cannot corrupt, imports that change nothing when bad, and storage
reads that survive any JSON the page can hold (issue 43), on the real page.

Two pages of one browser context share localStorage (and its "storage" events) as two tabs
do. Every test waits on page states (the mines section's ``data-run`` without
``data-busy``, ``data-stale``, the message), never on a duration.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.mines.fixtures import PlayedRun

from .conftest import READY_TIMEOUT_MS

KEY = "gridforge.progress"


def new_page(context: BrowserContext) -> Page:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.page_errors = errors  # type: ignore[attr-defined]
    return page


def settle(page: Page) -> None:
    expect(page.locator("section.mines[data-run]:not([data-busy])")).to_have_count(
        1, timeout=READY_TIMEOUT_MS)


def open_mines(page: Page) -> None:
    page.goto("/#mines")
    page.evaluate("() => window.gridforge.ready")
    settle(page)
    expect(page.get_by_test_id("app-message")).to_contain_text("back where you left it")


def stored(page: Page) -> dict:
    return json.loads(page.evaluate(f"() => localStorage.getItem({json.dumps(KEY)})"))


def cells(page: Page) -> list[str]:
    return page.locator('[data-testid="mines-cell"]').evaluate_all(
        "cells => cells.map(c => c.dataset.state)")


def dig(page: Page, nth: int = 0) -> None:
    """One dig (or walk-and-dig) the page offers, the ``nth``, settled."""
    page.locator('[data-testid="mines-cell"]:is([data-do="dig"], [data-do="reach"])').nth(
        nth).click()
    settle(page)


def seed_run(context: BrowserContext, seed: int) -> None:
    page = context.new_page()
    page.goto("/#home")
    page.evaluate("(t) => localStorage.setItem('gridforge.progress', t)", json.dumps(
        {"format": "gridforge.progress/1", "snakes": {"done": {"1": 9}, "open": 2},
         "mines": {"run": PlayedRun(seed).save()}}))
    page.close()


def told_to_reload(page: Page) -> None:
    """The page has stopped this run's play: the notice, its reload button, the message."""
    expect(page.locator("section.mines[data-stale='1']")).to_have_count(1)
    expect(page.get_by_test_id("mines-stale")).to_be_visible()
    expect(page.get_by_test_id("mines-stale-reload")).to_be_visible()
    expect(page.get_by_test_id("error")).to_contain_text("another tab")


def test_a_tab_behind_another_stops_and_says_so_and_no_dig_is_lost(context: BrowserContext):
    # The steps: A digs, B digs, A digs again, reload.
    seed_run(context, 11)
    a, b = new_page(context), new_page(context)
    open_mines(a)
    open_mines(b)
    dig(a)
    after_a = stored(a)["mines"]["run"]
    assert len(after_a["steps"]) == 1
    # B learns at once that A has played on; its dig is not played over A's save.
    told_to_reload(b)
    before = cells(b)
    dig(b, 1)
    told_to_reload(b)
    assert cells(b) == before and stored(b)["mines"]["run"] == after_a
    dig(a)
    saved = stored(a)["mines"]["run"]
    assert len(saved["steps"]) == 2 and saved["steps"][0] == after_a["steps"][0]
    expect(a.get_by_test_id("mines-stale")).to_be_hidden()
    # B reloads the run as A left it and plays on from there; A is then the one behind.
    b.get_by_test_id("mines-stale-reload").click()
    settle(b)
    expect(b.get_by_test_id("mines-stale")).to_be_hidden()
    assert cells(b) == cells(a)
    dig(b)
    assert len(stored(b)["mines"]["run"]["steps"]) == 3
    told_to_reload(a)
    a.reload()
    settle(a)
    assert cells(a) == cells(b)
    assert stored(a)["snakes"] == {"done": {"1": 9}, "open": 2}
    assert a.page_errors == [] and b.page_errors == []  # type: ignore[attr-defined]


def test_a_mine_dug_in_the_other_tab_and_its_damage_survive(context: BrowserContext):
    # Any interleaving: B (opened after A's dig) digs on, a mine among its digs (a careless
    # player's first offers); A, behind, is stopped and told, and B's digs and damage stay.
    seed_run(context, 4)
    a, b = new_page(context), new_page(context)
    open_mines(a)
    dig(a)
    open_mines(b)
    offered = '[data-testid="mines-cell"]:is([data-do="dig"], [data-do="reach"])'
    hp = b.get_by_test_id("mines-player").inner_text()
    for _ in range(12):
        if b.locator("section.mines[data-status='playing']").count() == 0 or \
                b.locator(offered).count() == 0:
            break
        dig(b)
        if b.get_by_test_id("mines-player").inner_text() != hp:  # hurt
            break
    assert b.get_by_test_id("mines-player").inner_text() != hp  # B was hurt
    saved = stored(b)["mines"]
    told_to_reload(a)
    dig(a)  # refused: A is behind
    assert stored(a)["mines"] == saved
    a.reload()
    settle(a)
    assert stored(a)["mines"]["run"] == saved["run"]
    assert cells(a) == cells(b)
    for part in ("mines-player", "mines-enemy", "mines-ledger"):  # the damage is there too
        assert a.get_by_test_id(part).inner_text() == b.get_by_test_id(part).inner_text()


# ---------------------------------------------------------------------------- imports
def import_file(page: Page, path: Path) -> None:
    page.get_by_test_id("progress-import-file").set_input_files(str(path))
    expect(page.locator("[data-testid=home]:not([data-busy])")).to_have_count(1)


@pytest.mark.parametrize(("name", "change", "path"), [
    ("an unresumable mines run", lambda p: p["mines"].update(
        run={**PlayedRun(7).save(), "steps": [["primary", [99, 99]]]}), "mines.run"),
    ("a run of other rules", lambda p: p["mines"].update(
        run={**PlayedRun(7).save(), "table": "0000000000000000"}), "mines.run.table"),
    ("a level in progress that does not resume", lambda p: p["snakes"].update(
        current={"level": 1, "steps": [[0, "head", "up"]] * 3, "redo": [], "sha": "0" * 64}),
     "snakes.current"),
])
def test_a_progress_file_the_page_could_not_use_changes_nothing(
        context: BrowserContext, tmp_path: Path, name: str, change, path: str):
    page = new_page(context)
    page.goto("/#home")
    page.evaluate("() => window.gridforge.ready")
    before = {"format": "gridforge.progress/1", "snakes": {"done": {"1": 9}, "open": 2},
              "mines": {"run": PlayedRun(5).save()}}
    page.evaluate("(t) => localStorage.setItem('gridforge.progress', t)", json.dumps(before))
    page.reload()
    bad = json.loads(json.dumps(before))
    change(bad)
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    import_file(page, tmp_path / "bad.json")
    message = page.get_by_test_id("app-message")
    expect(message).to_contain_text("Nothing was changed")
    expect(message).to_contain_text(path)
    assert stored(page) == before
    # A file the page can use is imported.
    good = json.loads(json.dumps(before))
    good["snakes"]["open"] = 3
    (tmp_path / "good.json").write_text(json.dumps(good))
    import_file(page, tmp_path / "good.json")
    expect(message).to_contain_text("Progress imported")
    assert stored(page)["snakes"]["open"] == 3
    assert page.page_errors == []  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------- any JSON
DEEP = "'[' .repeat(5000) + ']'.repeat(5000)"
STORED = {"gridforge.drafts": "#editor", "gridforge.progress": "#snakes",
          "gridforge.settings": "#settings", "gridforge.snakes.player.telemetry": "#settings"}


@pytest.mark.parametrize("key", sorted(STORED))
def test_a_value_nested_5000_deep_is_kept_aside_and_said(context: BrowserContext, key: str):
    page = new_page(context)
    page.add_init_script(
        "if (!sessionStorage.getItem('deep-seeded')) {"
        f" localStorage.setItem({json.dumps(key)}, {DEEP});"
        " sessionStorage.setItem('deep-seeded', '1'); }")
    page.goto("/" + STORED[key])
    page.evaluate("() => window.gridforge.ready")
    if key == "gridforge.snakes.player.telemetry":
        expect(page.get_by_test_id("settings-telemetry-count")).to_be_visible()
    page.wait_for_function(
        "(k) => Object.keys(localStorage).some(c => c.startsWith(k + '.corrupt.'))", arg=key,
        timeout=READY_TIMEOUT_MS)
    copies = page.evaluate("(k) => Object.keys(localStorage).filter(c => c.startsWith(k + "
                           "'.corrupt.'))", key)
    assert len(copies) == 1
    assert page.evaluate("(k) => localStorage.getItem(k)", copies[0]) == "[" * 5000 + "]" * 5000
    expect(page.get_by_test_id("error")).to_contain_text("nested deeper than 32 levels")
    expect(page.get_by_test_id("error")).to_contain_text(copies[0])
    assert page.page_errors == []  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------- any interleaving
INTERLEAVINGS = """async (seed) => {
  const { Store, StaleSave, minesRev } = await import('./store.js');
  localStorage.removeItem('gridforge.progress');
  let x = seed;
  const random = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; };
  const stored = () => JSON.parse(localStorage.getItem('gridforge.progress'));
  const tabs = [0, 1].map(() => ({ store: new Store(localStorage, () => {}), steps: [],
    base: null, stale: false }));
  let move = 0, saved = 0, refused = 0, problems = [];
  let last = [];  // the steps of the last save written
  const reload = (tab) => {
    const now = stored();
    tab.steps = [...now.mines.run.steps];
    tab.base = minesRev(now.mines);
    tab.stale = false;
  };
  tabs[0].base = tabs[0].store.saveMinesRun({ run: { steps: [] }, summary: null }, null);
  reload(tabs[1]);
  for (let i = 0; i < 400; i++) {
    const tab = tabs[random() < 0.5 ? 0 : 1];
    if (tab.stale || random() < 0.1) { reload(tab); continue; }
    tab.steps.push(move++);  // a move this tab plays, then saves
    try {
      const run = { steps: [...tab.steps] };
      tab.base = tab.store.saveMinesRun({ run, summary: null }, tab.base);
      saved += 1;
      const now = stored().mines.run.steps;
      // A save written keeps every move of the save before it (nothing lost silently).
      const kept = JSON.stringify(now.slice(0, last.length)) === JSON.stringify(last);
      if (!kept) problems.push([i, last, now]);
      last = now;
    } catch (error) {
      if (!(error instanceof StaleSave)) throw error;
      refused += 1;  // said to the player: this move was not saved (mines.js)
      tab.stale = true;
    }
  }
  return { saved, refused, problems };
}"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_in_any_interleaving_no_saved_move_is_lost_and_every_refusal_is_raised(
        context: BrowserContext, seed: int):
    page = new_page(context)
    page.goto("/#home")
    outcome = page.evaluate(INTERLEAVINGS, seed)
    assert outcome["problems"] == []
    assert outcome["saved"] > 100 and outcome["refused"] > 10, outcome
