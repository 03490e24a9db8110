"""Laying out a candidate (seed 004, section 4, steps 3-4: "连通区域检查 → 长身体与洞口"):
self-avoiding bodies longest first, spread over the shape's regions; one hole per layer, in
the body's region, away from the starting ends of the bodies of its colour, hidden where the
recipe asks; colours and coats; the level dict.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gridforge.snakes.design.recipe import Recipe
from gridforge.snakes.design.templates import Shape
from gridforge.snakes.level import FORMAT as LEVEL_FORMAT

__all__ = ["assign_colors", "coat_layers", "level_dict", "neighbours", "place_bodies",
           "place_holes", "reach_cells"]


def neighbours(cell: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The four neighbours of a cell (up, left, right, down)."""
    x, y = cell
    return ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1))


def place_bodies(shape: Shape, lengths: Sequence[int], q: float,
                  rng: random.Random) -> list[list[tuple[int, int]]] | None:
    """Self-avoiding bodies, longest first, spread over the shape's regions."""
    floor = shape.floor
    free = set(floor)
    region_of: dict[tuple[int, int], int] = {}
    regions: list[list[tuple[int, int]]] = []
    for cell in floor:  # row-major, so region numbering is deterministic
        if cell in region_of:
            continue
        k = len(regions)
        part = [cell]
        region_of[cell] = k
        i = 0
        while i < len(part):
            for nb in neighbours(part[i]):
                if nb in free and nb not in region_of:
                    region_of[nb] = k
                    part.append(nb)
            i += 1
        regions.append(part)
    # Each region gets bodies in proportion to its size (at least one while bodies remain).
    order = list(range(len(regions)))
    assign: list[int] = []
    load = [0] * len(regions)
    for length in lengths:
        k = min(order, key=lambda r: ((load[r] + length) / len(regions[r]), r))
        assign.append(k)
        load[k] += length
    bodies: list[list[tuple[int, int]]] = []
    for length, k in zip(lengths, assign, strict=True):
        cells = [c for c in regions[k] if c in free]
        path = None
        for _ in range(12):
            start = rng.choice(cells)
            path = _grow(start, length, free, q, rng)
            if path is not None:
                break
        if path is None:
            return None
        for c in path:
            free.discard(c)
        bodies.append(path)
    return bodies


def _grow(start: tuple[int, int], length: int, free: set[tuple[int, int]], q: float,
          rng: random.Random) -> list[tuple[int, int]] | None:
    path = [start]
    taken = {start}
    while len(path) < length:
        options = [c for c in neighbours(path[-1]) if c in free and c not in taken]
        if not options:
            path.reverse()  # try growing from the other end
            options = [c for c in neighbours(path[-1]) if c in free and c not in taken]
            if not options:
                return None
        if rng.random() < 0.5 + 0.4 * min(q, 1.0):
            # Hug walls and other bodies (fewest free onward cells): packs bodies tightly.
            def room(c: tuple[int, int]) -> int:
                return sum(1 for d in neighbours(c) if d in free and d not in taken)

            best = min(room(c) for c in options)
            options = [c for c in options if room(c) == best]
        nxt = rng.choice(options)
        path.append(nxt)
        taken.add(nxt)
    if rng.random() < 0.5:
        path.reverse()
    return path


def _distances(floor: set[tuple[int, int]], sources: Sequence[tuple[int, int]],
               limit: int) -> dict[tuple[int, int], int]:
    """Wall-aware BFS distances from ``sources`` over ``floor``, visiting at most ``limit``."""
    dist = {s: 0 for s in sources}
    queue = list(sources)
    i = 0
    while i < len(queue) and len(dist) < limit:
        cell = queue[i]
        i += 1
        for nb in neighbours(cell):
            if nb in floor and nb not in dist:
                dist[nb] = dist[cell] + 1
                queue.append(nb)
    return dist


def reach_cells(free: set[tuple[int, int]], body: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """Cells a body's ends can reach through ``free`` cells, self-crossing allowed, plus every
    cell next to them (where a hole would give the body a potential exit)."""
    own = set(body)
    seen = {body[0], body[-1]}
    queue = [body[0], body[-1]]
    i = 0
    while i < len(queue):
        for nb in neighbours(queue[i]):
            if nb not in seen and (nb in free or nb in own):
                seen.add(nb)
                queue.append(nb)
        i += 1
    edge = set(seen)
    for cell in seen:
        edge.update(neighbours(cell))
    return edge


def place_holes(shape: Shape, bodies: list[list[tuple[int, int]]], layers: list[list[int]],
                 recipe: Recipe, budget: int, rng: random.Random
                 ) -> list[tuple[tuple[int, int], int]] | None:
    """One hole per layer of every body, of the layer's colour, in the body's region, away from
    the starting ends of the bodies whose outer colour it has.

    Of ``recipe.reach`` drawn cells the farthest (around walls) from the body wins. The holes
    of all but ``recipe.exits`` bodies are *hidden*: no body whose outer colour is the hole's
    can reach a cell next to it through free cells at the start (other bodies and holes
    block), which is what the blocking term measures; later holes only hide earlier ones more.
    """
    floor = set(shape.floor)
    occupied = {c for body in bodies for c in body}
    outer = [cs[0] for cs in layers]
    near: dict[int, set[tuple[int, int]]] = {}
    for body, color in zip(bodies, outer, strict=True):
        near.setdefault(color, set()).update(neighbours(body[0]) + neighbours(body[-1]))
    holes: list[tuple[tuple[int, int], int]] = []
    taken: set[tuple[int, int]] = set()
    order = list(range(len(bodies)))
    rng.shuffle(order)
    hidden = set(order[: (len(bodies) - recipe.exits) // (2 if recipe.scramble else 1)])
    wanted = [(b, color) for b in sorted(order, key=lambda b: (b not in hidden, order.index(b)))
              for color in layers[b]]
    for b, color in wanted:
        body = bodies[b]
        dist = _distances(floor, [body[0], body[-1]], budget)
        options = [c for c in dist if c not in occupied and c not in taken
                   and c not in near.get(color, ())]
        if not options:
            return None
        if b in hidden:
            free = floor - occupied - taken
            seen: set[tuple[int, int]] = set()
            for other, other_color in zip(bodies, outer, strict=True):
                if other_color == color:
                    seen |= reach_cells(free, other)
            covert = [c for c in options if c not in seen]
            options = covert or options
        options.sort(key=lambda c: (c[1], c[0]))
        draws = [rng.choice(options) for _ in range(recipe.reach)]
        cell = max(draws, key=lambda c: (dist[c], c[1], c[0]))
        holes.append((cell, color))
        taken.add(cell)
    holes.sort(key=lambda h: (h[0][1], h[0][0]))
    return holes


def coat_layers(outer: list[int], coats: int, rng: random.Random) -> list[list[int]]:
    """Colours of every body, outermost first: ``coats`` extra layers (at most 3 a body) on
    top of the given colours, drawn from the colours already in use."""
    layers = [[c] for c in outer]
    palette = sorted(set(outer))
    for _ in range(coats):
        room = [b for b in range(len(layers)) if len(layers[b]) < 4]
        if not room:
            break
        layers[rng.choice(room)].insert(0, rng.choice(palette))
    return layers


def assign_colors(n: int, k: int, rng: random.Random, allowed: Sequence[int]) -> list[int]:
    """Outer colours of ``n`` bodies using exactly ``k`` colours drawn from ``allowed``."""
    palette = rng.sample(allowed, k)
    order = list(range(n))
    rng.shuffle(order)
    colors = [0] * n
    for i, b in enumerate(order):
        colors[b] = palette[i] if i < k else rng.choice(palette)
    return colors


def level_dict(shape: Shape, bodies: list[list[tuple[int, int]]], colors: list[list[int]],
                holes: list[tuple[tuple[int, int], int]]) -> dict[str, Any]:
    return {
        "format": LEVEL_FORMAT,
        "cols": shape.cols,
        "rows": shape.rows,
        "stones": [list(c) for c in shape.stones],
        "bodies": [{"cells": [list(c) for c in cells], "colors": list(cs)}
                   for cells, cs in zip(bodies, colors, strict=True)],
        "holes": [{"cell": list(c), "color": color} for c, color in holes],
    }
