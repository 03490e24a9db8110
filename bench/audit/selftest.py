"""The puzzle auditor's ``--selftest``: its fast move generator against the plain rule
function, the assignment against brute force, A* against breadth-first search, and on lesson
levels every restricted search of ``lessons`` against breadth-first search through the plain
rule function."""

from __future__ import annotations

import itertools
import random
from collections import deque
from collections.abc import Sequence

from bench.audit.lessons import (
    HORIZONTAL,
    LESSONS,
    VERTICAL,
    Allow,
    View,
    exact_min,
    only_axis,
    only_end,
    relaxed_level,
)
from bench.audit.puzzle_rules import Item, Level, SerialSearch
from bench.audit.shared import DIRS, ENDS, INF, Move, State, assignment, astar, step_json

Minimum = int | str | None  # steps, "cap" past the cap, None: no solution


def plain_steps(lv: Level, s: State, b: int) -> list[tuple[Move, State]]:
    """Body b's legal steps from s through the plain rule function ``Level.apply`` only."""
    out = []
    for e in (0, 1):
        for di in range(4):
            try:
                s2, _ = lv.apply(s, b, ENDS[e], DIRS[di])
            except ValueError:
                continue
            out.append(((b, e, di), s2))
    return out


def plain_min(lv: Level, allow: Allow | None = None, order: Sequence[int] | None = None,
              cap: int = 200000) -> Minimum:
    """Breadth-first minimum through the plain rule function ``Level.apply`` only (no fast move
    generator, no bound): the number of steps, None when the space is exhausted without a
    solution, "cap" past ``cap`` states.  ``allow`` and ``order`` as in View."""
    before = None if order is None else {b: order[:i] for i, b in enumerate(order)}
    dist = {lv.start: 0}
    q = deque([lv.start])
    while q:
        s = q.popleft()
        if lv.is_goal(s):
            return dist[s]
        for b in range(lv.k):
            for mv, s2 in plain_steps(lv, s, b):
                if allow is not None and not allow(mv):
                    continue
                if (
                    before is not None
                    and s2[b] >= lv.nc[b] > s[b]
                    and any(s[c] < lv.nc[c] for c in before[b])
                ):
                    continue
                if s2 not in dist:
                    dist[s2] = dist[s] + 1
                    q.append(s2)
        if len(dist) > cap:
            return "cap"
    return None


class _Capped(Exception):
    """The brute-force serial search went past its cap."""


def plain_serial(lv: Level, cap: int = 200000) -> bool | str:
    """ "Solved one body at a time" by brute force through ``Level.apply``: from each
    (bodies gone, holes used) position, every body in turn is moved alone (breadth-first over
    its own moves) to every way it can have left; True / False / "cap"."""
    seen: dict[State, bool] = {}
    budget = [cap]

    def ends_of(s: State, b: int) -> set[State]:
        out = set()
        q = deque([s])
        mark = {s}
        while q:
            x = q.popleft()
            for _mv, y in plain_steps(lv, x, b):
                if y in mark:
                    continue
                mark.add(y)
                budget[0] -= 1
                if y[b] >= lv.nc[b]:
                    out.add(y)
                else:
                    q.append(y)
            if budget[0] < 0:
                raise _Capped
        return out

    def go(s: State) -> bool:
        if lv.is_goal(s):
            return True
        if s in seen:
            return seen[s]
        seen[s] = False
        for b in range(lv.k):
            if s[b] < lv.nc[b]:
                for y in ends_of(s, b):
                    if go(y):
                        seen[s] = True
                        return True
        return False

    try:
        return go(lv.start)
    except _Capped:
        return "cap"


def lesson_selftest(it: Item, cap: int = 100000) -> int:
    """The lessons' searches (A* through View, SerialSearch) against plain_min / plain_serial
    on one level; returns the number of disagreements (small levels only)."""
    lv = it.lv
    if plain_min(lv, cap=cap) == "cap":
        print(f"selftest {it.name} lessons: state space over {cap}, not compared")
        return 0
    cases: list[tuple[str, Allow | None, Sequence[int] | None]] = [
        ("all", None, None),
        ("heads-only", only_end(0), None),
        ("tails-only", only_end(1), None),
    ]
    cases += [
        ("horizontal-only", only_axis(HORIZONTAL), None),
        ("vertical-only", only_axis(VERTICAL), None),
    ]
    for b in range(lv.k):
        cases.append((f"b{b} head-only", only_end(0, {b}), None))
        cases.append((f"b{b} horizontal-only", only_axis(HORIZONTAL, {b}), None))
    if 2 <= lv.k <= 4:
        cases += [(f"order {list(p)}", None, p) for p in itertools.permutations(range(lv.k))]
    agree = bad = 0
    for name, allow, order in cases:
        want = plain_min(lv, allow, order, cap)
        got = exact_min(View(lv, allow, order), cap * 4)
        mine = got["value"] if got["kind"] == "min" else (None if got["kind"] == "none" else "?")
        if want == "cap" or mine == "?":
            continue
        if want != mine:
            bad += 1
            print(f"selftest {it.name} lessons: {name}: BFS {want}, A* {mine}")
        else:
            agree += 1
    for kind in ("body_frozen", "hole_frozen", "silver", "gold"):
        a, b_ = _relaxed_selftest(it, kind, cap)
        agree, bad = agree + a, bad + b_
    want_serial = plain_serial(lv, cap)
    got_serial = SerialSearch(lv, cap * 4).run()
    if want_serial != "cap" and got_serial != "undecided":
        if want_serial != (got_serial == "serial"):
            bad += 1
            print(f"selftest {it.name} lessons: serial brute force {want_serial}, "
                  f"SerialSearch {got_serial}")
        else:
            agree += 1
    print(f"selftest {it.name} lessons: {agree} searches agree with plain BFS, {bad} differ")
    return bad


def _relaxed_selftest(it: Item, kind: str, cap: int) -> tuple[int, int]:
    """The level without one mechanic kind: BFS against A* (agreeing, differing)."""
    rl, _ = relaxed_level(it.raw, kind)
    if rl is None:
        return 0, 0
    want, got = plain_min(rl, cap=cap), exact_min(rl, cap * 4)
    if want == "cap" or got["kind"] != "min":
        return 0, 0
    if want != got["value"]:
        print(f"selftest {it.name} lessons: without {kind}: BFS {want}, A* {got['value']}")
        return 0, 1
    return 1, 0


def selftest(items: list[Item], seed: int = 0) -> None:
    """Cross-checks of this file's own pieces: the fast move generator against the plain rule
    function on random walks, the assignment against brute force, A* (w=1) against BFS."""
    rng = random.Random(seed)
    bad = _assignment_selftest(rng)
    moves_checked = 0
    for it in items:
        if it.error:
            continue
        checked, wrong = _moves_selftest(it, rng)
        moves_checked += checked
        bad += wrong
        # BFS vs A* on levels with a small certificate
        if len(it.solution) <= 14 and it.lv.k <= 3:
            bad += _astar_selftest(it)
        if it.number in LESSONS:
            bad += lesson_selftest(it)
    print(f"selftest: {moves_checked} moves compared, {bad} problems")


def _assignment_selftest(rng: random.Random) -> int:
    bad = 0
    for _ in range(300):
        n = rng.randint(1, 4)
        m = rng.randint(n, 6)
        cost = [[rng.choice([rng.randint(0, 9), INF]) for _ in range(m)] for _ in range(n)]
        brute = min(
            sum(cost[i][p[i]] for i in range(n)) for p in itertools.permutations(range(m), n)
        )
        if min(assignment(cost), INF) != min(brute, INF) and not (
            assignment(cost) >= INF and brute >= INF
        ):
            bad += 1
            print(f"selftest assignment: {cost} -> {assignment(cost)} brute {brute}")
    return bad


def _moves_selftest(it: Item, rng: random.Random) -> tuple[int, int]:
    """A random walk comparing every step the fast generator gives with the plain rule
    function's answer: (moves compared, differences)."""
    lv = it.lv
    s = lv.start
    checked = bad = 0
    for _ in range(60):
        fast = dict(lv.successors(s))
        for b in range(lv.k):
            for e in (0, 1):
                for di in range(4):
                    try:
                        s2: State | None = lv.apply(s, b, ENDS[e], DIRS[di])[0]
                    except ValueError:
                        s2 = None
                    checked += 1
                    if fast.get((b, e, di)) != s2:
                        bad += 1
                        print(
                            f"selftest {it.name}: move {step_json((b, e, di))} "
                            "fast/plain differ"
                        )
        if not fast or lv.is_goal(s):
            break
        s = rng.choice(list(fast.values()))
    return checked, bad


def _astar_selftest(it: Item) -> int:
    lv = it.lv
    dist = {lv.start: 0}
    q = deque([lv.start])
    best = None
    while q and len(dist) < 200000:
        x = q.popleft()
        if lv.is_goal(x):
            best = dist[x]
            break
        for _, y in lv.successors(x):
            if y not in dist:
                dist[y] = dist[x] + 1
                q.append(y)
    if best is None:
        return 0
    r = astar(lv, 1.0, 200000, best + 1)
    got = len(r["best"]) if r["best"] else None
    h0 = lv.h(lv.start)
    if got != best or h0 > best:
        print(f"selftest {it.name}: BFS minimum {best}, A* {got}, h0 {h0}")
        return 1
    print(
        f"selftest {it.name}: BFS minimum {best} = A* {got}; h0 {h0} <= {best}; "
        f"certificate {len(it.solution)}"
    )
    return 0
