// Saved state (spec/web.md, "Saved state"): the player's progress and the editor's drafts
// in localStorage. Saved state is never lost: a stored value that the store (it does not
// parse, an unknown format) or Python (a mines run it cannot resume) refuses is first copied
// to "<key>.corrupt.<ISO time>" and the copy read back equal; only then is the original
// touched. When no copy can be written (the storage quota), the original is *held*: it stays
// as it is, nothing is written over it, play goes on in memory, and the page offers its raw
// text as a file (the "held" event). Imports are validated whole (field paths) before
// anything is written, as deeply as the page would use them (a caller's deep check: the
// mines run resumes in Python, the level in progress exists and resumes).
//
// Any JSON the page can hold is read without harm: a value nested deeper than MAX_DEPTH or
// longer than MAX_STORED_CHARS is kept aside like any other value the page cannot use, for
// every key (structuredClone or a recursive reader would throw on it).
//
// Two tabs: the mines run carries a revision (progress.mines.rev), raised by every save; a
// tab saves its run only over the revision it resumed or last wrote (saveMinesRun), so a
// tab behind another never writes over the other's moves: it stops and says so. The snakes
// progress merges (every update is applied to the value as stored now), the drafts merge by
// draft (editor-drafts.js) and a settings save writes only the settings it changed.

export const PROGRESS_KEY = "gridforge.progress";
export const DRAFTS_KEY = "gridforge.drafts";
export const SETTINGS_KEY = "gridforge.settings";
const MAX_IMPORT_BYTES = 1_000_000;
const PREFIX = "gridforge.";  // every key of this site's saved data

import { t } from "./i18n.js";
import { SETTING_DEFAULTS, settingProblem } from "./settings-model.js";
import { isObject, later, MAX_DEPTH, MAX_STORED_CHARS, minesRev, minesRunOpen, parseStored,
  PROGRESS_FORMAT, progressIssues, said, tooDeep } from "./stored-value.js";

export { MAX_DEPTH, MAX_STORED_CHARS, minesRev, minesRunOpen, parseStored, PROGRESS_FORMAT,
  progressIssues, said, tooDeep };


/** A fresh progress object: level 1 open, nothing done, no mines run. */
export function freshProgress() {
  return { format: PROGRESS_FORMAT, snakes: { done: {}, open: 1 }, mines: { run: null } };
}

/** A storage error in words (a full quota is the usual one), worded when shown. */
function quotaWords(error) {
  const name = error && error.name;
  if (name === "QuotaExceededError" || name === "NS_ERROR_DOM_QUOTA_REACHED") return later("store.quota-full");
  const text = (error && error.message) || error;
  return text ? String(text) : later("store.refused");
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
function invalid(message, issues) {
  const error = new Error(message);
  error.issues = issues;
  return error;
}



export class Store extends EventTarget {
  /**
   * @param {Storage|null} storage localStorage (null when the browser refuses it)
   * @param {(text: string, kind: string) => void} report how problems reach the player
   */
  constructor(storage, report) {
    super();
    this.storage = storage;
    this.report = report;
    this.cache = new Map();
    /** key -> {key, text, why, what, error}: values that could not be copied aside, kept
     * in place and never written over until the player discards them. */
    this.held = new Map();
    /** The main line's last level number (setLevels), checked in saved progress. */
    this.levels = null;
  }

  /** The main line's last level number, as the build published it from Python (null: not
   * known, then any level number is taken). The shell sets it before the first screen. */
  setLevels(levels) {
    this.levels = Number.isInteger(levels) && levels >= 1 ? levels : null;
  }

  readRaw(key) {
    try { return this.storage ? this.storage.getItem(key) : null; } catch { return null; }
  }

  writeRaw(key, text) {
    if (this.held.has(key)) return false;  // the banner says why; the original stays
    try {
      if (!this.storage) throw new Error(t("store.off"));
      this.storage.setItem(key, text);
      return true;
    } catch (error) {
      this.report(later("store.not-saved", { why: error.message }), "error");
      return false;
    }
  }

  /**
   * Copy `text` to a new "<key>.corrupt.<ISO time>" and read it back: `{key}` when the copy
   * is there and equal, `{error}` otherwise (nothing of it left behind). Never touches `key`.
   */
  copyAside(key, text) {
    const base = `${key}.corrupt.${new Date().toISOString()}`;
    let name = base;
    for (let n = 2; this.readRaw(name) !== null; n++) name = `${base}.${n}`;
    try {
      if (!this.storage) throw new Error(t("store.off"));
      this.storage.setItem(name, text);
    } catch (error) {
      return { error: quotaWords(error) };
    }
    if (this.readRaw(name) === text) return { key: name };
    try { this.storage.removeItem(name); } catch { /* it was not written */ }
    return { error: later("store.copy-unequal") };
  }

  /** Keep `text` (the value of `key`) in place, never written over, and say so. */
  hold(key, text, why, what, error) {
    const held = { key, text, why, what, error };
    this.held.set(key, held);
    this.report(later("store.held", { what, why, error, key }), "error");
    this.dispatchEvent(new CustomEvent("held", { detail: this.heldList() }));
  }

  /** The held values: [{key, what, why, error, bytes}] (for the page's banner). */
  heldList() {
    return [...this.held.values()].map(({ key, what, why, error, text }) =>
      ({ key, what: said(what), why: said(why), error: said(error), chars: text.length }));
  }

  /** The raw text of a held value (to export), or null. */
  heldText(key) {
    return this.held.get(key)?.text ?? null;
  }

  /**
   * The player chose to let a held value go (after exporting it): remove it, lift the hold
   * and save what this tab holds in its place.
   */
  discardHeld(key) {
    const held = this.held.get(key);
    if (!held) return;
    try {
      if (this.readRaw(key) === held.text) this.storage?.removeItem(key);
    } catch { /* it stays; nothing more can be done */ }
    this.held.delete(key);
    if (this.cache.has(key)) this.writeRaw(key, JSON.stringify(this.cache.get(key)));
    this.dispatchEvent(new CustomEvent("held", { detail: this.heldList() }));
  }

  /**
   * A value of `key` refused (by the store or by Python): copy it aside, verified, and only
   * then remove the original (`remove`; otherwise the caller saves over it next). When no
   * copy can be written the original is held instead. Answers `{kept}` (the copy's key) or
   * `{held: true}`.
   */
  quarantine(key, text, why, what, { remove = true, fresh = later("store.fresh.play") } = {}) {
    const copy = this.copyAside(key, text);
    if (copy.error) {
      this.hold(key, text, why, what, copy.error);
      return { held: true };
    }
    if (remove) {
      try {
        if (this.readRaw(key) === text) this.storage?.removeItem(key);
      } catch { /* the original stays beside its copy */ }
    }
    this.report(later("store.quarantined", { what, why, copy: copy.key, fresh }), "error");
    return { kept: copy.key };
  }

  /**
   * Python refused part of the stored progress (a mines run it cannot resume): copy the
   * whole stored value aside before anything saves over it. Answers `{kept}` or `{held}`;
   * reports nothing (the screen says where the run went).
   */
  keepAside(key, why, what) {
    const text = this.readRaw(key) ?? (this.cache.has(key) ? JSON.stringify(this.cache.get(key)) : null);
    if (text === null) return { kept: null };
    if (this.held.has(key)) return { held: true };
    const copy = this.copyAside(key, text);
    if (copy.error) {
      this.hold(key, text, why, what, copy.error);
      return { held: true };
    }
    return { kept: copy.key };
  }

  /** The parsed progress (gridforge.progress/1); fresh when nothing valid is stored. */
  progress() {
    // Read afresh each time (another tab may have written); the cache serves only a
    // browser that refuses storage, so progress lasts at least until the tab closes.
    const text = this.readRaw(PROGRESS_KEY);
    if (text === null && this.cache.has(PROGRESS_KEY)) {
      return structuredClone(this.cache.get(PROGRESS_KEY));
    }
    const held = this.held.get(PROGRESS_KEY);
    if (held && text === held.text && this.cache.has(PROGRESS_KEY)) {
      return structuredClone(this.cache.get(PROGRESS_KEY));  // play goes on in memory
    }
    if (held && text !== held.text) {  // another tab replaced it: the hold is over
      this.held.delete(PROGRESS_KEY);
      this.dispatchEvent(new CustomEvent("held", { detail: this.heldList() }));
    }
    let value = freshProgress();
    if (text !== null) {
      const { value: parsed, why: unreadable } = parseStored(text);
      let why = unreadable ?? null;
      if (why === null) {
        const issues = progressIssues(parsed, this.levels);
        if (issues.length) why = issues.map((i) => `${i.path || t("store.path.value")}: ${i.message}`).slice(0, 3).join("; ");
        else value = parsed;
      }
      if (why !== null) this.quarantine(PROGRESS_KEY, text, why, later("store.what.progress"));
    }
    this.cache.set(PROGRESS_KEY, value);
    return structuredClone(value);
  }

  /** Read-modify-write: `fn(progress)` edits (or returns) the new progress, written at once. */
  updateProgress(fn) {
    const current = this.progress();
    const next = fn(current) ?? current;
    const issues = progressIssues(next, this.levels);
    if (issues.length) {
      // A bug in a screen, never the player's fault: keep the stored value as it was.
      throw invalid(t("store.invalid-progress"), issues);
    }
    this.cache.set(PROGRESS_KEY, structuredClone(next));
    this.writeRaw(PROGRESS_KEY, JSON.stringify(next));
    return structuredClone(next);
  }

  /** The stored mines run's revision now (read afresh: another tab may have saved). */
  minesRev() {
    return minesRev(this.progress().mines);
  }

  /**
   * Save the mines run (`{run, summary}`) over revision `base`, the one this tab resumed or
   * last wrote (null: a run this tab has just started, saved over whatever is stored).
   * Answers the new revision (the stored one, nothing written, when the stored run is this
   * very run already); throws StaleSave, writing nothing, when the stored run is at
   * another revision (another tab has saved moves this tab does not have).
   */
  saveMinesRun(mines, base) {
    const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
    const now = this.progress().mines;
    if (same(now.run, mines.run) && same(now.summary, mines.summary)) {
      return minesRev(now);  // nothing new (a resumed run answers its own save): no write
    }
    let rev = null;
    this.updateProgress((progress) => {
      const stored = minesRev(progress.mines);
      if (base !== null && stored !== base) throw new StaleSave(stored, base);
      rev = stored + 1;
      progress.mines = { ...progress.mines, ...mines, rev };
    });
    return rev;
  }

  /** The progress as a file's text (pretty JSON). */
  exportProgress() {
    return JSON.stringify(this.progress(), null, 1) + "\n";
  }

  /**
   * Replace the progress with `text` when it is valid; otherwise throw (an Error with
   * field-path `issues`) and change nothing. `check(progress)` (async) goes deeper, as the
   * page would use the value (the mines run resumes in Python, the level in progress exists
   * and resumes): it answers the issues it finds; nothing is written before it has answered
   * none. The imported mines run takes a revision past the stored one, so a tab still
   * playing the old run stops instead of writing over it.
   */
  async importProgress(text, check = null) {
    const refuse = (key, issues, params = {}) => invalid(t(key, params), issues);
    if (this.held.has(PROGRESS_KEY)) {
      throw refuse("store.import.held", [{ path: "", message: t("store.issue.held") }]);
    }
    if (typeof text !== "string" || text.length > MAX_IMPORT_BYTES) {
      throw refuse("store.import.too-large", [{ path: "", message: t("store.issue.too-large") }]);
    }
    let parsed;
    try { parsed = JSON.parse(text); } catch (error) {
      throw refuse("store.import.not-json", [{ path: "", message: t("store.issue.not-json") }], { detail: error.message });
    }
    const problems = (issues) => issues.slice(0, 3).map((i) => `${i.path || t("store.path.file")}: ${i.message}`).join("; ");
    if (tooDeep(parsed)) {
      const issues = [{ path: "", message: t("store.too-deep", { limit: MAX_DEPTH }) }];
      throw refuse("store.import.not-progress", issues, { problems: problems(issues) });
    }
    let issues = progressIssues(parsed, this.levels);
    if (!issues.length && check) issues = (await check(structuredClone(parsed))) || [];
    if (issues.length) throw refuse("store.import.not-progress", issues, { problems: problems(issues) });
    if (this.held.has(PROGRESS_KEY)) {  // held while Python was checking
      throw refuse("store.import.held", [{ path: "", message: t("store.issue.held") }]);
    }
    const next = structuredClone(parsed);
    next.mines = { ...next.mines, rev: Math.max(minesRev(parsed.mines), this.minesRev() + 1) };
    this.cache.set(PROGRESS_KEY, next);
    if (!this.writeRaw(PROGRESS_KEY, JSON.stringify(next))) {
      throw refuse("store.import.not-saved", [{ path: "", message: t("store.issue.not-saved") }]);
    }
    return structuredClone(next);
  }

  /** The editor's drafts (a list); corrupt values are kept aside like progress. */
  drafts() {
    if (this.cache.has(DRAFTS_KEY)) return structuredClone(this.cache.get(DRAFTS_KEY));
    const text = this.readRaw(DRAFTS_KEY);
    let value = [];
    if (text !== null) {
      const { value: parsed, why } = parseStored(text);
      if (why === undefined && Array.isArray(parsed)) value = parsed;
      else if (!this.held.has(DRAFTS_KEY)) {
        this.quarantine(DRAFTS_KEY, text, why ?? later("store.not-list"), later("store.what.drafts"),
          { fresh: later("store.fresh.drafts") });
      }
    }
    this.cache.set(DRAFTS_KEY, value);
    return structuredClone(value);
  }

  /** Forget the cached drafts: the next drafts() reads storage again (another tab wrote
   * them: the editor hears it through the window's "storage" event). */
  reloadDrafts() { this.cache.delete(DRAFTS_KEY); }

  /** Replace the drafts list. */
  setDrafts(list) {
    if (!Array.isArray(list)) throw new TypeError("setDrafts: drafts must be a list");
    this.cache.set(DRAFTS_KEY, structuredClone(list));
    this.writeRaw(DRAFTS_KEY, JSON.stringify(list));
  }

  /**
   * The saved settings (SETTING_DEFAULTS' fields; fields of a newer build are kept as they
   * are). A value that does not parse or is not an object is kept aside like progress and
   * the defaults apply; a field that is not what it should be (a theme that is no theme, a
   * volume past 100, a list of put-away lessons that is not one) is kept aside with the
   * rest (a verified copy of the whole value), that field goes back to its default and the
   * other settings stay, saved again.
   */
  settings() {
    const defaults = structuredClone(SETTING_DEFAULTS);
    const text = this.readRaw(SETTINGS_KEY);
    if (text === null) return defaults;
    const { value: parsed, why } = parseStored(text);
    if (why !== undefined || !isObject(parsed)) {
      if (!this.held.has(SETTINGS_KEY)) {
        this.quarantine(SETTINGS_KEY, text, why ?? later("store.not-object"),
          later("store.what.settings"), { fresh: later("store.fresh.settings") });
      }
      return defaults;
    }
    const settings = { ...parsed, ...defaults };
    const bad = [];
    for (const [key, fallback] of Object.entries(defaults)) {
      const value = parsed[key];
      if (value === undefined) continue;  // saved by an older build: the default
      const problem = settingProblem(key, value);
      if (problem) bad.push([key, value]);
      settings[key] = problem ? structuredClone(fallback)
        : key === "lessonsDismissed" ? [...new Set(value)] : value;
    }
    if (bad.length && !this.held.has(SETTINGS_KEY)) {
      const fresh = later(bad.length === 1 && bad[0][0] === "lessonsDismissed" ? "store.fresh.lessons" : "store.fresh.rest");
      // Worded when shown (the settings are read before the catalogues are loaded).
      const why = () => bad.map(([key, value]) => `${key}: ${settingProblem(key, value)}`).join("; ");
      const kept = this.quarantine(SETTINGS_KEY, text, why, later("store.what.settings"), { remove: false, fresh });
      if (kept.kept) this.writeRaw(SETTINGS_KEY, JSON.stringify(settings));
    }
    return settings;
  }

  /**
   * Clear saved data: every value of this site in localStorage (progress, drafts, settings,
   * telemetry and the copies of damaged values kept aside) and what this tab holds of it.
   * Answers how many values were removed.
   */
  clearAll() {
    let removed = 0;
    try {
      const keys = [];
      for (let i = 0; this.storage && i < this.storage.length; i++) keys.push(this.storage.key(i));
      for (const key of keys) {
        if (key.startsWith(PREFIX)) {
          this.storage.removeItem(key);
          removed += 1;
        }
      }
    } catch (error) {
      this.report(later("store.clear-failed", { why: quotaWords(error) }), "error");
    }
    this.cache.clear();
    if (this.held.size) {
      this.held.clear();
      this.dispatchEvent(new CustomEvent("held", { detail: this.heldList() }));
    }
    return removed;
  }

  /**
   * Save `settings`; with `changed` (the keys this tab changed), only those are written over
   * the settings as stored now, so another tab's changes since are kept.
   */
  saveSettings(settings, changed = null) {
    let next = settings;
    if (changed) {
      const stored = this.readRaw(SETTINGS_KEY);
      const { value } = stored === null ? { value: {} } : parseStored(stored);
      if (isObject(value)) {
        // Another tab's value of every other key wins; this tab's fills what none stored.
        next = { ...settings, ...value };
        for (const key of changed) next[key] = settings[key];
      }
    }
    this.writeRaw(SETTINGS_KEY, JSON.stringify(next));
  }
}
