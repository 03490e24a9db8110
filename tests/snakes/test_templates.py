"""The eleven templates: exact areas, intended regions, their character, refusals."""

from __future__ import annotations

import random

import pytest
from gridforge.snakes.design.templates import (
    TEMPLATES,
    TOPOLOGIES,
    TemplateError,
    build,
    make_shape,
    recommend_size,
    trim,
)
from gridforge.snakes.design.topology import FloorGraph, components, seed_separators


def graph_of(shape) -> FloorGraph:
    return FloorGraph(shape.cols, shape.rows, shape.floor)


def test_topologies_are_mixed_and_ten_templates():
    assert len(TOPOLOGIES) == 11 and TOPOLOGIES[0] == "mixed"
    assert set(TEMPLATES) == set(TOPOLOGIES[1:])


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("area", [12, 40, 90, 160])
def test_make_shape_exact_area_and_regions(template, area):
    rng = random.Random(area)
    try:
        shape = make_shape(template, area, rng)
    except TemplateError as exc:  # only tiny areas may be out of a template's reach
        assert area == 12 and "cannot" in str(exc)
        return
    assert shape.area == area
    assert 2 <= shape.cols <= 18 and 2 <= shape.rows <= 24
    assert (shape.cols + 2) * (shape.rows + 2) <= 600
    regions = components(graph_of(shape))
    assert len(regions) == shape.regions == (2 if template == "split" else 1)


@pytest.mark.parametrize("template", TEMPLATES)
def test_make_shape_is_deterministic_per_seed(template):
    first = make_shape(template, 60, random.Random(7))
    again = make_shape(template, 60, random.Random(7))
    assert first == again


def test_mirroring_and_variation_give_different_layouts():
    layouts = {make_shape("twin", 60, random.Random(seed)).stones for seed in range(8)}
    assert len(layouts) >= 4


def test_twin_has_a_significant_door():
    shape = build("twin", 11, 7, random.Random(3), vary=False)
    seps = [s for s in seed_separators(graph_of(shape)) if s.significant]
    assert seps and all(len(s.cut) <= 2 for s in seps)


def test_island_is_a_ring_with_a_cycle():
    shape = build("island", 8, 8, random.Random(1), vary=False)
    graph = graph_of(shape)
    assert graph.edge_count - len(graph) + 1 >= 1
    assert not [s for s in seed_separators(graph) if s.kind == "articulation"]


def test_winding_is_one_long_corridor():
    shape = build("winding", 9, 7, random.Random(0), mirror=False, vary=False)
    graph = graph_of(shape)
    assert len(components(graph)) == 1
    # a folded one-wide corridor: almost every cell cuts the board
    assert sum(1 for s in seed_separators(graph) if s.kind == "articulation") > len(graph) // 2


def test_split_template_keeps_two_regions_when_trimmed():
    shape = make_shape("split", 30, random.Random(5))
    assert [len(r) >= 4 for r in components(graph_of(shape))] == [True, True]


def test_fixed_size_too_small_for_template_is_refused():
    with pytest.raises(TemplateError, match="needs at least"):
        make_shape("cross", 10, random.Random(1), cols=4, rows=4)


def test_fixed_size_without_enough_floor_is_refused_not_bent():
    with pytest.raises(TemplateError, match="fewer than the 60 effective cells"):
        make_shape("island", 60, random.Random(1), cols=7, rows=7)


def test_fixed_size_kept_exactly():
    shape = make_shape("courtyard", 30, random.Random(1), cols=6, rows=6)
    assert (shape.cols, shape.rows, shape.area) == (6, 6, 30)


def test_area_out_of_reach_is_refused():
    with pytest.raises(TemplateError, match="cannot hold 400"):
        recommend_size("island", 400, random.Random(1))
    with pytest.raises(TemplateError, match="outside"):
        recommend_size("courtyard", 2, random.Random(1))
    with pytest.raises(TemplateError, match="unknown template"):
        make_shape("maze", 40, random.Random(1))


def test_trim_never_touches_protected_cells():
    shape = build("twin", 9, 6, random.Random(2), vary=False)
    small = trim(shape, shape.area - 15, random.Random(2))
    assert set(shape.protected) <= set(small.floor)
    assert len(components(graph_of(small))) == 1
