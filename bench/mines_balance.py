"""Balance of the mines run (issues 13, 21): many runs by three bots, win rates and HP.

Three players, all acting only through the page's calls (``Run.primary``/``secondary``/
``act``/``continue_run``/``hint``), one intent at a time:

- the **deducing** bot works out itself what a hint would say (``Run.proved_next``: the
  solver on what the player sees and has marked, at no cost; it never presses Hint) and
  does it: digs a proved safe cell (walking to it by a far click), flags a proved mine;
  when logic proves nothing it can reach, it digs a random offered cell;
- the **hint-only** bot deduces nothing: it presses Hint (``Run.hint``, paid from the
  battle's stock) and does what it says; when the hint names nothing it can act on (the
  stock is spent, or nothing is proved) it digs a random offered cell;
- the **careless** bot digs a random offered cell (a neighbour or a far cell) every time
  and never flags.

Each round ends when the AP is spent or the board is cleared (neither bot stops early).
Printed per bot: the run win rate, the median HP left at the end of a won run (and its share
of the player's HP), the median rounds a battle lasts, how often battle 1 is won in its
first round, and per battle the share of runs that reach it and win it, the player's HP left
at its end (median), and rounds taken (median). First, per battle preset, the initial
opening (R0) as a share of the safe cells over ``--boards`` seeds (issue 45's gate).

    python bench/mines_balance.py [--runs 200] [--seed 1] [--boards 50] [--table FILE]

Budgets count work, not time: at most ``--max-steps`` inputs per run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from typing import Any

from gridforge.errors import parse_json
from gridforge.mines.board import Board
from gridforge.mines.generate import generate, preset
from gridforge.mines.intents import Intent
from gridforge.mines.run import Run, RunTable, load_run_table
from gridforge.mines.view import stand_for

Bot = Callable[[Run, random.Random], None]


def _random_dig(run: Run, rng: random.Random) -> None:
    offer = run.to_json()["offer"]
    cells = [c[:2] for c in offer["dig"]] + [c[:2] for c in offer["reach"]]
    if not cells:
        run.act(Intent("stop"))
        return
    x, y = rng.choice(cells)
    run.primary((x, y))


def careless(run: Run, rng: random.Random) -> None:
    """One input of the careless bot."""
    _random_dig(run, rng)


def deducing(run: Run, rng: random.Random) -> None:
    """One input of the deducing bot (see the module docstring)."""
    _follow(run, run.proved_next(), rng)


def hint_only(run: Run, rng: random.Random) -> None:
    """One input of the hint-only bot (see the module docstring)."""
    _follow(run, run.hint(), rng)


def _follow(run: Run, hint: dict[str, Any], rng: random.Random) -> None:
    if hint["cell"] is None or not hint["reachable"]:
        # nothing proved that can be reached: a guess (walled-in safe cells are reached
        # over a dug mine, the seed's paid shortcut)
        _random_dig(run, rng)
        return
    cell = (hint["cell"][0], hint["cell"][1])
    if hint["action"] == "dig":
        run.primary(cell)
        return
    engine = run.session.engine
    board = engine.board
    assert board is not None and engine.avatar is not None
    if cell not in board.neighbours(engine.avatar):
        stand = stand_for(engine, cell)
        if stand is None:
            _random_dig(run, rng)
            return
        run.act(Intent("move", stand))
    run.secondary(cell)  # flag a proved mine, or pull a flag from a proved safe cell


def play(seed: int, bot: Bot, rng: random.Random, max_steps: int,
         table: Any = None) -> Run:
    """Play one run to its end (or ``max_steps`` inputs)."""
    run = Run(seed, table)
    for _ in range(max_steps):
        if run.status in ("won", "lost"):
            break
        if run.status == "settled":
            run.continue_run()
            continue
        bot(run, rng)
    return run


def opening(board: Board) -> int:
    """|R0| of a board, counted here on its own (spawn 3x3 and the flood through zeros)."""
    sx, sy = board.spawn
    start = [(sx + dx, sy + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    seen = set(start)
    todo = list(start)
    while todo:
        cell = todo.pop()
        if board.true_digit(cell) == 0:
            for n in board.neighbours(cell):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
    return len(seen)


def opening_report(table: RunTable, boards: int, first: int) -> list[str]:
    """Per battle preset: R0 as a share of the safe cells over ``boards`` seeds."""
    lines = ["opening (R0 / safe cells) over "
             f"{boards} seeds each: preset, gate, median, max"]
    for k, battle in enumerate(table.battles):
        gate = preset(battle.preset).max_opening
        shares = []
        for seed in range(first, first + boards):
            board = generate(battle.preset, seed, level=k + 1).board
            safe = board.cols * board.rows - len(board.mines)
            shares.append(opening(board) / safe)
        lines.append(f"  battle {k + 1} {battle.preset}: gate "
                     f"{'-' if gate is None else f'{gate:.0%}'}, median "
                     f"{statistics.median(shares):.0%}, max {max(shares):.0%}")
    return lines


def report(name: str, runs: list[Run], battles: int) -> list[str]:
    """Lines of figures for one bot."""
    won_runs = [r for r in runs if r.status == "won"]
    every = [b for r in runs for b in r.battle_summaries]
    first = [b for b in every if b["battle"] == 1]
    quick = sum(1 for b in first if b["won"] and b["rounds"] == 1)
    hp_end = statistics.median(r.player_hp for r in won_runs) if won_runs else None
    full = runs[0].table.player_hp if runs else 1
    lines = [f"{name}: {len(runs)} runs, won {len(won_runs)} "
             f"({100 * len(won_runs) / len(runs):.0f}%), "
             f"unfinished {sum(r.status not in ('won', 'lost') for r in runs)}",
             "  median HP at the end of a won run: "
             + ("-" if hp_end is None else f"{hp_end:g} of {full} ({hp_end / full:.0%})"),
             "  median rounds a battle lasts (every battle fought): "
             + (f"{statistics.median(b['rounds'] for b in every):g}" if every else "-"),
             f"  battle 1 won in its first round: {quick} of {len(first)} "
             f"({100 * quick / max(1, len(first)):.0f}%)"]
    lines.append("  battle  reached  won   HP left (median, winners)  rounds (median)")
    for k in range(1, battles + 1):
        fought = [b for r in runs for b in r.battle_summaries if b["battle"] == k]
        won = [b for b in fought if b["won"]]
        hp = statistics.median(b["player_hp_end"] for b in won) if won else None
        rounds = statistics.median(b["rounds"] for b in fought) if fought else None
        lines.append(f"  {k:>6}  {len(fought):>7}  {len(won):>4}   "
                     f"{'-' if hp is None else f'{hp:g}':>25}  "
                     f"{'-' if rounds is None else f'{rounds:g}':>15}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="runs per bot (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="first run seed (default 1)")
    parser.add_argument("--max-steps", type=int, default=5000,
                        help="inputs per run at most (default 5000)")
    parser.add_argument("--boards", type=int, default=50,
                        help="seeds per preset for the opening figures (default 50; 0: none)")
    parser.add_argument("--table", default="", help="a run table file to try instead of the "
                        "shipped one")
    parser.add_argument("--bots", default="", help="comma-separated bots (default: all "
                        "three: deducing,hint-only,careless)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.max_steps < 1:
        parser.error("--runs and --max-steps must be at least 1")
    if args.table:
        with open(args.table, encoding="utf-8") as handle:
            table = RunTable.from_json(parse_json(handle.read(), args.table))
    else:
        table = load_run_table()
    print(f"run table {table.digest()}: player {table.player_hp} HP, "
          f"{table.hints_per_battle} hints a battle, "
          + ", ".join(f"{b.enemy} {b.hp} HP/{b.attack} atk" for b in table.battles))
    if args.boards > 0:
        print("\n".join(opening_report(table, args.boards, args.seed)))
    bots = {"deducing": deducing, "hint-only": hint_only, "careless": careless}
    parser_bots = args.bots.split(",") if args.bots else list(bots)
    for name in parser_bots:
        bot = bots[name]
        rng = random.Random(f"{name}:{args.seed}")
        runs = [play(args.seed + k, bot, rng, args.max_steps, table) for k in range(args.runs)]
        print("\n".join(report(name, runs, len(table.battles))))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
