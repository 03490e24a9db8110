"""Mines play that costs and reads (issue 21): a hint has a price the page shows, lines
point at cells instead of numbering them, terms open on a tap, the telemetry sits in a panel
of its own, a dug mine reads as trodden ground and opened fog at a glance, and at 390x844
the end panels show New run without scrolling. Tests wait on page states, never on time."""

from __future__ import annotations

import json
import random
import re

from gridforge.mines.intents import Intent
from gridforge.mines.view import stand_for
from playwright.sync_api import Page, expect

from bench.mines_balance import careless, deducing  # the bench's players, reused
from tests.mines.fixtures import PlayedRun

from . import test_mines
from .conftest import READY_TIMEOUT_MS
from .test_mines import (
    Device,
    cell,
    fresh,
    open_mines,
    replay,
    saved_run,
    settle,
    stop_round,
    stop_until_lost,
)

# the devices of test_mines (a mouse at 1280x800, a finger at 390x844)
device, desk, phone = test_mines.device, test_mines.desk, test_mines.phone

COORDINATES = re.compile(r"[\[(]\s*\d+\s*,\s*\d+\s*[\])]")


def reload_and_settle(page: Page) -> None:
    """Reload the page and wait until Python has loaded and the run is drawn again."""
    page.reload()
    page.evaluate("() => window.gridforge.ready")
    expect(page.locator("section.mines[data-run]:not([data-busy])")).to_have_count(
        1, timeout=READY_TIMEOUT_MS)


def stored_run(page: Page) -> dict:
    return page.evaluate("() => JSON.parse(localStorage.getItem('gridforge.progress'))")[
        "mines"]["run"]


def stock(page: Page) -> str:
    return page.get_by_test_id("mines-hint-stock").inner_text()


def test_pressing_hint_spends_one_from_the_battle_s_stock(device: Device):
    page = device.page
    open_mines(page, seed=3)
    fresh(page)
    per = PlayedRun(3).table.hints_per_battle
    expect(page.get_by_test_id("mines-hint-stock")).to_have_text(f"{per}/{per}")
    device.primary(page.get_by_test_id("mines-hint"))  # a real click or tap
    settle(page)
    expect(page.get_by_test_id("mines-hint-stock")).to_have_text(f"{per - 1}/{per}")
    expect(page.locator('[data-testid="mines-cell"].hint-target')).to_have_count(1)
    assert stored_run(page)["steps"][-1] == {"do": "hint"}  # the price is in the saved run
    # asking again about the same cell shows it again and costs nothing
    device.primary(page.get_by_test_id("mines-hint"))
    settle(page)
    expect(page.get_by_test_id("mines-hint-stock")).to_have_text(f"{per - 1}/{per}")
    # the stock survives a reload (the paid hint replays from the save)
    reload_and_settle(page)
    expect(page.get_by_test_id("mines-hint-stock")).to_have_text(f"{per - 1}/{per}")


def test_with_no_hint_left_the_button_is_off(desk: Page):
    page = desk
    run = PlayedRun(5)
    for _ in range(run.table.hints_per_battle):
        answer = run.hint()
        assert answer["price"] == 1
        target = (answer["cell"][0], answer["cell"][1])
        if answer["action"] == "dig":
            run.primary(target)
        else:  # stand beside the proved mine and flag it
            engine = run.session.engine
            if target not in engine.board.neighbours(engine.avatar):
                run.act(Intent("move", stand_for(engine, target)))
            run.secondary(target)
        if run.status == "settled":
            run.continue_run()
    assert run.status == "playing" and run.hints_left == 0
    open_mines(page, run.save())
    expect(page.get_by_test_id("mines-hint-stock")).to_have_text(
        f"0/{run.table.hints_per_battle}")
    expect(page.get_by_test_id("mines-hint")).to_be_disabled()


def test_lines_point_at_cells_and_no_text_numbers_a_cell(device: Device):
    page = device.page
    open_mines(page, seed=3)
    fresh(page)
    for _ in range(3):
        offered = page.locator('[data-testid="mines-cell"]:is([data-do="dig"], [data-do="reach"])')
        device.primary(offered.first)
        settle(page)
        if page.get_by_test_id("mines-continue").is_visible():
            break
    device.primary(page.get_by_test_id("mines-hint"))
    settle(page)
    assert not COORDINATES.search(page.locator("body").inner_text())
    # a log line's cell piece lights its cell on the board: hover with a mouse, tap by touch
    ref = page.get_by_test_id("mines-log").get_by_test_id("mines-cell-ref").first
    expect(ref).to_be_visible()
    x, y = (int(v) for v in ref.get_attribute("data-cell").split(","))
    if device.touch:
        device.primary(ref)
    else:
        ref.hover()
    expect(cell(page, x, y)).to_have_class(re.compile(r"\bpointed\b"))
    # so does the hint's sentence, which points at the hinted cell
    hint_ref = page.get_by_test_id("mines-hint-text").get_by_test_id("mines-cell-ref").first
    hx, hy = (int(v) for v in hint_ref.get_attribute("data-cell").split(","))
    if device.touch:
        device.primary(hint_ref)
    else:
        hint_ref.hover()
    expect(cell(page, hx, hy)).to_have_class(re.compile(r"\bpointed\b"))


def test_terms_open_where_they_show_and_telemetry_is_a_panel_of_its_own(device: Device):
    page = device.page
    open_mines(page, seed=3)
    fresh(page)
    rap = page.get_by_test_id("mines-ledger").locator('button.term[data-term="RAP"]')
    assert "Reserve AP" in (rap.get_attribute("title") or "")  # the mouse's tooltip
    device.primary(rap)  # a tap or click opens the sentence for touch users too
    expect(page.get_by_test_id("mines-term")).to_be_visible()
    expect(page.get_by_test_id("mines-term")).to_contain_text("Reserve AP")
    for name in ("AP", "HP", "attack", "mines", "pending"):
        button = page.locator(f'button.term[data-term="{name}"]').first
        device.primary(button)
        expect(page.get_by_test_id("mines-term")).to_be_visible()
        assert page.get_by_test_id("mines-term").inner_text().strip()
    # the Stats panel shows the player's numbers; telemetry only once its panel is opened
    page.locator("summary").filter(has_text="Stats").click()
    expect(page.get_by_test_id("mines-player-stats")).to_contain_text("Hints left")
    expect(page.get_by_text("guard rail")).to_be_hidden()
    page.locator("summary").filter(has_text="Playtest telemetry").click()
    expect(page.get_by_test_id("mines-stats-friction")).to_contain_text("guard rail")


def colours(page: Page, x: int, y: int) -> dict:
    return cell(page, x, y).evaluate(
        "c => { const s = getComputedStyle(c); return {bg: s.backgroundColor, "
        "image: s.backgroundImage, shadow: s.boxShadow}; }")


def test_a_dug_mine_is_trodden_ground_and_opened_fog_differs_at_a_glance(desk: Page):
    page = desk
    # a run with a dug mine: the careless bot digs at random until one is dug
    rng = random.Random(4)
    run = PlayedRun(4)
    for _ in range(200):
        if run.status == "settled":
            run.continue_run()
        view = run.to_json()["board"]
        if view and view["dug_mines"] and run.status == "playing":
            break
        careless(run, rng)
    mine = next((x, y) for y, row in enumerate(run.to_json()["board"]["grid"])
                for x, v in enumerate(row) if v == "mine")
    open_mines(page, run.save())
    node = cell(page, *mine)
    expect(node).to_have_attribute("data-state", "mine")
    look = colours(page, *mine)
    r, g, b = (int(v) for v in re.findall(r"\d+", look["bg"])[:3])
    assert r - b < 60 and not (r > 200 and g < 190 and b < 190), look  # earth, not alarm red
    assert "radial-gradient" in look["image"]  # trodden ground's texture
    assert node.locator("svg.scar").count() == 1  # the small mark
    box, mark = node.bounding_box(), node.locator("svg.scar").bounding_box()
    assert mark["width"] <= box["width"] * 0.6
    # opened fog: a tone and a pattern of its own, unlike plain opened floor
    saved, fog_run = saved_run(11, 3, fog_opened=True)
    grid = fog_run.to_json()["board"]["grid"]
    fog = next((x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if v == "open-fog")
    floor = next((x, y) for y, row in enumerate(grid) for x, v in enumerate(row)
                 if isinstance(v, int))
    page.evaluate("(s) => { const p = JSON.parse(localStorage.getItem('gridforge.progress'));"
                  " p.mines = {run: s}; localStorage.setItem('gridforge.progress',"
                  " JSON.stringify(p)); }", saved)
    reload_and_settle(page)
    expect(page.get_by_test_id("mines-battle")).to_have_text("Battle 3/5")
    fog_look, floor_look = colours(page, *fog), colours(page, *floor)
    assert fog_look["bg"] != floor_look["bg"] and fog_look["image"] != floor_look["image"]
    assert "radial-gradient" in fog_look["image"]
    expect(page.get_by_test_id("mines-fog")).to_be_visible()


def new_run_in_view(page: Page) -> None:
    """New run is on screen as the panel opens: no scrolling done or needed."""
    button = page.get_by_test_id("mines-end-new-run")
    expect(button).to_be_visible()
    box = button.bounding_box()
    viewport = page.viewport_size
    assert box is not None and viewport is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box


def test_at_390_the_loss_panel_shows_new_run_without_scrolling(phone: Device):
    page = phone.page
    open_mines(page, seed=4)
    fresh(page)
    stop_until_lost(phone)
    new_run_in_view(page)


def test_at_390_the_win_panel_shows_new_run_without_scrolling(phone: Device):
    page = phone.page
    # a run the deducing bot wins, handed to the page one step before its end
    for seed in range(1, 20):
        rng = random.Random(seed)
        run = PlayedRun(seed)
        for _ in range(5000):
            if run.status in ("won", "lost"):
                break
            if run.status == "settled":
                run.continue_run()
            else:
                deducing(run, rng)
        if run.status == "won":
            break
    assert run.status == "won"
    steps = run.save()["steps"]
    last = steps[-1]
    before = {**run.save(), "steps": steps[:-1]}
    assert replay(before).status == "playing"
    open_mines(page, before)
    if last.get("kind") == "stop":
        stop_round(phone)
    elif "cell" in last:
        target = cell(page, *last["cell"])
        if last.get("kind") in ("flag_place", "flag_pull"):
            phone.secondary(target)
        else:
            phone.primary(target)
    settle(page)
    expect(page.get_by_test_id("mines-end")).to_have_attribute("data-result", "won")
    page.evaluate("() => window.scrollTo(0, 0)")
    new_run_in_view(page)
    assert json.dumps(stored_run(page))  # the won run is saved as it ended
