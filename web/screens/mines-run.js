// The mines run's flow (mines.js): one serial queue of intents, Python's answers taken,
// saved and drawn, the run started or resumed, and the two-tabs guard (a tab behind
// another's save plays no further move). Every function takes the screen's object `m`.
import { t } from "../i18n.js";
import { serialQueue } from "../contract.js";
import { reducedMotion } from "../motion.js";
import { minesRev, minesRunOpen, PROGRESS_KEY, StaleSave } from "../store.js";
import { minesReport } from "./feedback.js";
import { lessonDue } from "./mines-items.js";
import { dailyKnown, dailyPending, hintShown, queueOf, routeProblemTaken, runResumed, runStarted, savedAt,
  staleSet, stateTaken } from "./mines-state.js";

const SEED_LIMIT = 2 ** 31;

/** The run as the board, panels and overlay draw it: the answer's view with its offer. */
export const stateOf = (answer) => ({ ...answer.view, offer: answer.offer });

export function randomSeed() {
  return Math.floor(Math.random() * SEED_LIMIT);
}

/** Run `work` after every earlier input: one intent at a time, in the order given. */
export function enqueue(m, work) {
  return queueOf(m, () => serialQueue({
    live: () => m.live,
    report: (error) => m.app.message(error.message, "error"),
    onBusy: (waiting) => { if (waiting) m.section.dataset.busy = "1"; else delete m.section.dataset.busy; },
  })).act(work);
}

/** @typedef {import("./mines-state.js").Mines} Mines */
/** @typedef {import("./mines-state.js").RunAnswer} RunAnswer */

/** Keep the run's save, over the revision this tab holds. @param {Mines} m @param {RunAnswer} answer */
export function save(m, answer) {
  if (!answer.save || m.stale) return;
  try {
    // The summary lets the home screen say where the run stands without replaying it.
    const s = answer.view;
    const summary = s ? { status: s.status, battle: s.battle, battles: s.battles } : null;
    savedAt(m, m.app.store.saveMinesRun({ run: answer.save, summary }, m.savedRev));
  } catch (error) {
    if (error instanceof StaleSave) stopStale(m, error.message);  // says the move was not saved
    else console.error(error);
  }
}

/** Whether another tab has saved the run since this tab resumed or last saved it. */
function behind(m) {
  return m.savedRev !== null && m.app.store.minesRev() !== m.savedRev;
}

/** Another tab is ahead: play no further move here; say so (`lost`: the words for a
 * move this tab played but could not save) and offer the reload. */
function stopStale(m, lost = "") {
  if (!m.live) return;
  if (!m.stale) {
    staleSet(m, true);
    m.section.dataset.stale = "1";
    m.staleBox.hidden = false;
  }
  m.app.message(lost ? `${lost} ${t("mines.stale")}` : t("mines.stale"), "error");
}

/** The player's move, played only while this tab holds the newest save of the run. */
export function move(m, work) {
  return enqueue(m, async () => {
    if (m.stale || behind(m)) {
      stopStale(m);
      return;
    }
    await work();
  });
}

/** Take the run as saved now (another tab's moves included) and play on from there. */
export function reloadRun(m) {
  enqueue(m, async () => {
    staleSet(m, false);
    delete m.section.dataset.stale;
    m.staleBox.hidden = true;
    const mines = m.app.store.progress().mines;
    if (minesRunOpen(mines)) await resume(m, mines.run, minesRev(mines));
    else await startRun(m, randomSeed());
  });
}

/** Another tab saved: this tab learns it at once, before the player's next move. */
export function storageListener(m) {
  return (event) => {
    if (event.key !== null && event.key !== PROGRESS_KEY) return;
    if (m.live && !m.stale && behind(m)) stopStale(m);
  };
}

/** Draw the run's state in every part of the page. */
export function render(m) {
  const { state } = m;
  if (!state) return;
  m.section.dataset.status = state.status;
  m.fight.draw(state, !reducedMotion());
  m.status.draw(state);
  m.buttons.draw(state);
  m.items.draw(state);
  m.seedBox.draw(state);
  m.asking.draw(state);
  m.view.draw(state);
  if (state.board) m.layout.shape(state.board.cols, state.board.rows);
  m.overlay.draw(state);
}

export async function refreshStats(m) {
  if (m.state) m.stats.drawPlayer(m.state);
  if (!m.runId || !m.stats.telemetryOpen) return;
  const data = await m.app.python.mines.telemetry(m.runId);
  if (!m.live) return;
  m.stats.drawTelemetry(data);
}

/** The run in progress left for a new one goes into the history as left. */
export function recordLeft(m) {
  const s = m.state;
  if (s && (s.status === "playing" || s.status === "settled")) recordRun(m, "stopped");
}

/** Keep the run in the history (the home card lists it): `result` won, lost or stopped. */
export function recordRun(m, result) {
  const s = m.state;
  const date = new Date().toISOString().slice(0, 10);
  m.app.store.recordMinesRun({ id: `${s.seed}:${m.startedOn || date}`, result, battle: s.battle,
    seed: s.seed, date, daily: s.seed === m.dailySeed ? m.dailyDate : null });
}

/** Take Python's answer and draw it; a round's end plays out first (resolves when the
 *  sequence is over: the serial queue, and so data-busy, waits for it).
 * @param {Mines} m @param {RunAnswer} answer */
export function take(m, answer) {
  const before = m.state;
  stateTaken(m, stateOf(answer));
  save(m, answer);
  const ended = m.state.status === "won" || m.state.status === "lost";
  if (ended && before && before.status !== m.state.status) recordRun(m, m.state.status);
  // The log tells the current board's story: a line names cells of its own board.
  if (before && m.state && (before.battle !== m.state.battle || before.board_no !== m.state.board_no)) {
    m.log.clear();
  }
  m.log.add(("log" in answer && answer.log) || []);  // a hint answers no log
  hintShown(m, null);
  m.hintBox.hidden = true;
  m.hintBox.replaceChildren();
  render(m);
  m.view.animate(answer.events || [], reducedMotion());
  sayMessages(m, answer);
  if (m.stats.open) refreshStats(m);
  return settle(m, answer);
}

/** Python's messages on the message line (an error's kind first), and a lesson due in the
 * tip line: taught the first time it shows, kept until the next answer. */
function sayMessages(m, answer) {
  const messages = answer.messages || [];
  const lesson = m.state ? lessonDue(m.app.store, m.state) : null;
  if (messages.length) {
    const last = messages.find((msg) => msg.kind === "error") || messages[messages.length - 1];
    m.app.message(messages.map((msg) => msg.text).join(" "), last.kind);
  }
  if (lesson) m.status.lesson(t(`mines.lesson.${lesson}`));
}

/** A round's end: played on the board and the bars before its panel shows (at once with
 * reduced motion); resolves when it is over. */
function settle(m, answer) {
  if (!answer.settlement) return Promise.resolve();
  if (reducedMotion()) {  // instant: the settled state is already drawn
    m.fight.settle(answer.settlement, m.state, false);
    return Promise.resolve();
  }
  // The round's end plays on the board and the bars before its panel shows.
  m.overlay.element.hidden = true;
  const shown = m.state;
  return m.sequence.play(answer.settlement, shown).then(() => {
    if (!m.live || m.state !== shown) return;
    m.fight.draw(m.state, false);
    m.fight.settle(answer.settlement, m.state, false);
    m.overlay.draw(m.state);
  });
}

/** Take the answer to the player's input, drawn first, then say and sound what it did.
 * @param {Mines} m @param {RunAnswer} answer @param {string | null} did */
export async function told(m, answer, did) {
  const played = take(m, answer);
  if (m.live) m.feedback.report(minesReport(answer, did));
  await played;
}

export async function startRun(m, seed, announce = true) {
  const mines = m.app.python.mines;
  if (m.runId) mines.closeRun(m.runId).catch(() => {});
  const answer = await mines.newRun(seed);
  if (!m.live) return;
  runStarted(m, answer.id);
  m.section.dataset.run = m.runId;
  m.view.setCursor(null);
  m.log.clear();
  take(m, answer);
  if (announce) opening(m, t("mines.new-run-started", { seed, tip: answer.view.tip || "" }).trim(), "info");
}

/** The run's opening words, after the route's complaint if there was one. */
function opening(m, text, kind) {
  const problem = routeProblemTaken(m);
  if (problem) m.app.message(`${problem} ${text}`, "error");
  else m.app.message(text, kind);
}

async function resume(m, saved, rev) {
  const { app } = m;
  try {
    const answer = await app.python.mines.resumeRun(saved);
    if (!m.live) return;
    if (m.runId) app.python.mines.closeRun(m.runId).catch(() => {});
    runResumed(m, answer.id, rev);
    m.section.dataset.run = m.runId;
    take(m, answer);
    const more = (answer.messages || []).map((msg) => ` ${msg.text}`).join("");
    opening(m, t("mines.resumed", { battle: answer.view.battle, round: answer.view.round, more }), "info");
  } catch (error) {
    if (!m.live) return;
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
    await startRun(m, seed, false);
    if (!m.live) return;
    // Where the run went comes first: the message line shows two lines. The notice stays
    // until read (the next message replaces the line).
    const told = t("mines.resume-failed", { where, seed, why: error.message });
    app.store.notice(told);
    opening(m, told, "error");
  }
}

/** The run on entering the screen: the stored one resumed while open, else a new one. */
export function openRun(m) {
  enqueue(m, async () => {
    await m.app.ready;
    if (!m.live) return;
    // The day's run (issue 51): its seed from the date, the same for every player.
    const daily = m.app.takeMinesDaily();
    const date = new Date().toISOString().slice(0, 10);
    dailyKnown(m, date, await m.app.python.mines.dailySeed(date));
    if (!m.live) return;
    const mines = m.app.store.progress().mines;
    // A run that was won or lost has shown its end screen: coming back starts a new one.
    if (minesRunOpen(mines)) {
      await resume(m, mines.run, minesRev(mines));
      // Another run is in progress: the daily run asks before it takes its place.
      if (daily && m.state && m.state.seed !== m.dailySeed) {
        dailyPending(m, m.dailySeed);
        m.newAsk.open(m.state, "mines.daily-ask");
      }
    } else await startRun(m, daily ? m.dailySeed : randomSeed());
  });
}
