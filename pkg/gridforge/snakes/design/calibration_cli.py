"""Calibration's command-line glue, for ``snakes/commands.py`` to register (issue 24):

- ``gridforge synthetic-play --levels A-B [--every K | --batch FILE] --players N --seed S
  --out telemetry.json``: the synthetic player (:mod:`gridforge.snakes.player.synthetic`) plays
  main-line levels (or a batch's) and writes ``gridforge.snakes.telemetry/1``;
- ``gridforge calibrate TELEMETRY.json... [--levels FILE]... --out weights.json``: difficulty
  per level and the seven weights fitted to it (:mod:`~gridforge.snakes.design.calibrate`),
  written as ``gridforge.snakes.weights/1``;
- :func:`load_weights` and :func:`add_predictions` for ``design-levels --weights``.

Flags are checked by argparse types (exit 2 naming the flag); files are read by
:func:`gridforge.errors.read_json` with a size cap, and refused with their field paths.
"""

from __future__ import annotations

import argparse
from typing import Any

from gridforge.errors import ValidationError, read_json, refusal
from gridforge.flags import int_range, parsed_by
from gridforge.progress import Progress, terminal_bar
from gridforge.snakes.design.weights import Weights
from gridforge.snakes.game.certfile import Certificate
from gridforge.snakes.player.telemetry import Attempt

__all__ = ["add_calibration_commands", "add_predictions", "calibrate_command", "load_weights",
           "synthetic_play_command"]

MAX_LEVELS_BYTES = 32 * 1024 * 1024


def _levels(text: str) -> tuple[int, int]:
    from gridforge.snakes.design.blocks import parse_levels

    return parse_levels(text)


def add_calibration_commands(subparsers: Any) -> None:
    """Register ``synthetic-play`` and ``calibrate`` on ``gridforge``'s subparsers."""
    syn = subparsers.add_parser(
        "synthetic-play", help="a synthetic player plays levels and writes telemetry",
        description="Play main-line levels (or a batch's) with seeded synthetic players; "
        "write gridforge.snakes.telemetry/1.")
    syn.add_argument("--levels", type=parsed_by(_levels, "levels"), default=(12, 51), metavar="A-B",
                     help="main-line levels to play (default 12-51)")
    syn.add_argument("--every", type=int_range(1, 2000), default=1, metavar="K",
                     help="play every K-th level of the range (default 1)")
    syn.add_argument("--batch", default=None, metavar="FILE",
                     help="play the levels of this batch file instead of the main line")
    syn.add_argument("--players", type=int_range(1, 64), default=4,
                     help="synthetic players (default 4)")
    syn.add_argument("--seed", type=int_range(0, 2**31 - 1), default=0)
    syn.add_argument("--out", required=True, metavar="TELEMETRY.json")
    syn.add_argument("--quiet", action="store_true", help="no progress bar")
    syn.set_defaults(handler=synthetic_play_command)
    cal = subparsers.add_parser(
        "calibrate", help="fit the seven weights to play telemetry",
        description="Fit per-level difficulty to telemetry exports and the seven terms' "
        "weights to it; write gridforge.snakes.weights/1.")
    cal.add_argument("telemetry", nargs="+", metavar="TELEMETRY.json",
                     help="telemetry exports (gridforge.snakes.telemetry/1)")
    cal.add_argument("--levels", action="append", default=[], metavar="FILE",
                     help="a batch or certified-level file whose levels were played "
                     "(repeatable; the shipped main line is always known)")
    cal.add_argument("--out", required=True, metavar="WEIGHTS.json")
    cal.set_defaults(handler=calibrate_command)


def _write(path: str, data: Any) -> None:
    from gridforge.snakes.design.files import write_json

    write_json(path, data, indent=2)


def synthetic_play_command(args: argparse.Namespace) -> int:
    """``gridforge synthetic-play``: seeded synthetic attempts, one per player and level."""
    from gridforge.snakes.game.level import level_from_json
    from gridforge.snakes.player.synthetic import export, play, population
    from gridforge.snakes.player.telemetry import validate_telemetry

    progress = Progress() if args.quiet else terminal_bar()
    jobs: list[tuple[Any, int | None, int | None, str]] = []
    if args.batch:
        data = read_json(args.batch, f"--batch {args.batch}", max_bytes=MAX_LEVELS_BYTES)
        if not isinstance(data, dict) or not isinstance(data.get("levels"), list):
            raise refusal(f"--batch {args.batch}", "levels", "type",
                          "a batch file has a list of levels")
        certs = data.get("certificates") or [None] * len(data["levels"])
        for level, cert in zip(data["levels"], certs, strict=False):
            best = cert.get("steps") if isinstance(cert, dict) else None
            jobs.append((level, best if isinstance(best, int) else None, None, "draft"))
    else:
        from gridforge.snakes.game.mainline import mainline_level

        lo, hi = args.levels
        for n in range(lo, hi + 1, args.every):
            found = mainline_level(n)
            jobs.append((found["level"], found["certificate"]["steps"], n, "mainline"))
    players = population(args.players, args.seed)
    attempts = []
    for k, (raw, best, number, kind) in enumerate(jobs):
        progress.step(k, len(jobs), "synthetic play")
        level = level_from_json(raw)
        for p, (name, profile) in enumerate(players):
            attempts.append(play(level, seed=args.seed * 1_000_003 + k * 131 + p,
                                 profile=profile, best_known=best, player=name, seq=k,
                                 kind=kind, number=number))
    out = export(attempts, seed=args.seed)
    validate_telemetry(out)
    _write(args.out, out)
    won = sum(a["outcome"] == "won" for a in attempts)
    print(f"{len(attempts)} attempts at {len(jobs)} levels by {len(players)} synthetic "
          f"players, {won} won; written to {args.out}")
    return 0


def calibrate_command(args: argparse.Namespace) -> int:
    """``gridforge calibrate``: fit, cross-validate by template, write the weights file."""
    from gridforge.snakes.design.calibrate import (
        calibrate_with_report,
        levels_from_batch,
        shipped_levels,
    )
    from gridforge.snakes.player.telemetry import MAX_EXPORT_BYTES, validate_telemetry

    attempts: list[Attempt] = []
    for path in args.telemetry:
        data = read_json(path, f"telemetry {path}", max_bytes=MAX_EXPORT_BYTES)
        try:
            attempts += validate_telemetry(data)["attempts"]
        except ValidationError as exc:
            raise exc.about(f"telemetry in {path}") from None
    infos = shipped_levels()
    for path in args.levels:
        infos.update(levels_from_batch(read_json(path, f"--levels {path}",
                                                 max_bytes=MAX_LEVELS_BYTES)))
    out, fit = calibrate_with_report(attempts, infos, sources=len(args.telemetry))
    _write(args.out, out)
    terms = ", ".join(f"{t} {w:g}" for t, w in out["weights"].items())
    print(f"{fit['attempts']} attempts, {fit['players']} players, {fit['levels']} levels "
          f"({len(fit['templates'])} templates); {fit['unknown_level_attempts']} attempts at "
          "unknown levels left out")
    print(f"weights: {terms}")
    for name in ("held_out", "seed_weights"):
        figures = ", ".join(f"{k} {v:.2f}" for k, v in fit[name].items() if v is not None)
        print(f"spearman, {name.replace('_', ' ')}: {figures}")
    print(f"calibration (held out, clear rate by quintile): mean abs error "
          f"{fit['calibration']['mean_abs_error']}")
    print(f"written to {args.out}")
    return 0


def load_weights(path: str) -> Weights:
    """A weights file, validated (``--weights``); refused with its field paths."""
    from gridforge.snakes.design.weights import MAX_WEIGHTS_BYTES, validate_weights

    data = read_json(path, f"--weights {path}", max_bytes=MAX_WEIGHTS_BYTES)
    try:
        return validate_weights(data)
    except ValidationError as exc:
        raise exc.about(f"weights file {path}") from None


def add_predictions(certificates: list[Certificate], weights: Weights) -> None:
    """Give every scored certificate its ``prediction`` under ``weights`` beside the design
    score."""
    from gridforge.snakes.design.weights import prediction

    for cert in certificates:
        if cert["score"] is not None:
            cert["prediction"] = prediction(weights, cert["score"]["normalised"])
