"""The main line's block file format: the files a build writes and everything that reads
them back.

A build writes one batch file per block of levels, ``main-NNNN-NNNN.json``
(:func:`block_name`, :func:`write_block`), and after each a ``progress.json``
(:data:`PROGRESS_FORMAT`, :func:`write_progress`) that records every block file with its
SHA-256 (:class:`BlockFile`). Reading trusts nothing: the progress file is validated whole
(:func:`read_progress`, every bad field named), a block file is read once, never through a
symbolic link, and checked against its SHA-256, its record and its rows
(:func:`read_block`). :func:`mainline_level` and :func:`band_report` read a finished folder
(the shipped line by default); :func:`parse_levels` reads a ``--levels`` range.

Imports the curriculum (:data:`~gridforge.snakes.design.line_plan.LEVELS`) and the band
table's rows (:mod:`~gridforge.snakes.design.line_report`); nothing that builds a level.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from gridforge import __version__
from gridforge.errors import (
    GridforgeError,
    Issues,
    ValidationError,
    is_int,
    parse_json,
    refusal,
)
from gridforge.jsontypes import Json, JsonObject
from gridforge.snakes.certificate import Batch, Certificate
from gridforge.snakes.design.files import FileRefused, dumps, read_regular, write_text
from gridforge.snakes.design.line_plan import LEVELS
from gridforge.snakes.design.line_report import Row, band_table, level_row
from gridforge.snakes.design.reports import Band, BlockRecord, MainlineLevel, ProgressFile
from gridforge.snakes.design.request import BATCH_FORMAT, MAINLINE_FORMAT
from gridforge.snakes.levelfile import LevelJson

__all__ = [
    "BLOCK_NAME",
    "PROGRESS_FORMAT",
    "BlockFile",
    "band_report",
    "block_name",
    "block_of",
    "mainline_level",
    "parse_levels",
    "progress_json",
    "read_block",
    "read_progress",
    "unlisted",
    "write_block",
    "write_progress",
]

PROGRESS_FORMAT = "gridforge.snakes.mainline-progress/2"
BLOCK_NAME = re.compile(r"main-(\d{4})-(\d{4})\.json")
MAX_PROGRESS_BYTES = 1024 * 1024


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


def block_name(first: int, last: int) -> str:
    """The block file's name for levels ``first``..``last``."""
    return f"main-{first:04d}-{last:04d}.json"


@dataclass(frozen=True)
class BlockFile:
    """A finished block file as progress.json records it."""

    name: str
    first: int
    last: int
    sha256: str

    def to_json(self) -> BlockRecord:
        """The record in progress.json."""
        return {"name": self.name, "first": self.first, "last": self.last,
                "sha256": self.sha256}


def block_of(n: int, block: int) -> int:
    return (n - 1) // block


def _block_record(item: Json, path: str, block: int, taken: set[int],
                  bad: Callable[[str, str], None]) -> BlockFile | None:
    """One record of a progress file's ``files`` (at ``path``), or None after saying what is
    wrong with it through ``bad``; ``taken`` holds the levels of the records before it."""
    if not isinstance(item, dict) or set(item) != {"name", "first", "last", "sha256"}:
        bad(path, "a block record is {name, first, last, sha256}")
        return None
    first, last, name, sha = item["first"], item["last"], item["name"], item["sha256"]
    if not (is_int(first) and is_int(last) and 1 <= first <= last <= LEVELS
            and block_of(first, block) == block_of(last, block)):
        bad(path, f"first..last must lie inside one block of {block} levels")
        return None
    if not isinstance(name, str) or name != block_name(first, last):
        bad(f"{path}.name", f"must be the builder's own block name "
                            f"{block_name(first, last)!r}, got {str(name)[:60]!r}")
        return None
    if not isinstance(sha, str) or not re.fullmatch(r"[0-9a-f]{64}", sha):
        bad(f"{path}.sha256", "must be 64 lowercase hex digits")
        return None
    if not taken.isdisjoint(range(first, last + 1)):
        bad(path, f"levels {first}..{last} are listed twice")
        return None
    return BlockFile(name, first, last, sha)


def _check_progress(data: Json, block: int | None) -> tuple[int, int, list[BlockFile]]:
    """Validate a progress file whole; returns its seed, block size and block files. The
    block size must be ``block``; ``None`` takes the file's own (an integer in 1..2000).

    :raises ValidationError: naming every bad field (``files[2].name``, ``done``, ...).
    """
    if not isinstance(data, dict):
        raise refusal("progress.json", "", "type", "progress is a JSON object")
    issues = Issues()

    def bad(path: str, message: str) -> None:
        issues.add(path, "invalid", message)

    if data.get("format") != PROGRESS_FORMAT:
        bad("format", f"format must be {PROGRESS_FORMAT!r}")
    seed = data.get("seed")
    if not is_int(seed) or not 0 <= seed < 2**31:
        bad("seed", f"seed must be an integer in 0..2**31-1, got {str(seed)[:30]}")
        seed = -1
    if block is None:
        size = data.get("block")
        if not is_int(size) or not 1 <= size <= LEVELS:
            bad("block", f"block must be an integer in 1..{LEVELS}, got {str(size)[:30]}")
            size = LEVELS
        block = size
    elif data.get("block") != block:
        bad("block", f"block must be {block}, got {str(data.get('block'))[:30]}")
    files: list[BlockFile] = []
    raw = data.get("files")
    if not isinstance(raw, list) or len(raw) > LEVELS:
        bad("files", "files must be a list of block records")
        raw = []
    taken: set[int] = set()
    for i, item in enumerate(raw):
        record = _block_record(item, f"files[{i}]", block, taken, bad)
        if record is not None:
            taken |= set(range(record.first, record.last + 1))
            files.append(record)
    done = data.get("done")
    if not is_int(done) or done != len(taken):
        bad("done", f"done must be the number of levels the files hold ({len(taken)}), "
                    f"got {str(done)[:30]}")
    if issues:
        raise ValidationError(issues, "progress.json")
    assert is_int(seed)
    return seed, block, sorted(files, key=lambda f: f.first)


# A block file is about 15 KB a level; a file larger than this is not read back.
MAX_BLOCK_BYTES_PER_LEVEL = 1024 * 1024


def _block_rows(data: JsonObject, f: BlockFile, seed: int) -> list[Row]:
    """Check a parsed block file against its record; its band report rows."""
    request = data.get("request")
    if not isinstance(request, dict) or request.get("seed") != seed or request.get(
            "levels") != [f.first, f.last]:
        raise ValueError(f"its request must be seed {seed}, levels [{f.first}, {f.last}]")
    levels, certs = data.get("levels"), data.get("certificates")
    count = f.last - f.first + 1
    if not (isinstance(levels, list) and isinstance(certs, list)
            and len(levels) == len(certs) == count):
        raise ValueError(f"it must hold {count} levels and {count} certificates")
    return [level_row(f.first + i, lv, c) for i, (lv, c) in enumerate(zip(levels, certs,
                                                                       strict=True))]


def read_block(where: Path, f: BlockFile, seed: int) -> tuple[Batch, list[Row]]:
    """The listed block file ``f`` in ``where``, read once (never through a symbolic link),
    checked against its SHA-256 and its record, and its band report rows.

    :raises FileRefused: naming the file and the reason (``reason``: "is missing", "was
        changed (SHA-256 differs)", "is not the block it is listed as (...)", ...).
    """
    path = where / f.name
    raw = read_regular(path, (f.last - f.first + 1) * MAX_BLOCK_BYTES_PER_LEVEL)
    if hashlib.sha256(raw).hexdigest() != f.sha256:
        raise FileRefused(path, "was changed (SHA-256 differs)")
    try:
        data = parse_json(raw, f.name, max_bytes=len(raw), expect_format=BATCH_FORMAT)
        if not isinstance(data, dict):
            raise ValueError("a block is a JSON object")
        rows = _block_rows(data, f, seed)
        # Its levels and certificates are those the rows were read from: a block as written.
        return cast(Batch, data), rows
    except (ValidationError, ValueError) as exc:
        why = exc.issues[0] if isinstance(exc, ValidationError) and exc.issues else exc
        raise FileRefused(path, f"is not the block it is listed as ({str(why)[:200]})"
                          ) from None


def read_progress(where: Path, block: int | None = None
                   ) -> tuple[int, int, list[BlockFile]]:
    """``where/progress.json``, read with the bounded reader (never through a symbolic link)
    and validated whole: its seed, block size and block files.

    :raises GridforgeError: when it is missing, a symbolic link or not a regular file.
    :raises ValidationError: naming every bad field.
    """
    path = where / "progress.json"
    raw = read_regular(path, MAX_PROGRESS_BYTES)
    return _check_progress(parse_json(raw, "progress.json", max_bytes=MAX_PROGRESS_BYTES),
                           block)


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


def mainline_level(n: object, folder: str | os.PathLike[str] | None = None) -> MainlineLevel:
    """Shipped main-line level ``n`` and its certificate, ``{"level", "certificate"}``, read
    from the block file that ``folder``'s ``progress.json`` lists for it (the package's data
    by default), checked against its SHA-256; no other file of the folder is read.

    :raises GridforgeError: when ``n`` is not an integer in 1..2000, its block is not listed,
        or the listed file is missing, changed or not a main-line block (named with the reason).
    """
    if not is_int(n) or not 1 <= n <= LEVELS:
        raise GridforgeError(f"level: a main-line level is 1..{LEVELS}, got {n!r}")
    where = Path(folder) if folder is not None else Path(__file__).parent.parent / "data"
    seed, _block, files = read_progress(where)
    for f in files:
        if f.first <= n <= f.last:
            data, _rows = read_block(where, f, seed)
            i = n - f.first
            return {"level": data["levels"][i], "certificate": data["certificates"][i]}
    raise GridforgeError(f"level: main-line level {n} is not built yet (no block file holds it "
                         f"in {where})")


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
    where = Path(folder) if folder is not None else Path(__file__).parent.parent / "data"
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
