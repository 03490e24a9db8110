"""The synthetic player (issue 24): deterministic, counted, writes valid telemetry, and finds
harder what is harder."""

import json

from gridforge.snakes.game.level import level_sha256
from gridforge.snakes.player.synthetic import Profile, export, play, population
from gridforge.snakes.player.telemetry import validate_telemetry

from .fixtures import spec_example


def test_a_play_is_a_valid_attempt_and_deterministic() -> None:
    level = spec_example()
    a = play(level, seed=7, best_known=20, kind="draft")
    b = play(level, seed=7, best_known=20, kind="draft")
    assert a == b
    assert a["level_sha256"] == level_sha256(level)
    assert a["level"] is None and a["kind"] == "draft"
    data = validate_telemetry(export([a], seed=7))
    assert data["attempts"] == [a]
    assert a["outcome"] == "won" and a["steps"] >= 20
    assert a["think_ms"] + a["drag_ms"] == a["duration_ms"]


def test_seeds_and_profiles_change_the_play() -> None:
    level = spec_example()
    plays = {json.dumps(play(level, seed=s, profile=p, best_known=20, kind="draft"))
             for s in range(3) for _, p in population(3, 1)}
    assert len(plays) > 1


def test_a_weak_player_with_no_budget_abandons() -> None:
    level = spec_example()
    a = play(level, seed=1, profile=Profile(depth=1, max_steps_factor=0), best_known=1,
             kind="draft")
    assert a["outcome"] == "abandoned" and a["steps"] <= 41
    validate_telemetry(export([a], seed=1))
