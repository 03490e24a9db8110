"""The page's contract for snakes: the functions the browser may call, JSON in, JSON out.

``gridforge.api.dispatch`` resolves only the names listed in ``__all__`` here (and in
:mod:`gridforge.mines.page` and :mod:`gridforge.api`); everything else in the package is
internal. A level in play lives in the worker, named by the id that :func:`open` or
:func:`resume` answers (see :mod:`gridforge.snakes.play`); :func:`act` plays in it and
:func:`close` forgets it: the same verbs as :mod:`gridforge.mines.page`. Long calls take
the dispatcher's progress sink as the keyword argument ``progress``; the page never passes
it.

This is the layer that joins the game and its designer: certificates the page sees carry
the designer's seven-term score (:mod:`gridforge.snakes.design.certify`), and every
certificate handed back (export) is rechecked claim by claim. The designer loads only in the
calls that need it (verify, export, the editor's and the designer's calls): play, lessons and
progress read the main line through the game (:mod:`gridforge.snakes.game.mainline`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict, TypeGuard

from gridforge.jsontypes import JsonObject
from gridforge.progress import NO_PROGRESS, Progress
from gridforge.snakes import play
from gridforge.snakes.editor import samples
from gridforge.snakes.game.answers import (
    Answer,
    DraftAnswer,
    HintAnswer,
    LessonAnswer,
    PositionAnswer,
    Reason,
    RulesAnswer,
    Validation,
)
from gridforge.snakes.game.certfile import Certificate
from gridforge.snakes.game.levelfile import LevelJson

if TYPE_CHECKING:  # these modules load only when a call needs them
    from gridforge.snakes.design.reports import DesignedBatch
    from gridforge.snakes.design.weights import Prediction
    from gridforge.snakes.editor.editing import ImportAnswer
    from gridforge.snakes.player.telemetry import Attempt
from gridforge.words import issue_words

__all__ = ["act", "close", "design_levels", "export", "facts", "hint", "lesson", "open",
           "position", "progress_after_win", "resume", "rules", "sample_levels", "stars",
           "stars_of", "topologies", "validate", "verify"]


class Facts(TypedDict):
    """What the page must know first (:func:`facts`): ``[lowest, highest]`` ranges and
    ``[lowest, highest, default]`` budgets."""

    levels: int
    cols: list[int]
    rows: list[int]
    import_max_bytes: int
    verify: dict[str, list[float]]
    live_states: int
    budgets: dict[str, list[float]]


def facts() -> Facts:
    """What the page must know before it asks anything else: the number of main-line levels
    and the editor's board and file limits (the page copies none of them)."""
    from gridforge.snakes.design.request import (
        DEFAULT_BUDGETS,
        MAX_CANDIDATES,
        SECONDS_BUDGETS,
    )
    from gridforge.snakes.editor import editing
    from gridforge.snakes.game import level
    from gridforge.snakes.game.mainline import LEVELS

    budgets: dict[str, list[float]] = {
        name: [1, SECONDS_BUDGETS.get(name, MAX_CANDIDATES), value]
        for name, value in DEFAULT_BUDGETS.items()}
    return {"levels": LEVELS, "cols": [level.MIN_COLS, level.MAX_COLS],
            "rows": [level.MIN_ROWS, level.MAX_ROWS],
            "import_max_bytes": editing.IMPORT_MAX_BYTES,
            "verify": {"states": [1, play.MAX_STATES, VERIFY_STATES],
                       "seconds": [1, play.MAX_SECONDS, VERIFY_SECONDS]},
            "live_states": LIVE_STATES, "budgets": budgets}


# A level's best, in steps, as the page's store keeps it (store.js progressIssues).
MAX_BEST_STEPS = 1_000_000


def progress_after_win(snakes: Any, number: Any, steps: Any) -> JsonObject:
    """The main line's progress (``progress.snakes`` of ``gridforge.progress/1``) once level
    ``number`` is won in ``steps``: its best is the fewest steps so far, the next level opens
    (never past the last), and no level is in progress. The other fields stay as they were.

    :raises ValidationError: with field paths (``snakes.done.3``, ``steps``) when ``snakes``
        is not what the page's store keeps (an object; ``done`` an object of level numbers
        to bests of 1..1000000 steps; ``open`` a level number), ``number`` is not a main-line
        level or ``steps`` not a count of 1..1000000 (a level is never won in 0 steps).
    """
    from gridforge.errors import Issues, ValidationError, describe, is_int
    from gridforge.snakes.game.mainline import LEVELS

    def count(value: object, lo: int, hi: int) -> bool:
        return is_int(value) and lo <= value <= hi

    issues = Issues()
    if not isinstance(snakes, dict):
        issues.add("snakes", "type", "the main line's progress must be an object, "
                   f"got {describe(snakes)}")
        snakes = {}
    done = snakes.get("done")
    if done is None:
        done = {}
    elif not isinstance(done, dict):
        issues.add("snakes.done", "type", "the levels done must be an object of "
                   f"level number: best steps, got {describe(done)}")
        done = {}
    for key, best in done.items():
        if not (key.isascii() and key.isdigit() and key[0] != "0" and int(key) <= LEVELS):
            issues.add(f"snakes.done.{key}", "range", f"not a main-line level number (1..{LEVELS})")
        elif not count(best, 1, MAX_BEST_STEPS):
            issues.add(f"snakes.done.{key}", "range", "a level's best steps must be "
                       f"a whole number in 1..{MAX_BEST_STEPS}, got {describe(best)}")
    opened = snakes.get("open")
    if opened is not None and not count(opened, 1, LEVELS):
        issues.add("snakes.open", "range", f"the open level must be in 1..{LEVELS}, "
                   f"got {describe(opened)}")
    if not count(number, 1, LEVELS):
        issues.add("level", "range", f"a main-line level is 1..{LEVELS}, "
                   f"got {describe(number)}")
    if not count(steps, 1, MAX_BEST_STEPS):
        issues.add("steps", "range", f"the steps of a win must be in "
                   f"1..{MAX_BEST_STEPS}, got {describe(steps)}")
    if issues:
        raise ValidationError(issues, "progress after a win")
    assert is_int(number) and is_int(steps)  # checked above
    done = dict(done)
    best = done.get(str(number))
    done[str(number)] = steps if best is None else min(best, steps)
    opened = opened if is_int(opened) else 1
    # The win ends this level's progress; another level's (another tab's) stays.
    current = snakes.get("current")
    kept = current if isinstance(current, dict) and current.get("level") != number else None
    return {**snakes, "done": done, "open": min(LEVELS, max(opened, number + 1)), "current": kept}


def _count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def stars(steps: Any, par: Any) -> int:
    """The stars (1..3) of a level won in ``steps`` against its ``par`` (the certificate's
    steps): three at or under the par, two within a quarter more (at least two steps more),
    one for any other win. Without a par (a draft with no certificate) a win earns one.

    Stars are never stored: they follow from the best steps that progress keeps
    (``snakes.done``) and the level's certificate, so progress saved before stars existed
    shows its stars as it is.

    :raises GridforgeError: when ``steps`` is not a count or ``par`` neither a count nor null.
    """
    from gridforge.errors import GridforgeError

    if not _count(steps):
        raise GridforgeError(f"steps: a count of steps, got {steps!r}")
    if par is None:
        return 1
    if not _count(par):
        raise GridforgeError(f"par: the certificate's steps (a count) or null, got {par!r}")
    if steps <= par:
        return 3
    return 2 if steps <= par + max(2, (par + 3) // 4) else 1


def stars_of(done: Any, pars: Any) -> dict[str, int]:
    """The stars of many won levels at once (the map): ``done`` maps level numbers (as
    strings) to best steps, ``pars`` the same numbers to certificate steps (or null); a
    level missing from ``pars`` counts as without a par. Answers ``{number: stars}``.

    :raises GridforgeError: naming the first entry that is not a count (``done.N`` / ``pars.N``).
    """
    from gridforge.errors import GridforgeError

    if not isinstance(done, dict):
        raise GridforgeError("done: an object of level numbers to best steps")
    if not isinstance(pars, dict):
        raise GridforgeError("pars: an object of level numbers to certificate steps")
    answer: dict[str, int] = {}
    for number, best in done.items():
        par = pars.get(number)
        if not _count(best):
            raise GridforgeError(f"done.{number}: a count of steps, got {best!r}")
        if par is not None and not _count(par):
            raise GridforgeError(f"pars.{number}: a count of steps or null, got {par!r}")
        answer[str(number)] = stars(best, par)
    return answer


def lesson(number: Any, level: Any, certificate: Any = None) -> LessonAnswer | None:
    """What main-line level ``number`` (drawn as ``level``) teaches, in the player's words:
    ``{key, level, title, text, watch, demo}`` or null (see :mod:`gridforge.snakes.lessons`).
    The demonstration is taken from ``certificate``'s solution when it replays on the level
    (``demo`` is null otherwise); a mechanic's lesson only when the level shows it.

    :raises GridforgeError: when ``number`` is not a main-line level number, or, on a level
        that teaches, the level is not one (field paths).
    """
    from gridforge.errors import GridforgeError
    from gridforge.snakes import lessons
    from gridforge.snakes.game.level import level_from_json
    from gridforge.snakes.game.mainline import LEVELS

    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= LEVELS:
        raise GridforgeError(f"number: a main-line level is 1..{LEVELS}, got {number!r}")
    if number not in lessons.LESSONS:
        return None  # most levels: answered without reading the level
    parsed = level_from_json(level, balanced=False)
    solution = certificate.get("solution") if isinstance(certificate, dict) else None
    return lessons.lesson_for(number, parsed, solution)


def rules() -> RulesAnswer:
    """The rules screen's words for snakes and a tiny level per picture: ``{basics,
    mechanics}``, each a list of ``{key, title, text, picture: {level, view, arrow}}``."""
    from gridforge.snakes import lessons

    return lessons.rules_screen()


def validate(level: Any) -> Validation:
    """Every problem of a level dict (``issues`` with field paths), without raising."""
    from gridforge.snakes.game.level import validate_level

    issues = validate_level(level)
    return {"ok": not issues, "issues": [i.to_json() for i in issues]}


# ---------------------------------------------------------------- play (both games' verbs)
# The verbs of play over the midend, the same in gridforge.mines.page: open, resume, act,
# close. Each answers the midend's envelope (gridforge.midend) with the snakes fields.
ACTIONS = ("step", "undo", "redo", "restart")


def open(level: Any) -> Answer:
    """Open a game on ``level``: the midend's envelope ``{id, view, offer, changes, events,
    refused, save}`` with ``step_count`` and ``ahead`` (see :mod:`gridforge.snakes.play`);
    the page names the game by ``id`` after. Later answers carry ``changes`` (what changed
    since the last answer) instead of the view and offer, and the save only when it changed.
    The level is validated once, here (a supply/demand mismatch is let in so that the
    editor can show it; verify reports it)."""
    return play.answer(play.MIDEND.open(level))


def resume(level: Any, save: Any) -> Answer:
    """Open a game on ``level`` where a stored ``save`` left it (after a reload or a worker
    restart): the one replay of play. The save must be this very level's (``sha``) and its
    ``steps`` and then its ``redo`` must replay on it; answers as :func:`open`.

    :raises ValidationError: naming the field at fault (``save.sha``, ``save.steps[3]``,
        ``save.redo[0]``), or the level's own issues.
    """
    return play.answer(play.MIDEND.resume(level, save))


def act(session: Any, action: Any) -> Answer:
    """One action in the open game ``session``: ``{"do": "step", "step": [body, "head" |
    "tail", "U" | "D" | "L" | "R"]}`` plays a step (a refusal leaves the game unchanged and
    says why); ``{"do": "undo"}`` takes back the last step (it moves to redo), ``{"do":
    "redo"}`` plays it again, ``{"do": "restart"}`` goes back to the level's start with
    nothing to redo. Undo and redo do nothing once the level is complete.

    :raises UnknownSession: when ``session`` is not open (resume it from its save).
    :raises ValidationError: naming ``action.do`` when it is none of these.
    """
    from gridforge.errors import refusal

    do = action.get("do") if isinstance(action, dict) else None
    midend = play.MIDEND
    if do == "step":
        return play.answer(midend.play(session, action.get("step")))
    if do == "undo":
        return play.answer(midend.undo(session))
    if do == "redo":
        return play.answer(midend.redo(session))
    if do == "restart":
        return play.answer(midend.restart(session))
    midend.entry(session)  # an unknown game is said first: the page then resumes it
    raise refusal("snakes action", "action.do", "unknown", f"do is one of {list(ACTIONS)}")


def close(session: Any) -> bool:
    """Forget an open game; ``False`` if it was not open."""
    return play.MIDEND.close(session)


def hint(session: Any, max_states: Any = 50_000, max_seconds: Any = 3.0) -> HintAnswer:
    """The next step of a solution from the current state of the open game ``session``
    (``step`` null if none is found within the budget, or once the level is complete)."""
    from gridforge.snakes.game.rules import move_to_step
    from gridforge.snakes.solver.search import hint as next_move

    max_states, max_seconds = play.budgets(max_states, max_seconds)
    held = play.MIDEND.game(session)
    if held.game.is_complete(held.state):
        return {"step": None, "remaining": 0, "optimal": True, "status": "complete"}
    move, result = next_move(held.game, held.state, max_states=max_states,
                             max_seconds=max_seconds)
    return {"step": None if move is None else move_to_step(move),
            "remaining": None if result.moves is None else len(result.moves),
            "optimal": result.optimal, "status": result.status}


def position(level: Any, steps: Any) -> PositionAnswer:
    """The view after ``steps`` from the start of ``level``, without opening a game (the
    editor shows a solution step by step this way).

    :raises ValidationError: naming ``steps[i]`` when a step does not replay.
    """
    return play.view_after(level, steps)


VERIFY_STATES = 200_000
VERIFY_SECONDS = 10.0


def verify(level: Any, max_states: Any = VERIFY_STATES, max_seconds: Any = VERIFY_SECONDS,
           solution: Any = None, *, progress: Progress = NO_PROGRESS) -> Certificate:
    """The certificate of ``level`` with its score (progress and cancel through the bridge).

    A null budget is the default one (the page passes null to reach ``solution``, since the
    bridge passes arguments by position). Verify keeps what it is given (spec section 5b):
    with ``solution`` (JSON steps, e.g. those of the certificate the page holds for this very
    level) the level stays solved and the search may only shorten the solution or prove it
    minimal, never reporting more steps; without it the level is searched from scratch.

    :raises ValidationError: when ``solution`` does not replay to completion (``solution``
        named), or the level is not one (field paths).
    """
    from gridforge.snakes.design import certify

    max_states, max_seconds = play.budgets(
        VERIFY_STATES if max_states is None else max_states,
        VERIFY_SECONDS if max_seconds is None else max_seconds)
    return certify.certify(level, max_states=max_states, max_seconds=max_seconds,
                           solution=solution, progress=progress)


def design_levels(request: Any, *, progress: Progress = NO_PROGRESS) -> DesignedBatch:
    """Design a batch from a request (the ``--spec`` fields): a ``gridforge.snakes.batch/1``."""
    from gridforge.snakes.design.pipeline import design_levels as design  # loads only when used

    return design(request, progress=progress)


def export(level: Any, certificate: Any) -> str:
    """The certified level as JSON text (``{"certificate", "level"}``); every claim of the
    certificate is rechecked first (a forged or stale one is refused naming the claim) and
    only what the recheck established is written."""
    import json

    from gridforge.snakes.design.certify import proven
    from gridforge.snakes.game.level import level_from_json

    parsed = level_from_json(level)
    out = {"level": parsed.to_json(), "certificate": proven(parsed, certificate)}
    return json.dumps(out, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def sample_levels() -> list[LevelJson]:
    """The levels shipped with the package (each a level dict with ``meta``)."""
    return samples.shipped()


def topologies() -> list[str]:
    """The template ids a design request may name (``mixed`` first)."""
    from gridforge.snakes.design.templates import TOPOLOGIES

    return list(TOPOLOGIES)


# --- editor (the level editor screen, issue 14: gridforge.snakes.editor.editing)
# What the editor shows of Python's words is said in a designer's words (gridforge.words):
# each issue carries its place and message in words beside its path, notes and reasons are
# worded; the certificates and levels themselves are as the command line writes them.
__all__ += ["editor_blank", "editor_edit", "editor_export_batch", "editor_free_area",
            "editor_import", "editor_open", "editor_share_text", "editor_verify"]


def _worded(answer: DraftAnswer) -> DraftAnswer:
    """An editor answer whose issues carry their place and message in words."""
    return {**answer, "issues": [issue_words(issue) for issue in answer["issues"]]}


def editor_blank(cols: Any = 7, rows: Any = 7) -> DraftAnswer:
    """An empty ``cols`` x ``rows`` board to draw on: ``{level, issues, ok, sha256}``."""
    from gridforge.snakes.editor import editing

    return _worded(editing.blank(cols, rows))


def editor_open(level: Any) -> DraftAnswer:
    """Start editing ``level`` (a level or a stored draft): ``{level, issues, ok, sha256}``;
    refuses (field paths) what is no draft at all."""
    from gridforge.snakes.editor import editing

    return _worded(editing.open_draft(level))


def editor_edit(level: Any, edit: Any) -> DraftAnswer:
    """Apply one editor edit (stone, erase, hole, body, resize, body_props, hole_props) to
    the draft ``level``; a refused edit raises with field paths and changes nothing."""
    from gridforge.snakes.editor import editing

    return _worded(editing.apply_edit(level, edit))


class VerifyAnswer(TypedDict):
    """The editor's verify: the certificate and its reason in a designer's words."""

    certificate: Certificate
    reason: str


def editor_verify(level: Any, max_states: Any = VERIFY_STATES, max_seconds: Any = VERIFY_SECONDS,
                  solution: Any = None, *, progress: Progress = NO_PROGRESS) -> VerifyAnswer:
    """:func:`verify` for the editor: ``{certificate, reason}``, the certificate as
    :func:`verify` answers it and its reason (why it is not verified, or why the minimum is
    not proven; "" when there is nothing to say) in a designer's words."""
    cert = verify(level, max_states, max_seconds, solution, progress=progress)
    from gridforge.snakes.editor.words import reason_words

    return {"certificate": cert, "reason": reason_words(cert["reason"])}


def editor_import(text: Any) -> ImportAnswer:
    """Read a dropped, picked or pasted file (level, certified level or batch):
    ``{kind, levels, certificates, notes}``; a bad file raises with every problem listed,
    and a certificate that does not hold again is dropped with a note."""
    from gridforge.snakes.design import certify
    from gridforge.snakes.editor import editing
    from gridforge.snakes.editor.words import note_words

    read = editing.read_import(text, certify.proven)
    return {**read, "notes": [note_words(note) for note in read["notes"]]}


def editor_export_batch(items: Any, request: Any = None) -> str:
    """Certified levels (``[{level, certificate}]``) as one ``gridforge.snakes.batch/1``
    text, every certificate checked again as :func:`export` checks it; ``request`` is the
    design request they answer (null for drawn or imported levels). Written as
    ``design-levels --out`` writes a batch (the designer's serializer, same layout)."""
    from gridforge.snakes.design import certify
    from gridforge.snakes.design.files import dumps
    from gridforge.snakes.editor import editing

    return dumps(editing.export_batch_data(items, certify.proven, request), indent=2)


def editor_free_area(level: Any) -> list[list[int]]:
    """The cells of the level's largest contiguous free area (to outline on the board)."""
    from gridforge.snakes.editor import editing

    return editing.largest_free_area(level)


def editor_share_text(level: Any) -> str:
    """The canonical text of a whole level, which a share link compresses."""
    from gridforge.snakes.editor import editing

    return editing.share_text(level)


# ---------------------------------------------------------------- play telemetry (issue 24)
__all__ += ["predict_difficulty", "telemetry_attempt", "telemetry_check"]

MAX_TELEMETRY_MOVES = 100_000


def telemetry_attempt(record: Any) -> Attempt:
    """One attempt of ``gridforge.snakes.telemetry/1`` from what the page counted: the
    attempt's fields without ``repositioning_runs`` and ``dead_ends``, plus ``moves``, the
    steps made in order as ``[body, exited]`` pairs. Python counts the repositioning runs
    (the page knows no rule) and validates the whole record.

    :raises ValidationError: naming the field (``attempt.undos``) when a count is wrong.
    """
    from gridforge.errors import ValidationError, is_int, refusal
    from gridforge.snakes.player.telemetry import repositioning_runs, validate_attempt

    if not isinstance(record, dict):
        raise refusal("attempt", "attempt", "type", "an attempt is an object")
    moves = record.get("moves")
    if not (isinstance(moves, list) and len(moves) <= MAX_TELEMETRY_MOVES and all(
            isinstance(m, list) and len(m) == 2 and is_int(m[0]) and isinstance(m[1], bool)
            for m in moves)):
        raise refusal("attempt", "attempt.moves", "type", "moves are [body, exited] "
                      "pairs")
    raw = {k: v for k, v in record.items() if k != "moves"}
    raw["repositioning_runs"] = repositioning_runs([m[0] for m in moves], [m[1] for m in moves])
    raw["dead_ends"] = None  # the page does not search for them
    found, issues = validate_attempt(raw, "attempt")
    if found is None:
        raise ValidationError(issues, "attempt")
    return found


def telemetry_check(data: Any) -> dict[str, int]:
    """Whether ``data`` is a valid telemetry export (``{"attempts": n}``).

    :raises ValidationError: naming every problem by its field path.
    """
    from gridforge.snakes.player.telemetry import validate_telemetry

    return {"attempts": len(validate_telemetry(data)["attempts"])}


def predict_difficulty(weights: Any, certificate: Any) -> Prediction | None:
    """What a weights file (``gridforge.snakes.weights/1``) predicts for a certificate's
    level, beside its design score; None when the certificate carries no score."""
    from gridforge.snakes.design.weights import TERMS, prediction, validate_weights

    parsed = validate_weights(weights)
    score = certificate.get("score") if isinstance(certificate, dict) else None
    terms = score.get("normalised") if isinstance(score, dict) else None
    if not isinstance(terms, dict) or not all(
            isinstance(terms.get(t), (int, float)) and not isinstance(terms.get(t), bool)
            for t in TERMS):
        return None
    return prediction(parsed, terms)


# ---------------------------------------------------------------- the workbench (issue 23)
__all__ += ["editor_design", "editor_level_at", "editor_reasons", "editor_status"]

# The live status's counted budget (states the search may store); the seconds are only a
# safety net that the counted budget reaches long before, so that the answer is the same on
# every machine.
LIVE_STATES = 20_000
LIVE_SECONDS = 120.0
_LIVE_STATE = {"verified": "solvable", "out_of_range": "solvable", "unsolvable": "unsolvable",
               "undetermined": "unknown"}


def editor_reasons(level: Any) -> list[Reason]:
    """Why ``level`` cannot be solved, as far as it can be told without a search:
    ``[{kind, text, color, cells}]`` (see :mod:`gridforge.snakes.editor.diagnose`)."""
    from gridforge.snakes.editor import diagnose

    return diagnose.reasons(level)


class StatusAnswer(TypedDict):
    """The live status of a draft (:func:`editor_status`)."""

    state: str  # "unfinished" | "unsolvable" | "solvable" | "unknown"
    sha256: str | None
    steps: int | None
    optimal: bool
    lower_bound: int | None
    score: float | None
    reasons: list[Reason]
    reason: str
    budget: int


def editor_status(level: Any, max_states: Any = LIVE_STATES, *,
                  progress: Progress = NO_PROGRESS) -> StatusAnswer:
    """The live status of a draft, as the editor shows it after each edit:
    ``{state, sha256, steps, optimal, lower_bound, score, reasons, reason, budget}``.

    ``state`` is ``unfinished`` (the draft is not a whole level yet: ``reasons`` empty),
    ``unsolvable`` (with the ``reasons`` :func:`editor_reasons` finds, or the search's
    ``reason`` when it exhausted the states), ``solvable`` (``steps`` of the best solution
    the solver found within the budget, not shortened: ``optimal`` when proven shortest,
    ``score`` the design score of that solution, an estimate until Verify) or ``unknown``
    (the budget of ``max_states`` stored states ran out). ``lower_bound`` is the search's
    bound wherever it has one. The budget is counted (states), so that the answer is the
    same on every machine; Verify keeps the full budget and shortens the solution.
    """
    from gridforge.errors import ValidationError
    from gridforge.snakes.design import certify
    from gridforge.snakes.editor import diagnose
    from gridforge.snakes.game.level import level_from_json

    states = LIVE_STATES if max_states is None else max_states
    states, _ = play.budgets(states, LIVE_SECONDS)
    out: StatusAnswer = {"state": "unfinished", "sha256": None, "steps": None,
                         "optimal": False, "lower_bound": None, "score": None,
                         "reasons": [], "reason": "", "budget": states}
    try:
        parsed = level_from_json(level, balanced=False)
    except ValidationError:
        return out
    found = diagnose.reasons(parsed)
    if found:
        from gridforge.snakes.game.level import level_sha256

        return {**out, "state": "unsolvable", "sha256": level_sha256(parsed), "reasons": found,
                "reason": found[0]["text"]}
    from gridforge.snakes.game.level import balance_issues, level_sha256
    from gridforge.snakes.game.rules import Game
    from gridforge.snakes.solver.matching import INF
    from gridforge.snakes.solver.search import Solver

    sha = level_sha256(parsed)
    if balance_issues(parsed):  # pragma: no cover - diagnose names every such mismatch
        return {**out, "state": "unsolvable", "sha256": sha}
    # The solver alone, within the counted budget: the best solution it finds is what the
    # status shows (Verify then shortens it and proves what it can, with the full budget).
    game = Game(parsed)
    result = Solver(game).solve(max_states=states, max_seconds=LIVE_SECONDS, progress=progress)
    bound = result.lower_bound if result.lower_bound < INF else None
    if result.status == "unsolvable":
        from gridforge.snakes.editor.words import reason_words

        return {**out, "state": "unsolvable", "sha256": sha,
                "reason": reason_words(result.reason)}
    steps = result.steps
    if steps is None:
        return {**out, "state": "unknown", "sha256": sha, "lower_bound": bound}
    score = certify.score(parsed, steps, game)
    return {**out, "state": "solvable", "sha256": sha, "steps": len(steps),
            "optimal": bool(result.optimal), "lower_bound": bound, "score": score["total"]}


def editor_level_at(level: Any, steps: Any) -> DraftAnswer:
    """A new draft whose start is the position after ``steps`` of play on ``level`` (edit
    from a try-play position; see :mod:`gridforge.snakes.editor.snapshot`): as
    :func:`editor_open`."""
    from gridforge.snakes.editor import editing
    from gridforge.snakes.editor.snapshot import level_at

    return _worded(editing.open_draft(level_at(level, steps)))


class DesignAnswer(TypedDict):
    """A designed batch and its bytes as ``design-levels --out`` writes them."""

    batch: DesignedBatch
    text: str


def editor_design(request: Any, *, progress: Progress = NO_PROGRESS) -> DesignAnswer:
    """:func:`design_levels` for the editor: ``{batch, text}``, ``text`` the batch's bytes
    exactly as ``gridforge design-levels --out`` writes them for the same request (the page
    exports these, so that the browser and the command line agree byte for byte)."""
    from gridforge.snakes.design.files import dumps

    batch = design_levels(request, progress=progress)
    return {"batch": batch, "text": dumps(batch, indent=2)}
