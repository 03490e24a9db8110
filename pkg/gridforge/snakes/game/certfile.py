"""The certificate and batch files' JSON types (spec sections 5 and 7): what a certificate
says of a level, as written, and a batch of levels with one certificate each.

The solver writes and rechecks certificates (:mod:`gridforge.snakes.solver.certificate`);
the game reads them beside the levels they certify (the shipped main line,
:mod:`gridforge.snakes.game.mainline`), so their types live here, with the level's.
Types and format names only: nothing here computes or checks a certificate;
:func:`certificate_of` types one that a check has accepted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict, cast, final

from gridforge.jsontypes import JsonObject
from gridforge.snakes.game.levelfile import LevelJson, Step

__all__ = ["BATCH_FORMAT", "CERT_FORMAT", "STATUSES", "Batch", "CertReading", "Certificate",
           "MainRegionReading", "Score", "Witness", "certificate_of"]

CERT_FORMAT = "gridforge.snakes.certificate/1"
BATCH_FORMAT = "gridforge.snakes.batch/1"
STATUSES = ("verified", "unsolvable", "undetermined", "out_of_range")


class Score(TypedDict):
    """The seven-term score of a solved level (the designer's, see :data:`Scorer`)."""

    total: float
    contributions: dict[str, float]
    normalised: dict[str, float]
    weights: dict[str, float]
    diagnostics: Mapping[str, object]  # the designer's figures (informational)


class Witness(TypedDict):
    """A solution of the level with one mechanic removed that the real rules refuse."""

    mechanic: str  # "bodies[i].frozen" | "holes[j].frozen" | "bodies[i].lock"
    solution: list[Step]


class MainRegionReading(TypedDict):
    """Spec 5d's figures of a level's main region (the floor region holding the most bodies),
    its mechanics lifted, as the designer measured them."""

    beyond_pairs: int  # the region's minimum - its pair split bound
    chain: int  # the longest must-move chain (k bodies: k - 1)
    joint: int  # the region's joint steps (minimum, or unproven lower bound, - body bound)
    bodies: int  # how many bodies the region holds


class CertReading(TypedDict):
    """The figures of spec section 5c a solved certificate carries (its ``reading``), and,
    optionally, spec 5d's: the main region's and each mechanic's or terrain piece's cost."""

    solo_costs: list[int]  # one per body, in the level's order
    travel_bound: int
    body_bound: int  # max(travel_bound, sum of solo_costs)
    joint_steps: int  # minimum (or, unproven, lower_bound) - body_bound; may be < 0 unproven
    steering_steps: int  # body_bound - travel_bound
    drags: int  # of the certificate's solution
    main_region: NotRequired[MainRegionReading]
    # A piece's cost (minimum with it - minimum with it lifted or removed), by the field that
    # holds it: "bodies[i].frozen", "holes[j].frozen", "bodies[i].lock", "paths[k]",
    # "bridges[k]" (a bridge's may be negative: it lets bodies cross).
    piece_cost: NotRequired[dict[str, int]]


@final  # no key of a Batch: `"certificates" in` tells the two apart
class Certificate(TypedDict):
    """A certificate as written (the file's field order: the same bytes)."""

    format: str
    level_sha256: str
    status: str  # one of STATUSES
    reason: str
    solution: list[Step] | None
    steps: int | None
    optimal: bool
    minimum: int | None
    lower_bound: int | None
    upper_bound: int | None
    score: Score | None
    request: JsonObject | None
    budgets: dict[str, float]
    search: dict[str, int | str] | None  # the searches' work, informational
    version: str
    reading: NotRequired[CertReading]  # solved certificates, when every solo search fit
    witnesses: NotRequired[list[Witness]]
    prediction: NotRequired[Mapping[str, object]]  # the designer's, informational


@final
class Batch(TypedDict):
    """A batch file: the request, its levels and one certificate per level."""

    format: str
    request: JsonObject | None
    levels: list[LevelJson]
    certificates: list[Certificate]
    report: NotRequired[JsonObject]


def certificate_of(data: object) -> Certificate:
    """``data`` as a :class:`Certificate`, once a check has accepted it (the recheck, or a
    block's SHA-256 and record): the one place where JSON read from outside becomes a typed
    certificate, as :func:`~gridforge.snakes.game.levelfile.accepted` is for levels."""
    return cast(Certificate, data)
