"""The ``gridforge mines`` command group: ``replay`` drives the engine headless.

``gridforge mines replay --board B.json --script S.json`` installs the board, starts a
round (unless the script says ``"start": false``), runs the script's steps and prints the
event stream as JSON lines: the same input always prints the same bytes (seed rule 1).
A board the engine refuses to install is reported with the invariant it breaks (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from gridforge.errors import ValidationError, load_file
from gridforge.mines.board import MAX_BOARD_BYTES, Board
from gridforge.mines.generate_commands import register_generate
from gridforge.mines.replay import MAX_SCRIPT_BYTES, event_lines, parse_script, replay


def _replay(args: argparse.Namespace) -> int:
    board = load_file(args.board, f"--board {args.board}", Board.from_json,
                      max_bytes=MAX_BOARD_BYTES)
    script = load_file(args.script, f"--script {args.script}", parse_script,
                       max_bytes=MAX_SCRIPT_BYTES)
    try:
        events = replay(board, script, outcomes=args.outcomes)
    except ValidationError as exc:  # both parsed: the engine refused the board's install
        raise exc.about(f"{exc.what} in --board {args.board}") from None
    sys.stdout.write(event_lines(events))
    return 0


def _help(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def show(_args: argparse.Namespace) -> int:
        parser.print_help()
        return 0

    return show


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``mines`` and its subcommands to the ``gridforge`` command."""
    mines = subparsers.add_parser("mines", help="the mines game (seed 000)")
    mines_sub = mines.add_subparsers(dest="mines_command", metavar="SUBCOMMAND")
    mines.set_defaults(handler=_help(mines))
    rp = mines_sub.add_parser(
        "replay", help="replay a board and an intent script; print events as JSON lines"
    )
    rp.add_argument("--board", required=True, help="board JSON (gridforge.mines.board/1)")
    rp.add_argument("--script", required=True, help="script JSON (gridforge.mines.script/1)")
    rp.add_argument(
        "--outcomes", action="store_true", help="also print each step's outcomes as a line"
    )
    rp.set_defaults(handler=_replay)
    register_generate(mines_sub)
