// The mines screen's panels (used by mines.js): the status line (AP, mines, fog), terms explained where they show, the round so far, the tip, the controls,
// the hint's sentence, the event log, and the stats with the playtest telemetry. Every
// number and word comes from Python's answers; lines that name cells point at them on the
// board instead of numbering them.

import { t as tr } from "../i18n.js";
import { el, svg } from "./dom.js";
import { flagGlyph, key } from "./mines-board.js";

/** Fill `node` with a line's words; a piece that names a cell points at it: hovering,
 *  focusing or tapping the piece (or the line) highlights that cell on the board. */
export function pointingLine(node, line) {
  const parts = line.parts || [line.text || ""];
  const all = line.cells ? [...line.cells] : [];
  node.replaceChildren(...parts.map((part) => {
    if (typeof part === "string") return part;
    if (!all.some(([x, y]) => x === part.cell[0] && y === part.cell[1])) all.push(part.cell);
    return el("span", { class: "cell-ref", "data-testid": "mines-cell-ref", tabindex: "0",
      role: "button", "data-cell": key(...part.cell), title: tr("mines.show-cell") },
    pointGlyph(), part.text);
  }));
  node.dataset.cells = JSON.stringify(all);
  node.classList.add("pointing");
  return node;
}

/** The mark of a piece that points at a cell: a small target, drawn (no font glyph). */
function pointGlyph() {
  const icon = svg("svg", { viewBox: "0 0 16 16", class: "glyph point", "aria-hidden": "true" });
  icon.append(svg("circle", { cx: "8", cy: "8", r: "4.5", fill: "none", stroke: "currentColor",
    "stroke-width": "1.6" }));
  for (const [x1, y1, x2, y2] of [[8, 0.5, 8, 4], [8, 12, 8, 15.5], [0.5, 8, 4, 8], [12, 8, 15.5, 8]]) {
    icon.append(svg("line", { x1, y1, x2, y2, stroke: "currentColor", "stroke-width": "1.6",
      "stroke-linecap": "round" }));
  }
  return icon;
}

function pointedBy(target) {
  const ref = target.closest && target.closest(".cell-ref");
  if (ref) return [ref.dataset.cell.split(",").map(Number)];
  const line = target.closest && target.closest(".pointing");
  return line && line.dataset.cells ? JSON.parse(line.dataset.cells) : null;
}

/** Lines in `section` light their cells on `view`: on hover or focus, and a tap (touch
 *  users have no hover) keeps them lit until the next tap. */
export function attachPointing(section, view) {
  const board = view.element;
  for (const type of ["pointerover", "focusin"]) {
    section.addEventListener(type, (event) => {
      if (board.contains(event.target)) return;
      const which = pointedBy(event.target);
      if (which) view.point(which);
    });
  }
  for (const type of ["pointerout", "focusout"]) {
    section.addEventListener(type, (event) => {
      if (board.contains(event.target)) return;
      if (pointedBy(event.target) && !section.dataset.pinned) view.point(null);
    });
  }
  section.addEventListener("click", (event) => {
    if (board.contains(event.target)) return;
    const which = pointedBy(event.target);
    if (!which) { if (section.dataset.pinned) { delete section.dataset.pinned; view.point(null); } return; }
    section.dataset.pinned = "1";
    view.point(which);
  });
}

/** Terms explained where they show: a tooltip for a mouse, and a tap (or Enter) opens the
 *  sentence in `box` for touch and keyboard (Python's words, `state.terms`). */
function termBook(section, state) {
  const box = el("div", { class: "mines-term", "data-testid": "mines-term", hidden: true,
    role: "note", "aria-live": "polite" });
  let open = null;
  const explain = (name) => (state() && state().terms ? state().terms[name] : "") || "";
  function button(word, name) {
    const node = el("button", { type: "button", class: "term", "data-term": name,
      "data-testid": "mines-term-button", "aria-expanded": "false" }, word);
    if (explain(name)) node.title = explain(name);
    if (open === name) node.setAttribute("aria-expanded", "true");
    return node;
  }
  function toggle(name) {
    open = open === name ? null : name;
    const text = open ? explain(open) : "";
    box.textContent = text;
    box.hidden = !text;
    for (const b of section.querySelectorAll("button.term")) {
      b.setAttribute("aria-expanded", String(b.dataset.term === open));
    }
  }
  section.addEventListener("click", (event) => {
    const node = event.target.closest && event.target.closest("button.term");
    if (node && section.contains(node)) toggle(node.dataset.term);
  });
  return { box, button };
}

/** The status line (AP, mines, fog), the term box, the round so far and the tip:
 *  `{draw(state), term(word, name), ...}` (the battle bar's words use `term` too). */
export function statusPanel(section, state) {
  const terms = termBook(section, state);
  const term = terms.button;
  const chips = {
    ledger: el("span", { class: "chip", "data-testid": "mines-ledger" }),
    count: el("span", { class: "chip mines-count", "data-testid": "mines-count" }),
    fog: el("span", { class: "chip fog", "data-testid": "mines-fog", hidden: true }),
  };
  const pendingLine = el("div", { class: "mines-pending", "data-testid": "mines-pending",
    "aria-live": "polite" });
  const tipLine = el("div", { class: "mines-tip", "data-testid": "mines-tip" });

  function draw(s) {
    const b = s.board;
    chips.ledger.replaceChildren(term(tr("mines.word.ap"), "AP"), ` ${s.ap}/${s.ap_per_round} · `,
      term(tr("mines.word.rap"), "RAP"),
      ` ${s.rap}`);
    chips.count.replaceChildren(...(b ? [term(tr("mines.chip.mines"), "mines"), tr("mines.chip.count", { total: b.mine_total, left: b.mines_left })] : []));
    const foggy = b && b.grid.some((row) => row.some((v) => v === "concealed-fog" || v === "open-fog"));
    chips.fog.hidden = !foggy;
    chips.fog.replaceChildren(...(foggy ? [term(tr("mines.chip.fog"), "fog"), tr("mines.chip.fog-here")] : []));
    const p = s.pending;
    pendingLine.replaceChildren(...(s.status === "playing"
      ? [term(tr("mines.pending"), "pending"), tr("mines.pending.enemy", { damage: p.enemy_damage }) +
        (p.ambushes ? tr(p.ambushes > 1 ? "mines.pending.ambushes" : "mines.pending.ambush",
          { damage: p.player_damage, count: p.ambushes }) : "") +
        // the strike the Stop question names too (the player's bar): 0 when the enemy falls first
        (s.enemy.pending >= s.enemy.hp ? tr("mines.pending.falls")
          : tr("mines.pending.strike", { attack: s.player.strike }))]
      : []));
    pendingLine.dataset.ambush = p.ambushes ? "1" : "0";
    if (tipLine.dataset.kind !== "chord") tipLine.textContent = s.tip || "";
    else delete tipLine.dataset.kind;  // the chord tip stays until the next answer
  }

  return {
    status: el("div", { class: "mines-status" }, ...Object.values(chips)),
    termBox: terms.box,
    term,
    pendingLine,
    tipLine,
    draw,
    /** A lesson taught the first time its subject shows (issue 51), kept like the chord tip. */
    lesson(text) {
      tipLine.textContent = text;
      tipLine.dataset.kind = "chord";
      tipLine.dataset.lesson = "1";
    },
    /** The one-time "no chord" tip (D1 duty 3), kept until the next answer is drawn. */
    chordTip() {
      tipLine.textContent = tr("mines.no-chord");
      tipLine.dataset.kind = "chord";
    },
  };
}

/** The buttons: Stop, Flag mode, Hint (with its stock), Fresh board, the seed and New run.
 *  `on`: `{stop, flagMode(on), hint, refresh, newRun}`. */
export function controls(on) {
  const seedInput = el("input", { type: "number", min: "0", step: "1", inputmode: "numeric",
    placeholder: tr("mines.seed-random"), "data-testid": "mines-seed", "aria-label": tr("mines.seed-label") });
  const newRunButton = el("button", { type: "button", "data-testid": "mines-new-run" }, tr("home.new-run"));
  // Stop is a secondary button (issue 45): it ends the round, so it is never the one that
  // stands out, and while AP is left it asks first (stopAsk below).
  const stopButton = el("button", { type: "button", class: "secondary", "data-testid": "mines-stop",
    title: tr("mines.stop-title"), "aria-haspopup": "dialog" }, tr("mines.stop"));
  const hintButton = el("button", { type: "button", "data-testid": "mines-hint",
    title: tr("mines.hint-title") }, tr("snakes.hint"));
  const flagButton = el("button", { type: "button", "data-testid": "mines-flag-mode",
    "aria-pressed": "false", title: tr("mines.flag-mode-title") },
  flagGlyph(), el("span", {}, tr("mines.flag-mode")));
  const refreshButton = el("button", { type: "button", "data-testid": "mines-refresh" }, tr("mines.refresh"));
  const hintStock = el("span", { class: "hint-stock", "data-testid": "mines-hint-stock" });
  hintButton.append(" ", hintStock);
  let flagMode = false;

  newRunButton.addEventListener("click", () => on.newRun());
  stopButton.addEventListener("click", () => on.stop());
  hintButton.addEventListener("click", () => on.hint());
  refreshButton.addEventListener("click", () => on.refresh());
  flagButton.addEventListener("click", () => {
    flagMode = !flagMode;
    flagButton.setAttribute("aria-pressed", String(flagMode));
    on.flagMode(flagMode);
  });

  function draw(s) {
    const playing = s.status === "playing" && s.offer.stop;
    stopButton.disabled = !playing;
    const hints = s.hints || { left: 0, per_battle: 0, can_ask: false };
    hintButton.disabled = !(playing && hints.can_ask);
    hintStock.textContent = `${hints.left}/${hints.per_battle}`;
    hintButton.dataset.left = String(hints.left);
    hintButton.title = `${(s.terms && s.terms.hints) || ""} (H)`.trim();
    refreshButton.disabled = !s.can_refresh;
    refreshButton.textContent = tr("mines.refresh-cost", { cost: s.refresh_cost });
  }

  return {
    element: el("div", { class: "mines-controls" }, stopButton, flagButton, hintButton, refreshButton,
      el("span", { class: "spacer" }),
      el("label", { class: "seed" }, tr("mines.seed"), seedInput), newRunButton),
    seedInput,
    newRunButton,
    draw,
  };
}

/** The question Stop asks while AP is left (Python's words, `state.stop_ask`): End the
 *  round or Keep digging, both buttons, Escape keeps digging. Focus goes to Keep digging
 *  (the safe answer) and comes back where it was. `on`: `{confirm(), cancel()}`. */
export function stopAsk(on) {
  const text = el("p", { id: "mines-stop-ask-text", "data-testid": "mines-stop-ask-text" });
  const confirm = el("button", { type: "button", class: "danger", "data-testid": "mines-stop-confirm",
    onclick: () => on.confirm() });
  const cancel = el("button", { type: "button", class: "primary", "data-testid": "mines-stop-cancel",
    onclick: () => on.cancel() });
  const element = el("div", { class: "mines-stop-ask", "data-testid": "mines-stop-ask", role: "alertdialog",
    "aria-labelledby": "mines-stop-ask-text", hidden: true }, text,
  el("div", { class: "ask-actions" }, confirm, cancel));
  let back = null;  // where focus was before the question
  element.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.preventDefault(); on.cancel(); }
  });
  function fill(ask) {
    text.textContent = ask.text;
    confirm.textContent = ask.confirm;
    cancel.textContent = ask.cancel;
  }
  return {
    element,
    get isOpen() { return !element.hidden; },
    open(ask) {
      back = document.activeElement;
      fill(ask);
      element.hidden = false;
      element.scrollIntoView({ block: "nearest" });
      cancel.focus();
    },
    /** Close the question; `refocus` puts focus back where it was (after Keep digging). */
    close(refocus) {
      if (element.hidden) return;
      element.hidden = true;
      if (refocus && back && back.isConnected) back.focus();
      back = null;
    },
    /** Follow the state: the question goes when Stop is no longer asked (round over). */
    draw(s) {
      if (element.hidden) return;
      if (!s.stop_ask) { element.hidden = true; back = null; } else fill(s.stop_ask);
    },
  };
}

/** The event log: the current board's story, newest line first. */
export function eventLog() {
  const element = el("ul", { class: "mines-log", "data-testid": "mines-log" });
  return {
    element,
    clear() { element.replaceChildren(); },
    add(lines) {
      for (const line of lines) element.prepend(pointingLine(el("li", {}), line));
      while (element.children.length > 60) element.lastChild.remove();
    },
  };
}

/** Stats: the player's numbers; the input telemetry (for playtesting) sits in a panel of
 *  its own inside, opened on purpose. `on`: `{refresh(), exportTelemetry()}`. */
export function statsPanel(on) {
  const playerStats = el("div", { class: "mines-player-stats", "data-testid": "mines-player-stats" });
  const statsBody = el("div", { class: "mines-stats-body", "data-testid": "mines-stats-body" });
  const telemetry = el("details", { class: "mines-telemetry", "data-testid": "mines-telemetry" },
    el("summary", {}, tr("mines.stats.telemetry")), statsBody,
    el("button", { type: "button", "data-testid": "mines-stats-export",
      onclick: () => on.exportTelemetry() }, tr("mines.stats.export")));
  const element = el("details", { class: "mines-stats", "data-testid": "mines-stats" },
    el("summary", {}, tr("mines.stats")), playerStats, telemetry);
  element.addEventListener("toggle", () => { if (element.open) on.refresh(); });
  telemetry.addEventListener("toggle", () => { if (telemetry.open) on.refresh(); });

  function drawPlayer(state) {
    const t = state.totals;
    const used = [...state.battle_summaries.map((b) => b.hints_used || 0)];
    const hints = state.hints || { left: 0, per_battle: 0 };
    playerStats.replaceChildren(el("ul", {},
      el("li", {}, tr("mines.stats.rounds", { rounds: t.rounds })),
      el("li", {}, tr("mines.stats.cells", { cells: t.cells_opened, mines: t.mines_dug, flags: t.flag_hits })),
      el("li", {}, tr("mines.end.damage", { dealt: t.damage_dealt, taken: t.damage_taken })),
      el("li", {}, tr("mines.stats.hints", { left: hints.left, per: hints.per_battle }) +
        (used.length ? tr("mines.stats.hints-used", { used: used.join(", ") }) : ""))));
  }

  function drawTelemetry(data) {
    const t = data.totals;
    const chains = Object.entries(t.chain_sizes).map(([size, n]) => `${size}: ${n}`).join(", ") || tr("mines.stats.none-yet");
    const rejections = Object.entries(t.rejections).map(([why, n]) => `${t.reason_words[why]}: ${n}`)
      .join(", ") || tr("mines.stats.none");
    statsBody.replaceChildren(
      el("p", { "data-testid": "mines-stats-friction" },
        tr("mines.stats.friction", { per: t.actions_per_ap ?? "–", guard: data.guard_actions_per_ap,
          over: t.rounds_over_guard, rounds: t.rounds })),
      el("p", {}, tr("mines.stats.batches", { batches: t.batches_per_round ?? "–", chains })),
      el("p", {}, tr("mines.stats.refusals", { rejections })),
      el("table", {},
        el("thead", {}, el("tr", {}, ...["battle", "round", "inputs", "ap", "per-ap", "batches"]
          .map((h) => el("th", {}, tr(`mines.stats.column.${h}`))))),
        el("tbody", {}, ...data.rounds.slice(-12).map((r) => el("tr", {},
          ...[r.battle, r.round, r.input_actions, r.ap_spent, r.actions_per_ap ?? "–", r.batches]
            .map((v) => el("td", {}, String(v))))))));
  }

  return {
    element,
    drawPlayer,
    drawTelemetry,
    get open() { return element.open; },
    get telemetryOpen() { return telemetry.open; },
  };
}
