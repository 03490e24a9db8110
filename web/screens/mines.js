// Mines: a whole run in the browser. This screen draws what Python answers and sends one
// intent per click (gridforge.mines.run); every rule, price and settlement is Python's.
// Presentation duties of the seed's D1 table live here: four cell states told apart at a
// glance, hover pre-commitment (move / dig / flag) with the dig reach always shown, passable
// dug mines, the move path preview, every rejection and every voided intent made visible,
// and a one-time hint that clicking a number moves the avatar (there is no chord).

import { el } from "./dom.js";

const REJECTIONS = {
  phase: "The round is over: continue first.",
  resource_face: "Not enough AP for that.",
  board_invalid: "That board was refused.",
  not_adjacent: "Too far: you can only dig or flag the 8 cells around you.",
  target_revealed: "That cell is already open.",
  target_concealed: "You can only move onto opened ground.",
  flag_present: "There is a flag: pull it first (1 AP), then dig.",
  flag_absent: "There is no flag to pull there.",
  no_path: "No path over opened ground leads there.",
  out_of_catalog: "That is not something you can do here.",
};
const SOURCES = {
  safe_dig: "safe cell dug", safe_chain: "safe cell opened by the chain",
  flag_hit: "flag on a mine", mine_ambush: "mine dug: ambush", clear_bonus: "board cleared",
  enemy_attack: "enemy attack",
};

export const minesScreen = {
  id: "mines",
  title: "Mines",
  mount(root, gridforge) {
    let runId = null;
    let state = null;
    let hintShown = false;
    let pathCells = new Set();
    const seedInput = el("input", { type: "number", value: "1", "data-testid": "mines-seed", min: "0" });
    const status = el("div", { class: "mines-status", "data-testid": "mines-status" });
    const message = el("div", { class: "mines-message", "data-testid": "mines-message", "aria-live": "polite" });
    const tip = el("div", { class: "mines-tip", "data-testid": "mines-tip", hidden: "" });
    const board = el("div", { class: "mines-board", "data-testid": "mines-board" });
    const settlement = el("section", { class: "mines-settlement", "data-testid": "mines-settlement", hidden: "" });
    const log = el("ul", { class: "mines-log", "data-testid": "mines-log" });
    const stopButton = el("button", { type: "button", "data-testid": "mines-stop" }, "Stop (bank AP)");
    const refreshButton = el("button", { type: "button", "data-testid": "mines-refresh" }, "Refresh board");
    const hintButton = el("button", { type: "button", "data-testid": "mines-hint" }, "Hint");
    let hinted = { safe: new Set(), mines: new Set() };
    const continueButton = el("button", { type: "button", "data-testid": "mines-continue", hidden: "" }, "Continue");

    const section = el("section", { class: "mines" });
    root.append(section);
    section.append(
      el("div", { class: "mines-controls" },
        el("label", {}, "Seed ", seedInput),
        el("button", { type: "button", "data-testid": "mines-new-run", onclick: () => busy(newRun) }, "New run"),
        stopButton, refreshButton, hintButton, continueButton),
      status, message, tip,
      el("div", { class: "mines-play" }, board, el("div", { class: "mines-side" }, settlement,
        el("h3", {}, "Events"), log)),
    );

    // While a call is in flight the section carries data-busy: tests and tools wait on it.
    let inFlight = 0;
    async function busy(work) {
      inFlight += 1;
      section.dataset.busy = "1";
      try { return await work(); } finally {
        inFlight -= 1;
        if (inFlight === 0) delete section.dataset.busy;
      }
    }

    function say(text, kind = "info") {
      message.textContent = text;
      message.dataset.kind = kind;
    }

    function logEvents(events) {
      for (const event of events) {
        let text;
        if (event.type === "cell_revealed") {
          const what = event.kind === "mine" ? "mine" : `safe ${event.digit}`;
          text = `${event.channel}: (${event.cell}) ${what}${event.variant_ids.length ? " [fog]" : ""}`;
        } else if (event.type === "flag_judged") {
          text = `flag (${event.cell}) ${event.hit ? "hit" : "miss"}`;
        } else {
          text = `round end: ${event.path_tag}, ${event.continuation_hint}`;
        }
        log.prepend(el("li", {}, text));
      }
      while (log.children.length > 60) log.lastChild.remove();
    }

    function render() {
      if (!state) return;
      const s = state.session;
      const ledger = `AP ${s.ap}/${s.economy.ap_per_round} · RAP ${s.rap}`;
      status.replaceChildren(
        el("span", { "data-testid": "mines-battle" }, `Battle ${state.battle}/${state.battles}`),
        el("span", { "data-testid": "mines-enemy" },
          `${state.enemy.name}: ${state.enemy.hp}/${state.enemy.max_hp} HP, attack ${state.enemy.attack}`),
        el("span", { "data-testid": "mines-player" }, `You: ${state.player.hp}/${state.player.max_hp} HP`),
        el("span", { "data-testid": "mines-ledger" }, ledger),
        el("span", { "data-testid": "mines-count" },
          `Mines ${s.board.mine_count} · safe cells left ${s.board.remaining_safe} · round ${s.round}`),
      );
      stopButton.disabled = state.status !== "playing" || s.phase !== "active";
      refreshButton.disabled = stopButton.disabled || s.rap < s.economy.rap_refresh_cost;
      refreshButton.textContent = `Refresh board (${s.economy.rap_refresh_cost} RAP)`;
      continueButton.hidden = state.status !== "settled";
      drawBoard();
    }

    function drawBoard() {
      const b = state.session.board;
      const fog = new Set((b.variants.fog || []).map((c) => c.join(",")));
      const reach = new Set(state.reach.map((c) => c.join(",")));
      board.style.gridTemplateColumns = `repeat(${b.cols}, 2rem)`;
      board.replaceChildren();
      for (let y = 0; y < b.rows; y++) {
        for (let x = 0; x < b.cols; x++) {
          const key = `${x},${y}`;
          const value = b.grid[y][x];
          const cell = el("button", { type: "button", class: "cell", "data-testid": "mines-cell",
            "data-x": String(x), "data-y": String(y) });
          const isFog = fog.has(key);
          let state_;
          if (value === null) state_ = isFog ? "concealed-fog" : "concealed";
          else if (value === "flag") state_ = "flag";
          else if (value === "mine") state_ = "mine";
          else if (isFog) state_ = "open-fog";
          else state_ = value === 0 ? "open-zero" : "open";
          cell.dataset.state = state_;
          if (state_ === "open") cell.textContent = String(value);  // a fog digit stays hidden
          if (state_ === "flag") cell.textContent = "⚑";
          if (state_ === "mine") cell.textContent = "✹";
          if (reach.has(key)) cell.classList.add("reach");
          if (b.avatar[0] === x && b.avatar[1] === y) cell.classList.add("avatar");
          if (pathCells.has(key)) cell.classList.add("path");
          if (hinted.safe.has(key)) cell.classList.add("hint-safe");
          if (hinted.mines.has(key)) cell.classList.add("hint-mine");
          board.append(cell);
        }
      }
    }

    function intentFor(cell, button) {
      const s = cell.dataset.state;
      const opened = s.startsWith("open") || s === "mine";
      if (button === 2) return { kind: s === "flag" ? "flag_pull" : "flag_place" };
      return { kind: opened ? "move" : "dig" };
    }

    async function send(intent) {
      if (!runId) return;
      try {
        const answer = await gridforge.call("gridforge.mines.page.act", runId, intent);
        state = answer.state;
        logEvents(answer.events);
        const outcome = answer.outcome;
        if (outcome.outcome === "rejected") {
          say(REJECTIONS[outcome.sub_reason || outcome.reject_reason] || outcome.reject_reason, "rejected");
        } else if (outcome.outcome === "voided") {
          say(`Your ${intent.kind} came too late: the round had already ended (voided).`, "voided");
        } else {
          say(`${intent.kind.replace("_", " ")}: done`, "ok");
        }
        if (answer.settlement) showSettlement(answer.settlement);
        pathCells = new Set();
        hinted = { safe: new Set(), mines: new Set() };
        render();
      } catch (error) {
        say(error.message, "rejected");
      }
    }

    function showSettlement(result) {
      const total = (target) => result.lines.filter((l) => l.target === target)
        .reduce((sum, l) => sum + l.amount, 0);
      const headline = {
        continue: "Round settled", battle_won: "Enemy defeated!", run_won: "Run won!",
        run_lost: "You fell. The run is over.",
      }[result.result];
      settlement.replaceChildren(
        el("h3", { "data-testid": "mines-settlement-title" }, `${headline} (${result.path_tag})`),
        el("ul", {}, ...result.lines.map((line) => el("li", { "data-testid": "mines-settlement-line" },
          `${SOURCES[line.source] || line.source}${line.cell ? ` (${line.cell})` : ""}: ` +
          `${line.target === "enemy_attack" ? "enemy attack" : line.target} −${line.amount}`))),
        el("p", {}, `Enemy −${total("enemy")} HP · you −${total("player")} HP`),
      );
      settlement.hidden = false;
    }

    async function newRun() {
      const seed = Number.parseInt(seedInput.value, 10);
      if (!Number.isInteger(seed)) { say("The seed is a whole number.", "rejected"); return; }
      if (runId) gridforge.call("gridforge.mines.page.close_run", runId).catch(() => {});
      const answer = await gridforge.call("gridforge.mines.page.new_run", seed);
      runId = answer.run;
      section.dataset.run = runId;
      state = answer.state;
      hintShown = false;
      tip.hidden = true;
      settlement.hidden = true;
      log.replaceChildren();
      logEvents(answer.events);
      say("Dig the cells around you; click opened ground to move. Right click flags.", "info");
      render();
    }

    board.addEventListener("click", (event) => {
      const cell = event.target.closest(".cell");
      if (!cell) return;
      if (cell.dataset.state === "open" && !hintShown) {
        hintShown = true;  // once per run, never modal
        tip.textContent = "Clicking a number moves you there: this game has no chord.";
        tip.hidden = false;
      }
      busy(() => send({ ...intentFor(cell, 0), cell: [Number(cell.dataset.x), Number(cell.dataset.y)] }));
    });
    board.addEventListener("contextmenu", (event) => {
      const cell = event.target.closest(".cell");
      if (!cell) return;
      event.preventDefault();
      busy(() => send({ ...intentFor(cell, 2), cell: [Number(cell.dataset.x), Number(cell.dataset.y)] }));
    });
    board.addEventListener("mouseover", async (event) => {
      const cell = event.target.closest(".cell");
      if (!cell || !runId) return;
      const intent = intentFor(cell, 0).kind;
      const reachable = cell.classList.contains("reach");
      board.dataset.hover = intent === "dig" && !reachable ? "far" : intent;
      if (intent === "move") {
        const target = [Number(cell.dataset.x), Number(cell.dataset.y)];
        const path = await gridforge.call("gridforge.mines.page.move_path", runId, target).catch(() => []);
        pathCells = new Set(path.map((c) => c.join(",")));
        for (const node of board.children) {
          node.classList.toggle("path", pathCells.has(`${node.dataset.x},${node.dataset.y}`));
        }
      }
    });
    stopButton.addEventListener("click", () => busy(() => send({ kind: "stop" })));
    hintButton.addEventListener("click", () => busy(async () => {
      if (!runId) return;
      const proof = await gridforge.call("gridforge.mines.page.hint", runId);
      if (!proof.step) { say("Logic proves nothing more from what you see: this spot needs a guess.", "rejected"); return; }
      const keys = (cells) => new Set(cells.map((c) => c.join(",")));
      hinted = { safe: keys(proof.step.safe), mines: keys(proof.step.mines) };
      say(`Hint: ${proof.step.text}`, "info");
      render();
    }));
    continueButton.addEventListener("click", () => busy(async () => {
      const answer = await gridforge.call("gridforge.mines.page.continue_run", runId);
      state = answer.state;
      logEvents(answer.events);
      settlement.hidden = true;
      say(`Round ${state.session.round}: ${state.session.ap} AP.`, "info");
      render();
    }));
    refreshButton.addEventListener("click", () => busy(async () => {
      const answer = await gridforge.call("gridforge.mines.page.refresh", runId);
      state = answer.state;
      logEvents(answer.events);
      say(answer.accepted ? "A fresh board, paid from your banked RAP." : "Not enough RAP.", answer.accepted ? "ok" : "rejected");
      render();
    }));

    gridforge.ready.then(() => busy(newRun), () => {});
  },
};
