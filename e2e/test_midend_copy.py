"""The page's copy of each game in play (pageCopy in web/contract.js) applies Python's
changes exactly: on generated views, against the midend's own changes and its Python mirror,
and over a real game played through the page (every answer's view equal to Python's)."""

from __future__ import annotations

import random
from typing import Any

from gridforge.midend import apply_changes, changes
from gridforge.snakes.game.mainline import mainline_level
from playwright.sync_api import Page

from .conftest import open_ready

APPLY = """async (pairs) => {
  const { applyChanges } = await import("/contract.js");
  return pairs.map(([before, changed]) => applyChanges(before, changed));
}"""


def view_like(rng: random.Random, depth: int = 0) -> Any:
    """A JSON value shaped as views are: objects of numbers, words and grids of cells."""
    roll = rng.random()
    if depth < 3 and roll < 0.35:
        return {k: view_like(rng, depth + 1) for k in rng.sample("abcdefg", rng.randint(1, 4))}
    if depth < 3 and roll < 0.6:
        return [view_like(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return rng.choice([None, True, False, rng.randint(-3, 9), "fog", "flag", 2.5])


def changed(value: Any, rng: random.Random) -> Any:
    """``value`` with a few members changed, added or dropped."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(sorted(value))
        out = dict(value)
        if rng.random() < 0.1:
            del out[key]
        else:
            out[key] = changed(value[key], rng)
        return out
    if isinstance(value, list) and value and rng.random() < 0.8:
        i = rng.randrange(len(value))
        return [*value[:i], changed(value[i], rng), *value[i + 1:]]
    return view_like(rng)


def test_the_page_applies_the_midends_changes_exactly(page: Page):
    open_ready(page)
    rng = random.Random(42)
    pairs, wanted = [], []
    for _ in range(200):
        before = view_like(rng)
        after = changed(before, rng)
        pairs.append([before, changes(before, after)])
        wanted.append(after)
    applied = page.evaluate(APPLY, pairs)
    assert applied == wanted
    assert [apply_changes(b, c) for b, c in pairs] == wanted
    # only the changed path is copied: an unchanged part stays the same object
    same = page.evaluate("""async () => {
      const { applyChanges } = await import("/contract.js");
      const v = { board: { grid: [[0, 1], [2, 3]] }, ap: 8, offer: { dig: [[1, 1]] } };
      const w = applyChanges(v, [[["board", "grid", 1, 0], "flag"], [["ap"], 7]]);
      return [w.offer === v.offer, w.board.grid[0] === v.board.grid[0],
              w.board.grid[1] !== v.board.grid[1], v.board.grid[1][0] === 2, w.ap];
    }""")
    assert same == [True, True, True, True, 7]


def test_a_game_played_through_the_contract_keeps_pythons_view_whole(page: Page):
    open_ready(page)
    entry = mainline_level(18)  # a frozen body: markers change along the way
    played = page.evaluate("""async ([level, steps]) => {
      const { makeContract } = await import("/contract.js");
      const contract = makeContract((name, args) => window.gridforge.call(name, ...args));
      const views = [];
      let answer = await contract.snakes.start(level);
      const id = answer.id;
      views.push(answer.view);
      for (const step of steps) {
        answer = await contract.snakes.step(id, step);
        views.push(answer.view);
      }
      answer = await contract.snakes.undo(id);
      views.push(answer.view);
      const raw = await window.gridforge.call("gridforge.snakes.page.act", id, { do: "redo" });
      await contract.snakes.close(id);
      return { views, rawView: raw.view, rawChanges: raw.changes.length };
    }""", [entry["level"], entry["certificate"]["solution"][:-1]])
    from gridforge.snakes import page as snakes_page
    from gridforge.snakes import play

    session = snakes_page.open(entry["level"])["id"]
    expected = [play.answer(play.MIDEND.current(session))["view"]]
    for step in entry["certificate"]["solution"][:-1]:  # short of the win: undo still undoes
        snakes_page.act(session, {"do": "step", "step": step})
        expected.append(play.answer(play.MIDEND.current(session))["view"])
    snakes_page.act(session, {"do": "undo"})
    expected.append(play.answer(play.MIDEND.current(session))["view"])
    snakes_page.close(session)
    assert played["views"] == expected
    # what crossed from the worker was only what changed
    assert played["rawView"] is None and played["rawChanges"] > 0
