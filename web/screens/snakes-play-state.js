// The state of one snakes level in play, and its only writer: the game (snakes-play-game.js),
// the drawing (snakes-play-draw.js), the input (snakes-play-input.js) and the mount
// (snakes-play.js) read `p` and change it through the named transitions below, never by
// assigning its fields (tests/test_web_state.py holds this).
import { serialQueue } from "../contract.js";
import { telemetryRecorder } from "./snakes-telemetry.js";

/** @typedef {import("../types/bridge").Answer} Answer */
/** @typedef {import("../types/bridge").AheadAnswer} AheadAnswer */
/** @typedef {import("../types/bridge").View} View */
/** @typedef {import("../types/bridge").SnakesOffer} Offer */
/** @typedef {import("../types/bridge").Certificate} Certificate */
/** @typedef {[number, string, string]} StepJson a step: [body, "head" | "tail", direction] */
/** @typedef {{body: number, end: string, stopped: boolean}} Drag an end held by a drag */
/** @typedef {{sha: string, steps: unknown[], redo: unknown[]}} Save Python's save of a game */

/**
 * @typedef {object} PlayOptions what the mount was asked to play
 * @property {any} level the level (a level JSON)
 * @property {number | null} levelNumber the main-line number, or null (a draft)
 * @property {Certificate | null} certificate
 * @property {string | null} sha the level's SHA-256 when no certificate names it
 * @property {((won: {steps: number}) => void) | null} onWin
 * @property {boolean} saveProgress
 * @property {string | null} kind the telemetry's kind ("mainline", "draft", "shared")
 */

/**
 * The state of one level in play: the game Python holds, what the page shows of it, and
 * the drag, keys and timings in flight.
 * @param {import("../app.js").App} app the shell
 * @param {PlayOptions} options
 */
export function playState(app, { level, levelNumber, certificate, sha, onWin, saveProgress, kind }) {
  const levelSha = sha ?? (certificate && certificate.level_sha256) ?? "";
  const certified = certificate && Number.isInteger(certificate.steps) ? certificate.steps : null;
  const p = {
    app, level, levelNumber, certificate, onWin, saveProgress, levelSha, certified,
    python: app.python.snakes,
    /** @type {string | null} */ session: null,      // the id of the game Python holds
    /** @type {number | null} */ generation: null,   // the worker that holds it (app.generation)
    /** @type {Save | null} */ saved: null,          // Python's last save
    /** @type {View | null} */ view: null,
    /** @type {Offer} */ offer: { undo: false, redo: false, hint: false, restart: true, legal: [] },
    stepCount: 0,
    /** @type {unknown[] | null} */ hintStep: null,
    /** @type {string | null} */ focus: null,        // "b:head" | "b:tail"
    /** @type {string | null} */ lastKeyEnd: null,   // the end the keyboard stepped last (a new end starts a drag)
    /** @type {Drag | null} */ grabbed: null,        // while a drag is on
    won: false,
    live: true,
    stale: false,         // another tab saved this level in progress: this tab writes no more
    /** @type {string | undefined} */ base: undefined,  // the stored level in progress this tab read or wrote (JSON)
    /** @type {number | null} */ stamp: null,        // the pointermove time of the drag step being answered
    calling: 0,           // when that step's turn in the queue came
    /** @type {Record<string, AheadAnswer>} */ ahead: {},  // Python's answers of the legal steps ("b:end:dir")
    painted: false,       // the board already shows the last action (drawn from ahead)
    /** @type {{body: number, end: string, dx: number, dy: number} | null} */
    moved: null,          // the end that stepped last, drawn sliding in once
    winning: false,       // the win panel opens once the board shows the last step
    /** @type {any} */ lesson: null,                 // the level's lesson on the page (snakes-lesson.js)
    /** @type {[Answer | AheadAnswer, string] | null} */ said: null,  // what the last answer did, told once drawn
    /** @type {number[] | null} */ refusedAt: null,  // the cell a refused step tried to enter
    detach: () => {},     // the board's input, once wired
    /** @type {any} */ parts: null,                  // the play view's elements (viewBuilt)
  };
  // Made once the state is: the queue asks it whether the level is still in play.
  const queue = serialQueue({ live: () => p.live, report: (error) => app.message(error.message, "error") });
  const tele = telemetryRecorder(app, { sha: levelSha, levelNumber, best: certified,
    kind: kind ?? (levelNumber !== null ? "mainline" : "draft") });
  return Object.assign(p, { queue, tele });
}

/** @typedef {ReturnType<typeof playState>} Play */

// ---------------------------------------------------------------------------- the game

/** Python's answer taken: the game's id, view, offer, count and save (sent when the answer
 * changed it); or an answer from `ahead` (view, offer, count, events), whose step's own
 * answer brings the rest. The focused end stays while it is still an end of the board.
 * @param {Play} p @param {Answer | AheadAnswer} answer @param {() => string[]} endsOfView the new view's ends */
export function took(p, answer, endsOfView) {
  if ("id" in answer) {
    p.session = answer.id;
    p.generation = p.app.generation;
    if (answer.save) p.saved = /** @type {Save} */ (/** @type {unknown} */ (answer.save));
    p.ahead = answer.ahead ?? {};
  } else {
    p.ahead = {};  // the next answers ahead come with this step's own answer
  }
  p.view = /** @type {View} */ (answer.view);
  p.offer = /** @type {Offer} */ (answer.offer);
  p.stepCount = answer.step_count;
  if (p.focus) {
    const ends = endsOfView();
    if (!ends.includes(p.focus)) p.focus = ends[0] ?? null;
  }
}

/** A move's answer (a step, undo, redo or restart) taken: what it did is told once drawn,
 * the hint goes, a refusal's mark stays only for a refusal, and the board complete wins
 * (the drag ends, the win panel opens after the board). Answers whether it won now.
 * @param {Play} p @param {Answer | AheadAnswer} answer @param {string} verb */
export function moveTaken(p, answer, verb) {
  p.said = [answer, verb];
  p.hintStep = null;
  if (!("refused" in answer && answer.refused)) p.refusedAt = null;
  if (!p.view || !p.view.complete || p.won) return false;
  p.won = true;
  p.grabbed = null;
  p.winning = true;
  return true;
}

/** A refused step's cell, marked on the board. @param {Play} p @param {number[] | null} cell */
export function refusedAt(p, cell) { p.refusedAt = cell; }

/** The end that stepped, drawn sliding in once.
 * @param {Play} p @param {{body: number, end: string, dx: number, dy: number}} moved */
export function slid(p, moved) { p.moved = moved; }

/** A drag ends: a refusal or an exit stops it; a new grab goes on. @param {Drag} drag */
export function dragStopped(drag) { drag.stopped = true; }

/** Back to the start: not won, no end focused. @param {Play} p */
export function restarted(p) {
  p.won = false;
  p.focus = null;
}

/** Python's hint: its step shown on the board, or none. @param {Play} p @param {unknown[] | null} step */
export function hinted(p, step) { p.hintStep = step; }

/** The stored level in progress this tab read or wrote now (JSON). @param {Play} p @param {string} json */
export function based(p, json) { p.base = json; }

/** Another tab saved this level in progress: this tab writes no more. @param {Play} p */
export function staled(p) { p.stale = true; }

// ---------------------------------------------------------------------------- the drawing

/** The board must be drawn after the next action (an answer ahead was drawn before its
 * step's own answer changed it). @param {Play} p */
export function unpainted(p) { p.painted = false; }

/** The board drawn: the slide shown once. @param {Play} p */
export function drawn(p) { p.moved = null; }

/** The board painted with the last action: the drag step's stamp and what the answer did
 * are used up; answers both (the stamp null when no drag step was waiting).
 * @param {Play} p */
export function painted(p) {
  const used = { stamp: p.stamp, said: p.said };
  p.stamp = null;
  p.said = null;
  p.painted = true;
  return used;
}

/** The win panel opens now (once). @param {Play} p */
export function winOpened(p) { p.winning = false; }

/** The play view's elements: board box, counter, buttons, win panel, section, layout,
 * lesson slot, feedback. @param {Play} p @param {any} parts */
export function viewBuilt(p, parts) { p.parts = parts; }

/** The level's lesson on the page. @param {Play} p @param {any} lesson */
export function lessonOpened(p, lesson) { p.lesson = lesson; }

/** The level left: nothing more is drawn or asked. @param {Play} p */
export function left(p) { p.live = false; }

// ---------------------------------------------------------------------------- the input

/** A drag step's turn came: when (now) and the pointermove time it answers.
 * @param {Play} p @param {number} now @param {number} when */
export function stepCalled(p, now, when) {
  p.calling = now;
  p.stamp = when;
}

/** An end grabbed by a drag: it is focused, the hint goes.
 * @param {Play} p @param {{body: number, end: string}} end */
export function grabbed(p, end) {
  p.grabbed = { ...end, stopped: false };
  p.focus = `${end.body}:${end.end}`;
  p.hintStep = null;
}

/** The drag `drag` released (a newer grab stays). @param {Play} p @param {Drag | null} drag */
export function released(p, drag) { if (p.grabbed === drag) p.grabbed = null; }

/** An end picked by the keys (or null), the hint gone. @param {Play} p @param {string | null} end */
export function focused(p, end) {
  p.focus = end;
  p.hintStep = null;
}

/** The keys move the focused end, or the first end when none is. Answers the end.
 * @param {Play} p @param {string[]} ends */
export function keyEnd(p, ends) {
  if (!p.focus) p.focus = ends[0] ?? null;
  return p.focus;
}

/** The keyboard stepped `end`: answers whether it is a new end (a new drag for telemetry).
 * @param {Play} p @param {string} end */
export function keyStepped(p, end) {
  const fresh = end !== p.lastKeyEnd;
  p.lastKeyEnd = end;
  return fresh;
}

/** The board's input wired; `detach` undoes it. @param {Play} p @param {() => void} detach */
export function wired(p, detach) { p.detach = detach; }
