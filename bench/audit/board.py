#!/usr/bin/env python3
"""Independent audit of the snakes main line against issue 50's must-holds (one board).

    .venv/bin/python -m bench.audit.board                        # every check, the whole line
    .venv/bin/python -m bench.audit.board --levels 101-2000 --checks board,legible,stretch
    .venv/bin/python -m bench.audit.board --sample 10 --seed 3 --data output/line

Written from the written rules only (spec ``snakes.md`` 1-5d, terrain included), with the
line auditor's rules engine (``bench.audit.line``), its depth terms in ``bench.audit.depth``,
stretch types in ``bench.audit.stretch`` and the seed's seven-term score in
``bench.audit.score``; it imports nothing from ``gridforge``.  Reads the blocks as
``bench.audit.line`` does.  ``--levels`` selects the levels judged (the stretch check still
reads every level for the history of types); ``--sample N`` draws N levels per band of 250
(from level 101) for the searching checks (depth, joint, cost; 0: every level), with
``--seed``.  Budgets count stored states, never seconds.

Checks (``--checks``, default all; numbers are issue 50's must-holds in the order written):

1 ``board``    from 101 every non-breather (``meta.breather``) has all its bodies in one
               floor region (4-connected floor, stones excluded); >= 90% of the levels from
               101 have a stone share (stones / (cols * rows)) of at most 0.40.
2 ``legible``  from 11: bodies of at most 5 cells; >= 90% straight bodies (no turn) in every
               band of 100; occupancy <= 0.55; <= 6 outer colours; <= 100 certificate steps;
               band median steps <= 60; boards of at most 10 columns and 16 rows.
3 ``depth``    sampled non-breathers from 101, on the main region (the floor region with
               the most bodies, the rest removed) with its mechanics lifted: exact minimum,
               the part cost of every single and pair, the pair split bound, beyond-pairs
               steps, the blocks relation and the longest must-move chain.  beyond >= 2 on
               >= 50% from 301 and >= 70% from 1001; chain >= 2 on >= 50% from 301, >= 3 on
               >= 20% from 1001.
4 ``joint``    sampled levels from 101: main-region joint steps = the main region's minimum
               (its level with its mechanics: spec 5c's joint steps are the steps owed to
               bodies in each other's way *and to the mechanics*, and the issue lifts them
               only for its depth line) minus its body bound (the larger of its travel bound
               and the sum of its bodies' solo costs); a minimum not settled in budget gives
               the lower bound (spec 5c: the certified lower bound).  Band medians (by 250
               levels, every sampled level, breathers too) >= 6 from 251, >= 10 from 1001,
               >= 14 from 1751; Spearman rank correlation with the level number >= 0.6 (every
               sampled level); every sampled non-breather from 301 has >= 1; median of
               certificate steps per main-region joint step <= 3.5 from 301.
5 ``cost``     sampled levels from 101 carrying freezes, locks, paint or bridges: the level's
               minimum with the piece minus the minimum with it lifted (freezes: every body
               and hole freeze ignored; locks: every lock and key ignored) or removed (paint
               gone; bridges as plain floor: |change|).  Each kind on its own, for the
               strongest reading of "freezes and locks raise the minimum by at least 2 on at
               least half": freezes >= 2 on >= half, locks >= 2 on >= half, paint and
               bridges change it by >= 2 on >= half of theirs.  Minima are settled from
               below by the regions' minima with every mechanic lifted, from above by the
               certificate (it replays on the lifted and unpainted levels) and, when those do
               not decide, by exact A* on the whole level.
6 ``stretch``  every level's main-region stretch type (``bench.audit.stretch``): no type on
               more than 2% of the levels from 101; in every band of 100 from 101 at least
               half the levels bring a type no earlier level (from level 1) had.
7 ``template`` every level from 101 names a seed template (courtyard, notched, stepped,
               cross, island, twin, winding, comb, pillars, split, mixed) in meta.template;
               no template on more than 25% of the levels of any band of 100.
8 ``score``    the seed's design score (``bench.audit.score``, seven terms unchanged) on
               every level from 101: band median of 1901-2000 >= 10 points above 101-200's;
               no band median of 100 more than 3 below the band before.
9 ``proven``   >= 90% of the line optimal (certificate's ``optimal``), levels 1-500 all,
               every band of 100 >= 70%.

Issue 50's other must-holds about built levels are ``bench.audit.line``'s: every certificate
replays under independent rules (its ``replay``), greedy searches find nothing shorter on
unproven levels (its ``greedy``), optimality claims confirmed by exact search (its ``proven``).

A share must-hold over levels whose searches ran out of budget says PASS only when it holds
with every undecided level counted against it, FAIL only when it fails with every undecided
level counted for it, SKIP otherwise.  Every check prints a table; then a band table and one
PASS/FAIL/SKIP line per must-hold.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import os
import random
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, cast

from bench.audit import depth as dp
from bench.audit import puzzle_rules
from bench.audit.line import (
    Item,
    Level,
    band_name,
    common_arguments,
    fmt,
    median,
    pct,
    proven_bands,
    read_line,
    replay,
    run_checks,
    say_verdicts,
    solo_cost,
    table,
)
from bench.audit.score import score_level
from bench.audit.shared import INF, LevelError
from bench.audit.stretch import short, stretch_type

ALL_CHECKS = ("board", "legible", "depth", "joint", "cost", "stretch", "template", "score",
              "proven")
TEMPLATES = ("courtyard", "notched", "stepped", "cross", "island", "twin", "winding", "comb",
             "pillars", "split", "mixed")
KINDS = ("freezes", "locks", "paint", "bridges")
WIDE = 250  # the searching checks' bands


def wide_band(number: int) -> int:
    return (number - 1) // WIDE


def wide_name(b: int) -> str:
    return f"{b * WIDE + 1}-{(b + 1) * WIDE}"


def turns(cells: Sequence[Sequence[int]]) -> int:
    """Inner cells where the body's path changes direction (spec 5c)."""
    out = 0
    for a, b, c in zip(cells, cells[1:], cells[2:], strict=False):
        if (b[0] - a[0], b[1] - a[1]) != (c[0] - b[0], c[1] - b[1]):
            out += 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rank correlation (ties take their mean rank); None below 3 points or
    when one side is constant."""
    if len(xs) < 3:
        return None
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if not sxx or not syy:
        return None
    return float(sxy / (sxx * syy) ** 0.5)


def _ranks(xs: Sequence[float]) -> list[float]:
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for t in range(i, j + 1):
            ranks[order[t]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def share_verdict(met: int, undecided: int, total: int, need: float) -> bool | None:
    """PASS (True) when ``met`` alone reaches ``need`` of ``total``, FAIL (False) when even
    with every undecided level it does not, None (SKIP) otherwise or with nothing to judge."""
    if not total:
        return None
    if met >= need * total:
        return True
    if met + undecided < need * total:
        return False
    return None


def carried(raw: dict[str, Any]) -> dict[str, bool]:
    """Which of the cost check's kinds the level carries."""
    bodies = raw.get("bodies") or []
    return {
        "freezes": any(b.get("frozen") for b in bodies)
        or any(h.get("frozen") for h in raw.get("holes") or []),
        "locks": any(b.get("lock") for b in bodies),
        "paint": bool(raw.get("paths")),
        "bridges": bool(raw.get("bridges")),
    }


def without(raw: dict[str, Any], kind: str) -> Level:
    """The level with one kind lifted or removed, written as a level of its own (the
    regions' levels are read from it).  LevelError when it is no level then: a body crossing
    itself, or two bodies sharing a bridge, cannot lie on plain floor."""
    out = copy.deepcopy(raw)
    drop = {"freezes": ("frozen",), "locks": ("lock", "key")}.get(kind, ())
    for b in out["bodies"]:
        for k in drop:
            b.pop(k, None)
    if kind == "freezes":
        for h in out["holes"]:
            h.pop("frozen", None)
    if kind == "paint":
        out["paths"] = []
    if kind == "bridges":
        out["bridges"] = []
    return Level(out)


# --------------------------------------------------------------------------------------------
# the audit
# --------------------------------------------------------------------------------------------


class BoardAudit:
    """Issue 50's must-holds on the selected levels (``items``); ``history``: every level
    loaded (for the stretch types' first appearance)."""

    def __init__(self, items: list[Item], history: list[Item], args: argparse.Namespace) -> None:
        self.items = items
        self.ok = [it for it in items if it.level is not None and it.error is None]
        self.history = [it for it in history if it.level is not None and it.error is None]
        self.args = args
        self.verdicts: dict[int, list[tuple[str, tuple[str, str]]]] = {
            i: [] for i in range(1, len(ALL_CHECKS) + 1)}
        self.bands = sorted({it.band for it in self.ok})
        self.wide = sorted({wide_band(it.number) for it in self.ok if it.number > 100})

    def verdict(self, item: int, what: str, ok: bool | None, figures: str) -> None:
        word = "SKIP" if ok is None else ("PASS" if ok else "FAIL")
        self.verdicts[item].append((what, (word, figures)))

    def sample(self, pool: list[Item], salt: int) -> list[Item]:
        """``--sample`` levels of ``pool`` per band of 250 (all when 0), by ``--seed``."""
        k = self.args.sample
        out: list[Item] = []
        for b in sorted({wide_band(it.number) for it in pool}):
            its = [it for it in pool if wide_band(it.number) == b]
            if k and len(its) > k:
                its = random.Random(self.args.seed * 1009 + salt * 31 + b).sample(its, k)
            out.extend(its)
        return sorted(out, key=lambda it: it.number)

    def searched(self) -> list[Item]:
        """The levels from 101 the searching checks (depth, joint) share."""
        return self.sample([it for it in self.ok if it.number > 100], 0)

    def main(self, it: Item) -> tuple[list[int], list[int]]:
        """(cells, bodies) of the level's main region (cached)."""
        got = it.fig.get("main")
        if got is None:
            assert it.level is not None
            got = dp.main_region(it.level)
            it.fig["main"] = got
        return cast(tuple[list[int], list[int]], got)

    def solos(self, it: Item, region: Level) -> list[int | None]:
        """Solo costs of the main region's bodies (cached; None out of budget)."""
        got = it.fig.get("solos")
        if got is None:
            got = []
            for b in range(region.k):
                c, _st = solo_cost(region, b, self.args.budget)
                got.append(c if c is not None and c >= 0 else None)
            it.fig["solos"] = got
        return cast(list[int | None], got)

    # ---- 1 board ------------------------------------------------------------------------------

    def board(self) -> None:
        late = [it for it in self.ok if it.number > 100]
        split: list[int] = []
        rows = []
        for it in self.ok:
            lv = it.level
            assert lv is not None
            regions = dp.regions_with_bodies(lv)
            it.fig["regions"] = sum(1 for _c, bs in regions if bs)
            it.fig["stone"] = (lv.n - lv.nfloor) / lv.n
        for b in self.bands:
            its = [it for it in self.ok if it.band == b]
            rows.append((band_name(b), len(its), sum(1 for it in its if it.breather),
                         median([it.fig["regions"] for it in its]),
                         max(it.fig["regions"] for it in its),
                         sum(1 for it in its if it.fig["regions"] > 1 and not it.breather),
                         _two(median([it.fig["stone"] for it in its])),
                         pct(sum(1 for it in its if it.fig["stone"] <= 0.40), len(its))))
        split = [it.number for it in late if it.fig["regions"] > 1 and not it.breather]
        table("1 board: floor regions holding bodies, stone share",
              ["band", "levels", "breathers", "med regions", "max regions",
               "non-breathers split", "med stone", "stone<=.40"], rows)
        nb = sum(1 for it in late if not it.breather)
        print(f"non-breathers from 101 with bodies in more than one region: {len(split)} of "
              f"{nb} {_few(split)}")
        self.verdict(1, "from 101 every non-breather keeps its bodies in one floor region",
                     not split if nb else None, f"{len(split)} of {nb} split")
        low = sum(1 for it in late if it.fig["stone"] <= 0.40)
        self.verdict(1, ">= 90% of levels from 101 have stone share <= 0.40",
                     low >= 0.9 * len(late) if late else None,
                     f"{pct(low, len(late))} ({low} of {len(late)})")

    # ---- 2 legible ----------------------------------------------------------------------------

    def legible(self) -> None:
        late = [it for it in self.ok if it.number >= 11]
        for it in late:
            lv = it.level
            assert lv is not None
            bodies = it.raw["bodies"]
            it.fig.update(
                lens=[len(b["cells"]) for b in bodies],
                straight=[turns(b["cells"]) == 0 for b in bodies],
                occ=(sum(lv.blen) + lv.m) / lv.nfloor,
                outer=len({b["colors"][0] for b in bodies}))
        rows = []
        crooked, steep = [], []
        for b in self.bands:
            its = [it for it in late if it.band == b]
            if not its:
                continue
            st = [x for it in its for x in it.fig["straight"]]
            ms = median([it.steps for it in its])
            rows.append((band_name(b), len(its), max(max(it.fig["lens"]) for it in its),
                         pct(sum(st), len(st)), _two(max(it.fig["occ"] for it in its)),
                         max(it.fig["outer"] for it in its), ms,
                         max(it.steps for it in its),
                         sum(1 for it in its if it.raw["cols"] > 10 or it.raw["rows"] > 16)))
            if sum(st) < 0.9 * len(st):
                crooked.append(f"{band_name(b)} {pct(sum(st), len(st))}")
            if ms is not None and ms > 60:
                steep.append(f"{band_name(b)} {ms}")
        table("2 legible (from level 11)",
              ["band", "levels", "max len", "straight", "max occ", "max colours",
               "med steps", "max steps", "over 10x16"], rows)
        tests: list[tuple[str, Callable[[Item], bool]]] = [
            ("bodies of at most 5 cells", lambda it: max(it.fig["lens"]) <= 5),
            ("occupancy <= 0.55", lambda it: it.fig["occ"] <= 0.55),
            ("<= 6 outer colours", lambda it: it.fig["outer"] <= 6),
            ("<= 100 certificate steps", lambda it: it.steps <= 100),
            ("boards of at most 10 columns and 16 rows",
             lambda it: it.raw["cols"] <= 10 and it.raw["rows"] <= 16),
        ]
        for what, good in tests:
            bad = [it.number for it in late if not good(it)]
            print(f"{what}: {len(bad)} levels fail {_few(bad)}")
            self.verdict(2, what + " (from 11)", not bad if late else None,
                         f"{len(bad)} of {len(late)} fail")
        self.verdict(2, ">= 90% straight bodies in every band of 100",
                     not crooked if late else None, "; ".join(crooked[:8]))
        self.verdict(2, "band median steps <= 60", not steep if late else None,
                     "; ".join(steep[:8]))

    # ---- 3 depth ------------------------------------------------------------------------------

    def depth(self) -> None:
        pool = [it for it in self.searched() if not it.breather]
        rows = []
        for it in pool:
            d = self._depth(it)
            if d is None:
                continue
            rows.append((it.number, d.bodies, fmt(d.minimum.low if d.minimum.exact else None),
                         " ".join(fmt(s) for s in d.singles), fmt(d.split), fmt(d.beyond),
                         d.chain, sum(map(len, d.edges.values())), d.stored,
                         "; ".join(d.why) or "-"))
        table("3 depth: main region, mechanics lifted (sampled non-breathers from 101)",
              ["level", "bodies", "minimum", "solo costs", "pair split", "beyond", "chain",
               "blocking pairs", "states", "undecided"], rows)
        self._depth_bands(pool)
        for first, key, least, need in ((301, "beyond", 2, 0.5), (1001, "beyond", 2, 0.7),
                                        (301, "chain", 2, 0.5), (1001, "chain", 3, 0.2)):
            its = [it for it in pool if it.number >= first and "depth" in it.fig]
            met = sum(1 for it in its if (getattr(it.fig["depth"], key) or 0) >= least)
            open_ = sum(1 for it in its if getattr(it.fig["depth"], key) is None)
            self.verdict(3, f"{key} >= {least} on >= {need:.0%} of sampled from {first}",
                         share_verdict(met, open_, len(its), need),
                         f"{pct(met, len(its))} ({met} of {len(its)}, {open_} undecided)")

    def _main_region(self, it: Item, mechanics: bool) -> tuple[Level, list[list[Any]]] | None:
        """The level's main region as a level (its mechanics kept or lifted) and the
        certificate's solution projected onto it; None (said) when the region is no level."""
        lv = it.level
        assert lv is not None
        comp, members = self.main(it)
        try:
            region = dp.region_level(lv, comp, mechanics=mechanics)
        except LevelError as err:
            print(f"level {it.number}: {err}")
            return None
        return region, dp.project(lv, members, it.cert.get("solution"))

    def _depth(self, it: Item) -> dp.Depth | None:
        got = self._main_region(it, mechanics=False)
        if got is None:
            return None
        region, known = got
        d = dp.measure_depth(region, self.args.budget, known)
        it.fig["depth"] = d
        return d

    def _depth_bands(self, pool: list[Item]) -> None:
        rows = []
        for b in self.wide:
            its = [it for it in pool if wide_band(it.number) == b and "depth" in it.fig]
            if not its:
                continue
            ds = [it.fig["depth"] for it in its]
            beyond = [d.beyond for d in ds if d.beyond is not None]
            chains = [d.chain for d in ds if d.chain is not None]
            rows.append((wide_name(b), len(its), median([d.bodies for d in ds]),
                         median(beyond), pct(sum(1 for x in beyond if x >= 2), len(its)),
                         median(chains), pct(sum(1 for x in chains if x >= 2), len(its)),
                         pct(sum(1 for x in chains if x >= 3), len(its)),
                         sum(1 for d in ds if d.beyond is None or d.undecided_blocks)))
        table("3 depth by band of 250", ["band", "levels", "med bodies", "med beyond",
                                         "beyond>=2", "med chain", "chain>=2", "chain>=3",
                                         "undecided"], rows)

    # ---- 4 joint ------------------------------------------------------------------------------

    def joint(self) -> None:
        pool = self.searched()
        rows = []
        for it in pool:
            got = self._joint(it)
            if got is not None:
                rows.append(got)
        table("4 main-region joint steps (mechanics kept; sampled from 101)",
              ["level", "breather", "bodies", "minimum", "travel", "solo sum", "body bound",
               "joint", "steps/joint", "states"], rows)
        done = [it for it in pool if "joint" in it.fig]
        meds = self._joint_bands(done)
        for first, least in ((251, 6), (1001, 10), (1751, 14)):
            low = [(b, m) for b, m in meds if b * WIDE + 1 >= first and m < least]
            judged = [b for b, _m in meds if b * WIDE + 1 >= first]
            self.verdict(4, f"band medians (by 250) >= {least} from {first}",
                         not low if judged else None,
                         "; ".join(f"{wide_name(b)} {m}" for b, m in low)
                         or f"{len(judged)} bands")
        rho = spearman([it.number for it in done], [it.fig["joint"] for it in done])
        self.verdict(4, "rank correlation with the level number >= 0.6",
                     rho >= 0.6 if rho is not None else None,
                     f"{fmt(rho, 2)} over {len(done)} sampled levels")
        zero = [it.number for it in done
                if it.number >= 301 and not it.breather and it.fig["joint"] < 1]
        nb = sum(1 for it in done if it.number >= 301 and not it.breather)
        self.verdict(4, "every sampled non-breather from 301 has >= 1 joint step",
                     not zero if nb else None, f"{len(zero)} of {nb} have none {_few(zero)}")
        ratio = [it.steps / it.fig["joint"] if it.fig["joint"] > 0 else float(INF)
                 for it in done if it.number >= 301]
        mr = median(ratio)
        self.verdict(4, "median certificate steps per joint step <= 3.5 from 301",
                     mr <= 3.5 if mr is not None else None, f"{fmt(mr, 2)}")

    def _joint(self, it: Item) -> tuple[Any, ...] | None:
        got = self._main_region(it, mechanics=True)
        if got is None:
            return None
        region, known = got
        solos = self.solos(it, region)
        travel = region.h(region.start)
        mini = dp.minimum(region, self.args.budget, known)
        if any(s is None for s in solos) or travel >= INF or mini.low >= INF:
            return (it.number, it.breather, region.k, "-", travel, "-", "-", "-", "-",
                    mini.stored)
        body = max(travel, sum(s for s in solos if s is not None))
        joint = mini.low - body
        it.fig["joint"] = joint
        it.fig["joint_exact"] = mini.exact
        ratio = it.steps / joint if joint > 0 else None
        return (it.number, "yes" if it.breather else "", region.k,
                mini.low if mini.exact else f">={mini.low}", travel,
                sum(s for s in solos if s is not None), body, joint, fmt(ratio, 2),
                mini.stored)

    def _joint_bands(self, done: list[Item]) -> list[tuple[int, float]]:
        rows = []
        meds: list[tuple[int, float]] = []
        for b in self.wide:
            its = [it for it in done if wide_band(it.number) == b]
            if not its:
                continue
            mj = median([it.fig["joint"] for it in its])
            assert mj is not None
            meds.append((b, mj))
            rows.append((wide_name(b), len(its), mj, min(it.fig["joint"] for it in its),
                         max(it.fig["joint"] for it in its),
                         sum(1 for it in its if not it.fig["joint_exact"])))
        table("4 joint by band of 250", ["band", "levels", "median", "min", "max",
                                         "lower bound only"], rows)
        return meds

    # ---- 5 cost -------------------------------------------------------------------------------

    def cost(self) -> None:
        pool = self.sample([it for it in self.ok if it.number > 100
                            and any(carried(it.raw).values())], 5)
        rows = []
        tally: dict[str, list[int]] = {k: [0, 0, 0] for k in KINDS}  # met, open, all
        for it in pool:
            flags = carried(it.raw)
            for kind in KINDS:
                if not flags[kind]:
                    continue
                lo, hi, note = self._cost(it, kind)
                t = tally[kind]
                t[2] += 1
                if lo >= 2:
                    t[0] += 1
                elif hi >= 2:
                    t[1] += 1
                rows.append((it.number, kind, "any" if lo >= INF else _span((lo, hi)), note))
        table("5 cost of a piece: minimum with it - minimum without (bridges: |change|)",
              ["level", "kind", "cost", "how"], rows)
        for kind in KINDS:
            met, open_, total = tally[kind]
            self.verdict(5, f"{kind} change the minimum by >= 2 on >= half of the sampled "
                         "levels carrying them",
                         share_verdict(met, open_, total, 0.5),
                         f"{pct(met, total)} ({met} of {total}, {open_} undecided)")

    def _cost(self, it: Item, kind: str) -> tuple[int, int, str]:
        """(least, most) the kind's cost can be on the level, and how it was settled."""
        lv = it.level
        assert lv is not None
        sol = it.cert.get("solution")
        try:
            other = without(it.raw, kind)
        except LevelError as err:
            return 0, INF, f"no level without it: {err}"
        have = self._bounds(it.fig, "min", lv, sol)
        less = self._bounds(it.fig, f"min-{kind}", other, sol)
        how = f"with {_span(have)}, without {_span(less)}"
        if kind == "bridges":
            lo = max(have[0] - less[1], less[0] - have[1], 0)
            hi = max(have[1] - less[0], less[1] - have[0])
        else:
            lo, hi = have[0] - less[1], have[1] - less[0]
        if less[0] >= INF or have[0] >= INF:
            return INF, INF, how + " (unsolvable one way: any change)"
        return lo, min(hi, INF), how

    def _bounds(self, fig: dict[str, Any], key: str, lv: Level, sol: Any) -> tuple[int, int]:
        """(low, high) of the level's minimum: regions with mechanics lifted from below, the
        certificate (when it replays here) from above, exact A* when those differ."""
        got = fig.get(key)
        if got is not None:
            return cast(tuple[int, int], got)
        low = 0
        parts: list[tuple[list[int], list[list[Any]]]] = []
        for comp, members in dp.regions_with_bodies(lv):
            if not members:
                continue
            try:
                region = dp.region_level(lv, comp, mechanics=False)
            except LevelError:
                low = INF
                break
            known = dp.project(lv, members, sol)
            got = dp.minimum(region, self.args.budget, known)
            low = min(INF, low + got.low)  # INF: a region that can never be cleared
            if got.solution is not None and got.solution != known:
                parts.append((members, got.solution))
        high = len(sol) if replay(lv, sol)[0] else INF
        if parts and low < high:
            # the regions' own best solutions in place of the certificate's steps there
            spliced = dp.splice(lv, sol, parts)
            high = min(high, len(spliced) if spliced is not None else INF)
        if low < high:
            m = dp.minimum(lv, self.args.budget, sol if high < INF else None)
            low = max(low, m.low)
            high = min(high, m.high if m.high is not None else INF)
        fig[key] = (low, high)
        return low, high

    # ---- 6 stretch ----------------------------------------------------------------------------

    def stretch(self) -> None:
        first: dict[str, int] = {}
        for it in self.history:
            lv = it.level
            assert lv is not None
            comp, _members = self.main(it)
            kind = stretch_type(lv, comp)
            it.fig["kind"] = kind
            first.setdefault(kind, it.number)
        late = [it for it in self.ok if it.number > 100 and "kind" in it.fig]
        counts = Counter(it.fig["kind"] for it in late)
        rows = []
        stale = []
        for b in self.bands:
            its = [it for it in late if it.band == b]
            if not its:
                continue
            new = sum(1 for it in its if first[it.fig["kind"]] == it.number)
            kinds = Counter(it.fig["kind"] for it in its)
            rows.append((band_name(b), len(its), len(kinds), new, pct(new, len(its)),
                         max(kinds.values())))
            if new < 0.5 * len(its):
                stale.append(f"{band_name(b)} {new}/{len(its)}")
        table("6 stretch types of the main region (from 101)",
              ["band", "levels", "types", "new types", "new share", "most repeated"], rows)
        top = counts.most_common(5)
        table("6 the most frequent types from 101", ["type", "levels", "share", "first"],
              [(short(k), n, pct(n, len(late)), first[k]) for k, n in top])
        most = top[0][1] if top else 0
        print(f"{len(counts)} types over {len(late)} levels from 101")
        self.verdict(6, "no main-region stretch type on more than 2% of the levels from 101",
                     most <= 0.02 * len(late) if late else None,
                     f"most frequent on {most} of {len(late)} ({pct(most, len(late))})")
        self.verdict(6, "in every band of 100 from 101 at least half the levels bring a new "
                     "type", not stale if late else None, "; ".join(stale[:8]))

    # ---- 7 template ---------------------------------------------------------------------------

    def template(self) -> None:
        late = [it for it in self.ok if it.number > 100]
        unnamed = [it.number for it in late if it.meta.get("template") not in TEMPLATES]
        rows = []
        heavy = []
        for b in self.bands:
            its = [it for it in late if it.band == b]
            if not its:
                continue
            names = Counter(str(it.meta.get("template")) for it in its)
            name, most = names.most_common(1)[0]
            rows.append((band_name(b), len(its), len(names), name, pct(most, len(its)),
                         sum(1 for it in its if it.meta.get("template") == "split"
                             and not it.breather)))
            if most > 0.25 * len(its):
                heavy.append(f"{band_name(b)} {name} {pct(most, len(its))}")
        table("7 templates (meta.template, from 101)",
              ["band", "levels", "templates", "most used", "its share",
               "split on non-breathers"], rows)
        print("templates from 101: " + ", ".join(
            f"{k} {v}" for k, v in Counter(str(it.meta.get("template")) for it in late)
            .most_common()))
        self.verdict(7, "every level from 101 names a seed template",
                     not unnamed if late else None,
                     f"{len(unnamed)} of {len(late)} do not {_few(unnamed)}")
        self.verdict(7, "no template on more than 25% of any band of 100",
                     not heavy if late else None, "; ".join(heavy[:6]))

    # ---- 8 score ------------------------------------------------------------------------------

    def score(self) -> None:
        late = [it for it in self.ok if it.number > 100]
        unscored = []
        for it in late:
            got = _score(it)
            if got is None:
                unscored.append(it.number)
            else:
                it.fig["score"] = got
        rows = []
        meds: list[tuple[int, float]] = []
        for b in self.bands:
            its = [it for it in late if it.band == b and "score" in it.fig]
            if not its:
                continue
            m = median([it.fig["score"] for it in its])
            assert m is not None
            meds.append((b, m))
            theirs = [it.cert["score"]["total"] for it in its
                      if isinstance(it.cert.get("score"), dict)
                      and isinstance(it.cert["score"].get("total"), (int, float))]
            rows.append((band_name(b), len(its), m, min(it.fig["score"] for it in its),
                         max(it.fig["score"] for it in its), median(theirs)))
        table("8 design score (seven terms, from 101)",
              ["band", "levels", "median", "min", "max", "certificate's median"], rows)
        print(f"not scored (solution does not replay, or not a level to the score's rules): "
              f"{len(unscored)} {_few(unscored)}")
        ends = dict(meds)
        rise = ends[19] - ends[1] if 1 in ends and 19 in ends else None
        self.verdict(8, "band median 1901-2000 >= 10 points above 101-200's",
                     rise >= 10 if rise is not None else None,
                     f"{fmt(ends.get(1))} -> {fmt(ends.get(19))}")
        falls = [f"{band_name(a)}->{band_name(b)} {x}->{y}"
                 for (a, x), (b, y) in itertools.pairwise(meds)
                 if b == a + 1 and y < x - 3]
        self.verdict(8, "no band median of 100 falls by more than 3 to the next",
                     not falls if len(meds) > 1 else None, "; ".join(falls[:6]))

    # ---- 9 proven -----------------------------------------------------------------------------

    def proven(self) -> None:
        weak = [f"{name} {share}" for name, share in proven_bands(
            "9 proven share (certificate's optimal)", self.items, self.bands, 0.7)]
        early = [it for it in self.items if it.number <= 500]
        bad = [it.number for it in early if not it.optimal]
        allp = sum(1 for it in self.items if it.optimal)
        self.verdict(9, ">= 90% of the line optimal",
                     allp >= 0.9 * len(self.items) if self.items else None,
                     pct(allp, len(self.items)))
        self.verdict(9, "levels 1-500 all optimal", not bad if early else None,
                     f"{len(bad)} of {len(early)} not {_few(bad)}")
        self.verdict(9, "every band of 100 >= 70% optimal", not weak, "; ".join(weak[:6]))

    # ---- the band table and the summary -------------------------------------------------------

    def band_table(self) -> None:
        rows = []
        for b in self.bands:
            its = [it for it in self.ok if it.band == b]
            ds = [it.fig["depth"] for it in its if "depth" in it.fig]
            js = [it.fig["joint"] for it in its if "joint" in it.fig]
            rows.append((band_name(b), len(its),
                         median([it.fig["regions"] for it in its if "regions" in it.fig]),
                         _two(median([it.fig["stone"] for it in its if "stone" in it.fig])),
                         median([d.beyond for d in ds if d.beyond is not None]),
                         median([d.chain for d in ds if d.chain is not None]),
                         median(js), median([it.fig["score"] for it in its if "score" in it.fig]),
                         median([it.steps for it in its])))
        table("bands", ["band", "levels", "regions", "stone", "beyond", "chain", "joint",
                        "score", "steps"], rows)

    def summary(self) -> None:
        say_verdicts("must-holds (issue 50)",
                     [f"{i} {name}" for i, name in enumerate(ALL_CHECKS, 1)], self.verdicts)


def _score(it: Item) -> float | None:
    """The seven-term design score of the level with its certificate's solution, or None."""
    lv = it.level
    assert lv is not None
    ok, _why, states = replay(lv, it.cert.get("solution"))
    if not ok:
        return None
    exits = [sum(b[: lv.k]) > sum(a[: lv.k]) for a, b in itertools.pairwise(states)]
    try:
        plain = puzzle_rules.Level(it.raw)
    except LevelError:
        return None  # a body lying twice on a bridge: not a level to the score's rules
    return float(score_level(plain, it.cert["solution"], exits)["total"])


def _two(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _span(b: tuple[int, int]) -> str:
    lo, hi = b
    if lo >= INF:
        return "unsolvable" if hi >= INF else "?"
    return str(lo) if lo == hi else f"{lo}..{hi if hi < INF else '?'}"


def _few(xs: Sequence[Any], k: int = 12) -> str:
    if not xs:
        return ""
    return "[" + ", ".join(map(str, xs[:k])) + (", ..." if len(xs) > k else "") + "]"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    common_arguments(ap, ALL_CHECKS, 50, "A-B: only these levels are judged")
    ap.add_argument("--sample", type=int, default=10,
                    help="levels per band of 250 for depth, joint and cost (0: all)")
    ap.add_argument("--budget", type=int, default=300_000,
                    help="stored states per search (minimum, part, blocks)")
    args = ap.parse_args(argv)
    if args.sample < 0 or args.budget < 1:
        ap.error("--sample must be >= 0 and --budget >= 1")
    checks, history, items, problems = read_line(ap, args, ALL_CHECKS)
    for p in problems:
        print(f"problem: {p}")
    for it in items:
        if it.error:
            print(f"level {it.number}: {it.error}")
    print(f"{len(items)} levels from {os.path.normpath(args.data)}; checks {','.join(checks)}; "
          f"sample {args.sample} a band of {WIDE}, seed {args.seed}, budget {args.budget}")
    run_checks(BoardAudit(items, history, args), [c for c in ALL_CHECKS if c in checks])
    return 0

if __name__ == "__main__":
    sys.exit(main())
