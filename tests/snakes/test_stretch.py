"""A region's stretch type (spec 5d; gridforge.snakes.design.stretch): a longer corridor is
the same type, so are the 8 symmetries and any renaming of colours or order of the bodies; a
body reversed, or one stone moved, is another."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from gridforge.snakes.design.stretch import StretchType, main_stretch, stretch_type
from gridforge.snakes.editor.transform import transform
from gridforge.snakes.game.levelfile import accepted
from gridforge.snakes.game.regions import floor_map
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.snakes.fixtures import ascii_level

HALL = ascii_level(
    "A a a . # 1",
    ". . # . . .",
    "B . . . 0 .",
    "b . ~ ^ . 0",
    colors={"a": [0, 1], "b": [0]},
)


def kind(level: dict[str, Any], region: int | None = None) -> StretchType:
    data = accepted(level)
    return main_stretch(data) if region is None else stretch_type(data, region)


def symmetries(level: dict[str, Any]) -> list[dict[str, Any]]:
    """The level under each of the 8 symmetries, by the editor's own transforms."""
    out = []
    turned = accepted(level)
    for _ in range(4):
        out += [turned, transform(turned, {"op": "mirror_x"})]
        turned = transform(turned, {"op": "rotate"})
    return [dict(x) for x in out]


def recoloured(level: dict[str, Any], perm: dict[int, int]) -> dict[str, Any]:
    out = copy.deepcopy(level)
    for b in out["bodies"]:
        b["colors"] = [perm[c] for c in b["colors"]]
    for h in out["holes"]:
        h["color"] = perm[h["color"]]
    for p in out.get("paths", []):
        p["color"] = perm[p["color"]]
    return out


def test_a_longer_corridor_is_the_same_type() -> None:
    short = ascii_level("A a . 0")
    longer = ascii_level("A a . . . . 0")
    assert kind(short) == kind(longer)
    # Stretched across: a straight body along the stretch and the walls beside it.
    tall = ascii_level(
        "# A #",
        "# a #",
        "# a #",
        ". . 0",
    )
    taller = ascii_level(
        "# A #",
        "# a #",
        "# a #",
        "# a #",
        "# a #",
        ". . 0",
    )
    assert kind(tall) == kind(taller)
    # The corridor's bend is no run: a corridor with a bend is another type.
    bent = ascii_level(
        "A a . .",
        "# # # 0",
    )
    assert kind(bent) != kind(short)


def test_the_eight_symmetries_give_the_same_type() -> None:
    base = kind(HALL)
    seen = symmetries(HALL)
    assert len({json.dumps(s, sort_keys=True) for s in seen}) == 8  # eight different boards
    for s in seen:
        assert kind(s) == base


def test_bridge_lanes_turn_with_the_board() -> None:
    level = ascii_level(
        ". . . .",
        "A a a 0",
        ". . . .",
        ". 0 . .",
    )
    level["bridges"] = [[1, 1]]  # b crosses a's lane on the bridge
    level["bodies"].append({"cells": [[1, 0], [1, 1], [1, 2]], "colors": [0]})
    base = kind(level)
    for s in symmetries(level):
        assert kind(s) == base
    # The lanes matter: the same cells without the bridge are no picture of a level, but a
    # bridge under one straight body is another type than the body on plain floor.
    plain = ascii_level("A a a 0")
    bridged = copy.deepcopy(plain)
    bridged["bridges"] = [[1, 0]]
    assert kind(plain) != kind(bridged)


def test_renaming_colours_or_reordering_bodies_keeps_the_type() -> None:
    base = kind(HALL)
    assert kind(recoloured(HALL, {0: 5, 1: 2})) == base
    assert kind(recoloured(HALL, {0: 1, 1: 0})) == base
    swapped = copy.deepcopy(HALL)
    swapped["bodies"].reverse()
    assert kind(swapped) == base
    # Mechanics are lifted; coats are the body's colours and count.
    frozen = copy.deepcopy(HALL)
    frozen["bodies"][0]["frozen"] = 1
    frozen["holes"][0]["frozen"] = 2
    assert kind(frozen) == base
    uncoated = copy.deepcopy(HALL)
    uncoated["bodies"][0]["colors"] = [0]
    assert kind(uncoated) != base


def test_a_body_reversed_or_a_stone_moved_is_another_type() -> None:
    base = kind(HALL)
    reversed_body = copy.deepcopy(HALL)
    reversed_body["bodies"][0]["cells"].reverse()
    assert kind(reversed_body) != base
    moved = copy.deepcopy(HALL)
    moved["stones"] = [[4, 0], [3, 1]]  # [2, 1] moved one cell right
    assert kind(moved) != base


def test_a_region_is_typed_alone_and_the_main_region_is_chosen() -> None:
    level = ascii_level(
        "A a 0 # . . . 0",
        "# # # # B b C c",
        "# # # # . . . 0",
    )
    fm = floor_map(accepted(level))
    assert fm.main == 1
    assert kind(level) == kind(level, 1) != kind(level, 0)
    # The left chamber is a corridor with no floor between the body and its hole.
    assert kind(level, 0) == kind(ascii_level("A a 0")) != kind(ascii_level("A a . 0"))
    with pytest.raises(IndexError):
        kind(level, 2)
    digest = kind(level).digest
    assert len(digest) == 12 and digest == kind(level).digest
    assert digest != kind(level, 0).digest


# ---------------------------------------------------------------- random small levels


@st.composite
def small_levels(draw: st.DrawFn) -> dict[str, Any]:
    """A small board drawn at random (stones, straight or bent bodies, holes, paths,
    bridges): a picture, not always a solvable level."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    cols, rows = rng.randint(2, 6), rng.randint(2, 6)
    free = [(x, y) for y in range(rows) for x in range(cols)]
    rng.shuffle(free)
    stones = [free.pop() for _ in range(rng.randint(0, len(free) // 3))]
    taken = set(stones)
    bodies = []
    for _ in range(rng.randint(1, 3)):
        start = next((c for c in free if c not in taken), None)
        if start is None:
            break
        cells = [start]
        taken.add(start)
        for _ in range(rng.randint(1, 3)):
            x, y = cells[-1]
            options = [c for c in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
                       if 0 <= c[0] < cols and 0 <= c[1] < rows and c not in taken]
            if not options:
                break
            cells.append(rng.choice(options))
            taken.add(cells[-1])
        if len(cells) < 2:
            continue
        bodies.append({"cells": [list(c) for c in cells],
                       "colors": [rng.randint(0, 3) for _ in range(rng.randint(1, 2))]})
    rest = [c for c in free if c not in taken]
    holes = [{"cell": list(c), "color": rng.randint(0, 3)} for c in rest[:rng.randint(0, 3)]]
    rest = rest[len(holes):]
    paths = [{"cell": list(c), "color": rng.randint(0, 3)} for c in rest[:rng.randint(0, 2)]]
    rest = rest[len(paths):]
    level: dict[str, Any] = {"format": "gridforge.snakes.level/1", "cols": cols, "rows": rows,
                             "stones": [list(s) for s in stones], "bodies": bodies,
                             "holes": holes}
    if paths:
        level["paths"] = paths
    if rest[:1] and rng.random() < 0.5:
        level["bridges"] = [list(rest[0])]
    return level


def all_types(level: dict[str, Any]) -> list[StretchType]:
    data = accepted(level)
    return sorted(stretch_type(data, r) for r in range(floor_map(data).count))


def stretched(level: dict[str, Any], row: int) -> dict[str, Any]:
    """``level`` with row ``row`` (which no body crosses) drawn twice."""
    def down(c: list[int]) -> list[int]:
        return [c[0], c[1] + 1] if c[1] > row else c

    out = copy.deepcopy(level)
    out["rows"] += 1
    out["stones"] = [down(s) for s in level["stones"]]
    out["stones"] += [[s[0], row + 1] for s in level["stones"] if s[1] == row]
    for b in out["bodies"]:
        b["cells"] = [down(c) for c in b["cells"]]
    for h in out["holes"]:
        h["cell"] = down(h["cell"])
    for p in out.get("paths", []):
        p["cell"] = down(p["cell"])
    out["paths"] = out.get("paths", []) + [
        {**p, "cell": [p["cell"][0], row + 1]} for p in level.get("paths", [])
        if p["cell"][1] == row]
    out["bridges"] = [down(c) for c in level.get("bridges", [])]
    out["bridges"] += [[c[0], row + 1] for c in level.get("bridges", []) if c[1] == row]
    return out


@settings(max_examples=120, deadline=None)
@given(small_levels(), st.integers(0, 7), st.permutations([0, 1, 2, 3]))
def test_random_levels_keep_their_types_under_symmetry_and_renaming(
        level: dict[str, Any], symmetry: int, perm: list[int]) -> None:
    base = all_types(level)
    other = recoloured(symmetries(level)[symmetry], dict(enumerate(perm)))
    other["bodies"].reverse()
    assert all_types(other) == base


@settings(max_examples=120, deadline=None)
@given(small_levels(), st.integers(0, 5))
def test_random_levels_keep_their_types_when_a_row_is_drawn_twice(
        level: dict[str, Any], pick: int) -> None:
    crossed = {c[1] for b in level["bodies"] for c in b["cells"]}
    holed = {h["cell"][1] for h in level["holes"]}
    free_rows = [y for y in range(level["rows"]) if y not in crossed | holed]
    if not free_rows:
        return
    row = free_rows[pick % len(free_rows)]
    assert all_types(stretched(level, row)) == all_types(level)
