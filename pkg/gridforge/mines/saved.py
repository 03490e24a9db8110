"""A saved mines run (``gridforge.mines.saved-run/1``): its seed, the fingerprint of the run
table it was made under and its steps (intents and page steps), read and validated whole
(:func:`parse_saved`, every problem named by its field path); resuming replays the steps.
"""

from __future__ import annotations

from collections.abc import Mapping

from gridforge import errors
from gridforge.errors import (
    Field,
    Issues,
    Schema,
    ValidationError,
    field_path,
    is_int,
)
from gridforge.mines.gen_table import MAX_SEED
from gridforge.mines.intents import Intent
from gridforge.mines.rewards import (
    ITEMS,
    TARGETED,
)
from gridforge.mines.run_json import (
    PageStep,
)
from gridforge.mines.run_table import RunTable

SAVE_FORMAT = "gridforge.mines.saved-run/1"


PAGE_STEPS = ("reach", "continue", "refresh", "hint", "pick", "use")


# A saved run longer than this is refused (a real run takes a few thousand steps; an
# input that changes nothing is no step). Resuming replays every step: this bounds it.
MAX_STEPS = 20_000


# ---------------------------------------------------------------- saved runs
def _saved_run(digest: str) -> Schema:
    """The fields of a saved run made under the run table of fingerprint ``digest``."""
    # Earlier tables (before issue 45's boards and enemies) made other boards from the same
    # seeds: their saves cannot replay and are refused (the page keeps them aside).
    return Schema((
        Field("format", message=f"format must be {SAVE_FORMAT!r}", code="format",
              choices=(SAVE_FORMAT,)),
        Field("seed", "int", f"seed must be an integer in 0..{MAX_SEED}, got {{value!r}}",
              "range", lo=0, hi=MAX_SEED, cut=120),
        Field("table", message="the run was saved under other run rules (the run table "
              "changed)", code="mismatch", choices=(digest,)),
        Field("steps", "list", "steps is a list", "type", fallback=[],
              then=lambda steps: ("too_long", f"at most {MAX_STEPS} steps")
              if len(steps) > MAX_STEPS else None),
    ), not_object="a saved run is an object", unknown_cut=80, key_cut=40)


def parse_saved(data: object, table: RunTable) -> tuple[int, list[Intent | PageStep]]:
    """Validate a saved run; every problem is reported with its field path."""
    schema = _saved_run(table.digest())
    issues = Issues()
    saved = schema.read_all(schema.root(data, "saved run"), issues)
    steps = saved.values["steps"] if not saved.bad("steps") else []
    assert isinstance(steps, list)
    parsed = _saved_steps(steps, issues)
    issues.raise_if_any("saved run")
    return saved.integer("seed"), parsed


def _saved_steps(steps: list[object], issues: Issues) -> list[Intent | PageStep]:
    """The steps of a saved run (intents and page steps), problems to ``issues`` (the
    reading stops once more than :data:`errors.MAX_ISSUES` are found)."""
    parsed: list[Intent | PageStep] = []
    for k, step in enumerate(steps):
        if len(issues) > errors.MAX_ISSUES:
            break
        path = field_path("steps", k)
        if isinstance(step, Mapping) and "do" in step:
            page = _page_step(step, path, issues)
            if page is not None:
                parsed.append(page)
            continue
        try:
            parsed.append(Intent.from_json(step, path))
        except ValidationError as exc:
            for issue in exc.issues:
                issues.append(issue)
    return parsed


def _page_step(step: Mapping[str, object], path: str, issues: Issues) -> PageStep | None:
    """A saved step that is no intent (``{"do": ...}``); None, with an issue, when it is
    not one of :data:`PAGE_STEPS` in its shape."""
    do = step.get("do")
    keys = ("do", "cell") if do == "reach" else ("do",)
    if not isinstance(do, str) or do not in PAGE_STEPS:
        issues.add(f"{path}.do", "unknown", f"do is one of {list(PAGE_STEPS)}")
        return None
    if do in ("pick", "use"):
        return _reward_step(step, path, issues)
    cell = step.get("cell")
    if any(key not in keys for key in step) or (do == "reach" and not _is_cell(cell)):
        issues.add(path, "type", "a reach step is {'do': 'reach', 'cell': [x, y]}"
                   if do == "reach" else f"a {do} step is {{'do': {do!r}}}")
        return None
    if do == "reach":
        assert isinstance(cell, list)
        return {"do": do, "cell": cell}
    return {"do": do}


def _reward_step(step: Mapping[str, object], path: str, issues: Issues) -> PageStep | None:
    """A saved pick (``{"do": "pick", "offer": kind}``) or item use (``{"do": "use",
    "item": id}``, with ``"cell"`` for a targeted item); whether the offer was open and the
    use possible is checked when the step replays."""
    if step["do"] == "pick":
        offer = step.get("offer")
        if set(step) != {"do", "offer"} or not isinstance(offer, str):
            issues.add(path, "type", "a pick step is {'do': 'pick', 'offer': kind}")
            return None
        return {"do": "pick", "offer": offer}
    item, cell = step.get("item"), step.get("cell")
    targeted = item in TARGETED or item == "lantern"
    keys = {"do", "item", "cell"} if targeted else {"do", "item"}
    if item not in ITEMS or set(step) != keys or (targeted and not _is_cell(cell)):
        issues.add(path, "type", "a use step is {'do': 'use', 'item': one of "
                   f"{list(ITEMS)}}} (with 'cell': [x, y] for a probe or lantern)")
        return None
    used: PageStep = {"do": "use", "item": str(item)}
    if targeted:
        assert isinstance(cell, list)
        used["cell"] = cell
    return used


def _is_cell(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(is_int(v) for v in value)
