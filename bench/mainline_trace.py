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
from gridforge.snakes.design.pipeline import design_levels
from gridforge.snakes.design.reports import DesignedBatch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", type=int, nargs="+")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    def traced(request: Any, *rest: Any, **options: Any) -> DesignedBatch:
        start = time.process_time()
        batch = design_levels(request, *rest, **options)
        report = batch["report"]
        print(f"  {request['topology']:>9} at {request['target']:5}: made {report['made']}, "
              f"{time.process_time() - start:7.1f} CPU s, rejected {report['rejected']}",
              flush=True)
        return batch

    # line_levels calls the designer by the name it imported: wrap it there
    vars(line_levels)["design_levels"] = traced
    for n in args.levels:
        start = time.process_time()
        print(f"level {n}: {next(level_plan(n, args.seed)).request}", flush=True)
        level, cert = line_levels.design_level(n, args.seed)
        meta = level["meta"]
        score = cert["score"]
        assert score is not None  # a built level's certificate is scored
        print(f"level {n}: {meta['template']} at {meta['target']}, score "
              f"{score['total']}, {cert['steps']} steps, proven {cert['optimal']}, "
              f"missed {meta.get('rules_missed', [])}, {time.process_time() - start:.1f} CPU s",
              flush=True)


if __name__ == "__main__":
    main()
