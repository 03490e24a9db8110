"""Where a main-line level's time goes: each attempt of its plan with its template, target,
outcome, rejection counts and CPU seconds.

    .venv/bin/python bench/mainline_trace.py 179 188 197

Runs :func:`gridforge.snakes.design.line_levels.design_level` exactly as ``generate-levels``
does, with the designer call wrapped to print one line per attempt (process CPU time, so
other jobs on the machine do not count).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gridforge.snakes.design.line_levels as line_levels
from gridforge.snakes.design.line_plan import level_plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", type=int, nargs="+")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    designer = line_levels.design_levels

    def traced(request: dict[str, Any], *rest: Any, **options: Any) -> dict[str, Any]:
        start = time.process_time()
        batch = designer(request, *rest, **options)
        report = batch["report"]
        print(f"  {request['topology']:>9} at {request['target']:5}: made {report['made']}, "
              f"{time.process_time() - start:7.1f} CPU s, rejected {report['rejected']}",
              flush=True)
        return batch

    line_levels.design_levels = traced  # type: ignore[assignment]
    for n in args.levels:
        start = time.process_time()
        print(f"level {n}: {next(level_plan(n, args.seed)).request}", flush=True)
        level, cert = line_levels.design_level(n, args.seed)
        meta = level["meta"]
        print(f"level {n}: {meta['template']} at {meta['target']}, score "
              f"{cert['score']['total']}, {cert['steps']} steps, proven {cert['optimal']}, "
              f"missed {meta.get('rules_missed', [])}, {time.process_time() - start:.1f} CPU s",
              flush=True)


if __name__ == "__main__":
    main()
