"""Sound, vibration and the boards' live regions (issue 22), played as a person plays: real
clicks, right clicks and keys. A step, a dig and a refusal each add a line to the board's
polite live region (``app-live``); with sound on, what the games' answers say happened
creates Web Audio nodes (counted by the test hook ``window.gridforge.sound``, feel.js); with
sound off, none; before the page's first user gesture no AudioContext exists, even when an
action was made by a script's (untrusted) events. Tests wait on page states, never on time.
"""

from __future__ import annotations

import json
import re
from typing import Any

from gridforge.mines.run import Run
from playwright.sync_api import Browser, Page, expect

from .conftest import ROOT, open_page, wait_idle
from .snakes_helpers import (
    ARROWS,
    board,
    focus_end,
    mainline,
    play_by_keys,
    set_progress,
    wait_level,
)
from .test_mines import cell, open_mines, settle

DESK = {"width": 1280, "height": 800}
# Counts every AudioContext the page makes, whoever makes it (the hook counts its own too).
COUNT_CONTEXTS = """(() => {
  window.__audioContexts = 0;
  const Real = window.AudioContext;
  if (!Real) return;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.__audioContexts += 1; }
  };
})();"""


def sound(page: Page) -> dict[str, Any]:
    """The sound hook now: contexts, nodes, nodes per kind, vibrations by kind, gesture."""
    return page.evaluate("""() => {
      const s = window.gridforge.sound;
      return { contexts: s.contexts, made: window.__audioContexts, nodes: s.nodes,
               counts: { ...s.counts }, vibrations: s.vibrations.map((v) => v.kind),
               gestured: s.gestured };
    }""")


def wait_sound(page: Page, kind: str) -> dict[str, Any]:
    """Wait until a sound of ``kind`` has made its nodes; the hook then."""
    page.wait_for_function("(k) => (window.gridforge.sound.counts[k] || 0) > 0", arg=kind)
    return sound(page)


def live(page: Page):
    return page.get_by_test_id("app-live")


def lines(page: Page) -> list[str]:
    return live(page).locator("p").all_text_contents()


# A run whose first board offers a chain at its start (issue 45's denser boards: seed 3's
# no longer does).
CHAIN_SEED = 4


def chain_cell(seed: int) -> tuple[int, int, int]:
    """A cell the run of ``seed`` offers at its start whose click opens a chain (no mine):
    its x, y and the chain's size (Python's run, the same one the page plays)."""
    offer = Run(seed).to_json()["offer"]
    for x, y, *_ in offer["dig"] + offer["reach"]:
        events = Run(seed).primary((x, y))["events"]
        chain = sum(e["type"] == "cell_revealed" and e["channel"] == "chain" for e in events)
        if chain and not any(e.get("kind") == "mine" for e in events):
            return x, y, chain
    raise AssertionError(f"seed {seed} offers no chain at its start: the test needs another")


def within_reach(page: Page):
    """A concealed cell next to the avatar (the page offers to dig it), by its place."""
    offered = page.locator('[data-testid="mines-cell"][data-do="dig"]').first
    expect(offered).to_be_attached()
    return cell(page, offered.get_attribute("data-x"), offered.get_attribute("data-y"))


def test_the_live_region_is_polite_and_bounded(browser: Browser, base_url: str):
    with open_page(browser, base_url, viewport=DESK) as page:
        open_mines(page, seed=3)
        region = live(page)
        expect(region).to_have_attribute("aria-live", "polite")
        expect(region).to_have_attribute("role", "log")
        assert lines(page) == []
        # walk over opened ground (free): each move says so; the region keeps the last five
        for count in range(1, 8):
            page.locator('[data-testid="mines-cell"][data-do="move"]:not([data-avatar])'
                         ).first.click()
            settle(page)
            assert lines(page) == ["Moved."] * min(count, 5)


def test_no_audio_before_a_gesture_then_a_dig_sounds(browser: Browser, base_url: str):
    x, y, size = chain_cell(CHAIN_SEED)
    with open_page(browser, base_url, viewport=DESK) as page:
        page.add_init_script(COUNT_CONTEXTS)
        open_mines(page, seed=CHAIN_SEED)
        assert sound(page)["gestured"] is False
        # A script's made-up press digs (the page takes it) but is no user gesture: silent.
        page.evaluate("""([x, y]) => {
          const target = document.querySelector(
            `[data-testid="mines-cell"][data-x="${x}"][data-y="${y}"]`);
          const box = target.getBoundingClientRect();
          const at = { bubbles: true, pointerId: 7, pointerType: "mouse", button: 0,
                       clientX: box.x + box.width / 2, clientY: box.y + box.height / 2 };
          target.dispatchEvent(new PointerEvent("pointerdown", at));
          target.dispatchEvent(new PointerEvent("pointerup", at));
        }""", [x, y])
        settle(page)
        expect(cell(page, x, y)).not_to_have_attribute("data-state", re.compile("concealed"))
        expect(live(page)).to_contain_text(f"The chain opened {size} more cells.")
        assert sound(page) == {"contexts": 0, "made": 0, "nodes": 0, "counts": {},
                               "vibrations": [], "gestured": False}
        # A real click on the next cell to dig: a gesture, and the dig sounds.
        before = len(lines(page))
        within_reach(page).click()
        settle(page)
        assert len(lines(page)) > before
        assert re.match(r"Dug(: | a )", lines(page)[before])
        page.wait_for_function("() => window.gridforge.sound.nodes > 0")
        heard = sound(page)
        assert heard["gestured"] and heard["contexts"] == 1 and heard["made"] == 1
        assert heard["counts"].get("dig", 0) + heard["counts"].get("mine", 0) > 0
        assert page.page_errors == []  # type: ignore[attr-defined]


def test_mines_events_sound_with_sound_on(browser: Browser, base_url: str):
    x, y, size = chain_cell(CHAIN_SEED)
    with open_page(browser, base_url, viewport=DESK) as page:
        open_mines(page, seed=CHAIN_SEED)
        cell(page, x, y).click()  # walks beside it and digs it: a dig and its chain
        settle(page)
        expect(live(page)).to_contain_text(f"The chain opened {size} more cells.")
        heard = wait_sound(page, "chain")
        assert heard["counts"]["dig"] > 0
        chain = page.evaluate("() => window.gridforge.sound.log.find((e) => e.kind === 'chain')")
        assert chain["size"] == size and chain["nodes"] > heard["counts"]["dig"]  # longer
        # a flag (right click on a cell within reach), then the round's end (Stop)
        target = within_reach(page)
        target.click(button="right")
        expect(target).to_have_attribute("data-state", "flag")
        expect(live(page)).to_contain_text("Flag placed.")
        wait_sound(page, "flag")
        page.get_by_test_id("mines-stop").click()
        page.get_by_test_id("mines-stop-confirm").click()  # Stop asks first (issue 45)
        settle(page)
        expect(live(page)).to_contain_text("Round over:")
        heard = wait_sound(page, "round_end")
        assert heard["contexts"] == 1
        assert page.page_errors == []  # type: ignore[attr-defined]


def test_with_sound_and_vibration_off_nothing_sounds_or_buzzes(browser: Browser, base_url: str):
    x, y, size = chain_cell(CHAIN_SEED)
    with open_page(browser, base_url, viewport=DESK) as page:
        page.add_init_script(COUNT_CONTEXTS)
        open_mines(page, seed=CHAIN_SEED)
        page.get_by_test_id("screen-settings").click()
        page.get_by_test_id("setting-sound").set_checked(False)
        page.get_by_test_id("setting-vibration").set_checked(False)
        expect(page.get_by_test_id("setting-volume")).to_be_disabled()
        saved = json.loads(page.evaluate("() => localStorage.getItem('gridforge.settings')"))
        assert saved["sound"] is False and saved["vibration"] is False
        page.get_by_test_id("screen-mines").click()
        expect(page.locator("section.mines[data-run]")).to_have_count(1)
        settle(page)
        cell(page, x, y).click()
        settle(page)
        expect(live(page)).to_contain_text(f"The chain opened {size} more cells.")
        within_reach(page).click(button="right")
        expect(live(page)).to_contain_text("Flag placed.")
        # the cues would have run in a task after the answer: one more answer drawn is after
        page.get_by_test_id("mines-stop").click()
        page.get_by_test_id("mines-stop-confirm").click()  # Stop asks first (issue 45)
        settle(page)
        expect(live(page)).to_contain_text("Round over:")
        page.evaluate("() => new Promise((done) => setTimeout(done, 0))")  # the cues' task
        quiet = sound(page)
        assert quiet["gestured"] is True
        assert (quiet["contexts"], quiet["made"], quiet["nodes"], quiet["counts"],
                quiet["vibrations"]) == (0, 0, 0, {}, [])


# ---------------------------------------------------------------------------- snakes
def open_level(page: Page, n: int) -> None:
    """Level ``n`` open and ready, from saved progress that unlocks it."""
    page.goto("/")
    page.evaluate("() => window.gridforge.ready")
    wait_idle(page)
    set_progress(page, {"format": "gridforge.progress/1", "snakes": {"done": {}, "open": n},
                        "mines": {"run": None}})
    page.goto(f"/#snakes/level/{n}")
    page.reload()
    wait_level(page, n)


def focus_board(page: Page) -> None:
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.dataset?.testid") == "snakes-board":
            return
    raise AssertionError("Tab never reached the board")


def block_of(n: int) -> dict[str, Any]:
    """The shipped block of 25 levels holding level ``n``."""
    first = (n - 1) // 25 * 25 + 1
    name = f"main-{first:04d}-{first + 24:04d}.json"
    return json.loads((ROOT / "pkg" / "gridforge" / "snakes" / "data" / name).read_text())


def test_a_step_and_a_refusal_add_lines_and_a_level_s_steps_exits_and_win_sound(
    browser: Browser, base_url: str
):
    block = mainline()
    level = block["levels"][0]
    steps = block["certificates"][0]["solution"]
    with open_page(browser, base_url, viewport=DESK) as page:
        open_level(page, 1)
        focus_board(page)
        colours = ["red", "blue", "green", "yellow", "violet", "orange", "cyan", "pink",
                   "brown", "black"]
        # N picks an end: the region says which
        page.keyboard.press("n")
        expect(board(page)).to_have_attribute("data-focus", re.compile(r"^\d+:(head|tail)$"))
        picked, picked_end = (board(page).get_attribute("data-focus") or "").split(":")
        expect(live(page).locator("p").last).to_have_text(
            f"Picked the {colours[level['bodies'][int(picked)]['colors'][0]]} body's "
            f"{picked_end}.")
        body, end, direction = steps[0]
        colour = colours[level["bodies"][body]["colors"][0]]
        words = {"U": "up", "D": "down", "L": "left", "R": "right"}[direction]
        play_by_keys(page, [steps[0]])
        expect(board(page)).to_have_attribute("data-steps", "1")
        expect(live(page).locator("p").last).to_have_text(
            f"The {colour} body's {end} moved {words}; 1 step.")
        wait_sound(page, "step")
        # a refusal: the focused end pushed into a stone or off the board
        stones = {tuple(c) for c in level["stones"]}
        cols, rows = level["cols"], level["rows"]
        refused = None
        for b in range(len(level["bodies"])):
            for e in ("head", "tail"):
                node = page.locator(f'[data-testid="snakes-end"][data-body="{b}"][data-end="{e}"]')
                if not node.count():
                    continue
                x, y = (int(v) for v in (node.get_attribute("data-cell") or "").split(","))
                for d, (dx, dy) in {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}.items():
                    nx, ny = x + dx, y + dy
                    if (nx, ny) in stones or not (0 <= nx < cols and 0 <= ny < rows):
                        refused = (b, e, d)
                        break
                if refused:
                    break
            if refused:
                break
        assert refused, "level 1 has no end beside a stone or the edge: the test needs another"
        focus_end(page, refused[0], refused[1])
        page.keyboard.press(ARROWS[refused[2]])
        expect(live(page).locator("p").last).to_have_text(re.compile(r"^Refused: the target is "))
        assert len(lines(page)) <= 5
        expect(board(page)).to_have_attribute("data-steps", "1")
        # the rest of the level: its exits and its win are heard and said
        play_by_keys(page, steps[1:])
        expect(page.get_by_test_id("snakes-win")).to_be_visible()
        expect(live(page).locator("p").last).to_have_text(
            f"Level complete in {len(steps)} steps.")
        expect(live(page)).to_contain_text("left the board")
        wait_sound(page, "exit")
        wait_sound(page, "won")
        assert page.page_errors == []  # type: ignore[attr-defined]


def test_a_thaw_and_an_unlock_are_said_and_heard(browser: Browser, base_url: str):
    from gridforge.snakes import page as snakes_page

    for n, kind, said in ((18, "thaw", "has thawed"), (30, "unlock", "lock of the")):
        block = block_of(n)
        level = block["levels"][(n - 1) % 25]
        steps = block["certificates"][(n - 1) % 25]["solution"]
        # the step that thaws or unlocks, as Python's own play of the solution says
        session = snakes_page.open(level)["id"]
        at = next(i for i, step in enumerate(steps, start=1)
                  if any(e["type"] == kind for e in
                         snakes_page.act(session, {"do": "step", "step": step})["events"]))
        snakes_page.close(session)
        with open_page(browser, base_url, viewport=DESK) as page:
            open_level(page, n)
            focus_board(page)
            play_by_keys(page, steps[:at])
            expect(board(page)).to_have_attribute("data-steps", str(at))
            expect(live(page)).to_contain_text(said)
            wait_sound(page, kind)
            play_by_keys(page, steps[at:])
            expect(page.get_by_test_id("snakes-win")).to_be_visible()
            wait_sound(page, "won")
            assert page.page_errors == []  # type: ignore[attr-defined]
