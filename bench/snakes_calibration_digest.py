#!/usr/bin/env python3
"""Print the SHA-256 of a synthetic-play and calibration run (issue 24), to compare CPython
with Pyodide byte for byte:

    .venv/bin/python bench/snakes_calibration_digest.py
    node tools/pyodide_run.mjs run bench/snakes_calibration_digest.py

Synthetic players play shipped main-line levels 12-47 (every 5th), the calibration fits the
weights; the digests of the telemetry and of the weights file (without the package version)
must be the same on every Python. ``tests/snakes/test_calibrate.py`` pins them.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

if sys.platform != "emscripten":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "pkg"))

from gridforge.snakes.design.calibrate import calibrate, shipped_levels
from gridforge.snakes.design.mainline import mainline_level
from gridforge.snakes.synthetic import export, play, population


def digests(show: bool = False) -> tuple[str, str]:
    attempts = []
    players = population(3, 11)
    for k, n in enumerate(range(12, 48, 5)):
        found = mainline_level(n)
        for p, (name, profile) in enumerate(players):
            attempts.append(play(found["level"], seed=1000 * n + p, profile=profile,
                                 best_known=found["certificate"]["steps"], player=name,
                                 seq=k, number=n))
    tele = json.dumps(export(attempts, seed=11), sort_keys=True)
    weights = calibrate(attempts, shipped_levels())
    weights.pop("version")
    text = json.dumps(weights, sort_keys=True)
    if show:
        print(json.dumps(weights, sort_keys=True, indent=1))
    return (hashlib.sha256(tele.encode()).hexdigest(), hashlib.sha256(text.encode()).hexdigest())


if __name__ == "__main__":
    tele, weights = digests(show="--show" in sys.argv)
    print(f"telemetry {tele}")
    print(f"weights {weights}")
