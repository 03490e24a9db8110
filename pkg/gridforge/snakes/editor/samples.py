"""The sample levels shipped with the package: the levels an editor starts from (seed
section 6), as the page's contract (:mod:`gridforge.snakes.page`) offers them.
"""

from __future__ import annotations

from importlib import resources

from gridforge.errors import parse_json
from gridforge.snakes.game.level import spec_example
from gridforge.snakes.game.levelfile import LevelJson, accepted

__all__ = ["shipped"]

# The largest data file read here (a block of main-line levels with their certificates).
MAX_DATA_BYTES = 8 * 1024 * 1024


def shipped() -> list[LevelJson]:
    """The levels shipped with the package (each a level dict with meta): the contract's
    example, ``data/samples.json``, then the main line's first block (levels 1-25, the
    lessons) where the package carries it; the whole line is read a block at a time by
    :func:`~gridforge.snakes.design.blocks.mainline_level` and, in the browser, by the
    page."""
    data = resources.files("gridforge.snakes").joinpath("data")
    example = {**spec_example(), "meta": {"id": "sample-spec", "template": "twin",
                                          "title": "The contract's example (minimum 20 steps)"}}
    samples = parse_json(data.joinpath("samples.json").read_bytes(), "samples.json",
                         max_bytes=MAX_DATA_BYTES)
    # The package's own files, checked by its tests: levels as the level file writes them.
    levels = [accepted(example), *map(accepted, samples["levels"])]
    blocks = [f for f in data.iterdir() if f.name.startswith("main-0001-")]
    for block in blocks:
        for level in parse_json(block.read_bytes(), block.name, max_bytes=MAX_DATA_BYTES)["levels"]:
            meta = level["meta"]
            level["meta"] = {**meta, "title": f"Main line {meta['level']} ({meta['template']})"}
            levels.append(accepted(level))
    return levels
