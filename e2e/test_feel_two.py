"""Feel, round two (issue 52), measured through the page on a 390x844 phone with touch (and a
desktop where it says so): a navigation bar whose every tab and status show whole in both
languages; play screens and lessons that never scroll; the win's celebration and the way on;
shared levels that arrive verified; boards that follow the dark theme; readable badges.
One served site and one browser for the module (conftest's session fixtures)."""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import open_page, wait_idle
from .snakes_helpers import (
    DEVICES,
    focus_end,
    goto_ready,
    mainline,
    play_solution_by_dragging,
    set_progress,
    site_levels,
    wait_level,
)
from .test_editor import pick, tap
from .test_terrain import share_code

PHONE = DEVICES["phone"]
ALL_OPEN = {"format": "gridforge.progress/1", "snakes": {"done": {}, "open": 2000},
            "mines": {"run": None}}
LESSON_LEVELS = [*range(1, 12), 12, 18, 24, 30, 36]

# Every element of the top bar that shows text, with what of it is cut or outside the screen.
CLIPPED_BAR = """() => {
  const width = document.documentElement.clientWidth;
  const items = [...document.querySelectorAll(
    'nav[data-testid="screens"] a, [data-testid="status"], .brand')];
  return items.filter((node) => node.getClientRects().length).map((node) => {
    const box = node.getBoundingClientRect();
    return { text: node.textContent, cut: node.scrollWidth > node.clientWidth + 0.5 ||
      node.scrollHeight > node.clientHeight + 0.5, out: box.left < 0 || box.right > width + 0.5,
      height: box.height, top: box.top };
  });
}"""
# WCAG's relative luminance of a CSS colour ("rgb(...)" or "#rrggbb"), as a JS function.
LUMINANCE = """const luminance = (css) => {
  const hex = /^#([0-9a-f]{6})$/i.exec(css.trim());
  const parts = hex ? [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16))
    : css.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const [r, g, b] = parts.map((v) => { v /= 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};"""
# How far the page itself scrolls, up and down and sideways (0 when it fits the screen).
PAGE_SCROLL = """() => ({ down: document.documentElement.scrollHeight - window.innerHeight,
  across: document.documentElement.scrollWidth - document.documentElement.clientWidth })"""


@contextmanager
def phone(browser: Browser, base_url: str, language: str = "en",
          **options: Any) -> Iterator[Page]:
    """A 390x844 touch page in ``language`` with every main-line level open."""
    with open_page(browser, base_url, service_workers="block", locale=language,
                   **{**PHONE, **options}) as page:
        goto_ready(page)
        set_progress(page, ALL_OPEN)
        yield page


def go_level(page: Page, n: int) -> None:
    """Level ``n`` by its route (Python stays loaded)."""
    page.evaluate("(n) => { location.hash = `#snakes/level/${n}`; }", n)
    wait_level(page, n)


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_phone_bar_shows_every_tab_and_the_status_whole(
        browser: Browser, base_url: str, language: str):
    with phone(browser, base_url, language) as page:
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready")
        for fragment in ["#home", "#snakes", "#snakes/level/1", "#editor", "#rules", "#settings"]:
            page.evaluate("(f) => { location.hash = f; }", fragment)
            wait_idle(page)
            items = page.evaluate(CLIPPED_BAR)
            assert len(items) >= 7, items  # six tabs, the brand and the status
            bad = [i for i in items if i["cut"] or i["out"]]
            assert not bad, f"{fragment}: {bad}"
        # The developer's Console tab fits too.
        page.get_by_test_id("screen-settings").tap()
        page.get_by_test_id("setting-developer").set_checked(True)
        expect(page.get_by_test_id("screen-console")).to_be_visible()
        bad = [i for i in page.evaluate(CLIPPED_BAR) if i["cut"] or i["out"]]
        assert not bad, bad


def test_play_screens_of_the_main_line_fit_a_phone_without_scrolling(
        browser: Browser, base_url: str):
    with phone(browser, base_url) as page:
        scrolled = {}
        for n in [1, 42, 250, 500, 750, 1000, 1250, 1500, 1750, 2000]:
            go_level(page, n)
            scroll = page.evaluate(PAGE_SCROLL)
            if scroll["down"] > 0 or scroll["across"] > 0:
                scrolled[n] = scroll
        assert not scrolled, scrolled


def test_every_lesson_shows_its_words_whole_on_a_phone(browser: Browser, base_url: str):
    with phone(browser, base_url) as page:
        problems = {}
        for n in LESSON_LEVELS:
            go_level(page, n)
            text = page.get_by_test_id("snakes-lesson-text")
            expect(text).to_be_visible()
            seen = text.evaluate("""(node) => {
              const cut = [node, ...node.querySelectorAll('p')].some((p) =>
                p.scrollHeight > p.clientHeight + 0.5 || getComputedStyle(p).overflowY === 'auto' ||
                getComputedStyle(p).overflowY === 'scroll');
              const box = node.getBoundingClientRect();
              return { cut, bottom: box.bottom, height: window.innerHeight };
            }""")
            scroll = page.evaluate(PAGE_SCROLL)
            if seen["cut"] or seen["bottom"] > seen["height"] or scroll["down"] > 0:
                problems[n] = {**seen, **scroll}
        assert not problems, problems


# Notes every celebration the page adds, however briefly it stays (it leaves when it lands).
WATCH_CELEBRATION = """(() => {
  window.__celebrated = 0;
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType === 1 && (n.matches('[data-testid="snakes-celebrate"]') ||
          n.querySelector('[data-testid="snakes-celebrate"]'))) window.__celebrated += 1;
    }
  }).observe(document, { childList: true, subtree: true });
})();"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_win_celebrates_unless_motion_is_reduced_and_next_is_one_tap(
        browser: Browser, base_url: str, motion: str):
    entry = mainline()
    solution = entry["certificates"][0]["solution"]
    with phone(browser, base_url, reduced_motion=motion) as page:
        page.add_init_script(WATCH_CELEBRATION)
        page.reload()
        page.evaluate("() => window.gridforge.ready")
        go_level(page, 1)
        play_solution_by_dragging(page, "phone", solution)
        expect(page.get_by_test_id("snakes-win")).to_be_visible()
        stars = page.get_by_test_id("snakes-stars")
        expect(stars).to_have_attribute("data-stars", "3")
        if entry["certificates"][0]["optimal"]:
            expect(page.get_by_test_id("snakes-win-steps")).to_contain_text(
                "Perfect: the fewest steps possible")
        celebrated = page.evaluate("() => window.__celebrated")
        assert celebrated == (0 if motion == "reduce" else 1)
        # The stars are bright: a lit gold (luminance over 0.45), drawn with an edge.
        star = page.locator(".win-star.on").first
        lit = star.evaluate(
            f"(s) => {{ {LUMINANCE} return luminance(getComputedStyle(s).color); }}")
        assert lit > 0.45, lit
        page.get_by_test_id("snakes-next").tap()
        wait_level(page, 2)


def test_home_play_opens_the_next_unsolved_level(browser: Browser, base_url: str):
    with phone(browser, base_url) as page:
        set_progress(page, {"format": "gridforge.progress/1",
                            "snakes": {"done": {"1": 5, "2": 9, "4": 7}, "open": 5},
                            "mines": {"run": None}})
        page.goto("/#home")
        page.evaluate("() => window.gridforge.ready")
        go = page.get_by_test_id("home-snakes-go")
        expect(go).to_be_visible()
        go.tap()
        wait_level(page, 3)


def test_a_shared_proven_level_opens_verified_and_try_play_gives_three_stars(
        browser: Browser, base_url: str):
    entry = mainline()
    level, certificate = entry["levels"][0], entry["certificates"][0]
    assert certificate["optimal"], "level 1's minimum is proven (the test needs a proven level)"
    with phone(browser, base_url) as page:
        page.goto(f"/#editor/share/{share_code(level)}")
        page.evaluate("() => window.gridforge.ready")
        page.wait_for_selector('section.editor[data-ready="true"]')
        status = page.get_by_test_id("editor-status")
        expect(status).to_have_attribute("data-status", "verified")
        expect(status).to_have_attribute("data-optimal", "true")
        expect(status).to_have_attribute("data-steps", str(certificate["steps"]))
        page.get_by_test_id("editor-try").press("Enter")  # by key: no tap on a moving layout
        expect(page.locator('[data-testid="snakes-play"][data-ready="1"]')).to_have_count(1)
        wait_idle(page)
        play_solution_by_dragging(page, "phone", certificate["solution"])
        stars = page.get_by_test_id("snakes-stars")
        expect(stars).to_be_visible()
        expect(stars).to_have_attribute("data-stars", "3")
        expect(stars).to_have_attribute("data-par-proven", "true")


# The floor's luminance and each drawn piece's contrast against it on the board ``root``:
# bodies and coats (their stroke), heads and tails (fill), holes (their ring), stones (fill).
BOARD_CONTRAST = """(root) => {
  %s
  const paint = (node, prop) => getComputedStyle(node)[prop];
  const floorNode = root.querySelector('.floor, .editor-floor, .lp-floor');
  const floor = luminance(paint(floorNode, 'fill'));
  const ratio = (c) => { const l = luminance(c);
    return (Math.max(l, floor) + 0.05) / (Math.min(l, floor) + 0.05); };
  const all = (selector, kind, prop) => [...root.querySelectorAll(selector)]
    .map((n) => [kind, paint(n, prop)]);
  const pieces = [
    ...all('.body, .coat, .lp-body, [data-testid="editor-body"] polyline:not(.editor-ice)',
           'body', 'stroke'),
    ...all('.hole, .editor-hole, .lp-hole', 'hole', 'stroke'),
    ...all('.stone, .editor-stone, .lp-stone', 'stone', 'fill'),
  ].filter(([, c]) => c && c !== 'none');
  const weakest = Math.min(...pieces.map(([, c]) => ratio(c)));
  return { floor, pieces: pieces.length, weakest,
           weak: pieces.filter(([, c]) => ratio(c) < 3).slice(0, 5) };
}"""


def dark_page(browser: Browser, base_url: str):
    """A desktop page in the dark theme, set on the settings screen as a player sets it."""
    return open_page(browser, base_url, service_workers="block", **DEVICES["desktop"])


def test_dark_theme_boards_have_a_dark_floor_and_pieces_at_3_to_1(
        browser: Browser, base_url: str):
    with dark_page(browser, base_url) as page:
        goto_ready(page, "#settings")
        set_progress(page, ALL_OPEN)
        page.get_by_test_id("setting-theme-dark").check()
        page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
        found = {}
        for n in [1, 12, 500, 1000, 2000]:
            go_level(page, n)
            found[f"level {n}"] = page.locator("svg.snakes-board").evaluate(
                BOARD_CONTRAST % LUMINANCE)
        page.evaluate("() => { location.hash = '#editor/level/2000'; }")
        page.wait_for_selector('section.editor[data-ready="true"]')
        found["editor"] = page.get_by_test_id("editor-board").evaluate(BOARD_CONTRAST % LUMINANCE)
        page.evaluate("() => { location.hash = '#home'; }")
        picture = page.locator('[data-testid="home-snakes-picture"] svg')
        expect(picture).to_be_attached()
        found["home picture"] = picture.evaluate(BOARD_CONTRAST % LUMINANCE)
        for where, seen in found.items():
            assert seen["pieces"] > 0, where
            assert seen["floor"] < 0.2, (where, seen)
            assert seen["weakest"] >= 3, (where, seen)


# Two bodies that pass on a bridge (test_terrain.py's crossing): body 0 lies across the
# bridge at (2, 2), its head on it; body 1 comes down over it on the upper lane.
CROSSING = {
    "format": "gridforge.snakes.level/1", "cols": 5, "rows": 5,
    "stones": [[x, y] for x in range(5) for y in range(5) if x != 2 and y != 2],
    "bodies": [{"cells": [[2, 2], [1, 2], [0, 2]], "colors": [1],
                "lock": {"id": "L1", "kind": "silver"}},
               {"cells": [[2, 1], [2, 0]], "colors": [2], "key": "L1"}],
    "holes": [{"cell": [4, 2], "color": 1}, {"cell": [2, 4], "color": 2}],
    "bridges": [[2, 2]],
}


def pixel(page: Page, at: tuple[float, float]) -> tuple[int, int, int]:
    """The colour drawn at page point ``at``: a one-pixel screenshot, its PNG read here (one
    row of 8-bit RGB or RGBA after the filter byte; a single pixel's filter leaves it as is
    but for Sub/Up/Average/Paeth against zero neighbours, which are identity too)."""
    shot = page.screenshot(clip={"x": at[0], "y": at[1], "width": 1, "height": 1})
    assert shot[:8] == b"\x89PNG\r\n\x1a\n"
    at_byte, data = 8, b""
    while at_byte < len(shot):
        length = struct.unpack(">I", shot[at_byte:at_byte + 4])[0]
        kind = shot[at_byte + 4:at_byte + 8]
        if kind == b"IDAT":
            data += shot[at_byte + 8:at_byte + 8 + length]
        at_byte += 12 + length
    row = zlib.decompress(data)
    red, green, blue = row[1], row[2], row[3]
    return red, green, blue


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_on_a_bridge_both_lanes_show(browser: Browser, base_url: str, theme: str):
    with dark_page(browser, base_url) as page:
        goto_ready(page, "#settings")
        page.get_by_test_id(f"setting-theme-{theme}").check()
        page.goto(f"/#editor/share/{share_code(CROSSING)}")
        page.evaluate("() => window.gridforge.ready")
        page.wait_for_selector('section.editor[data-ready="true"]')
        page.get_by_test_id("editor-try").press("Enter")
        expect(page.locator('[data-testid="snakes-play"][data-ready="1"]')).to_have_count(1)
        wait_idle(page)
        bridge = page.get_by_test_id("snakes-board").locator(
            '[data-testid="snakes-terrain"][data-kind="bridge"]')
        expect(bridge).to_have_attribute("data-cell", "2,2")
        # Body 1's head is dragged down onto the bridge's upper lane, over body 0's head.
        play_solution_by_dragging(page, "desktop", [[1, "head", "D"]])
        expect(page.locator('[data-testid="snakes-end"][data-body="1"][data-end="head"]')
               ).to_have_attribute("data-cell", "2,2")
        # The keyboard's ring to an end away from the bridge (it marks the end dragged last).
        page.evaluate("() => document.querySelector('[data-testid=snakes-board]').focus()")
        focus_end(page, 0, "tail")
        page.mouse.move(0, 0)
        lower, upper = (page.locator(f'[data-testid="snakes-body"][data-body="{b}"]')
                        .evaluate("(n) => getComputedStyle(n).stroke") for b in (0, 1))
        box = page.get_by_test_id("snakes-board").bounding_box()
        assert box is not None
        cell = box["width"] / 5

        def at(fx: float, fy: float) -> tuple[float, float]:
            return box["x"] + (2 + fx) * cell, box["y"] + (2 + fy) * cell

        def near(seen: tuple[int, int, int], css: str) -> bool:
            want = [int(v) for v in css[css.index("(") + 1:-1].split(",")[:3]]
            return sum(abs(a - b) for a, b in zip(seen, want, strict=True)) < 60

        # The lower lane shows beside the deck in its own colour (the old deck hid it there);
        # the upper lane's body lies on the deck; the lower head is drawn under it.
        for spot in ((0.15, 0.27), (0.15, 0.73)):
            seen = pixel(page, at(*spot))
            assert near(seen, lower), (spot, seen, lower)
        assert near(pixel(page, at(0.5, 0.2)), upper)
        expect(page.get_by_test_id("snakes-board").locator(".terrain-under-end")).to_have_count(1)


def markers(level: dict[str, Any]) -> int:
    """The badges a level shows: a lock, a key or ice on a body, ice on a hole."""
    return (sum(bool(b.get("frozen")) + ("lock" in b) + ("key" in b) for b in level["bodies"])
            + sum(bool(h.get("frozen")) for h in level["holes"]))


def most_marked(count: int) -> list[tuple[int, int]]:
    """The ``count`` main-line levels with the most badges (the larger boards first), each
    with its badges."""
    ranked = sorted(((-markers(level), -level["cols"] * level["rows"], n)
                     for n, level, _ in site_levels()))
    return [(n, -badges) for badges, _, n in ranked[:count]]


# Every badge's box on the page, and the pairs that overlap (more than half a pixel each way).
BADGES = """(selector) => {
  const boxes = [...document.querySelectorAll(selector)].filter((n) => n.getClientRects().length)
    .map((n) => { const b = n.getBoundingClientRect();
      return { x: b.x, y: b.y, w: b.width, h: b.height, kind: n.dataset.kind || n.textContent }; });
  const overlaps = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
    const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
    const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
    if (dx > 0.5 && dy > 0.5) overlaps.push([a, b]);
  }));
  return { count: boxes.length, smallest: Math.min(...boxes.map((b) => b.h)), overlaps };
}"""


def test_badges_are_16px_on_a_phone_and_never_overlap(browser: Browser, base_url: str):
    with phone(browser, base_url) as page:
        problems = {}
        marked = [n for n, badges in most_marked(8) if badges >= 2]
        assert len(marked) == 8  # crowded levels: two badges at least on each
        for n in marked:
            go_level(page, n)
            seen = page.evaluate(BADGES, '[data-testid="snakes-marker"]')
            if not seen["count"] or seen["smallest"] < 16 or seen["overlaps"]:
                problems[f"play {n}"] = seen
        for n in marked[:4]:
            page.evaluate("(n) => { location.hash = `#editor/level/${n}`; }", n)
            page.wait_for_selector(f'section.editor[data-route="#editor/level/{n}"]'
                                   '[data-ready="true"]')
            seen = page.evaluate(BADGES, '[data-testid="editor-badge-pill"]')
            if not seen["count"] or seen["smallest"] < 16 or seen["overlaps"]:
                problems[f"editor {n}"] = seen
        assert not problems, problems


def test_the_demonstrations_numbers_are_drawn_above_the_bodies(browser: Browser, base_url: str):
    with phone(browser, base_url) as page:
        numbered = 0
        for n in [2, 3, 6]:
            go_level(page, n)
            expect(page.get_by_test_id("snakes-demo")).to_be_attached()
            # SVG paints in document order: each number comes after every body, so no body
            # lies over it.
            found = page.locator('[data-testid="snakes-demo-numbers"] .demo-number-disc'
                                 ).evaluate_all("""(discs) => discs.map((d) => [
                  ...d.ownerSVGElement.querySelectorAll('[data-testid="snakes-body"]')].every(
                  (b) => b.compareDocumentPosition(d) & Node.DOCUMENT_POSITION_FOLLOWING))""")
            numbered += len(found)
            assert all(found), (n, found)
        assert numbered > 0


# Words of the Latin alphabet a Chinese page may show: proper names only.
PROPER_NAMES = {"gridforge"}


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_editor_speaks_the_players_language(browser: Browser, base_url: str, language: str):
    with open_page(browser, base_url, service_workers="block", locale=language,
                   **DEVICES["desktop"]) as page:
        page.goto("/#editor")
        page.evaluate("() => window.gridforge.ready")
        page.wait_for_selector('section.editor[data-ready="true"]')
        # A new visitor's empty board: what is missing is said as a sentence, the field path
        # folded away.
        wait_idle(page)
        sentence = page.get_by_test_id("editor-issue-sentence").first
        expect(sentence).to_have_text("Add at least one body." if language == "en"
                                      else "至少放一条蛇。")
        details = page.locator(".editor-issue-details").first
        expect(details).not_to_have_attribute("open", "")
        expect(details.locator("code")).to_be_hidden()
        # The swatches: colour names, and no English initial on a Chinese swatch.
        swatch = page.get_by_test_id("editor-color").first
        expect(swatch).to_have_attribute("aria-label", "Colour: red" if language == "en"
                                         else "颜色：红")
        expect(swatch).to_have_text("R" if language == "en" else "红")
        # The file chooser in the page's words; the browser's own button out of sight.
        expect(page.get_by_test_id("editor-import-choose")).to_have_text(
            "Choose a file…" if language == "en" else "选择文件…")
        native = page.get_by_test_id("editor-import-file").bounding_box()
        assert native is not None and native["width"] <= 1 and native["height"] <= 1
        # A main-line copy, a hole and a body picked: their colours by name.
        level = mainline()["levels"][1]
        page.evaluate("() => { location.hash = '#editor/level/2'; }")
        page.wait_for_selector('section.editor[data-route="#editor/level/2"][data-ready="true"]')
        pick(page, "select")
        tap(page, tuple(level["holes"][0]["cell"]))
        hole_colour = page.get_by_test_id("editor-prop-hole-color")
        expect(hole_colour).to_have_value(str(level["holes"][0]["color"]))
        picked = hole_colour.evaluate("(s) => s.selectedOptions[0].textContent")
        assert picked == colour_names(language)[level["holes"][0]["color"]]
        texts = [page.evaluate("() => document.querySelector('section.editor').innerText")]
        tap(page, tuple(level["bodies"][0]["cells"][0]))
        expect(page.get_by_test_id("editor-prop-colour-names")).to_have_text(" · ".join(
            colour_names(language)[c] for c in level["bodies"][0]["colors"]))
        texts.append(page.evaluate("() => document.querySelector('section.editor').innerText"))
        if language == "zh-CN":
            words = set(re.findall(r"[A-Za-z]{2,}", " ".join(texts))) - PROPER_NAMES
            assert not words, sorted(words)


def colour_names(language: str) -> list[str]:
    """The palette's colour names in ``language`` (the catalogue's announce.colour.N)."""
    import json

    from .conftest import ROOT

    catalogue = json.loads((ROOT / "pkg" / "gridforge" / "catalogue" / f"{language}.json")
                           .read_text())
    return [catalogue[f"announce.colour.{i}"] for i in range(15)]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_the_phone_screens_this_touches(
        browser: Browser, base_url: str, theme: str):
    from .test_axe import blocking_violations

    with phone(browser, base_url) as page:
        page.evaluate("() => { location.hash = '#settings'; }")
        page.get_by_test_id(f"setting-theme-{theme}").check()
        page.wait_for_function("(t) => document.documentElement.dataset.theme === t", arg=theme)
        problems: list[str] = []
        go_level(page, 2)  # the phone bar, a lesson with a numbered demonstration
        problems += [f"lesson: {line}" for line in blocking_violations(page)]
        play_solution_by_dragging(page, "phone", mainline()["certificates"][1]["solution"])
        expect(page.get_by_test_id("snakes-stars")).to_be_visible()
        problems += [f"win: {line}" for line in blocking_violations(page)]
        # The editor on an empty board: a sentence, its details, the file chooser; then a
        # hole's colour by name.
        page.evaluate("() => { localStorage.removeItem('gridforge.drafts');"
                      " location.hash = '#editor'; }")
        page.wait_for_selector('section.editor[data-route="#editor"][data-ready="true"]')
        expect(page.get_by_test_id("editor-issue-sentence").first).to_be_visible()
        problems += [f"editor: {line}" for line in blocking_violations(page)]
        # A shared level with a bridge, in try-play.
        page.goto(f"/#editor/share/{share_code(CROSSING)}")
        page.evaluate("() => window.gridforge.ready")
        page.wait_for_selector('section.editor[data-route^="#editor/share/"][data-ready="true"]')
        page.get_by_test_id("editor-try").press("Enter")  # by key: no tap on a moving layout
        expect(page.locator('[data-testid="snakes-play"][data-ready="1"]')).to_have_count(1)
        wait_idle(page)
        problems += [f"try-play: {line}" for line in blocking_violations(page)]
        assert not problems, "\n".join(problems)
        assert page.page_errors == []  # type: ignore[attr-defined]
