"""Command-line faces of the generator and the solver: ``gridforge mines generate|solve``.

``register_generate(mines_subparsers)`` adds both subcommands under ``gridforge mines``; the
mines command module calls it.
"""

from __future__ import annotations

import argparse
import json
import sys

from gridforge.errors import GridforgeError, load_file
from gridforge.files import write_text
from gridforge.flags import int_range
from gridforge.mines.board import MAX_BOARD_BYTES
from gridforge.mines.gen_table import MAX_SEED, GenTable, preset, presets
from gridforge.mines.generate import generate_many, load_generated
from gridforge.mines.playthrough import solve_board
from gridforge.mines.solver import StepJson
from gridforge.progress import NO_PROGRESS, terminal_bar

# A generation table is a dozen fields: a larger file is not a table.
MAX_TABLE_BYTES = 64 * 1024
# Boards one ``generate`` call makes at most, and the range of run levels.
MAX_COUNT = 10_000
MAX_LEVEL = 1_000


def _generate(args: argparse.Namespace) -> int:
    if args.seed + args.count - 1 > MAX_SEED:  # the boards' seeds are seed..seed+count-1
        raise GridforgeError(f"--count {args.count} from --seed {args.seed}: the last board's "
                             f"seed would pass {MAX_SEED}")
    if args.table is not None:
        table = load_file(args.table, f"--table {args.table}", GenTable.from_json,
                          max_bytes=MAX_TABLE_BYTES)
    else:
        table = preset(args.preset)
    bar = terminal_bar() if args.count > 1 and not args.quiet else NO_PROGRESS
    boards = generate_many(table, args.seed, args.count, args.level, bar)
    lines = []
    for made in boards:
        data = made.board.to_json() if args.board_only else made.to_json()
        lines.append(json.dumps(data, separators=(",", ":"), allow_nan=False))
    text = "\n".join(lines) + "\n"
    if args.out is None or args.out == "-":
        sys.stdout.write(text)
    else:
        write_text(args.out, text)  # whole or not at all, never through a link
    if not args.quiet:
        m = boards[-1].metrics
        print(
            f"{len(boards)} board(s) from {table.name!r}, seed {args.seed}"
            + (f"..{args.seed + args.count - 1}" if args.count > 1 else "")
            + f"; last: |R0|={m['r0_size']} |S|={m['safe_count']} steps={m['deduction_steps']} "
            f"largest component={m['largest_component']} repairs={m['repairs']}",
            file=sys.stderr,
        )
    return 0


def _step_line(n: int, step: StepJson) -> str:
    def cells(listed: list[list[int]]) -> str:
        return " ".join(f"[{x},{y}]" for x, y in listed)

    parts = [f"{n:4d}. {step['rule']:<11}"]
    if step["safe"]:
        parts.append(f"safe {cells(step['safe'])}")
    if step["mines"]:
        parts.append(f"mines {cells(step['mines'])}")
    return "  ".join(parts) + f"\n        {step['text']}"


def _solve(args: argparse.Namespace) -> int:
    board, stored = load_file(args.board, f"board {args.board}", load_generated,
                              max_bytes=MAX_BOARD_BYTES)
    result = solve_board(board, use_mine_count=not args.no_mine_count)
    if args.json:
        print(json.dumps(result.to_json(), separators=(",", ":")))
        return 0 if result.no_guess else 1
    m = result.metrics()
    print(f"no-guess: {'yes' if result.no_guess else 'no'}")
    print(
        f"|R0|={m['r0_size']} |S|={m['safe_count']} inferable={m['inferable_ratio']:.3f} "
        f"steps={m['deduction_steps']} largest component={m['largest_component']} "
        f"rules={m['rule_counts']}"
    )
    if stored is not None and {k: stored.get(k) for k in m} != m:
        print("note: the metrics stored with the board differ from this solve")
    for n, step in enumerate(result.to_json()["steps"], 1):
        print(_step_line(n, step))
    if not result.no_guess:
        stuck = " ".join(f"[{x},{y}]" for x, y in result.stuck_frontier)
        print(f"stuck: no rule decides any of {stuck or 'the hidden cells'}")
    return 0 if result.no_guess else 1


def register_generate(
        mines_subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``generate`` and ``solve`` to the ``gridforge mines`` subcommands."""
    gen = mines_subparsers.add_parser(
        "generate",
        help="make boards from a preset or a table (A1, fog A4)",
        description="Make seeded boards that pass every gate (no-guess by default). "
        "Writes the generator's wrapper JSON (board + metrics), one board per line.",
    )
    source = gen.add_mutually_exclusive_group()
    source.add_argument(
        "--preset", default="beginner", choices=sorted(presets()), help="preset table"
    )
    source.add_argument("--table", help="a generation table as a JSON file")
    gen.add_argument("--seed", type=int_range(0, MAX_SEED), default=0,
                     help=f"seed of the first board (0..{MAX_SEED})")
    gen.add_argument("--count", type=int_range(1, MAX_COUNT), default=1,
                     help=f"boards to make, seeds seed.. (1..{MAX_COUNT})")
    gen.add_argument("--level", type=int_range(0, MAX_LEVEL), default=None,
                     help=f"run level, for the fog's unlock (0..{MAX_LEVEL})")
    gen.add_argument("--out", help="output file (default: stdout)")
    gen.add_argument("--board-only", action="store_true", help="write plain board JSON")
    gen.add_argument("--quiet", action="store_true", help="no progress bar, no summary")
    gen.set_defaults(handler=_generate)

    sol = mines_subparsers.add_parser(
        "solve",
        help="play a board from R0 by deduction and print the trace",
        description="Print whether the board is no-guess (exit 0) or not (exit 1), its "
        "metrics and every deduction step.",
    )
    sol.add_argument("board", help="a board file (plain or generator wrapper)")
    sol.add_argument("--no-mine-count", action="store_true", help="do not use the total mine count")
    sol.add_argument("--json", action="store_true", help="print the result as JSON")
    sol.set_defaults(handler=_solve)
