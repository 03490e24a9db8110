"""The puzzle auditor's ``score`` check: the seven-term design score recomputed from the
seed's written formula (seed section 3, spec section 6), term by term, with its diagnostics.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bench.audit.puzzle_rules import Level
from bench.audit.shared import INF, Step, assignment

WEIGHTS = {
    "occupancy": 18,
    "body_scale": 12,
    "steps": 18,
    "blocking": 14,
    "mechanics": 12,
    "shuffling": 8,
    "space": 18,
}
TERMS = list(WEIGHTS)

Neighbours = Sequence[Sequence[int]]  # per cell its four neighbours (U, D, L, R), -1 none
Opts = Mapping[str, Any]  # the readings ``--score-opt`` switches


def clip(x: float) -> float:
    return min(1.0, max(0.0, x))


def components(cells: Iterable[int], nb: Neighbours, allowed: set[int]) -> list[list[int]]:
    """Connected components of the cells in ``allowed`` (a set), as lists."""
    seen: set[int] = set()
    comps = []
    for c in cells:
        if c in seen or c not in allowed:
            continue
        comp = [c]
        seen.add(c)
        q = [c]
        while q:
            x = q.pop()
            for t in nb[x]:
                if t >= 0 and t in allowed and t not in seen:
                    seen.add(t)
                    comp.append(t)
                    q.append(t)
        comps.append(comp)
    return comps


def articulation_points(region: Sequence[int], nb: Neighbours) -> set[int]:
    """Tarjan's articulation points of the floor subgraph ``region`` (iterative)."""
    region_set = set(region)
    disc: dict[int, int] = {}
    low: dict[int, int] = {}
    aps: set[int] = set()
    timer = 0
    for root in region:
        if root in disc:
            continue
        disc[root] = low[root] = timer
        timer += 1
        children = 0
        stack = [(root, -1, iter([t for t in nb[root] if t >= 0 and t in region_set]))]
        while stack:
            v, parent, it = stack[-1]
            advanced = False
            for t in it:
                if t == parent:
                    continue
                if t in disc:
                    low[v] = min(low[v], disc[t])
                else:
                    disc[t] = low[t] = timer
                    timer += 1
                    if v == root:
                        children += 1
                    stack.append((t, v, iter([u for u in nb[t] if u >= 0 and u in region_set])))
                    advanced = True
                    break
            if not advanced:
                stack.pop()
                if stack:
                    p = stack[-1][0]
                    low[p] = min(low[p], low[v])
                    if p != root and low[v] >= disc[p]:
                        aps.add(p)
        if children > 1:
            aps.add(root)
    return aps


def score_level(lv: Level, solution: Sequence[Step], exits: Sequence[bool],
                opts: Opts | None = None) -> dict[str, Any]:
    """Seven contributions + diagnostics computed from the written formula."""
    opts = opts or {}
    floor_cells = [i for i in range(lv.n) if lv.floor[i]]
    F = len(floor_cells)
    k = lv.k
    body_cells = sum(lv.blen)
    holes = lv.m
    occ_ratio = (body_cells + holes) / F
    diag: dict[str, Any] = {
        "floor_cells": F,
        "occupancy_ratio": occ_ratio,
        "body_count": k,
        "body_cells": body_cells,
        "hole_count": holes,
        "longest_body": max(lv.blen),
    }
    occupancy = clip((occ_ratio - 0.25) / 0.60)
    body_scale = clip(body_cells / 70)
    steps = len(solution)
    diag["solution_steps"] = steps
    steps_n = clip(steps / 100)
    owner = {}
    for b in range(k):
        for c in lv.bcells[b]:
            owner[c] = b
    pe = sum(1 for b in range(k) if _may_exit(lv, b, owner))
    diag["potential_exits"] = pe
    blocking = 1 - pe / k
    mech = _mechanics(lv, opts, diag)
    shuffle = _shuffle_steps(solution, exits, opts.get("shuffle", "split") != "maximal")
    diag["shuffle_steps"] = shuffle
    shuf = 0.55 * (1 if pe == 0 else 0) + 0.45 * clip(shuffle / max(4, body_cells * 0.2))
    sp = space_terms(lv, floor_cells, owner, opts)
    diag["space"] = sp
    space = sp["value"]
    norm = {
        "occupancy": occupancy,
        "body_scale": body_scale,
        "steps": steps_n,
        "blocking": blocking,
        "mechanics": mech,
        "shuffling": shuf,
        "space": space,
    }
    contrib = {t: WEIGHTS[t] * norm[t] for t in TERMS}
    total = round(sum(contrib.values()) + 1e-9, 1)
    return {"total": total, "contributions": contrib, "normalised": norm, "diagnostics": diag}


def _may_exit(lv: Level, b: int, owner: dict[int, int]) -> bool:
    """A potential exit: freezes and locks lifted, own cells passable, other bodies, stones
    and holes of other colours blocking, some end of body b reaches a hole of its outer
    colour."""
    outer = lv.bcolors[b][0]
    seen: set[int] = set()
    q = [lv.bcells[b][0], lv.bcells[b][-1]]
    seen.update(q)
    while q:
        x = q.pop()
        for t in lv.nb[x]:
            if t < 0:
                continue
            hj = lv.hole_at[t]
            if hj >= 0:
                if lv.hcolor[hj] == outer:
                    return True
                continue
            if t in seen:
                continue
            if t in owner and owner[t] != b:
                continue
            seen.add(t)
            q.append(t)
    return False


def _mechanics(lv: Level, opts: Opts, diag: dict[str, Any]) -> float:
    k = lv.k
    extra = sum(n - 1 for n in lv.nc)
    fsum_b = sum(lv.bfrozen)
    fsum_h = sum(lv.hfrozen)
    fsum = fsum_b + (fsum_h if opts.get("hole_freeze_in_sum", True) else 0)
    keyb = sum(1 for x in lv.bkey if x is not None)
    lockb = sum(1 for x in lv.block if x is not None)
    diag.update(
        extra_layers=extra,
        frozen_threshold_sum=fsum,
        frozen_body_sum=fsum_b,
        frozen_hole_sum=fsum_h,
        key_bodies=keyb,
        lock_bodies=lockb,
    )
    return clip(extra / (k * 0.7) + fsum / (k * 5) + (keyb + lockb) / (k * 1.1))


def _shuffle_steps(solution: Sequence[Step], exits: Sequence[bool], split: bool) -> int:
    """Steps of maximal one-body runs that do not end in an exit (default reading: an exit
    closes its run, since an exit step is never a shuffle step; ``split`` False
    (``shuffle=maximal``) keeps one run through exits of a coated body)."""
    shuffle = 0
    i = 0
    while i < len(solution):
        j = i
        while (
            j + 1 < len(solution)
            and solution[j + 1][0] == solution[i][0]
            and not (split and exits[j])
        ):
            j += 1
        if not exits[j]:
            shuffle += j - i + 1
        i = j + 1
    return shuffle


# a narrow point: (region index, its cells, the parts it leaves, region size, second share)
_Cut = tuple[int, tuple[int, ...], list[list[int]], int, float]


def space_terms(lv: Level, floor_cells: list[int], owner: dict[int, int],
                opts: Opts) -> dict[str, Any]:
    """The space term's four parts: B (narrow points' load), D (detours: wall-aware against
    Manhattan bounds), N (body cells outside every all-floor 2x2 square), F (largest free
    area against the longest body)."""
    nb = lv.nb
    floor_set = set(floor_cells)
    regions = components(floor_cells, nb, floor_set)
    region_of = {}
    for ri, r in enumerate(regions):
        for c in r:
            region_of[c] = ri
    hole_cells = {lv.hcell[j]: j for j in range(lv.m)}
    cuts = _narrow_cuts(lv, regions, opts.get("slices", "walls"))
    max_load = 0.0
    narrow = []
    for cut in cuts:
        point, load = _narrow_load(lv, cut, region_of, opts.get("side", "whole"))
        narrow.append(point)
        max_load = max(max_load, load)
    B = clip(max_load / 2)
    wall, man, unreachable = _detour_bounds(lv, opts)
    D = clip((wall - man) / max(2, man)) if not unreachable else 0.0
    # N: body cells outside every all-floor 2x2 square
    cover = _covered_by_squares(lv)
    body_cells = sum(lv.blen)
    narrow_cells = sum(1 for b in range(lv.k) for c in lv.bcells[b] if c not in cover)
    N = clip(2 * narrow_cells / body_cells)
    # F: largest free area
    free = {c for c in floor_cells if c not in owner and c not in hole_cells}
    comps = components(sorted(free), nb, free)
    largest = max((len(c) for c in comps), default=0)
    longest = max(lv.blen)
    Fv = clip((1 - largest / len(free)) * min(1.0, longest / max(1, largest))) if free else 0.0
    value = math.sqrt(0.45 * B * B + 0.25 * D * D + 0.20 * N * N + 0.10 * Fv * Fv)
    return {
        "value": value,
        "B": B,
        "D": D,
        "N": N,
        "F": Fv,
        "max_narrow_load": max_load,
        "narrow_points": narrow,
        "wall_bound": wall,
        "manhattan_bound": man,
        "unreachable_hole": unreachable,
        "coverage_2x2": len(cover & floor_set) / len(floor_set),
        "narrow_body_share": narrow_cells / body_cells,
        "free_cells": len(free),
        "free_components": len(comps),
        "largest_free_area": largest,
        "component_count": len(regions),
    }


def _narrow_cuts(lv: Level, regions: list[list[int]], slice_mode: str) -> list[_Cut]:
    """Articulation points and two-cell slices whose removal leaves a second part of at
    least 3 cells and 8% of the region."""
    nb = lv.nb
    cuts: list[_Cut] = []
    for ri, region in enumerate(regions):
        rsize = len(region)
        rset = set(region)
        aps = articulation_points(region, nb)
        cand: list[tuple[int, ...]] = [(a,) for a in sorted(aps)]
        cand += _slices(nb, region, rset, aps, slice_mode)
        for cut in cand:
            rest = rset.difference(cut)
            parts = components(sorted(rest), nb, rest)
            if len(parts) < 2:
                continue
            parts.sort(key=len, reverse=True)
            second = len(parts[1])
            share = second / rsize
            if not (share >= 0.08 and second >= 3):
                continue
            cuts.append((ri, cut, parts, rsize, share))
    return cuts


def _slices(nb: Neighbours, region: list[int], rset: set[int], aps: set[int],
            slice_mode: str) -> list[tuple[int, ...]]:
    """Axis-aligned two-cell slices: adjacent pairs (neither an articulation point); with
    ``slice_mode`` "walls" the whole cross-section (both cells' outer sides walls)."""
    out: list[tuple[int, ...]] = []
    for a in sorted(region):
        if a in aps:
            continue
        for di in (1, 3):  # D and R neighbours: each pair once
            b = nb[a][di]
            if b < 0 or b not in rset or b in aps:
                continue
            if slice_mode == "walls":
                # a horizontal pair is a row slice: its sides are L of a and R of b
                sides = (nb[a][2], nb[b][3]) if di == 3 else (nb[a][0], nb[b][1])
                if sides[0] >= 0 or sides[1] >= 0:
                    continue
            out.append((a, b))
    return out


def _narrow_load(lv: Level, cut: _Cut, region_of: dict[int, int],
                 side_rule: str) -> tuple[dict[str, Any], float]:
    """One narrow point's figures (the layers that must cross it, the bodies straddling
    it, its load rounded) and its load."""
    ri, cells_cut, parts, _rsize, share = cut
    part_of = {}
    for pi, p in enumerate(parts):
        for c in p:
            part_of[c] = pi
    layers: list[dict[int, int]] = [{} for _ in parts]
    hol: list[dict[int, int]] = [{} for _ in parts]
    straddle = 0
    cutset = set(cells_cut)
    for b in range(lv.k):
        cells = lv.bcells[b]
        if region_of[cells[0]] != ri:
            continue
        ps = {part_of[c] for c in cells if c in part_of}
        crossing = len(ps) > 1 or any(c in cutset for c in cells)
        if crossing:
            straddle += 1
        side = _body_side(cells, ps, crossing, part_of, side_rule)
        if side is None:
            continue
        for col in lv.bcolors[b]:
            layers[side][col] = layers[side].get(col, 0) + 1
    for j in range(lv.m):
        c = lv.hcell[j]
        if c in part_of:
            d = hol[part_of[c]]
            d[lv.hcolor[j]] = d.get(lv.hcolor[j], 0) + 1
    cross = 0
    for pi in range(len(parts)):
        for col, n in layers[pi].items():
            cross += max(0, n - hol[pi].get(col, 0))
    width = len(cells_cut)
    load = (cross + straddle) / width * min(1.0, share / 0.25)
    return {
        "kind": "articulation" if width == 1 else "slice",
        "cells": [lv.xy(c) for c in cells_cut],
        "parts": [len(p) for p in parts],
        "second_share": round(share, 4),
        "cross_demand": cross,
        "straddling": straddle,
        "load": round(load, 4),
    }, load


def _body_side(cells: tuple[int, ...], ps: set[int], crossing: bool, part_of: dict[int, int],
               side_rule: str) -> int | None:
    """The part whose cross demand counts a body's layers (None: in none)."""
    if side_rule == "whole":
        # a straddling body counts in the straddling term only; the others count
        # their layers on their own side (the reading the shipped data agrees with)
        if crossing or not ps:
            return None
        return next(iter(ps))
    if side_rule == "cells":
        # a body's layers count on the side holding most of its cells (head breaks ties)
        cnt: dict[int, int] = {}
        for c in cells:
            if c in part_of:
                cnt[part_of[c]] = cnt.get(part_of[c], 0) + 1
        if not cnt:
            return None
        return max(cnt, key=lambda p: (cnt[p], p == part_of.get(cells[0])))
    return part_of.get(cells[0], part_of.get(cells[-1]))


def _detour_bounds(lv: Level, opts: Opts) -> tuple[int, int, bool]:
    """D's bounds: seed cost max(1, min(d_head, d_tail) - 1) per body and hole, matched per
    outer colour, wall-aware and Manhattan (plus the inner layers unless switched off), and
    whether some hole is out of every matching's reach."""
    wall = man = 0
    unreachable = False
    inner = sum(n - 1 for n in lv.nc)
    groups: dict[int, list[int]] = {}
    for b in range(lv.k):
        groups.setdefault(lv.bcolors[b][0], []).append(b)
    for col, bl in groups.items():
        hs = lv.holes_by_color.get(col, [])
        cw, cm = [], []
        for b in bl:
            hd, tl = lv.bcells[b][0], lv.bcells[b][-1]
            rw, rm = [], []
            for j in hs:
                d = min(lv.dist[j][hd], lv.dist[j][tl])
                rw.append(INF if d >= INF else max(1, d - 1))
                hx, hy = lv.xy(lv.hcell[j])
                md = min(abs(hx - x) + abs(hy - y) for x, y in (lv.xy(hd), lv.xy(tl)))
                rm.append(max(1, md - 1))
            cw.append(rw)
            cm.append(rm)
        aw = assignment(cw)
        if aw >= INF:  # no matching avoids a hole in another region
            unreachable = True
        wall += aw
        man += assignment(cm)
    if opts.get("bound_inner", True):
        wall += inner
        man += inner
    return wall, man, unreachable


def _covered_by_squares(lv: Level) -> set[int]:
    cover: set[int] = set()
    cols, rows = lv.cols, lv.rows
    for y in range(rows - 1):
        for x in range(cols - 1):
            sq = (y * cols + x, y * cols + x + 1, (y + 1) * cols + x, (y + 1) * cols + x + 1)
            if all(lv.floor[c] for c in sq):
                cover.update(sq)
    return cover
