// The page's contract with Python: every function of gridforge that the page calls is named
// here, once (they are the names gridforge.api.functions() lists); screens call these
// methods and never spell a name. Every call takes one path: through the bridge (the worker
// runs one call at a time), and a failure rejects with one kind of Error, whose message is
// Python's own player-facing text (`text` in the error envelope), the raw message on
// `.detail`, with its `.type` and field-path `.issues`. A screen runs its actions through
// one serial queue (serialQueue below), which reports a failure on the message line.

import { t } from "./i18n.js";

/** @typedef {import("./types/bridge").PageVerbs} PageVerbs */
/** @typedef {keyof PageVerbs} PageVerb */
/**
 * A page function as the contract offers it: Python's JSON arguments in, its answer out
 * (both as web/types/bridge.d.ts, generated from the Python types, says).
 * @template {PageVerb} N
 * @typedef {(...args: PageVerbs[N]["args"]) => Promise<PageVerbs[N]["answer"]>} Verb
 */
/** @typedef {(done: number, total: number, label: string, figures?: unknown) => void} OnProgress */
/** @typedef {(name: string, args: unknown[], onProgress?: OnProgress, quiet?: boolean) => Promise<any>} Invoke */

const API = "gridforge.api.";
const SNAKES = "gridforge.snakes.page.";
const MINES = "gridforge.mines.page.";

/** The function the console offers first. */
export const FIRST_CONSOLE_FUNCTION = `${API}version`;

/** What the worker (worker.js) wires up once Python is imported: the module whose
 * `dispatch(name, argsJson, language)` answers every call, the versions call, and the
 * Python that sends long work's progress to `js.gridforgeProgress(done, total, label, figures)`
 * (the figures as JSON text: named numbers, such as the designer's best score so far). */
export const WORKER_ENTRY = Object.freeze({
  module: "gridforge.api",
  dispatch: "dispatch",
  version: `${API}version`,
  progress: [
    "import js",
    "import json",
    "from gridforge import api",  // i18n-ok: Python source
    "from gridforge.progress import Progress",  // i18n-ok: Python source
    "api.set_progress(Progress(lambda done, total, label, figures: js.gridforgeProgress(done, total, label, json.dumps(figures))))",  // i18n-ok: Python source
  ].join("\n"),
});

/** A failed call in the player's words (Python wrote them); the original stays on `.detail`. */
/**
 * @param {any} error
 * @returns {Error & {type?: string, issues?: unknown, detail?: string}}
 */
export function playerError(error) {
  const raw = String((error && error.message) || error || "unknown error");
  const type = error && error.type;
  if (type === "InternalError") console.error(raw);  // the details for a bug report
  const text = error && typeof error.text === "string" ? error.text
    : type === "Cancelled" ? t("error.cancelled") : raw;
  const out = /** @type {Error & {type?: string, issues?: unknown, detail?: string}} */ (new Error(text));
  out.type = type;
  out.issues = error && error.issues;
  out.detail = raw;
  return out;
}

/**
 * What the page keeps of each game in play. Python's midend answers a game's view and offer
 * in full when it opens, then only `changes`: `[path, value]` pairs, the value now at each
 * path of `{view, offer}`. `whole(answer)` applies them to the last view and offer of the
 * answer's game (`id`) and answers the answer with both whole; a changed part is a new
 * object, an unchanged one the same object as before. `forget(id)` drops a closed game.
 */
export function pageCopy(limit = 32) {
  /** @type {Map<string, {view: unknown, offer: unknown}>} */
  const games = new Map();
  /**
   * @template T
   * @param {T} reply
   * @returns {T}
   */
  function whole(reply) {
    const answer = /** @type {any} */ (reply);  // any answer passes: play answers are made whole
    if (!answer || typeof answer.id !== "string" || !("changes" in answer)) return answer;
    let shown;
    if (answer.changes === null) shown = { view: answer.view, offer: answer.offer };
    else {
      const held = games.get(answer.id);
      if (!held) throw new Error(`changes for a game this page never opened (${answer.id})`);  // i18n-ok: a bug's report
      shown = applyChanges(held, answer.changes);
    }
    games.delete(answer.id);
    games.set(answer.id, shown);
    for (const id of games.keys()) {  // the oldest first, until the limit holds
      if (games.size <= limit) break;
      games.delete(id);
    }
    return { ...answer, view: shown.view, offer: shown.offer, changes: null };
  }
  return { whole, forget: (/** @type {string} */ id) => games.delete(id) };
}

/** `value` with each `[path, value]` of `changes` applied, copying only along the paths. */
export function applyChanges(value, changes) {
  const setAt = (at, path, i, next) => {
    if (i === path.length) return next;
    const copy = Array.isArray(at) ? at.slice() : { ...at };
    copy[path[i]] = setAt(at[path[i]], path, i + 1, next);
    return copy;
  };
  return changes.reduce((at, [path, next]) => setAt(at, path, 0, next), value);
}

/** The ways the contract calls Python over `invoke`: each takes a page function's name and
 * answers the method the screens call. */
function callers(/** @type {Invoke} */ invoke) {
  /** @type {<N extends PageVerb>(name: N) => Verb<N>} */
  const call = (name) => (...args) => invoke(name, args).catch((error) => { throw playerError(error); });
  // A play verb of either game: its answer made whole (see pageCopy); closing forgets it.
  const copy = pageCopy();
  /** @type {<N extends PageVerb>(name: N) => Verb<N>} */
  const play = (name) => { const f = call(name); return (...args) => f(...args).then(copy.whole); };
  /** @type {<N extends PageVerb>(name: N) => (id: string) => Promise<PageVerbs[N]["answer"]>} */
  const close = (name) => {
    const f = /** @type {(id: string) => Promise<PageVerbs[typeof name]["answer"]>} */ (call(name));
    return (id) => { copy.forget(id); return f(id); };
  };
  // One action of a game in play: both games' pages take `act(id, {do, ...})`; `input`
  // builds the action from the method's own arguments.
  /** @type {<N extends PageVerb>(name: N, input: (...args: any[]) => unknown) => (id: string, ...args: any[]) => Promise<PageVerbs[N]["answer"]>} */
  const act = (name, input) => {
    const f = /** @type {(id: string, action: unknown) => Promise<PageVerbs[typeof name]["answer"]>} */ (play(name));
    return (id, ...args) => f(id, input(...args));
  };
  // A long call: `(args, onProgress({done, total, label}))`.
  /** @type {<N extends PageVerb>(name: N) => (args: PageVerbs[N]["args"], onProgress?: OnProgress) => Promise<PageVerbs[N]["answer"]>} */
  const long = (name) => (args, onProgress = () => {}) =>
    invoke(name, args, onProgress).catch((error) => { throw playerError(error); });
  // A long call that never shows the busy overlay (the editor's live status).
  // Its `pythonName` lets a screen tell whether it is the call Python is running now.
  /** @type {<N extends PageVerb>(name: N) => Verb<N> & {pythonName: N}} */
  const quiet = (name) => Object.assign((/** @type {PageVerbs[typeof name]["args"]} */ ...args) =>
    invoke(name, args, () => {}, true).catch((error) => { throw playerError(error); }), { pythonName: name });
  return { call, play, close, act, long, quiet };
}

/**
 * The contract over `invoke(name, args, onProgress)` (the shell's tracked bridge call):
 * `{api, snakes, editor, mines, named}`, each method resolving to Python's JSON answer.
 */
export function makeContract(/** @type {Invoke} */ invoke) {
  const { call, play, close, act, long, quiet } = callers(invoke);
  /** @type {Promise<import("./types/bridge").Facts> | null} */
  let facts = null;
  const factsCall = call(`${SNAKES}facts`);
  return Object.freeze({
    api: { version: call(`${API}version`), functions: call(`${API}functions`),
      /** (progress, levels, aside) -> {value, parts, issues}: the saved progress's check. */
      checkProgress: call(`${API}check_progress`) },
    snakes: {
      /** {levels, cols: [min, max], rows: [min, max], import_max_bytes}; asked once. */
      facts() {
        facts ??= factsCall().catch((error) => { facts = null; throw error; });
        return facts;
      },
      start: play(`${SNAKES}open`),
      resume: play(`${SNAKES}resume`),
      step: act(`${SNAKES}act`, (step) => ({ do: "step", step })),
      undo: act(`${SNAKES}act`, () => ({ do: "undo" })),
      redo: act(`${SNAKES}act`, () => ({ do: "redo" })),
      restart: act(`${SNAKES}act`, () => ({ do: "restart" })),
      hint: call(`${SNAKES}hint`),
      close: close(`${SNAKES}close`),
      progressAfterWin: call(`${SNAKES}progress_after_win`),
      /** The stars (1..3) of a win in `steps` against the par (Python's rule). */
      stars: call(`${SNAKES}stars`),
      /** {number: stars} for the map's won levels ({number: best}, {number: par}). */
      starsOf: call(`${SNAKES}stars_of`),
      /** A main-line level's lesson (words and demonstration), or null. */
      lesson: call(`${SNAKES}lesson`),
      /** The rules screen's words and pictures for snakes. */
      rules: call(`${SNAKES}rules`),
      /** A telemetry attempt from the page's counts (Python counts runs and validates). */
      telemetryAttempt: call(`${SNAKES}telemetry_attempt`),
      telemetryCheck: call(`${SNAKES}telemetry_check`),
      /** What a weights file predicts beside a certificate's design score. */
      predictDifficulty: call(`${SNAKES}predict_difficulty`),
    },
    editor: {
      blank: call(`${SNAKES}editor_blank`),
      open: call(`${SNAKES}editor_open`),
      edit: call(`${SNAKES}editor_edit`),
      import: call(`${SNAKES}editor_import`),
      /** (items, request | null) -> the batch's text, as design-levels --out writes it. */
      exportBatch: call(`${SNAKES}editor_export_batch`),
      /** The live status of a draft (issue 23): {state, steps, lower_bound, score, reasons}. */
      status: quiet(`${SNAKES}editor_status`),
      /** Why a level fails: [{kind, text, color, cells}]. */
      reasons: call(`${SNAKES}editor_reasons`),
      /** A new draft from the position after some steps of play. */
      levelAt: call(`${SNAKES}editor_level_at`),
      /** {batch, text}: a designed batch and its bytes as design-levels --out writes them. */
      designBatch: long(`${SNAKES}editor_design`),
      freeArea: call(`${SNAKES}editor_free_area`),
      shareText: call(`${SNAKES}editor_share_text`),
      position: call(`${SNAKES}position`),
      topologies: call(`${SNAKES}topologies`),
      /** {certificate, reason}: the reason in a designer's words. */
      verify: long(`${SNAKES}editor_verify`),
      design: long(`${SNAKES}design_levels`),
    },
    mines: {
      newRun: play(`${MINES}open`),
      resumeRun: play(`${MINES}resume`),
      closeRun: close(`${MINES}close`),
      primary: act(`${MINES}act`, (cell) => ({ do: "primary", cell })),
      secondary: act(`${MINES}act`, (cell) => ({ do: "secondary", cell })),
      /** One intent of the engine, `{kind, cell}`. */
      act: act(`${MINES}act`, ({ kind, ...rest }) => ({ do: kind, ...rest })),
      continueRun: act(`${MINES}act`, () => ({ do: "continue" })),
      refresh: act(`${MINES}act`, () => ({ do: "refresh" })),
      hint: act(`${MINES}act`, () => ({ do: "hint" })),
      pickOffer: act(`${MINES}act`, (offer) => ({ do: "pick", offer })),
      useItem: act(`${MINES}act`, (item, cell) => ({ do: "use", item, ...(cell === undefined ? {} : { cell }) })),
      /** The seed of a date's daily run (a number). */
      dailySeed: call(`${MINES}daily_seed`),
      telemetry: call(`${MINES}telemetry`),
      /** The rules screen's words for mines. */
      rules: call(`${MINES}rules`),
    },
    /** The console's call by a name typed in (one that api.functions() lists). */
    named: (/** @type {string} */ name, /** @type {unknown[]} */ ...args) =>
      invoke(name, args).catch((error) => { throw playerError(error); }),
  });
}

/**
 * One serial queue for a screen: `run(task)` starts `task` once every earlier task has
 * settled and resolves or rejects as it does; a failure never stops the queue. `act(task)`
 * is `run` whose failure goes to `report(error)` (the message line) instead of the caller.
 * Nothing runs once `live()` is false. `onBusy(n)` hears the number of tasks not yet done.
 */
/**
 * @param {{report: (error: any) => void, live?: () => boolean, onBusy?: (waiting: number) => void}} hooks
 */
export function serialQueue({ report, live = () => true, onBusy = () => {} }) {
  /** @type {Promise<unknown>} */
  let tail = Promise.resolve();
  let waiting = 0;
  /**
   * @template T
   * @param {() => T | Promise<T>} task
   * @returns {Promise<T | undefined>}
   */
  function run(task) {
    waiting += 1;
    onBusy(waiting);
    const result = tail.then(() => (live() ? task() : undefined));
    tail = result.catch(() => {}).finally(() => { waiting -= 1; onBusy(waiting); });
    return result;
  }
  return {
    run,
    /** @param {() => unknown} task */
    act(task) {
      return run(task).catch((error) => { if (live()) report(error); });
    },
    /** Resolves once everything queued so far has settled. */
    settled() { return tail; },
  };
}
