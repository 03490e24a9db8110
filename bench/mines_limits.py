"""Benchmark of the mines tools on the largest inputs they accept (issue 10, "sizes").

Each measurement runs the real command line (``python -m gridforge ...``) in a fresh
process on a file written here, and prints its CPU time and peak memory (the process's
maximum resident set), both from ``wait4``. Measured:

1. ``gridforge mines solve`` on boards of the largest accepted size (256 x 256) at several
   mine densities; each board is random, seeded, with its spawn in the centre;
2. ``gridforge mines replay`` with a script of the most steps accepted, on the largest
   board (every step an install of it, which is the costliest step there is);
3. the refusals: a board one cell wider than the limit, and a board file listing one mine
   two million times (over the file cap), each refused before any work: their time is
   given beside the start-up of the command itself (``gridforge --version``, the best of
   three), which every run pays.

The limits and their goals are the ones docs/mines-engine.md states ("Limits"): solve on
the largest board within 30 s and 512 MiB, replay within 60 s and 512 MiB, and refusals
within 1 s more than the start-up. Each line prints the figure and its ratio to the goal.

Usage: python bench/mines_limits.py [--quick] [--densities 0.05,0.1,...]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

from gridforge.mines.board import MAX_BOARD_BYTES, MAX_SIDE
from gridforge.mines.replay import MAX_SCRIPT_STEPS

SOLVE_GOAL_S, SOLVE_GOAL_MIB = 30.0, 512.0
REPLAY_GOAL_S, REPLAY_GOAL_MIB = 60.0, 512.0
REFUSE_GOAL_S = 1.0


def board_json(side: int, density: float, seed: int) -> str:
    """A random board of ``side`` x ``side`` with no mine in the central spawn 3x3."""
    rng = random.Random(seed)
    centre = side // 2
    spawn = {(centre + dx, centre + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    free = [[x, y] for y in range(side) for x in range(side) if (x, y) not in spawn]
    mines = sorted(rng.sample(free, round(density * side * side)), key=lambda c: (c[1], c[0]))
    return json.dumps({"format": "gridforge.mines.board/1", "cols": side, "rows": side,
                       "spawn": [centre, centre], "mines": mines, "variants": {}})


def measure(argv: list[str]) -> tuple[float, float, int, str]:
    """Run ``python -m gridforge argv``: (seconds, peak MiB, exit code, last stderr line).

    The seconds are the process's CPU time (user + system, from ``wait4``): on a machine
    shared with other jobs the wall time says more about the neighbours than about the
    command; a single-threaded command's CPU time is its wall time on an idle core."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-m", "gridforge", *argv],
                                stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = usage.ru_utime + usage.ru_stime
        err.seek(0)
        lines = err.read().decode("utf-8", "replace").strip().splitlines()
    # ru_maxrss is in KiB on Linux.
    return seconds, usage.ru_maxrss / 1024, proc.returncode, lines[-1] if lines else ""


def line(what: str, seconds: float, mib: float, code: int, goal_s: float,
         goal_mib: float | None = None) -> str:
    text = f"{what:<56} {seconds:6.2f} s CPU ({seconds / goal_s:4.2f} of {goal_s:g} s)"
    if goal_mib is not None:
        text += f"  {mib:6.1f} MiB ({mib / goal_mib:4.2f} of {goal_mib:g} MiB)"
    return text + f"  exit {code}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one density, fewer steps")
    parser.add_argument("--densities", default="0.05,0.10,0.15,0.206,0.25,0.35")
    args = parser.parse_args()
    densities = [0.206] if args.quick else [float(d) for d in args.densities.split(",")]
    print(f"limits: board sides <= {MAX_SIDE}, board files <= {MAX_BOARD_BYTES} bytes, "
          f"scripts <= {MAX_SCRIPT_STEPS} steps; python {sys.version.split()[0]}")
    startup = min(measure(["--version"])[0] for _ in range(3))
    print(f"start-up of the command (gridforge --version, best of 3): {startup:.2f} s")
    worst = (0.0, 0.0)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "board.json")
        for density in densities:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(board_json(MAX_SIDE, density, seed=1))
            seconds, mib, code, _ = measure(["mines", "solve", path])
            worst = (max(worst[0], seconds), max(worst[1], mib))
            print(line(f"mines solve {MAX_SIDE}x{MAX_SIDE}, density {density:g}", seconds,
                       mib, code, SOLVE_GOAL_S, SOLVE_GOAL_MIB))
        print(line("mines solve: the worst of these", *worst, 0, SOLVE_GOAL_S, SOLVE_GOAL_MIB))

        script = os.path.join(folder, "script.json")
        steps = 200 if args.quick else MAX_SCRIPT_STEPS
        plan = [{"call": "retire"}, {"call": "install"}] * (steps // 2)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(board_json(MAX_SIDE, 0.15, seed=2))
        with open(script, "w", encoding="utf-8") as handle:
            json.dump({"format": "gridforge.mines.script/1", "start": False, "steps": plan},
                      handle)
        seconds, mib, code, _ = measure(["mines", "replay", "--board", path, "--script",
                                         script, "--outcomes"])
        print(line(f"mines replay: {steps} steps installing {MAX_SIDE}x{MAX_SIDE}", seconds,
                   mib, code, REPLAY_GOAL_S, REPLAY_GOAL_MIB))

        with open(path, "w", encoding="utf-8") as handle:
            handle.write(board_json(MAX_SIDE + 1, 0.15, seed=3))
        seconds, mib, code, said = measure(["mines", "solve", path])
        print(line(f"refused: a {MAX_SIDE + 1}x{MAX_SIDE + 1} board, beyond start-up",
                   seconds - startup, mib, code, REFUSE_GOAL_S))
        print(f"    {said}")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write('{"format": "gridforge.mines.board/1", "cols": 9, "rows": 9, '
                         '"spawn": [4, 4], "mines": [' + ",".join(["[0,0]"] * 2_000_000)
                         + "]}")
        seconds, mib, code, said = measure(["mines", "solve", path])
        print(line("refused: one mine listed 2,000,000 times, beyond start-up",
                   seconds - startup, mib, code, REFUSE_GOAL_S))
        print(f"    {said}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
