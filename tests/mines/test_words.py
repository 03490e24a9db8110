"""Issue 45's words: natural plurals in English, and in Chinese every game term in Chinese
(no Latin word of two letters or more in any message the mines screen or its rules card
can show), checked on the whole catalogue and on what a played run says."""

from __future__ import annotations

import random
import re

from gridforge import i18n
from gridforge.mines.intents import Intent
from gridforge.mines.run import Run

LATIN = re.compile(r"[A-Za-z]{2,}")
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def mines_messages(language: str) -> dict[str, str]:
    return {k: v for k, v in i18n.catalogue(language).items()
            if k.startswith(("mines.", "rules.mines"))}


def test_no_mines_message_in_chinese_has_a_latin_word():
    found = {k: LATIN.findall(PLACEHOLDER.sub("", v))
             for k, v in mines_messages("zh-CN").items()}
    assert {k: v for k, v in found.items() if v} == {}


def test_no_mines_message_in_english_hedges_a_plural():
    hedged = {k: v for k, v in mines_messages("en").items() if "(s)" in v or "(es)" in v}
    assert hedged == {}


def latin_in(value: object) -> list[str]:
    """Latin words in every string of ``value`` that a player may read (its ``text``,
    ``title``, ``parts`` ... ), leaving out keys and tags."""
    out: list[str] = []
    if isinstance(value, str):
        out += LATIN.findall(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key in ("text", "title", "parts", "terms", "tip", "name", "confirm", "cancel",
                       "stop_ask", "lines", "last_settlement", "enemy", "messages", "log",
                       "path_text", "settlement", "state"):
                out += latin_in(item)
    elif isinstance(value, list):
        for item in value:
            out += latin_in(item)
    return out


def test_a_run_played_in_chinese_says_nothing_in_latin_letters():
    rng = random.Random(45)
    with i18n.speaking("zh-CN"):
        run = Run(7)
        found = latin_in(run.to_json())
        for _ in range(120):
            if run.status == "settled":
                answer = run.continue_run()
            elif run.status != "playing":
                break
            else:
                offer = run.to_json()["offer"]
                cells = [c[:2] for c in offer["dig"]] + [c[:2] for c in offer["reach"]]
                if cells and rng.random() < 0.9:
                    answer = run.primary(tuple(rng.choice(cells)))
                else:
                    answer = run.act(Intent("stop"))
            found += latin_in(answer) + latin_in(run.to_json()) + latin_in(run.hint())
    assert found == []


def test_a_battle_summary_names_its_enemy_in_the_call_s_language():
    rng = random.Random(3)
    with i18n.speaking("zh-CN"):
        run = Run(3)
        for _ in range(2000):
            if run.battle_summaries or run.status in ("won", "lost"):
                break
            if run.status == "settled":
                run.continue_run()
                continue
            offer = run.to_json()["offer"]
            cells = [tuple(c[:2]) for c in offer["dig"] + offer["reach"]]
            proof = run.proved_next()  # dig what logic proves safe, else anything offered
            safe = tuple(proof["cell"]) if proof["kind"] == "safe" and proof["cell"] else None
            if safe in cells:
                run.primary(safe)
            elif cells:
                run.primary(rng.choice(cells))
            else:
                run.act(Intent("stop"))
        state = run.to_json()
        summary = state["battle_summaries"][0]
        assert summary["enemy"] == "Tunnel rat"  # the table's name, kept by the run
        assert summary["enemy_name"] == i18n.say("mines.enemy.tunnel-rat")
        assert not LATIN.findall(summary["enemy_name"])
        assert state["last_settlement"]["battle_summary"]["enemy_name"] == summary["enemy_name"]
