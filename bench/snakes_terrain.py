"""The designer's requests with coloured paths and bridges (issue 50): does every seed build
every level it asks for at the default budgets?

Runs ``{"topology": T, "target": 40, "count": 2, "seed": s, "paths": p, "bridges": b}`` for
seeds 1..20 (``--seeds``), paths 1 and 2, bridges 1, topologies mixed, courtyard, island and
winding (``--topologies``, ``--paths``, ``--bridges``, ``--target``, ``--count`` change them),
each through :func:`~gridforge.snakes.design.pipeline.design_levels` as
``gridforge design-levels --spec`` runs it. Prints one line per request (levels made, the
candidates each took, CPU seconds, the rejection counts by reason) and, per topology and
terrain, the requests that built every level, the candidates per level (median, most) and the
CPU seconds (median, most). A refused request (ValidationError) prints its field paths.

    .venv/bin/python bench/snakes_terrain.py
    .venv/bin/python bench/snakes_terrain.py --topologies mixed --paths 2 --seeds 1-20
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from gridforge.errors import ValidationError
from gridforge.snakes.design.pipeline import design_levels


def _span(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def run(request: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """One request: its printed line and its figures."""
    started = time.process_time()
    try:
        batch = design_levels(request)
    except ValidationError as exc:
        return f"refused: {[i.path for i in exc.issues]}", {"refused": True}
    cpu = time.process_time() - started
    report = batch["report"]
    cands = [info["candidates"] for info in report["levels"]]
    line = (f"made {report['made']}/{report['asked']}  candidates {cands}  {cpu:6.1f} s  "
            f"rejected {report['rejected']}")
    return line, {"whole": report["made"] == report["asked"], "cands": cands, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=_span, default=_span("1-20"), metavar="A-B")
    parser.add_argument("--topologies", default="mixed,courtyard,island,winding")
    parser.add_argument("--paths", default="1,2")
    parser.add_argument("--bridges", default="1")
    parser.add_argument("--target", type=float, default=40)
    parser.add_argument("--count", type=int, default=2)
    args = parser.parse_args()
    summary = []
    for topology in args.topologies.split(","):
        for paths in (int(p) for p in args.paths.split(",")):
            for bridges in (int(b) for b in args.bridges.split(",")):
                figures = []
                for seed in args.seeds:
                    request = {"topology": topology, "target": args.target,
                               "count": args.count, "seed": seed, "paths": paths,
                               "bridges": bridges}
                    line, fig = run(request)
                    figures.append(fig)
                    print(f"{topology:>9} paths {paths} bridges {bridges} seed {seed:>3}: "
                          f"{line}", flush=True)
                summary.append((topology, paths, bridges, figures))
    print()
    print(f"{'topology':>9} {'paths':>5} {'bridges':>7} {'whole':>7} {'cands/level':>14} "
          f"{'CPU s':>13}")
    for topology, paths, bridges, figures in summary:
        ran = [f for f in figures if not f.get("refused")]
        if not ran:
            print(f"{topology:>9} {paths:>5} {bridges:>7}   refused at once")
            continue
        cands = [c for f in ran for c in f["cands"]] or [0]
        cpu = [f["cpu"] for f in ran]
        print(f"{topology:>9} {paths:>5} {bridges:>7} {sum(f['whole'] for f in ran):>3}/"
              f"{len(ran):<3} {statistics.median(cands):>6g} {max(cands):>6}  "
              f"{statistics.median(cpu):>5.1f} {max(cpu):>6.1f}")


if __name__ == "__main__":
    main()
