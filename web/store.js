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
//
// The keeping aside and holding are store-keep.js (KeepingStore); Store adds the page's
// values on top of it.

export const PROGRESS_KEY = "gridforge.progress";
export const DRAFTS_KEY = "gridforge.drafts";
export const SETTINGS_KEY = "gridforge.settings";
// The mines runs' log (issue 51), beside the progress (whose format it leaves alone): past
// runs, the best daily results, the lessons of rewards and items already taught.
export const MINES_LOG_KEY = "gridforge.mines-log";
const MINES_LOG_FORMAT = "gridforge.mines-log/1";
const RUNS_KEPT = 20;
const MAX_IMPORT_BYTES = 1_000_000;
const PREFIX = "gridforge.";  // every key of this site's saved data

import { t } from "./i18n.js";
import { KeepingStore, quotaWords } from "./store-keep.js";
import { OwnWins } from "./store-wins.js";
import { SETTING_DEFAULTS, settingProblem } from "./settings-model.js";
import { isObject, later, MAX_DEPTH, MAX_STORED_CHARS, minesRev, minesRunOpen, parseStored,
  invalid, PROGRESS_FORMAT, readable, said, StaleSave, tooDeep } from "./stored-value.js";

export { MAX_DEPTH, MAX_STORED_CHARS, minesRev, minesRunOpen, parseStored, PROGRESS_FORMAT,
  said, StaleSave, tooDeep };


/** A fresh progress object: level 1 open, nothing done, no mines run. */
export function freshProgress() {
  return { format: PROGRESS_FORMAT, snakes: { done: {}, open: 1 }, mines: { run: null } };
}


export class Store extends KeepingStore {
  /**
   * @param {Storage|null} storage localStorage (null when the browser refuses it)
   * @param {(text: import("./stored-value.js").Words, kind: string) => void} report how problems reach the player
   */
  constructor(storage, report) {
    super(storage, report);
    /** The main line's last level number (setLevels), checked in saved progress.
     * @type {number | null} */
    this.levels = null;
    /** The wins this tab made (store-wins.js), kept over another tab's save. */
    this.wins = new OwnWins();
    /** Python's check of a progress value (checkWith); null: none (nothing is checked). */
    this.checker = null;
    /** The progress read last had a part of the wrong kind, replaced in memory (readable). */
    this.patched = false;
  }

  /**
   * Another tab saved the progress (the window's "storage" event): this tab's wins it
   * dropped are written back (store-wins.js); a progress removed there forgets them.
   * @param {StorageEvent} event
   */
  heardOtherTab(event) {
    if (event.key !== null && event.key !== PROGRESS_KEY) return;
    if (event.key === null || event.newValue === null) {
      this.wins.forget();
      return;
    }
    const lost = this.wins.lostFrom(this.progress().snakes);
    if (lost) this.updateProgress((progress) => { this.wins.restore(progress.snakes, lost); });
  }

  /**
   * Python's check of the progress format (issue 53: the page keeps no copy of its rules):
   * `check(value, levels, aside)` answers `{value, parts, issues}` (`value` null: no
   * progress at all).
   */
  checkWith(check) {
    this.checker = check;
  }

  /** The main line's last level number, as the build published it from Python (null: not
   * known, then any level number is taken). The shell sets it before the first screen. */
  setLevels(levels) {
    this.levels = Number.isInteger(levels) && levels >= 1 ? levels : null;
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
    this.patched = false;
    if (text !== null) {
      const { value: parsed, why } = parseStored(text);
      if (why !== undefined) this.quarantine(PROGRESS_KEY, text, why, later("store.what.progress"));
      else {
        // Checked by Python once it is loaded (checkProgress); until then as it may be read.
        const view = readable(parsed);
        value = view.value ?? value;
        this.patched = view.patched || view.value === null;
      }
    }
    this.cache.set(PROGRESS_KEY, value);
    return structuredClone(value);
  }

  /**
   * The stored progress checked by Python (checkWith), part by part (issue 54): each bad
   * part, and the part of each issue of `aside` (`[{path, message}]`: what a screen found it
   * cannot use), is set aside alone with its field paths (the whole stored text copied aside
   * first, a notice that stays), the rest kept as stored; a value that is no progress at all
   * is kept aside whole and a fresh one starts. Answers the parts set aside (`[{part,
   * issues}]`).
   */
  async checkProgress(aside = []) {
    for (let tries = 0; tries < 3 && this.checker; tries += 1) {
      const text = this.readRaw(PROGRESS_KEY);
      if (text === null || this.held.has(PROGRESS_KEY)) return [];
      const { value: parsed, why } = parseStored(text);
      if (why !== undefined) return [];  // progress() keeps it aside
      const checked = await this.checker(parsed, this.levels, aside);
      if (this.readRaw(PROGRESS_KEY) !== text) continue;  // written meanwhile: check it again
      this.cache.delete(PROGRESS_KEY);
      if (checked.value === null) {
        const why = checked.issues.slice(0, 3)
          .map((i) => `${i.path || t("store.path.value")}: ${i.message}`).join("; ");
        this.quarantine(PROGRESS_KEY, text, why, later("store.what.progress"));
        return [{ part: "", issues: checked.issues }];
      }
      if (checked.parts.length) {
        this.setAsideParts(PROGRESS_KEY, text, checked.value, checked.parts, later("store.what.progress"));
      }
      return checked.parts;
    }
    return [];
  }

  /** Read-modify-write: `fn(progress)` edits (or returns) the new progress, written at once. */
  updateProgress(fn) {
    const current = this.progress();
    const before = structuredClone(current.snakes);
    const next = fn(current) ?? current;
    // A part read as fresh (readable) before Python's check: the stored whole goes aside
    // first, so that nothing of it is lost by this write.
    if (this.patched && this.keepAside(PROGRESS_KEY, t("store.not-object"), later("store.what.progress")).held) {
      return structuredClone(current);
    }
    this.wins.wrote(before, next.snakes);
    this.patched = false;
    this.cache.set(PROGRESS_KEY, structuredClone(next));
    this.writeRaw(PROGRESS_KEY, JSON.stringify(next));
    return structuredClone(next);
  }

  /**
   * What a screen found it cannot use in the stored progress (a level's best below its
   * proven minimum, a mines run Python cannot resume), as issues `[{path, message}]`: the
   * part each lies in is set aside alone, with whatever else Python's check finds
   * (checkProgress). Answers the progress without them.
   */
  async setAsideProgressIssues(issues) {
    await this.checkProgress(issues);
    return this.progress();
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
  /**
   * @param {string} text
   * @param {((value: unknown) => Promise<{path: string, message: string}[] | null>) | null} check
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
      throw refuse("store.import.not-json", [{ path: "", message: t("store.issue.not-json") }], { detail: /** @type {Error} */ (error).message });
    }
    const problems = (issues) => issues.slice(0, 3).map((i) => `${i.path || t("store.path.file")}: ${i.message}`).join("; ");
    if (tooDeep(parsed)) {
      const issues = [{ path: "", message: t("store.too-deep", { limit: MAX_DEPTH }) }];
      throw refuse("store.import.not-progress", issues, { problems: problems(issues) });
    }
    // The format is Python's to check (checkWith), then `check` goes as deep as the page would.
    let issues = this.checker ? (await this.checker(structuredClone(parsed), this.levels, [])).issues : [];
    if (!issues.length && check) issues = (await check(structuredClone(parsed))) || [];
    if (issues.length) throw refuse("store.import.not-progress", issues, { problems: problems(issues) });
    if (this.held.has(PROGRESS_KEY)) {  // held while Python was checking
      throw refuse("store.import.held", [{ path: "", message: t("store.issue.held") }]);
    }
    const next = structuredClone(parsed);
    next.mines = { ...next.mines, rev: Math.max(minesRev(parsed.mines), this.minesRev() + 1) };
    this.wins.forget();  // the file read is what stands now
    this.cache.set(PROGRESS_KEY, next);
    if (!this.writeRaw(PROGRESS_KEY, JSON.stringify(next))) {
      throw refuse("store.import.not-saved", [{ path: "", message: t("store.issue.not-saved") }]);
    }
    return structuredClone(next);
  }

  /** The mines runs' log: `{format, runs (newest first), daily: {date: best}, taught}`; a
   *  corrupt value is kept aside like progress and a fresh log starts. */
  minesLog() {
    if (this.cache.has(MINES_LOG_KEY)) return structuredClone(this.cache.get(MINES_LOG_KEY));
    const text = this.readRaw(MINES_LOG_KEY);
    let value = { format: MINES_LOG_FORMAT, runs: [], daily: {}, taught: [] };
    if (text !== null) {
      const { value: parsed, why } = parseStored(text);
      const fits = why === undefined && isObject(parsed) && parsed.format === MINES_LOG_FORMAT &&
        Array.isArray(parsed.runs) && isObject(parsed.daily) && Array.isArray(parsed.taught);
      if (fits) value = parsed;
      else if (!this.held.has(MINES_LOG_KEY)) {
        this.quarantine(MINES_LOG_KEY, text, why ?? later("store.not-mines-log"),
          later("store.what.mines-log"), { fresh: later("store.fresh.mines-log") });
      }
    }
    this.cache.set(MINES_LOG_KEY, value);
    return structuredClone(value);
  }

  /** Change the mines runs' log with `fn(log) -> log` and store it. */
  updateMinesLog(fn) {
    this.cache.delete(MINES_LOG_KEY);  // another tab may have written it
    const next = fn(this.minesLog());
    this.cache.set(MINES_LOG_KEY, structuredClone(next));
    this.writeRaw(MINES_LOG_KEY, JSON.stringify(next));
    return next;
  }

  /** A run ended (`won`, `lost`) or was left for a new one (`stopped`): keep it in the
   *  history once (by `id`), and for a daily run its date's best result. */
  recordMinesRun(entry) {
    return this.updateMinesLog((log) => {
      if (log.runs.some((r) => r.id === entry.id)) return log;
      log.runs = [entry, ...log.runs].slice(0, RUNS_KEPT);
      if (entry.daily) {
        const best = log.daily[entry.daily];
        const rank = (r) => (r ? (r.result === "won" ? 100 : 0) + r.battle : -1);
        if (rank(entry) > rank(best)) log.daily[entry.daily] = { result: entry.result, battle: entry.battle };
      }
      return log;
    });
  }

  minesTaught() { return this.minesLog().taught; }

  markMinesTaught(name) {
    this.updateMinesLog((log) => ({ ...log, taught: [...new Set([...log.taught, name])] }));
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
    if (bad.length && !this.held.has(SETTINGS_KEY)) this.badSettingsAside(text, settings, bad);
    return settings;
  }

  /** Settings with `bad` values ([key, value]: each taken as its default): the stored text
   * copied aside, then `settings` written over it. */
  badSettingsAside(text, settings, bad) {
    const fresh = later(bad.length === 1 && bad[0][0] === "lessonsDismissed" ? "store.fresh.lessons" : "store.fresh.rest");
    // Worded when shown (the settings are read before the catalogues are loaded).
    const why = () => bad.map(([key, value]) => `${key}: ${settingProblem(key, value)}`).join("; ");
    const kept = this.quarantine(SETTINGS_KEY, text, why, later("store.what.settings"), { remove: false, fresh });
    if (kept.kept) this.writeRaw(SETTINGS_KEY, JSON.stringify(settings));
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
      const storage = this.storage;
      for (let i = 0; storage && i < storage.length; i++) keys.push(storage.key(i) ?? "");
      for (const key of keys) {
        if (storage && key.startsWith(PREFIX)) {
          storage.removeItem(key);
          removed += 1;
        }
      }
    } catch (error) {
      this.report(later("store.clear-failed", { why: quotaWords(error) }), "error");
    }
    this.cache.clear();
    this.wins.forget();
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
  saveSettings(/** @type {Record<string, any>} */ settings, /** @type {string[] | null} */ changed = null) {
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
