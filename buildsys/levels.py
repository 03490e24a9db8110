"""The main line's level blocks laid out beside the site's wheel, with levels/index.json,
each block checked on the way."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from buildsys.paths import venv_python
from buildsys.steps import StepFailed, run_step, sha256_of

# The builder's block names (gridforge generate-levels): main-NNNN-NNNN.json, levels first..last.
BLOCK_NAME = re.compile(r"main-(\d{4})-(\d{4})\.json")
BATCH_FORMAT = "gridforge.snakes.batch/1"
LEVELS_INDEX_FORMAT = "gridforge.levels-index/1"


def mainline_size() -> int:
    """The number of levels of the main line, as Python defines it
    (``gridforge.snakes.game.mainline.LEVELS``, read from the installed package)."""
    step = "read the main line's size"
    result = run_step(step, [venv_python(), "-c",
                             "from gridforge.snakes.game.mainline import LEVELS; print(LEVELS)"])
    lines = (result.stdout or "").split()
    if not lines or not lines[-1].isdigit() or int(lines[-1]) < 1:
        raise StepFailed(f"step '{step}' failed: expected a number of levels, got {lines[-1:]}")
    return int(lines[-1])


def lay_out_levels(source: Path, dest: Path, size: int) -> list[dict[str, object]]:
    """Copy the main line's level blocks (and progress.json, if any) from ``source`` to
    ``dest`` and write ``dest/index.json``; return the index's blocks.

    The page fetches a block when it needs one, so start-up never parses them; the index
    says which levels each block holds and its SHA-256, and the main line's ``size`` (its
    last level number, Python's: the page checks routes and saved progress against it
    before Python has loaded, and writes no number of its own). Each block is checked here
    (its name, its format, one level per number it covers, none past ``size``, no overlap
    with another block), so a broken data file fails the build, naming the file and the
    field.
    """
    step = "lay out the level blocks"
    dest.mkdir(parents=True, exist_ok=True)
    blocks: list[dict[str, object]] = []
    for path in sorted(source.glob("main-*.json")):
        match = BLOCK_NAME.fullmatch(path.name)
        if not match:
            raise StepFailed(f"step '{step}' failed: {path.name}: not a block name "
                             "(main-NNNN-NNNN.json)")
        first, last = int(match[1]), int(match[2])
        if not 1 <= first <= last:
            raise StepFailed(f"step '{step}' failed: {path.name}: levels {first}..{last}")
        if last > size:
            raise StepFailed(f"step '{step}' failed: {path.name}: levels past the main "
                             f"line's last, {size}")
        try:
            block = json.loads(path.read_bytes().decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise StepFailed(f"step '{step}' failed: {path.name}: not JSON: {exc}") from None
        if not isinstance(block, dict) or block.get("format") != BATCH_FORMAT:
            raise StepFailed(f"step '{step}' failed: {path.name}: format: "
                             f"expected {BATCH_FORMAT!r}")
        levels = block.get("levels")
        if not isinstance(levels, list) or len(levels) != last - first + 1:
            count = len(levels) if isinstance(levels, list) else type(levels).__name__
            raise StepFailed(f"step '{step}' failed: {path.name}: levels: expected "
                             f"{last - first + 1} levels, got {count}")
        if blocks and first <= int(str(blocks[-1]["last"])):
            raise StepFailed(f"step '{step}' failed: {path.name}: overlaps "
                             f"{blocks[-1]['file']}")
        shutil.copy2(path, dest / path.name)
        blocks.append({"file": path.name, "first": first, "last": last,
                       "sha256": sha256_of(path), "bytes": path.stat().st_size})
    index: dict[str, object] = {"format": LEVELS_INDEX_FORMAT, "levels": size, "blocks": blocks}
    progress = source / "progress.json"
    if progress.is_file():
        shutil.copy2(progress, dest / progress.name)
        index["progress"] = {"file": progress.name, "sha256": sha256_of(progress)}
    (dest / "index.json").write_text(json.dumps(index, indent=1, sort_keys=True))
    return blocks

