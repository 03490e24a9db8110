"""A synthetic snakes player (issue 24): a bounded-rational solver that plays levels by the
game's real rules and writes ``gridforge.snakes.telemetry/1`` attempts.

It exists to test the calibration and to give a first fit before any person has played. It
is deterministic: every random choice comes from ``random.Random(seed)``, every budget is
counted (states evaluated, steps, restarts), and its "milliseconds" come from a think-time
model, never from a clock.

How it plays (:func:`play`): at each decision it looks ``depth`` steps ahead over the legal
steps (:meth:`gridforge.snakes.game.rules.Game.successors`), values each step by the best
depth-limited estimate of the steps still needed (the admissible bound of spec section 5,
:meth:`gridforge.snakes.solver.search.Solver.bound`, at the leaves), adds a penalty for states it
has already been in, and picks by a softmax with temperature ``noise`` (the player's
imprecision). A step into a dead state (no step left, or a bound of infinity) is a dead end:
it undoes. When ``patience`` steps pass without the best estimate improving it restarts;
after ``hint_after`` restarts it asks for a hint (the same hint search the page uses, with a
counted state budget) and follows it for a few steps.

Think-time model: each drag (a run of steps by one end of one body) begins with a pause
whose length grows with the states the player weighed at that decision and with how close
its best choices were (ambiguity), times log-normal noise; dragging costs a per-step time.
Operating difficulty (long, fiddly drags) and thinking difficulty (many close choices) so
show up separately, as the calibration wants.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from gridforge.jsontypes import Json
from gridforge.snakes.game.level import Level, level_from_json, level_sha256
from gridforge.snakes.game.rules import Game, Move, State
from gridforge.snakes.player.telemetry import FORMAT, Attempt, Telemetry, repositioning_runs
from gridforge.snakes.solver.matching import INF
from gridforge.snakes.solver.search import Solver

HINT_STATES = 3000  # the hint search's state budget (counted; its seconds are never reached)
HINT_SECONDS = 1e9
HINT_FOLLOW = 30  # at most this many steps of a hint's solution, up to its first exit


@dataclass(frozen=True)
class Profile:
    """A synthetic player's skill: lookahead, imprecision, patience and pace."""

    depth: int = 2  # plies of lookahead (1..3)
    noise: float = 0.6  # softmax temperature over step estimates (> 0)
    repeat_penalty: float = 1.5  # added per earlier visit of a state
    patience: int = 40  # steps without a better estimate before a restart
    hint_after: int = 2  # restarts before a hint
    think_base_ms: float = 700.0
    think_per_state_ms: float = 6.0
    think_ambiguity_ms: float = 1500.0
    step_ms: float = 140.0
    max_steps_factor: int = 10  # steps budget: factor x (best known or bound) + 40
    max_evaluations: int = 400_000  # states valued over the whole attempt


def _sample_lognormal(rng: random.Random, mean: float, sigma: float) -> float:
    """A log-normal draw with median ``mean``; Box-Muller on two uniforms (identical bytes on
    every Python, unlike ``random.lognormvariate``'s shared state across versions)."""
    u1 = max(rng.random(), 1e-12)
    u2 = rng.random()
    z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
    return mean * math.exp(sigma * z)


class _Player:
    def __init__(self, game: Game, profile: Profile, rng: random.Random) -> None:
        self.game = game
        self.solver = Solver(game)
        self.profile = profile
        self.rng = rng
        self.bounds: dict[State, int] = {}
        self.evaluations = 0

    def bound(self, state: State) -> int:
        value = self.bounds.get(state)
        if value is None:
            self.evaluations += 1
            value = 0 if self.game.is_complete(state) else self.solver.bound(state)
            self.bounds[state] = value
        return value

    def value(self, state: State, occ: int, depth: int) -> float:
        """Depth-limited estimate of the steps still needed from ``state``."""
        h = self.bound(state)
        if h == 0 or h >= INF or depth == 0:
            return float(h)
        best = float(INF)
        for _move, child, child_occ in self.game.successors(state, occ):
            best = min(best, 1.0 + self.value(child, child_occ, depth - 1))
        return best if best < INF else float(INF)

    def choose(self, state: State, occ: int, visits: dict[State, int]
               ) -> tuple[Move | None, State, int, float, int]:
        """A step (None at a dead end), its child and occupancy, the ambiguity of the choice
        (0 clear .. 1 a toss-up) and the states weighed."""
        before = self.evaluations
        options: list[tuple[float, Move, State, int]] = []
        for move, child, child_occ in self.game.successors(state, occ):
            v = self.value(child, child_occ, self.profile.depth - 1)
            if v >= INF:
                continue
            v += self.profile.repeat_penalty * visits.get(child, 0)
            options.append((v, move, child, child_occ))
        weighed = self.evaluations - before
        if not options:
            return None, state, occ, 0.0, weighed
        low = min(o[0] for o in options)
        weights = [math.exp(-(o[0] - low) / self.profile.noise) for o in options]
        total = sum(weights)
        ambiguity = 0.0
        if len(options) > 1:
            ranked = sorted(weights, reverse=True)
            ambiguity = ranked[1] / ranked[0]
        pick = self.rng.random() * total
        for w, (_v, move, child, child_occ) in zip(weights, options, strict=True):
            pick -= w
            if pick <= 0:
                return move, child, child_occ, ambiguity, weighed
        _v, move, child, child_occ = options[-1]
        return move, child, child_occ, ambiguity, weighed


def _to_first_exit(game: Game, state: State, moves: list[Move]) -> list[Move]:
    """The moves of a hint up to and including its first exit."""
    out: list[Move] = []
    for move in moves:
        child = game.apply(state, move)
        out.append(move)
        if child[game.n + 1] != state[game.n + 1]:
            break
        state = child
    return out


def play(level: Level | Json, *, seed: int, profile: Profile = Profile(),
         best_known: int | None = None, player: str = "synthetic-0", seq: int = 0,
         kind: str = "mainline", number: int | None = None) -> Attempt:
    """One attempt at ``level`` by a synthetic player: a telemetry attempt record."""
    parsed = level if isinstance(level, Level) else level_from_json(level)
    game = Game(parsed)
    rng = random.Random(seed)
    me = _Player(game, profile, rng)
    state = game.initial
    occ = game.occupancy(state)
    start_bound = me.bound(state)
    budget = profile.max_steps_factor * (best_known or max(1, start_bound)) + 40
    history: list[tuple[State, int]] = []
    visits: dict[State, int] = {state: 1}
    moved: list[int] = []  # the body of every step of the current play (after undos)
    exits: list[bool] = []
    counts = {"steps": 0, "restarts": 0, "undos": 0, "hints": 0, "drags": 0, "dead_ends": 0}
    think = drag = 0.0
    first_step: float | None = None
    best_seen = start_bound
    since_better = 0
    hint_moves: list[Move] = []
    last_end = -1
    won = False
    while counts["steps"] < budget and me.evaluations < profile.max_evaluations:
        if game.is_complete(state):
            won = True
            break
        if since_better >= profile.patience:
            counts["restarts"] += 1
            state, occ = game.initial, game.occupancy(game.initial)
            history.clear()
            moved.clear()
            exits.clear()
            visits = {state: 1}
            since_better = 0
            best_seen = start_bound
            last_end = -1
            think += _sample_lognormal(rng, profile.think_base_ms, 0.3)
            if counts["restarts"] >= profile.hint_after * (counts["hints"] + 1):
                counts["hints"] += 1
                result = Solver(game).solve(start=state, max_states=HINT_STATES,
                                            max_seconds=HINT_SECONDS)
                hint_moves = _to_first_exit(game, state, (result.moves or [])[:HINT_FOLLOW])
            continue
        if hint_moves:
            move = hint_moves.pop(0)
            child = game.apply(state, move)
            child_occ = game.occupancy(child)
            ambiguity, weighed = 0.0, 1
        else:
            found, child, child_occ, ambiguity, weighed = me.choose(state, occ, visits)
            if found is None:  # a dead end: nothing leads on from here
                counts["dead_ends"] += 1
                think += _sample_lognormal(rng, profile.think_base_ms, 0.3)
                if not history:
                    break
                state, occ = history.pop()
                moved.pop()
                exits.pop()
                counts["undos"] += 1
                last_end = -1
                since_better += 1
                continue
            move = found
        end = move >> 2  # body and end
        elapsed = think + drag
        if end != last_end:
            counts["drags"] += 1
            think += _sample_lognormal(
                rng, profile.think_base_ms + profile.think_per_state_ms * weighed
                + profile.think_ambiguity_ms * ambiguity, 0.35)
            elapsed = think + drag
        if first_step is None:
            first_step = elapsed
        drag += _sample_lognormal(rng, profile.step_ms, 0.2)
        exited = child[game.n + 1] != state[game.n + 1]
        history.append((state, occ))
        moved.append(move >> 3)
        exits.append(exited)
        state, occ = child, child_occ
        last_end = -1 if exited else end
        visits[state] = visits.get(state, 0) + 1
        counts["steps"] += 1
        h = me.bound(state)
        if h < best_seen:
            best_seen, since_better = h, 0
        else:
            since_better += 1
    if not won and game.is_complete(state):
        won = True
    think_ms, drag_ms = int(think), int(drag)
    return {
        "level_sha256": level_sha256(parsed),
        "kind": kind,
        "level": number if kind == "mainline" else None,
        "player": player,
        "seq": seq,
        "outcome": "won" if won else "abandoned",
        "first_step_ms": None if counts["steps"] == 0 or first_step is None
        else min(int(first_step), think_ms + drag_ms),
        "duration_ms": think_ms + drag_ms,
        "steps": counts["steps"],
        "best_known": best_known,
        "restarts": counts["restarts"],
        "undos": counts["undos"],
        "hints": counts["hints"],
        "repositioning_runs": repositioning_runs(moved, exits),
        "drags": counts["drags"],
        "think_ms": think_ms,
        "drag_ms": drag_ms,
        "dead_ends": counts["dead_ends"],
    }


def export(attempts: list[Attempt], *, seed: int) -> Telemetry:
    """A telemetry export of synthetic attempts."""
    return {"format": FORMAT, "source": "synthetic", "attempts": attempts,
            "meta": {"seed": seed, "player": "gridforge.snakes.player.synthetic"}}


def population(n: int, seed: int) -> list[tuple[str, Profile]]:
    """``n`` synthetic players of spread skill (lookahead 1..2, imprecision, patience)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        depth = 1 + (rng.random() < 0.5)
        out.append((f"synthetic-{i}", Profile(
            depth=depth, noise=round(0.3 + 1.2 * rng.random(), 3),
            patience=20 + int(40 * rng.random()),
            think_base_ms=round(500 + 600 * rng.random(), 1),
            step_ms=round(100 + 80 * rng.random(), 1))))
    return out


__all__ = ["Profile", "export", "play", "population"]
