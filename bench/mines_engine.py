"""Benchmark of the mines rules engine (gridforge.mines.engine), issue 3.

Prints, measured in one run on this machine's Python:
1. the latency of a plain dig through settle_batch (no chain) on 30 x 16 boards with
   99 mines: median and p95 (goal: median < 50 us);
2. the time of one chain on a 100 x 100 board that opens ~10,000 cells (goal: < 30 ms);
3. event throughput of a long seeded random playout (30 x 16 / 99, default prices, rounds
   orchestrated, a new board after each clear);
4. memory of an installed engine per cell for growing boards (goal: linear).

Usage: python bench/mines_engine.py [--quick]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
import tracemalloc

from gridforge.mines.board import Board
from gridforge.mines.engine import Engine, check_install_invariants
from gridforge.mines.events import Event
from gridforge.mines.intents import Intent
from gridforge.mines.ledger import Economy, Ledger

DIG_GOAL_US = 50.0
CHAIN_GOAL_MS = 30.0


def random_board(rng: random.Random, cols: int, rows: int, mines: int) -> Board:
    """A board with ``mines`` mines outside the spawn 3x3 that passes the install checks."""
    while True:
        spawn = (rng.randrange(1, cols - 1), rng.randrange(1, rows - 1))
        near = {(spawn[0] + dx, spawn[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        free = [(x, y) for y in range(rows) for x in range(cols) if (x, y) not in near]
        board = Board(cols, rows, rng.sample(free, mines), spawn)
        if check_install_invariants(board) is None:
            return board


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_plain_dig(samples: int, seed: int = 1) -> list[float]:
    """Microseconds per settle_batch([dig]) of a safe nonzero frontier cell."""
    rng = random.Random(seed)
    economy = Economy(ap_per_round=10**9)
    out: list[float] = []
    while len(out) < samples:
        board = random_board(rng, 30, 16, 99)
        ledger = Ledger(economy)
        engine = Engine(ledger)
        events: list[Event] = []
        engine.subscribe(events.append)
        engine.install_board(board)
        ledger.notify_round_start()
        opened = set(engine.opened)
        for y in range(board.rows):
            for x in range(board.cols):
                c = (x, y)
                if c in opened or board.is_mine(c) or board.true_digit(c) == 0:
                    continue
                stands = [n for n in board.neighbours(c) if engine.is_open(n)]
                if not stands:
                    continue
                engine.try_move(stands[0])
                batch = [Intent("dig", c)]
                t0 = time.perf_counter_ns()
                outcome = engine.settle_batch(batch)
                t1 = time.perf_counter_ns()
                assert outcome[0].outcome == "executed"
                out.append((t1 - t0) / 1000)
                if len(out) >= samples:
                    break
            if len(out) >= samples:
                break
    return out


def chain_board(side: int = 100) -> Board:
    # side x side; an L-shaped wall of 9 mines closes the 4 x 4 corner around the spawn
    # (1,1), so R0 is that corner and one dig beyond the wall floods all the rest.
    wall = [(4, y) for y in range(4)] + [(x, 4) for x in range(5)]
    return Board(side, side, wall, (1, 1))


def bench_chain(repeats: int) -> tuple[list[float], int]:
    """Milliseconds of the one dig that floods the board outside the spawn corner."""
    board = chain_board()
    times: list[float] = []
    size = 0
    for _ in range(repeats):
        ledger = Ledger()
        engine = Engine(ledger)
        events: list[Event] = []
        engine.subscribe(events.append)
        engine.install_board(board)
        ledger.notify_round_start()
        # Through the wall: dig the mine (4,4), stand on it, dig (5,5), stand there.
        engine.try_move((3, 3))
        engine.try_dig((4, 4))
        engine.try_move((4, 4))
        engine.try_dig((5, 5))
        engine.try_move((5, 5))
        mark = len(events)
        gc.collect()
        t0 = time.perf_counter_ns()
        outcome = engine.settle_batch([Intent("dig", (6, 6))])
        t1 = time.perf_counter_ns()
        assert outcome[0].outcome == "executed"
        size = len(events) - mark
        times.append((t1 - t0) / 1e6)
    return times, size


def bench_playout(steps: int, seed: int = 7) -> tuple[int, int, float]:
    """(intents, events, seconds) of a seeded random playout with orchestration."""
    rng = random.Random(seed)
    ledger = Ledger()
    engine = Engine(ledger)
    count = [0]

    def listener(_event: Event) -> None:
        count[0] += 1

    engine.subscribe(listener)
    ledger.subscribe(listener)
    intents = 0
    spent = 0.0
    engine.install_board(random_board(rng, 30, 16, 99))
    ledger.notify_round_start()
    while intents < steps:
        board = engine.board
        assert board is not None
        if ledger.phase == "waiting":
            record = ledger.last_round_end
            hint = record["continuation_hint"] if record is not None else None
            ledger.notify_settlement_done(hint or "same_board")
            if hint == "new_board":
                engine.install_board(random_board(rng, 30, 16, 99))
            ledger.notify_round_start()
            continue
        # Pick a frontier target and an opened cell next to it (not timed).
        ax, ay = engine.avatar or board.spawn
        target = (ax + rng.randint(-2, 2), ay + rng.randint(-2, 2))
        roll = rng.random()
        if roll < 0.04:
            batch = [Intent("stop")]
        elif roll < 0.5:
            opened = engine.opened
            batch = [Intent("move", opened[rng.randrange(len(opened))])]
        elif roll < 0.6:
            batch = [Intent("flag_place", target)]
        else:
            batch = [Intent("dig", target)]
        t0 = time.perf_counter()
        engine.settle_batch(batch)
        spent += time.perf_counter() - t0
        intents += len(batch)
    return intents, count[0], spent


def bench_memory() -> list[tuple[int, int]]:
    """(cells, bytes) held by an installed engine with its board, for growing sizes."""
    out = []
    Engine(Ledger()).install_board(chain_board(10))  # warm up: one-time imports and caches
    for side in (50, 100, 200):
        gc.collect()
        tracemalloc.start()
        board = chain_board(side)
        engine = Engine(Ledger())
        assert engine.install_board(board).accepted
        current, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out.append((side * side, current))
        del engine, board
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    args = parser.parse_args()
    quick = args.quick
    print(f"python {sys.version.split()[0]} ({sys.implementation.name})")

    digs = bench_plain_dig(500 if quick else 5000)
    med, p95 = statistics.median(digs), percentile(digs, 0.95)
    print(
        f"plain dig settle_batch on 30x16/99: median {med:.1f} us, p95 {p95:.1f} us "
        f"over {len(digs)} digs (goal < {DIG_GOAL_US:.0f} us: {med / DIG_GOAL_US:.2f} of it)"
    )

    times, size = bench_chain(5 if quick else 20)
    cmed = statistics.median(times)
    print(
        f"one chain opening {size} cells on 100x100: median {cmed:.2f} ms, best "
        f"{min(times):.2f} ms (goal < {CHAIN_GOAL_MS:.0f} ms: {cmed / CHAIN_GOAL_MS:.2f} of it; "
        f"{cmed * 1000 / size:.2f} us per cell)"
    )

    intents, events, spent = bench_playout(20000 if quick else 100000)
    print(
        f"random playout: {intents} intents, {events} events in {spent:.2f} s of engine "
        f"time: {events / spent:,.0f} events/s, {intents / spent:,.0f} intents/s"
    )

    rows = bench_memory()
    base_cells, base_bytes = rows[0]
    for cells, size_bytes in rows:
        print(
            f"memory: {cells} cells -> {size_bytes / 1024:.0f} KiB, {size_bytes / cells:.0f} "
            f"bytes/cell (ratio to {base_cells} cells: {size_bytes / base_bytes:.2f} "
            f"for {cells / base_cells:.0f}x cells)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
