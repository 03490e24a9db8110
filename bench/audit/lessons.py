"""The puzzle auditor's ``lessons`` check: issue 18's "lessons that force their idea", one
predicate per lesson level (the module docstring of ``bench.audit.puzzle`` states them),
decided by exact searches through move filters (``View``)."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypedDict

from bench.audit.puzzle_rules import Item, Level, Relax, SerialSearch, replay
from bench.audit.shared import (
    DIRS,
    ENDS,
    INF,
    LOCK_NEED,
    LevelError,
    Move,
    State,
    Step,
    astar,
    serial_solution,
)

# --------------------------------------------------------------------------------------------
# lessons (issue 18: "lessons that force their idea")
# --------------------------------------------------------------------------------------------

# level: (lesson, kind).  Kinds are defined in the module docstring ("lessons").
LESSONS = {
    1: ("grab the head", "head"),
    2: ("grab the tail", "tail"),
    3: ("turn a corner", "corner"),
    4: ("two colours", "colours"),
    5: ("the nearer end", "nearer"),
    6: ("back out", "make_way"),
    7: ("make way", "make_way"),
    8: ("order matters", "order"),
    9: ("long bodies that bend", "long"),
    10: ("a breather", "breather"),
    11: ("make way twice", "make_way"),
    12: ("coats", "coats"),
    18: ("frozen bodies", "body_frozen"),
    24: ("frozen holes", "hole_frozen"),
    30: ("silver lock and key", "silver"),
    36: ("gold lock (two keys)", "gold"),
}
LONG_BODY = 5  # "long" in lesson 9: at least this many cells (lessons 3-6 use 2-4)
HORIZONTAL = frozenset((2, 3))  # indices of L, R in DIRS
VERTICAL = frozenset((0, 1))  # U, D
MAX_ORDER_BODIES = 5  # lesson 8 tries every order of the bodies: 5! = 120 searches at most


Allow = Callable[[Move], bool]  # keeps a step (b, end, dir) by its kind
Verdict = tuple[str, str]  # holds | fails | undecided, and the figures behind it


class MinRecord(TypedDict):
    """What an exact search says of a minimum (see ``exact_min``)."""

    kind: str  # min | none | le | undecided
    value: int | None
    states: int
    solution: list[Step] | None


class View:
    """A level seen through a move filter: ``allow(move)`` keeps a step (b, end, dir) by its
    kind; ``order`` (a sequence of body indices) lets a body take its last layer out only when
    every body before it in the order has left.  Same start, goal and bound as the level (the
    bound ignores the filter, so it stays admissible and consistent)."""

    def __init__(self, lv: Level, allow: Allow | None = None,
                 order: Sequence[int] | None = None) -> None:
        self.lv = lv
        self.start, self.goal = lv.start, lv.goal
        self.allow = allow
        self.before: dict[int, tuple[int, ...]] | None = None
        if order is not None:
            self.before = {b: tuple(order[:i]) for i, b in enumerate(order)}

    def h(self, s: State) -> int:
        return self.lv.h(s)

    def successors(self, s: State) -> list[tuple[Move, State]]:
        lv = self.lv
        out = []
        for mv, s2 in lv.successors(s):
            if self.allow is not None and not self.allow(mv):
                continue
            b = mv[0]
            if (
                self.before is not None
                and s2[b] >= lv.nc[b] > s[b]
                and any(s[c] < lv.nc[c] for c in self.before[b])
            ):
                continue
            out.append((mv, s2))
        return out

    def obeys(self, solution: list[Step]) -> bool:
        """Does a replayed solution respect the filter (checked step by step, plainly)?"""
        lv = self.lv
        s = lv.start
        gone = []
        for st in solution:
            b, e, d = st[0], ENDS.index(st[1]), DIRS.index(st[2])
            if self.allow is not None and not self.allow((b, e, d)):
                return False
            s2, _ = lv.apply(s, st[0], st[1], st[2])
            if s2[b] >= lv.nc[b] > s[b]:
                gone.append(b)
            s = s2
        before = self.before
        return before is None or gone == sorted(before, key=lambda x: len(before[x]))


def only_end(e: int, bodies: Iterable[int] | None = None) -> Allow:
    """Steps by end ``e`` (0 head, 1 tail) only; ``bodies``: restrict those bodies only."""
    if bodies is None:
        return lambda mv: mv[1] == e
    held = set(bodies)
    return lambda mv: mv[0] not in held or mv[1] == e


def only_axis(axis: frozenset[int], bodies: Iterable[int] | None = None) -> Allow:
    """Steps along ``axis`` (direction indices) only; ``bodies``: restrict those only."""
    if bodies is None:
        return lambda mv: mv[2] in axis
    held = set(bodies)
    return lambda mv: mv[0] not in held or mv[2] in axis


def exact_min(view: View | Level, budget: int, bound: int = INF) -> MinRecord:
    """Exact A* (w=1) on a level or View.  Returns dict(kind, value, states, solution):
    kind "min" (proven minimum = value), "none" (no solution: the reachable space with a
    finite bound is exhausted; with a finite ``bound``: no solution shorter than it,
    value = bound), "le" (a solution of value steps, minimum unproven), "undecided"."""
    r = astar(view, 1.0, budget, bound)
    best = r["best"]
    rec = MinRecord(kind="undecided", value=None, states=r["stored"], solution=best)
    if best is not None:
        rec["value"] = len(best)
        rec["kind"] = "min" if r["exhausted"] else "le"
        lv = view.lv if isinstance(view, View) else view
        ok, msg, _, _ = replay(lv, best)
        if not ok or (isinstance(view, View) and not view.obeys(best)):
            raise RuntimeError(f"own restricted solution is not legal: {msg or 'filter broken'}")
    elif r["exhausted"]:
        rec["kind"] = "none"
        rec["value"] = None if bound >= INF else bound
    return rec


def value(rec: MinRecord) -> int:
    """The steps of a record that has them (kind min or le)."""
    v = rec["value"]
    if v is None:
        raise ValueError(f"a {rec['kind']} record has no value")
    return v


def fmt_min(rec: MinRecord) -> str:
    k = rec["kind"]
    if k == "min":
        return str(rec["value"])
    if k == "le":
        return f"<={rec['value']}?"
    if k == "none":
        return "none" if rec["value"] is None else f">={rec['value']}"
    return f"?({rec['states']}st)"


def tri(flags: Iterable[str]) -> str:
    """Combine holds/fails/undecided parts: all must hold."""
    flags = list(flags)
    if "fails" in flags:
        return "fails"
    if "undecided" in flags:
        return "undecided"
    return "holds"


def mechanic_uses(raw: Any) -> set[str]:
    """The mechanic kinds a raw level uses (coats, body_frozen, hole_frozen, silver, gold)."""
    used: set[str] = set()
    if not isinstance(raw, dict):
        return used
    for b in raw.get("bodies") or []:
        if not isinstance(b, dict):
            continue
        if isinstance(b.get("colors"), list) and len(b["colors"]) > 1:
            used.add("coats")
        if b.get("frozen"):
            used.add("body_frozen")
        lk = b.get("lock")
        if isinstance(lk, dict) and lk.get("kind") in LOCK_NEED:
            used.add(lk["kind"])
    for h in raw.get("holes") or []:
        if isinstance(h, dict) and h.get("frozen"):
            used.add("hole_frozen")
    return used


def relaxed_level(raw: dict[str, Any], kind: str) -> tuple[Level | None, int]:
    """The level with every instance of one mechanic kind removed (None: none to remove),
    and how many instances were removed."""
    bodies = raw.get("bodies") or []
    relax: Relax
    if kind == "body_frozen":
        ids = [b for b, x in enumerate(bodies) if x.get("frozen")]
        relax = {("body_frozen", b): True for b in ids}
    elif kind == "hole_frozen":
        ids = [j for j, h in enumerate(raw.get("holes") or []) if h.get("frozen")]
        relax = {("hole_frozen", j): True for j in ids}
    else:
        ids = sorted(
            {
                x["lock"]["id"]
                for x in bodies
                if isinstance(x.get("lock"), dict) and x["lock"].get("kind") == kind
            }
        )
        relax = {"locks": ids}
    return (Level(raw, relax=relax), len(ids)) if ids else (None, 0)


def colour_blind(raw: dict[str, Any]) -> Level:
    """The level with every colour set to 0 (any body may take any hole)."""
    r = json.loads(json.dumps(raw))
    for b in r["bodies"]:
        b["colors"] = [0] * len(b["colors"])
    for h in r["holes"]:
        h["color"] = 0
    return Level(r)


class LessonJudge:
    """Decides one lesson level's predicate; every search has ``budget`` stored states."""

    def __init__(self, it: Item, budget: int, serial_budget: int,
                 serial_known: str | None = None,
                 first_use: dict[str, Any] | None = None) -> None:
        self.it = it
        self.lv = it.lv
        self.budget = budget
        self.serial_budget = serial_budget
        self.serial_known = serial_known
        # per mechanic kind its first loaded level, "_covered": the numbers loaded; None: the
        # first-use part is not checked
        self.first_use = first_use
        self._opt: MinRecord | None = None

    # the level's own minimum, with the certificate (when it replays) as the upper bound
    def opt(self) -> MinRecord:
        if self._opt is None:
            lv = self.lv
            sol = self.it.cert.get("solution") if isinstance(self.it.cert, dict) else None
            ok = isinstance(sol, list) and replay(lv, sol)[0]
            known = sol if isinstance(sol, list) and ok else None
            rec = exact_min(lv, self.budget, len(known) if known is not None else INF)
            if known is not None and rec["kind"] == "none":  # nothing shorter than the certificate
                rec = MinRecord(kind="min", value=len(known), states=rec["states"], solution=known)
            elif known is not None and rec["kind"] == "undecided":
                rec = MinRecord(kind="le", value=len(known), states=rec["states"], solution=known)
            self._opt = rec
        return self._opt

    def opt_text(self) -> str:
        return fmt_min(self.opt())

    def judge(self, kind: str) -> Verdict:
        verdict: Verdict = getattr(self, "j_" + kind)()
        return verdict

    # 1 -------------------------------------------------------------------------------------
    def j_head(self) -> Verdict:
        o = self.opt()
        hd = exact_min(View(self.lv, only_end(0)), self.budget)
        if o["kind"] != "min":
            v = "undecided"
        elif hd["kind"] == "min":
            v = "holds" if hd["value"] == o["value"] else "fails"
        elif hd["kind"] == "none":
            v = "fails"
        elif hd["kind"] == "le" and hd["value"] == o["value"]:
            v = "holds"
        else:
            v = "undecided"
        return v, f"heads-only min {fmt_min(hd)} vs min {fmt_min(o)}"

    # 2 -------------------------------------------------------------------------------------
    def j_tail(self) -> Verdict:
        o = self.opt()
        hd = exact_min(View(self.lv, only_end(0)), self.budget)
        v = {"none": "holds", "min": "fails", "le": "fails"}.get(hd["kind"], "undecided")
        return v, f"heads-only {fmt_min(hd)} ({hd['states']} states) vs min {fmt_min(o)}"

    # 3 -------------------------------------------------------------------------------------
    def _axes(self, bodies: Iterable[int] | None = None) -> tuple[str, MinRecord, MinRecord]:
        h = exact_min(View(self.lv, only_axis(HORIZONTAL, bodies)), self.budget)
        w = exact_min(View(self.lv, only_axis(VERTICAL, bodies)), self.budget)
        parts = [
            {"none": "holds", "min": "fails", "le": "fails"}.get(r["kind"], "undecided")
            for r in (h, w)
        ]
        return tri(parts), h, w

    def j_corner(self) -> Verdict:
        v, h, w = self._axes()
        return v, (
            f"horizontal-only {fmt_min(h)} ({h['states']} st), vertical-only {fmt_min(w)} "
            f"({w['states']} st), min {self.opt_text()}"
        )

    # 4 -------------------------------------------------------------------------------------
    def j_colours(self) -> Verdict:
        lv = self.lv
        outer = sorted({c[0] for c in lv.bcolors})
        v = "holds" if len(outer) >= 2 else "fails"
        o = self.opt()
        extra = ""
        try:
            cb = exact_min(
                colour_blind(self.it.raw),
                self.budget,
                (o["value"] or INF) if o["kind"] == "min" else INF,
            )
            if o["kind"] == "min":
                if cb["kind"] in ("min", "le"):
                    extra = f"; colour-blind min {fmt_min(cb)} < {o['value']}: colour costs steps"
                elif cb["kind"] == "none":
                    extra = f"; colour-blind min = {o['value']}: colour costs no step"
                else:
                    extra = "; colour-blind min undecided"
        except LevelError as err:
            extra = f"; colour-blind level: {err}"
        return v, f"outer colours {outer} on {lv.k} bodies; min {fmt_min(o)}{extra}"

    # 5 -------------------------------------------------------------------------------------
    def j_nearer(self) -> Verdict:
        o = self.opt()
        recs = [exact_min(View(self.lv, only_end(e)), self.budget) for e in (0, 1)]
        parts = []
        for r in recs:
            if o["kind"] != "min":
                parts.append("undecided")
            elif r["kind"] == "none":
                parts.append("holds")
            elif r["kind"] == "min":
                parts.append("holds" if value(r) >= value(o) + 2 else "fails")
            elif r["kind"] == "le" and value(r) <= value(o) + 1:
                parts.append("fails")
            else:
                parts.append("undecided")
        per = []
        for b in range(self.lv.k):
            pb = [exact_min(View(self.lv, only_end(e, {b})), self.budget) for e in (0, 1)]
            per.append(f"b{b} head-only {fmt_min(pb[0])}/tail-only {fmt_min(pb[1])}")
        return tri(parts), (
            f"heads-only {fmt_min(recs[0])}, tails-only {fmt_min(recs[1])} vs min {fmt_min(o)} "
            f"(need >= min+2 or none); per body (others free): " + ", ".join(per)
        )

    # 6, 7, 11 ------------------------------------------------------------------------------
    def serial(self) -> tuple[str, SerialSearch | None]:
        if self.serial_known in ("serial", "not serial"):
            return self.serial_known, None
        ss = SerialSearch(self.lv, self.serial_budget)
        return ss.run(), ss

    def j_make_way(self) -> Verdict:
        ans, ss = self.serial()
        v = {"not serial": "holds", "serial": "fails"}.get(ans, "undecided")
        txt = ans
        if ss is not None:
            txt += f" ({ss.spent} body configurations)"
            if ans == "serial":
                txt += f", order {ss.order}"
                sol = serial_solution(self.lv, ss.sequence, self.budget)
                if sol is not None and replay(self.lv, sol)[0]:
                    txt += f", one-at-a-time solution {len(sol)} steps"
        else:
            txt += " (from the serial check)"
        lv = self.lv
        return v, f"{txt}; min {self.opt_text()}, travel bound {lv.h(lv.start)}"

    # 8 -------------------------------------------------------------------------------------
    def j_order(self) -> Verdict:
        lv = self.lv
        k = lv.k
        if k < 2:
            return "fails", "one body: no order"
        if k > MAX_ORDER_BODIES:
            return "undecided", f"{k} bodies: more than {MAX_ORDER_BODIES}, orders not tried"
        failing, open_, mins = [], [], {}
        for perm in itertools.permutations(range(k)):
            r = exact_min(View(lv, order=perm), self.budget)
            if r["kind"] == "none":
                failing.append(list(perm))
            elif r["kind"] == "undecided":
                open_.append(list(perm))
            else:
                mins[perm] = fmt_min(r)
        total = math.factorial(k)
        v = "holds" if failing else ("undecided" if open_ else "fails")
        firsts = sorted(
            b
            for b in range(k)
            if all(p[0] != b or list(p) in failing for p in itertools.permutations(range(k)))
        )
        txt = f"orders that cannot be completed {len(failing)}/{total}"
        if failing:
            txt += f" {failing[:6]}" + (" ..." if len(failing) > 6 else "")
        if open_:
            txt += f"; undecided {len(open_)}"
        txt += f"; bodies that can never leave first: {firsts or 'none'}"
        txt += "; completable orders (min): " + ", ".join(
            f"{list(p)}:{m}" for p, m in sorted(mins.items())
        )
        return v, txt + f"; min {self.opt_text()}"

    # 9 -------------------------------------------------------------------------------------
    def j_long(self) -> Verdict:
        lv = self.lv
        longs = [b for b in range(lv.k) if lv.blen[b] >= LONG_BODY]
        if not longs:
            return "fails", f"no body of {LONG_BODY}+ cells (lengths {lv.blen})"
        parts, txt = [], []
        for b in longs:
            v, h, w = self._axes({b})
            parts.append(v)
            bent = any(
                lv.bcells[b][i + 1] - lv.bcells[b][i] != lv.bcells[b][i + 2] - lv.bcells[b][i + 1]
                for i in range(lv.blen[b] - 2)
            )
            txt.append(
                f"b{b} ({lv.blen[b]} cells, {'bent' if bent else 'straight'} at the start): "
                f"horizontal-only {fmt_min(h)}, vertical-only {fmt_min(w)}"
            )
        return tri(parts), "; ".join(txt) + f"; min {self.opt_text()}"

    # 10 ------------------------------------------------------------------------------------
    def j_breather(self) -> Verdict:
        lv = self.lv
        mech = sorted(mechanic_uses(self.it.raw))
        ans, _ss = self.serial()
        parts = [
            "fails" if mech else "holds",
            {"serial": "holds", "not serial": "fails"}.get(ans, "undecided"),
        ]
        o = self.opt()
        h0 = lv.h(lv.start)
        inter = f", interaction {value(o) - h0}" if o["kind"] == "min" else ""
        flag = " [meta breather: true]" if self.it.meta.get("breather") else ""
        return tri(parts), (
            f"mechanics {mech or 'none'}; {ans}; min {fmt_min(o)}, travel bound {h0}{inter}{flag}"
        )

    # first use of a mechanic (12, 18, 24, 30, 36) -------------------------------------------
    def _first(self, kind: str) -> Verdict:
        n = self.it.number
        if self.first_use is None:
            return "holds", "first use not checked"
        first, covered = self.first_use.get(kind), self.first_use.get("_covered", set())
        where = f"first use at level {first}" if first is not None else "never used"
        if first is not None and first < n:
            return "fails", where + " (before the lesson)"
        if all(x in covered for x in range(1, n)):
            return "holds", "first use here" if first == n else where
        return "undecided", where + " (levels before it not all loaded)"

    # 12 ------------------------------------------------------------------------------------
    def j_coats(self) -> Verdict:
        lv = self.lv
        shown = [
            b
            for b in range(lv.k)
            if any(lv.bcolors[b][i] != lv.bcolors[b][i + 1] for i in range(lv.nc[b] - 1))
        ]
        coated = {b: list(lv.bcolors[b]) for b in range(lv.k) if lv.nc[b] > 1}
        fv, ftxt = self._first("coats")
        v = "holds" if shown else "fails"
        return tri([v, fv]), (
            f"coat shown: {v} (coated bodies {coated or 'none'}; coat differs from the layer "
            f"under it on {[f'b{b}' for b in shown] or 'no body'}); "
            f"taught first: {fv} ({ftxt}); min {self.opt_text()}"
        )

    # 18, 24, 30, 36 ------------------------------------------------------------------------
    def _cost(self, kind: str) -> Verdict:
        rl, count = relaxed_level(self.it.raw, kind)
        fv, ftxt = self._first(kind)
        first = f"taught first: {fv} ({ftxt})"
        if rl is None:
            return (
                "fails",
                f"costs steps: fails (no {kind.replace('_', ' ')} in the level); {first}",
            )
        o = self.opt()
        if o["kind"] != "min":
            v = "undecided" if fv != "fails" else "fails"
            return v, (
                f"costs steps: undecided (min {fmt_min(o)} not proven, {o['states']} states); "
                + first
            )
        # the relaxed rules accept every full-rules solution: relaxed min <= min
        r = exact_min(rl, self.budget, value(o))
        if r["kind"] == "min":
            v = "holds"
            txt = f"min without it {r['value']} < {o['value']} with it (both proven)"
        elif r["kind"] == "none":
            v = "fails"
            txt = f"min without it {o['value']} = {o['value']} with it (proven: costs no step)"
        elif r["kind"] == "le":
            v = "undecided"
            txt = (
                f"min without it <= {r['value']} < {o['value']} with it (relaxed minimum unproven)"
            )
        else:
            v = "undecided"
            txt = f"min without it: budget spent ({r['states']} states); with it {o['value']}"
        what = {"body_frozen": "frozen bodies", "hole_frozen": "frozen holes"}.get(
            kind, f"{kind} locks"
        )
        return tri([v, fv]), f"costs steps: {v} ({what} removed: {count}; {txt}); {first}"

    def j_body_frozen(self) -> Verdict:
        return self._cost("body_frozen")

    def j_hole_frozen(self) -> Verdict:
        return self._cost("hole_frozen")

    def j_silver(self) -> Verdict:
        return self._cost("silver")

    def j_gold(self) -> Verdict:
        return self._cost("gold")


