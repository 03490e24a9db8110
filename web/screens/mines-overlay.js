// The panels over the mines board (used by mines.js): a round's settlement with its lines
// (each pointing at the cell it comes from), a won battle's summary, and the ends of a run.
// Numbers and words come from Python's state; nothing is computed here.

import { t as tr } from "../i18n.js";
import { el } from "./dom.js";
import { offerList } from "./mines-items.js";
import { pointingLine } from "./mines-panels.js";

function summaries(list) {
  if (!list.length) return null;
  return el("ol", { class: "summaries" }, ...list.map((b) => el("li", {
    "data-testid": "mines-battle-summary-line" },
  tr(b.won ? "mines.summary.won" : "mines.summary.lost", { enemy: b.enemy_name || b.enemy, rounds: b.rounds,
    cells: b.cells_opened, mines: b.mines_dug, flags: b.flag_hits, from: b.player_hp_start, to: b.player_hp_end }))));
}

function settlementPanel(result, onContinue, offers, pick) {
  // Python's headline: how the round ended, or what took the player's last HP
  const panel = el("section", { class: "mines-settlement", "data-testid": "mines-settlement",
    role: "dialog", "aria-label": tr("mines.settlement") },
  el("h3", { "data-testid": "mines-settlement-title" }, result.title),
  el("p", { class: "totals" }, tr("mines.settlement.totals", { enemy: result.enemy_damage, you: result.player_damage })),
  // the round's lines as text, for who wants them: the board and the bars played them
  el("details", { class: "settlement-log", "data-testid": "mines-settlement-log" },
    el("summary", {}, tr("mines.sequence.log")),
    el("ul", {}, ...result.lines.map((line) => pointingLine(el("li", {
      "data-testid": "mines-settlement-line", "data-source": line.source }),
    { parts: line.parts || [line.text], cells: line.cell ? [line.cell] : [] })))));
  if (result.battle_summary) {
    const b = result.battle_summary;
    panel.append(el("div", { class: "battle-summary", "data-testid": "mines-battle-summary" },
      el("h4", {}, tr("mines.battle-summary.title", { battle: b.battle, enemy: b.enemy_name || b.enemy })),
      el("p", {}, tr("mines.battle-summary.text", { rounds: b.rounds, boards: b.boards, cells: b.cells_opened,
        mines: b.mines_dug, flags: b.flag_hits, from: b.player_hp_start, to: b.player_hp_end }))));
  }
  if (offers.length) panel.append(offerList(offers, pick));
  if (onContinue) {
    // With offers open, going on lets them go: the button says so and stands back.
    const label = offers.length ? "mines.next-battle-skip"
      : result.result === "battle_won" ? "mines.next-battle-button" : "mines.continue";
    panel.append(el("button", { type: "button", class: offers.length ? "secondary" : "primary",
      "data-testid": "mines-continue", onclick: () => onContinue() }, tr(label)));
  }
  return panel;
}

function endPanel(s, onNewRun) {
  const won = s.status === "won";
  const t = s.totals;
  return el("section", { class: `mines-end ${won ? "won" : "lost"}`, "data-testid": "mines-end",
    "data-result": s.status, role: "dialog", "aria-label": tr(won ? "mines.end.won-label" : "mines.end.lost-label") },
  el("h2", {}, won ? tr("mines.run-won") : tr("mines.end.fell", { battle: s.battle })),
  el("p", {}, won
    ? tr("mines.end.won-text", { battles: s.battles, hp: t.player_hp })
    : tr("mines.end.lost-text", { enemy: s.enemy.name, hp: s.enemy.hp, max: s.enemy.max_hp })),
  // New run comes first: it shows without scrolling on a phone, the numbers below it
  el("div", { class: "end-actions" },
    el("button", { type: "button", class: "primary", "data-testid": "mines-end-new-run",
      onclick: () => onNewRun() }, tr("home.new-run"))),
  el("ul", { class: "numbers", "data-testid": "mines-end-numbers" },
    el("li", {}, tr("mines.end.battles", { won: t.battles_won, battles: s.battles })),
    el("li", {}, tr("mines.end.rounds", { rounds: t.rounds })),
    el("li", {}, tr("mines.end.cells", { cells: t.cells_opened })),
    el("li", {}, tr("mines.end.mines", { mines: t.mines_dug })),
    el("li", {}, tr("mines.end.flags", { flags: t.flag_hits })),
    el("li", {}, tr("mines.end.damage", { dealt: t.damage_dealt, taken: t.damage_taken }))),
  summaries(s.battle_summaries));
}

/** The overlay: `{element, draw(state)}`; `on`: `{continueRun(), newRun(), pick(id)}`. */
export function boardOverlay(on) {
  const element = el("div", { class: "mines-overlay", hidden: true });
  function draw(s) {
    element.replaceChildren();
    element.classList.toggle("end", s.status === "won" || s.status === "lost");
    if (s.status === "playing") { element.hidden = true; return; }
    element.hidden = false;
    if (s.status === "settled") {
      element.append(settlementPanel(s.last_settlement, on.continueRun, s.offers || [], on.pick));
    }
    else element.append(endPanel(s, on.newRun));
  }
  return { element, draw };
}
