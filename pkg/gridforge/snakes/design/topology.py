"""Space topology of a snakes level: the floor graph and its narrow points (seed 004, section 1).

The floor graph has one vertex per floor cell and an edge between 4-adjacent floor cells. It
answers questions about walls, rooms and corridors; it says nothing about whether a level can
be solved (that is the state graph's business, in :mod:`gridforge.snakes.solver.search`).

What is computed here, all on plain data (``cols``, ``rows``, floor cells, bodies as cell lists
with their colours, holes as ``(cell, colour)``), so that templates and the generator can use it
before any level object exists:

- articulation points (Tarjan, iterative) and axis-aligned two-cell slices, with the seed's
  significance rule (the second-largest remaining part holds at least 8% of its connected
  region and at least 3 cells);
- the load of each narrow point: (cross demand + straddling bodies) / passage width, times
  ``min(1, second share / 0.25)``; the largest load counts once, so a corridor cut in many
  places is never counted twice;
- wall-aware BFS distances; per-colour minimum-cost matching of bodies to distinct holes (the
  solver's Hungarian matcher, :mod:`~gridforge.snakes.solver.matching`), with wall-aware and with
  Manhattan distances;
- 2x2 coverage and the length-weighted share of body cells outside every all-floor 2x2 square;
- free-space components (bodies and unused holes as obstacles) and the largest free area;
- diagnostics: component count, diameter, mean detour ratio, cycle rank E - V + C;
- beyond the seed: a general minimum vertex cut per region by max-flow on a split-vertex graph,
  reported beside (never instead of) the seed's one- and two-cell reading.

Every traversal is iterative (Pyodide has a shallow stack) and runs in row-major order.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from gridforge.grid import NEIGHBOURS_4, Cell, row_major_key
from gridforge.snakes.solver.matching import min_cost_assignment

# A body for the analysis: its cells [head, ..., tail] and its colours, outermost first.
BodyData = tuple[Sequence[Cell], Sequence[int]]
# A hole for the analysis: its cell and its colour.
HoleData = tuple[Cell, int]

SIGNIFICANT_SHARE = 0.08  # second-largest part / its connected region
SIGNIFICANT_CELLS = 3  # second-largest part, in cells
FULL_SHARE = 0.25  # a second part this large counts fully in the load
UNREACHABLE = 10**6  # matching cost of a hole that a body can never reach


class FloorGraph:
    """The floor cells of a ``cols`` x ``rows`` board as an indexed graph (row-major order)."""

    def __init__(self, cols: int, rows: int, floor: Iterable[Cell]) -> None:
        self.cols = cols
        self.rows = rows
        self.cells: tuple[Cell, ...] = tuple(sorted(set(floor), key=row_major_key))
        self.index: dict[Cell, int] = {cell: i for i, cell in enumerate(self.cells)}
        adj: list[tuple[int, ...]] = []
        for x, y in self.cells:
            out = []
            for dx, dy in NEIGHBOURS_4:
                j = self.index.get((x + dx, y + dy))
                if j is not None:
                    out.append(j)
            adj.append(tuple(out))
        self.adj = adj

    def __len__(self) -> int:
        return len(self.cells)

    @property
    def edge_count(self) -> int:
        """Number of edges (each 4-adjacent pair of floor cells once)."""
        return sum(len(a) for a in self.adj) // 2


# ---------------------------------------------------------------------------------------------
# Connectivity


def components(graph: FloorGraph, removed: Iterable[int] = ()) -> list[list[int]]:
    """Connected parts of the graph without ``removed``; each part sorted, parts by first cell."""
    n = len(graph)
    seen = [False] * n
    for r in removed:
        seen[r] = True
    return _flood(graph, range(n), seen)


def _flood(graph: FloorGraph, starts: Iterable[int], seen: list[bool]) -> list[list[int]]:
    """Breadth-first parts from ``starts`` over cells not yet ``seen`` (marked as it goes);
    each part sorted, parts in the order of their first start."""
    parts: list[list[int]] = []
    adj = graph.adj
    for start in starts:
        if seen[start]:
            continue
        seen[start] = True
        part = [start]
        queue = deque((start,))
        while queue:
            v = queue.popleft()
            for w in adj[v]:
                if not seen[w]:
                    seen[w] = True
                    part.append(w)
                    queue.append(w)
        part.sort()
        parts.append(part)
    return parts


def component_labels(graph: FloorGraph) -> tuple[list[int], list[list[int]]]:
    """A region number per vertex, and the regions (as from :func:`components`)."""
    parts = components(graph)
    label = [0] * len(graph)
    for k, part in enumerate(parts):
        for v in part:
            label[v] = k
    return label, parts


def articulation_points(graph: FloorGraph) -> list[int]:
    """Vertices whose removal splits their region (Tarjan's low-link, iterative), ascending."""
    n = len(graph)
    disc = [-1] * n
    low = [0] * n
    parent = [-1] * n
    is_cut = [False] * n
    adj = graph.adj
    clock = 0
    for root in range(n):
        if disc[root] != -1:
            continue
        disc[root] = low[root] = clock
        clock += 1
        root_children = 0
        stack: list[list[int]] = [[root, 0]]
        while stack:
            frame = stack[-1]
            v, i = frame
            if i < len(adj[v]):
                frame[1] = i + 1
                w = adj[v][i]
                if disc[w] == -1:
                    parent[w] = v
                    disc[w] = low[w] = clock
                    clock += 1
                    if v == root:
                        root_children += 1
                    stack.append([w, 0])
                elif w != parent[v] and disc[w] < low[v]:
                    low[v] = disc[w]
            else:
                stack.pop()
                if stack:
                    p = stack[-1][0]
                    if low[v] < low[p]:
                        low[p] = low[v]
                    if p != root and low[v] >= disc[p]:
                        is_cut[p] = True
        if root_children > 1:
            is_cut[root] = True
    return [v for v in range(n) if is_cut[v]]


def two_cell_slices(graph: FloorGraph) -> list[tuple[int, int]]:
    """Axis-aligned slices of exactly two cells: maximal runs of two floor cells in a row or
    a column (the cross-section of a two-wide corridor or door), in row-major order."""
    out: list[tuple[int, int]] = []
    index = graph.index
    for x, y in graph.cells:
        a = index[(x, y)]
        # A horizontal run of two starting here: (x-1, y) and (x+2, y) are not floor.
        if (x - 1, y) not in index and (x + 2, y) not in index:
            b = index.get((x + 1, y))
            if b is not None:
                out.append((a, b))
        if (x, y - 1) not in index and (x, y + 2) not in index:
            b = index.get((x, y + 1))
            if b is not None:
                out.append((a, b))
    out.sort()
    return out


# ---------------------------------------------------------------------------------------------
# Distances


def bfs_distances(
    graph: FloorGraph, source: int, blocked: Sequence[bool] | None = None
) -> list[int]:
    """Steps from ``source`` to every vertex through the floor (-1 where unreachable).

    ``blocked`` marks vertices that may not be entered (the source itself always counts).
    """
    n = len(graph)
    dist = [-1] * n
    dist[source] = 0
    queue = deque((source,))
    adj = graph.adj
    while queue:
        v = queue.popleft()
        dv = dist[v] + 1
        for w in adj[v]:
            if dist[w] == -1 and (blocked is None or not blocked[w]):
                dist[w] = dv
                queue.append(w)
    return dist


def diameter_and_detour(graph: FloorGraph) -> tuple[int, float]:
    """The largest wall-aware distance inside any region, and the mean over all pairs of cells
    in one region of wall-aware distance / Manhattan distance (1.0 when no pair exists)."""
    diameter = 0
    ratio_sum = 0.0
    pairs = 0
    cells = graph.cells
    for s in range(len(graph)):
        dist = bfs_distances(graph, s)
        sx, sy = cells[s]
        for t in range(s + 1, len(graph)):
            d = dist[t]
            if d <= 0:
                continue
            tx, ty = cells[t]
            ratio_sum += d / (abs(sx - tx) + abs(sy - ty))
            pairs += 1
            if d > diameter:
                diameter = d
    return diameter, (ratio_sum / pairs if pairs else 1.0)


# ---------------------------------------------------------------------------------------------
# Narrow points


@dataclass
class Separator:
    """A set of cut cells and the parts its removal leaves in its connected region."""

    kind: str  # "articulation", "slice" or "mincut"
    cut: tuple[int, ...]
    region: int  # index of the connected region (see component_labels)
    region_size: int
    parts: list[list[int]]  # largest first, ties by first cell

    @property
    def second_share(self) -> float:
        """Size of the second-largest part over the size of the connected region."""
        return len(self.parts[1]) / self.region_size if len(self.parts) > 1 else 0.0

    @property
    def significant(self) -> bool:
        """The seed's rule: a second part of at least 8% of the region and at least 3 cells."""
        if len(self.parts) < 2:
            return False
        second = len(self.parts[1])
        return second >= SIGNIFICANT_CELLS and second >= SIGNIFICANT_SHARE * self.region_size


def _separator(
    graph: FloorGraph, kind: str, cut: Sequence[int], label: list[int], regions: list[list[int]]
) -> Separator:
    region = label[cut[0]]
    members = regions[region]
    inside = [False] * len(graph)
    for v in members:
        inside[v] = True
    removed = set(cut)
    seen = [True] * len(graph)
    for v in members:
        if v not in removed:
            seen[v] = False
    parts = _flood(graph, members, seen)
    parts.sort(key=lambda p: (-len(p), p[0]))
    return Separator(kind, tuple(sorted(cut)), region, len(members), parts)


def seed_separators(graph: FloorGraph) -> list[Separator]:
    """The seed's narrow-point candidates that split their region: every articulation point,
    then every two-cell slice whose removal splits its region (significant or not)."""
    label, regions = component_labels(graph)
    out = [
        _separator(graph, "articulation", (v,), label, regions) for v in articulation_points(graph)
    ]
    for a, b in two_cell_slices(graph):
        sep = _separator(graph, "slice", (a, b), label, regions)
        if len(sep.parts) > 1:
            out.append(sep)
    return out


def min_vertex_cuts(
    graph: FloorGraph, sources: Sequence[int], sinks: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Minimum sets of vertices (never a source or a sink) whose removal separates every source
    from every sink: max-flow (Edmonds-Karp) on the split-vertex graph, where each vertex is an
    in/out pair joined by an arc of capacity 1 and each floor edge gives unbounded arcs both ways.

    Returns the minimum cut nearest the sources and the one nearest the sinks (often the same);
    both are ``[]`` when a source touches a sink or no sink can be reached at all.
    """
    src = set(sources)
    snk = set(sinks)
    if not src or not snk or src & snk or any(w in snk for v in src for w in graph.adj[v]):
        return [], []
    n = len(graph)
    big = n + 1
    to: list[int] = []
    cap: list[int] = []
    out: list[list[int]] = [[] for _ in range(2 * n)]

    def arc(a: int, b: int, c: int) -> None:
        out[a].append(len(to))
        to.append(b)
        cap.append(c)
        out[b].append(len(to))
        to.append(a)
        cap.append(0)

    out.extend(([], []))  # the super source 2n and the super sink 2n + 1
    for v in range(n):
        arc(2 * v, 2 * v + 1, big if v in src or v in snk else 1)
        for w in graph.adj[v]:
            arc(2 * v + 1, 2 * w, big)
    source, sink = 2 * n, 2 * n + 1
    for v in sorted(src):
        arc(source, 2 * v, big)
    for v in sorted(snk):
        arc(2 * v + 1, sink, big)
    flow = 0
    while True:
        prev_arc = [-1] * (2 * n + 2)
        prev_arc[source] = -2
        queue = deque((source,))
        while queue and prev_arc[sink] == -1:
            node = queue.popleft()
            for a in out[node]:
                m = to[a]
                if cap[a] > 0 and prev_arc[m] == -1:
                    prev_arc[m] = a
                    queue.append(m)
        if prev_arc[sink] == -1:
            break
        flow += 1
        node = sink
        while node != source:  # unit augmentation: every path crosses an inner arc of cap 1
            a = prev_arc[node]
            cap[a] -= 1
            cap[a ^ 1] += 1
            node = to[a ^ 1]
    # Residual reach from the source, and residual co-reach of the sink.
    if flow == 0:
        return [], []
    fwd = _residual_reach(source, out, to, cap, 0)
    if fwd[sink]:
        return [], []  # cannot happen for a finite flow; kept for safety
    bwd = _residual_reach(sink, out, to, cap, 1)  # an arc a's twin a ^ 1 runs backwards
    near_s = [v for v in range(n) if fwd[2 * v] and not fwd[2 * v + 1]]
    near_t = [v for v in range(n) if bwd[2 * v + 1] and not bwd[2 * v]]
    return near_s, near_t


def _residual_reach(start: int, out: list[list[int]], to: list[int], cap: list[int],
                    twin: int) -> list[bool]:
    """The nodes reached from ``start`` along arcs with capacity left: forwards
    (``twin`` 0), or backwards (``twin`` 1: node -> m counts when its twin m -> node has
    capacity left)."""
    seen = [False] * len(out)
    seen[start] = True
    queue = deque((start,))
    while queue:
        node = queue.popleft()
        for a in out[node]:
            m = to[a]
            if cap[a ^ twin] > 0 and not seen[m]:
                seen[m] = True
                queue.append(m)
    return seen


def min_vertex_cut(graph: FloorGraph, s: int, t: int) -> list[int]:
    """A minimum vertex cut between cells ``s`` and ``t`` (the one nearest ``s``); see
    :func:`min_vertex_cuts`."""
    return min_vertex_cuts(graph, [s], [t])[0]


def general_cuts(graph: FloorGraph) -> list[Separator]:
    """Per region, a minimum vertex cut across its long axis, by max-flow: beyond the seed's
    one- and two-cell reading, it finds wider waists too.

    The region's long axis runs between the ends ``a``, ``b`` of a double-sweep BFS (at distance
    ``L``); the cut separates the cells within ``L // 4`` of ``a`` from those within ``L // 4``
    of ``b``, so it lies in the middle half and never just shaves off a corner. Of the minimum
    cuts nearest either side, the one leaving the larger second part is kept.
    """
    label, regions = component_labels(graph)
    found: list[Separator] = []
    for region in regions:
        dist = bfs_distances(graph, region[0])
        a = max(region, key=lambda v: (dist[v], -v))
        dist_a = bfs_distances(graph, a)
        b = max(region, key=lambda v: (dist_a[v], -v))
        radius = dist_a[b] // 4
        if radius < 1:
            continue
        dist_b = bfs_distances(graph, b)
        near_a = [v for v in region if dist_a[v] <= radius]
        near_b = [v for v in region if dist_b[v] <= radius]
        best: Separator | None = None
        for cut in min_vertex_cuts(graph, near_a, near_b):
            if not cut:
                continue
            sep = _separator(graph, "mincut", cut, label, regions)
            if best is None or sep.second_share > best.second_share:
                best = sep
        if best is not None and len(best.parts) > 1:
            found.append(best)
    return found


# ---------------------------------------------------------------------------------------------
# Matching


def seed_cost(distance: int) -> int:
    """The seed's body-to-hole cost for the nearer end's distance ``d``: ``max(1, d - 1)``."""
    return max(1, distance - 1)


class ColourMatching(TypedDict):
    """One outer colour's matching of bodies to holes (wall-aware and Manhattan costs)."""

    color: int
    bodies: list[int]
    holes: list[int]
    wall: int | None  # None: fewer holes than bodies of the colour
    manhattan: int | None
    wall_assignment: NotRequired[list[int]]


class NarrowPoint(TypedDict):
    """A separator of the floor and its load (the space term's B)."""

    kind: str
    cells: list[list[int]]
    width: int
    parts: list[int]
    region_size: int
    second_share: float
    significant: bool
    cross_demand: int
    straddling: int
    load: float


class Space(TypedDict):
    """The space term and its diagnostics (:func:`analyse_space`)."""

    value: float
    B: float
    D: float
    N: float
    F: float
    narrow_points: list[NarrowPoint]
    max_narrow_load: float
    general_cuts: list[NarrowPoint]
    articulation_points: list[list[int]]
    wall_bound: int
    manhattan_bound: int
    matching: list[ColourMatching]
    unreachable_hole: bool
    coverage_2x2: float
    narrow_body_share: float
    free_cells: int
    free_components: int
    largest_free_area: int
    component_count: int
    region_sizes: list[int]
    cycle_rank: int
    diameter: NotRequired[int]
    mean_detour_ratio: NotRequired[float]


@dataclass
class MatchingBound:
    """Wall-aware and Manhattan matching bounds (seed sections 3 and 5)."""

    wall: int
    manhattan: int
    inner_layers: int
    per_color: list[ColourMatching] = field(default_factory=list)
    unreachable: bool = False


def matching_bounds(
    graph: FloorGraph,
    bodies: Sequence[BodyData],
    holes: Sequence[HoleData],
    assign: Callable[[Sequence[Sequence[int]]], tuple[int, list[int]]] = min_cost_assignment,
) -> MatchingBound:
    """Per outer colour, the minimum-cost matching of bodies to distinct holes of that colour,
    once with wall-aware BFS distances and once with Manhattan distances; both bounds add the
    remaining inner layers (each needs at least one more step)."""
    hole_dist: dict[int, list[int]] = {}
    colors = sorted({int(body[1][0]) for body in bodies if body[1]})
    wall_total = 0
    man_total = 0
    unreachable = False
    per_color: list[ColourMatching] = []
    for color in colors:
        members = [k for k, body in enumerate(bodies) if body[1] and body[1][0] == color]
        targets = [k for k, hole in enumerate(holes) if hole[1] == color]
        if len(targets) < len(members):
            unreachable = True
            per_color.append(
                {
                    "color": color,
                    "bodies": members,
                    "holes": targets,
                    "wall": None,
                    "manhattan": None,
                }
            )
            continue
        wall_cost: list[list[int]] = []
        man_cost: list[list[int]] = []
        for b in members:
            cells = bodies[b][0]
            ends = (cells[0], cells[-1])
            wrow: list[int] = []
            mrow: list[int] = []
            for h in targets:
                hcell = holes[h][0]
                hi = graph.index.get(hcell)
                if hi is not None and hi not in hole_dist:
                    hole_dist[hi] = bfs_distances(graph, hi)
                best_wall = UNREACHABLE
                for end in ends:
                    ei = graph.index.get(end)
                    if hi is not None and ei is not None and hole_dist[hi][ei] >= 0:
                        best_wall = min(best_wall, seed_cost(hole_dist[hi][ei]))
                man = min(abs(e[0] - hcell[0]) + abs(e[1] - hcell[1]) for e in ends)
                wrow.append(best_wall)
                mrow.append(seed_cost(man))
            wall_cost.append(wrow)
            man_cost.append(mrow)
        wall, wall_assign = assign(wall_cost)
        man, _ = assign(man_cost)
        if wall >= UNREACHABLE:
            unreachable = True
        wall_total += wall
        man_total += man
        per_color.append(
            {
                "color": color,
                "bodies": members,
                "holes": targets,
                "wall": wall,
                "manhattan": man,
                "wall_assignment": [targets[j] for j in wall_assign],
            }
        )
    inner = sum(max(0, len(body[1]) - 1) for body in bodies)
    return MatchingBound(wall_total + inner, man_total + inner, inner, per_color, unreachable)


# ---------------------------------------------------------------------------------------------
# Local space


def coverage_2x2(graph: FloorGraph) -> list[bool]:
    """Whether each floor cell lies in at least one 2x2 square of floor cells."""
    covered = [False] * len(graph)
    index = graph.index
    for x, y in graph.cells:
        a = index[(x, y)]
        b = index.get((x + 1, y))
        c = index.get((x, y + 1))
        d = index.get((x + 1, y + 1))
        if b is not None and c is not None and d is not None:
            covered[a] = covered[b] = covered[c] = covered[d] = True
    return covered


def free_space(
    graph: FloorGraph, bodies: Sequence[BodyData], holes: Sequence[HoleData]
) -> list[list[int]]:
    """Components of the floor with bodies and unused holes as obstacles, largest first."""
    blocked: list[int] = []
    for cells, _colors in bodies:
        blocked.extend(graph.index[c] for c in cells if c in graph.index)
    blocked.extend(graph.index[h[0]] for h in holes if h[0] in graph.index)
    parts = components(graph, set(blocked))
    parts.sort(key=lambda p: (-len(p), p[0]))
    return parts


def potential_exits(
    graph: FloorGraph, bodies: Sequence[BodyData], holes: Sequence[HoleData]
) -> list[bool]:
    """Per body: can one of its ends reach a hole of its outer colour through free cells, with
    freezes and locks lifted and self-crossing allowed (other bodies and unused holes block)?"""
    n = len(graph)
    owner = [-1] * n
    for k, (cells, _colors) in enumerate(bodies):
        for c in cells:
            owner[graph.index[c]] = k
    hole_color = [-1] * n
    for cell, color in holes:
        hole_color[graph.index[cell]] = color
    out: list[bool] = []
    for k, (cells, colors) in enumerate(bodies):
        blocked = [(owner[v] != -1 and owner[v] != k) or hole_color[v] != -1 for v in range(n)]
        start = [graph.index[cells[0]], graph.index[cells[-1]]]
        seen = [False] * n
        queue = deque(start)
        for v in start:
            seen[v] = True
        found = False
        while queue and not found:
            v = queue.popleft()
            for w in graph.adj[v]:
                if hole_color[w] == colors[0]:
                    found = True
                    break
                if not seen[w] and not blocked[w]:
                    seen[w] = True
                    queue.append(w)
        out.append(found)
    return out


# ---------------------------------------------------------------------------------------------
# The space analysis


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


def _load(
    graph: FloorGraph,
    sep: Separator,
    body_idx: list[list[int]],
    bodies: Sequence[BodyData],
    holes_at: list[int],
    hole_colors: Sequence[int],
) -> tuple[float, int, int]:
    """(load, cross demand, straddling bodies) of one narrow point."""
    part_of = [-1] * len(graph)
    for k, part in enumerate(sep.parts):
        for v in part:
            part_of[v] = k
    cut = set(sep.cut)
    # per part, per colour: layers of bodies wholly inside minus holes inside
    balance: list[dict[int, int]] = [{} for _ in sep.parts]
    straddling = 0
    for k, idx in enumerate(body_idx):
        if not idx or not any(part_of[v] != -1 or v in cut for v in idx):
            continue  # another region
        sides = {part_of[v] for v in idx}
        if any(v in cut for v in idx) or len(sides) > 1:
            straddling += 1
            continue
        side = balance[sides.pop()]
        for color in bodies[k][1]:
            side[color] = side.get(color, 0) + 1
    for v, color in zip(holes_at, hole_colors, strict=True):
        if v >= 0 and part_of[v] != -1:
            side = balance[part_of[v]]
            side[color] = side.get(color, 0) - 1
    demand = sum(max(0, surplus) for side in balance for surplus in side.values())
    load = (demand + straddling) / len(sep.cut) * min(1.0, sep.second_share / FULL_SHARE)
    return load, demand, straddling


def _describe(
    graph: FloorGraph, sep: Separator, load: float, demand: int, straddling: int
) -> NarrowPoint:
    return {
        "kind": sep.kind,
        "cells": [list(graph.cells[v]) for v in sep.cut],
        "width": len(sep.cut),
        "parts": [len(p) for p in sep.parts],
        "region_size": sep.region_size,
        "second_share": round(sep.second_share, 4),
        "significant": sep.significant,
        "cross_demand": demand,
        "straddling": straddling,
        "load": round(load, 4),
    }


def analyse_space(
    cols: int,
    rows: int,
    floor: Iterable[Cell],
    bodies: Sequence[BodyData],
    holes: Sequence[HoleData],
    *,
    diagnostics: bool = True,
    assign: Callable[[Sequence[Sequence[int]]], tuple[int, list[int]]] = min_cost_assignment,
) -> Space:
    """The seed's space term (B, D, N, F and their weighted root mean square) with every
    diagnostic. ``diagnostics=False`` skips the all-pairs ones (diameter, detour ratio), which
    the score does not use, for speed inside the generator."""
    graph = FloorGraph(cols, rows, floor)
    body_idx = [[graph.index[c] for c in cells] for cells, _ in bodies]
    holes_at = [graph.index.get(cell, -1) for cell, _ in holes]
    hole_colors = [color for _, color in holes]

    # B: the largest load over the significant narrow points of the seed's reading.
    narrow: list[NarrowPoint] = []
    max_load = 0.0
    for sep in seed_separators(graph):
        if not sep.significant:
            continue
        load, demand, straddling = _load(graph, sep, body_idx, bodies, holes_at, hole_colors)
        narrow.append(_describe(graph, sep, load, demand, straddling))
        max_load = max(max_load, load)
    general: list[NarrowPoint] = []
    for sep in general_cuts(graph):
        load, demand, straddling = _load(graph, sep, body_idx, bodies, holes_at, hole_colors)
        general.append(_describe(graph, sep, load, demand, straddling))
    b_term = _clip(max_load / 2)

    # D: wall-aware against Manhattan matching bounds.
    bound = matching_bounds(graph, bodies, holes, assign)
    d_term = _clip((bound.wall - bound.manhattan) / max(2, bound.manhattan))

    # N: length-weighted share of body cells outside every all-floor 2x2 square.
    covered = coverage_2x2(graph)
    body_cells = sum(len(idx) for idx in body_idx)
    narrow_cells = sum(1 for idx in body_idx for v in idx if not covered[v])
    narrow_share = narrow_cells / body_cells if body_cells else 0.0
    n_term = _clip(2 * narrow_share)

    # F: the largest free area against all free cells and the longest body.
    free = free_space(graph, bodies, holes)
    free_total = sum(len(p) for p in free)
    largest = len(free[0]) if free else 0
    longest = max((len(idx) for idx in body_idx), default=0)
    fragmented = 1 - largest / free_total if free_total else 1.0
    f_term = _clip(fragmented * min(1.0, longest / max(1, largest)))

    space = math.sqrt(0.45 * b_term**2 + 0.25 * d_term**2 + 0.20 * n_term**2 + 0.10 * f_term**2)

    regions = components(graph)
    out: Space = {
        "value": space,
        "B": b_term,
        "D": d_term,
        "N": n_term,
        "F": f_term,
        "narrow_points": narrow,
        "max_narrow_load": round(max_load, 4),
        "general_cuts": general,
        "articulation_points": [list(graph.cells[v]) for v in articulation_points(graph)],
        "wall_bound": bound.wall,
        "manhattan_bound": bound.manhattan,
        "matching": bound.per_color,
        "unreachable_hole": bound.unreachable,
        "coverage_2x2": round(sum(covered) / len(graph), 4) if len(graph) else 0.0,
        "narrow_body_share": round(narrow_share, 4),
        "free_cells": free_total,
        "free_components": len(free),
        "largest_free_area": largest,
        "component_count": len(regions),
        "region_sizes": [len(r) for r in regions],
        "cycle_rank": graph.edge_count - len(graph) + len(regions),
    }
    if diagnostics:
        diameter, detour = diameter_and_detour(graph)
        out["diameter"] = diameter
        out["mean_detour_ratio"] = round(detour, 4)
    return out
