// Mines: a whole run in the browser (route #mines). This screen draws what Python answers
// and forwards one input at a time; every rule, price, settlement, hint and word shown comes
// from Python (gridforge.mines.page). The view Python sends says what each click would do
// (dig, move and its path, a far cell's move-then-dig, flag, unflag) and carries no digit
// for an opened fog cell, so nothing here decides or reveals anything.
//
// The run's flow (mines-run.js) starts or resumes the run, sends each input through
// one serial queue, saves Python's `save` after every answer and has the parts draw it;
// the player's intents are mines-intents.js; this module lays out the page and wires them:
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
import { el } from "./dom.js";
import { boardFeedback } from "./feedback.js";
import { minesBoard } from "./mines-board.js";
import { fightBar } from "./mines-fight.js";
import { attachInput } from "./mines-input.js";
import { boardLayout } from "./mines-layout.js";
import { boardOverlay } from "./mines-overlay.js";
import { attachPointing, controls, eventLog, statsPanel, statusPanel, stopAsk } from "./mines-panels.js";
import { settlementSequence } from "./mines-sequence.js";
import { act, askHint, askNewRun, askStop, confirmNewRun, continueRun, exportTelemetry, newRun, pickOffer, refresh,
  secondary, stop, useItem, useOn } from "./mines-intents.js";
import { itemBar, newRunAsk, seedDetails } from "./mines-items.js";
import { openRun, refreshStats, reloadRun, storageListener } from "./mines-run.js";
import { dailyPending, flagModeSet, left, minesState, viewBuilt } from "./mines-state.js";

function ensureStyles() {
  if (document.querySelector("link[data-mines-css]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./mines.css", import.meta.url).href;
  link.dataset.minesCss = "1";
  link.addEventListener("load", () => { link.dataset.loaded = "1"; });  // tests wait on it
  document.head.append(link);
}

/** The parts of the page of run `m`: the board, the battle, the panels and the controls,
 * each wired to the intents. */
function minesParts(m) {
  const section = el("section", { class: "mines", "data-testid": "mines" });
  const view = minesBoard();
  const status = statusPanel(section, () => m.state);
  const fight = fightBar(status.term);
  const buttons = controls({ stop: () => askStop(m), hint: () => askHint(m), refresh: () => refresh(m),
    newRun: () => askNewRun(m),
    flagMode(on) { flagModeSet(m, on); view.element.dataset.flagMode = on ? "1" : "0"; } });
  const newAsk = newRunAsk({ confirm: () => confirmNewRun(m),
    cancel: () => { dailyPending(m, null); newAsk.close(); buttons.newRunButton.focus(); } });
  const asking = stopAsk({ confirm: () => { asking.close(false); stop(m); },
    cancel: () => asking.close(true) });
  viewBuilt(m, {
    section, view, status, fight, buttons, newAsk, asking,
    items: itemBar({ use: (item) => useItem(m, item) }),
    seedBox: seedDetails(),
    overlay: boardOverlay({ continueRun: () => continueRun(m), pick: (id) => pickOffer(m, id),
      newRun: () => { buttons.seedInput.value = ""; newRun(m); } }),
    hintBox: el("div", { class: "mines-hint-text", "data-testid": "mines-hint-text", hidden: true }),
    sequence: settlementSequence(view, fight),
    log: eventLog(),
    stats: statsPanel({ refresh: () => refreshStats(m), exportTelemetry: () => exportTelemetry(m) }),
    feedback: boardFeedback(m.app),  // the live region's lines, sounds and vibrations
    staleBox: el("div", { class: "mines-stale", role: "alert", "data-testid": "mines-stale", hidden: true },
      el("p", {}, t("mines.stale")),
      el("button", { type: "button", "data-testid": "mines-stale-reload", onclick: () => reloadRun(m) },
        t("mines.stale-reload"))),
  });
}

/** Lay the parts out into `root`: in the order a keyboard meets them, the battle, the
 * controls, the board, the rest. */
function minesPage(m, root) {
  const { section, view, status } = m;
  // mines.css places them: the board beside the column of the others on a wide screen;
  // the battle above the board and the controls, the round so far and the rest below it
  // on a narrow one.
  const stage = el("div", { class: "mines-stage" },
    el("div", { class: "mines-board-wrap" }, view.element, m.sequence.caption, m.overlay.element),
    m.feedback.element);
  section.append(
    m.staleBox,
    m.fight.element,
    status.pendingLine,
    el("div", { class: "mines-play" }, status.status, m.buttons.element, m.items.element, m.asking.element,
      m.newAsk.element),
    stage,
    el("div", { class: "mines-side" }, status.termBox, status.tipLine, m.hintBox, m.seedBox.element,
      el("h3", {}, t("mines.events")), m.log.element, m.stats.element));
  root.append(section);
  viewBuilt(m, { layout: boardLayout(section, stage, view.element) });
  // A click, a tap or a key during a round's end finishes its sequence at once.
  for (const type of ["pointerdown", "keydown"]) {
    section.addEventListener(type, () => { if (m.sequence.playing) m.sequence.finish(); }, true);
  }
  attachPointing(section, view);
  viewBuilt(m, { input: attachInput(view, { act: (x, y) => act(m, x, y), secondary: (x, y) => secondary(m, x, y),
    stop: () => askStop(m), hint: () => askHint(m), continueRun: () => continueRun(m),
    item: (x, y) => useOn(m, x, y),
    state: () => m.state, flagMode: () => m.flagMode, touch: () => m.app.feel.touch() }) });
}

export const screen = {
  id: "mines",
  title: "Mines",  // i18n-ok: the screen's name for tools (the page says route.screen.*)
  /** @param {HTMLElement} root @param {import("../app.js").App} app */
  mount(root, app) {
    ensureStyles();
    const m = minesState(app);
    minesParts(m);
    minesPage(m, root);
    const onStorage = storageListener(m);
    window.addEventListener("storage", onStorage);
    openRun(m);

    return {
      unmount() {
        left(m);
        window.removeEventListener("storage", onStorage);
        m.input.stop();
        m.layout.stop();
        m.sequence.finish();
        if (m.runId) app.python.mines.closeRun(m.runId).catch(() => {});
      },
    };
  },
};
