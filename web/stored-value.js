// What a stored value may be (used by store.js, which keeps it): any stored text read without
// harm (its depth and size bounded), the progress as screens may read it before Python has
// checked it, the mines run's revision and whether it is still open, and the errors the
// store raises (a stale mines save, field-path issues). No storage is touched here; the
// progress format's rules are Python's (gridforge.saves).

import { t } from "./i18n.js";

export const PROGRESS_FORMAT = "gridforge.progress/1";
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

/**
 * A stored progress value as the screens may read it before Python has checked it
 * (issue 53: the format's rules are Python's alone, gridforge.saves, asked once it is
 * loaded): `{value, patched}`, the value with a part of the wrong kind for a screen to read
 * (snakes, its done, mines not objects) at its fresh state in memory, `patched` saying so;
 * `{value: null}` for no progress of this format at all. Nothing is judged or said here.
 */
export function readable(value) {
  if (!isObject(value) || value.format !== PROGRESS_FORMAT) return { value: null, patched: false };
  const out = { ...value };
  let patched = false;
  if (!isObject(out.snakes) || !isObject(out.snakes.done)) {
    out.snakes = { done: {}, open: 1 };
    patched = true;
  }
  if (!isObject(out.mines)) {
    out.mines = { run: null };
    patched = true;
  }
  return { value: out, patched };
}

/** Whether the stored mines run can still be played (not won or lost: the Mines screen
 * starts a new run then, its end screen having been shown). */
export function minesRunOpen(mines) {
  return Boolean(mines.run) && !["won", "lost"].includes(mines.summary?.status);
}

/** Another tab saved a newer revision of the mines run: this tab's save was not written. */
export class StaleSave extends Error {
  constructor(stored, base) {
    super(t("store.stale-run"));
    this.name = "StaleSave";
    this.stored = stored;
    this.base = base;
  }
}

/** An Error carrying field-path issues, as app.call's errors do. */
export function invalid(/** @type {string} */ message, /** @type {unknown} */ issues) {
  const error = /** @type {Error & {issues?: unknown}} */ (new Error(message));
  error.issues = issues;
  return error;
}
