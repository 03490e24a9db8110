"""The lessons in the player's words (snakes/lessons.py) and their page contract (issue 21).

Every lesson level of the main line has a title and one or two sentences a player reads; no
text contains a developer's identifier, "teaches", "certificate" or a raw ``[x, y]``; a
mechanic's lesson is offered only on a level that shows the mechanic; the demonstration
replays legally on the shipped level, from its start, and shows the lesson's idea.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from gridforge import api
from gridforge.errors import GridforgeError, ValidationError
from gridforge.mines import page as mines_page
from gridforge.snakes import lessons, page
from gridforge.snakes.design.line_plan import LESSONS as DESIGNER_LESSONS
from gridforge.snakes.design.line_plan import TEACHING, TERRAIN_TEACHING
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.mainline import mainline_level
from gridforge.snakes.game.rules import Game, step_to_move

from .fixtures import level_dict, spec_example

# The designer's names of its teaching mechanics, as the game's catalogue names them.
DESIGNER_MECHANICS = {"coats": "coats", "frozen": "frozen-bodies",
                      "frozen_holes": "frozen-holes", "locks": "silver-lock",
                      "gold": "gold-lock"}
LESSON_LEVELS = [*range(1, 12), 12, 18, 24, 30, 36, 42, 48]
# What a player must never read: an identifier joined by underscores, the designer's
# "teaches ...", the word "certificate", a coordinate pair.
UNDERSCORED = re.compile(r"\w_\w")
RAW_CELL = re.compile(r"\[\s*-?\d+\s*,\s*-?\d+\s*\]")


def words_problems(text: str) -> list[str]:
    problems = []
    if UNDERSCORED.search(text):
        problems.append("an underscore-joined identifier")
    if re.search(r"teaches|certificate", text, re.IGNORECASE):
        problems.append("a developer's word")
    if RAW_CELL.search(text):
        problems.append("a raw [x, y]")
    return problems


def shipped(n: int) -> dict[str, Any]:
    return mainline_level(n)


def texts_of(answer: Any) -> list[str]:
    """Every string in a JSON answer that is not inside a level or a view (player's words)."""
    out: list[str] = []
    if isinstance(answer, str):
        out.append(answer)
    elif isinstance(answer, list):
        for item in answer:
            out += texts_of(item)
    elif isinstance(answer, dict):
        for key, value in answer.items():
            if key not in ("level", "view", "arrow", "demo", "key", "grid"):
                out += texts_of(value)
    return out


# ---------------------------------------------------------------------------- the catalogue
def test_catalogue_names_every_level_the_designer_teaches_on_with_its_mechanic():
    assert set(DESIGNER_LESSONS) | set(TEACHING) | set(TERRAIN_TEACHING) <= set(lessons.LESSONS)
    assert sorted(lessons.LESSONS) == LESSON_LEVELS
    for n, name in TERRAIN_TEACHING.items():
        assert lessons.LESSONS[n].mechanic == name
    for n, name in TEACHING.items():
        assert lessons.LESSONS[n].mechanic == DESIGNER_MECHANICS[name]
    assert all(lessons.LESSONS[n].mechanic is None for n in DESIGNER_LESSONS)
    assert lessons.LESSONS[36].mechanic == "gold-lock"


@pytest.mark.parametrize("n", LESSON_LEVELS)
def test_lesson_has_a_title_and_one_or_two_plain_sentences(n):
    lesson = lessons.LESSONS[n]
    assert lesson.level == n and lesson.title
    assert 1 <= len(lesson.text) <= 2
    for sentence in (lesson.title, *lesson.text):
        assert words_problems(sentence) == [], sentence
    for sentence in lesson.text:
        assert sentence[0].isupper() and sentence.rstrip().endswith((".", "!", "?")), sentence
    assert len(" ".join(lesson.text)) <= 240  # read at a glance


def test_lesson_keys_are_distinct_and_plain():
    keys = [lesson.key for lesson in lessons.LESSONS.values()]
    assert len(set(keys)) == len(keys)
    assert all(re.fullmatch(r"[a-z][a-z0-9-]{0,39}", key) for key in keys)  # store.js LESSON_KEY


def test_no_word_of_the_rules_or_the_lessons_is_a_developer_s():
    answers = [page.rules(), mines_page.rules(), lessons.WATCH,
               [lessons.LESSONS[n].text for n in LESSON_LEVELS]]
    for text in texts_of(answers):
        assert words_problems(text) == [], text


# ---------------------------------------------------------------------------- the shipped line
@pytest.mark.parametrize("n", LESSON_LEVELS)
def test_shipped_lesson_level_teaches_with_a_demonstration_that_replays(n):
    data = shipped(n)
    level = level_from_json(data["level"])
    answer = page.lesson(n, data["level"], data["certificate"])
    lesson = lessons.LESSONS[n]
    # Every teaching level shows its mechanic (level 36 a gold lock).
    assert lesson.mechanic is None or lessons.shows(level, lesson.mechanic)
    assert answer is not None
    assert answer["key"] == lesson.key and answer["text"] == list(lesson.text)
    assert not any(words_problems(t) for t in texts_of(answer))
    demo = answer["demo"]
    assert demo is not None and 1 <= len(demo["steps"]) <= lessons.MAX_EVENT_STEPS
    check_demo(level, demo)
    assert shows_the_idea(lesson.pick, level, demo), demo["steps"]


def check_demo(level, demo):
    """The steps replay legally from the start; each move's cells are the body's cells before
    it, and ``to`` its cells after it (an exit: the end in the hole, the body following)."""
    game = Game(level)
    states = game.replay(demo["steps"])  # raises IllegalStep on the first illegal step
    assert len(demo["moves"]) == len(demo["steps"])
    for i, (move, step) in enumerate(zip(demo["moves"], demo["steps"], strict=True)):
        body, end, _ = step
        assert (move["body"], move["end"]) == (body, end)
        before = [list(c) for c in game.body_cells(states[i], body)]
        assert move["cells"] == before and len(move["to"]) == len(before)
        exited = game.exited_layers(states[i + 1]) > game.exited_layers(states[i])
        assert move["exit"] == exited
        assert move["color"] == game.outer_color(states[i], body)
        assert move["next"] == game.outer_color(states[i + 1], body)
        if not exited:
            assert move["to"] == [list(c) for c in game.body_cells(states[i + 1], body)]
        else:
            hole = move["to"][0] if end == "head" else move["to"][-1]
            assert any(list(h.cell) == hole for h in level.holes)


def shows_the_idea(pick: str, level, demo) -> bool:
    steps, moves = demo["steps"], demo["moves"]
    bodies = level.bodies
    if pick == "head":
        return all(s[1] == "head" for s in steps) and moves[-1]["exit"]
    if pick == "tail":
        return any(s[1] == "tail" for s in steps)
    if pick in ("exit", "first", "turn"):
        return len({s[0] for s in steps}) == 1
    if pick == "make-way":
        return not moves[0]["exit"] and moves[-1]["exit"] and moves[-1]["body"] != moves[0]["body"]
    if pick == "coat":
        return any(m["exit"] and m["next"] is not None for m in moves)
    if pick == "thaw":
        return bodies[steps[-1][0]].frozen > 0 and any(m["exit"] for m in moves)
    if pick == "hole-thaw":
        frozen = [list(h.cell) for h in level.holes if h.frozen]
        last = moves[-1]
        into = last["to"][0] if last["end"] == "head" else last["to"][-1]
        return last["exit"] and into in frozen
    lock = bodies[steps[-1][0]].lock
    return lock is not None and lock.kind == pick


# A gold lock opened by two carriers; a fourth body's exit comes first in the solution and
# is left out of the demonstration, which the lock's opening does not need.
GOLD = level_dict(6, 3, bodies=[
    {"cells": [[1, 0], [0, 0]], "colors": [2], "key": "L1"},
    {"cells": [[1, 1], [0, 1]], "colors": [5], "lock": {"id": "L1", "kind": "gold"}},
    {"cells": [[1, 2], [0, 2]], "colors": [1], "key": "L1"},
    {"cells": [[5, 1], [5, 2]], "colors": [6]}],
    holes=[{"cell": [3, 0], "color": 2}, {"cell": [4, 1], "color": 5},
           {"cell": [3, 2], "color": 1}, {"cell": [5, 0], "color": 6}])
GOLD_SOLUTION = [[3, "head", "U"], [0, "head", "R"], [0, "head", "R"], [2, "head", "R"],
                 [2, "head", "R"], [1, "head", "R"], [1, "head", "R"], [1, "head", "R"]]


def test_a_gold_lock_lesson_shows_both_carriers_leaving_then_the_lock_moving():
    answer = page.lesson(36, GOLD, {"solution": GOLD_SOLUTION})
    assert answer is not None and answer["key"] == "gold-lock"
    demo = answer["demo"]
    check_demo(level_from_json(GOLD), demo)
    assert demo["steps"] == GOLD_SOLUTION[1:6]
    assert shows_the_idea("gold", level_from_json(GOLD), demo)


def test_the_first_shipped_gold_lock_would_have_the_lesson_of_36():
    # Today's level 36 has no gold lock; the first shipped one (level 186, unannounced)
    # shows that the lesson follows the level, not its number alone.
    n = next(n for n in range(150, 260) if any(b.get("lock", {}).get("kind") == "gold"
                                               for b in shipped(n)["level"]["bodies"]))
    data = shipped(n)
    answer = page.lesson(36, data["level"], data["certificate"])
    assert answer is not None and answer["key"] == "gold-lock"
    check_demo(level_from_json(data["level"]), answer["demo"])
    assert len(answer["demo"]["steps"]) <= lessons.MAX_EVENT_STEPS


def test_a_mechanic_lesson_is_not_offered_where_the_level_does_not_show_it():
    plain = shipped(1)
    for n in (12, 18, 24, 30, 36):
        assert page.lesson(n, plain["level"], plain["certificate"]) is None
    # Levels 1-11 teach by their number, whatever the level.
    assert page.lesson(1, shipped(2)["level"], shipped(2)["certificate"])["key"] == "head"
    assert page.lesson(13, shipped(13)["level"], shipped(13)["certificate"]) is None


# ---------------------------------------------------------------------------- the contract
def test_lesson_without_a_solution_that_replays_has_words_but_no_demonstration():
    data = shipped(3)
    assert page.lesson(3, data["level"])["demo"] is None
    assert page.lesson(3, data["level"], {"solution": data["certificate"]["solution"][:-1]}
                       )["demo"] is None
    assert page.lesson(3, data["level"], {"solution": [[0, "head", "X"]]})["demo"] is None
    assert page.lesson(3, data["level"], {"solution": "no"})["demo"] is None


@pytest.mark.parametrize("number", [0, 2001, True, "1", 1.0, None])
def test_lesson_refuses_what_is_not_a_main_line_number(number):
    with pytest.raises(GridforgeError, match="number"):
        page.lesson(number, shipped(1)["level"])


def test_lesson_refuses_a_level_that_is_not_one_naming_the_field():
    bad = {**spec_example(), "cols": 1}
    with pytest.raises(ValidationError) as err:
        page.lesson(1, bad)
    assert "cols" in [i.path for i in err.value.issues]
    assert page.lesson(13, bad) is None  # a level that teaches nothing is not read


def test_lesson_and_rules_answer_through_the_bridge_as_json():
    data = shipped(12)
    answer = json.loads(api.dispatch("gridforge.snakes.page.lesson",
                                     json.dumps([12, data["level"], data["certificate"]])))
    assert answer["ok"] and answer["value"]["key"] == "coats"
    assert answer["value"]["demo"]["steps"]
    rules = json.loads(api.dispatch("gridforge.snakes.page.rules", "[]"))
    assert rules["ok"] and rules["value"]["mechanics"]
    mines = json.loads(api.dispatch("gridforge.mines.page.rules", "[]"))
    assert mines["ok"] and mines["value"]["sections"]


# ---------------------------------------------------------------------------- the rules screen
def test_rules_picture_each_mechanic_with_a_real_level_that_shows_it():
    rules = page.rules()
    assert [s["key"] for s in rules["basics"]] == ["goal", "drag", "holes", "steps"]
    assert [s["key"] for s in rules["mechanics"]] == list(lessons.MECHANICS)
    for section in rules["basics"] + rules["mechanics"]:
        assert section["title"] and 1 <= len(section["text"]) <= 2
        picture = section["picture"]
        level = level_from_json(picture["level"])  # balanced: a real level
        assert picture["view"]["bodies"] and not picture["view"]["complete"]
        if picture["arrow"] is not None:
            Game(level).apply(Game(level).initial, step_to_move(picture["arrow"]))  # legal
    kinds = {s["key"]: {m["kind"] for m in s["picture"]["view"]["markers"]}
             for s in rules["mechanics"]}
    assert kinds == {"coats": set(), "frozen-bodies": {"frozen-body"},
                     "frozen-holes": {"frozen-hole"}, "silver-lock": {"lock", "key"},
                     "gold-lock": {"lock", "key"}, "paths": set(), "bridges": set()}
    for section in rules["mechanics"]:
        assert lessons.shows(level_from_json(section["picture"]["level"]), section["key"])
    mechanics_words = {s["key"]: s["text"] for s in rules["mechanics"]}
    for lesson in lessons.LESSONS.values():  # one source: the lesson says what the rules say
        if lesson.mechanic is not None:
            assert mechanics_words[lesson.mechanic] == list(lesson.text)
