// Mines: a whole run in the browser (route #mines). This screen draws what Python answers
// and forwards one input at a time; every rule, price, settlement, hint and word shown comes
// from Python (gridforge.mines.page). The view Python sends says what each click would do
// (dig, move and its path, a far cell's move-then-dig, flag, unflag) and carries no digit
// for an opened fog cell, so nothing here decides or reveals anything.
//
// The seed's D1 duties met here (docs/mines-run.md has the table): four cell states told
// apart at a glance; the dig reach always outlined; hover says move / dig / walk-and-dig /
// flag before the click and previews the move's path; dug mines drawn opened, walkable,
// with a mine glyph; every refusal and voided intent in words; animations by event channel
// (initial, chain, dig), under 150 ms, off under prefers-reduced-motion, never holding
// input back; the one-time "no chord" tip. Input: mouse (left acts, right flags), touch
// (tap acts, long press or the flag-mode toggle flags), keyboard on the focused board
// (arrows, Space/Enter, F, S, H).

import { serialQueue } from "../contract.js";
import { minesRunOpen, PROGRESS_KEY } from "../store.js";
import { download, el, svg } from "./dom.js";

const LONG_PRESS_MS = 450;
const MOVE_TOLERANCE_PX = 12;
const STAGGER_MS = 45;  // the longest delay of a staggered reveal; each animation is 100 ms
const SEED_LIMIT = 2 ** 31;

function ensureStyles() {
  if (document.querySelector("link[data-mines-css]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./mines.css", import.meta.url).href;
  link.dataset.minesCss = "1";
  document.head.append(link);
}

// A dug mine is trodden ground (walkable), not danger: a small scar mark in earth tones.
function scarGlyph() {
  const icon = svg("svg", { viewBox: "0 0 20 20", class: "glyph scar", "aria-hidden": "true" });
  icon.append(svg("circle", { cx: "10", cy: "10", r: "3.2", fill: "none", stroke: "#6b5a3e",
    "stroke-width": "1.6" }));
  for (const [x1, y1, x2, y2] of [[10, 3.5, 10, 5.5], [10, 14.5, 10, 16.5], [3.5, 10, 5.5, 10],
    [14.5, 10, 16.5, 10]]) {
    icon.append(svg("line", { x1, y1, x2, y2, stroke: "#6b5a3e", "stroke-width": "1.6",
      "stroke-linecap": "round" }));
  }
  return icon;
}

function flagGlyph() {
  const icon = svg("svg", { viewBox: "0 0 20 20", class: "glyph", "aria-hidden": "true" });
  icon.append(svg("rect", { x: "4", y: "16", width: "11", height: "2.4", fill: "#111" }));
  icon.append(svg("rect", { x: "8.6", y: "2", width: "2", height: "15", fill: "#111" }));
  icon.append(svg("path", { d: "M10.6 2.2 L17.5 5.6 L10.6 9 Z", fill: "#d40000",
    stroke: "#111", "stroke-width": "0.8" }));
  return icon;
}

const key = (x, y) => `${x},${y}`;

export const screen = {
  id: "mines",
  title: "Mines",
  mount(root, app) {
    ensureStyles();
    let live = true;
    let runId = null;
    let state = null;
    let flagMode = false;
    let chordTipShown = false;
    let hint = null;
    let cursor = null;           // [x, y] of the keyboard cursor
    let cells = [];              // cells[y][x] -> element
    let drawnShape = "";         // "cols x rows" of the drawn grid
    let offers = new Map();      // "x,y" -> {primary, secondary, parent, stand}
    let queue = null;            // the serial queue of intents (made with the section)
    const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

    // ------------------------------------------------------------------ the page
    const section = el("section", { class: "mines", "data-testid": "mines" });
    const seedInput = el("input", { type: "number", min: "0", step: "1", inputmode: "numeric",
      placeholder: "random", "data-testid": "mines-seed", "aria-label": "Seed of a new run" });
    const newRunButton = el("button", { type: "button", "data-testid": "mines-new-run" }, "New run");
    const stopButton = el("button", { type: "button", class: "primary", "data-testid": "mines-stop",
      title: "End the round now and bank the AP left (S)" }, "Stop");
    const hintButton = el("button", { type: "button", "data-testid": "mines-hint",
      title: "Show the next cell logic proves (H)" }, "Hint");
    const flagButton = el("button", { type: "button", "data-testid": "mines-flag-mode",
      "aria-pressed": "false", title: "While on, a tap or click places or pulls a flag" },
    flagGlyph(), el("span", {}, "Flag mode"));
    const refreshButton = el("button", { type: "button", "data-testid": "mines-refresh" }, "Fresh board");

    const chips = {
      battle: el("span", { class: "chip", "data-testid": "mines-battle" }),
      enemy: el("span", { class: "chip enemy", "data-testid": "mines-enemy" }),
      player: el("span", { class: "chip player", "data-testid": "mines-player" }),
      ledger: el("span", { class: "chip", "data-testid": "mines-ledger" }),
      count: el("span", { class: "chip mines-count", "data-testid": "mines-count" }),
      fog: el("span", { class: "chip fog", "data-testid": "mines-fog", hidden: true }),
    };
    // Every term is explained where it shows: a tooltip for a mouse, and a tap (or Enter)
    // opens the sentence under the status line for touch and keyboard (Python's words).
    const termBox = el("div", { class: "mines-term", "data-testid": "mines-term", hidden: true,
      role: "note", "aria-live": "polite" });
    let openTerm = null;
    function term(word, name) {
      const button = el("button", { type: "button", class: "term", "data-term": name,
        "data-testid": "mines-term-button", "aria-expanded": "false" }, word);
      const explanation = state && state.terms ? state.terms[name] : "";
      if (explanation) button.title = explanation;
      if (openTerm === name) button.setAttribute("aria-expanded", "true");
      return button;
    }
    function showTerm(name) {
      openTerm = openTerm === name ? null : name;
      const text = openTerm && state && state.terms ? state.terms[openTerm] : "";
      termBox.textContent = text || "";
      termBox.hidden = !text;
      for (const b of section.querySelectorAll("button.term")) {
        b.setAttribute("aria-expanded", String(b.dataset.term === openTerm));
      }
    }
    const pendingLine = el("div", { class: "mines-pending", "data-testid": "mines-pending",
      "aria-live": "polite" });
    const tipLine = el("div", { class: "mines-tip", "data-testid": "mines-tip" });
    const board = el("div", { class: "mines-board", "data-testid": "mines-board", tabindex: "0",
      role: "grid", "aria-label": "Mines board: arrows move the cursor, Space digs or moves, " +
        "F flags, S stops, H hints" });
    const overlay = el("div", { class: "mines-overlay", hidden: true });
    const wrap = el("div", { class: "mines-board-wrap" }, board, overlay);
    const hintBox = el("div", { class: "mines-hint-text", "data-testid": "mines-hint-text",
      hidden: true });
    const hintStock = el("span", { class: "hint-stock", "data-testid": "mines-hint-stock" });
    hintButton.append(" ", hintStock);
    const log = el("ul", { class: "mines-log", "data-testid": "mines-log" });
    // Stats: the player's numbers; the input telemetry (for playtesting) sits in a panel of
    // its own inside, opened on purpose.
    const playerStats = el("div", { class: "mines-player-stats", "data-testid": "mines-player-stats" });
    const statsBody = el("div", { class: "mines-stats-body", "data-testid": "mines-stats-body" });
    const telemetryPanel = el("details", { class: "mines-telemetry", "data-testid": "mines-telemetry" },
      el("summary", {}, "Playtest telemetry"), statsBody,
      el("button", { type: "button", "data-testid": "mines-stats-export",
        onclick: () => exportTelemetry() }, "Export as JSON"));
    const stats = el("details", { class: "mines-stats", "data-testid": "mines-stats" },
      el("summary", {}, "Stats"), playerStats, telemetryPanel);

    section.append(
      el("div", { class: "mines-status" }, ...Object.values(chips)),
      termBox,
      pendingLine,
      el("div", { class: "mines-controls" }, stopButton, flagButton, hintButton, refreshButton,
        el("span", { class: "spacer" }),
        el("label", { class: "seed" }, "Seed ", seedInput), newRunButton),
      tipLine, wrap, hintBox,
      el("div", { class: "mines-side" }, el("h3", {}, "Events"), log, stats));
    root.append(section);

    // ------------------------------------------------------------------ calls, in order
    /** Run `work` after every earlier input: one intent at a time, in the order given. */
    function enqueue(work) {
      queue ??= serialQueue({
        live: () => live,
        report: (error) => app.message(error.message, "error"),
        onBusy: (waiting) => { if (waiting) section.dataset.busy = "1"; else delete section.dataset.busy; },
      });
      return queue.act(work);
    }

    function save(answer) {
      if (!answer.save) return;
      try {
        // The summary lets the home screen say where the run stands without replaying it.
        const s = answer.state;
        const summary = s ? { status: s.status, battle: s.battle, battles: s.battles } : null;
        app.store.updateProgress((progress) => {
          progress.mines = { ...progress.mines, run: answer.save, summary };
        });
      } catch (error) {
        console.error(error);
      }
    }

    function take(answer) {
      const before = state;
      state = answer.state;
      save(answer);
      // The log tells the current board's story: a line names cells of its own board.
      if (before && state && (before.battle !== state.battle || before.board_no !== state.board_no)) {
        log.replaceChildren();
      }
      for (const line of answer.log || []) log.prepend(pointingLine(el("li", {}), line));
      while (log.children.length > 60) log.lastChild.remove();
      hint = null;
      hintBox.hidden = true;
      hintBox.replaceChildren();
      render();
      animate(answer.events || []);
      const messages = answer.messages || [];
      if (messages.length) {
        const last = messages.find((m) => m.kind === "error") || messages[messages.length - 1];
        app.message(messages.map((m) => m.text).join(" "), last.kind);
      }
      if (stats.open) refreshStats();
    }

    async function startRun(seed) {
      if (runId) app.python.mines.closeRun(runId).catch(() => {});
      const answer = await app.python.mines.newRun(seed);
      if (!live) return;
      runId = answer.run;
      section.dataset.run = runId;
      chordTipShown = false;
      cursor = null;
      log.replaceChildren();
      take(answer);
      app.message(`A new run (seed ${seed}). ${answer.state.tip || ""}`.trim(), "info");
    }

    async function resume(saved) {
      try {
        const answer = await app.python.mines.resumeRun(saved);
        if (!live) return;
        runId = answer.run;
        section.dataset.run = runId;
        take(answer);
        const more = (answer.messages || []).map((m) => ` ${m.text}`).join("");
        app.message(`Your run is back where you left it: battle ${answer.state.battle}, ` +
          `round ${answer.state.round}.${more}`, "info");
      } catch (error) {
        if (!live) return;
        if (error.type === "Cancelled") {
          // Nothing was refused: the saved run stays as it is for the next visit.
          app.message("Resuming your run was stopped; it is still saved. Open Mines again to " +
            "resume it, or press New run.", "error");
          return;
        }
        // Python refused the saved run (a damaged save, or one from an older build): keep
        // the whole stored progress aside, read back equal, before a new run saves over it.
        const kept = app.store.keepAside(PROGRESS_KEY, error.message, "mines run");
        const where = kept.kept
          ? `it was kept as “${kept.kept}” in this browser.`
          : kept.held
            ? `it stays as it was under “${PROGRESS_KEY}” (no room for a copy) and this new ` +
              "run is not saved over it."
            : "there was nothing stored to keep.";
        const seed = randomSeed();
        await startRun(seed);
        if (!live) return;
        // Where the run went comes first: the message line shows two lines.
        app.message(`Your saved run could not be resumed: ${where} A new run starts (seed ` +
          `${seed}). Why: ${error.message}`, "error");
      }
    }

    function randomSeed() {
      return Math.floor(Math.random() * SEED_LIMIT);
    }

    function newRun() {
      const text = seedInput.value.trim();
      const seed = text === "" ? randomSeed() : Number(text);
      if (!Number.isInteger(seed) || seed < 0) {
        app.message("The seed is a whole number from 0 up (or empty for a random one).", "error");
        return;
      }
      enqueue(() => startRun(seed));
    }

    function primary(x, y) {
      if (!runId) return;
      enqueue(async () => {
        if (state && state.board && !chordTipShown && Number.isInteger(state.board.grid[y]?.[x]) &&
            state.board.grid[y][x] > 0) {
          chordTipShown = true;  // once per run, never modal (D1 duty 3)
          tipLine.textContent = "Clicking a number moves you there: this game has no chord.";
          tipLine.dataset.kind = "chord";
        }
        take(await app.python.mines.primary(runId, [x, y]));
      });
    }

    function secondary(x, y) {
      if (!runId) return;
      enqueue(async () => take(await app.python.mines.secondary(runId, [x, y])));
    }

    function act(x, y) {
      if (flagMode) secondary(x, y); else primary(x, y);
    }

    function stop() {
      if (!runId) return;
      enqueue(async () => take(await app.python.mines.act(runId, { kind: "stop" })));
    }

    function continueRun() {
      if (!runId) return;
      enqueue(async () => {
        // A second press queued behind the first finds the next round already begun.
        if (!state || !state.can_continue) return;
        take(await app.python.mines.continueRun(runId));
      });
    }

    function refresh() {
      if (!runId) return;
      enqueue(async () => take(await app.python.mines.refresh(runId)));
    }

    function askHint() {
      if (!runId) return;
      enqueue(async () => {
        if (state && state.hints && !state.hints.can_ask) return;
        const answer = await app.python.mines.hint(runId);
        if (!live) return;
        if (answer.state) {
          state = answer.state;
          save(answer);
          render();
        }
        hint = answer;
        pointingLine(hintBox, answer);
        hintBox.hidden = false;
        const paid = answer.price ? ` (${answer.hints_left} left in this battle)` : "";
        app.message(answer.cell ? `Hint${paid}: ${answer.text}` : answer.text,
          answer.refused ? "error" : "info");
        drawHint();
      });
    }

    async function refreshStats() {
      drawPlayerStats();
      if (!runId || !telemetryPanel.open) return;
      const data = await app.python.mines.telemetry(runId);
      if (!live) return;
      drawStats(data);
    }

    function exportTelemetry() {
      if (!runId) return;
      enqueue(async () => {
        const data = await app.python.mines.telemetry(runId);
        download(`gridforge-mines-telemetry-${data.seed}.json`, `${JSON.stringify(data, null, 2)}\n`);
      });
    }

    // ------------------------------------------------------------------ drawing
    function render() {
      if (!state) return;
      const s = state;
      const b = s.board;
      section.dataset.status = s.status;
      chips.battle.textContent = `Battle ${s.battle}/${s.battles}`;
      chips.enemy.replaceChildren(`${s.enemy.name} ${s.enemy.hp}/${s.enemy.max_hp} `, term("HP", "HP"),
        " · ", term("attack", "attack"), ` ${s.enemy.attack}`);
      chips.player.replaceChildren(`You ${s.player.hp}/${s.player.max_hp} `, term("HP", "HP"));
      chips.ledger.replaceChildren(term("AP", "AP"), ` ${s.ap}/${s.ap_per_round} · `, term("RAP", "RAP"),
        ` ${s.rap}`);
      chips.count.replaceChildren(...(b ? [term("Mines", "mines"), ` ${b.mine_total} · left ${b.mines_left}`] : []));
      const foggy = b && b.grid.some((row) => row.some((v) => v === "concealed-fog" || v === "open-fog"));
      chips.fog.hidden = !foggy;
      chips.fog.replaceChildren(...(foggy ? [term("Fog", "fog"), " on this board"] : []));
      const p = s.pending;
      pendingLine.replaceChildren(...(s.status === "playing"
        ? [term("This round so far", "pending"), `: enemy −${p.enemy_damage}` +
          (p.ambushes ? ` · you −${p.player_damage} (${p.ambushes} ambush${p.ambushes > 1 ? "es" : ""})` : "") +
          ` · then the enemy strikes for ${p.enemy_attack}`]
        : []));
      pendingLine.dataset.ambush = p.ambushes ? "1" : "0";
      if (tipLine.dataset.kind !== "chord") tipLine.textContent = s.tip || "";
      else delete tipLine.dataset.kind;  // the chord tip stays until the next answer
      const playing = s.status === "playing" && s.offer.stop;
      stopButton.disabled = !playing;
      const hints = s.hints || { left: 0, per_battle: 0, can_ask: false };
      hintButton.disabled = !(playing && hints.can_ask);
      hintStock.textContent = `${hints.left}/${hints.per_battle}`;
      hintButton.dataset.left = String(hints.left);
      hintButton.title = `${(s.terms && s.terms.hints) || ""} (H)`.trim();
      refreshButton.disabled = !s.can_refresh;
      refreshButton.textContent = `Fresh board (${s.refresh_cost} RAP)`;
      offers = new Map();
      for (const [x, y] of s.offer.dig) offers.set(key(x, y), { primary: "dig" });
      for (const [x, y, sx, sy] of s.offer.reach) offers.set(key(x, y), { primary: "reach", stand: [sx, sy] });
      for (const [x, y, px, py] of s.offer.move) offers.set(key(x, y), { primary: "move", parent: [px, py] });
      for (const [x, y] of s.offer.flag_place) {
        offers.set(key(x, y), { ...(offers.get(key(x, y)) || {}), secondary: "flag_place" });
      }
      for (const [x, y] of s.offer.flag_pull) {
        offers.set(key(x, y), { ...(offers.get(key(x, y)) || {}), secondary: "flag_pull" });
      }
      if (b) drawBoard(b);
      drawOverlay();
    }

    function drawBoard(b) {
      const shape = `${b.cols}x${b.rows}`;
      if (shape !== drawnShape) {
        drawnShape = shape;
        board.style.setProperty("--cols", b.cols);
        board.style.setProperty("--rows", b.rows);
        board.dataset.cols = String(b.cols);
        board.dataset.rows = String(b.rows);
        cells = [];
        const nodes = [];
        for (let y = 0; y < b.rows; y++) {
          const row = [];
          for (let x = 0; x < b.cols; x++) {
            const cell = el("div", { class: "cell", role: "gridcell", "data-testid": "mines-cell",
              "data-x": String(x), "data-y": String(y) });
            row.push(cell);
            nodes.push(cell);
          }
          cells.push(row);
        }
        board.replaceChildren(...nodes);
      }
      if (!cursor || cursor[0] >= b.cols || cursor[1] >= b.rows) cursor = [...b.avatar];
      const costs = state.offer.costs;
      for (let y = 0; y < b.rows; y++) {
        for (let x = 0; x < b.cols; x++) {
          const cell = cells[y][x];
          const value = b.grid[y][x];
          let kind;
          if (Number.isInteger(value)) kind = value === 0 ? "open-zero" : "open";
          else kind = value;
          const offer = offers.get(key(x, y)) || {};
          if (cell.dataset.state !== kind || cell.dataset.digit !== String(value)) {
            cell.dataset.state = kind;
            cell.dataset.digit = kind === "open" ? String(value) : "";
            cell.replaceChildren();
            if (kind === "open") cell.textContent = String(value);
            else if (kind === "flag") cell.append(flagGlyph());
            else if (kind === "mine") cell.append(scarGlyph());
          }
          cell.dataset.do = offer.primary || "none";
          cell.classList.toggle("reach", offer.primary === "dig");
          if (x === b.avatar[0] && y === b.avatar[1]) cell.dataset.avatar = "1";
          else delete cell.dataset.avatar;
          cell.classList.remove("path", "hint-target", "hint-digit", "hint-also");
          delete cell.dataset.hint;
          cell.title = describe(kind, value, offer, costs, x === b.avatar[0] && y === b.avatar[1]);
        }
      }
      board.dataset.focus = key(...cursor);
      drawCursor();
    }

    /** The tooltip of a cell: what it is and what a click would do (from Python's offer). */
    function describe(kind, value, offer, costs, avatar) {
      const what = {
        concealed: "Concealed",
        "concealed-fog": "Concealed, in fog: its digit will stay hidden",
        flag: "Flag: your mark that a mine lies here; it is judged when the round ends " +
          "(a flag on a mine weakens the enemy)",
        mine: "Dug mine: opened ground now, you can walk over it",
        "open-fog": "Opened, in fog: safe floor with no digit",
        "open-zero": "Opened: no mine around",
        open: `Opened: ${value} mine${value === 1 ? "" : "s"} around`,
      }[kind];
      const doing = {
        dig: `click digs it (${costs.dig} AP)`,
        reach: `click walks beside it and digs it (${costs.reach} AP)`,
        move: "click moves you here (free)",
      }[offer.primary];
      const flagging = {
        flag_place: `right click or long press flags it (${costs.flag_place} AP)`,
        flag_pull: `right click or long press pulls the flag (${costs.flag_pull} AP)`,
      }[offer.secondary];
      return [avatar ? "You are here" : null, what, doing, flagging].filter(Boolean).join(" · ");
    }

    /** Fill `node` with a line's words; a piece that names a cell points at it: hovering,
     *  focusing or tapping the piece (or the line) highlights that cell on the board. */
    function pointingLine(node, line) {
      const parts = line.parts || [line.text || ""];
      const all = line.cells ? [...line.cells] : [];
      node.replaceChildren(...parts.map((part) => {
        if (typeof part === "string") return part;
        if (!all.some(([x, y]) => x === part.cell[0] && y === part.cell[1])) all.push(part.cell);
        return el("span", { class: "cell-ref", "data-testid": "mines-cell-ref", tabindex: "0",
          role: "button", "data-cell": key(...part.cell), title: "Show this cell on the board" },
        part.text);
      }));
      node.dataset.cells = JSON.stringify(all);
      node.classList.add("pointing");
      return node;
    }

    function point(cellsList) {
      for (const n of board.querySelectorAll(".pointed")) n.classList.remove("pointed");
      delete board.dataset.pointed;
      for (const [x, y] of cellsList || []) {
        const c = cells[y] && cells[y][x];
        if (c) c.classList.add("pointed");
      }
      if (cellsList && cellsList.length) board.dataset.pointed = cellsList.map((c) => key(...c)).join(" ");
    }

    function pointedBy(target) {
      const ref = target.closest && target.closest(".cell-ref");
      if (ref) return [ref.dataset.cell.split(",").map(Number)];
      const line = target.closest && target.closest(".pointing");
      return line && line.dataset.cells ? JSON.parse(line.dataset.cells) : null;
    }

    for (const type of ["pointerover", "focusin"]) {
      section.addEventListener(type, (event) => {
        if (board.contains(event.target)) return;
        const which = pointedBy(event.target);
        if (which) point(which);
      });
    }
    for (const type of ["pointerout", "focusout"]) {
      section.addEventListener(type, (event) => {
        if (board.contains(event.target)) return;
        if (pointedBy(event.target) && !section.dataset.pinned) point(null);
      });
    }
    // a tap (touch users have no hover): keeps the cell highlighted until the next tap
    section.addEventListener("click", (event) => {
      if (board.contains(event.target)) return;
      const which = pointedBy(event.target);
      if (!which) { if (section.dataset.pinned) { delete section.dataset.pinned; point(null); } return; }
      section.dataset.pinned = "1";
      point(which);
    });

    function drawCursor() {
      for (const node of board.querySelectorAll(".cursor")) node.classList.remove("cursor");
      if (cursor && cells[cursor[1]]) cells[cursor[1]][cursor[0]].classList.add("cursor");
    }

    function drawHint() {
      for (const node of board.querySelectorAll(".hint-target, .hint-digit, .hint-also")) {
        node.classList.remove("hint-target", "hint-digit", "hint-also");
        delete node.dataset.hint;
      }
      delete board.dataset.hint;
      if (!hint || !hint.cell) return;
      const [hx, hy] = hint.cell;
      const target = cells[hy] && cells[hy][hx];
      if (!target) return;
      target.classList.add("hint-target");
      target.dataset.hint = hint.kind;
      board.dataset.hint = key(hx, hy);
      for (const [x, y] of hint.constraints) {
        cells[y][x].classList.add("hint-digit");
        cells[y][x].dataset.hint = "digit";
      }
      for (const [x, y] of [...hint.safe, ...hint.mines]) {
        if (x !== hx || y !== hy) cells[y][x].classList.add("hint-also");
      }
    }

    function drawOverlay() {
      const s = state;
      overlay.replaceChildren();
      overlay.classList.toggle("end", s.status === "won" || s.status === "lost");
      if (s.status === "playing") { overlay.hidden = true; return; }
      overlay.hidden = false;
      if (s.status === "settled") {
        overlay.append(settlementPanel(s.last_settlement, true));
        return;
      }
      const won = s.status === "won";
      const t = s.totals;
      const panel = el("section", { class: `mines-end ${won ? "won" : "lost"}`, "data-testid": "mines-end",
        "data-result": s.status, role: "dialog", "aria-label": won ? "Run won" : "Run lost" },
      el("h2", {}, won ? "You won the run!" : `You fell in battle ${s.battle}.`),
      el("p", {}, won
        ? `All ${s.battles} enemies defeated with ${t.player_hp} HP left.`
        : `${s.enemy.name} had ${s.enemy.hp} of ${s.enemy.max_hp} HP left.`),
      // New run comes first: it shows without scrolling on a phone, the numbers below it
      el("div", { class: "end-actions" },
        el("button", { type: "button", class: "primary", "data-testid": "mines-end-new-run",
          onclick: () => { seedInput.value = ""; newRun(); } }, "New run")),
      el("ul", { class: "numbers", "data-testid": "mines-end-numbers" },
        el("li", {}, `Battles won: ${t.battles_won} of ${s.battles}`),
        el("li", {}, `Rounds: ${t.rounds}`),
        el("li", {}, `Cells dug open: ${t.cells_opened}`),
        el("li", {}, `Mines dug (ambushes): ${t.mines_dug}`),
        el("li", {}, `Flags on mines: ${t.flag_hits}`),
        el("li", {}, `Damage dealt ${t.damage_dealt} · taken ${t.damage_taken}`)),
      summaries(s.battle_summaries));
      overlay.append(panel);
    }

    function summaries(list) {
      if (!list.length) return null;
      return el("ol", { class: "summaries" }, ...list.map((b) => el("li", {
        "data-testid": "mines-battle-summary-line" },
      `${b.enemy}: ${b.won ? "won" : "lost"} in ${b.rounds} round${b.rounds === 1 ? "" : "s"}, ` +
      `${b.cells_opened} cells, ${b.mines_dug} mines dug, ${b.flag_hits} flags right, ` +
      `HP ${b.player_hp_start} → ${b.player_hp_end}`)));
    }

    function settlementPanel(result, withContinue) {
      const headline = {
        continue: "Round over", battle_won: "Enemy defeated!", run_won: "Run won!",
        run_lost: "You fell.",
      }[result.result];
      const panel = el("section", { class: "mines-settlement", "data-testid": "mines-settlement",
        role: "dialog", "aria-label": "Round settlement" },
      el("h3", { "data-testid": "mines-settlement-title" }, `${headline} (${result.path_text})`),
      el("p", { class: "totals" }, `Enemy −${result.enemy_damage} HP · you −${result.player_damage} HP`),
      el("ul", {}, ...result.lines.map((line) => pointingLine(el("li", {
        "data-testid": "mines-settlement-line", "data-source": line.source }),
      { parts: line.parts || [line.text], cells: line.cell ? [line.cell] : [] }))));
      if (result.battle_summary) {
        const b = result.battle_summary;
        panel.append(el("div", { class: "battle-summary", "data-testid": "mines-battle-summary" },
          el("h4", {}, `Battle ${b.battle} won: ${b.enemy}`),
          el("p", {}, `${b.rounds} round${b.rounds === 1 ? "" : "s"} on ${b.boards} board${b.boards === 1 ? "" : "s"}; ` +
            `${b.cells_opened} cells dug open, ${b.mines_dug} mines dug, ${b.flag_hits} flags right; ` +
            `you went from ${b.player_hp_start} to ${b.player_hp_end} HP.`)));
      }
      if (withContinue) {
        panel.append(el("button", { type: "button", class: "primary", "data-testid": "mines-continue",
          onclick: () => continueRun() }, result.result === "battle_won" ? "Next battle" : "Continue"));
      }
      return panel;
    }

    function drawPlayerStats() {
      if (!state) return;
      const t = state.totals;
      const used = [...state.battle_summaries.map((b) => b.hints_used || 0)];
      const hints = state.hints || { left: 0, per_battle: 0 };
      playerStats.replaceChildren(el("ul", {},
        el("li", {}, `Rounds played: ${t.rounds}`),
        el("li", {}, `Cells dug open: ${t.cells_opened} · mines dug: ${t.mines_dug} · flags on mines: ${t.flag_hits}`),
        el("li", {}, `Damage dealt ${t.damage_dealt} · taken ${t.damage_taken}`),
        el("li", {}, `Hints left in this battle: ${hints.left} of ${hints.per_battle}` +
          (used.length ? ` · used in earlier battles: ${used.join(", ")}` : ""))));
    }

    function drawStats(data) {
      const t = data.totals;
      const chains = Object.entries(t.chain_sizes).map(([size, n]) => `${size}: ${n}`).join(", ") || "none yet";
      const rejections = Object.entries(t.rejections).map(([why, n]) => `${t.reason_words[why]}: ${n}`)
        .join(", ") || "none";
      statsBody.replaceChildren(
        el("p", { "data-testid": "mines-stats-friction" },
          `Input actions per AP spent: ${t.actions_per_ap ?? "–"} (guard rail ≤ ${data.guard_actions_per_ap}; ` +
          `${t.rounds_over_guard} of ${t.rounds} rounds above it)`),
        el("p", {}, `Batches per round: ${t.batches_per_round ?? "–"} · chain sizes (cells per dig): ${chains}`),
        el("p", {}, `Refusals by reason: ${rejections}`),
        el("table", {},
          el("thead", {}, el("tr", {}, ...["Battle", "Round", "Inputs", "AP", "Per AP", "Batches"]
            .map((h) => el("th", {}, h)))),
          el("tbody", {}, ...data.rounds.slice(-12).map((r) => el("tr", {},
            ...[r.battle, r.round, r.input_actions, r.ap_spent, r.actions_per_ap ?? "–", r.batches]
              .map((v) => el("td", {}, String(v))))))));
    }

    // ------------------------------------------------------------------ animation
    function animate(events) {
      if (reducedMotion.matches) { board.dataset.motion = "off"; return; }
      board.dataset.motion = "on";
      const reveals = events.filter((e) => e.type === "cell_revealed");
      const count = reveals.length;
      reveals.forEach((event, index) => {
        const [x, y] = event.cell;
        const cell = cells[y] && cells[y][x];
        if (!cell) return;
        const name = `anim-${event.channel}`;
        cell.classList.remove("anim-initial", "anim-chain", "anim-dig");
        void cell.offsetWidth;  // restart the animation on a cell animated before
        cell.style.animationDelay = event.channel === "dig" ? "0ms"
          : `${Math.round((index / Math.max(1, count)) * STAGGER_MS)}ms`;
        cell.classList.add(name);
      });
    }

    board.addEventListener("animationend", (event) => {
      event.target.classList?.remove("anim-initial", "anim-chain", "anim-dig");
    });

    // ------------------------------------------------------------------ pointer input
    let press = null;   // {id, x, y, cell, timer, long}

    function cellOf(target) {
      const cell = target && target.closest ? target.closest(".cell") : null;
      return cell && board.contains(cell) ? cell : null;
    }

    board.addEventListener("contextmenu", (event) => event.preventDefault());
    board.addEventListener("pointerdown", (event) => {
      const cell = cellOf(event.target);
      if (!cell) return;
      const x = Number(cell.dataset.x);
      const y = Number(cell.dataset.y);
      cursor = [x, y];
      board.dataset.focus = key(x, y);
      drawCursor();
      if (event.pointerType === "mouse" && event.button === 2) {
        event.preventDefault();
        secondary(x, y);
        return;
      }
      if (event.button !== 0) return;
      if (press && press.timer) clearTimeout(press.timer);
      press = { id: event.pointerId, sx: event.clientX, sy: event.clientY, x, y, long: false, timer: null };
      if (event.pointerType !== "mouse") {
        const mine = press;
        press.timer = setTimeout(() => {
          mine.timer = null;
          if (press !== mine) return;
          mine.long = true;
          secondary(mine.x, mine.y);  // a long press flags or unflags
          if (navigator.vibrate) navigator.vibrate(15);
        }, LONG_PRESS_MS);
      }
    });
    board.addEventListener("pointermove", (event) => {
      if (!press || press.id !== event.pointerId) return;
      if (Math.hypot(event.clientX - press.sx, event.clientY - press.sy) > MOVE_TOLERANCE_PX) {
        if (press.timer) clearTimeout(press.timer);
        press = null;  // a scroll or a drag, not a tap
      }
    });
    const endPress = (event, fire) => {
      if (!press || press.id !== event.pointerId) return;
      const done = press;
      press = null;
      if (done.timer) clearTimeout(done.timer);
      if (!fire || done.long) return;
      const cell = cellOf(document.elementFromPoint(event.clientX, event.clientY)) || cellOf(event.target);
      if (!cell || Number(cell.dataset.x) !== done.x || Number(cell.dataset.y) !== done.y) return;
      act(done.x, done.y);
    };
    board.addEventListener("pointerup", (event) => endPress(event, true));
    board.addEventListener("pointercancel", (event) => endPress(event, false));

    // Hover: what a click would do, and the move's path (drawn from Python's move tree; no call).
    board.addEventListener("pointerover", (event) => {
      const cell = cellOf(event.target);
      for (const node of board.querySelectorAll(".path")) node.classList.remove("path");
      if (!cell) { delete board.dataset.hover; return; }
      const offer = offers.get(key(cell.dataset.x, cell.dataset.y)) || {};
      board.dataset.hover = flagMode ? (offer.secondary || "none") : (offer.primary || "none");
      let at = null;
      if (offer.primary === "move") at = [Number(cell.dataset.x), Number(cell.dataset.y)];
      else if (offer.primary === "reach") at = offer.stand;
      for (let guard = 0; at && guard < 10000; guard++) {
        const node = cells[at[1]][at[0]];
        node.classList.add("path");
        const next = offers.get(key(at[0], at[1]));
        at = next && next.parent ? next.parent : null;
      }
    });
    board.addEventListener("pointerleave", () => {
      for (const node of board.querySelectorAll(".path")) node.classList.remove("path");
      delete board.dataset.hover;
    });

    // ------------------------------------------------------------------ keyboard
    board.addEventListener("keydown", (event) => {
      if (!state || !state.board || event.altKey || event.ctrlKey || event.metaKey) return;
      const b = state.board;
      const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      const k = event.key;
      if (moves[k]) {
        const [dx, dy] = moves[k];
        cursor = [Math.min(b.cols - 1, Math.max(0, cursor[0] + dx)), Math.min(b.rows - 1, Math.max(0, cursor[1] + dy))];
        board.dataset.focus = key(...cursor);
        drawCursor();
      } else if (k === " " || k === "Enter") {
        if (state.can_continue) continueRun();
        else if (state.status === "playing") act(cursor[0], cursor[1]);
        else return;
      } else if (k === "f" || k === "F") secondary(cursor[0], cursor[1]);
      else if (k === "s" || k === "S") stop();
      else if (k === "h" || k === "H") askHint();
      else return;
      event.preventDefault();
    });

    // ------------------------------------------------------------------ controls
    newRunButton.addEventListener("click", newRun);
    stopButton.addEventListener("click", stop);
    hintButton.addEventListener("click", askHint);
    refreshButton.addEventListener("click", refresh);
    flagButton.addEventListener("click", () => {
      flagMode = !flagMode;
      flagButton.setAttribute("aria-pressed", String(flagMode));
      board.dataset.flagMode = flagMode ? "1" : "0";
    });
    stats.addEventListener("toggle", () => { if (stats.open) refreshStats(); });
    telemetryPanel.addEventListener("toggle", () => { if (telemetryPanel.open) refreshStats(); });
    section.addEventListener("click", (event) => {
      const button = event.target.closest && event.target.closest("button.term");
      if (button && section.contains(button)) showTerm(button.dataset.term);
    });
    board.dataset.flagMode = "0";

    // ------------------------------------------------------------------ start
    enqueue(async () => {
      await app.ready;
      if (!live) return;
      const mines = app.store.progress().mines;
      // A run that was won or lost has shown its end screen: coming back starts a new one.
      if (minesRunOpen(mines)) await resume(mines.run);
      else await startRun(randomSeed());
    });

    return {
      unmount() {
        live = false;
        if (press && press.timer) clearTimeout(press.timer);
        if (runId) app.python.mines.closeRun(runId).catch(() => {});
      },
    };
  },
};
