"""Both games' page contracts speak one set of play verbs over the midend, and no page
function is a layer that only hands its arguments on to a function of the same name.

The verbs (``open``, ``resume``, ``act``, ``close``) are the page's own: each runs on its
game's midend and builds the answer there (read from the source, AST)."""

from __future__ import annotations

import ast
import inspect
from types import ModuleType

import pytest
from gridforge.errors import ValidationError
from gridforge.midend import UnknownSession
from gridforge.mines import page as mines_page
from gridforge.snakes import page as snakes_page
from gridforge.snakes.game.level import spec_example

PLAY_VERBS = {"open", "resume", "act", "close"}
PAGES = (snakes_page, mines_page)


def forwards(name: str, source: str, namespace: dict[str, object]) -> list[str]:
    """The functions of module ``name`` (its ``source`` and its global ``namespace``) whose
    body, past the docstring and imports, is only ``return <module>.<same name>(...)`` or
    ``return <same name>(...)``. A method of an object (``MIDEND.close``: the midend's own
    verb) is no layer of the page's."""
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        imported = {alias.asname or alias.name for s in node.body
                    if isinstance(s, ast.Import | ast.ImportFrom) for alias in s.names}
        body = [s for s in node.body if not isinstance(s, ast.Import | ast.ImportFrom)
                and not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(body) != 1 or not isinstance(body[0], ast.Return) \
                or not isinstance(body[0].value, ast.Call):
            continue
        called = body[0].value.func
        if isinstance(called, ast.Attribute) and isinstance(called.value, ast.Name) and (
                called.value.id in imported
                or isinstance(namespace.get(called.value.id), ModuleType)):
            target = called.attr
        else:
            target = called.id if isinstance(called, ast.Name) else None
        if target == node.name:
            found.append(f"{name}.{node.name}")
    return found


def page_forwards(page: ModuleType) -> list[str]:
    return forwards(page.__name__, inspect.getsource(page), vars(page))


def test_both_pages_expose_the_same_play_verbs():
    for page in PAGES:
        assert set(page.__all__) >= PLAY_VERBS, page.__name__
        for verb in PLAY_VERBS:
            assert inspect.getdoc(getattr(page, verb)), f"{page.__name__}.{verb}"


def test_no_page_function_only_forwards_to_one_of_the_same_name():
    assert [name for page in PAGES for name in page_forwards(page)] == []


def test_forwards_finds_a_function_that_only_hands_on_its_arguments():
    source = ('def step(a):\n    """Doc."""\n    from x import play\n\n    return play.step(a)\n'
              'def act(a):\n    return play.step(a)\n'
              'def undo(a):\n    return inspect.undo(a)\n'
              'def close(a):\n    return MIDEND.close(a)\n')
    namespace: dict[str, object] = {"inspect": inspect, "MIDEND": object()}
    assert forwards("example", source, namespace) == ["example.step", "example.undo"]


def test_a_game_in_each_page_opens_acts_and_closes_through_the_same_verbs():
    snakes = snakes_page.open(spec_example())
    step = snakes["offer"]["legal"][0]
    stepped = snakes_page.act(snakes["id"], {"do": "step", "step": step})
    assert stepped["refused"] is None and stepped["step_count"] == 1 and stepped["save"]
    undone = snakes_page.act(snakes["id"], {"do": "undo"})
    assert undone["step_count"] == 0 and undone["save"]["redo"] == [step]
    resumed = snakes_page.resume(spec_example(), undone["save"])
    assert resumed["step_count"] == 0 and resumed["offer"]["redo"]
    redone = snakes_page.act(resumed["id"], {"do": "redo"})
    assert redone["step_count"] == 1 and redone["save"]["steps"] == [step]
    restarted = snakes_page.act(resumed["id"], {"do": "restart"})
    assert restarted["step_count"] == 0 and restarted["save"] == {**undone["save"], "redo": []}
    snakes_page.close(resumed["id"])
    assert snakes_page.close(snakes["id"]) and not snakes_page.close(snakes["id"])

    mines = mines_page.open(7)
    stopped = mines_page.act(mines["id"], {"do": "stop"})
    assert stopped["save"]["steps"] == [{"kind": "stop"}]  # the save's format is unchanged
    again = mines_page.resume(stopped["save"])
    assert mines_page.run_state(again["id"]) == mines_page.run_state(mines["id"])
    assert mines_page.close(mines["id"]) and not mines_page.close(mines["id"])


@pytest.mark.parametrize("page, spec", [(snakes_page, spec_example()), (mines_page, 3)])
def test_act_names_a_bad_action_and_an_unknown_game_first(page: ModuleType, spec: object):
    opened = page.open(spec)
    for action in ({}, {"do": 5}, "step", None):
        with pytest.raises(ValidationError) as info:
            page.act(opened["id"], action)
        assert info.value.issues[0].path.endswith("do")
    with pytest.raises(UnknownSession):
        page.act("no-such-game", {})
    page.close(opened["id"])
