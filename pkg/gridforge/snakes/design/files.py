"""The designer's file helpers, now shared by every command: see :mod:`gridforge.files`
(kept here so the designer's imports stay as they are)."""

from __future__ import annotations

from gridforge.files import FileRefused, WriteError, dumps, read_regular, write_json, write_text

__all__ = ["FileRefused", "WriteError", "dumps", "read_regular", "write_json", "write_text"]
