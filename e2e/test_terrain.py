"""Coloured paths and bridges on the page (issue 40): the editor paints, erases, bridges,
verifies, exports and shares a level with terrain; a share link and a reload keep it;
try-play plays it by mouse, touch and keys; a step refused by paint or a lane is said in the
live region; bad terrain is refused with its place; axe-core finds nothing serious."""

from __future__ import annotations

import base64
import json
import re
import zlib
from pathlib import Path

import pytest
from gridforge.snakes.game.level import canonical_json, level_from_json, level_sha256
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.puzzle import crossed_bridges
from gridforge.snakes.solver.search import Solver, bfs_optimum
from playwright.sync_api import Browser, Page, expect

from .conftest import open_page, wait_idle
from .snakes_helpers import ARROWS, board, focus_end, play_by_keys, play_solution_by_dragging
from .test_axe import blocking_violations, themed_page
from .test_editor import board_sha, cli, current_level, drag, open_editor, pick, tap, verify

# A small level with both pieces: body 0 (colour 1) may not take the straight way through
# the cell painted 2; body 1 (colour 2) goes down over the bridge.
TERRAIN = {
    "format": "gridforge.snakes.level/1", "cols": 6, "rows": 4, "stones": [],
    "bodies": [{"cells": [[1, 1], [0, 1]], "colors": [1]},
               {"cells": [[3, 1], [3, 0]], "colors": [2]},
               {"cells": [[4, 2], [5, 2]], "colors": [3]}],
    "holes": [{"cell": [5, 1], "color": 1}, {"cell": [3, 3], "color": 2},
              {"cell": [0, 3], "color": 3}],
    "paths": [{"cell": [2, 1], "color": 2}],
    "bridges": [[3, 2]],
}


def share_code(level: dict) -> str:
    """The page's share code of ``level``: its canonical text, raw deflate, base64url."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = packer.compress(canonical_json(level).encode()) + packer.flush()
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def terrain(page: Page, kind: str, testid: str = "editor-board"):
    return page.get_by_test_id(testid).locator(
        f'[data-testid="snakes-terrain"][data-kind="{kind}"]')


def solution(level: dict) -> list[list]:
    found = Solver(Game(level_from_json(level))).solve()
    assert found.optimal and found.steps is not None
    return found.steps


def test_the_editor_paints_erases_bridges_verifies_exports_and_shares(
        page: Page, browser: Browser, base_url: str, tmp_path: Path):
    open_editor(page)
    page.get_by_test_id("editor-cols").fill("5")
    page.get_by_test_id("editor-rows").fill("4")
    page.get_by_test_id("editor-new").click()
    expect(page.get_by_test_id("editor-board")).to_have_attribute("data-cols", "5")
    pick(page, "body", colour=1)
    drag(page, [(1, 1), (0, 1)])
    pick(page, "hole", colour=1)
    tap(page, (4, 1))
    expect(page.get_by_test_id("editor-issue")).to_have_count(0)
    # Paint three cells with colour 2 along a drag; a drag that starts on them erases them.
    pick(page, "path", colour=2)
    drag(page, [(2, 0), (2, 1), (2, 2)])
    expect(terrain(page, "path")).to_have_count(3)
    expect(terrain(page, "path").first).to_have_attribute("data-color", "2")
    drag(page, [(2, 2)])
    expect(terrain(page, "path")).to_have_count(2)
    pick(page, "bridge")
    tap(page, (3, 1))
    expect(terrain(page, "bridge")).to_have_count(1)
    expect(terrain(page, "bridge")).to_have_attribute("data-cell", "3,1")
    # A path on the hole is refused with its place; nothing changes.
    before = board_sha(page)
    pick(page, "path", colour=2)
    tap(page, (4, 1))
    expect(page.get_by_test_id("editor-message")).to_contain_text(re.compile("hole", re.I))
    assert board_sha(page) == before
    level = current_level(page)
    assert level["paths"] == [{"cell": [2, 0], "color": 2}, {"cell": [2, 1], "color": 2}]
    assert level["bridges"] == [[3, 1]]
    verify(page)
    status = page.get_by_test_id("editor-status")
    expect(status).to_have_attribute("data-status", "verified")
    best = bfs_optimum(Game(level_from_json(level)))
    expect(status).to_have_attribute("data-steps", str(best))
    expect(status).to_have_attribute("data-optimal", "true")
    # Export: the CLI verifies the file with the same steps.
    with page.expect_download() as exported:
        page.get_by_test_id("editor-export").click()
    path = tmp_path / "terrain.json"
    exported.value.save_as(path)
    batch = json.loads(path.read_text())
    assert batch["levels"][0]["paths"] == level["paths"]
    run = cli("design-levels", "--verify", str(path), "--out", str(tmp_path / "c.json"),
              cwd=tmp_path)
    assert run.returncode == 0 and f"verified ({best} steps" in run.stdout, run.stdout
    # Share: a fresh page opens the same level, terrain drawn.
    sha = board_sha(page)
    page.get_by_test_id("editor-share").click()
    link = page.get_by_test_id("editor-share-link")
    expect(link).to_have_value(re.compile(r".*#editor/share/[A-Za-z0-9_-]+$"))
    with open_page(browser, base_url, service_workers="block") as fresh:
        fresh.goto(link.input_value())
        fresh.evaluate("() => window.gridforge.ready")
        expect(fresh.get_by_test_id("editor-board")).to_have_attribute("data-level-sha", sha)
        expect(terrain(fresh, "path")).to_have_count(2)
        expect(terrain(fresh, "bridge")).to_have_count(1)
    # A reload keeps the draft and its terrain.
    page.reload()
    page.evaluate("() => window.gridforge.ready")
    page.wait_for_selector('section.editor[data-ready="true"]')
    expect(page.get_by_test_id("editor-board")).to_have_attribute("data-level-sha", sha)
    expect(terrain(page, "path")).to_have_count(2)
    assert page.page_errors == []  # type: ignore[attr-defined]


def try_play(page: Page, level: dict) -> None:
    open_editor(page, f"#editor/share/{share_code(level)}")
    expect(page.get_by_test_id("editor-board")).to_have_attribute(
        "data-level-sha", level_sha256(level))
    page.get_by_test_id("editor-try").click()
    expect(board(page)).to_have_attribute("data-level-sha", level_sha256(level))
    wait_idle(page)


def test_try_play_by_keys_says_why_paint_and_a_lane_refuse(page: Page):
    try_play(page, TERRAIN)
    expect(terrain(page, "path", "snakes-board")).to_have_count(1)
    expect(terrain(page, "bridge", "snakes-board")).to_have_count(1)
    page.evaluate("() => document.querySelector('[data-testid=snakes-board]').focus()")
    # Body 0 (colour 1) onto the cell painted 2: refused, said, nothing moves.
    focus_end(page, 0, "head")
    page.keyboard.press(ARROWS["R"])
    wait_idle(page)
    expect(page.get_by_test_id("app-live")).to_contain_text("painted another colour")
    expect(board(page)).to_have_attribute("data-steps", "0")
    # Body 1 onto the bridge (its vertical lane), then a turn there: refused by the lane.
    play_by_keys(page, [[1, "head", "D"]])
    focus_end(page, 1, "head")
    page.keyboard.press(ARROWS["L"])
    wait_idle(page)
    expect(page.get_by_test_id("app-live")).to_contain_text("straight on")
    expect(board(page)).to_have_attribute("data-steps", "1")
    page.keyboard.press("r")  # restart, then the whole solution by keys
    expect(board(page)).to_have_attribute("data-steps", "0")
    play_by_keys(page, solution(TERRAIN))
    expect(page.get_by_test_id("snakes-win")).to_be_visible()
    assert page.page_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_try_play_by_mouse_and_touch_crosses_the_bridge(browser: Browser, base_url: str,
                                                       device: str):
    # The two bodies must pass each other on the bridge: body 0 lies across it, locked until
    # body 1 has carried its key down through the bridge and out.
    crossing = {
        "format": "gridforge.snakes.level/1", "cols": 5, "rows": 5,
        "stones": [[x, y] for x in range(5) for y in range(5) if x != 2 and y != 2],
        "bodies": [{"cells": [[2, 2], [1, 2], [0, 2]], "colors": [1],
                    "lock": {"id": "L1", "kind": "silver"}},
                   {"cells": [[2, 1], [2, 0]], "colors": [2], "key": "L1"}],
        "holes": [{"cell": [4, 2], "color": 1}, {"cell": [2, 4], "color": 2}],
        "bridges": [[2, 2]],
    }
    options = ({"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
               if device == "phone" else {"viewport": {"width": 1280, "height": 800}})
    with open_page(browser, base_url, service_workers="block", **options) as page:
        try_play(page, crossing)
        steps = solution(crossing)
        game = Game(level_from_json(crossing))
        assert crossed_bridges(game, game.replay(steps)) == [0]
        play_solution_by_dragging(page, device, steps)
        expect(page.get_by_test_id("snakes-win")).to_be_visible()
        assert page.page_errors == []  # type: ignore[attr-defined]


def test_bad_terrain_in_a_share_link_or_an_import_is_refused_with_its_place(page: Page):
    bad = {**TERRAIN, "paths": [{"cell": [5, 1], "color": 2}]}  # paint on a hole
    open_editor(page, f"#editor/share/{share_code_unchecked(bad)}", lands="#editor")
    expect(page.get_by_test_id("app-message")).to_contain_text("path cell 1")
    open_editor(page, "#editor/level/2")
    before = board_sha(page)
    turned = {**TERRAIN, "bridges": [[1, 1]]}  # no turn there, but the body's end: fine...
    turned["bodies"] = [{"cells": [[1, 0], [1, 1], [0, 1]], "colors": [1]}, *TERRAIN["bodies"][1:]]
    page.get_by_test_id("editor-import-file").set_input_files(
        files=[{"name": "bad.json", "mimeType": "application/json",
                "buffer": json.dumps(turned).encode()}])
    expect(page.get_by_test_id("editor-import-issue").first).to_contain_text("body 1, cell 2")
    expect(page.get_by_test_id("editor-message")).to_contain_text("the level is unchanged")
    assert board_sha(page) == before


def share_code_unchecked(level: dict) -> str:
    """A share code of a level text that does not validate (the page must refuse it)."""
    text = json.dumps(level, sort_keys=True, separators=(",", ":"))
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = packer.compress(text.encode()) + packer.flush()
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_the_editor_and_play_with_terrain(
        browser: Browser, base_url: str, theme: str):
    with themed_page(browser, base_url, theme) as page:
        open_editor(page, f"#editor/share/{share_code(TERRAIN)}")
        expect(terrain(page, "path")).to_have_count(1)
        problems = [f"editor: {line}" for line in blocking_violations(page)]
        page.get_by_test_id("editor-try").click()
        expect(terrain(page, "bridge", "snakes-board")).to_have_count(1)
        wait_idle(page)
        problems += [f"play: {line}" for line in blocking_violations(page)]
        assert not problems, "\n".join(problems)
