// What a stored value may be (used by store.js, which keeps it): the progress value's shape
// with field paths, any stored text read without harm (its depth and size bounded), and the
// mines run's revision and whether it is still open. No storage is touched here.

import { t } from "./i18n.js";

export const PROGRESS_FORMAT = "gridforge.progress/1";
const RUN_STATUSES = ["playing", "settled", "won", "lost"];  // a mines run, as Python says
// The deepest nesting and the longest text a stored value may have: Python's reader takes
// 32 levels and 8 MiB (gridforge.errors), and nothing the page saves comes near either.
export const MAX_DEPTH = 32;
export const MAX_STORED_CHARS = 8 * 1024 * 1024;

/** Words of a report: said now, or a function that says them when shown.
 * @typedef {string | (() => string)} Words */

/** A text said now: words, or a function that says them (the store may report before the
 * catalogues are loaded; a report is worded when it is shown, in the language then in use). */
export function said(/** @type {unknown} */ text) {
  return typeof text === "function" ? text() : text;
}
/** A message of the catalogue, worded when it is shown (its params may be lazy too). */
/** @type {(key: string, params?: Record<string, unknown>) => () => string} */
export const later = (key, params = {}) => () => t(key, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, said(v)])));

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
export const isCount = (v, min, max) => Number.isInteger(v) && v >= min && v <= max;

/** Whether `value` (parsed JSON) nests deeper than `limit` arrays and objects (a loop, not
 * recursion: any depth is measured without running out of stack). */
export function tooDeep(value, limit = MAX_DEPTH) {
  /** @type {[unknown, number][]} */
  const stack = [[value, 1]];
  while (stack.length) {
    const [node, depth] = /** @type {[unknown, number]} */ (stack.pop());
    if (node === null || typeof node !== "object") continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** A stored text parsed: `{value}`, or `{why}` (worded later) when it is too long, does not
 * parse or nests too deeply: never throws. */
export function parseStored(text) {
  if (typeof text !== "string" || text.length > MAX_STORED_CHARS) {
    return { why: later("store.too-large", { limit: MAX_STORED_CHARS }) };
  }
  let value;
  try { value = JSON.parse(text); } catch { return { why: later("store.not-json") }; }
  if (tooDeep(value)) return { why: later("store.too-deep", { limit: MAX_DEPTH }) };
  return { value };
}

/** The mines run's revision in `mines` (0 before the first save that carried one). */
export function minesRev(mines) {
  return isObject(mines) && Number.isInteger(mines.rev) && mines.rev >= 0 ? mines.rev : 0;
}

/** Every problem of a progress value, as `{path, message}` issues (empty when valid);
 * level numbers go up to `levels`, the main line's last (any, when it is not known). */
export function progressIssues(/** @type {any} */ value, /** @type {number | null} */ levels = null) {
  /** @type {{path: string, message: string}[]} */
  const issues = [];
  /** @type {Bad} */
  const bad = (path, message) => { issues.push({ path, message }); };
  if (!isObject(value)) {
    bad("", t("store.issue.object"));
    return issues;
  }
  if (value.format !== PROGRESS_FORMAT) {
    bad("format", t("store.issue.format", { format: PROGRESS_FORMAT }));
  }
  for (const key of Object.keys(value)) {
    if (!["format", "snakes", "mines"].includes(key)) bad(key, t("store.issue.unknown-field"));
  }
  if (!isObject(value.snakes)) bad("snakes", t("store.issue.snakes"));
  else snakesIssues(value.snakes, levels, bad);
  if (!isObject(value.mines)) bad("mines", t("store.issue.mines"));
  else minesIssues(value.mines, bad);
  return issues;
}

/** @typedef {(path: string, message: string) => void} Bad an issue's reporter */

/** The problems of the main line's progress `snakes` (an object). */
function snakesIssues(/** @type {any} */ snakes, /** @type {number | null} */ levels, /** @type {Bad} */ bad) {
  const last = levels ?? Number.MAX_SAFE_INTEGER;
  for (const key of Object.keys(snakes)) {
    if (!["done", "open", "current"].includes(key)) bad(`snakes.${key}`, t("store.issue.unknown-field"));
  }
  if (!isCount(snakes.open, 1, last)) {
    bad("snakes.open", levels ? t("store.issue.level-number", { levels }) : t("store.issue.level-number-any"));
  }
  if (!isObject(snakes.done)) bad("snakes.done", t("store.issue.done"));
  else doneIssues(snakes.done, levels, bad);
  currentIssues(snakes.current, last, bad);
}

/** The problems of the levels done (`done`, an object of level number: best steps). */
function doneIssues(/** @type {any} */ done, /** @type {number | null} */ levels, /** @type {Bad} */ bad) {
  const last = levels ?? Number.MAX_SAFE_INTEGER;
  for (const [level, best] of Object.entries(done)) {
    if (!/^[1-9][0-9]*$/.test(level) || Number(level) > last) {
      bad(`snakes.done.${level}`, levels ? t("store.issue.not-level", { levels }) : t("store.issue.not-level-any"));
    } else if (!isCount(best, 1, 1_000_000)) {
      bad(`snakes.done.${level}`, t("store.issue.best"));
    }
  }
}

/** The problems of the level in progress (`current`: absent, null or an object). */
function currentIssues(/** @type {any} */ current, /** @type {number} */ last, /** @type {Bad} */ bad) {
  if (current === undefined || current === null) return;
  if (!isObject(current)) {
    bad("snakes.current", t("store.issue.object-or-null"));
    return;
  }
  if (!isCount(current.level, 1, last)) bad("snakes.current.level", t("store.issue.level"));
  for (const key of ["steps", "redo"]) {
    if (!Array.isArray(current[key])) bad(`snakes.current.${key}`, t("store.issue.steps"));
  }
  if (typeof current.sha !== "string") bad("snakes.current.sha", t("store.issue.sha"));
}

/** The problems of the mines part `mines` (an object): its run, revision and summary. */
function minesIssues(/** @type {any} */ mines, /** @type {Bad} */ bad) {
  if (mines.run !== null && !isObject(mines.run)) bad("mines.run", t("store.issue.object-or-null"));
  if (mines.rev !== undefined && !isCount(mines.rev, 0, Number.MAX_SAFE_INTEGER)) {
    bad("mines.rev", t("store.issue.rev"));
  }
  const summary = mines.summary;
  if (summary === undefined || summary === null) return;
  if (!isObject(summary)) {
    bad("mines.summary", t("store.issue.object-or-null"));
    return;
  }
  if (!RUN_STATUSES.includes(summary.status)) {
    bad("mines.summary.status", t("store.issue.one-of", { choices: RUN_STATUSES.join(", ") }));
  }
  if (!isCount(summary.battles, 1, 99)) bad("mines.summary.battles", t("store.issue.battles"));
  else if (!isCount(summary.battle, 1, summary.battles)) {
    bad("mines.summary.battle", t("store.issue.battle"));
  }
}

/** The part of the progress an issue at `path` lies in: the part set aside for it alone
 * (null: the whole value, its format or its shape, cannot be used). */
export function partOf(path) {
  const [top, second] = path.split(".");
  if (path === "" || top === "format") return null;
  if (top === "mines") return "mines";
  if (top !== "snakes") return top;  // a field of another build: set aside alone
  if (path.startsWith("snakes.done.")) return path;  // one level's record
  return second === undefined ? "snakes" : `snakes.${second}`;
}

/** `value` without `part` (partOf), changed in place: the rest left as it was, the part
 * at its fresh state. */
export function withoutPart(value, part, levels) {
  const snakes = value.snakes;
  if (part === "mines") {
    // Past the revision stored, so that a tab still playing the run set aside stops.
    const rev = minesRev(value.mines);
    value.mines = { run: null, rev: rev < Number.MAX_SAFE_INTEGER ? rev + 1 : 0 };
  } else if (part === "snakes") {
    value.snakes = { done: {}, open: 1 };
  } else if (part.startsWith("snakes.done.")) {
    delete snakes.done[part.slice("snakes.done.".length)];
  } else if (part === "snakes.done") {
    snakes.done = {};
  } else if (part === "snakes.open") {
    const won = Object.keys(isObject(snakes.done) ? snakes.done : {})
      .filter((level) => /^[1-9][0-9]*$/.test(level)).map(Number);
    snakes.open = Math.min(levels ?? Number.MAX_SAFE_INTEGER, Math.max(1, ...won.map((n) => n + 1)));
  } else if (part.startsWith("snakes.")) {
    delete snakes[part.slice("snakes.".length)];  // the level in progress, or a field unknown
  } else {
    delete value[part];
  }
}

/**
 * A progress value checked part by part (issue 54): the mines run, each level's record,
 * the level in progress, the open level. Answers `{value, parts}`: the value with every
 * bad part set aside alone (the rest as stored) and the parts set aside, each
 * `{part, issues}` with the issues' field paths; `{value: null}` when the value itself
 * cannot be used (not an object, another format).
 */
/**
 * @param {unknown} value
 * @param {number | null} levels
 * @returns {{value: object, parts: {part: string, issues: {path: string, message: string}[]}[],
 *   issues?: undefined} | {value: null, issues: {path: string, message: string}[], parts?: undefined}}
 */
export function progressParts(value, levels = null) {
  const issues = progressIssues(value, levels);
  if (!issues.length) return { value, parts: [] };
  if (issues.some((issue) => partOf(issue.path) === null)) return { value: null, issues };
  const byPart = new Map();
  for (const issue of issues) {
    const part = partOf(issue.path);
    byPart.set(part, [...(byPart.get(part) ?? []), issue]);
  }
  const next = structuredClone(value);
  // The whole snakes part first: its fields' own issues then need nothing more.
  const parts = [...byPart.keys()].sort((a, b) => a.length - b.length);
  for (const part of parts) {
    if (part.startsWith("snakes.") && byPart.has("snakes")) continue;
    withoutPart(next, part, levels);
  }
  if (progressIssues(next, levels).length) return { value: null, issues };
  return { value: next, parts: parts.map((part) => ({ part, issues: byPart.get(part) })) };
}

/** Whether the stored mines run can still be played (not won or lost: the Mines screen
 * starts a new run then, its end screen having been shown). */
export function minesRunOpen(mines) {
  return Boolean(mines.run) && !["won", "lost"].includes(mines.summary?.status);
}
