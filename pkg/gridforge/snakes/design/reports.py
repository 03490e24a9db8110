"""The designer's reports as typed data: what a designed batch, a main-line build and its
band report hold (the JSON they are written as, field for field). A leaf of the designer:
the modules that make these and the console that prints them import it, it imports none of
them.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from gridforge.jsontypes import JsonObject
from gridforge.snakes.game.certfile import Certificate
from gridforge.snakes.game.levelfile import LevelJson
from gridforge.snakes.game.mainline import ProgressFile


class IdeaFigures(TypedDict):
    """An interlock level's idea as the designer measured it (spec 5c, 5d): its proven
    minimum, pair split bound, beyond-pairs steps, joint steps and longest must-move chain."""

    minimum: int
    pair_split: int
    beyond_pairs: int
    joint: int
    chain: int


class LevelReport(TypedDict):
    """What one designed level took (a batch report's ``levels``); an interlock level's
    ``candidates`` are the layouts its climbs drew."""

    candidates: int
    score: float
    steps: int
    optimal: bool
    lower_bound: int
    template: str
    interlock: NotRequired[IdeaFigures]


class Shortfall(TypedDict):
    """Why a batch has fewer levels than asked."""

    level: int
    candidates: int
    stopped_by: str
    reasons: dict[str, int]
    lowest_score: float | None
    highest_score: float | None


class BatchReport(TypedDict):
    """A designed batch's ``report``: levels made and asked, what each took, why the
    other candidates were dropped."""

    made: int
    asked: int
    levels: list[LevelReport]
    rejected: dict[str, int]
    scored: int
    shortfall: NotRequired[Shortfall]


class DesignedBatch(TypedDict):
    """A batch file as the designer writes it (``gridforge.snakes.batch/1``)."""

    format: str
    request: JsonObject
    levels: list[LevelJson]
    certificates: list[Certificate]
    report: BatchReport


class BandReading(TypedDict):
    """How a band's levels read (spec 5c): medians (None where no level reports one) and the
    share of folded bodies."""

    floor: float | None
    bodies: float | None
    median_length: float | None
    folded: float
    occupancy: float | None
    steps: float | None
    drags: float | None
    joint: float | None
    steering: float | None


class BandBoard(TypedDict):
    """How a band's boards read (spec 5d): medians (None where no level reports one; the
    beyond-pairs steps, chain, main region's joint steps and piece costs come from the
    certificates that carry them) and two shares."""

    floor_regions: float | None
    stone_share: float | None
    low_stone: float  # levels whose stone share is at most 0.40
    main_bodies: float | None
    new_layouts: float  # levels whose main region's stretch type no earlier level had
    beyond_pairs: float | None
    chain: float | None
    main_joint: float | None
    piece_cost: float | None  # over every piece of the band's levels


class Band(BandReading, BandBoard):
    """One row of the band report (:func:`band_report`)."""

    levels: list[int]  # [first, last]
    built: int
    proven: float
    mean_gap: float
    median_score: float
    top_template_share: float
    fallbacks: int
    body_counts: list[int]
    mean_interaction: float | None
    median_interaction: float | None
    make_way: float
    mechanic_free: float
    all_mechanics: float
    mechanics: dict[str, float]
    ceilings: dict[str, float]


class BuildState(ProgressFile):
    """What :func:`build_mainline` returns: the progress written, and what the run found."""

    notes: list[str]
    warnings: list[str]
    built: int
    cpu_seconds: float  # the CPU time of the levels this run designed, in all its processes
    bands: list[Band]
