#!/usr/bin/env python3
"""Independent audit of the snakes levels and their certificates.

    .venv/bin/python -m bench.audit.puzzle --levels 1-25
    .venv/bin/python -m bench.audit.puzzle --sample 20 --seed 7 --checks replay,score,bands
    .venv/bin/python -m bench.audit.puzzle --batch output/batch.json --checks replay,serial
    .venv/bin/python -m bench.audit.puzzle --levels 1-36 --checks lessons

Written from the written rules only (docs: shared spec ``snakes.md`` sections 1-6 and the
seed's section 3 score formula); it imports nothing from ``gridforge`` and reads only the
level/certificate JSON.  Standard library only.

Checks (``--checks``, default all):

- ``replay``   the certificate's solution replays legally to completion under this file's
               own rules; ``steps`` equals its length.
- ``shorter``  weighted A* (f = g + w*h; w=1.5 with 40,000 stored states, then w=3 with
               60,000) looking for a solution shorter than the certificate.  h is this file's
               own admissible and consistent bound: per current outer colour, a min-cost
               assignment of bodies to distinct unused holes of that colour, cost = wall-aware
               BFS distance from the nearer end to the hole, plus all remaining inner layers.
               States with g + h >= best known length are pruned, so an emptied open list
               proves that no shorter solution exists.
- ``serial``   "solved one body at a time", decided exactly: a depth-first search over
               (bodies gone, holes used); each body, moved alone from where it stands (the
               others untouched, freezes/locks as the rules say), is searched best-first
               over its own configurations and hands out the hole sets it can end with.
               serial / not serial / undecided (``--serial-budget``, default 1,000,000 body
               configurations).  A serial answer is rebuilt into a full solution and
               replayed under the full rules.  From level 11 on, a serial level whose meta
               does not say ``breather: true`` is listed as a failure.
- ``optimal``  certificates claiming ``optimal: true``: exact A* (w=1, default 300,000
               states) for a shorter solution: confirmed / refuted / out of budget.
- ``effort``   an independent difficulty signal: the states this file's A* stores (its own
               bound, no certificate), weighted w = 3 to the first solution (cap 100,000)
               and exact w = 1 to a proven minimum (cap 50,000); medians per band of
               ``--effort-band`` levels, with the share that hit the cap; and what the
               capped exact search leaves unproven ("left": the shortest replaying solution
               known, less the bound it reached), which does not saturate at the cap.
- ``witness``  mechanic witnesses (``certificate["witnesses"]``, ``["mechanics"]``, ... also
               one level down; a list of {"mechanic": "bodies[2].frozen" | "holes[1].frozen"
               | "bodies[0].lock", "solution": [...]} or a dict keyed by mechanic): with that
               one mechanic removed (freeze count, or the lock and its keys) the witness
               replays to completion in at most the certificate's steps, and the full rules
               refuse it.  Lists frozen bodies/holes and locks that have no witness.
- ``lessons``  issue 18's "lessons that force their idea", on levels 1-12, 18, 24, 30 and 36
               (the lesson of a level is fixed by its number, see LESSONS; a level's meta text
               is not read).  One line per lesson level: verdict holds / fails / undecided and
               the figures behind it.  "min" is the level's minimum by exact A* (w = 1, this
               file's bound, the certificate as upper bound when it replays); every search
               below is exact A* through a move filter (``View``) with ``--lesson-budget``
               stored states (default 200,000), so "none" means the filtered state space was
               exhausted without a solution, and a budget that runs out makes the verdict
               undecided, never holds or fails.  "X-only" restricts every step of every body
               unless a body is named.  Predicates (the strongest plain reading of the issue):
                1 grab the head: the heads-only minimum exists and equals min.
                2 grab the tail: no solution at all moves heads only (heads-only space
                  exhausted).
                3 turn a corner: no solution with horizontal steps only (L, R, the exit step
                  included) and none with vertical steps only (U, D).
                4 two colours: the bodies show at least two outer colours.  Figure only: the
                  colour-blind minimum (every colour set to one), i.e. whether colour costs.
                5 the nearer end: heads-only and tails-only each either have no solution or a
                  proven minimum >= min + 2 (min itself proven).  Figures also give, per body,
                  the minimum with only that body held to one end.
                6 back out, 7 make way, 11 make way twice: not solved one body at a time, as
                  decided by ``serial`` (its result is reused when that check ran).
                8 order matters: some order of the bodies' departures cannot be completed:
                  an order p such that no solution (any interleaving of steps, every body
                  free to move at any time) has the bodies take their last layers out in the
                  order p.  Every order is searched (at most 5 bodies: 120 orders); the
                  figures say which bodies can never leave first.
                9 long bodies that bend: some body has 5+ cells, and every such body must
                  turn: with that body held to horizontal steps (others free) there is no
                  solution, nor with it held to vertical steps.
               10 a breather: no mechanic (no coat, frozen body or hole, lock or key) and
                  solved one body at a time.  Figures: interaction (min - travel bound).
               12 coats: some body has a coat whose colour differs from the layer under it.
               18 frozen bodies, 24 frozen holes, 30 silver lock and key, 36 gold lock: the
                  level has the mechanic, and the level with every instance of it removed
                  (all body freezes / all hole freezes / every silver (gold) lock with its
                  keys) has a proven minimum strictly below the level's proven minimum.  The
                  relaxed rules accept every solution of the level, so the relaxed search
                  only looks below min; "<= X < min" (a shorter relaxed solution without
                  a proof of its minimum) is undecided.
               12-36 also: the lesson teaches: no loaded level before it uses the mechanic
                  (coats: a body with 2+ layers; gold: a gold lock); undecided when levels
                  before it are not all loaded, not checked by ``LessonJudge`` without the
                  loaded line.
- ``score``    the seven-term design score recomputed from the seed formula on the
               certificate's solution, term by term, against ``score.contributions`` and
               ``score.total`` (mismatch: total off by more than 0.05).  Readings where the
               written formula leaves room (``--score-opt`` switches the alternative on):
               the freeze-threshold sum counts bodies and holes; a shuffle run ends at an
               exit (``shuffle=maximal``: one run through a coated body's exits); two-cell
               slices are row/column cross-sections of exactly two floor cells between walls
               (``slices=pairs``: any adjacent pair that cuts); a body straddling a cut counts
               in the straddling term and not in the cross demand (``side=cells|head``); D's
               bounds include the inner layers; F = 0 when there is no free cell.
- ``bands``    per 100 levels: proven share, mean gap (steps - lower_bound), interaction
               steps (steps - own travel bound h at the start), mechanic shares (coats,
               frozen bodies, frozen holes, locks, gold locks, all four, none), serial share
               (when ``serial`` ran), share of levels where each contribution is at its full
               weight.

Every figure is this script's own; a level that does not load is reported, not raised.
``--budget-scale F`` multiplies every state budget.  ``--selftest`` cross-checks the fast
move generator against the plain rule function, the assignment against brute force and
A* against BFS on the selected levels, and on lesson levels with at most
100,000 states every restricted search of ``lessons`` (heads-, tails-, axis-only, each order,
each mechanic removed) against breadth-first search through the plain rule function, and
``serial`` against a brute-force one-body-at-a-time search.  Costs: A* stores ~2 KB per state
(300,000 states ~0.6 GB); ``shorter`` takes a few seconds per large level; ``lessons`` about a
second on the shipped lesson levels.  Exit code 0.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import re
import statistics
import sys
import time
from typing import Any

from bench.audit.lessons import LESSONS, LessonJudge, mechanic_uses
from bench.audit.puzzle_rules import Item, Level, Relax, SerialSearch, replay
from bench.audit.score import TERMS, WEIGHTS, score_level
from bench.audit.selftest import selftest
from bench.audit.shared import DEFAULT_DATA, INF, LevelError, astar, serial_solution

ALL_CHECKS = [
    "replay", "shorter", "serial", "optimal", "witness", "lessons", "score", "effort", "bands"
]


def load_items(args: argparse.Namespace) -> tuple[list[Item], list[str]]:
    """The levels of the batch files (``--batch``: that one file), by level number."""
    files: list[str] = (
        [args.batch] if args.batch else sorted(glob.glob(os.path.join(args.data, "*.json")))
    )
    items: list[Item] = []
    problems: list[str] = []
    for f in files:
        try:
            with open(f, encoding="utf-8") as fh:
                d = json.load(fh)
        except Exception as err:
            problems.append(f"{f}: {err}")
            continue
        if (
            not isinstance(d, dict)
            or not isinstance(d.get("levels"), list)
            or (not args.batch and not isinstance(d.get("certificates"), list))
        ):
            if args.batch:
                problems.append(f"{f}: not a batch (no levels list)")
            continue
        levels = d["levels"]
        certs = d.get("certificates") or []
        if not isinstance(certs, list):
            certs = []
        if len(certs) != len(levels):
            problems.append(
                f"{os.path.basename(f)}: {len(levels)} levels, {len(certs)} certificates"
            )
        for i, raw in enumerate(levels):
            meta = raw.get("meta", {}) if isinstance(raw, dict) else {}
            num = meta.get("level") if isinstance(meta, dict) else None
            if not isinstance(num, int) or isinstance(num, bool):
                num = len(items) + 1
            cert = certs[i] if i < len(certs) else None
            items.append(Item(num, os.path.basename(f), raw, cert))
    if len({it.number for it in items}) != len(items):
        problems.append("level numbers (meta.level) repeat: levels numbered by position instead")
        for i, it in enumerate(items):
            it.number = i + 1
    items.sort(key=lambda it: it.number)
    return items, problems


def select(items: list[Item], args: argparse.Namespace) -> list[Item]:
    """The items ``--levels`` and ``--sample`` select."""
    if args.levels:
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*", args.levels)
        if not m:
            print(f"--levels: expected A-B, got {args.levels!r}")
            return []
        a = int(m.group(1))
        b = int(m.group(2) or a)
        items = [it for it in items if a <= it.number <= b]
    if args.sample:
        rng = random.Random(args.seed)
        k = min(args.sample, len(items))
        items = sorted(rng.sample(items, k), key=lambda it: it.number)
    return items


# --------------------------------------------------------------------------------------------
# checks
# --------------------------------------------------------------------------------------------


WITNESS_KEYS = ("witnesses", "mechanic_witnesses", "witness", "mechanics")


def find_witnesses(cert: Any, depth: int = 0, where: str = "") -> tuple[Any, str]:
    """The first list/dict under a witness-like key (the score section is skipped: its
    'mechanics' is a number)."""
    if not isinstance(cert, dict) or depth > 3:
        return None, ""
    for key in WITNESS_KEYS:
        v = cert.get(key)
        if isinstance(v, (list, dict)):
            return v, f"{where}[{key!r}]"
    for key, v in cert.items():
        if key in ("score", "solution", "request", "budgets") or not isinstance(v, dict):
            continue
        got, w = find_witnesses(v, depth + 1, f"{where}[{key!r}]")
        if got is not None:
            return got, w
    return None, ""


def _dict(x: Any) -> dict[str, Any]:
    return x if isinstance(x, dict) else {}


def pct(a: int, b: int) -> str:
    return f"{a}/{b} ({100.0 * a / b:.1f}%)" if b else f"{a}/0"


def _mechanics_named(lv: Level) -> list[str]:
    """The level's frozen bodies, locks and frozen holes, as witnesses name them."""
    mechs = []
    for b in range(lv.k):
        if lv.bfrozen[b]:
            mechs.append(f"bodies[{b}].frozen")
        if lv.block[b] is not None:
            mechs.append(f"bodies[{b}].lock")
    for j in range(lv.m):
        if lv.hfrozen[j]:
            mechs.append(f"holes[{j}].frozen")
    return mechs


def _witness_list(raw: Any) -> list[dict[str, Any]]:
    """The witnesses of a witness field: a list of objects, or a dict keyed by mechanic
    (of objects or of bare solutions)."""
    ws: list[dict[str, Any]] = []
    if isinstance(raw, dict):
        for k_, v in raw.items():
            if isinstance(v, dict):
                v = dict(v)
                v.setdefault("mechanic", k_)
                ws.append(v)
            elif isinstance(v, list):
                ws.append({"mechanic": k_, "solution": v})
    elif isinstance(raw, list):
        ws = [w for w in raw if isinstance(w, dict)]
    return ws


def _relaxed_for(it: Item, name: Any, kind: str, idx: int, what: str,
                 covered: set[str]) -> Level:
    """The level with the witness's one mechanic removed; the mechanics it covers are added
    to ``covered``."""
    lv = it.lv
    relax: Relax = {}
    if kind == "holes" and what == "frozen":
        relax[("hole_frozen", idx)] = True
        covered.add(f"holes[{idx}].frozen")
    elif kind == "bodies" and what == "frozen":
        relax[("body_frozen", idx)] = True
        covered.add(f"bodies[{idx}].frozen")
    else:
        b = it.raw["bodies"][idx]
        lid = (b.get("lock") or {}).get("id") if what == "lock" else b.get("key")
        if lid is None:
            raise LevelError(f"{name}: no such lock")
        relax["locks"] = [lid]
        for bb in range(lv.k):
            lk = lv.block[bb]
            if lk is not None and lk[0] == lid:
                covered.add(f"bodies[{bb}].lock")
    return Level(it.raw, relax=relax)


def _judge_witness(it: Item, w: dict[str, Any], covered: set[str]) -> tuple[bool, str]:
    """(whether the witness holds, its line): with its one mechanic removed it replays to
    completion in at most the certificate's steps, and the full rules refuse it."""
    name = w.get("mechanic") or w.get("name") or w.get("relaxed")
    sol = w.get("solution", w.get("moves"))
    mm = re.fullmatch(r"(bodies|holes)\[(\d+)\]\.(frozen|lock|key)", str(name))
    if not mm or not isinstance(sol, list):
        return False, f"unreadable witness {json.dumps(w)[:80]}"
    try:
        rl = _relaxed_for(it, name, mm.group(1), int(mm.group(2)), mm.group(3), covered)
    except (LevelError, IndexError, AttributeError, TypeError) as err:
        return False, f"{name}: cannot relax ({err})"
    steps = len(it.solution)
    ok_rel, msg_rel, _, _ = replay(rl, sol)
    ok_full, msg_full, _, _ = replay(it.lv, sol)
    why = []
    if not ok_rel:
        why.append(f"relaxed replay fails: {msg_rel}")
    if len(sol) > steps:
        why.append(f"{len(sol)} steps > certificate {steps}")
    if ok_full:
        why.append("the full rules accept it (mechanic does not bind)")
    if ok_rel and len(sol) <= steps and not ok_full:
        return True, f"{name} ok ({len(sol)} steps; full rules: {msg_full})"
    return False, f"{name} BAD: " + "; ".join(why)


class Audit:
    """Every check on every selected item (``check_<name>``), then each check's summary
    (``summary_<name>``); ``res[check][level]`` holds what the summaries read."""

    def __init__(self, args: argparse.Namespace, items: list[Item],
                 all_items: list[Item] | None = None) -> None:
        self.args = args
        self.items = items
        self.all_items = items if all_items is None else all_items
        self.checks: list[str] = args.checks
        self.scale: float = args.budget_scale
        self.res: dict[str, dict[int, dict[str, Any]]] = {c: {} for c in ALL_CHECKS}
        self.extra: dict[str, Any] = {}
        self.malformed: list[int] = []

    def out(self, check: str, it: Item, text: str) -> None:
        print(f"{it.name} {check:8s} {text}", flush=True)

    def run(self) -> None:
        t0 = time.time()
        for it in self.items:
            if it.error:
                self.malformed.append(it.number)
                print(f"{it.name} MALFORMED {it.error}", flush=True)
                continue
            for c in self.checks:
                if c == "bands":
                    continue
                t = time.time()
                try:
                    getattr(self, "check_" + c)(it)
                except Exception as err:
                    self.res[c][it.number] = {"status": "error"}
                    self.out(c, it, f"ERROR {type(err).__name__}: {err}")
                self.extra.setdefault("time", {}).setdefault(c, 0.0)
                self.extra["time"][c] += time.time() - t
        print()
        print(f"== summary ({len(self.items)} levels, {time.time() - t0:.1f} s) ==")
        if self.malformed:
            print(
                f"malformed: {len(self.malformed)} levels {self.malformed[:40]} "
                "(left out of every check)"
            )
        print(
            "time per check: "
            + ", ".join(f"{c} {v:.1f} s" for c, v in self.extra.get("time", {}).items())
        )
        for c in self.checks:
            try:
                getattr(self, "summary_" + c)()
            except Exception as err:  # a summary over odd data is reported, not raised
                print(f"{c:9s}: summary failed: {type(err).__name__}: {err}")

    # ---- replay ------------------------------------------------------------------------------
    def check_replay(self, it: Item) -> None:
        sol = it.cert["solution"]
        ok, msg, _states, _exits = replay(it.lv, sol)
        steps = it.cert.get("steps")
        problems = []
        if not ok:
            problems.append(msg)
        if steps != len(sol):
            problems.append(f"steps field {steps} != solution length {len(sol)}")
        st = "ok" if not problems else "FAIL"
        self.res["replay"][it.number] = {"status": st}
        self.out(
            "replay",
            it,
            f"{st} {len(sol)} steps" + ("" if not problems else ": " + "; ".join(problems)),
        )

    def summary_replay(self) -> None:
        r = self.res["replay"]
        bad = sorted(n for n, v in r.items() if v["status"] != "ok")
        print(
            f"replay   : ok {pct(len(r) - len(bad), len(r))}; "
            f"failing: {bad[:40] if bad else 'none'}"
        )

    # ---- shorter -----------------------------------------------------------------------------
    def check_shorter(self, it: Item) -> None:
        lv = it.lv
        steps = len(it.cert["solution"])
        ok, _, _, _ = replay(lv, it.cert["solution"])
        if not ok:
            self.res["shorter"][it.number] = {"status": "skip"}
            self.out("shorter", it, "skip: the certificate's solution does not replay")
            return
        bound = steps
        best = None
        notes = []
        exhausted = False
        for w, budget in ((1.5, 40000), (3.0, 60000)):
            r = astar(lv, w, int(budget * self.scale), bound if best is None else len(best))
            notes.append(f"w={w:g}:{r['stored']}st{'/exh' if r['exhausted'] else ''}")
            if r["best"] is not None:
                best = r["best"]
            if r["exhausted"]:
                exhausted = True
                break
            if best is not None:
                break
        rec = {"status": "none", "steps": steps}
        if best is not None:
            ok2, msg, _, _ = replay(lv, best)
            if not ok2:
                rec = {"status": "error"}
                self.out("shorter", it, f"ERROR own solution does not replay: {msg}")
                self.res["shorter"][it.number] = rec
                return
            d = steps - len(best)
            rec = {
                "status": "shorter",
                "steps": steps,
                "found": len(best),
                "by": d,
                "pct": 100.0 * d / steps,
                "proven_min": exhausted,
            }
            txt = (
                f"SHORTER {len(best)} < {steps} (-{d}, {rec['pct']:.1f}%)"
                + (" [proven minimum]" if exhausted else "")
                + " "
                + " ".join(notes)
            )
            if self.args.show_solutions:
                txt += " " + json.dumps(best)
        else:
            rec["proven_min"] = exhausted
            txt = (
                ("none (certificate minimal: search exhausted)" if exhausted else "none found")
                + " "
                + " ".join(notes)
            )
        self.res["shorter"][it.number] = rec
        self.out("shorter", it, txt)

    def summary_shorter(self) -> None:
        r = self.res["shorter"]
        sh = [(n, v) for n, v in r.items() if v["status"] == "shorter"]
        judged = [v for v in r.values() if v["status"] in ("shorter", "none")]
        proven = sum(1 for v in judged if v.get("proven_min") and v["status"] == "none")
        line = f"shorter  : shorter solution found {pct(len(sh), len(judged))}"
        if sh:
            n, v = max(sh, key=lambda x: x[1]["pct"])
            line += (
                f"; largest -{v['by']} steps ({v['pct']:.1f}%) on L{n:04d}; "
                f"mean {sum(x[1]['pct'] for x in sh) / len(sh):.1f}%"
            )
            line += f"; levels: {sorted(n for n, _ in sh)[:40]}"
        line += f"; certificate proven minimal by exhaustion {pct(proven, len(judged))}"
        print(line)

    # ---- serial ------------------------------------------------------------------------------
    def check_serial(self, it: Item) -> None:
        ss = SerialSearch(it.lv, int(self.args.serial_budget * self.scale))
        ans = ss.run()
        breather = bool(it.meta.get("breather"))
        rec = {"status": ans, "breather": breather}
        self.res["serial"][it.number] = rec
        txt = ans
        if ans == "serial":
            txt += f" order {ss.order}"
            sol = serial_solution(it.lv, ss.sequence, int(200000 * self.scale))
            if sol is None:
                txt += " (one-at-a-time solution not rebuilt: budget)"
            else:
                ok, msg, _, _ = replay(it.lv, sol)
                rec["serial_steps"] = len(sol)
                cert_steps = len(it.cert["solution"])
                if not ok:
                    txt += f" (ERROR: rebuilt one-at-a-time solution fails: {msg})"
                else:
                    txt += f" (one-at-a-time solution replays: {len(sol)} steps"
                    if len(sol) < cert_steps:
                        rec["beats_cert"] = cert_steps - len(sol)
                        txt += f", {cert_steps - len(sol)} fewer than the certificate"
                    txt += ")"
        txt += f" ({ss.spent} states)"
        if breather:
            txt += " [breather]"
        if ans == "serial" and it.number >= 11 and not breather:
            txt += "  <-- FAIL: serial, not a breather"
        self.out("serial", it, txt)

    def summary_serial(self) -> None:
        r = self.res["serial"]
        n = len(r)
        cnt: dict[str, int] = {}
        for v in r.values():
            cnt[v["status"]] = cnt.get(v["status"], 0) + 1
        parts = ", ".join(f"{k} {pct(c, n)}" for k, c in sorted(cnt.items()))
        fails = sorted(
            k for k, v in r.items() if k >= 11 and v["status"] == "serial" and not v["breather"]
        )
        from11 = sum(1 for k in r if k >= 11)
        br = sum(1 for k, v in r.items() if k >= 11 and v["breather"])
        print(f"serial   : {parts}")
        beat = sorted(k for k, v in r.items() if v.get("beats_cert"))
        if beat:
            print(
                f"           one-at-a-time solution shorter than the certificate on {len(beat)} "
                f"levels: {beat[:40]}"
            )
        print(
            f"           from level 11: serial and not a breather (failures) "
            f"{pct(len(fails), from11)}; "
            f"breathers {br}; list: {fails if fails else 'none'}"
        )

    # ---- optimal -----------------------------------------------------------------------------
    def check_optimal(self, it: Item) -> None:
        c = it.cert
        if c.get("optimal") is not True:
            self.res["optimal"][it.number] = {"status": "not claimed"}
            self.out("optimal", it, "not claimed (optimal: {!r})".format(c.get("optimal")))
            return
        lv = it.lv
        steps = len(c["solution"])
        ok, _, _, _ = replay(lv, c["solution"])
        if not ok:
            self.res["optimal"][it.number] = {"status": "refuted"}
            self.out("optimal", it, "REFUTED: the claimed solution does not replay")
            return
        sh = self.res["shorter"].get(it.number)
        if sh and sh.get("status") == "shorter":
            self.res["optimal"][it.number] = {"status": "refuted"}
            self.out("optimal", it, f"REFUTED: {sh['found']} < {steps} (found by 'shorter')")
            return
        if sh and sh.get("status") == "none" and sh.get("proven_min"):
            self.res["optimal"][it.number] = {"status": "confirmed"}
            self.out("optimal", it, "confirmed (exhausted in 'shorter')")
            return
        r = astar(lv, 1.0, int(self.args.optimal_budget * self.scale), steps)
        if r["best"] is not None:
            ok2, msg, _, _ = replay(lv, r["best"])
            st = "refuted" if ok2 else "error"
            txt = f"REFUTED: {len(r['best'])} < {steps}" if ok2 else f"ERROR own solution: {msg}"
        elif r["exhausted"]:
            st, txt = "confirmed", f"confirmed ({r['stored']} states, h0={r['h0']})"
        else:
            st, txt = "out of budget", f"out of budget ({r['stored']} states, h0={r['h0']})"
        self.res["optimal"][it.number] = {"status": st}
        self.out("optimal", it, txt)

    def summary_optimal(self) -> None:
        r = self.res["optimal"]
        claimed = {k: v for k, v in r.items() if v["status"] not in ("not claimed", "malformed")}
        cnt: dict[str, int] = {}
        for v in claimed.values():
            cnt[v["status"]] = cnt.get(v["status"], 0) + 1
        parts = ", ".join(f"{k} {pct(c, len(claimed))}" for k, c in sorted(cnt.items()))
        ref = sorted(k for k, v in claimed.items() if v["status"] == "refuted")
        print(
            f"optimal  : claimed {pct(len(claimed), len(r))}; {parts or '-'}; "
            f"refuted: {ref or 'none'}"
        )

    # ---- witness -----------------------------------------------------------------------------
    def check_witness(self, it: Item) -> None:
        c = it.cert
        raw, where = find_witnesses(c)
        lv = it.lv
        mechs = _mechanics_named(lv)
        ws = _witness_list(raw)
        rec: dict[str, Any] = {
            "mechanics": len(mechs),
            "witnessed": 0,
            "bad": 0,
            "missing": [],
            "has_field": raw is not None,
        }
        lines = []
        covered: set[str] = set()
        for w in ws:
            ok, line = _judge_witness(it, w, covered)
            rec["witnessed" if ok else "bad"] += 1
            lines.append(line)
        rec["missing"] = [m_ for m_ in mechs if m_ not in covered]
        self.res["witness"][it.number] = rec
        head = f"mechanics {len(mechs)}, witnesses {len(ws)}"
        if raw is None:
            head += " (no witness field; certificate keys: " + ",".join(sorted(c)) + ")"
        else:
            head += f" (from certificate{where})"
        if rec["missing"]:
            head += f"; without witness: {rec['missing']}"
        self.out("witness", it, head + ("" if not lines else " | " + " | ".join(lines)))

    def summary_witness(self) -> None:
        r = self.res["witness"]
        vals = [v for v in r.values() if "mechanics" in v]
        with_m = [v for v in vals if v["mechanics"]]
        miss = sorted(k for k, v in r.items() if v.get("missing"))
        bad = sorted(k for k, v in r.items() if v.get("bad"))
        good = sum(v["witnessed"] for v in vals)
        field = sum(1 for v in vals if v["has_field"])
        print(
            f"witness  : certificates with a witness field {pct(field, len(vals))}; "
            f"levels with mechanics {pct(len(with_m), len(vals))}; witnesses ok {good}; "
            f"bad witnesses on {len(bad)} levels {bad[:30]}"
        )
        print(
            f"           levels with a frozen body/hole or lock lacking a witness "
            f"{pct(len(miss), len(with_m))}: "
            f"{miss[:40]}"
        )

    # ---- lessons -----------------------------------------------------------------------------
    def first_use(self) -> dict[str, Any]:
        """Per mechanic kind, the first loaded level that uses it; "_covered": numbers loaded."""
        fu = self.extra.get("first_use")
        if fu is None:
            fu = {"_covered": set()}
            for x in self.all_items:
                fu["_covered"].add(x.number)
                for kind in mechanic_uses(x.raw):
                    if kind not in fu or x.number < fu[kind]:
                        fu[kind] = x.number
            self.extra["first_use"] = fu
        return fu

    def check_lessons(self, it: Item) -> None:
        if it.number not in LESSONS:
            return
        lesson, kind = LESSONS[it.number]
        known = self.res["serial"].get(it.number, {}).get("status")
        judge = LessonJudge(
            it,
            int(self.args.lesson_budget * self.scale),
            int(self.args.serial_budget * self.scale),
            serial_known=known,
            first_use=self.first_use(),
        )
        verdict, figures = judge.judge(kind)
        self.res["lessons"][it.number] = {"status": verdict, "lesson": lesson, "figures": figures}
        note = "" if it.meta.get("lesson") else " [meta: no lesson]"
        self.out("lessons", it, f"{it.number:>2d} {lesson!r}: {verdict.upper()} | {figures}{note}")

    def summary_lessons(self) -> None:
        r = self.res["lessons"]
        cnt: dict[str, int] = {}
        for v in r.values():
            cnt[v["status"]] = cnt.get(v["status"], 0) + 1
        parts = ", ".join(f"{k} {c}" for k, c in sorted(cnt.items()))
        print(f"lessons  : {len(r)} lesson levels judged: {parts or '-'}")
        for n in sorted(r):
            print(f"           {n:>3d} {r[n]['lesson']:22s} {r[n]['status']}")
        sel = {it.number for it in self.items}
        absent = [n for n in LESSONS if n not in sel]
        if absent and len(absent) < len(LESSONS):
            print(f"           lesson levels not selected: {absent}")
        fu = self.first_use()
        print(
            "           first use in the loaded levels: "
            + ", ".join(
                f"{k} {fu.get(k, '-')}"
                for k in ("coats", "body_frozen", "hole_frozen", "silver", "gold")
            )
        )

    # ---- score -------------------------------------------------------------------------------
    def check_score(self, it: Item) -> None:
        lv = it.lv
        sol = it.cert["solution"]
        ok, msg, _states, exits = replay(lv, sol)
        if not ok:
            self.res["score"][it.number] = {"status": "skip"}
            self.out("score", it, f"skip: solution does not replay ({msg})")
            return
        mine = score_level(lv, sol, exits, self.score_opts())
        cs = _dict(it.cert.get("score"))
        if "score_keys" not in self.extra:
            self.extra["score_keys"] = sorted(cs)
            contrib = _dict(cs.get("contributions"))
            print(
                f"         (certificate score keys: {sorted(cs)}; "
                f"contributions: {sorted(contrib)}; "
                f"diagnostics: {sorted(cs.get('diagnostics') or {})})"
            )
        theirs = _dict(cs.get("contributions"))
        total = cs.get("total")
        diffs = []
        for t in TERMS:
            if (
                t in theirs
                and isinstance(theirs[t], (int, float))
                and abs(theirs[t] - mine["contributions"][t]) > 0.01
            ):
                diffs.append(f"{t} {theirs[t]:.3f}/{mine['contributions'][t]:.3f}")
        dcert = _dict(cs.get("diagnostics"))
        ddiff = []
        for key in (
            "potential_exits",
            "shuffle_steps",
            "frozen_threshold_sum",
            "extra_layers",
            "key_bodies",
            "lock_bodies",
        ):
            if key in dcert and dcert[key] != mine["diagnostics"][key]:
                ddiff.append(f"{key} {dcert[key]}/{mine['diagnostics'][key]}")
        spc = _dict(dcert.get("space"))
        for key in ("B", "D", "N", "F", "wall_bound", "manhattan_bound", "max_narrow_load"):
            if (
                key in spc
                and isinstance(spc[key], (int, float))
                and abs(spc[key] - mine["diagnostics"]["space"][key]) > 0.002
            ):
                ddiff.append(f"{key} {spc[key]:.4g}/{mine['diagnostics']['space'][key]:.4g}")
        if not isinstance(total, (int, float)):
            self.res["score"][it.number] = {
                "status": "no score",
                "mine_contrib": mine["contributions"],
            }
            self.out(
                "score",
                it,
                f"certificate has no score total; own {mine['total']} ("
                + ", ".join(f"{t}={mine['contributions'][t]:.2f}" for t in TERMS)
                + ")",
            )
            return
        mism = abs(total - mine["total"]) > 0.05
        rec = {
            "status": "mismatch" if mism else "ok",
            "mine": mine["total"],
            "theirs": total,
            "term_diffs": [d.split()[0] for d in diffs],
            "mine_contrib": mine["contributions"],
        }
        self.res["score"][it.number] = rec
        txt = f"{'MISMATCH' if mism else 'ok'} certificate {total} / own {mine['total']}"
        if diffs:
            txt += " | terms cert/own: " + ", ".join(diffs)
        if ddiff:
            txt += " | diag cert/own: " + ", ".join(ddiff)
        if self.args.verbose:
            txt += " | " + ", ".join(f"{t}={mine['contributions'][t]:.2f}" for t in TERMS)
        self.out("score", it, txt)

    def score_opts(self) -> dict[str, Any]:
        o = {}
        for kv in self.args.score_opt or []:
            k_, _, v = kv.partition("=")
            o[k_] = {"true": True, "false": False}.get(v, v)
        return o

    def summary_score(self) -> None:
        r = self.res["score"]
        judged = [v for v in r.values() if v["status"] in ("ok", "mismatch")]
        mism = sorted(k for k, v in r.items() if v["status"] == "mismatch")
        other: dict[str, int] = {}
        for v in r.values():
            if v["status"] not in ("ok", "mismatch"):
                other[v["status"]] = other.get(v["status"], 0) + 1
        print(
            f"score    : total matches (|diff| <= 0.05) "
            f"{pct(len(judged) - len(mism), len(judged))}; "
            f"mismatches: {mism[:40] if mism else 'none'}"
            + "".join(f"; {k}: {c}" for k, c in sorted(other.items()))
        )
        print(
            "           (readings: frozen sum = bodies + holes; shuffle runs end at an exit; "
            "slices = two-cell row/column cross-sections between walls; straddling bodies "
            "left out of cross demand; override with --score-opt)"
        )
        if judged:
            worst = max(
                ((k, v) for k, v in r.items() if v["status"] in ("ok", "mismatch")),
                key=lambda kv: abs((kv[1]["theirs"] or 0) - kv[1]["mine"]),
            )
            print(
                f"           largest total difference L{worst[0]:04d}: "
                f"certificate {worst[1]['theirs']} "
                f"own {worst[1]['mine']}"
            )
        for t in TERMS:
            n = sum(1 for v in judged if t in v["term_diffs"])
            print(f"           term {t:10s}: differs (>0.01) on {pct(n, len(judged))}")

    # ---- bands -------------------------------------------------------------------------------
    def summary_bands(self) -> None:
        rows: dict[int, list[Item]] = {}
        for it in self.items:
            if it.error:
                continue
            band = (it.number - 1) // 100
            rows.setdefault(band, []).append(it)
        hdr = (
            "band",
            "lv",
            "prov%",
            "gap",
            "inter",
            "coat%",
            "frzB%",
            "frzH%",
            "lock%",
            "gold%",
            "all4%",
            "free%",
            "ser%",
            *("max" + t[:4] + "%" for t in TERMS),
        )
        print("bands    :")
        print("  " + " ".join(f"{h:>9s}" for h in hdr))
        for band in sorted(rows):
            its = rows[band]
            n = len(its)
            prov = inter = 0
            gap: float = 0
            gapn = 0
            mech = {"coat": 0, "frzB": 0, "frzH": 0, "lock": 0, "gold": 0, "all4": 0, "free": 0}
            ser_n = ser_y = 0
            at_max = {t: 0 for t in TERMS}
            at_max_n = 0
            for it in its:
                lv, c = it.lv, it.cert
                if c.get("optimal") is True:
                    prov += 1
                steps = len(c["solution"])
                lb = c.get("lower_bound")
                if isinstance(lb, (int, float)):
                    gap += steps - lb
                    gapn += 1
                inter += steps - lv.h(lv.start)
                coat = any(x > 1 for x in lv.nc)
                fb = any(lv.bfrozen)
                fh = any(lv.hfrozen)
                lk = any(x is not None for x in lv.block)
                gd = any(x is not None and x[1] == "gold" for x in lv.block)
                mech["coat"] += coat
                mech["frzB"] += fb
                mech["frzH"] += fh
                mech["lock"] += lk
                mech["gold"] += gd
                mech["all4"] += coat and fb and fh and lk
                mech["free"] += not (coat or fb or fh or lk)
                sr = self.res["serial"].get(it.number)
                if sr and sr["status"] in ("serial", "not serial"):
                    ser_n += 1
                    ser_y += sr["status"] == "serial"
                contrib = _dict(_dict(c.get("score")).get("contributions"))
                if not contrib and it.number in self.res["score"]:
                    contrib = self.res["score"][it.number].get("mine_contrib") or {}
                if contrib:
                    at_max_n += 1
                    for t in TERMS:
                        v = contrib.get(t)
                        if isinstance(v, (int, float)) and v >= WEIGHTS[t] - 1e-6:
                            at_max[t] += 1
            lo, hi = band * 100 + 1, band * 100 + 100

            def p(a: int, b: int = n) -> str:
                return f"{100.0 * a / b:.0f}" if b else "-"

            vals = (
                f"{lo}-{hi}",
                str(n),
                p(prov),
                f"{gap / gapn:.1f}" if gapn else "-",
                f"{inter / n:.1f}",
                *(p(mech[x]) for x in ("coat", "frzB", "frzH", "lock", "gold", "all4", "free")),
                p(ser_y, ser_n) if ser_n else "-",
                *(p(at_max[t], at_max_n) if at_max_n else "-" for t in TERMS),
            )
            print("  " + " ".join(f"{v:>9s}" for v in vals))
        print(
            "  (gap = steps - lower_bound; inter = steps - own travel bound; "
            "ser% of decided levels; "
            "max<term>% = share of levels at the term's full weight)"
        )

    # ---- effort ------------------------------------------------------------------------------
    EFFORT = ((3.0, 100000, True), (1.0, 50000, False))

    def check_effort(self, it: Item) -> None:
        """A difficulty signal that owes nothing to the designer or its certificate: the
        states this file's A* stores with its own fixed bound h, (a) weighted (w = 3) until
        its first solution, (b) exact (w = 1) until the minimum is proven, each capped."""
        rec: dict[str, Any] = {}
        parts = []
        for w, budget, first in self.EFFORT:
            r = astar(it.lv, w, int(budget * self.scale), INF, first=first)
            key = "greedy" if first else "exact"
            done = r["best"] is not None if first else r["exhausted"]
            rec[key] = r["stored"]
            rec[key + "_capped"] = not done
            parts.append(f"{key} (w={w:g}) {r['stored']} states"
                         + ("" if done else f" (cap {int(budget * self.scale)} stored)"))
            if not first:
                rec["bound"] = r["bound"]
        # What a fixed amount of exact work leaves unproven: the steps of a solution that
        # replays (the certificate's, or the search's own if shorter) above the bound the
        # capped exact search reached. Unlike a capped count it keeps growing with difficulty.
        ok, _, _, _ = replay(it.lv, it.cert["solution"])
        known = [len(it.cert["solution"])] if ok else []
        known += [len(r["best"])] if r["best"] is not None else []
        if known and rec["bound"] < INF:
            rec["left"] = max(0, min(known) - rec["bound"])
            parts.append(f"bound reached {rec['bound']}, {rec['left']} steps left unproven")
        rec["status"] = "ok"
        self.res["effort"][it.number] = rec
        self.out("effort", it, "; ".join(parts))

    def summary_effort(self) -> None:
        r = self.res["effort"]
        rows: dict[int, list[dict[str, Any]]] = {}
        for n, v in r.items():
            if v.get("status") == "ok":
                rows.setdefault((n - 1) // self.args.effort_band, []).append(v)

        print(f"effort   : per band of {self.args.effort_band} (A* of this file, own bound; "
              "states stored: greedy w=3 to the first solution, exact w=1 to a proof; a capped "
              "search counts its cap)")
        print(f"  {'band':>11s} {'lv':>4s} {'greedy med':>11s} {'capped':>7s} "
              f"{'exact med':>10s} {'capped':>7s} {'left med':>9s} {'left mean':>10s}")
        for b in sorted(rows):
            vs = rows[b]
            a, z = b * self.args.effort_band + 1, (b + 1) * self.args.effort_band
            greedy = statistics.median([v["greedy"] for v in vs])
            left = [v["left"] for v in vs if "left" in v]
            print(f"  {a:>5d}-{z:<5d} {len(vs):>4d} {greedy:>11g} "
                  f"{pct(sum(v['greedy_capped'] for v in vs), len(vs)):>7s} "
                  f"{statistics.median([v['exact'] for v in vs]):>10g} "
                  f"{pct(sum(v['exact_capped'] for v in vs), len(vs)):>7s} "
                  + (f"{statistics.median(left):>9g} {statistics.mean(left):>10.1f}"
                     if left else f"{'-':>9s} {'-':>10s}"))
        print("  (left = steps of the shortest solution known that replays, less the bound "
              "the capped exact search proved: 0 once proven)")

    def check_bands(self, it: Item) -> None:  # pragma: no cover - bands is a summary only
        pass


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", default=os.path.normpath(DEFAULT_DATA), help="folder of batch files")
    ap.add_argument("--batch", help="one batch file instead of --data")
    ap.add_argument("--levels", help="level numbers A-B")
    ap.add_argument("--sample", type=int, help="a deterministic random sample of K levels")
    ap.add_argument("--seed", type=int, default=0, help="seed of --sample")
    ap.add_argument("--checks", default=",".join(ALL_CHECKS))
    ap.add_argument("--budget-scale", type=float, default=1.0)
    ap.add_argument("--optimal-budget", type=int, default=300000)
    ap.add_argument(
        "--serial-budget",
        type=int,
        default=1000000,
        help="body configurations searched per level by 'serial'",
    )
    ap.add_argument(
        "--lesson-budget",
        type=int,
        default=200000,
        help="stored states per exact search of the 'lessons' check",
    )
    ap.add_argument("--effort-band", type=int, default=200, help="band width of 'effort'")
    ap.add_argument("--show-solutions", action="store_true", help="print shorter solutions found")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument(
        "--selftest",
        action="store_true",
        help="cross-check this file's move generator, matching and A* on the selection",
    )
    ap.add_argument(
        "--score-opt",
        action="append",
        help="score reading switches, e.g. slices=pairs, side=cells|head, shuffle=maximal, "
        "hole_freeze_in_sum=false, bound_inner=false",
    )
    args = ap.parse_args(argv)
    checks = [c.strip() for c in args.checks.split(",") if c.strip()]
    bad = [c for c in checks if c not in ALL_CHECKS]
    if bad:
        print(f"unknown checks {bad}; choose from {ALL_CHECKS}")
        return 0
    args.checks = [c for c in ALL_CHECKS if c in checks]  # fixed order (optimal reuses shorter)
    items, problems = load_items(args)
    for p in problems:
        print(f"LOAD {p}")
    all_items = items
    items = select(items, args)
    if not items:
        print("no levels selected")
        return 0
    if args.selftest:
        selftest(items, args.seed)
        return 0
    print(
        f"# puzzle_audit: {len(items)} levels from {args.batch or args.data}; "
        f"checks {args.checks}; "
        f"budget scale {args.budget_scale:g}"
    )
    Audit(args, items, all_items).run()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted")
        sys.exit(0)

