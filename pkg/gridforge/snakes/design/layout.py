"""Laying out a candidate (seed 004, section 4, steps 3-4: "连通区域检查 → 长身体与洞口"):
self-avoiding bodies longest first, spread over the shape's regions; one hole per layer, in
the body's region, away from the starting ends of the bodies of its colour, hidden where the
recipe asks; colours and coats; the level dict.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from gridforge.snakes.design.recipe import Recipe
from gridforge.snakes.design.templates import Shape
from gridforge.snakes.game.level import FORMAT as LEVEL_FORMAT
from gridforge.snakes.game.levelfile import LevelJson

__all__ = ["assign_colors", "coat_layers", "level_dict", "neighbours", "place_bodies",
           "place_holes", "reach_cells"]


def neighbours(cell: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The four neighbours of a cell (up, left, right, down)."""
    x, y = cell
    return ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1))


def place_bodies(shape: Shape, lengths: Sequence[int], q: float,
                  rng: random.Random, pockets: int = 0
                  ) -> list[list[tuple[int, int]]] | None:
    """Self-avoiding bodies, longest first, spread over the shape's regions.

    The first ``pockets`` bodies are each tried first around a *pocket*: a free cell with one
    or two free neighbours (a dead end or a corner) that the body covers and that no later
    body takes, so that the pocket is walled in by it and a hole there is hidden from every
    other body until this one moves (a blocked start)."""
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
    reserved: list[tuple[int, int]] = []
    for length, k in zip(lengths, assign, strict=True):
        cells = [c for c in regions[k] if c in free]
        path = None
        if len(bodies) < pockets:
            around = _around_pocket(cells, length, free, q, rng)
            if around is not None:
                path, pocket = around
                free.discard(pocket)  # kept for a hole: no later body lies on it
                reserved.append(pocket)
        for _ in range(0 if path is not None else 12):
            start = rng.choice(cells)
            path = _grow(start, length, free, q, rng)
            if path is not None:
                break
        if path is None:
            return None
        for c in path:
            free.discard(c)
        bodies.append(path)
    free.update(reserved)
    return bodies


POCKET_TRIES = 12  # pockets a body is tried around before it is placed anywhere


def _around_pocket(cells: list[tuple[int, int]], length: int, free: set[tuple[int, int]],
                   q: float, rng: random.Random
                   ) -> tuple[list[tuple[int, int]], tuple[int, int]] | None:
    """A body covering every free neighbour of a dead-end or corner cell (never the cell
    itself, which stays free for a hole) and that cell, or None."""
    def free_neighbours(c: tuple[int, int]) -> list[tuple[int, int]]:
        return [d for d in neighbours(c) if d in free]

    pockets = [c for c in cells if 1 <= len(free_neighbours(c)) <= 2]
    for _ in range(min(POCKET_TRIES, len(pockets))):
        pocket = rng.choice(pockets)
        around = free_neighbours(pocket)
        if len(around) == 1:
            start = around
        else:  # a corner: the two neighbours are joined through the cell across from it
            a, b = around
            across = (a[0] + b[0] - pocket[0], a[1] + b[1] - pocket[1])
            if across not in free or length < 3:
                continue
            start = [a, across, b]
        if len(start) > length:
            continue
        path = _grow(start[0], length, free - {pocket}, q, rng, start)
        if path is not None:
            return path, pocket
    return None


def _grow(start: tuple[int, int], length: int, free: set[tuple[int, int]], q: float,
          rng: random.Random, first: list[tuple[int, int]] | None = None
          ) -> list[tuple[int, int]] | None:
    path = list(first) if first else [start]
    taken = set(path)
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
                 recipe: Recipe, budget: int, rng: random.Random,
                 hidden: Sequence[int] | None = None
                 ) -> list[tuple[tuple[int, int], int]] | None:
    """One hole per layer of every body, of the layer's colour, in the body's region, away from
    the starting ends of the bodies whose outer colour it has.

    Of ``recipe.reach`` drawn cells the farthest (around walls) from the body wins. The holes
    of all but ``recipe.exits`` bodies are *hidden*: no body whose outer colour is the hole's
    can reach a cell next to it through free cells at the start (other bodies and holes
    block), which is what the blocking term measures; later holes only hide earlier ones more.

    ``hidden`` names the bodies whose holes are hidden instead; their holes are then hidden
    by the hidden bodies alone (as if every other body had left already), so that no order
    of the others' exits frees one of them: the start stays blocked until the hidden bodies
    make way for each other.
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
    if hidden is None:
        hiding = set(order[: (len(bodies) - recipe.exits) // (2 if recipe.scramble else 1)])
        walls = occupied
    else:
        hiding = set(hidden)
        walls = {c for b in hiding for c in bodies[b]}
    wanted = [(b, color) for b in sorted(order, key=lambda b: (b not in hiding, order.index(b)))
              for color in layers[b]]
    for b, color in wanted:
        body = bodies[b]
        dist = _distances(floor, [body[0], body[-1]], budget)
        options = [c for c in dist if c not in occupied and c not in taken
                   and c not in near.get(color, ())]
        if not options:
            return None
        if b in hiding:
            free = floor - walls - taken
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


def coat_colour(under: int, in_use: Sequence[int], allowed: Sequence[int],
                rng: random.Random) -> int:
    """A coat's colour: one in use unlike the layer ``under`` it (one of ``allowed`` when
    only that colour is in use): a coat of the colour beneath would look like no coat."""
    unlike = [c for c in in_use if c != under] or [c for c in allowed if c != under]
    return rng.choice(unlike or list(in_use))


def coat_layers(outer: list[int], coats: int, rng: random.Random,
                allowed: Sequence[int] = ()) -> list[list[int]]:
    """Colours of every body, outermost first: ``coats`` extra layers (at most 3 a body) on
    top of the given colours, drawn from the colours already in use (from ``allowed`` when
    one colour is in use), each unlike the layer under it."""
    layers = [[c] for c in outer]
    palette = sorted(set(outer))
    for _ in range(coats):
        room = [b for b in range(len(layers)) if len(layers[b]) < 4]
        if not room:
            break
        b = rng.choice(room)
        layers[b].insert(0, coat_colour(layers[b][0], palette, allowed, rng))
    return layers


def assign_colors(n: int, k: int, rng: random.Random, allowed: Sequence[int],
                  apart: int = 0) -> list[int]:
    """Outer colours of ``n`` bodies using exactly ``k`` colours drawn from ``allowed``; the
    first ``apart`` bodies take different colours (as far as ``k`` goes): bodies that wall
    each other's holes in must not be able to use each other's holes."""
    palette = rng.sample(allowed, k)
    order = list(range(n))
    rng.shuffle(order)
    order.sort(key=lambda b: b >= apart)  # stable: the shuffle decides within each group
    colors = [0] * n
    for i, b in enumerate(order):
        colors[b] = palette[i] if i < k else rng.choice(palette)
    return colors


def level_dict(shape: Shape, bodies: list[list[tuple[int, int]]], colors: list[list[int]],
                holes: list[tuple[tuple[int, int], int]]) -> LevelJson:
    return {
        "format": LEVEL_FORMAT,
        "cols": shape.cols,
        "rows": shape.rows,
        "stones": [list(c) for c in shape.stones],
        "bodies": [{"cells": [list(c) for c in cells], "colors": list(cs)}
                   for cells, cs in zip(bodies, colors, strict=True)],
        "holes": [{"cell": list(c), "color": color} for c, color in holes],
    }
