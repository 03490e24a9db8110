"""Pieces you can read (issue 44): no marker (a lock, a freeze count, a key) over a head's
eyes, coats as outer bands a quarter of the body's width or more, on main-line levels with
mechanics, at 390x844 and 1280x800."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .snakes_helpers import device_page, goto_ready, set_progress, wait_level

DATA = Path(__file__).resolve().parent.parent / "pkg" / "gridforge" / "snakes" / "data"


def mechanic_levels() -> list[int]:
    """The first levels of each mechanic, a seeded sample of the rest, and the last ones."""
    found = []
    for path in sorted(DATA.glob("main-*.json")):
        for level in json.loads(path.read_text())["levels"]:
            if any(set(b) - {"cells", "colors"} for b in level["bodies"]) or any(
                    set(h) - {"cell", "color"} for h in level["holes"]):
                found.append(level["meta"]["level"])
    rest = random.Random(44).sample(found[4:-3], 4)
    return sorted({*found[:4], *rest, *found[-3:]})


OVERLAPS = """() => {
  const box = (n) => n.getBoundingClientRect();
  const eyes = [...document.querySelectorAll('[data-testid="snakes-eye"]')].map(box);
  const bad = [];
  for (const m of document.querySelectorAll('[data-testid="snakes-marker"]')) {
    const b = box(m);
    for (const e of eyes) {
      if (b.left < e.right && e.left < b.right && b.top < e.bottom && e.top < b.bottom) {
        bad.push([m.dataset.kind, m.dataset.body]);
      }
    }
  }
  const bands = [...document.querySelectorAll('[data-testid="snakes-coat"]')].map((c) => {
    const body = document.querySelector(
      `[data-testid="snakes-body"][data-body="${c.dataset.body}"]`);
    return [Number(body.getAttribute("stroke-width")), Number(c.getAttribute("stroke-width")),
      Number(c.dataset.layer)];
  });
  const markers = document.querySelectorAll('[data-testid="snakes-marker"]').length;
  return { bad, eyes: eyes.length, markers, bands };
}"""


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_no_marker_covers_an_eye_and_coats_are_wide_bands(
    browser: Browser, base_url: str, device: str
):
    levels = mechanic_levels()
    with device_page(browser, base_url, device) as page:
        goto_ready(page)
        set_progress(page, {"format": "gridforge.progress/1",
                            "snakes": {"done": {}, "open": 2000}, "mines": {"run": None}})
        markers = 0
        for n in levels:
            page.goto(f"/#snakes/level/{n}")
            wait_level(page, n)
            found = page.evaluate(OVERLAPS)
            assert found["bad"] == [], (n, found["bad"])
            assert found["eyes"] > 0
            markers += found["markers"]
            for body, coat, layer in found["bands"]:
                if layer == 1:  # the outer band on each side: a quarter of the body or more
                    assert (body - coat) / 2 >= body / 4 - 1e-9, (n, body, coat)
        assert markers > 0
        assert page.page_errors == []
