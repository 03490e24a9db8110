"""Balance of the mines run (issues 13, 21, 51): many runs by five bots, win rates and HP.

The players, all acting only through the page's calls (``Run.primary``/``secondary``/
``act``/``continue_run``/``hint``/``pick_offer``/``use_item``), one input at a time:

- the **deducing** bot (the greedy one) works out itself what a hint would say
  (``Run.proved_next``: the solver on what the player sees and has marked, at no cost; it
  never presses Hint) and does it: digs a proved safe cell (walking to it by a far click),
  flags a proved mine; when logic proves nothing it can reach, it digs a random offered
  cell. It uses no item and always takes the first offer;
- the **planner** plays as the deducing bot with a look over the round (a flag only while
  the enemy will still strike at the round's end and the flags placed do not yet weaken
  the whole attack; cells items showed safe first), uses items (blasts while the enemy
  stands after what the round has dealt; a lantern, a probe, a shield where logic proves
  nothing) and picks each offer by simulating it: every offer is tried on two forks of
  the run through the next battle, on boards drawn from other seeds (the planner never
  looks at the run's own boards to come), the best mean score (battle won, HP, what is in
  hand) wins;
- the **random-offer** bot is the deducing bot picking offers at random;
- the **hint-only** bot deduces nothing: it presses Hint (``Run.hint``, paid from the
  battle's stock) and does what it says; when the hint names nothing it can act on (the
  stock is spent, or nothing is proved) it digs a random offered cell;
- the **careless** bot digs a random offered cell (a neighbour or a far cell) every time
  and never flags.

Each round ends when the AP is spent or the board is cleared (neither bot stops early).
Printed per bot: the run win rate, the median HP left at the end of a won run (and its share
of the player's HP), the median rounds a battle lasts, how often battle 1 is won in its
first round, how often battle 1 is lost, and per battle the share of runs that reach it and
win it, the player's HP left at its end (median), rounds taken (median) and the HP lost in
it (median over every run that fought it). First, per battle preset, the initial
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
from copy import deepcopy
from hashlib import sha256
from typing import Any

from gridforge.errors import parse_json
from gridforge.mines.board import Board
from gridforge.mines.gen_table import preset
from gridforge.mines.generate import generate
from gridforge.mines.intents import Intent
from gridforge.mines.run import Run
from gridforge.mines.run_table import RunTable, load_run_table
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


# ---------------------------------------------------------------- offers and the planner
Chooser = Callable[[Run, random.Random], str]


def first_offer(run: Run, rng: random.Random) -> str:
    """The greedy bots' pick: always the first offer shown."""
    return run.offers[0]


def random_offer(run: Run, rng: random.Random) -> str:
    """The random-offer bot's pick."""
    return rng.choice(run.offers)


def fork(run: Run, seed: int) -> Run:
    """A copy of ``run`` whose boards to come are drawn from ``seed``: the planner tries
    its choices on boards it has not seen (it never looks at the run's own future)."""
    copy = deepcopy(run)
    copy.seed = seed
    return copy


def battle_score(run: Run) -> float:
    """How well a battle left the run: winning it first, then HP, then what is in hand."""
    if run.status == "lost":
        return -1000.0 + len(run.battle_summaries)
    value = run.player_hp + 0.5 * sum(run.items.values()) + run.sparks / 12
    return value + 3 * run.shields


def planned_offer(run: Run, rng: random.Random, samples: int = 2) -> str:
    """The planner's pick: each offer tried on ``samples`` forks of the run through the
    next battle (planner play, boards it has not seen); the best mean score wins."""
    best, best_score = run.offers[0], float("-inf")
    for kind in run.offers:
        score = 0.0
        for k in range(samples):
            trial = fork(run, hash_seed(run.seed, run.battle_index, k))
            trial.pick_offer(kind)
            _play_battle(trial, planner, random.Random(k))
            score += battle_score(trial)
        if score > best_score:
            best, best_score = kind, score
    return best


def hash_seed(*parts: int) -> int:
    """A seed for a fork, from the run's seed and where it stands."""
    return int.from_bytes(sha256(repr(parts).encode()).digest()[:6], "big")


def _play_battle(run: Run, bot: Bot, rng: random.Random, max_steps: int = 3000) -> None:
    """Play ``run`` until the battle in progress ends (or the run does)."""
    battle = run.battle_index
    for _ in range(max_steps):
        if run.status in ("won", "lost"):
            return
        if run.status == "settled":
            if run.offers:  # the battle is won: stop before the next one
                return
            run.continue_run()
            if run.battle_index != battle:
                return
            continue
        bot(run, rng)


def _known_safe(run: Run) -> list[tuple[int, int]]:
    """Concealed cells items showed safe (a probe's digit, a lantern's mark)."""
    engine = run.session.engine
    cells = [c for c, d in run.probed.items() if d >= 0] + list(run.marked)
    return [c for c in cells if not engine.is_open(c)]


def _flag_worth(run: Run) -> bool:
    """The planner's look at the round: a flag pays only while the enemy will still strike
    at the round's end and the attack is not weakened to nothing yet."""
    pending = run.pending()
    if pending["enemy_damage"] >= run.enemy_hp:
        return False
    weaken = run.table.settlement["flag_hit_weaken"] + run.flag_bonus
    flagged = sum(1 for f in run.session.engine.flags
                  if f not in run.credited_mines and run.session.engine.board is not None
                  and run.session.engine.board.is_mine(f))
    return flagged * weaken < run.battle.attack


def planner(run: Run, rng: random.Random) -> None:
    """One input of the planning bot: the deducing bot's logic, a look over the round
    (flags only while they still weaken a strike to come), cells items showed safe first,
    and items where logic proves nothing (a lantern, else a probe, a shield before a
    guess)."""
    _blast(run)
    offer = run.to_json()["offer"]
    reachable = {(c[0], c[1]) for c in offer["dig"] + offer["reach"]}
    safe = [c for c in _known_safe(run) if c in reachable]
    if safe:
        run.primary(safe[0])
        return
    hint = run.proved_next()
    if hint["cell"] is not None and hint["reachable"]:
        if hint["action"] == "dig" or _flag_worth(run):
            _follow(run, hint, rng)
            return
        proved = [(c[0], c[1]) for c in hint["safe"] if (c[0], c[1]) in reachable]
        if proved:
            run.primary(proved[0])
            return
        _follow(run, hint, rng)  # a flag that weakens nothing still beats a guess
        return
    if _try_items(run):
        return
    _random_dig(run, rng)


def _blast(run: Run) -> None:
    """Set off blasts while they still count this round: the enemy stands after what the
    round has dealt so far, and a charge or the sparks for one are there."""
    while run.status == "playing" and run.session.ledger.phase == "active":
        left = run.enemy_hp - run.pending()["enemy_damage"]
        price = run.item_price("blast")
        if left <= 0 or price is None:
            return
        if not run.use_item("blast")["accepted"]:
            return


def _try_items(run: Run) -> bool:
    """Where logic proves nothing: a lantern, else a probe on a cell beside the avatar's
    reach, else raise a shield for the guess to come. True when an item was used."""
    if run.item_price("lantern") is not None and run.use_item("lantern")["accepted"]:
        return True
    offer = run.to_json()["offer"]
    cells = [(c[0], c[1]) for c in offer["dig"] + offer["reach"]
             if (c[0], c[1]) not in run.probed]
    if cells and run.item_price("probe") is not None:
        return run.use_item("probe", cells[0])["accepted"]
    if run.shields == 0 and run.item_price("shield") is not None:
        return run.use_item("shield")["accepted"]
    return False


def play(seed: int, bot: Bot, rng: random.Random, max_steps: int,
         table: Any = None, choose: Chooser = first_offer) -> Run:
    """Play one run to its end (or ``max_steps`` inputs); offers picked by ``choose``."""
    run = Run(seed, table)
    for _ in range(max_steps):
        if run.status in ("won", "lost"):
            break
        if run.status == "settled":
            if run.offers:
                run.pick_offer(choose(run, rng))
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
    lost_first = sum(1 for b in first if not b["won"])
    lines.append(f"  battle 1 lost: {lost_first} of {len(first)} "
                 f"({100 * lost_first / max(1, len(first)):.0f}%)")
    lines.append("  battle  reached  won   HP left (median, winners)  rounds (median)"
                 "  HP lost (median, all who fought it)")
    for k in range(1, battles + 1):
        fought = [b for r in runs for b in r.battle_summaries if b["battle"] == k]
        won = [b for b in fought if b["won"]]
        hp = statistics.median(b["player_hp_end"] for b in won) if won else None
        rounds = statistics.median(b["rounds"] for b in fought) if fought else None
        lost = (statistics.median(b["player_hp_start"] - b["player_hp_end"] for b in fought)
                if fought else None)
        lines.append(f"  {k:>6}  {len(fought):>7}  {len(won):>4}   "
                     f"{'-' if hp is None else f'{hp:g}':>25}  "
                     f"{'-' if rounds is None else f'{rounds:g}':>15}  "
                     f"{'-' if lost is None else f'{lost:g}':>8}")
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
                        "five: deducing,planner,random-offer,hint-only,careless)")
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
    bots: dict[str, tuple[Bot, Chooser]] = {
        "deducing": (deducing, first_offer), "planner": (planner, planned_offer),
        "random-offer": (deducing, random_offer), "hint-only": (hint_only, first_offer),
        "careless": (careless, first_offer)}
    parser_bots = args.bots.split(",") if args.bots else list(bots)
    for name in parser_bots:
        bot, choose = bots[name]
        rng = random.Random(f"{name}:{args.seed}")
        runs = [play(args.seed + k, bot, rng, args.max_steps, table, choose)
                for k in range(args.runs)]
        print("\n".join(report(name, runs, len(table.battles))))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
