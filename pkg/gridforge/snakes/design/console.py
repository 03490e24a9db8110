"""What the designer's commands print: lines a person reads, from the data the designer
returns (the designer itself prints nothing). ``gridforge``'s snakes commands module calls
these after the work is done.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

__all__ = ["print_batch"]


def print_batch(batch: dict[str, Any], out: str, seconds: float, *,
                stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """One line per designed level, a summary line, and on a shortfall the reason on stderr.

    Returns the exit code: 0 when every level asked for was made, else 1.
    """
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    for level, cert in zip(batch["levels"], batch["certificates"], strict=True):
        bound = ("minimum proven" if cert["optimal"]
                 else f"lower bound {cert['lower_bound']}, minimum unproven")
        print(f"{level['meta']['id']}: score {cert['score']['total']}, "
              f"{level['meta']['template']}, {cert['steps']} steps ({bound})", file=stdout)
    report = batch["report"]
    print(f"{report['made']}/{report['asked']} levels in {seconds:.1f} s -> {out}", file=stdout)
    if "shortfall" not in report:
        return 0
    short = report["shortfall"]
    print(f"stopped at level {short['level'] + 1}: its candidate budget (budgets.candidates) "
          f"ran out after {short['candidates']} candidates; scores seen "
          f"{short['lowest_score']}..{short['highest_score']}; rejected: {short['reasons']}",
          file=stderr)
    return 1
