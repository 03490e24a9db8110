"""Mines in the browser, played as a person would: at 1280x800 with a mouse and at 390x844
with real touch events (CDP Input.dispatchTouchEvent), and with the keyboard alone.

Each line of issue 13's "What must hold" has a test here. Where a test needs a run further
on than a few clicks (a foggy battle, every battle preset), the run is played in Python by
the balance script's deducing bot and handed to the page as the saved run a player would
have in this browser (``localStorage["gridforge.progress"]``); the page resumes it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gridforge.mines.gen_table import preset
from gridforge.mines.run_table import load_run_table
from playwright.sync_api import Browser, Page, expect

from bench.mines_balance import deducing  # the bench's player, reused
from tests.mines.fixtures import PlayedRun, replay_saved

from .conftest import open_page

DESK = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
MAX_INPUTS = 400  # a budget of inputs per test loop, not of time


# ---------------------------------------------------------------------------- devices
class Device:
    """A person's hands: a mouse (click, right click) or a finger (tap, long press)."""

    def __init__(self, page: Page, touch: bool) -> None:
        self.page = page
        self.touch = touch
        self.cdp = page.context.new_cdp_session(page) if touch else None

    def _centre(self, locator) -> tuple[float, float]:
        locator.scroll_into_view_if_needed()
        box = locator.bounding_box()
        assert box is not None
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def _touch(self, kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def primary(self, locator) -> None:
        """A left click, or a tap."""
        if not self.touch:
            locator.click()
            return
        x, y = self._centre(locator)
        self._touch("touchStart", x, y)
        self._touch("touchEnd", x, y)

    def secondary(self, locator, expect_state: str | None = "flag") -> None:
        """A right click, or a long press held until the page has answered it."""
        if not self.touch:
            locator.click(button="right")
            return
        x, y = self._centre(locator)
        self._touch("touchStart", x, y)
        if expect_state is not None:  # hold until the flag shows: no fixed sleep
            expect(locator).to_have_attribute("data-state", expect_state)
        else:
            expect(self.page.locator("section.mines[data-busy]")).to_have_count(1)
        self._touch("touchEnd", x, y)


@pytest.fixture(params=["desk", "phone"])
def device(request, browser: Browser, base_url: str) -> Iterator[Device]:
    touch = request.param == "phone"
    with open_page(browser, base_url, viewport=PHONE if touch else DESK, has_touch=touch,
                   is_mobile=touch) as page:
        yield Device(page, touch)
        assert not page.page_errors, page.page_errors  # type: ignore[attr-defined]


@pytest.fixture
def desk(browser: Browser, base_url: str) -> Iterator[Page]:
    with open_page(browser, base_url, viewport=DESK) as page:
        yield page


@pytest.fixture
def phone(browser: Browser, base_url: str) -> Iterator[Device]:
    with open_page(browser, base_url, viewport=PHONE, has_touch=True, is_mobile=True) as page:
        yield Device(page, True)


# ---------------------------------------------------------------------------- the page
def settle(page: Page) -> None:
    """Wait until every input sent has been answered and drawn."""
    expect(page.locator("section.mines[data-run]:not([data-busy])")).to_have_count(1)


def stop_round(device: Device) -> None:
    """Stop the round as a player does since issue 45: Stop, then End the round when asked
    (Stop asks first while AP is left)."""
    page = device.page
    device.primary(page.get_by_test_id("mines-stop"))
    confirm = page.get_by_test_id("mines-stop-confirm")
    expect(confirm).to_be_visible()
    device.primary(confirm)


def stop_until_lost(device: Device, after_each: Callable[[Page], None] | None = None) -> None:
    """Stop every round (the enemy strikes each time) until the run is lost; ``after_each``
    runs after every settled input."""
    page = device.page
    for _ in range(MAX_INPUTS):
        if page.get_by_test_id("mines-end").is_visible():
            break
        if page.get_by_test_id("mines-continue").is_visible():
            device.primary(page.get_by_test_id("mines-continue"))
        else:
            stop_round(device)
        settle(page)
        if after_each is not None:
            after_each(page)
    expect(page.get_by_test_id("mines-end")).to_have_attribute("data-result", "lost")


def open_mines(page: Page, saved: dict | None = None, seed: int | None = None) -> None:
    """Open #mines once, with ``saved`` (or a fresh run of ``seed``) as the run this
    browser holds; wait until the page has resumed it. Later reloads keep the storage."""
    if seed is not None:
        saved = PlayedRun(seed).save()
    progress = {"format": "gridforge.progress/1", "snakes": {"done": {}, "open": 1},
                "mines": {"run": saved}}
    page.add_init_script(
        "if (!sessionStorage.getItem('mines-test-seeded')) {"
        f" localStorage.setItem('gridforge.progress', {json.dumps(json.dumps(progress))});"
        " sessionStorage.setItem('mines-test-seeded', '1'); }")
    page.goto("/#mines")
    page.evaluate("() => window.gridforge.ready")
    settle(page)
    if saved is not None:
        expect(page.get_by_test_id("app-message")).to_contain_text("back where you left it")


def fresh(page: Page) -> None:
    """The run is at its start."""
    expect(page.get_by_test_id("mines-battle")).to_have_text("Battle 1/5")
    expect(page.get_by_test_id("mines-ledger")).to_contain_text("AP 8/8")


def cell(page: Page, x: int | str, y: int | str):
    return page.locator(f'[data-testid="mines-cell"][data-x="{x}"][data-y="{y}"]')


def xy(locator) -> tuple[int, int]:
    return int(locator.get_attribute("data-x")), int(locator.get_attribute("data-y"))


def avatar(page: Page) -> tuple[int, int]:
    cells = page.locator('[data-testid="mines-cell"][data-avatar="1"]')
    expect(cells).to_have_count(1)
    return xy(cells)


def saved_run(seed: int, battle: int, fog_opened: bool = False) -> tuple[dict, PlayedRun]:
    """A run of the shipped table played by the deducing bot (first offer taken) to the
    first round of ``battle`` (1-based; with ``fog_opened``, on until a fog cell is open)."""
    import random

    rng = random.Random(seed)
    run = PlayedRun(seed, load_run_table())
    for _ in range(5000):
        engine = run.session.engine
        if run.status == "playing" and run.battle_index + 1 >= battle and (
                not fog_opened or any(engine.board.variant_ids(c) for c in engine.opened)):
            return run.save(), run
        if run.status == "settled":
            if run.run.offers:  # as the greedy bot plays: the first offer (issue 51)
                run._input("pick", choice=run.run.offers[0])
            run.continue_run()
        elif run.status != "playing":
            break
        else:
            deducing(run, rng)
    pytest.fail(f"seed {seed} did not reach battle {battle}")


def mine_total_shown(page: Page) -> int:
    text = page.get_by_test_id("mines-count").inner_text()
    match = re.match(r"Mines (\d+) · left (-?\d+)", text)
    assert match, text
    return int(match.group(1))


def ask_hint(page: Page, device: Device | None = None):
    """Press Hint; the hinted cell (or None) and its kind, as drawn on the board."""
    button = page.get_by_test_id("mines-hint")
    if device is None:
        button.click()
    else:
        device.primary(button)
    settle(page)
    target = page.locator('[data-testid="mines-cell"].hint-target')
    if target.count() == 0:
        return None, None
    return cell(page, *xy(target)), target.get_attribute("data-hint")


def ground_beside(page: Page, target) -> tuple[int, int] | None:
    """An opened cell beside ``target`` the avatar can move to (or stands on), or None: a
    mine proved by the mine total alone may have none yet (issue 45's denser boards)."""
    tx, ty = xy(target)
    ax, ay = avatar(page)
    if max(abs(ax - tx), abs(ay - ty)) <= 1:
        return ax, ay
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            near = cell(page, tx + dx, ty + dy)
            if near.count() and near.get_attribute("data-do") == "move":
                return tx + dx, ty + dy
    return None


def stand_beside(page: Page, device: Device, target) -> None:
    """Walk next to ``target`` over opened ground (a click on an opened neighbour)."""
    spot = ground_beside(page, target)
    if spot is None:
        raise AssertionError(f"no opened ground beside {xy(target)}")
    if spot != avatar(page):
        device.primary(cell(page, *spot))
        settle(page)
        assert avatar(page) == spot


def walk_beside_concealed(page: Page, device: Device) -> None:
    """Click opened ground that borders a concealed cell: the avatar then stands beside it."""
    if page.locator('[data-testid="mines-cell"].reach').count():
        return
    spot = page.evaluate("""() => {
      const at = (x, y) => document.querySelector(
        `[data-testid=mines-cell][data-x="${x}"][data-y="${y}"]`);
      for (const c of document.querySelectorAll('[data-testid=mines-cell][data-do=move]')) {
        const x = Number(c.dataset.x), y = Number(c.dataset.y);
        for (const [dx, dy] of [[-1,-1],[0,-1],[1,-1],[-1,0],[1,0],[-1,1],[0,1],[1,1]]) {
          const n = at(x + dx, y + dy);
          if (n && n.dataset.state.startsWith("concealed")) return [x, y];
        }
      }
      return null;
    }""")
    assert spot is not None, "no opened ground borders a concealed cell"
    device.primary(cell(page, *spot))
    settle(page)
    expect(page.locator('[data-testid="mines-cell"].reach').first).to_be_visible()


def deduced(page: Page):
    """What a careful player works out on the board now (a hint costs since issue 21, so
    the player deduces: the solver on the page's own saved run, replayed here): the proved
    cell's locator (or None) and its kind."""
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('gridforge.progress'))")
    proof = replay(saved["mines"]["run"]).proved_next()
    if proof["cell"] is None or not proof["reachable"]:
        return None, None
    return cell(page, *proof["cell"]), proof["kind"]


def one_deducing_input(page: Page, device: Device) -> None:
    """What a careful player does next: continue after a settlement, else do what logic
    proves (dig a proved safe cell, flag a proved mine), else dig what the board offers."""
    if page.get_by_test_id("mines-continue").is_visible():
        device.primary(page.get_by_test_id("mines-continue"))
        settle(page)
        return
    target, kind = deduced(page)
    if target is not None and kind == "safe" and target.get_attribute("data-do") != "none":
        device.primary(target)
    elif (target is not None and kind == "mine" and target.get_attribute("data-state") != "flag"
          and ground_beside(page, target) is not None):
        stand_beside(page, device, target)
        device.secondary(target)
    else:
        offered = page.locator('[data-testid="mines-cell"]:is([data-do="dig"], [data-do="reach"])')
        device.primary(offered.first)
    settle(page)


# ---------------------------------------------------------------------------- what must hold
def test_a_battle_is_won_through_the_page(device: Device):
    page = device.page
    open_mines(page, seed=11)
    fresh(page)
    totals = {mine_total_shown(page)}
    for _ in range(MAX_INPUTS):
        if page.get_by_test_id("mines-battle-summary").is_visible():
            break
        one_deducing_input(page, device)
        totals.add(mine_total_shown(page))  # the mine total is on every board
    expect(page.get_by_test_id("mines-battle-summary")).to_contain_text("Battle 1 won")
    expect(page.get_by_test_id("mines-settlement-title")).to_contain_text("Enemy defeated")
    device.primary(page.get_by_test_id("mines-continue"))
    settle(page)
    expect(page.get_by_test_id("mines-battle")).to_have_text("Battle 2/5")
    table = load_run_table()
    # each battle's boards carry its preset's mines (battle 1 10, battle 2 16 since issue 45)
    assert mine_total_shown(page) == preset(table.battles[1].preset).mine_count
    assert preset(table.battles[0].preset).mine_count in totals


def test_a_loss_ends_on_a_loss_screen_and_a_new_run_starts_from_it(device: Device):
    page = device.page
    open_mines(page, seed=4)
    fresh(page)
    stop_until_lost(device)  # the enemy strikes each round
    end = page.get_by_test_id("mines-end")
    expect(end).to_have_attribute("data-result", "lost")
    expect(end).to_contain_text("You fell in battle 1")
    full = load_run_table().player_hp
    expect(page.get_by_test_id("mines-player")).to_contain_text(f"You 0/{full} HP")
    # the board says the round is over, not "continue": nothing is offered
    expect(page.locator('[data-testid="mines-cell"]:not([data-do="none"])')).to_have_count(0)
    # The home screen (another tab of the same browser) says how the run ended.
    home = page.context.new_page()
    home.goto(page.url.split("#")[0] + "#home")
    expect(home.get_by_test_id("home-mines-place")).to_have_text("Last run lost in battle 1 of 5")
    expect(home.get_by_test_id("home-mines-go")).to_have_text("New run")
    home.close()
    device.primary(page.get_by_test_id("mines-end-new-run"))
    settle(page)
    expect(page.get_by_test_id("mines-end")).to_be_hidden()
    expect(page.get_by_test_id("mines-player")).to_contain_text(f"You {full}/{full} HP")
    expect(page.get_by_test_id("mines-battle")).to_have_text("Battle 1/5")
    expect(page.locator('[data-testid="mines-cell"][data-do="reach"]').first).to_be_visible()
    page.evaluate("() => { location.hash = '#home'; }")
    expect(page.get_by_test_id("home-mines-place")).to_have_text(
        "A run is in progress: battle 1 of 5")
    expect(page.get_by_test_id("home-mines-go")).to_have_text("Resume")


def board_picture(page: Page) -> list:
    return page.locator('[data-testid="mines-cell"]').evaluate_all(
        "cells => cells.map(c => [c.dataset.x, c.dataset.y, c.dataset.state, c.textContent,"
        " c.dataset.avatar || ''])")


def test_a_reload_mid_round_resumes_the_same_board_ap_flags_and_hp(device: Device):
    page = device.page
    open_mines(page, seed=12)
    fresh(page)
    stop_round(device)  # a settled round: HP moves
    settle(page)
    device.primary(page.get_by_test_id("mines-continue"))
    settle(page)
    walk_beside_concealed(page, device)
    flag = cell(page, *xy(page.locator('[data-testid="mines-cell"].reach').first))
    device.secondary(flag)
    settle(page)
    expect(flag).to_have_attribute("data-state", "flag")
    before = {name: page.get_by_test_id(name).inner_text()
              for name in ("mines-battle", "mines-enemy", "mines-player", "mines-ledger",
                           "mines-count")}
    table = load_run_table()
    struck = table.player_hp - table.battles[0].attack
    assert f"You {struck}/{table.player_hp} HP" in before["mines-player"]  # struck once
    picture = board_picture(page)
    log = page.get_by_test_id("mines-log").locator("li").all_inner_texts()
    assert len(log) >= 2
    page.reload()
    page.evaluate("() => window.gridforge.ready")
    settle(page)
    after = {name: page.get_by_test_id(name).inner_text() for name in before}
    assert after == before
    assert board_picture(page) == picture
    # the event log is back as it was, newest line first
    expect(page.get_by_test_id("mines-log").locator("li")).to_have_count(len(log))
    assert page.get_by_test_id("mines-log").locator("li").all_inner_texts() == log
    expect(page.get_by_test_id("app-message")).to_contain_text("back where you left it")


def test_no_text_and_no_view_value_shows_a_digit_for_an_opened_fog_cell(device: Device):
    page = device.page
    saved, _ = saved_run(seed=3, battle=3, fog_opened=True)
    open_mines(page, saved)
    expect(page.get_by_test_id("mines-battle")).to_have_text("Battle 3/5")
    assert check_no_fog_digit(page) > 0  # fog cells are open on this board
    for _ in range(6):  # play on: more fog may open, a new board may come
        one_deducing_input(page, device)
        check_no_fog_digit(page)


def check_no_fog_digit(page: Page) -> int:
    """Check the view JSON, the board and every text on the page; the opened fog cells."""
    run_id = page.locator("section.mines").get_attribute("data-run")
    state = page.evaluate("(id) => window.gridforge.call('gridforge.mines.page.run_state', id)",
                          run_id)
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('gridforge.progress'))")
    run = replay(saved["mines"]["run"])  # the same run in this process: where the fog is
    board = run.session.engine.board
    if board is None:
        return 0
    fog = {c: board.digit(c) for c in _fog_cells(board)}
    opened = [c for c in fog if run.session.engine.is_open(c)]
    for x, y in opened:
        assert state["board"]["grid"][y][x] == "open-fog"
        node = cell(page, x, y)
        expect(node).to_have_attribute("data-state", "open-fog")
        assert node.inner_text().strip() == ""
        assert not re.search(r"\d", node.get_attribute("title") or "")
    text = page.locator("body").inner_text()
    for (x, y), digit in fog.items():
        assert not re.search(rf"[\[(]{x}, {y}[\])](:| shows) {digit}\b", text)
    return len(opened)


def _fog_cells(board):
    return [(x, y) for x, y in board.to_json()["variants"].get("fog", [])]


def replay(saved: dict) -> PlayedRun:
    return replay_saved(saved)


def test_a_flag_on_the_hinted_mine_moves_the_next_hint_to_another_cell(device: Device):
    page = device.page
    open_mines(page, seed=3)
    fresh(page)
    for _ in range(60):
        target, kind = ask_hint(page, device)
        assert target is not None
        if kind == "mine":
            break
        device.primary(target)
        settle(page)
        if page.get_by_test_id("mines-continue").is_visible():
            device.primary(page.get_by_test_id("mines-continue"))
            settle(page)
    assert kind == "mine"
    hinted = xy(target)
    stand_beside(page, device, target)
    device.secondary(cell(page, *hinted))
    settle(page)
    expect(cell(page, *hinted)).to_have_attribute("data-state", "flag")
    target, kind = ask_hint(page, device)
    assert target is not None and xy(target) != hinted
    expect(page.get_by_test_id("mines-hint-text")).to_be_visible()
    expect(page.locator('[data-testid="mines-cell"].hint-digit').first).to_be_visible()


def test_the_avatars_cell_carries_data_avatar_after_every_move(device: Device):
    page = device.page
    open_mines(page, seed=8)
    fresh(page)
    moved = 0
    for k in range(8):
        moves = page.locator('[data-testid="mines-cell"][data-do="move"]')
        target = moves.nth((k * 7) % moves.count())
        where = xy(target)
        device.primary(target)  # the pointer then rests on the avatar's new cell
        settle(page)
        expect(cell(page, *where)).to_have_attribute("data-avatar", "1")
        assert avatar(page) == where
        moved += 1
        if k % 3 == 2:  # a far click moves too
            far = page.locator('[data-testid="mines-cell"][data-do="reach"]').first
            fx, fy = xy(far)
            device.primary(far)
            settle(page)
            ax, ay = avatar(page)
            assert max(abs(ax - fx), abs(ay - fy)) == 1
        if page.get_by_test_id("mines-continue").is_visible():
            device.primary(page.get_by_test_id("mines-continue"))
            settle(page)
    assert moved == 8


def test_a_far_click_moves_beside_the_cell_and_digs_it(device: Device):
    page = device.page
    open_mines(page, seed=3)
    fresh(page)
    far = page.locator('[data-testid="mines-cell"][data-do="reach"]').first
    fx, fy = xy(far)
    start = avatar(page)
    assert max(abs(start[0] - fx), abs(start[1] - fy)) > 1
    device.primary(far)
    settle(page)
    target = cell(page, fx, fy)
    expect(target).not_to_have_attribute("data-state", re.compile("concealed"))
    ax, ay = avatar(page)
    assert max(abs(ax - fx), abs(ay - fy)) == 1
    expect(page.get_by_test_id("mines-ledger")).to_contain_text("AP 7/8")
    # the message names no coordinates (issue 21): the board shows where
    expect(page.get_by_test_id("app-message")).to_contain_text(
        re.compile(r"Dug a safe cell|Ambush! That cell was a mine"))
    # a far cell with no ground beside it: the refusal is shown, nothing is spent
    lonely = page.locator('[data-testid="mines-cell"][data-state="concealed"][data-do="none"]')
    if lonely.count():
        device.primary(lonely.first)
        settle(page)
        expect(page.get_by_test_id("app-message")).to_contain_text("No opened ground")
        expect(page.get_by_test_id("mines-ledger")).to_contain_text("AP 7/8")


def test_a_long_press_flags_and_the_flag_mode_toggle_flags(phone: Device):
    page = phone.page
    open_mines(page, seed=3)
    fresh(page)
    walk_beside_concealed(page, phone)
    where = xy(page.locator('[data-testid="mines-cell"].reach').first)
    first = cell(page, *where)
    phone.secondary(first)  # a long press
    settle(page)
    expect(cell(page, *where)).to_have_attribute("data-state", "flag")
    expect(page.get_by_test_id("mines-ledger")).to_contain_text("AP 7/8")
    toggle = page.get_by_test_id("mines-flag-mode")
    phone.primary(toggle)
    expect(toggle).to_have_attribute("aria-pressed", "true")
    phone.primary(cell(page, *where))  # a tap in flag mode pulls the flag again
    settle(page)
    expect(cell(page, *where)).not_to_have_attribute("data-state", "flag")
    phone.primary(toggle)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_test_id("mines-ledger")).to_contain_text("AP 6/8")


def test_a_battle_played_with_the_keyboard_alone(desk: Page):
    page = desk
    open_mines(page)
    page.get_by_test_id("mines-seed").fill("11")
    page.get_by_test_id("mines-seed").press("Enter")
    page.keyboard.press("Tab")  # the New run button
    page.keyboard.press("Enter")
    # a run is in progress: New run asks first (issue 51), focus on Keep playing
    expect(page.get_by_test_id("mines-new-run-cancel")).to_be_focused()
    page.keyboard.press("Shift+Tab")  # Discard and start anew
    page.keyboard.press("Enter")
    settle(page)
    expect(page.get_by_test_id("mines-battle")).to_have_text("Battle 1/5")
    board = page.get_by_test_id("mines-board")
    for _ in range(30):
        if board.evaluate("b => b === document.activeElement"):
            break
        page.keyboard.press("Tab")
    assert board.evaluate("b => b === document.activeElement")

    def cursor_to(x: int, y: int) -> None:
        cx, cy = (int(v) for v in board.get_attribute("data-focus").split(","))
        keys = (["ArrowRight"] * (x - cx) + ["ArrowLeft"] * (cx - x)
                + ["ArrowDown"] * (y - cy) + ["ArrowUp"] * (cy - y))
        for name in keys:
            page.keyboard.press(name)
        expect(board).to_have_attribute("data-focus", f"{x},{y}")

    for _ in range(MAX_INPUTS):
        if page.get_by_test_id("mines-battle-summary").is_visible():
            break
        if page.get_by_test_id("mines-continue").is_visible():
            page.keyboard.press("Enter")
        else:
            page.keyboard.press("h")  # a hint while the stock lasts; then the player deduces
            settle(page)
            target = page.locator('[data-testid="mines-cell"].hint-target')
            kind = target.get_attribute("data-hint") if target.count() else None
            if kind is None:
                target, kind = deduced(page)
            if kind == "safe" and target.get_attribute("data-do") != "none":
                cursor_to(*xy(target))
                page.keyboard.press("Space")
            elif (kind == "mine" and target.get_attribute("data-state") != "flag"
                  and ground_beside(page, target) is not None):
                tx, ty = xy(target)
                near = ground_beside(page, target)
                if near != avatar(page):
                    cursor_to(*near)
                    page.keyboard.press("Enter")
                    settle(page)
                cursor_to(tx, ty)
                page.keyboard.press("f")
            else:
                offered = page.locator(
                    '[data-testid="mines-cell"]:is([data-do="dig"], [data-do="reach"])').first
                cursor_to(*xy(offered))
                page.keyboard.press("Space")
        settle(page)
        assert board.evaluate("b => b === document.activeElement")  # focus stays
    expect(page.get_by_test_id("mines-battle-summary")).to_contain_text("Battle 1 won")
    page.keyboard.press("Enter")
    settle(page)
    expect(page.get_by_test_id("mines-battle")).to_have_text("Battle 2/5")
    page.keyboard.press("s")  # Stop asks first: End the round is one Shift+Tab away
    expect(page.get_by_test_id("mines-stop-cancel")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    settle(page)
    expect(page.get_by_test_id("mines-settlement-title")).to_contain_text("you stopped")


def no_sideways_scroll(page: Page) -> None:
    widths = page.evaluate("() => [document.scrollingElement.scrollWidth, "
                           "document.scrollingElement.clientWidth, "
                           "document.querySelector('[data-testid=mines-board]')"
                           ".getBoundingClientRect().right]")
    assert widths[0] <= widths[1] and widths[2] <= PHONE["width"], widths


@pytest.mark.parametrize("battle", [1, 2, 3, 4, 5])
def test_no_sideways_scroll_at_390_for_every_battle_preset(phone: Device, battle: int):
    page = phone.page
    saved, run = saved_run(seed=battle + 20, battle=battle)
    open_mines(page, saved)
    expect(page.get_by_test_id("mines-battle")).to_have_text(f"Battle {battle}/5")
    board = run.session.engine.board
    expect(page.get_by_test_id("mines-board")).to_have_attribute("data-cols", str(board.cols))
    assert mine_total_shown(page) == len(board.mines)
    no_sideways_scroll(page)
    stop_round(phone)
    settle(page)
    # the round's end (or, with the last HP struck away in battle 5, the run's)
    ended = '[data-testid="mines-settlement"], [data-testid="mines-end"]'
    expect(page.locator(ended)).to_be_visible()
    no_sideways_scroll(page)
    if page.get_by_test_id("mines-end").is_visible():
        return  # the run's end screen stands over the page: its stats are its numbers
    page.locator("summary").filter(has_text="Stats").click()
    page.locator("summary").filter(has_text="Playtest telemetry").click()
    expect(page.get_by_test_id("mines-stats-friction")).to_contain_text("Input actions per AP")
    no_sideways_scroll(page)


def test_the_stats_panel_exports_the_telemetry_as_json(desk: Page):
    page = desk
    open_mines(page, seed=3)
    fresh(page)
    page.locator('[data-testid="mines-cell"][data-do="reach"]').first.click()
    settle(page)
    # a flag on opened ground is refused: it changed nothing, so it is no step of the run
    # and not counted either (issue 54: a resumed run counts what its save replays)
    page.locator('[data-testid="mines-cell"][data-state="open"]').first.click(button="right")
    settle(page)
    expect(page.get_by_test_id("error")).not_to_be_empty()
    page.locator("summary").filter(has_text="Stats").click()
    page.locator("summary").filter(has_text="Playtest telemetry").click()
    expect(page.get_by_test_id("mines-stats-friction")).to_contain_text("Input actions per AP "
                                                                        "spent: 1")
    expect(page.get_by_test_id("mines-stats-body")).to_contain_text("Refusals by reason: none")
    assert "_" not in page.get_by_test_id("mines-stats-body").inner_text()
    with page.expect_download() as info:
        page.get_by_test_id("mines-stats-export").click()
    data = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert data["format"] == "gridforge.mines.telemetry/1" and data["seed"] == 3
    assert data["rounds"][0]["input_actions"] == 1 and data["rounds"][0]["batches"] == 2
