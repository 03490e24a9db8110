// The player's settings (#settings; spec/web.md, "Saved state"): kept in gridforge.settings
// by the store (its corrupt-value rule), applied at once on every screen. Each change is
// saved, applied (the theme and motion by theme.js) and announced to the screens with `onChange` (the
// shell turns it into app's "settings" event).
import { LANGUAGE_CHOICES, MOTIONS, SETTING_DEFAULTS, THEMES } from "./settings-model.js";

/**
 * The settings object the screens use as `app.settings`.
 * @param {import("./store.js").Store} store
 * @param {(values: object) => void} onChange called after every change, with a copy
 */
/**
 * @param {import("./store.js").Store} store
 * @param {(values: Record<string, any>) => void} onChange
 */
export function makeSettings(store, onChange) {
  let values = store.settings();

  // Only the key changed is written over the settings as stored now: a change made in
  // another tab since this one read them is kept (two tabs never undo each other's choices).
  function changed(key) {
    store.saveSettings(values, [key]);
    applyLook();
    onChange(structuredClone(values));
  }

  function applyLook() {
    globalThis.gridforgeTheme?.apply(values.theme, values.motion);
  }

  const flag = (key) => ({
    get() { return values[key] === true; },
    set(on) { values[key] = Boolean(on); changed(key); },
    enumerable: true,
  });

  const choice = (key, choices) => ({
    get() { return values[key]; },
    set(value) {
      if (!choices.includes(value)) throw new RangeError(`${key}: must be one of ${choices.join(", ")}`);
      values[key] = value;
      changed(key);
    },
    enumerable: true,
  });

  const settings = {
    /** A copy of every setting. */
    values() { return structuredClone(values); },
    /** Whether the player has put lesson `key` away ("Got it"; snakes-lesson.js). */
    lessonDismissed(key) { return values.lessonsDismissed.includes(key); },
    setLessonDismissed(key, on) {
      const others = values.lessonsDismissed.filter((k) => k !== key);
      values.lessonsDismissed = on ? [...others, key] : others;
      store.saveSettings(values, ["lessonsDismissed"]);
    },
    /** After the saved data was cleared: the defaults, applied (nothing is written). */
    reset() {
      values = structuredClone(SETTING_DEFAULTS);
      applyLook();
      onChange(structuredClone(values));
    },
  };
  Object.defineProperties(settings, {
    /** A letter drawn on each colour, for colour-blind players. */
    colourLetters: flag("colourLetters"),
    /** Developer tools: the Console tab and the version line (the #console route works
     * either way, for tools and tests). */
    developer: flag("developer"),
    /** Sound effects, and their volume (0..100): feel.js reads them at each sound. */
    sound: flag("sound"),
    volume: {
      get() { return values.volume; },
      set(level) {
        const number = Math.round(Number(level));
        values.volume = Number.isFinite(number) ? Math.min(100, Math.max(0, number)) : SETTING_DEFAULTS.volume;
        changed("volume");
      },
      enumerable: true,
    },
    /** Short vibrations on phones, with the sounds (feel.js). */
    vibration: flag("vibration"),
    /** "system" (follow prefers-color-scheme), "light" or "dark". */
    theme: choice("theme", THEMES),
    /** "system" (follow prefers-reduced-motion) or "reduce" (no animation, whatever the
     * system says). */
    motion: choice("motion", MOTIONS),
    /** "system" (the browser's language: any zh* is Simplified Chinese, else English),
     * "en" or "zh-CN" (i18n.js). */
    language: choice("language", LANGUAGE_CHOICES),
  });
  applyLook();  // a damaged stored theme or motion that theme.js took goes back to the default
  return settings;
}
