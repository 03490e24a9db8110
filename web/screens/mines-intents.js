// The player's intents on the mines run (mines.js): a click, a flag, stop, continue, hint,
// a new run, the telemetry's export; each is sent to Python through the run's queue
// (mines-run.js). Every function takes the screen's object `m`.
import { t } from "../i18n.js";
import { download } from "./dom.js";
import { pointingLine } from "./mines-panels.js";
import { enqueue, move, randomSeed, recordLeft, render, save, startRun, stateOf, take, told } from "./mines-run.js";
import { chordTipped, dailyPending, hintShown, stateTaken } from "./mines-state.js";

/** New run: while a run is in progress it asks first (mines-new-run-confirm). */
export function askNewRun(m) {
  const s = m.state;
  if (s && (s.status === "playing" || s.status === "settled")) m.newAsk.open(s);
  else newRun(m);
}

/** The player confirmed: the run in progress goes into the history as left, then anew. */
export function confirmNewRun(m) {
  m.newAsk.close();
  if (m.pendingDaily) {
    const seed = m.pendingDaily;
    dailyPending(m, null);
    recordLeft(m);
    enqueue(m, () => startRun(m, seed));
    return;
  }
  recordLeft(m);
  newRun(m);
}

export function pickOffer(m, id) {
  if (!m.runId) return;
  move(m, async () => {
    if (!m.state || !(m.state.offers || []).some((o) => o.id === id)) return;
    await take(m, await m.app.python.mines.pickOffer(m.runId, id));
  });
}

/** An item's button: an item used on a cell waits for the cell (the next click or I). */
export function useItem(m, item) {
  if (!m.runId) return;
  if (item.target) {
    m.items.aim(item.id);
    render(m);
    if (m.items.aiming) m.app.message(t("mines.item.aim", { name: item.name }), "info");
    m.view.element.focus();
    return;
  }
  move(m, async () => { await take(m, await m.app.python.mines.useItem(m.runId, item.id)); });
}

/** The armed item used on cell (x, y). */
export function useOn(m, x, y) {
  const id = m.items.aiming;
  m.items.disarm();
  if (!m.runId || !id) return;
  move(m, async () => { await take(m, await m.app.python.mines.useItem(m.runId, id, [x, y])); });
}

export function newRun(m) {
  const text = m.buttons.seedInput.value.trim();
  const seed = text === "" ? randomSeed() : Number(text);
  if (!Number.isInteger(seed) || seed < 0) {
    m.app.message(t("mines.bad-seed"), "error");
    return;
  }
  enqueue(m, () => startRun(m, seed));
}

function primary(m, x, y) {
  if (!m.runId) return;
  move(m, async () => {
    const { state } = m;
    if (state && state.board && !m.chordTipShown && Number.isInteger(state.board.grid[y]?.[x]) &&
        state.board.grid[y][x] > 0) {
      chordTipped(m);  // once per run, never modal (D1 duty 3)
      m.status.chordTip();
    }
    const did = m.view.offerAt(x, y).primary ?? null;  // Python's offer, as drawn
    await told(m, await m.app.python.mines.primary(m.runId, [x, y]), did);
  });
}

export function secondary(m, x, y) {
  if (!m.runId) return;
  move(m, async () => {
    const did = m.view.offerAt(x, y).secondary ?? null;
    await told(m, await m.app.python.mines.secondary(m.runId, [x, y]), did);
  });
}

export function act(m, x, y) {
  if (m.items && m.items.aiming) useOn(m, x, y);
  else if (m.flagMode) secondary(m, x, y); else primary(m, x, y);
}

export function stop(m) {
  if (!m.runId) return;
  move(m, async () => told(m, await m.app.python.mines.act(m.runId, { kind: "stop" }), "stop"));
}

/** Stop as a deliberate act (issue 45): while AP is left (Python's `stop_ask`) it asks
 *  first; with none left, or when the round is over, the stop goes as it is (a Stop after
 *  the round's end is voided and said so: D1 obligation 6). */
export function askStop(m) {
  if (!m.runId) return;
  const { state } = m;
  if (state && state.stop_ask && state.status === "playing") m.asking.open(state.stop_ask);
  else stop(m);
}

export function continueRun(m) {
  if (!m.runId) return;
  move(m, async () => {
    // A second press queued behind the first finds the next round already begun.
    if (!m.state || !m.state.can_continue) return;
    await take(m, await m.app.python.mines.continueRun(m.runId));
  });
}

export function refresh(m) {
  if (!m.runId) return;
  move(m, async () => { await take(m, await m.app.python.mines.refresh(m.runId)); });
}

export function askHint(m) {
  if (!m.runId) return;
  move(m, async () => {
    if (m.state && m.state.hints && !m.state.hints.can_ask) return;
    const answer = await m.app.python.mines.hint(m.runId);
    if (!m.live) return;
    if (answer.view) {
      stateTaken(m, stateOf(answer));
      save(m, answer);
      render(m);
    }
    hintShown(m, answer);
    pointingLine(m.hintBox, answer);
    m.hintBox.hidden = false;
    m.app.message(!answer.cell ? answer.text : answer.price
      ? t("mines.hint-paid", { left: answer.hints_left, text: answer.text })
      : t("mines.hint-text", { text: answer.text }),
      answer.refused ? "error" : "info");
    m.view.drawHint(m.hint);
  });
}

export function exportTelemetry(m) {
  if (!m.runId) return;
  enqueue(m, async () => {
    const data = await m.app.python.mines.telemetry(m.runId);
    download(`gridforge-mines-telemetry-${data.seed}.json`, `${JSON.stringify(data, null, 2)}\n`);
  });
}
