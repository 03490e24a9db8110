"""The engines' reasons as the editor says them, in the language of the call (issue 22).

A certificate's ``reason``, the search's ``reason`` for an unsolvable level and the notes of
an import are written by the engines (:mod:`gridforge.snakes.solver.certificate`,
:mod:`gridforge.snakes.solver.search`, :mod:`gridforge.snakes.editor.editing`) in the command line's
English, and stay so there. The editor's page layer (:mod:`gridforge.snakes.page`) says them
through :func:`reason_words` and :func:`note_words`: each known sentence of the engines is
matched here and said with its catalogue message (``editor.why.*``, ``editor.import.*``);
in English that is the sentence :func:`gridforge.words.plain` makes of it. A sentence not
known here is said by :func:`~gridforge.words.plain` in English and, in another language, as
the catalogue's general ``editor.why.other``.

The patterns below are the engines' own texts, not words for the page (which is why this
module is not one of the message sources the catalogue test scans).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gridforge.i18n import DEFAULT, language, say
from gridforge.words import colour_name, plain

__all__ = ["note_words", "reason_words"]

_Say = Callable[[re.Match[str]], str]


def _n(match: re.Match[str], group: int) -> int:
    return int(match.group(group))


_REASONS: list[tuple[re.Pattern[str], _Say]] = [
    (re.compile(r"minimum unproven"), lambda m: say("editor.why.minimum-unproven")),
    (re.compile(r"budget spent \((states|seconds)\); this does not mean unsolvable"),
     lambda m: say("editor.why.budget", what=say(f"editor.why.budget.{m.group(1)}"))),
    (re.compile(r"score (\S+) outside (\S+) \+- (\S+)"),
     lambda m: say("editor.why.score", score=m.group(1), target=m.group(2),
                   tolerance=m.group(3))),
    (re.compile(r"(\d+) steps, fewer than (\d+)"),
     lambda m: say("editor.why.fewer", steps=m.group(1), min=m.group(2))),
    (re.compile(r"(\d+) steps, more than (\d+)"),
     lambda m: say("editor.why.more", steps=m.group(1), max=m.group(2))),
    (re.compile(r"dead start state"), lambda m: say("editor.why.dead-start")),
    (re.compile(r"a body can reach no hole of its color"), lambda m: say("editor.why.no-hole")),
    (re.compile(r"bodies\[(\d+)\] stays frozen: only (\d+) other layers"),
     lambda m: say("editor.why.stays-frozen", body=_n(m, 1) + 1, have=m.group(2))),
    (re.compile(r"holes\[(\d+)\] stays frozen: the level has (\d+) layers"),
     lambda m: say("editor.why.hole-stays-frozen", hole=_n(m, 1) + 1, have=m.group(2))),
    (re.compile(r"bodies\[(\d+)\]: its lock waits on its own key chain"),
     lambda m: say("editor.why.own-key-chain", body=_n(m, 1) + 1)),
    (re.compile(r"color (\d+): (\d+) layer\(s\) but (\d+) hole\(s\)"),
     lambda m: say("editor.why.balance", color=colour_name(m.group(1)), layers=m.group(2),
                   holes=m.group(3))),
    (re.compile(r"floor region (\d+) \(from \[(\d+), (\d+)\]\), color (\d+): "
                r"(\d+) layer\(s\) but (\d+) hole\(s\)"),
     lambda m: say("editor.why.region-balance", region=m.group(1),
                   cell=say("words.cell", column=_n(m, 2) + 1, row=_n(m, 3) + 1),
                   color=colour_name(m.group(4)), layers=m.group(5), holes=m.group(6))),
]
_SUPPLY = "supply_demand: "
_DROPPED = re.compile(r"level (\d+): certificate dropped \((.*)\); verify it again", re.DOTALL)


def _known(text: str) -> str | None:
    for pattern, words in _REASONS:
        match = pattern.fullmatch(text.strip())
        if match:
            return words(match)
    return None


def _pieces(text: str) -> str:
    """``text`` as a whole sentence known here, else as its "; "-separated pieces."""
    whole = _known(text)
    if whole is not None:
        return whole
    said = []
    for piece in text.split("; "):
        known = _known(piece)
        if known is None:
            known = plain(piece) if language() == DEFAULT else say("editor.why.other")
        said.append(known)
    return say("editor.why.separator").join(said)


def reason_words(reason: str) -> str:
    """An engine's ``reason`` (a certificate's, or the search's) in the call's language; ""
    stays ""."""
    if not reason:
        return ""
    if reason.startswith(_SUPPLY):
        return say("editor.supply-demand", detail=_pieces(reason[len(_SUPPLY):]))
    return _pieces(reason)


def note_words(note: str) -> str:
    """A note of :func:`gridforge.snakes.editor.editing.read_import` in the call's language."""
    match = _DROPPED.fullmatch(note)
    if not match:
        return plain(note) if language() == DEFAULT else say("editor.why.other")
    return say("editor.import.dropped", level=match.group(1), why=reason_words(match.group(2)))
