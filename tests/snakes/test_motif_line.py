"""Main-line levels built from motifs (gridforge.snakes.design.motif_line): every mechanic and
terrain piece asked is shown and binds (its witness replays without it and is refused with
it), the joint steps (spec 5c) are the target, the level reads at a glance, is proven minimal
and is not solved one body at a time unless it is a breather; the same plan and seed give
the same bytes."""

from __future__ import annotations

import json

import pytest
from gridforge.snakes.design.motif_line import MAX_STEPS, MotifPlan, joint_target, motif_level
from gridforge.snakes.design.terrain import refuses
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.rules import Game, step_to_move
from gridforge.snakes.solver.legibility import reading
from gridforge.snakes.solver.puzzle import crossed_bridges, relaxations, serial
from gridforge.snakes.solver.recheck import check_certificate

PLANS = [
    MotifPlan(13, 2, False, (), ()),
    MotifPlan(57, 6, False, ("frozen",), ()),
    MotifPlan(64, 6, False, ("frozen_holes", "coats"), ()),
    MotifPlan(71, 7, False, ("locks",), ()),
    MotifPlan(76, 7, False, ("gold",), ()),
    MotifPlan(42, 4, False, (), ("paths",), lesson="paths"),
    MotifPlan(48, 5, False, (), ("bridges",), lesson="bridges"),
    MotifPlan(99, 8, False, ("frozen", "locks", "coats"), ("paths",)),
    MotifPlan(100, 1, True, (), ()),
]


@pytest.fixture(scope="module")
def built() -> dict[int, tuple[dict, dict]]:
    return {plan.number: motif_level(plan, 2026) for plan in PLANS}


@pytest.mark.parametrize("plan", PLANS, ids=lambda p: str(p.number))
def test_a_motif_level_keeps_what_its_plan_asks(built, plan: MotifPlan) -> None:
    data, cert = built[plan.number]
    level = level_from_json(data)
    assert check_certificate(data, cert) == []
    assert cert["optimal"] and cert["steps"] <= MAX_STEPS
    read = reading(level, cert["steps"])
    assert read.joint_steps == plan.target == cert["reading"]["joint_steps"]
    assert max(read.lengths) <= 5 and not any(read.folded)
    assert read.occupancy <= 0.55 and read.outer_colours <= 6 and data["cols"] <= 12
    if not plan.breather:  # some body must make way (spec 5b, decided exactly)
        assert serial(Game(level)).status == "not_serial"
    shown = {"coats": any(len(b.colors) > 1 for b in level.bodies),
             "frozen": any(b.frozen for b in level.bodies),
             "frozen_holes": any(h.frozen for h in level.holes),
             "locks": any(b.lock and b.lock.kind == "silver" for b in level.bodies),
             "gold": any(b.lock and b.lock.kind == "gold" for b in level.bodies),
             "paths": bool(level.paths), "bridges": bool(level.bridges)}
    assert {k for k, v in shown.items() if v} == set(plan.mechanics) | set(plan.terrain)


@pytest.mark.parametrize("plan", [p for p in PLANS if p.mechanics or p.terrain],
                         ids=lambda p: str(p.number))
def test_every_mechanic_and_terrain_piece_binds(built, plan: MotifPlan) -> None:
    data, cert = built[plan.number]
    level = level_from_json(data)
    witnesses = {w["mechanic"]: w["solution"] for w in cert.get("witnesses", [])}
    for name, relaxed in relaxations(level):
        moves = [step_to_move(s) for s in witnesses[name]]
        assert len(moves) <= cert["steps"]
        assert not refuses(relaxed, moves), name  # legal without it, to the end
        assert refuses(level, moves), name  # refused with it
    game = Game(level)
    states = game.replay(cert["solution"])
    assert crossed_bridges(game, states) == list(range(len(level.bridges)))


def test_joint_targets_are_never_one_but_on_a_breather() -> None:
    targets = [joint_target(n, n % 10 == 0) for n in range(11, 2001)]
    assert all(t >= 2 for n, t in zip(range(11, 2001), targets, strict=True) if n % 10)
    assert max(targets) == targets[-2] and targets[-2] >= 16


def test_the_same_plan_and_seed_give_the_same_bytes(built) -> None:
    plan = PLANS[1]
    again = motif_level(plan, 2026)
    assert json.dumps(again, sort_keys=True) == json.dumps(built[plan.number], sort_keys=True)
