"""The design request's ``interlock`` field (issue 50): levels on one board whose bodies need
each other, built by :mod:`~gridforge.snakes.design.interlock`'s climb instead of the
designer's candidate pipeline.

``{"interlock": {"bodies": 4, "joint": 8, "beyond": 2, "chain": 2}}`` asks every level for
``bodies`` short straight bodies on one seed template (spec 6b; ``mixed``: a connected
template chosen per level from the seed) with at least ``joint`` joint steps (spec 5c),
``beyond`` beyond-pairs steps and a must-move chain of ``chain`` (spec 5d), its minimum
proven; its joint steps stay near the depth asked (at most the main line's ceiling,
:func:`~gridforge.snakes.design.board_line.most_joint`: joint + 3 + joint / 2). A request
with an interlock field may leave out its ``target``: it then asks no score (the whole
scale, :data:`ANY_SCORE`).

This module reads the field and checks, at once and with field paths, the rest of the
request against what the construction can honour: the template (``split`` is two regions,
never one board), fixed sizes and total body cells (the template's recommended sizes and the
template's body lengths decide them), mechanics and terrain (at most one piece a level: one
frozen body, frozen hole, silver lock or painted cell, placed where it costs steps; no
coats, gold locks or bridges), colours (one outer colour a body), and the budgets the
construction counts (``candidates``: layouts a level may measure; ``exact_states``: the
states of each exact search; ``level_seconds``: the safety net). Everything else of the
request is honoured by the builder (:mod:`~gridforge.snakes.design.interlock_batch`): the
score's target and tolerance, the step range, the palette, the body lengths, ``make_way``,
``binding``, ``proven``, ``portrait`` and ``interaction.min``.

Public names: :class:`Interlock`, :func:`parse_interlock`, :func:`check_interlock`,
:func:`templates_for`, :func:`lengths_for`, :func:`piece_of`, :data:`INTERLOCK_BUDGETS`,
:data:`ANY_SCORE`, :data:`PIECES`.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridforge.errors import Issues, is_int
from gridforge.jsontypes import JsonObject
from gridforge.snakes.design.interlock import LENGTHS
from gridforge.snakes.design.templates import TEMPLATES

__all__ = ["ANY_SCORE", "INTERLOCK_BUDGETS", "INTERLOCK_KEYS", "PIECES", "Interlock",
           "check_interlock", "lengths_for", "parse_interlock", "piece_of", "templates_for"]

INTERLOCK_KEYS = ("bodies", "joint", "beyond", "chain")
# Bounds of what one request may ask. Bodies: three make an interlock, six is the most the
# main line's crowded boards carry (a phone board of at most 10 x 16, occupancy at most
# 0.55). Joint steps: the main line's top (16, a wave's last levels 18) is what the climb met
# on comb, winding and island with six bodies (docs/snakes-interlock.md); beyond-pairs steps
# are joint steps no pair explains, and a chain of three is the longest the line asks.
BODIES = (3, 6)
MOST_JOINT = 18
MOST_BEYOND = 8
MOST_CHAIN = 3
DEFAULTS: dict[str, int] = {"bodies": 3, "joint": 4, "beyond": 1, "chain": 1}
# The budgets the construction counts, and their defaults when the request gives none: three
# climbs of 600 layouts a level, each layout proven within 40,000 stored states (the main
# line's own). The other budgets belong to the candidate pipeline and are refused.
INTERLOCK_BUDGETS: dict[str, float] = {"candidates": 1800, "exact_states": 40_000,
                                       "level_seconds": 300.0}
# A request without a target asks no score: the whole 0..100 scale (target 50, tolerance 50).
ANY_SCORE = (50.0, 50.0)
# Fields of a request that put mechanics or terrain on a level. An idea is built without
# them; then one piece of these may be placed where it costs steps (costs.PIECES, in order)...
PIECES = ("frozen", "frozen_holes", "locks", "paths")
# ... and none of these, each for its reason.
NO_PIECES = {
    "coats": "a coat would change the colours the idea was measured with",
    "gold": "a gold lock needs two key bodies besides the locked one",
    # Measured (bench/interlock_requests.py --bridges, docs/snakes-designer.md): on 17 ideas
    # of 3 bodies on comb, winding, island, cross, twin and courtyard boards (and 8 more comb
    # ideas at joint 6) no bridge placement saved two steps.
    "bridges": "no bridge saves two steps where short straight bodies interlock (none on "
               "25 ideas measured), so it would bind nothing",
}


@dataclass(frozen=True)
class Interlock:
    """What every level of an interlock request must reach (see the module's docstring)."""

    bodies: int = DEFAULTS["bodies"]
    joint: int = DEFAULTS["joint"]
    beyond: int = DEFAULTS["beyond"]
    chain: int = DEFAULTS["chain"]

    def to_json(self) -> JsonObject:
        """The field as a request file writes it, every key given, key order fixed."""
        return {"bodies": self.bodies, "joint": self.joint, "beyond": self.beyond,
                "chain": self.chain}


def parse_interlock(bad: Issues, data: JsonObject) -> Interlock | None:
    """The request's ``interlock`` field (None when absent); its problems added to ``bad``
    with their paths (``interlock.joint``), the default read in place of a bad value."""
    raw = data.get("interlock")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        bad.add("interlock", "type", "interlock must be an object such as "
                                     '{"bodies": 3, "joint": 4, "beyond": 1, "chain": 1}')
        return Interlock()
    bad.unknown_keys(raw, INTERLOCK_KEYS, "interlock")
    most = {"bodies": BODIES[1], "joint": MOST_JOINT, "beyond": MOST_BEYOND,
            "chain": MOST_CHAIN}
    got: dict[str, int] = {}
    for key in INTERLOCK_KEYS:
        value = raw.get(key, DEFAULTS[key])
        lo = BODIES[0] if key == "bodies" else 0
        if is_int(value) and lo <= value <= most[key]:
            got[key] = value
            continue
        code, wanted = (("range", f"in {lo}..{most[key]}") if is_int(value)
                        else ("type", "an integer"))
        bad.add(f"interlock.{key}", code, f"interlock.{key} must be {wanted}, got {value!r}")
        got[key] = DEFAULTS[key]
    ask = Interlock(**got)
    if ask.chain > ask.bodies - 1:
        bad.add("interlock.chain", "range", f"a must-move chain of {ask.chain} needs "
                                            f"{ask.chain + 1} bodies; interlock.bodies is "
                                            f"{ask.bodies}")
    return ask


def templates_for(topology: str) -> tuple[str, ...]:
    """The connected seed templates a topology allows (``mixed``: all of them; ``split``:
    none, it is two regions)."""
    connected = tuple(t for t in TEMPLATES if t in LENGTHS)
    return connected if topology == "mixed" else tuple(t for t in connected if t == topology)


def lengths_for(template: str, min_length: int, max_length: int) -> tuple[int, ...]:
    """The body lengths an idea on ``template`` draws from, within the request's bounds."""
    return tuple(n for n in LENGTHS[template] if min_length <= n <= max_length)


@dataclass(frozen=True)
class Asked:
    """The parsed request fields that :func:`check_interlock` judges (None: not given)."""

    topology: str
    cols: int | None
    rows: int | None
    cells: int | None
    bodies: int | None
    total: int | None
    min_length: int
    max_length: int
    colors: int | None
    palette: int  # colours in the palette
    pieces: dict[str, int | str | None]


def check_interlock(bad: Issues, ask: Interlock, asked: Asked, budgets: JsonObject) -> None:
    """Refuse, naming each field, what an interlock request cannot honour (see the
    module's docstring); ``budgets`` is the request's raw ``budgets`` object."""
    if not templates_for(asked.topology):
        bad.add("topology", "interlock", f"interlock builds one board: topology must be a "
                                         f"connected template or mixed, got {asked.topology!r}")
    for path, value in (("size.cols", asked.cols), ("size.rows", asked.rows),
                        ("size.cells", asked.cells)):
        if value is not None:
            bad.add(path, "interlock", "an interlock board takes its size from the template "
                                       "and the bodies (at most 10 x 16): give no size")
    if asked.bodies is not None and asked.bodies != ask.bodies:
        bad.add("bodies.count", "interlock", f"with interlock the body count is "
                                             f"interlock.bodies ({ask.bodies}), not "
                                             f"{asked.bodies}")
    if asked.total is not None:
        bad.add("bodies.total", "interlock", "interlock bodies take the template's lengths "
                                             "(2-4 cells): give no total")
    templates = templates_for(asked.topology) or templates_for("mixed")
    if not any(lengths_for(t, asked.min_length, asked.max_length) for t in templates):
        offered = sorted({n for t in templates for n in LENGTHS[t]})
        bad.add("bodies.max_length" if asked.max_length < min(offered) else "bodies.min_length",
                "interlock", f"interlock bodies on {' or '.join(templates)} have "
                             f"{', '.join(map(str, offered))} cells; bodies.min_length "
                             f"{asked.min_length} and max_length {asked.max_length} allow none")
    if asked.colors is not None and asked.colors != ask.bodies:
        bad.add("colors", "interlock", f"an interlock level gives each of its {ask.bodies} "
                                       f"bodies its own colour: colors must be {ask.bodies}")
    if asked.palette < ask.bodies:
        bad.add("palette", "too_few", f"{ask.bodies} bodies need {ask.bodies} colours, the "
                                      f"palette holds {asked.palette}")
    _check_pieces(bad, asked.pieces)
    for key in sorted(budgets):
        if key not in INTERLOCK_BUDGETS:
            bad.add(f"budgets.{key}", "interlock",
                    f"interlock counts only {', '.join(INTERLOCK_BUDGETS)}: give no {key}")


def _check_pieces(bad: Issues, pieces: dict[str, int | str | None]) -> None:
    """At most one of :data:`PIECES`, and that one once; none of :data:`NO_PIECES`."""
    for name, why in NO_PIECES.items():
        if pieces.get(name) not in (None, 0):
            bad.add(name, "interlock", f"an interlock level takes no {name} ({why}): {name} "
                                       f"must be 0 or absent, got {pieces.get(name)!r}")
    first: str | None = None
    for name in PIECES:
        count = pieces.get(name)
        if count in (None, 0):
            continue
        if count != 1:
            bad.add(name, "interlock", f"an interlock level carries at most one piece, placed "
                                       f"where it costs steps: {name} must be 0 or 1, got "
                                       f"{count!r}")
        elif first is not None:
            bad.add(name, "interlock", f"an interlock level carries at most one piece: "
                                       f"{first} is 1 already")
        first = first or name


def piece_of(pieces: dict[str, int | str | None]) -> str | None:
    """The one piece a checked interlock request asks on every level (None: none)."""
    return next((name for name in PIECES if pieces.get(name) == 1), None)
