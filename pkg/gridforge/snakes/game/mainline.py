"""The shipped main line, as the game reads it: the number of levels (:data:`LEVELS`), the
format of its folder (block files ``main-NNNN-NNNN.json`` and the ``progress.json`` that lists
each with its SHA-256) and the reader of one level (:func:`mainline_level`).

Reading trusts nothing: the progress file is validated whole (:func:`read_progress`, every
bad field named), a block file is read once, never through a symbolic link, and checked
against its SHA-256 and its record (:func:`read_block`). The designer builds and writes the
line (:mod:`gridforge.snakes.design.line_build`, :mod:`gridforge.snakes.design.blocks`) and
reads its band report through this reader; play needs nothing of the designer to read it.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from gridforge.errors import (
    GridforgeError,
    Issues,
    ValidationError,
    is_int,
    parse_json,
    refusal,
)
from gridforge.files import FileRefused, read_regular
from gridforge.jsontypes import Json, JsonObject
from gridforge.snakes.game.certfile import BATCH_FORMAT, Batch, Certificate, certificate_of
from gridforge.snakes.game.levelfile import LevelJson, accepted

__all__ = [
    "BLOCK_NAME",
    "LEVELS",
    "PROGRESS_FORMAT",
    "SHIPPED",
    "BlockFile",
    "BlockRecord",
    "MainlineLevel",
    "ProgressFile",
    "block_name",
    "block_of",
    "mainline_level",
    "read_block",
    "read_progress",
]

LEVELS = 2000  # the main line's levels, numbered 1..LEVELS
SHIPPED = Path(__file__).parent.parent / "data"  # the package's copy of the line
PROGRESS_FORMAT = "gridforge.snakes.mainline-progress/2"
BLOCK_NAME = re.compile(r"main-(\d{4})-(\d{4})\.json")
MAX_PROGRESS_BYTES = 1024 * 1024


class MainlineLevel(TypedDict):
    """A shipped main-line level and its certificate (``gridforge mainline level N``)."""

    level: LevelJson
    certificate: Certificate


class BlockRecord(TypedDict):
    """A block file's record in ``progress.json``."""

    name: str
    first: int
    last: int
    sha256: str


class ProgressFile(TypedDict):
    """``progress.json`` (``gridforge.snakes.mainline-progress/2``)."""

    format: str
    seed: int
    block: int
    done: int
    files: list[BlockRecord]
    version: str


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


def _check_block(data: JsonObject, f: BlockFile, seed: int) -> None:
    """Check a parsed block file against its record.

    :raises ValueError: saying what differs.
    """
    request = data.get("request")
    if not isinstance(request, dict) or request.get("seed") != seed or request.get(
            "levels") != [f.first, f.last]:
        raise ValueError(f"its request must be seed {seed}, levels [{f.first}, {f.last}]")
    levels, certs = data.get("levels"), data.get("certificates")
    count = f.last - f.first + 1
    if not (isinstance(levels, list) and isinstance(certs, list)
            and len(levels) == len(certs) == count):
        raise ValueError(f"it must hold {count} levels and {count} certificates")


def read_block(where: Path, f: BlockFile, seed: int,
               check: Callable[[JsonObject], object] = lambda data: None) -> Batch:
    """The listed block file ``f`` in ``where``, read once (never through a symbolic link),
    checked against its SHA-256 and its record, then by ``check`` (which raises ValueError
    or ValidationError on what it refuses).

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
        _check_block(data, f, seed)
        check(data)
        # Its levels and certificates are those checked: a block as written.
        levels, certs, request = data["levels"], data["certificates"], data.get("request")
        assert isinstance(levels, list) and isinstance(certs, list)  # _check_block's
        batch: Batch = {"format": BATCH_FORMAT,
                        "request": request if isinstance(request, dict) else None,
                        "levels": [accepted(level) for level in levels],
                        "certificates": [certificate_of(cert) for cert in certs]}
        return batch
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


def mainline_level(n: object, folder: str | os.PathLike[str] | None = None) -> MainlineLevel:
    """Shipped main-line level ``n`` and its certificate, ``{"level", "certificate"}``, read
    from the block file that ``folder``'s ``progress.json`` lists for it (the package's data
    by default), checked against its SHA-256; no other file of the folder is read.

    :raises GridforgeError: when ``n`` is not an integer in 1..2000, its block is not listed,
        or the listed file is missing, changed or not a main-line block (named with the reason).
    """
    if not is_int(n) or not 1 <= n <= LEVELS:
        raise GridforgeError(f"level: a main-line level is 1..{LEVELS}, got {n!r}")
    where = Path(folder) if folder is not None else SHIPPED
    seed, _block, files = read_progress(where)
    for f in files:
        if f.first <= n <= f.last:
            data = read_block(where, f, seed)
            i = n - f.first
            return {"level": data["levels"][i], "certificate": data["certificates"][i]}
    raise GridforgeError(f"level: main-line level {n} is not built yet (no block file holds it "
                         f"in {where})")
