"""Floor-graph metrics on hand-made boards with known answers, and against brute force."""

from __future__ import annotations

import itertools

from gridforge.snakes.design.topology import (
    FloorGraph,
    analyse_space,
    articulation_points,
    bfs_distances,
    components,
    coverage_2x2,
    diameter_and_detour,
    free_space,
    general_cuts,
    matching_bounds,
    min_vertex_cut,
    potential_exits,
    seed_separators,
    two_cell_slices,
)
from gridforge.snakes.solver.matching import min_cost_assignment
from hypothesis import given
from hypothesis import strategies as st


def board(*rows: str) -> FloorGraph:
    """'#' is a stone, anything else floor."""
    floor = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != "#"]
    return FloorGraph(len(rows[0]), len(rows), floor)


def cells(graph: FloorGraph, vertices) -> list[tuple[int, int]]:
    return [graph.cells[v] for v in vertices]


DUMBBELL = board(
    "...#####...",
    "...........",
    "...#####...",
)

TWIN_DOOR2 = board(
    "....#....",
    "....#....",
    ".........",
    ".........",
    "....#....",
    "....#....",
)

TWIN_DOOR3 = board(
    "....#....",
    "....#....",
    ".........",
    ".........",
    ".........",
    "....#....",
    "....#....",
)


def test_articulation_points_dumbbell_are_corridor_and_mouths():
    assert cells(DUMBBELL, articulation_points(DUMBBELL)) == [(x, 1) for x in range(2, 9)]


def test_articulation_points_open_hall_none():
    assert articulation_points(board("....", "....", "....")) == []


def test_articulation_points_long_path_iterative_no_recursion_limit():
    path = FloorGraph(5000, 1, [(x, 0) for x in range(5000)])
    aps = articulation_points(path)
    assert len(aps) == 4998 and aps[0] == 1 and aps[-1] == 4998


@st.composite
def floors(draw, max_cols=6, max_rows=6):
    cols = draw(st.integers(2, max_cols))
    rows = draw(st.integers(2, max_rows))
    mask = draw(st.lists(st.booleans(), min_size=cols * rows, max_size=cols * rows))
    floor = [(i % cols, i // cols) for i, keep in enumerate(mask) if keep]
    return FloorGraph(cols, rows, floor)


def _parts_without(graph: FloorGraph, removed) -> int:
    return len(components(graph, removed))


@given(floors())
def test_articulation_points_match_brute_force(graph):
    base = len(components(graph))
    brute = [v for v in range(len(graph)) if _parts_without(graph, [v]) > base]
    assert articulation_points(graph) == brute


def test_two_cell_door_is_the_only_separating_slice():
    seps = [s for s in seed_separators(TWIN_DOOR2) if s.kind == "slice"]
    assert [cells(TWIN_DOOR2, s.cut) for s in seps] == [[(4, 2), (4, 3)]]
    assert [len(p) for p in seps[0].parts] == [24, 24]
    assert seps[0].significant
    assert articulation_points(TWIN_DOOR2) == []


def test_two_cell_slices_are_maximal_runs_of_two():
    graph = board("..#", "###", "#.#", "#.#")
    assert [cells(graph, pair) for pair in two_cell_slices(graph)] == [
        [(0, 0), (1, 0)], [(1, 2), (1, 3)]
    ]


def test_significance_rule_small_pocket_not_significant():
    # A two-cell pocket behind an articulation point: too small (fewer than 3 cells).
    graph = board(
        "......",
        "......",
        "......",
        "##.###",
        "##.###",
    )
    seps = seed_separators(graph)
    assert [cells(graph, s.cut) for s in seps if s.kind == "articulation"] == [
        [(2, 2)], [(2, 3)]
    ]
    ap = seps[0]
    assert [len(p) for p in ap.parts] == [17, 2]
    assert not ap.significant


def test_significance_rule_needs_eight_percent_of_region():
    # 3 cells behind the cut, but the region has 3 + 1 + 60 = 64 cells: 3/64 < 8%.
    rows = ["." * 12] * 5 + ["#####.######"] + ["#####.######"] * 3
    graph = board(*rows)
    ap = next(s for s in seed_separators(graph) if cells(graph, s.cut) == [(5, 5)])
    assert [len(p) for p in ap.parts] == [60, 3]
    assert not ap.significant
    big = next(s for s in seed_separators(TWIN_DOOR2) if s.kind == "slice")
    assert big.significant


def test_min_vertex_cut_three_wide_door():
    s = TWIN_DOOR3.index[(1, 3)]
    t = TWIN_DOOR3.index[(7, 3)]
    assert len(min_vertex_cut(TWIN_DOOR3, s, t)) == 3


def test_general_cut_finds_three_wide_door_the_seed_reading_misses():
    assert [s for s in seed_separators(TWIN_DOOR3) if s.significant] == []
    (cut,) = general_cuts(TWIN_DOOR3)
    assert len(cut.cut) == 3
    assert min(len(p) for p in cut.parts) >= 20


def test_general_cut_of_dumbbell_is_one_cell():
    (cut,) = general_cuts(DUMBBELL)
    assert len(cut.cut) == 1
    assert cells(DUMBBELL, cut.cut)[0][1] == 1


@given(floors(5, 4), st.data())
def test_min_vertex_cut_matches_brute_force(graph, data):
    if len(graph) < 2:
        return
    s = data.draw(st.integers(0, len(graph) - 1))
    t = data.draw(st.integers(0, len(graph) - 1))
    cut = min_vertex_cut(graph, s, t)
    if s == t or t in graph.adj[s] or bfs_distances(graph, s)[t] == -1:
        assert cut == []
        return
    assert s not in cut and t not in cut
    blocked = [v in cut for v in range(len(graph))]
    assert bfs_distances(graph, s, blocked)[t] == -1
    others = [v for v in range(len(graph)) if v not in (s, t)]
    for k in range(len(cut)):
        for sub in itertools.combinations(others, k):
            blocked = [v in sub for v in range(len(graph))]
            assert bfs_distances(graph, s, blocked)[t] != -1


def test_bfs_distances_go_around_walls():
    graph = board(
        ".#.",
        ".#.",
        "...",
    )
    dist = bfs_distances(graph, graph.index[(0, 0)])
    assert dist[graph.index[(2, 0)]] == 6
    assert dist[graph.index[(1, 2)]] == 3


@given(st.integers(1, 4), st.integers(0, 2), st.data())
def test_hungarian_matches_brute_force(n, extra, data):
    m = n + extra
    cost = [[data.draw(st.integers(0, 20)) for _ in range(m)] for _ in range(n)]
    total, assign = min_cost_assignment(cost)
    brute = min(sum(cost[i][p[i]] for i in range(n))
                for p in itertools.permutations(range(m), n))
    assert total == brute
    assert len(set(assign)) == n
    assert sum(cost[i][assign[i]] for i in range(n)) == total


def test_matching_bounds_wall_aware_exceeds_manhattan_behind_a_wall():
    graph = board(
        ".#.",
        ".#.",
        ".#.",
        "...",
    )
    bodies = [([(0, 0), (0, 1)], [3])]
    holes = [((2, 0), 3)]
    bound = matching_bounds(graph, bodies, holes)
    # Manhattan: the head is 2 away (cost 1); around the wall the tail is 7 away (cost 6),
    # each cost being max(1, d - 1) of the nearer end.
    assert (bound.manhattan, bound.wall) == (1, 6)


def test_matching_bounds_holes_used_once_and_inner_layers_added():
    graph = board("......")
    bodies = [([(0, 0), (1, 0)], [1, 2]), ([(4, 0), (5, 0)], [1])]
    holes = [((3, 0), 1), ((2, 0), 2), ((5, 0), 1)]
    bound = matching_bounds(graph, bodies, holes)
    assert bound.inner_layers == 1
    # without distinct holes both would take the hole at x=3; the matching must not.
    assert bound.per_color[0]["wall"] == min(1 + 1, 1 + 4)
    assert bound.wall == bound.per_color[0]["wall"] + 1


def test_coverage_2x2_excludes_corridors():
    graph = board(
        "..#..",
        "..#..",
        ".....",
    )
    covered = coverage_2x2(graph)
    assert [graph.cells[v] for v in range(len(graph)) if not covered[v]] == [(2, 2)]


def test_free_space_bodies_and_holes_are_obstacles():
    graph = board("......")
    parts = free_space(graph, [([(2, 0), (3, 0)], [1])], [((5, 0), 1)])
    assert [len(p) for p in parts] == [2, 1]


def test_potential_exits_blocked_by_other_body_but_not_self():
    graph = board(
        "....",
        "....",
    )
    # body 0 can reach its hole around itself; body 1 is walled in by body 0 and the hole.
    bodies = [([(1, 0), (1, 1)], [1]), ([(0, 0), (0, 1)], [2])]
    holes = [((3, 0), 1), ((2, 1), 2)]
    assert potential_exits(graph, bodies, holes) == [True, False]


def test_diagnostics_of_known_shapes():
    ring = board("...", ".#.", "...")
    rect = board("....", "....", "....")
    path = board(".....")
    assert ring.edge_count - len(ring) + len(components(ring)) == 1
    assert rect.edge_count - len(rect) + 1 == 6
    assert diameter_and_detour(path) == (4, 1.0)
    diameter, detour = diameter_and_detour(ring)
    assert diameter == 4 and detour > 1.0


def test_analyse_space_reports_every_diagnostic():
    floor = TWIN_DOOR2.cells
    bodies = [([(0, 0), (1, 0)], [1]), ([(8, 5), (7, 5)], [2])]
    holes = [((3, 5), 1), ((5, 0), 2)]
    out = analyse_space(9, 6, floor, bodies, holes)
    for key in ("B", "D", "N", "F", "value", "narrow_points", "general_cuts", "wall_bound",
                "manhattan_bound", "coverage_2x2", "largest_free_area", "component_count",
                "diameter", "mean_detour_ratio", "cycle_rank", "max_narrow_load"):
        assert key in out
    assert out["component_count"] == 1
    (door,) = out["narrow_points"]
    assert door["cross_demand"] == 0 and door["straddling"] == 0


def test_narrow_load_counts_cross_demand_and_straddlers():
    floor = TWIN_DOOR2.cells
    holes = [((3, 5), 1), ((5, 0), 2)]
    # colour 1 lives right but its hole is left; colour 2 lives left, hole right: demand 2.
    crossing = [([(8, 0), (7, 0)], [1]), ([(0, 5), (1, 5)], [2])]
    out = analyse_space(9, 6, floor, crossing, holes)
    (door,) = out["narrow_points"]
    assert (door["cross_demand"], door["straddling"], door["load"]) == (2, 0, 1.0)
    # a body lying in the door straddles it
    straddle = [([(4, 2), (4, 3)], [1]), ([(0, 5), (1, 5)], [2])]
    (door,) = analyse_space(9, 6, floor, straddle, holes)["narrow_points"]
    assert (door["cross_demand"], door["straddling"]) == (1, 1)
