// The state of one mines run on the page, and its only writer: the run's flow
// (mines-run.js), the intents (mines-intents.js) and the page (mines.js) read `m` and change
// it through the named transitions below, never by assigning its fields
// (tests/test_web_state.py holds this). What the run is lives in Python; `m` keeps its id,
// the last state drawn, this tab's place among the tabs, and the page's parts.

/**
 * A new run's page state for the shell `app`.
 * @param {import("../app.js").App} app
 */
export function minesState(app) {
  return {
    app,
    live: true,
    /** @type {string | null} */ runId: null,
    /** @type {any} */ state: null,                 // the run as last drawn (stateOf)
    flagMode: false,
    chordTipShown: false,
    /** @type {any} */ hint: null,                  // the last hint's answer
    /** @type {any} */ queue: null,                 // the serial queue of intents (made with the section)
    /** @type {number | null} */ savedRev: null,    // the run's revision this tab resumed or last saved
    stale: false,                                   // another tab has saved moves this tab does not have
    /** @type {string | null} */ startedOn: null,   // the day this tab started the run
    /** @type {string | null} */ dailyDate: null,   // today, and the day's seed (issue 51)
    /** @type {number | null} */ dailySeed: null,
    /** @type {number | null} */ pendingDaily: null,  // the daily run waiting for the player's yes
    // The route's own complaint ("#mines/extra": no such page) stays readable: the run's
    // opening words come after it instead of replacing it.
    /** @type {string | null} */
    routeProblem: app.route && app.route.problem ? app.route.problem : null,
    // The page's parts (viewBuilt): the board, the battle, the panels, the controls.
    /** @type {any} */ section: null,
    /** @type {any} */ view: null,
    /** @type {any} */ status: null,
    /** @type {any} */ fight: null,
    /** @type {any} */ buttons: null,
    /** @type {any} */ items: null,
    /** @type {any} */ newAsk: null,
    /** @type {any} */ seedBox: null,
    /** @type {any} */ overlay: null,
    /** @type {any} */ hintBox: null,
    /** @type {any} */ asking: null,
    /** @type {any} */ sequence: null,
    /** @type {any} */ log: null,
    /** @type {any} */ stats: null,
    /** @type {any} */ feedback: null,
    /** @type {any} */ staleBox: null,
    /** @type {any} */ layout: null,
    /** @type {any} */ input: null,
  };
}

/** @typedef {ReturnType<typeof minesState>} Mines */
/** Every answer of a run's verbs (gridforge.mines.page): the midend's envelope and the
 * run's own fields.
 * @typedef {import("../types/bridge").Opened | import("../types/bridge").ResumedRun
 *   | import("../types/bridge").RunAnswer} RunAnswer */

/** The page's parts, made: any of the part fields above. @param {Mines} m @param {Partial<Mines>} parts */
export function viewBuilt(m, parts) {
  for (const key of Object.keys(parts)) {
    if (!(key in m) || ["app", "live", "runId", "state"].includes(key)) throw new Error(`not a part: ${key}`);  // i18n-ok: a bug's report
  }
  Object.assign(m, parts);
}

/** The run's queue of intents, made by `make` the first time. @param {Mines} m @param {() => any} make */
export function queueOf(m, make) {
  m.queue ??= make();
  return m.queue;
}

/** The screen left: nothing more is drawn or asked. @param {Mines} m */
export function left(m) { m.live = false; }

/** A new run opened: its id, started today, saved over whatever is stored, the chord tip
 * due again. @param {Mines} m @param {string} id */
export function runStarted(m, id) {
  m.savedRev = null;  // a new run: saved over whatever is stored (the player chose it)
  m.startedOn = new Date().toISOString().slice(0, 10);
  m.runId = id;
  m.chordTipShown = false;
}

/** A saved run resumed at revision `rev`. @param {Mines} m @param {string} id @param {number} rev */
export function runResumed(m, id, rev) {
  m.savedRev = rev;
  m.runId = id;
}

/** The run's state as drawn now. @param {Mines} m @param {any} state */
export function stateTaken(m, state) { m.state = state; }

/** A hint's answer shown, or none (null). @param {Mines} m @param {any} answer */
export function hintShown(m, answer) { m.hint = answer; }

/** This tab saved the run at revision `rev`. @param {Mines} m @param {number} rev */
export function savedAt(m, rev) { m.savedRev = rev; }

/** Another tab is ahead (true), or this tab takes the run as saved now (false).
 * @param {Mines} m @param {boolean} on */
export function staleSet(m, on) { m.stale = on; }

/** The route's complaint, said once with the opening words: answers it, and forgets it.
 * @param {Mines} m */
export function routeProblemTaken(m) {
  const problem = m.routeProblem;
  m.routeProblem = null;
  return problem;
}

/** Today's date and its daily seed. @param {Mines} m @param {string} date @param {number | null} seed */
export function dailyKnown(m, date, seed) {
  m.dailyDate = date;
  m.dailySeed = seed;
}

/** The daily run waits for the player's yes (a seed), or no longer (null).
 * @param {Mines} m @param {number | null} seed */
export function dailyPending(m, seed) { m.pendingDaily = seed; }

/** The one-time "no chord" tip was shown in this run. @param {Mines} m */
export function chordTipped(m) { m.chordTipShown = true; }

/** Taps flag (true) or act (false). @param {Mines} m @param {boolean} on */
export function flagModeSet(m, on) { m.flagMode = on; }
