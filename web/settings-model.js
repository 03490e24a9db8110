// The settings the page keeps (gridforge.settings): each choice, its default and what a
// stored value must be. store.js reads and writes them; settings.js draws the screen.

import { t } from "./i18n.js";

const LESSON_KEY = /^[a-z][a-z0-9-]{0,39}$/;  // a lesson's key (settings.lessonsDismissed)
const MAX_LESSONS = 100;

/** The settings screen's choices and their defaults (gridforge.settings). */
export const THEMES = ["system", "light", "dark"];
export const MOTIONS = ["system", "reduce"];  // follow prefers-reduced-motion, or always reduce
export const LANGUAGE_CHOICES = ["system", "en", "zh-CN"];  // follow the browser, or one of i18n.js's
export const SETTING_DEFAULTS = Object.freeze({
  colourLetters: false,   // a letter on each colour, for colour-blind players
  developer: false,       // the Console tab and the version line
  lessonsDismissed: [],   // lessons put away ("Got it")
  sound: true,            // sound effects (feel.js)
  volume: 70,             // 0..100
  vibration: true,        // short vibrations on phones, with the sounds (feel.js)
  theme: "system",        // one of THEMES
  motion: "system",       // one of MOTIONS
  language: "system",     // one of LANGUAGE_CHOICES ("system": the browser's, navigator.languages)
});

/** Whether `value` is a list of dismissed lessons' keys (at most MAX_LESSONS). */
function lessonKeys(value) {
  return Array.isArray(value) && value.length <= MAX_LESSONS &&
    value.every((k) => typeof k === "string" && LESSON_KEY.test(k));
}

const ON_OFF = ["colourLetters", "developer", "sound", "vibration"];  // the switches

/** What is wrong with `value` as the setting `key` ("" when it is fine). */
export function settingProblem(key, value) {
  if (ON_OFF.includes(key)) return typeof value === "boolean" ? "" : t("settings.problem.boolean");
  const choices = new Map([["theme", THEMES], ["motion", MOTIONS], ["language", LANGUAGE_CHOICES]]).get(key);
  if (choices) return choices.includes(value) ? "" : t("store.issue.one-of", { choices: choices.join(", ") });
  if (key === "volume") {
    return Number.isInteger(value) && value >= 0 && value <= 100 ? "" : t("settings.problem.volume");
  }
  if (key === "lessonsDismissed") return lessonKeys(value) ? "" : t("settings.problem.lessons");
  return "";
}
