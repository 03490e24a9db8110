"""The main line's command-line glue, for ``snakes/commands.py`` to register:
``gridforge generate-levels [--levels A-B] [--workers N] [--scheduler ADDRESS] [--resume]
[--edition E]``
and ``gridforge mainline level N``. Flags are checked by argparse types (a bad value is a
usage error naming the flag, exit code 2); the work is :mod:`~gridforge.snakes.design.line_build`'s
and the printing :mod:`~gridforge.snakes.design.console`'s.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from gridforge.errors import GridforgeError
from gridforge.flags import int_range, parsed_by
from gridforge.progress import Progress, terminal_bar
from gridforge.snakes.design.console import print_json, print_mainline

# The main line (and with it the whole designer) is imported only when a command runs, so
# that registering these commands keeps ``gridforge``'s start-up light.

__all__ = ["add_mainline_commands", "generate_levels_command", "mainline_level_command"]


def add_mainline_commands(subparsers: Any) -> None:
    """Register ``generate-levels`` and ``mainline level N`` on ``gridforge``'s subparsers
    (for ``snakes/commands.py``: this replaces its own ``generate-levels`` parser)."""
    build = subparsers.add_parser(
        "generate-levels", help="build the main line in blocks of 25, resumable, in parallel",
        description="Build main-line levels into block files and progress.json in --out.")
    build.add_argument("--out", default="output/mainline", metavar="DIR",
                       help="folder of the block files (default output/mainline)")
    build.add_argument("--seed", type=_seed, default=2026, help="main-line seed (default 2026)")
    build.add_argument("--levels", type=_levels, default=None, metavar="A-B",
                       help="levels to build (default 1-2000)")
    build.add_argument("--workers", type=_workers, default=None, metavar="N",
                       help="local worker processes (default: the machine's cores)")
    build.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="a Dask distributed scheduler (pip install 'gridforge[cluster]')")
    build.add_argument("--resume", action="store_true",
                       help="go on from the folder's progress.json")
    build.add_argument("--edition", choices=["chambers", "board"], default="chambers",
                       help="chambers: the shipped line's levels (default); board: every "
                       "level from 101 on one board whose bodies need each other (issue 50); "
                       "resume a folder in the edition it was begun in")
    build.add_argument("--quiet", action="store_true", help="no progress bar")
    build.set_defaults(handler=generate_levels_command)
    mainline = subparsers.add_parser("mainline", help="read the shipped main line",
                                     description="Print a shipped main-line level as JSON.")
    mainline.add_argument("what", choices=["level"], help="what to print")
    mainline.add_argument("n", type=_level_number, help="level number, 1..2000")
    mainline.set_defaults(handler=mainline_level_command)


_seed = int_range(0, 2**31 - 1)
_workers = int_range(1, 256)
_level_number = int_range(1, 2000)


def _parse_levels(text: str) -> tuple[int, int]:
    from gridforge.snakes.design.blocks import parse_levels

    return parse_levels(text)


_levels = parsed_by(_parse_levels, "levels")


def generate_levels_command(args: Any) -> int:
    """``gridforge generate-levels``: build (a range of) the main line, then print a summary."""
    from gridforge.snakes.design.line_build import build_mainline
    from gridforge.snakes.design.line_plan import LEVELS

    started = time.monotonic()
    try:
        state = build_mainline(
            args.out, seed=args.seed, levels=args.levels or (1, LEVELS), resume=args.resume,
            workers=args.workers or os.cpu_count() or 1, scheduler=args.scheduler,
            progress=Progress() if args.quiet else terminal_bar(), edition=args.edition)
    except (GridforgeError, KeyboardInterrupt):
        if not args.quiet:
            print(file=sys.stderr)  # the message starts below the bar, not after it
        raise
    return print_mainline(state, args.out, time.monotonic() - started)


def mainline_level_command(args: Any) -> int:
    """``gridforge mainline level N``: level N of the shipped line and its certificate."""
    from gridforge.snakes.game.mainline import mainline_level

    return print_json(mainline_level(args.n))
