"""Progress reporting and cancellation for long work, the same on the CLI and in the browser.

Long functions take an optional :class:`Progress` and call ``progress.step(done, total, label)``
now and then, with named figures where a page shows more than a bar (``best=42.5``): the sink
gets them as a dict, so that nothing has to read them back out of the label's words. The sink
decides what that means: a progress bar on a terminal, a message to the page from the Web
Worker, nothing at all in tests. A sink may ask to stop; ``step`` then raises
:class:`~gridforge.errors.Cancelled`, so work ends at a clean point, never half-written.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from gridforge.errors import Cancelled

# Figures a step names beside its count (the designer's best score so far, the level it is at).
Figures = dict[str, int | float | str | bool]
# A sink receives (done, total, label, figures) and returns True to ask for cancellation.
Sink = Callable[[int, int, str, Figures], bool | None]


class Progress:
    """Reports ``done`` of ``total`` units of work to a sink, and relays its cancellation."""

    def __init__(self, sink: Sink | None = None) -> None:
        self._sink = sink
        self._cancelled = False

    def cancel(self) -> None:
        """Ask the work to stop at its next ``step``."""
        self._cancelled = True

    def step(self, done: int, total: int, label: str = "", **figures: int | float | str | bool
             ) -> None:
        """Report progress; raises Cancelled if the caller or the sink asked to stop."""
        if self._sink is not None and self._sink(done, total, label, figures):
            self._cancelled = True
        if self._cancelled:
            raise Cancelled(f"cancelled at {done}/{total} {label}".strip())


NO_PROGRESS = Progress()


def terminal_bar(stream: TextIO | None = None, width: int = 30) -> Progress:
    """A Progress drawing a one-line bar on a terminal (stderr by default)."""
    out = stream if stream is not None else sys.stderr
    last: list[Any] = [-1, "", 0.0, 0]  # bar filled, label, when drawn, line length

    def sink(done: int, total: int, label: str, figures: Figures) -> None:
        filled = 0 if total <= 0 else min(width, done * width // total)
        now = time.monotonic()
        # Redraw when the bar grows, and when the label changes at most once a second (a
        # long build keeps its "slowest running" and time left current without flooding).
        if done != total and filled == last[0] and (label == last[1] or now - last[2] < 1.0):
            return
        bar = "#" * filled + "-" * (width - filled)
        line = f"[{bar}] {done}/{total} {label}"[:119]
        out.write("\r" + line.ljust(last[3]))  # spaces wipe what a longer line left
        last[:] = [filled, label, now, len(line)]
        if done >= total:
            out.write("\n")
        out.flush()

    return Progress(sink)
