"""The main line (seed 004, section 4; spec section 8): 2000 levels built in blocks.

Each main-line level is one design request (:func:`level_request`) of a fixed curriculum:
the difficulty climbs over the first 200 levels and then slowly to the top, in waves of ten
with a breather at the end of each wave; levels 12, 18, 24 and 30 teach coats, frozen
bodies, frozen holes and keys (the mechanic appears exactly once on its teaching level and
never before it). The space template turns with the level number; when a level fails within
its budgets, the next template is tried with everything else kept (body scale, target,
teaching), as the seed allows ("多次失败后更换空间模板").

:func:`build_mainline` writes one batch file per block of 25 levels and, after each block, a
``progress.json`` naming every finished block: a stopped build (Ctrl-C, a cancel, a crash)
loses at most the block in progress, and ``resume=True`` goes on from there. Every level
comes from :func:`gridforge.snakes.design.pipeline.design_levels` with a seed derived from the
main line's seed and the level number, so the same seed builds the same bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gridforge import __version__
from gridforge.errors import GridforgeError, is_int
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.design.pipeline import design_levels
from gridforge.snakes.design.request import BATCH_FORMAT, MAINLINE_FORMAT

LEVELS = 2000
BLOCK = 25
# Teaching levels of the seed's section 4 and the request field each one fixes to 1.
TEACHING = {12: "coats", 18: "frozen", 24: "frozen_holes", 30: "locks"}
TOPOLOGY_TURN = ("courtyard", "twin", "island", "winding", "notched", "cross", "comb",
                 "stepped", "pillars", "split")

__all__ = ["BLOCK", "LEVELS", "build_mainline", "level_request"]


def level_target(n: int) -> float:
    """The design score main-line level ``n`` (1-based) aims at."""
    # A steep climb over the first 200 levels, then a slow one to the top.
    base = 6 + 49 * (n - 1) / 199 if n <= 200 else 55 + 37 * (n - 200) / (LEVELS - 200)
    wave = (n - 1) % 10
    target = base + 0.8 * wave - (9 if wave == 9 else 0)  # the tenth level is a breather
    return round(min(95.0, max(5.0, target)), 1)


def level_request(n: int, seed: int, turn: int = 0) -> dict[str, Any]:
    """The design request of main-line level ``n``; ``turn`` moves to a later template."""
    if not is_int(n) or not 1 <= n <= LEVELS:
        raise GridforgeError(f"a main-line level is 1..{LEVELS}, got {n!r}")
    request: dict[str, Any] = {
        "target": level_target(n),
        "count": 1,
        "seed": seed * 100_003 + n,
        "topology": TOPOLOGY_TURN[(n + turn) % len(TOPOLOGY_TURN)],
    }
    for level, field in TEACHING.items():
        if n < level:
            request[field] = 0  # not taught yet
        elif n == level:
            request[field] = 1  # the lesson: exactly one
    if request.get("locks") == 1:
        request["gold"] = 0  # the first key opens a silver lock; gold comes later
    return request


def _write_json(path: Path, data: Any) -> None:
    """Write atomically: a reader never sees half a file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n",
                   encoding="utf-8")
    tmp.replace(path)


def _read_progress(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise GridforgeError(f"{path}: cannot read the main line's progress: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != MAINLINE_FORMAT:
        raise GridforgeError(f"{path}: not a main-line progress file ({MAINLINE_FORMAT})")
    return data


def _design_level(n: int, seed: int, progress: Progress) -> tuple[dict[str, Any], dict[str, Any]]:
    """Level ``n`` and its certificate; on failure the next templates, then a clear error."""
    reasons = []
    for turn in range(len(TOPOLOGY_TURN)):
        request = level_request(n, seed, turn)
        batch = design_levels(request, progress)
        if batch["levels"]:
            level, cert = batch["levels"][0], batch["certificates"][0]
            level["meta"] = {"id": f"main-{n:04d}", "template": level["meta"]["template"],
                             "target": request["target"], "seed": seed, "level": n}
            return level, cert
        reasons.append(f"{request['topology']}: {batch['report'].get('shortfall')}")
    raise GridforgeError(f"main-line level {n} failed on every template: " + "; ".join(reasons))


def build_mainline(out_dir: str | Path, seed: int = 2026, count: int = LEVELS,
                   resume: bool = False, progress: Progress = NO_PROGRESS,
                   block: int = BLOCK) -> dict[str, Any]:
    """Build main-line levels 1..``count`` into ``out_dir`` (block files + progress.json).

    :raises GridforgeError: when ``out_dir`` already holds a main line and ``resume`` is
        false, or when ``resume`` meets a main line of another seed or block size.
    :raises Cancelled: when ``progress`` asks to stop (finished blocks stay saved).
    """
    if not is_int(seed) or not is_int(count) or not 1 <= count <= LEVELS:
        raise GridforgeError(f"seed is an integer and count 1..{LEVELS}, got {seed!r}, {count!r}")
    if not is_int(block) or block < 1:
        raise GridforgeError(f"block is a positive integer, got {block!r}")
    out = Path(out_dir)
    state_path = out / "progress.json"
    if state_path.exists():
        if not resume:
            raise GridforgeError(f"{state_path} exists: pass --resume to go on with it")
        state = _read_progress(state_path)
        if state["seed"] != seed or state["block"] != block:
            raise GridforgeError(f"{state_path} was built with seed {state['seed']} and block "
                                 f"{state['block']}, not {seed} and {block}")
        state["count"] = count
        partial = state["done"] % block
        if partial and count > state["done"]:
            # Blocks stay aligned to multiples of the block size: a short last block is
            # built again, whole (the same seeds give the same levels).
            (out / state["files"].pop()).unlink(missing_ok=True)
            state["done"] -= partial
    else:
        out.mkdir(parents=True, exist_ok=True)
        state = {"format": MAINLINE_FORMAT, "seed": seed, "block": block, "count": count,
                 "done": 0, "files": [], "version": __version__}
    while state["done"] < count:
        first = state["done"] + 1
        last = min(count, state["done"] + block)
        levels, certificates = [], []
        for n in range(first, last + 1):
            progress.step(n - 1, count, f"level {n}")
            level, cert = _design_level(n, seed, progress)
            levels.append(level)
            certificates.append(cert)
        name = f"main-{first:04d}-{last:04d}.json"
        _write_json(out / name, {"format": BATCH_FORMAT,
                                 "request": {"mainline": MAINLINE_FORMAT, "seed": seed,
                                             "levels": [first, last]},
                                 "levels": levels, "certificates": certificates})
        state["files"].append(name)
        state["done"] = last
        state["version"] = __version__
        _write_json(state_path, state)  # complete progress after every block
    progress.step(count, count, "done")
    return state
