"""Snakes in the browser: play by dragging, undo, hint, verify, edit and design."""

from __future__ import annotations

from conftest import open_ready
from playwright.sync_api import Page, expect

SAMPLE_IDS = ("sample-spec", "sample-first")


def open_snakes(page: Page, sample: int = 0) -> None:
    open_ready(page)
    page.get_by_test_id("screen-snakes").click()
    expect(page.locator(f'section.snakes[data-level="{SAMPLE_IDS[0]}"]')).to_have_count(1)
    if sample:
        page.get_by_test_id("snakes-sample").select_option(str(sample))
        page.get_by_test_id("snakes-load").click()
        expect(page.locator(f'section.snakes[data-level="{SAMPLE_IDS[sample]}"]')).to_have_count(1)


def centre(page: Page, x: int, y: int) -> tuple[float, float]:
    box = page.locator(f'[data-testid="snakes-cell"][data-x="{x}"][data-y="{y}"]').bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag_through(page: Page, cells: list[tuple[int, int]]) -> None:
    page.mouse.move(*centre(page, *cells[0]))
    page.mouse.down()
    for cell in cells[1:]:
        page.mouse.move(*centre(page, *cell), steps=3)
    page.mouse.up()


def test_the_samples_load_and_the_contract_example_verifies_at_20(page: Page):
    open_snakes(page)
    expect(page.get_by_test_id("snakes-body")).to_have_count(4)
    expect(page.get_by_test_id("snakes-hole")).to_have_count(5)
    page.get_by_test_id("snakes-verify").click()
    expect(page.get_by_test_id("snakes-cert-status")).to_have_text("Certificate: verified")
    expect(page.get_by_test_id("snakes-certificate")).to_contain_text("20 steps, proven minimum")
    expect(page.get_by_test_id("snakes-score-term")).to_have_count(7)


def test_a_drag_plays_steps_into_a_hole_and_undo_takes_one_back(page: Page):
    open_snakes(page, sample=1)
    expect(page.get_by_test_id("snakes-body")).to_have_count(2)
    # Body 1's head (1,1) goes right to (4,1), then up into the colour-0 hole at (4,0).
    drag_through(page, [(1, 1), (2, 1), (3, 1), (4, 1), (4, 0)])
    expect(page.get_by_test_id("snakes-steps")).to_have_text("Steps: 4")
    expect(page.get_by_test_id("snakes-body")).to_have_count(1)  # it left the board
    expect(page.get_by_test_id("snakes-hole")).to_have_count(1)
    page.get_by_test_id("snakes-undo").click()
    expect(page.get_by_test_id("snakes-steps")).to_have_text("Steps: 3")
    expect(page.get_by_test_id("snakes-body")).to_have_count(2)
    page.get_by_test_id("snakes-redo").click()
    expect(page.get_by_test_id("snakes-steps")).to_have_text("Steps: 4")


def test_a_refused_drag_says_why_and_counts_nothing(page: Page):
    open_snakes(page, sample=1)
    drag_through(page, [(3, 2), (3, 1), (3, 0)])  # the other body: up is fine...
    expect(page.get_by_test_id("snakes-steps")).to_have_text("Steps: 2")
    drag_through(page, [(3, 0), (4, 0)])  # ...but the hole at (4,0) has another colour
    expect(page.get_by_test_id("snakes-message")).to_contain_text("another color")
    expect(page.get_by_test_id("snakes-steps")).to_have_text("Steps: 2")


def test_hint_points_at_a_next_step(page: Page):
    open_snakes(page, sample=1)
    page.get_by_test_id("snakes-hint").click()
    expect(page.get_by_test_id("snakes-message")).to_contain_text("Hint: move body")
    expect(page.get_by_test_id("snakes-hint-arrow")).to_have_count(1)


def test_an_edit_invalidates_the_certificate_and_errors_name_the_field(page: Page):
    open_snakes(page, sample=1)
    page.get_by_test_id("snakes-verify").click()
    expect(page.get_by_test_id("snakes-cert-status")).to_have_text("Certificate: verified")
    page.get_by_test_id("snakes-mode").click()
    page.get_by_test_id("snakes-tool-stone").click()
    page.mouse.click(*centre(page, 2, 3))
    expect(page.get_by_test_id("snakes-certificate")).to_be_hidden()
    page.get_by_test_id("snakes-export").click()
    expect(page.get_by_test_id("snakes-message")).to_contain_text("Verify the level")
    page.get_by_test_id("snakes-tool-hole").click()
    page.mouse.click(*centre(page, 1, 3))  # a third hole breaks supply and demand
    expect(page.get_by_test_id("snakes-issue").first).to_contain_text("holes")


def test_design_makes_a_certified_level(page: Page):
    open_snakes(page)
    page.get_by_test_id("snakes-topology").select_option("twin")
    page.get_by_test_id("snakes-target").fill("30")
    page.get_by_test_id("snakes-design").click()
    expect(page.get_by_test_id("snakes-cert-status")).to_have_text(
        "Certificate: verified", timeout=60_000
    )
    expect(page.get_by_test_id("snakes-score")).to_contain_text("Design score")
