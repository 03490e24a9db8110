// The game of one snakes level in play (snakes-play.js), held by Python: its answers taken
// into play `p` (view, offer, count, save), the verbs sent (step, undo, redo, restart, hint),
// the turns they take one after another, the progress saved, the win.
import { PROGRESS_KEY } from "../store.js";
import { t } from "../i18n.js";
import { DIRS, endsOf, refusedCell } from "./snakes-board.js";
import { draw, paint } from "./snakes-play-draw.js";
import { based, dragStopped, hinted, moveTaken, refusedAt, restarted, slid, staled, took, unpainted,
  winOpened } from "./snakes-play-state.js";

/** @typedef {import("./snakes-play-state.js").Play} Play */
/** @typedef {import("./snakes-play-state.js").StepJson} StepJson */
/** @typedef {import("../types/bridge").Answer} Answer */
/** @typedef {import("../types/bridge").AheadAnswer} AheadAnswer */

/** Take Python's answer (snakes-play-state.js, took).
 * @param {Play} p @param {Answer | AheadAnswer} answer */
export function take(p, answer) {
  took(p, answer, () => endsOf(answer.view));
}

/** The level in progress as this tab last wrote it (JSON; undefined: not yet): a level's
 * screen still saving after the next one opened is this tab, not another. */
let ownCurrent;

/** Another tab saved a level in progress since this tab read or wrote it: nothing written. */
class StaleLevel extends Error {
  constructor(stored) {
    super("StaleLevel");  // never shown: the notice says it
    this.stored = stored;
  }
}

/**
 * Write this tab's level in progress (`mine`: null for none) over the stored one, only
 * while the stored one is what this tab last read or wrote (`p.base`, issue 54: two tabs
 * share one slot, as the mines run they are guarded). Otherwise nothing is written: this
 * tab says so (a notice that stays) and opens the level again from what is stored.
 * Answers whether it wrote.
 */
function writeCurrent(p, mine) {
  let replaced = null;
  try {
    p.app.store.updateProgress((progress) => {
      const stored = progress.snakes.current ?? null;
      const now = JSON.stringify(stored);
      // A step answered after this screen closed never writes over the next level's.
      if (!p.live && stored && mine && stored.level !== mine.level) throw new StaleLevel(null);
      if (p.base !== undefined && now !== p.base && now !== ownCurrent) throw new StaleLevel(stored);
      if (mine && stored && stored.level !== mine.level && (stored.steps.length || stored.redo.length)) {
        replaced = stored.level;
      }
      progress.snakes.current = mine;
    });
  } catch (error) {
    if (!(error instanceof StaleLevel)) throw error;
    if (p.stale || !p.live) return false;
    staled(p);
    const level = error.stored ? error.stored.level : p.levelNumber;
    p.app.store.notice(t("snakes.stale", { level: p.levelNumber, other: level }));
    p.app.navigate(location.hash, { replace: true });  // this level again, as stored now
    return false;
  }
  ownCurrent = JSON.stringify(mine);
  based(p, ownCurrent);
  // One level in progress at a time: the one this step replaced is said (its steps go).
  if (replaced !== null) p.app.message(t("snakes.replaced", { level: replaced, now: p.levelNumber }), "info");
  return true;
}

/**
 * Hear another tab's save of the level in progress (the window's "storage" event). A tab
 * reads storage as its browser last heard it: a save made in another tab a moment before
 * may not have reached it yet, so a stale step can still be written over this tab's steps.
 * Then this tab is the one that knows: once its own saved steps are no longer what is
 * stored, it says so (a notice that stays) and opens its level again as stored now; nothing
 * is lost without a word. Returns the function that stops listening.
 */
export function watchOtherTabs(p) {
  const onStorage = (event) => {
    if (event.key !== PROGRESS_KEY || !p.live || p.stale || !p.saveProgress) return;
    if (ownCurrent === undefined || p.base !== ownCurrent) return;  // nothing of this tab's kept
    const mine = JSON.parse(ownCurrent);
    if (!mine || mine.level !== p.levelNumber || !(mine.steps.length || mine.redo.length)) return;
    const stored = p.app.store.progress().snakes.current ?? null;
    if (JSON.stringify(stored) === ownCurrent) return;  // this tab's save is what stands
    staled(p);
    const other = stored ? stored.level : p.levelNumber;
    p.app.store.notice(t("snakes.overwritten", { level: p.levelNumber, other }));
    p.app.navigate(location.hash, { replace: true });  // this level again, as stored now
  };
  window.addEventListener("storage", onStorage);
  return () => window.removeEventListener("storage", onStorage);
}

/** The level in progress, saved after each step (a win is saved by saveWin). */
function save(p) {
  if (!p.saveProgress || p.levelNumber === null || p.stale) return;
  const saved = /** @type {import("./snakes-play-state.js").Save} */ (p.saved);  // a step answered: saved
  writeCurrent(p, { level: p.levelNumber, sha: saved.sha, steps: saved.steps, redo: saved.redo });
}

/** The win in the main line's progress: Python says what it unlocks and keeps. */
async function saveWin(p) {
  if (!p.saveProgress || p.levelNumber === null) return;
  const snakes = await p.python.progressAfterWin(p.app.store.progress().snakes, p.levelNumber, p.stepCount);
  p.app.store.updateProgress((progress) => { progress.snakes = snakes; });
  ownCurrent = JSON.stringify(snakes.current ?? null);
  based(p, ownCurrent);
}

/** @param {Play} p @param {Answer} answer @param {{quiet?: boolean, verb?: string}} options */
function afterMove(p, answer, { quiet = false, verb = "step" } = {}) {
  take(p, answer);
  const wonNow = moveTaken(p, answer, verb);
  if (answer.refused) p.app.message(t("snakes.refused", { reason: answer.refused.message }), "error");
  else if (!quiet) p.app.clearMessage();
  if (!wonNow && !answer.refused && answer.save) save(p);
}

/** Run actions one after another, each on the answer of the one before, each drawn. */
export function act(p, fn, ...args) {
  p.queue.act(() => fn(...args));
  return p.queue.act(() => drawAfter(p));
}

async function drawAfter(p) {
  if (!p.painted) paint(p);
  unpainted(p);
  if (p.winning) {
    // After the board: the panel's layout and focus never hold up the last step's redraw.
    winOpened(p);
    if (p.lesson) p.lesson.close();  // the lesson's words make room for the win
    const stars = await p.python.stars(p.stepCount, p.certified);
    await saveWin(p);
    p.tele.won();
    p.parts.win.show(p.stepCount, stars);
    if (p.onWin) p.onWin({ steps: p.stepCount });
  }
}

/** Open the game again from the last save: the id is gone (the worker was replaced, or
 * Python forgot the oldest of many games). */
async function reopen(p) {
  take(p, await p.python.resume(p.level, p.saved));
}

/** A verb on the open game; a game the worker no longer holds is resumed from its save
 * first (or when Python says it does not know the id). */
async function play(p, verb, ...args) {
  if (p.generation !== p.app.generation) await reopen(p);
  try {
    return await p.python[verb](p.session, ...args);
  } catch (error) {
    if (error.type !== "UnknownSession") throw error;
    await reopen(p);
    return p.python[verb](p.session, ...args);
  }
}

export async function restart(p) {
  const answer = await play(p, "restart");
  if (!p.won) p.tele.restart();
  restarted(p);
  p.parts.win.hide();
  afterMove(p, answer, { quiet: true, verb: "restart" });
  if (p.saveProgress && p.levelNumber !== null && !p.stale) {
    const stored = p.app.store.progress().snakes.current;
    if (stored && stored.level === p.levelNumber) writeCurrent(p, null);  // another level's stays
  }
}

export async function undo(p) {
  if (!p.offer.undo) return;
  afterMove(p, await play(p, "undo"), { verb: "undo" });
  p.tele.undo();
}

export async function redo(p) {
  if (!p.offer.redo) return;
  afterMove(p, await play(p, "redo"), { verb: "redo" });
}

export async function hint(p) {
  if (!p.offer.hint) return;
  const answer = await play(p, "hint");
  p.tele.hint();
  if (answer.step) {
    hinted(p, answer.step);
    p.app.message(answer.remaining === null ? t("snakes.hint.move")
      : t(answer.remaining === 1 ? "snakes.hint.move-one" : "snakes.hint.move-left", { steps: answer.remaining }), "info");
  } else {
    hinted(p, null);
    p.app.message(t(answer.status === "unsolvable" ? "snakes.hint.stuck" : "snakes.hint.none"), "error");
  }
}

/** One step: drawn at once from `ahead` when Python answered it there (then sent, and its
 * answer kept), else drawn from the step's answer. */
export async function step(p, stepJson, drag = p.grabbed) {
  if (p.won) return;
  const early = p.ahead[stepJson.join(":")];
  if (!early) {
    shown(p, stepJson, await play(p, "step", stepJson), drag);
    return;
  }
  shown(p, stepJson, early, drag);
  paint(p);
  const answer = await play(p, "step", stepJson);
  if (answer.refused) {  // not expected: the answer ahead was Python's; its word stands
    afterMove(p, answer);
    unpainted(p);
  } else {
    take(p, answer);
    if (!p.won) save(p);
  }
}

/** What a step's answer (or its answer ahead) changed: the game, telemetry, the drag. */
function shown(p, stepJson, answer, drag) {
  const before = p.view;
  if (answer.refused) refusedAt(p, refusedCell(p.level, before, stepJson));
  afterMove(p, answer);
  if (!answer.refused) p.tele.step(stepJson[0], p.view.exited_layers !== before.exited_layers);
  if (!answer.refused) {
    // The end that stepped slides in; a body that left the board slides into its hole
    // (the winning step too).
    const [b, end, dir] = stepJson;
    const [dx, dy] = DIRS[dir];
    slid(p, { body: b, end, dx, dy });
    if (p.lesson && !p.won) p.lesson.stepped();
  }
  if (drag && (answer.refused || p.view.exited_layers !== before.exited_layers || p.won)) {
    dragStopped(drag);  // a refusal or an exit ends the drag; a new grab goes on
  }
}

/**
 * The saved level in progress cannot be resumed (`why`): copy the whole stored progress
 * aside, read back equal (as mines does with a run), then start the level fresh and say
 * where the saved steps went. Nothing is saved over them before they are kept.
 */
async function startFresh(p, why) {
  const { app, levelNumber } = p;
  const kept = app.store.keepAside(PROGRESS_KEY, why, t("snakes.resume.what", { level: levelNumber }));
  const where = kept.kept ? t("snakes.resume.kept", { key: kept.kept })
    : kept.held ? t("snakes.resume.held", { key: PROGRESS_KEY }) : t("snakes.resume.nothing");
  take(p, await p.python.start(p.level));
  if (!p.live) return;
  // Where the steps went comes first: the message line shows two lines. The notice stays
  // until read (the next message replaces the line).
  const told = t("snakes.resume.failed", { level: levelNumber, where, why });
  app.store.notice(told);
  app.message(told, "error");
}

/** The first answer: the saved level in progress resumed (main line), else a fresh start.
 * Returns the board drawn from it. */
export async function open(p) {
  const { app, levelNumber } = p;
  await app.ready.catch(() => {});  // the stored progress checked by Python (app.js) first
  const current = p.saveProgress && levelNumber !== null ? app.store.progress().snakes.current : null;
  based(p, JSON.stringify(current ?? null));  // what this tab's first save may write over
  // Steps played or undone: a level with only steps to redo resumes with them (issue 54).
  const ours = current && current.level === levelNumber && (current.steps.length || current.redo.length);
  if (ours) {
    try {
      take(p, await p.python.resume(p.level, { sha: current.sha, steps: current.steps, redo: current.redo }));
      app.message(t("snakes.resume.back", { level: levelNumber, steps: p.stepCount }), "info");
    } catch (error) {
      // Python refused the save (a damaged one, or one for another version of the level,
      // from an older build): keep it aside before this fresh start saves over it.
      const why = error.type === "Cancelled" ? t("snakes.resume.stopped")
        : (error.issues || []).some((issue) => issue.path === "save.sha")
          ? t("snakes.resume.other-version", { level: levelNumber }) : error.message;
      await startFresh(p, why);
    }
  } else {
    take(p, await p.python.start(p.level));
  }
  return draw(p);
}
