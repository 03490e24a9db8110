"""The main line's block files as a build writes them, and its band report.

A build writes one batch file per block of levels, ``main-NNNN-NNNN.json``
(:func:`write_block`), and after each a ``progress.json`` (:func:`write_progress`) that
records every block file with its SHA-256. The folder's format and its reader are the
game's (:mod:`gridforge.snakes.game.mainline`: :class:`BlockFile`, :func:`read_progress`,
``mainline_level``); :func:`read_block` here reads a block as the game does and also
checks its band report rows, which :func:`band_report` gathers for a finished folder (the
shipped line by default); :func:`parse_levels` reads a ``--levels`` range.

Imports the game's reader and the band table's rows
(:mod:`~gridforge.snakes.design.line_report`); nothing that builds a level.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from gridforge import __version__
from gridforge.errors import GridforgeError
from gridforge.jsontypes import JsonObject
from gridforge.snakes.design.files import dumps, write_text
from gridforge.snakes.design.line_report import Row, band_table, level_row
from gridforge.snakes.design.reports import Band
from gridforge.snakes.design.request import BATCH_FORMAT, MAINLINE_FORMAT
from gridforge.snakes.game import mainline
from gridforge.snakes.game.certfile import Batch, Certificate
from gridforge.snakes.game.levelfile import LevelJson
from gridforge.snakes.game.mainline import (
    LEVELS,
    PROGRESS_FORMAT,
    SHIPPED,
    BlockFile,
    ProgressFile,
    block_name,
    block_of,
    read_progress,
)

__all__ = [
    "BlockFile",
    "band_report",
    "block_of",
    "parse_levels",
    "progress_json",
    "read_block",
    "read_progress",
    "unlisted",
    "write_block",
    "write_progress",
]

def parse_levels(text: str) -> tuple[int, int]:
    """``"A-B"`` (or ``"N"``) as a level range inside 1..2000.

    :raises GridforgeError: naming ``--levels`` for anything else.
    """
    match = re.fullmatch(r"\s*(\d{1,4})\s*(?:-\s*(\d{1,4})\s*)?", text)
    if not match:
        raise GridforgeError(f"--levels: expected A-B (for example 1-25), got {text!r}")
    first = int(match[1])
    last = int(match[2]) if match[2] else first
    if not 1 <= first <= last <= LEVELS:
        raise GridforgeError(f"--levels: a range inside 1..{LEVELS} with A <= B, got {text!r}")
    return first, last


def _block_rows(data: JsonObject, first: int) -> list[Row]:
    """The band report rows of a block file the game's reader has checked (levels from
    ``first``); a ValueError says what is wrong."""
    levels, certs = data.get("levels"), data.get("certificates")
    assert isinstance(levels, list) and isinstance(certs, list)  # the reader checked them
    return [level_row(first + i, lv, c) for i, (lv, c) in enumerate(zip(levels, certs,
                                                                     strict=True))]


def read_block(where: Path, f: BlockFile, seed: int) -> tuple[Batch, list[Row]]:
    """The listed block file ``f`` in ``where`` as :func:`gridforge.snakes.game.mainline.
    read_block` reads it, and its band report rows (a block whose rows cannot be read is
    refused as one that is not the block it is listed as).

    :raises FileRefused: naming the file and the reason.
    """
    rows: list[Row] = []

    def check(data: JsonObject) -> None:
        rows.extend(_block_rows(data, f.first))

    return mainline.read_block(where, f, seed, check), rows


MAX_WARNED = 20  # stray entries named one by one; the rest are counted


def unlisted(where: Path, listed: set[str]) -> list[str]:
    """One warning per entry of ``where`` that is neither progress.json nor a listed block
    file: such entries are never read (the first :data:`MAX_WARNED` named, the rest counted)."""
    try:
        names = sorted(entry.name for entry in os.scandir(where))
    except OSError:
        return []
    stray = [name for name in names if name != "progress.json" and name not in listed]
    out = [f"{where / name} is not listed in progress.json: ignored"
           for name in stray[:MAX_WARNED]]
    if len(stray) > MAX_WARNED:
        out.append(f"{len(stray) - MAX_WARNED} more entries of {where} are not listed in "
                   "progress.json: ignored")
    return out


def write_block(out: Path, seed: int, lo: int, hi: int,
                 results: dict[int, tuple[LevelJson, Certificate]]
                 ) -> tuple[BlockFile, list[Row]]:
    name = block_name(lo, hi)
    data: Batch = {"format": BATCH_FORMAT,
            "request": {"mainline": MAINLINE_FORMAT, "seed": seed, "levels": [lo, hi]},
            "levels": [results[n][0] for n in range(lo, hi + 1)],
            "certificates": [results[n][1] for n in range(lo, hi + 1)]}
    text = dumps(data, indent=1)
    write_text(out / name, text)
    rows = [level_row(n, *results[n]) for n in range(lo, hi + 1)]
    return BlockFile(name, lo, hi, hashlib.sha256(text.encode("utf-8")).hexdigest()), rows


def progress_json(seed: int, block: int, records: dict[int, BlockFile]) -> ProgressFile:
    files = [records[b] for b in sorted(records)]
    return {"format": PROGRESS_FORMAT, "seed": seed, "block": block,
            "done": sum(f.last - f.first + 1 for f in files),
            "files": [f.to_json() for f in files], "version": __version__}


def write_progress(path: Path, seed: int, block: int, records: dict[int, BlockFile]) -> None:
    write_text(path, dumps(progress_json(seed, block, records), indent=1))


def band_report(folder: str | os.PathLike[str] | None = None, band: int = 100, *,
                warnings: list[str] | None = None) -> list[Band]:
    """Per band of ``band`` levels found in the block files of ``folder`` (the shipped line by
    default): levels, proven share, mean gap between solution and lower bound, median score,
    the largest template share, fallbacks and the body counts used.

    Only the block files ``folder/progress.json`` lists are read, each checked against its
    SHA-256 and its shape; a listed file that fails is left out and anything else in the
    folder is ignored, each named in a line appended to ``warnings`` (when given).

    :raises GridforgeError: when ``progress.json`` is missing, not a regular file or not valid.
    """
    where = Path(folder) if folder is not None else SHIPPED
    seed, _block, files = read_progress(where)
    notes = warnings if warnings is not None else []
    rows: dict[int, list[Row]] = {}
    for f in files:
        try:
            rows[f.first] = read_block(where, f, seed)[1]
        except GridforgeError as exc:
            notes.append(f"{exc}: left out of the band report")
    notes += unlisted(where, {f.name for f in files})
    return band_table(rows, band)
