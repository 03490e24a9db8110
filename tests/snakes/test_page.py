"""The page's contract for snakes (snakes/page.py): verify with the score, export rechecked."""

from __future__ import annotations

import json

import pytest
from gridforge import api
from gridforge.errors import GridforgeError, ValidationError
from gridforge.snakes import page

from .fixtures import spec_example


def test_verify_gives_the_full_certificate_and_export_rechecks_it():
    cert = page.verify(spec_example())
    assert cert["status"] == "verified" and cert["minimum"] == 20 and cert["score"]["total"] > 0
    exported = json.loads(page.export(spec_example(), cert))
    assert exported["certificate"]["score"] == cert["score"]
    forged = {**cert, "score": {**cert["score"], "total": 99.9}}
    with pytest.raises(ValidationError) as err:
        page.export(spec_example(), forged)
    assert [i.path for i in err.value.issues] == ["certificate.score.total"]


@pytest.mark.parametrize("states, seconds", [(0, 10.0), (100, float("nan")), ("1", 1.0)])
def test_verify_refuses_budgets_out_of_range(states, seconds):
    with pytest.raises(GridforgeError, match="max_"):
        page.verify(spec_example(), states, seconds)


def test_topologies_start_with_mixed_and_name_all_eleven():
    names = page.topologies()
    assert names[0] == "mixed" and len(names) == 11 and len(set(names)) == 11


def test_every_listed_function_has_a_docstring():
    assert all((getattr(page, name).__doc__ or "").strip() for name in page.__all__)


def test_verify_keeps_a_given_solution_even_on_a_tiny_budget():
    from gridforge import api

    level = spec_example()
    given = page.verify(level)["solution"]
    assert page.verify(level, 1, 1.0)["status"] == "undetermined"  # from scratch: no room
    cert = page.verify(level, 1, 1.0, given)
    assert cert["status"] == "verified" and cert["steps"] <= len(given)
    assert cert["score"]["total"] > 0
    # The browser's way: by position through the bridge, null budgets being the defaults.
    answer = json.loads(api.dispatch("gridforge.snakes.page.verify",
                                     json.dumps([level, None, None, given])))
    assert answer["ok"] and answer["value"]["status"] == "verified"
    assert answer["value"]["steps"] <= len(given)
    with pytest.raises(ValidationError) as err:
        page.verify(level, 1, 1.0, given[:-1])
    assert [i.path for i in err.value.issues] == ["solution"]
    refused = json.loads(api.dispatch("gridforge.snakes.page.verify",
                                      json.dumps([level, None, None, [[0, "head", "X"]]])))
    assert not refused["ok"] and refused["error"]["type"] == "ValidationError"
    assert [i["path"] for i in refused["error"]["issues"]] == ["solution"]


def test_facts_name_the_main_line_and_the_editors_limits():
    from gridforge.snakes.editor import editing
    from gridforge.snakes.game import level
    from gridforge.snakes.game.mainline import LEVELS

    facts = page.facts()
    assert {k: facts[k] for k in ("levels", "cols", "rows", "import_max_bytes")} == {
        "levels": LEVELS, "cols": [level.MIN_COLS, level.MAX_COLS],
        "rows": [level.MIN_ROWS, level.MAX_ROWS], "import_max_bytes": editing.IMPORT_MAX_BYTES}
    # and the editor's budget limits (issue 23; test_workbench.py)
    assert set(facts) == {"levels", "cols", "rows", "import_max_bytes", "verify",
                          "live_states", "budgets"}


def test_progress_after_win_keeps_the_best_opens_the_next_and_clears_the_current():
    snakes = {"done": {"3": 9}, "open": 5, "current": {"level": 3}, "extra": 1}
    assert page.progress_after_win(snakes, 3, 7) == {
        "done": {"3": 7}, "open": 5, "current": None, "extra": 1}
    assert page.progress_after_win(snakes, 3, 12)["done"] == {"3": 9}
    assert page.progress_after_win(snakes, 5, 4)["open"] == 6
    assert page.progress_after_win({"done": {}, "open": 2000}, 2000, 1)["open"] == 2000
    assert snakes["done"] == {"3": 9}  # the argument is not changed
    # issue 54: a win ends its own level's progress, never another level's (another tab's)
    other = {"level": 4, "sha": "x", "steps": [[0, "head", 1]], "redo": []}
    assert page.progress_after_win({**snakes, "current": other}, 3, 7)["current"] == other


@pytest.mark.parametrize(("args", "path"), [
    (([], 1, 1), "snakes"), (({}, 0, 1), "level"), (({}, 2001, 1), "level"),
    (({}, 1, -1), "steps"), (({}, True, 1), "level"), (({}, 1, "2"), "steps"),
    (({}, 1, 0), "steps"),  # never won in 0 steps: the page's store refuses such a best
    (({"done": [3]}, 1, 1), "snakes.done"), (({"done": "13"}, 1, 1), "snakes.done"),
    (({"done": {"x": 3}}, 1, 1), "snakes.done.x"), (({"done": {"3": 0}}, 1, 1), "snakes.done.3"),
    (({"done": {"3": "4"}}, 1, 1), "snakes.done.3"), (({"open": "2"}, 1, 1), "snakes.open")])
def test_progress_after_win_refuses_what_is_not_progress_a_level_and_a_count(args, path):
    with pytest.raises(ValidationError) as info:
        page.progress_after_win(*args)
    assert [issue.path for issue in info.value.issues] == [path]
    # Through the page's door: a refusal with its field path, never an InternalError.
    answer = json.loads(api.dispatch("gridforge.snakes.page.progress_after_win",
                                     json.dumps(list(args))))
    assert answer["error"]["type"] == "ValidationError"
    assert answer["error"]["issues"][0]["path"] == path


@pytest.mark.parametrize(("steps", "par", "expected"), [
    (5, 5, 3), (3, 5, 3), (6, 5, 2), (7, 5, 2), (8, 5, 1),
    (40, 40, 3), (50, 40, 2), (51, 40, 1), (9, 0, 1), (4, None, 1)])
def test_stars_give_three_at_or_under_the_par_and_two_within_a_quarter_more(steps, par, expected):
    assert page.stars(steps, par) == expected


def test_stars_of_reads_best_steps_from_progress_as_saved_before_stars_existed():
    done = {"1": 4, "2": 9, "3": 30}
    assert page.stars_of(done, {"1": 4, "2": 6, "3": None}) == {"1": 3, "2": 1, "3": 1}


@pytest.mark.parametrize(("call", "field"), [
    (lambda: page.stars(-1, 3), "steps"), (lambda: page.stars(3, "x"), "par"),
    (lambda: page.stars_of({"2": True}, {}), "done.2"),
    (lambda: page.stars_of({"2": 3}, {"2": -4}), "pars.2"),
    (lambda: page.stars_of([], {}), "done")])
def test_stars_refuse_what_is_not_a_count_naming_the_field(call, field):
    with pytest.raises(GridforgeError, match=f"^{field}:"):
        call()
