// Saved state that is never lost (store.js, spec/web.md "Saved state"): the raw reads and
// writes of localStorage, a refused value copied aside to "<key>.corrupt.<ISO time>" and
// read back equal before the original is touched, and a value that cannot be copied *held*
// in place (never written over) until the player lets it go. The page's values (progress,
// drafts, settings) are store.js's Store, built on this.
import { t } from "./i18n.js";
import { later, said } from "./stored-value.js";

/** @typedef {import("./stored-value.js").Words} Words */

/** A storage error in words (a full quota is the usual one), worded when shown.
 * @param {any} error
 * @returns {Words} */
export function quotaWords(error) {
  const name = error && error.name;
  if (name === "QuotaExceededError" || name === "NS_ERROR_DOM_QUOTA_REACHED") return later("store.quota-full");
  const text = (error && error.message) || error;
  return text ? String(text) : later("store.refused");
}

export class KeepingStore extends EventTarget {
  /**
   * @param {Storage|null} storage localStorage (null when the browser refuses it)
   * @param {(text: Words, kind: string) => void} report how problems reach the player
   */
  constructor(storage, report) {
    super();
    this.storage = storage;
    this.report = report;
    this.cache = new Map();
    /** key -> {key, text, why, what, error}: values that could not be copied aside, kept
     * in place and never written over until the player discards them. */
    this.held = new Map();
    /** What the player is told of saved values set aside, kept until read (dismissed):
     * [{id, text}], the text worded when shown. */
    this.notices = [];
    this.noticeCount = 0;
  }

  /** Tell the player `text` (words or a function that says them) in a notice that stays,
   * whatever screen comes next, until they dismiss it. */
  notice(text) {
    this.noticeCount += 1;
    this.notices.push({ id: this.noticeCount, text });
    this.dispatchEvent(new CustomEvent("notices"));
  }

  /** The notices not yet dismissed: [{id, text}] in words. */
  noticeList() {
    return this.notices.map(({ id, text }) => ({ id, text: said(text) }));
  }

  /** The player has read notice `id`. */
  dismissNotice(id) {
    this.notices = this.notices.filter((notice) => notice.id !== id);
    this.dispatchEvent(new CustomEvent("notices"));
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
      this.report(later("store.not-saved", { why: /** @type {Error} */ (error).message }), "error");
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
    const told = later("store.quarantined", { what, why, copy: copy.key, fresh });
    this.report(told, "error");
    this.notice(told);
    return { kept: copy.key };
  }

  /**
   * Some parts of the value of `key` (`text`) cannot be used (`parts`: [{part, issues}])
   * and `value` is the rest: copy the whole stored text aside, verified, then save `value`
   * in its place and say which parts were set aside, with their field paths (a notice
   * that stays). When no copy can be written the original is held and `value` is used in
   * memory only. Answers `{kept}` or `{held: true}`.
   */
  setAsideParts(key, text, value, parts, what) {
    const why = parts.flatMap((p) => p.issues).slice(0, 4)
      .map((issue) => `${issue.path}: ${issue.message}`).join("; ");
    const copy = this.copyAside(key, text);
    if (copy.error) {
      this.hold(key, text, why, what, copy.error);
      return { held: true };
    }
    this.writeRaw(key, JSON.stringify(value));
    const told = later("store.parts-aside", { what, why, copy: copy.key,
      parts: parts.map((p) => p.part).join(", ") });
    this.report(told, "error");
    this.notice(told);
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
}
