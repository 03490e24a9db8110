"""The ``gridforge mines`` command group: ``replay`` drives the engine headless.

``gridforge mines replay --board B.json --script S.json`` installs the board, starts a
round (unless the script says ``"start": false``), runs the script's steps and prints the
event stream as JSON lines: the same input always prints the same bytes (seed rule 1).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gridforge.errors import GridforgeError
from gridforge.mines.generate_commands import register_generate
from gridforge.mines.play import event_lines, replay


def _read(path: str, what: str) -> str:
    try:
        return Path(path).read_text("utf-8")
    except UnicodeDecodeError:
        raise GridforgeError(f"{what} {path}: not UTF-8 text") from None


def _replay(args: argparse.Namespace) -> int:
    board = _read(args.board, "board")
    script = _read(args.script, "script")
    events = replay(board, script, outcomes=args.outcomes)
    sys.stdout.write(event_lines(events))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``mines`` and its subcommands to the ``gridforge`` command."""
    mines = subparsers.add_parser("mines", help="the mines game (seed 000)")
    mines_sub = mines.add_subparsers(dest="mines_command", metavar="SUBCOMMAND")
    mines.set_defaults(handler=lambda _args: (mines.print_help(), 0)[1])
    rp = mines_sub.add_parser(
        "replay", help="replay a board and an intent script; print events as JSON lines"
    )
    rp.add_argument("--board", required=True, help="board JSON (gridforge.mines.board/1)")
    rp.add_argument("--script", required=True, help="script JSON (gridforge.mines.script/1)")
    rp.add_argument(
        "--outcomes", action="store_true", help="also print each step's outcomes as a line"
    )
    rp.set_defaults(handler=_replay)
    register_generate(mines_sub)  # generate, solve (issue 4)
