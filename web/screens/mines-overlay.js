// The panels over the mines board (used by mines.js): a round's settlement with its lines
// (each pointing at the cell it comes from), a won battle's summary, and the ends of a run.
// Numbers and words come from Python's state; nothing is computed here.

import { el } from "./dom.js";
import { pointingLine } from "./mines-panels.js";

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function summaries(list) {
  if (!list.length) return null;
  return el("ol", { class: "summaries" }, ...list.map((b) => el("li", {
    "data-testid": "mines-battle-summary-line" },
  `${b.enemy}: ${b.won ? "won" : "lost"} in ${plural(b.rounds, "round")}, ` +
  `${b.cells_opened} cells, ${b.mines_dug} mines dug, ${b.flag_hits} flags right, ` +
  `HP ${b.player_hp_start} → ${b.player_hp_end}`)));
}

function settlementPanel(result, onContinue) {
  // Python's headline: how the round ended, or what took the player's last HP
  const panel = el("section", { class: "mines-settlement", "data-testid": "mines-settlement",
    role: "dialog", "aria-label": "Round settlement" },
  el("h3", { "data-testid": "mines-settlement-title" }, result.title),
  el("p", { class: "totals" }, `Enemy −${result.enemy_damage} HP · you −${result.player_damage} HP`),
  el("ul", {}, ...result.lines.map((line) => pointingLine(el("li", {
    "data-testid": "mines-settlement-line", "data-source": line.source }),
  { parts: line.parts || [line.text], cells: line.cell ? [line.cell] : [] }))));
  if (result.battle_summary) {
    const b = result.battle_summary;
    panel.append(el("div", { class: "battle-summary", "data-testid": "mines-battle-summary" },
      el("h4", {}, `Battle ${b.battle} won: ${b.enemy}`),
      el("p", {}, `${plural(b.rounds, "round")} on ${plural(b.boards, "board")}; ` +
        `${b.cells_opened} cells dug open, ${b.mines_dug} mines dug, ${b.flag_hits} flags right; ` +
        `you went from ${b.player_hp_start} to ${b.player_hp_end} HP.`)));
  }
  if (onContinue) {
    panel.append(el("button", { type: "button", class: "primary", "data-testid": "mines-continue",
      onclick: () => onContinue() }, result.result === "battle_won" ? "Next battle" : "Continue"));
  }
  return panel;
}

function endPanel(s, onNewRun) {
  const won = s.status === "won";
  const t = s.totals;
  return el("section", { class: `mines-end ${won ? "won" : "lost"}`, "data-testid": "mines-end",
    "data-result": s.status, role: "dialog", "aria-label": won ? "Run won" : "Run lost" },
  el("h2", {}, won ? "You won the run!" : `You fell in battle ${s.battle}.`),
  el("p", {}, won
    ? `All ${s.battles} enemies defeated with ${t.player_hp} HP left.`
    : `${s.enemy.name} had ${s.enemy.hp} of ${s.enemy.max_hp} HP left.`),
  // New run comes first: it shows without scrolling on a phone, the numbers below it
  el("div", { class: "end-actions" },
    el("button", { type: "button", class: "primary", "data-testid": "mines-end-new-run",
      onclick: () => onNewRun() }, "New run")),
  el("ul", { class: "numbers", "data-testid": "mines-end-numbers" },
    el("li", {}, `Battles won: ${t.battles_won} of ${s.battles}`),
    el("li", {}, `Rounds: ${t.rounds}`),
    el("li", {}, `Cells dug open: ${t.cells_opened}`),
    el("li", {}, `Mines dug (ambushes): ${t.mines_dug}`),
    el("li", {}, `Flags on mines: ${t.flag_hits}`),
    el("li", {}, `Damage dealt ${t.damage_dealt} · taken ${t.damage_taken}`)),
  summaries(s.battle_summaries));
}

/** The overlay: `{element, draw(state)}`; `on`: `{continueRun(), newRun()}`. */
export function boardOverlay(on) {
  const element = el("div", { class: "mines-overlay", hidden: true });
  function draw(s) {
    element.replaceChildren();
    element.classList.toggle("end", s.status === "won" || s.status === "lost");
    if (s.status === "playing") { element.hidden = true; return; }
    element.hidden = false;
    if (s.status === "settled") element.append(settlementPanel(s.last_settlement, on.continueRun));
    else element.append(endPanel(s, on.newRun));
  }
  return { element, draw };
}
