// Mines: a whole run in the browser (route #mines). This screen draws what Python answers
// and forwards one input at a time; every rule, price, settlement, hint and word shown comes
// from Python (gridforge.mines.page). The view Python sends says what each click would do
// (dig, move and its path, a far cell's move-then-dig, flag, unflag) and carries no digit
// for an opened fog cell, so nothing here decides or reveals anything.
//
// This module is the run's flow: it starts or resumes the run, sends each input through
// one serial queue, saves Python's `save` after every answer and has the parts draw it:
// the battle with its HP bars (mines-fight.js), the board (mines-board.js) with its input
// (mines-input.js) and its size (mines-layout.js), the panels (mines-panels.js) and the
// settlement and end panels over the board (mines-overlay.js).
//
// The seed's D1 duties met here (docs/mines-run.md has the table): four cell states told
// apart at a glance; the dig reach always outlined; hover says move / dig / walk-and-dig /
// flag before the click and previews the move's path; dug mines drawn opened, walkable,
// with a mine glyph; every refusal and voided intent in words; animations by event channel
// (initial, chain, dig), under 150 ms, off under reduced motion (motion.js), never holding
// input back; the one-time "no chord" tip. Input: mouse (left acts, right flags), touch
// (tap acts, long press or the flag-mode toggle flags), keyboard on the focused board
// (arrows, Space/Enter, F, S, H).
//
// Two tabs on one run: the run is saved over the revision this tab resumed or last saved
// (Store.saveMinesRun). Once another tab has saved moves this tab does not have (its
// "storage" event, or a save refused), this tab plays no further move: it says so and
// offers to reload the run as the other tab left it, so no move of either tab is lost.

import { t } from "../i18n.js";
import { serialQueue } from "../contract.js";
import { reducedMotion } from "../motion.js";
import { minesRev, minesRunOpen, PROGRESS_KEY, StaleSave } from "../store.js";
import { download, el } from "./dom.js";
import { boardFeedback, minesReport } from "./feedback.js";
import { minesBoard } from "./mines-board.js";
import { fightBar } from "./mines-fight.js";
import { attachInput } from "./mines-input.js";
import { boardLayout } from "./mines-layout.js";
import { boardOverlay } from "./mines-overlay.js";
import { attachPointing, controls, eventLog, pointingLine, statsPanel, statusPanel, stopAsk } from "./mines-panels.js";
import { settlementSequence } from "./mines-sequence.js";

const SEED_LIMIT = 2 ** 31;

/** The run as the board, panels and overlay draw it: the answer's view with its offer. */
const stateOf = (answer) => ({ ...answer.view, offer: answer.offer });

function ensureStyles() {
  if (document.querySelector("link[data-mines-css]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./mines.css", import.meta.url).href;
  link.dataset.minesCss = "1";
  document.head.append(link);
}

function randomSeed() {
  return Math.floor(Math.random() * SEED_LIMIT);
}

export const screen = {
  id: "mines",
  title: "Mines",  // i18n-ok: the screen's name for tools (the page says route.screen.*)
  mount(root, app) {
    ensureStyles();
    let live = true;
    let runId = null;
    let state = null;
    let flagMode = false;
    let chordTipShown = false;
    let hint = null;
    let queue = null;            // the serial queue of intents (made with the section)
    let savedRev = null;         // the run's revision this tab resumed or last saved
    let stale = false;           // another tab has saved moves this tab does not have
    // The route's own complaint ("#mines/extra": no such page) stays readable: the run's
    // opening words come after it instead of replacing it.
    let routeProblem = app.route && app.route.problem ? app.route.problem : null;

    // ------------------------------------------------------------------ the page
    const section = el("section", { class: "mines", "data-testid": "mines" });
    const view = minesBoard();
    const status = statusPanel(section, () => state);
    const fight = fightBar(status.term);
    const buttons = controls({ stop: askStop, hint: askHint, refresh, newRun,
      flagMode(on) { flagMode = on; view.element.dataset.flagMode = on ? "1" : "0"; } });
    const overlay = boardOverlay({ continueRun,
      newRun: () => { buttons.seedInput.value = ""; newRun(); } });
    const hintBox = el("div", { class: "mines-hint-text", "data-testid": "mines-hint-text",
      hidden: true });
    const asking = stopAsk({ confirm: () => { asking.close(false); stop(); },
      cancel: () => asking.close(true) });
    const sequence = settlementSequence(view, fight);
    const log = eventLog();
    const stats = statsPanel({ refresh: () => refreshStats(), exportTelemetry });
    const feedback = boardFeedback(app);  // the live region's lines, sounds and vibrations
    const staleBox = el("div", { class: "mines-stale", role: "alert", "data-testid": "mines-stale", hidden: true },
      el("p", {}, t("mines.stale")),
      el("button", { type: "button", "data-testid": "mines-stale-reload", onclick: () => reloadRun() },
        t("mines.stale-reload")));

    // In the order a keyboard meets them: the battle, the controls, the board, the rest.
    // mines.css places them: the board beside the column of the others on a wide screen;
    // the battle above the board and the controls, the round so far and the rest below it
    // on a narrow one.
    const stage = el("div", { class: "mines-stage" },
      el("div", { class: "mines-board-wrap" }, view.element, overlay.element), feedback.element);
    section.append(
      staleBox,
      fight.element,
      status.pendingLine,
      el("div", { class: "mines-play" }, status.status, buttons.element, asking.element),
      stage,
      el("div", { class: "mines-side" }, status.termBox, status.tipLine, hintBox,
        el("h3", {}, t("mines.events")), log.element, stats.element));
    root.append(section);
    const layout = boardLayout(section, stage, view.element);
    // A click, a tap or a key during a round's end finishes its sequence at once.
    for (const type of ["pointerdown", "keydown"]) {
      section.addEventListener(type, () => { if (sequence.playing) sequence.finish(); }, true);
    }
    attachPointing(section, view);
    const input = attachInput(view, { act, secondary, stop: askStop, hint: askHint, continueRun,
      state: () => state, flagMode: () => flagMode, touch: () => app.feel.touch() });

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
      if (!answer.save || stale) return;
      try {
        // The summary lets the home screen say where the run stands without replaying it.
        const s = answer.view;
        const summary = s ? { status: s.status, battle: s.battle, battles: s.battles } : null;
        savedRev = app.store.saveMinesRun({ run: answer.save, summary }, savedRev);
      } catch (error) {
        if (error instanceof StaleSave) stopStale(error.message);  // says the move was not saved
        else console.error(error);
      }
    }

    /** Whether another tab has saved the run since this tab resumed or last saved it. */
    function behind() {
      return savedRev !== null && app.store.minesRev() !== savedRev;
    }

    /** Another tab is ahead: play no further move here; say so (`lost`: the words for a
     * move this tab played but could not save) and offer the reload. */
    function stopStale(lost = "") {
      if (!live) return;
      if (!stale) {
        stale = true;
        section.dataset.stale = "1";
        staleBox.hidden = false;
      }
      app.message(lost ? `${lost} ${t("mines.stale")}` : t("mines.stale"), "error");
    }

    /** The player's move, played only while this tab holds the newest save of the run. */
    function move(work) {
      return enqueue(async () => {
        if (stale || behind()) {
          stopStale();
          return;
        }
        await work();
      });
    }

    /** Take the run as saved now (another tab's moves included) and play on from there. */
    function reloadRun() {
      enqueue(async () => {
        stale = false;
        delete section.dataset.stale;
        staleBox.hidden = true;
        const mines = app.store.progress().mines;
        if (minesRunOpen(mines)) await resume(mines.run, minesRev(mines));
        else await startRun(randomSeed());
      });
    }

    // Another tab saved: this tab learns it at once, before the player's next move.
    function onStorage(event) {
      if (event.key !== null && event.key !== PROGRESS_KEY) return;
      if (live && !stale && behind()) stopStale();
    }
    window.addEventListener("storage", onStorage);

    /** Take Python's answer and draw it; a round's end plays out first (resolves when the
     *  sequence is over: the serial queue, and so data-busy, waits for it). */
    function take(answer) {
      const before = state;
      state = stateOf(answer);
      save(answer);
      // The log tells the current board's story: a line names cells of its own board.
      if (before && state && (before.battle !== state.battle || before.board_no !== state.board_no)) {
        log.clear();
      }
      log.add(answer.log || []);
      hint = null;
      hintBox.hidden = true;
      hintBox.replaceChildren();
      render();
      view.animate(answer.events || [], reducedMotion());
      const messages = answer.messages || [];
      if (messages.length) {
        const last = messages.find((m) => m.kind === "error") || messages[messages.length - 1];
        app.message(messages.map((m) => m.text).join(" "), last.kind);
      }
      if (stats.open) refreshStats();
      if (!answer.settlement) return Promise.resolve();
      if (reducedMotion()) {  // instant: the settled state is already drawn
        fight.settle(answer.settlement, state, false);
        return Promise.resolve();
      }
      // The round's end plays on the board and the bars before its panel shows.
      overlay.element.hidden = true;
      const shown = state;
      return sequence.play(answer.settlement, shown).then(() => {
        if (!live || state !== shown) return;
        fight.draw(state, false);
        fight.settle(answer.settlement, state, false);
        overlay.draw(state);
      });
    }

    /** Take the answer to the player's input, drawn first, then say and sound what it did. */
    async function told(answer, did) {
      const played = take(answer);
      if (live) feedback.report(minesReport(answer, did));
      await played;
    }

    async function startRun(seed, announce = true) {
      if (runId) app.python.mines.closeRun(runId).catch(() => {});
      const answer = await app.python.mines.newRun(seed);
      if (!live) return;
      savedRev = null;  // a new run: saved over whatever is stored (the player chose it)
      runId = answer.id;
      section.dataset.run = runId;
      chordTipShown = false;
      view.setCursor(null);
      log.clear();
      take(answer);
      if (announce) opening(t("mines.new-run-started", { seed, tip: answer.view.tip || "" }).trim(), "info");
    }

    /** The run's opening words, after the route's complaint if there was one. */
    function opening(text, kind) {
      const problem = routeProblem;
      routeProblem = null;
      if (problem) app.message(`${problem} ${text}`, "error");
      else app.message(text, kind);
    }

    async function resume(saved, rev) {
      try {
        const answer = await app.python.mines.resumeRun(saved);
        if (!live) return;
        if (runId) app.python.mines.closeRun(runId).catch(() => {});
        savedRev = rev;
        runId = answer.id;
        section.dataset.run = runId;
        take(answer);
        const more = (answer.messages || []).map((m) => ` ${m.text}`).join("");
        opening(t("mines.resumed", { battle: answer.view.battle, round: answer.view.round, more }), "info");
      } catch (error) {
        if (!live) return;
        if (error.type === "Cancelled") {
          // Nothing was refused: the saved run stays as it is for the next visit.
          app.message(t("mines.resume-stopped"), "error");
          return;
        }
        // Python refused the saved run (a damaged save, or one from an older build): keep
        // the whole stored progress aside, read back equal, before a new run saves over it.
        const kept = app.store.keepAside(PROGRESS_KEY, error.message, t("mines.saved-what"));
        const where = kept.kept ? t("snakes.resume.kept", { key: kept.kept })
          : kept.held ? t("mines.resume-held", { key: PROGRESS_KEY }) : t("snakes.resume.nothing");
        const seed = randomSeed();
        await startRun(seed, false);
        if (!live) return;
        // Where the run went comes first: the message line shows two lines.
        opening(t("mines.resume-failed", { where, seed, why: error.message }), "error");
      }
    }

    function newRun() {
      const text = buttons.seedInput.value.trim();
      const seed = text === "" ? randomSeed() : Number(text);
      if (!Number.isInteger(seed) || seed < 0) {
        app.message(t("mines.bad-seed"), "error");
        return;
      }
      enqueue(() => startRun(seed));
    }

    function primary(x, y) {
      if (!runId) return;
      move(async () => {
        if (state && state.board && !chordTipShown && Number.isInteger(state.board.grid[y]?.[x]) &&
            state.board.grid[y][x] > 0) {
          chordTipShown = true;  // once per run, never modal (D1 duty 3)
          status.chordTip();
        }
        const did = view.offerAt(x, y).primary ?? null;  // Python's offer, as drawn
        await told(await app.python.mines.primary(runId, [x, y]), did);
      });
    }

    function secondary(x, y) {
      if (!runId) return;
      move(async () => {
        const did = view.offerAt(x, y).secondary ?? null;
        await told(await app.python.mines.secondary(runId, [x, y]), did);
      });
    }

    function act(x, y) {
      if (flagMode) secondary(x, y); else primary(x, y);
    }

    function stop() {
      if (!runId) return;
      move(async () => told(await app.python.mines.act(runId, { kind: "stop" }), "stop"));
    }

    /** Stop as a deliberate act (issue 45): while AP is left (Python's `stop_ask`) it asks
     *  first; with none left, or when the round is over, the stop goes as it is (a Stop after
     *  the round's end is voided and said so: D1 obligation 6). */
    function askStop() {
      if (!runId) return;
      if (state && state.stop_ask && state.status === "playing") asking.open(state.stop_ask);
      else stop();
    }

    function continueRun() {
      if (!runId) return;
      move(async () => {
        // A second press queued behind the first finds the next round already begun.
        if (!state || !state.can_continue) return;
        await take(await app.python.mines.continueRun(runId));
      });
    }

    function refresh() {
      if (!runId) return;
      move(async () => { await take(await app.python.mines.refresh(runId)); });
    }

    function askHint() {
      if (!runId) return;
      move(async () => {
        if (state && state.hints && !state.hints.can_ask) return;
        const answer = await app.python.mines.hint(runId);
        if (!live) return;
        if (answer.view) {
          state = stateOf(answer);
          save(answer);
          render();
        }
        hint = answer;
        pointingLine(hintBox, answer);
        hintBox.hidden = false;
        app.message(!answer.cell ? answer.text : answer.price
          ? t("mines.hint-paid", { left: answer.hints_left, text: answer.text })
          : t("mines.hint-text", { text: answer.text }),
          answer.refused ? "error" : "info");
        view.drawHint(hint);
      });
    }

    async function refreshStats() {
      if (state) stats.drawPlayer(state);
      if (!runId || !stats.telemetryOpen) return;
      const data = await app.python.mines.telemetry(runId);
      if (!live) return;
      stats.drawTelemetry(data);
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
      section.dataset.status = state.status;
      fight.draw(state, !reducedMotion());
      status.draw(state);
      buttons.draw(state);
      asking.draw(state);
      view.draw(state);
      if (state.board) layout.shape(state.board.cols, state.board.rows);
      overlay.draw(state);
    }

    // ------------------------------------------------------------------ start
    enqueue(async () => {
      await app.ready;
      if (!live) return;
      const mines = app.store.progress().mines;
      // A run that was won or lost has shown its end screen: coming back starts a new one.
      if (minesRunOpen(mines)) await resume(mines.run, minesRev(mines));
      else await startRun(randomSeed());
    });

    return {
      unmount() {
        live = false;
        window.removeEventListener("storage", onStorage);
        input.stop();
        layout.stop();
        sequence.finish();
        if (runId) app.python.mines.closeRun(runId).catch(() => {});
      },
    };
  },
};
