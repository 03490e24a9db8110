"""Levels built from motifs (gridforge.snakes.design.motifs): each level is valid, legible
(issue 41's limits), its solution replays, its minimum is proven by the game's certificate and
its joint steps (spec 5c) equal the target; each motif family keeps its promised floor."""

from __future__ import annotations

import random

import pytest
from gridforge.snakes.design.motifs import (
    FAMILIES,
    build_level,
    draw_chamber,
    folded_share,
    measure,
    prove,
)
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.legibility import reading
from gridforge.snakes.solver.search import bfs_optimum

# The least joint steps an instance of each family showed over 30 draws (bench: families).
FLOORS = {"back_out": 6, "pass": 3, "park": 2, "swap": 2, "room": 0, "solo": 0, "crossing": 0}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_each_family_keeps_its_floor(family: str) -> None:
    rng = random.Random(41)
    measured = [m for m in (measure(draw_chamber(rng, family)) for _ in range(12)) if m]
    assert measured, family
    for ch in measured:
        assert ch.joint is not None and ch.joint >= FLOORS[family], (family, ch)
        assert all(2 <= len(cells) <= 5 for cells, _ in ch.bodies)


@pytest.mark.parametrize("seed", range(8))
def test_a_back_out_costs_twice_what_the_mouth_body_must_clear(seed: int) -> None:
    # The canonical back-out: room at the left, the corridor along +x from column rw; the
    # body at the mouth (colour 1, its hole at the dead end) must clear its length plus its
    # gap to the mouth plus the mouth cell, out and back again.
    chamber = FAMILIES["back_out"](random.Random(seed))
    mouth_body = next(cells for cells, colours in chamber.bodies if colours == (1,))
    room_width = min(x for x, _ in chamber.stones)
    clear = len(mouth_body) + min(x for x, _ in mouth_body) - room_width + 1
    measured = measure(chamber)
    assert measured is not None and measured.joint == 2 * clear


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_chamber_minimum_matches_exhaustive_search(seed: int) -> None:
    rng = random.Random(seed)
    for family in ("back_out", "pass", "park", "swap"):
        ch = measure(draw_chamber(rng, family))
        if ch is None:
            continue
        game = Game(level_from_json(ch.level_json()))
        assert bfs_optimum(game) == ch.minimum, (family, seed)


@pytest.mark.parametrize(("target", "seed"), [(2, 1), (4, 2), (8, 3), (8, 5), (12, 4)])
def test_a_built_level_reads_as_asked(target: int, seed: int) -> None:
    built = build_level(seed, target)
    assert built is not None
    level = level_from_json(built.level)  # validates, supply and demand included
    states = Game(level).replay([list(s) for s in built.solution])
    assert Game(level).is_complete(states[-1])
    cert = prove(built)
    assert cert["status"] == "verified" and cert["optimal"] is True
    assert cert["steps"] == built.minimum <= 60
    read = reading(level, cert)
    assert read.joint_steps == target == sum(built.promised)
    assert max(read.lengths) <= 5 and folded_share(level) == 0 and max(read.turns) == 0
    assert read.occupancy <= 0.55 and read.outer_colours <= 6


def test_the_same_seed_builds_the_same_level() -> None:
    first, again = build_level(7, 8), build_level(7, 8)
    assert first is not None and again is not None
    assert first.level == again.level and first.solution == again.solution
    other = build_level(8, 8)
    assert other is not None and other.level != first.level


def test_a_target_out_of_reach_builds_nothing() -> None:
    # 40 joint steps cannot fit 60 certificate steps with these families (about 2.3 steps
    # of certificate per joint step at best).
    assert build_level(1, 40, max_draws=60) is None


@pytest.mark.parametrize(("target", "seed"), [(4, 1), (8, 3), (12, 1)])
def test_chambers_joined_by_doors_keep_their_joint_steps(target: int, seed: int) -> None:
    built = build_level(seed, target, doors=True)
    assert built is not None
    level = level_from_json(built.level)
    colours = [h.color for h in level.holes]
    assert len(colours) == len(set(colours)) == len(level.bodies) <= 6  # one hole per colour
    cert = prove(built)
    assert cert["optimal"] is True and cert["steps"] == built.minimum
    assert reading(level, cert).joint_steps == target
