// The game of one snakes level in play (snakes-play.js), held by Python: its answers taken
// into play `p` (view, offer, count, save), the verbs sent (step, undo, redo, restart, hint),
// the turns they take one after another, the progress saved, the win.
import { PROGRESS_KEY } from "../store.js";
import { t } from "../i18n.js";
import { DIRS, endsOf, refusedCell } from "./snakes-board.js";
import { draw, paint } from "./snakes-play-draw.js";

/** Take Python's answer: the game's id, view, offer, count and save (sent when the answer
 * changed it); or an answer from `ahead` (view, offer, count, events), whose step's own
 * answer brings the rest. */
export function take(p, answer) {
  if (answer.id !== undefined) {
    p.session = answer.id;
    p.generation = p.app.generation;
    if (answer.save) p.saved = answer.save;
    p.ahead = answer.ahead ?? {};
  } else {
    p.ahead = {};  // the next answers ahead come with this step's own answer
  }
  p.view = answer.view;
  p.offer = answer.offer;
  p.stepCount = answer.step_count;
  if (p.focus && !endsOf(p.view).includes(p.focus)) p.focus = endsOf(p.view)[0] ?? null;
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
    p.stale = true;
    const level = error.stored ? error.stored.level : p.levelNumber;
    p.app.store.notice(t("snakes.stale", { level: p.levelNumber, other: level }));
    p.app.navigate(location.hash, { replace: true });  // this level again, as stored now
    return false;
  }
  p.base = ownCurrent = JSON.stringify(mine);
  // One level in progress at a time: the one this step replaced is said (its steps go).
  if (replaced !== null) p.app.message(t("snakes.replaced", { level: replaced, now: p.levelNumber }), "info");
  return true;
}

/** The level in progress, saved after each step (a win is saved by saveWin). */
function save(p) {
  if (!p.saveProgress || p.levelNumber === null || p.stale) return;
  writeCurrent(p, { level: p.levelNumber, sha: p.saved.sha, steps: p.saved.steps, redo: p.saved.redo });
}

/** The win in the main line's progress: Python says what it unlocks and keeps. */
async function saveWin(p) {
  if (!p.saveProgress || p.levelNumber === null) return;
  const snakes = await p.python.progressAfterWin(p.app.store.progress().snakes, p.levelNumber, p.stepCount);
  p.app.store.updateProgress((progress) => { progress.snakes = snakes; });
  p.base = ownCurrent = JSON.stringify(snakes.current ?? null);
}

function afterMove(p, answer, { quiet = false, verb = "step" } = {}) {
  take(p, answer);
  p.said = [answer, verb];
  p.hintStep = null;
  if (!answer.refused) p.refusedAt = null;
  if (answer.refused) p.app.message(t("snakes.refused", { reason: answer.refused.message }), "error");
  else if (!quiet) p.app.clearMessage();
  if (p.view.complete && !p.won) {
    p.won = true;
    p.grabbed = null;
    p.winning = true;
  } else if (!answer.refused && answer.save) save(p);
}

/** Run actions one after another, each on the answer of the one before, each drawn. */
export function act(p, fn, ...args) {
  p.queue.act(() => fn(...args));
  return p.queue.act(() => drawAfter(p));
}

async function drawAfter(p) {
  if (!p.painted) paint(p);
  p.painted = false;
  if (p.winning) {
    // After the board: the panel's layout and focus never hold up the last step's redraw.
    p.winning = false;
    if (p.lesson) p.lesson.close();  // the lesson's words make room for the win
    const stars = await p.python.stars(p.stepCount, p.certified);
    await saveWin(p);
    p.tele.won();
    p.win.show(p.stepCount, stars);
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
  p.won = false;
  p.win.hide();
  p.focus = null;
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
    p.hintStep = answer.step;
    p.app.message(answer.remaining === null ? t("snakes.hint.move")
      : t(answer.remaining === 1 ? "snakes.hint.move-one" : "snakes.hint.move-left", { steps: answer.remaining }), "info");
  } else {
    p.hintStep = null;
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
    p.painted = false;
  } else {
    take(p, answer);
    if (!p.won) save(p);
  }
}

/** What a step's answer (or its answer ahead) changed: the game, telemetry, the drag. */
function shown(p, stepJson, answer, drag) {
  const before = p.view;
  if (answer.refused) p.refusedAt = refusedCell(p.level, before, stepJson);
  afterMove(p, answer);
  if (!answer.refused) p.tele.step(stepJson[0], p.view.exited_layers !== before.exited_layers);
  if (!answer.refused) {
    // The end that stepped slides in; a body that left the board slides into its hole
    // (the winning step too).
    const [b, end, dir] = stepJson;
    const [dx, dy] = DIRS[dir];
    p.moved = { body: b, end, dx, dy };
    if (p.lesson && !p.won) p.lesson.stepped();
  }
  if (drag && (answer.refused || p.view.exited_layers !== before.exited_layers || p.won)) {
    drag.stopped = true;  // a refusal or an exit ends the drag; a new grab goes on
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
  p.base = JSON.stringify(current ?? null);  // what this tab's first save may write over
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
