"""Snakes play telemetry on the device (issue 24): a level played by real pointer events, with
an undo, a restart and a hint, is recorded as one attempt that validates against
gridforge.snakes.telemetry/1 and holds those counts; the export is the same file; a reload
keeps it; Clear empties it. Waits on page states only, never on durations."""

from __future__ import annotations

import json

from gridforge.snakes.player.telemetry import validate_telemetry
from playwright.sync_api import Page, expect

from .conftest import READY_TIMEOUT_MS, wait_idle
from .snakes_helpers import board, goto_ready, mainline, play_solution_by_dragging, wait_level

KEY = "gridforge.snakes.player.telemetry"
COUNT = ("() => (JSON.parse(localStorage.getItem('gridforge.snakes.player.telemetry') || '{}')"
         ".attempts || []).length")


def stored(page: Page) -> dict:
    return json.loads(page.evaluate(f"() => localStorage.getItem('{KEY}')"))


def test_a_played_level_is_recorded_exported_kept_and_cleared(page: Page):
    solution = mainline()["certificates"][0]["solution"]
    goto_ready(page, "#snakes/level/1")
    wait_level(page, 1)
    sha = board(page).get_attribute("data-level-sha")
    # One step, undone; a restart; a hint; then the whole solution, each by dragging.
    play_solution_by_dragging(page, "desktop", solution[:1])
    page.get_by_test_id("snakes-undo").click()
    wait_idle(page)
    expect(board(page)).to_have_attribute("data-steps", "0")
    play_solution_by_dragging(page, "desktop", solution[:1])
    page.get_by_test_id("snakes-restart").click()
    wait_idle(page)
    expect(board(page)).to_have_attribute("data-steps", "0")
    page.get_by_test_id("snakes-hint").click()
    wait_idle(page)
    expect(page.get_by_test_id("snakes-hint-arrow")).to_have_count(1)
    play_solution_by_dragging(page, "desktop", solution)
    expect(page.get_by_test_id("snakes-win")).to_be_visible()
    page.wait_for_function(f"() => ({COUNT})() === 1", timeout=READY_TIMEOUT_MS)

    data = validate_telemetry(stored(page))
    [attempt] = data["attempts"]
    assert attempt["level_sha256"] == sha and attempt["kind"] == "mainline"
    assert attempt["level"] == 1 and attempt["outcome"] == "won"
    assert (attempt["undos"], attempt["restarts"], attempt["hints"]) == (1, 1, 1)
    assert attempt["steps"] == 2 + len(solution) and attempt["best_known"] == len(solution)
    assert attempt["drags"] >= 3 and attempt["dead_ends"] is None
    assert attempt["first_step_ms"] is not None
    assert attempt["first_step_ms"] <= attempt["duration_ms"]
    assert attempt["think_ms"] + attempt["drag_ms"] <= attempt["duration_ms"]
    assert attempt["player"].startswith("device-")

    # The map's panel: the count, the view and the export are the stored file.
    page.get_by_test_id("snakes-map").click()
    panel = page.get_by_test_id("snakes-telemetry")
    expect(panel).to_have_count(1)
    panel.locator("summary").click()
    expect(page.get_by_test_id("snakes-telemetry-count")).to_have_attribute("data-attempts", "1")
    page.get_by_test_id("snakes-telemetry-view").click()
    assert json.loads(page.get_by_test_id("snakes-telemetry-json").text_content() or "") == data
    with page.expect_download() as download:
        page.get_by_test_id("snakes-telemetry-export").click()
    with open(download.value.path(), encoding="utf-8") as handle:
        exported = validate_telemetry(json.load(handle))
    assert exported == data

    # A reload keeps it; Clear empties it (and the count says so).
    page.reload()
    page.evaluate("() => window.gridforge.ready")
    wait_idle(page)
    assert validate_telemetry(stored(page)) == data
    page.get_by_test_id("snakes-telemetry").locator("summary").click()
    expect(page.get_by_test_id("snakes-telemetry-count")).to_have_attribute("data-attempts", "1")
    page.get_by_test_id("snakes-telemetry-clear").click()
    expect(page.get_by_test_id("snakes-telemetry-count")).to_have_attribute("data-attempts", "0")
    assert page.evaluate(f"() => localStorage.getItem('{KEY}')") is None
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_corrupt_telemetry_is_kept_aside_and_recording_starts_fresh(page: Page):
    goto_ready(page, "#snakes")
    page.evaluate(f"() => localStorage.setItem('{KEY}', '{{not json')")
    page.reload()
    page.evaluate("() => window.gridforge.ready")
    wait_idle(page)
    page.get_by_test_id("snakes-telemetry").locator("summary").click()
    expect(page.get_by_test_id("snakes-telemetry-count")).to_have_attribute("data-attempts", "0")
    kept = page.evaluate(
        f"() => Object.keys(localStorage).filter(k => k.startsWith('{KEY}.corrupt.'))")
    assert len(kept) == 1
    assert page.evaluate("(k) => localStorage.getItem(k)", kept[0]) == "{not json"


def test_a_loaded_weights_file_puts_a_predicted_difficulty_in_the_editor(page: Page, tmp_path):
    weights = {"format": "gridforge.snakes.weights/1",
               "weights": {"occupancy": 18, "body_scale": 12, "steps": 18, "blocking": 14,
                           "mechanics": 12, "shuffling": 8, "space": 18},
               "predict": {"difficulty": [-2.0, 0.04], "solve_logit": [-1.0, 0.03],
                           "log_seconds": [2.0, 0.03], "mean_skill": 0.5}}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**weights, "weights": {"steps": 100}}), encoding="utf-8")
    good = tmp_path / "weights.json"
    good.write_text(json.dumps(weights), encoding="utf-8")
    goto_ready(page, "#snakes")
    page.get_by_test_id("snakes-telemetry").locator("summary").click()
    page.get_by_test_id("snakes-weights-file").set_input_files(str(bad))
    expect(page.get_by_test_id("app-message")).to_contain_text("weights.occupancy")
    page.get_by_test_id("snakes-weights-file").set_input_files(str(good))
    expect(page.get_by_test_id("app-message")).to_contain_text("Weights loaded")
    page.evaluate("() => { location.hash = '#editor/level/1'; }")
    page.wait_for_selector('section.editor[data-route="#editor/level/1"][data-ready="true"]')
    wait_idle(page)
    page.get_by_test_id("editor-verify").click()
    expect(page.get_by_test_id("editor-status")).to_have_attribute(
        "data-status", "verified", timeout=READY_TIMEOUT_MS)
    expect(page.get_by_test_id("editor-predicted")).to_contain_text("Predicted difficulty")
    expect(page.get_by_test_id("editor-predicted")).to_contain_text("without a hint")
