"""Python's messages as the page shows them (gridforge.words, issue 21): places for field
paths, cells by column and row, identifiers as words, a proof for a certificate; and the
page's answers and error envelopes that carry them."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from gridforge import api
from gridforge.snakes import page
from gridforge.snakes.solver.selfcheck import SPEC_EXAMPLE
from gridforge.words import issue_words, place, plain

# Issue 21's must-hold: none of these in what the page shows.
DEVELOPER = re.compile(r"\b[a-z]+_[a-z_]+\b|teaches|certificate|\[\s*\d+\s*,\s*\d+\s*\]",
                       re.IGNORECASE)


def spec_example() -> dict[str, Any]:
    return copy.deepcopy(SPEC_EXAMPLE)


@pytest.mark.parametrize(("path", "words"), [
    ("", ""),
    ("bodies[1].cells[0]", "body 2, cell 1"),
    ("levels[1].bodies[0].cells[2]", "level 2, body 1, cell 3"),
    ("edit.colors[1]", "colour 2"),
    ("edit.frozen", "frozen"),
    ("bodies[0].lock", "body 1, lock"),
    ("bodies.min_length", "bodies, shortest"),
    ("frozen_holes", "frozen holes"),
    ("size.cols", "size, columns"),
    ("certificate.steps", "proof, steps"),
    ("items[0].certificate", "item 1, proof"),
])
def test_a_field_path_is_said_as_a_place(path, words):
    assert place(path) == words


@pytest.mark.parametrize(("text", "words"), [
    ("cell [4, 1] is not 4-adjacent to the previous cell [3, 0]",
     "cell in column 5, row 2 is not 4-adjacent to the previous cell in column 4, row 1"),
    ("floor region 2 (from [1, 0]), color 3", "floor region 2 (from column 2, row 1), color 3"),
    ("stone [1, 1] repeats bodies[0]", "stone in column 2, row 2 repeats body 1"),
    ("bodies[0] stays frozen: only 2 other layers", "body 1 stays frozen: only 2 other layers"),
    ("supply_demand: color 1: 1 layer(s) but 0 hole(s)",
     "supply and demand: color 1: 1 layer(s) but 0 hole(s)"),
    ("unknown field 'frozen_holes'", "unknown field 'frozen holes'"),
    ("invalid certificate: certificate.steps: claims 21", "invalid proof: proof, steps: claims 21"),
    ("Certificates dropped", "Proofs dropped"),
    ("invalid request: <root>: a request is a JSON object",
     "invalid request: a request is a JSON object"),
    ("cells [2, 1] and [3, 4] meet", "cells column 3, row 2 and column 4, row 5 meet"),
    # Ordinary text stays as it is.
    ("e.g. level.json, version 1.2.3; a certified level; bodies must be a list",
     "e.g. level.json, version 1.2.3; a certified level; bodies must be a list"),
])
def test_a_message_is_said_in_words(text, words):
    assert plain(text) == words
    assert not DEVELOPER.search(plain(text))


@pytest.mark.parametrize(("text", "words"), [
    ("bridges[0]: a cell is [x, y] with two integers, got [[2, 1]]",
     "bridge 1: a cell is [x, y] with two integers, got [[2, 1]]"),
    ("got [[2, 1], [3, 4]]", "got [[2, 1], [3, 4]]"),
])
def test_a_cell_nested_in_what_was_given_is_quoted_not_read_as_a_cell(text, words):
    # issue 54: "got [column 3, row 2]" read like a valid cell where [[2, 1]] was given
    assert plain(text) == words


def test_an_issue_keeps_its_path_and_adds_its_place_and_words():
    issue = {"path": "bodies[0].cells[1]", "code": "not_adjacent", "message": "cell [5, 5] x"}
    assert issue_words(issue) == {**issue, "place": "body 1, cell 2",
                                  "text": "cell in column 6, row 6 x"}


def test_the_error_envelope_carries_each_issue_in_words():
    bad = {**spec_example(), "bodies": [{"cells": [[0, 0], [5, 5]], "colors": [99]}]}
    answer = json.loads(api.dispatch("gridforge.snakes.page.editor_import",
                                     json.dumps([json.dumps(bad)])))
    error = answer["error"]
    assert [i["path"] for i in error["issues"]] == ["bodies[0].cells[1]", "bodies[0].colors[0]"]
    assert [i["place"] for i in error["issues"]] == ["body 1, cell 2", "body 1, colour 1"]
    assert "[5, 5]" in error["message"]  # the details stay for tools
    for text in [error["text"], *(f"{i['place']}: {i['text']}" for i in error["issues"])]:
        assert not DEVELOPER.search(text), text


def test_a_file_format_is_named_in_words_not_cut_out_of_the_players_text():
    text = api.player_text("ValidationError", "format must be 'gridforge.snakes.level/1', got null")
    assert text == "Format must be the snakes level format, got null"


def test_the_editors_answers_and_verdicts_are_in_words():
    blank = page.editor_blank(5, 4)
    assert blank["issues"] and all({"place", "text"} <= set(i) for i in blank["issues"])
    level = {**spec_example(), "holes": spec_example()["holes"][1:]}  # one hole too few
    opened = page.editor_open(level)
    assert any(i["code"] == "supply_demand" for i in opened["issues"])
    assert not any(DEVELOPER.search(f"{i['place']}: {i['text']}") for i in opened["issues"])
    verdict = page.editor_verify(level)
    assert verdict["certificate"]["status"] == "unsolvable"
    assert verdict["certificate"]["reason"].startswith("supply_demand: ")  # the CLI's terms
    assert verdict["reason"].startswith("the holes do not match the layers: ")
    assert not DEVELOPER.search(verdict["reason"])
    solved = page.editor_verify(spec_example())
    assert solved["certificate"] == page.verify(spec_example())


def _blank(bodies: list[dict[str, Any]], holes: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": "gridforge.snakes.level/1", "cols": 6, "rows": 6, "stones": [],
            "bodies": bodies, "holes": holes}


@pytest.mark.parametrize(("language", "bodies", "holes", "wanted"), [
    ("en", [], [], ["Add at least one body."]),
    ("zh-CN", [], [], ["至少放一条蛇。"]),
    ("en", [{"cells": [[0, 0], [1, 0]], "colors": [0]}], [],
     ["Add 1 red hole(s): 1 red layer(s) need as many holes."]),
    ("en", [{"cells": [[0, 0], [1, 0]], "colors": [0]}],
     [{"cell": [3, 3], "color": 0}, {"cell": [4, 4], "color": 1}],
     ["Remove 1 blue hole(s), or give a body 1 more blue layer(s): no blue layer would fill "
      "them."]),
    ("zh-CN", [{"cells": [[0, 0], [1, 0]], "colors": [0, 3]}], [{"cell": [3, 3], "color": 0}],
     ["再放 1 个黄色的洞：1 层黄色需要同样多的洞。"]),
])
def test_what_a_level_still_needs_is_said_as_a_sentence(
        language: str, bodies: list[dict[str, Any]], holes: list[dict[str, Any]],
        wanted: list[str]):
    from gridforge.i18n import speaking

    with speaking(language):
        issues = page.editor_open(_blank(bodies, holes))["issues"]
    assert [issue.get("sentence") for issue in issues] == wanted
    # The technical path and message stay for the details line and for tools.
    assert all(issue["path"] and issue["message"] for issue in issues)
