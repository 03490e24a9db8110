"""axe-core on every screen (issue 22): home, the snakes map, a snakes level, mines, the
editor, the rules and the settings, in the light theme and in the dark one, in English and
in Chinese (issue 44), report no violation of impact "serious" or "critical"; so do the map's
chapters and jump after a refusal, and a won level's panel with its stars.

axe-core is the npm package pinned in package.json (`npm ci` installs it); the test injects
node_modules/axe-core/axe.min.js into the page as a script tag. The screens are reached as a
person reaches them: the theme is chosen on the settings screen, the screens by the
navigation's tabs, the level by its tile on the map; each is checked once drawn and idle.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import READY_TIMEOUT_MS, ROOT, open_page, wait_idle
from .snakes_helpers import mainline, play_by_keys

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
# Each screen: how it is reached (a tab of the navigation, or a level tile on the map) and
# the element that says it is drawn.
SCREENS = [
    ("home", '[data-testid="screen-home"]', '[data-testid="home"]'),
    ("snakes map", '[data-testid="screen-snakes"]', '[data-testid="level-tile"]'),
    ("snakes level", '[data-testid="level-tile"][data-level="1"]',
     '[data-testid="snakes-play"][data-ready="1"]'),
    ("mines", '[data-testid="screen-mines"]', "section.mines[data-run]:not([data-busy])"),
    ("editor", '[data-testid="screen-editor"]', '[data-testid="editor-board"]'),
    ("rules", '[data-testid="screen-rules"]', '[data-testid="rules"][data-ready="1"]'),
    ("settings", '[data-testid="screen-settings"]', '[data-testid="settings"]'),
]


def blocking_violations(page: Page) -> list[str]:
    """axe-core's violations of impact serious or critical on the page as it is now, one line
    each: the rule, its impact and the first few elements at fault."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async (impacts) => {
          const result = await window.axe.run(document, { resultTypes: ["violations"] });
          return result.violations.filter((v) => impacts.includes(v.impact)).map((v) =>
            `${v.id} (${v.impact}): ${v.help}; at ${v.nodes.slice(0, 4)
              .map((n) => `${n.target.join(" ")} [${n.failureSummary.replace(/\\s+/g, " ")}]`)
              .join(" | ")}${v.nodes.length > 4 ? ` and ${v.nodes.length - 4} more` : ""}`);
        }""",
        list(BLOCKING),
    )
    return list(found)


def open_screen(page: Page, how: str, drawn: str) -> None:
    """Reach a screen as a person does: its tab, or (a level) its tile on the map."""
    target = page.locator(how).first
    target.scroll_into_view_if_needed()
    target.click()
    expect(page.locator(drawn).first).to_be_attached(timeout=READY_TIMEOUT_MS)
    wait_idle(page)


@contextmanager
def themed_page(browser: Browser, base_url: str, theme: str) -> Iterator[Page]:
    """A 1280x800 page set to ``theme`` on the settings screen, as a player sets it."""
    assert AXE.exists(), "axe-core is not installed: run `npm ci` (build.py test does)"
    with open_page(browser, base_url, viewport={"width": 1280, "height": 800},
                   service_workers="block") as page:
        page.goto("/#settings")
        page.evaluate("() => window.gridforge.ready")
        wait_idle(page)
        page.get_by_test_id(f"setting-theme-{theme}").check()
        page.wait_for_function("(t) => document.documentElement.dataset.theme === t", arg=theme)
        yield page


@pytest.mark.parametrize("language", ["en", "zh-CN"])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_any_screen(
    browser: Browser, base_url: str, theme: str, language: str
):
    with themed_page(browser, base_url, theme) as page:
        page.get_by_test_id(f"setting-language-{language}").click()
        expect(page.locator("html")).to_have_attribute("lang", language)
        problems: list[str] = []
        for name, how, drawn in SCREENS:
            open_screen(page, how, drawn)
            expect(page.locator("html")).to_have_attribute("data-theme", theme)
            problems += [f"{name}: {line}" for line in blocking_violations(page)]
        # The map after a refused jump (its message beside the input), then a won level.
        open_screen(page, '[data-testid="screen-snakes"]', '[data-testid="map-chapter"]')
        page.get_by_test_id("map-jump").fill("2000")
        page.get_by_test_id("map-jump").press("Enter")
        expect(page.get_by_test_id("map-jump-message")).not_to_be_empty()
        problems += [f"map jump: {line}" for line in blocking_violations(page)]
        page.locator('[data-testid="map-chapter"][data-chapter="1"]').click()
        open_screen(page, '[data-testid="level-tile"][data-level="1"]',
                    '[data-testid="snakes-play"][data-ready="1"]')
        play_by_keys(page, mainline()["certificates"][0]["solution"])
        expect(page.get_by_test_id("snakes-stars")).to_be_visible()
        wait_idle(page)
        problems += [f"win: {line}" for line in blocking_violations(page)]
        assert not problems, "\n".join(problems)
        assert page.page_errors == []  # type: ignore[attr-defined]


def test_the_pinned_axe_core_is_the_one_installed():
    pinned = json.loads((ROOT / "package.json").read_text())["devDependencies"]["axe-core"]
    installed = json.loads((ROOT / "node_modules" / "axe-core" / "package.json").read_text())
    assert re.fullmatch(r"\d+\.\d+\.\d+", pinned), "pin an exact axe-core version"
    assert installed["version"] == pinned
