"""What the designer's commands print: lines a person reads, from the data the designer
returns (the designer's modules print nothing). It imports no other part of the designer but
the types of what it prints (``reports``), so any of them may use it.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from gridforge.snakes.design.reports import Band, BuildState, DesignedBatch

__all__ = [
    "print_batch",
    "print_json",
    "print_mainline",
]


def print_batch(batch: DesignedBatch, out: str, seconds: float, *,
                stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """One line per designed level, a summary line, and on a shortfall the reason on stderr.

    Returns the exit code: 0 when every level asked for was made, else 1.
    """
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    rows = batch["report"]["levels"]
    for k, (level, cert) in enumerate(zip(batch["levels"], batch["certificates"], strict=True)):
        bound = ("minimum proven" if cert["optimal"]
                 else f"lower bound {cert['lower_bound']}, minimum unproven")
        meta = level.get("meta", {})
        score = cert["score"]["total"] if cert["score"] is not None else None
        idea = rows[k].get("interlock") if k < len(rows) else None
        depth = "" if idea is None else (
            f"; joint {idea['joint']}, beyond-pairs {idea['beyond_pairs']}, chain "
            f"{idea['chain']}" + (f", {meta['piece']}" if "piece" in meta else ""))
        print(f"{meta.get('id')}: score {score}, "
              f"{meta.get('template')}, {cert['steps']} steps ({bound}{depth})", file=stdout)
    report = batch["report"]
    print(f"{report['made']}/{report['asked']} levels in {seconds:.1f} s -> {out}", file=stdout)
    if "shortfall" not in report:
        return 0
    short = report["shortfall"]
    print(f"stopped at level {short['level'] + 1}: its candidate budget (budgets.candidates) "
          f"ran out after {short['candidates']} candidates; scores seen "
          f"{short['lowest_score']}..{short['highest_score']}; rejected: {short['reasons']}",
          file=stderr)
    return 1


def _figure(value: float | None) -> str:
    """A band's median, or "-" where no level of the band reports one."""
    return "-" if value is None else f"{value:g}"


def _board(band: Band) -> str:
    """The band's board (spec 5d) in words."""
    return (f"{_figure(band['floor_regions'])} floor regions, stone share "
            f"{_figure(band['stone_share'])} ({band['low_stone'] * 100:.0f}% at most 0.40), "
            f"{_figure(band['main_bodies'])} bodies in the main region, "
            f"{band['new_layouts'] * 100:.0f}% new layouts, beyond-pairs steps "
            f"{_figure(band['beyond_pairs'])}, chain {_figure(band['chain'])}, main-region "
            f"joint steps {_figure(band['main_joint'])}, piece cost "
            f"{_figure(band['piece_cost'])}")


def print_mainline(state: BuildState, out: str, seconds: float, *,
                   stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """What resume found, the folder's entries it ignored (warnings, on stderr), then one
    summary line of a main-line build; exit code 0."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    for note in state["notes"]:
        print(note, file=stdout)
    for warning in state["warnings"]:
        print(f"warning: {warning}", file=stderr)
    for band in state["bands"]:
        lo, hi = band["levels"]
        print(f"levels {lo}-{hi}: {band['built']} built, {band['proven'] * 100:.0f}% proven, "
              f"mean gap {band['mean_gap']:.1f} steps, median score {band['median_score']:.1f}, "
              f"largest template share {band['top_template_share'] * 100:.0f}%, "
              f"{band['fallbacks']} fallbacks; {_board(band)}", file=stdout)
    cpu = state["cpu_seconds"]
    per = f", {cpu / state['built']:.1f} s a level" if state["built"] else ""
    print(f"main line: {state['built']} levels built in {seconds:.1f} s ({cpu / 3600:.2f} CPU "
          f"hours{per}); {out} holds {state['done']} levels in {len(state['files'])} files",
          file=stdout)
    return 0


def print_json(value: Any, *, stdout: TextIO | None = None) -> int:
    """``value`` as indented JSON (key order kept); exit code 0."""
    print(json.dumps(value, indent=2, ensure_ascii=False), file=stdout or sys.stdout)
    return 0
