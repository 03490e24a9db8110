"""Full certificates: the game's certificate plus the designer's seven-term score.

The game (:mod:`gridforge.snakes.solver.certificate`) searches, replays and judges steps, bounds and
status; the score is the designer's (:mod:`gridforge.snakes.design.score`). This module joins
the two: every certificate a user sees or hands in goes through it, so the score a certificate
states is computed here and a claimed one is recomputed and compared, term by term.

- :func:`certify`: a level's full certificate (the same bytes as before the split).
- :func:`recheck` / :func:`check`: every claim of a certificate judged against its level (see
  :func:`gridforge.snakes.solver.recheck.recheck`), the score included.
- :func:`check_file_certificates`: the certificates a file carries (a batch's
  ``certificates`` or an exported ``{"level", "certificate"}``), refused with field paths.
- (the export of a certified level is the page's `export`, over :func:`proven`).
- :func:`check_shipped_certificates`: the ``check-designer`` check of the package's data.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from gridforge.errors import (
    GridforgeError,
    Issues,
    ValidationError,
    field_path,
    parse_json,
    refusal,
)
from gridforge.jsontypes import Json
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes.design.score import score_level
from gridforge.snakes.game.certfile import BATCH_FORMAT, Batch, Certificate, Score
from gridforge.snakes.game.level import Level, level_from_json
from gridforge.snakes.game.levelfile import Step
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver import certificate as game_certificate
from gridforge.snakes.solver.certificate import CHECK_SECONDS, CHECK_STATES
from gridforge.snakes.solver.recheck import Recheck
from gridforge.snakes.solver.recheck import recheck as game_recheck
from gridforge.snakes.solver.selfcheck import SelfCheck

# The largest data file check-designer reads from the package (a block of main-line levels).
MAX_DATA_BYTES = 8 * 1024 * 1024


def score(level: Level, solution: list[Step], game: Game) -> Score:
    """The certificate's ``score`` object: the seven terms with their diagnostics."""
    return score_level(level, solution, game=game)


def certify(level: Level | Json, **options: Any) -> Certificate:
    """The full certificate of ``level`` (the options of
    :func:`gridforge.snakes.solver.certificate.certify`; the score is filled in here)."""
    return game_certificate.certify(level, scorer=score, **options)


def certify_file_data(data: Json, *, progress: Progress = NO_PROGRESS,
                      **budgets: Any) -> Batch | Certificate:
    """Full certificates of a level file's, a certified level's or a batch file's data,
    each starting from the solution the file carries for its level (see
    :func:`gridforge.snakes.solver.certificate.certify_file_data`)."""
    return game_certificate.certify_file_data(data, progress=progress, scorer=score, **budgets)


def recheck(level: Level | Json, cert: Json, *, max_states: int = CHECK_STATES,
            max_seconds: float = CHECK_SECONDS, base: str = "") -> Recheck:
    """Every claim of ``cert`` judged against ``level``, the score recomputed."""
    return game_recheck(level, cert, scorer=score, max_states=max_states,
                        max_seconds=max_seconds, base=base)


def check(level: Level | Json, cert: Json, **options: Any) -> list[str]:
    """The problems of ``cert`` for ``level``, one line each naming the claim."""
    return [str(issue) for issue in recheck(level, cert, **options).issues]


def is_certified_level(data: Any) -> bool:
    """Whether ``data`` is an exported certified level (``{"level", "certificate"}``)."""
    return isinstance(data, dict) and set(data) == {"level", "certificate"}


def check_file_certificates(data: Any, *, progress: Progress = NO_PROGRESS) -> int:
    """Recheck the certificates a file carries: a batch's ``certificates`` beside its
    ``levels``, or an exported level's ``certificate``. Returns how many were checked.

    :raises ValidationError: naming every claim that does not hold, with its field path
        (``certificates[2].lower_bound``); nothing is written by the caller then.
    """
    pairs: list[tuple[Any, Any, str, str]] = []
    if is_certified_level(data):
        pairs.append((data["level"], data["certificate"], "level", "certificate"))
    elif isinstance(data, dict) and data.get("format") == BATCH_FORMAT and "certificates" in data:
        levels, certs = data.get("levels"), data["certificates"]
        if not isinstance(certs, list) or not isinstance(levels, list) or len(certs) != len(levels):
            raise refusal("batch", "certificates", "type",
                          "a batch's certificates are a list, one per level")
        pairs += [(lv, ct, field_path("levels", i), field_path("certificates", i))
                  for i, (lv, ct) in enumerate(zip(levels, certs, strict=True))]
    issues = Issues()
    for k, (raw, cert, level_path, cert_path) in enumerate(pairs):
        progress.step(k, len(pairs), "checking certificates")
        try:
            level = level_from_json(raw, balanced=False)
        except ValidationError as exc:
            issues.under(level_path, exc.issues)
            continue
        issues += recheck(level, cert, base=cert_path).issues
    if issues:
        raise ValidationError(issues, "certificate")
    return len(pairs)


def proven(level: Level | Json, certificate: Json) -> Certificate:
    """The certificate that the recheck of a ``verified`` ``certificate`` establishes for
    ``level`` (replayed, re-proved, rescored), never the one handed in.

    :raises GridforgeError: when the certificate is not ``verified`` (verify first).
    :raises ValidationError: when the level is invalid or a claim of the certificate does
        not hold for it (an edited level, a forged claim), naming the claim.
    """
    parsed = level if isinstance(level, Level) else level_from_json(level)
    if not isinstance(certificate, dict) or certificate.get("status") != "verified":
        raise GridforgeError("only a verified level can be exported: verify it first")
    found = recheck(parsed, certificate, base="certificate")
    if found.issues or found.certificate is None:
        raise ValidationError(found.issues, "certificate (it does not hold for this level)")
    return found.certificate


def _data_files(root: Traversable) -> list[Traversable]:
    if not root.is_dir():
        return []
    return sorted((f for f in root.iterdir() if f.name.endswith(".json")), key=lambda f: f.name)


def shipped_data() -> Traversable:
    """The package's ``snakes/data`` folder: samples and the main line's blocks."""
    return resources.files("gridforge.snakes").joinpath("data")


def check_shipped_certificates(progress: Progress = NO_PROGRESS, *,
                               root: Traversable | None = None) -> SelfCheck:
    """Recheck every certificate in the package's ``snakes/data`` batch files (or ``root``):
    each claim, the score included; a failure names the file, the level and the claim."""
    if root is None:
        root = shipped_data()
    failures: list[str] = []
    checked = 0
    for f in _data_files(root):
        data: Any = None
        try:
            data = parse_json(f.read_bytes(), f.name, max_bytes=MAX_DATA_BYTES)
            if isinstance(data, dict) and "certificates" in data:
                checked += check_file_certificates(data, progress=progress)
        except ValidationError as exc:
            failures += [f"{f.name} {issue}" for issue in exc.issues]
            if isinstance(data, dict) and isinstance(data.get("certificates"), list):
                checked += len(data["certificates"])
    return SelfCheck("shipped_certificates", {"certificates": checked}, failures)


__all__ = ["certify", "certify_file_data", "check", "check_file_certificates",
           "check_shipped_certificates", "is_certified_level", "recheck", "score",
           "shipped_data"]
