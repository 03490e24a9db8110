"""Benchmark: what the midend's answers weigh and what a step costs (issue 42).

    .venv/bin/python bench/midend_answers.py [--seed 7] [--levels 500,1000,1500,2000]

Prints, for a mines run played by the page's verbs (dig what is offered, far clicks, stop,
continue), the median and largest answer in bytes of JSON; for snakes levels along their
certificates, the bytes of an answer, of its answers ahead, of its changes and of its save;
and the median milliseconds of a snakes step through the page's verb (three rounds).
docs/midend.md keeps the figures, and those measured before the midend.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from gridforge.mines import page as mines
from gridforge.snakes import page
from gridforge.snakes.game.mainline import mainline_level


def mines_sizes(seed: int, inputs: int = 60) -> list[int]:
    """The JSON bytes of each answer of a run played by the page's verbs."""
    answer = mines.open(seed)
    run_id = answer["id"]
    sizes = []
    for _ in range(inputs):
        state = mines.run_state(run_id)
        if state["status"] in ("won", "lost"):
            break
        offer = state["offer"]
        if state["status"] == "settled":
            answer = mines.act(run_id, {"do": "continue"})
        elif offer["dig"] or offer["reach"]:
            x, y = (offer["dig"] or offer["reach"])[0][:2]
            answer = mines.act(run_id, {"do": "primary", "cell": [x, y]})
        else:
            answer = mines.act(run_id, {"do": "stop"})
        sizes.append(len(json.dumps(answer)))
    mines.close(run_id)
    return sizes


def snakes_sizes(n: int) -> dict[str, float]:
    """Mean bytes per answer along level ``n``'s certificate: whole, ahead, changes, save."""
    entry = mainline_level(n)
    session = page.open(entry["level"])["id"]
    parts: dict[str, list[int]] = {"answer": [], "ahead": [], "changes": [], "save": []}
    for step in entry["certificate"]["solution"]:
        answer = page.act(session, {"do": "step", "step": step})
        parts["answer"].append(len(json.dumps(answer)))
        for key in ("ahead", "changes", "save"):
            parts[key].append(len(json.dumps(answer[key])))
    page.close(session)
    return {key: statistics.fmean(values) for key, values in parts.items()}


def step_ms(levels: list[int]) -> float:
    """The median milliseconds of a snakes step through the page's verb."""
    times = []
    for n in levels:
        entry = mainline_level(n)
        session = page.open(entry["level"])["id"]
        for step in entry["certificate"]["solution"]:
            started = time.perf_counter()
            page.act(session, {"do": "step", "step": step})
            times.append(1000 * (time.perf_counter() - started))
        page.close(session)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--levels", default="500,1000,1500,2000")
    args = parser.parse_args()
    levels = [int(n) for n in args.levels.split(",")]
    sizes = sorted(mines_sizes(args.seed))
    print(f"mines, seed {args.seed}: {len(sizes)} answers, median {sizes[len(sizes) // 2]} "
          f"bytes, largest {sizes[-1]}")
    for n in levels:
        s = snakes_sizes(n)
        print(f"snakes level {n}: answer {s['answer']:.0f} bytes (ahead {s['ahead']:.0f}, "
              f"changes {s['changes']:.0f}, save {s['save']:.0f})")
    rounds = [step_ms(levels) for _ in range(3)]
    print("snakes step through the page's verb, median ms per round: "
          + ", ".join(f"{r:.3f}" for r in rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
