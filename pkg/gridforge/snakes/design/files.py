"""Writing the designer's files: whole or not at all, and durable once written.

A file is written to a temporary name beside its target, flushed and fsync'ed, renamed over
the target, and the folder is fsync'ed so that the rename itself survives a crash: a reader (or
a resumed main-line build) never meets half a file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

__all__ = ["dumps", "write_json", "write_text"]


def dumps(data: Any, indent: int | None = 2) -> str:
    """The JSON text the designer writes (key order kept, NaN refused, one final newline)."""
    return json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False) + "\n"


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically and durably (temp + fsync + rename)."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, out)
    _sync_folder(out.parent)


def write_json(path: str | os.PathLike[str], data: Any, indent: int | None = 2) -> None:
    """Write ``data`` as JSON with :func:`dumps`, atomically and durably."""
    write_text(path, dumps(data, indent))


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - a platform without folder handles (Windows)
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse fsync on folders
        pass
    finally:
        os.close(fd)
