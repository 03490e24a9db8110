"""Argparse types for the numeric flags of the ``gridforge`` command, shared by both games.

A flag's value is checked when the command line is parsed, before any work: an integer or a
finite number inside its stated range, written in ASCII digits only (Python's ``int`` would
also take ``1_000``, ``٣`` or ``５``: a person typing those meant something else), else
argparse's own one-line usage error naming the flag (exit code 2). The games' ``commands``
modules use these; this module imports no game and not :mod:`gridforge.cli`, so the games
may depend on it.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from typing import TypeVar

__all__ = ["finite_float", "int_range", "parsed_by"]

# Integers on the command line have at most this many digits (Python's int() would parse
# thousands, slowly, before any range check could refuse them).
MAX_FLAG_DIGITS = 30

T = TypeVar("T")

# Whole numbers and decimal numbers as a person types them: ASCII digits, an optional sign,
# no digit-group underscores (re.ASCII: \d would also take Arabic-Indic or full-width
# digits).
_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


_PLAIN = re.compile(r"[ -^`-~]*", re.ASCII)  # printable ASCII without "_"


def _range_text(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"in {low}..{high}"
    if low is not None:
        return f">= {low}"
    return f"<= {high}"


def int_range(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` accepting a whole number in ``low..high`` (bounds inclusive)."""

    def parse(text: str) -> int:
        digits = text.strip().lstrip("+-")
        if len(digits) > MAX_FLAG_DIGITS:
            raise argparse.ArgumentTypeError(f"{text[:40]}...: too many digits")
        if not _WHOLE.fullmatch(text.strip(" ")):
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a whole number (ASCII digits 0-9 only)")
        value = int(text)
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{value} is not {_range_text(low, high)}")
        return value

    parse.__name__ = "whole number"  # argparse names the type in its message
    return parse


def finite_float(low: float | None = None, high: float | None = None) -> Callable[[str], float]:
    """An argparse ``type`` accepting a finite number in ``low..high`` (no nan, no inf)."""

    def parse(text: str) -> float:
        if len(text) > 64:
            raise argparse.ArgumentTypeError(f"{text[:40]}...: too long for a number")
        if text.strip(" ").lower().lstrip("+-") in ("inf", "infinity", "nan"):
            raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
        if not _DECIMAL.fullmatch(text.strip(" ")):
            raise argparse.ArgumentTypeError(f"{text!r} is not a number (ASCII digits only)")
        value = float(text)
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text} is not {_range_text(low, high)}")
        return value

    parse.__name__ = "number"
    return parse


def parsed_by(parse: Callable[[str], T], name: str) -> Callable[[str], T]:
    """An argparse ``type`` from a parser of the project (``parse_levels``, say): its
    GridforgeError or ValueError becomes argparse's usage error naming the flag. A text with
    a character outside printable ASCII or a ``_`` is refused first (such a parser's ``\\d``
    and ``int`` would take ``٣`` or ``1_0``)."""

    def convert(text: str) -> T:
        if not _PLAIN.fullmatch(text):
            raise argparse.ArgumentTypeError(
                f"{text[:40]!r}: only ASCII digits, letters and punctuation are taken here")
        try:
            return parse(text)
        except ValueError as exc:  # GridforgeError is a ValueError
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = name
    return convert
