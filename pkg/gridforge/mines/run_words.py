"""A mines run in the player's words: refusals, settlement lines and titles, the event log
and enemy names, from the catalogue (:mod:`gridforge.i18n`, looked up when read: always in
the call's language). A line points at cells instead of numbering them (:func:`say`).
"""

from __future__ import annotations

from gridforge import i18n
from gridforge.i18n import Words
from gridforge.mines.board import Board
from gridforge.mines.events import Event
from gridforge.mines.hints import Part, parts_text, ref
from gridforge.mines.intents import ActionOutcome, Intent
from gridforge.mines.run_json import (
    BattleSummary,
    Message,
    NamedSummary,
    Played,
    Said,
    SavedStep,
    Settlement,
    ShowLine,
    WordedLine,
    WordedSettlement,
)
from gridforge.mines.view import page_event

# The player's words (the catalogue's, gridforge.i18n, looked up when read: always in the
# call's language). Every refusal (D1 duty 6, data-supply item 10): the seed's reject_reason
# and sub_reason mapped to text.
REFUSALS = Words("mines.refusal", (
    "resource_face", "board_invalid", "not_adjacent", "target_revealed", "target_concealed",
    "flag_present", "flag_absent", "no_path", "out_of_catalog"))


# The same reasons as a stats panel counts them: a few words each (telemetry's
# ``reason_words``), plus "voided" (an intent that came after the round ended).
REASON_WORDS = Words("mines.reason", (
    "board_face", "resource_face", "phase", "board_invalid", "not_adjacent", "target_revealed",
    "target_concealed", "flag_present", "flag_absent", "no_path", "out_of_catalog", "voided",
    "rejected"))


PHASE_TEXT = Words("mines.phase", ("settled", "won", "lost", "playing"))


SOURCE_TEXT = Words("mines.source", ("safe_dig", "safe_chain", "flag_hit", "mine_ambush",
                                     "clear_bonus", "enemy_attack", "mine_shielded",
                                     "chain_overflow", "blast"))


TARGET_TEXT = Words("mines.target", ("enemy", "player", "enemy_attack", "heal"))


PATH_TEXT = Words("mines.path", ("cleared", "stopped", "ap_exhausted"))


# How a round ended, as the end of a sentence ("Round over: you stopped.").
ROUND_END_TEXT = Words("mines.round-end", ("cleared", "stopped", "ap_exhausted"))


# What took the player's last HP (the settlement line that did it).
FALL_TEXT = Words("mines.fall", ("enemy_attack", "mine_ambush"))


def say(*parts: Part, cells: list[list[int]] | None = None) -> Said:
    """A line for the player that points at cells instead of numbering them: ``parts`` as
    in a hint (a piece ``{"cell": [x, y], "text": ...}`` names a cell the page highlights on
    hover or tap), ``text`` the plain words, ``cells`` every cell the line is about."""
    pointed = [p["cell"] for p in parts if isinstance(p, dict)]
    return {"text": parts_text(list(parts)), "parts": list(parts),
            "cells": [list(c) for c in (cells if cells is not None else pointed)]}


def settlement_title(result: str, path_tag: object, lines: list[WordedLine]) -> str:
    """The settlement's headline in the player's words: how the round ended when play goes
    on, and when the player fell, what took the last HP (a run lost after a Stop was the
    enemy's strike, not the Stop)."""
    if result == "run_lost":
        last = next((line["source"] for line in reversed(lines)
                     if line["target"] == "player" and line["amount"] > 0), "enemy_attack")
        return i18n.say("mines.fell", why=FALL_TEXT.get(last, FALL_TEXT["enemy_attack"]))
    if result == "run_won":
        return i18n.say("mines.run-won")
    if result == "battle_won":
        return i18n.say("mines.battle-won")
    ended = ROUND_END_TEXT.get(str(path_tag), PATH_TEXT.get(str(path_tag), str(path_tag)))
    return i18n.say("mines.round-over", ended=ended)


def worded(settlement: Settlement) -> WordedSettlement:
    """A settlement with its words added in the call's language (the run keeps none, so a
    settlement shown again after the page changed language is said in the new one): the
    headline ``title``, ``path_text`` and each line's ``text`` and ``parts``."""
    path_tag = settlement["path_tag"]
    lines: list[WordedLine] = []
    for entry in settlement["lines"]:
        words = SOURCE_TEXT.get(entry["source"], entry["source"])
        tail = i18n.say("mines.line-tail-heal" if entry["target"] == "heal" else
                        "mines.line-tail", target=TARGET_TEXT[entry["target"]],
                        amount=entry["amount"])
        said = say(ref(entry["cell"], words), tail) if entry["cell"] else say(words + tail)
        lines.append({**entry, "text": said["text"], "parts": said["parts"]})
    summary = settlement["battle_summary"]
    # The words stand where they always stood: before continuation_hint.
    return {"round": settlement["round"], "battle": settlement["battle"],
            "path_tag": path_tag, "path_text": PATH_TEXT.get(str(path_tag), str(path_tag)),
            "title": settlement_title(settlement["result"], path_tag, lines),
            "continuation_hint": settlement["continuation_hint"], "lines": lines,
            "enemy_damage": settlement["enemy_damage"],
            "player_damage": settlement["player_damage"],
            "enemy_hp_before": settlement["enemy_hp_before"],
            "player_hp_before": settlement["player_hp_before"],
            "enemy_hp": settlement["enemy_hp"], "player_hp": settlement["player_hp"],
            "result": settlement["result"],
            "battle_summary": named(summary) if summary else summary,
            "sparks_earned": settlement.get("sparks_earned", 0),
            "player_healed": settlement.get("player_healed", 0),
            "show": show_lines(settlement)}


# The settlement line sources and the cause each shows as (issue 51: one line per cause and
# cell group). A dig and its chain are one group; every flag that hit is one group.
_CAUSES = {"safe_dig": "strike", "safe_chain": "strike", "chain_overflow": "overflow",
           "mine_ambush": "ambush", "mine_shielded": "shield", "flag_hit": "flags",
           "clear_bonus": "clear", "enemy_attack": "attack", "blast": "blast"}


def show_lines(settlement: Settlement) -> list[ShowLine]:
    """The settlement as the page plays it: the lines grouped by cause and cell group (a
    dig strikes once with its chain's total; the flags weaken the attack at once; the sparks
    earned one line), each with both sides after it, in the player's words."""
    shown: list[ShowLine] = []
    for line in settlement["lines"]:
        cause = _CAUSES.get(line["source"], line["source"])
        cells = [line["cell"]] if line["cell"] else []
        last = shown[-1] if shown else None
        joins = last is not None and last["cause"] == cause and (
            cause in ("flags", "blast") or (cause == "strike" and line["source"] == "safe_chain"))
        if last is not None and joins:
            last["cells"] += cells
            last["amount"] += line["amount"]
            last.update({"enemy_hp_after": line["enemy_hp_after"],
                         "player_hp_after": line["player_hp_after"],
                         "attack_after": line["attack_after"]})
            continue
        shown.append({"cause": cause, "cells": cells, "target": line["target"],
                      "amount": line["amount"], "enemy_hp_after": line["enemy_hp_after"],
                      "player_hp_after": line["player_hp_after"],
                      "attack_after": line["attack_after"], "text": ""})
    sparks = settlement.get("sparks_earned", 0)
    if sparks and shown:
        at = len(shown) - (shown[-1]["cause"] == "attack")  # before the enemy strikes
        before = shown[max(0, at - 1)]
        shown.insert(at, {**before, "cause": "sparks", "cells": [], "target": "sparks",
                          "amount": sparks})
    for entry in shown:
        entry["text"] = i18n.say(f"mines.show.{entry['cause']}", amount=entry["amount"],
                                 cells=len(entry["cells"]))
    return shown


def named(summary: BattleSummary) -> NamedSummary:
    """A battle summary with its enemy's name in the call's language (``enemy_name``; the
    run keeps the table's name, so a summary shown after the language changed reads right)."""
    return {**summary, "enemy_name": enemy_name(summary["enemy"])}


def enemy_name(name: str) -> str:
    """An enemy of the run table by its name in the call's language (the table's own name
    when the catalogue has none: a table from a file)."""
    key = "mines.enemy." + name.lower().replace(" ", "-")
    return i18n.say(key) if i18n.has(key) else name


def outcome_text(outcome: ActionOutcome, intent: Intent, status: str) -> str | None:
    """The player's words for a refused or voided intent (None when it was executed)."""
    if outcome.outcome == "voided":
        return i18n.say(f"mines.too-late.{intent.kind}")
    if outcome.outcome != "rejected":
        return None
    if outcome.reject_reason == "phase":
        return PHASE_TEXT.get(status, PHASE_TEXT["playing"])
    if intent.kind in ("flag_place", "flag_pull") and outcome.sub_reason == "not_adjacent":
        return i18n.say("mines.too-far-flag")
    return REFUSALS.get(outcome.sub_reason or outcome.reject_reason or "",
                        i18n.say("mines.not-now"))


def log_lines(events: list[Event], board: Board | None) -> list[Said]:
    """The event log in the player's words (lines as :func:`line`: a cell is pointed at,
    never numbered); an opened fog cell never shows a digit."""
    lines: list[Said] = []
    initial = [e for e in events if e["type"] == "cell_revealed" and e["channel"] == "initial"]
    if initial:
        lines.append(say(i18n.say("mines.log.wakes", count=len(initial)),
                          cells=[e["cell"] for e in initial]))
    reveals = [e for e in events if e["type"] == "cell_revealed" and e["channel"] != "initial"]
    if reveals:
        first = reveals[0]
        here = ref(first["cell"], i18n.say("mines.this-cell"))
        if first["kind"] == "mine":
            lines.append(say(*i18n.say_parts("mines.log.dug-mine", cell=here)))
        elif first["variant_ids"]:
            lines.append(say(*i18n.say_parts("mines.log.dug-fog", cell=here)))
        else:
            lines.append(say(*i18n.say_parts("mines.log.dug-digit", cell=here,
                                               digit=first["digit"])))
        if len(reveals) > 1:
            fog = sum(1 for e in reveals[1:] if e["variant_ids"])
            key = "mines.log.chain-fog" if fog else "mines.log.chain"
            lines.append(say(i18n.say(key + ("-one" if len(reveals) == 2 else ""),
                                      count=len(reveals) - 1, fog=fog),
                              cells=[e["cell"] for e in reveals[1:]]))
    for e in events:
        if e["type"] == "flag_judged":
            lines.append(say(*i18n.say_parts(
                "mines.log.flag-hit" if e["hit"] else "mines.log.flag-miss",
                cell=ref(e["cell"], i18n.say("mines.this-cell")))))
        elif e["type"] == "round_end":
            tag = PATH_TEXT.get(e["path_tag"], e["path_tag"])
            lines.append(say(i18n.say("mines.log.round-end-banked" if e.get("rap_banked")
                                      else "mines.log.round-end", round=e["round"], tag=tag,
                                      banked=e.get("rap_banked"))))
    return lines


def played_words(intents: list[Intent], outcomes: list[ActionOutcome], events: list[Event],
             settlement: Settlement | None, status_before: str, board: Board | None,
             ambush_damage: int, step: SavedStep | None) -> Played:
    """What playing ``intents`` tells the player: each refusal, else what was done, and the
    settlement's title; the events and the log in the player's words; ``step`` what the
    save records for it."""
    messages: list[Message] = []
    for intent, outcome in zip(intents, outcomes, strict=True):
        refusal = outcome_text(outcome, intent, status_before)
        if refusal is not None:
            messages.append({"kind": "error", "text": refusal})
    if not messages and not (settlement is not None and intents[-1].kind == "stop"):
        done = done_text(intents[-1], events, ambush_damage)
        if done:
            messages.append({"kind": "info", "text": done})
    said = None if settlement is None else worded(settlement)
    if said is not None:
        messages.append({"kind": "success" if said["result"] != "run_lost"
                         else "error", "text": said["title"]})
    return {"outcomes": [o.to_json() for o in outcomes],
            "outcome": outcomes[-1].to_json(),
            "events": [page_event(e) for e in events],
            "log": log_lines(events, board),
            "messages": messages, "settlement": said, "step": step}


def done_text(intent: Intent, events: list[Event], ambush_damage: int) -> str | None:
    """What an executed intent did, in a few words (None: nothing to say)."""
    reveals = [e for e in events if e["type"] == "cell_revealed"]
    if intent.kind == "dig" and reveals:
        first = reveals[0]
        if first["kind"] == "mine":
            return i18n.say("mines.done.ambush", damage=ambush_damage)
        more = len(reveals) - 1
        return i18n.say("mines.done.chain", more=more) if more else i18n.say("mines.done.dug")
    if intent.kind in ("flag_place", "flag_pull", "stop"):
        return i18n.say(f"mines.done.{intent.kind}")
    return None
