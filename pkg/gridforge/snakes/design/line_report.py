"""The main line's band table: what the band report reads of one level (:class:`Row`, its
:class:`Shape` and :class:`Board`, the mechanics it uses) and the table of bands built from
those rows (:func:`band_table`; spec 5c's reading in :func:`reading_columns`, spec 5d's board
in :func:`board_columns`).

Works on parsed level and certificate JSON only: reading block files and folders is
:mod:`~gridforge.snakes.design.blocks`' part. Imports the curriculum (which levels are asked
to make way), the engine's reading of a body, the game's floor regions and the stretch type.
The board's figures from the level alone (regions, stone share, main region's bodies and
stretch type) are cheap; those of exact searches (beyond-pairs steps, must-move chain, main
region's joint steps, piece costs) are read from the certificate's ``reading`` when the
designer wrote them, else None (shown "-").
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass

from gridforge.errors import is_int
from gridforge.snakes.design.line_plan import makes_way
from gridforge.snakes.design.reports import Band, BandBoard, BandReading
from gridforge.snakes.design.stretch import StretchType, main_stretch
from gridforge.snakes.game.levelfile import LevelJson, accepted
from gridforge.snakes.game.regions import floor_map
from gridforge.snakes.solver.legibility import is_folded

__all__ = ["LOW_STONE_SHARE", "MECHANICS", "Board", "Row", "Shape", "band_table",
           "board_columns", "level_board", "level_row", "uses_mechanics"]

LOW_STONE_SHARE = 0.40  # issue 50: at least 90% of the levels from 101 at most this stony

@dataclass(frozen=True)
class Row:
    """What the band report needs of one level."""

    score: float
    optimal: bool
    gap: int
    template: str
    fallback: bool
    bodies: int
    # Steps beyond the travel bound (the certificate's diagnostics); None on a level built by
    # the designer before issue 18 (a folder of an older build), which did not report them.
    interaction: int | None
    mechanics: frozenset[str]  # of MECHANICS, those the level uses
    make_way: bool  # asked of the designer: never solved one body at a time
    ceilings: frozenset[str]  # the score terms at their ceiling
    shape: Shape
    board: Board


@dataclass(frozen=True)
class Board:
    """How a level's floor reads (spec 5d): its floor regions, stone share, the main region's
    bodies and stretch type; and, from the certificate's ``reading`` when it carries them
    (None otherwise), the main region's beyond-pairs steps, longest must-move chain and joint
    steps, and each piece's cost."""

    regions: int
    stone_share: float
    main_bodies: int
    layout: StretchType  # the main region's
    beyond: int | None
    chain: int | None
    main_joint: int | None
    piece_costs: tuple[int, ...] | None


@dataclass(frozen=True)
class Shape:
    """How a level reads (spec 5c): floor cells, body lengths and folded bodies, occupancy,
    and the certificate's steps, drags, joint and steering steps (None for a certificate
    without a reading, written before issue 41)."""

    floor: int
    lengths: tuple[int, ...]
    folded: int
    occupancy: float
    steps: int
    drags: int | None
    joint: int | None
    steering: int | None


def _shape(level: LevelJson, cert: Mapping[str, object], steps: int) -> Shape:
    """The :class:`Shape` of a level read from its JSON (checked by the caller; a field of
    the wrong kind raises KeyError, TypeError or ValueError)."""
    cells = [[(int(c[0]), int(c[1])) for c in b["cells"]] for b in level["bodies"]]
    holes = len(level.get("holes", []))
    floor = int(level["cols"]) * int(level["rows"]) - len(level.get("stones", []))
    read = cert.get("reading")
    figures = read if isinstance(read, dict) else {}

    def figure(name: str) -> int | None:
        value = figures.get(name)
        return value if is_int(value) else None

    return Shape(floor, tuple(len(c) for c in cells),
                  sum(is_folded(c) for c in cells),
                  (sum(len(c) for c in cells) + holes) / floor if floor else 0.0, steps,
                  figure("drags"), figure("joint_steps"), figure("steering_steps"))


def level_board(level: LevelJson, cert: Mapping[str, object]) -> Board:
    """The :class:`Board` of a level read from its JSON (checked by the caller; a field of the
    wrong kind raises KeyError, TypeError, IndexError or ValueError)."""
    where = floor_map(level)
    read = cert.get("reading")
    main = read.get("main_region") if isinstance(read, dict) else None
    main = main if isinstance(main, dict) else {}
    costs = read.get("piece_cost") if isinstance(read, dict) else None

    def figure(name: str) -> int | None:
        value = main.get(name)
        return value if is_int(value) else None

    return Board(where.count, where.stone_share, where.main_bodies,
                 main_stretch(level, where=where), figure("beyond_pairs"), figure("chain"),
                 figure("joint"),
                 tuple(v for v in costs.values() if is_int(v)) if isinstance(costs, dict)
                 else None)


# The taught mechanics and terrain, as the band report counts them (a coat counts where it
# shows: its colour differs from the layer under it; a gold lock is also a lock).
MECHANICS = ("coats", "frozen", "frozen_holes", "locks", "gold", "paths", "bridges")


def uses_mechanics(level: LevelJson) -> frozenset[str]:
    """Which of :data:`MECHANICS` a level (its JSON) uses."""
    bodies, holes = level.get("bodies", []), level.get("holes", [])
    used = set()
    if any(len(b["colors"]) > 1 and b["colors"][0] != b["colors"][1] for b in bodies):
        used.add("coats")
    if any(b.get("frozen") for b in bodies):
        used.add("frozen")
    if any(h.get("frozen") for h in holes):
        used.add("frozen_holes")
    if any("lock" in b for b in bodies):
        used.add("locks")
    if any(b.get("lock", {}).get("kind") == "gold" for b in bodies):
        used.add("gold")
    used |= {name for name in ("paths", "bridges") if level.get(name)}
    return frozenset(used)


def level_row(n: int, level: object, cert: object) -> Row:
    """The band report's row of main-line level ``n``; a ValueError says what is wrong."""
    if not isinstance(level, dict) or not isinstance(cert, dict):
        raise ValueError(f"level {n}: a level and its certificate are objects")
    meta, score = level.get("meta"), cert.get("score")
    if not isinstance(meta, dict) or meta.get("level") != n or not isinstance(
            meta.get("template"), str):
        raise ValueError(f"level {n}: meta must name level {n} and its template")
    total = score.get("total") if isinstance(score, dict) else None
    if isinstance(total, bool) or not isinstance(total, int | float):
        raise ValueError(f"level {n}: certificate score.total must be a number")
    steps, bound = cert.get("steps"), cert.get("lower_bound")
    if not (is_int(steps) and is_int(bound) and isinstance(cert.get("optimal"), bool)):
        raise ValueError(f"level {n}: certificate steps, lower_bound and optimal are missing")
    bodies = level.get("bodies")
    if not isinstance(bodies, list):
        raise ValueError(f"level {n}: bodies must be a list")
    diagnostics = score.get("diagnostics") if isinstance(score, dict) else None
    normalised = score.get("normalised") if isinstance(score, dict) else None
    interaction = diagnostics.get("interaction_steps") if isinstance(diagnostics, dict) else None
    if not (interaction is None or is_int(interaction)) or not isinstance(normalised, dict):
        raise ValueError(f"level {n}: certificate score.diagnostics.interaction_steps must be "
                         "an integer and score.normalised an object")
    try:
        used = uses_mechanics(accepted(level))
    except (KeyError, TypeError, IndexError, AttributeError):
        raise ValueError(f"level {n}: bodies and holes must be objects with colours") from None
    ceilings = frozenset(k for k, v in normalised.items() if v == 1)
    try:
        shape = _shape(accepted(level), cert, steps)
        board = level_board(accepted(level), cert)
    except (KeyError, TypeError, ValueError, IndexError):
        raise ValueError(f"level {n}: cols, rows, stones and body cells must be "
                         "numbers and lists of cells on the board") from None
    return Row(float(total), cert["optimal"], steps - bound, meta["template"],
                "fallback" in meta, len(bodies), interaction, used,
                makes_way(n) and interaction is not None, ceilings, shape, board)


def band_table(blocks: dict[int, list[Row]], band: int) -> list[Band]:
    """The band rows of :func:`~gridforge.snakes.design.blocks.band_report` from the rows of
    block files (by first level)."""
    rows: dict[int, list[Row]] = {}
    for first in sorted(blocks):
        for i, row in enumerate(blocks[first]):
            rows.setdefault((first + i - 1) // band, []).append(row)
    out: list[Band] = []
    seen: set[StretchType] = set()  # the main regions' stretch types of the levels before
    for b in sorted(rows):
        pairs = rows[b]
        scores = sorted(r.score for r in pairs)
        mid = len(scores) // 2
        median = scores[mid] if len(scores) % 2 else (scores[mid - 1] + scores[mid]) / 2
        templates = [r.template for r in pairs]
        measured = [r.interaction for r in pairs if r.interaction is not None]
        out.append({
            "levels": [b * band + 1, b * band + band], "built": len(pairs),
            "proven": round(sum(1 for r in pairs if r.optimal) / len(pairs), 3),
            "mean_gap": round(sum(r.gap for r in pairs) / len(pairs), 2),
            "median_score": round(median, 2),
            "top_template_share": round(max(templates.count(t) for t in set(templates))
                                        / len(pairs), 3),
            "fallbacks": sum(1 for r in pairs if r.fallback),
            "body_counts": sorted({r.bodies for r in pairs}),
            "mean_interaction": (round(sum(measured) / len(measured), 2) if measured
                                 else None),
            "median_interaction": statistics.median(measured) if measured else None,
            # Decided exactly by the designer for every level it asks it of.
            "make_way": round(sum(1 for r in pairs if r.make_way) / len(pairs), 3),
            "mechanic_free": round(sum(1 for r in pairs if not r.mechanics) / len(pairs), 3),
            "all_mechanics": round(sum(1 for r in pairs if len(r.mechanics) == len(MECHANICS))
                                   / len(pairs), 3),
            "mechanics": {m: round(sum(1 for r in pairs if m in r.mechanics) / len(pairs), 3)
                          for m in MECHANICS},
            # The share of levels with each score term at its ceiling.
            "ceilings": {t: round(sum(1 for r in pairs if t in r.ceilings) / len(pairs), 3)
                         for t in sorted(set().union(*(r.ceilings for r in pairs)))},
            **reading_columns([r.shape for r in pairs]),
            **board_columns([r.board for r in pairs], seen),
        })
    return out


def _median(values: list[int | None] | list[int] | list[float]) -> float | None:
    known = [v for v in values if v is not None]
    return round(float(statistics.median(known)), 3) if known else None


def board_columns(boards: list[Board], seen: set[StretchType]) -> BandBoard:
    """The band's board (spec 5d), its levels in order: medians of floor regions, stone
    share, the main region's bodies, beyond-pairs steps, must-move chain and joint steps,
    and of the pieces' costs (None where no level reports one); the share of levels at most
    :data:`LOW_STONE_SHARE` stony, and of levels whose main region's stretch type no level
    before had (``seen``: the types of the levels before the band that the table reads, so a
    block left out of a report counts as never built; updated)."""
    new = 0
    for board in boards:
        new += board.layout not in seen
        seen.add(board.layout)
    count = max(1, len(boards))
    return {
        "floor_regions": _median([d.regions for d in boards]),
        "stone_share": _median([d.stone_share for d in boards]),
        "low_stone": round(sum(d.stone_share <= LOW_STONE_SHARE for d in boards) / count, 3),
        "main_bodies": _median([d.main_bodies for d in boards]),
        "new_layouts": round(new / count, 3),
        "beyond_pairs": _median([d.beyond for d in boards]),
        "chain": _median([d.chain for d in boards]),
        "main_joint": _median([d.main_joint for d in boards]),
        "piece_cost": _median([c for d in boards for c in d.piece_costs or ()]),
    }


def reading_columns(shapes: list[Shape]) -> BandReading:
    """The band's reading (spec 5c): medians of floor cells, bodies, body length, occupancy,
    steps, drags, joint and steering steps, and the share of folded bodies."""
    lengths = [n for s in shapes for n in s.lengths]
    return {
        "floor": _median([s.floor for s in shapes]),
        "bodies": _median([len(s.lengths) for s in shapes]),
        "median_length": _median(lengths),
        "folded": round(sum(s.folded for s in shapes) / len(lengths), 3) if lengths else 0.0,
        "occupancy": _median([s.occupancy for s in shapes]),
        "steps": _median([s.steps for s in shapes]),
        "drags": _median([s.drags for s in shapes]),
        "joint": _median([s.joint for s in shapes]),
        "steering": _median([s.steering for s in shapes]),
    }
